//! Scoring at the end of the game (3.1 9.3): each category's points earned
//! minus his recorded requirement (3.1 3.3.6), tripled when short, divided
//! by the category's factor and rounded down (toward minus infinity), plus
//! that basic score times the victory points he assigned there. Without
//! recorded requirements each category scores its points ÷ factor.
//!
//! What counts (3.1 9.3.1-9.3.2): only what he can still carry with his
//! strongest active Move chit, active horse or active Boots card; Great
//! Treasures owned; spells learned during the game, never the ones he
//! started with (under Enhanced Artifacts also the Spell cards awakened in
//! his artifacts and books that his MAGIC chits could cast, 3.1 10.C.3.2);
//! recorded Fame and Notoriety plus the Fame and Notoriety
//! values of his belongings, negative ones subtracting, but not a Fame
//! reward (a card a native group pays Fame for); recorded gold only, less
//! the gold he started with (10) and the price of his starting weapon and
//! armour. A character dead at the end scores −100 (3.1 9.3.1a).
//!
//! Rulings: the Magician, who has no row in 3.1's "Value of gold and
//! starting equipment" table, starts with 10 gold and no weapon or armour,
//! so his starting worth is 10, as that table's rows are 10 plus the
//! equipment's price; a horse carries by its trot side, the side it shows
//! outside combat. The BIMR4 GM's published arithmetic agrees with 3.1
//! figure by figure, so there is one formula.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use realmgm_core::game::Rules;

use super::events::{PlayerScore, Score};
use crate::data::GameData;
use crate::state::{CharacterState, ItemKind, MrState, VictoryRequirements};

/// Points per victory point, by category (3.1 9.3.2f).
pub const GREAT_TREASURE_FACTOR: i32 = 1;
pub const SPELL_FACTOR: i32 = 2;
pub const FAME_FACTOR: i32 = 10;
pub const NOTORIETY_FACTOR: i32 = 20;
pub const GOLD_FACTOR: i32 = 30;

/// What a character killed and not restarted scores (3.1 9.3.1a).
pub const DEAD_SCORE: i32 = -100;

/// One category's victory points: `points` counted, `factor` points per
/// VP, `assigned` VPs required there (None: no requirements recorded).
pub fn category(points: i32, factor: i32, assigned: Option<u8>) -> i32 {
    let Some(assigned) = assigned else {
        return points.div_euclid(factor);
    };
    let working = Working::of(points, factor, assigned);
    working.basic + working.bonus
}

/// One category's score worked out step by step (3.1 9.3.2f-g), as the
/// final page of the public pages shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Working {
    pub factor: i32,
    pub assigned: i32,
    pub acquired: i32,
    /// factor × assigned.
    pub required: i32,
    /// (acquired − required, tripled when negative) ÷ factor, rounded down.
    pub basic: i32,
    /// basic × assigned.
    pub bonus: i32,
}

impl Working {
    pub fn of(acquired: i32, factor: i32, assigned: u8) -> Working {
        let assigned = i32::from(assigned);
        let required = factor * assigned;
        let over = acquired - required;
        let over = if over < 0 { over * 3 } else { over };
        let basic = over.div_euclid(factor);
        Working {
            factor,
            assigned,
            acquired,
            required,
            basic,
            bonus: basic * assigned,
        }
    }
}

/// The five categories of `score` worked out against `requirements`, by
/// name, in the order the victory requirements list them.
pub fn workings(score: &Score, requirements: &VictoryRequirements) -> [(&'static str, Working); 5] {
    let r = requirements;
    [
        (
            "great treasures",
            Working::of(
                score.great_treasures,
                GREAT_TREASURE_FACTOR,
                r.great_treasures,
            ),
        ),
        ("spells", Working::of(score.spells, SPELL_FACTOR, r.spells)),
        ("fame", Working::of(score.fame, FAME_FACTOR, r.fame)),
        (
            "notoriety",
            Working::of(score.notoriety, NOTORIETY_FACTOR, r.notoriety),
        ),
        ("gold", Working::of(score.gold, GOLD_FACTOR, r.gold)),
    ]
}

/// The gold every character starts with, which his gold score gives back
/// (3.1 9.3.2e).
pub const STARTING_GOLD: i32 = 10;

/// The points of `who`, a character of `state` in a game under `rules`,
/// in the five categories, and his victory points.
pub fn score(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
    requirements: Option<&VictoryRequirements>,
) -> Score {
    let kept = carried_at_the_end(data, who);
    let great_treasures = count(
        kept.iter()
            .filter(|(kind, name)| {
                *kind == ItemKind::Treasure && data.treasure(name).is_some_and(|t| t.great)
            })
            .count(),
    );
    let spells = count(spells_counted(data, rules, state, who, &kept));
    // Under Disgust his fame, under Ashes his gold, counts as -1 (3.1
    // 9.3.2c, 9.3.2e).
    let (held_fame, held_notoriety) = fame_and_notoriety_values(data, &kept);
    let fame = crate::magic::curses::fame_for_points(who) + held_fame;
    let notoriety = who.notoriety + held_notoriety;
    let start_level = who
        .development
        .as_ref()
        .map_or(crate::development::TOP_LEVEL, |d| d.start_level);
    let gold =
        crate::magic::curses::gold_for_points(who) - starting_worth(data, &who.name, start_level);
    let total = if who.dead {
        DEAD_SCORE
    } else {
        let r = requirements;
        category(
            great_treasures,
            GREAT_TREASURE_FACTOR,
            r.map(|r| r.great_treasures),
        ) + category(spells, SPELL_FACTOR, r.map(|r| r.spells))
            + category(fame, FAME_FACTOR, r.map(|r| r.fame))
            + category(notoriety, NOTORIETY_FACTOR, r.map(|r| r.notoriety))
            + category(gold, GOLD_FACTOR, r.map(|r| r.gold))
    };
    Score {
        character: who.name.clone(),
        great_treasures,
        spells,
        fame,
        notoriety,
        gold,
        total,
    }
}

/// The victory points he has toward his requirements, as Development
/// counts them (3.1 10.E.5.4.2): each category's whole points, none below
/// zero, and no more than he recorded there (without requirements, all).
pub fn points_toward_requirements(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
    requirements: Option<&VictoryRequirements>,
) -> i32 {
    let score = score(data, rules, state, who, None);
    let r = requirements;
    [
        (
            score.great_treasures,
            GREAT_TREASURE_FACTOR,
            r.map(|r| r.great_treasures),
        ),
        (score.spells, SPELL_FACTOR, r.map(|r| r.spells)),
        (score.fame, FAME_FACTOR, r.map(|r| r.fame)),
        (score.notoriety, NOTORIETY_FACTOR, r.map(|r| r.notoriety)),
        (score.gold, GOLD_FACTOR, r.map(|r| r.gold)),
    ]
    .into_iter()
    .map(|(points, factor, assigned)| {
        let whole = points.div_euclid(factor).max(0);
        assigned.map_or(whole, |a| whole.min(i32::from(a)))
    })
    .sum()
}

/// The categories of his victory requirements `who` falls short in (3.1
/// 10.E.3.2, 10.E.6.3): those whose points acquired are fewer than
/// required; with none recorded, the requirements themselves.
pub fn short_of_requirements(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
    requirements: Option<&VictoryRequirements>,
) -> Vec<String> {
    match requirements {
        Some(required) => {
            let score = score(data, rules, state, who, Some(required));
            workings(&score, required)
                .into_iter()
                .filter(|(_, w)| w.acquired < w.required)
                .map(|(name, _)| name.to_string())
                .collect()
        }
        None => vec!["victory requirements, never recorded".to_string()],
    }
}

/// The victory points of any kind he has, as Extended Development
/// without requirements counts them toward chits (3.1 10.E.6.10): each
/// category's whole points, negative Fame and Notoriety rounded down and
/// subtracting (not tripled), the other categories never below zero.
pub fn points_of_any_kind(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
) -> i32 {
    let score = score(data, rules, state, who, None);
    let at_least_none = [
        (score.great_treasures, GREAT_TREASURE_FACTOR),
        (score.spells, SPELL_FACTOR),
        (score.gold, GOLD_FACTOR),
    ]
    .into_iter()
    .map(|(points, factor)| points.div_euclid(factor).max(0));
    let signed = [
        (score.fame, FAME_FACTOR),
        (score.notoriety, NOTORIETY_FACTOR),
    ]
    .into_iter()
    .map(|(points, factor)| points.div_euclid(factor));
    at_least_none.chain(signed).sum()
}

/// Who won and who is the victor, as a sentence after the scores: every
/// character scoring 0 or more has won, and the highest score is the
/// victor even when nobody won (3.1 9.3.2i-j).
pub fn outcome(scores: &[Score]) -> String {
    let Some(best) = scores.iter().map(|s| s.total).max() else {
        return String::new();
    };
    let names = |keep: &dyn Fn(&Score) -> bool| -> Vec<String> {
        scores
            .iter()
            .filter(|s| keep(s))
            .map(|s| format!("the {}", s.character))
            .collect()
    };
    let winners = names(&|s| s.total >= 0);
    let victors = names(&|s| s.total == best);
    let won = if winners.is_empty() {
        "Nobody scored 0 or more".to_string()
    } else {
        format!("Won (0 or more): {}", realmgm_core::words::listed(&winners))
    };
    let victor = realmgm_core::words::listed(&victors);
    let verb = if victors.len() == 1 {
        "is the victor"
    } else {
        "share the victory"
    };
    format!("\n{won}; {victor} {verb} with {best}.")
}

/// Each player's score when one plays several characters (3.1 10.E.4.6):
/// his characters' points summed, a killed one counting none (10.E.4.7),
/// over the number of characters he had at the start, which is the number
/// of his seats (a replacement takes the killed one's seat). Empty when
/// every player plays one character, whose score is his player's.
pub fn player_scores(state: &MrState, scores: &[Score]) -> Vec<PlayerScore> {
    if !state.characters.iter().any(|c| c.controller.is_some()) {
        return Vec::new();
    }
    let mut players: Vec<PlayerScore> = Vec::new();
    for (c, score) in state.characters.iter().zip(scores) {
        let points = if c.dead { 0 } else { score.total };
        match players.iter_mut().find(|p| p.player == c.played_by()) {
            Some(p) => {
                p.total += points;
                p.characters += 1;
            }
            None => players.push(PlayerScore {
                player: c.played_by().to_string(),
                total: points,
                characters: 1,
            }),
        }
    }
    players
}

/// A player's average as it reads: `7/2 = 3.5`, or `4` for one character.
fn average(p: &PlayerScore) -> String {
    let n = i64::from(p.characters.max(1));
    let total = i64::from(p.total);
    if n == 1 {
        return total.to_string();
    }
    // Two decimals, rounded toward zero, from whole numbers alone.
    let hundredths = total * 100 / n;
    let sign = if hundredths < 0 { "-" } else { "" };
    let (whole, part) = (hundredths.abs() / 100, hundredths.abs() % 100);
    format!("{total}/{n} = {sign}{whole}.{part:02}")
}

/// Who won and who is the victor by the players' averages (3.1 10.E.4.6):
/// every player whose total is 0 or more has won, and the largest average
/// is the victor.
pub fn players_outcome(players: &[PlayerScore]) -> String {
    // a/m > b/n exactly when a*n > b*m, the counts being positive.
    let above = |a: &PlayerScore, b: &PlayerScore| {
        i64::from(a.total) * i64::from(b.characters.max(1))
            > i64::from(b.total) * i64::from(a.characters.max(1))
    };
    let Some(best) = players
        .iter()
        .fold(None, |best: Option<&PlayerScore>, p| match best {
            Some(b) if !above(p, b) => Some(b),
            _ => Some(p),
        })
    else {
        return String::new();
    };
    let mut text =
        String::from("\nEach player's score, his characters' total over those he started with:");
    for p in players {
        let _ = write!(text, "\n  {}: {}", p.player, average(p));
    }
    let winners: Vec<&str> = players
        .iter()
        .filter(|p| p.total >= 0)
        .map(|p| p.player.as_str())
        .collect();
    let victors: Vec<&str> = players
        .iter()
        .filter(|p| !above(best, p))
        .map(|p| p.player.as_str())
        .collect();
    let won = if winners.is_empty() {
        "Nobody scored 0 or more".to_string()
    } else {
        format!("Won (0 or more): {}", realmgm_core::words::listed(&winners))
    };
    let verb = if victors.len() == 1 {
        "is the victor"
    } else {
        "share the victory"
    };
    let _ = write!(
        text,
        "\n{won}; {} {verb} with {}.",
        realmgm_core::words::listed(&victors),
        average(best)
    );
    text
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// What the character `kind` names started with at development `level`
/// (4 without Development), in gold: 10 plus the price of that level's
/// weapon and armour (3.1 9.3.2e and its table "Value of gold and starting
/// equipment", whose column is the starting level's, 3.3.6b.5).
pub fn starting_worth(data: &GameData, kind: &str, level: u8) -> i32 {
    let Some(card) = data.characters.iter().find(|c| c.name == kind) else {
        return STARTING_GOLD;
    };
    let card = &crate::development::card_at_level(card, level);
    let weapon = card
        .weapon
        .iter()
        .filter_map(|w| data.weapons.iter().find(|d| &d.name == w))
        .map(|w| i32::from(w.price));
    let armour = card
        .armor
        .iter()
        .filter_map(|a| data.armor.iter().find(|d| &d.name == a))
        .map(|a| i32::from(a.price.intact));
    STARTING_GOLD + weapon.chain(armour).sum::<i32>()
}

/// The spells he learned during the game: those he knows beyond the ones
/// he recorded at the start (3.1 9.3.2b), less those he recorded through
/// an artifact or book he no longer has (3.1 10.C.3.1). A Spell card held
/// but not learned counts nothing.
fn spells_learned<'c>(
    data: &GameData,
    who: &'c CharacterState,
    kept: &[(ItemKind, String)],
) -> BTreeSet<&'c str> {
    let starting = who.magic.starting_spells.unwrap_or_else(|| {
        data.characters
            .iter()
            .find(|c| c.name == who.name)
            .map_or(0, |c| c.spells)
    });
    let has = |item: &String| kept.iter().any(|(_, name)| name == item);
    who.magic
        .spells
        .iter()
        .skip(usize::from(starting))
        .filter(|spell| who.magic.recorded_through.get(*spell).is_none_or(has))
        .map(String::as_str)
        .collect()
}

/// How many spells count toward his victory: those he learned, and under
/// Enhanced Artifacts the Spell cards awakened in the artifacts and books
/// he has at the end that his MAGIC chits could cast (3.1 10.C.3.2).
/// Rulings: a card whose spell he also learned is the one spell, counted
/// once; a card repeating a spell he started with counts, as a learned
/// spell repeating one does (9.3.2b).
fn spells_counted(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    who: &CharacterState,
    kept: &[(ItemKind, String)],
) -> usize {
    let mut spells = spells_learned(data, who, kept);
    let items: Vec<&str> = kept.iter().map(|(_, name)| name.as_str()).collect();
    spells.extend(crate::magic::item_chit::spell_cards_for_victory(
        state, data, rules, who, &items,
    ));
    spells.len()
}

/// Every item he owns at the end that his carrying strength (3.1 9.3.1,
/// as 7.3.1e for a move) carries,
/// by kind and name: his weapon, armour and belongings; what is too heavy
/// is discarded and counts nothing (3.1 9.3.1). A pack horse he still leads
/// carries its load for him (3.1 7.3.1i), so a loaded item counts when that
/// horse's strength or his own carries it.
fn carried_at_the_end(data: &GameData, who: &CharacterState) -> Vec<(ItemKind, String)> {
    let strength = crate::abilities::carrying_strength(data, who);
    let own = who
        .weapon
        .iter()
        .map(|w| (ItemKind::Weapon, w.clone()))
        .chain(who.armor.iter().map(|a| (ItemKind::Armor, a.clone())))
        .chain(
            who.belongings
                .iter()
                .map(|b| (b.item.kind, b.item.name.clone())),
        )
        .filter(|(kind, name)| crate::abilities::weight(data, *kind, name) <= strength);
    let packed = who
        .pack
        .iter()
        .filter_map(|(horse, load)| {
            let leads = who
                .belongings
                .iter()
                .any(|b| b.item.kind == ItemKind::Horse && &b.item.name == horse);
            leads.then(|| (data.pack_strength(horse).max(strength), load))
        })
        .flat_map(|(carries, load)| {
            load.iter()
                .filter(move |i| crate::abilities::weight(data, i.kind, &i.name) <= carries)
                .map(|i| (i.kind, i.name.clone()))
        });
    own.chain(packed).collect()
}

/// The Fame and Notoriety values of `items` (3.1 9.3.2c-d): a treasure's,
/// unless its Fame is a reward a native group pays, and a treasure
/// weapon's or armour's.
fn fame_and_notoriety_values(data: &GameData, items: &[(ItemKind, String)]) -> (i32, i32) {
    let values = items.iter().filter_map(|(kind, name)| {
        let base = crate::data::base_name(name);
        match kind {
            ItemKind::Treasure => data.treasure(name).map(|t| {
                let fame = if t.fame_buyer.is_some() { 0 } else { t.fame };
                (fame, t.notoriety)
            }),
            ItemKind::Weapon => data
                .weapons
                .iter()
                .find(|w| w.name == base)
                .map(|w| (w.fame.unwrap_or(0), w.notoriety.unwrap_or(0))),
            ItemKind::Armor => data
                .armor
                .iter()
                .find(|a| a.name == base)
                .map(|a| (a.fame.unwrap_or(0), a.notoriety.unwrap_or(0))),
            ItemKind::Spell | ItemKind::Horse => None,
        }
    });
    values.fold((0, 0), |(fame, notoriety), (f, n)| {
        (fame + i32::from(f), notoriety + i32::from(n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(character: &str, total: i32) -> Score {
        Score {
            character: character.into(),
            great_treasures: 0,
            spells: 0,
            fame: 0,
            notoriety: 0,
            gold: 0,
            total,
        }
    }

    /// A player's score is his characters' total over the number he
    /// started with, a killed one counting none, and the largest average is
    /// the victor (3.1 10.E.4.6, 10.E.4.7).
    #[test]
    fn a_player_of_several_characters_scores_their_average_3_1_10_e_4_6() {
        let mut state = crate::test_support::game_played_by(
            &["Amazon", "Berserker", "Dwarf", "Wizard"],
            |seat| match seat {
                3 => "Ben".into(),
                n => format!("Ann/{}", n + 1),
            },
        );
        for (n, c) in state.characters.iter_mut().take(3).enumerate() {
            c.controller = Some("Ann".into());
            c.player = format!("Ann/{}", n + 1);
        }
        state.characters[2].dead = true;
        let scores = [
            scored("Amazon", 9),
            scored("Berserker", 2),
            scored("Dwarf", DEAD_SCORE),
            scored("Wizard", 3),
        ];
        let players = player_scores(&state, &scores);
        assert_eq!(
            players,
            vec![
                PlayerScore {
                    player: "Ann".into(),
                    total: 11,
                    characters: 3,
                },
                PlayerScore {
                    player: "Ben".into(),
                    total: 3,
                    characters: 1,
                },
            ]
        );
        let text = players_outcome(&players);
        assert!(text.contains("Ann: 11/3 = 3.66"), "{text}");
        assert!(text.contains("Ben: 3"), "{text}");
        assert!(
            text.ends_with("Won (0 or more): Ann and Ben; Ann is the victor with 11/3 = 3.66."),
            "{text}"
        );
        // Every player with one character: the characters' own outcome.
        for c in &mut state.characters {
            c.controller = None;
        }
        assert!(player_scores(&state, &scores).is_empty());
    }

    #[test]
    fn the_bimr4_worked_examples() {
        // Great treasures: 1 owned, 2 VPs required → −3 basic, −6 bonus.
        assert_eq!(category(1, GREAT_TREASURE_FACTOR, Some(2)), -9);
        // Notoriety: 132 owned, 1 VP required → 5 basic + 5 bonus.
        assert_eq!(category(132, NOTORIETY_FACTOR, Some(1)), 10);
    }

    #[test]
    fn negative_scores_are_tripled_then_rounded_down() {
        // Fame 5 against 1 VP (10 needed): (5 − 10) × 3 = −15 → −2, −2 bonus.
        assert_eq!(category(5, FAME_FACTOR, Some(1)), -4);
        // Exactly met: nothing either way.
        assert_eq!(category(30, GOLD_FACTOR, Some(1)), 0);
        // Nothing assigned: points ÷ factor, no bonus.
        assert_eq!(category(65, GOLD_FACTOR, Some(0)), 2);
    }

    #[test]
    fn without_requirements_raw_points_divide() {
        assert_eq!(category(45, FAME_FACTOR, None), 4);
        assert_eq!(category(-5, FAME_FACTOR, None), -1);
        assert_eq!(category(3, SPELL_FACTOR, None), 1);
    }
}
