//! E-mail addresses as campaign files write them, checked for a plausible
//! shape when the file is read.
//!
//! The check catches typing mistakes (a missing `@`, a display name pasted
//! in, a domain without a dot); it cannot know whether the mailbox exists.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A plain address such as `alice@example.org`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Email(String);

impl Email {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The address folded for comparison: mail systems treat the domain,
    /// and in practice the whole address, without regard to case.
    pub fn folded(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

/// Why a text is not an address a campaign can use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{text}' is not an e-mail address ({why}); write a plain address such as \"alice@example.org\""
)]
pub struct EmailError {
    pub text: String,
    pub why: &'static str,
}

impl TryFrom<String> for Email {
    type Error = EmailError;

    fn try_from(text: String) -> Result<Email, EmailError> {
        match problem(&text) {
            None => Ok(Email(text)),
            Some(why) => Err(EmailError { text, why }),
        }
    }
}

impl From<Email> for String {
    fn from(email: Email) -> String {
        email.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What is wrong with `text` as an address, if anything.
fn problem(text: &str) -> Option<&'static str> {
    if text.contains(['<', '>']) {
        return Some("leave out the name and the angle brackets");
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("it contains a space");
    }
    let Some((local, domain)) = text.split_once('@') else {
        return Some("there is no @");
    };
    if domain.contains('@') {
        return Some("there is more than one @");
    }
    if local.is_empty() {
        return Some("nothing comes before the @");
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return Some("the part before the @ has a misplaced dot");
    }
    if !domain.contains('.') {
        return Some("the domain has no dot");
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    if !domain.split('.').all(label_ok) {
        return Some("the domain is not a valid host name");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<Email, EmailError> {
        Email::try_from(text.to_string())
    }

    #[test]
    fn plain_addresses_are_accepted() {
        for ok in [
            "alice@example.org",
            "a.b+pbem@mail.example.co.uk",
            "GM@Example.org",
        ] {
            assert_eq!(check(ok).unwrap().as_str(), ok);
        }
        assert_eq!(check("GM@Example.org").unwrap().folded(), "gm@example.org");
    }

    #[test]
    fn typing_mistakes_are_refused_with_the_reason() {
        let cases = [
            ("alice.example.org", "no @"),
            ("Alice <alice@example.org>", "angle brackets"),
            ("alice@example", "no dot"),
            ("alice@@example.org", "more than one @"),
            ("@example.org", "nothing comes before"),
            ("alice@example..org", "not a valid host"),
            ("al ice@example.org", "space"),
        ];
        for (text, why) in cases {
            let err = check(text).unwrap_err();
            assert!(err.to_string().contains(why), "{text}: {err}");
        }
    }
}
