//! The guard of the engine's layering: every module of `src/magic_realm/`
//! belongs to a layer, and a module uses only modules of its own layer or
//! of the layers below. Knowledge flows one way, so a change to a rule
//! touches what is above it and never what is below. ARCHITECTURE.md shows
//! the same order.
//!
//! The check reads the source files as text: every `crate::`
//! path and every `super::` path that climbs out of a module's own folder,
//! outside comments and outside test code (files named `tests.rs`,
//! `*_tests.rs` or `test_*.rs`, modules declared for tests only, and the
//! items marked `#[cfg(test)]`).

use std::path::{Path, PathBuf};

#[path = "../../../tests/support/source_code.rs"]
mod source_code;

/// The layers, lowest first; the modules named in one layer may use each
/// other.
const LAYERS: &[&[&str]] = &[
    &["data", "rules"],
    &["board", "tables"],
    &["state"],
    &["abilities"],
    &["magic"],
    &["setup"],
    &["combat"],
    &["orders"],
    &["day"],
    &["report", "round_prompts"],
    &["game"],
];

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

/// The module path of a file under `src/magic_realm/` (`magic/colour.rs` →
/// `["magic", "colour"]`, `state/mod.rs` → `["state"]`).
fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative.split('/').map(str::to_string).collect();
    if let Some(last) = parts.pop()
        && last != "mod.rs"
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

/// The top modules of `src/magic_realm/` a path starting at `rest` names:
/// one, or several for a brace list (`{board, data::GameData}`).
fn named_modules(rest: &str) -> Vec<String> {
    let rest = rest.trim_start();
    if let Some(list) = rest.strip_prefix('{') {
        let list = list.split('}').next().unwrap_or_default();
        return list
            .split(',')
            .filter_map(|item| {
                let name = item.trim().split("::").next()?.trim();
                (!name.is_empty()).then(|| name.to_string())
            })
            .collect();
    }
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        Vec::new()
    } else {
        vec![name]
    }
}

/// Every use in `text` (the file `relative` under `src/magic_realm/`) of a
/// module in a higher layer.
fn violations_in(relative: &str, text: &str) -> Vec<Violation> {
    let me = module_path(relative);
    let Some(own) = me.first().and_then(|m| layer(m)) else {
        return Vec::new();
    };
    let code = code_of(text);
    let mut found = Vec::new();
    let mut check = |path: &str, modules: Vec<String>| {
        for module in modules {
            if let Some(other) = layer(&module)
                && other > own
            {
                found.push(Violation {
                    file: relative.to_string(),
                    path: path.trim().to_string(),
                    from: me[0].clone(),
                    to: module,
                });
            }
        }
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let path: String = rest.chars().take_while(|c| !";(\n".contains(*c)).collect();
        check(&format!("crate::{path}"), named_modules(rest));
    }
    // `super::` chains: a chain that climbs to the root of `magic_realm`
    // names a top module next.
    let mut from = 0;
    while let Some(at) = code[from..].find("super::") {
        let start = from + at;
        let before = code[..start].chars().next_back();
        let mut rest = &code[start..];
        let mut climbs = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = after;
        }
        from = code.len() - rest.len();
        if before.is_some_and(|c| c == ':' || c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if climbs == me.len() {
            let path: String = code[start..]
                .chars()
                .take_while(|c| !";(\n".contains(*c))
                .collect();
            check(&path, named_modules(rest));
        }
    }
    found
}

/// Every `.rs` file under `dir`, test files left out.
fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            source_files(&path, files);
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let test_file =
            name == "tests.rs" || name.ends_with("_tests.rs") || name.starts_with("test_");
        if name.ends_with(".rs") && !test_file {
            files.push(path);
        }
    }
}

#[test]
fn no_module_uses_a_higher_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&root, &mut files);
    assert!(files.len() > 100, "read {} files", files.len());
    let test_only: Vec<PathBuf> = files
        .iter()
        .flat_map(|f| {
            source_code::test_only_children(f, &std::fs::read_to_string(f).unwrap_or_default())
        })
        .collect();
    let mut violations = Vec::new();
    for file in files.iter().filter(|f| !test_only.contains(f)) {
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(file).unwrap_or_default();
        violations.extend(violations_in(&relative, &text));
    }
    let listed: Vec<String> = violations.iter().map(ToString::to_string).collect();
    assert!(listed.is_empty(), "wrong-way uses:\n{}", listed.join("\n"));
}

#[test]
fn every_top_module_has_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let name = entry
            .file_name()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if ["lib", "layers", "test_support"].contains(&name.as_str()) {
            continue;
        }
        assert!(
            layer(&name).is_some(),
            "{name} is in no layer; add it to LAYERS"
        );
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
