//! A mail transport that keeps what the daemon sends, read back as
//! inbound mail, so a test reads each player's mail as he would.

use std::cell::RefCell;

use lettre::Message;
use realmgm::daemon::Daemon;
use realmgm::mail::inbound::{InboundMail, InboundOptions, parse};
use realmgm::mail::transport::{MailTransport, SendError};

/// A transport that keeps what it is given.
#[derive(Default)]
pub struct Capture(RefCell<Vec<InboundMail>>);

impl MailTransport for Capture {
    fn send(&self, message: &Message) -> Result<String, SendError> {
        let mail = parse(&message.formatted(), &InboundOptions::default()).unwrap();
        self.0.borrow_mut().push(mail);
        Ok("kept".into())
    }
}

impl Capture {
    /// Send every mail due at `now` and return them.
    pub fn flush(&self, daemon: &mut Daemon, now: i64) -> Vec<InboundMail> {
        daemon.outbox().send_due(self, None, now).unwrap();
        self.0.take()
    }
}

/// The mails addressed to `address`.
pub fn to(mails: &[InboundMail], address: &str) -> Vec<InboundMail> {
    mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == address))
        .cloned()
        .collect()
}
