//! Units of work and durability. The daemon handles each received mail in
//! one transaction ([`Store::begin_work`] … [`Store::commit_work`]): the
//! orders, the confirmation in the outbox, the GM's log lines and the mail's
//! new status are committed together or not at all. The raw mail itself is
//! committed before, on its own and durably ([`Store::durably`]): the
//! database runs in WAL mode with `synchronous = NORMAL`, where a commit is
//! atomic and ordered but reaches the disk only with the next checkpoint or
//! durable commit; a raw mail's commit is flushed at once (`FULL`), so a
//! mailbox may mark the mail read as soon as its row is committed.

use super::{Store, StoreError};

impl Store {
    /// Open a unit of work; every store call until [`Store::commit_work`]
    /// belongs to it.
    ///
    /// # Errors
    /// A unit of work is already open, or the database is locked.
    pub fn begin_work(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(())
    }

    /// Commit the open unit of work.
    ///
    /// # Errors
    /// The database fails; the work is then rolled back.
    pub fn commit_work(&mut self) -> Result<(), StoreError> {
        if let Err(error) = self.conn.execute_batch("COMMIT") {
            self.abandon_work();
            return Err(error.into());
        }
        Ok(())
    }

    /// Roll the open unit of work back; nothing it did stays. Harmless when
    /// none is open.
    pub fn abandon_work(&mut self) {
        if !self.conn.is_autocommit() {
            // A failed rollback leaves nothing more to undo.
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }

    /// Whether a unit of work is open.
    pub fn in_work(&self) -> bool {
        !self.conn.is_autocommit()
    }

    /// Run `write` with every commit flushed to the disk before it returns
    /// (`synchronous = FULL`), then go back to the cheaper ordinary commits.
    /// Inside a unit of work, `write` simply joins it.
    ///
    /// # Errors
    /// What `write` returns, or the database fails.
    pub(crate) fn durably<T>(
        &mut self,
        write: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if !self.conn.is_autocommit() {
            // Inside a unit of work the commit that counts comes later.
            return write(self);
        }
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        let result = write(self);
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::arrival::arrival;

    #[test]
    fn abandoned_work_leaves_nothing_and_committed_work_stays() {
        let mut store = Store::open_in_memory(crate::TEST_GAMES).unwrap();
        let id = store
            .inbox_mut()
            .insert(b"raw", &arrival(b"raw"), 1)
            .unwrap();
        store.begin_work().unwrap();
        store
            .inbox_mut()
            .set_status(id.id(), super::super::InboundStatus::Processed, Some("n"))
            .unwrap();
        store.abandon_work();
        let new = store
            .inbox()
            .with_status(super::super::InboundStatus::New)
            .unwrap();
        assert_eq!(new.len(), 1, "the status change was rolled back");
        store.begin_work().unwrap();
        // A store call that opens its own transaction nests inside the work.
        store
            .inbox_mut()
            .insert(b"other", &arrival(b"other"), 2)
            .unwrap();
        store
            .inbox_mut()
            .set_status(id.id(), super::super::InboundStatus::Processed, None)
            .unwrap();
        store.commit_work().unwrap();
        assert_eq!(
            store
                .inbox()
                .with_status(super::super::InboundStatus::New)
                .unwrap()
                .len(),
            1
        );
    }
}
