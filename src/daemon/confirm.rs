//! The texts of the daemon's replies to orders: the orders echoed in their
//! canonical form, each problem with its line in the mail and its reason,
//! the warnings, and what changed since the previous version (a small line
//! diff). Pure functions: the caller supplies everything, including times.

use crate::campaign::format_utc;
use crate::game::{AcceptedOrders, OrdersProblem};

/// The opening of every mail the daemon writes; a player's reply that
/// quotes without `>` is cut here.
pub fn marker(tag: &str) -> String {
    format!("=== [{tag}]")
}

/// What the confirmation needs to know.
pub struct Confirmation<'a> {
    pub tag: &'a str,
    pub player: &'a str,
    pub day: u32,
    pub deadline: i64,
    pub version: u32,
    /// The orders as read, or every problem found.
    pub outcome: Result<&'a AcceptedOrders, &'a [OrdersProblem]>,
    /// The canonical text of the version in force before this one.
    pub previous: Option<&'a str>,
    /// Line `n` of the orders is line `first_line + n - 1` of the mail body.
    pub first_line: usize,
    /// Notes about the mail itself (ignored attachments, HTML-only, ...).
    pub notes: &'a [String],
}

/// The confirmation text.
pub fn confirmation(c: &Confirmation<'_>) -> String {
    let mut out = format!(
        "{} day {} orders of {} ===\n\n",
        marker(c.tag),
        c.day,
        c.player
    );
    match c.outcome {
        Ok(accepted) => {
            out.push_str(&format!(
                "Your orders for day {} are accepted (version {}):\n\n{}\n",
                c.day,
                c.version,
                accepted.canonical.trim_end()
            ));
            if !accepted.warnings.is_empty() {
                out.push_str("\nWarnings:\n");
                for warning in &accepted.warnings {
                    out.push_str(&format!("  - {warning}\n"));
                }
            }
            match c.previous {
                Some(previous) => {
                    let changes = line_diff(previous, &accepted.canonical);
                    if changes.is_empty() {
                        out.push_str("\nNo change from your previous version.\n");
                    } else {
                        out.push_str("\nChanged from your previous version:\n");
                        for line in changes {
                            out.push_str(&format!("  {line}\n"));
                        }
                    }
                }
                None => out.push_str("\nThese are your first orders for this day.\n"),
            }
        }
        Err(problems) => {
            out.push_str(&format!(
                "Your orders for day {} could not be read (kept as version {}):\n",
                c.day, c.version
            ));
            for problem in problems {
                out.push_str(&format!(
                    "  line {}, column {}: {}\n",
                    c.first_line + problem.line.saturating_sub(1),
                    problem.column,
                    problem.message
                ));
            }
            match c.previous {
                Some(previous) => out.push_str(&format!(
                    "\nYour earlier accepted orders stay in force:\n\n{}\n",
                    previous.trim_end()
                )),
                None => out.push_str(
                    "\nYou have no accepted orders for this day yet; correct the lines above \
                     and send them again.\n",
                ),
            }
        }
    }
    for note in c.notes {
        out.push_str(&format!("\nNote: {note}\n"));
    }
    out.push_str(&format!(
        "\nDeadline for day {}: {}. Send `help` for the commands.\n",
        c.day,
        format_utc(c.deadline)
    ));
    out
}

/// The lines removed (`- `) and added (`+ `) going from `old` to `new`, by
/// a longest-common-subsequence diff; empty when they are equal.
pub fn line_diff(old: &str, new: &str) -> Vec<String> {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    // lcs[i][j]: the longest common subsequence of old[i..] and new[j..].
    let mut lcs = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            i += 1;
            j += 1;
        } else if i < old.len() && (j == new.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("- {}", old[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", new[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_removed_and_added_lines_only() {
        assert!(line_diff("a\nb", "a\nb").is_empty());
        assert_eq!(line_diff("a\nb\nc", "a\nx\nc"), vec!["- b", "+ x"]);
        assert_eq!(line_diff("", "a"), vec!["+ a"]);
        assert_eq!(line_diff("a\nb", "b"), vec!["- a"]);
    }

    #[test]
    fn problems_name_the_line_of_the_mail() {
        let problems = [OrdersProblem {
            line: 2,
            column: 1,
            message: "not a number".into(),
        }];
        let text = confirmation(&Confirmation {
            tag: "T",
            player: "Ann",
            day: 3,
            deadline: 0,
            version: 2,
            outcome: Err(&problems),
            previous: Some("guess 5"),
            first_line: 4,
            notes: &["the attachment big.bin (2000000 bytes) was ignored".into()],
        });
        assert!(text.contains("line 5, column 1: not a number"), "{text}");
        assert!(text.contains("stay in force:\n\nguess 5"), "{text}");
        assert!(text.contains("Note: the attachment big.bin"), "{text}");
        assert!(text.starts_with("=== [T] day 3"), "{text}");
    }
}
