//! English for counted things and lists of names in text people read:
//! "1 minute", "3 minutes", "Rogue 5 and Rogue 6 stay behind".

/// `count` with its noun in the right number: "1 minute", "3 minutes".
pub fn counted<N>(count: N, singular: &str, plural: &str) -> String
where
    N: Copy + PartialEq + From<u8> + std::fmt::Display,
{
    let noun = if count == N::from(1) {
        singular
    } else {
        plural
    };
    format!("{count} {noun}")
}

/// Names as a sentence lists them: "A", "A and B", "A, B and C".
pub fn listed<S: AsRef<str>>(names: &[S]) -> String {
    match names {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

/// The verb that agrees with a subject of `count` individuals: "stays"
/// for one, "stay" for more.
pub fn agreeing<'a>(count: usize, singular: &'a str, plural: &'a str) -> &'a str {
    if count == 1 { singular } else { plural }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lists_and_verbs_agree_with_how_many() {
        assert_eq!(counted(1u32, "minute", "minutes"), "1 minute");
        assert_eq!(counted(0usize, "minute", "minutes"), "0 minutes");
        assert_eq!(counted(3i64, "mail", "mails"), "3 mails");
        assert_eq!(listed::<&str>(&[]), "");
        assert_eq!(listed(&["Rogue 7"]), "Rogue 7");
        assert_eq!(listed(&["Rogue 5", "Rogue 6"]), "Rogue 5 and Rogue 6");
        assert_eq!(listed(&["A", "B", "C"]), "A, B and C");
        assert_eq!(agreeing(1, "stays", "stay"), "stays");
        assert_eq!(agreeing(2, "stays", "stay"), "stay");
    }
}
