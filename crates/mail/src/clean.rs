//! Cut a reply body down to the player's new text, so a player can answer
//! his report by writing orders on top and sending the whole thing back.
//!
//! Cut points, like brdgme's reply parser (reference pbem-practice.md §1.6):
//! a quoted line (`>`), an attribution ("On <date>, X wrote:", also wrapped
//! over up to three lines and in a few other languages), Outlook's
//! "-----Original Message-----" or underscore rule, an Outlook header block
//! ("From: …" followed by "Sent:"/"Date:"), the signature marker `-- `, and
//! any caller-supplied marker line (e.g. the first line of our report).
//!
//! The kept text is one contiguous run of the original lines, so an error on
//! line `n` of the cleaned text is on line `first_line + n - 1` of the body.

/// The player's own text out of a reply body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CleanedBody {
    /// The kept lines, joined with `\n`, without trailing blank lines.
    pub text: String,
    /// 1-based line number, in the original body, of the first kept line.
    pub first_line: usize,
    /// What ended the kept text, when something did.
    pub cut: Option<CutReason>,
}

impl CleanedBody {
    /// The original body line number of `cleaned_line` (1-based).
    pub fn original_line(&self, cleaned_line: usize) -> usize {
        self.first_line + cleaned_line.saturating_sub(1)
    }
}

/// Why the kept text ends where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutReason {
    QuotedLine,
    Attribution,
    OriginalMessage,
    OutlookHeader,
    Signature,
    Marker,
}

/// Clean a reply body with the built-in cut points only.
pub fn clean_reply(body: &str) -> CleanedBody {
    clean_reply_with_markers(body, &[])
}

/// Clean a reply body; a line whose trimmed text starts with one of `markers`
/// also cuts (the daemon passes the opening line of its own reports, which
/// catches clients that quote without `>`).
pub fn clean_reply_with_markers(body: &str, markers: &[&str]) -> CleanedBody {
    let lines: Vec<&str> = body.lines().collect();
    // Bottom-posters put the quote first and their text under it: skip a
    // leading quoted block (and the attribution over it) to reach their text.
    let mut start = 0;
    loop {
        while start < lines.len() && lines[start].trim().is_empty() {
            start += 1;
        }
        match cut_at(&lines, start, markers) {
            Some(CutReason::QuotedLine | CutReason::Attribution) => {
                start = skip_quote_block(&lines, start);
            }
            _ => break,
        }
        if start >= lines.len() {
            break;
        }
    }
    let mut end = start;
    let mut cut = None;
    while end < lines.len() {
        if let Some(reason) = cut_at(&lines, end, markers) {
            cut = Some(reason);
            break;
        }
        end += 1;
    }
    // A wrapped attribution may begin on the line(s) just before the cut.
    let mut kept: Vec<&str> = lines[start.min(lines.len())..end].to_vec();
    if cut == Some(CutReason::QuotedLine) {
        drop_trailing_attribution(&mut kept);
    }
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    if kept.is_empty() {
        return CleanedBody {
            text: String::new(),
            first_line: (start + 1).min(lines.len().max(1)),
            cut,
        };
    }
    CleanedBody {
        text: kept.join("\n"),
        first_line: start + 1,
        cut,
    }
}

/// The index after a quoted block that starts at `start` (attribution, `>`
/// lines and blank lines between them).
fn skip_quote_block(lines: &[&str], start: usize) -> usize {
    let mut i = start;
    if !is_quoted(lines[i]) {
        // An attribution: skip to the line that ends with its verb.
        while i < lines.len() && !ends_attribution(lines[i]) {
            i += 1;
        }
        i += 1;
    }
    while i < lines.len() && (is_quoted(lines[i]) || lines[i].trim().is_empty()) {
        i += 1;
    }
    i
}

/// Why line `i` ends the player's text, if it does.
fn cut_at(lines: &[&str], i: usize, markers: &[&str]) -> Option<CutReason> {
    let line = lines.get(i)?;
    let trimmed = line.trim();
    if is_quoted(line) {
        return Some(CutReason::QuotedLine);
    }
    if *line == "-- " || trimmed == "--" {
        return Some(CutReason::Signature);
    }
    if is_original_message_rule(trimmed) {
        return Some(CutReason::OriginalMessage);
    }
    if starts_attribution(trimmed) {
        // The attribution may wrap over up to three lines.
        let wrapped = lines[i..].iter().take(3).position(|l| ends_attribution(l));
        if wrapped.is_some() {
            return Some(CutReason::Attribution);
        }
    }
    if header_name(trimmed).is_some_and(|h| h == "from") {
        let next_headers = lines[i + 1..]
            .iter()
            .take(4)
            .filter_map(|l| header_name(l.trim()))
            .any(|h| matches!(h.as_str(), "sent" | "date" | "to" | "subject"));
        if next_headers {
            return Some(CutReason::OutlookHeader);
        }
    }
    if markers
        .iter()
        .any(|m| !m.trim().is_empty() && trimmed.starts_with(m.trim()))
    {
        return Some(CutReason::Marker);
    }
    None
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn is_original_message_rule(trimmed: &str) -> bool {
    let lower = trimmed.to_ascii_lowercase();
    (lower.starts_with("-----") && lower.contains("original message"))
        || (lower.starts_with("-----") && lower.contains("forwarded message"))
        || (trimmed.len() >= 20 && trimmed.chars().all(|c| c == '_'))
}

/// Attribution openers: English, German, French, Spanish, Dutch.
fn starts_attribution(trimmed: &str) -> bool {
    ["On ", "Am ", "Le ", "El ", "Op "]
        .iter()
        .any(|p| trimmed.starts_with(p))
}

/// The closing line of an attribution: it ends with the verb ("… wrote:"),
/// or, where the language puts the verb before the name ("Am … schrieb X:"),
/// it holds the verb and ends with a colon.
fn ends_attribution(line: &str) -> bool {
    let lower = line.trim_end().to_lowercase();
    let bare = lower.trim_end_matches(':').trim_end();
    let verbs = ["wrote", "schrieb", "a écrit", "escribió", "geschreven"];
    verbs.iter().any(|verb| bare.ends_with(verb))
        || (lower.ends_with(':')
            && verbs
                .iter()
                .any(|verb| lower.contains(&format!(" {verb} "))))
}

/// The lower-cased name of an Outlook-style `Name: value` header line.
fn header_name(trimmed: &str) -> Option<String> {
    let trimmed = trimmed.trim_start_matches('*');
    let (name, _) = trimmed.split_once(':')?;
    let name = name.trim_end_matches('*').trim();
    (!name.is_empty() && name.len() <= 12 && name.chars().all(|c| c.is_alphabetic()))
        .then(|| name.to_lowercase())
}

/// Remove an attribution whose final "wrote:" line ends the kept lines (the
/// cut was detected at the quote under it, because the opener line was
/// wrapped further than three lines or started differently).
fn drop_trailing_attribution(kept: &mut Vec<&str>) {
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    if kept.last().is_some_and(|l| ends_attribution(l)) {
        kept.pop();
        let opener = kept
            .iter()
            .rposition(|l| starts_attribution(l.trim()))
            .filter(|&p| kept.len() - p <= 3);
        if let Some(p) = opener {
            kept.truncate(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_kept_whole() {
        let cleaned = clean_reply("H / H\nM-CV5\n\n");
        assert_eq!(cleaned.text, "H / H\nM-CV5");
        assert_eq!(cleaned.first_line, 1);
        assert_eq!(cleaned.cut, None);
    }

    #[test]
    fn quoted_report_under_orders_is_cut() {
        let body = "\n\nM-CV5 / H\nS / S\n\nOn Tue, 4 Mar 2025 at 09:00, Game Master <gm@realmgm.test> wrote:\n> Day 3\n> You are in the Caves.\n";
        let cleaned = clean_reply(body);
        assert_eq!(cleaned.text, "M-CV5 / H\nS / S");
        assert_eq!(cleaned.first_line, 3);
        assert_eq!(cleaned.original_line(2), 4);
        assert_eq!(cleaned.cut, Some(CutReason::Attribution));
    }

    #[test]
    fn wrapped_attribution_is_cut() {
        let body = "H\n\nOn Tue, Mar 4, 2025 at 9:12 AM Game Master <\ngm@realmgm.test> wrote:\n\n> report\n";
        let cleaned = clean_reply(body);
        assert_eq!(cleaned.text, "H");
        assert_eq!(cleaned.cut, Some(CutReason::Attribution));
    }

    #[test]
    fn long_attribution_before_quote_is_dropped() {
        let body = "H\nOn a very long day\nthe Game\nMaster of realmgm\nwrote:\n> report\n";
        assert_eq!(clean_reply(body).text, "H");
    }

    #[test]
    fn signature_and_outlook_blocks() {
        assert_eq!(clean_reply("H\n-- \nAnn\n").text, "H");
        assert_eq!(clean_reply("H\n--\nAnn\n").cut, Some(CutReason::Signature));
        let outlook =
            "R\r\n\r\n-----Original Message-----\r\nFrom: GM\r\nSent: Tuesday\r\n\r\nDay 3\r\n";
        let cleaned = clean_reply(outlook);
        assert_eq!(cleaned.text, "R");
        assert_eq!(cleaned.cut, Some(CutReason::OriginalMessage));
        let header_only = "R\n\nFrom: Game Master <gm@realmgm.test>\nSent: Tuesday, March 4, 2025 9:00 AM\nTo: Ann\nSubject: Day 3\n\nreport";
        assert_eq!(clean_reply(header_only).cut, Some(CutReason::OutlookHeader));
        assert_eq!(clean_reply(header_only).text, "R");
    }

    #[test]
    fn a_lone_from_line_in_orders_is_not_a_header_block() {
        let body = "From: the Inn I go east\nM-CV5\n";
        assert_eq!(clean_reply(body).text, "From: the Inn I go east\nM-CV5");
    }

    #[test]
    fn bottom_posted_reply_keeps_text_under_the_quote() {
        let body = "On Tue, GM wrote:\n> Day 3 report\n> more\n\nH / H\n";
        let cleaned = clean_reply(body);
        assert_eq!(cleaned.text, "H / H");
        assert_eq!(cleaned.first_line, 5);
    }

    #[test]
    fn caller_markers_cut() {
        let body = "H\n=== realmgm report, day 3 ===\nYou are in the Caves.";
        let cleaned = clean_reply_with_markers(body, &["=== realmgm report"]);
        assert_eq!(cleaned.text, "H");
        assert_eq!(cleaned.cut, Some(CutReason::Marker));
    }

    #[test]
    fn empty_and_all_quoted_bodies() {
        let empty = clean_reply("");
        assert_eq!(empty.text, "");
        assert_eq!(empty.first_line, 1);
        assert_eq!(clean_reply("> only a quote\n>\n").text, "");
    }
}
