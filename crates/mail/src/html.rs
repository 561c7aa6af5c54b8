//! HTML mail bodies turned into readable plain text, for players whose mail
//! client sends HTML only (reference pbem-practice.md §1.1: HTML-only mail
//! was a standing pitfall for Eressea, which rejected it; we read it instead).
//!
//! Deliberately small: scripts, styles and the head are dropped, block
//! elements and `<br>` become line breaks, list items get a dash, entities are
//! decoded, and text inside `<blockquote>` is prefixed with `> ` so that the
//! reply cleaner strips a quoted report exactly as it does in plain text.

/// Elements whose content is never shown to a reader.
const HIDDEN: &[&str] = &["script", "style", "head", "title", "template", "noscript"];

/// Elements that start and end a line of their own.
const BLOCKS: &[&str] = &[
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "tr", "pre", "hr",
    "section", "article", "header", "footer", "address", "dl", "dt", "dd", "center", "form",
    "fieldset", "body", "html",
];

/// Convert an HTML document or fragment to plain text. Never fails: broken
/// markup degrades to text with the tags removed.
pub fn html_to_text(html: &str) -> String {
    let mut out = TextBuilder::default();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.text(&rest[..lt]);
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = match after.find("-->") {
                Some(end) => &after[end + 3..],
                None => "",
            };
            continue;
        }
        let Some(tag_len) = tag_length(rest) else {
            // A lone '<' that opens no tag is ordinary text ("a < b").
            out.text("<");
            rest = &rest[1..];
            continue;
        };
        let tag = Tag::parse(&rest[1..tag_len - 1]);
        rest = &rest[tag_len..];
        if !tag.closing && HIDDEN.contains(&tag.name.as_str()) {
            rest = skip_past_closing(rest, &tag.name);
            continue;
        }
        out.tag(&tag);
    }
    out.text(rest);
    out.finish()
}

/// Length in bytes of the tag starting at `s` (which begins with '<'),
/// honouring quoted attribute values; None when `s` does not open a tag.
fn tag_length(s: &str) -> Option<usize> {
    let next = s[1..].chars().next()?;
    if !(next.is_ascii_alphabetic() || next == '/' || next == '!' || next == '?') {
        return None;
    }
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(i + 1),
            (None, _) => {}
        }
    }
    None
}

/// The rest of the document after `</name ...>`, or nothing when the element
/// is never closed.
fn skip_past_closing<'a>(rest: &'a str, name: &str) -> &'a str {
    let lower = rest.to_ascii_lowercase();
    let needle = format!("</{name}");
    match lower.find(&needle) {
        Some(at) => match rest[at..].find('>') {
            Some(end) => &rest[at + end + 1..],
            None => "",
        },
        None => "",
    }
}

struct Tag {
    name: String,
    closing: bool,
}

impl Tag {
    fn parse(inner: &str) -> Tag {
        let inner = inner.trim();
        let (closing, inner) = match inner.strip_prefix('/') {
            Some(rest) => (true, rest.trim_start()),
            None => (false, inner),
        };
        let name: String = inner
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        Tag { name, closing }
    }
}

/// Accumulates output lines, collapsing whitespace outside `<pre>` and
/// prefixing quoted lines.
#[derive(Default)]
struct TextBuilder {
    lines: Vec<String>,
    line: String,
    /// Text was written to `line` (beyond the quote prefix).
    line_has_text: bool,
    pending_space: bool,
    quote_depth: usize,
    pre_depth: usize,
}

impl TextBuilder {
    fn text(&mut self, raw: &str) {
        if raw.is_empty() {
            return;
        }
        let decoded = decode_entities(raw);
        if self.pre_depth > 0 {
            for (i, piece) in decoded.split('\n').enumerate() {
                if i > 0 {
                    self.break_line();
                }
                self.push_word(piece.trim_end_matches('\r'));
            }
            return;
        }
        for (i, word) in decoded
            .split(|c: char| c.is_whitespace() && c != '\u{a0}')
            .enumerate()
        {
            if i > 0 {
                self.pending_space = true;
            }
            if !word.is_empty() {
                self.push_word(word);
            }
        }
    }

    fn push_word(&mut self, word: &str) {
        if !self.line_has_text {
            self.line = "> ".repeat(self.quote_depth);
            self.pending_space = false;
        } else if self.pending_space {
            self.line.push(' ');
        }
        self.pending_space = false;
        self.line.push_str(&word.replace('\u{a0}', " "));
        self.line_has_text = !word.is_empty() || self.line_has_text;
    }

    /// End the current line (an empty line when nothing was written).
    fn break_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        let line = if self.line_has_text {
            line
        } else {
            "> ".repeat(self.quote_depth)
        };
        self.lines.push(line.trim_end().to_string());
        self.line_has_text = false;
        self.pending_space = false;
    }

    /// End the current line only when it holds text.
    fn ensure_line_start(&mut self) {
        if self.line_has_text {
            self.break_line();
        }
    }

    fn tag(&mut self, tag: &Tag) {
        match tag.name.as_str() {
            "br" => self.break_line(),
            "li" if !tag.closing => {
                self.ensure_line_start();
                self.push_word("-");
                self.pending_space = true;
            }
            "li" => self.ensure_line_start(),
            "blockquote" => {
                self.ensure_line_start();
                if tag.closing {
                    self.quote_depth = self.quote_depth.saturating_sub(1);
                } else {
                    self.quote_depth += 1;
                }
            }
            "pre" => {
                self.ensure_line_start();
                if tag.closing {
                    self.pre_depth = self.pre_depth.saturating_sub(1);
                } else {
                    self.pre_depth += 1;
                }
            }
            "td" | "th" if !tag.closing => self.pending_space = true,
            "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                // Paragraphs are separated by a blank line, as a reader expects.
                self.ensure_line_start();
                if self.lines.last().is_some_and(|l| !is_blank_quote(l)) {
                    self.break_line();
                }
            }
            name if BLOCKS.contains(&name) => self.ensure_line_start(),
            _ => {}
        }
    }

    fn finish(mut self) -> String {
        self.ensure_line_start();
        // At most one blank line in a row, none at either end.
        let mut kept: Vec<String> = Vec::with_capacity(self.lines.len());
        for line in self.lines {
            if is_blank_quote(&line) && kept.last().is_none_or(|l| is_blank_quote(l)) {
                continue;
            }
            kept.push(line);
        }
        while kept.last().is_some_and(|l| is_blank_quote(l)) {
            kept.pop();
        }
        kept.join("\n")
    }
}

/// An empty line, or one holding nothing but quote markers.
fn is_blank_quote(line: &str) -> bool {
    line.chars().all(|c| c == '>' || c.is_whitespace())
}

/// Decode character references: the common named entities and every
/// numeric one. Unknown names stay as written.
pub fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest
            .char_indices()
            .take(12)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|end| decode_entity(&rest[1..end]).map(|c| (c, end)));
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode_entity(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse::<u32>().ok()?,
        };
        return Some(char::from_u32(code).unwrap_or('\u{fffd}'));
    }
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "hellip" => '…',
        "mdash" => '—',
        "ndash" => '–',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "bull" => '•',
        "middot" => '·',
        "euro" => '€',
        "pound" => '£',
        "deg" => '°',
        "times" => '×',
        "eacute" => 'é',
        "egrave" => 'è',
        "agrave" => 'à',
        "aacute" => 'á',
        "ccedil" => 'ç',
        "auml" => 'ä',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "Auml" => 'Ä',
        "Ouml" => 'Ö',
        "Uuml" => 'Ü',
        "szlig" => 'ß',
        _ => return None,
    };
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_breaks_and_entities() {
        let html = "<html><head><title>x</title><style>p{color:red}</style></head>\
            <body><p>Move to <b>Cave&nbsp;5</b> &amp; hide</p><p>line one<br>line two</p>\
            <script>alert('no')</script></body></html>";
        assert_eq!(
            html_to_text(html),
            "Move to Cave 5 & hide\n\nline one\nline two"
        );
    }

    #[test]
    fn lists_and_divs() {
        let html = "<div>Orders:</div><ul><li>M-CV5</li><li>H</li></ul><div>thanks</div>";
        assert_eq!(html_to_text(html), "Orders:\n- M-CV5\n- H\nthanks");
    }

    #[test]
    fn blockquote_lines_are_marked_as_quotes() {
        let html = "<div>H / H</div><div class=\"gmail_quote\">On Mon, GM wrote:<br>\
            <blockquote>Day 3 report<br>You are in the <i>Ruins</i>.</blockquote></div>";
        assert_eq!(
            html_to_text(html),
            "H / H\nOn Mon, GM wrote:\n> Day 3 report\n> You are in the Ruins."
        );
    }

    #[test]
    fn numeric_entities_and_unknown_names() {
        assert_eq!(
            decode_entities("&#233;t&#xE9; &bogus; a&b"),
            "été &bogus; a&b"
        );
        assert_eq!(decode_entities("&#xFFFFFFF;"), "\u{fffd}");
    }

    #[test]
    fn pre_keeps_line_breaks_and_spaces() {
        let html = "<pre>M  CV5\nH</pre>after";
        assert_eq!(html_to_text(html), "M  CV5\nH\nafter");
    }

    #[test]
    fn broken_markup_degrades_to_text() {
        assert_eq!(
            html_to_text("a < b and <b unclosed"),
            "a < b and <b unclosed"
        );
        assert_eq!(html_to_text("<!-- never closed"), "");
        assert_eq!(html_to_text("<script>never closed"), "");
        assert_eq!(html_to_text("<p title='a>b'>x</p>"), "x");
    }
}
