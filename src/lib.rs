//! realmgm: a game-master tool for play-by-email Magic Realm campaigns, with
//! Fantasy Realms as a second game on the same plumbing.
//!
//! See ARCHITECTURE.md for the bird's-eye view and the code map.

pub mod analyze;
pub mod cli;
pub mod games;

// The layers below the application, under the names the application, its
// tests and its benchmarks use for them.
pub use realmgm_core::{dice, embedded, game, page, report, report_document, suggest, words};
pub use realmgm_fantasy_realms as fantasy_realms;
pub use realmgm_magic_realm as magic_realm;
pub use realmgm_mail as mail;
pub use realmgm_plumbing::{campaign, daemon, site, store};

/// Every realmgm program (the binary, the tests, the benchmarks) allocates
/// through mimalloc: the engines make many small short-lived allocations
/// (about 4,000 in one combat), and the system allocator spent about 40% of
/// a combat's time on them (`benches/combat.rs`). Declared here, in the
/// library, so what the benchmarks measure is what the daemon runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
