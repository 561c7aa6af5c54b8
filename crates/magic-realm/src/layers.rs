//! The guard of the engine's layering: every module of the engine's crates
//! belongs to a layer, and a module uses only modules of its own layer or of
//! the layers below. Knowledge flows one way, so a change to a rule touches
//! what is above it and never what is below. ARCHITECTURE.md shows the same
//! order. Inside a layer the files import each other one way too, but for
//! the loops listed in `LOOPS`, each with the reason it stays.
//!
//! The engine is three crates cut along the layers (`CRATES`); each
//! re-exports the modules of the crates below under their own names, so a
//! path reads `crate::data::...` in all three and their sources are read
//! here as one module tree. The compiler holds the cuts between the crates;
//! this guard holds the layers inside each crate, and checks the cuts
//! follow the layers.
//!
//! The check reads whole source files as text, without comments and test
//! code (files named `tests.rs`, `*_tests.rs` or `test_*.rs`, modules
//! declared for tests only, and the items marked `#[cfg(test)]`, wherever
//! they stand): every `crate::` path and every `super::` path, in a `use`
//! or in an expression, brace lists expanded. A path to an item that a
//! parent module re-exports (`pub use child::Item;`) is a use of the child
//! that defines it.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

#[path = "../../../tests/support/source_code.rs"]
mod source_code;

/// The layers, lowest first; the modules named in one layer may use each
/// other.
const LAYERS: &[&[&str]] = &[
    &["data", "rules"],
    &["board", "tables"],
    &["state"],
    &["development"],
    &["abilities"],
    &["magic"],
    &["setup"],
    &["combat"],
    &["orders"],
    &["day"],
    &["report", "round_prompts"],
    &["game"],
];

/// An import loop left inside one folder: its files, and why it stays.
struct Loop {
    files: &'static [&'static str],
    why: &'static str,
}

/// The import loops that stay, each inside one folder. A new loop, or a
/// listed one that gains or loses a file, fails
/// `no_import_loop_but_the_listed_ones`. A folder's `mod.rs` naming its own
/// files is the module tree, not a loop.
const LOOPS: &[Loop] = &[
    Loop {
        files: &[
            "combat/abandon.rs",
            "combat/activation.rs",
            "combat/alerted.rs",
            "combat/altering.rs",
            "combat/ambush.rs",
            "combat/battle.rs",
            "combat/build.rs",
            "combat/casting.rs",
            "combat/charge.rs",
            "combat/chit_conflicts.rs",
            "combat/colour_fatigue.rs",
            "combat/decisions.rs",
            "combat/encounter.rs",
            "combat/fatigue.rs",
            "combat/fly_chit.rs",
            "combat/harm.rs",
            "combat/hidden_enemies.rs",
            "combat/log.rs",
            "combat/melee.rs",
            "combat/model.rs",
            "combat/monster_spells.rs",
            "combat/native_horses.rs",
            "combat/phase_chit.rs",
            "combat/pick_up.rs",
            "combat/pit_attack.rs",
            "combat/protection.rs",
            "combat/riding.rs",
            "combat/spell_deaths.rs",
            "combat/spell_effects.rs",
            "combat/spoils.rs",
            "combat/tactics.rs",
            "combat/treachery.rs",
            "combat/watchful.rs",
        ],
        why: "A round of combat is one procedure split by step: the encounter runs \
               the steps (charge, casting, melee, treachery, watchful natives), the \
               steps call back into it (a charge or a treacherous native starts a \
               group battle) and into each other (melee resolves a spell's attack \
               through casting, casting hits through melee's attack and harm), and \
               the battle model holds each step's own record (a hero's kit, a \
               native's horse). The `Battle` runs the rounds through the encounter, \
               melee and fatigue, and every step works on the `Battle`.",
    },
    Loop {
        files: &[
            "day/auto_enchant.rs",
            "day/cache.rs",
            "day/dealings.rs",
            "day/development.rs",
            "day/events.rs",
            "day/familiar.rs",
            "day/goblins.rs",
            "day/hire.rs",
            "day/meeting.rs",
            "day/missions.rs",
            "day/movement.rs",
            "day/rearrange.rs",
            "day/restart.rs",
            "day/rulings.rs",
            "day/runes.rs",
            "day/search.rs",
            "day/site_magic.rs",
            "day/spying.rs",
            "day/trade.rs",
            "day/treasure_sites.rs",
            "day/victory.rs",
            "day/visitor_spells.rs",
            "day/visitors.rs",
            "day/weather.rs",
        ],
        why: "`events::Happening`, the one type of everything a day reports, holds \
               the event type each handler declares beside its rule (search, trade, \
               hire, rulings, ...), and every handler reports through `Happening`. \
               Below that, handlers call each other where one rule leads into \
               another: search, runes and treasure sites; hire, goblins and meeting; \
               trade and visitor spells; missions and visitors; a move that \
               delivers a mission on entering its dwelling's clearing, the \
               spies who learn the hidden road it takes, and Development's \
               advancing, which reads the score victory reports.",
    },
];

/// The engine's crates, lowest first: their folders beside this crate's
/// (this crate is the last). Each holds a run of layers above the runs of
/// the crates before it.
const CRATES: &[&str] = &["mr-base", "mr-combat", "magic-realm"];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|names| names.contains(&module))
}

/// A use of a higher layer: the file, the path as written, and why.
#[derive(Debug, PartialEq, Eq)]
struct Violation {
    file: String,
    path: String,
    from: String,
    to: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} uses `{}`: {} is a lower layer than {}",
            self.file, self.path, self.from, self.to
        )
    }
}

/// The module path of a file under its crate's `src/` (`magic/colour.rs` →
/// `["magic", "colour"]`, `state/mod.rs` → `["state"]`, `lib.rs` → `[]`).
fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative.split('/').map(str::to_string).collect();
    if let Some(last) = parts.pop()
        && last != "mod.rs"
        && !(parts.is_empty() && last == "lib.rs")
    {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The code of a source file without comments and test code.
fn code_of(text: &str) -> String {
    let text = source_code::without_test_items(text);
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A path in a file that names a module of the engine: as written, and the
/// module it names from the root of the crate (`super::cast::active_on` in
/// `magic/spells/mod.rs` → `["magic", "cast", "active_on"]`).
struct Use {
    written: String,
    target: Vec<String>,
}

/// Every `crate::` path and every `super::` path in `code`, the code of the
/// module `me`, wherever it stands (a `use` at the top or below the tests,
/// a path in a function body), brace lists expanded.
fn uses_in(me: &[String], code: &str) -> Vec<Use> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = ["crate::", "super::"]
        .iter()
        .filter_map(|start| code[from..].find(start))
        .min()
    {
        let start = from + at;
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c == ':' || c.is_ascii_alphanumeric() || c == '_') {
            from = start + "crate::".len();
            continue;
        }
        let mut rest = &code[start..];
        let base = match rest.strip_prefix("crate::") {
            Some(after) => {
                rest = after;
                Vec::new()
            }
            None => {
                let mut climbs = 0;
                while let Some(after) = rest.strip_prefix("super::") {
                    climbs += 1;
                    rest = after;
                }
                me[..me.len().saturating_sub(climbs)].to_vec()
            }
        };
        from = code.len() - rest.len();
        let written: String = code[start..]
            .chars()
            .take_while(|c| !";(\n".contains(*c))
            .collect();
        for tail in expand(rest) {
            let mut target = base.clone();
            target.extend(tail.into_iter().filter(|name| name != "self"));
            found.push(Use {
                written: written.trim().to_string(),
                target,
            });
        }
    }
    found
}

/// The paths a path's remainder names: one, or several for a brace list,
/// nested ones too (`{board::{ClearingId, Tile}, data}` → `board::ClearingId`,
/// `board::Tile`, `data`).
fn expand(rest: &str) -> Vec<Vec<String>> {
    let rest = rest.trim_start();
    if let Some(list) = rest.strip_prefix('{') {
        return items_of(list).into_iter().flat_map(expand).collect();
    }
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return vec![Vec::new()];
    }
    match rest[name.len()..].trim_start().strip_prefix("::") {
        Some(more) => expand(more)
            .into_iter()
            .map(|mut tail| {
                tail.insert(0, name.clone());
                tail
            })
            .collect(),
        None => vec![vec![name]],
    }
}

/// The items of the brace list that `list` starts, up to its closing brace,
/// split at its own commas (not at those of a nested list).
fn items_of(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut item_start = 0;
    for (at, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&list[item_start..at]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&list[item_start..at]);
                item_start = at + 1;
            }
            _ => {}
        }
    }
    items.retain(|item| !item.trim().is_empty());
    items
}

/// Every use in `text` (the file `relative` under `src/`) of a module in a
/// higher layer.
fn violations_in(relative: &str, text: &str) -> Vec<Violation> {
    let me = module_path(relative);
    let Some(own) = me.first().and_then(|m| layer(m)) else {
        return Vec::new();
    };
    let mut found: Vec<Violation> = Vec::new();
    for used in uses_in(&me, &code_of(text)) {
        let Some(module) = used.target.first() else {
            continue;
        };
        let violation = Violation {
            file: relative.to_string(),
            path: used.written,
            from: me[0].clone(),
            to: module.clone(),
        };
        if layer(module).is_some_and(|other| other > own) && !found.contains(&violation) {
            found.push(violation);
        }
    }
    found
}

/// The items the module `me` re-exports from its own children, each as
/// the path it is named by and the path it is defined at, both from the
/// root of the crate (`pub use battle::{Battle, Step};` in `combat/mod.rs`
/// → `combat::Battle` is `combat::battle::Battle`, and the same for `Step`).
fn re_exports_in(me: &[String], code: &str) -> HashMap<Vec<String>, Vec<String>> {
    let mut found = HashMap::new();
    for (at, _) in code.match_indices("pub") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let mut rest = code[at + "pub".len()..].trim_start();
        if let Some(scope) = rest.strip_prefix('(') {
            rest = scope
                .split_once(')')
                .map_or("", |(_, after)| after.trim_start());
        }
        let Some(rest) = rest.strip_prefix("use ") else {
            continue;
        };
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("self::").unwrap_or(rest);
        for path in expand(rest) {
            let (Some(child), Some(item)) = (path.first(), path.last()) else {
                continue;
            };
            if path.len() < 2 || ["crate", "super", "self"].contains(&child.as_str()) {
                continue;
            }
            let mut named = me.to_vec();
            named.push(item.clone());
            let mut defined = me.to_vec();
            defined.extend(path);
            found.insert(named, defined);
        }
    }
    found
}

/// The import loops among `files` (path under `src/`, text): each loop the
/// files that reach each other through their uses, sorted, the loops
/// sorted. A module's uses of its own descendants do not count: a parent
/// declares its children and names them, that is the module tree. A path
/// to an item that a parent re-exports from a child leads to that child,
/// where the item is defined.
fn loops_in(files: &[(String, String)]) -> Vec<Vec<String>> {
    let modules: HashMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(at, (relative, _))| (module_path(relative), at))
        .collect();
    let re_exports: HashMap<Vec<String>, Vec<String>> = files
        .iter()
        .flat_map(|(relative, text)| re_exports_in(&module_path(relative), &code_of(text)))
        .collect();
    let file_of = |path: &[String]| -> Option<usize> {
        (1..=path.len())
            .rev()
            .find_map(|len| modules.get(&path[..len]))
            .copied()
    };
    let edges: Vec<BTreeSet<usize>> = files
        .iter()
        .map(|(relative, text)| {
            let me = module_path(relative);
            uses_in(&me, &code_of(text))
                .into_iter()
                .filter_map(|used| {
                    let file = file_of(&used.target)?;
                    let module = module_path(&files[file].0);
                    let item = used.target.get(..module.len() + 1);
                    match item.and_then(|named| re_exports.get(named)) {
                        Some(defined) => file_of(defined),
                        None => Some(file),
                    }
                })
                .filter(|&to| !module_path(&files[to].0).starts_with(&me))
                .collect()
        })
        .collect();
    let mut loops: Vec<Vec<String>> = strongly_connected(&edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut names: Vec<String> = component.iter().map(|&at| files[at].0.clone()).collect();
            names.sort();
            names
        })
        .collect();
    loops.sort();
    loops
}

/// The strongly connected components of the graph `edges` (Tarjan's
/// algorithm): the sets of nodes that all reach each other.
fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Walk<'e> {
        edges: &'e [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, node: usize) {
            self.index[node] = Some(self.next);
            self.low[node] = self.next;
            self.next += 1;
            self.stack.push(node);
            self.on_stack[node] = true;
            for &to in self.edges[node].iter() {
                match self.index[to] {
                    None => {
                        self.visit(to);
                        self.low[node] = self.low[node].min(self.low[to]);
                    }
                    Some(seen) if self.on_stack[to] => self.low[node] = self.low[node].min(seen),
                    Some(_) => {}
                }
            }
            if Some(self.low[node]) == self.index[node] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack[top] = false;
                    component.push(top);
                    if top == node {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: vec![None; edges.len()],
        low: vec![0; edges.len()],
        stack: Vec::new(),
        on_stack: vec![false; edges.len()],
        next: 0,
        components: Vec::new(),
    };
    for node in 0..edges.len() {
        if walk.index[node].is_none() {
            walk.visit(node);
        }
    }
    walk.components
}

/// The `src/` folder of the engine crate `name`.
fn src_of(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

/// The source files of every engine crate, test files and the modules
/// declared for tests left out: each path under its crate's `src/` (one
/// module tree, as the re-exports make it) with its text.
fn engine_sources() -> Vec<(String, String)> {
    let mut sources = Vec::new();
    for name in CRATES {
        let root = src_of(name);
        let files = source_code::library_files(&root);
        assert!(files.len() > 10, "read {} files of {name}", files.len());
        sources.extend(files.into_iter().map(|(file, text)| {
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .to_string_lossy()
                .replace('\\', "/");
            (relative, text)
        }));
    }
    sources
}

/// The top modules of the engine crate `name`: the files and folders of
/// its `src/` but the crate root, this guard, the test fixtures and the
/// modules of tests.
fn top_modules(name: &str) -> Vec<String> {
    let mut modules: Vec<String> = std::fs::read_dir(src_of(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .flatten()
        .map(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|module| {
            !["lib", "layers", "test_support"].contains(&module.as_str())
                && !module.ends_with("_tests")
        })
        .collect();
    modules.sort();
    modules
}

#[test]
fn no_module_uses_a_higher_layer() {
    let listed: Vec<String> = engine_sources()
        .iter()
        .flat_map(|(relative, text)| violations_in(relative, text))
        .map(|violation| violation.to_string())
        .collect();
    assert!(listed.is_empty(), "wrong-way uses:\n{}", listed.join("\n"));
}

#[test]
fn no_import_loop_but_the_listed_ones() {
    let found = loops_in(&engine_sources());
    let listed: Vec<Vec<String>> = LOOPS
        .iter()
        .map(|known| known.files.iter().map(ToString::to_string).collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|files| !listed.contains(files))
        .map(|files| files.join(", "))
        .collect();
    let gone: Vec<String> = listed
        .iter()
        .filter(|files| !found.contains(files))
        .map(|files| files.join(", "))
        .collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import loops not in LOOPS (move what both sides use below them):\n{}\n\
         loops in LOOPS that are no longer there (strike them):\n{}",
        new.join("\n"),
        gone.join("\n")
    );
}

#[test]
fn every_top_module_has_a_layer() {
    for name in CRATES {
        for module in top_modules(name) {
            assert!(
                layer(&module).is_some(),
                "{name}: {module} is in no layer; add it to LAYERS"
            );
        }
    }
}

/// The cuts between the crates follow the layers: every module of a crate
/// is in a higher layer than every module of the crates below it, so the
/// compiler, which refuses a lower crate's use of a higher one, refuses only
/// wrong-way uses.
#[test]
fn each_crate_holds_layers_above_those_of_the_crates_below() {
    let mut highest_below: Option<(usize, String)> = None;
    for name in CRATES {
        let mut held: Vec<(usize, String)> = top_modules(name)
            .into_iter()
            .filter_map(|module| Some((layer(&module)?, module)))
            .collect();
        held.sort();
        let (Some(lowest), Some(highest)) = (held.first(), held.last()) else {
            panic!("{name} holds no module of a layer");
        };
        if let Some((top, module)) = &highest_below {
            assert!(
                lowest.0 > *top,
                "{name} holds {}, which is not above {module} in a crate below",
                lowest.1
            );
        }
        highest_below = Some(highest.clone());
    }
}

#[test]
fn the_guard_sees_every_form_of_a_wrong_way_use() {
    let wrong = [
        ("magic/colour.rs", "use crate::day::abilities::has;"),
        ("magic/colour.rs", "let x = crate::day::Day::new();"),
        (
            "magic/spells/type_i.rs",
            "use super::super::super::day::Day;",
        ),
        ("state/mod.rs", "use super::{board, setup::new_game};"),
        ("combat/build.rs", "use crate::{data, orders::Phase};"),
        (
            "combat/build.rs",
            "use crate::{\n    board::{ClearingId, Tile},\n    day::{self, Day},\n};",
        ),
        (
            "magic/colour.rs",
            "fn a() {}\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\nuse crate::day::Day;",
        ),
        (
            "magic/colour.rs",
            "#[cfg(test)]\nmod tests;\nfn a() {\n    if b {\n        super::super::day::release(x);\n    }\n}",
        ),
    ];
    for (file, text) in wrong {
        let found = violations_in(file, text);
        assert_eq!(found.len(), 1, "{file}: {text} gave {found:?}");
    }
    let fine = [
        ("day/search.rs", "use crate::magic::cast;"),
        (
            "magic/spells/type_i.rs",
            "use super::super::cast::active_on;",
        ),
        ("magic/colour.rs", "/// See [`crate::day::Day`]."),
        (
            "magic/colour.rs",
            "#[cfg(test)]\nmod tests { use crate::day::Day; }",
        ),
        ("combat/build.rs", "use crate::{data, state::MrState};"),
    ];
    for (file, text) in fine {
        assert!(violations_in(file, text).is_empty(), "{file}: {text}");
    }
}

#[test]
fn the_guard_finds_a_loop_wherever_the_uses_stand() {
    let files = |b: &str| {
        [
            (
                "day/mod.rs",
                "pub mod a;\npub mod b;\nfn go() { a::run(); }",
            ),
            ("day/a.rs", "use super::Day;\nuse super::b::Tally;"),
            ("day/b.rs", b),
        ]
        .map(|(file, text)| (file.to_string(), text.to_string()))
    };
    let one_way = files("use super::Day;\n#[cfg(test)]\nmod tests { use super::super::a::run; }");
    assert!(loops_in(&one_way).is_empty(), "{:?}", loops_in(&one_way));
    for b in [
        "use super::Day;\n#[cfg(test)]\nmod tests {}\nuse super::a::run;",
        "fn tally() {\n    crate::day::a::run();\n}",
        "use crate::day::{Day, a::{run, Step}};",
    ] {
        assert_eq!(
            loops_in(&files(b)),
            vec![vec!["day/a.rs".to_string(), "day/b.rs".to_string()]],
            "{b}"
        );
    }
}

#[test]
fn the_guard_follows_a_parents_re_export_to_the_child_that_defines_it() {
    let files = |mod_rs: &str| {
        [
            ("day/mod.rs", mod_rs),
            ("day/a.rs", "pub struct Day;\nuse super::b::Tally;"),
            ("day/b.rs", "pub struct Tally;\nfn go(day: &super::Day) {}"),
        ]
        .map(|(file, text)| (file.to_string(), text.to_string()))
    };
    let declared_only = files("pub mod a;\npub mod b;\npub struct Day;");
    assert!(
        loops_in(&declared_only).is_empty(),
        "{:?}",
        loops_in(&declared_only)
    );
    for mod_rs in [
        "pub mod a;\npub mod b;\npub use a::Day;",
        "mod a;\nmod b;\npub use a::{Day, Other};",
        "mod a;\nmod b;\npub(crate) use self::a::Day;",
        "mod a;\nmod b;\npub use b::Tally;\npub use self::{a::Day};",
    ] {
        assert_eq!(
            loops_in(&files(mod_rs)),
            vec![vec!["day/a.rs".to_string(), "day/b.rs".to_string()]],
            "{mod_rs}"
        );
    }
}

#[test]
fn every_listed_loop_stays_in_one_folder_and_says_why() {
    for known in LOOPS {
        let folders: BTreeSet<Vec<String>> = known
            .files
            .iter()
            .map(|file| {
                let mut module = module_path(file);
                module.pop();
                module
            })
            .collect();
        assert_eq!(folders.len(), 1, "{:?} spans folders", known.files);
        assert!(
            !known.why.trim().is_empty(),
            "{:?} says no why",
            known.files
        );
    }
}
