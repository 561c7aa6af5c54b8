//! The command line: one clap command tree, each command group in its own
//! module. Commands print results on stdout and return errors for `main` to
//! print on stderr.

mod data;
mod fantasy;

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
    /// Look up the original game's components.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Fantasy Realms: score a hand with its best choices.
    Fantasy {
        #[command(subcommand)]
        command: fantasy::FantasyCommand,
    },
    /// Roll dice from a campaign seed, to check a ruling by hand.
    Roll(RollArgs),
}

#[derive(Debug, Subcommand)]
enum DataCommand {
    /// Show one entry or all entries of a kind, e.g. `data show characters Amazon`.
    Show(data::ShowArgs),
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
}

/// Parse the process arguments and run the command.
///
/// # Errors
/// Whatever the command reports, worded for the user.
pub fn run() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Data {
            command: DataCommand::Show(args),
        } => data::show(&args),
        Command::Fantasy { command } => fantasy::run(&command),
        Command::Roll(args) => roll(&args),
    }
}

fn roll(args: &RollArgs) -> anyhow::Result<()> {
    use crate::dice::{Dice, DiceCount};
    let count = if args.one {
        DiceCount::One
    } else {
        DiceCount::Two
    };
    let mut dice = Dice::new(args.seed, args.day);
    for _ in 0..args.times {
        let roll = dice.roll(&args.purpose, count);
        let faces: Vec<String> = roll.faces.iter().map(u8::to_string).collect();
        println!("{} ({})", roll.result, faces.join(","));
    }
    Ok(())
}
