//! The program's own code as the guards that read it need it: every Rust
//! file under a folder, test code left out.

use std::path::{Path, PathBuf};

/// The program's code under `folder` (a path from the repository's root),
/// each file with its path from the root and its text without test code:
/// files only tests compile (`tests.rs`, `*_tests.rs`, `test_*.rs`, modules
/// declared for tests only) are left out, and items marked `#[cfg(test)]`
/// are cut from the others.
pub fn program_code(folder: &str) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = rust_files_under(&root.join(folder));
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let test_only: Vec<PathBuf> = files
        .iter()
        .zip(&texts)
        .flat_map(|(file, text)| crate::source_code::test_only_children(file, text))
        .collect();
    files
        .into_iter()
        .zip(texts)
        .filter(|(file, _)| {
            let name = file.file_name().unwrap().to_string_lossy();
            !(test_only.contains(file)
                || name == "tests.rs"
                || name.ends_with("_tests.rs")
                || name.starts_with("test_"))
        })
        .map(|(file, text)| {
            let text = crate::source_code::without_test_items(&text);
            (file.strip_prefix(root).unwrap().to_path_buf(), text)
        })
        .collect()
}

/// Every `.rs` file under `folder`, sorted.
fn rust_files_under(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files_under(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}
