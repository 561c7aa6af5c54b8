//! A player's mail read as commands ([`commands`]) or orders
//! ([`player`]), and the confirmation each gets ([`confirm`]).

pub mod commands;
pub mod confirm;
pub mod player;

part! {
    /// A player's commands and orders: read, stored and answered.
    Orders
}

#[cfg(test)]
mod tests {
    use super::player::Submission;
    use crate::daemon::testing::{NOW, demo};

    #[test]
    fn orders_are_kept_as_the_players_accepted_orders() {
        let mut daemon = demo();
        assert!(
            daemon
                .orders()
                .accepted_orders("DEMO", 1, "Ann")
                .unwrap()
                .is_none()
        );
        let stored = daemon.campaign("DEMO").unwrap();
        let submission = Submission {
            player: "Ann",
            text: "H / H",
            first_line: 1,
            notes: &[],
            source_mail: None,
            by_gm: false,
        };
        daemon
            .orders()
            .submit_orders(&stored, &submission, NOW)
            .unwrap();
        let accepted = daemon.orders().accepted_orders("DEMO", 1, "Ann").unwrap();
        assert!(accepted.is_some());
    }
}
