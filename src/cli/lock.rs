//! One daemon per database (issue 19 §2): a second `realmgm daemon` on the
//! same database would poll the same mailboxes and send every mail twice,
//! so it refuses to start. The lock is an OS file lock on `DB.daemon-lock`
//! beside the database, released when the daemon ends however it ends; the
//! file holds the holder's process id for the message.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// The lock, held while this value lives.
pub struct DaemonLock {
    _file: File,
}

impl DaemonLock {
    /// Take the lock of the database at `db`.
    ///
    /// # Errors
    /// Another daemon holds it (the message names its process), or the
    /// lock file cannot be opened.
    pub fn take(db: &Path) -> anyhow::Result<DaemonLock> {
        let path = lock_path(db);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("cannot open the daemon lock {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                anyhow::bail!(
                    "another realmgm daemon (process {}) already serves {}; stop it first, or \
                     give this one another database with --db",
                    holder.trim(),
                    db.display()
                );
            }
            Err(TryLockError::Error(error)) => {
                return Err(error).with_context(|| format!("cannot lock {}", path.display()));
            }
        }
        file.set_len(0)?;
        file.rewind()?;
        write!(file, "{}", std::process::id())?;
        file.flush()?;
        Ok(DaemonLock { _file: file })
    }
}

/// `realmgm.sqlite` → `realmgm.sqlite.daemon-lock`.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".daemon-lock");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_daemon_on_the_same_database_is_refused_until_the_first_ends() {
        let dir = std::env::temp_dir().join(format!("realmgm-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("realmgm.sqlite");
        let first = DaemonLock::take(&db).unwrap();
        let refused = DaemonLock::take(&db).err().expect("the second is refused");
        let message = format!("{refused:#}");
        assert!(
            message.contains(&format!("process {}", std::process::id())),
            "{message}"
        );
        drop(first);
        DaemonLock::take(&db).expect("free again once the first ends");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
