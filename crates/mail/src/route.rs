//! Route an inbound mail to a campaign, and read a player's password line.
//!
//! A mail names its campaign by a plus-address on the GM mailbox
//! (`gm+bimr3@host`, or `gm+bimr3.SECRET@host` carrying the player's secret,
//! after brdgme's capability addresses, reference pbem-practice.md §1.6 and
//! §4 idea 1) or by a subject tag `[BIMR3]` anywhere in the subject, so a
//! plain "Re:" or "Fwd:" keeps it (Eressea routes by subject,
//! §1.1). The plus-address wins over the subject when both are present,
//! because the address is what our own mail asked the player to reply to.
//! Tags are compared case-insensitively and returned lower-cased.

use crate::inbound::InboundMail;

/// Where a mail goes: the campaign it names and, from a plus-address, the
/// player's secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routed<C> {
    pub campaign: C,
    pub secret: Option<String>,
}

/// Route `mail` to the first campaign it names that `find` knows. `find`
/// answers a lower-cased tag with its campaign and the local part of that
/// campaign's GM address (`gm` of `gm@host`), or `None` when the tag names
/// no campaign.
///
/// Recipients are searched in the order Delivered-To, To, Cc. A
/// plus-address counts only on the GM address of the campaign it names, so
/// one server can hold several GMs' campaigns; then the subject's tags are
/// tried in order, so a tag a filter put first (`[SPAM]`) does not hide the
/// campaign's own.
pub fn route<C>(
    mail: &InboundMail,
    mut find: impl FnMut(&str) -> Option<(C, String)>,
) -> Option<Routed<C>> {
    let recipients = mail
        .delivered_to
        .iter()
        .chain(mail.to.iter())
        .chain(mail.cc.iter());
    for address in recipients {
        let address = bare_address(address);
        let Some((base, _)) = address.split_once('+') else {
            continue;
        };
        if let Some((tag, secret)) = plus_address(address, base)
            && let Some((campaign, gm_local_part)) = find(&tag)
            && gm_local_part.eq_ignore_ascii_case(base)
        {
            return Some(Routed { campaign, secret });
        }
    }
    subject_tags(&mail.subject)
        .into_iter()
        .find_map(|tag| find(&tag))
        .map(|(campaign, _)| Routed {
            campaign,
            secret: None,
        })
}

/// The address part of `Name <address>` or of a bare address.
pub fn bare_address(text: &str) -> &str {
    match (text.rfind('<'), text.rfind('>')) {
        (Some(open), Some(close)) if open < close => text[open + 1..close].trim(),
        _ => text.trim(),
    }
}

/// `(tag, secret)` from `gm+tag@host` or `gm+tag.secret@host`, when the local
/// part before `+` is `gm_local_part` (case-insensitive) and the tag is a
/// valid campaign tag.
pub fn plus_address(address: &str, gm_local_part: &str) -> Option<(String, Option<String>)> {
    let address = address.trim().trim_start_matches('<').trim_end_matches('>');
    let (local, _domain) = address.rsplit_once('@')?;
    let (base, detail) = local.split_once('+')?;
    if !base.eq_ignore_ascii_case(gm_local_part) {
        return None;
    }
    let (tag, secret) = match detail.split_once('.') {
        Some((tag, secret)) => (tag, Some(secret)),
        None => (detail, None),
    };
    if !is_tag(tag) {
        return None;
    }
    let secret = secret.filter(|s| !s.is_empty()).map(str::to_string);
    Some((tag.to_ascii_lowercase(), secret))
}

/// Every `[TAG]` in a subject that is a valid campaign tag, lower-cased, in
/// order. Brackets holding spaces or punctuation (`[External mail]`,
/// `[SPAM?]`) are not tags.
pub fn subject_tags(subject: &str) -> Vec<String> {
    let mut tags = Vec::new();
    let mut rest = subject;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else {
            break;
        };
        let inner = rest[..close].trim();
        if is_tag(inner) {
            tags.push(inner.to_ascii_lowercase());
        }
        rest = &rest[close + 1..];
    }
    tags
}

/// A campaign tag: 1–32 ASCII letters, digits, `-` or `_`, starting with a
/// letter or digit.
pub fn is_tag(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 32
        && text
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A password found in an orders text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasswordLine {
    /// The password, trimmed; None when no password line was found.
    pub password: Option<String>,
    /// The text with the password line blanked (kept as an empty line, so
    /// every other line keeps its number for error messages).
    pub text: String,
    /// 1-based line of the password within `text`, when found.
    pub line: Option<usize>,
}

/// Find the first `Password: xyz` line (case-insensitive keyword, also
/// `Password = xyz`) and blank it out of the text.
pub fn take_password(text: &str) -> PasswordLine {
    let mut password = None;
    let mut found_line = None;
    let mut lines: Vec<&str> = text.split('\n').collect();
    for (index, line) in lines.iter_mut().enumerate() {
        if password.is_some() {
            break;
        }
        if let Some(value) = password_value(line) {
            password = Some(value);
            found_line = Some(index + 1);
            *line = "";
        }
    }
    PasswordLine {
        password,
        text: lines.join("\n"),
        line: found_line,
    }
}

/// The value of `line` when it is a `Password:` (or `Password =`) line,
/// quotes taken off.
pub fn password_value(line: &str) -> Option<String> {
    let trimmed = line.trim();
    let keyword = trimmed.get(..8)?;
    if !keyword.eq_ignore_ascii_case("password") {
        return None;
    }
    let rest = trimmed[8..].trim_start();
    let value = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix('='))?
        .trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value);
    (!value.is_empty()).then(|| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbound::{BodySource, InboundMail};

    fn mail(to: &[&str], subject: &str) -> InboundMail {
        InboundMail {
            message_id: None,
            from: None,
            reply_to: None,
            to: to.iter().map(|s| s.to_string()).collect(),
            cc: Vec::new(),
            delivered_to: Vec::new(),
            subject: subject.to_string(),
            date: None,
            date_unix: None,
            in_reply_to: Vec::new(),
            references: Vec::new(),
            body_text: String::new(),
            body_source: BodySource::Empty,
            attachments: Vec::new(),
            attachments_ignored: Vec::new(),
            content_hash: String::new(),
            auto_kind: None,
        }
    }

    /// Campaigns `bimr3` and `fr1` of GM `gm`, `ot1` of GM `other`.
    fn known(tag: &str) -> Option<(String, String)> {
        match tag {
            "bimr3" | "fr1" => Some((tag.to_string(), "gm".to_string())),
            "ot1" => Some((tag.to_string(), "other".to_string())),
            _ => None,
        }
    }

    fn routed(campaign: &str, secret: Option<&str>) -> Option<Routed<String>> {
        Some(Routed {
            campaign: campaign.to_string(),
            secret: secret.map(str::to_string),
        })
    }

    #[test]
    fn subject_tag_after_re_and_fwd() {
        assert_eq!(subject_tags("Re: Fwd: [BIMR3] Day 3"), vec!["bimr3"]);
        assert_eq!(subject_tags("Day 3 [bimr3]"), vec!["bimr3"]);
        assert_eq!(subject_tags("[External mail] [SPAM?] [fr-1]"), vec!["fr-1"]);
        assert!(subject_tags("no tag [ unclosed").is_empty());
        let to_gm = mail(&["gm@realmgm.test"], "RE: [Bimr3] orders");
        assert_eq!(route(&to_gm, known), routed("bimr3", None));
    }

    #[test]
    fn a_subject_tag_naming_no_campaign_does_not_hide_the_next() {
        let tagged = mail(&["gm@realmgm.test"], "[SPAM] [fr1] orders");
        assert_eq!(route(&tagged, known), routed("fr1", None));
    }

    #[test]
    fn plus_address_with_and_without_secret() {
        assert_eq!(
            plus_address("GM+BIMR3@realmgm.test", "gm"),
            Some(("bimr3".into(), None))
        );
        assert_eq!(
            plus_address("<gm+bimr3.Xy7k2@realmgm.test>", "gm"),
            Some(("bimr3".into(), Some("Xy7k2".into())))
        );
        assert_eq!(plus_address("other+bimr3@realmgm.test", "gm"), None);
        assert_eq!(plus_address("gm@realmgm.test", "gm"), None);
        assert_eq!(plus_address("gm+bad tag@realmgm.test", "gm"), None);
    }

    #[test]
    fn plus_address_beats_subject_and_cc_counts() {
        let mut m = mail(&["gm@realmgm.test"], "[fr1] x");
        m.cc = vec!["gm+bimr3.s3cret@realmgm.test".into()];
        assert_eq!(route(&m, known), routed("bimr3", Some("s3cret")));
        m.cc.clear();
        m.delivered_to = vec!["Game Master <gm+fr1@realmgm.test>".into()];
        assert_eq!(route(&m, known), routed("fr1", None));
    }

    #[test]
    fn a_plus_address_counts_only_on_its_campaigns_gm_address() {
        let m = mail(
            &["gm+ot1@realmgm.test", "other+bimr3@realmgm.test"],
            "[ot1] x",
        );
        // Neither plus-address is its campaign's GM's: the subject decides.
        assert_eq!(route(&m, known), routed("ot1", None));
        let m = mail(&["OTHER+ot1.k3y@realmgm.test"], "x");
        assert_eq!(route(&m, known), routed("ot1", Some("k3y")));
    }

    #[test]
    fn no_route_at_all() {
        assert_eq!(route(&mail(&["gm@realmgm.test"], "orders"), known), None);
        let unknown = mail(&["gm+nosuch@realmgm.test"], "[nosuch] orders");
        assert_eq!(route(&unknown, known), None);
    }

    #[test]
    fn password_line_is_blanked_keeping_line_numbers() {
        let taken = take_password("H / H\n  PASSWORD: \"open sesame\" \nM-CV5\nPassword: second");
        assert_eq!(taken.password.as_deref(), Some("open sesame"));
        assert_eq!(taken.text, "H / H\n\nM-CV5\nPassword: second");
        assert_eq!(taken.line, Some(2));
        let none = take_password("Passwordless day\nH");
        assert_eq!(none.password, None);
        assert_eq!(none.text, "Passwordless day\nH");
        assert_eq!(
            take_password("password = xyz").password.as_deref(),
            Some("xyz")
        );
        assert_eq!(take_password("Password:").password, None);
    }
}
