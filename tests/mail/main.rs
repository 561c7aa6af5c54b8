//! Play by email: the daemon end to end (Maildir, pipe, the local Postfix and Dovecot), mail parsing and its robustness.
//!
//! One test binary for the group: each file is a module, so the crate is
//! linked once for all of them.

#[path = "../common/mod.rs"]
mod common;
#[path = "../support/month16.rs"]
mod month16;
#[path = "../support/printed_commands.rs"]
mod printed_commands;
#[path = "../support/rust_shaped.rs"]
mod rust_shaped;
#[path = "../support/source_code.rs"]
mod source_code;
#[path = "../support/mod.rs"]
mod support;

mod application_layers;
mod combat_by_mail;
mod daemon_maildir;
mod daemon_robustness;
mod daemon_server;
mod fantasy_by_mail;
mod first_week;
mod forgers;
mod gm_hand;
mod mail_fixtures;
mod mail_garbled;
mod mail_server;
mod mail_tls;
mod month_by_mail;
mod news_webhooks;
mod no_issue_numbers;
mod oauth_mail;
mod orders_prose;
mod report_mail;
mod secrets_on_disk;
mod several_characters;
mod site_pages;
mod storage;
mod three_campaigns;
mod typed_errors;
mod what_people_read;
