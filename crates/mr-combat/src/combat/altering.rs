//! The values a character's action chits have now: the printed ones, altered
//! by the treasure cards that alter action chits (3.1 List of Treasures,
//! group 6: Belt of Strength, Draught of Speed, Garb of Speed) and by the
//! spells on him (List of Spells: Elven Grace, Unleash Power, Transform and
//! Absorb Essence, `spell_effects.rs`).
//!
//! Each alteration is automatic while its card is active (group 6 preamble):
//! - The Draught or the Garb of Speed gives every action chit, MAGIC chits
//!   included, a time by its effort asterisks (Draught: two 2, one 3, none 4;
//!   Garb: two 3, one 4, none 5). With both active the Draught's times stand
//!   and the Garb does nothing (Garb of Speed's note).
//! - The Belt of Strength gives every MOVE, FIGHT, DUCK and BERSERK chit a
//!   strength by its asterisks: two T, one H, none M; MAGIC chits keep none.
//! - Elven Grace sets the time of MOVE chits only (not DUCK chits, horses,
//!   Boots cards or the MOVE/FIGHT chits of Unleash Power) from the strength
//!   printed on each chit, whatever the Belt made it (its note 1); an active
//!   speed card nullifies it and its times stand instead (its note 2).
//! - Unleash Power's MOVE/FIGHT chit takes its strength from the time
//!   printed on the MAGIC chit, whatever a speed card made it (its note 1),
//!   unless the Belt is active: then the Belt gives the strength (its note
//!   2). A speed card still sets its time, as it does every action chit's.
//! - A transformed character's belongings are transformed with him (3.1
//!   Transform, note 1): while he fights as a form, the cards alter nothing
//!   and his chits have the form's values.
//!
//! Horses, Boots and Gloves cards and Fly chits are not action chits: no card
//! alters them (group 6 preamble).

use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::terms::Strength;
use crate::data::treasures::TreasureEffect;

use crate::state::magic::CastWith;

use super::Battle;
use super::casting::CombatMagic;
use super::model::{FighterId, Hero};
use super::spell_effects::Form;
use super::tactics::same_chit;

/// What the active treasure cards of one character do to his action chits:
/// the value for two, one and no effort asterisks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cards {
    /// The Draught's or the Garb's times.
    pub time: Option<[u8; 3]>,
    /// The Belt's strengths.
    pub strength: Option<[Strength; 3]>,
}

/// The altering cards active in `hero`'s kit. A potion among two speed
/// cards defines the times: the Draught of Speed is the potion, and it rules
/// over the Garb.
pub fn cards(data: &GameData, hero: &Hero) -> Cards {
    let mut cards = Cards::default();
    let mut time_from_potion = false;
    let active = hero
        .kit
        .treasures
        .iter()
        .filter(|t| t.active)
        .filter_map(|t| data.treasure(&t.name));
    for treasure in active {
        let potion = treasure
            .effects
            .iter()
            .any(|e| matches!(e, TreasureEffect::Potion { .. }));
        for effect in &treasure.effects {
            match *effect {
                TreasureEffect::ChitSpeedByStars { two, one, none }
                    if cards.time.is_none() || (potion && !time_from_potion) =>
                {
                    cards.time = Some([two, one, none]);
                    time_from_potion = potion;
                }
                TreasureEffect::ChitStrengthByStars { two, one, none } => {
                    cards.strength = Some([two, one, none]);
                }
                _ => {}
            }
        }
    }
    cards
}

/// The spells on a character that change his chits' values.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spells<'a> {
    pub graced: bool,
    /// This MAGIC chit is a MOVE/FIGHT chit of Unleash Power.
    pub unleashed: bool,
    pub form: Option<&'a Form>,
}

/// Which of a `[two, one, none]` table a chit with `effort` asterisks reads.
fn by_stars<T: Copy>(table: [T; 3], effort: u8) -> T {
    match effort {
        0 => table[2],
        1 => table[1],
        _ => table[0],
    }
}

/// The move time Elven Grace gives a strength.
pub fn graced(strength: Strength) -> u8 {
    match strength {
        Strength::Negligible | Strength::Light => 1,
        Strength::Medium => 2,
        Strength::Heavy => 3,
        Strength::Tremendous => 4,
    }
}

/// The strength Unleash Power gives a MAGIC chit of printed `time`.
pub fn unleashed(time: u8) -> Strength {
    match time {
        ..=3 => Strength::Light,
        4 => Strength::Medium,
        5 => Strength::Heavy,
        _ => Strength::Tremendous,
    }
}

/// The values of a chit printed as `printed`, under `cards` and `spells`.
pub fn chit_now(printed: &ActionChit, cards: Cards, spells: Spells<'_>) -> ActionChit {
    let mut now = *printed;
    let moves = matches!(printed.action, ChitAction::Move);
    if let Some(form) = spells.form {
        match printed.action {
            ChitAction::Move | ChitAction::Duck => {
                now.strength = Some(form.move_strength);
                now.time = form.move_time;
            }
            ChitAction::Fight | ChitAction::Berserk => {
                if let Some((blow, speed, _)) = &form.attack {
                    now.time = *speed;
                    now.strength = Some(super::spell_effects::strength_of(blow.level));
                }
            }
            ChitAction::Magic => {}
        }
        if spells.unleashed {
            now.strength = Some(unleashed(printed.time));
        }
        if spells.graced && moves {
            now.time = graced(form.move_strength);
        }
        return now;
    }
    if spells.unleashed {
        now.strength = Some(unleashed(printed.time));
    }
    if let Some(times) = cards.time {
        now.time = by_stars(times, printed.effort);
    } else if spells.graced && moves {
        now.time = graced(printed.strength.unwrap_or_default());
    }
    let has_strength = printed.action != ChitAction::Magic || spells.unleashed;
    if let Some(strengths) = cards.strength.filter(|_| has_strength) {
        now.strength = Some(by_stars(strengths, printed.effort));
    }
    now
}

/// The time character `who` plays his chit `label` at now, when he has it.
pub fn time_now(battle: &Battle, who: FighterId, label: &str) -> Option<u8> {
    battle
        .hero(who)?
        .chits
        .iter()
        .find(|c| same_chit(&c.label, label))
        .map(|c| c.chit.time)
}

/// A cast's completion time: a MAGIC chit that is not alerted completes at
/// the time it has now, which a speed card may have changed (3.1 8.4.3a and
/// List of Treasures, group 6); `speed` is the magic rules' printed one.
pub fn cast_time(
    battle: &Battle,
    magic: &CombatMagic,
    caster: FighterId,
    with: &CastWith,
    speed: u8,
) -> u8 {
    let CastWith::Chit { index } = with else {
        return speed;
    };
    magic
        .seats
        .get(&caster)
        .and_then(|&seat| magic.state.characters.get(seat))
        .and_then(|c| c.chits.get(*index))
        .filter(|_| speed > 0)
        .and_then(|c| time_now(battle, caster, &c.chit))
        .unwrap_or(speed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::script;
    use crate::test_support::data;

    fn chit(label: &str) -> ActionChit {
        ActionChit::parse(label).unwrap()
    }

    fn hero_cards(treasures: &[&str]) -> Cards {
        let list = treasures
            .iter()
            .map(|t| format!("{t:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        let text = format!(
            "clearing = \"CV4\"\n[[character]]\nname = \"Amazon\"\nartifacts = [{list}]\n\
             [[denizen]]\nid = \"Wolf A 1\"\n"
        );
        let s = script::load(data(), "test.toml", &text).unwrap_or_else(|e| panic!("{e}"));
        cards(data(), s.battle.hero(0).unwrap())
    }

    /// 3.1 10.E.7.2.1: the second game's Belt works as the printed one.
    #[test]
    fn a_second_games_belt_alters_as_the_printed_one() {
        let belt = hero_cards(&["Belt of Strength"]).strength;
        assert!(belt.is_some());
        assert_eq!(hero_cards(&["Belt of Strength II"]).strength, belt);
    }

    /// 3.1 List of Treasures, group 6: the Garb times by asterisks 3/4/5,
    /// the Draught 2/3/4, and the Draught rules when both are active.
    #[test]
    fn speed_cards_time_by_asterisks_draught_over_garb_3_1_treasures_group_6() {
        let garb = hero_cards(&["Garb of Speed"]);
        let draught = hero_cards(&["Draught of Speed"]);
        let both = hero_cards(&["Garb of Speed", "Draught of Speed"]);
        let both_other_order = hero_cards(&["Draught of Speed", "Garb of Speed"]);
        assert_eq!(garb.time, Some([3, 4, 5]));
        assert_eq!(draught.time, Some([2, 3, 4]));
        assert_eq!(both.time, draught.time);
        assert_eq!(both_other_order.time, draught.time);
        let none = Spells::default();
        assert_eq!(chit_now(&chit("MAGIC III2*"), garb, none).time, 4);
        assert_eq!(chit_now(&chit("MOVE M4"), garb, none).time, 5);
        assert_eq!(chit_now(&chit("FIGHT H5**"), draught, none).time, 2);
    }

    /// 3.1 List of Treasures, Belt of Strength: MOVE, FIGHT, DUCK and
    /// BERSERK strengths by asterisks (T, H, M); MAGIC chits untouched.
    #[test]
    fn belt_sets_strength_by_asterisks_not_magic_3_1_treasures_group_6() {
        let belt = hero_cards(&["Belt of Strength"]);
        let none = Spells::default();
        let now = |l: &str| chit_now(&chit(l), belt, none).strength;
        assert_eq!(now("MOVE L3"), Some(Strength::Medium));
        assert_eq!(now("FIGHT L2*"), Some(Strength::Heavy));
        assert_eq!(now("DUCK T3**"), Some(Strength::Tremendous));
        assert_eq!(now("MAGIC III2*"), None);
        assert_eq!(chit_now(&chit("FIGHT L2*"), belt, none).time, 2);
    }

    /// 3.1 List of Spells, Elven Grace notes 1-2 and Unleash Power notes
    /// 1-2: Grace reads the printed strength under the Belt and yields to a
    /// speed card; Unleash reads the printed time under a speed card and
    /// yields to the Belt.
    #[test]
    fn grace_and_unleash_against_the_cards_3_1_spells_notes() {
        let graced = Spells {
            graced: true,
            ..Spells::default()
        };
        let belt = hero_cards(&["Belt of Strength"]);
        let garb = hero_cards(&["Garb of Speed"]);
        // Printed L: Grace gives 1 though the Belt makes the chit M.
        let under_belt = chit_now(&chit("MOVE L3"), belt, graced);
        assert_eq!(
            (under_belt.time, under_belt.strength),
            (1, Some(Strength::Medium))
        );
        // The Garb's 5 stands, not Grace's 2.
        assert_eq!(chit_now(&chit("MOVE M4"), garb, graced).time, 5);
        // Grace touches no DUCK chit.
        assert_eq!(chit_now(&chit("DUCK M4"), Cards::default(), graced).time, 4);
        let unleashed = Spells {
            unleashed: true,
            ..Spells::default()
        };
        // Printed time 2: Light, though the Garb makes it 4.
        let fast = chit_now(&chit("MAGIC III2*"), garb, unleashed);
        assert_eq!((fast.time, fast.strength), (4, Some(Strength::Light)));
        // The Belt overrides: one asterisk, Heavy.
        let belted = chit_now(&chit("MAGIC III2*"), belt, unleashed);
        assert_eq!(belted.strength, Some(Strength::Heavy));
        // Grace does not touch an unleashed chit.
        let both = Spells {
            graced: true,
            unleashed: true,
            form: None,
        };
        assert_eq!(
            chit_now(&chit("MAGIC III4"), Cards::default(), both).time,
            4
        );
    }
}
