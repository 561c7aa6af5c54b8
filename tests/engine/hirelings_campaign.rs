//! Hirelings and dealings in a campaign, end to end: through
//! the same `Game` interface the daemon uses, a Captain hires the Soldiers,
//! leaves two of them guarding a clearing, sends his hired leader on a
//! route of his own for three days, buys from the Elf, gives him a
//! treasure and tells him a hidden path; the Elf then takes that path.
//! Every player's report shows only what he saw: the Amazon, an unhidden
//! onlooker, sees the goods change hands but never learns the path; the
//! Elf never reads the hired leader's day.

use realmgm::game::Start;
use realmgm::game::Turn;
use std::collections::BTreeMap;

use realmgm::dice::{Dice, DiceScript};
use realmgm::game::{AcceptedOrders, Game, GameState, Reader, Rules, Seat};
use realmgm::magic_realm::board::ClearingId;
use realmgm::magic_realm::data::tiles::{ClearingKind, PathKind};
use realmgm::magic_realm::game::MagicRealm;
use realmgm::magic_realm::state::{Belonging, Item, ItemKind, MrState, Whereabouts};

use crate::report_support::{PlayedDay, report};

const TELESCOPE: &str = "Ancient Telescope";
const GLOVES: &str = "Deft Gloves";

/// A clearing `a` with a hidden path to `b`, and two neighbours `c`, `d`
/// along normal paths; none of them a cave or a mountain.
fn places(state: &MrState) -> (ClearingId, ClearingId, ClearingId, ClearingId) {
    let board = &state.board;
    let open = |c: &ClearingId| {
        board
            .clearing(c)
            .is_some_and(|k| !matches!(k.kind, ClearingKind::Cave | ClearingKind::Mountain))
    };
    board
        .clearings()
        .into_iter()
        .filter(|a| open(a))
        .find_map(|a| {
            let links = board.neighbours(&a);
            let b = links
                .iter()
                .find(|l| l.kind == PathKind::Hidden && open(&l.to))?
                .to
                .clone();
            let normal: Vec<ClearingId> = links
                .iter()
                .filter(|l| l.kind == PathKind::Normal && open(&l.to) && l.to != b)
                .map(|l| l.to.clone())
                .collect();
            match normal[..] {
                [ref c, ref d, ..] if c != d => Some((a.clone(), b, c.clone(), d.clone())),
                _ => None,
            }
        })
        .expect("the board has such a clearing")
}

fn code(c: &ClearingId) -> String {
    format!("{}{}", c.tile, c.clearing)
}

fn item(kind: ItemKind, name: &str) -> Belonging {
    Belonging {
        item: Item {
            kind,
            name: name.into(),
        },
        active: false,
    }
}

struct Campaign {
    state: GameState,
    rules: Rules,
    days: Vec<PlayedDay>,
}

impl Campaign {
    /// One day: each player's orders text, read as the daemon reads it, and
    /// the dice forced for the purposes given.
    fn day(&mut self, orders: &[(&str, String)], forced: &[(&str, &[u8])]) -> &PlayedDay {
        let accepted: BTreeMap<String, AcceptedOrders> = orders
            .iter()
            .map(|(player, text)| {
                let read = MagicRealm
                    .read_orders(&self.state, &self.rules, player, text)
                    .unwrap_or_else(|e| panic!("{player}'s orders {text:?}: {e:?}"));
                ((*player).to_string(), read)
            })
            .collect();
        let mut script = DiceScript::default();
        for (purpose, faces) in forced {
            script.force(purpose, faces).expect("faces 1..6");
        }
        let day = self.days.len() as u32 + 1;
        let turn = MagicRealm
            .resolve_turn(
                self.state.clone(),
                &Turn::new(&self.rules, &accepted),
                &mut Dice::with_script(11, day, script),
            )
            .expect("the day resolves")
            .done()
            .expect("the turn is resolved to its end");
        self.state = turn.state.clone();
        self.days.push(PlayedDay {
            state: turn.state,
            events: turn.events,
            orders: accepted,
        });
        self.days.last().expect("just played")
    }

    fn mr(&self) -> MrState {
        serde_json::from_value(self.state.json().clone()).expect("a Magic Realm state")
    }

    fn report(&self, day: usize, player: &str) -> String {
        report(&self.days[day - 1], Reader::Player(player)).text
    }
}

#[test]
fn a_captain_hires_leaves_guards_sends_his_leader_and_deals_with_the_elf() {
    let rules = Rules::default();
    let seats: Vec<Seat> = [("P1", "Captain"), ("P2", "Elf"), ("P3", "Amazon")]
        .iter()
        .map(|(p, c)| Seat {
            player: (*p).into(),
            role: Some((*c).into()),
        })
        .collect();
    let start = MagicRealm
        .start(&Start::new(&seats, &rules), &mut Dice::new(11, 0))
        .expect("setup works");
    let mut mr: MrState = serde_json::from_value(start.json().clone()).unwrap();
    let (a, b, c, d) = places(&mr);
    // A quiet realm: nothing on the map, no chit to summon anything, so the
    // days go as the orders say.
    for denizen in mr.denizens.values_mut() {
        denizen.at = Whereabouts::Dead;
    }
    mr.map_chits.clear();
    for soldier in ["Soldier 1", "Soldier 2", "Soldier 3", "Soldier HQ"] {
        mr.denizens.get_mut(soldier).expect("a soldier").at = Whereabouts::Clearing {
            clearing: a.clone(),
        };
    }
    for who in 0..3 {
        mr.characters[who].position = a.clone();
    }
    let route = if a < b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    };
    mr.characters[0].discoveries.routes.insert(route.clone());
    mr.characters[0].gold = 100;
    mr.characters[0]
        .belongings
        .push(item(ItemKind::Treasure, TELESCOPE));
    mr.characters[1]
        .belongings
        .push(item(ItemKind::Treasure, GLOVES));
    let mut campaign = Campaign {
        state: GameState::new(serde_json::to_value(&mr).unwrap()),
        rules,
        days: Vec::new(),
    };

    // Day 1: the Captain hires the Soldiers (a friendly roll).
    campaign.day(
        &[
            ("P1", "HR / R\nHire: Soldiers".into()),
            ("P2", "R".into()),
            ("P3", "R".into()),
        ],
        &[("meeting", &[1, 1])],
    );
    let hired: Vec<String> = campaign.mr().characters[0]
        .hirelings
        .iter()
        .map(|h| h.native.clone())
        .collect();
    assert_eq!(hired.len(), 4, "{}", campaign.report(1, "P1"));
    let gold_after_hiring = campaign.mr().characters[0].gold;
    assert!(gold_after_hiring < 100, "the wages are paid");

    // Day 2: at phase 1 he buys the Elf's gloves, gives him the telescope
    // and tells him his paths; then he walks to C, leaving Soldiers 1 and 2
    // to guard A; his HQ goes to D on his own, Soldier 3 sent with him.
    let captain = format!(
        "R / M {c}\nLeave: Soldier 1; Soldier 2\nSoldier HQ: M {d}, H\n\
         Send: Soldier 3 with Soldier HQ\n\
         Trade: 10 gold to Elf for {GLOVES} at phase 1\n\
         Give: {TELESCOPE} to Elf at phase 1\nTell: Elf my paths at phase 1",
        c = code(&c),
        d = code(&d)
    );
    let elf = format!(
        "R / R\nTrade: {GLOVES} to Captain for 10 gold at phase 1\n\
         Receive: {TELESCOPE} from Captain at phase 1"
    );
    campaign.day(
        &[("P1", captain), ("P2", elf), ("P3", "R".into())],
        &[("daylight/hide", &[1])],
    );
    let mr = campaign.mr();
    let at = |native: &str| mr.denizens[native].at.clone();
    let standing = |c: &ClearingId| Whereabouts::Clearing {
        clearing: c.clone(),
    };
    assert_eq!(mr.characters[0].position, c);
    assert_eq!(at("Soldier 1"), standing(&a), "guarding A");
    assert_eq!(at("Soldier 2"), standing(&a), "guarding A");
    assert_eq!(at("Soldier HQ"), standing(&d), "on his own route");
    assert_eq!(at("Soldier 3"), standing(&d), "sent with the HQ");
    let carries = |who: usize, name: &str| {
        mr.characters[who]
            .belongings
            .iter()
            .any(|b| b.item.name == name)
    };
    assert!(carries(0, GLOVES) && carries(1, TELESCOPE));
    assert!(!carries(0, TELESCOPE) && !carries(1, GLOVES));
    assert_eq!(mr.characters[0].gold, gold_after_hiring - 10);
    assert!(mr.characters[1].discoveries.routes.contains(&route));
    // The Amazon stands by and the Captain tells unhidden: she spies on him
    // and learns the path too (3.1 4.5.6b.3).
    assert!(mr.characters[2].discoveries.routes.contains(&route));

    // Day 3: the Elf takes the path he was told; the HQ hides at D.
    campaign.day(
        &[
            ("P1", "R\nSoldier HQ: H".into()),
            ("P2", format!("M {}", code(&b))),
            ("P3", "R".into()),
        ],
        &[],
    );
    assert_eq!(
        campaign.mr().characters[1].position,
        b,
        "the Elf used the path"
    );
    // Day 4: the HQ comes back to the guards at A.
    campaign.day(
        &[
            ("P1", format!("R\nSoldier HQ: M {}", code(&a))),
            ("P2", "R".into()),
            ("P3", "R".into()),
        ],
        &[],
    );
    assert_eq!(
        campaign.mr().denizens["Soldier HQ"].at,
        standing(&a),
        "back after three days"
    );

    // What each player read.
    let captain_day2 = campaign.report(2, "P1");
    let elf_day2 = campaign.report(2, "P2");
    let amazon_day2 = campaign.report(2, "P3");
    assert!(captain_day2.contains("Soldier HQ in "), "{captain_day2}");
    assert!(captain_day2.contains("the Captain shares paths"));
    assert!(
        elf_day2.contains("the Elf learns the hidden path"),
        "{elf_day2}"
    );
    assert!(elf_day2.contains(GLOVES) && elf_day2.contains(TELESCOPE));
    assert!(
        !elf_day2.contains("Soldier HQ in "),
        "the Elf does not read the hired leader's day"
    );
    assert!(
        amazon_day2.contains(TELESCOPE),
        "the unhidden onlooker sees the goods: {amazon_day2}"
    );
    assert!(
        amazon_day2
            .contains("the Amazon, spying on what the Captain tells, learns the hidden path"),
        "{amazon_day2}"
    );
    for day in 1..=4 {
        let amazon = campaign.report(day, "P3");
        if day != 2 {
            assert!(
                !amazon.contains("learns the hidden path"),
                "day {day}: {amazon}"
            );
        }
        assert!(!amazon.contains("with the Elf;"), "day {day}");
        assert!(!amazon.contains("Soldier HQ in "), "day {day}");
    }
    let captain_day4 = campaign.report(4, "P1");
    assert!(captain_day4.contains("Soldier HQ"), "{captain_day4}");
    // The sheet says where every hireling stands.
    let guard = format!("Soldier 1: 10 days left, in {}\n", code(&a));
    assert!(captain_day4.contains(&guard), "{captain_day4}");
}
