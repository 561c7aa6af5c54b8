//! The command line: one clap command tree, each command group in its own
//! module. Commands print results on stdout and return errors for `main` to
//! print on stderr.

mod analyze;
mod backup;
mod battle;
mod board;
mod campaign;
mod daemon;
mod data;
pub mod day;
mod db_path;
mod demo;
mod fantasy;
mod idle;
mod item_views;
mod lock;
mod log;
mod mail_login;
mod orders;
mod report;
mod setup;
mod show_denizens;
mod site;
mod stop;
mod table;
mod transfer;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "realmgm",
    version,
    about = "Game master for play-by-email Magic Realm campaigns"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create, list and inspect campaigns in the database.
    Campaign {
        #[command(subcommand)]
        command: CampaignCommand,
    },
    /// Look up the original game's components.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Build, check and draw the map.
    Board {
        #[command(subcommand)]
        command: BoardCommand,
    },
    /// Set up a game from a seed and print the GM's setup sheet.
    Setup {
        #[command(subcommand)]
        command: SetupCommand,
    },
    /// Read orders as the daemon will.
    Orders {
        #[command(subcommand)]
        command: OrdersCommand,
    },
    /// Create the demo campaign in a local folder (SQLite file, Maildir folders) and set it up.
    Demo(demo::DemoArgs),
    /// Copy the database to a new file, safely while the daemon runs, e.g. `backup backups/day-12.sqlite`.
    Backup(backup::BackupArgs),
    /// Print a shell completion script, e.g. `realmgm completions bash > /etc/bash_completion.d/realmgm`.
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff), e.g. `realmgm manual | man -l -`.
    Manual,
    /// Fantasy Realms: score a hand with its best choices.
    Fantasy {
        #[command(subcommand)]
        command: fantasy::FantasyCommand,
    },
    /// Roll dice from a campaign seed, to check a ruling by hand.
    Roll(RollArgs),
    /// Print a die table, or roll on one with modifiers, e.g. `table roll hide --seed 7`.
    Table {
        #[command(subcommand)]
        command: TableCommand,
    },
    /// Play one clearing's combat from a battle file, e.g. `battle run tests/battles/intercept.toml`.
    Battle {
        #[command(subcommand)]
        command: BattleCommand,
    },
    /// Play one day from a day file (a what-if), e.g. `day run tests/days/pony_move.toml`.
    Day {
        #[command(subcommand)]
        command: DayCommand,
    },
    /// Run the mail daemon: collect mail, answer it, run turns on schedule, send mail.
    Daemon(daemon::DaemonArgs),
    /// Store and answer one mail read from stdin (for an MTA pipe).
    Ingest(daemon::IngestArgs),
    /// The GM's controls: status, process, preview, rollback, orders, pause, resume, ...
    Gm(daemon::GmArgs),
    /// The campaign's mailbox sign-in: `mail login --campaign C` for OAuth 2.0.
    Mail {
        #[command(subcommand)]
        command: mail_login::MailCommand,
    },
    /// Check a campaign's mail settings (SMTP, IMAP, Maildir) and say what is wrong.
    Doctor(daemon::DoctorArgs),
    /// Print a stored day's report for a player (--player) or the GM's history (--gm).
    Report(report::ReportArgs),
    /// Measure what rules do: play seeded months with bots under one campaign file, or two side by side.
    Analyze(analyze::AnalyzeArgs),
    /// The campaign's public pages: day records, maps, standings, an Atom feed.
    Site {
        #[command(subcommand)]
        command: site::SiteCommand,
    },
}

#[derive(Debug, Subcommand)]
enum BattleCommand {
    /// Run a battle file and print the round-by-round log and the outcome.
    Run(battle::RunArgs),
}

#[derive(Debug, Subcommand)]
enum DayCommand {
    /// Run a day file and print the GM's history, each player's report and the outcome.
    Run(day::RunArgs),
}

#[derive(Debug, Subcommand)]
enum TableCommand {
    /// Name every die table.
    List,
    /// Print one table's rows, e.g. `table show meeting`.
    Show(table::ShowArgs),
    /// Roll on a table, e.g. `table roll meeting --column neutral --modifier Honor=-1 --seed 7 --day 3`.
    Roll(table::RollArgs),
}

#[derive(Debug, Subcommand)]
enum CampaignCommand {
    /// Store a new campaign from its file and print each player's secret once.
    New(campaign::NewArgs),
    /// Show a stored campaign: players, schedule, calendar and rules.
    Show(campaign::ShowArgs),
    /// List the stored campaigns.
    List(campaign::ListArgs),
    /// Apply an edited campaign file to a stored campaign: shows each change;
    /// schedule, mail, templates and the like apply, rules and seed are
    /// refused once the game has begun, e.g. `campaign edit BIMR3 bimr3.toml`.
    Edit(campaign::EditArgs),
    /// Write one campaign with its days, orders, reports and mail to a new
    /// file, to move it to another host, e.g. `campaign export BIMR3 bimr3.sqlite`.
    Export(transfer::ExportArgs),
    /// Add a campaign from a file written by `campaign export`.
    Import(transfer::ImportArgs),
}

#[derive(Debug, Subcommand)]
enum DataCommand {
    /// Show one entry or all entries of a kind, e.g. `data show characters Amazon`.
    Show(data::ShowArgs),
}

#[derive(Debug, Subcommand)]
enum BoardCommand {
    /// Show the board of a seed or of a placement file, e.g. `board show --seed 7 --svg map.svg`.
    Show(board::ShowArgs),
}

#[derive(Debug, Subcommand)]
enum SetupCommand {
    /// The setup sheet of a seed, e.g. `setup show --seed 7 --character Amazon --svg map.svg`.
    Show(setup::ShowArgs),
}

#[derive(Debug, Subcommand)]
enum OrdersCommand {
    /// Print the canonical phases of one activity line, e.g. `orders parse "M CV4, H, S"`.
    Parse(orders::ParseArgs),
    /// Check a whole orders file for a character of a campaign, e.g.
    /// `orders check day5.txt --campaign BIMR3 --character Amazon`.
    Check(orders::CheckArgs),
}

#[derive(Debug, clap::Args)]
struct RollArgs {
    /// The campaign seed.
    #[arg(long)]
    seed: u64,
    /// The game day (0 is setup).
    #[arg(long, default_value_t = 1)]
    day: u32,
    /// What the roll is for; each purpose has its own dice stream.
    purpose: String,
    /// Roll one die instead of two.
    #[arg(long)]
    one: bool,
    /// How many rolls to make.
    #[arg(long, default_value_t = 1)]
    times: u32,
    /// A dice script (TOML: purpose = [[faces], ...]) whose forced rolls come first.
    #[arg(long, value_name = "FILE")]
    script: Option<std::path::PathBuf>,
}

/// The command-line interface as clap sees it: every subcommand, option
/// and help text; tests parse the commands the program prints with it.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Parse the process arguments and run the command.
///
/// # Errors
/// Whatever the command reports, worded for the user.
pub fn run() -> anyhow::Result<()> {
    // Each game's embedded data is read when a command first needs it, not
    // here: the tests check every file, and a command that needs no game
    // data starts without paying for it.
    match Cli::parse().command {
        Command::Campaign { command } => match command {
            CampaignCommand::New(args) => campaign::new(&args),
            CampaignCommand::Show(args) => campaign::show(&args),
            CampaignCommand::List(args) => campaign::list(&args),
            CampaignCommand::Edit(args) => campaign::edit(&args),
            CampaignCommand::Export(args) => transfer::export(&args),
            CampaignCommand::Import(args) => transfer::import(&args),
        },
        Command::Data {
            command: DataCommand::Show(args),
        } => data::show(&args),
        Command::Board {
            command: BoardCommand::Show(args),
        } => board::show(&args),
        Command::Setup {
            command: SetupCommand::Show(args),
        } => setup::show(&args),
        Command::Orders {
            command: OrdersCommand::Parse(args),
        } => orders::parse(&args),
        Command::Orders {
            command: OrdersCommand::Check(args),
        } => orders::check(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Backup(args) => backup::run(&args),
        Command::Completions { shell } => {
            let mut command = self::command();
            // Written through `emit`, which stops quietly on a closed pipe.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "realmgm", &mut script);
            emit(String::from_utf8_lossy(&script).trim_end())
        }
        Command::Manual => {
            let command = self::command();
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page)?;
            emit(String::from_utf8_lossy(&page).trim_end())
        }
        Command::Fantasy { command } => fantasy::run(&command),
        Command::Roll(args) => roll(&args),
        Command::Table { command } => match command {
            TableCommand::List => table::list(),
            TableCommand::Show(args) => table::show(&args),
            TableCommand::Roll(args) => table::roll(&args),
        },
        Command::Battle {
            command: BattleCommand::Run(args),
        } => battle::run(&args),
        Command::Day {
            command: DayCommand::Run(args),
        } => day::run(&args),
        Command::Daemon(args) => daemon::run(&args),
        Command::Ingest(args) => daemon::ingest(&args),
        Command::Gm(args) => daemon::gm(&args),
        Command::Doctor(args) => daemon::doctor(&args),
        Command::Mail { command } => mail_login::run(&command),
        Command::Report(args) => report::run(&args),
        Command::Site { command } => site::run(&command),
        Command::Analyze(args) => analyze::run(&args),
    }
}

fn roll(args: &RollArgs) -> anyhow::Result<()> {
    use crate::dice::{Dice, DiceCount};
    let count = if args.one {
        DiceCount::One
    } else {
        DiceCount::Two
    };
    let script = match &args.script {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                anyhow::anyhow!("cannot read the dice script {}: {e}", path.display())
            })?;
            crate::dice::DiceScript::parse(&path.display().to_string(), &text)?
        }
        None => crate::dice::DiceScript::default(),
    };
    let mut dice = Dice::with_script(args.seed, args.day, script);
    for _ in 0..args.times {
        let roll = dice.roll(&args.purpose, count);
        let faces: Vec<String> = roll.faces.iter().map(u8::to_string).collect();
        let forced = if roll.forced { " forced" } else { "" };
        emit(format!("{} ({}){forced}", roll.result, faces.join(",")))?;
    }
    Ok(())
}

/// Print one block of output. A reader that goes away early (`| head`) is
/// not an error: the command simply stops.
pub(crate) fn emit(text: impl std::fmt::Display) -> anyhow::Result<()> {
    use std::io::Write;
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}

/// Make the folder `file` is to be written in, when it names one.
pub(crate) fn make_folder_for(file: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context;
    if let Some(folder) = file.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot make the folder {}", folder.display()))?;
    }
    Ok(())
}

/// The wall clock in Unix seconds: read here, at the edge, and handed to the
/// store and the engines, which never read it themselves.
pub(crate) fn now() -> anyhow::Result<i64> {
    use anyhow::Context;
    let elapsed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .context("the system clock is set before 1970")?;
    Ok(i64::try_from(elapsed.as_secs())?)
}
