//! Finds Rust-shaped text in what a person reads: Debug formatting
//! (`Price(4)`, `Some(3)`, `NoDeal`, `["a", "b"]`, `Name { field: 1 }`),
//! paths (`Maildir::create`) and escaped quotes. Capitalised words glued
//! together are allowed only when the game's own data writes them so.

use std::collections::BTreeSet;

use realmgm::magic_realm::data;

/// One Rust-shaped piece of a text.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    /// What it looks like ("Debug of an enum variant").
    pub what: &'static str,
    /// The word or sign found.
    pub found: String,
    /// The whole line it was found in.
    pub line: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}` in: {}", self.what, self.found, self.line.trim())
    }
}

/// The detector, with the glued words the game data allows.
pub struct Detector {
    allowed: BTreeSet<String>,
}

impl Detector {
    /// Allow every glued word of the names in the embedded game data
    /// (characters, their abilities, monsters, natives, horses, weapons,
    /// armour, treasures, spells, tiles).
    pub fn from_game_data() -> Detector {
        let data = data::get().expect("the embedded data loads");
        let mut names: Vec<&str> = Vec::new();
        for character in &data.characters {
            names.push(&character.name);
            names.extend(character.abilities.iter().map(|a| a.name.as_str()));
        }
        for monster in &data.monsters {
            names.push(&monster.name);
            names.extend(monster.parts.iter().map(|p| p.name.as_str()));
        }
        for group in &data.natives {
            names.push(&group.name);
            names.extend(group.members.iter().map(|m| m.name.as_str()));
        }
        names.extend(data.horses.iter().map(|h| h.name.as_str()));
        names.extend(data.weapons.iter().map(|w| w.name.as_str()));
        names.extend(data.armor.iter().map(|a| a.name.as_str()));
        names.extend(data.treasures.iter().map(|t| t.name.as_str()));
        names.extend(data.spells.iter().map(|s| s.name.as_str()));
        names.extend(data.tiles.all().iter().map(|t| t.name.as_str()));
        let allowed = names
            .iter()
            .flat_map(|name| words(name))
            .filter(|word| is_glued(word))
            .map(str::to_string)
            .collect();
        Detector { allowed }
    }

    /// Every Rust-shaped piece of `text`, line by line.
    pub fn findings(&self, text: &str) -> Vec<Finding> {
        let mut found = Vec::new();
        for line in text.lines() {
            let mut say = |what: &'static str, piece: &str| {
                found.push(Finding {
                    what,
                    found: piece.to_string(),
                    line: line.to_string(),
                });
            };
            for (start, word) in word_spans(line) {
                let after = &line[start + word.len()..];
                let capital = word.starts_with(|c: char| c.is_ascii_uppercase());
                if capital && after.starts_with('(') && !after.starts_with("(s)") {
                    say("Debug of an enum variant or struct", &format!("{word}("));
                } else if capital && after.starts_with(" { ") {
                    say("Debug of a struct", &format!("{word} {{"));
                } else if is_glued(word) && !self.allowed.contains(word) {
                    say("a type or variant name", word);
                } else if word == "None" && after.starts_with([',', ')', ']', '}']) {
                    say("Debug of an empty Option", word);
                }
                if after.starts_with("::")
                    && after[2..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                {
                    say("a Rust path", &format!("{word}::"));
                }
            }
            for (sign, what) in [
                ("[\"", "Debug of a list of strings"),
                ("\\\"", "an escaped quote"),
                ("\\n", "an escaped line break"),
            ] {
                if line.contains(sign) {
                    say(what, sign);
                }
            }
            if let Some(at) = line.find("{ ") {
                let rest = &line[at + 2..];
                let field: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !field.is_empty() && rest[field.len()..].starts_with(": ") {
                    say("Debug of a struct's field", &format!("{{ {field}:"));
                }
            }
        }
        found
    }
}

/// A word glued from capitalised parts (`NoDeal`, `BlockBattle`).
fn is_glued(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && word
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    word_spans(text).into_iter().map(|(_, word)| word)
}

/// The words of `line` (letters, digits and `_`) with where each starts.
fn word_spans(line: &str) -> Vec<(usize, &str)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let in_word = c.is_ascii_alphanumeric() || c == '_';
        match (in_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, &line[s..]));
    }
    spans
}

/// The text a person sees of an HTML page: no style or script, no tags,
/// the common entities decoded.
pub fn html_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        let skip_to = ["style", "script"]
            .into_iter()
            .find(|tag| rest[1..].starts_with(tag))
            .map(|tag| format!("</{tag}>"));
        let end = match skip_to {
            Some(close) => rest.find(&close).map(|i| i + close.len()),
            None => rest.find('>').map(|i| i + 1),
        };
        match end {
            Some(end) => rest = &rest[end..],
            None => rest = "",
        }
        text.push(' ');
    }
    text.push_str(rest);
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<String> {
        Detector::from_game_data()
            .findings(text)
            .into_iter()
            .map(|f| f.found)
            .collect()
    }

    #[test]
    fn debug_text_is_found() {
        assert_eq!(
            found("  Meets the Rogues: row 2: price ×4 = Price(4)."),
            ["Price("]
        );
        assert_eq!(found("row 6: no deal = NoDeal."), ["NoDeal"]);
        assert_eq!(found("he is BlockBattle"), ["BlockBattle"]);
        assert_eq!(found("create it with Maildir::create"), ["Maildir::"]);
        assert_eq!(found("day Some(3), then None."), ["Some("]);
        assert_eq!(found("kills [\"Rogue 1\", \"Rogue 2\"]"), ["[\""]);
        assert_eq!(
            found("Aim { character: \"Amazon\" }"),
            ["Aim {", "{ character:"]
        );
        assert_eq!(found("answered Report(None) for Ann"), ["Report(", "None"]);
        assert_eq!(found("Err(\\\"no\\\")"), ["Err(", "\\\""]);
    }

    #[test]
    fn report_lines_pass() {
        for line in [
            "=== realmgm report, day 3 ===",
            "  2. H: hides (5,3)",
            "    Locate: dice 6,4 → 6; row 6: nothing",
            "Meets the Rogues: Meeting: dice 2,3 → 3; row 3: price ×2 = price ×2.",
            "The Black Knight, the Woods Girl and the White Knight rest in Deep Woods 5.",
            "Hires Rogue 7 for 2 gold (Treasure(s) are kept).",
            "Combat: target weakest",
            "Password: <your secret>",
            "None of your orders were lost.",
            "Swordsman (P03): M EV5, H, S, S",
            "HIRE: the Company (ally): price ×1",
            "the Tremendous Flying Dragon; the Octopus; the T Serpent",
        ] {
            assert_eq!(found(line), Vec::<String>::new(), "{line}");
        }
    }

    #[test]
    fn html_is_read_as_its_text() {
        let page = "<style>p { color: red; }</style><p class=\"x\">price &times;4 &amp; \
                    &quot;NoDeal&quot;</p><script>a::b()</script>";
        assert_eq!(found(&html_text(page)), ["NoDeal"]);
    }
}
