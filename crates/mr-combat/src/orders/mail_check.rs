//! The check a mailed order passes before the daemon accepts it, shared
//! with day files: every name it uses ([`super::names`]), its `Combat:`
//! line ([`super::combat_names`]) and its dealings
//! ([`super::dealing_names`]), and a restart's `Victory:` total and
//! `Spells:` line, as problems on their line and warnings.

use super::sheet::DayOrders;
use crate::data::GameData;
use crate::state::MrState;
use realmgm_core::game::OrdersProblem;

/// Every name an orders mail uses, checked as the daemon checks a mail
/// before accepting it: unknown items and natives are problems on their
/// line, unknown characters warnings; the `Combat:` line and dealings are
/// checked against `player`'s character in `in_play` (none before setup).
pub fn problems(
    data: &GameData,
    in_play: Option<&MrState>,
    player: &str,
    day: &DayOrders,
    text: &str,
) -> (Vec<OrdersProblem>, Vec<String>) {
    let characters: Vec<&str> = in_play
        .iter()
        .flat_map(|s| s.characters.iter().map(|c| c.name.as_str()))
        .collect();
    let mut names = super::names::check_names(day, data, &characters);
    let me = in_play.and_then(|s| {
        s.characters
            .iter()
            .find(|c| c.player == player)
            .map(|c| (s, c))
    });
    if let (Some(tactics), Some((state, me))) = (&day.combat, me) {
        let combat = super::combat_names::check_tactics(tactics, day, data, state, me);
        names.errors.extend(combat.errors);
        names.warnings.extend(combat.warnings);
    }
    if let Some((state, me)) = me {
        let dealings = super::dealing_names::check_dealings(day, data, state, me);
        names.errors.extend(dealings.errors);
        names.warnings.extend(dealings.warnings);
    }
    if let Some((_, me)) = me {
        names.errors.extend(develop_problems(data, day, me));
    }
    if let (Some(victory), Some(state)) = (&day.victory, in_play) {
        let points = me.map_or(state.victory_points, |(_, me)| {
            crate::development::restart_victory_points(me, state.victory_points_for(&me.name))
        });
        let total = crate::setup::by_mail::check_victory_total(victory, points);
        names.errors.extend(total.err().map(|e| e.to_string()));
    }
    if let (Some(spells), Some((_, me))) = (&day.spells, me) {
        let kind = restart_kind(data, day, &me.name);
        if let Some(kind) = kind {
            let card = crate::development::restart_card(me, kind);
            let read = crate::setup::by_mail::read_spells(&card, Some(spells), data);
            names
                .errors
                .extend(read.err().into_iter().flat_map(|e| e.0));
        }
    }
    let mut problems: Vec<OrdersProblem> = names
        .errors
        .into_iter()
        .map(|message| OrdersProblem {
            line: super::names::line_of_key(text, &message),
            column: 1,
            message,
        })
        .collect();
    problems.sort_by_key(|p| p.line);
    (problems, names.warnings)
}

/// The chits a `Develop:` line names that are no chit of a level above
/// his starting one on his card (3.1 10.E.5.4), each a problem.
fn develop_problems(
    data: &GameData,
    day: &DayOrders,
    me: &crate::state::CharacterState,
) -> Vec<String> {
    let Some(card) = data.characters.iter().find(|c| c.name == me.name) else {
        return Vec::new();
    };
    let start = me.development.as_ref().map_or(0, |d| d.start_level);
    let later: Vec<String> = card
        .chits
        .iter()
        .skip(usize::from(start * crate::development::CHITS_PER_LEVEL))
        .map(ToString::to_string)
        .collect();
    if me.development.is_none() && !day.develop.is_empty() {
        return vec![format!(
            "Develop: the {} is not developing (the development rule is off, or he started at \
             4th level); leave the line out",
            me.name
        )];
    }
    day.develop
        .iter()
        .filter(|name| !later.iter().any(|c| c.eq_ignore_ascii_case(name)))
        .map(|name| {
            format!(
                "Develop: '{name}' is not one of the {}'s chits of the levels to come; name \
                 them as printed: {}",
                me.name,
                later.join(", ")
            )
        })
        .collect()
}

/// The character a restart's `Spells:` line is read for: the one his
/// `Character:` line names, else the one he plays (`day::restart` starts
/// him over as the same when the named one is taken).
fn restart_kind<'d>(
    data: &'d GameData,
    day: &DayOrders,
    his: &str,
) -> Option<&'d crate::data::characters::Character> {
    let names = data.characters.iter().map(|c| c.name.as_str());
    let wanted = day
        .character
        .as_deref()
        .and_then(|w| realmgm_core::suggest::find(w, names))
        .unwrap_or(his);
    data.characters.iter().find(|c| c.name == wanted)
}
