//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder of reference facts (`../shared/reference` beside the clone), or
/// `None` when it is not there. Cross-check tests print that they skipped
/// rather than pass silently. `REALMGM_REFERENCE` overrides the location.
pub fn reference_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("REALMGM_REFERENCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: the reference folder {} does not exist; cross-checks against it did not run",
            dir.display()
        );
        None
    }
}

/// Read and parse one reference JSON file, e.g. `magic-realm/tiles.json`.
pub fn reference_json(relative: &str) -> Option<serde_json::Value> {
    let path = reference_dir()?.join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// A database path unique to one test, removed when dropped.
pub struct TempDb(pub PathBuf);

impl TempDb {
    /// A database in a folder of its own, where the campaign's relative
    /// mail folders go too.
    pub fn new(test: &str) -> TempDb {
        let dir = std::env::temp_dir().join(format!("realmgm-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDb(dir.join("realmgm.sqlite"))
    }

    /// The folder the database is in.
    pub fn dir(&self) -> &Path {
        self.0.parent().expect("the database is in a folder")
    }

    fn remove(&self) {
        let _ = std::fs::remove_dir_all(self.dir());
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Store the demo campaign under the tag `tag` in `db` with `campaign new`,
/// from a copy in the database's folder; returns the folder of its two
/// Maildirs (`in`, `out`), which `campaign new` makes there.
pub fn store_demo_campaign(db: &TempDb, tag: &str) -> PathBuf {
    let file = db.dir().join(format!("{tag}.toml"));
    let text = std::fs::read_to_string("campaigns/demo.toml")
        .expect("the demo campaign is shipped")
        .replace("name = \"DEMO\"", &format!("name = \"{tag}\""));
    std::fs::write(&file, text).expect("a temporary campaign file");
    stdout(&realmgm(
        &["campaign", "new", file.to_str().expect("a UTF-8 path")],
        &db.0,
    ));
    db.dir().join("mail").join("DEMO")
}

/// Run the realmgm binary with `REALMGM_DB` set to `db`, from the crate folder.
pub fn realmgm(args: &[&str], db: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(args)
        .env("REALMGM_DB", db)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the realmgm binary runs")
}

/// Standard output of a run that must have succeeded.
pub fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error of a run that must have failed.
pub fn stderr(output: &Output) -> String {
    assert!(!output.status.success(), "should have failed");
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// A dwelling as the reference names it (`Guard` is the guard house).
pub fn reference_dwelling(name: &str) -> realmgm::magic_realm::data::terms::Dwelling {
    use realmgm::magic_realm::data::terms::Dwelling;
    match name {
        "Guard" => Dwelling::GuardHouse,
        other => Dwelling::from_label(other).unwrap_or_else(|| panic!("unknown dwelling {other}")),
    }
}

/// A colour word as the project spells it (the reference writes `gray`).
pub fn project_colour(word: &str) -> String {
    match word {
        "gray" => "grey".to_string(),
        "GRAY" => "GREY".to_string(),
        other => other.to_string(),
    }
}

/// Unseen mails in the INBOX of `settings` whose subject contains `needle`,
/// marked seen.
pub fn collect_unseen(
    settings: &realmgm::mail::imap::ImapSettings,
    needle: &str,
) -> Vec<realmgm::mail::inbound::InboundMail> {
    use realmgm::daemon::mail_in::ingest::MAX_MAIL_BYTES;
    use realmgm::mail::inbound::{InboundOptions, parse};
    let mut client = realmgm::mail::imap::ImapClient::connect(settings).unwrap();
    client.select("INBOX").unwrap();
    let mut found = Vec::new();
    for uid in client.search_unseen().unwrap() {
        let mail = parse(
            &client.fetch(uid, MAX_MAIL_BYTES).unwrap().head,
            &InboundOptions::default(),
        )
        .unwrap();
        if mail.subject.contains(needle) {
            client.mark_seen(uid).unwrap();
            found.push(mail);
        }
    }
    client.logout();
    found
}

/// Wait (20 seconds at most) until `count` such mails have arrived.
pub fn wait_for_mail(
    settings: &realmgm::mail::imap::ImapSettings,
    needle: &str,
    count: usize,
) -> Vec<realmgm::mail::inbound::InboundMail> {
    let mut found = Vec::new();
    for _ in 0..100 {
        found.extend(collect_unseen(settings, needle));
        if found.len() >= count {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    panic!(
        "{} got {} of {count} mails with '{needle}'",
        settings.username,
        found.len()
    );
}

/// Whether the local test mail server (`scripts/mailserver.sh`) answers on
/// every one of `ports` on 127.0.0.1.
pub fn mail_ports_open(ports: &[u16]) -> bool {
    ports.iter().all(|port| {
        let address = std::net::SocketAddr::from(([127, 0, 0, 1], *port));
        std::net::TcpStream::connect_timeout(&address, std::time::Duration::from_secs(1)).is_ok()
    })
}

/// A value no earlier run used, so a test against the shared mail server
/// finds its own mail: 12 digits at most, short enough for a campaign tag.
pub fn run_marker() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock is after 1970");
    format!(
        "{}{:03}",
        now.as_micros() % 1_000_000_000,
        std::process::id() % 1000
    )
}

/// Send SIGTERM to a running `realmgm daemon`, wait for it, check it ended
/// cleanly after saying so, and return what it logged.
pub fn terminate(daemon: std::process::Child) -> String {
    let sent = Command::new("kill")
        .args(["-TERM", &daemon.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = daemon.wait_with_output().expect("the daemon ends");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("stopping: each mail and day begun was finished"),
        "{said}"
    );
    said
}

/// Start `realmgm daemon ARGS` on the database `db` with the extra
/// environment `env`, its output captured for [`terminate`].
pub fn spawn_daemon(db: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .arg("daemon")
        .args(args)
        .env("REALMGM_DB", db)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the realmgm binary starts")
}
