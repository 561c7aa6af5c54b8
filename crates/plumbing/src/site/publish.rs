//! Replacing a published site in one step: a reader, or a web
//! server, never sees a half-written site.
//!
//! The folder the GM names (`--out`, `[site] out`) is a symbolic link to
//! the version last written, kept beside it in `.NAME.versions/N`. A build
//! writes a new version completely, then points a fresh link at it and
//! renames that link over the old one: `rename(2)` replaces it atomically.
//! The version before stays, for a reader in the middle of a page; older
//! ones are removed. Web servers follow the link; to upload the pages,
//! copy the folder (`cp -rL`, `rsync -L`).
//!
//! A build removes and renames only what it made: `out` must
//! be absent, an empty folder or a link into its own versions folder; the
//! versions folder and every version in it must be real folders, never
//! links. Anything else is refused before anything is written, so a link
//! planted there cannot point a build at folders outside the site. Names in
//! the versions folder that are not versions are left alone.

use std::collections::{BTreeMap, BTreeSet};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The file in each version naming what it was built from.
pub const MARKER: &str = ".realmgm-site";

/// The suffix of a version still being written.
const PARTIAL: &str = ".partial";

/// Write `files` (path inside the site → bytes) as the new version of the
/// site at `out`, with `fingerprint` in its marker, and switch `out` to it.
///
/// # Errors
/// `out`, its versions folder or a version in it is something realmgm did
/// not make (a folder of the user's, a link, a file), or the disk fails.
pub fn replace(
    out: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    fingerprint: &str,
) -> anyhow::Result<()> {
    let (parent, name) = split(out)?;
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create the folder {}", parent.display()))?;
    let versions = versions_dir(&parent, &name);
    let published = Published::at(out, &name, &versions)?;
    let found = Versions::read(&versions)?;
    let link = parent.join(format!(".{name}.link"));
    clear_spare_link(&link)?;
    if published == Published::EmptyFolder {
        std::fs::remove_dir(out)
            .with_context(|| format!("cannot replace the empty folder {}", out.display()))?;
    }
    let number = found.next_number();
    let staging = versions.join(format!("{number}{PARTIAL}"));
    if found.partial.contains(&number) {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot clear {}", staging.display()))?;
    }
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
    let target = PathBuf::from(format!(".{name}.versions")).join(number.to_string());
    std::os::unix::fs::symlink(&target, &link)
        .with_context(|| format!("cannot make the link {}", link.display()))?;
    std::fs::rename(&link, out)
        .with_context(|| format!("cannot switch {} to the new version", out.display()))?;
    // Keep the version just replaced for readers mid-page; drop the rest
    // and any partial build a crash left. Each was checked to be a real
    // folder inside the versions folder when it was listed.
    let shown = match published {
        Published::Version(shown) => Some(shown),
        Published::Absent | Published::EmptyFolder => None,
    };
    for old in found.finished.iter().filter(|&&n| Some(n) != shown) {
        let _ = std::fs::remove_dir_all(versions.join(old.to_string()));
    }
    for partial in found.partial.iter().filter(|&&n| n != number) {
        let _ = std::fs::remove_dir_all(versions.join(format!("{partial}{PARTIAL}")));
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

/// What stands at `out` before a build.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Published {
    Absent,
    /// An empty folder: nothing of anyone's is lost by replacing it.
    EmptyFolder,
    /// realmgm's link to this version.
    Version(u64),
}

impl Published {
    /// What stands at `out`, refusing anything realmgm did not make.
    fn at(out: &Path, name: &str, versions: &Path) -> anyhow::Result<Published> {
        let meta = match std::fs::symlink_metadata(out) {
            Ok(meta) => meta,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Published::Absent),
            Err(e) => return Err(e).with_context(|| format!("cannot look at {}", out.display())),
        };
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(out)
                .with_context(|| format!("cannot read the link {}", out.display()))?;
            return version_linked(&target, name).map(Published::Version).with_context(|| {
                format!(
                    "{} is a link to {}, not one realmgm made (realmgm links it to a version in \
                     {}) and it is left as it is; remove the link, or choose another folder",
                    out.display(),
                    target.display(),
                    versions.display()
                )
            });
        }
        if meta.is_dir() && std::fs::read_dir(out).is_ok_and(|mut e| e.next().is_none()) {
            return Ok(Published::EmptyFolder);
        }
        bail!(
            "{} exists and is not a site realmgm built (a link to a version in {}); choose \
             another folder, or move it away",
            out.display(),
            versions.display()
        )
    }
}

/// The version a link realmgm made points at: `.NAME.versions/N`.
fn version_linked(target: &Path, name: &str) -> Option<u64> {
    let mut parts = target.components();
    let folder = parts.next()?.as_os_str().to_str()?;
    let version = parts.next()?.as_os_str().to_str()?;
    if folder != format!(".{name}.versions") || parts.next().is_some() {
        return None;
    }
    version_number(version)
}

/// A version's number from its folder's name: the number written plainly,
/// as realmgm writes it (no sign, no leading zero).
fn version_number(name: &str) -> Option<u64> {
    name.parse::<u64>().ok().filter(|n| n.to_string() == name)
}

/// The versions in a versions folder, each checked to be a real folder.
struct Versions {
    finished: BTreeSet<u64>,
    partial: BTreeSet<u64>,
}

impl Versions {
    /// The versions in `versions`, creating the folder when it is missing.
    fn read(versions: &Path) -> anyhow::Result<Versions> {
        match std::fs::symlink_metadata(versions) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) => {
                let what = if meta.file_type().is_symlink() {
                    let target = std::fs::read_link(versions).unwrap_or_default();
                    format!("is a link to {}", target.display())
                } else {
                    "is a file".to_string()
                };
                bail!(
                    "{} {what}, not the folder realmgm keeps the site's versions in; a build \
                     never follows a link there, since it removes old versions. Move it away \
                     and build again (realmgm makes the folder afresh)",
                    versions.display()
                );
            }
            Err(e) if e.kind() == ErrorKind::NotFound => std::fs::create_dir(versions)
                .with_context(|| format!("cannot create {}", versions.display()))?,
            Err(e) => {
                return Err(e).with_context(|| format!("cannot look at {}", versions.display()));
            }
        }
        let mut found = Versions {
            finished: BTreeSet::new(),
            partial: BTreeSet::new(),
        };
        let entries = std::fs::read_dir(versions)
            .with_context(|| format!("cannot read {}", versions.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot read {}", versions.display()))?;
            let file_name = entry.file_name();
            let name = file_name.to_string_lossy();
            let (set, number) = match name.strip_suffix(PARTIAL) {
                Some(stem) => (&mut found.partial, version_number(stem)),
                None => (&mut found.finished, version_number(&name)),
            };
            let Some(number) = number else { continue };
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                bail!(
                    "{} is not a folder realmgm made (a link or a file) among the site's \
                     versions; a build never follows a link there. Move it away and build again",
                    entry.path().display()
                );
            }
            set.insert(number);
        }
        Ok(found)
    }

    /// The number of the next version: one past the highest, or, when the
    /// highest is the largest number there is, the lowest one free, which
    /// starts a fresh series (the folder past it goes as old versions do).
    fn next_number(&self) -> u64 {
        match self.finished.last() {
            None => 1,
            // A folder holds far fewer versions than there are numbers,
            // so a free one is always found.
            Some(highest) => highest.checked_add(1).unwrap_or_else(|| {
                (1..u64::MAX)
                    .find(|n| !self.finished.contains(n))
                    .unwrap_or(0)
            }),
        }
    }
}

/// Remove a spare `.NAME.link` a crash left between making the link and
/// switching to it; refuse anything else found under that name.
fn clear_spare_link(link: &Path) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(link) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::remove_file(link)
            .with_context(|| format!("cannot remove the spare link {}", link.display())),
        Ok(_) => bail!(
            "{} is not a link realmgm made (realmgm uses that name for a moment while it \
             switches the site); move it away and build again",
            link.display()
        ),
        Err(_) => Ok(()),
    }
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
        assert_eq!(
            Versions::read(&dir.join(".site.versions"))
                .unwrap()
                .finished,
            BTreeSet::from([3, 4])
        );
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
    /// A folder outside the site holding `1/canary.txt`, a later version
    /// and a partial build, as a hostile `.NAME.versions` link would show.
    fn victim(dir: &Path) -> PathBuf {
        let victim = dir.join("victim");
        for folder in ["1", "5", "7.partial"] {
            std::fs::create_dir_all(victim.join(folder)).unwrap();
            std::fs::write(victim.join(folder).join("canary.txt"), "alive").unwrap();
        }
        victim
    }

    fn canaries(victim: &Path) -> usize {
        ["1", "5", "7.partial"]
            .iter()
            .filter(|f| victim.join(f).join("canary.txt").is_file())
            .count()
    }

    #[test]
    fn a_versions_link_is_refused_and_nothing_it_points_at_is_touched() {
        let dir = scratch("versions-link");
        let victim = victim(&dir);
        std::os::unix::fs::symlink(&victim, dir.join(".site.versions")).unwrap();
        let err = replace(&dir.join("site"), &files("one"), "fp").unwrap_err();
        assert!(err.to_string().contains("is a link"), "{err}");
        assert!(err.to_string().contains("Move it away"), "{err}");
        assert_eq!(canaries(&victim), 3);
        assert!(!victim.join("8").exists());
        assert!(std::fs::symlink_metadata(dir.join("site")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_link_among_the_versions_is_refused_and_its_folder_kept() {
        let dir = scratch("version-link");
        let out = dir.join("site");
        replace(&out, &files("one"), "fp1").unwrap();
        let victim = victim(&dir);
        std::os::unix::fs::symlink(victim.join("1"), dir.join(".site.versions/0")).unwrap();
        let err = replace(&out, &files("two"), "fp2").unwrap_err();
        assert!(
            err.to_string().contains("not a folder realmgm made"),
            "{err}"
        );
        assert_eq!(canaries(&victim), 3);
        assert_eq!(built_from(&out).as_deref(), Some("fp1"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_out_link_realmgm_did_not_make_is_left_alone() {
        let dir = scratch("out-link");
        let victim = victim(&dir);
        let out = dir.join("site");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        let err = replace(&out, &files("one"), "fp").unwrap_err();
        assert!(err.to_string().contains("not one realmgm made"), "{err}");
        assert_eq!(std::fs::read_link(&out).unwrap(), victim);
        assert_eq!(canaries(&victim), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn builds_go_on_after_a_version_named_the_largest_number() {
        let dir = scratch("largest");
        let out = dir.join("site");
        replace(&out, &files("one"), "fp1").unwrap();
        std::fs::create_dir_all(dir.join(".site.versions").join(u64::MAX.to_string())).unwrap();
        for round in 2..=5 {
            replace(&out, &files(&format!("build {round}")), "fp").unwrap();
            assert_eq!(
                std::fs::read_to_string(out.join("index.html")).unwrap(),
                format!("build {round}")
            );
        }
        // The series starts afresh; the folder past it goes as old
        // versions do.
        let mut left: Vec<String> = std::fs::read_dir(dir.join(".site.versions"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["4", "5"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
