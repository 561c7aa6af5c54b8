//! Fuzz target for `campaign import`: the input is a plan of
//! edits to a real export (bytes flipped, columns renamed into SQL, tables
//! dropped, rows moved to other campaigns, values retyped or oversize,
//! views and triggers added), and the edited file is imported into a
//! database that runs another campaign. A refusal is fine; a panic, a
//! refused import that changed anything, an import that touched the other
//! campaign, or a write to the file read, is a bug. The cli suite runs the
//! same path over a seeded corpus (tests/cli/transfer.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/cli/transfer/mutations.rs"]
mod mutations;

fuzz_target!(|plan: &[u8]| {
    if let mutations::Outcome::Refused(why) = mutations::exercise(&mutations::hostile_export(plan)) {
        assert!(
            why.contains(" is not a campaign export") || why.contains("already"),
            "a refusal without its reason: {why}"
        );
    }
});
