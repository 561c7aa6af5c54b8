//! The nine native groups of the original game (42 natives): where each group
//! lives or appears, which row of the monster roll moves it, how it is hired,
//! and every member's counter (both sides, wage, fame and notoriety, mount).
//! Rule background: the play summary (natives, hiring, combat), `data/natives.toml`.

use serde::{Deserialize, Serialize};

use super::terms::{DenizenSide, Dwelling, Strength};
use realmgm_core::embedded::{DataError, Source};

pub const FILE: &str = "natives.toml";
#[cfg(test)]
const TEXT: &str = include_str!("natives.toml");
/// How many native groups and native counters the original game has.
pub const GROUP_COUNT: usize = 9;
pub const MEMBER_COUNT: usize = 42;
/// The rank of every group's leader.
pub const LEADER_RANK: &str = "HQ";

/// Whether the group's members are hired one at a time or all together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Hire {
    Single,
    Group,
}

/// One native counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Native {
    /// `1`..`7`, or `HQ` for the leader.
    pub rank: String,
    /// Made from the group's `member_name` and the rank: `Bashkar 1`,
    /// `Company HQ` (not written in the file).
    #[serde(skip_deserializing)]
    pub name: String,
    pub vulnerability: Strength,
    #[serde(default)]
    pub armored: bool,
    /// Weapon length (0 for none).
    pub length: u8,
    /// Gold per hire term; also the gold bounty for killing him.
    pub wage: u8,
    #[serde(default)]
    pub fame: u8,
    pub notoriety: u8,
    /// The horse he rides (a name in horses.toml).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horse: Option<String>,
    pub light: DenizenSide,
    pub dark: DenizenSide,
}

impl Native {
    pub fn is_leader(&self) -> bool {
        self.rank == LEADER_RANK
    }
}

/// A native group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NativeGroup {
    /// Plural name used in relationships: `Bashkars`, `Company`...
    pub name: String,
    /// Word that starts each member's name: `Bashkar` gives `Bashkar 1`.
    pub member_name: String,
    /// Monster-roll row on which the group prowls and regenerates.
    pub row: u8,
    pub hire: Hire,
    /// The dwelling a garrison group starts at and never leaves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison: Option<Dwelling>,
    /// The dwellings a roving group can appear at from the setup card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub appears_at: Vec<Dwelling>,
    pub members: Vec<Native>,
}

impl NativeGroup {
    /// Where the group's stock of goods is kept at setup: in its own box
    /// and, for a garrison, at its dwelling (the setup card's holders).
    pub fn stock_holders(&self) -> Vec<&str> {
        std::iter::once(self.name.as_str())
            .chain(self.garrison.map(|home| home.label()))
            .collect()
    }

    /// The leader (rank `HQ`), who trades and carries the group's treasure.
    pub fn leader(&self) -> &Native {
        self.members
            .iter()
            .find(|m| m.is_leader())
            .expect("load checks every group has one leader")
    }

    /// A member by full name, e.g. `Bashkar 3`.
    pub fn member(&self, name: &str) -> Option<&Native> {
        self.members.iter().find(|m| m.name == name)
    }
}

/// Find the group and the member with this full name in all groups.
pub fn find_member<'a>(
    groups: &'a [NativeGroup],
    name: &str,
) -> Option<(&'a NativeGroup, &'a Native)> {
    // Either game's counter (`Bashkar II 3`, 3.1 10.E.7.2.1).
    let printed = super::realms::printed(name);
    groups
        .iter()
        .find_map(|g| g.member(&printed).map(|m| (g, m)))
}

/// Whether `name` is a native's own horse, which a hired leader rides in his
/// turn and which never changes hands (3.1 2.3.3).
pub fn is_native_horse(groups: &[NativeGroup], name: &str) -> bool {
    groups
        .iter()
        .flat_map(|g| &g.members)
        .any(|m| m.horse.as_deref() == Some(name))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NativesFile {
    groups: Vec<NativeGroup>,
}

/// Parse and check `natives.toml`.
///
/// # Errors
/// A broken file, wrong counts, a group without exactly one leader, a
/// value out of range.
pub fn load() -> Result<Vec<NativeGroup>, DataError> {
    parse(FILE, realmgm_core::compiled!("natives"))
}

/// Parse and check native data from `text` (named `file` in errors).
///
/// # Errors
/// As [`load`].
pub fn parse(file: &str, source: Source<'_>) -> Result<Vec<NativeGroup>, DataError> {
    let mut groups = source.parse::<NativesFile>(file)?.groups;
    if groups.len() != GROUP_COUNT {
        return Err(DataError::file(
            file,
            format!(
                "expected {GROUP_COUNT} native groups, found {}",
                groups.len()
            ),
        ));
    }
    let members: usize = groups.iter().map(|g| g.members.len()).sum();
    if members != MEMBER_COUNT {
        return Err(DataError::file(
            file,
            format!("expected {MEMBER_COUNT} natives in all groups, found {members}"),
        ));
    }
    for index in 0..groups.len() {
        let group = &mut groups[index];
        for member in &mut group.members {
            member.name = format!("{} {}", group.member_name, member.rank);
        }
        check_group(file, &groups[index])?;
        if groups[..index].iter().any(|g| g.name == groups[index].name) {
            return Err(DataError::entry(
                file,
                format!("native group \"{}\"", groups[index].name),
                "name",
                "this group name is used twice",
            ));
        }
    }
    Ok(groups)
}

fn check_group(file: &str, group: &NativeGroup) -> Result<(), DataError> {
    let entry = format!("native group \"{}\"", group.name);
    if !(1..=6).contains(&group.row) {
        return Err(DataError::entry(
            file,
            entry,
            "row",
            "the monster roll row must be 1 to 6",
        ));
    }
    if group.garrison.is_some() != group.appears_at.is_empty() {
        // both given, or neither
        return Err(DataError::entry(
            file,
            entry,
            "garrison",
            "give either `garrison` (a dwelling it lives at) or `appears_at` (where it can appear), not both or neither",
        ));
    }
    let leaders = group.members.iter().filter(|m| m.is_leader()).count();
    if leaders != 1 {
        return Err(DataError::entry(
            file,
            entry,
            "members",
            format!("a group needs exactly one leader of rank {LEADER_RANK}, found {leaders}"),
        ));
    }
    for (index, member) in group.members.iter().enumerate() {
        let field = |f: &str| format!("members[{index}].{f}");
        if group.members[..index].iter().any(|m| m.rank == member.rank) {
            return Err(DataError::entry(
                file,
                &entry,
                field("rank"),
                "this rank is used twice",
            ));
        }
        if !member.is_leader() && !matches!(member.rank.parse::<u8>(), Ok(1..=9)) {
            return Err(DataError::entry(
                file,
                &entry,
                field("rank"),
                format!("a rank is a number 1 to 9 or {LEADER_RANK}"),
            ));
        }
        if member.length > 20 {
            return Err(DataError::entry(
                file,
                &entry,
                field("length"),
                "length must be 0 to 20",
            ));
        }
        for (side_name, side) in [("light", &member.light), ("dark", &member.dark)] {
            side.check().map_err(|(f, message)| {
                DataError::entry(file, &entry, field(&format!("{side_name}.{f}")), message)
            })?;
            if side.spell.is_some() {
                return Err(DataError::entry(
                    file,
                    &entry,
                    field(&format!("{side_name}.spell")),
                    "natives do not cast spells",
                ));
            }
        }
        if !member.light.attacks() && !member.dark.attacks() {
            return Err(DataError::entry(
                file,
                &entry,
                field("dark"),
                "neither side attacks",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_natives_load_with_leaders() {
        let groups = load().unwrap();
        assert_eq!(groups.len(), GROUP_COUNT);
        for g in &groups {
            assert!(g.leader().name.ends_with(" HQ"), "{}", g.name);
        }
        let (group, member) = find_member(&groups, "Bashkar 3").unwrap();
        assert_eq!(group.name, "Bashkars");
        assert_eq!(member.horse.as_deref(), Some("Bashkar Pony 3"));
    }

    #[test]
    fn a_second_leader_names_the_group_and_field() {
        let text = TEXT.replacen("rank = \"1\"", "rank = \"HQ\"", 1);
        let err = parse("natives.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("native group \"Bashkars\""));
        assert_eq!(err.field.as_deref(), Some("members"));
    }

    #[test]
    fn an_attack_without_time_names_the_member_side_field() {
        let text = TEXT.replacen("speed = 3, move = 3 }", "move = 3 }", 1);
        let err = parse("natives.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.entry.as_deref(), Some("native group \"Bashkars\""));
        assert_eq!(err.field.as_deref(), Some("members[0].light.speed"));
    }

    #[test]
    fn a_garrison_and_roving_group_is_refused() {
        let text = TEXT.replacen(
            "hire = \"group\"\n",
            "hire = \"group\"\ngarrison = \"Inn\"\n",
            1,
        );
        let err = parse("natives.toml", Source::Toml(&text)).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("garrison"));
    }
}
