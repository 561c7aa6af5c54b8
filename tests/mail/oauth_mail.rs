//! A campaign whose mailbox signs in with OAuth 2.0, played by the binary
//! against a token endpoint, an IMAP server and an SMTP server on this
//! machine: `realmgm mail login` gets the GM's consent by the device flow,
//! the daemon reads the players' orders over IMAP (AUTHENTICATE XOAUTH2)
//! and sends reports over SMTP (XOAUTH2), the access token expires and is
//! refreshed (the provider rotating the refresh token), then the GM revokes
//! the grant: the daemon stops signing in, says so in its log, the GM's log
//! and `gm status`, `doctor` names the problem, and once the GM signs in
//! again the waiting notice reaches him.

use crate::common::TempDb;
use crate::support::mail;

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;

use base64::Engine as _;
use realmgm::mail::fake_smtp::FakeSmtp;
use realmgm::mail::imap::fake;
use realmgm::mail::oauth::fake::{Behaviour, TokenServer};
use realmgm::mail::oauth::form;
use realmgm::store::Store;

const TAG: &str = "OA1";
const PLAYERS: [(&str, &str); 3] = [
    ("Ann", "ann@realmgm.test"),
    ("Ben", "ben@realmgm.test"),
    ("Cat", "cat@realmgm.test"),
];

fn campaign_file(tokens: &TokenServer, imap: u16, smtp: u16) -> String {
    let base = format!("http://127.0.0.1:{}", tokens.port());
    let sign_in = format!(
        "user = \"gm@realmgm.test\"\nauth = \"oauth2\"\nprovider = \"custom\"\n\
         client_id = \"realmgm-test\"\nauthorization_url = \"{base}/authorize\"\n\
         token_url = \"{base}/token\"\ndevice_url = \"{base}/device\"\n\
         scopes = [\"mail\", \"offline_access\"]\n"
    );
    let mut text = format!(
        "name = \"{TAG}\"\ngame = \"fantasy-realms\"\nseed = 4004\nrules = []\n\
         [gm]\nemail = \"gm@realmgm.test\"\n\
         [schedule]\nfirst_deadline = \"2099-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         process_early_after_minutes = 0\n\
         [mail]\npoll_seconds = 1\n\
         [mail.imap]\nhost = \"127.0.0.1\"\nport = {imap}\nsecurity = \"none\"\n{sign_in}\
         [mail.smtp]\nhost = \"127.0.0.1\"\nport = {smtp}\nsecurity = \"none\"\n{sign_in}"
    );
    for (name, email) in PLAYERS {
        text.push_str(&format!(
            "[[players]]\nname = \"{name}\"\nemail = \"{email}\"\n"
        ));
    }
    text
}

/// Run the binary on `db`; the key file beside the database seals tokens.
fn run(args: &[&str], db: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(args)
        .env("REALMGM_DB", db)
        .env_remove("REALMGM_SECRET_KEY")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the realmgm binary runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn ok(args: &[&str], db: &Path) -> String {
    let output = run(args, db);
    assert!(output.status.success(), "{args:?}: {}", text(&output));
    text(&output)
}

/// An IMAP session of the daemon: sign in, an inbox holding `mails`
/// (UIDs 1, 2, ...), each fetched and flagged, and log out.
fn session(mails: &[Vec<u8>]) -> Vec<(&'static str, Vec<u8>)> {
    let mut script = vec![
        (
            "CAPABILITY",
            b"* CAPABILITY IMAP4rev1 SASL-IR AUTH=XOAUTH2\r\nTAG OK\r\n".to_vec(),
        ),
        ("AUTHENTICATE XOAUTH2 ", b"TAG OK signed in\r\n".to_vec()),
        (
            "SELECT",
            format!(
                "* {} EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\nTAG OK\r\n",
                mails.len()
            )
            .into_bytes(),
        ),
    ];
    let uids: Vec<String> = (1..=mails.len()).map(|uid| uid.to_string()).collect();
    script.push((
        "UID SEARCH UNSEEN",
        format!("* SEARCH {}\r\nTAG OK\r\n", uids.join(" ")).into_bytes(),
    ));
    for (uid, raw) in (1..).zip(mails) {
        let mut reply =
            format!("* {uid} FETCH (UID {uid} BODY[]<0> {{{}}}\r\n", raw.len()).into_bytes();
        reply.extend_from_slice(raw);
        reply.extend_from_slice(b")\r\nTAG OK\r\n");
        script.push(("UID FETCH", reply));
        script.push(("UID STORE", b"TAG OK\r\n".to_vec()));
    }
    script.push(("LOGOUT", b"* BYE\r\nTAG OK\r\n".to_vec()));
    script
}

/// The access token an AUTHENTICATE line carried.
fn token_of(command: &str) -> String {
    let response = command.rsplit(' ').next().unwrap();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(response)
        .unwrap();
    let decoded = String::from_utf8(decoded).unwrap();
    assert!(decoded.starts_with("user=gm@realmgm.test\x01"), "{decoded}");
    decoded
        .split('\x01')
        .find_map(|p| p.strip_prefix("auth=Bearer "))
        .unwrap()
        .to_string()
}

/// The access token's expiry moved into the past, as time would.
fn expire_access_token(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let changed = conn
        .execute("UPDATE oauth_grants SET access_expires = 0", [])
        .unwrap();
    assert_eq!(changed, 1);
}

#[test]
fn a_campaign_signed_in_with_oauth_plays_refreshes_and_is_told_of_a_revoked_grant() {
    let db = TempDb::new("oauth-mail");
    let tokens = Arc::new(TokenServer::start(Behaviour {
        device_answers: vec!["authorization_pending"],
        rotate: true,
        ..Behaviour::default()
    }));
    let known = Arc::clone(&tokens);
    let smtp = FakeSmtp::start(Arc::new(move |token: &str| known.knows_access_token(token)));
    let imap = TcpListener::bind("127.0.0.1:0").unwrap();
    let file = db.dir().join("oa1.toml");
    std::fs::write(
        &file,
        campaign_file(&tokens, imap.local_addr().unwrap().port(), smtp.port),
    )
    .unwrap();
    let printed = ok(&["campaign", "new", file.to_str().unwrap()], &db.0);
    let secret = |name: &str, email: &str| {
        let prefix = format!("{name} <{email}>: ");
        printed
            .lines()
            .find_map(|line| line.trim().strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no secret for {name} in {printed}"))
            .to_string()
    };
    let orders: Vec<Vec<u8>> = PLAYERS
        .iter()
        .map(|(name, email)| {
            let body = format!("Password: {}\ndraw, discard lowest\n", secret(name, email));
            mail(
                email,
                "gm@realmgm.test",
                &format!("[{TAG}] orders"),
                &format!("{name}.1@realmgm.test"),
                &body,
            )
        })
        .collect();
    let server = fake::serve_on(
        imap,
        vec![session(&[]), session(&orders), session(&[]), session(&[])],
    );

    // Before the login the daemon cannot sign in, and says what to run.
    let status = ok(&["gm", "status", "--campaign", TAG], &db.0);
    assert!(status.contains("NOT SIGNED IN"), "{status}");
    let unread =
        format!("Mailbox: IMAP, not read until you run `realmgm mail login --campaign {TAG}`");
    assert!(status.contains(&unread), "{status}");

    let login = ok(&["mail", "login", "--campaign", TAG], &db.0);
    assert!(login.contains("enter the code WDJB-MJHT"), "{login}");
    assert!(login.contains("Signed in"), "{login}");
    let key = db.dir().join("realmgm.sqlite.key");
    let mode = std::fs::metadata(&key).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the key file is private");
    let stored = std::fs::read(&db.0).unwrap();
    assert!(
        !stored.windows(9).any(|w| w == b"refresh-1"),
        "the refresh token is never stored in clear"
    );

    let status = ok(&["gm", "status", "--campaign", TAG], &db.0);
    assert!(status.contains("Mailbox: IMAP, not read yet"), "{status}");

    // Day 0 is set up with the token of the login, from the store.
    ok(&["daemon", "--once"], &db.0);
    assert_eq!(tokens.refreshes(), 0);
    let status = ok(&["gm", "status", "--campaign", TAG], &db.0);
    assert!(
        status.contains("Mailbox: IMAP, polled every round"),
        "{status}"
    );

    // The access token runs out: the next session refreshes it first, and
    // the players' orders come in and the day's reports go out.
    expire_access_token(&db.0);
    ok(&["daemon", "--once"], &db.0);
    assert_eq!(tokens.refreshes(), 1);
    let store = Store::open(&db.0, realmgm::games::GAMES).unwrap();
    assert_eq!(store.days().latest(TAG).unwrap().unwrap().day, 1);
    let senders: Vec<String> = store
        .orders()
        .for_day(TAG, 1)
        .unwrap()
        .into_iter()
        .map(|o| o.player)
        .collect();
    assert_eq!(senders, ["Ann", "Ben", "Cat"]);
    drop(store);
    let seen = smtp.seen();
    for (_, email) in PLAYERS {
        let to = |subject: &str| {
            seen.messages
                .iter()
                .any(|m| m.contains(&format!("To: {email}")) && m.contains(subject))
        };
        assert!(to("Re: orders received"), "{email} got no confirmation");
        assert!(to("Fantasy Realms: final scores"), "{email} got no report");
    }
    assert_eq!(seen.tokens.last().map(String::as_str), Some("access-2"));

    // Again: the refresh now works only with the rotated refresh token.
    expire_access_token(&db.0);
    ok(&["daemon", "--once"], &db.0);
    let refreshes: Vec<_> = tokens
        .requests()
        .into_iter()
        .filter_map(|r| r.get("refresh_token").cloned())
        .collect();
    assert_eq!(refreshes, ["refresh-1", "refresh-2"]);

    // The GM revokes access at the provider.
    tokens.revoke();
    expire_access_token(&db.0);
    let round = text(&run(&["daemon", "--once"], &db.0));
    let advice = format!("run `realmgm mail login --campaign {TAG}`");
    assert!(round.contains(&advice), "{round}");
    let status = ok(&["gm", "status", "--campaign", TAG], &db.0);
    assert!(status.contains("REFUSED by the provider"), "{status}");
    assert!(status.contains(&unread), "{status}");
    assert!(status.contains(&advice), "{status}");
    let log = ok(&["gm", "log", "--campaign", TAG], &db.0);
    assert_eq!(
        log.matches("no longer accepts the sign-in").count(),
        1,
        "{log}"
    );
    // Told once, however many rounds follow; no refresh is tried meanwhile.
    ok(&["daemon", "--once"], &db.0);
    let log = ok(&["gm", "log", "--campaign", TAG], &db.0);
    assert_eq!(
        log.matches("no longer accepts the sign-in").count(),
        1,
        "{log}"
    );
    assert_eq!(tokens.refreshes(), 3);
    let doctor = run(&["doctor", "--campaign", TAG], &db.0);
    assert!(!doctor.status.success());
    assert!(
        text(&doctor).contains("PROBLEM  OAuth: the mail provider no longer accepts"),
        "{}",
        text(&doctor)
    );

    // Signed in again, the daemon reads the mailbox and the notice that
    // waited goes out to the GM.
    ok(&["mail", "login", "--campaign", TAG], &db.0);
    ok(&["daemon", "--once"], &db.0);
    let notices: Vec<_> = smtp
        .seen()
        .messages
        .into_iter()
        .filter(|m| m.contains("To: gm@realmgm.test") && m.contains("mail sign-in refused"))
        .collect();
    assert_eq!(notices.len(), 1);
    let commands = server.join().unwrap();
    let used: Vec<String> = commands
        .iter()
        .filter(|c| c.starts_with("AUTHENTICATE"))
        .map(|c| token_of(c))
        .collect();
    assert_eq!(used, ["access-1", "access-2", "access-3", "access-4"]);
}

/// A campaign reading its mailbox with OAuth at a provider without a
/// device flow, sending into a Maildir folder.
fn browser_campaign_file(tokens: &TokenServer, imap: u16) -> String {
    let base = format!("http://127.0.0.1:{}", tokens.port());
    format!(
        "name = \"OA2\"\ngame = \"fantasy-realms\"\nseed = 5\nrules = []\n\
         [gm]\nemail = \"gm@realmgm.test\"\n\
         [schedule]\nfirst_deadline = \"2099-01-01\"\nat = \"20:00\"\nevery_hours = 24\n\
         [mail]\nmaildir_out = \"out\"\n\
         [mail.imap]\nhost = \"127.0.0.1\"\nport = {imap}\nsecurity = \"none\"\n\
         user = \"gm@realmgm.test\"\nauth = \"oauth2\"\nprovider = \"custom\"\n\
         client_id = \"realmgm-test\"\nclient_secret_env = \"REALMGM_TEST_CLIENT_SECRET\"\n\
         authorization_url = \"{base}/authorize\"\ntoken_url = \"{base}/token\"\n\
         scopes = [\"mail\", \"offline_access\"]\n\
         [[players]]\nname = \"Ann\"\nemail = \"ann@realmgm.test\"\n\
         [[players]]\nname = \"Ben\"\nemail = \"ben@realmgm.test\"\n"
    )
}

/// `mail login` started, the authorization address it printed, and the
/// browser's answer: the redirect with the code the provider gave for the
/// address's challenge, and its state.
fn start_browser_login(
    db: &Path,
    tokens: &TokenServer,
    paste: bool,
) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut args = vec!["mail", "login", "--campaign", "OA2"];
    if paste {
        args.push("--paste");
    }
    let mut login = Command::new(env!("CARGO_BIN_EXE_realmgm"))
        .args(&args)
        .env("REALMGM_DB", db)
        .env("REALMGM_TEST_CLIENT_SECRET", "desktop-secret")
        .env_remove("REALMGM_SECRET_KEY")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(login.stdout.take().unwrap()).lines();
    let prefix = format!("http://127.0.0.1:{}/authorize?", tokens.port());
    let address = lines
        .by_ref()
        .map(Result::unwrap)
        .find(|line| line.starts_with(&prefix))
        .expect("the login prints the authorization address");
    // The rest of its output is not read: let it go on writing.
    std::thread::spawn(move || lines.for_each(drop));
    let params = form::pairs(address.split_once('?').unwrap().1);
    let value = |key: &str| form::value(&params, key).unwrap().to_string();
    assert_eq!(value("code_challenge_method"), "S256");
    let redirect = value("redirect_uri");
    let code = tokens.approve(&value("code_challenge"), &redirect);
    let answer = form::url_with_query(&redirect, &[("code", &code), ("state", &value("state"))]);
    (login, answer)
}

#[test]
fn the_browser_sign_in_comes_back_to_the_loopback_or_is_pasted_and_the_other_transport_tells_the_gm()
 {
    use std::io::{Read, Write};
    let db = TempDb::new("oauth-browser");
    let tokens = TokenServer::start(Behaviour::default());
    let imap = TcpListener::bind("127.0.0.1:0").unwrap();
    let file = db.dir().join("oa2.toml");
    std::fs::write(
        &file,
        browser_campaign_file(&tokens, imap.local_addr().unwrap().port()),
    )
    .unwrap();
    ok(&["campaign", "new", file.to_str().unwrap()], &db.0);
    let server = fake::serve_on(imap, vec![session(&[])]);

    // The test plays the browser: the provider sends it to the loopback.
    let (login, answer) = start_browser_login(&db.0, &tokens, false);
    let target = answer.strip_prefix("http://").unwrap();
    let (host, path) = target.split_once('/').unwrap();
    let mut browser = std::net::TcpStream::connect(host).unwrap();
    write!(browser, "GET /{path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut page = String::new();
    browser.read_to_string(&mut page).unwrap();
    assert!(page.contains("close this tab"), "{page}");
    assert!(login.wait_with_output().unwrap().status.success());
    let exchange = tokens.requests().pop().unwrap();
    assert_eq!(exchange.get("client_secret").unwrap(), "desktop-secret");

    // With --paste the GM copies the address the browser ended at.
    let (mut login, answer) = start_browser_login(&db.0, &tokens, true);
    assert!(answer.starts_with("http://127.0.0.1:"), "{answer}");
    writeln!(login.stdin.take().unwrap(), "{answer}").unwrap();
    assert!(login.wait().unwrap().success());
    let grant_types: Vec<_> = tokens
        .requests()
        .into_iter()
        .filter_map(|r| r.get("grant_type").cloned())
        .collect();
    assert_eq!(grant_types, ["authorization_code", "authorization_code"]);

    // The daemon reads the mailbox with the pasted login's token.
    let secret = [("REALMGM_TEST_CLIENT_SECRET", "desktop-secret")];
    let daemon = |db: &Path| {
        Command::new(env!("CARGO_BIN_EXE_realmgm"))
            .args(["daemon", "--once"])
            .env("REALMGM_DB", db)
            .envs(secret)
            .env_remove("REALMGM_SECRET_KEY")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    assert!(daemon(&db.0).status.success());
    let commands = server.join().unwrap();
    let authenticate = commands
        .iter()
        .find(|c| c.starts_with("AUTHENTICATE"))
        .unwrap();
    assert_eq!(token_of(authenticate), "access-2");

    // Revoked, the IMAP side fails, and the GM hears of it at once by the
    // transport that still works, the Maildir folder here.
    tokens.revoke();
    expire_access_token(&db.0);
    let round = text(&daemon(&db.0));
    assert!(
        round.contains("run `realmgm mail login --campaign OA2`"),
        "{round}"
    );
    let out = realmgm::mail::maildir::Maildir::open(db.dir().join("out")).unwrap();
    let notices: Vec<String> = out
        .list_new()
        .unwrap()
        .iter()
        .map(|entry| String::from_utf8_lossy(&out.read(entry).unwrap()).into_owned())
        .filter(|mail| mail.contains("mail sign-in refused"))
        .collect();
    assert_eq!(notices.len(), 1);
    assert!(notices[0].contains("To: gm@realmgm.test"), "{}", notices[0]);
    let body = mail_parser::MessageParser::default()
        .parse(notices[0].as_bytes())
        .and_then(|m| m.body_text(0).map(|b| b.into_owned()))
        .unwrap();
    assert!(
        body.contains("run `realmgm mail login --campaign OA2`"),
        "{body}"
    );
}
