//! The application's layers. The plumbing (store, campaign files, daemon,
//! public site) is a crate of its own that depends on no engine, so the
//! compiler refuses plumbing code that uses one; these tests hold what the
//! compiler cannot: that its manifest keeps it so, that its code does not
//! name a game even by the id campaign files give it (setup by mail, seats,
//! calendars and combat rounds all reach it through what the game offers,
//! and a new game needs no line of it), and that the public pages sit below
//! the daemon (the daemon rebuilds them; the builder needs nothing of it).

use std::path::Path;

/// What names a game in code: its module, its crate, its type or the id
/// campaign files give it.
const GAME_NAMES: &[&str] = &[
    "magic_realm",
    "fantasy_realms",
    "MagicRealm",
    "FantasyRealms",
    "\"magic-realm\"",
    "\"fantasy-realms\"",
];

/// Each line of the code under `folder` (test code aside) that `names`,
/// as `path:line: text`.
fn lines_naming(folder: &str, names: impl Fn(&str) -> bool) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = crate::source_code::library_files(&root.join(folder));
    assert!(
        files.len() >= 3,
        "only {} files read in {folder}",
        files.len()
    );
    files
        .into_iter()
        .flat_map(|(file, text)| {
            let file = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            crate::source_code::without_test_items(&text)
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.trim_start().starts_with("//") && names(line))
                .map(|(i, line)| format!("{}:{}: {}", file.display(), i + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn names_a_game(line: &str) -> bool {
    GAME_NAMES.iter().any(|name| line.contains(name))
}

/// A `crate::daemon` path, or a `daemon::` one after a `use` brought the
/// module in.
fn names_the_daemon(line: &str) -> bool {
    line.contains("crate::daemon") || line.contains("daemon::")
}

/// The crates of this workspace the plumbing may build on.
const BELOW_THE_PLUMBING: &[&str] = &["realmgm-core", "realmgm-mail"];

#[test]
fn the_plumbing_depends_on_no_engine() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/plumbing/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).expect("the plumbing has a manifest");
    let manifest: toml::Table = text.parse().expect("its manifest is TOML");
    let ours: Vec<&str> = manifest["dependencies"]
        .as_table()
        .expect("it has dependencies")
        .keys()
        .map(String::as_str)
        .filter(|name| name.starts_with("realmgm"))
        .collect();
    let above: Vec<&str> = ours
        .iter()
        .copied()
        .filter(|name| !BELOW_THE_PLUMBING.contains(name))
        .collect();
    assert!(
        above.is_empty(),
        "the plumbing depends on {}; of this workspace it may build on {} only (an engine \
         belongs in its tests' dev-dependencies)",
        above.join(", "),
        BELOW_THE_PLUMBING.join(" and ")
    );
    assert_eq!(ours.len(), BELOW_THE_PLUMBING.len(), "{}", ours.join(", "));
}

#[test]
fn the_plumbings_code_names_no_game() {
    let found = lines_naming("crates/plumbing/src", names_a_game);
    assert!(
        found.is_empty(),
        "the plumbing reaches into a game instead of going through the game interface \
         (crate::game):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_public_pages_do_not_reach_into_the_daemon() {
    let found = lines_naming("crates/plumbing/src/site", names_the_daemon);
    assert!(
        found.is_empty(),
        "the public pages import the daemon, which sits above them:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guards_see_what_they_look_for() {
    assert!(names_a_game("let data = crate::magic_realm::data::get()?;"));
    assert!(names_a_game(r#"if campaign.game != "magic-realm" {"#));
    assert!(names_a_game("use realmgm_fantasy_realms::FantasyRealms;"));
    assert!(!names_a_game("let game = self.game(&stored.campaign)?;"));
    assert!(names_the_daemon(
        "let templates = crate::daemon::report_context::templates(&campaign)?;"
    ));
    assert!(names_the_daemon(
        "use crate::{daemon::Daemon, store::Store};"
    ));
    assert!(!names_the_daemon(
        "let pages = crate::site::build(&store)?;"
    ));
}
