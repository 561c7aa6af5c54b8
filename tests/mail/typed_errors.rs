//! The guard of typed errors: library code returns an error type that
//! names what went wrong, never `Result<_, String>`, so a caller can tell
//! one failure from another and the words a person reads are written once,
//! on the error. Every crate's `src/` and the application's are read as
//! text, without comments and test code.

use std::path::Path;

/// Every `Result<…, String>` in `code`, as written (spaces and line
/// breaks as one space).
fn string_results(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("Result<") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let inside = &code[at + "Result<".len()..];
        let Some(arguments) = type_arguments(inside) else {
            continue;
        };
        let error = arguments
            .last()
            .map(|e| e.split_whitespace().collect::<String>());
        let names_string = error.is_some_and(|e| {
            ["String", "std::string::String", "alloc::string::String"].contains(&e.as_str())
        });
        if arguments.len() == 2 && names_string {
            let written = format!("Result<{}>", arguments.join(","));
            found.push(written.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    found
}

/// The type arguments of the generic list that `inside` continues (after
/// its `<`), split at its own commas; `None` when it is not closed.
fn type_arguments(inside: &str) -> Option<Vec<&str>> {
    let mut arguments = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut previous = ' ';
    for (at, c) in inside.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            // `->` in a function type closes nothing.
            '>' if previous == '-' => {}
            '>' | ')' | ']' if depth == 0 => {
                arguments.push(&inside[start..at]);
                // A trailing comma ends the list with nothing.
                arguments.retain(|argument| !argument.trim().is_empty());
                return Some(arguments);
            }
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                arguments.push(&inside[start..at]);
                start = at + 1;
            }
            _ => {}
        }
        previous = c;
    }
    None
}

/// The code of a source file without test items and comments.
fn code_of(text: &str) -> String {
    crate::source_code::without_test_items(text)
        .lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn library_code_returns_no_string_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = vec![root.join("src")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        folders.push(entry.path().join("src"));
    }
    let mut read = 0;
    let mut listed = Vec::new();
    for (file, text) in folders
        .iter()
        .flat_map(|folder| crate::source_code::library_files(folder))
    {
        read += 1;
        let source = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        listed.extend(
            string_results(&code_of(&text))
                .into_iter()
                .map(|written| format!("{source}: {written}")),
        );
    }
    assert!(read > 200, "read {read} files");
    assert!(
        listed.is_empty(),
        "Result<_, String> in library code; return an error type that names what went \
         wrong (thiserror), its message the words people read:\n{}",
        listed.join("\n")
    );
}

#[test]
fn the_guard_sees_a_string_error_however_it_is_written() {
    let wrong = [
        "fn a() -> Result<(), String> {}",
        "fn a() -> Result<Vec<String>,String> {}",
        "fn a(\n) -> Result<\n    BTreeMap<String, String>,\n    String,\n> {}",
        "type Checked = std::result::Result<(String, u8), std::string::String>;",
        "fn a() -> Result<Box<dyn Fn(u8) -> u8>, String> {}",
        "fn a() {}\n#[cfg(test)]\nmod tests {}\nfn b() -> Result<u8, String> {}",
        "fn a() { let parse = |t: &str| -> Result<u8, String> { Ok(1) }; }",
    ];
    for text in wrong {
        assert_eq!(string_results(&code_of(text)).len(), 1, "{text}");
    }
    let fine = [
        "fn a() -> Result<String, SetupError> {}",
        "fn a() -> Result<BTreeMap<String, String>, SetupError> {}",
        "fn a() -> io::Result<String> {}",
        "fn a() -> anyhow::Result<String> {}",
        "// once: fn a() -> Result<(), String>",
        "#[cfg(test)]\nmod tests {\n    fn a() -> Result<(), String> {}\n}",
        "fn a() -> MyResult<u8, String> {}",
    ];
    for text in fine {
        assert!(string_results(&code_of(text)).is_empty(), "{text}");
    }
}
