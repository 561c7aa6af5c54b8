//! `realmgm table list|show|roll`: the Magic Realm die tables for a GM who
//! makes a ruling by hand — print a table, or roll on it from a campaign's
//! seeded dice (or read dice rolled at the table) with named modifiers.

use anyhow::{Context, anyhow, bail};

use crate::dice::{Dice, DiceScript};
use crate::magic_realm::data::characters::Relationship;
use crate::magic_realm::tables::Modifiers;
use crate::magic_realm::tables::catalog::{self, HandRoll, TableId};
use crate::magic_realm::tables::meeting::MeetingUse;

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The table, e.g. `hide`, `meeting`, `read-runes` (`table list` names them all).
    table: String,
}

/// What a Meeting roll is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Activity {
    Trade,
    Hire,
    /// The Sunset/Evening check whether an unhired group battles.
    BattlingCheck,
}

#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// The table, e.g. `hide`, `meeting`, `stumble` (`table list` names them all).
    table: String,
    /// Relationship column for `meeting` and `commerce`: enemy, unfriendly, neutral, friendly or ally.
    #[arg(long)]
    column: Option<String>,
    /// A die modifier, repeatable: `+1`, `-1`, or with its source, `Honor=-1`.
    #[arg(long = "modifier", allow_hyphen_values = true)]
    modifiers: Vec<String>,
    /// Roll one die instead of two (an advantage or item allows it).
    #[arg(long)]
    one_die: bool,
    /// The campaign seed whose dice to roll.
    #[arg(long)]
    seed: Option<u64>,
    /// The game day of the roll (0 is setup).
    #[arg(long, default_value_t = 1)]
    day: u32,
    /// Read dice rolled by hand instead, one roll per use: `--faces 3,5`.
    #[arg(long)]
    faces: Vec<String>,
    /// The dice purpose (each purpose has its own stream); default `table/<TABLE>`.
    #[arg(long)]
    purpose: Option<String>,
    /// The secret weather chit (1-6), for `weather`.
    #[arg(long)]
    chit: Option<u8>,
    /// What a `meeting` roll is for.
    #[arg(long, value_enum, default_value = "trade")]
    activity: Activity,
    /// The character buys drinks before a `meeting` roll.
    #[arg(long)]
    drinks: bool,
    /// On an Opportunity take the column's "2" result (BIMR3 house rule).
    #[arg(long)]
    decline_opportunity: bool,
}

pub fn list() -> anyhow::Result<()> {
    let keys: Vec<&str> = TableId::keys().collect();
    super::emit(keys.join("\n"))
}

pub fn show(args: &ShowArgs) -> anyhow::Result<()> {
    let id = table_id(&args.table)?;
    super::emit(catalog::show(id).trim_end())
}

pub fn roll(args: &RollArgs) -> anyhow::Result<()> {
    let id = table_id(&args.table)?;
    let hand = hand_roll(id, args)?;
    let purpose = args
        .purpose
        .clone()
        .unwrap_or_else(|| format!("table/{}", id.key()));
    let mut dice = dice_for(args, &purpose)?;
    let lines = catalog::roll(id, &mut dice, &purpose, &hand).map_err(|e| anyhow!("{e}"))?;
    if args.seed.is_none() && dice.log().iter().any(|r| !r.forced) {
        bail!(
            "this roll needed {} dice rolls but only {} --faces were given; add another --faces",
            dice.log().len(),
            args.faces.len()
        );
    }
    super::emit(lines.join("\n"))
}

fn table_id(name: &str) -> anyhow::Result<TableId> {
    TableId::from_key(name).ok_or_else(|| {
        anyhow!(
            "no table called '{name}'{}; `realmgm table list` names them all",
            crate::suggest::did_you_mean(name, TableId::keys())
        )
    })
}

fn hand_roll(id: TableId, args: &RollArgs) -> anyhow::Result<HandRoll> {
    let column = args.column.as_deref().map(relationship).transpose()?;
    if column.is_some() && !id.needs_column() {
        bail!("the {id} table has no columns; leave out --column");
    }
    let mut modifiers = Modifiers::none();
    for text in &args.modifiers {
        let (source, amount) = modifier(text)?;
        modifiers = modifiers.with(source, amount);
    }
    if args.one_die {
        modifiers = modifiers.with_one_die("GM");
    }
    let activity = match args.activity {
        Activity::Trade => MeetingUse::Trade,
        Activity::Hire => MeetingUse::Hire,
        Activity::BattlingCheck => MeetingUse::BattlingCheck,
    };
    Ok(HandRoll {
        column,
        chit: args.chit,
        activity: Some(activity),
        drinks: args.drinks,
        decline_opportunity: args.decline_opportunity,
        modifiers,
    })
}

fn relationship(text: &str) -> anyhow::Result<Relationship> {
    let all = [
        Relationship::Enemy,
        Relationship::Unfriendly,
        Relationship::Neutral,
        Relationship::Friendly,
        Relationship::Ally,
    ];
    let labels = all.map(Relationship::label);
    let found = crate::suggest::find(text, labels).ok_or_else(|| {
        anyhow!(
            "no relationship column '{text}'{}; use enemy, unfriendly, neutral, friendly or ally",
            crate::suggest::did_you_mean(text, labels)
        )
    })?;
    all.into_iter()
        .find(|r| r.label() == found)
        .ok_or_else(|| anyhow!("no relationship column '{text}'"))
}

/// `+1`, `-2`, or `Source=-1`.
fn modifier(text: &str) -> anyhow::Result<(String, i8)> {
    let (source, number) = match text.rsplit_once('=') {
        Some((source, number)) => (source.trim().to_string(), number.trim()),
        None => ("GM".to_string(), text.trim()),
    };
    let amount: i8 = number.trim_start_matches('+').parse().with_context(|| {
        format!("the modifier '{text}' is not a small whole number such as +1, -1 or Honor=-1")
    })?;
    Ok((source, amount))
}

fn dice_for(args: &RollArgs, purpose: &str) -> anyhow::Result<Dice> {
    let mut script = DiceScript::default();
    for roll in &args.faces {
        let faces = roll
            .split(',')
            .map(|f| f.trim().parse::<u8>())
            .collect::<Result<Vec<u8>, _>>()
            .with_context(|| format!("--faces '{roll}' should be one or two dice, e.g. 3,5"))?;
        script.force(purpose, &faces)?;
    }
    match (args.seed, args.faces.is_empty()) {
        (Some(seed), _) => Ok(Dice::with_script(seed, args.day, script)),
        // Hand-read dice only: any roll past them is refused after rolling.
        (None, false) => Ok(Dice::with_script(0, args.day, script)),
        (None, true) => bail!(
            "give --seed S (and --day D) to roll a campaign's dice, or --faces 3,5 to read dice you rolled"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_parse_with_and_without_source() {
        assert_eq!(modifier("+1").unwrap(), ("GM".to_string(), 1));
        assert_eq!(modifier("-2").unwrap().1, -2);
        assert_eq!(modifier("Honor=-1").unwrap(), ("Honor".to_string(), -1));
        assert!(modifier("lots").is_err());
    }

    #[test]
    fn relationships_parse_and_suggest() {
        assert_eq!(relationship("Ally").unwrap(), Relationship::Ally);
        let err = relationship("frendly").unwrap_err().to_string();
        assert!(err.contains("did you mean friendly"), "{err}");
    }

    #[test]
    fn unknown_tables_suggest_a_name() {
        let err = table_id("stumbel").unwrap_err().to_string();
        assert!(err.contains("stumble"), "{err}");
    }
}
