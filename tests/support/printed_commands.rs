//! The `realmgm ...` commands a text suggests, made ready to parse: found
//! in backticks or after "run", their placeholders (`FILE`, `N`, `<DAY>`,
//! a format string's `{day}`) replaced with values of a scratch campaign,
//! and split into arguments as a shell would.

/// Where a text came from decides what counts as a command in it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Mail, logs, messages: a command starts with `realmgm`.
    Written,
    /// A `--help` page: its examples may leave out `realmgm`
    /// (`e.g. `table show meeting``), so a backticked text whose first word
    /// is a command of the program counts too.
    Help,
    /// A Rust format string: `{...}` are the values it is given.
    Format,
}

/// The commands suggested in `text`, each without the leading `realmgm`.
/// `commands` are the names of the program's top-level commands.
pub fn commands_in(text: &str, kind: Kind, commands: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut ticked = line.split('`');
        // Outside backticks: the even pieces; inside: the odd ones.
        let mut inside = false;
        for piece in ticked.by_ref() {
            if inside {
                // The program by name, or by the path of the binary that ran.
                let program = piece
                    .split_once(' ')
                    .filter(|(first, _)| *first == "realmgm" || first.ends_with("/realmgm"));
                if let Some((_, rest)) = program {
                    found.push(rest.to_string());
                } else if kind == Kind::Help
                    && commands
                        .iter()
                        .any(|c| piece.split(' ').next() == Some(c.as_str()))
                {
                    found.push(piece.to_string());
                }
            } else {
                // A format string's whole literal may be the command.
                if kind == Kind::Format {
                    for (at, _) in piece.match_indices("\"realmgm ") {
                        let rest = &piece[at + "\"realmgm ".len()..];
                        let literal = &rest[..rest.find('"').unwrap_or(rest.len())];
                        // Not prose that begins with the program's name.
                        if commands
                            .iter()
                            .any(|c| literal.split(' ').next() == Some(c.as_str()))
                        {
                            found.push(literal.to_string());
                        }
                    }
                }
                for (at, _) in piece.match_indices("run realmgm ") {
                    let rest = &piece[at + "run realmgm ".len()..];
                    let end = [". ", "; ", ", ", ")"]
                        .iter()
                        .filter_map(|stop| rest.find(stop))
                        .min()
                        .unwrap_or(rest.len());
                    found.push(rest[..end].trim_end_matches(['.', ':']).to_string());
                }
            }
            inside = !inside;
        }
    }
    found
        .into_iter()
        .map(|command| {
            let end = [" | ", " > "]
                .iter()
                .filter_map(|stop| command.find(stop))
                .min()
                .unwrap_or(command.len());
            let command = &command[..end];
            if kind == Kind::Format {
                fill_format(command)
            } else {
                command.to_string()
            }
        })
        .collect()
}

/// A format string's `{...}` with the values a campaign would give it.
fn fill_format(command: &str) -> String {
    let mut out = String::new();
    let mut rest = command;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        out.push_str(match name.split(':').next().unwrap_or_default() {
            "day" | "before" | "id" | "n" | "hours" => "3",
            // `campaign show {}{db}`: the database option, when not the default.
            "db" => " --db game.sqlite",
            "kind" => "characters",
            _ => "M16",
        });
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The words of `command` with placeholders given values, split as a
/// shell splits them (double and single quotes group words).
pub fn arguments(command: &str) -> Vec<String> {
    let mut words = vec!["realmgm".to_string()];
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in command.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), _) if c == q => quote = None,
            (None, ' ') => {
                if started {
                    words.push(placeholder(&std::mem::take(&mut word)));
                }
                started = false;
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(placeholder(&word));
    }
    words
}

/// A placeholder's value (`N` → `3`, `<FILE>` → `game.toml`); any other
/// word as it is.
fn placeholder(word: &str) -> String {
    let bare = word.trim_start_matches('<').trim_end_matches('>');
    let upper = !bare.is_empty() && bare.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    match bare {
        "N" | "DAY" | "DAYS" | "ID" | "HOURS" | "NUMBER" => "3".to_string(),
        "FILE" | "PATH" => "game.toml".to_string(),
        "DIR" | "FOLDER" => "scratch".to_string(),
        _ if word.starts_with('<') && upper => "M16".to_string(),
        _ => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands() -> Vec<String> {
        ["gm", "report", "table", "campaign"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn commands_are_found_in_backticks_and_after_run() {
        let text = "`realmgm gm status --campaign OAK` shows it; or run realmgm gm \
                    --campaign OAK resume. Not `gm status` here, nor realmgm report.";
        assert_eq!(
            commands_in(text, Kind::Written, &commands()),
            ["gm status --campaign OAK", "gm --campaign OAK resume"]
        );
        let demo = "Look around with `/tmp/target/debug/realmgm gm --db x.sqlite status`";
        assert_eq!(
            commands_in(demo, Kind::Written, &commands()),
            ["gm --db x.sqlite status"]
        );
        let built = "format!(\"realmgm gm --campaign {} process --day {day}\", name); \
                     \"realmgm hit a bug ({}); please report it\"";
        assert_eq!(
            commands_in(built, Kind::Format, &commands()),
            ["gm --campaign M16 process --day 3"]
        );
        let help = "Print a table, e.g. `table show meeting`; `realmgm manual | man -l -`.";
        assert_eq!(
            commands_in(help, Kind::Help, &commands()),
            ["table show meeting", "manual"]
        );
        let format =
            "see `realmgm report --campaign {name} --day {day}` or `realmgm campaign show {}{db}`";
        assert_eq!(
            commands_in(format, Kind::Format, &commands()),
            [
                "report --campaign M16 --day 3",
                "campaign show M16 --db game.sqlite"
            ]
        );
    }

    #[test]
    fn placeholders_get_values_and_quotes_group_words() {
        assert_eq!(
            arguments("orders parse \"M CV4, H\" --day N <FILE> BIMR3"),
            [
                "realmgm",
                "orders",
                "parse",
                "M CV4, H",
                "--day",
                "3",
                "game.toml",
                "BIMR3"
            ]
        );
    }
}
