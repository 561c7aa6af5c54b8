//! Tests of the magic rows of the treasure-site tables (`site_magic`) and of
//! learning a spell from a visitor (`visitor_spells`).

use super::events::{DayEvent, Happening};
use super::meeting::DealStep;
use super::pending::enchant;
use super::trade::{TradeEvent, trade};
use super::treasure_sites::{SiteEvent, search};
use super::visitor_spells::SPELL_PRICE;
use super::{Day, PhaseOutcome};
use crate::board::ClearingId;
use crate::data::tiles::Side;
use crate::magic::effect::SpellEffect;
use crate::magic::events::MagicEvent;
use crate::orders::{Activity, DayOrders, Purchase};
use crate::state::{ChitCondition, ItemKind, MrState};
use crate::tables::meeting::MeetingResult;
use crate::test_support::{data, game_played_by, script, without_denizens};
use realmgm_core::dice::Dice;
use realmgm_core::game::Rules;

fn game(characters: &[&str]) -> MrState {
    let mut state = without_denizens(game_played_by(characters, |i| format!("P{}", i + 1)));
    state.map_chits.values_mut().for_each(Vec::clear);
    state
}

fn run<R>(
    state: &mut MrState,
    forced: &[(&str, &[u8])],
    act: impl FnOnce(&mut Day<'_>) -> R,
) -> (R, Vec<DayEvent>) {
    let rules = Rules::default();
    let mut dice = Dice::with_script(5, 1, script(forced));
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    day.today.prowling_row = 1;
    let result = act(&mut day);
    *state = day.state;
    (result, day.events)
}

/// The character `who` standing at the found treasure site `site`.
fn at_site(characters: &[&str], site: &str) -> (MrState, ClearingId) {
    let mut state = game(characters);
    let here = state.characters[0].position.clone();
    state.treasure_sites.insert(site.into(), here.clone());
    state.characters[0].discoveries.sites.insert(site.into());
    (state, here)
}

/// Search `site` with the site roll `row` and the spell roll `magic`.
fn search_site(
    state: &mut MrState,
    site: &str,
    row: u8,
    magic: &[u8],
    teleport: Option<&(String, u8)>,
) -> Vec<SiteEvent> {
    let forced: &[(&str, &[u8])] = &[("search", &[row]), ("magic", magic)];
    let (_, events) = run(state, forced, |day| search(day, 0, site, &[], teleport));
    events
        .into_iter()
        .filter_map(|e| match e.happening {
            Happening::TreasureSite(s) => Some(s),
            _ => None,
        })
        .collect()
}

fn effects(events: &[SiteEvent]) -> Vec<SpellEffect> {
    events
        .iter()
        .find_map(|e| match e {
            SiteEvent::MagicWorked { effects, .. } => Some(effects.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the spell engine worked the row: {events:?}"))
}

// --- The Enchanted Meadow's Wish --------------------------------------------

#[test]
fn a_wish_for_health_rests_every_chit() {
    let (mut state, _) = at_site(&["Amazon"], "Enchanted Meadow");
    state.characters[0].chits[0].condition = ChitCondition::Wounded;
    state.characters[0].chits[3].condition = ChitCondition::Fatigued;
    // Meadow row 3: a Wish; Wish row 5: Health.
    let events = search_site(&mut state, "Enchanted Meadow", 3, &[5, 5], None);
    let done = effects(&events);
    assert!(
        matches!(&done[0], SpellEffect::Rolled { purpose, .. } if purpose == "magic/Enchanted Meadow/Amazon"),
        "{done:?}"
    );
    assert!(done.iter().any(|e| matches!(e, SpellEffect::Healed { .. })));
    assert!(
        state.characters[0]
            .chits
            .iter()
            .all(|c| c.condition == ChitCondition::Active)
    );
}

#[test]
fn a_wish_to_be_elsewhere_uses_the_teleport_line() {
    let (mut state, here) = at_site(&["Amazon"], "Enchanted Meadow");
    let far = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != here.tile)
        .expect("another tile");
    let tile_name = data().tiles.by_code(&far.tile).expect("tile").name.clone();
    let teleport = (tile_name, far.clearing);
    let events = search_site(&mut state, "Enchanted Meadow", 3, &[1, 1], Some(&teleport));
    assert!(
        effects(&events)
            .iter()
            .any(|e| matches!(e, SpellEffect::Moved { to, .. } if *to == far))
    );
    assert_eq!(state.characters[0].position, far);
    assert!(
        state.characters[0]
            .discoveries
            .tiles_visited
            .contains(&far.tile)
    );
    // Without a Teleport line he stays and the GM is told.
    let events = search_site(&mut state, "Enchanted Meadow", 3, &[1, 1], None);
    assert!(
        effects(&events)
            .iter()
            .any(|e| matches!(e, SpellEffect::ForGm { .. }))
    );
    assert_eq!(state.characters[0].position, far);
}

/// 3.1 Wishes table, 4.6.8b: a Wish for Peace made in Daylight ends combat
/// in his clearing for the rest of the day: the monster there does not
/// fight him that Evening.
#[test]
fn a_wish_for_peace_in_daylight_keeps_combat_out_of_his_clearing_tonight() {
    let (mut state, here) = at_site(&["Amazon"], "Enchanted Meadow");
    state.denizens.get_mut("Wolf A 1").expect("wolf").at = crate::state::Whereabouts::Clearing {
        clearing: here.clone(),
    };
    let forced: &[(&str, &[u8])] = &[("search", &[3]), ("magic", &[4, 4])];
    let (_, events) = run(&mut state, forced, |day| {
        search(day, 0, "Enchanted Meadow", &[], None);
        super::evening::evening(day, &std::collections::BTreeMap::new(), None)
    });
    let lines = crate::test_support::combat_text(&events);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("Wish for Peace"), "{lines:?}");
}

// --- The Toadstool Circle ----------------------------------------------------

#[test]
fn power_of_the_pit_forget_fatigues_his_magic_chits() {
    let (mut state, _) = at_site(&["Witch"], "Toadstool Circle");
    // Toadstool row 5: Power of the Pit; Pit row 5: Forget.
    let events = search_site(&mut state, "Toadstool Circle", 5, &[5, 5], None);
    assert!(
        effects(&events)
            .iter()
            .any(|e| matches!(e, SpellEffect::ChitsFatigued { chits, .. } if !chits.is_empty()))
    );
    assert!(
        state.characters[0]
            .chits
            .iter()
            .filter(|c| c.chit.starts_with("MAGIC"))
            .all(|c| c.condition == ChitCondition::Fatigued)
    );
}

#[test]
fn carried_away_by_the_pit_kills_him_at_once() {
    let (mut state, _) = at_site(&["Amazon"], "Toadstool Circle");
    let forced: &[(&str, &[u8])] = &[("search", &[5]), ("magic", &[2, 2])];
    let (_, events) = run(&mut state, forced, |day| {
        let outcome = search(day, 0, "Toadstool Circle", &[], None);
        assert!(day.today.blocked.contains(&0), "he does nothing more today");
        outcome
    });
    assert!(state.characters[0].dead);
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::TreasureSite(SiteEvent::MagicWorked { effects, .. })
            if effects.iter().any(|f| matches!(f, SpellEffect::Killed { .. }))
    )));
}

/// A Witch who may enchant: prepared today, one type II chit already
/// turned to grey colour magic.
fn witch_with_colour() -> (MrState, ClearingId) {
    let (mut state, here) = at_site(&["Witch"], "Toadstool Circle");
    let chit = state.characters[0]
        .chits
        .iter()
        .position(|c| c.chit.starts_with("MAGIC II"))
        .expect("the Witch has a type II chit");
    state.characters[0].chits[chit].enchanted = true;
    (state, here)
}

#[test]
fn the_toadstool_gift_lets_him_enchant_a_far_tile_as_if_there() {
    let (mut state, here) = witch_with_colour();
    let far = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.tile != here.tile)
        .expect("another tile");
    let note = format!("tile {} {}", far.tile, far.clearing);
    let spell = Activity::Spell { chit: None };
    // Without the gift the far tile cannot be enchanted.
    let (outcome, _) = run(&mut state, &[], |day| {
        day.today.spell_prepared.insert(0);
        enchant(day, 0, &spell, Some(&note))
    });
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("Toadstool")),
        "{outcome:?}"
    );
    // Row 4 grants it for the day.
    let forced: &[(&str, &[u8])] = &[("search", &[4])];
    let (outcome, events) = run(&mut state, forced, |day| {
        search(day, 0, "Toadstool Circle", &[], None);
        day.today.spell_prepared.insert(0);
        enchant(day, 0, &spell, Some(&note))
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::TreasureSite(SiteEvent::Granted { .. })
    )));
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Magic(MagicEvent::TileEnchanted { tile, .. }) if *tile == far.tile
    )));
    let side = state.board.placement_of(&far.tile).map(|p| p.side);
    assert_eq!(side, Some(Side::Enchanted));
    assert_eq!(
        state.board.placement_of(&here.tile).map(|p| p.side),
        Some(Side::Normal)
    );
}

#[test]
fn a_tile_note_naming_no_clearing_on_the_map_loses_the_phase() {
    let (mut state, _) = witch_with_colour();
    let spell = Activity::Spell { chit: None };
    let (outcome, _) = run(&mut state, &[], |day| {
        day.today.spell_prepared.insert(0);
        enchant(day, 0, &spell, Some("tile Nowhere 9"))
    });
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("not a clearing")),
        "{outcome:?}"
    );
}

// --- Learning a spell from a visitor -----------------------------------------

/// The Witch with the Crone in her clearing, knowing no spell yet; the
/// first spell the Crone holds.
fn witch_with_crone() -> (MrState, String) {
    let mut state = game(&["Witch"]);
    let here = state.characters[0].position.clone();
    state.visitors_on_map.insert("Crone".into(), here);
    state.characters[0].magic.spells.clear();
    state.characters[0].gold = 50;
    let spell = state.holdings["Crone"]
        .iter()
        .find(|i| i.kind == ItemKind::Spell)
        .expect("the Crone holds spells")
        .name
        .clone();
    (state, spell)
}

fn buying(what: &str, max_gold: Option<u32>) -> DayOrders {
    DayOrders {
        buy: vec![Purchase {
            what: what.to_string(),
            max_gold,
        }],
        ..DayOrders::default()
    }
}

#[test]
fn a_visitor_teaches_a_spell_through_the_meeting_table() {
    let (mut state, spell) = witch_with_crone();
    let orders = buying(&spell, None);
    let (outcome, events) = run(&mut state, &[("meeting", &[2, 1])], |day| {
        trade(day, 0, &orders)
    });
    assert_eq!(outcome, PhaseOutcome::Done);
    let times = events
        .iter()
        .find_map(|e| match &e.happening {
            Happening::Trade(TradeEvent::Deal(DealStep::Met {
                result: MeetingResult::Price(n),
                ..
            })) => Some(u32::from(*n)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a price on the Meeting table: {events:?}"));
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Trade(TradeEvent::Taught { visitor, gold, .. }) if visitor == "Crone" && *gold == times * SPELL_PRICE
    )), "{events:?}");
    assert!(state.characters[0].magic.spells.contains(&spell));
    assert_eq!(
        u32::from(state.characters[0].gold),
        50 - times * SPELL_PRICE
    );
    assert!(
        state.holdings["Crone"]
            .iter()
            .any(|i| i.kind == ItemKind::Spell && i.name == spell),
        "the visitor keeps what it teaches"
    );
    // Known now: a second lesson is refused before any roll.
    let (outcome, events) = run(&mut state, &[], |day| trade(day, 0, &orders));
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("already knows")),
        "{outcome:?}"
    );
    assert!(events.is_empty());
}

#[test]
fn a_lesson_above_the_buy_limit_is_not_taken() {
    let (mut state, spell) = witch_with_crone();
    let orders = buying(&spell, Some(SPELL_PRICE));
    let (_, events) = run(&mut state, &[("meeting", &[2, 1])], |day| {
        trade(day, 0, &orders)
    });
    assert!(events.iter().any(|e| matches!(
        &e.happening,
        Happening::Trade(TradeEvent::Deal(DealStep::NoDeal { .. }))
    )));
    assert!(!state.characters[0].magic.spells.contains(&spell));
    assert_eq!(state.characters[0].gold, 50);
}

#[test]
fn a_character_without_the_spells_type_cannot_learn_it() {
    let mut state = game(&["Amazon"]);
    let here = state.characters[0].position.clone();
    state.visitors_on_map.insert("Crone".into(), here);
    let spell = state.holdings["Crone"]
        .iter()
        .find(|i| i.kind == ItemKind::Spell)
        .expect("the Crone holds spells")
        .name
        .clone();
    let (outcome, _) = run(&mut state, &[], |day| trade(day, 0, &buying(&spell, None)));
    assert!(
        matches!(&outcome, PhaseOutcome::Lost { reason } if reason.contains("Crone cannot teach")),
        "{outcome:?}"
    );
    assert!(!state.characters[0].magic.spells.contains(&spell));
}
