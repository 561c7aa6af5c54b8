//! The checks an export file passes before `campaign import` copies
//! anything from it: a file another GM sent is data, never
//! code, and never touched.
//!
//! The file is copied to a private temporary folder first and only the copy
//! is opened, so the file the GM was given is never written (not even by
//! SQLite's journal recovery) and cannot change between the checks and the
//! copy. The copy must be sound (SQLite's integrity check), carry a schema
//! version this realmgm knows, and have exactly the tables, columns and
//! indexes that version has: nothing more, so no view, trigger or renamed
//! column can run or be named by the import. An older copy is then migrated.
//! Its rows must hold one campaign and nothing else, values of the declared
//! kinds and of sane sizes, references that stay inside that campaign, and
//! names, tags and addresses that `campaign new` would accept.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::config::DbConfig;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, params};

use super::{HOST_TABLES, Id, TABLES, quoted};
use crate::campaign::{Campaign, Email, is_valid_tag, player_name_problem};
use crate::game::Games;
use crate::store::{SCHEMA_VERSION, Store, StoreError, migrate, packed};

/// The largest export file accepted. The demo's week (3 players, 7 days)
/// exports to 0.8 MB, about 38 KB a player-day; a year-long campaign of 16
/// players (13 months of 28 days) is about 5,800 player-days, some 220 MB.
/// The cap leaves four times that.
const MAX_FILE_BYTES: u64 = 1 << 30;

/// The largest value of a BLOB column: raw mail and attachments. Mail
/// providers take messages up to about 25 MB of attachments, a third more
/// once encoded; 64 MiB holds that with room.
const MAX_BLOB_BYTES: usize = 64 << 20;

/// The largest value of any other column, unpacked. The demo's largest
/// day state is 24 KB for 3 players; 16 players late in a long game stay
/// under 1 MB, and reports and queued mails are smaller. 16 MiB is sixteen
/// times that.
const MAX_TEXT_BYTES: usize = 16 << 20;

/// The most characters of a name from the file quoted in a refusal.
const SHOWN_CHARS: usize = 40;
/// The most characters of an error message quoted in a refusal (it may
/// name what the file holds).
const SHOWN_ERROR_CHARS: usize = 400;

/// An export file that passed every check: a private, migrated copy of it,
/// removed when this is dropped, and its one campaign.
pub(in crate::store) struct CheckedExport {
    copy: PrivateCopy,
    pub campaign_id: i64,
    pub name: String,
}

impl CheckedExport {
    /// The checked copy, to attach and copy from.
    pub fn path(&self) -> &Path {
        &self.copy.file
    }
}

/// Check the export file `from` as [`CheckedExport`] says.
///
/// # Errors
/// [`StoreError::NotAnExport`] naming the first problem found, or
/// [`StoreError::ImportCopy`] when the private copy cannot be made.
pub(in crate::store) fn check_export(
    from: &Path,
    games: Games,
) -> Result<CheckedExport, StoreError> {
    let refused = |why: String| StoreError::NotAnExport {
        file: from.display().to_string(),
        why: format!(
            "{}. Nothing was imported; ask its sender for a new `realmgm campaign export`",
            cleaned(&why, usize::MAX)
        ),
    };
    if !from.is_file() {
        let why = if from.exists() {
            "it is a folder or a device, not a file"
        } else {
            "there is no such file"
        };
        return Err(StoreError::NotAnExport {
            file: from.display().to_string(),
            why: why.to_string(),
        });
    }
    let copy = PrivateCopy::of(from).map_err(|error| match error {
        CopyError::TooLarge => refused(format!(
            "it is larger than {} MB, more than a year of a large campaign needs",
            MAX_FILE_BYTES >> 20
        )),
        CopyError::Io(error) => StoreError::ImportCopy {
            file: from.display().to_string(),
            error: error.to_string(),
        },
    })?;
    let (campaign_id, name) = check_copy(&copy.file, games).map_err(|problem| match problem {
        Problem::Refused(why) => refused(why),
        Problem::Sqlite(e) => refused(format!(
            "SQLite cannot read it ({})",
            cleaned(&e.to_string(), SHOWN_ERROR_CHARS)
        )),
        Problem::Store(e) => refused(cleaned(&e.to_string(), SHOWN_ERROR_CHARS)),
    })?;
    Ok(CheckedExport {
        copy,
        campaign_id,
        name,
    })
}

/// Why a copy was refused.
enum Problem {
    Refused(String),
    Sqlite(rusqlite::Error),
    Store(StoreError),
}

impl From<rusqlite::Error> for Problem {
    fn from(error: rusqlite::Error) -> Problem {
        Problem::Sqlite(error)
    }
}

impl From<StoreError> for Problem {
    fn from(error: StoreError) -> Problem {
        match error {
            StoreError::Sqlite(e) => Problem::Sqlite(e),
            other => Problem::Store(other),
        }
    }
}

fn refuse<T>(why: String) -> Result<T, Problem> {
    Err(Problem::Refused(why))
}

/// The checks on the private copy; returns its campaign's id and name.
fn check_copy(copy: &Path, games: Games) -> Result<(i64, String), Problem> {
    let conn = Connection::open(copy)?;
    // SQLite's own advice for reading files from elsewhere: no schema
    // function with side effects, no writes that bypass the b-tree, and
    // every cell's size checked as it is read.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
    conn.pragma_update(None, "cell_size_check", true)?;
    let verdict: String = conn.query_row("PRAGMA integrity_check(1)", [], |row| row.get(0))?;
    if verdict != "ok" {
        return refuse(format!(
            "it is damaged (SQLite's integrity check found: {})",
            shown(&verdict)
        ));
    }
    let version: u32 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if version == 0 {
        return refuse("it has no realmgm schema version, so realmgm did not write it".to_string());
    }
    if version > SCHEMA_VERSION {
        return refuse(format!(
            "it was written by a newer realmgm (schema version {version}; this one knows up to \
             {SCHEMA_VERSION}); import it with that realmgm or a newer one"
        ));
    }
    check_schema(&conn, version)?;
    // Only the private copy is migrated; the checks below see the rows as
    // this realmgm will hold them.
    let store = Store::migrated(conn, SCHEMA_VERSION, games)?;
    let conn = &store.conn;
    check_values(conn)?;
    let campaigns: Vec<(i64, String)> = conn
        .prepare("SELECT id, name FROM campaigns")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let [(id, name)] = campaigns.as_slice() else {
        return refuse(format!(
            "it holds {} campaigns, where an export holds one",
            campaigns.len()
        ));
    };
    check_rows_belong(conn, *id)?;
    check_names(conn, *id, name, games)?;
    Ok((*id, name.clone()))
}

/// The file's tables, columns and indexes are exactly those realmgm's
/// schema version `version` has.
fn check_schema(conn: &Connection, version: u32) -> Result<(), Problem> {
    let mut reference = Connection::open_in_memory()?;
    migrate(&mut reference, version)?;
    let expected = schema_objects(&reference)?;
    let found = schema_objects(conn)?;
    let known = format!("realmgm's schema version {version}");
    for (name, (kind, sql)) in &found {
        let Some((expected_kind, expected_sql)) = expected.get(name) else {
            return refuse(format!("its {kind} {} is not part of {known}", shown(name)));
        };
        if kind != expected_kind || sql != expected_sql {
            if kind == "table" && expected_kind == "table" {
                let columns = column_names(conn, name)?;
                let expected_columns = column_names(&reference, name)?;
                if let Some(extra) = columns.iter().find(|c| !expected_columns.contains(c)) {
                    return refuse(format!(
                        "its table {name} has a column {} that {known} does not have",
                        shown(extra)
                    ));
                }
                if let Some(missing) = expected_columns.iter().find(|c| !columns.contains(c)) {
                    return refuse(format!("its table {name} lacks the column {missing}"));
                }
            }
            return refuse(format!(
                "its {kind} {name} is not defined the way {known} defines it"
            ));
        }
    }
    if let Some((name, (kind, _))) = expected.iter().find(|(name, _)| !found.contains_key(*name)) {
        return refuse(format!("it lacks the {kind} {name} of {known}"));
    }
    Ok(())
}

/// Every object of the schema by name: its kind and its SQL with the
/// spacing evened out.
fn schema_objects(
    conn: &Connection,
) -> Result<BTreeMap<String, (String, Option<String>)>, rusqlite::Error> {
    conn.prepare("SELECT name, type, sql FROM sqlite_schema")?
        .query_map([], |row| {
            let sql: Option<String> = row.get(2)?;
            Ok((
                row.get(0)?,
                (
                    row.get(1)?,
                    sql.map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")),
                ),
            ))
        })?
        .collect()
}

fn column_names(conn: &Connection, table: &str) -> Result<Vec<String>, rusqlite::Error> {
    conn.prepare("SELECT name FROM pragma_table_info(?1)")?
        .query_map(params![table], |row| row.get(0))?
        .collect()
}

/// Every value is of its column's kind and of a sane size: an integer
/// where the schema says INTEGER (a text there would stop `campaign list`
/// for every campaign), a day a day number, and no text or bytes beyond
/// the caps, measured unpacked.
fn check_values(conn: &Connection) -> Result<(), Problem> {
    let tables = TABLES
        .iter()
        .map(|t| t.name)
        .chain(HOST_TABLES.iter().copied());
    for table in tables {
        let columns: Vec<(String, String)> = conn
            .prepare("SELECT name, upper(type) FROM pragma_table_info(?1)")?
            .query_map(params![table], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<_, _>>()?;
        for (column, kind) in &columns {
            let c = quoted(column);
            let (allowed, described) = if kind == "INTEGER" {
                ("'integer', 'null'", "whole numbers")
            } else {
                ("'text', 'blob', 'null'", "text or bytes")
            };
            // Read back as u32: days, and the rules version of a day's run.
            let is_day = column == "day" || column.ends_with("_day") || column == "rules_version";
            let bad: i64 = conn.query_row(
                &format!(
                    "SELECT COUNT(*) FROM {t} WHERE typeof({c}) NOT IN ({allowed}) \
                     OR ({is_day} AND {c} NOT BETWEEN 0 AND 4294967295)",
                    t = quoted(table),
                ),
                [],
                |row| row.get(0),
            )?;
            if bad > 0 {
                return refuse(format!(
                    "its table {table} has {bad} values in column {column} that are not \
                     {described}{}",
                    if is_day { " of a day number" } else { "" }
                ));
            }
            if kind == "INTEGER" {
                continue;
            }
            let cap = if kind == "BLOB" {
                MAX_BLOB_BYTES
            } else {
                MAX_TEXT_BYTES
            };
            check_contents(conn, table, column, kind, cap)?;
        }
    }
    Ok(())
}

/// No value of `table.column` (of declared type `kind`) holds more than
/// `cap` bytes, unpacked, and its texts are UTF-8.
fn check_contents(
    conn: &Connection,
    table: &str,
    column: &str,
    kind: &str,
    cap: usize,
) -> Result<(), Problem> {
    let c = quoted(column);
    let t = quoted(table);
    let largest: Option<i64> = conn.query_row(
        &format!("SELECT MAX(octet_length({c})) FROM {t}"),
        [],
        |row| row.get(0),
    )?;
    let too_large = |size: String| {
        format!(
            "a value in column {column} of its table {table} holds {size}, more than the {} MB \
             realmgm accepts there",
            cap >> 20
        )
    };
    if let Some(size) = largest.filter(|&n| n > cap as i64) {
        return refuse(too_large(format!("{size} bytes")));
    }
    // Every value is read once more: a compressed one (it starts with a
    // NUL byte, which no stored text does) must unpack within the cap, and
    // a text must be UTF-8, or every later read of its row would fail.
    let is_text_column = kind != "BLOB";
    let mut statement = conn.prepare(&format!(
        "SELECT {c} FROM {t} WHERE typeof({c}) IN ('text', 'blob')"
    ))?;
    let mut rows = statement.query([])?;
    while let Some(row) = rows.next()? {
        let (stored, is_text) = match row.get_ref(0)? {
            ValueRef::Text(text) => (text, true),
            ValueRef::Blob(bytes) => (bytes, false),
            _ => continue,
        };
        let unpacked = if stored.first() == Some(&0) {
            let Some(unpacked) = packed::unpacked_within(stored, cap) else {
                return refuse(too_large("more once unpacked".to_string()));
            };
            Cow::Owned(unpacked)
        } else {
            Cow::Borrowed(stored)
        };
        if (is_text || is_text_column) && std::str::from_utf8(&unpacked).is_err() {
            return refuse(format!(
                "a text in column {column} of its table {table} is not UTF-8"
            ));
        }
    }
    Ok(())
}

/// Every row belongs to the one campaign, the way the import picks rows:
/// a row the import would leave behind means the file is not what
/// `campaign export` writes, so it is refused rather than silently
/// skipped. References stay inside the file, and renumbered ids are
/// positive, so no row can point at another campaign of the receiving
/// database.
fn check_rows_belong(conn: &Connection, campaign: i64) -> Result<(), Problem> {
    let count =
        |sql: &str| -> Result<i64, rusqlite::Error> { conn.query_row(sql, [], |row| row.get(0)) };
    for table in TABLES {
        let t = quoted(table.name);
        let all = count(&format!("SELECT COUNT(*) FROM {t}"))?;
        let picked = count(&format!(
            "SELECT COUNT(*) FROM {t} s WHERE {}",
            table.rows_of("main", campaign)
        ))?;
        if all != picked {
            return refuse(format!(
                "{} rows of its table {} belong to no campaign of the file or to another one",
                all - picked,
                table.name
            ));
        }
        if let Id::Shifted(_) = table.id {
            let bad = count(&format!("SELECT COUNT(*) FROM {t} WHERE id < 1"))?;
            if bad > 0 {
                return refuse(format!(
                    "{bad} rows of its table {} have an id below 1",
                    table.name
                ));
            }
        }
        for (column, reference) in table.references {
            let dangling = count(&format!(
                "SELECT COUNT(*) FROM {t} WHERE {c} IS NOT NULL AND {c} NOT IN \
                 (SELECT id FROM {target})",
                c = quoted(column),
                target = quoted(reference.table()),
            ))?;
            if dangling > 0 {
                return refuse(format!(
                    "{dangling} rows of its table {} name in {column} a row of {} that the \
                     file does not hold",
                    table.name,
                    reference.table()
                ));
            }
        }
    }
    for table in HOST_TABLES {
        if count(&format!("SELECT COUNT(*) FROM {}", quoted(table)))? > 0 {
            return refuse(format!(
                "its table {table} has rows, which belong to a host and never to an export"
            ));
        }
    }
    Ok(())
}

/// The campaign's tag and file, its players' names and addresses, and the
/// addresses its queued mail goes to pass what `campaign new` and
/// `add-player` ask.
fn check_names(conn: &Connection, campaign: i64, tag: &str, games: Games) -> Result<(), Problem> {
    if !is_valid_tag(tag) {
        return refuse(format!(
            "its campaign is named {}, which cannot be a campaign tag (1 to {} letters, digits, \
             '-' or '_')",
            shown(tag),
            crate::campaign::MAX_TAG_LEN
        ));
    }
    let (game, file_text, json): (String, String, String) = conn.query_row(
        "SELECT game, file_text, parsed_json FROM campaigns WHERE id = ?1",
        params![campaign],
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )?;
    // The campaign file passes what `campaign new` checks, and the settings
    // stored beside it (what the daemon reads) are that file's.
    let stored = Campaign::parse_stored(&format!("the campaign file of {tag}"), &file_text, games)
        .map_err(|e| Problem::Refused(format!("its campaign file is refused: {e}")))?;
    // A file that names no rules version leaves the campaign's own, which
    // an export from before versions were recorded does not write (the
    // first).
    let settings_differ = serde_json::from_str::<Campaign>(&json)
        .is_ok_and(|c| c != crate::campaign::edit::as_meant(&c, stored.clone(), &file_text));
    if stored.name != tag || stored.game != game || settings_differ {
        return refuse(format!(
            "its campaign {tag} is stored with settings its campaign file does not give"
        ));
    }
    let players: Vec<(String, String, Option<String>)> = conn
        .prepare("SELECT name, email, character FROM players WHERE campaign_id = ?1")?
        .query_map(params![campaign], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    // Players who joined later are in the table only.
    for (name, ..) in &players {
        if let Some(why) = player_name_problem(name) {
            return refuse(format!(
                "its player {} has a name that cannot be: {why}",
                shown(name)
            ));
        }
    }
    let mut addresses: Vec<String> = vec![stored.gm.email.folded()];
    for (name, email, character) in &players {
        let email = Email::try_from(email.clone()).map_err(|e| {
            Problem::Refused(format!(
                "its player {name} has an address that cannot be: {}",
                shown(&e.to_string())
            ))
        })?;
        addresses.push(email.folded());
        if character
            .as_deref()
            .is_some_and(|c| c.chars().any(char::is_control))
        {
            return refuse(format!(
                "its player {name} plays a character whose name holds control characters"
            ));
        }
    }
    addresses.extend(
        stored
            .players
            .iter()
            .flat_map(|p| p.addresses().map(Email::folded)),
    );
    let recipients: Vec<String> = conn
        .prepare("SELECT DISTINCT recipient FROM outbox WHERE status = 'pending'")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    // A team's seat gets one mail naming all its addresses.
    let each = recipients
        .iter()
        .flat_map(|line| line.split(',').map(str::trim));
    for recipient in each {
        if !addresses.contains(&recipient.to_ascii_lowercase()) {
            return refuse(format!(
                "it holds mail waiting to be sent to {}, who is neither its GM nor one of its \
                 players",
                shown(recipient)
            ));
        }
    }
    Ok(())
}

/// A name from the file as a refusal quotes it, see [`cleaned`].
fn shown(text: &str) -> String {
    format!("'{}'", cleaned(text, SHOWN_CHARS))
}

/// At most `limit` characters of a text from the file, with every control
/// character (a line break would start a mail header or a log line) shown
/// as '?'.
fn cleaned(text: &str, limit: usize) -> String {
    let mut cleaned: String = text
        .chars()
        .take(limit)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(limit).is_some() {
        cleaned.push_str("...");
    }
    cleaned
}

/// A copy of a file in a folder only this user can read, removed with it.
struct PrivateCopy {
    folder: PathBuf,
    file: PathBuf,
}

enum CopyError {
    TooLarge,
    Io(std::io::Error),
}

impl From<std::io::Error> for CopyError {
    fn from(error: std::io::Error) -> CopyError {
        CopyError::Io(error)
    }
}

impl PrivateCopy {
    fn of(from: &Path) -> Result<PrivateCopy, CopyError> {
        static MADE: AtomicU64 = AtomicU64::new(0);
        if std::fs::metadata(from)?.len() > MAX_FILE_BYTES {
            return Err(CopyError::TooLarge);
        }
        let folder = std::env::temp_dir().join(format!(
            "realmgm-import-{}-{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        // Creating it anew (never reusing one found there) keeps another
        // user's folder or link out of the way.
        builder.create(&folder)?;
        let copy = PrivateCopy {
            file: folder.join("export.sqlite"),
            folder,
        };
        let mut source = std::fs::File::open(from)?.take(MAX_FILE_BYTES + 1);
        let mut target = std::fs::File::create_new(&copy.file)?;
        // The file may grow while it is read: the cap holds for what is read.
        if std::io::copy(&mut source, &mut target)? > MAX_FILE_BYTES {
            return Err(CopyError::TooLarge);
        }
        Ok(copy)
    }
}

impl Drop for PrivateCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}
