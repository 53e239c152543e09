//! Alerts after a watch run: the digest e-mailed through a real SMTP server the test runs on
//! loopback (Python's aiosmtpd, writing a Maildir) and posted to a webhook the test serves.
//! Skipped, with the reason printed, where aiosmtpd is not installed.

use crate::util::*;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// aiosmtpd on a free loopback port, delivering into `maildir`; killed when dropped.
struct Smtp {
    port: u16,
    child: std::process::Child,
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn smtp_server(maildir: &std::path::Path) -> Option<Smtp> {
    let have = std::process::Command::new("python3").args(["-c", "import aiosmtpd"]).output();
    if !have.is_ok_and(|o| o.status.success()) {
        println!("skipped: aiosmtpd is not installed (python3 -m pip install aiosmtpd)");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = std::process::Command::new("python3")
        .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
        .arg(maildir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "aiosmtpd did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(Smtp { port, child })
}

/// A webhook receiver: every body POSTed to it.
pub(crate) fn webhook() -> (String, Arc<Mutex<Vec<String>>>, Arc<tiny_http::Server>) {
    let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
    let url = format!("http://127.0.0.1:{}/hook", server.server_addr().to_ip().unwrap().port());
    let bodies: Arc<Mutex<Vec<String>>> = Arc::default();
    let (srv, got) = (server.clone(), bodies.clone());
    std::thread::spawn(move || {
        for mut request in srv.incoming_requests() {
            let mut body = String::new();
            std::io::Read::read_to_string(request.as_reader(), &mut body).unwrap();
            got.lock().unwrap().push(body);
            let _ = request.respond(tiny_http::Response::from_string("ok"));
        }
    });
    (url, bodies, server)
}

fn mails(maildir: &std::path::Path) -> Vec<String> {
    let new = maildir.join("new");
    let Ok(entries) = std::fs::read_dir(&new) else { return Vec::new() };
    entries.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect()
}

#[test]
fn a_run_that_finds_copies_sends_one_digest_by_mail_and_webhook_and_a_quiet_run_sends_none() {
    let dir = imported();
    let maildir = dir.path().join("maildir");
    let Some(smtp) = smtp_server(&maildir) else { return };
    let (hook, bodies, server) = webhook();
    let site = crate::web::serve();
    zhiwen(dir.path())
        .args(["alerts", "set", "--smtp-host", "127.0.0.1", "--smtp-port", &smtp.port.to_string()])
        .args(["--starttls", "false", "--from", "zhiwen@rights.test", "--to", "desk@rights.test", "--webhook", &hook])
        .assert()
        .success();
    let shown = zhiwen(dir.path()).args(["alerts", "show"]).output().unwrap();
    assert!(String::from_utf8_lossy(&shown.stdout).contains("to desk@rights.test"));
    zhiwen(dir.path())
        .args(["watch", "add", "--follow", "--label", "笔趣阁", &format!("{}/book/1/", site.base)])
        .assert()
        .success();
    let run = |now: &str| {
        zhiwen(dir.path())
            .args(["watch", "run", "--proxy", "none", "--delay", "0.05", "--timeout", "5", "--now", now])
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap()
    };
    let first = run("1793491200");
    let said = String::from_utf8_lossy(&first.stderr);
    assert!(said.contains("alert sent: e-mail to desk@rights.test"), "{said}");
    assert!(said.contains("alert sent: webhook"), "{said}");
    let start = Instant::now();
    while mails(&maildir).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(10), "no mail arrived");
        std::thread::sleep(Duration::from_millis(50));
    }
    let mail = mails(&maildir);
    assert_eq!(mail.len(), 1, "one digest per run");
    assert!(mail[0].contains("Subject: Zhiwen: 3 new copies"), "{}", mail[0]);
    for page in ["1.html", "2.html", "4.html"] {
        assert!(mail[0].contains(&format!("{}/book/1/{page}", site.base)), "{page} in {}", mail[0]);
    }
    let posted = bodies.lock().unwrap().clone();
    assert_eq!(posted.len(), 1);
    let json: serde_json::Value = serde_json::from_str(&posted[0]).unwrap();
    assert_eq!(json["digest"]["new"].as_array().unwrap().len(), 3);
    assert!(json["text"].as_str().unwrap().contains("New copies"));

    // The next day nothing changed: nothing is sent.
    let second = run("1793577600");
    assert!(!String::from_utf8_lossy(&second.stderr).contains("alert sent"));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(mails(&maildir).len(), 1);
    assert_eq!(bodies.lock().unwrap().len(), 1);
    drop(server);
}

#[test]
fn a_channel_that_fails_is_said_and_the_run_is_kept() {
    let dir = imported();
    let site = crate::web::serve();
    // Nothing listens on this port.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    zhiwen(dir.path())
        .args(["alerts", "set", "--webhook", &format!("http://127.0.0.1:{port}/hook")])
        .assert()
        .success();
    zhiwen(dir.path()).args(["watch", "add", "--follow", &format!("{}/book/1/", site.base)]).assert().success();
    let out = zhiwen(dir.path())
        .args(["watch", "run", "--json", "--proxy", "none", "--delay", "0.05", "--timeout", "5"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("alert by webhook not sent"));
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(runs[0]["changes"]["new"].as_array().unwrap().len(), 3, "the run itself is complete");
}

/// A private D-Bus session bus and a notification daemon on it (tests/tools/notification_daemon.py),
/// both killed when dropped.
struct DesktopSession {
    address: String,
    log: std::path::PathBuf,
    children: Vec<std::process::Child>,
}

impl Drop for DesktopSession {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn desktop_session(dir: &std::path::Path) -> Option<DesktopSession> {
    use std::io::BufRead;
    let have_bus = std::process::Command::new("dbus-daemon").arg("--version").output();
    if !have_bus.is_ok_and(|o| o.status.success()) {
        println!("skipped: dbus-daemon is not installed (apt install dbus-daemon)");
        return None;
    }
    let have = std::process::Command::new("python3").args(["-c", "import dbus_next"]).output();
    if !have.is_ok_and(|o| o.status.success()) {
        println!("skipped: dbus-next is not installed (python3 -m pip install dbus-next)");
        return None;
    }
    let mut bus = std::process::Command::new("dbus-daemon")
        .args(["--session", "--nofork", "--print-address=1", "--address=unix:tmpdir=/tmp"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut address = String::new();
    std::io::BufReader::new(bus.stdout.take().unwrap()).read_line(&mut address).unwrap();
    let address = address.trim().to_string();
    let log = dir.join("notifications.jsonl");
    let daemon = std::process::Command::new("python3")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/notification_daemon.py"))
        .arg(&log)
        .env("DBUS_SESSION_BUS_ADDRESS", &address)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let session = DesktopSession { address, log: log.clone(), children: vec![bus, daemon] };
    let start = Instant::now();
    while !std::fs::read_to_string(&log).is_ok_and(|l| l.starts_with("ready")) {
        assert!(start.elapsed() < Duration::from_secs(20), "the notification daemon did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(session)
}

/// The digest as a desktop notification: `alerts set --desktop on`, then a watch run that
/// finds copies shows one notification (the digest), sent over the session's D-Bus to the
/// notification daemon; a quiet run shows none.
#[test]
fn a_watch_run_shows_its_digest_as_one_desktop_notification() {
    let dir = imported();
    let Some(session) = desktop_session(dir.path()) else { return };
    let site = crate::web::serve();
    let set = zhiwen(dir.path()).args(["alerts", "set", "--desktop", "on"]).output().unwrap();
    assert!(set.status.success(), "{}", String::from_utf8_lossy(&set.stderr));
    let shown = zhiwen(dir.path()).args(["alerts", "show"]).output().unwrap();
    assert!(String::from_utf8_lossy(&shown.stdout).contains("desktop notifications: on"));
    let add = zhiwen(dir.path())
        .args(["watch", "add", &format!("{}/book/1/", site.base), "--follow", "--label", "笔趣阁"])
        .output()
        .unwrap();
    assert!(add.status.success(), "{}", String::from_utf8_lossy(&add.stderr));
    let run = || {
        zhiwen(dir.path())
            .args(["watch", "run", "1", "--delay", "0", "--proxy", "none", "--timeout", "5"])
            .env("DBUS_SESSION_BUS_ADDRESS", &session.address)
            .output()
            .unwrap()
    };
    // (The site has a dead chapter and one robots.txt forbids: the run says so in its exit code.)
    let first = run();
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(err.contains("alert sent: desktop notification"), "{err}");
    let calls = |s: &DesktopSession| -> Vec<serde_json::Value> {
        std::fs::read_to_string(&s.log)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let got = calls(&session);
    assert_eq!(got.len(), 1, "one notification per run: {got:?}");
    assert_eq!(got[0]["app_name"], "Zhiwen");
    assert!(got[0]["summary"].as_str().unwrap().contains("笔趣阁"), "{got:?}");
    assert!(got[0]["body"].as_str().unwrap().contains("/book/1/"), "{got:?}");
    // Nothing new: no notification.
    let second = run();
    assert!(!String::from_utf8_lossy(&second.stderr).contains("alert sent"));
    assert_eq!(calls(&session).len(), 1);
}
