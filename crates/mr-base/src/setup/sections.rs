//! One mail for several characters (3.1 10.E.4.4): a player who plays
//! several characters heads each one's part with a line `Orders for:
//! Amazon`, and each part is read as that character's alone: his starting
//! info during a setup by mail, then his orders each day. It sits with the
//! setup, the lowest layer that reads a player's mail.

/// The line that starts a character's orders.
pub const HEADER: &str = "Orders for:";

/// One character's part of a mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The name its header gives, as written.
    pub name: String,
    /// The header's line in the mail, from 1.
    pub line: usize,
    /// The whole mail with every line outside the part blanked, so what
    /// reads it names the mail's own line numbers.
    pub text: String,
}

/// A mail cut at its `Orders for:` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub sections: Vec<Section>,
    /// The lines with words before the first header (from 1): they belong
    /// to no character.
    pub stray: Vec<usize>,
}

/// The name an `Orders for:` line gives, or `None` for another line.
fn header_name(line: &str) -> Option<&str> {
    let line = line.trim();
    let head = line.get(..HEADER.len())?;
    head.eq_ignore_ascii_case(HEADER)
        .then(|| line[HEADER.len()..].trim())
}

/// Whether `line` starts a character's orders.
pub fn is_header(line: &str) -> bool {
    header_name(line).is_some()
}

/// A mail's parts matched to the characters it is for ([`Split::assign`]):
/// each reader words its own problems from what does not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assigned<'n, 'm, T> {
    /// Each character's part, in the mail's order.
    pub parts: Vec<(&'n T, &'m Section)>,
    /// Parts naming none of the characters.
    pub unknown: Vec<&'m Section>,
    /// Parts naming a character an earlier part is for.
    pub again: Vec<(&'n T, &'m Section)>,
    /// Characters no part names.
    pub missing: Vec<&'n T>,
}

impl Split {
    /// Match each part to the one of `characters` its header names, by
    /// `name` (case, accents and small slips forgiven).
    pub fn assign<'n, 'm, T>(
        &'m self,
        characters: &'n [T],
        name: impl Fn(&T) -> &str,
    ) -> Assigned<'n, 'm, T> {
        let mut assigned = Assigned {
            parts: Vec::new(),
            unknown: Vec::new(),
            again: Vec::new(),
            missing: Vec::new(),
        };
        for section in &self.sections {
            let found = realmgm_core::suggest::find(&section.name, characters.iter().map(&name))
                .and_then(|found| characters.iter().find(|c| name(c) == found));
            match found {
                None => assigned.unknown.push(section),
                Some(c) if assigned.parts.iter().any(|(p, _)| std::ptr::eq(*p, c)) => {
                    assigned.again.push((c, section));
                }
                Some(c) => assigned.parts.push((c, section)),
            }
        }
        assigned.missing = characters
            .iter()
            .filter(|c| !assigned.parts.iter().any(|(p, _)| std::ptr::eq(*p, *c)))
            .collect();
        assigned
    }
}

/// Cut `text` at its `Orders for:` lines.
pub fn split(text: &str) -> Split {
    let lines: Vec<&str> = text.lines().collect();
    let mut split = Split::default();
    let mut current: Option<(String, usize, Vec<usize>)> = None;
    let mut done = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(name) = header_name(line) {
            done.extend(current.take());
            current = Some((name.to_string(), i + 1, Vec::new()));
        } else if let Some((_, _, mine)) = current.as_mut() {
            mine.push(i);
        } else if !line.trim().is_empty() {
            split.stray.push(i + 1);
        }
    }
    done.extend(current);
    for (name, line, mine) in done {
        let text = lines
            .iter()
            .enumerate()
            .map(|(i, l)| if mine.contains(&i) { *l } else { "" })
            .collect::<Vec<_>>()
            .join("\n");
        split.sections.push(Section { name, line, text });
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each part keeps the mail's line numbers; lines before the first
    /// header belong to nobody (3.1 10.E.4.4).
    #[test]
    fn a_mail_is_cut_at_each_orders_for_line_3_1_10_e_4_4() {
        let split = split("Hello\nOrders for: Amazon\nM CV4\n\norders FOR:Berserker\nH");
        assert_eq!(split.stray, vec![1]);
        assert_eq!(split.sections.len(), 2);
        assert_eq!(split.sections[0].name, "Amazon");
        assert_eq!(split.sections[0].line, 2);
        assert_eq!(split.sections[0].text, "\n\nM CV4\n\n\n");
        assert_eq!(split.sections[1].name, "Berserker");
        assert_eq!(split.sections[1].text, "\n\n\n\n\nH");
    }

    /// Each part goes to the character it names; one naming nobody, one
    /// naming a character again and a character without one are told apart.
    #[test]
    fn parts_are_matched_to_the_characters_they_name() {
        let split = split("Orders for: amazon\nR\nOrders for: Dwarf\nH\nOrders for: Amazon\nH");
        let assigned = split.assign(&["Amazon", "Berserker"], |n| n);
        let lines = |parts: &[(&&str, &Section)]| -> Vec<(String, usize)> {
            parts
                .iter()
                .map(|(n, s)| ((**n).to_string(), s.line))
                .collect()
        };
        assert_eq!(lines(&assigned.parts), [("Amazon".to_string(), 1)]);
        assert_eq!(lines(&assigned.again), [("Amazon".to_string(), 5)]);
        assert_eq!(assigned.unknown[0].name, "Dwarf");
        assert_eq!(assigned.missing, [&"Berserker"]);
    }
}
