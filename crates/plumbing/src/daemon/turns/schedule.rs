//! When the pending turn of a campaign is run: the pure decision the daemon
//! takes on every tick from the facts it gathered (deadline with the GM's
//! extensions, who has orders in, pause and hold state, the last tick).
//!
//! Early processing runs the turn the configured delay after the last
//! awaited player's orders arrived. At the deadline the turn runs unless the
//! daemon was down past it (held until the GM resumes or processes by hand)
//! or too many players sent nothing (held while that lasts); the GM is told
//! either way. A turn that waits
//! for nobody (standing orders decide it) runs at once, unless the game is
//! over.

/// Everything the decision depends on; times are Unix seconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnFacts {
    pub now: i64,
    /// The deadline of the pending day, extensions included.
    pub deadline: i64,
    pub paused: bool,
    pub held: bool,
    /// The game has ended: no turn will run again.
    pub over: bool,
    /// The GM let this day run despite the hold checks.
    pub approved: bool,
    pub awaited: usize,
    /// Awaited players without accepted orders.
    pub missing: Vec<String>,
    /// When the last accepted orders of the day arrived.
    pub last_orders_at: Option<i64>,
    pub early_after_minutes: Option<u32>,
    pub reminder_hours: Option<u32>,
    pub reminded: bool,
    pub last_tick: Option<i64>,
    pub late_grace_seconds: i64,
    pub hold_if_missing_percent: u32,
}

/// What to do now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Wait,
    /// Remind these players that their orders are missing.
    Remind(Vec<String>),
    Process {
        early: bool,
    },
    /// Do not run the turn until the GM acts; tell him why.
    Hold(String),
    /// Do not run the turn while this condition lasts (it is decided
    /// again every tick); tell the GM why.
    HoldWhile(String),
}

/// Decide what the pending turn needs now.
pub fn decide(f: &TurnFacts) -> Decision {
    if f.paused || (f.held && !f.approved) || f.over {
        return Decision::Wait;
    }
    if f.awaited == 0 {
        // Standing orders decide the turn: nobody has anything to send.
        return Decision::Process {
            early: f.now < f.deadline,
        };
    }
    if f.missing.is_empty()
        && f.now < f.deadline
        && let (Some(minutes), Some(last)) = (f.early_after_minutes, f.last_orders_at)
        && f.now >= last + i64::from(minutes) * 60
    {
        return Decision::Process { early: true };
    }
    if f.now >= f.deadline {
        if !f.approved {
            let saw_it_before = f.last_tick.is_some_and(|tick| tick >= f.deadline);
            let late = f.now - f.deadline;
            if !saw_it_before && late > f.late_grace_seconds {
                return Decision::Hold(format!(
                    "the daemon first looked at this turn {} minutes after its deadline (it was \
                     not running); check the orders before it runs",
                    late / 60
                ));
            }
            let missing_percent = f.missing.len() * 100 / f.awaited;
            if missing_percent > f.hold_if_missing_percent as usize {
                return Decision::HoldWhile(format!(
                    "{} of {} awaited players sent no orders ({}), more than the {}% the \
                     campaign allows; enter their orders by hand (`gm orders`) or extend the \
                     deadline (`gm extend`), and the hold lifts itself; or run the turn anyway \
                     with `gm process` or `gm resume`",
                    f.missing.len(),
                    f.awaited,
                    f.missing.join(", "),
                    f.hold_if_missing_percent
                ));
            }
        }
        return Decision::Process { early: false };
    }
    if let Some(hours) = f.reminder_hours
        && !f.reminded
        && !f.missing.is_empty()
        && f.now >= f.deadline - i64::from(hours) * 3600
    {
        return Decision::Remind(f.missing.clone());
    }
    Decision::Wait
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> TurnFacts {
        TurnFacts {
            now: 1_000_000,
            deadline: 1_100_000,
            paused: false,
            held: false,
            over: false,
            approved: false,
            awaited: 4,
            missing: vec!["Cat".into()],
            last_orders_at: Some(990_000),
            early_after_minutes: Some(10),
            reminder_hours: Some(24),
            reminded: false,
            last_tick: Some(999_000),
            late_grace_seconds: 3600,
            hold_if_missing_percent: 50,
        }
    }

    #[test]
    fn before_the_deadline_it_waits_reminds_or_runs_early() {
        let mut f = facts();
        assert_eq!(decide(&f), Decision::Wait);
        f.now = f.deadline - 3600;
        assert_eq!(decide(&f), Decision::Remind(vec!["Cat".into()]));
        f.reminded = true;
        assert_eq!(decide(&f), Decision::Wait);
        f.missing.clear();
        assert_eq!(decide(&f), Decision::Process { early: true });
        f.last_orders_at = Some(f.now - 60);
        assert_eq!(decide(&f), Decision::Wait, "the early delay is not over");
        f.paused = true;
        f.now = f.deadline + 10;
        assert_eq!(decide(&f), Decision::Wait);
    }

    #[test]
    fn a_turn_awaiting_nobody_runs_at_once_unless_the_game_is_over() {
        let mut f = facts();
        f.awaited = 0;
        f.missing.clear();
        f.last_orders_at = None;
        assert_eq!(decide(&f), Decision::Process { early: true });
        f.now = f.deadline + 5;
        assert_eq!(decide(&f), Decision::Process { early: false });
        f.over = true;
        assert_eq!(decide(&f), Decision::Wait);
        f.over = false;
        f.paused = true;
        assert_eq!(decide(&f), Decision::Wait);
    }

    #[test]
    fn at_the_deadline_it_runs_or_holds() {
        let mut f = facts();
        f.now = f.deadline + 5;
        f.last_tick = Some(f.deadline - 30);
        assert_eq!(decide(&f), Decision::Process { early: false });
        f.missing = vec!["A".into(), "B".into(), "C".into()];
        assert!(matches!(decide(&f), Decision::HoldWhile(r) if r.contains("3 of 4")));
        f.approved = true;
        assert_eq!(decide(&f), Decision::Process { early: false });
        f.approved = false;
        f.missing.clear();
        f.now = f.deadline + 7200;
        assert!(matches!(decide(&f), Decision::Hold(r) if r.contains("120 minutes")));
        f.last_tick = Some(f.deadline + 1);
        assert_eq!(decide(&f), Decision::Process { early: false });
        f.held = true;
        assert_eq!(decide(&f), Decision::Wait);
    }
}
