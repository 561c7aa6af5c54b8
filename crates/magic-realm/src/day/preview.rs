//! A dry run of a character's recorded day for the confirmation of his
//! orders: each Move is checked against the routes he knows, from where he
//! stands, and the phases are counted against those the day gives (no
//! sunlight phases on a day he starts in or records a Move into a cave,
//! 3.1 6.2.2b), for him and for each hired leader he writes a
//! line for, and each of his starred phases against the bonus phases he
//! has, and each Trade phase against a `Buy:` or `Sell:` line, so a player
//! hears at once that a phase would be lost. Only
//! his own knowledge is read, and the reasons are the day's own
//! (`movement::check_move_from`, `daylight`), which never tell of paths he
//! has not found.

use realmgm_core::game::Rules;

use std::collections::BTreeSet;

use super::{daylight, horses, movement, weather};
use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::terms::Activity as Kind;
use crate::data::tiles::ClearingKind;
use crate::orders::{Activities, Activity, DayOrders};
use crate::state::{MrState, Whereabouts};
use realmgm_core::suggest::same;

/// Warnings for the day of `player`'s character in `orders`: for him, then
/// for each hired leader of his with a line of his own, the first move that
/// would be lost and the phases past those the day gives; then a Trade phase
/// with nothing to buy or sell.
pub fn phase_warnings(
    data: &GameData,
    rules: &Rules,
    state: &MrState,
    player: &str,
    orders: &DayOrders,
) -> Vec<String> {
    let Some(who) = state.characters.iter().position(|c| c.player == player) else {
        return Vec::new();
    };
    let me = &state.characters[who];
    let mut warnings = Vec::new();
    let mut allowed = daylight::normal_phases(data, rules, state, me);
    if daylight::records_move_into_cave(data, state, &orders.activities) {
        allowed = allowed.min(weather::budget_of(data, rules, state).basic);
    }
    let own = Walker {
        data,
        rules,
        state,
        who,
        allowed,
        whose: String::new(),
        has_bonus_phases: true,
        roadway: me.roadway.as_ref(),
    };
    if let Some(road) = &me.roadway {
        let first = orders.activities.phases.first().map(|p| &p.activity);
        let to_an_end = matches!(first, Some(Activity::Move { tile, clearing })
            if data.tiles.resolve(tile).is_some_and(|t| road.ends_at(&ClearingId::new(&t.code, *clearing))));
        if !to_an_end {
            warnings.push(format!(
                "you are on {road}: your turn must start with a Move to {} (3.1 rule \
                 8.3.8d.1, d.3); as things stand every phase before such a Move would be lost",
                road.ways_off()
            ));
        }
    }
    warnings.extend(own.walk(&me.position, &orders.activities));
    warnings.extend(trade_without_a_deal(orders));
    let budget = weather::budget_of(data, rules, state);
    for line in &orders.leaders {
        let Some(hired) = me.hirelings.iter().find(|h| same(&h.native, &line.leader)) else {
            continue;
        };
        let Some(Whereabouts::Clearing { clearing }) =
            state.denizens.get(&hired.native).map(|d| &d.at)
        else {
            continue;
        };
        // A hired leader has the day's basic and sunlight phases, only the
        // basic ones when he starts in a cave or records a Move into one, as
        // a character does (3.1 6.2.2b).
        let allowed = if movement::is_cave_in(state, clearing)
            || daylight::records_move_into_cave(data, state, &line.activities)
        {
            budget.basic
        } else {
            budget.basic + budget.sunlight
        };
        // He moves by what his employer knows (`day::leader_turn`).
        let leader = Walker {
            allowed,
            whose: format!("{}: ", hired.native),
            has_bonus_phases: false,
            roadway: None,
            ..own.clone()
        };
        warnings.extend(leader.walk(clearing, &line.activities));
    }
    warnings
}

/// A Trade phase on a day whose orders name nothing to buy or sell: the day
/// would lose it (`day::trade`), so the confirmation says so at once.
fn trade_without_a_deal(orders: &DayOrders) -> Option<String> {
    if !orders.buy.is_empty() || !orders.sell.is_empty() {
        return None;
    }
    let phases: Vec<String> = orders
        .activities
        .phases
        .iter()
        .enumerate()
        .filter(|(_, p)| p.activity == Activity::Trade)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    let (first, rest) = phases.split_first()?;
    let which = if rest.is_empty() {
        format!("phase {first} (T)")
    } else {
        format!("phases {} (T)", phases.join(", "))
    };
    Some(format!(
        "{which}: a Trade phase needs a `Buy:` or `Sell:` line naming what to buy or sell; \
         without one it is lost"
    ))
}

/// One figure's dry run: whose routes (`who`'s), the normal phases he has
/// where he starts, and how a warning names him.
#[derive(Clone)]
struct Walker<'a> {
    data: &'a GameData,
    rules: &'a Rules,
    state: &'a MrState,
    who: usize,
    allowed: usize,
    /// "Soldier HQ: " for a hired leader, nothing for the character.
    whose: String,
    /// Whether his starred phases are checked against the bonus phases
    /// he has: a character's are, a hired leader's are not.
    has_bonus_phases: bool,
    /// The roadway he stands on, whose ends his first Move may reach.
    roadway: Option<&'a crate::state::Roadway>,
}

impl Walker<'_> {
    /// The losses of `activities` done from `start`: the first move that
    /// would be lost (the moves after it start from a place he would not
    /// reach, so they go unchecked), then the phases past those the day
    /// gives. The dry run stops at a Follow or Fly, after which his position
    /// is not his own to plan.
    fn walk(&self, start: &ClearingId, activities: &Activities) -> Vec<String> {
        let budget = weather::budget_of(self.data, self.rules, self.state);
        let mut sheltered_left = budget.sheltered;
        let in_shelter = |at: &ClearingId| {
            movement::is_cave_in(self.state, at) || self.state.dwelling_stands_in(at)
        };
        let mut at = start.clone();
        let allowed = self.allowed;
        let mut used = 0;
        let mut over = Vec::new();
        let mut lost_move = None;
        let mut lost_bonus = Vec::new();
        let mut bonus_used = BTreeSet::new();
        for (n, phase) in activities.phases.iter().enumerate() {
            if phase.bonus
                && self.has_bonus_phases
                && let Some(why) = self.no_bonus_phase(&at, &phase.activity, &mut bonus_used)
            {
                // A lost phase moves nobody.
                lost_bonus.push(format!(
                    "phase {} ({}*): {why}; as things stand it would be lost",
                    n + 1,
                    phase.activity.code()
                ));
                continue;
            }
            if !phase.bonus {
                if used < allowed {
                    used += 1;
                } else if sheltered_left > 0 && in_shelter(&at) {
                    sheltered_left -= 1;
                } else {
                    // A lost phase moves nobody.
                    over.push((n + 1, phase.activity.code()));
                    continue;
                }
            }
            match &phase.activity {
                Activity::Move { .. } if lost_move.is_some() => {}
                Activity::Move { tile, clearing } => {
                    let Some(code) = self.data.tiles.resolve(tile).map(|t| t.code.clone()) else {
                        lost_move = Some(format!(
                            "{}phase {}: there is no tile {tile}",
                            self.whose,
                            n + 1
                        ));
                        continue;
                    };
                    let to = ClearingId::new(&code, *clearing);
                    // `M X, M X` climbs into the mountain clearing X: the
                    // second phase goes on with the climb the first began.
                    let climbing = to == at
                        && n > 0
                        && activities.phases[n - 1].activity == phase.activity
                        && self.state.board.clearing(&to).map(|c| c.kind)
                            == Some(ClearingKind::Mountain);
                    if climbing {
                        continue;
                    }
                    let off_road = n == 0 && self.roadway.is_some_and(|r| r.ends_at(&to));
                    if !off_road
                        && let Err(reason) = movement::check_move_from(
                            self.data, self.rules, self.state, self.who, &at, &to,
                        )
                    {
                        lost_move = Some(format!(
                            "{}phase {} (M {to}): {reason}; as things stand the phase would be lost",
                            self.whose,
                            n + 1
                        ));
                        continue;
                    }
                    at = to;
                }
                Activity::Follow { .. } | Activity::Fly { .. } => {
                    return lost_move.into_iter().chain(lost_bonus).collect();
                }
                _ => {}
            }
        }
        let (numbers, codes): (Vec<String>, Vec<&str>) =
            over.iter().map(|(n, code)| (n.to_string(), *code)).unzip();
        // Each lost phase by its number: a bonus phase between two lost
        // ones is not lost.
        let mut losses: Vec<String> = lost_move.into_iter().chain(lost_bonus).collect();
        let which = match numbers.as_slice() {
            [] => return losses,
            [one] => format!("phase {one}"),
            more => format!("phases {}", realmgm_core::words::listed(more)),
        };
        let why = if allowed < budget.basic + budget.sunlight {
            format!(
                "only {allowed} phases today: no sunlight phases on a day that starts in a \
                 cave clearing or records a Move into one (3.1 rule 6.2.2b), nor for a \
                 character without them"
            )
        } else {
            format!("only {allowed} phases today")
        };
        losses.push(format!(
            "{}{which} ({}): {why}; as things stand {} lost; record {allowed} phases, or bonus \
             phases marked *",
            self.whose,
            codes.join(", "),
            if numbers.len() == 1 {
                "it would be"
            } else {
                "they would be"
            },
        ));
        losses
    }

    /// Why his starred `activity` done at `at` would find no bonus phase,
    /// in the day's words (`daylight`), or None when a source he has not
    /// yet spent today (recorded in `used`) gives it. A Search may be on
    /// Peer and an active horse gives a Move: either may give the phase,
    /// so neither is warned of.
    fn no_bonus_phase(
        &self,
        at: &ClearingId,
        activity: &Activity,
        used: &mut BTreeSet<String>,
    ) -> Option<String> {
        let Some(kind) = daylight::bonus_kind(activity) else {
            return Some(daylight::no_bonus_of_its_kind(activity));
        };
        let mut me = self.state.characters[self.who].clone();
        if kind == Kind::Move && horses::active_horse(self.data, &me).is_some() {
            return None;
        }
        me.position = at.clone();
        let mut sources =
            daylight::bonus_sources_here(self.data, self.rules, self.state, &me, kind);
        if kind == Kind::Search {
            sources.extend(daylight::bonus_sources_here(
                self.data,
                self.rules,
                self.state,
                &me,
                Kind::Peer,
            ));
        }
        match sources.into_iter().find(|s| !used.contains(s)) {
            Some(source) => {
                used.insert(source);
                None
            }
            None => Some(daylight::no_bonus_left(activity)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::tiles::ClearingKind;
    use crate::data::tiles::PathKind;
    use crate::orders::parse_day_orders;
    use crate::state::Hireling;
    use crate::test_support::{data, game_played_by};

    /// A clearing with both a hidden or secret path and a normal one: where
    /// it stands, the hidden neighbour, the normal one.
    fn crossroads(state: &MrState) -> (ClearingId, ClearingId, ClearingId) {
        let board = &state.board;
        board
            .clearings()
            .into_iter()
            .find_map(|c| {
                let links = board.neighbours(&c);
                let hidden = links
                    .iter()
                    .find(|l| matches!(l.kind, PathKind::Hidden | PathKind::Secret))?;
                let normal = links.iter().find(|l| l.kind == PathKind::Normal)?;
                Some((c.clone(), hidden.to.clone(), normal.to.clone()))
            })
            .expect("the board has a clearing with both kinds of path")
    }

    #[test]
    fn a_hired_leaders_move_along_a_route_his_employer_does_not_know_is_warned() {
        let mut state = game_played_by(&["Amazon"], |_| "Ann".into());
        let (from, hidden_to, normal_to) = crossroads(&state);
        state.characters[0].hirelings.push(Hireling {
            native: "Soldier HQ".into(),
            days_left: 14,
        });
        state.denizens.get_mut("Soldier HQ").unwrap().at = Whereabouts::Clearing {
            clearing: from.clone(),
        };
        let rules = Rules::default();
        let line = |to: &ClearingId| format!("H\nSoldier HQ: M {}{}, S", to.tile, to.clearing);
        let orders = parse_day_orders(&line(&normal_to), 1, data()).unwrap();
        assert!(phase_warnings(data(), &rules, &state, "Ann", &orders).is_empty());
        let orders = parse_day_orders(&line(&hidden_to), 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with(&format!(
                "Soldier HQ: phase 1 (M {hidden_to}): no known path"
            )),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_trade_phase_without_a_buy_or_sell_line_is_warned() {
        let state = game_played_by(&["Amazon"], |_| "Ann".into());
        let rules = Rules::default();
        let warned = |text: &str| {
            let orders = parse_day_orders(text, 1, data()).unwrap();
            phase_warnings(data(), &rules, &state, "Ann", &orders)
        };
        assert_eq!(
            warned("T, H, T, H"),
            [
                "phases 1, 3 (T): a Trade phase needs a `Buy:` or `Sell:` line naming what to buy \
              or sell; without one it is lost"
            ]
        );
        assert!(warned("T, H\nBuy: Short Sword").is_empty());
        assert!(warned("T, H\nSell: Short Sword").is_empty());
        assert!(warned("H, H").is_empty());
    }

    #[test]
    fn the_second_move_of_a_climb_into_a_mountain_is_not_warned() {
        let mut state = game_played_by(&["Amazon"], |_| "Ann".into());
        let kind = |state: &MrState, c: &ClearingId| state.board.clearing(c).map(|c| c.kind);
        let (below, peak) = state
            .board
            .clearings()
            .into_iter()
            .filter(|c| {
                !matches!(
                    kind(&state, c),
                    Some(ClearingKind::Mountain | ClearingKind::Cave)
                )
            })
            .find_map(|c| {
                let link = state.board.neighbours(&c).into_iter().find(|l| {
                    l.kind == PathKind::Normal
                        && kind(&state, &l.to) == Some(ClearingKind::Mountain)
                })?;
                Some((c, link.to))
            })
            .expect("a mountain clearing with a normal path in");
        state.characters[0].position = below;
        let climb = format!("M {0}{1}, M {0}{1}, H", peak.tile, peak.clearing);
        let orders = parse_day_orders(&climb, 1, data()).unwrap();
        let warnings = phase_warnings(data(), &Rules::default(), &state, "Ann", &orders);
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn phases_past_a_move_into_a_cave_or_a_day_begun_in_one_are_warned() {
        let mut state = game_played_by(&["Amazon"], |_| "Ann".into());
        let is_cave = |state: &MrState, c: &ClearingId| {
            state.board.clearing(c).map(|c| c.kind) == Some(ClearingKind::Cave)
        };
        let (outside, cave) = state
            .board
            .clearings()
            .into_iter()
            .filter(|c| !is_cave(&state, c))
            .find_map(|c| {
                let link = state.board.neighbours(&c).into_iter().find(|l| {
                    matches!(l.kind, PathKind::Normal | PathKind::Cave) && is_cave(&state, &l.to)
                })?;
                Some((c, link.to))
            })
            .expect("a cave clearing with an open way in");
        state.characters[0].position = outside;
        let rules = Rules::default();
        let into = format!("M {}{}, H, S, S", cave.tile, cave.clearing);
        let orders = parse_day_orders(&into, 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(
            warnings,
            [
                "phases 3 and 4 (S, S): only 2 phases today: no sunlight phases on a day that \
                 starts in a cave clearing or records a Move into one (3.1 rule 6.2.2b), nor for \
                 a character without them; as things stand they would be lost; record 2 \
                 phases, or bonus phases marked *"
            ]
        );
        // The Move into the cave recorded last takes the sunlight phases too.
        let last = format!("H, S, S, M {}{}", cave.tile, cave.clearing);
        let orders = parse_day_orders(&last, 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("phases 3 and 4 (S, M): only 2 phases"),
            "{warnings:?}"
        );
        let two = format!("M {}{}, H", cave.tile, cave.clearing);
        let orders = parse_day_orders(&two, 1, data()).unwrap();
        assert!(phase_warnings(data(), &rules, &state, "Ann", &orders).is_empty());
        // A hired leader's line is counted the same way.
        let mut hiring = state.clone();
        hiring.characters[0].hirelings.push(Hireling {
            native: "Soldier HQ".into(),
            days_left: 14,
        });
        hiring.denizens.get_mut("Soldier HQ").unwrap().at = Whereabouts::Clearing {
            clearing: hiring.characters[0].position.clone(),
        };
        let led = format!("H\nSoldier HQ: H, S, S, M {}{}", cave.tile, cave.clearing);
        let orders = parse_day_orders(&led, 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &hiring, "Ann", &orders);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("Soldier HQ: phases 3 and 4 (S, M): only 2 phases"),
            "{warnings:?}"
        );
        state.characters[0].position = cave;
        let orders = parse_day_orders("H, S, S", 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("phase 3 (S): only 2 phases"),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_starred_phase_no_bonus_allows_is_warned_in_the_days_words() {
        let state = game_played_by(&["Amazon"], |_| "Ann".into());
        let start = state.characters[0].position.clone();
        let next = state
            .board
            .neighbours(&start)
            .into_iter()
            .find(|l| l.kind == PathKind::Normal)
            .expect("a normal path from where she starts")
            .to;
        let rules = Rules::default();
        let warned = |text: &str| {
            let orders = parse_day_orders(text, 1, data()).unwrap();
            phase_warnings(data(), &rules, &state, "Ann", &orders)
        };
        // Her advantage gives a Move phase, not a Hide phase.
        assert_eq!(
            warned(&format!("M {}{}*, H, H*", next.tile, next.clearing)),
            [
                "phase 3 (H*): no advantage or active item gives another bonus H phase here; \
                 as things stand it would be lost"
            ]
        );
        // And only one a day.
        assert_eq!(
            warned(&format!(
                "M {}{}*, M {}{}*",
                next.tile, next.clearing, start.tile, start.clearing
            )),
            [
                "phase 2 (M*): no advantage or active item gives another bonus M phase here; \
                 as things stand it would be lost"
            ]
        );
    }

    #[test]
    fn a_move_along_an_unknown_route_is_warned_without_naming_it() {
        let mut state = game_played_by(&["Black Knight"], |_| "Ann".into());
        let (from, hidden_to, normal_to) = crossroads(&state);
        state.characters[0].position = from.clone();
        let line = |to: &ClearingId| format!("M {}{}, H", to.tile, to.clearing);
        let orders = parse_day_orders(&line(&normal_to), 1, data()).unwrap();
        let rules = Rules::default();
        assert!(phase_warnings(data(), &rules, &state, "Ann", &orders).is_empty());
        let orders = parse_day_orders(&line(&hidden_to), 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("no known path"), "{warnings:?}");
        assert!(!warnings[0].contains("hidden") && !warnings[0].contains("secret"));
        let key = if from <= hidden_to {
            (from.clone(), hidden_to.clone())
        } else {
            (hidden_to.clone(), from.clone())
        };
        state.characters[0].discoveries.routes.insert(key.clone());
        assert!(phase_warnings(data(), &rules, &state, "Ann", &orders).is_empty());
        // A lost move does not hide the phases past the day's: both are told.
        state.characters[0].discoveries.routes.remove(&key);
        let long = format!("M {}{}, H, H, H, H", hidden_to.tile, hidden_to.clearing);
        let orders = parse_day_orders(&long, 1, data()).unwrap();
        let warnings = phase_warnings(data(), &rules, &state, "Ann", &orders);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("no known path"), "{warnings:?}");
        assert!(
            warnings[1].contains("(H, H, H): only 2 phases today")
                || warnings[1].starts_with("phase 5 (H): only 4 phases today"),
            "{warnings:?}"
        );
    }
}
