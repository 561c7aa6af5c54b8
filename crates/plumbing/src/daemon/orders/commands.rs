//! The small command vocabulary players and the GM use by mail, read from
//! the subject (after `Re:`/`Fwd:` and the campaign tag) or from the first
//! line of the body; anything else is orders.
//!
//! Players: `help`, `orders?`, `report?` (optionally a day: `report? 3`),
//! `rules?`, `combat?`, `away until DATE`, `back`, and in the subject `to <character>` (a private
//! message, when the campaign allows unlimited communication). The GM, from
//! his address with the GM secret: `gm status`, `gm process`, `gm preview`,
//! `gm pause`, `gm resume`, `gm extend <hours>`, `gm resend <player> [day]`,
//! `gm rollback <day> [new-rules]`, `gm orders <player>` (the orders follow in the
//! body), `gm add-player <name> <address> [character]` and `gm replace
//! <player> <address>` (a new address and secret for a seat).

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
    /// He is away until the date written (`away until 2030-01-15`).
    Away(String),
    /// He is back before the date he gave.
    Back,
    Gm(GmCommand),
    /// No command: the mail carries orders.
    Orders,
}

/// The command as the player writes it (`report? 3`), for the GM's log.
impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Command::Help => f.write_str("help"),
            Command::CurrentOrders => f.write_str("orders?"),
            Command::Report(None) => f.write_str("report?"),
            Command::Report(Some(day)) => write!(f, "report? {day}"),
            Command::Rules => f.write_str("rules?"),
            Command::Combat => f.write_str("combat?"),
            Command::To(name) => write!(f, "to {name}"),
            Command::Away(date) => write!(f, "away until {date}"),
            Command::Back => f.write_str("back"),
            Command::Gm(command) => command.fmt(f),
            Command::Orders => f.write_str("orders"),
        }
    }
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
    /// Back to the end of `day`; `new_rules` past days played under older
    /// rules (`gm rollback 3 new-rules`).
    Rollback {
        day: u32,
        new_rules: bool,
    },
    /// Enter or replace a player's orders for the pending turn; the orders
    /// are the rest of the mail.
    Orders {
        player: String,
    },
    /// Tell every player the news in the rest of the mail.
    Announce,
    /// The GM's narrative of a day (the latest when none), in the rest of
    /// the mail.
    Narrate(Option<u32>),
    /// A new player joins.
    AddPlayer {
        name: String,
        email: String,
        character: Option<String>,
    },
    /// A seat goes to a new address (and a new secret), and to another
    /// character when one is named.
    ReplacePlayer {
        player: String,
        email: String,
        character: Option<String>,
    },
    /// A player leaves; `keep` leaves his character to the policy for
    /// missing orders.
    RemovePlayer {
        player: String,
        character_stays: bool,
    },
    /// The GM's rulings, one a line in the rest of the mail.
    Rule,
    /// Take back a ruling not yet carried out.
    WithdrawRuling(i64),
    /// A `gm` line that is none of the above, kept to say so.
    Unknown(String),
}

/// The command as the GM writes it (`gm orders Dave`), for his log and
/// answers.
impl std::fmt::Display for GmCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GmCommand::Status => write!(f, "gm status"),
            GmCommand::Process => write!(f, "gm process"),
            GmCommand::Preview => write!(f, "gm preview"),
            GmCommand::Pause => write!(f, "gm pause"),
            GmCommand::Resume => write!(f, "gm resume"),
            GmCommand::Extend(hours) => write!(f, "gm extend {hours}"),
            GmCommand::Resend { player, day: None } => write!(f, "gm resend {player}"),
            GmCommand::Resend {
                player,
                day: Some(day),
            } => write!(f, "gm resend {player} {day}"),
            GmCommand::Rollback {
                day,
                new_rules: false,
            } => write!(f, "gm rollback {day}"),
            GmCommand::Rollback {
                day,
                new_rules: true,
            } => write!(f, "gm rollback {day} new-rules"),
            GmCommand::Orders { player } => write!(f, "gm orders {player}"),
            GmCommand::Announce => write!(f, "gm announce"),
            GmCommand::Narrate(None) => write!(f, "gm narrate"),
            GmCommand::Narrate(Some(day)) => write!(f, "gm narrate {day}"),
            GmCommand::AddPlayer {
                name,
                email,
                character,
            } => {
                write!(f, "gm add-player {name} {email}")?;
                match character {
                    Some(character) => write!(f, " {character}"),
                    None => Ok(()),
                }
            }
            GmCommand::ReplacePlayer {
                player,
                email,
                character,
            } => match character {
                Some(character) => write!(f, "gm replace {player} {email} {character}"),
                None => write!(f, "gm replace {player} {email}"),
            },
            GmCommand::RemovePlayer {
                player,
                character_stays,
            } => {
                let keep = if *character_stays { " keep" } else { "" };
                write!(f, "gm remove-player {player}{keep}")
            }
            GmCommand::Rule => write!(f, "gm rule"),
            GmCommand::WithdrawRuling(id) => write!(f, "gm withdraw-ruling {id}"),
            GmCommand::Unknown(text) => write!(f, "gm {text} (not a command)"),
        }
    }
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
  combat?       whether a combat round waits for your answer
  away until 2030-01-15   you are away: the game plays for you (as when orders
                are missing) with no reminders until that date, then tells you
                what you missed
  back          you are back before that date";

/// The subject without reply prefixes and bracketed tags.
pub fn bare_subject(subject: &str) -> String {
    let mut rest = subject.trim();
    loop {
        let before = rest;
        for prefix in ["re:", "fwd:", "fw:", "aw:", "wg:", "sv:"] {
            // `get` and not an index: the subject's first bytes may be the
            // middle of a character ("Grüße"), never a prefix.
            if let Some(head) = rest.get(..prefix.len())
                && head.eq_ignore_ascii_case(prefix)
            {
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
    let mut words = text.split_whitespace();
    let first = words.next()?.to_lowercase();
    let rest: Vec<&str> = words.collect();
    let lower: Vec<String> = rest.iter().map(|w| w.to_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let command = match (first.as_str(), lower.as_slice()) {
        ("help" | "help?" | "?", []) => Command::Help,
        ("orders?", []) => Command::CurrentOrders,
        ("report?", []) => Command::Report(None),
        ("report?", [day]) => Command::Report(Some(day.parse().ok()?)),
        ("rules?", []) => Command::Rules,
        ("combat?", []) => Command::Combat,
        ("away", ["until", date]) | ("away", [date]) => Command::Away((*date).to_string()),
        ("back", []) => Command::Back,
        // Names and addresses keep the case they were written in.
        ("gm", [_, ..]) => Command::Gm(gm_command(&rest)),
        _ => return None,
    };
    Some(command)
}

fn gm_command(words: &[&str]) -> GmCommand {
    let number = |text: &str| text.parse::<u32>().ok();
    let verb = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
    let owned = |text: &str| text.to_string();
    match (verb.as_str(), &words[words.len().min(1)..]) {
        ("status", []) => GmCommand::Status,
        ("process", []) => GmCommand::Process,
        ("preview", []) => GmCommand::Preview,
        ("pause", []) => GmCommand::Pause,
        ("resume", []) => GmCommand::Resume,
        ("extend", [hours]) if number(hours).is_some() => {
            GmCommand::Extend(number(hours).unwrap_or_default())
        }
        ("resend", [player]) => GmCommand::Resend {
            player: owned(player),
            day: None,
        },
        ("resend", [player, day]) if number(day).is_some() => GmCommand::Resend {
            player: owned(player),
            day: number(day),
        },
        ("rollback", [day]) if number(day).is_some() => GmCommand::Rollback {
            day: number(day).unwrap_or_default(),
            new_rules: false,
        },
        ("rollback", [day, new_rules])
            if number(day).is_some() && new_rules.eq_ignore_ascii_case("new-rules") =>
        {
            GmCommand::Rollback {
                day: number(day).unwrap_or_default(),
                new_rules: true,
            }
        }
        ("orders", [player]) => GmCommand::Orders {
            player: owned(player),
        },
        ("announce", []) => GmCommand::Announce,
        ("narrate", []) => GmCommand::Narrate(None),
        ("narrate", [day]) if number(day).is_some() => GmCommand::Narrate(number(day)),
        ("add-player", [name, email]) => GmCommand::AddPlayer {
            name: owned(name),
            email: owned(email),
            character: None,
        },
        ("add-player", [name, email, character @ ..]) if !character.is_empty() => {
            GmCommand::AddPlayer {
                name: owned(name),
                email: owned(email),
                character: Some(character.join(" ")),
            }
        }
        ("replace", [player, email]) => GmCommand::ReplacePlayer {
            player: owned(player),
            email: owned(email),
            character: None,
        },
        ("replace", [player, email, character @ ..]) if !character.is_empty() => {
            GmCommand::ReplacePlayer {
                player: owned(player),
                email: owned(email),
                character: Some(character.join(" ")),
            }
        }
        ("remove-player", [player]) => GmCommand::RemovePlayer {
            player: owned(player),
            character_stays: false,
        },
        ("remove-player", [player, keep]) if keep.eq_ignore_ascii_case("keep") => {
            GmCommand::RemovePlayer {
                player: owned(player),
                character_stays: true,
            }
        }
        ("rule", []) => GmCommand::Rule,
        ("withdraw-ruling", [id]) if id.parse::<i64>().is_ok() => {
            GmCommand::WithdrawRuling(id.parse().unwrap_or_default())
        }
        _ => GmCommand::Unknown(words.join(" ")),
    }
}

/// The part of a cleaned body that follows the command: the whole body when
/// the subject carries the command, else what follows its first non-empty
/// line. Returns the text and how many body lines were skipped.
pub fn after_command(subject: &str, body: &str) -> (String, usize) {
    if word_command(&bare_subject(subject)).is_some() {
        return (body.to_string(), 0);
    }
    let lines: Vec<&str> = body.lines().collect();
    match lines.iter().position(|l| !l.trim().is_empty()) {
        Some(first) => (lines[first + 1..].join("\n"), first + 1),
        None => (String::new(), lines.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_after_a_command_is_the_rest_of_the_mail() {
        assert_eq!(
            after_command("[T] gm orders Ann", "guess 5"),
            ("guess 5".to_string(), 0)
        );
        assert_eq!(
            after_command("[T] GM", "\ngm orders Ann\nguess 5\nmore"),
            ("guess 5\nmore".to_string(), 2)
        );
    }

    #[test]
    fn subjects_lose_prefixes_and_tags() {
        assert_eq!(bare_subject("Re: AW: [BIMR3] orders?"), "orders?");
        assert_eq!(bare_subject("[BIMR3] Re: report? 3"), "report? 3");
        assert_eq!(bare_subject("Day 3"), "Day 3");
    }

    #[test]
    fn subjects_of_any_characters_are_read_without_panicking() {
        assert_eq!(bare_subject("[B2] Grüße"), "Grüße");
        assert_eq!(bare_subject("[B2] 🎲 orders"), "🎲 orders");
        assert_eq!(bare_subject("Ré: ü"), "Ré: ü");
        assert_eq!(bare_subject("ü"), "ü");
        assert_eq!(bare_subject("\u{fffd}\u{fffd}["), "\u{fffd}\u{fffd}[");
        assert_eq!(read("[B2] 🎲", "help"), Command::Help);
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
                player: "Ann".into(),
                day: Some(2)
            })
        );
        assert_eq!(
            read("[T] GM Orders Ann", "guess 5"),
            Command::Gm(GmCommand::Orders {
                player: "Ann".into()
            })
        );
        assert_eq!(
            read("[T] x", "gm add-player Cy cy@x.test Black Knight\nmore"),
            Command::Gm(GmCommand::AddPlayer {
                name: "Cy".into(),
                email: "cy@x.test".into(),
                character: Some("Black Knight".into())
            })
        );
        assert_eq!(
            read("[T] gm replace Ben new@x.test", ""),
            Command::Gm(GmCommand::ReplacePlayer {
                player: "Ben".into(),
                email: "new@x.test".into(),
                character: None
            })
        );
        assert_eq!(
            read("[T] gm dance", ""),
            Command::Gm(GmCommand::Unknown("dance".into()))
        );
    }

    #[test]
    fn a_gm_command_reads_back_as_the_gm_wrote_it() {
        for text in [
            "gm orders Dave",
            "gm add-player Erin erin@x.test Black Knight",
            "gm resend Ann 3",
            "gm announce",
            "gm narrate",
            "gm narrate 3",
            "gm extend 12",
            "gm replace Ben ben@x.test Black Knight",
            "gm remove-player Ben keep",
            "gm remove-player Ben",
            "gm rule",
            "gm withdraw-ruling 4",
            "gm rollback 3",
            "gm rollback 3 new-rules",
        ] {
            let Command::Gm(command) = read(&format!("[T] {text}"), "") else {
                panic!("{text} is a GM command");
            };
            assert_eq!(command.to_string(), text);
        }
    }

    #[test]
    fn a_player_command_reads_back_as_the_player_wrote_it() {
        for text in [
            "help",
            "orders?",
            "report?",
            "report? 3",
            "rules?",
            "combat?",
            "to Black Knight",
            "away until 2030-01-15",
            "back",
            "gm status",
        ] {
            assert_eq!(read(&format!("[T] {text}"), "").to_string(), text);
        }
    }
}
