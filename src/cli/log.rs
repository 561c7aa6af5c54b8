//! The daemon's log through `tracing`: each line with its UTC
//! time and level, the campaign or mail id as fields, on standard output
//! (journald and container runtimes collect it there). Text for a person
//! by default, `--log-format json` for a log collector. Quiet by default:
//! only what happened (mail read, days processed, mail sent, errors);
//! `-v` adds the rounds where nothing happened, `-vv` everything.

use tracing::Level;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One line of text per event.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Start the log for this process.
///
/// # Errors
/// A log was started already.
pub fn init(format: LogFormat, verbose: u8) -> anyhow::Result<()> {
    let level = match verbose {
        0 => Level::INFO,
        1 => Level::DEBUG,
        _ => Level::TRACE,
    };
    let builder = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_target(false)
        .with_ansi(false)
        .with_writer(std::io::stdout);
    let started = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    started.map_err(|e| anyhow::anyhow!("cannot start the log: {e}"))
}
