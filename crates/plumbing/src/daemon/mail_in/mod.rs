//! Mail in: three ways (IMAP polling, a Maildir folder, `realmgm ingest`
//! from an MTA pipe) that store the raw message first ([`ingest`]); each
//! stored message is then read once, its sender identified ([`auth`]) and
//! its content handed to the part that acts on it; private messages between
//! players are passed on ([`relay`]).

pub mod auth;
pub mod ingest;
pub mod relay;

part! {
    /// Inbound mail: stored, routed, authenticated and dispatched.
    MailIn
}
