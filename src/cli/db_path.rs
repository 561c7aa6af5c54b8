//! The database's one name: SQLite keeps its write-ahead log
//! beside the name a program opens (`NAME-wal`), so two names for one file
//! give two logs: two views of one database, and changes one of them never
//! sees. realmgm therefore opens the database by its real path (every
//! symbolic link and `..` resolved), whatever path the GM typed, so the log
//! is always the real file's. Two cases cannot be made safe that way and
//! are refused with what to do:
//!
//! - a hard-linked file (more than one name in the file system): no name is
//!   more real than another, so another program may use the other name's
//!   log at any time;
//! - a link whose own log lies beside it (`LINK-wal` and not the real
//!   file's): an earlier program wrote through the link, and its last
//!   changes may be in that log alone.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The real path of the database named `typed`. A missing file is an error
/// unless `create`; then the path of the file to create, in the real folder.
///
/// # Errors
/// No database there (and not `create`), a link to a missing file, a
/// hard-linked file, a link with its own write-ahead log, or a folder that
/// cannot be read.
pub(crate) fn real_path(typed: &Path, create: bool) -> anyhow::Result<PathBuf> {
    if std::fs::symlink_metadata(typed).is_err() {
        if !create {
            let db = super::campaign::db_option(typed);
            bail!(
                "there is no database at {}; create a campaign first with `realmgm campaign new \
                 FILE{db}`, or name the database with --db or REALMGM_DB",
                typed.display()
            );
        }
        let folder = typed
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = typed
            .file_name()
            .with_context(|| format!("{} does not name a file", typed.display()))?;
        let folder = std::fs::canonicalize(folder).with_context(|| {
            format!(
                "cannot reach the folder {} of the database; make it first",
                folder.display()
            )
        })?;
        return Ok(folder.join(name));
    }
    let real = std::fs::canonicalize(typed).with_context(|| {
        format!(
            "{} is a link to a missing file; point it at the database, or name the database \
             itself with --db",
            typed.display()
        )
    })?;
    let names = std::fs::metadata(&real)
        .with_context(|| format!("cannot read {}", real.display()))?
        .nlink();
    if names > 1 {
        bail!(
            "the database {} has {names} names in the file system (hard links); SQLite keeps a \
             log beside each name, so two names are two views of one database. Stop every \
             realmgm that uses it, keep one name and remove the others (to have a second file, \
             copy it with `realmgm backup`, never link it)",
            real.display()
        );
    }
    let own_log = log_of(typed);
    if std::fs::symlink_metadata(&own_log).is_ok()
        && std::fs::canonicalize(&own_log).ok() != Some(log_of(&real))
    {
        bail!(
            "{} leads to the database {}, but has its own log {} beside it: a program wrote \
             through that name, and its last changes may be in that log alone. Stop every \
             program that uses the database, fold the log in with `sqlite3 {} 'PRAGMA \
             wal_checkpoint(TRUNCATE)'`, remove {}, and from then on name the database itself \
             with --db",
            typed.display(),
            real.display(),
            own_log.display(),
            typed.display(),
            own_log.display()
        );
    }
    Ok(real)
}

/// `NAME` → `NAME-wal`, where SQLite keeps the log of the database opened
/// by that name.
fn log_of(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("realmgm-dbpath-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::canonicalize(dir).unwrap()
    }

    #[test]
    fn every_way_to_the_file_gives_its_real_path() {
        let dir = folder("ways");
        let db = dir.join("realmgm.sqlite");
        std::fs::write(&db, b"").unwrap();
        std::fs::create_dir(dir.join("sub")).unwrap();
        std::os::unix::fs::symlink(&db, dir.join("link.sqlite")).unwrap();
        for typed in [
            db.clone(),
            dir.join("sub/../realmgm.sqlite"),
            dir.join("link.sqlite"),
        ] {
            assert_eq!(real_path(&typed, false).unwrap(), db, "{}", typed.display());
        }
        let new = real_path(&dir.join("sub/../new.sqlite"), true).unwrap();
        assert_eq!(new, dir.join("new.sqlite"));
        let missing = real_path(&dir.join("new.sqlite"), false).unwrap_err();
        assert!(format!("{missing:#}").contains("there is no database at"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_hard_link_and_a_link_with_its_own_log_are_refused() {
        let dir = folder("refused");
        let db = dir.join("realmgm.sqlite");
        std::fs::write(&db, b"").unwrap();
        let link = dir.join("link.sqlite");
        std::os::unix::fs::symlink(&db, &link).unwrap();
        // The real file's own log beside it is the one SQLite uses: fine.
        std::fs::write(dir.join("realmgm.sqlite-wal"), b"").unwrap();
        assert_eq!(real_path(&link, false).unwrap(), db);
        std::fs::write(dir.join("link.sqlite-wal"), b"").unwrap();
        let stray = format!("{:#}", real_path(&link, false).unwrap_err());
        assert!(stray.contains("has its own log"), "{stray}");
        assert!(stray.contains("wal_checkpoint(TRUNCATE)"), "{stray}");
        std::fs::hard_link(&db, dir.join("hard.sqlite")).unwrap();
        for typed in [&db, &dir.join("hard.sqlite")] {
            let hard = format!("{:#}", real_path(typed, false).unwrap_err());
            assert!(hard.contains("has 2 names in the file system"), "{hard}");
        }
        let dangling = dir.join("dangling.sqlite");
        std::os::unix::fs::symlink(dir.join("gone.sqlite"), &dangling).unwrap();
        let gone = format!("{:#}", real_path(&dangling, true).unwrap_err());
        assert!(gone.contains("is a link to a missing file"), "{gone}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
