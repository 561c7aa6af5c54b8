//! Property-style check: random and garbled bytes fed to the inbound parser,
//! the reply cleaner and the router never panic. The bytes come from seeded
//! dice, so a failure is reproducible from the seed printed in the message.

use std::path::PathBuf;

use realmgm::dice::Dice;
use realmgm::mail::clean::clean_reply;
use realmgm::mail::html::html_to_text;
use realmgm::mail::inbound::{InboundOptions, parse};
use realmgm::mail::route::{route, take_password};

/// Bytes that make MIME parsers work hard.
const TOKENS: &[&[u8]] = &[
    b"\r\n",
    b"\r\n\r\n",
    b"--",
    b"boundary=\"b\"",
    b"Content-Type: multipart/mixed; boundary=b\r\n",
    b"Content-Transfer-Encoding: base64\r\n",
    b"Content-Transfer-Encoding: quoted-printable\r\n",
    b"=?UTF-8?B?",
    b"?=",
    b"=\r\n",
    b"=ZZ",
    b"<blockquote>",
    b"&#x",
    b"> ",
    b"On x wrote:\n",
    b"\xff\xfe\xc3",
    b"{99}",
];

fn fixtures() -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

fn garble(dice: &mut Dice, base: &[u8]) -> Vec<u8> {
    let mut bytes = base.to_vec();
    let edits = 1 + dice.below("garble/edits", 12);
    for _ in 0..edits {
        let at = if bytes.is_empty() {
            0
        } else {
            dice.below("garble/at", bytes.len() as u32) as usize
        };
        match dice.below("garble/kind", 5) {
            0 => {
                if at < bytes.len() {
                    bytes[at] = dice.below("garble/byte", 256) as u8;
                }
            }
            1 => {
                let token = TOKENS[dice.below("garble/token", TOKENS.len() as u32) as usize];
                bytes.splice(at..at, token.iter().copied());
            }
            2 => {
                let len = dice.below("garble/cut", 40) as usize;
                let end = (at + len).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => bytes.truncate(at),
            _ => {
                let len = dice.below("garble/len", 64) as usize;
                let noise: Vec<u8> = (0..len)
                    .map(|_| dice.below("garble/byte", 256) as u8)
                    .collect();
                bytes.splice(at..at, noise);
            }
        }
    }
    bytes
}

fn exercise(bytes: &[u8]) {
    if let Ok(mail) = parse(bytes, &InboundOptions::default()) {
        let cleaned = clean_reply(&mail.body_text);
        let _ = take_password(&cleaned.text);
        let _ = route(&mail, |tag| Some((tag.to_string(), "gm".to_string())));
    }
    let text = String::from_utf8_lossy(bytes);
    let _ = html_to_text(&text);
    let _ = clean_reply(&text);
}

#[test]
fn garbled_fixtures_never_panic() {
    let bases = fixtures();
    assert!(bases.len() >= 10, "fixtures are missing");
    for seed in 0..100u64 {
        let mut dice = Dice::new(seed, 1);
        for base in &bases {
            let bytes = garble(&mut dice, base);
            let outcome = std::panic::catch_unwind(|| exercise(&bytes));
            assert!(outcome.is_ok(), "panic on a garbled mail, seed {seed}");
        }
        dice.take_log();
    }
}

#[test]
fn random_bytes_never_panic() {
    for seed in 0..500u64 {
        let mut dice = Dice::new(seed, 2);
        let len = dice.below("random/len", 600) as usize;
        let mut bytes: Vec<u8> = (0..len)
            .map(|_| dice.below("random/byte", 256) as u8)
            .collect();
        // Half the cases start like a mail so the parser gets past the headers.
        if seed % 2 == 0 {
            let mut prefix =
                b"From: a@b.c\r\nContent-Type: multipart/alternative; boundary=x\r\n\r\n--x\r\n"
                    .to_vec();
            prefix.append(&mut bytes);
            bytes = prefix;
        }
        let outcome = std::panic::catch_unwind(|| exercise(&bytes));
        assert!(outcome.is_ok(), "panic on random bytes, seed {seed}");
    }
}
