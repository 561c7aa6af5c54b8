//! The daemon drives every game through the game interface alone: its code
//! (test code aside) names no game, so setup by mail, seats, calendars and
//! combat rounds all reach it through what the game offers, and a new game
//! needs no line of the daemon.

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

/// Each line of the daemon's code (test code aside) that names a game.
fn game_names_in_the_daemon() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    crate::source_code::library_files(&root.join("src/daemon"))
        .into_iter()
        .flat_map(|(file, text)| {
            let file = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            crate::source_code::without_test_items(&text)
                .lines()
                .enumerate()
                .filter(|(_, line)| GAME_NAMES.iter().any(|name| line.contains(name)))
                .map(|(i, line)| format!("{}:{}: {}", file.display(), i + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_daemons_code_names_no_game() {
    let found = game_names_in_the_daemon();
    assert!(
        found.is_empty(),
        "the daemon reaches into a game instead of going through the game interface \
         (crate::game):\n{}",
        found.join("\n")
    );
}
