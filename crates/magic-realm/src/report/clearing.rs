//! A character's clearing as he sees it at the end of the day (the
//! play summary II.A, II.C.5): the counters standing there, the other
//! characters who are not hidden, the dwellings, the sites he has found
//! there, the face-up map chits of the tile, whether a pile of
//! abandoned things lies there (not what is in it: he has not looked), the
//! belongings dropped there in plain sight, and the ways out he may take:
//! the roads and tunnels printed on the map, and the hidden paths and secret
//! passages only once he has found them (3.1 7.3.1), so a player plans his
//! moves from the mail alone.

use serde::Serialize;

use crate::data::GameData;
use crate::data::tiles::PathKind;
use crate::state::{CharacterState, DenizenKind, MrState, Whereabouts, abandoned_pile};
use realmgm_core::game::Rules;

/// What he sees around him.
#[derive(Clone, Debug, Serialize)]
pub struct ClearingView {
    pub clearing: String,
    pub tile: String,
    pub kind: String,
    pub monsters: Vec<String>,
    pub natives: Vec<String>,
    /// Other characters there who are not hidden.
    pub characters: Vec<String>,
    pub dwellings: Vec<String>,
    /// Sites in this clearing whose location he has found.
    pub sites: Vec<String>,
    /// Map chits of the tile lying face up (public).
    pub chits_face_up: Vec<String>,
    /// How many abandoned things lie here.
    pub pile: usize,
    /// The clearings he can move to from here, each with what kind of way
    /// leads there when it is not a plain road, and the tile when it is
    /// another.
    pub ways_out: Vec<String>,
    /// Belongings dropped in plain sight here (3.1 10.A.5.2), those in
    /// front of him marked so; whom the others lie in front of is not
    /// told, as that could show a hidden character.
    pub dropped: Vec<String>,
    /// He waits at the map's edge under Solitaire Play, in no clearing yet
    /// (3.1 10.E.1.6); the clearing named is the first his roads reach.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub off_map: bool,
}

/// The clearing of `me` in `state`.
pub fn clearing_view(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    me: &CharacterState,
) -> ClearingView {
    let here = &me.position;
    let tile = data
        .tiles
        .by_code(&here.tile)
        .map_or_else(|| here.tile.clone(), |t| t.name.clone());
    let kind = state
        .board
        .clearing(here)
        .map(|c| c.kind.to_string())
        .unwrap_or_default();
    // Waiting at the map's edge he sees nothing of the clearings there
    // yet (3.1 10.E.1.6).
    if me.roadway.as_ref().is_some_and(|r| r.is_from_edge()) {
        return ClearingView {
            clearing: here.to_string(),
            tile,
            kind,
            monsters: Vec::new(),
            natives: Vec::new(),
            characters: Vec::new(),
            dwellings: Vec::new(),
            sites: Vec::new(),
            chits_face_up: Vec::new(),
            pile: 0,
            ways_out: Vec::new(),
            dropped: Vec::new(),
            off_map: true,
        };
    }
    let counters = |kind: DenizenKind| -> Vec<String> {
        state
            .denizens
            .iter()
            .filter(|(_, d)| {
                d.kind == kind
                    && matches!(&d.at, Whereabouts::Clearing { clearing } if clearing == here)
            })
            .map(|(id, _)| id.clone())
            .collect()
    };
    let sites = data
        .chits
        .site
        .iter()
        .filter(|s| s.clearing == here.clearing && me.discoveries.sites.contains(&s.name))
        .filter(|s| state.tile_of_chit(&s.name) == Some(here.tile.as_str()))
        .map(|s| s.name.clone())
        .collect();
    ClearingView {
        clearing: here.to_string(),
        tile,
        kind,
        monsters: counters(DenizenKind::Monster),
        natives: counters(DenizenKind::Native),
        characters: state
            .characters
            .iter()
            .filter(|c| c.player != me.player && &c.position == here && !c.hidden)
            // One on a roadway is between clearings (3.1 rule 8.3.8d).
            .filter(|c| !c.between_clearings())
            .map(|c| c.name.clone())
            .collect(),
        dwellings: state
            .every_dwelling()
            .filter(|(_, _, at)| *at == here)
            .map(|(realm, d, _)| realm.mark(&d.to_string()))
            .collect(),
        sites,
        chits_face_up: state.face_up_chits(&here.tile),
        pile: state
            .holdings
            .get(&abandoned_pile(here))
            .map_or(0, Vec::len),
        ways_out: ways_out(data, rules, state, me),
        dropped: state
            .dropped_in(here)
            .into_iter()
            .map(|(before, item)| match before {
                Some(who) if who == me.name => format!("{} (in front of you)", item.name),
                _ => item.name.clone(),
            })
            .collect(),
        off_map: false,
    }
}

/// The ways out of his clearing he may take, as a player writes them in a
/// Move (`DV4`), each noted with its kind unless a plain road, and with the
/// tile's name when it leads off this tile.
fn ways_out(data: &GameData, rules: &Rules, state: &MrState, me: &CharacterState) -> Vec<String> {
    let here = &me.position;
    state
        .board
        .neighbours(here)
        .into_iter()
        .filter(|link| crate::day::movement::may_take(data, rules, me, here, link))
        .map(|link| {
            let mut notes = Vec::new();
            match link.kind {
                PathKind::Normal => {}
                PathKind::Cave => notes.push("tunnel"),
                PathKind::Hidden => notes.push("hidden path"),
                PathKind::Secret => notes.push("secret passage"),
            }
            let tile = (link.to.tile != here.tile)
                .then(|| data.tiles.by_code(&link.to.tile).map(|t| t.name.as_str()))
                .flatten();
            notes.extend(tile);
            if notes.is_empty() {
                link.to.to_string()
            } else {
                format!("{} ({})", link.to, notes.join(", "))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{SetupInputs, new_game};
    use realmgm_core::dice::Dice;
    use realmgm_core::game::{Rules, Seat};

    /// 3.1 7.3.1: the roads out of her clearing are listed as a Move names
    /// them; a hidden path or secret passage only once she has found it.
    #[test]
    fn the_ways_out_list_a_hidden_path_only_once_it_is_found() {
        let data = crate::data::get().unwrap();
        let mut state = crate::test_support::test_game(&["Amazon"]);
        let (here, hidden) = state
            .board
            .clearings()
            .into_iter()
            .find_map(|c| {
                let link = state
                    .board
                    .neighbours(&c)
                    .into_iter()
                    .find(|l| l.kind == PathKind::Hidden)?;
                Some((c, link.to))
            })
            .expect("the map has a hidden path");
        state.characters[0].position = here.clone();
        let me = state.characters[0].clone();
        let ways = clearing_view(data, &Rules::default(), &state, &me).ways_out;
        let roads = state
            .board
            .neighbours(&here)
            .into_iter()
            .filter(|l| matches!(l.kind, PathKind::Normal | PathKind::Cave))
            .count();
        assert_eq!(ways.len(), roads, "{ways:?}");
        assert!(
            !ways.iter().any(|w| w.starts_with(&hidden.to_string())),
            "{ways:?}"
        );
        let mut knowing = me.clone();
        knowing.discoveries.learn_route(&here, &hidden);
        let ways = clearing_view(data, &Rules::default(), &state, &knowing).ways_out;
        assert!(
            ways.iter()
                .any(|w| w.starts_with(&format!("{hidden} (hidden path"))),
            "{ways:?}"
        );
    }

    #[test]
    fn a_hidden_character_and_an_unfound_site_are_not_seen() {
        let data = crate::data::get().unwrap();
        let seats: Vec<Seat> = ["Amazon", "Wizard", "Dwarf"]
            .iter()
            .enumerate()
            .map(|(i, c)| Seat {
                player: format!("P{i}"),
                role: Some((*c).to_string()),
            })
            .collect();
        let mut state = new_game(
            data,
            &seats,
            &Rules::default(),
            &SetupInputs::default(),
            &mut Dice::new(8, 0),
        )
        .unwrap();
        // Put everyone on a site's clearing.
        let (tile, site) = state
            .map_chits
            .iter()
            .find_map(|(tile, chits)| {
                chits
                    .iter()
                    .find_map(|c| data.chits.site.iter().find(|s| s.name == c.name))
                    .map(|s| (tile.clone(), s.clone()))
            })
            .expect("a site chit on the map");
        let here = crate::board::ClearingId::new(&tile, site.clearing);
        for c in &mut state.characters {
            c.position = here.clone();
        }
        state.characters[1].hidden = true;
        let me = state.characters[0].clone();
        let view = clearing_view(data, &Rules::default(), &state, &me);
        assert_eq!(view.characters, vec!["Dwarf".to_string()]);
        assert!(view.sites.is_empty());
        let mut knowing = me.clone();
        knowing.discoveries.sites.insert(site.name.clone());
        assert_eq!(
            clearing_view(data, &Rules::default(), &state, &knowing).sites,
            vec![site.name]
        );
    }

    /// Waiting at the map's edge under Solitaire Play he is in no clearing
    /// yet, and his report says so rather than naming the clearing his
    /// roads reach first (3.1 10.E.1.6); once on the map he is in one.
    #[test]
    fn a_solitaire_character_at_the_maps_edge_is_in_no_clearing_3_1_10_e_1_6() {
        let data = crate::data::get().unwrap();
        let seats = [Seat {
            player: "ann".into(),
            role: Some("Amazon".into()),
        }];
        let rules = Rules::new([crate::setup::SOLITAIRE], crate::rules::TOGGLES).unwrap();
        let mut state = new_game(
            data,
            &seats,
            &rules,
            &SetupInputs::default(),
            &mut Dice::new(11, 0),
        )
        .unwrap();
        let me = state.characters[0].clone();
        assert!(clearing_view(data, &Rules::default(), &state, &me).off_map);
        let report =
            serde_json::to_value(clearing_view(data, &Rules::default(), &state, &me)).unwrap();
        assert_eq!(report["off_map"], true);
        state.characters[0].roadway = None;
        let entered = state.characters[0].clone();
        let view =
            serde_json::to_value(clearing_view(data, &Rules::default(), &state, &entered)).unwrap();
        assert!(view.get("off_map").is_none(), "{view}");
    }
}
