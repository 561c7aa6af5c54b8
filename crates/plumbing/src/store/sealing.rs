//! The key the store seals OAuth tokens with, and the sealing: each value
//! is encrypted and authenticated with ChaCha20-Poly1305 (ring's AEAD, the
//! TLS stack's own) under a fresh random nonce per write, bound to the
//! campaign and the column it is written for, so a value copied elsewhere
//! does not open.
//!
//! The key is 32 random bytes, written as 64 hex digits: from the
//! environment variable [`KEY_VARIABLE`] when it is set, else from a key
//! file beside the database (`<database>.key`), made 0600 on first use. A
//! key file others can read is refused: the tokens it opens give the GM's
//! mailbox.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};

use crate::game::hex;

/// The environment variable that may hold the key.
pub const KEY_VARIABLE: &str = "REALMGM_SECRET_KEY";

/// Why a key could not be had or a value not opened.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error(
        "{KEY_VARIABLE} must be 64 hex digits (32 bytes); make one with `openssl rand -hex 32`"
    )]
    BadVariable,
    #[error(
        "the key file {0} is not 64 hex digits; remove it and sign in again with `realmgm mail login --campaign C` for each campaign"
    )]
    BadFile(PathBuf),
    #[error(
        "the key file {path} can be read by others, and it opens the GM's mail sign-in; run \
         `chmod 600 {path}`"
    )]
    KeyFileOpen { path: PathBuf },
    #[error("cannot read or make the key file {path}: {source}")]
    KeyFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the stored sign-in does not open with this key ({KEY_VARIABLE} or the key file beside \
         the database is not the one the login used); run `realmgm mail login --campaign C` again"
    )]
    WrongKey,
    #[error("the system's random source failed: {0}")]
    Random(String),
}

/// A sealing key. It never prints.
pub struct SealingKey {
    key: LessSafeKey,
}

impl std::fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SealingKey(********)")
    }
}

/// Where the key file of the database at `database` is.
pub fn key_file(database: &Path) -> PathBuf {
    let mut name = database.file_name().unwrap_or_default().to_os_string();
    name.push(".key");
    database.with_file_name(name)
}

impl SealingKey {
    /// The key from [`KEY_VARIABLE`] when set, else the database's key
    /// file, made when there is none.
    ///
    /// # Errors
    /// [`SealError`] saying what to fix.
    pub fn for_database(database: &Path) -> Result<SealingKey, SealError> {
        match std::env::var(KEY_VARIABLE) {
            Ok(text) => SealingKey::from_hex(&text).ok_or(SealError::BadVariable),
            Err(_) => SealingKey::from_file(&key_file(database)),
        }
    }

    fn from_file(path: &Path) -> Result<SealingKey, SealError> {
        let failed = |source| SealError::KeyFile {
            path: path.to_path_buf(),
            source,
        };
        match std::fs::metadata(path) {
            Ok(metadata) => {
                if metadata.permissions().mode() & 0o077 != 0 {
                    return Err(SealError::KeyFileOpen {
                        path: path.to_path_buf(),
                    });
                }
                let text = std::fs::read_to_string(path).map_err(failed)?;
                SealingKey::from_hex(&text).ok_or_else(|| SealError::BadFile(path.to_path_buf()))
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let mut bytes = [0u8; 32];
                getrandom::fill(&mut bytes).map_err(|e| SealError::Random(e.to_string()))?;
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(0o600)
                    .open(path)
                    .map_err(failed)?;
                writeln!(file, "{}", hex(&bytes)).map_err(failed)?;
                file.sync_all().map_err(failed)?;
                Ok(SealingKey::from_bytes(&bytes))
            }
            Err(error) => Err(failed(error)),
        }
    }

    /// A key from 64 hex digits (surrounding space ignored).
    pub fn from_hex(text: &str) -> Option<SealingKey> {
        let text = text.trim();
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (at, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * at..2 * at + 2], 16).ok()?;
        }
        Some(SealingKey::from_bytes(&bytes))
    }

    pub fn from_bytes(bytes: &[u8; 32]) -> SealingKey {
        let unbound = UnboundKey::new(&CHACHA20_POLY1305, bytes)
            .unwrap_or_else(|_| unreachable!("32 bytes is ChaCha20-Poly1305's key length"));
        SealingKey {
            key: LessSafeKey::new(unbound),
        }
    }

    /// `plain` sealed for `context`: nonce, then ciphertext and tag.
    ///
    /// # Errors
    /// [`SealError::Random`] when no nonce can be drawn.
    pub fn seal(&self, plain: &[u8], context: &str) -> Result<Vec<u8>, SealError> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| SealError::Random(e.to_string()))?;
        let mut sealed = plain.to_vec();
        self.key
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut sealed,
            )
            .map_err(|_| SealError::Random("sealing failed".to_string()))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// What [`SealingKey::seal`] sealed for `context`.
    ///
    /// # Errors
    /// [`SealError::WrongKey`] when another key or context sealed it, or
    /// it was changed.
    pub fn open(&self, sealed: &[u8], context: &str) -> Result<Vec<u8>, SealError> {
        if sealed.len() < NONCE_LEN {
            return Err(SealError::WrongKey);
        }
        let (nonce, rest) = sealed.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().map_err(|_| SealError::WrongKey)?;
        let mut buffer = rest.to_vec();
        let plain = self
            .key
            .open_in_place(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(context.as_bytes()),
                &mut buffer,
            )
            .map_err(|_| SealError::WrongKey)?;
        Ok(plain.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_values_open_only_with_their_key_and_context() {
        let key = SealingKey::from_bytes(&[7; 32]);
        let first = key.seal(b"refresh-1", "a").unwrap();
        let second = key.seal(b"refresh-1", "a").unwrap();
        assert_ne!(first, second, "a fresh nonce per write");
        assert!(!first.windows(9).any(|w| w == b"refresh-1"));
        assert_eq!(key.open(&first, "a").unwrap(), b"refresh-1");
        assert!(matches!(key.open(&first, "b"), Err(SealError::WrongKey)));
        let other = SealingKey::from_bytes(&[8; 32]);
        assert!(matches!(other.open(&first, "a"), Err(SealError::WrongKey)));
        let mut changed = first.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert!(matches!(key.open(&changed, "a"), Err(SealError::WrongKey)));
    }

    #[test]
    fn the_key_file_is_made_private_and_refused_when_others_can_read_it() {
        let folder = std::env::temp_dir().join(format!("realmgm-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        let database = folder.join("realmgm.sqlite");
        let path = key_file(&database);
        assert_eq!(path, folder.join("realmgm.sqlite.key"));
        let made = SealingKey::from_file(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let sealed = made.seal(b"x", "c").unwrap();
        let again = SealingKey::from_file(&path).unwrap();
        assert_eq!(again.open(&sealed, "c").unwrap(), b"x");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let refused = SealingKey::from_file(&path).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains(&format!("chmod 600 {}", path.display())),
            "{refused}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn keys_from_text() {
        assert!(SealingKey::from_hex(&"ab".repeat(32)).is_some());
        assert!(SealingKey::from_hex(&format!(" {}\n", "0F".repeat(32))).is_some());
        assert!(SealingKey::from_hex("abc").is_none());
        assert!(SealingKey::from_hex(&"zz".repeat(32)).is_none());
    }
}
