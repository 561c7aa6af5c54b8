//! The report of a player who plays several characters (3.1 10.E.4): one
//! mail joining each character's own report. Each character keeps his own
//! Personal History and sees only for himself (10.E.4.4), so each part is
//! that character's report alone; they come in one mail rather than one
//! each so that the player reads his day at once and answers it with one
//! mail, as his orders go.

use realmgm_core::game::{Event, Report};
use realmgm_core::report::ReportContext;
use realmgm_core::words::listed;

use crate::data::GameData;
use crate::orders::sections::{self, HEADER};
use crate::state::{CharacterState, MrState};

/// A character's name as part of a file name: `black-knight`.
fn slug(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}

/// `player`'s report joining those of `mine`, his characters.
pub(super) fn report(
    data: &GameData,
    state: &MrState,
    events: &[Event],
    player: &str,
    mine: &[&CharacterState],
    context: &ReportContext,
) -> anyhow::Result<Report> {
    let the: Vec<String> = mine.iter().map(|c| format!("the {}", c.name)).collect();
    let heads: Vec<String> = mine
        .iter()
        .map(|c| format!("'{HEADER} {}'", c.name))
        .collect();
    let mut text = format!(
        "You play {} (3.1 10.E.4). Below is each one's report in turn; each sees only for \
         himself. Answer with one mail holding each one's orders below a line naming him: \
         {}.\n",
        listed(&the),
        listed(&heads)
    );
    let mut attachments = Vec::new();
    for me in mine {
        let slug = slug(&me.name);
        let part = super::character_report(data, state, events, player, me, context, Some(&slug))?;
        text.push_str(&format!("\n==== The {} ====\n\n", me.name));
        text.push_str(&part.text);
        for (name, mime, bytes) in part.attachments {
            // The map is named after him already; his document is not.
            let name = if name.starts_with("map-") {
                name
            } else {
                format!("{slug}-{name}")
            };
            attachments.push((name, mime, bytes));
        }
    }
    let killed: Vec<String> = mine
        .iter()
        .filter(|c| c.dead)
        .map(|c| format!("the {}", c.name))
        .collect();
    let subject = if state.day == 0 {
        format!("The game begins: you play {}", listed(&the))
    } else if killed.is_empty() {
        format!("Day {} report for {}", state.day, listed(&the))
    } else {
        let verb = if killed.len() == 1 { "was" } else { "were" };
        format!(
            "Day {} report for {}: {} {verb} killed",
            state.day,
            listed(&the),
            listed(&killed)
        )
    };
    Ok(Report {
        subject,
        text,
        // Each part is a whole HTML page; joined they would not be one.
        html: None,
        attachments,
    })
}

/// The part of `text` (a player's orders, several characters' parts) for
/// the character `name`, the other lines blanked; empty without one.
pub(super) fn part_of(text: &str, name: &str) -> String {
    sections::split(text)
        .sections
        .into_iter()
        .find(|s| realmgm_core::suggest::find(&s.name, [name]).is_some())
        .map(|s| s.text)
        .unwrap_or_default()
}
