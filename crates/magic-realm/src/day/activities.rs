//! The HIDE, ALERT and REST activities (3.1 rules 7.6–7.9; `tables/hide.rs`).
//!
//! Rest heals one asterisk a phase (two with an advantage that makes rest
//! count double): a wounded chit without asterisks comes back into play, a
//! wounded one-asterisk chit becomes fatigued, a fatigued one-asterisk chit
//! comes back; a two-asterisk chit is healed one step by "making change",
//! fatiguing an active one-asterisk chit in its place (7.8.2).
//!
//! A character whose every chit is fatigued, wounded or committed to a
//! spell may only Rest: each other phase he recorded becomes a Rest; if he
//! cannot rest (the Ill Health curse, or every chit committed to spells) he
//! is killed (7.8.4, 9.1.1c). Ruling: colour chits are in play (4.6.4g), so
//! a character holding one is not forced to rest.

use realmgm_core::dice::DiceCount;
use realmgm_core::game::Observers;

use super::events::{Happening, PhaseResult, RestChange};
use super::{Day, PhaseOutcome};
use crate::abilities;
use crate::data::characters::{ActionChit, Advantage};
use crate::data::terms::Roll;
use crate::magic::colour::fatigue_at_will;
use crate::magic::enchant::tied_up;
use crate::magic::events::MagicEvent;
use crate::orders::dealings::When;
use crate::orders::{Activity, DayOrders};
use crate::state::{CharacterChit, ChitCondition, MrState};
use crate::tables::hide::{Hide, HideResult};
use crate::tables::read_roll;

/// Roll on the Hide table; the roll is seen by the GM only (a hide roll is
/// secret), its result goes to the character's player with the phase.
pub fn hide(day: &mut Day<'_>, who: usize) -> PhaseResult {
    let character = &day.state.characters[who];
    if character.hidden {
        return PhaseResult::AlreadyHidden;
    }
    let modifiers = super::modifiers::for_roll(day, who, Roll::Hide);
    let count: DiceCount = modifiers.dice_count();
    let purpose = format!("daylight/hide/{}", character.name);
    let record = day.roll(&purpose, count, Observers::Gm);
    let roll = read_roll(&Hide, record, &modifiers);
    let hidden = roll.result == HideResult::Hidden
        && !crate::magic::curses::keeps_unhidden(&day.state.characters[who]);
    if hidden {
        day.state.characters[who].hidden = true;
    }
    PhaseResult::Hid {
        faces: roll.record.faces,
        hidden,
    }
}

/// Turn his weapon ready side up; or, when the phase's note names one of
/// his MAGIC chits or he has no weapon, prepare a MAGIC chit
/// ([`crate::magic::prepare`]).
pub fn alert(
    day: &mut Day<'_>,
    who: usize,
    note: Option<&str>,
) -> Result<PhaseResult, PhaseOutcome> {
    let named = note.and_then(|n| crate::magic::enchant::find_chit(&day.state, who, n));
    if named.is_some() || day.state.characters[who].weapon.is_none() {
        return crate::magic::prepare::prepare(&mut day.state, who, named)
            .map(|event| {
                let chit = match &event {
                    crate::magic::events::MagicEvent::ChitPrepared { chit, .. } => chit.clone(),
                    _ => String::new(),
                };
                let observers = day.only(who);
                day.emit(observers, super::events::Happening::Magic(event));
                PhaseResult::Done {
                    activity: format!("prepares {chit}"),
                }
            })
            .map_err(|reason| PhaseOutcome::Lost {
                reason: reason.to_string(),
            });
    }
    let character = &mut day.state.characters[who];
    let Some(weapon) = character.weapon.clone() else {
        return Err(PhaseOutcome::Lost {
            reason: "no weapon to alert".into(),
        });
    };
    if character.weapon_alerted {
        return Err(PhaseOutcome::Lost {
            reason: format!("the {weapon} is already alerted"),
        });
    }
    character.weapon_alerted = true;
    Ok(PhaseResult::Alerted { weapon })
}

/// Rest once (twice when rest counts double), healing the named chit if it
/// can be healed, otherwise the best one.
pub fn rest(day: &mut Day<'_>, who: usize, named: Option<&str>) -> PhaseResult {
    if let Some(reason) = crate::magic::curses::forbids_rest(&day.state.characters[who]) {
        return PhaseResult::Lost { reason };
    }
    let double = abilities::has(
        day.data,
        day.rules,
        &day.state.characters[who],
        &Advantage::RestCountsDouble,
    );
    let times = if double { 2 } else { 1 };
    let mut changes = Vec::new();
    for _ in 0..times {
        changes.extend(rest_once(&mut day.state.characters[who].chits, named));
    }
    if crate::magic::curses::has(
        &day.state.characters[who],
        crate::tables::magic::CurseKind::Wither,
    ) {
        // Wither: nothing with effort asterisks may come back to active.
        crate::magic::curses::wither(&mut day.state.characters[who]);
    }
    PhaseResult::Rested { changes }
}

/// The colour chits `who` fatigues at will at the start of phase `phase`
/// (`Phase 2: fatigue MAGIC III2*`; 3.1 rules 4.6.4i and 7.2.3c–d), each
/// told to him alone, done or not.
pub fn fatigue_colour_chits(
    day: &mut Day<'_>,
    who: usize,
    phase: u8,
    orders: &DayOrders,
    flying: bool,
) {
    let named: Vec<String> = orders
        .rearrange
        .iter()
        .filter(|r| r.at == When::Phase(phase))
        .flat_map(|r| r.fatigue.iter().cloned())
        .collect();
    for chit in named {
        // An artifact or book enchanted into colour is expended the same way
        // (3.1 10.C.3.3).
        let item = crate::magic::item_chit::expend_at_will(&mut day.state, who, &chit);
        let event = item.map_or_else(|| fatigue_at_will(&mut day.state, who, &chit, flying), Ok);
        let event = event.unwrap_or_else(|e| MagicEvent::ColourChitKept {
            character: day.state.characters[who].name.clone(),
            chit,
            reason: e.to_string(),
        });
        let observers = day.only(who);
        day.emit(observers, Happening::Magic(event));
    }
}

/// Whether every chit of `who` is fatigued, wounded or committed to a
/// spell in effect (3.1 rule 7.8.4).
pub fn every_chit_out_of_play(state: &MrState, who: usize) -> bool {
    state.characters.get(who).is_some_and(|c| {
        c.chits
            .iter()
            .enumerate()
            .all(|(i, chit)| chit.condition != ChitCondition::Active || tied_up(state, who, i))
    })
}

/// A transmorphized individual still records his activities but must
/// cancel some when he comes to them (3.1 4.6.9c): never Trade, Hire,
/// Rest, Alert or Enchant; turned to mist, no Search either.
pub fn transmorphized_forbids(
    day: &Day<'_>,
    who: usize,
    activity: &Activity,
) -> Option<PhaseResult> {
    let name = &day.state.characters[who].name;
    let spell = crate::magic::conflicts::transmorphized(&day.state, name)?;
    let (what, section) = match activity {
        Activity::Trade => ("Trade", "4.6.9c.1"),
        Activity::Hire => ("Hire", "4.6.9c.1"),
        Activity::Rest { .. } => ("Rest", "4.6.9c.1"),
        Activity::Alert => ("Alert", "4.6.9c.1"),
        Activity::SpellPrep | Activity::Spell { .. } => ("Enchant", "4.6.9c.1"),
        Activity::Search if spell == "Melt Into Mist" => ("Search", "4.6.9c.2"),
        _ => return None,
    };
    Some(PhaseResult::Lost {
        reason: format!(
            "the {name} is transmorphized by {spell} and may not {what} while it lasts \
             (3.1 rule {section})"
        ),
    })
}

/// The phase of `who` when every chit of his is out of play (3.1 rules
/// 7.8.4 and 9.1.1c): a recorded Rest is done as usual (`None`); any other
/// activity is cancelled and he rests instead; if he cannot rest he is
/// killed, and his turn ends.
pub fn only_rest(day: &mut Day<'_>, who: usize, resting: bool) -> Option<PhaseResult> {
    if !every_chit_out_of_play(&day.state, who) {
        return None;
    }
    let c = &day.state.characters[who];
    let cannot = crate::magic::curses::forbids_rest(c).or_else(|| {
        (0..c.chits.len())
            .all(|i| tied_up(&day.state, who, i))
            .then(|| format!("every chit of the {} is committed to a spell", c.name))
    });
    if let Some(why) = cannot {
        let name = c.name.clone();
        day.state.characters[who].dead = true;
        day.today.blocked.insert(who);
        return Some(PhaseResult::Lost {
            reason: format!(
                "the {name} has every chit fatigued, wounded or committed and must rest, but {why}: \
                 the {name} is killed (3.1 rule 7.8.4)"
            ),
        });
    }
    if resting {
        return None;
    }
    let reason = format!(
        "every chit of the {} is fatigued, wounded or committed to a spell, so he may only rest \
         (3.1 rule 7.8.4)",
        c.name
    );
    Some(PhaseResult::Instead {
        reason,
        result: Box::new(rest(day, who, None)),
    })
}

fn effort(chit: &CharacterChit) -> u8 {
    ActionChit::parse(&chit.chit).map(|c| c.effort).unwrap_or(0)
}

/// The chit a rest would heal, best first: wounded without asterisks,
/// fatigued one-asterisk, wounded one-asterisk, then two-asterisk chits
/// that can make change.
fn pick(chits: &[CharacterChit], named: Option<&str>) -> Option<usize> {
    let can_make_change = chits
        .iter()
        .any(|c| c.condition == ChitCondition::Active && effort(c) == 1);
    let healable = |c: &CharacterChit| match (c.condition, effort(c)) {
        (ChitCondition::Active, _) => None,
        (ChitCondition::Wounded, 0) => Some(0),
        (ChitCondition::Fatigued, 0) => Some(1),
        (ChitCondition::Fatigued, 1) => Some(2),
        (ChitCondition::Wounded, 1) => Some(3),
        (_, _) if can_make_change => Some(4),
        _ => None,
    };
    if let Some(name) = named
        && let Some(i) = chits
            .iter()
            .position(|c| c.chit.eq_ignore_ascii_case(name) && healable(c).is_some())
    {
        return Some(i);
    }
    chits
        .iter()
        .enumerate()
        .filter_map(|(i, c)| healable(c).map(|rank| (rank, i)))
        .min()
        .map(|(_, i)| i)
}

fn rest_once(chits: &mut [CharacterChit], named: Option<&str>) -> Vec<RestChange> {
    let Some(i) = pick(chits, named) else {
        return Vec::new();
    };
    let from = chits[i].condition;
    let to = match (from, effort(&chits[i])) {
        (ChitCondition::Wounded, 0) | (ChitCondition::Fatigued, _) => ChitCondition::Active,
        _ => ChitCondition::Fatigued,
    };
    let mut changes = Vec::new();
    if effort(&chits[i]) >= 2 {
        // Making change: an active one-asterisk chit is fatigued in its place.
        if let Some(j) = chits
            .iter()
            .position(|c| c.condition == ChitCondition::Active && effort(c) == 1)
        {
            chits[j].condition = ChitCondition::Fatigued;
            changes.push(RestChange {
                chit: chits[j].chit.clone(),
                from: ChitCondition::Active,
                to: ChitCondition::Fatigued,
            });
        }
    }
    chits[i].condition = to;
    changes.insert(
        0,
        RestChange {
            chit: chits[i].chit.clone(),
            from,
            to,
        },
    );
    changes
}

#[cfg(test)]
mod tests {
    use super::super::events::{Happening, PhaseResult};
    use super::super::tests::{game, play};
    use crate::state::ChitCondition;
    use crate::tables::magic::CurseKind;
    use crate::test_support::{data, results};
    use realmgm_core::dice::DiceScript;
    use realmgm_core::game::Rules;

    /// 3.1 rule 7.8.2: each Rest does one of four things: a fatigued
    /// one-asterisk or wounded no-asterisk chit comes back; a wounded
    /// one-asterisk chit becomes fatigued; a fatigued or wounded
    /// two-asterisk chit heals one step by fatiguing an active one-asterisk
    /// chit ("making change"); without one to fatigue, it does not heal.
    #[test]
    fn each_rest_heals_as_3_1_rule_7_8_2_lists() {
        use crate::state::CharacterChit;
        let chit = |name: &str, condition| CharacterChit {
            chit: name.into(),
            condition,
            enchanted: false,
            prepared: false,
        };
        let conditions = |chits: &[CharacterChit]| -> Vec<ChitCondition> {
            chits.iter().map(|c| c.condition).collect()
        };
        use ChitCondition::{Active, Fatigued, Wounded};
        let mut chits = vec![chit("FIGHT L4", Wounded), chit("MOVE M4*", Fatigued)];
        super::rest_once(&mut chits, Some("FIGHT L4"));
        assert_eq!(conditions(&chits), [Active, Fatigued]);
        super::rest_once(&mut chits, None);
        assert_eq!(conditions(&chits), [Active, Active]);
        let mut chits = vec![chit("MOVE M4*", Wounded)];
        super::rest_once(&mut chits, None);
        assert_eq!(conditions(&chits), [Fatigued]);
        let mut chits = vec![chit("FIGHT H4**", Fatigued), chit("MOVE M4*", Active)];
        let changes = super::rest_once(&mut chits, None);
        assert_eq!(conditions(&chits), [Active, Fatigued]);
        assert_eq!(changes.len(), 2, "the two-asterisk chit and its change");
        let mut chits = vec![chit("FIGHT H4**", Wounded), chit("MOVE M4*", Active)];
        super::rest_once(&mut chits, None);
        assert_eq!(conditions(&chits), [Fatigued, Fatigued]);
        let mut chits = vec![chit("FIGHT H4**", Fatigued), chit("MOVE M5", Active)];
        assert!(super::rest_once(&mut chits, None).is_empty());
        assert_eq!(conditions(&chits), [Fatigued, Active]);
    }

    /// 3.1 rule 7.8.4: with every chit fatigued or wounded he may only
    /// rest; his Hide phase becomes a Rest.
    #[test]
    fn a_character_with_every_chit_out_of_play_rests_instead() {
        let mut state = game(&["Black Knight"]);
        for chit in &mut state.characters[0].chits {
            chit.condition = ChitCondition::Fatigued;
        }
        state.characters[0].chits[0].condition = ChitCondition::Wounded;
        let (after, events) = play(state, &[("P1", "H")], DiceScript::default());
        match &results(&events, "Black Knight")[0] {
            PhaseResult::Instead { reason, result } => {
                assert!(reason.contains("may only rest"), "{reason}");
                assert!(matches!(**result, PhaseResult::Rested { .. }), "{result:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!after.characters[0].dead);
        assert!(
            after.characters[0]
                .chits
                .iter()
                .any(|c| c.condition == ChitCondition::Active)
        );
    }

    /// 3.1 rules 4.6.4i and 7.2.3c: a `Phase N:` line fatigues a colour
    /// chit at will; it reverts to a MAGIC chit, fatigued.
    #[test]
    fn a_colour_chit_is_fatigued_at_will_at_the_start_of_a_phase() {
        let mut state = game(&["Elf"]);
        let index = crate::magic::enchant::find_chit(&state, 0, "III2*").expect("the chit");
        state.characters[0].chits[index].enchanted = true;
        let (after, events) = play(
            state,
            &[(
                "P1",
                "H / H\nPhase 2: fatigue MAGIC III2*; fatigue MAGIC III4*",
            )],
            DiceScript::default(),
        );
        let chit = &after.characters[0].chits[index];
        assert!(!chit.enchanted);
        assert_eq!(chit.condition, ChitCondition::Fatigued);
        let said: Vec<String> = events
            .iter()
            .filter_map(|e| match &e.happening {
                Happening::Magic(m) => Some(m.to_string()),
                _ => None,
            })
            .collect();
        assert!(
            said.iter()
                .any(|l| l.contains("fatigues the colour chit MAGIC III2*")),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|l| l.contains("has no colour chit MAGIC III4* in play")),
            "{said:?}"
        );
    }

    /// 3.1 rules 7.8.4 and 9.1.1c: if he cannot rest (Ill Health) he is
    /// killed.
    #[test]
    fn a_character_who_must_rest_and_cannot_is_killed() {
        let mut state = game(&["Black Knight"]);
        for chit in &mut state.characters[0].chits {
            chit.condition = ChitCondition::Fatigued;
        }
        crate::magic::curses::inflict(
            &mut state,
            data(),
            &Rules::default(),
            0,
            CurseKind::IllHealth,
            "test",
        );
        let (after, events) = play(state, &[("P1", "H / H")], DiceScript::default());
        let done = results(&events, "Black Knight");
        match &done[0] {
            PhaseResult::Lost { reason } => {
                assert!(reason.contains("the Black Knight is killed"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(done.len(), 1, "his turn ends: {done:?}");
        assert!(after.characters[0].dead);
    }
}
