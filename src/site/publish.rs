//! Replacing a published site in one step (issue 20 §3): a reader, or a web
//! server, never sees a half-written site.
//!
//! The folder the GM names (`--out`, `[site] out`) is a symbolic link to
//! the version last written, kept beside it in `.NAME.versions/N`. A build
//! writes a new version completely, then points a fresh link at it and
//! renames that link over the old one: `rename(2)` replaces it atomically.
//! The version before stays, for a reader in the middle of a page; older
//! ones are removed. Web servers follow the link; to upload the pages,
//! copy the folder (`cp -rL`, `rsync -L`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The file in each version naming what it was built from.
pub const MARKER: &str = ".realmgm-site";

/// Write `files` (path inside the site → bytes) as the new version of the
/// site at `out`, with `fingerprint` in its marker, and switch `out` to it.
///
/// # Errors
/// `out` is a folder or file realmgm did not make, or the disk fails.
pub fn replace(
    out: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    fingerprint: &str,
) -> anyhow::Result<()> {
    let (parent, name) = split(out)?;
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create the folder {}", parent.display()))?;
    match std::fs::symlink_metadata(out) {
        Ok(meta) if meta.file_type().is_symlink() => {}
        Ok(meta) if meta.is_dir() && is_empty(out) => std::fs::remove_dir(out)
            .with_context(|| format!("cannot replace the empty folder {}", out.display()))?,
        Ok(_) => bail!(
            "{} exists and is not a site realmgm built (a link to a version in {}); choose \
             another folder, or move it away",
            out.display(),
            versions_dir(&parent, &name).display()
        ),
        Err(_) => {}
    }
    let versions = versions_dir(&parent, &name);
    std::fs::create_dir_all(&versions)
        .with_context(|| format!("cannot create {}", versions.display()))?;
    let number = numbered(&versions)?.last().map_or(1, |n| n + 1);
    let staging = versions.join(format!("{number}.partial"));
    let _ = std::fs::remove_dir_all(&staging);
    for (path, bytes) in files {
        let file = staging.join(path);
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
        }
        std::fs::write(&file, bytes).with_context(|| format!("cannot write {}", file.display()))?;
    }
    std::fs::write(staging.join(MARKER), format!("{fingerprint}\n"))
        .with_context(|| format!("cannot write the marker in {}", staging.display()))?;
    let version = versions.join(number.to_string());
    std::fs::rename(&staging, &version)
        .with_context(|| format!("cannot finish {}", version.display()))?;
    let link = parent.join(format!(".{name}.link"));
    let _ = std::fs::remove_file(&link);
    let target = PathBuf::from(format!(".{name}.versions")).join(number.to_string());
    std::os::unix::fs::symlink(&target, &link)
        .with_context(|| format!("cannot make the link {}", link.display()))?;
    std::fs::rename(&link, out)
        .with_context(|| format!("cannot switch {} to the new version", out.display()))?;
    // Keep the version just replaced for readers mid-page; drop the rest
    // and any partial build a crash left.
    for old in numbered(&versions)?.into_iter().filter(|n| n + 1 < number) {
        let _ = std::fs::remove_dir_all(versions.join(old.to_string()));
    }
    if let Ok(entries) = std::fs::read_dir(&versions) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().ends_with(".partial") {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(())
}

/// The fingerprint the site at `out` was built from, if realmgm built it.
pub fn built_from(out: &Path) -> Option<String> {
    std::fs::read_to_string(out.join(MARKER))
        .ok()
        .map(|text| text.trim().to_string())
}

fn split(out: &Path) -> anyhow::Result<(PathBuf, String)> {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .with_context(|| format!("{} does not name a folder", out.display()))?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

fn versions_dir(parent: &Path, name: &str) -> PathBuf {
    parent.join(format!(".{name}.versions"))
}

fn is_empty(folder: &Path) -> bool {
    std::fs::read_dir(folder).is_ok_and(|mut e| e.next().is_none())
}

/// The finished versions in `versions`, lowest first.
fn numbered(versions: &Path) -> anyhow::Result<Vec<u64>> {
    let mut found: Vec<u64> = std::fs::read_dir(versions)
        .with_context(|| format!("cannot read {}", versions.display()))?
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse().ok())
        .collect();
    found.sort_unstable();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("realmgm-publish-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn files(text: &str) -> BTreeMap<String, Vec<u8>> {
        BTreeMap::from([
            ("index.html".to_string(), text.as_bytes().to_vec()),
            ("maps/day-001.svg".to_string(), b"<svg/>".to_vec()),
        ])
    }

    #[test]
    fn each_build_switches_the_link_and_keeps_one_version_before() {
        let dir = scratch("switch");
        let out = dir.join("site");
        for round in 1..=4 {
            replace(
                &out,
                &files(&format!("build {round}")),
                &format!("fp{round}"),
            )
            .unwrap();
            assert_eq!(
                std::fs::read_to_string(out.join("index.html")).unwrap(),
                format!("build {round}")
            );
            assert_eq!(
                built_from(&out).as_deref(),
                Some(format!("fp{round}").as_str())
            );
        }
        assert!(
            std::fs::symlink_metadata(&out)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(numbered(&dir.join(".site.versions")).unwrap(), [3, 4]);
        assert!(out.join("maps/day-001.svg").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_of_the_users_is_never_replaced_but_an_empty_one_is() {
        let dir = scratch("foreign");
        let out = dir.join("www");
        std::fs::create_dir_all(&out).unwrap();
        replace(&out, &files("one"), "fp").unwrap();
        let theirs = dir.join("theirs");
        std::fs::create_dir_all(&theirs).unwrap();
        std::fs::write(theirs.join("keep.txt"), "mine").unwrap();
        let err = replace(&theirs, &files("two"), "fp").unwrap_err();
        assert!(
            err.to_string().contains("is not a site realmgm built"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(theirs.join("keep.txt")).unwrap(),
            "mine"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
