//! Fuzz target for subjects and command lines: any text, as
//! a subject and as the first line of a body, is stripped of reply
//! prefixes and tags, searched for campaign tags and read as a command. A
//! panic is a bug (a subject sliced inside a character once stopped the
//! daemon).
#![no_main]

use libfuzzer_sys::fuzz_target;
use realmgm::daemon::orders::commands::{after_command, bare_subject, read};
use realmgm::mail::route::subject_tags;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let (subject, body) = text.split_once('\n').unwrap_or((&text, ""));
    let _ = bare_subject(subject);
    let _ = subject_tags(subject);
    let _ = read(subject, body);
    let _ = after_command(subject, body);
    let _ = read("", &text);
});
