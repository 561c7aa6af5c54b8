//! Fixtures the magic rules' tests share: casters, requests and forced dice.

use crate::day::events::Happening;
use crate::day::{Day, PhaseOutcome, search};
use crate::orders::SearchTable;
use crate::state::{Belonging, ChitCondition, Item, ItemKind, MrState};
use crate::test_support::data;
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::Rules;

use crate::magic::cast::{CastRequest, cast};
use crate::magic::effect::SpellEffect;
use crate::state::magic::{Aim, CastWith};

/// Everyone into the clearing of character 0.
pub(super) fn together(state: &mut MrState) {
    let here = state.characters[0].position.clone();
    for c in &mut state.characters {
        c.position = here.clone();
    }
}

/// Give `who` a MAGIC chit of type `kind` (as chit 0) and the spell.
pub(super) fn caster(state: &mut MrState, who: usize, kind: &str, spell: &str) -> usize {
    let c = &mut state.characters[who];
    c.chits[0].chit = format!("MAGIC {kind}2*");
    c.chits[0].condition = ChitCondition::Active;
    c.chits[0].enchanted = false;
    if !c.magic.spells.iter().any(|s| s == spell) {
        c.magic.spells.push(spell.to_string());
    }
    0
}

pub(super) fn who(name: &str) -> Aim {
    Aim::Character {
        name: name.to_string(),
    }
}
pub(super) fn request(who: usize, spell: &str, targets: Vec<Aim>, day: u32) -> CastRequest {
    CastRequest {
        caster: who,
        spell: spell.to_string(),
        with: CastWith::Chit { index: 0 },
        targets,
        colour_chit: None,
        day,
    }
}
pub(super) fn me(state: &MrState, who: usize) -> Aim {
    Aim::Character {
        name: state.characters[who].name.clone(),
    }
}
pub(super) fn forced(purpose: &str, faces: &[u8]) -> Dice {
    let mut script = DiceScript::default();
    script
        .force(purpose, faces)
        .unwrap_or_else(|e| panic!("{e}"));
    Dice::with_script(3, 1, script)
}
pub(super) fn cast_ok(state: &mut MrState, req: &CastRequest, dice: &mut Dice) -> Vec<SpellEffect> {
    cast(state, data(), &Rules::default(), req, dice).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn with_book(state: &mut MrState, who: usize, book: &str, spell: &str) {
    state.characters[who].belongings.push(Belonging {
        item: Item {
            kind: ItemKind::Treasure,
            name: book.into(),
        },
        active: true,
    });
    state.holdings.insert(
        book.to_string(),
        vec![Item {
            kind: ItemKind::Spell,
            name: spell.into(),
        }],
    );
}

pub(super) fn read(state: &mut MrState, rolls: &[&[u8]]) -> (PhaseOutcome, Vec<Happening>) {
    let rules = Rules::default();
    let mut script = DiceScript::default();
    for faces in rolls {
        script.force("search", faces).unwrap();
    }
    let mut dice = Dice::with_script(4, 1, script);
    let mut day = Day::new(data(), &rules, state.clone(), &mut dice);
    let outcome = search::search(&mut day, 0, &SearchTable::ReadingRunes);
    *state = day.state;
    (
        outcome,
        day.events.into_iter().map(|e| e.happening).collect(),
    )
}
