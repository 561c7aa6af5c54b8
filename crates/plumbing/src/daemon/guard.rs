//! Containment: a bug met while handling one mail or one campaign's tick
//! becomes an error for that mail or campaign alone. The daemon serves many
//! campaigns from one process, so a panic that escaped would stop every
//! campaign until someone noticed; caught here, it is recorded with its
//! message and the daemon goes on with the next mail or campaign.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::Daemon;

impl Daemon {
    /// Run `work` as one unit of work: everything it stores is committed
    /// together, or nothing is when it fails or panics. Inside a unit of
    /// work already open (a GM command by mail runs in the mail's) it joins
    /// that one, whose owner commits or rolls back.
    ///
    /// # Errors
    /// What `work` returns, a panic in it, or the store fails.
    pub fn atomically<T>(
        &mut self,
        work: impl FnOnce(&mut Daemon) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        if self.store.in_work() {
            return work(self);
        }
        self.store.begin_work()?;
        match contained(|| work(self)) {
            Ok(value) => {
                self.store.commit_work()?;
                Ok(value)
            }
            Err(error) => {
                self.store.abandon_work();
                Err(error)
            }
        }
    }
}

/// Run `work`, turning a panic into an error that quotes the panic's
/// message.
///
/// Unwind safety: the callers hold the store inside an open unit of work,
/// which they roll back on any error, so nothing half-written by the
/// panicking code survives it.
///
/// # Errors
/// What `work` returns, or the panic as an error.
pub fn contained<T>(work: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(payload) => Err(anyhow::anyhow!(
            "realmgm hit a bug ({}); please report it with this message",
            panic_message(payload.as_ref())
        )),
    }
}

/// The text a panic was raised with.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_with_its_message() {
        let error = contained::<()>(|| panic!("end byte index 3 is not a char boundary"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("end byte index 3"), "{error}");
        assert_eq!(contained(|| Ok(7)).unwrap(), 7);
        let failed = contained::<()>(|| anyhow::bail!("store down")).unwrap_err();
        assert_eq!(failed.to_string(), "store down");
    }
}
