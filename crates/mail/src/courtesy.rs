//! The courtesies people write around their orders: a greeting above them
//! ("Hi GM,"), a sign-off below ("Thanks," "Cheers") and the name under it.
//! They are set aside before the orders are read, so a polite mail is not
//! refused for its manners; the confirmation names each line set aside.
//!
//! A set-aside line becomes a blank line: every other line keeps its
//! number, so an error still points at the line as the player wrote it.
//! Only the lines before the first and after the last line of content are
//! looked at, and only words a greeting or a sign-off is made of: a line of
//! orders never matches (no activity, key or command starts with them).
//!
//! Prose is set aside the same way, by [`set_aside_prose`]: the lines
//! before the first line that reads as orders and after the last one
//! ("here are my orders for day 1."). A line between two lines of orders
//! is never set aside: it is read, and an error if it reads as nothing.

/// Words that open a greeting line.
const GREETINGS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "dear",
    "greetings",
    "howdy",
    "hiya",
    "good morning",
    "good afternoon",
    "good evening",
    "good day",
];

/// Words that open a sign-off line.
const SIGN_OFFS: &[&str] = &[
    "thanks",
    "thank you",
    "thx",
    "cheers",
    "regards",
    "best",
    "best regards",
    "best wishes",
    "kind regards",
    "yours",
    "sincerely",
    "all the best",
    "good luck",
    "happy gaming",
    "see you",
    "take care",
    "ta",
];

/// The longest courtesy line looked at: a longer line is content.
const LONGEST: usize = 60;

/// The mail's text with its courtesy lines blanked, and one note per line
/// set aside for the confirmation. `first_line` is the body line number of
/// the text's first line, so notes name lines as the player counts them.
pub fn set_aside(text: &str, first_line: usize) -> (String, Vec<String>) {
    let mut lines: Vec<&str> = text.lines().collect();
    let mut notes = Vec::new();
    let mut blank = |lines: &mut Vec<&str>, index: usize, what: &str| {
        notes.push(format!(
            "line {} (\"{}\") was read as {what} and left out",
            first_line + index,
            lines[index].trim()
        ));
        lines[index] = "";
    };
    let content: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim().is_empty())
        .collect();
    // Greetings: the first lines of content, while they are greetings.
    for &index in &content {
        if !opens_with(lines[index], GREETINGS) {
            break;
        }
        blank(&mut lines, index, "a greeting");
    }
    // A mail app's footer under everything ("Sent from my iPhone"), then
    // sign-offs from the bottom: a name under a sign-off, and the sign-off.
    let mut remaining: Vec<usize> = content
        .iter()
        .copied()
        .filter(|&i| !lines[i].trim().is_empty())
        .collect();
    if let Some(&last) = remaining.last()
        && is_app_footer(lines[last])
    {
        blank(&mut lines, last, "a mail app's footer");
        remaining.pop();
    }
    if let [.., before, last] = remaining[..]
        && opens_with(lines[before], SIGN_OFFS)
        && is_name(lines[last])
    {
        blank(&mut lines, before, "a sign-off");
        blank(&mut lines, last, "a name under the sign-off");
        return (lines.join("\n"), notes);
    }
    if let Some(&last) = remaining.last()
        && (opens_with(lines[last], SIGN_OFFS) || is_dashed_name(lines[last]))
    {
        let what = if is_dashed_name(lines[last]) {
            "a name under the orders"
        } else {
            "a sign-off"
        };
        blank(&mut lines, last, what);
    }
    (lines.join("\n"), notes)
}

/// The longest quote of a set-aside line in its note.
const QUOTED: usize = 60;

/// The text with the lines of prose around the orders blanked, and one
/// note per line set aside. `reads_as_orders` is the game's test of a line;
/// when no line passes it, nothing is set aside, so the player hears what
/// each line was expected to be.
pub fn set_aside_prose(
    text: &str,
    first_line: usize,
    reads_as_orders: impl Fn(&str) -> bool,
) -> (String, Vec<String>) {
    let mut lines: Vec<&str> = text.lines().collect();
    let orders: Vec<usize> = (0..lines.len())
        .filter(|&i| reads_as_orders(lines[i]))
        .collect();
    let (Some(&first), Some(&last)) = (orders.first(), orders.last()) else {
        return (text.to_string(), Vec::new());
    };
    let mut notes = Vec::new();
    for index in (0..first).chain(last + 1..lines.len()) {
        let line = lines[index].trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        notes.push(format!(
            "line {} (\"{}\") is not orders and was left out",
            first_line + index,
            super::inbound::one_line(line, QUOTED)
        ));
        lines[index] = "";
    }
    (lines.join("\n"), notes)
}

/// The line starts with one of `openers` as whole words, and reads as a
/// courtesy: short, no `key:` and no digits.
fn opens_with(line: &str, openers: &[&str]) -> bool {
    let line = line.trim();
    if line.len() > LONGEST || line.contains(':') || line.chars().any(|c| c.is_ascii_digit()) {
        return false;
    }
    let folded = line.to_lowercase();
    openers.iter().any(|opener| {
        folded
            .strip_prefix(opener)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| !c.is_alphanumeric()))
    })
}

/// One to three words of letters, each capitalised, as a signature is:
/// `Dave`, `Dave S.`, `Mary Ann Jones`.
fn is_name(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    (1..=3).contains(&words.len())
        && words.iter().all(|word| {
            let letters = word.trim_end_matches(['.', ',']);
            letters.starts_with(|c: char| c.is_uppercase())
                && letters
                    .chars()
                    .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
        })
}

/// The line a phone's or a program's mail app writes under every mail.
fn is_app_footer(line: &str) -> bool {
    let folded = line.trim().to_lowercase();
    folded.len() <= LONGEST
        && ["sent from my ", "sent from mail for ", "get outlook for "]
            .iter()
            .any(|start| folded.starts_with(start))
}

/// A name signed with a dash: `- Dave`, `--Dave`.
fn is_dashed_name(line: &str) -> bool {
    let trimmed = line.trim();
    let name = trimmed.trim_start_matches(['-', '–', '—']);
    name.len() < trimmed.len() && is_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sign_off_above_a_mail_apps_footer_is_still_a_sign_off() {
        let (text, notes) = set_aside("M CV4, H\n\nCheers,\nBen\n\nSent from my iPhone", 1);
        assert_eq!(text, "M CV4, H\n\n\n\n\n");
        assert_eq!(
            notes,
            [
                "line 6 (\"Sent from my iPhone\") was read as a mail app's footer and left out",
                "line 3 (\"Cheers,\") was read as a sign-off and left out",
                "line 4 (\"Ben\") was read as a name under the sign-off and left out",
            ]
        );
    }

    #[test]
    fn a_greeting_and_a_signed_sign_off_are_set_aside_keeping_line_numbers() {
        let (text, notes) = set_aside("Hi GM,\n\nM CV4, H, S\nBuy: Shield\n\nThanks,\nDave", 1);
        assert_eq!(text, "\n\nM CV4, H, S\nBuy: Shield\n\n\n");
        assert_eq!(
            notes,
            [
                "line 1 (\"Hi GM,\") was read as a greeting and left out",
                "line 6 (\"Thanks,\") was read as a sign-off and left out",
                "line 7 (\"Dave\") was read as a name under the sign-off and left out",
            ]
        );
    }

    #[test]
    fn orders_are_never_taken_for_courtesies() {
        for orders in [
            "H, H, S, S",
            "M CV4, H, S\nHire: Rogues",
            "Dear\nM CV4",
            "M-CV2 / R-V3* / SPX / SP",
            "Hide",
            "T, T\nBest: no such key",
        ] {
            let (text, notes) = set_aside(orders, 1);
            if orders.starts_with("Dear") {
                assert_eq!(notes.len(), 1, "{orders}");
                continue;
            }
            assert_eq!(
                text,
                orders.lines().collect::<Vec<_>>().join("\n"),
                "{orders}"
            );
            assert!(notes.is_empty(), "{orders}: {notes:?}");
        }
    }

    #[test]
    fn prose_before_and_after_the_orders_is_set_aside_but_not_between() {
        let orders = |line: &str| line.starts_with("M ") || line.starts_with("S");
        let text = "here are my orders\nM CV4, H\nno idea what this is\nS, S\nsee you";
        let (kept, notes) = set_aside_prose(text, 3, orders);
        assert_eq!(kept, "\nM CV4, H\nno idea what this is\nS, S\n");
        assert_eq!(
            notes,
            [
                "line 3 (\"here are my orders\") is not orders and was left out",
                "line 7 (\"see you\") is not orders and was left out",
            ]
        );
        // Without a line of orders nothing is set aside: each line is read
        // and its error tells what was expected.
        let (kept, notes) = set_aside_prose("just chatting", 1, orders);
        assert_eq!((kept.as_str(), notes.len()), ("just chatting", 0));
    }

    #[test]
    fn a_dashed_name_or_a_lone_sign_off_ends_the_orders() {
        let (_, notes) = set_aside("M CV4, H\n- Dave", 3);
        assert_eq!(
            notes,
            ["line 4 (\"- Dave\") was read as a name under the orders and left out"]
        );
        let (_, notes) = set_aside("M CV4, H\nCheers!", 1);
        assert_eq!(notes.len(), 1);
        let (text, notes) = set_aside("M CV4, H\nDave", 1);
        assert!(notes.is_empty(), "a bare last word may be orders: {text}");
    }
}
