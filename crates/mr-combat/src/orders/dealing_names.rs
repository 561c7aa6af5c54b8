//! Checking the hired leaders' lines, `Send:`, `Leave:`, `Phase N:`/`Midnight:`
//! and deal lines against the
//! character who sends them, so the confirmation says at once
//! what the day could not do.
//!
//! Errors, which no day could make right: a hireling or hired leader he has
//! not hired, a phase a hired leader cannot do, a
//! deal with a character nobody plays (or with himself), an item the game
//! does not have. Warnings, which the day may still make right: a partner
//! he does not see in his clearing now, goods or gold he does not have now,
//! a belonging to rearrange he does not carry now. The warnings read only
//! what he can see: a hidden character beside him is "not seen", never
//! "there".

use super::activity::Activity;
use super::dealings::{Arrange, DealLine, Goods, load_target};
use super::names::NameCheck;
use super::sheet::DayOrders;
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::natives::{Hire, NativeGroup, find_member};
use crate::data::realms::Realm;
use crate::state::{CharacterState, MrState, Whereabouts};
use crate::state::{belongings, hiring};
use realmgm_core::suggest;

/// Check the hireling, rearranging and deal lines of `orders` for `me`.
pub fn check_dealings(
    orders: &DayOrders,
    data: &GameData,
    state: &MrState,
    me: &CharacterState,
) -> NameCheck {
    let mut found = NameCheck::default();
    check_hire_order(orders, data, state, &mut found);
    check_leave(orders, data, me, &mut found);
    check_leaders(orders, data, state, me, &mut found);
    // A Phase spell's chit he holds is activated like an item (3.1 4.6.7f).
    let held = state
        .characters
        .iter()
        .position(|c| c.name == me.name)
        .map(|i| crate::magic::phase_chit::held(state, i))
        .unwrap_or_default();
    for rearrangement in &orders.rearrange {
        let key = rearrangement.at.line_key();
        for (how, step) in &rearrangement.steps {
            let (item, horse) = match how {
                Arrange::Load => load_target(step),
                _ => (step.as_str(), None),
            };
            let on_a_pack_horse = me
                .pack
                .values()
                .flatten()
                .any(|i| belongings::names(item, &i.name));
            let missing = match how {
                Arrange::PickUp => {
                    if !dropped_here(state, me, item) {
                        found.warnings.push(format!(
                            "{key}: no {item} lies dropped in your clearing now; unless someone \
                             drops it there first, that step will not happen"
                        ));
                    }
                    false
                }
                Arrange::Unload => !(on_a_pack_horse || suggest::same(item, "all")),
                Arrange::Activate if held.iter().any(|h| suggest::same(h, item)) => false,
                _ => belongings::find(me, item).is_none(),
            };
            if missing {
                found.warnings.push(format!(
                    "{key}: you carry no {item} now (you carry {}); unless you get it first, \
                     that step will not happen",
                    belongings::listing(me)
                ));
            }
            if let Some(horse) = horse.filter(|h| belongings::find(me, h).is_none()) {
                found.warnings.push(format!(
                    "{key}: you lead no {horse} now; unless you get it first, the {item} stays \
                     unloaded"
                ));
            }
        }
    }
    for deal in &orders.deals {
        check_deal(deal, data, state, me, &mut found);
    }
    found
}

/// Whether a belonging `name` lies dropped in plain sight in the clearing of
/// `me` (3.1 10.A.5.2).
pub fn dropped_here(state: &MrState, me: &CharacterState, name: &str) -> bool {
    state
        .dropped_in(&me.position)
        .into_iter()
        .any(|(_, item)| belongings::names(name, &item.name))
}

/// The native group `name` names: the group, its member word, or a member.
fn group_named<'d>(data: &'d GameData, name: &str) -> Option<&'d NativeGroup> {
    data.natives
        .iter()
        .find(|g| suggest::same(&g.name, name) || suggest::same(&g.member_name, name))
        .or_else(|| find_member(&data.natives, name).map(|(g, _)| g))
}

/// Whether the `Hire:` line of `orders` asks for the natives `name` names
/// (a member, or his group): lines about them apply once they are hired,
/// so they are not refused for naming someone not hired yet.
pub fn hired_by_these_orders(orders: &DayOrders, data: &GameData, name: &str) -> bool {
    let Some(group) = group_named(data, name) else {
        return false;
    };
    orders
        .hire
        .iter()
        .filter_map(|wanted| group_named(data, &wanted.what))
        .any(|wanted| wanted.name == group.name)
}

/// `Hire: Rogue 3` when the Rogues are hired one at a time: nobody chooses
/// which, the highest number in the clearing comes first and the leader last
/// (3.1 rule 7.7.1 a.1). The day tries the line's entries in every Hire
/// phase, so a member is reached once every member before him is named too,
/// and always when the line also names the group (`Hire: Rogues`, which
/// takes whoever is next in each phase). One the line cannot reach is warned
/// of, saying who is next: another character may still hire those before
/// him first, so the line is not refused.
fn check_hire_order(orders: &DayOrders, data: &GameData, state: &MrState, found: &mut NameCheck) {
    // Each game's group apart (3.1 10.E.7.7).
    let mut groups: Vec<(Realm, &NativeGroup, &ClearingId)> = Vec::new();
    for wanted in &orders.hire {
        let Some((group, member)) = find_member(&data.natives, &wanted.what) else {
            continue;
        };
        let realm = Realm::of_name(&wanted.what);
        if let Some(Whereabouts::Clearing { clearing }) =
            state.denizens.get(&realm.mark(&member.name)).map(|d| &d.at)
            && group.hire == Hire::Single
            && !groups
                .iter()
                .any(|(r, g, _)| *r == realm && g.name == group.name)
        {
            groups.push((realm, group, clearing));
        }
    }
    for (realm, group, clearing) in groups {
        let named: Vec<&str> = orders
            .hire
            .iter()
            .filter(|w| Realm::of_name(&w.what) == realm)
            .filter_map(|w| find_member(&data.natives, &w.what))
            .filter(|(g, _)| g.name == group.name)
            .map(|(_, m)| m.name.as_str())
            .collect();
        let by_group = orders.hire.iter().any(|w| {
            suggest::same(&w.what, &realm.mark(&group.name))
                || suggest::same(&w.what, &realm.mark(&group.member_name))
        });
        if by_group {
            continue;
        }
        let mut present = hiring::unhired_in(state, realm, group, clearing);
        let first_next = hiring::next_among(group, present.clone())
            .first()
            .map(|n| n.name.clone());
        let mut reached: Vec<&str> = Vec::new();
        while let Some(next) = hiring::next_among(group, present.clone()).first().copied() {
            if !named.contains(&next.name.as_str()) {
                break;
            }
            reached.push(next.name.as_str());
            present.retain(|m| m.name != next.name);
        }
        let Some(next) = first_next.map(|next| realm.mark(&next)) else {
            continue;
        };
        let group_name = realm.mark(&group.name);
        for member in named.iter().filter(|m| !reached.contains(m)) {
            let member = realm.mark(member);
            found.warnings.push(format!(
                "Hire: {member}: the {} are hired one at a time, the highest number in the \
                 clearing first and the leader last, and nobody chooses which (3.1 rule 7.7.1 \
                 a.1); where {member} stands {next} is next, and as things stand your Hire: line \
                 does not reach {member}. Write 'Hire: {group_name}' to hire whoever is next",
                group_name
            ));
        }
    }
}

fn check_leave(orders: &DayOrders, data: &GameData, me: &CharacterState, found: &mut NameCheck) {
    let hired: Vec<&str> = me.hirelings.iter().map(|h| h.native.as_str()).collect();
    for name in &orders.leave {
        let known = suggest::same(name, "all")
            || suggest::same(name, "everyone")
            || hired.iter().any(|native| {
                suggest::same(name, native)
                    || find_member(&data.natives, native).is_some_and(|(g, _)| {
                        suggest::same(name, &g.name) || suggest::same(name, &g.member_name)
                    })
            });
        if known {
            continue;
        }
        if hired_by_these_orders(orders, data, name) {
            found.warnings.push(format!(
                "Leave: {name} is not your hireling yet; the line stands and applies once your \
                 Hire: line hires him"
            ));
            continue;
        }
        let yours = if hired.is_empty() {
            "you have no hirelings".to_string()
        } else {
            format!("your hirelings are {}", hired.join(", "))
        };
        found.errors.push(format!(
            "Leave: '{name}' is not one of your hirelings; {yours}{}",
            suggest::did_you_mean(name, hired.iter().copied())
        ));
    }
}

/// The hired leaders he has: hirelings who lead their group.
fn hired_leaders<'c>(data: &GameData, me: &'c CharacterState) -> Vec<&'c str> {
    me.hirelings
        .iter()
        .map(|h| h.native.as_str())
        .filter(|n| find_member(&data.natives, n).is_some_and(|(_, m)| m.is_leader()))
        .collect()
}

/// The lines of his hired leaders and controlled monsters: each names one
/// of his, and records only what it may do (3.1 6.2.5).
fn check_leaders(
    orders: &DayOrders,
    data: &GameData,
    state: &MrState,
    me: &CharacterState,
    found: &mut NameCheck,
) {
    let leaders = hired_leaders(data, me);
    let monsters = state
        .characters
        .iter()
        .position(|c| c.name == me.name)
        .map(|seat| crate::magic::influence::controlled_by(state, seat))
        .unwrap_or_default();
    let not_his = |name: &str| -> String {
        let yours = if leaders.is_empty() {
            "you have no hired leader".to_string()
        } else {
            format!("your hired leaders are {}", leaders.join(", "))
        };
        format!(
            "'{name}' is not one of your hired leaders; {yours}{}",
            suggest::did_you_mean(name, leaders.iter().copied())
        )
    };
    for line in &orders.leaders {
        let monster = monsters.iter().any(|m| suggest::same(m, &line.leader));
        if !monster && !leaders.iter().any(|l| suggest::same(l, &line.leader)) {
            if hired_by_these_orders(orders, data, &line.leader) {
                // The leaders taking turns are drawn at Birdsong, before
                // anyone is hired (`day::birdsong`).
                found.warnings.push(format!(
                    "{}: not your hired leader yet; a leader hired today takes turns of his own \
                     from the next day, so this line does nothing today: write it again then",
                    line.leader
                ));
            } else if data
                .monsters
                .iter()
                .any(|m| suggest::same(&m.name, crate::data::base_name(&line.leader)))
            {
                let yours = if monsters.is_empty() {
                    "you control none now".to_string()
                } else {
                    format!("yours are {}", monsters.join(", "))
                };
                found.errors.push(format!(
                    "{}: you do not control this monster; a monster takes the turns its \
                     controller records only while his Control Bats, Guide Spider or Octopus or \
                     Dragonfang Necklace holds it (until Sunset of the day after the cast); {yours}",
                    line.leader
                ));
                continue;
            } else {
                found
                    .errors
                    .push(format!("{}: {}", line.leader, not_his(&line.leader)));
                continue;
            }
        }
        let follows = line
            .activities
            .phases
            .first()
            .is_some_and(|p| matches!(p.activity, Activity::Follow { .. }));
        if follows && line.activities.phases.len() > 1 {
            found.errors.push(format!(
                "{}: following is for the whole day: write only 'F CHARACTER'",
                line.leader
            ));
            continue;
        }
        let rides = !monster
            && crate::data::natives::find_member(&data.natives, &line.leader)
                .and_then(|(_, m)| m.horse.as_deref())
                .and_then(|h| data.horses.iter().find(|horse| horse.name == h))
                .is_some_and(|h| h.kind != crate::data::horses::HorseKind::Warhorse);
        for (n, phase) in line.activities.phases.iter().enumerate() {
            let horse_move = rides && matches!(phase.activity, Activity::Move { .. });
            if phase.bonus && !horse_move {
                let why = if monster {
                    "a controlled monster has no extra phases (3.1 6.2.5: it rides no horse, \
                     7.3.2e)"
                } else if rides {
                    "a hired leader's only extra phases are his native horse's Moves (3.1 \
                     6.2.5, 7.3.2e.1)"
                } else {
                    "a hired leader's only extra phases are his native horse's Moves (3.1 \
                     6.2.5, 7.3.2e.1), and he has none: no horse, or a warhorse (7.3.2b.1)"
                };
                found.errors.push(format!(
                    "{}: phase {} ({}*): {why}; record it without the star",
                    line.leader,
                    n + 1,
                    phase.activity.code()
                ));
                continue;
            }
            let allowed = follows
                || matches!(
                    phase.activity,
                    Activity::Move { .. } | Activity::Hide | Activity::Search
                )
                || (!monster && matches!(phase.activity, Activity::Trade | Activity::Hire));
            if allowed {
                continue;
            }
            let what = if monster {
                "a controlled monster moves, hides, searches or follows a character for the day \
                 ('F Elf'); it does not trade or hire (3.1 6.2.5)"
            } else {
                "a hired leader moves, hides, searches, trades, hires or follows a character for \
                 the day ('F Elf'); to have him follow you, leave his line out"
            };
            found.errors.push(format!(
                "{}: phase {} ({}): {what}",
                line.leader,
                n + 1,
                phase.activity.code()
            ));
        }
    }
    let hired: Vec<&str> = me.hirelings.iter().map(|h| h.native.as_str()).collect();
    let applies_once_hired = |name: &str| {
        format!(
            "Send: {name} is not your hireling yet; the line stands and applies once he is hired"
        )
    };
    for send in &orders.send {
        if !leaders.iter().any(|l| suggest::same(l, &send.leader)) {
            if hired_by_these_orders(orders, data, &send.leader) {
                found.warnings.push(applies_once_hired(&send.leader));
            } else {
                found
                    .errors
                    .push(format!("Send: {}", not_his(&send.leader)));
            }
        }
        for native in &send.natives {
            if hired_by_these_orders(orders, data, native)
                && !hired.iter().any(|h| suggest::same(h, native))
            {
                found.warnings.push(applies_once_hired(native));
            } else if !hired.iter().any(|h| suggest::same(h, native)) {
                found.errors.push(format!(
                    "Send: '{native}' is not one of your hirelings{}",
                    suggest::did_you_mean(native, hired.iter().copied())
                ));
            }
        }
    }
}

fn check_deal(
    deal: &DealLine,
    data: &GameData,
    state: &MrState,
    me: &CharacterState,
    found: &mut NameCheck,
) {
    let text = deal.to_string();
    let key = text.split(':').next().unwrap_or("Give");
    // Where the side he writes is dealt: by himself, or by his leader.
    let (acting, here, hidden) = match &deal.by {
        None => (me.name.clone(), Some(me.position.clone()), me.hidden),
        Some(leader) => {
            let Some(native) = hired_leaders(data, me)
                .into_iter()
                .find(|l| suggest::same(l, leader))
            else {
                found.errors.push(format!(
                    "{key}: '{leader}' is not one of your hired leaders{}",
                    suggest::did_you_mean(leader, hired_leaders(data, me))
                ));
                return;
            };
            let at = standing(state, native);
            (native.to_string(), at, false)
        }
    };
    if suggest::same(&deal.with, &acting) || suggest::same(&deal.with, &me.name) {
        found.errors.push(format!(
            "{key}: you cannot deal with yourself or your own hired leader"
        ));
        return;
    }
    let hired_leaders_of_others = state
        .characters
        .iter()
        .filter(|c| c.name != me.name)
        .flat_map(|c| hired_leaders(data, c));
    let partners: Vec<&str> = state
        .characters
        .iter()
        .filter(|c| c.name != me.name)
        .map(|c| c.name.as_str())
        .chain(hired_leaders_of_others)
        .collect();
    let Some(partner) = partners.iter().find(|p| suggest::same(p, &deal.with)) else {
        found.errors.push(format!(
            "{key}: no character or hired leader called '{}' is in the Realm{}",
            deal.with,
            suggest::did_you_mean(&deal.with, partners.iter().copied())
        ));
        return;
    };
    let items: Vec<&str> = super::names::item_names(data).collect();
    for goods in deal.gives.iter().chain(&deal.gets) {
        if let Goods::Item(name) = goods
            && !items.iter().any(|item| belongings::names(name, item))
        {
            found.errors.push(format!(
                "{key}: '{name}' is not an item of the game{}",
                suggest::did_you_mean(name, items.iter().copied())
            ));
        }
    }
    // What the sender can see: a partner beside the one who deals, unhidden.
    let (there, partner_hidden) = match state.characters.iter().find(|c| c.name == *partner) {
        Some(c) => (Some(c.position.clone()), c.hidden || c.dead),
        None => (
            standing(state, partner),
            state.leaders.get(*partner).is_some_and(|l| l.hidden),
        ),
    };
    let seen_beside = there.is_some() && there == here && !partner_hidden && !hidden;
    if !seen_beside {
        let place = here.map_or_else(|| "his clearing".to_string(), |c| c.to_string());
        found.warnings.push(format!(
            "{key}: you do not see the {partner} beside the {acting} in {place} now; the deal \
             happens only if they stand together at {}",
            deal.at
        ));
    }
    if deal.by.is_some() {
        return;
    }
    for goods in &deal.gives {
        match goods {
            Goods::Item(name) if belongings::find(me, name).is_none() => {
                found.warnings.push(format!(
                    "{key}: you do not carry the {name} now; unless you get it first, the deal \
                     will not happen"
                ));
            }
            Goods::Gold(gold) if *gold > u32::from(me.gold) => found.warnings.push(format!(
                "{key}: you have {} gold now, not {gold}; unless you get more first, the deal \
                 will not happen",
                me.gold
            )),
            _ => {}
        }
    }
}

/// The clearing a native counter stands in.
fn standing(state: &MrState, native: &str) -> Option<crate::board::ClearingId> {
    match state.denizens.get(native).map(|d| &d.at) {
        Some(crate::state::Whereabouts::Clearing { clearing }) => Some(clearing.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::parse_day_orders;
    use crate::state::Hireling;
    use crate::test_support::{data, game_played_by};

    fn check(text: &str, state: &MrState) -> NameCheck {
        let orders = parse_day_orders(text, 1, data()).expect("parses");
        check_dealings(&orders, data(), state, &state.characters[0])
    }

    /// A state where every Rogue stands unhired in the Amazon's clearing.
    fn rogues_beside_the_amazon() -> MrState {
        let mut state = game_played_by(&["Amazon"], |_| "P0".into());
        let here = state.characters[0].position.clone();
        for (name, denizen) in &mut state.denizens {
            if name.starts_with("Rogue") {
                denizen.at = Whereabouts::Clearing {
                    clearing: here.clone(),
                };
            }
        }
        state
    }

    #[test]
    fn a_rogue_the_hire_line_cannot_reach_is_warned_of_naming_who_is_next() {
        let state = rogues_beside_the_amazon();
        let highest = data()
            .natives
            .iter()
            .find(|g| g.name == "Rogues")
            .and_then(|g| {
                g.members
                    .iter()
                    .filter(|m| !m.is_leader())
                    .max_by_key(|m| m.rank.parse::<u8>().ok())
            })
            .map(|m| m.name.clone())
            .unwrap();
        let found = check("HR\nHire: Rogue 3", &state);
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(found.warnings.len(), 1, "{found:?}");
        assert!(
            found.warnings[0].starts_with("Hire: Rogue 3: the Rogues are hired one at a time"),
            "{found:?}"
        );
        assert!(
            found.warnings[0].contains(&format!("where Rogue 3 stands {highest} is next"))
                && found.warnings[0].ends_with("Write 'Hire: Rogues' to hire whoever is next"),
            "{found:?}"
        );
        // The day tries every entry in each Hire phase: the highest, then
        // the one after him, are both reached; a group entry reaches all.
        assert_eq!(highest, "Rogue 7", "every Rogue stands beside the Amazon");
        let second = "Rogue 6";
        for fine in [
            format!("HR\nHire: {highest}"),
            "HR\nHire: Rogues".to_string(),
            format!("HR, HR\nHire: {second}; {highest}"),
            "HR, HR\nHire: Rogues; Rogue 3".to_string(),
        ] {
            let found = check(&fine, &state);
            assert!(
                found.errors.is_empty() && found.warnings.is_empty(),
                "{fine}: {found:?}"
            );
        }
    }

    #[test]
    fn lines_about_natives_the_same_mail_hires_apply_once_hired() {
        let state = rogues_beside_the_amazon();
        let found = check(
            "HR, HR\nHire: Rogues\nLeave: Rogue 6\nRogue HQ: H\nSend: Rogue 7 with Rogue HQ",
            &state,
        );
        assert!(found.errors.is_empty(), "{found:?}");
        assert_eq!(
            found.warnings,
            [
                "Leave: Rogue 6 is not your hireling yet; the line stands and applies once your \
                 Hire: line hires him",
                "Rogue HQ: not your hired leader yet; a leader hired today takes turns of his own \
                 from the next day, so this line does nothing today: write it again then",
                "Send: Rogue HQ is not your hireling yet; the line stands and applies once he is \
                 hired",
                "Send: Rogue 7 is not your hireling yet; the line stands and applies once he is \
                 hired",
            ]
        );
        // Natives the mail does not hire are still refused.
        let found = check("HR\nHire: Rogues\nLeave: Soldier 2", &state);
        assert_eq!(found.errors.len(), 1, "{found:?}");
    }

    #[test]
    fn unknown_hirelings_and_partners_are_errors_and_absent_goods_warnings() {
        let mut state = game_played_by(&["Captain", "Elf"], |i| format!("P{i}"));
        state.characters[0].hirelings.push(Hireling {
            native: "Soldier 1".into(),
            days_left: 5,
        });
        let ok = check("H\nLeave: Soldiers; soldier 1", &state);
        assert!(ok.errors.is_empty(), "{ok:?}");
        state.characters[0].hirelings.push(Hireling {
            native: "Soldier HQ".into(),
            days_left: 5,
        });
        let leader = check(
            "H\nSoldier HQ: H, S\nSend: Soldier 1 with Soldier HQ",
            &state,
        );
        assert!(leader.errors.is_empty(), "{leader:?}");
        let leader = check(
            "H\nRogue HQ: H\nSoldier HQ: H, R\nSend: Soldier 7 with Soldier HQ",
            &state,
        );
        assert_eq!(leader.errors.len(), 3, "{leader:?}");
        assert!(leader.errors[0].starts_with("Rogue HQ: 'Rogue HQ' is not one of your hired leaders; your hired leaders are Soldier HQ"));
        assert!(leader.errors[1].starts_with("Soldier HQ: phase 2 (R): a hired leader moves"));
        assert!(leader.errors[2].starts_with("Send: 'Soldier 7' is not one of your hirelings"));
        // 3.1 6.2.5: his extra phases are his native horse's alone.
        let starred = check("H\nSoldier HQ: H*, H", &state);
        assert!(
            starred.errors[0].starts_with(
                "Soldier HQ: phase 1 (H*): a hired leader's only extra phases are his native \
                 horse's Moves (3.1 6.2.5"
            ),
            "{starred:?}"
        );
        // The Patrol HQ rides a workhorse: a starred Move is his (7.3.2e.1).
        state.characters[0].hirelings.push(Hireling {
            native: "Patrol HQ".into(),
            days_left: 5,
        });
        let rides = check("H\nPatrol HQ: M CV1, M* CV2", &state);
        assert!(rides.errors.is_empty(), "{rides:?}");
        let hides = check("H\nPatrol HQ: H*", &state);
        assert!(
            hides.errors[0].starts_with("Patrol HQ: phase 1 (H*): a hired leader's only extra"),
            "{hides:?}"
        );
        let wrong = check("H\nLeave: Soldier 9", &state);
        assert!(wrong.errors[0].starts_with("Leave: 'Soldier 9' is not one of your hirelings"));
        assert!(wrong.errors[0].contains("Soldier 1"), "{wrong:?}");

        let near = check("H\nGive: Ancient Telescope to Elff", &state);
        assert!(
            near.errors[0].contains("Elf"),
            "the hint names the Elf: {near:?}"
        );
        let nobody = check("H\nGive: Ancient Telescope to Gandalf", &state);
        assert!(
            nobody.errors[0]
                .contains("no character or hired leader called 'Gandalf' is in the Realm")
        );
        let myself = check("H\nTell: Captain my paths", &state);
        assert!(myself.errors[0].contains("yourself"));
        let not_his = check("H\nGive: 5 gold to Elf by Rogue HQ", &state);
        assert!(
            not_his.errors[0].starts_with("Give: 'Rogue HQ' is not one of your hired leaders"),
            "{not_his:?}"
        );
        let junk = check("H\nTrade: Spear to Elf for Moon Rock", &state);
        assert!(junk.errors[0].starts_with("Trade: 'Moon Rock' is not an item of the game"));

        state.characters[1].position = state.characters[0].position.clone();
        let together = check("H\nGive: 5 gold to Elf", &state);
        assert!(together.warnings.is_empty(), "{together:?}");
        state.characters[1].hidden = true;
        let hidden = check(
            "H\nGive: 5 gold to Elf at phase 2\nPhase 1: activate Spear",
            &state,
        );
        assert!(
            hidden
                .warnings
                .iter()
                .any(|w| w.contains("you do not see the Elf") && w.contains("phase 2"))
        );
        assert!(
            hidden
                .warnings
                .iter()
                .any(|w| w.starts_with("Phase 1: you carry no Spear"))
        );
        let poor = check("H\nGive: 500 gold to Elf", &state);
        assert!(poor.warnings.iter().any(|w| w.contains("not 500")));
        // A load names its belonging and its horse apart.
        let load = check("H\nPhase 1: load Short Sword on Horse 1", &state);
        assert_eq!(
            load.warnings,
            [
                "Phase 1: you lead no Horse 1 now; unless you get it first, the Short Sword stays \
              unloaded"
            ],
        );
        let unload = check("H\nMidnight: unload Lantern; unload all", &state);
        assert_eq!(unload.warnings.len(), 1, "{unload:?}");
        assert!(unload.warnings[0].starts_with("Midnight: you carry no Lantern"));
    }

    /// 3.1 4.6.7f: a held Protection from Magic chit is activated at the
    /// start of a phase like an item he carries.
    #[test]
    fn a_held_phase_chit_may_be_activated_at_a_phase() {
        let mut state = game_played_by(&["Amazon", "Elf"], |i| format!("P{i}"));
        let text = "H\nPhase 1: activate Protection from Magic";
        assert_eq!(check(text, &state).warnings.len(), 1);
        state
            .magic
            .in_effect
            .push(crate::state::magic::SpellInEffect {
                id: 0,
                spell: "Protection from Magic".into(),
                caster: "Elf".into(),
                with: crate::state::magic::CastWith::Chit { index: 0 },
                targets: vec![crate::state::magic::Aim::Character {
                    name: "Amazon".into(),
                }],
                duration: crate::data::spells::Duration::Phase,
                cast_on: 1,
                inert: false,
                held: true,
                detail: None,
                untied: false,
            });
        let found = check(text, &state);
        assert!(found.warnings.is_empty(), "{found:?}");
    }
}
