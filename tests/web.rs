//! Web suspects against a fake pirate site this test serves on 127.0.0.1: GBK pages with
//! navigation and ads, a chapter list, a chapter split over two pages, a robots.txt that
//! forbids a folder, a dead link, a redirect, and hostile pages (slow, endless, a gzip
//! bomb). Nothing here touches the internet.

use crate::util::*;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A fake site: serves until dropped; records every request (path, when).
pub struct FakeSite {
    pub base: String,
    pub requests: Arc<Mutex<Vec<(String, Instant)>>>,
    server: Arc<tiny_http::Server>,
}

impl Drop for FakeSite {
    fn drop(&mut self) {
        self.server.unblock();
    }
}

impl FakeSite {
    pub fn paths(&self) -> Vec<String> {
        self.requests.lock().unwrap().iter().map(|(p, _)| p.clone()).collect()
    }
}

/// A chapter as a pirate site serves it: navigation, the text with an ad after every
/// paragraph, a footer; `next` adds a 下一页 link.
fn pirate_page(title: &str, text: &str, next: Option<&str>) -> String {
    let mut page = format!(
        "<!DOCTYPE html><html><head><title>{title}_笔趣阁</title><script>var ad=1;</script></head><body>\
         <div class=\"nav\"><a href=\"/\">首页</a> <a href=\"/top.html\">排行榜</a></div><div id=\"content\">"
    );
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        page += &format!("<p>{line}</p><div class=\"ads\">天才一秒记住本站地址：笔趣阁</div>\n");
    }
    if let Some(next) = next {
        page += &format!("<a href=\"{next}\">下一页</a>");
    }
    page + "</div><div class=\"footer\">本站所有小说均来自网络</div></body></html>"
}

fn gbk(s: &str) -> Vec<u8> {
    encoding_rs::GBK.encode(s).0.into_owned()
}

pub fn serve() -> FakeSite {
    let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
    let port = server.server_addr().to_ip().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let requests: Arc<Mutex<Vec<(String, Instant)>>> = Arc::default();
    let chapter = |name: &str| read_text(&corpus_dir().join(name));
    let xiyouji = chapter("xiyouji_000.txt");
    let half = xiyouji.char_indices().nth(xiyouji.chars().count() / 2).map(|(i, _)| i).unwrap();
    let cut = half + xiyouji[half..].find('\n').unwrap_or(0);
    let pages: Vec<(String, Vec<u8>, &str)> = vec![
        ("/robots.txt".into(), b"User-agent: *\nDisallow: /book/1/vip/\n".to_vec(), "text/plain"),
        (
            "/book/1/".into(),
            gbk("<html><head><meta charset=\"gbk\"><title>西游记最新章节</title></head><body>\
                 <div class=\"nav\"><a href=\"/\">首页</a><a href=\"/top.html\">排行榜</a></div><ul>\
                 <li><a href=\"1.html\">第一回</a></li><li><a href=\"2.html\">第二回</a></li>\
                 <li><a href=\"3.html\">第三回</a></li><li><a href=\"4.html\">第四回</a></li>\
                 <li><a href=\"vip/5.html\">第五回（VIP）</a></li></ul></body></html>"),
            "text/html",
        ),
        (
            "/book/1/1.html".into(),
            gbk(&pirate_page("第一回", &xiyouji[..cut], Some("1_2.html"))),
            "text/html; charset=gbk",
        ),
        ("/book/1/1_2.html".into(), gbk(&pirate_page("第一回", &xiyouji[cut..], None)), "text/html; charset=GBK"),
        (
            "/book/1/2.html".into(),
            pirate_page("第二回", &chapter("sanguoyanyi_001.txt"), None).into_bytes(),
            "text/html; charset=utf-8",
        ),
        ("/book/1/4b.html".into(), gbk(&pirate_page("第四回", &chapter("sanguoyanyi_002.txt"), None)), "text/html"),
        (
            "/book/1/vip/5.html".into(),
            pirate_page("第五回", &chapter("hongloumeng_000.txt"), None).into_bytes(),
            "text/html",
        ),
        ("/top.html".into(), b"<html><body>ranking</body></html>".to_vec(), "text/html"),
        ("/".into(), b"<html><body>home</body></html>".to_vec(), "text/html"),
        ("/file.zip".into(), vec![0x50, 0x4b, 3, 4, 0, 0, 0, 0], "application/zip"),
    ];
    let (srv, log) = (server.clone(), requests.clone());
    std::thread::spawn(move || {
        for request in srv.incoming_requests() {
            let path = request.url().to_string();
            log.lock().unwrap().push((path.clone(), Instant::now()));
            let page = pages.iter().find(|(p, _, _)| *p == path).cloned();
            std::thread::spawn(move || respond(request, &path, page));
        }
    });
    FakeSite { base, requests, server }
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap()
}

fn respond(request: tiny_http::Request, path: &str, page: Option<(String, Vec<u8>, &str)>) {
    let _ = match (path, page) {
        (_, Some((_, bytes, kind))) => {
            request.respond(tiny_http::Response::from_data(bytes).with_header(header("Content-Type", kind)))
        }
        ("/book/1/4.html", _) => {
            request.respond(tiny_http::Response::empty(302).with_header(header("Location", "/book/1/4b.html")))
        }
        ("/loop.html", _) => {
            request.respond(tiny_http::Response::empty(301).with_header(header("Location", "/loop.html")))
        }
        ("/slow.html", _) => {
            std::thread::sleep(Duration::from_secs(4));
            request.respond(tiny_http::Response::from_string("late").with_header(header("Content-Type", "text/html")))
        }
        ("/endless.html", _) => {
            // Text without end, sent without a length (chunked).
            let body = std::io::repeat(b'a').take(1 << 40);
            request.respond(tiny_http::Response::new(
                200.into(),
                vec![header("Content-Type", "text/html")],
                body,
                None,
                None,
            ))
        }
        ("/bomb.html", _) => {
            // 64 MiB of zeros in 64 KiB of gzip.
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            let zeros = vec![b' '; 1 << 20];
            for _ in 0..64 {
                std::io::Write::write_all(&mut gz, &zeros).unwrap();
            }
            let bytes = gz.finish().unwrap();
            request.respond(
                tiny_http::Response::from_data(bytes)
                    .with_header(header("Content-Type", "text/html"))
                    .with_header(header("Content-Encoding", "gzip")),
            )
        }
        _ => request.respond(tiny_http::Response::from_string("not here").with_status_code(404)),
    };
}

/// `check --json` with fast web settings; returns the JSON, the exit code and stderr.
fn check_web(dir: &std::path::Path, args: &[&str]) -> (serde_json::Value, i32, String) {
    let out = zhiwen(dir)
        .args(["check", "--json", "--proxy", "none", "--delay", "0.2", "--timeout", "2", "--max-page-mib", "1"])
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    (json, out.status.code().unwrap(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn suspect_for<'a>(json: &'a serde_json::Value, url: &str) -> &'a serde_json::Value {
    json["suspects"].as_array().unwrap().iter().find(|s| s["url"] == url || s["path"] == url).unwrap_or_else(|| {
        panic!("no suspect for {url} in {json}");
    })
}

#[test]
fn a_pirate_sites_chapter_list_is_followed_politely_and_every_chapter_finds_its_source() {
    let dir = imported();
    let site = serve();
    let toc = format!("{}/book/1/", site.base);
    let (json, code, stderr) = check_web(dir.path(), &["--follow", &toc]);
    assert_eq!(code, 1, "one chapter is a dead link: {stderr}");

    // The chapter split over two pages is one suspect, read whole, from GBK.
    let first = suspect_for(&json, &format!("{}/book/1/1.html", site.base));
    assert!(first["sources"][0]["path"].as_str().unwrap().ends_with("xiyouji_000.txt"), "{first}");
    assert!(first["sources"][0]["source_coverage"].as_f64().unwrap() > 0.95, "{first}");
    assert_eq!(first["sha256"].as_str().unwrap().len(), 64);
    // Each page of the chapter also has its own hash.
    let pages = first["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2, "{first}");
    assert!(pages[1]["url"].as_str().unwrap().ends_with("/book/1/1_2.html"));
    assert_ne!(pages[0]["sha256"], pages[1]["sha256"]);
    assert!(first["fetched_at"].as_str().unwrap().ends_with('Z'));
    let second = suspect_for(&json, &format!("{}/book/1/2.html", site.base));
    assert!(second["sources"][0]["path"].as_str().unwrap().ends_with("sanguoyanyi_001.txt"));
    // The redirect is followed and recorded.
    let fourth = suspect_for(&json, &format!("{}/book/1/4.html", site.base));
    assert_eq!(fourth["final_url"], format!("{}/book/1/4b.html", site.base));
    assert!(fourth["sources"][0]["path"].as_str().unwrap().ends_with("sanguoyanyi_002.txt"));
    // The dead link: one message naming it and the reason.
    let dead = suspect_for(&json, &format!("{}/book/1/3.html", site.base));
    assert!(dead["error"].as_str().unwrap().contains("3.html: HTTP 404"), "{dead}");
    assert_eq!(stderr.matches("3.html: HTTP 404").count(), 1, "{stderr}");
    // The folder robots.txt forbids is never requested, and reported as forbidden.
    let vip = suspect_for(&json, &format!("{}/book/1/vip/5.html", site.base));
    assert!(vip["error"].as_str().unwrap().contains("robots.txt"), "{vip}");
    let paths = site.paths();
    assert!(!paths.iter().any(|p| p.contains("/vip/")), "{paths:?}");
    // Navigation outside the book is not followed; robots.txt is read once.
    assert!(!paths.iter().any(|p| p == "/top.html" || p == "/"), "{paths:?}");
    assert_eq!(paths.iter().filter(|p| *p == "/robots.txt").count(), 1);
    assert!(paths.len() <= 9, "{paths:?}");
    // At least the delay between two requests to the site.
    let times: Vec<Instant> = site.requests.lock().unwrap().iter().map(|(_, t)| *t).collect();
    for w in times.windows(2) {
        assert!(w[1] - w[0] >= Duration::from_millis(190), "requests {:?} apart: {paths:?}", w[1] - w[0]);
    }
    // Pages checked once are tracked as copies (the dead link is none).
    let stats: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["stats", "--json"]).output().unwrap().stdout).unwrap();
    assert_eq!((stats["copies"].as_u64(), stats["online"].as_u64()), (Some(3), Some(3)), "{stats}");
}

#[test]
fn hostile_and_broken_urls_each_get_one_message_and_the_rest_go_on() {
    let dir = imported();
    let site = serve();
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = |p: &str| format!("{}{p}", site.base);
    let dead = format!("http://127.0.0.1:{closed}/x.html");
    let urls = [
        url("/slow.html"),
        url("/endless.html"),
        url("/bomb.html"),
        url("/loop.html"),
        url("/file.zip"),
        url("/book/1/vip/5.html"),
        dead.clone(),
        "ftp://127.0.0.1/x".into(),
        url("/book/1/2.html"),
    ];
    let started = Instant::now();
    let args: Vec<&str> = urls.iter().map(String::as_str).collect();
    let (json, code, stderr) = check_web(dir.path(), &args);
    assert_eq!(code, 1);
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    let error = |u: &str| suspect_for(&json, u)["error"].as_str().unwrap_or_default().to_string();
    assert!(error(&url("/slow.html")).contains("timed out"), "{}", error(&url("/slow.html")));
    assert!(error(&url("/endless.html")).contains("size cap"), "{}", error(&url("/endless.html")));
    assert!(error(&url("/bomb.html")).contains("size cap"), "{}", error(&url("/bomb.html")));
    assert!(error(&url("/loop.html")).contains("more than 10 redirects"), "{}", error(&url("/loop.html")));
    assert!(error(&url("/file.zip")).contains("not a web page"), "{}", error(&url("/file.zip")));
    assert!(error(&url("/book/1/vip/5.html")).contains("forbidden by the site's robots.txt"));
    assert!(error(&dead).contains("connection refused"), "{}", error(&dead));
    assert!(error("ftp://127.0.0.1/x").contains("only http and https"), "{}", error("ftp://127.0.0.1/x"));
    // Each bad URL is one line on stderr, naming it.
    for u in &urls[..8] {
        assert_eq!(stderr.lines().filter(|l| l.starts_with(&format!("{u}: "))).count(), 1, "{u}: {stderr}");
    }
    // And the good one was checked.
    let good = suspect_for(&json, &url("/book/1/2.html"));
    assert!(good["sources"][0]["path"].as_str().unwrap().ends_with("sanguoyanyi_001.txt"));
    assert!(!site.paths().iter().any(|p| p.contains("/vip/")));
    // The delay holds after failed requests too (a page refused at the size cap returns at once).
    let times: Vec<Instant> = site.requests.lock().unwrap().iter().map(|(_, t)| *t).collect();
    for w in times.windows(2) {
        assert!(w[1] - w[0] >= Duration::from_millis(190), "requests {:?} apart: {:?}", w[1] - w[0], site.paths());
    }
}

fn findings_json(dir: &std::path::Path, args: &[&str]) -> Vec<serde_json::Value> {
    let out = zhiwen(dir).arg("findings").arg("--json").args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

/// Every web check is kept as a finding (once per URL and content), survives the process,
/// and exports as an evidence package whose manifest's hashes match its files.
#[test]
fn web_findings_are_kept_once_and_export_as_verifiable_evidence() {
    let dir = imported();
    let site = serve();
    let page = format!("{}/book/1/2.html", site.base);
    let split = format!("{}/book/1/1.html", site.base);
    let (json, code, _) = check_web(dir.path(), &[&page, &split]);
    assert_eq!(code, 0);
    let id = json["suspects"][0]["finding_id"].as_i64().unwrap();
    let list = findings_json(dir.path(), &[]);
    assert_eq!(list.len(), 2, "{list:?}");
    // The same pages again: the findings are updated, not duplicated.
    let (again, _, _) = check_web(dir.path(), &[&page, &split]);
    assert_eq!(again["suspects"][0]["finding_id"].as_i64(), Some(id));
    let list = findings_json(dir.path(), &[]);
    assert_eq!(list.len(), 2);
    let finding = list.iter().find(|f| f["id"] == id).unwrap();
    assert_eq!(finding["kind"], "web");
    assert_eq!(finding["target"], page);
    assert!(finding["checked_at"].as_i64() >= finding["first_checked_at"].as_i64());
    // Filters: by source document, by date.
    let source = finding["sources"][0][0].as_u64().unwrap().to_string();
    assert_eq!(findings_json(dir.path(), &["--source", &source]).len(), 1);
    assert_eq!(findings_json(dir.path(), &["--since", "2000-01-01"]).len(), 2);
    assert_eq!(findings_json(dir.path(), &["--since", "2999-01-01"]).len(), 0);

    // The evidence package of the chapter read from two pages: each page as received.
    let split_id = list.iter().find(|f| f["target"] == split).unwrap()["id"].as_i64().unwrap().to_string();
    let requests_before = site.paths().len();
    let zip_path = dir.path().join("evidence.zip");
    zhiwen(dir.path()).args(["evidence", &split_id, "--out"]).arg(&zip_path).assert().success();
    assert_eq!(site.paths().len(), requests_before, "evidence is made without fetching again");
    let mut zip = zip::ZipArchive::new(std::fs::File::open(&zip_path).unwrap()).unwrap();
    let mut files = std::collections::BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).unwrap();
        files.insert(f.name().unwrap().to_string(), bytes);
    }
    let manifest: serde_json::Value = serde_json::from_slice(&files["zhiwen/manifest.json"]).unwrap();
    assert_eq!(manifest["target"], split);
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    assert!(manifest["captured_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(manifest["pages"].as_array().unwrap().len(), 2);
    assert_eq!(manifest["settings"]["check"]["max_distance"], 3);
    // Each page of the chapter has its own capture file and hash; the two captures are kept.
    let pages = &manifest["pages"];
    assert_ne!(pages[0]["sha256"], pages[1]["sha256"]);
    for name in
        ["archive/capture-1-page-1.warc.gz", "archive/capture-1-page-2.warc.gz", "archive/capture-2-page-2.warc.gz"]
    {
        assert!(files.contains_key(name), "{name}: {:?}", files.keys());
    }
    // Every file's hash, recomputed, is datapackage.json's; SHA256SUMS says the same.
    let datapackage: serde_json::Value = serde_json::from_slice(&files["datapackage.json"]).unwrap();
    let listed = datapackage["resources"].as_array().unwrap();
    assert_eq!(listed.len() + 2, files.len(), "every file but the datapackage files is hashed");
    let sums = String::from_utf8(files["zhiwen/SHA256SUMS"].clone()).unwrap();
    for entry in listed {
        let name = entry["path"].as_str().unwrap();
        let actual = zhiwen::engine::store::findings::sha256(&files[name]);
        assert_eq!(entry["hash"].as_str().unwrap(), format!("sha256:{actual}"), "{name}");
        if name != "zhiwen/SHA256SUMS" {
            assert!(sums.contains(&format!("{actual}  {name}")), "{sums}");
        }
    }
    // The captured bytes are the GBK bytes the site sent, and the report names the source.
    let first_page = &files["captured/page-1.html"];
    assert!(encoding_rs::GBK.decode(first_page).0.contains("下一页"));
    assert!(std::str::from_utf8(first_page).is_err(), "kept as received, not re-encoded");
    let report = String::from_utf8(files["zhiwen/report.html"].clone()).unwrap();
    assert!(report.contains("第一回　灵根育孕源流出　心性修持大道生"));
    let headers: Vec<(String, String)> = serde_json::from_slice(&files["captured/page-1.headers.json"]).unwrap();
    assert!(headers.iter().any(|(n, v)| n == "content-type" && v.contains("gbk")), "{headers:?}");

    // Removing a finding.
    zhiwen(dir.path()).args(["findings", "rm", &split_id]).assert().success();
    assert_eq!(findings_json(dir.path(), &[]).len(), 1);
    zhiwen(dir.path()).args(["evidence", &split_id, "--out"]).arg(&zip_path).assert().code(2);
}

/// Ctrl-C while a site is followed: the page in hand finishes, the chapters checked so far
/// are reported and kept as findings, and the rest is not fetched.
#[test]
fn ctrl_c_while_following_a_site_keeps_what_was_checked() {
    let dir = imported();
    let site = serve();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("zhiwen"))
        .env("ZHIWEN_DB", dir.path().join("corpus.sqlite"))
        .args(["check", "--json", "--proxy", "none", "--delay", "1", "--follow"])
        .arg(format!("{}/book/1/", site.base))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the second chapter's request, then interrupt.
    let started = Instant::now();
    while !site.paths().iter().any(|p| p == "/book/1/2.html") {
        assert!(started.elapsed() < Duration::from_secs(30), "{:?}", site.paths());
        std::thread::sleep(Duration::from_millis(20));
    }
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let out = child.wait_with_output().unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let checked = json["suspects"].as_array().unwrap().len();
    assert!((1..4).contains(&checked), "{checked} chapters: {json}");
    assert!(!site.paths().iter().any(|p| p == "/book/1/4.html"), "{:?}", site.paths());
    let ok = json["suspects"].as_array().unwrap().iter().filter(|s| s["error"].is_null()).count();
    assert_eq!(findings_json(dir.path(), &[]).len(), ok);
}
