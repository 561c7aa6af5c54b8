//! The turns of a campaign: each round decides whether the pending turn
//! runs, waits, is reminded about or is held ([`schedule`]); a run stores
//! the new day and queues the reports ([`process`], with
//! [`report_context`]); a day stopped at a combat round waits for the
//! answers ([`rounds`]); before day 1 a campaign may be set up by mail
//! ([`setup`]).

pub mod process;
pub mod report_context;
pub mod rounds;
pub mod schedule;
pub mod setup;

part! {
    /// The pending turn of a campaign: set up, run, held or waiting.
    Turns
}

#[cfg(test)]
mod tests {
    use crate::daemon::testing::{NOW, demo};

    #[test]
    fn a_new_campaign_starts_and_waits_for_its_first_day() {
        let mut daemon = demo();
        assert!(daemon.store.days().load("DEMO", 0).unwrap().is_some());
        assert_eq!(daemon.pending_day("DEMO").unwrap(), 1);
        let done = daemon.turns().check_turn("DEMO", NOW + 60).unwrap();
        assert!(done.contains("waiting"), "{done}");
        assert_eq!(daemon.pending_day("DEMO").unwrap(), 1);
    }
}
