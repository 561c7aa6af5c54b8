//! What changes when the GM edits a stored campaign (`realmgm campaign edit
//! NAME FILE`): the edited file against the stored settings,
//! field by field, each change sorted into what can apply now and what
//! cannot.
//!
//! Safe at any time: title, description, the GM, the player limit, the
//! schedule (deadlines, reminders, the policy for missing orders and its
//! escalation), the templates folder and the mail settings; they shape what
//! is mailed and when, never what a past day was.
//!
//! Refused once the game has begun (day 0 is stored), because re-running a
//! past day after a rollback must give the same result: the game, the seed,
//! the rule toggles and the calendar. Before the game begins they apply.
//!
//! The rules version moves a running campaign to the rules this realmgm
//! plays from its next day: only upwards (a file naming an older version
//! does not parse), and only when the file names it, so an edit of the
//! schedule never changes the rules a campaign plays under. `[report]`
//! changes wording only and applies at any time.
//! The tag never changes (it names the campaign in every subject). The
//! players are kept as stored: they change through `gm add-player`, `gm
//! replace` and `gm remove-player`, which tell the players concerned; only a
//! seat's team addresses (`team = [...]`) change by an edit.

use serde_json::Value;

use super::Campaign;

/// One setting that differs between the stored campaign and the edited
/// file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The campaign file's name for it (`schedule.every_hours`, `rules`).
    pub field: String,
    pub before: String,
    pub after: String,
    pub verdict: Verdict,
}

/// What happens to a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Applied,
    /// Not applied, and why; the edit as a whole is refused.
    Refused(String),
    /// Not applied, and what to do instead; the rest still applies.
    Kept(String),
}

/// Every field that differs, in the file's order, with its verdict.
/// `begun` says whether the game is set up (day 0 stored).
pub fn changes(stored: &Campaign, edited: &Campaign, begun: bool) -> Vec<Change> {
    let (old, new) = (as_fields(stored), as_fields(edited));
    let past = "it would change days already played (a rollback and re-run must give the same \
                result); start a new campaign to play under it";
    let mut found = Vec::new();
    for &(field, key) in FIELDS {
        let (Some(before), Some(after)) = (old.get(key), new.get(key)) else {
            continue;
        };
        if before == after {
            continue;
        }
        let verdict = match field {
            "name" => Verdict::Refused(
                "the tag names the campaign in every mail subject and cannot change".into(),
            ),
            "game" | "seed" | "rules" | "calendar" if begun => Verdict::Refused(past.into()),
            "rules_version" if edited.rules_version < stored.rules_version => Verdict::Refused(
                "a campaign never goes back to older rules: its days under the newer ones could \
                 not be re-run; leave rules_version out, or write the version it plays"
                    .into(),
            ),
            "players" if same_seats(stored, edited) => Verdict::Applied,
            "players" => Verdict::Kept(
                "players change with `gm add-player`, `gm replace` and `gm remove-player`, which \
                 tell them; only a seat's team addresses change here"
                    .into(),
            ),
            _ => Verdict::Applied,
        };
        for (setting, before, after) in settings(field, before, after) {
            found.push(Change {
                field: setting,
                before,
                after,
                verdict: verdict.clone(),
            });
        }
    }
    found
}

/// The settings that differ inside one field: each key of a table
/// (`schedule.every_hours`), the toggle names of `rules`, else the field.
fn settings(field: &str, before: &Value, after: &Value) -> Vec<(String, String, String)> {
    // A hook's address is its password; the list goes to the GM's log.
    let masked_sides;
    let (before, after) = if field == "notify" {
        masked_sides = (masked(before), masked(after));
        (&masked_sides.0, &masked_sides.1)
    } else {
        (before, after)
    };
    match (field, before, after) {
        ("rules", _, _) => vec![(
            field.to_string(),
            shown(&before["enabled"]),
            shown(&after["enabled"]),
        )],
        ("players", Value::Array(old), Value::Array(new)) => {
            let names: std::collections::BTreeSet<&str> = old
                .iter()
                .chain(new)
                .filter_map(|seat| seat["name"].as_str())
                .collect();
            let seat_of = |seats: &[Value], name: &str| {
                seats
                    .iter()
                    .find(|seat| seat["name"] == name)
                    .map_or_else(|| "(no seat)".to_string(), seat_shown)
            };
            names
                .into_iter()
                .map(|name| (name, seat_of(old, name), seat_of(new, name)))
                .filter(|(_, before, after)| before != after)
                .map(|(name, before, after)| (format!("players.{name}"), before, after))
                .collect()
        }
        // A table the file adds or removes is listed key by key too.
        (_, Value::Null, Value::Object(_)) | (_, Value::Object(_), Value::Null) => {
            let empty = Value::Object(serde_json::Map::new());
            let side = |v: &Value| {
                if v.is_null() {
                    empty.clone()
                } else {
                    v.clone()
                }
            };
            settings(field, &side(before), &side(after))
        }
        (_, Value::Object(old), Value::Object(new)) => {
            let keys: std::collections::BTreeSet<&String> = old
                .iter()
                .chain(new)
                .filter(|(_, value)| !value.is_null())
                .map(|(key, _)| key)
                .collect();
            keys.into_iter()
                .filter(|k| old.get(*k) != new.get(*k))
                .map(|k| {
                    let side = |map: &serde_json::Map<String, Value>| {
                        map.get(k).map_or_else(|| "(none)".to_string(), shown)
                    };
                    (format!("{field}.{k}"), side(old), side(new))
                })
                .collect()
        }
        _ => vec![(field.to_string(), shown(before), shown(after))],
    }
}

/// The stored campaign with the applied changes of `edited`; `None` when
/// a change is refused.
pub fn apply(stored: &Campaign, edited: &Campaign, changes: &[Change]) -> Option<Campaign> {
    if changes
        .iter()
        .any(|c| matches!(c.verdict, Verdict::Refused(_)))
    {
        return None;
    }
    // The seats stay as stored; each takes the team addresses the file
    // gives it now.
    let players = stored
        .players
        .iter()
        .map(|seat| {
            let team = edited
                .players
                .iter()
                .find(|p| p.name == seat.name)
                .map_or_else(|| seat.team.clone(), |p| p.team.clone());
            crate::campaign::Player {
                team,
                ..seat.clone()
            }
        })
        .collect();
    Some(Campaign {
        players,
        name: stored.name.clone(),
        ..edited.clone()
    })
}

/// The same seats (names, addresses, characters, further characters) in
/// both, teams aside.
fn same_seats(stored: &Campaign, edited: &Campaign) -> bool {
    let seats = |c: &Campaign| -> Vec<(String, String, Vec<crate::game::Seat>)> {
        c.players
            .iter()
            .map(|p| (p.name.clone(), p.email.to_string(), p.seats().collect()))
            .collect()
    };
    seats(stored) == seats(edited)
}

/// The edited campaign as the edit means it: a file that does not name
/// `rules_version` keeps the stored campaign's.
pub fn as_meant(stored: &Campaign, edited: Campaign, text: &str) -> Campaign {
    let names_version =
        toml::from_str::<toml::Table>(text).is_ok_and(|table| table.contains_key("rules_version"));
    if names_version {
        edited
    } else {
        Campaign {
            rules_version: stored.rules_version,
            ..edited
        }
    }
}

/// The campaign file's fields and the JSON keys of [`Campaign`] they are.
const FIELDS: &[(&str, &str)] = &[
    ("name", "name"),
    ("game", "game"),
    ("title", "title"),
    ("description", "description"),
    ("seed", "seed"),
    ("gm", "gm"),
    ("max_players", "max_players"),
    ("rules_profile", "rules_profile"),
    ("rules", "rules"),
    ("schedule", "schedule"),
    ("calendar", "calendar"),
    ("templates", "template_folder"),
    ("players", "players"),
    ("mail", "mail"),
    ("site", "site"),
    ("notify", "notify"),
    ("rules_version", "rules_version"),
    ("report", "report"),
];

fn as_fields(campaign: &Campaign) -> serde_json::Map<String, Value> {
    match serde_json::to_value(campaign) {
        Ok(Value::Object(map)) => map,
        _ => unreachable!("a campaign serializes to a JSON object"),
    }
}

/// A value as the GM reads it in the list of changes.
/// One seat as the GM reads it: "dave@example.org, Black Knight, team
/// d2@example.org".
fn seat_shown(seat: &Value) -> String {
    let mut words = vec![shown(&seat["email"])];
    words.push(
        seat["character"]
            .as_str()
            .map_or_else(|| "no character".to_string(), str::to_string),
    );
    if let Some(team) = seat["team"].as_array().filter(|t| !t.is_empty()) {
        let team: Vec<String> = team.iter().map(shown).collect();
        words.push(format!("team {}", team.join(", ")));
    }
    words.join(", ")
}

fn shown(value: &Value) -> String {
    match value {
        Value::Null => "(none)".to_string(),
        Value::String(text) => text.clone(),
        other => without_unset_keys(other).to_string(),
    }
}

/// `[notify]` as the GM's log may keep it: a hook's address (its password)
/// cut to its host.
fn masked(notify: &Value) -> Value {
    let mut notify = notify.clone();
    if let Some(hooks) = notify.get_mut("hooks").and_then(Value::as_array_mut) {
        for url in hooks.iter_mut().filter_map(|hook| hook.get_mut("url")) {
            if let Some(text) = url.as_str() {
                let scheme = text.split_once("://").map_or("https", |(scheme, _)| scheme);
                *url = Value::String(format!(
                    "{scheme}://{}/...",
                    crate::mail::webhook::host_of(text)
                ));
            }
        }
    }
    notify
}

/// The value with the keys the file left out (null) dropped, at any depth:
/// the GM reads what he wrote.
fn without_unset_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_unset_keys(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_unset_keys).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = include_str!("../../../../campaigns/demo.toml");

    fn campaign(text: &str) -> Campaign {
        Campaign::parse("demo.toml", text, crate::TEST_GAMES).unwrap()
    }

    #[test]
    fn the_schedule_applies_and_a_rule_is_refused_once_the_game_has_begun() {
        let stored = campaign(FILE);
        let edited_text = FILE
            .replacen("[schedule]", "[schedule]\nreminder_hours = 7", 1)
            .replacen("rules = [", "rules = [\"optional_missile_table\", ", 1);
        let edited = campaign(&edited_text);
        let found = changes(&stored, &edited, true);
        let fields: Vec<(&str, bool)> = found
            .iter()
            .map(|c| (c.field.as_str(), c.verdict == Verdict::Applied))
            .collect();
        assert_eq!(
            fields,
            [("rules", false), ("schedule.reminder_hours", true)],
            "{found:?}"
        );
        assert_eq!(
            (found[1].before.as_str(), found[1].after.as_str()),
            ("(none)", "7")
        );
        assert!(apply(&stored, &edited, &found).is_none());
        // Before the game begins the rule applies too.
        let found = changes(&stored, &edited, false);
        let applied = apply(&stored, &edited, &found).expect("nothing refused");
        assert!(applied.rules.is_on("optional_missile_table"));
        assert_eq!(applied.schedule, edited.schedule);
    }

    /// A table the edit adds is listed key by key, with the defaults it
    /// takes, and without the keys a hook leaves out; a hook's address, its
    /// password, only by its host (the list goes to the GM's log).
    #[test]
    fn an_added_table_is_listed_key_by_key_as_written() {
        let stored = campaign(FILE);
        let text = format!(
            "{FILE}\n[notify]\ndeadline_hours = 6\n\n[[notify.hooks]]\nkind = \"slack\"\n\
             url_env = \"SLACK_HOOK\"\n\n[[notify.hooks]]\nname = \"chat\"\nkind = \"discord\"\n\
             url = \"https://discord.com/api/webhooks/1/SECRET\"\n"
        );
        let found = changes(&stored, &campaign(&text), true);
        let lines: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|c| (c.field.as_str(), c.before.as_str(), c.after.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                ("notify.deadline_hours", "(none)", "6"),
                (
                    "notify.hooks",
                    "(none)",
                    r#"[{"kind":"slack","url_env":"SLACK_HOOK"},{"kind":"discord","name":"chat","url":"https://discord.com/..."}]"#
                ),
                ("notify.name_awaited", "(none)", "false"),
            ]
        );
    }

    #[test]
    fn a_running_campaign_moves_to_new_rules_only_when_the_file_names_them() {
        let mut stored = campaign(FILE);
        stored.rules_version = 1;
        // An edit of the schedule alone keeps the rules it plays under.
        let schedule_only = FILE.replacen("[schedule]", "[schedule]\nreminder_hours = 7", 1);
        let edited = as_meant(&stored, campaign(&schedule_only), &schedule_only);
        let found = changes(&stored, &edited, true);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].field, "schedule.reminder_hours");
        // Naming the version moves it, even once the game has begun.
        let current = crate::current_rules();
        let moved = format!("rules_version = {current}\n{FILE}");
        let edited = as_meant(&stored, campaign(&moved), &moved);
        let found = changes(&stored, &edited, true);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (
                found[0].field.as_str(),
                found[0].before.as_str(),
                found[0].after.as_str()
            ),
            ("rules_version", "1", current.to_string().as_str())
        );
        assert_eq!(found[0].verdict, Verdict::Applied);
        assert_eq!(
            apply(&stored, &edited, &found).unwrap().rules_version,
            current
        );
        // A new campaign cannot name older rules...
        let back = format!("rules_version = 1\n{FILE}");
        let error = Campaign::parse("demo.toml", &back, crate::TEST_GAMES).unwrap_err();
        assert!(
            error.to_string().contains(&format!(
                "rules version 1 (the seed summaries (2nd-edition play summary, magic primer, \
                 optional combat)) is no longer played: this realmgm plays version {current}"
            )),
            "{error}"
        );
        assert_eq!(error.line, Some(1));
        // ...but a stored campaign's text names the rules it was played
        // under, and still reads once newer rules have come: an edit naming
        // them keeps them, one going back from newer rules is refused.
        let kept = Campaign::parse_stored("demo.toml", &back, crate::TEST_GAMES).unwrap();
        assert_eq!(kept.rules_version, 1);
        assert!(changes(&stored, &as_meant(&stored, kept.clone(), &back), true).is_empty());
        let newer = Campaign {
            rules_version: current,
            ..stored
        };
        let found = changes(&newer, &as_meant(&newer, kept, &back), true);
        assert!(
            matches!(&found[0].verdict, Verdict::Refused(why) if why.contains("never goes back")),
            "{found:?}"
        );
        let unknown = format!("rules_version = 9\n{FILE}");
        let error = Campaign::parse_stored("demo.toml", &unknown, crate::TEST_GAMES).unwrap_err();
        assert!(
            error.to_string().contains("there is no rules version 9"),
            "{error}"
        );
    }

    #[test]
    fn citing_the_rules_in_players_reports_applies_at_any_time() {
        let stored = campaign(FILE);
        assert!(!stored.report.cite_rules);
        let cited = format!("{FILE}\n[report]\ncite_rules = true\n");
        let edited = campaign(&cited);
        let found = changes(&stored, &edited, true);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].field, "report.cite_rules");
        assert!(apply(&stored, &edited, &found).unwrap().report.cite_rules);
    }

    #[test]
    fn a_seats_team_changes_by_an_edit_and_its_address_does_not() {
        let stored = campaign(FILE);
        let with_team = FILE.replacen(
            "email = \"ann@demo.realmgm.test\"",
            "email = \"ann@demo.realmgm.test\"\nteam = [\"ann2@demo.realmgm.test\"]",
            1,
        );
        let edited = campaign(&with_team);
        let found = changes(&stored, &edited, true);
        assert!(
            found.iter().all(|c| c.verdict == Verdict::Applied),
            "{found:?}"
        );
        let applied = apply(&stored, &edited, &found).unwrap();
        assert_eq!(
            applied.players[0].team[0].as_str(),
            "ann2@demo.realmgm.test"
        );
        let moved = with_team.replacen("ann@demo", "anne@demo", 1);
        let found = changes(&stored, &campaign(&moved), true);
        assert!(matches!(found[0].verdict, Verdict::Kept(_)), "{found:?}");
        let kept = apply(&stored, &campaign(&moved), &found).unwrap();
        assert_eq!(kept.players[0].email.as_str(), "ann@demo.realmgm.test");
    }

    #[test]
    fn a_changed_seat_reads_as_words_not_as_json() {
        let stored = campaign(FILE);
        let moved = FILE.replacen("ann@demo", "anne@demo", 1);
        let found = changes(&stored, &campaign(&moved), true);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].field, "players.Ann");
        assert_eq!(found[0].before, "ann@demo.realmgm.test, Amazon");
        assert_eq!(found[0].after, "anne@demo.realmgm.test, Amazon");
    }

    #[test]
    fn an_unchanged_file_changes_nothing() {
        let stored = campaign(FILE);
        assert!(changes(&stored, &campaign(FILE), true).is_empty());
    }
}
