//! `realmgm analyze A.toml [B.toml]`: what a house rule does, measured over
//! seeded months played by the planning bot ([`crate::analyze`]).
//! Text on the terminal, `--json` for scripts, `--out DIR` for an HTML page
//! with charts; a progress bar on a terminal; Ctrl-C stops with the months
//! done so far reported.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, bail};

use crate::analyze::{Analysis, Plan, Side};
use crate::campaign::Campaign;
use crate::games::GAMES;
use crate::magic_realm::data;

use super::emit;

/// The characters of an analysis when none are named.
const DEFAULT_CHARACTERS: &str = "Amazon, Black Knight, Swordsman, Wizard";

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The campaign file whose rules are measured (A).
    a: PathBuf,
    /// A second campaign file to compare with A on the same seeds (B).
    b: Option<PathBuf>,
    /// Compare A with A plus this rule toggle switched on, instead of a
    /// second file; may be given several times.
    #[arg(long = "with", value_name = "RULE")]
    with: Vec<String>,
    /// How many months to play under each file.
    #[arg(long, default_value_t = 200)]
    months: usize,
    /// The characters of every month, comma-separated.
    #[arg(long, default_value = DEFAULT_CHARACTERS)]
    characters: String,
    /// The first month's seed (month k plays on seed + k) [default: A's seed].
    #[arg(long)]
    seed: Option<u64>,
    /// Also write the analysis as an HTML page with charts, and as JSON, here.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Threads to play on [default: the machine's cores].
    #[arg(long)]
    threads: Option<usize>,
}

/// Run `realmgm analyze`.
///
/// # Errors
/// A campaign file cannot be read or is not Magic Realm, an unknown
/// character, or the output cannot be written.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let data = data::get()?;
    let (a, seed) = side(&args.a)?;
    let b = match (&args.b, args.with.is_empty()) {
        (Some(_), false) => bail!("compare A with a second file or with --with, not both"),
        (Some(b), true) => Some(side(b)?.0),
        (None, false) => Some(with_rules(&a, &args.with)?),
        (None, true) => None,
    };
    if args.months == 0 {
        bail!("--months must be at least 1");
    }
    let mut characters = Vec::new();
    for name in args
        .characters
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let names = || data.characters.iter().map(|c| c.name.as_str());
        let Some(found) = crate::suggest::find(name, names()) else {
            let hint = crate::suggest::did_you_mean(name, names());
            bail!("there is no character '{name}'{hint}");
        };
        if characters.iter().any(|c| c == found) {
            bail!("the {found} is named twice; each character plays once");
        }
        characters.push(found.to_string());
    }
    if characters.is_empty() {
        bail!("name at least one character with --characters");
    }
    let plan = Plan {
        a,
        b,
        months: args.months,
        characters,
        seed: args.seed.unwrap_or(seed),
    };
    let stop = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&stop))
        .context("cannot catch Ctrl-C")?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let bar = std::io::stderr().is_terminal();
    let months = plan.months;
    let progress = move |done: usize| {
        if bar {
            let filled = done * 40 / months;
            let _ = write!(
                std::io::stderr(),
                "\r[{}{}] {done}/{months} months",
                "#".repeat(filled),
                " ".repeat(40 - filled)
            );
        }
    };
    let played = crate::analyze::play(data, &plan, threads, &stop, &progress);
    if bar {
        let _ = writeln!(std::io::stderr());
    }
    let analysis = Analysis::of(&plan, &played);
    let json = serde_json::to_string_pretty(&analysis)?;
    if let Some(out) = &args.out {
        std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
        let page = out.join("analysis.html");
        std::fs::write(&page, crate::analyze::page::html(&analysis))
            .with_context(|| format!("cannot write {}", page.display()))?;
        std::fs::write(out.join("analysis.json"), format!("{json}\n"))
            .with_context(|| format!("cannot write {}", out.join("analysis.json").display()))?;
    }
    emit(if args.json { json } else { analysis.text() })?;
    if let Some(failure) = &played.failure {
        bail!(
            "a month broke the game's rules and stopped the run: {failure}; replay it with \
             --seed {} --months 1 and report it as a bug",
            failure.seed
        );
    }
    Ok(())
}

/// A's side with more rules switched on, named by what it adds.
fn with_rules(a: &Side, added: &[String]) -> anyhow::Result<Side> {
    let game = GAMES
        .find("magic-realm")
        .context("this realmgm has no Magic Realm")?;
    for name in added {
        if a.rules.is_on(name) {
            bail!(
                "{} already has the rule '{name}'; --with adds a rule it lacks",
                a.file
            );
        }
    }
    let rules = crate::game::Rules::new(
        a.rules.names().chain(added.iter().map(String::as_str)),
        game.toggles(),
    )?;
    Ok(Side {
        file: format!("{} with {}", a.file, added.join(", ")),
        rules,
        ..a.clone()
    })
}

/// A campaign file's rules and victory points, and its seed.
fn side(file: &PathBuf) -> anyhow::Result<(Side, u64)> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the campaign file {}", file.display()))?;
    let campaign = Campaign::parse(&file.display().to_string(), &text, GAMES)?;
    if campaign.game != "magic-realm" {
        bail!(
            "{} is a {} campaign; analyze plays Magic Realm months only",
            file.display(),
            campaign.game
        );
    }
    let mut side = Side::standard(&file.display().to_string(), campaign.rules.clone());
    if let Some(calendar) = &campaign.calendar {
        side.victory_points = calendar.victory_points;
        side.months = calendar.months;
        side.season.clone_from(&calendar.start_season);
    }
    Ok((side, campaign.seed))
}
