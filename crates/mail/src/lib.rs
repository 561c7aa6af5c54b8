//! Mail plumbing for play-by-email campaigns: reading, cleaning, classifying
//! and routing inbound mail, building and sending outbound mail, and the
//! mailbox access (Maildir, IMAP) the daemon polls, and the webhooks that
//! carry a campaign's public news to where its players chat.
//!
//! Everything here is game-agnostic: it knows nothing of Magic Realm rules and
//! nothing of the campaign store. The shape follows the practice of the long
//! running PBEM servers (reference pbem-practice.md §0, §1.6, §4): keep the
//! raw bytes and a hash, never answer robots, strip quoted reports so players
//! can reply on top, route by subject tag or plus-address, and send mail that
//! other robots will not answer.

pub mod arrival;
pub mod auto;
pub mod clean;
pub mod courtesy;
#[cfg(any(test, feature = "test-support"))]
pub mod fake_smtp;
pub mod html;
pub mod imap;
pub mod inbound;
pub mod maildir;
pub mod oauth;
pub mod outbound;
pub mod route;
pub mod tls;
pub mod transport;
pub mod webhook;
