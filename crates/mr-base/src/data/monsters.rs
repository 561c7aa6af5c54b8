//! The monsters of the original game: one entry per kind of counter with its
//! size, both sides, fame/notoriety/price, monster-roll row, where each of its
//! counters starts (site guardian, setup-card box, ghosts' clearing) and its
//! separate parts (dragon heads, giant clubs). 59 counters in all.
//! Rule background: the play summary (monsters, prowling, combat), `data/setup_card.toml`,
//! §6.5 and §15.4 (Tremendous monsters' red side).

use serde::{Deserialize, Serialize};

use super::terms::{DenizenSide, Harm, Strength};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "monsters.toml";
#[cfg(test)]
const TEXT: &str = include_str!("monsters.toml");
/// How many monster counters the original game has.
pub const COUNTER_COUNT: usize = 59;
/// Kinds of monster some rules single out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MonsterTrait {
    /// Demons and the Imp (the Pilgrim's protection, exorcism).
    Demon,
    /// Ghosts (exorcism).
    Undead,
}

impl std::fmt::Display for MonsterTrait {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MonsterTrait::Demon => "demon",
            MonsterTrait::Undead => "undead",
        })
    }
}

/// Where one counter starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "lowercase", deny_unknown_fields)]
pub enum CounterStart {
    /// Guarding a treasure site chit; appears when the site is revealed on
    /// its row.
    Site { site: String },
    /// In a box on the setup (appearance) card, named as the card names it
    /// (`Giant 1`, `Bat 3`).
    Box { name: String },
    /// In the clearing of the valley BONES warning chit (the ghosts).
    Ghosts,
}

impl CounterStart {
    pub fn describe(&self) -> String {
        match self {
            CounterStart::Site { site } => format!("guards the {site}"),
            CounterStart::Box { name } => format!("setup box {name}"),
            CounterStart::Ghosts => "the BONES clearing of a valley".to_string(),
        }
    }
}

/// One side of a separate monster part: it attacks but never moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartSide {
    pub harm: Harm,
    #[serde(default)]
    pub stars: u8,
    pub speed: u8,
}

/// A head or club: a separate counter that attacks for its monster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterPart {
    pub name: String,
    pub length: u8,
    pub light: PartSide,
    pub dark: PartSide,
    /// A Tremendous Dragon's head breathes fire under Dragon Heads (3.1
    /// 10.B.3): a missile attack of this length instead of its strike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_length: Option<u8>,
}

/// One kind of monster and all its counters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    /// Unique name. The two wolf variants are `Wolf A` and `Wolf B`.
    pub name: String,
    /// Size and vulnerability.
    pub vulnerability: Strength,
    #[serde(default)]
    pub armored: bool,
    #[serde(default)]
    pub flying: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<MonsterTrait>,
    pub fame: u8,
    pub notoriety: u8,
    /// Base price in gold (what it is worth to sell or to bounty-hunt).
    pub price: u8,
    /// Monster-roll row on which it prowls and regenerates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row: Option<u8>,
    /// Prowls every day whatever the roll (the ghosts).
    #[serde(default)]
    pub prowls_daily: bool,
    /// Attack length (weapon goblins, spell casters); 0 otherwise.
    #[serde(default)]
    pub length: u8,
    pub light: DenizenSide,
    /// The other side: RED on a Tremendous monster.
    pub dark: DenizenSide,
    /// One entry per physical counter of this kind.
    pub counters: Vec<CounterStart>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<MonsterPart>,
}

impl Monster {
    /// A Tremendous monster whose dark side is the RED side.
    pub fn has_red_side(&self) -> bool {
        self.dark.harm == Some(Harm::Red)
    }

    pub fn has_trait(&self, wanted: MonsterTrait) -> bool {
        self.traits.contains(&wanted)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MonstersFile {
    monsters: Vec<Monster>,
}

/// Parse and check `monsters.toml`.
///
/// # Errors
/// A broken file, a wrong counter count, inconsistent sides, an unknown site.
pub fn load() -> Result<Vec<Monster>, DataError> {
    parse(FILE, realmgm_core::compiled!("monsters"))
}

/// Parse and check monster data from `text` (named `file` in errors).
///
/// # Errors
/// As [`load`].
pub fn parse(file: &str, source: Source<'_>) -> Result<Vec<Monster>, DataError> {
    let monsters = source.parse::<MonstersFile>(file)?.monsters;
    let counters: usize = monsters.iter().map(|m| m.counters.len()).sum();
    if counters != COUNTER_COUNT {
        return Err(DataError::file(
            file,
            format!("expected {COUNTER_COUNT} monster counters, found {counters}"),
        ));
    }
    for (index, monster) in monsters.iter().enumerate() {
        if monsters[..index].iter().any(|m| m.name == monster.name) {
            return Err(DataError::entry(
                file,
                format!("monster \"{}\"", monster.name),
                "name",
                "this name is used twice; give each kind one entry with several counters",
            ));
        }
        check_monster(file, monster)?;
    }
    Ok(monsters)
}

fn check_monster(file: &str, monster: &Monster) -> Result<(), DataError> {
    let entry = format!("monster \"{}\"", monster.name);
    let fail = |field: String, message: String| Err(DataError::entry(file, &entry, field, message));
    match (monster.row, monster.prowls_daily) {
        (Some(1..=6), false) | (None, true) => {}
        (Some(_), false) => {
            return fail("row".into(), "the monster roll row must be 1 to 6".into());
        }
        _ => {
            return fail(
                "row".into(),
                "give either a row 1 to 6 or prowls_daily = true".into(),
            );
        }
    }
    if monster.counters.is_empty() {
        return fail(
            "counters".into(),
            "a monster needs at least one counter".into(),
        );
    }
    for (side_name, side) in [("light", &monster.light), ("dark", &monster.dark)] {
        if let Err((field, message)) = side.check() {
            return fail(format!("{side_name}.{field}"), message);
        }
        if side.missile {
            return fail(
                format!("{side_name}.missile"),
                "monsters have no missile attacks".into(),
            );
        }
    }
    if monster.light.harm == Some(Harm::Red) {
        return fail(
            "light.harm".into(),
            "only the dark side can be the RED side".into(),
        );
    }
    if monster.has_red_side() && monster.vulnerability != Strength::Tremendous {
        return fail(
            "dark.harm".into(),
            "only Tremendous monsters have a RED side".into(),
        );
    }
    for (index, part) in monster.parts.iter().enumerate() {
        for (side_name, side) in [("light", part.light), ("dark", part.dark)] {
            if side.harm == Harm::Red || side.speed > 8 || side.stars > 3 {
                return fail(
                    format!("parts[{index}].{side_name}"),
                    "a part has harm L to T, attack time 0 to 8 and at most 3 stars".into(),
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_monsters_load() {
        let monsters = load().unwrap();
        assert_eq!(
            monsters.iter().map(|m| m.counters.len()).sum::<usize>(),
            COUNTER_COUNT
        );
        let giant = monsters.iter().find(|m| m.name == "Giant").unwrap();
        assert!(giant.has_red_side());
        assert_eq!(giant.parts[0].name, "Giant Club");
    }

    #[test]
    fn a_red_light_side_names_the_monster_and_field() {
        let text = TEXT.replacen(
            "light = { harm = \"M\", speed = 3, move = 4 }",
            "light = { harm = \"RED\", speed = 3, move = 4 }",
            1,
        );
        let err = parse("monsters.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.file, "monsters.toml");
        assert_eq!(err.entry.as_deref(), Some("monster \"T Flying Dragon\""));
        assert_eq!(err.field.as_deref(), Some("light.harm"));
    }

    #[test]
    fn a_lost_counter_is_a_count_error() {
        let text = TEXT.replacen("    { at = \"site\", site = \"Lair\" },\n", "", 1);
        let err = parse("monsters.toml", Source::Toml(&text)).unwrap_err();
        assert!(err.message.contains("expected 59"), "{err}");
    }
}
