//! Orders mail as people write it: a corpus of real-looking mails
//! (`tests/fixtures/orders_mail`) with greetings, chatter, quoted replies,
//! signatures, phone footers and top-posted replies goes through the daemon,
//! and each confirmation is checked for the orders read and the lines set
//! aside.

use crate::support;

use support::capture::{Capture, to};
use support::*;

const ANN: &str = "ann@realmgm.test";
const GM: &str = "gm@realmgm.test";

/// What the confirmation of one mail of the corpus must say.
struct Expected {
    file: &'static str,
    /// The first line of the orders as read; `None` when refused.
    activities: Option<&'static str>,
    /// The body lines named as set aside (greetings, prose, sign-offs).
    set_aside: &'static [usize],
    /// For a refused mail, the line its problem names and what it says.
    problem: Option<(usize, &'static str)>,
}

const CORPUS: &[Expected] = &[
    Expected {
        file: "01-gerald.txt",
        activities: Some("Activities: M-Evil Valley 2 / H / S / S"),
        set_aside: &[2, 3],
        problem: None,
    },
    Expected {
        file: "02-chatter-and-signature.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S"),
        set_aside: &[2, 4, 10, 11, 12],
        problem: None,
    },
    Expected {
        file: "03-phone-footer.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S / S"),
        set_aside: &[5],
        problem: None,
    },
    Expected {
        file: "04-top-posted-reply.txt",
        activities: Some("Activities: H / S / S / H"),
        set_aside: &[2],
        problem: None,
    },
    Expected {
        file: "05-outlook-original-message.txt",
        activities: Some("Activities: H / H / S / S"),
        set_aside: &[2, 7, 8],
        problem: None,
    },
    Expected {
        file: "06-bottom-posted-reply.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S / S"),
        set_aside: &[5],
        problem: None,
    },
    Expected {
        file: "07-prose-between-orders.txt",
        activities: None,
        set_aside: &[2],
        problem: Some((4, "the activities were already given on line 3")),
    },
    Expected {
        file: "08-heading-and-dashed-name.txt",
        activities: Some("Activities: T / H / S / S"),
        set_aside: &[2, 5],
        problem: None,
    },
    Expected {
        file: "09-postscript-and-password-below.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S / S"),
        set_aside: &[4],
        problem: None,
    },
    Expected {
        file: "10-german-reply.txt",
        activities: Some("Activities: H / H / S / S"),
        set_aside: &[2, 4],
        problem: None,
    },
    Expected {
        file: "11-quoted-without-marks.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S / S"),
        set_aside: &[2, 4],
        problem: None,
    },
    // A signature's `Tel:` is near the key `Tell:` but is no order.
    Expected {
        file: "12-business-signature.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S / S"),
        set_aside: &[2, 7, 8, 9, 10, 11],
        problem: None,
    },
    // An order written without its colon is answered, not set aside.
    Expected {
        file: "13-key-without-colon.txt",
        activities: None,
        set_aside: &[2],
        problem: Some((4, "(did you mean Buy?)")),
    },
    Expected {
        file: "14-numbered-phases.txt",
        activities: Some("Activities: M-Curst Valley 4 / H / S / S"),
        set_aside: &[2, 4, 11],
        problem: None,
    },
];

/// The body line numbers a confirmation names as set aside.
fn named_lines(confirmation: &str) -> Vec<usize> {
    let mut lines: Vec<usize> = confirmation
        .lines()
        .filter_map(|l| l.strip_prefix("  - line "))
        .filter(|rest| rest.contains("left out"))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect();
    lines.sort_unstable();
    lines
}

#[test]
fn each_mail_of_the_corpus_is_read_with_its_prose_greetings_and_signatures_set_aside() {
    let mut daemon = daemon();
    let text = campaign_text("MR", &[("Ann", ANN)], "").replace("Annchar", "Amazon");
    let secrets = add_campaign(&mut daemon.store, "magic-realm", &text);
    let capture = Capture::default();
    daemon.turns().check_turn("MR", START).unwrap();
    capture.flush(&mut daemon, START);
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/orders_mail");
    for (n, expected) in CORPUS.iter().enumerate() {
        let now = START + i64::try_from(n).unwrap();
        let body = std::fs::read_to_string(folder.join(expected.file))
            .unwrap()
            .replace("\r\n", "\n")
            .replace("SECRET", &secrets["Ann"]);
        let id = format!("corpus{n}@x");
        daemon
            .mail_in()
            .ingest(&mail(ANN, GM, "[MR] orders", &id, &body), now)
            .unwrap();
        let mails = capture.flush(&mut daemon, now);
        let confirmation = to(&mails, ANN).last().unwrap().body_text.clone();
        let file = expected.file;
        match expected.activities {
            Some(activities) => {
                assert!(
                    confirmation.contains("are accepted"),
                    "{file}:\n{confirmation}"
                );
                assert!(
                    confirmation.lines().any(|l| l == activities),
                    "{file}: expected {activities}\n{confirmation}"
                );
            }
            None => {
                assert!(
                    confirmation.contains("could not be read"),
                    "{file}:\n{confirmation}"
                );
            }
        }
        if let Some((line, says)) = expected.problem {
            let problem = confirmation
                .lines()
                .find(|l| l.starts_with(&format!("  line {line}, column")));
            assert!(
                problem.is_some_and(|p| p.contains(says)),
                "{file}: expected a problem on line {line} saying {says}\n{confirmation}"
            );
        }
        assert_eq!(
            named_lines(&confirmation),
            expected.set_aside,
            "{file}:\n{confirmation}"
        );
        assert!(
            !confirmation.contains(&secrets["Ann"]),
            "{file}: the secret is never echoed"
        );
    }
}
