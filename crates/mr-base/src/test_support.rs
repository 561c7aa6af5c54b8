//! Fixtures shared by the Magic Realm engine's tests: the embedded data
//! and small seeded games, so each test file says only what it changes.
//! The fixtures that run a day are the top crate's; these need only the
//! base.

use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::game::{Rules, Seat};

use crate::board::ClearingId;
use crate::data::{self, GameData};
use crate::setup::{self, SetupInputs};
use crate::state::{Belonging, Item, ItemKind, MapChit, MrState};

/// The embedded game data.
pub fn data() -> &'static GameData {
    data::get().expect("the embedded data loads")
}

/// A game set up from seed 11 with the default rules: one seat per
/// character, the i-th played by `player(i)`.
pub fn game_played_by(characters: &[&str], player: impl Fn(usize) -> String) -> MrState {
    let seats: Vec<Seat> = characters
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: player(i),
            role: Some((*c).to_string()),
        })
        .collect();
    setup::new_game(
        data(),
        &seats,
        &Rules::default(),
        &SetupInputs::default(),
        &mut Dice::new(11, 0),
    )
    .unwrap_or_else(|e| panic!("setup works: {e}"))
}

/// A game of `characters` played by `p0`, `p1`, ...
pub fn test_game(characters: &[&str]) -> MrState {
    game_played_by(characters, |i| format!("p{i}"))
}

/// The same game with every monster and native taken off the map, so
/// nothing blocks or fights unless a test puts it there.
pub fn without_denizens(mut state: MrState) -> MrState {
    state.clear_denizens_from_map();
    state
}

/// Dice forced for each purpose prefix (faces 1 to 6).
pub fn script(forced: &[(&str, &[u8])]) -> DiceScript {
    let mut s = DiceScript::default();
    for (purpose, faces) in forced {
        s.force(purpose, faces).expect("faces 1..6");
    }
    s
}

/// Move the site chit `site` onto a tile that has its clearing, face up or
/// down; returns that clearing.
pub fn place_site(state: &mut MrState, face_up: bool, site: &str) -> ClearingId {
    let number = data().chits.site(site).map_or(1, |s| s.clearing);
    for chits in state.map_chits.values_mut() {
        chits.retain(|c| c.name != site);
    }
    for chits in state.lost.values_mut() {
        chits.retain(|c| c != site);
    }
    let at = state
        .board
        .clearings()
        .into_iter()
        .find(|c| c.clearing == number)
        .unwrap_or_else(|| panic!("no clearing {number}"));
    state
        .map_chits
        .entry(at.tile.clone())
        .or_default()
        .push(MapChit {
            name: site.to_string(),
            face_up,
        });
    at
}

/// A game with these characters (players P1, P2...), no denizen and no
/// map chit on the map, so nothing arrives unless a test puts it there.
pub fn quiet_game(characters: &[&str]) -> MrState {
    let mut state = without_denizens(game_played_by(characters, |i| format!("P{}", i + 1)));
    state.map_chits.values_mut().for_each(Vec::clear);
    state
}

/// An item of `kind` called `name`.
pub fn item(kind: ItemKind, name: &str) -> Item {
    Item {
        kind,
        name: name.to_string(),
    }
}

/// Give character `who` the item, active or not.
pub fn give(state: &mut MrState, who: usize, kind: ItemKind, name: &str, active: bool) {
    state.characters[who].belongings.push(Belonging {
        item: item(kind, name),
        active,
    });
}

/// The Move activity into clearing `c`, as a player writes it.
pub fn move_to(c: &ClearingId) -> String {
    let name = &data().tiles.by_code(&c.tile).expect("tile").name;
    format!("M {name} {}", c.clearing)
}
