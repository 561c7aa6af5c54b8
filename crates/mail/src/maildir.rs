//! Read and write Maildir folders (`new/`, `cur/`, `tmp/`).
//!
//! The daemon reads `new/`, stores each message, and only after its database
//! commit asks to move it to `cur/` with the Seen flag: a crash in between
//! leaves the mail in `new/` to be read again, and the content hash makes
//! that second read harmless (reference pbem-practice.md §4 idea 2). Writing
//! follows the Maildir protocol (write into `tmp/`, then rename into `new/`)
//! and serves the file transport and the demo's player mailboxes. What
//! realmgm writes is its owner's alone: folders 0700, messages 0600, since
//! they carry players' secrets. A message a killed writer left half-written
//! in `tmp/` is removed once it is an hour old.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A file in `tmp/` older than this was left by a writer that died: no
/// delivery takes that long.
pub const PARTIAL_FILE_AGE: Duration = Duration::from_secs(3600);

/// A Maildir folder on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maildir {
    root: PathBuf,
}

/// Which subfolder a message sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subfolder {
    New,
    Cur,
}

/// One message file in a Maildir.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaildirEntry {
    /// The unique part of the file name (before any `:2,` info).
    pub id: String,
    pub subfolder: Subfolder,
    /// Flag letters after `:2,` (e.g. `S`), empty when none.
    pub flags: String,
    pub path: PathBuf,
}

/// A Maildir problem, naming the path involved.
#[derive(Debug, thiserror::Error)]
pub enum MaildirError {
    #[error(
        "{path} is not a Maildir (it has no {missing}/ subfolder); make its new/, cur/ and tmp/ folders (`mkdir -p {path}/new {path}/cur {path}/tmp`), or check the path"
    )]
    NotAMaildir {
        path: PathBuf,
        missing: &'static str,
    },
    #[error("cannot {action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> MaildirError {
    let path = path.to_path_buf();
    move |source| MaildirError::Io {
        action,
        path,
        source,
    }
}

impl Maildir {
    /// Open an existing Maildir; all of `new/`, `cur/` and `tmp/` must exist.
    ///
    /// # Errors
    /// [`MaildirError::NotAMaildir`] naming the missing subfolder.
    pub fn open(root: impl Into<PathBuf>) -> Result<Maildir, MaildirError> {
        let root = root.into();
        for sub in ["new", "cur", "tmp"] {
            if !root.join(sub).is_dir() {
                return Err(MaildirError::NotAMaildir {
                    path: root,
                    missing: sub,
                });
            }
        }
        Ok(Maildir { root })
    }

    /// Open a Maildir, creating it and its subfolders when missing; the
    /// folders it creates are its owner's alone (0700). Existing folders
    /// keep their mode.
    ///
    /// # Errors
    /// When a folder cannot be created.
    pub fn create(root: impl Into<PathBuf>) -> Result<Maildir, MaildirError> {
        let root = root.into();
        for sub in ["new", "cur", "tmp"] {
            let dir = root.join(sub);
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&dir)
                .map_err(io("create", &dir))?;
        }
        Ok(Maildir { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Messages in `new/` and then `cur/`, each sorted by file name (which
    /// starts with the delivery time for well-behaved writers).
    ///
    /// # Errors
    /// When a folder cannot be listed.
    pub fn list(&self) -> Result<Vec<MaildirEntry>, MaildirError> {
        let mut all = self.list_in(Subfolder::New)?;
        all.extend(self.list_in(Subfolder::Cur)?);
        Ok(all)
    }

    /// Unprocessed messages (those in `new/`), sorted by file name.
    ///
    /// # Errors
    /// When the folder cannot be listed.
    pub fn list_new(&self) -> Result<Vec<MaildirEntry>, MaildirError> {
        self.list_in(Subfolder::New)
    }

    fn list_in(&self, subfolder: Subfolder) -> Result<Vec<MaildirEntry>, MaildirError> {
        let dir = self.root.join(match subfolder {
            Subfolder::New => "new",
            Subfolder::Cur => "cur",
        });
        let mut entries = Vec::new();
        for item in fs::read_dir(&dir).map_err(io("list", &dir))? {
            let item = item.map_err(io("list", &dir))?;
            let name = item.file_name().to_string_lossy().into_owned();
            // Hidden files are editor or client leftovers, not messages.
            if name.starts_with('.') || !item.path().is_file() {
                continue;
            }
            let (id, flags) = match name.split_once(":2,") {
                Some((id, flags)) => (id.to_string(), flags.to_string()),
                None => (name.clone(), String::new()),
            };
            entries.push(MaildirEntry {
                id,
                subfolder,
                flags,
                path: item.path(),
            });
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(entries)
    }

    /// The raw bytes of a message.
    ///
    /// # Errors
    /// When the file cannot be read (e.g. another process moved it).
    pub fn read(&self, entry: &MaildirEntry) -> Result<Vec<u8>, MaildirError> {
        fs::read(&entry.path).map_err(io("read", &entry.path))
    }

    /// Mark a message processed: move it from `new/` to `cur/` with the Seen
    /// flag (`:2,S`), or add `S` to its flags when it is already in `cur/`.
    /// Call this only after the message is safely stored.
    ///
    /// # Errors
    /// When the rename fails.
    pub fn mark_processed(&self, entry: &MaildirEntry) -> Result<MaildirEntry, MaildirError> {
        let mut flags: Vec<char> = entry.flags.chars().collect();
        if !flags.contains(&'S') {
            flags.push('S');
        }
        // Maildir flags are kept in ASCII order.
        flags.sort_unstable();
        let flags: String = flags.into_iter().collect();
        let target = self
            .root
            .join("cur")
            .join(format!("{}:2,{flags}", entry.id));
        if target != entry.path {
            fs::rename(&entry.path, &target).map_err(io("move", &entry.path))?;
        }
        Ok(MaildirEntry {
            id: entry.id.clone(),
            subfolder: Subfolder::Cur,
            flags,
            path: target,
        })
    }

    /// Deliver a message into `new/`: written to `tmp/` first, synced, then
    /// renamed, so a reader never sees half a message.
    ///
    /// # Errors
    /// When the file cannot be written or moved.
    pub fn deliver(&self, raw: &[u8]) -> Result<MaildirEntry, MaildirError> {
        let id = unique_name();
        let tmp = self.root.join("tmp").join(&id);
        let new = self.root.join("new").join(&id);
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)
            .map_err(io("create", &tmp))?;
        file.write_all(raw).map_err(io("write", &tmp))?;
        file.sync_all().map_err(io("sync", &tmp))?;
        drop(file);
        fs::rename(&tmp, &new).map_err(io("move", &tmp))?;
        Ok(MaildirEntry {
            id,
            subfolder: Subfolder::New,
            flags: String::new(),
            path: new,
        })
    }

    /// Remove the files in `tmp/` last written more than
    /// [`PARTIAL_FILE_AGE`] before `now`: halves of messages whose writer
    /// was killed, which no one will ever finish or read. Returns how many
    /// were removed.
    ///
    /// # Errors
    /// When `tmp/` cannot be listed or a file cannot be removed.
    pub fn remove_partial_files(&self, now: SystemTime) -> Result<usize, MaildirError> {
        let dir = self.root.join("tmp");
        let mut removed = 0;
        for item in fs::read_dir(&dir).map_err(io("list", &dir))? {
            let item = item.map_err(io("list", &dir))?;
            let path = item.path();
            let metadata = item.metadata().map_err(io("read", &path))?;
            // A clock set back makes every age zero: nothing is removed.
            let age = metadata
                .modified()
                .ok()
                .and_then(|written| now.duration_since(written).ok())
                .unwrap_or_default();
            if metadata.is_file() && age > PARTIAL_FILE_AGE {
                fs::remove_file(&path).map_err(io("remove", &path))?;
                removed += 1;
            }
        }
        Ok(removed)
    }
}

/// A Maildir file name: `<seconds>.M<micros>P<pid>Q<counter>.realmgm`,
/// unique within this process and across processes on one host. The
/// microseconds have six digits, so names sort in delivery order (an
/// unpadded `M99648` would sort after `M100172`).
fn unique_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let counter = COUNTER.fetch_add(1, Ordering::Relaxed);
    name_at(
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        counter,
    )
}

fn name_at(seconds: u64, micros: u32, pid: u32, counter: u64) -> String {
    format!("{seconds}.M{micros:06}P{pid}Q{counter}.realmgm")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "realmgm-maildir-{name}-{}-{}",
            std::process::id(),
            unique_name()
        ));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn open_requires_the_subfolders() {
        let dir = scratch("open");
        fs::create_dir_all(dir.join("new")).unwrap();
        let err = Maildir::open(&dir).unwrap_err();
        assert!(err.to_string().contains("no cur/ subfolder"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_sort_in_delivery_order() {
        let earlier = name_at(1_700_000_000, 99_648, 7, 1);
        let later = name_at(1_700_000_000, 100_172, 7, 2);
        assert_eq!(earlier, "1700000000.M099648P7Q1.realmgm");
        assert!(earlier < later, "{earlier} must sort before {later}");
    }

    #[test]
    fn deliver_list_read_and_mark() {
        let dir = scratch("cycle");
        let maildir = Maildir::create(&dir).unwrap();
        let first = maildir.deliver(b"Subject: one\r\n\r\nx").unwrap();
        let second = maildir.deliver(b"Subject: two\r\n\r\ny").unwrap();
        fs::write(dir.join("new").join(".hidden"), b"junk").unwrap();
        let listed = maildir.list_new().unwrap();
        assert_eq!(listed, vec![first.clone(), second.clone()]);
        assert_eq!(maildir.read(&first).unwrap(), b"Subject: one\r\n\r\nx");

        // Reading alone never moves anything.
        assert_eq!(maildir.list_new().unwrap().len(), 2);
        let moved = maildir.mark_processed(&first).unwrap();
        assert_eq!(moved.subfolder, Subfolder::Cur);
        assert!(moved.path.to_string_lossy().ends_with(":2,S"));
        assert_eq!(maildir.list_new().unwrap(), vec![second]);
        assert_eq!(maildir.list().unwrap().len(), 2);
        assert!(fs::read_dir(dir.join("tmp")).unwrap().next().is_none());

        // Marking again keeps one S and sorted flags.
        let mut flagged = moved.clone();
        flagged.flags = "RS".into();
        let renamed_path = dir.join("cur").join(format!("{}:2,RS", moved.id));
        fs::rename(&moved.path, &renamed_path).unwrap();
        flagged.path = renamed_path.clone();
        let again = maildir.mark_processed(&flagged).unwrap();
        assert_eq!(again.flags, "RS");
        assert_eq!(again.path, renamed_path);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reading_a_vanished_message_is_an_error_naming_it() {
        let dir = scratch("vanished");
        let maildir = Maildir::create(&dir).unwrap();
        let entry = maildir.deliver(b"x").unwrap();
        fs::remove_file(&entry.path).unwrap();
        let err = maildir.read(&entry).unwrap_err();
        assert!(err.to_string().contains(&entry.id), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
