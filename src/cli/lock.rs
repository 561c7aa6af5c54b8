//! The database's two locks, taken on the real
//! database found by [`super::db_path`].
//!
//! [`DaemonLock`]: one daemon per database. A second daemon would poll the
//! same mailboxes and send every mail twice, so it refuses to start. The
//! lock is an OS lock (`flock`) on the database file itself, so it belongs
//! to the file and not to a name: a symbolic link, a hard link or
//! `./x/../db` all reach the same lock. The holder's process id is written
//! beside the real file (`DB.daemon-pid`) for the refusal message.
//!
//! [`RoundLock`]: one change at a time. The daemon holds it while a round
//! works (its mail handling, in slices of a few seconds, then each
//! campaign's turn and mail), and `ingest` while it answers a mail; every
//! command that changes a campaign takes it first, waiting a bounded time,
//! so a `gm process` never interleaves with the daemon's run of the same
//! day. It lives in a file beside the real database (`DB.round-lock`): the
//! daemon's own `flock` on the database file would conflict with it.
//!
//! Why a `flock` on the database file leaves SQLite alone: SQLite locks the
//! file with POSIX `fcntl` byte-range locks, and on Linux `flock` and
//! `fcntl` locks are kept apart and never conflict (tested by
//! `tests/cli/daemon.rs`, where another process writes through SQLite while
//! the file is `flock`ed). One trap remains: a process loses every `fcntl`
//! lock it holds on a file as soon as it closes *any* descriptor of that
//! file, its SQLite connection's locks included. So the daemon opens the
//! database file once for the lock, before its connection, keeps that
//! descriptor for its whole life and closes it only after the connection
//! (`cli::daemon::run` drops them in that order), and nothing else in the
//! daemon opens the file outside SQLite. The round lock's file is another
//! file, so opening and closing it touches none of SQLite's locks. The
//! database must be on a local file system, as SQLite's WAL mode requires
//! anyway (NFS turns `flock` into `fcntl` locks).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;

/// How long a command waits for the daemon's round before giving up.
pub const ROUND_PATIENCE: Duration = Duration::from_secs(60);

/// How often a waiting command tries the round lock again.
const RETRY: Duration = Duration::from_millis(50);

/// How long the daemon leaves the round lock free between two slices of a
/// long piece of work: long enough for a waiting command, which tries every
/// [`RETRY`], to take it.
pub const GIVE_WAY: Duration = Duration::from_millis(150);

/// One daemon's hold on its database, while this value lives.
pub struct DaemonLock {
    _database: File,
}

impl DaemonLock {
    /// Take the daemon lock of the database whose real path is `real`.
    ///
    /// # Errors
    /// Another daemon holds it (the message names its process), or the
    /// database cannot be opened.
    pub fn take(real: &Path) -> anyhow::Result<DaemonLock> {
        let database = File::open(real)
            .with_context(|| format!("cannot open the database {}", real.display()))?;
        match database.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(beside(real, "daemon-pid"))
                    .map(|pid| format!(" (process {})", pid.trim()))
                    .unwrap_or_default();
                anyhow::bail!(
                    "another realmgm daemon{holder} already serves {}; stop it first, or give \
                     this one another database with --db",
                    real.display()
                );
            }
            Err(TryLockError::Error(error)) => {
                return Err(error).with_context(|| format!("cannot lock {}", real.display()));
            }
        }
        let pid = beside(real, "daemon-pid");
        let mut file =
            private_file(&pid, true).with_context(|| format!("cannot write {}", pid.display()))?;
        write!(file, "{}", std::process::id())?;
        Ok(DaemonLock {
            _database: database,
        })
    }
}

/// The right to change the database's campaigns, while this value lives.
pub struct RoundLock {
    _file: File,
}

impl RoundLock {
    /// Take the round lock of the database whose real path is `real`,
    /// waiting as long as the holder needs: the daemon's round and the
    /// `ingest` of one mail, which must not give up.
    ///
    /// # Errors
    /// The lock file cannot be opened or locked.
    pub fn hold(real: &Path) -> anyhow::Result<RoundLock> {
        let (file, path) = open_round_file(real)?;
        file.lock()
            .with_context(|| format!("cannot lock {}", path.display()))?;
        Ok(RoundLock { _file: file })
    }

    /// Take the round lock for a command, waiting at most `patience` for
    /// the daemon's round (or another command) to end.
    ///
    /// # Errors
    /// Still held after `patience`, or the lock file cannot be opened.
    pub fn wait(real: &Path, patience: Duration) -> anyhow::Result<RoundLock> {
        let (file, path) = open_round_file(real)?;
        let given_up = Instant::now() + patience;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(RoundLock { _file: file }),
                Err(TryLockError::WouldBlock) if Instant::now() < given_up => {
                    std::thread::sleep(RETRY);
                }
                Err(TryLockError::WouldBlock) => anyhow::bail!(
                    "the daemon is working on this database (or another realmgm command is, \
                     for over {} seconds); nothing was changed: try again in a moment",
                    patience.as_secs()
                ),
                Err(TryLockError::Error(error)) => {
                    return Err(error).with_context(|| format!("cannot lock {}", path.display()));
                }
            }
        }
    }
}

fn open_round_file(real: &Path) -> anyhow::Result<(File, PathBuf)> {
    let path = beside(real, "round-lock");
    let file = private_file(&path, false)
        .with_context(|| format!("cannot open the round lock {}", path.display()))?;
    Ok((file, path))
}

/// Open (creating or truncating) a file of the lock's, readable by this
/// user alone: `flock` needs only a descriptor, so another user who could
/// open the round lock could hold it and stop the daemon and every GM
/// command. One left by an older realmgm is closed to others where this
/// user owns it.
fn private_file(path: &Path, truncate: bool) -> std::io::Result<File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(truncate)
        .mode(0o600)
        .open(path)?;
    if file.metadata()?.permissions().mode() & 0o077 != 0 {
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// `realmgm.sqlite` → `realmgm.sqlite.SUFFIX`.
fn beside(real: &Path, suffix: &str) -> PathBuf {
    let mut name = real.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("realmgm-lock-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("realmgm.sqlite");
        std::fs::write(&db, b"").unwrap();
        db
    }

    #[test]
    fn a_second_daemon_on_the_same_file_is_refused_until_the_first_ends() {
        let db = database("daemon");
        let first = DaemonLock::take(&db).unwrap();
        let refused = DaemonLock::take(&db).err().expect("the second is refused");
        let message = format!("{refused:#}");
        assert!(
            message.contains(&format!(
                "another realmgm daemon (process {})",
                std::process::id()
            )),
            "{message}"
        );
        // The lock is the file's, whatever its name: another name of the
        // same file is refused too (`db_path` refuses such names before).
        let other_name = db.with_file_name("other.sqlite");
        std::fs::hard_link(&db, &other_name).unwrap();
        let refused = DaemonLock::take(&other_name).err().expect("refused too");
        assert!(
            format!("{refused:#}").contains("another realmgm daemon"),
            "{refused:#}"
        );
        drop(first);
        DaemonLock::take(&db).expect("free again once the first ends");
        let _ = std::fs::remove_dir_all(db.parent().unwrap());
    }

    #[test]
    fn a_command_waits_for_the_round_then_gives_up_with_the_reason() {
        let db = database("round");
        let round = RoundLock::hold(&db).unwrap();
        let started = Instant::now();
        let refused = RoundLock::wait(&db, Duration::from_millis(300))
            .err()
            .expect("held by the round");
        assert!(started.elapsed() >= Duration::from_millis(300));
        assert!(
            format!("{refused:#}").contains("the daemon is working on this database"),
            "{refused:#}"
        );
        drop(round);
        RoundLock::wait(&db, Duration::from_millis(300)).expect("free once the round ends");
        // The daemon lock on the database file does not stand in its way.
        let _daemon = DaemonLock::take(&db).unwrap();
        RoundLock::wait(&db, Duration::ZERO).expect("the round lock is another file's");
        let _ = std::fs::remove_dir_all(db.parent().unwrap());
    }

    #[test]
    fn the_lock_files_are_their_owners_alone_even_one_left_open_to_others() {
        use std::os::unix::fs::PermissionsExt;
        let db = database("modes");
        let round = beside(&db, "round-lock");
        std::fs::write(&round, b"").unwrap();
        std::fs::set_permissions(&round, std::fs::Permissions::from_mode(0o644)).unwrap();
        let _held = RoundLock::hold(&db).unwrap();
        let _daemon = DaemonLock::take(&db).unwrap();
        for file in [round, beside(&db, "daemon-pid")] {
            let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{}", file.display());
        }
        let _ = std::fs::remove_dir_all(db.parent().unwrap());
    }
}
