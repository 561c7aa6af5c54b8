//! The report a program can read: each player's report also travels as a
//! JSON document (`report-day-N.json`) beside its text, HTML and map.
//!
//! Every game's document shares one envelope (schema version, game,
//! campaign, day, player) and carries the game's own part under a key named
//! after the game. The JSON Schema in `schemas/report-v1.schema.json`
//! describes every field; this module embeds it so that tests and
//! programs hold the very file readers are pointed to.
//!
//! Versions: a field added keeps version 1 (readers ignore what they do not
//! know); a field removed, renamed or changed in meaning makes version 2,
//! with a new schema file beside the old one.

use serde::Serialize;

/// The version every document states in `schema_version`.
pub const SCHEMA_VERSION: u32 = 1;

/// The `$id` of the schema, which every document names in `$schema`.
pub const SCHEMA_ID: &str = "urn:realmgm:schema:report:v1";

/// The JSON Schema (draft 2020-12) of the documents.
pub const SCHEMA: &str = include_str!("../../../schemas/report-v1.schema.json");

/// The MIME type of the attachment.
pub const MIME: &str = "application/json";

/// The envelope of a document: who it is for and which game's part it
/// carries; `part` is a struct whose one field is named after the game.
#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    schema_version: u32,
    game: &'a str,
    campaign: &'a str,
    day: u32,
    player: &'a str,
    #[serde(flatten)]
    part: &'a T,
}

/// Who a document is for and which game made it.
#[derive(Clone, Copy, Debug)]
pub struct Addressed<'a> {
    /// The game's id (`magic-realm`), the schema's discriminator.
    pub game: &'a str,
    pub campaign: &'a str,
    /// The day (or turn) the report closes.
    pub day: u32,
    pub player: &'a str,
}

/// The attachment (file name, MIME type, bytes) of the document for
/// `to` carrying `part`.
///
/// # Errors
/// `part` cannot be written as JSON (a map keyed by something other than
/// text), which the game's own tests rule out.
pub fn attachment<T: Serialize>(
    to: Addressed<'_>,
    part: &T,
) -> serde_json::Result<(String, String, Vec<u8>)> {
    let bytes = serde_json::to_vec(&Envelope {
        schema: SCHEMA_ID,
        schema_version: SCHEMA_VERSION,
        game: to.game,
        campaign: to.campaign,
        day: to.day,
        player: to.player,
        part,
    })?;
    Ok((file_name(to.day), MIME.to_string(), bytes))
}

/// The file name of the document of `day`.
pub fn file_name(day: u32) -> String {
    format!("report-day-{day}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_schema_is_json_with_the_id_documents_name() {
        let schema: serde_json::Value = serde_json::from_str(SCHEMA).unwrap();
        assert_eq!(schema["$id"], SCHEMA_ID);
        assert_eq!(
            schema["properties"]["schema_version"]["const"],
            SCHEMA_VERSION
        );
    }

    #[test]
    fn the_envelope_carries_the_games_part_beside_who_it_is_for() {
        #[derive(Serialize)]
        struct Part {
            some_game: u8,
        }
        let to = Addressed {
            game: "some-game",
            campaign: "c1",
            day: 3,
            player: "Ann",
        };
        let (name, mime, bytes) = attachment(to, &Part { some_game: 7 }).unwrap();
        assert_eq!((name.as_str(), mime.as_str()), ("report-day-3.json", MIME));
        let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(doc["$schema"], SCHEMA_ID);
        assert_eq!(doc["schema_version"], 1);
        assert_eq!(doc["player"], "Ann");
        assert_eq!(doc["some_game"], 7);
    }
}
