//! Large texts and files stored compressed: a report's text,
//! HTML and map, and a queued mail's body, are most of what a campaign
//! stores, and they compress several times over. A value above
//! [`THRESHOLD`] bytes is written as a BLOB of [`MAGIC`] and its DEFLATE
//! stream; a smaller one, and every value written before this existed, is
//! stored as it is and read back unchanged, so no migration rewrites old
//! rows and small values stay readable with the `sqlite3` shell.

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec;
use rusqlite::ToSql;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, Value, ValueRef};

/// What starts a compressed value. A NUL byte never begins a stored text,
/// and no map picture or other attachment starts with these bytes.
const MAGIC: &[u8] = b"\0realmgm-deflate\0";
/// Values up to this size are stored as they are.
const THRESHOLD: usize = 1024;
/// DEFLATE level: 6 is the usual balance of size and time.
const LEVEL: u8 = 6;

/// A text stored compressed when large.
pub struct PackedText<'a>(pub &'a str);

/// Bytes stored compressed when large.
pub struct PackedBytes<'a>(pub &'a [u8]);

/// A stored text read back, compressed or not.
pub struct UnpackedText(pub String);

/// Stored bytes read back, compressed or not.
pub struct UnpackedBytes(pub Vec<u8>);

fn pack(bytes: &[u8]) -> Vec<u8> {
    let mut packed = MAGIC.to_vec();
    packed.extend(compress_to_vec(bytes, LEVEL));
    packed
}

fn unpack(stored: &[u8]) -> FromSqlResult<Vec<u8>> {
    match stored.strip_prefix(MAGIC) {
        Some(stream) => decompress_to_vec(stream)
            .map_err(|e| FromSqlError::Other(format!("a compressed value is damaged: {e}").into())),
        None => Ok(stored.to_vec()),
    }
}

/// `stored` read back, if it holds at most `limit` bytes: a compressed
/// value is inflated only up to the limit, so a small stored value that
/// would unpack to gigabytes is caught before anything reads it whole.
pub(super) fn unpacked_within(stored: &[u8], limit: usize) -> Option<Vec<u8>> {
    match stored.strip_prefix(MAGIC) {
        Some(stream) => miniz_oxide::inflate::decompress_to_vec_with_limit(stream, limit).ok(),
        None => (stored.len() <= limit).then(|| stored.to_vec()),
    }
}

/// `plain` for a small value, else `bytes` packed into a BLOB.
fn packed_unless_small<'a>(bytes: &[u8], plain: ToSqlOutput<'a>) -> ToSqlOutput<'a> {
    if bytes.len() > THRESHOLD {
        ToSqlOutput::Owned(Value::Blob(pack(bytes)))
    } else {
        plain
    }
}

impl ToSql for PackedText<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(packed_unless_small(
            self.0.as_bytes(),
            ToSqlOutput::from(self.0),
        ))
    }
}

impl ToSql for PackedBytes<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(packed_unless_small(self.0, ToSqlOutput::from(self.0)))
    }
}

impl FromSql for UnpackedBytes {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Blob(blob) | ValueRef::Text(blob) => unpack(blob).map(UnpackedBytes),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

impl FromSql for UnpackedText {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let UnpackedBytes(bytes) = UnpackedBytes::column_result(value)?;
        String::from_utf8(bytes)
            .map(UnpackedText)
            .map_err(|e| FromSqlError::Other(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    fn round_trip(text: &str) -> (String, &'static str) {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (v)").unwrap();
        conn.execute("INSERT INTO t VALUES (?1)", [PackedText(text)])
            .unwrap();
        let kind: String = conn
            .query_row("SELECT typeof(v) FROM t", [], |row| row.get(0))
            .unwrap();
        let back: UnpackedText = conn
            .query_row("SELECT v FROM t", [], |row| row.get(0))
            .unwrap();
        (back.0, if kind == "blob" { "packed" } else { "plain" })
    }

    #[test]
    fn a_large_text_is_stored_packed_and_read_back_whole() {
        let report = "Day 12: the Amazon hides in the Oak Woods. ".repeat(200);
        assert_eq!(round_trip(&report), (report.clone(), "packed"));
        assert_eq!(
            round_trip("orders received"),
            ("orders received".into(), "plain")
        );
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (v)").unwrap();
        conn.execute("INSERT INTO t VALUES (?1)", [PackedText(&report)])
            .unwrap();
        let stored: i64 = conn
            .query_row("SELECT length(v) FROM t", [], |row| row.get(0))
            .unwrap();
        assert!(
            stored * 10 < report.len() as i64,
            "{stored} of {}",
            report.len()
        );
    }

    #[test]
    fn values_stored_before_packing_and_damaged_ones_are_told_apart() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (v)").unwrap();
        let svg = format!("<svg>{}</svg>", "<rect/>".repeat(500));
        conn.execute("INSERT INTO t VALUES (?1)", [svg.as_bytes()])
            .unwrap();
        let back: UnpackedBytes = conn
            .query_row("SELECT v FROM t", [], |row| row.get(0))
            .unwrap();
        assert_eq!(back.0, svg.as_bytes(), "an old, unpacked file");
        let mut damaged = MAGIC.to_vec();
        damaged.extend_from_slice(b"not a deflate stream");
        conn.execute("UPDATE t SET v = ?1", [&damaged]).unwrap();
        let error = conn
            .query_row("SELECT v FROM t", [], |row| row.get::<_, UnpackedBytes>(0))
            .err()
            .unwrap();
        assert!(error.to_string().contains("damaged"), "{error}");
    }
}
