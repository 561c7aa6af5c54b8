//! Every table by name, for GMs: list them, print one (`table show`) and
//! roll on one with hand-given inputs (`table roll`). The day and combat
//! engines call the typed functions of each family module instead.

use std::fmt::{self, Display};

use super::commerce;
use super::hide::Hide;
use super::magic::{Curse, PowerOfThePit, Transform, Wish};
use super::meeting::{self, MeetingRequest, MeetingRules, MeetingUse};
use super::melee::{ChangeTactics, RepositionTable};
use super::missile::Missile;
use super::monster_roll::MonsterRoll;
use super::optional_combat::{Fumble, OptionalMissile, Stumble};
use super::search::{Locate, Loot, MagicSight, Peer, ReadRunes};
use super::twt::{CryptOfTheKnight, EnchantedMeadow, ToadstoolCircle};
use super::weather::{self, WeatherTable};
use super::wilderness::{Lost, ViolentStorm};
use super::{DieTable, Modifiers, TableError, roll_on};
use crate::data::characters::Relationship;
use realmgm_core::dice::Dice;

/// Every die table realmgm knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableId {
    Hide,
    Meeting,
    Commerce,
    Peer,
    Locate,
    Loot,
    ReadRunes,
    MagicSight,
    ToadstoolCircle,
    CryptOfTheKnight,
    EnchantedMeadow,
    Missile,
    OptionalMissile,
    Fumble,
    Stumble,
    PowerOfThePit,
    Curse,
    Wish,
    Transform,
    ViolentStorm,
    Lost,
    Weather,
    MonsterRoll,
    Reposition,
    ChangeTactics,
}

impl TableId {
    pub const ALL: [TableId; 25] = [
        TableId::Hide,
        TableId::Meeting,
        TableId::Commerce,
        TableId::Peer,
        TableId::Locate,
        TableId::Loot,
        TableId::ReadRunes,
        TableId::MagicSight,
        TableId::ToadstoolCircle,
        TableId::CryptOfTheKnight,
        TableId::EnchantedMeadow,
        TableId::Missile,
        TableId::OptionalMissile,
        TableId::Fumble,
        TableId::Stumble,
        TableId::PowerOfThePit,
        TableId::Curse,
        TableId::Wish,
        TableId::Transform,
        TableId::ViolentStorm,
        TableId::Lost,
        TableId::Weather,
        TableId::MonsterRoll,
        TableId::Reposition,
        TableId::ChangeTactics,
    ];

    /// The name typed on the command line.
    pub fn key(self) -> &'static str {
        match self {
            TableId::Hide => "hide",
            TableId::Meeting => "meeting",
            TableId::Commerce => "commerce",
            TableId::Peer => "peer",
            TableId::Locate => "locate",
            TableId::Loot => "loot",
            TableId::ReadRunes => "read-runes",
            TableId::MagicSight => "magic-sight",
            TableId::ToadstoolCircle => "toadstool-circle",
            TableId::CryptOfTheKnight => "crypt-of-the-knight",
            TableId::EnchantedMeadow => "enchanted-meadow",
            TableId::Missile => "missile",
            TableId::OptionalMissile => "optional-missile",
            TableId::Fumble => "fumble",
            TableId::Stumble => "stumble",
            TableId::PowerOfThePit => "power-of-the-pit",
            TableId::Curse => "curse",
            TableId::Wish => "wish",
            TableId::Transform => "transform",
            TableId::ViolentStorm => "violent-storm",
            TableId::Lost => "lost",
            TableId::Weather => "weather",
            TableId::MonsterRoll => "monster-roll",
            TableId::Reposition => "reposition",
            TableId::ChangeTactics => "change-tactics",
        }
    }

    /// Find a table by its key, ignoring case and punctuation.
    pub fn from_key(name: &str) -> Option<TableId> {
        let key = realmgm_core::suggest::find(name, TableId::ALL.iter().map(|t| t.key()))?;
        TableId::ALL.iter().copied().find(|t| t.key() == key)
    }

    /// Every key, for "did you mean" and help texts.
    pub fn keys() -> impl Iterator<Item = &'static str> {
        TableId::ALL.iter().map(|t| t.key())
    }

    /// Rolls that are never modified and always use the same dice.
    pub fn never_modified(self) -> bool {
        matches!(
            self,
            TableId::Weather
                | TableId::MonsterRoll
                | TableId::Reposition
                | TableId::ChangeTactics
                | TableId::Lost
        )
    }

    /// Tables read in a relationship column.
    pub fn needs_column(self) -> bool {
        matches!(self, TableId::Meeting | TableId::Commerce)
    }
}

impl Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// One table printed for a GM.
pub fn show(id: TableId) -> String {
    match id {
        TableId::Hide => render(&Hide),
        TableId::Meeting => render_columns("Meeting", |c| {
            meeting::column(c).iter().map(ToString::to_string).collect()
        }),
        TableId::Commerce => render_columns("Commerce", |c| {
            commerce::column(c)
                .iter()
                .map(ToString::to_string)
                .collect()
        }),
        TableId::Peer => render(&Peer),
        TableId::Locate => render(&Locate),
        TableId::Loot => render(&Loot),
        TableId::ReadRunes => render(&ReadRunes),
        TableId::MagicSight => render(&MagicSight),
        TableId::ToadstoolCircle => render(&ToadstoolCircle),
        TableId::CryptOfTheKnight => render(&CryptOfTheKnight),
        TableId::EnchantedMeadow => render(&EnchantedMeadow),
        TableId::Missile => render(&Missile),
        TableId::OptionalMissile => render(&OptionalMissile),
        TableId::Fumble => render(&Fumble),
        TableId::Stumble => render(&Stumble),
        TableId::PowerOfThePit => render(&PowerOfThePit),
        TableId::Curse => render(&Curse),
        TableId::Wish => render(&Wish),
        TableId::Transform => render(&Transform),
        TableId::ViolentStorm => render(&ViolentStorm),
        TableId::Lost => render(&Lost),
        TableId::Weather => {
            let mut text = String::from(
                "Weather (one die, never modified; the higher of die and secret chit counts)\n",
            );
            for high in (1..=6).rev() {
                let weather = WeatherTable { chit: high }.outcome(1).weather;
                text.push_str(&format!("  {high}: {weather}\n"));
            }
            text
        }
        TableId::MonsterRoll => render(&MonsterRoll),
        TableId::Reposition => render(&RepositionTable),
        TableId::ChangeTactics => render(&ChangeTactics),
    }
}

fn render<T: DieTable>(table: &T) -> String
where
    T::Outcome: Display,
{
    let rows = table.rows();
    let (low, high) = (*rows.start(), *rows.end());
    let how = match table.fixed_dice() {
        Some(realmgm_core::dice::DiceCount::One) => "one die, never modified".to_string(),
        Some(realmgm_core::dice::DiceCount::Two) => {
            "two dice, higher counts, never modified".to_string()
        }
        None => format!("two dice, higher counts; totals clamp to {low}..{high}"),
    };
    let mut text = format!("{} ({how})\n", table.name());
    for row in rows {
        let label = if row == low && table.fixed_dice().is_none() && low != 1 {
            format!("{row} or less")
        } else if row == high && table.fixed_dice().is_none() && high != 6 && high != 10 {
            format!("{row} or more")
        } else {
            row.to_string()
        };
        text.push_str(&format!("  {label}: {}\n", table.outcome(row)));
    }
    text
}

fn render_columns(title: &str, rows: impl Fn(Relationship) -> Vec<String>) -> String {
    let mut text = format!("{title} (two dice, higher counts; totals clamp to 1..6)\n");
    for column in [
        Relationship::Enemy,
        Relationship::Unfriendly,
        Relationship::Neutral,
        Relationship::Friendly,
        Relationship::Ally,
    ] {
        text.push_str(&format!("  {}:\n", column.label()));
        for (row, result) in rows(column).iter().enumerate() {
            text.push_str(&format!("    {}: {result}\n", row + 1));
        }
    }
    text
}

/// Inputs a GM gives for one roll by hand.
#[derive(Clone, Debug, Default)]
pub struct HandRoll {
    /// The relationship column (Meeting, Commerce).
    pub column: Option<Relationship>,
    /// The secret weather chit (Weather).
    pub chit: Option<u8>,
    /// Meeting: what the roll is for (Trade when left out).
    pub activity: Option<MeetingUse>,
    /// Meeting: drinks bought first.
    pub drinks: bool,
    /// Meeting: the player declines an Opportunity (BIMR3 house rule).
    pub decline_opportunity: bool,
    pub modifiers: Modifiers,
}

/// Roll on `id` and describe every roll made, one line each, the last line
/// giving the final result when a chain of rolls was needed.
///
/// # Errors
/// A missing column or chit, or a refused Meeting request.
pub fn roll(
    id: TableId,
    dice: &mut Dice,
    purpose: &str,
    hand: &HandRoll,
) -> Result<Vec<String>, TableError> {
    let mods = &hand.modifiers;
    if id.never_modified() && mods != &Modifiers::none() {
        return Err(TableError::NeverModified(id.key().to_string()));
    }
    let one = |line: String| Ok(vec![line]);
    match id {
        TableId::Hide => one(roll_on(&Hide, dice, purpose, mods).describe()),
        TableId::Meeting => {
            let request = MeetingRequest {
                relationship: column(id, hand)?,
                activity: hand.activity.unwrap_or(MeetingUse::Trade),
                drinks: hand.drinks,
                decline_opportunity: hand.decline_opportunity,
            };
            // A GM who says the player declines knows the campaign allows it.
            let rules = MeetingRules {
                expanded_opportunities: hand.decline_opportunity,
            };
            let outcome = meeting::meet(dice, purpose, &request, rules, mods)?;
            let mut lines: Vec<String> = outcome.rolls.iter().map(|r| r.describe()).collect();
            if outcome.declined_opportunity {
                lines.push(format!(
                    "opportunity declined: takes the column's 2 result, {}",
                    outcome.result
                ));
            } else if outcome.rolls.len() > 1 {
                lines.push(format!("final: {}", outcome.result));
            }
            Ok(lines)
        }
        TableId::Commerce => {
            let outcome = commerce::sell(dice, purpose, column(id, hand)?, mods);
            let mut lines: Vec<String> = outcome.rolls.iter().map(|r| r.describe()).collect();
            if outcome.rolls.len() > 1 {
                lines.push(format!("final: {}", outcome.result));
            }
            Ok(lines)
        }
        TableId::Peer => one(roll_on(&Peer, dice, purpose, mods).describe()),
        TableId::Locate => one(roll_on(&Locate, dice, purpose, mods).describe()),
        TableId::Loot => one(roll_on(&Loot, dice, purpose, mods).describe()),
        TableId::ReadRunes => one(roll_on(&ReadRunes, dice, purpose, mods).describe()),
        TableId::MagicSight => one(roll_on(&MagicSight, dice, purpose, mods).describe()),
        TableId::ToadstoolCircle => one(roll_on(&ToadstoolCircle, dice, purpose, mods).describe()),
        TableId::CryptOfTheKnight => {
            one(roll_on(&CryptOfTheKnight, dice, purpose, mods).describe())
        }
        TableId::EnchantedMeadow => one(roll_on(&EnchantedMeadow, dice, purpose, mods).describe()),
        TableId::Missile => one(roll_on(&Missile, dice, purpose, mods).describe()),
        TableId::OptionalMissile => one(roll_on(&OptionalMissile, dice, purpose, mods).describe()),
        TableId::Fumble => one(roll_on(&Fumble, dice, purpose, mods).describe()),
        TableId::Stumble => one(roll_on(&Stumble, dice, purpose, mods).describe()),
        TableId::PowerOfThePit => one(roll_on(&PowerOfThePit, dice, purpose, mods).describe()),
        TableId::Curse => one(roll_on(&Curse, dice, purpose, mods).describe()),
        TableId::Wish => one(roll_on(&Wish, dice, purpose, mods).describe()),
        TableId::Transform => one(roll_on(&Transform, dice, purpose, mods).describe()),
        TableId::ViolentStorm => one(roll_on(&ViolentStorm, dice, purpose, mods).describe()),
        TableId::Lost => one(roll_on(&Lost, dice, purpose, mods).describe()),
        TableId::Weather => {
            let chit = hand.chit.ok_or(TableError::NeedsChit)?;
            one(weather::roll_weather(dice, purpose, chit)?.describe())
        }
        TableId::MonsterRoll => one(roll_on(&MonsterRoll, dice, purpose, mods).describe()),
        TableId::Reposition => one(roll_on(&RepositionTable, dice, purpose, mods).describe()),
        TableId::ChangeTactics => one(roll_on(&ChangeTactics, dice, purpose, mods).describe()),
    }
}

fn column(id: TableId, hand: &HandRoll) -> Result<Relationship, TableError> {
    hand.column
        .ok_or_else(|| TableError::NeedsColumn(id.key().to_string()))
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::{PURPOSE, forced};
    use super::*;

    #[test]
    fn every_key_finds_its_table() {
        for id in TableId::ALL {
            assert_eq!(TableId::from_key(id.key()), Some(id));
        }
        assert_eq!(TableId::from_key("Read Runes"), Some(TableId::ReadRunes));
        assert_eq!(TableId::from_key("nonsense"), None);
    }

    #[test]
    fn every_table_shows_its_rows() {
        for id in TableId::ALL {
            let text = show(id);
            assert!(text.lines().count() >= 6, "{id}: {text}");
        }
        assert!(show(TableId::OptionalMissile).contains("-2 or less"));
        assert!(show(TableId::OptionalMissile).contains("8 or more"));
        assert!(show(TableId::Meeting).contains("ally:"));
        let weather = show(TableId::Weather);
        assert!(weather.contains("  6: clear\n"), "{weather}");
        assert!(weather.contains(": special weather\n"), "{weather}");
    }

    #[test]
    fn meeting_needs_a_column() {
        let mut dice = forced(&[&[3]]);
        let err = roll(TableId::Meeting, &mut dice, PURPOSE, &HandRoll::default()).unwrap_err();
        assert_eq!(err, TableError::NeedsColumn("meeting".into()));
        let hand = HandRoll {
            column: Some(Relationship::Ally),
            ..HandRoll::default()
        };
        let lines = roll(TableId::Meeting, &mut dice, PURPOSE, &hand).unwrap();
        assert_eq!(lines, vec!["Meeting (ally): dice 3 → 3; row 3: price ×2"]);
    }

    #[test]
    fn never_modified_rolls_refuse_hand_modifiers() {
        let mut dice = forced(&[&[4]]);
        let hand = HandRoll {
            modifiers: Modifiers::none().with("GM", 2),
            ..HandRoll::default()
        };
        let err = roll(TableId::MonsterRoll, &mut dice, PURPOSE, &hand).unwrap_err();
        assert_eq!(err, TableError::NeverModified("monster-roll".into()));
        let lines = roll(
            TableId::MonsterRoll,
            &mut dice,
            PURPOSE,
            &HandRoll::default(),
        )
        .unwrap();
        assert!(lines[0].ends_with("row 4: row 4 of the setup card prowls (and the ghosts)"));
    }

    #[test]
    fn never_modified_agrees_with_the_tables() {
        for id in TableId::ALL {
            assert_eq!(
                id.never_modified(),
                show(id)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .contains("never modified"),
                "{id}"
            );
        }
    }
}
