//! Fuzz target for the orders language (no input makes the
//! parser panic): any bytes, read as a mail body, go through the
//! whole orders sheet and the activity-line parser; an error is fine, a
//! panic is a bug.
#![no_main]

use libfuzzer_sys::fuzz_target;
use realmgm::magic_realm::data;
use realmgm::magic_realm::orders::{parse_activities, parse_chit, parse_day_orders};

fuzz_target!(|bytes: &[u8]| {
    let Ok(game) = data::get() else {
        return;
    };
    let text = String::from_utf8_lossy(bytes);
    let _ = parse_day_orders(&text, 1, game);
    for line in text.lines() {
        let _ = parse_activities(line, 1, &game.tiles);
        let _ = parse_chit(line);
    }
});
