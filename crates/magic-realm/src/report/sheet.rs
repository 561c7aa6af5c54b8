//! A character's sheet as his report shows it (play summary II.D,
//! IV; `day/victory.rs`): his action chits with their condition, weapons,
//! armour, treasures and horses active or not, spells, gold, fame,
//! notoriety, hirelings with the days left of their terms, his
//! relationships that are not neutral, and the victory points he would
//! score now. Everything here is his own.

use serde::Serialize;

use crate::data::GameData;
use crate::data::characters::Relationship;
use crate::day::events::Score;
use crate::day::events::condition_word;
use crate::day::meeting::level_of;
use crate::day::victory;
use crate::state::{CharacterState, ItemKind, MrState};
use realmgm_core::game::Rules;

/// One line of the sheet's item list.
#[derive(Clone, Debug, Serialize)]
pub struct ItemLine {
    pub name: String,
    pub kind: &'static str,
    pub active: bool,
}

/// An action chit and its condition.
#[derive(Clone, Debug, Serialize)]
pub struct ChitLine {
    pub chit: String,
    pub condition: &'static str,
    /// Turned into colour magic (play summary II.C.10).
    pub enchanted: bool,
    /// Alerted for a spell (speed 0 in the next combat).
    pub prepared: bool,
}

/// A hired native.
#[derive(Clone, Debug, Serialize)]
pub struct HirelingLine {
    pub native: String,
    pub days_left: u8,
    /// Where he stands (`in CV4`): with his employer or where he was left.
    pub at: String,
    /// A hired leader hidden where he stands.
    pub hidden: bool,
    /// What a hired leader carries for his employer.
    pub carries: Vec<String>,
}

/// A native group or visitor that is not neutral to him.
#[derive(Clone, Debug, Serialize)]
pub struct RelationshipLine {
    pub group: String,
    /// `ally`, `friendly`, `unfriendly` or `enemy`.
    pub relationship: &'static str,
    /// Levels kept past Ally or past Enemy (3.1 7.2.4h.1, 10.B.6): they
    /// count against later changes but not on the Meeting table.
    pub levels_beyond: u16,
}

/// The victory points he would score if the game ended now.
#[derive(Clone, Debug, Serialize)]
pub struct VictoryLine {
    #[serde(flatten)]
    pub score: Score,
    /// His requirements, when the campaign has recorded them.
    pub requirements: Option<String>,
    /// He is dead: his score is the dead's, not his categories' sum.
    pub dead: bool,
}

/// The whole sheet.
#[derive(Clone, Debug, Serialize)]
pub struct Sheet {
    pub character: String,
    pub position: String,
    pub hidden: bool,
    pub gold: u16,
    pub fame: i32,
    pub notoriety: i32,
    pub chits: Vec<ChitLine>,
    pub weapon: Option<String>,
    pub weapon_alerted: bool,
    pub armor: Vec<String>,
    /// Worn armour damaged in combat: damaged again, it is destroyed.
    pub damaged_armor: Vec<String>,
    /// Treasures, horses and bought or looted arms, active or not.
    pub items: Vec<ItemLine>,
    /// The spells he knows, then spells he carries as items.
    pub spells: Vec<String>,
    /// The curses on him, each with what it does.
    pub curses: Vec<String>,
    pub hirelings: Vec<HirelingLine>,
    /// The monsters he controls, each where it stands and how he records
    /// its turn (3.1 6.2.5).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub controlled: Vec<String>,
    /// The native groups and visitors not neutral to him as things stand
    /// (his card, a campaign he wages, a Persuade spell): the ones he
    /// meets in trade and hire (play summary II.C.6–7).
    pub relationships: Vec<RelationshipLine>,
    pub victory: VictoryLine,
    /// Mission and campaign chits he holds, each with its terms.
    pub missions: Vec<String>,
    /// His caches (advanced rule A.4): where, and what each holds.
    pub caches: Vec<String>,
    /// What his pack horses carry (Pack Horses), one line a horse.
    pub pack: Vec<String>,
    /// Under Development: his level and his progress toward the next
    /// (3.1 10.E.5.4).
    pub development: Option<String>,
}

fn kind_word(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Treasure => "treasure",
        ItemKind::Spell => "spell",
        ItemKind::Horse => "horse",
        ItemKind::Weapon => "weapon",
        ItemKind::Armor => "armour",
    }
}

/// The native groups and visitors not neutral to `me`, the groups first.
fn relationships(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    me: &CharacterState,
) -> Vec<RelationshipLine> {
    let card = data.characters.iter().find(|c| c.name == me.name);
    let mut names: Vec<&str> = data.natives.iter().map(|g| g.name.as_str()).collect();
    for listed in card.into_iter().flat_map(|c| c.relationships.keys()) {
        if !names.contains(&listed.as_str()) {
            names.push(listed);
        }
    }
    names
        .into_iter()
        .filter_map(|group| {
            let level = level_of(data, rules, state, me, group);
            let relationship = Relationship::at_level(level);
            let beyond =
                (level - Relationship::Ally.level()).max(Relationship::Enemy.level() - level);
            (relationship != Relationship::Neutral).then(|| RelationshipLine {
                group: group.to_string(),
                relationship: relationship.label(),
                levels_beyond: u16::try_from(beyond).unwrap_or(0),
            })
        })
        .collect()
}

/// The sheet of `me`, a character of `state`, in a game under `rules`.
pub fn sheet(data: &GameData, rules: &Rules, state: &MrState, me: &CharacterState) -> Sheet {
    let requirements = state.victory_requirements.get(&me.name);
    let score = victory::score(data, rules, state, me, requirements);
    Sheet {
        character: me.name.clone(),
        position: match (&me.roadway, &me.flown_away) {
            (Some(road), _) if road.is_from_edge() => {
                format!("the map's edge, off the map: Move to {} first", road.ways_off())
            }
            (Some(road), _) => {
                format!("on {road}, out of {}: Move to {} first", road.from, road.ways_off())
            }
            (None, Some(from)) => format!(
                "{from}, flown away: aloft over {} and a tile next to it; start with a Fly \
                 phase down into {} or a tile next to it ('FL {}')",
                from.tile, from.tile, from.tile
            ),
            (None, None) => me.position.to_string(),
        },
        hidden: me.hidden,
        gold: me.gold,
        fame: me.fame,
        notoriety: me.notoriety,
        chits: me
            .chits
            .iter()
            .map(|c| ChitLine {
                chit: c.chit.clone(),
                condition: condition_word(c.condition),
                enchanted: c.enchanted,
                prepared: c.prepared,
            })
            .collect(),
        weapon: me.weapon.clone(),
        weapon_alerted: me.weapon_alerted,
        armor: me.armor.iter().map(|a| armour_label(a)).collect(),
        damaged_armor: me.damaged_armor.iter().map(|a| armour_label(a)).collect(),
        items: me
            .belongings
            .iter()
            .filter(|b| b.item.kind != ItemKind::Spell)
            .map(|b| ItemLine {
                name: b.item.name.clone(),
                kind: kind_word(b.item.kind),
                active: b.active,
            })
            .collect(),
        spells: me
            .magic
            .spells
            .iter()
            .cloned()
            .chain(
                me.belongings
                    .iter()
                    .filter(|b| b.item.kind == ItemKind::Spell)
                    .map(|b| b.item.name.clone()),
            )
            .collect(),
        curses: me.magic.curses.iter().map(ToString::to_string).collect(),
        hirelings: me
            .hirelings
            .iter()
            .map(|h| HirelingLine {
                native: h.native.clone(),
                days_left: h.days_left,
                at: state
                    .denizens
                    .get(&h.native)
                    .map(|d| d.at.to_string())
                    .unwrap_or_default(),
                hidden: state.leaders.get(&h.native).is_some_and(|l| l.hidden),
                carries: state
                    .leaders
                    .get(&h.native)
                    .map(|l| l.carries.iter().map(|i| i.name.clone()).collect())
                    .unwrap_or_default(),
            })
            .collect(),
        controlled: controlled(state, me),
        relationships: relationships(data, rules, state, me),
        victory: VictoryLine {
            dead: me.dead,
            score,
            requirements: requirements.map(|r| {
                // Points per category, written as the score above them is,
                // since "1 great treasures" reads as a count.
                format!(
                    "great treasures {}, spells {}, fame {}, notoriety {}, gold {} (victory points)",
                    r.great_treasures, r.spells, r.fame, r.notoriety, r.gold
                )
            }),
        },
        missions: me
            .gold_specials
            .iter()
            .map(|t| crate::day::missions::terms(data, t))
            .collect(),
        pack: me
            .pack
            .iter()
            .map(|(horse, load)| {
                let items: Vec<&str> = load.iter().map(|i| i.name.as_str()).collect();
                format!("{horse}: {}", items.join(", "))
            })
            .collect(),
        development: me
            .development
            .as_ref()
            .map(|d| crate::day::development::progress(data, rules, me, d)),
        caches: state
            .caches
            .iter()
            .filter(|c| c.owner == me.name)
            .map(|c| {
                let mut held: Vec<String> = c.items.iter().map(|i| i.name.clone()).collect();
                if c.gold > 0 {
                    held.push(format!("{} gold", c.gold));
                }
                format!("{}: {}", c.at, held.join(", "))
            })
            .collect(),
    }
}

/// How the sheet names a piece of armour. The lists print the suit of
/// armour as plain "Armor" (and the Tremendous one as "T Armor"); a report
/// line "Armour: Armor" says nothing, so the sheet gives the full name.
fn armour_label(name: &str) -> String {
    match crate::data::base_name(name) {
        "Armor" => name.replacen("Armor", "Suit of Armor", 1),
        "T Armor" => name.replacen("T Armor", "Tremendous Suit of Armor", 1),
        _ => name.to_string(),
    }
}

/// The monsters `me` controls by a spell in effect, each with where it
/// stands and the line that records its turn (3.1 6.2.5): the control
/// lasts until the Sunset after the Evening it was cast.
fn controlled(state: &MrState, me: &CharacterState) -> Vec<String> {
    let Some(seat) = state.characters.iter().position(|c| c.name == me.name) else {
        return Vec::new();
    };
    crate::magic::influence::controlled_by(state, seat)
        .into_iter()
        .map(|id| {
            let at = state
                .denizens
                .get(&id)
                .map(|d| d.at.to_string())
                .unwrap_or_default();
            format!(
                "{id}, {at}: it takes the turn you record for it on a line of its own, as \
                 '{id}: M <clearing>, H' (no Trade, Hire, Alert, Rest or Enchant), until tomorrow's Sunset"
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::magic::CurseKind;
    use crate::test_support::{data, game_played_by};

    #[test]
    fn the_sheet_shows_known_spells_curses_and_enchanted_chits() {
        let mut state = game_played_by(&["Wizard"], |_| "Ann".into());
        let wizard = &mut state.characters[0];
        assert!(
            !wizard.magic.spells.is_empty(),
            "the Wizard records spells at setup"
        );
        wizard.magic.curses.insert(CurseKind::Squeak);
        wizard.chits[0].enchanted = true;
        wizard.damaged_armor.push("Helmet".into());
        let wizard = &state.characters[0];
        let sheet = sheet(data(), &Rules::default(), &state, wizard);
        assert_eq!(sheet.spells, wizard.magic.spells);
        assert_eq!(sheet.curses.len(), 1);
        assert!(sheet.curses[0].starts_with("Squeak"), "{:?}", sheet.curses);
        assert!(sheet.chits[0].enchanted && !sheet.chits[1].enchanted);
        assert_eq!(sheet.damaged_armor, vec!["Helmet".to_string()]);
        let json = serde_json::to_value(&sheet.victory).unwrap();
        assert!(json.get("total").is_some() && json.get("requirements").is_some());
    }

    #[test]
    fn requirements_are_points_per_category_as_the_score_is_written() {
        let mut state = game_played_by(&["Amazon"], |_| "Ann".into());
        state.victory_requirements.insert(
            "Amazon".into(),
            crate::state::VictoryRequirements {
                great_treasures: 1,
                spells: 0,
                fame: 2,
                notoriety: 1,
                gold: 1,
            },
        );
        let sheet = sheet(data(), &Rules::default(), &state, &state.characters[0]);
        assert_eq!(
            sheet.victory.requirements.as_deref(),
            Some("great treasures 1, spells 0, fame 2, notoriety 1, gold 1 (victory points)")
        );
    }

    #[test]
    fn the_sheet_lists_the_relationships_that_are_not_neutral_as_the_rules_set_them() {
        let state = game_played_by(&["White Knight"], |_| "Ann".into());
        let me = &state.characters[0];
        let order = |rules: &Rules| {
            let shown = sheet(data(), rules, &state, me).relationships;
            assert!(!shown.is_empty());
            assert!(shown.iter().all(|r| r.relationship != "neutral"));
            shown
                .iter()
                .find(|r| r.group == "Order")
                .map(|r| r.relationship)
        };
        assert_eq!(order(&Rules::default()), Some("ally"));
        let adjusted = Rules::new(["knights_adjustment"], crate::rules::TOGGLES).unwrap();
        assert_eq!(order(&adjusted), Some("friendly"));
    }

    /// 3.1 7.2.4h.1, 10.B.6: levels past Ally or Enemy are kept and shown,
    /// while the Meeting column stays at the end of the scale.
    #[test]
    fn the_sheet_shows_levels_kept_past_ally_and_enemy() {
        let mut state = game_played_by(&["White Knight"], |_| "Ann".into());
        state.characters[0].shift_relationship("Order", 2);
        state.characters[0].shift_relationship("Bashkars", -3);
        let shown = sheet(data(), &Rules::default(), &state, &state.characters[0]).relationships;
        let of = |group: &str| {
            shown
                .iter()
                .find(|r| r.group == group)
                .map(|r| (r.relationship, r.levels_beyond))
        };
        assert_eq!(of("Order"), Some(("ally", 2)));
        assert_eq!(of("Bashkars"), Some(("enemy", 2)));
    }

    #[test]
    fn the_suit_of_armour_is_named_in_full() {
        let mut state = game_played_by(&["Black Knight"], |_| "Ann".into());
        state.characters[0].damaged_armor.push("Armor".into());
        let knights = sheet(data(), &Rules::default(), &state, &state.characters[0]);
        assert_eq!(
            knights.armor,
            ["Suit of Armor", "Shield"],
            "no \"Armour: Armor\""
        );
        assert_eq!(knights.damaged_armor, ["Suit of Armor"]);
    }
}
