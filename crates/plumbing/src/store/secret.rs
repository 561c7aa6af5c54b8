//! Per-player secrets: a player puts his secret in his order mails so the GM
//! knows the mail is his even if the sender address is forged.
//!
//! Secrets come from the operating system's random source (this is
//! plumbing, not the game: no game result depends on them). Only a salted
//! SHA-256 hash is stored; the GM sees each secret once, when the player is
//! added, and sends it to him.

use sha2::{Digest, Sha256};

use super::StoreError;
use crate::game::hex;

/// Letters and digits that cannot be mistaken for one another (no i, l, o,
/// 0 or 1).
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
/// Characters in a secret: 16 of 31 symbols is about 79 bits.
const LENGTH: usize = 16;

/// A new secret, written in groups of four: `k7qm-2xra-pwd9-e4nb`.
///
/// # Errors
/// The operating system's random source failed.
pub fn generate() -> Result<String, StoreError> {
    let mut symbols = Vec::with_capacity(LENGTH);
    while symbols.len() < LENGTH {
        let mut byte = [0u8];
        getrandom::fill(&mut byte).map_err(|e| StoreError::Randomness(e.to_string()))?;
        let [byte] = byte;
        // Rejection sampling keeps every symbol equally likely.
        let limit = 256 - 256 % ALPHABET.len();
        if usize::from(byte) < limit {
            symbols.push(ALPHABET[usize::from(byte) % ALPHABET.len()]);
        }
    }
    let groups: Vec<&str> = symbols
        .chunks(4)
        .map(|chunk| std::str::from_utf8(chunk).unwrap_or_default())
        .collect();
    Ok(groups.join("-"))
}

/// The stored form of `secret` for `player` of `campaign`: binding the hash
/// to both means one player's secret is worthless for another.
pub fn hash(campaign: &str, player: &str, secret: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"realmgm player secret v1\0");
    hasher.update(campaign.to_lowercase().as_bytes());
    hasher.update(b"\0");
    hasher.update(player.to_lowercase().as_bytes());
    hasher.update(b"\0");
    hasher.update(normalize(secret).as_bytes());
    hex(&hasher.finalize())
}

/// `text` with every word shaped like a secret [`generate`] makes (four
/// groups of four of its symbols, joined by dashes) replaced by `mask`;
/// `None` when there is none. No other word has that shape, so a sent mail
/// can lose its secrets without knowing whose they were.
pub fn masked(text: &str, mask: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let shape = LENGTH + LENGTH / 4 - 1;
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'-';
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut at = 0;
    while at + shape <= bytes.len() {
        // A secret's first dash is its fifth byte: go to the next dash
        // (most mail has few), not through every byte.
        let Some(dash) = bytes[at + 4..].iter().position(|&b| b == b'-') else {
            break;
        };
        at += dash;
        let Some(candidate) = bytes.get(at..at + shape) else {
            break;
        };
        let fits = candidate.iter().enumerate().all(|(i, b)| {
            if i % 5 == 4 {
                *b == b'-'
            } else {
                ALPHABET.contains(b)
            }
        });
        let alone = (at == 0 || !is_word(bytes[at - 1]))
            && bytes.get(at + shape).is_none_or(|&b| !is_word(b));
        if fits && alone {
            let kept = out.get_or_insert_with(|| String::with_capacity(text.len()));
            kept.push_str(&text[copied..at]);
            kept.push_str(mask);
            at += shape;
            copied = at;
        } else {
            at += 1;
        }
    }
    let mut kept = out?;
    kept.push_str(&text[copied..]);
    Some(kept)
}

/// Whether `given` could be a secret as typed: the right number of
/// letters and digits once case, spaces and dashes are set aside.
pub fn has_its_shape(given: &str) -> bool {
    normalize(given).len() == LENGTH
}

/// The secret as compared: case, spaces and dashes do not matter, since
/// players retype it.
fn normalize(secret: &str) -> String {
    secret
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_grouped_and_differ() {
        let a = generate().unwrap();
        let b = generate().unwrap();
        assert_eq!(a.len(), 19);
        assert_eq!(a.matches('-').count(), 3);
        assert!(a.bytes().all(|c| c == b'-' || ALPHABET.contains(&c)), "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn secrets_and_nothing_else_are_masked() {
        let made = generate().unwrap();
        let text = format!("Your secret is: {made}\n\nPut a line `Password: {made}` in.");
        let masked = masked(&text, "***").unwrap();
        assert_eq!(
            masked,
            "Your secret is: ***\n\nPut a line `Password: ***` in."
        );
        for other in [
            "no secret here",
            "abcd-efgh-jkmn-pqrs-tuvw",
            "xabcd-efgh-jkmn-pqrs",
            "abcd-efgh-jkmn-pqr1",
            "ABCD-EFGH-JKMN-PQRS",
            "été abcd-efgh-jkmn",
        ] {
            assert_eq!(super::masked(other, "***"), None, "{other}");
        }
        assert_eq!(
            super::masked("é abcd-efgh-jkmn-pqrs.", "*").as_deref(),
            Some("é *.")
        );
    }

    #[test]
    fn hash_ignores_typing_differences_but_binds_player_and_campaign() {
        let secret = "k7qm-2xra-pwd9-e4nb";
        let stored = hash("BIMR3", "Alice", secret);
        assert_eq!(hash("bimr3", "alice", "K7QM 2XRA PWD9 E4NB"), stored);
        assert_ne!(hash("BIMR3", "Bob", secret), stored);
        assert_ne!(hash("BIMR4", "Alice", secret), stored);
        assert_ne!(hash("BIMR3", "Alice", "k7qm-2xra-pwd9-e4nc"), stored);
        assert_eq!(stored.len(), 64);
    }
}
