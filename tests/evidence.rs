//! Evidence that stands up: captures as WARC files byte for byte as on the wire, WACZ
//! packages that the reference tools accept (warcio, py-wacz) and replay (pywb), RFC 3161 timestamps from a
//! real TSA (`openssl ts -reply`) on loopback, verification that names a changed byte's
//! file, capture history, and text hidden by CSS left out. A raw TCP server plays the site
//! so the test knows every byte it sent; nothing here touches the internet. Tests needing
//! Python tools or openssl are skipped with a printed reason when those are missing.

use crate::util::*;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Each path's exact response bytes.
type Routes = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A site on a raw socket: each path's exact response bytes; records each request's bytes.
struct RawSite {
    base: String,
    received: Arc<Mutex<Vec<Vec<u8>>>>,
    pages: Routes,
}

impl RawSite {
    fn serve(pages: Vec<(String, Vec<u8>)>) -> RawSite {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let received: Arc<Mutex<Vec<Vec<u8>>>> = Arc::default();
        let pages = Arc::new(Mutex::new(pages));
        let (log, routes) = (received.clone(), pages.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (log, routes) = (log.clone(), routes.clone());
                std::thread::spawn(move || {
                    // One request per connection (the answer says Connection: close).
                    let mut request = Vec::new();
                    let mut buf = [0u8; 4096];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buf[..n]),
                        }
                    }
                    let line = String::from_utf8_lossy(&request).lines().next().unwrap_or("").to_string();
                    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
                    log.lock().unwrap().push(request);
                    let answer = routes.lock().unwrap().iter().find(|(p, _)| *p == path).map(|(_, b)| b.clone());
                    let answer = answer.unwrap_or_else(|| {
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot here\n".to_vec()
                    });
                    let _ = stream.write_all(&answer);
                });
            }
        });
        RawSite { base, received, pages }
    }

    fn set(&self, path: &str, answer: Vec<u8>) {
        let mut pages = self.pages.lock().unwrap();
        pages.retain(|(p, _)| p != path);
        pages.push((path.to_string(), answer));
    }
}

/// An HTTP/1.1 response with these headers and body, closing the connection.
fn response(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status}\r\n").into_bytes();
    for (n, v) in headers {
        out.extend_from_slice(format!("{n}: {v}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body);
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A chapter as a page: its paragraphs in `<p>`s.
fn chapter_page(text: &str) -> String {
    let body: String = text.lines().filter(|l| !l.trim().is_empty()).map(|l| format!("<p>{l}</p>\n")).collect();
    format!("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>第一回</title></head><body>{body}</body></html>")
}

fn check_urls(dir: &Path, urls: &[&str]) -> serde_json::Value {
    let out = zhiwen(dir)
        .args(["check", "--json", "--proxy", "none", "--delay", "0.05", "--timeout", "5"])
        .args(urls)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

fn unzip(path: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut files = std::collections::BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let mut bytes = Vec::new();
        f.read_to_end(&mut bytes).unwrap();
        files.insert(f.name().unwrap().to_string(), bytes);
    }
    files
}

/// Whether a Python module is importable (the reference tools are used only here).
fn python_has(module: &str) -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped the {module} checks: python3 with {module} is not installed (.ci/run installs it)");
    }
    ok
}

/// warcio's command line through python3 (the package has no `__main__`).
const WARCIO: [&str; 2] = ["-c", "import sys; from warcio.cli import main; sys.exit(main(sys.argv[1:]))"];

fn run(cmd: &mut std::process::Command) -> (bool, String) {
    let out = cmd.output().unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The page at `url` as pywb replays it from `package` (its original bytes, `id_` mode):
/// the package added to a collection, pywb's `wayback` started on loopback and asked.
fn replay_in_pywb(dir: &Path, package: &Path, url: &str) -> String {
    let root = dir.join("pywb");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("config.yaml"), "").unwrap();
    let manager = "import sys; from pywb.manager.manager import main; main(sys.argv[1:])";
    let (ok, out) =
        run(std::process::Command::new("python3").args(["-c", manager, "init", "evidence"]).current_dir(&root));
    assert!(ok, "wb-manager init: {out}");
    let (ok, out) = run(std::process::Command::new("python3")
        .args(["-c", manager, "add", "--unpack-wacz", "evidence"])
        .arg(package)
        .current_dir(&root));
    assert!(ok && !out.contains("WARNING"), "wb-manager add: {out}");
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let wayback = "import sys; from pywb.apps.cli import wayback; wayback(sys.argv[1:])";
    let mut server = std::process::Command::new("python3")
        .args(["-c", wayback, "--bind", "127.0.0.1", "-p", &port.to_string()])
        .current_dir(&root)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let replay = format!("http://127.0.0.1:{port}/evidence/id_/{url}");
    let started = std::time::Instant::now();
    let body = loop {
        match ureq::get(&replay).call() {
            Ok(mut r) => break r.body_mut().read_to_string().unwrap_or_default(),
            Err(_) if started.elapsed() < Duration::from_secs(30) => std::thread::sleep(Duration::from_millis(200)),
            Err(e) => break format!("no answer from pywb: {e}"),
        }
    };
    let _ = server.kill();
    let _ = server.wait();
    body
}

fn verify(dir: &Path, package: &Path) -> (i32, String) {
    let out = zhiwen(dir).args(["evidence", "verify"]).arg(package).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A gzip-encoded chapter behind a redirect: the WARC keeps every byte both ways as they
/// went over the wire, the reference tools accept the WARC and the package, `evidence
/// verify` holds, and a byte changed in any file is found and named.
#[test]
fn a_gzip_page_is_captured_as_on_the_wire_and_the_package_verifies() {
    let dir = imported();
    let text = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let page = chapter_page(&text);
    let compressed = gzip(page.as_bytes());
    let sent = response(
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip"), ("X-Odd", "kept  as sent")],
        &compressed,
    );
    let redirect = response("301 Moved Permanently", &[("Location", "/book/1.html")], b"");
    let site = RawSite::serve(vec![("/old/1.html".into(), redirect.clone()), ("/book/1.html".into(), sent.clone())]);
    let url = format!("{}/old/1.html", site.base);
    let json = check_urls(dir.path(), &[&url]);
    let suspect = &json["suspects"][0];
    assert!(suspect["sources"][0]["path"].as_str().unwrap().ends_with("xiyouji_000.txt"), "{json}");
    assert!(suspect["similarity"].as_f64().unwrap() > 0.9, "{json}");
    let id = suspect["finding_id"].as_i64().unwrap().to_string();

    let package = dir.path().join("evidence.wacz");
    zhiwen(dir.path()).args(["evidence", &id, "--out"]).arg(&package).assert().success();
    let files = unzip(&package);
    let warc_bytes = &files["archive/capture-1-page-1.warc.gz"];
    let records = zhiwen::engine::web::warc::read(warc_bytes).unwrap();
    let of = |kind: &str| -> Vec<&zhiwen::engine::web::warc::ReadRecord> {
        records.iter().filter(|r| r.header("WARC-Type") == Some(kind)).collect()
    };
    // Both hops, each response exactly as the server wrote it (gzip body, odd header and all),
    // each request exactly as the server received it.
    let responses = of("response");
    assert_eq!(responses.len(), 2);
    assert_eq!(responses[0].block, redirect);
    assert_eq!(responses[1].block, sent, "the page's response as sent, compressed");
    assert_eq!(responses[1].header("WARC-Target-URI"), Some(format!("{}/book/1.html", site.base).as_str()));
    assert_eq!(responses[1].header("WARC-IP-Address"), Some("127.0.0.1"));
    let received = site.received.lock().unwrap().clone();
    let requests: Vec<Vec<u8>> = of("request").iter().map(|r| r.block.clone()).collect();
    assert!(requests.iter().all(|r| received.contains(r)), "requests recorded as the server received them");
    assert!(String::from_utf8_lossy(&requests[1]).starts_with("GET /book/1.html HTTP/1.1\r\n"));
    let metadata: serde_json::Value = serde_json::from_slice(&of("metadata")[0].block).unwrap();
    assert_eq!(metadata["requests"][0]["status"], 301);
    assert_eq!(metadata["requests"][0]["location"], "/book/1.html");
    assert_eq!(metadata["requests"][1]["dns"][0]["addresses"][0], "127.0.0.1");
    assert!(metadata["settings"]["user_agent"].as_str().unwrap().starts_with("Zhiwen/"));
    // The body as read, for people without WARC tools: decompressed.
    assert_eq!(files["captured/page-1.html"], page.as_bytes());
    let manifest: serde_json::Value = serde_json::from_slice(&files["zhiwen/manifest.json"]).unwrap();
    assert_eq!(manifest["timestamp"], "not timestamped (no time-stamping authority set)");
    let report = String::from_utf8(files["zhiwen/report.html"].clone()).unwrap();
    assert!(report.contains("Evidence package: not timestamped"), "the report says so too");
    let cdxj = String::from_utf8(files["indexes/index.cdx"].clone()).unwrap();
    assert!(
        cdxj.contains("1,0,0,127:") && cdxj.contains("\"status\": \"200\"") || cdxj.contains("\"status\":\"200\""),
        "{cdxj}"
    );

    let (code, said) = verify(dir.path(), &package);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("not timestamped"), "{said}");

    // The reference tools.
    if python_has("warcio") {
        let warc_path = dir.path().join("capture.warc.gz");
        std::fs::write(&warc_path, warc_bytes).unwrap();
        let (ok, out) = run(std::process::Command::new("python3").args(WARCIO).args(["check", "-v"]).arg(&warc_path));
        assert!(ok && !out.contains("digest failed") && out.contains("digest pass"), "warcio check: {out}");
        let (ok, out) = run(std::process::Command::new("python3")
            .args(WARCIO)
            .args(["index", "-f", "warc-type,warc-target-uri,http:status,length"])
            .arg(&warc_path));
        assert!(ok, "warcio index: {out}");
        assert_eq!(out.lines().filter(|l| l.contains("\"response\"")).count(), 2, "{out}");
        assert!(out.contains("\"http:status\": \"301\"") && out.contains("\"http:status\": \"200\""), "{out}");
    }
    if python_has("wacz") {
        let (ok, out) = run(std::process::Command::new("python3").args(["-m", "wacz", "validate", "-f"]).arg(&package));
        assert!(ok && out.contains("Validation succeeded"), "wacz validate: {out}");
    }
    if python_has("pywb") {
        let replayed = replay_in_pywb(dir.path(), &package, &format!("{}/book/1.html", site.base));
        assert!(replayed.contains("<p>　　诗曰：　　混沌未分天地乱，茫茫渺渺无人见。</p>"), "pywb replay: {replayed}");
    }

    // A byte changed in a WARC, in the CDXJ index, in datapackage.json: each is found and named.
    let original = std::fs::read(&package).unwrap();
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    for name in ["archive/capture-1-page-1.warc.gz", "indexes/index.cdx", "datapackage.json"] {
        // Stored entries: the file's bytes follow its name in its local header.
        let content = &files[name];
        let needle = &content[content.len() / 2..content.len() / 2 + 16];
        let header = find(&original, name.as_bytes()).unwrap();
        let at = header + find(&original[header..], needle).unwrap_or_else(|| panic!("{name}"));
        let mut changed = original.clone();
        changed[at + 1] ^= 0x20;
        let path = dir.path().join("changed.wacz");
        std::fs::write(&path, &changed).unwrap();
        let (code, said) = verify(dir.path(), &path);
        assert_eq!(code, 1, "{name}: {said}");
        assert!(said.lines().any(|l| l.starts_with("FAILS: ") && l.contains(name)), "{name}: {said}");
    }
    // The same with the zip rewritten around the changed file (its checksums made anew, as a
    // forger would): the hashes still name it.
    for name in ["archive/capture-1-page-1.warc.gz", "zhiwen/text.txt", "captured/page-1.html"] {
        let mut changed = files.clone();
        let bytes = changed.get_mut(name).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x01;
        let path = dir.path().join("rezipped.wacz");
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        for (n, b) in &changed {
            zip.start_file(n.as_str(), zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(b).unwrap();
        }
        zip.finish().unwrap();
        let (code, said) = verify(dir.path(), &path);
        assert_eq!(code, 1, "{name}: {said}");
        assert!(said.lines().any(|l| l.starts_with("FAILS: ") && l.contains(name)), "{name}: {said}");
    }
}

/// A page checked three times: twice unchanged (two captures of one finding, both kept
/// with their own times), then changed (a second finding); the package of the first holds
/// both captures and the list says how often the page was seen and that it changed.
#[test]
fn captures_are_kept_as_history_never_overwritten() {
    let dir = imported();
    let text = read_text(&corpus_dir().join("sanguoyanyi_001.txt"));
    let site = RawSite::serve(vec![(
        "/c.html".into(),
        response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], chapter_page(&text).as_bytes()),
    )]);
    let url = format!("{}/c.html", site.base);
    let first = check_urls(dir.path(), &[&url]);
    std::thread::sleep(Duration::from_millis(1100));
    let second = check_urls(dir.path(), &[&url]);
    let id = first["suspects"][0]["finding_id"].as_i64().unwrap();
    assert_eq!(second["suspects"][0]["finding_id"].as_i64(), Some(id));
    let changed = format!("{text}\n（本章完）");
    site.set("/c.html", response("200 OK", &[("Content-Type", "text/html")], chapter_page(&changed).as_bytes()));
    check_urls(dir.path(), &[&url]);

    let out = zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap();
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list.len(), 2, "{list:?}");
    let old = list.iter().find(|f| f["id"] == id).unwrap();
    assert_eq!(old["captures"], 2);
    assert_eq!(old["other_versions"], 1);
    assert!(old["checked_at"].as_i64() > old["first_checked_at"].as_i64(), "{old}");
    let table = zhiwen(dir.path()).arg("findings").output().unwrap();
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    assert!(table.contains("first seen") && table.contains("changed"), "{table}");

    let package = dir.path().join("history.wacz");
    zhiwen(dir.path()).args(["evidence", &id.to_string(), "--out"]).arg(&package).assert().success();
    let files = unzip(&package);
    let manifest: serde_json::Value = serde_json::from_slice(&files["zhiwen/manifest.json"]).unwrap();
    let captures = manifest["captures"].as_array().unwrap();
    assert_eq!(captures.len(), 2);
    assert_ne!(captures[0]["captured_at"], captures[1]["captured_at"], "each capture keeps its own time");
    assert_eq!(captures[0]["pages"][0]["sha256_of_body"], captures[1]["pages"][0]["sha256_of_body"]);
    assert_ne!(files["archive/capture-1-page-1.warc.gz"], files["archive/capture-2-page-1.warc.gz"]);
    assert_eq!(verify(dir.path(), &package).0, 0);

    // Not a package at all, or one cut short: one clear line, no crash.
    let original = std::fs::read(&package).unwrap();
    for (name, bytes) in
        [("text.wacz", b"just some text".to_vec()), ("cut.wacz", original[..original.len() / 2].to_vec())]
    {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, said) = verify(dir.path(), &path);
        assert_eq!(code, 1, "{said}");
        assert!(said.contains("FAILS: not a readable zip"), "{said}");
    }
}

/// A chapter salted with junk hidden by CSS every 15-20 characters (class rules, inline
/// styles, zero-size text) is found as the copy it is; the junk is not in its text.
#[test]
fn a_page_salted_with_hidden_junk_is_found_as_a_copy() {
    let dir = imported();
    let text = read_text(&corpus_dir().join("hongloumeng_000.txt"));
    let junk = "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏";
    let mut body = String::new();
    let mut rng = fastrand::Rng::with_seed(7);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        body += "<p>";
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let n = rng.usize(15..=20).min(chars.len() - i);
            body.extend(&chars[i..i + n]);
            i += n;
            let bit: String = junk.chars().skip(rng.usize(0..20)).take(4).collect();
            body += &match rng.usize(0..4) {
                0 => format!("<span class=\"jx\">{bit}</span>"),
                1 => format!("<span style=\"display: none\">{bit}</span>"),
                2 => format!("<i class=\"hx\">{bit}</i>"),
                _ => format!("<font style=\"font-size:0px\">{bit}</font>"),
            };
        }
        body += "</p>\n";
    }
    let page = format!(
        "<html><head><meta charset=\"utf-8\"><style>.jx{{display:none}} p i.hx {{ visibility : hidden }}</style>\
         </head><body>{body}</body></html>"
    );
    let site = RawSite::serve(vec![(
        "/salted.html".into(),
        response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], page.as_bytes()),
    )]);
    let json = check_urls(dir.path(), &[&format!("{}/salted.html", site.base)]);
    let suspect = &json["suspects"][0];
    assert!(suspect["sources"][0]["path"].as_str().unwrap().ends_with("hongloumeng_000.txt"), "{json}");
    assert!(suspect["similarity"].as_f64().unwrap() >= 0.9, "{}", suspect["similarity"]);
}

/// A TSA made with `openssl ts -reply` behind an HTTP wrapper on loopback; `None` (with the
/// reason printed) without openssl. Returns its URL, its CA certificate and the folder.
fn loopback_tsa() -> Option<(String, std::path::PathBuf, tempfile::TempDir)> {
    if !std::process::Command::new("openssl").arg("version").output().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped the timestamp checks: openssl is not installed");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let setup = format!(
        r#"set -e; cd '{d}'
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 -subj "/CN=Loopback Root CA" \
            -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
        openssl req -newkey rsa:2048 -nodes -keyout tsa.key -out tsa.csr -subj "/CN=Loopback TSA" 2>/dev/null
        printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=critical,timeStamping\n' > ext.cnf
        openssl x509 -req -in tsa.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out tsa.crt -days 30 -extfile ext.cnf 2>/dev/null
        echo 01 > serial
        cat > tsa.cnf <<END
[ tsa ]
default_tsa = loopback
[ loopback ]
dir = {d}
serial = \$dir/serial
crypto_device = builtin
signer_cert = \$dir/tsa.crt
certs = \$dir/ca.crt
signer_key = \$dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
END"#
    );
    let (ok, out) = run(std::process::Command::new("bash").args(["-c", &setup]));
    assert!(ok, "TSA setup: {out}");
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let url = format!("http://127.0.0.1:{}/tsa", server.server_addr().to_ip().unwrap().port());
    let folder = dir.path().to_path_buf();
    std::thread::spawn(move || {
        for mut request in server.incoming_requests() {
            let mut query = Vec::new();
            request.as_reader().read_to_end(&mut query).unwrap();
            std::fs::write(folder.join("q.tsq"), &query).unwrap();
            let reply = std::process::Command::new("openssl")
                .args(["ts", "-reply", "-config", "tsa.cnf", "-queryfile", "q.tsq", "-out", "r.tsr"])
                .current_dir(&folder)
                .output()
                .unwrap();
            let answer = if reply.status.success() { std::fs::read(folder.join("r.tsr")).unwrap() } else { Vec::new() };
            let header = tiny_http::Header::from_bytes("Content-Type", "application/timestamp-reply").unwrap();
            let _ = request.respond(tiny_http::Response::from_data(answer).with_header(header));
        }
    });
    let ca = dir.path().join("ca.crt");
    Some((url, ca, dir))
}

/// A package timestamped by a real TSA on loopback: `evidence verify` and `openssl ts
/// -verify` both accept the token over datapackage.json; a forged datapackage.json (its
/// digest file updated to match) breaks the timestamp; an unreachable TSA writes nothing.
#[test]
fn a_package_timestamped_by_a_loopback_tsa_verifies_with_openssl_and_zhiwen() {
    let Some((tsa, ca, tsa_dir)) = loopback_tsa() else { return };
    let dir = imported();
    let text = read_text(&corpus_dir().join("sanguoyanyi_002.txt"));
    let site = RawSite::serve(vec![(
        "/t.html".into(),
        response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], chapter_page(&text).as_bytes()),
    )]);
    let json = check_urls(dir.path(), &[&format!("{}/t.html", site.base)]);
    let id = json["suspects"][0]["finding_id"].as_i64().unwrap().to_string();
    let package = dir.path().join("stamped.wacz");
    zhiwen(dir.path()).args(["evidence", &id, "--tsa", &tsa, "--out"]).arg(&package).assert().success();
    let (code, said) = verify(dir.path(), &package);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("RFC 3161 timestamp") && said.contains("Loopback TSA"), "{said}");

    let files = unzip(&package);
    let digest: serde_json::Value = serde_json::from_slice(&files["datapackage-digest.json"]).unwrap();
    use base64::Engine;
    let token =
        base64::engine::general_purpose::STANDARD.decode(digest["timestamp"]["response"].as_str().unwrap()).unwrap();
    let manifest: serde_json::Value = serde_json::from_slice(&files["zhiwen/manifest.json"]).unwrap();
    assert!(manifest["timestamp"].as_str().unwrap().starts_with("RFC 3161 timestamp by"), "{manifest}");
    let report = String::from_utf8(files["zhiwen/report.html"].clone()).unwrap();
    assert!(report.contains("Evidence package: RFC 3161 timestamp by http://127.0.0.1:"), "the report says so too");
    std::fs::write(tsa_dir.path().join("token.tsr"), &token).unwrap();
    std::fs::write(tsa_dir.path().join("datapackage.json"), &files["datapackage.json"]).unwrap();
    let openssl_verify = |data: &str| {
        run(std::process::Command::new("openssl")
            .args(["ts", "-verify", "-in", "token.tsr", "-data", data, "-CAfile"])
            .arg(&ca)
            .current_dir(tsa_dir.path()))
    };
    let (ok, out) = openssl_verify("datapackage.json");
    assert!(ok && out.contains("Verification: OK"), "openssl ts -verify: {out}");

    // datapackage.json changed and its digest file made to match: the token does not.
    let mut forged = files.clone();
    let changed =
        String::from_utf8(files["datapackage.json"].clone()).unwrap().replacen("Zhiwen evidence", "Zhiwen evidenCe", 1);
    std::fs::write(tsa_dir.path().join("forged.json"), &changed).unwrap();
    let (ok, _) = openssl_verify("forged.json");
    assert!(!ok, "openssl refuses the forged datapackage.json too");
    let mut digest_json = digest.clone();
    digest_json["hash"] = format!("sha256:{}", zhiwen::engine::store::findings::sha256(changed.as_bytes())).into();
    forged.insert("datapackage.json".into(), changed.into_bytes());
    forged.insert("datapackage-digest.json".into(), serde_json::to_vec(&digest_json).unwrap());
    let path = dir.path().join("forged.wacz");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for (n, b) in &forged {
        zip.start_file(n.as_str(), zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(b).unwrap();
    }
    zip.finish().unwrap();
    let (code, said) = verify(dir.path(), &path);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("FAILS: the timestamp does not hold for datapackage.json"), "{said}");

    // A TSA that does not answer: a clear message, no package.
    let nowhere = dir.path().join("nowhere.wacz");
    let out = zhiwen(dir.path())
        .args(["evidence", &id, "--tsa", "http://127.0.0.1:9/tsa", "--out"])
        .arg(&nowhere)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("http://127.0.0.1:9/tsa"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!nowhere.exists());
}

/// robots.txt shuts Zhiwen out of a known pirate page: by default the page is not requested;
/// with --named-as-browser the page named is captured, the capture says robots.txt was not
/// consulted, and its next page (reached by following a link) still obeys robots.txt.
#[test]
fn a_page_named_for_evidence_is_captured_as_a_browser_would_when_asked() {
    let dir = imported();
    let text = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let page = chapter_page(&text).replace("</body>", "<a href=\"/vip/2.html\">下一页</a></body>");
    let site = RawSite::serve(vec![
        (
            "/robots.txt".into(),
            response("200 OK", &[("Content-Type", "text/plain")], b"User-agent: *\nDisallow: /vip/\n"),
        ),
        ("/vip/1.html".into(), response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], page.as_bytes())),
        ("/vip/2.html".into(), response("200 OK", &[("Content-Type", "text/html")], b"<p>more</p>")),
    ]);
    let url = format!("{}/vip/1.html", site.base);
    let json = check_urls(dir.path(), &[&url]);
    assert!(json["suspects"][0]["error"].as_str().unwrap().contains("robots.txt"), "{json}");
    let requested = |path: &str| {
        site.received.lock().unwrap().iter().any(|r| String::from_utf8_lossy(r).starts_with(&format!("GET {path} ")))
    };
    assert!(!requested("/vip/1.html"), "not requested by default");

    let out = zhiwen(dir.path())
        .args(["check", "--json", "--proxy", "none", "--delay", "0.05", "--named-as-browser", &url])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let suspect = &json["suspects"][0];
    assert!(suspect["similarity"].as_f64().unwrap() > 0.9, "{json}");
    assert!(requested("/vip/1.html"));
    assert!(!requested("/vip/2.html"), "the next page, reached by a link, still obeys robots.txt");
    let id = suspect["finding_id"].as_i64().unwrap().to_string();
    let package = dir.path().join("named.wacz");
    zhiwen(dir.path()).args(["evidence", &id, "--out"]).arg(&package).assert().success();
    let files = unzip(&package);
    let records = zhiwen::engine::web::warc::read(&files["archive/capture-1-page-1.warc.gz"]).unwrap();
    let metadata = records.iter().find(|r| r.header("WARC-Type") == Some("metadata")).unwrap();
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.block).unwrap();
    assert!(metadata["settings"]["robots_txt"].as_str().unwrap().starts_with("not consulted"), "{metadata}");
    // Watches never take the setting.
    let out = zhiwen(dir.path()).args(["watch", "run", "--named-as-browser"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("watches obey robots.txt"));
}

/// Chromium for the rendered-capture tests: `None` (the reason printed) where it is not
/// installed (.ci/run installs the Debian package `chromium`).
fn chromium() -> Option<std::path::PathBuf> {
    match zhiwen::engine::web::render::find_chromium(None) {
        Ok(path) => Some(path),
        Err(reason) => {
            eprintln!("skipped the rendered-capture test: {reason}");
            None
        }
    }
}

/// The latest rendered screenshot of a package, its page's WARC and the rendered files' stem.
fn rendered_names(files: &std::collections::BTreeMap<String, Vec<u8>>) -> (String, String, String) {
    let shot = files.keys().rfind(|k| k.starts_with("rendered/") && k.ends_with(".png")).expect("a screenshot");
    let stem = shot.trim_end_matches(".png").to_string();
    let warc = format!("archive/{}.warc.gz", stem.trim_start_matches("rendered/"));
    (shot.clone(), warc, stem)
}

/// `check --json --render` (or without `--render`) on `urls`, with the stderr.
fn check_rendered(dir: &Path, urls: &[&str], render: bool) -> (serde_json::Value, String) {
    let mut cmd = zhiwen(dir);
    cmd.args(["check", "--json", "--proxy", "none", "--delay", "0.05", "--timeout", "20"]);
    if render {
        cmd.arg("--render");
    }
    let out = cmd.args(urls).timeout(Duration::from_secs(180)).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("bad JSON ({e}): {stderr}"));
    (json, stderr)
}

/// A chapter whose text a script inserts: the plain fetch sees an empty page, the rendered
/// capture sees the chapter. The package holds the screenshot (a PNG of the page's size),
/// the DOM after scripts and the visible text, each covered by the hashes.
#[test]
fn a_chapter_inserted_by_javascript_is_found_with_the_rendered_capture() {
    let Some(_) = chromium() else { return };
    let dir = imported();
    let text = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let paragraphs: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let page = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>第一回</title>\
         <style>body {{ font-family: sans-serif; width: 700px; margin: 20px; }}</style></head>\
         <body><h1>第一回</h1><div id=\"chapter\">正在加载……</div><script>\
         const paragraphs = {};\n\
         document.getElementById('chapter').innerHTML = '';\n\
         for (const p of paragraphs) {{ const e = document.createElement('p'); e.textContent = p; \
         document.getElementById('chapter').appendChild(e); }}\n\
         </script></body></html>",
        serde_json::to_string(&paragraphs).unwrap()
    );
    let site = RawSite::serve(vec![(
        "/js/1.html".into(),
        response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], page.as_bytes()),
    )]);
    let url = format!("{}/js/1.html", site.base);

    let (plain, _) = check_rendered(dir.path(), &[&url], false);
    let plain_similarity = plain["suspects"][0]["similarity"].as_f64().unwrap_or(0.0);
    assert!(plain_similarity < 0.1, "the plain fetch sees no chapter: {plain}");

    let (json, stderr) = check_rendered(dir.path(), &[&url], true);
    let suspect = &json["suspects"][0];
    assert!(suspect["sources"][0]["path"].as_str().unwrap_or("").ends_with("xiyouji_000.txt"), "{json} {stderr}");
    let similarity = suspect["similarity"].as_f64().unwrap();
    assert!(similarity >= 0.9, "rendered similarity {similarity}");
    eprintln!("script-inserted chapter: similarity {plain_similarity:.2} plain, {similarity:.2} rendered");
    let id = suspect["finding_id"].as_i64().unwrap().to_string();

    let package = dir.path().join("rendered.wacz");
    zhiwen(dir.path()).args(["evidence", &id, "--out"]).arg(&package).assert().success();
    let files = unzip(&package);
    let (shot, warc_name, stem) = rendered_names(&files);
    // The rendered files, and the same bytes as resource records in the page's WARC.
    let png = &files[&shot];
    let (width, height) = zhiwen::engine::web::render::png_size(png).expect("a PNG");
    assert!(width >= 700 && height > 900, "a full page, not the window: {width}x{height}");
    let records = zhiwen::engine::web::warc::read(&files[&warc_name]).unwrap();
    let resource = |prefix: &str| {
        records
            .iter()
            .find(|r| r.header("WARC-Target-URI") == Some(format!("{prefix}{url}").as_str()))
            .unwrap_or_else(|| panic!("no {prefix} record"))
    };
    assert_eq!(&resource("urn:view:").block, png);
    let about: serde_json::Value = serde_json::from_slice(
        &records
            .iter()
            .find(|r| {
                r.header("WARC-Type") == Some("metadata")
                    && r.header("WARC-Refers-To")
                        .is_some_and(|id| Some(id) == resource("urn:view:").header("WARC-Record-ID"))
            })
            .unwrap()
            .block,
    )
    .unwrap();
    assert_eq!(
        (about["screenshot"]["width"].as_u64(), about["screenshot"]["height"].as_u64()),
        (Some(width as u64), Some(height as u64))
    );
    let dom = String::from_utf8(files[&format!("{stem}.dom.html")].clone()).unwrap();
    assert!(
        dom.contains("<p>　　诗曰：　　混沌未分天地乱，茫茫渺渺无人见。</p>") && !dom.contains("正在加载"),
        "the DOM after scripts"
    );
    assert_eq!(resource("urn:dom:").block, dom.as_bytes());
    let visible = String::from_utf8(files[&format!("{stem}.visible.txt")].clone()).unwrap();
    assert!(visible.contains("混沌未分天地乱，茫茫渺渺无人见。") && !visible.contains("const paragraphs"), "{visible}");
    let datapackage: serde_json::Value = serde_json::from_slice(&files["datapackage.json"]).unwrap();
    assert!(
        datapackage["resources"].as_array().unwrap().iter().any(|r| r["path"] == shot.as_str()
            && r["hash"] == format!("sha256:{}", zhiwen::engine::store::findings::sha256(png))),
        "the screenshot is listed with its hash"
    );
    std::fs::write(dir.path().join("screenshot.png"), png).unwrap();
    if let Ok(keep) = std::env::var("ZHIWEN_KEEP_SCREENSHOT") {
        std::fs::write(keep, png).unwrap();
    }

    let (code, said) = verify(dir.path(), &package);
    assert_eq!(code, 0, "{said}");
    if python_has("warcio") {
        let warc_path = dir.path().join("rendered.warc.gz");
        std::fs::write(&warc_path, &files[&warc_name]).unwrap();
        let (ok, out) = run(std::process::Command::new("python3").args(WARCIO).args(["check", "-v"]).arg(&warc_path));
        assert!(ok && !out.contains("digest failed"), "warcio check: {out}");
    }
    if python_has("wacz") {
        let (ok, out) = run(std::process::Command::new("python3").args(["-m", "wacz", "validate", "-f"]).arg(&package));
        assert!(ok && out.contains("Validation succeeded"), "wacz validate: {out}");
    }
    // A byte of the screenshot changed, the zip made anew around it: the hashes name it.
    let mut changed = files.clone();
    let bytes = changed.get_mut(&shot).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    let path = dir.path().join("changed.wacz");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for (n, b) in &changed {
        zip.start_file(n.as_str(), zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(b).unwrap();
    }
    zip.finish().unwrap();
    let (code, said) = verify(dir.path(), &path);
    assert_eq!(code, 1, "{said}");
    assert!(said.lines().any(|l| l.starts_with("FAILS: ") && l.contains(&shot)), "{said}");
}

/// A chapter salted with junk every 15-20 characters, hidden by rules the plain fetch can
/// resolve (a `<style>` class) and by rules it cannot (an external stylesheet: display:none,
/// off-screen, a zero-size clipping box): found at ≥ 0.9 with the rendered capture, whose
/// visible text holds none of the junk.
#[test]
fn a_page_salted_with_junk_hidden_by_an_external_stylesheet_is_found_with_the_rendered_capture() {
    let Some(_) = chromium() else { return };
    let dir = imported();
    let text = read_text(&corpus_dir().join("hongloumeng_000.txt"));
    let junk = "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏";
    let mut body = String::new();
    let mut rng = fastrand::Rng::with_seed(11);
    let mut hidden = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        body += "<p>";
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let n = rng.usize(15..=20).min(chars.len() - i);
            body.extend(&chars[i..i + n]);
            i += n;
            let bit: String = junk.chars().skip(rng.usize(0..20)).take(4).collect();
            let class = ["jx", "ex", "off", "clip"][rng.usize(0..4)];
            body += &format!("<span class=\"{class}\">{bit}</span>");
            hidden.push(bit);
        }
        body += "</p>\n";
    }
    let page = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>.jx{{display:none}}</style>\
         <link rel=\"stylesheet\" href=\"/css/site.css\"></head><body>{body}</body></html>"
    );
    let css = ".ex { display: none }\n.off { position: absolute; left: -9999px }\n\
               .clip { display: inline-block; width: 0; height: 0; overflow: hidden }\n";
    let site = RawSite::serve(vec![
        ("/salted2.html".into(), response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], page.as_bytes())),
        ("/css/site.css".into(), response("200 OK", &[("Content-Type", "text/css")], css.as_bytes())),
    ]);
    let url = format!("{}/salted2.html", site.base);
    let (plain, _) = check_rendered(dir.path(), &[&url], false);
    let plain_similarity = plain["suspects"][0]["similarity"].as_f64().unwrap_or(0.0);
    let (json, stderr) = check_rendered(dir.path(), &[&url], true);
    let suspect = &json["suspects"][0];
    assert!(suspect["sources"][0]["path"].as_str().unwrap_or("").ends_with("hongloumeng_000.txt"), "{json} {stderr}");
    let similarity = suspect["similarity"].as_f64().unwrap();
    eprintln!(
        "junk hidden by an external stylesheet: similarity {plain_similarity:.2} plain, {similarity:.2} rendered"
    );
    assert!(similarity >= 0.9, "rendered similarity {similarity}");
    assert!(similarity > plain_similarity, "rendering sees what the plain fetch cannot: {plain_similarity}");

    let id = suspect["finding_id"].as_i64().unwrap().to_string();
    let package = dir.path().join("salted.wacz");
    zhiwen(dir.path()).args(["evidence", &id, "--out"]).arg(&package).assert().success();
    let files = unzip(&package);
    let (_, _, stem) = rendered_names(&files);
    let visible = String::from_utf8(files[&format!("{stem}.visible.txt")].clone()).unwrap();
    let first_paragraph = text.lines().find(|l| !l.trim().is_empty()).unwrap().trim();
    assert!(visible.contains(first_paragraph), "the paragraph whole, the junk cut out: {visible}");
    let (code, said) = verify(dir.path(), &package);
    assert_eq!(code, 0, "{said}");
}

/// Without Chromium, `--render` says so once and the plain fetch reads the page.
#[test]
fn render_without_chromium_says_so_once_and_fetches_plainly() {
    let dir = imported();
    let text = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let site = RawSite::serve(vec![(
        "/1.html".into(),
        response("200 OK", &[("Content-Type", "text/html; charset=utf-8")], chapter_page(&text).as_bytes()),
    )]);
    let out = zhiwen(dir.path())
        .args([
            "check",
            "--json",
            "--proxy",
            "none",
            "--delay",
            "0.05",
            "--render",
            "--chromium",
            "/nonexistent/chromium",
        ])
        .arg(format!("{}/1.html", site.base))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("Chromium not found").count(), 1, "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["suspects"][0]["similarity"].as_f64().unwrap() > 0.9, "{json}");
}

/// An https page served on loopback with a self-signed certificate made here by openssl:
/// the capture's metadata record holds the certificate chain the server presented, equal
/// to the server's certificate; without trusting it the fetch fails (verification stays on).
#[test]
fn an_https_capture_records_the_servers_certificate_chain() {
    use zhiwen::engine::web::fetch::{FetchOptions, Fetcher, ProxySetting};
    if !std::process::Command::new("openssl").arg("version").output().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped the TLS chain test: openssl is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (ok, out) = run(std::process::Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Zhiwen test site"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE"])
        .args(["-addext", "extendedKeyUsage=serverAuth", "-keyout", "key.pem", "-out", "cert.pem"])
        .current_dir(d));
    assert!(ok, "openssl req: {out}");
    let (ok, out) = run(std::process::Command::new("openssl")
        .args(["x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.der"])
        .current_dir(d));
    assert!(ok, "openssl x509: {out}");
    let der = std::fs::read(d.join("cert.der")).unwrap();
    let text = read_text(&corpus_dir().join("xiyouji_000.txt"));
    std::fs::write(d.join("page.html"), chapter_page(&text)).unwrap();
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = std::process::Command::new("openssl")
        .args(["s_server", "-quiet", "-WWW", "-cert", "cert.pem", "-key", "key.pem", "-accept"])
        .arg(format!("127.0.0.1:{port}"))
        .current_dir(d)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("https://127.0.0.1:{port}/page.html");
    let options = FetchOptions { proxy: ProxySetting::Direct, delay: Duration::ZERO, ..FetchOptions::default() };
    let untrusted = Fetcher::new(options.clone()).unwrap().fetch(&url);
    let trusted =
        Fetcher::new(FetchOptions { trusted_certificates: vec![der.clone()], ..options }).unwrap().fetch(&url);
    let _ = server.kill();
    let _ = server.wait();
    let error = untrusted.expect_err("a self-signed certificate nobody trusts is refused").to_string();
    assert!(error.contains("127.0.0.1"), "{error}");
    let page = trusted.unwrap_or_else(|e| panic!("{e}"));
    assert!(String::from_utf8_lossy(&page.bytes).contains("混沌未分天地乱"));
    let records = zhiwen::engine::web::warc::read(&page.warc).unwrap();
    let metadata = records.iter().find(|r| r.header("WARC-Type") == Some("metadata")).unwrap();
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.block).unwrap();
    let chain = metadata["tls_certificates"].as_array().expect("a chain");
    assert_eq!(chain.len(), 1, "{metadata}");
    assert_eq!(chain[0]["sha256"], zhiwen::engine::store::findings::sha256(&der));
    // The PEM recorded is the server's certificate, as openssl reads it.
    std::fs::write(d.join("recorded.pem"), chain[0]["pem"].as_str().unwrap()).unwrap();
    let (ok, out) = run(std::process::Command::new("openssl")
        .args(["x509", "-in", "recorded.pem", "-outform", "DER", "-out", "recorded.der"])
        .current_dir(d));
    assert!(ok, "openssl reads the recorded PEM: {out}");
    assert_eq!(std::fs::read(d.join("recorded.der")).unwrap(), der);
    // Subject, issuer and validity as openssl reads them.
    assert_eq!(chain[0]["subject"], "CN=Zhiwen test site", "{metadata}");
    assert_eq!(chain[0]["issuer"], "CN=Zhiwen test site");
    let (ok, dates) = run(std::process::Command::new("openssl")
        .args(["x509", "-noout", "-dates", "-dateopt", "iso_8601", "-in", "cert.pem"])
        .current_dir(d));
    if ok {
        // `notAfter=2026-11-26 02:55:00Z`
        let after = dates.lines().find_map(|l| l.strip_prefix("notAfter=")).unwrap().trim().replace(' ', "T");
        assert_eq!(chain[0]["not_after"], after.as_str(), "{dates}");
    }
    let last = metadata["requests"].as_array().unwrap().last().unwrap();
    assert_eq!(last["tls"], true);
    assert_eq!(last["tls_certificates"][0]["sha256"], chain[0]["sha256"]);
}
