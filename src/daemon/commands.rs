//! The small command vocabulary players and the GM use by mail, read from
//! the subject (after `Re:`/`Fwd:` and the campaign tag) or from the first
//! line of the body; anything else is orders.
//!
//! Players: `help`, `orders?`, `report?` (optionally a day: `report? 3`),
//! `rules?`, `combat?`, and in the subject `to <character>` (a private
//! message, when the campaign allows unlimited communication). The GM, from
//! his address with the GM secret: `gm status`, `gm process`, `gm preview`,
//! `gm pause`, `gm resume`, `gm extend <hours>`, `gm resend <player> [day]`,
//! `gm rollback <day>`.

/// What a mail asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    CurrentOrders,
    Report(Option<u32>),
    Rules,
    /// Round-by-round combat prompts (not built: they wait for the combat engine).
    Combat,
    /// A private message to the character or player named.
    To(String),
    Gm(GmCommand),
    /// No command: the mail carries orders.
    Orders,
}

/// A GM command by mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GmCommand {
    Status,
    Process,
    Preview,
    Pause,
    Resume,
    Extend(u32),
    Resend {
        player: String,
        day: Option<u32>,
    },
    Rollback(u32),
    /// A `gm` line that is none of the above, kept to say so.
    Unknown(String),
}

/// The help text players get for `help`.
pub const PLAYER_HELP: &str = "\
Write your orders in the body of a mail whose subject carries the campaign tag,
with a line `Password: <your secret>`. You may answer a report by writing your
orders at the top: quoted text below is ignored. Sending orders again replaces
the earlier version for the same day.

Commands (as the subject, or alone on the first line of the body):
  help          this text
  orders?       your orders in force for the coming turn
  report?       your last report again (`report? 3` for day 3)
  rules?        the rules and schedule of the campaign
  to <name>     (subject only) a private message to that character, when the
                campaign allows unlimited communication
  combat?       round-by-round combat by mail (not available yet)";

/// The subject without reply prefixes and bracketed tags.
pub fn bare_subject(subject: &str) -> String {
    let mut rest = subject.trim();
    loop {
        let before = rest;
        for prefix in ["re:", "fwd:", "fw:", "aw:", "wg:", "sv:"] {
            if rest.len() >= prefix.len() && rest[..prefix.len()].eq_ignore_ascii_case(prefix) {
                rest = rest[prefix.len()..].trim_start();
            }
        }
        if let Some(inner) = rest.strip_prefix('[')
            && let Some(close) = inner.find(']')
        {
            rest = inner[close + 1..].trim_start();
        }
        if rest == before {
            return rest.trim().to_string();
        }
    }
}

/// Read the command of a mail from its subject, else the first non-empty
/// line of its cleaned body.
pub fn read(subject: &str, body: &str) -> Command {
    let subject = bare_subject(subject);
    if let Some(name) = strip_word(&subject, "to") {
        return Command::To(name.to_string());
    }
    if let Some(command) = word_command(&subject) {
        return command;
    }
    let first = body.lines().map(str::trim).find(|l| !l.is_empty());
    first.and_then(word_command).unwrap_or(Command::Orders)
}

/// `word rest` → `rest` when the first word is `word` (any case).
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let (first, rest) = text.split_once(char::is_whitespace)?;
    (first.eq_ignore_ascii_case(word) && !rest.trim().is_empty()).then(|| rest.trim())
}

fn word_command(text: &str) -> Option<Command> {
    let lower = text.trim().to_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    let command = match (first, rest.as_slice()) {
        ("help" | "help?" | "?", []) => Command::Help,
        ("orders?", []) => Command::CurrentOrders,
        ("report?", []) => Command::Report(None),
        ("report?", [day]) => Command::Report(Some(day.parse().ok()?)),
        ("rules?", []) => Command::Rules,
        ("combat?", []) => Command::Combat,
        ("gm", rest) => Command::Gm(gm_command(rest)),
        _ => return None,
    };
    Some(command)
}

fn gm_command(words: &[&str]) -> GmCommand {
    let number = |text: &str| text.parse::<u32>().ok();
    match words {
        ["status"] => GmCommand::Status,
        ["process"] => GmCommand::Process,
        ["preview"] => GmCommand::Preview,
        ["pause"] => GmCommand::Pause,
        ["resume"] => GmCommand::Resume,
        ["extend", hours] if number(hours).is_some() => {
            GmCommand::Extend(number(hours).unwrap_or_default())
        }
        ["resend", player] => GmCommand::Resend {
            player: (*player).to_string(),
            day: None,
        },
        ["resend", player, day] if number(day).is_some() => GmCommand::Resend {
            player: (*player).to_string(),
            day: number(day),
        },
        ["rollback", day] if number(day).is_some() => {
            GmCommand::Rollback(number(day).unwrap_or_default())
        }
        other => GmCommand::Unknown(other.join(" ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_lose_prefixes_and_tags() {
        assert_eq!(bare_subject("Re: AW: [BIMR3] orders?"), "orders?");
        assert_eq!(bare_subject("[BIMR3] Re: report? 3"), "report? 3");
        assert_eq!(bare_subject("Day 3"), "Day 3");
    }

    #[test]
    fn commands_come_from_subject_or_first_line() {
        assert_eq!(read("[T] help", "guess 4"), Command::Help);
        assert_eq!(read("[T] Re: report? 3", ""), Command::Report(Some(3)));
        assert_eq!(
            read("[T] day 2", "\n  Orders?\nmore"),
            Command::CurrentOrders
        );
        assert_eq!(read("[T] to Amazon", "hello"), Command::To("Amazon".into()));
        assert_eq!(read("[T] orders", "guess 5"), Command::Orders);
        assert_eq!(read("[T] report? x", ""), Command::Orders);
        assert_eq!(
            read("[T] gm extend 24", ""),
            Command::Gm(GmCommand::Extend(24))
        );
        assert_eq!(
            read("[T] gm resend Ann 2", ""),
            Command::Gm(GmCommand::Resend {
                player: "ann".into(),
                day: Some(2)
            })
        );
        assert_eq!(
            read("[T] gm dance", ""),
            Command::Gm(GmCommand::Unknown("dance".into()))
        );
    }
}
