//! The guard of comments that say why: no code cites an issue of the
//! tracker by its number. An issue is history that a reader of the code
//! may not have; the reason it gave belongs in the comment, in the
//! project's own words. Every Rust file is read as text, test code included.

use std::path::Path;

/// Each citation of an issue in `text`, as its line number and line: the
/// word "issue" or "issues" in any case, then a number, `#` or `§`, on
/// the same line or at the start of the next comment line.
fn issue_citations(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let lower = line.to_lowercase();
        let cites = lower.match_indices("issue").any(|(start, word)| {
            let before = lower[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                return false;
            }
            let after = &lower[start + word.len()..];
            let after = after.strip_prefix('s').unwrap_or(after);
            let next = match after.trim_start() {
                "" => lines.get(at + 1).map_or("", |next| {
                    next.trim_start()
                        .trim_start_matches(['/', '!', '*'])
                        .trim_start()
                }),
                rest if rest.len() < after.len() => rest,
                _ => return false,
            };
            next.starts_with(|c: char| c.is_ascii_digit() || c == '#' || c == '§')
        });
        if cites {
            found.push((at + 1, line.trim().to_string()));
        }
    }
    found
}

#[test]
fn code_cites_no_issue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut read = 0;
    let mut listed = Vec::new();
    for folder in ["src", "crates", "tests", "benches", "fuzz"] {
        for file in crate::source_code::rust_files(&root.join(folder)) {
            read += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            let source = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string();
            listed.extend(
                issue_citations(&text)
                    .into_iter()
                    .map(|(line, written)| format!("{source}:{line}: {written}")),
            );
        }
    }
    assert!(read > 300, "read {read} files");
    assert!(
        listed.is_empty(),
        "code cites an issue; say the reason in the comment itself:\n{}",
        listed.join("\n")
    );
}

// The citations below are written with an escaped space or line break
// (`\u{20}`, `\u{0a}`) so that this file, read as text by the guard (or by
// any scan of the source), cites nothing itself.
#[test]
fn the_guard_sees_an_issue_however_it_is_cited() {
    let cited = [
        "// issue\u{20}7",
        "//! Reports by mail (Issue\u{20}19 §3): the daemon",
        "//! The database's two locks (issues\u{20}19 §2 and 31 §2)",
        "/// Round-by-round combat (issue\u{20}#6 §7)",
        "//! Setup by mail (issue\u{20}§8)",
        "//! a hired leader (play summary IV.A; issue\u{0a}//! 17 §1)",
    ];
    for text in cited {
        assert_eq!(issue_citations(text).len(), 1, "{text}");
    }
    let fine = [
        "// an issue with the parser",
        "//! The rule as played (3.1 rule 7.4.4; play summary II.C.10)",
        "//! the tables (TABLES.md §15.1)",
        "let issued = 3;",
        "// a tissue\u{20}3 ply",
        "// the issue\n// is the parser",
    ];
    for text in fine {
        assert!(issue_citations(text).is_empty(), "{text}");
    }
}
