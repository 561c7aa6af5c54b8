//! `realmgm fantasy score "Card, Card, ..."`: score a Fantasy Realms hand
//! with the choices that serve it best (Fantasy Realms rulebook, "Scoring hands"), as text or
//! JSON. A hand of any size is scored (a rulebook example of two or three
//! cards, a hand in progress); one that is not a legal end-of-game hand
//! (seven cards, eight with the Necromancer's extra card) is scored with a
//! note saying so.

use anyhow::{Context, anyhow, bail};
use clap::Subcommand;
use serde::Serialize;

use crate::fantasy_realms::best::best;
use crate::fantasy_realms::cards::{self, Bonus, CardId, Deck};
use crate::fantasy_realms::scoring::Scored;

const HAND_SIZE: usize = 7;

#[derive(Debug, Subcommand)]
pub enum FantasyCommand {
    /// Score a hand, choosing the wild cards, Book of Changes, Island and
    /// Necromancer picks that give the highest total.
    Score(ScoreArgs),
}

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The hand: card names separated by commas, seven in a finished hand
    /// (eight when it holds the Necromancer and its extra card); any other
    /// number is scored with a note. Case and accents do not matter.
    hand: String,
    /// The discard area, card names separated by commas: the Necromancer in a
    /// seven-card hand may add one of its Armies, Leaders, Wizards or Beasts.
    #[arg(long)]
    discard: Option<String>,
    /// Print JSON: {"total": N, "cards": [{"name", "points", "blanked", "as"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(command: &FantasyCommand) -> anyhow::Result<()> {
    match command {
        FantasyCommand::Score(args) => {
            println!("{}", score(args)?);
            Ok(())
        }
    }
}

fn score(args: &ScoreArgs) -> anyhow::Result<String> {
    let deck = cards::deck()?;
    let hand = deck
        .parse_list(&args.hand)
        .map_err(|e| anyhow!("{e}; check the hand"))?;
    let discard = match &args.discard {
        Some(list) => deck
            .parse_list(list)
            .map_err(|e| anyhow!("{e}; check --discard"))?,
        None => Vec::new(),
    };
    let note = hand_size_note(deck, &hand, args.discard.is_some())?;
    let found = best(deck, &hand, &discard).map_err(|e| anyhow!("{e}"))?;
    if args.json {
        let mut json = JsonScore::from(&found.scored);
        json.legal_end_hand = note.is_none();
        json.note = note.as_deref();
        serde_json::to_string(&json).context("cannot write the score as JSON")
    } else {
        let mut text = render(&found.scored);
        if let Some(note) = note {
            text.push_str(&format!("\nNote: {note}"));
        }
        Ok(text)
    }
}

/// `None` for a legal end-of-game hand (seven cards, or eight when the
/// Necromancer already took its card), else a note on why it is not. A
/// discard area only makes sense for a Necromancer that has not: using it
/// otherwise is an error, as is an empty hand.
fn hand_size_note(
    deck: &Deck,
    hand: &[CardId],
    has_discard: bool,
) -> anyhow::Result<Option<String>> {
    let necromancer = hand.iter().any(|&id| {
        deck.card(id)
            .bonus
            .iter()
            .any(|b| matches!(b, Bonus::TakeFromDiscard { .. }))
    });
    if hand.is_empty() {
        bail!("name at least one card, e.g. \"Mountain, Smoke, Wildfire\"");
    }
    if has_discard && !necromancer {
        bail!("--discard is only used by the Necromancer, which is not in this hand; leave it out");
    }
    Ok(match (hand.len(), necromancer) {
        (HAND_SIZE, _) => None,
        (8, true) if has_discard => bail!(
            "this hand already holds the Necromancer's eighth card; leave out --discard, or list seven cards"
        ),
        (8, true) => None,
        (n, true) => Some(format!(
            "a finished hand with the Necromancer has 7 cards (8 once it has taken its extra \
             card); this one has {n}, so this is not a legal end-of-game score"
        )),
        (n, false) => Some(format!(
            "a finished hand has 7 cards; this one has {n}, so this is not a legal end-of-game \
             score"
        )),
    })
}

fn render(scored: &Scored) -> String {
    let width = scored
        .cards
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for card in &scored.cards {
        let chosen = card
            .chosen
            .as_ref()
            .map(|c| format!(" as {c}"))
            .unwrap_or_default();
        let pad = width - card.name.chars().count();
        out.push_str(&format!(
            "{}{} {:>4}{}: {}\n",
            card.name,
            " ".repeat(pad),
            card.points,
            chosen,
            card.why
        ));
    }
    out.push_str(&format!(
        "Total: {} (base strength {})",
        scored.total, scored.base_strength
    ));
    out
}

#[derive(Serialize)]
struct JsonScore<'a> {
    total: i32,
    cards: Vec<JsonCard<'a>>,
    /// Seven cards (eight with the Necromancer's): a hand as the game ends.
    legal_end_hand: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonCard<'a> {
    name: &'a str,
    points: i32,
    blanked: bool,
    #[serde(rename = "as")]
    chosen: Option<&'a str>,
}

impl<'a> From<&'a Scored> for JsonScore<'a> {
    fn from(scored: &'a Scored) -> Self {
        JsonScore {
            total: scored.total,
            cards: scored
                .cards
                .iter()
                .map(|c| JsonCard {
                    name: &c.name,
                    points: c.points,
                    blanked: c.blanked,
                    chosen: c.chosen.as_deref(),
                })
                .collect(),
            legal_end_hand: true,
            note: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(hand: &str, discard: Option<&str>, json: bool) -> ScoreArgs {
        ScoreArgs {
            hand: hand.to_string(),
            discard: discard.map(str::to_string),
            json,
        }
    }

    const EXAMPLE: &str =
        "Mountain, Great Flood, Wildfire, Smoke, Whirlwind, Air Elemental, Mirage";

    #[test]
    fn json_has_the_total_and_each_card() {
        let text = score(&args(EXAMPLE, None, true)).expect("scores");
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(value["total"], 260);
        assert_eq!(value["cards"].as_array().map(Vec::len), Some(7));
        assert_eq!(value["cards"][6]["name"], "Mirage");
        assert_eq!(value["cards"][6]["as"], "Rainstorm");
        assert_eq!(value["cards"][0]["as"], serde_json::Value::Null);
        assert_eq!(value["cards"][0]["blanked"], false);
    }

    #[test]
    fn text_lists_points_and_the_total() {
        let text = score(&args(&EXAMPLE.to_lowercase(), None, false)).expect("scores");
        assert!(
            text.contains("Mirage") && text.contains("as Rainstorm"),
            "{text}"
        );
        assert!(text.ends_with("Total: 260 (base strength 125)"), "{text}");
    }

    #[test]
    fn hand_size_and_discard_rules_are_enforced() {
        // The rulebook's example: Mountain with Smoke and Wildfire.
        let text = score(&args("Mountain, Smoke, Wildfire", None, false)).expect("scores");
        assert!(
            text.contains("Note: a finished hand has 7 cards; this one has 3"),
            "{text}"
        );
        let json = score(&args("Mountain, Smoke, Wildfire", None, true)).expect("scores");
        let value: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(value["legal_end_hand"], false);
        let full: serde_json::Value =
            serde_json::from_str(&score(&args(EXAMPLE, None, true)).unwrap()).unwrap();
        assert_eq!(full["legal_end_hand"], true);
        assert!(full.get("note").is_none());
        let err = score(&args("", None, false)).expect_err("empty");
        assert!(err.to_string().contains("name at least one card"), "{err}");
        let err = score(&args(EXAMPLE, Some("Knights"), false)).expect_err("no necromancer");
        assert!(err.to_string().contains("Necromancer"), "{err}");
        let seven = "Necromancer, Knights, Rangers, Forest, Mountain, Cavern, Bell Tower";
        let text = score(&args(seven, Some("King, Dragon"), true)).expect("scores");
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert_eq!(value["cards"].as_array().map(Vec::len), Some(8));
        let err = score(&args(seven, Some("Knights"), false)).expect_err("in both");
        assert!(
            err.to_string()
                .contains("both in the hand and in the discard"),
            "{err}"
        );
        let err = score(&args("Mountain, Smok, Wildfire", None, false)).expect_err("typo");
        assert!(err.to_string().contains("did you mean Smoke"), "{err}");
    }
}
