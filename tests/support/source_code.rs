//! Source files read as text by the guards that scan the program's code
//! (the engine's layering, no Debug formatting in messages, typed errors,
//! no issue numbers): every Rust file, the library's files without the test
//! files, and the code without its test items.

use std::path::{Path, PathBuf};

/// Every file under `folder`, sorted; build output (`target`) is not
/// source.
pub fn files_under(folder: &Path) -> Vec<PathBuf> {
    fn walk(folder: &Path, files: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                if !path.ends_with("target") {
                    walk(&path, files);
                }
            } else {
                files.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(folder, &mut paths);
    paths.sort();
    paths
}

/// Every `.rs` file under `folder`, sorted.
pub fn rust_files(folder: &Path) -> Vec<PathBuf> {
    files_under(folder)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect()
}

/// Every `.rs` file under `folder`, sorted, with its text: the files of
/// tests left out, by name (`tests.rs`, `*_tests.rs`, `test_*.rs`) or
/// because a parent declares them for tests only.
pub fn library_files(folder: &Path) -> Vec<(PathBuf, String)> {
    let paths = rust_files(folder).into_iter().filter(|path| {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        !(name == "tests.rs" || name.ends_with("_tests.rs") || name.starts_with("test_"))
    });
    let files: Vec<(PathBuf, String)> = paths
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            (path, text)
        })
        .collect();
    let test_only: Vec<PathBuf> = files
        .iter()
        .flat_map(|(path, text)| test_only_children(path, text))
        .collect();
    files
        .into_iter()
        .filter(|(path, _)| !test_only.contains(path))
        .collect()
}

/// `text` without the items marked `#[cfg(test)]`: a one-line item
/// (`mod tests;`) or a braced one (`mod tests { ... }`) is dropped, and the
/// code after it is kept, since a file may declare its tests at the top.
pub fn without_test_items(text: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        kept.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let semicolon = item.find(';');
        let brace = item.find('{');
        let end = match (semicolon, brace) {
            (Some(semicolon), Some(brace)) if semicolon < brace => semicolon + 1,
            (Some(semicolon), None) => semicolon + 1,
            (_, Some(brace)) => closing_brace(item, brace).map_or(item.len(), |close| close + 1),
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    kept.push_str(rest);
    kept
}

/// The files of the modules `file` declares for tests only
/// (`#[cfg(test)] mod layers;`), whatever their own names.
pub fn test_only_children(file: &Path, text: &str) -> Vec<PathBuf> {
    let folder = match file.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") => file.parent().map(Path::to_path_buf),
        Some(stem) => file.parent().map(|p| p.join(stem)),
        None => None,
    };
    let Some(folder) = folder else {
        return Vec::new();
    };
    text.split("#[cfg(test)]")
        .skip(1)
        .filter_map(|item| {
            let item = item.trim_start();
            let name = item
                .strip_prefix("pub mod ")
                .or_else(|| item.strip_prefix("mod "))?
                .split(';')
                .next()?;
            (!name.contains('{')).then_some(name.trim())
        })
        .flat_map(|name| {
            [
                folder.join(format!("{name}.rs")),
                folder.join(name).join("mod.rs"),
            ]
        })
        .collect()
}

/// The index of the `}` that closes the `{` at `open`; braces in strings
/// and in character literals (`'{'`) do not count.
fn closing_brace(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut at = open;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if in_string => at += 1,
            b'"' => in_string = !in_string,
            b'\'' if !in_string && bytes.get(at + 2) == Some(&b'\'') => at += 2,
            b'{' if !in_string => depth += 1,
            b'}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::without_test_items;

    #[test]
    fn test_items_go_and_the_code_after_them_stays() {
        let text = "fn a() {}\n#[cfg(test)]\nmod tests;\nfn b() { format!(\"{x:?}\") }\n\
                    #[cfg(test)]\nmod more {\n    fn c() { let s = \"}\"; let b = '{'; }\n}\nfn d() {}\n";
        let kept = without_test_items(text);
        assert!(kept.contains("fn a()") && kept.contains("fn b()") && kept.contains("fn d()"));
        assert!(
            !kept.contains("mod tests") && !kept.contains("fn c()"),
            "{kept}"
        );
    }
}
