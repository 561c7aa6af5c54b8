//! A copy of the live database, safe while the daemon runs:
//! SQLite's online backup copies the pages in small steps, each a consistent
//! read, pausing between them so the daemon's writes go on; a write during
//! the copy makes SQLite restart it, so the copy is one moment's database.

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, Progress};

use super::{Store, StoreError};

/// Pages copied per step, and the pause between steps.
const PAGES_PER_STEP: std::os::raw::c_int = 256;
const PAUSE: Duration = Duration::from_millis(5);

impl Store {
    /// Copy the whole database to a new file at `to`, calling `progress`
    /// after each step. Returns the number of pages copied.
    ///
    /// # Errors
    /// `to` exists already, or the copy fails (nothing usable is left at
    /// `to` then).
    pub fn backup_to(&self, to: &Path, progress: Option<fn(Progress)>) -> Result<i32, StoreError> {
        // Made here, owner-only and never over an existing file, before
        // SQLite opens it.
        super::create_new_private(to, StoreError::BackupExists)?;
        let mut target = match rusqlite::Connection::open(to) {
            Ok(target) => target,
            Err(error) => {
                let _ = std::fs::remove_file(to);
                return Err(error.into());
            }
        };
        let result = (|| {
            let backup = Backup::new(&self.conn, &mut target)?;
            backup.run_to_completion(PAGES_PER_STEP, PAUSE, progress)?;
            Ok(backup.progress().pagecount)
        })();
        if result.is_err() {
            drop(target);
            let _ = std::fs::remove_file(to);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backup_is_a_whole_database_and_never_overwrites_one() {
        let dir = std::env::temp_dir().join(format!("realmgm-backup-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let live = Store::open(&dir.join("live.sqlite"), crate::TEST_GAMES).unwrap();
        live.conn
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (42);")
            .unwrap();
        let copy = dir.join("copy.sqlite");
        let pages = live.backup_to(&copy, None).unwrap();
        assert!(pages > 0);
        let restored = Store::open(&copy, crate::TEST_GAMES).unwrap();
        assert_eq!(
            restored.schema_version().unwrap(),
            live.schema_version().unwrap()
        );
        let x: i64 = restored
            .conn
            .query_row("SELECT x FROM t", [], |row| row.get(0))
            .unwrap();
        assert_eq!(x, 42);
        let again = live.backup_to(&copy, None).unwrap_err();
        assert!(again.to_string().contains("exists already"), "{again}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
