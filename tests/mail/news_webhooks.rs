//! News where players chat: the demo campaign with a `[notify]` table whose
//! webhooks (Discord, Slack-style, Matrix, generic JSON) point at a local
//! HTTP server that records what it receives. A processed day, an
//! announcement, rebuilt public pages and a near deadline each arrive in
//! the service's own shape; an endpoint that fails (HTTP 500, then nobody
//! listening) holds nothing, is retried and gets each piece of news once
//! it recovers; and no news carries a place on the map or a secret.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use realmgm::campaign::Campaign;
use realmgm::daemon::Daemon;
use realmgm::daemon::gm::DayToProcess;
use realmgm::store::Store;
use serde_json::{Value, json};

/// 2030-01-01 00:00 UTC, the day of the demo's first deadline (20:00).
const NOW: i64 = 1_893_456_000;

/// One request as the recorder received it.
#[derive(Clone, Debug)]
struct Request {
    method: String,
    path: String,
    authorization: Option<String>,
    body: Value,
    /// The status it was answered with.
    status: u16,
}

/// The requests a recorder received and the statuses it will answer with,
/// kept across a stop and a start on the same port.
type Kept = (Arc<Mutex<Vec<Request>>>, Arc<Mutex<VecDeque<u16>>>);

/// A local HTTP server recording every request, answering each with the
/// next scripted status (200 when the script is empty); stopped, nobody
/// listens on its port until it starts again.
struct Recorder {
    port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    script: Arc<Mutex<VecDeque<u16>>>,
    stop: Arc<AtomicBool>,
}

impl Recorder {
    fn start() -> Recorder {
        Recorder::on(0, Arc::default(), Arc::default())
    }

    fn on(
        port: u16,
        requests: Arc<Mutex<Vec<Request>>>,
        script: Arc<Mutex<VecDeque<u16>>>,
    ) -> Recorder {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("a local port");
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let (kept, answers, stopping) = (
            Arc::clone(&requests),
            Arc::clone(&script),
            Arc::clone(&stop),
        );
        std::thread::spawn(move || {
            for socket in listener.incoming() {
                if stopping.load(Ordering::Relaxed) {
                    return;
                }
                let Ok(socket) = socket else { continue };
                let status = answers.lock().unwrap().pop_front().unwrap_or(200);
                answer(socket, status, &kept);
            }
        });
        Recorder {
            port,
            requests,
            script,
            stop,
        }
    }

    /// Stop listening: connections are refused from now on.
    fn stop(self) -> (u16, Kept) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it drops the listener.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        (self.port, (self.requests, self.script))
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

/// Read one HTTP/1.1 request, record it in `kept` and answer it with
/// `status`: recorded first, so a test that has its answer sees it.
fn answer(socket: TcpStream, status: u16, kept: &Mutex<Vec<Request>>) -> Option<()> {
    let mut reader = BufReader::new(socket.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut words = line.split_whitespace();
    let (method, path) = (words.next()?.to_string(), words.next()?.to_string());
    let (mut length, mut authorization) = (0, None);
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "authorization" => authorization = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    kept.lock().unwrap().push(Request {
        method,
        path,
        authorization,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        status,
    });
    let reply =
        format!("HTTP/1.1 {status} X\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{{}}");
    let mut out = socket;
    out.write_all(reply.as_bytes()).ok()
}

/// The demo campaign tagged NEWS, its pages served at a public address,
/// with one hook of each kind at `recorder`; the Matrix token in a file.
fn campaign_text(recorder: &Recorder, token_file: &std::path::Path, notify: &str) -> String {
    let demo = std::fs::read_to_string("campaigns/demo.toml").expect("the demo campaign");
    let demo = demo.replace("name = \"DEMO\"", "name = \"NEWS\"").replace(
        "out = \"site\"",
        "out = \"site\"\nurl = \"https://realm.example.org/news/\"",
    );
    format!(
        "{demo}\n[notify]\n{notify}\n\
         [[notify.hooks]]\nkind = \"discord\"\nurl = \"{discord}\"\n\
         [[notify.hooks]]\nkind = \"slack\"\nurl = \"{slack}\"\nnews = [\"day\"]\n\
         [[notify.hooks]]\nkind = \"json\"\nurl = \"{json}\"\n\
         [[notify.hooks]]\nkind = \"matrix\"\nhomeserver = \"{matrix}\"\nroom = \"!room:test\"\n\
         token_file = \"{token}\"\nnews = [\"announcement\"]\n",
        discord = recorder.url("/discord/SECRET"),
        slack = recorder.url("/slack"),
        json = recorder.url("/json"),
        matrix = recorder.url(""),
        token = token_file.display(),
    )
}

struct Played {
    daemon: Daemon,
    campaign: Campaign,
    secrets: Vec<String>,
    folder: Folder,
}

/// A folder removed when dropped.
struct Folder(std::path::PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The NEWS campaign stored and set up (day 1 pending).
fn news_campaign(recorder: &Recorder, test: &str, notify: &str) -> Played {
    let folder =
        Folder(std::env::temp_dir().join(format!("realmgm-news-{}-{test}", std::process::id())));
    std::fs::create_dir_all(&folder.0).unwrap();
    let token = folder.0.join("matrix-token");
    std::fs::write(&token, "MATRIXTOKEN\n").unwrap();
    let text = campaign_text(recorder, &token, notify);
    let campaign = Campaign::parse("news.toml", &text, realmgm::games::GAMES).unwrap();
    let mut store = Store::open_in_memory(realmgm::games::GAMES).unwrap();
    let mut secrets: Vec<String> = store
        .campaigns_mut()
        .insert(&campaign, &text, NOW)
        .unwrap()
        .into_iter()
        .map(|s| s.secret)
        .collect();
    secrets.push(store.control_mut().new_gm_secret("NEWS").unwrap());
    let mut daemon = Daemon::new(store);
    daemon.turns().check_turn("NEWS", NOW).unwrap();
    Played {
        daemon,
        campaign,
        secrets,
        folder,
    }
}

fn process(played: &mut Played, day: u32, now: i64) {
    played
        .daemon
        .gm()
        .process_day("NEWS", DayToProcess::Named(day), now)
        .unwrap();
}

fn send(played: &mut Played, now: i64) -> realmgm::daemon::news::NewsSummary {
    let campaign = played.campaign.clone();
    played.daemon.news().send_due(&campaign, now).unwrap()
}

fn at<'a>(requests: &'a [Request], path: &str) -> Vec<&'a Request> {
    requests
        .iter()
        .filter(|r| r.path.starts_with(path))
        .collect()
}

#[test]
fn the_days_news_reaches_each_hook_in_its_shape() {
    let recorder = Recorder::start();
    let mut played = news_campaign(&recorder, "shapes", "");
    process(&mut played, 1, NOW + 3600);
    let summary = send(&mut played, NOW + 3600);
    assert_eq!((summary.sent, summary.deferred), (3, 0), "{summary:?}");
    let requests = recorder.requests();
    let discord = at(&requests, "/discord/SECRET");
    assert_eq!(discord.len(), 1);
    assert_eq!(discord[0].method, "POST");
    assert_eq!(
        discord[0].body,
        json!({"content": "[NEWS] Day 1 is processed; the reports are on their way. Orders for \
                           day 2 are due 2030-01-02 20:00 UTC."})
    );
    let slack = at(&requests, "/slack");
    assert_eq!(slack[0].body["text"], discord[0].body["content"]);
    let generic = &at(&requests, "/json")[0].body;
    assert_eq!(generic["version"], 1);
    assert_eq!(generic["event"], "day");
    assert_eq!(generic["day"], 1);
    assert_eq!(generic["campaign"], "NEWS");
    assert_eq!(generic["deadline"], "2030-01-02 20:00 UTC");
    assert_eq!(generic["finished"], false);
    // The Matrix hook takes only announcements.
    assert!(at(&requests, "/_matrix").is_empty());

    // An announcement goes to Matrix too, as an m.room.message PUT whose
    // transaction id stays the same on every retry.
    let now = NOW + 7200;
    played
        .daemon
        .gm()
        .announce("NEWS", "The Inn is closed for repairs.", now)
        .unwrap();
    send(&mut played, now);
    let requests = recorder.requests();
    let matrix = at(
        &requests,
        "/_matrix/client/v3/rooms/%21room%3Atest/send/m.room.message/",
    );
    assert_eq!(matrix.len(), 1, "{requests:?}");
    assert_eq!(matrix[0].method, "PUT");
    assert!(
        matrix[0].path.contains("/m.room.message/realmgm-NEWS-"),
        "{}",
        matrix[0].path
    );
    assert_eq!(
        matrix[0].authorization.as_deref(),
        Some("Bearer MATRIXTOKEN")
    );
    assert_eq!(
        matrix[0].body,
        json!({"msgtype": "m.text",
               "body": "[NEWS] The GM announces: The Inn is closed for repairs."})
    );
    // Slack takes only the day's news.
    assert_eq!(at(&requests, "/slack").len(), 1);

    // The public pages rebuilt: their link, from [site] url.
    let out = played.folder.0.join("site");
    played
        .daemon
        .site()
        .refresh_site("NEWS", &out, now + 60)
        .unwrap();
    send(&mut played, now + 60);
    let requests = recorder.requests();
    let site = at(&requests, "/json")
        .into_iter()
        .find(|r| r.body["event"] == "site")
        .expect("the site's news")
        .body
        .clone();
    assert_eq!(site["link"], "https://realm.example.org/news/");
    assert_eq!(
        site["text"],
        "[NEWS] The public pages are updated to day 1: https://realm.example.org/news/"
    );
    // The GM's narrative of day 1 rebuilds the pages, but day 1's pages
    // are no news again: the chat hears nothing more.
    played
        .daemon
        .store
        .announcements_mut()
        .set_narrative("NEWS", 1, "A quiet first day in the valley.", now + 120)
        .unwrap();
    let rebuilt = played
        .daemon
        .site()
        .refresh_site("NEWS", &out, now + 180)
        .unwrap();
    assert!(rebuilt.is_some(), "the narrative rebuilds the pages");
    send(&mut played, now + 180);
    let requests = recorder.requests();
    let events: Vec<&Value> = at(&requests, "/json")
        .into_iter()
        .map(|r| &r.body["event"])
        .collect();
    assert_eq!(
        events,
        [&json!("day"), &json!("announcement"), &json!("site")]
    );

    // The deadline near: once, with how many are awaited and no names.
    let deadline = 1_893_528_000 + 24 * 3600;
    assert!(
        !played
            .daemon
            .news()
            .deadline_near("NEWS", deadline - 13 * 3600)
            .unwrap()
    );
    assert!(
        played
            .daemon
            .news()
            .deadline_near("NEWS", deadline - 11 * 3600)
            .unwrap()
    );
    assert!(
        !played
            .daemon
            .news()
            .deadline_near("NEWS", deadline - 10 * 3600)
            .unwrap()
    );
    send(&mut played, deadline - 10 * 3600);
    let requests = recorder.requests();
    let near = at(&requests, "/json")
        .into_iter()
        .find(|r| r.body["event"] == "deadline")
        .expect("the deadline's news")
        .body
        .clone();
    assert_eq!(
        near["text"],
        "[NEWS] Orders for day 2 are due 2030-01-02 20:00 UTC; 3 players still to send theirs."
    );
    assert_eq!(near["awaited"], Value::Null);
    for player in ["Ann", "Ben", "Cat"] {
        assert!(
            requests
                .iter()
                .all(|r| !r.body.to_string().contains(player)),
            "{player} named without name_awaited"
        );
    }
}

#[test]
fn awaited_players_are_named_only_when_the_gm_allows() {
    let recorder = Recorder::start();
    let mut played = news_campaign(
        &recorder,
        "named",
        "name_awaited = true\ndeadline_hours = 2",
    );
    let deadline = 1_893_528_000;
    assert!(
        !played
            .daemon
            .news()
            .deadline_near("NEWS", deadline - 3 * 3600)
            .unwrap()
    );
    assert!(
        played
            .daemon
            .news()
            .deadline_near("NEWS", deadline - 3600)
            .unwrap()
    );
    send(&mut played, deadline - 3600);
    let requests = recorder.requests();
    assert_eq!(
        at(&requests, "/discord")[0].body["content"],
        "[NEWS] Orders for day 1 are due 2030-01-01 20:00 UTC; still awaited: Ann, Ben, Cat."
    );
}

#[test]
fn a_failing_endpoint_holds_nothing_and_gets_the_news_once_it_recovers() {
    let recorder = Recorder::start();
    recorder.script.lock().unwrap().extend([500, 500, 500]);
    let mut played = news_campaign(&recorder, "failing", "");
    let mut now = NOW + 3600;
    process(&mut played, 1, now);
    let summary = send(&mut played, now);
    assert_eq!((summary.sent, summary.deferred), (0, 3), "{summary:?}");
    let log = played.daemon.store.control().gm_log(Some("NEWS")).unwrap();
    let failed: Vec<_> = log.iter().filter(|e| e.kind == "notify").collect();
    assert_eq!(failed.len(), 3, "{log:?}");
    assert!(
        failed[0].message.contains("HTTP 500"),
        "{}",
        failed[0].message
    );
    assert!(
        !failed.iter().any(|e| e.message.contains("SECRET")),
        "the GM's log shows a webhook's secret path"
    );
    let status = played.daemon.gm().status("NEWS").unwrap();
    assert!(status.contains("News: 3 to send, 3 failing"), "{status}");
    // Nothing is due before the backoff's pause.
    assert_eq!(send(&mut played, now + 30), Default::default());

    // Now nobody listens at all; the game goes on meanwhile.
    let (port, (requests, script)) = recorder.stop();
    now += 24 * 3600;
    process(&mut played, 2, now);
    let summary = send(&mut played, now);
    // One try per hook and pass: each hook's second piece of news waits.
    assert_eq!((summary.sent, summary.deferred), (0, 3), "{summary:?}");
    let status = played.daemon.gm().status_facts("NEWS").unwrap();
    assert_eq!(status.day_pending, 3);
    assert!(
        status
            .news
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("cannot reach the webhook at 127.0.0.1")),
        "{:?}",
        status.news
    );

    // Back again: every piece of news arrives, once.
    let recorder = Recorder::on(port, requests, script);
    now += 7 * 3600;
    let summary = send(&mut played, now);
    assert_eq!((summary.sent, summary.deferred), (6, 0), "{summary:?}");
    assert_eq!(send(&mut played, now + 24 * 3600), Default::default());
    let delivered: Vec<(String, u64)> = recorder
        .requests()
        .iter()
        .filter(|r| r.status == 200)
        .map(|r| (r.path.clone(), r.body["day"].as_u64().unwrap_or(0)))
        .collect();
    let discord: Vec<&(String, u64)> = delivered
        .iter()
        .filter(|d| d.0.starts_with("/discord"))
        .collect();
    assert_eq!(discord.len(), 2, "{delivered:?}");
    let json_days: Vec<u64> = delivered
        .iter()
        .filter(|d| d.0 == "/json")
        .map(|d| d.1)
        .collect();
    assert_eq!(json_days, [1, 2]);
    let log = played.daemon.store.control().gm_log(Some("NEWS")).unwrap();
    assert!(
        log.iter()
            .any(|e| e.kind == "notify" && e.message.contains("delivered after 3 attempts")),
        "{log:?}"
    );
    let status = played.daemon.gm().status_facts("NEWS").unwrap();
    assert_eq!((status.news.to_send, status.news.failing), (0, 0));
}

/// The leak test: whatever news a week of the demo makes (days, pages,
/// deadlines, with names allowed), none names a place on the map, where a
/// character stands or went, or anyone's secret.
#[test]
fn no_news_names_a_place_or_a_secret() {
    let recorder = Recorder::start();
    let mut played = news_campaign(&recorder, "leak", "name_awaited = true");
    let out = played.folder.0.join("site");
    for day in 1..=4 {
        let deadline = 1_893_528_000 + i64::from(day - 1) * 24 * 3600;
        played
            .daemon
            .news()
            .deadline_near("NEWS", deadline - 3600)
            .unwrap();
        let now = deadline + 60;
        process(&mut played, day, now);
        played
            .daemon
            .site()
            .refresh_site("NEWS", &out, now)
            .unwrap();
        send(&mut played, now);
    }
    let requests = recorder.requests();
    assert!(requests.len() >= 4 * 4, "{}", requests.len());
    let data = realmgm::magic_realm::data::load().expect("the game data");
    let tiles: Vec<&str> = data.tiles.all().iter().map(|t| t.name.as_str()).collect();
    // What the players' own reports say of where they are.
    let mut private: Vec<String> = Vec::new();
    for player in ["Ann", "Ben", "Cat"] {
        let report = played
            .daemon
            .store
            .days()
            .report("NEWS", Some(player), Some(4))
            .unwrap()
            .expect("a report of day 4");
        private.extend(
            report
                .text
                .lines()
                .filter(|l| tiles.iter().any(|tile| l.contains(tile)))
                .map(str::to_string),
        );
    }
    assert!(
        !private.is_empty(),
        "the reports name the characters' places"
    );
    for request in &requests {
        let text = request.body.to_string();
        for tile in &tiles {
            assert!(!text.contains(tile), "news names the tile {tile}: {text}");
        }
        for secret in &played.secrets {
            assert!(
                !text.contains(secret.as_str()),
                "news carries a secret: {text}"
            );
        }
        for line in &private {
            assert!(
                !text.contains(line.trim()),
                "news repeats a private report: {text}"
            );
        }
    }
}
