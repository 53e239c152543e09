//! Discovery against a fake web the test serves on loopback: a search engine speaking
//! SearXNG's JSON API that indexes only some chapter pages, twelve pirate sites on their
//! own 127.0.0.x addresses (so per-host politeness applies), each laid out differently —
//! contents over two pages, chapters outside the contents page's folder, chapters reachable
//! only through a gzip sitemap behind a sitemap index, or only through the site's own search
//! — a licensed site carrying authorised copies, and unrelated books everywhere. Nothing
//! here touches the internet.

use crate::util::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Seconds between two requests to one host (the run's --delay).
const DELAY: f64 = 0.05;
/// The Crawl-delay one site asks for in its robots.txt.
const CRAWL_DELAY: f64 = 0.2;

pub(crate) fn discovery_dir() -> PathBuf {
    fixtures().join("discovery")
}

/// A chapter: its title line and its text.
#[derive(Clone)]
struct Chapter {
    title: String,
    text: String,
}

fn read_chapters(folder: &Path) -> Vec<Chapter> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = read_text(f);
            let title = text.lines().next().unwrap().trim().to_string();
            Chapter { title, text }
        })
        .collect()
}

/// Han characters, letters and digits only: what a search engine matches phrases on.
fn normalized(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A chapter page as pirate sites make them: navigation, the text with an ad after each
/// paragraph, extra links.
fn chapter_page(title: &str, text: &str, extra: &str) -> String {
    let mut page = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}_免费小说</title></head><body>\
         <div class=\"top\"><a href=\"/\">首页</a> <a href=\"/top.html\">排行榜</a></div>{extra}<div id=\"content\">",
        escape(title)
    );
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        page += &format!("<p>{}</p><div class=\"ad\">手机用户请访问m.example阅读</div>\n", escape(line));
    }
    page + "</div><div class=\"footer\">本站小说均来自网友上传</div></body></html>"
}

fn contents_page(book: &str, links: &[(String, String)], extra: &str) -> String {
    let mut page = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{book}最新章节</title></head><body>\
         <div class=\"top\"><a href=\"/\">首页</a> <a href=\"/top.html\">排行榜</a></div><h1>{book}</h1><ul>"
    );
    for (href, text) in links {
        page += &format!("<li><a href=\"{href}\">{}</a></li>", escape(text));
    }
    page + "</ul>" + extra + "</body></html>"
}

/// What one fake host serves: path → (content type, body), and what it is for the test.
#[derive(Default)]
struct Host {
    pages: HashMap<String, (String, Vec<u8>)>,
    /// Chapter URLs (paths) that copy the work: the planted copies.
    copies: Vec<String>,
    /// Paths of indexed pages with their text (what the search engine knows of this host).
    indexed: Vec<(String, String, String)>,
}

impl Host {
    fn html(&mut self, path: &str, body: String) {
        self.pages.insert(path.into(), ("text/html; charset=utf-8".into(), body.into_bytes()));
    }
}

/// Requests of one host: (path, when).
type Log = Arc<Mutex<Vec<(String, Instant)>>>;

pub(crate) struct Served {
    pub(crate) base: String,
    pub(crate) log: Log,
    server: Arc<tiny_http::Server>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.server.unblock();
    }
}

/// A server bound on `ip` (any free port), not yet answering: its address is known
/// before its pages are made (sitemaps name it).
fn bind(ip: &str) -> (Arc<tiny_http::Server>, String) {
    let server = Arc::new(tiny_http::Server::http(format!("{ip}:0")).unwrap());
    let port = server.server_addr().to_ip().unwrap().port();
    (server, format!("http://{ip}:{port}"))
}

/// Serves `pages` on a bound server until dropped; every request is logged.
fn start((server, base): (Arc<tiny_http::Server>, String), pages: HashMap<String, (String, Vec<u8>)>) -> Served {
    let log: Log = Arc::default();
    let (srv, requests) = (server.clone(), log.clone());
    std::thread::spawn(move || {
        for request in srv.incoming_requests() {
            let path = request.url().to_string();
            requests.lock().unwrap().push((path.clone(), Instant::now()));
            let response = match pages.get(&path) {
                Some((kind, body)) => tiny_http::Response::from_data(body.clone())
                    .with_header(tiny_http::Header::from_bytes(&b"Content-Type"[..], kind.as_bytes()).unwrap()),
                None => tiny_http::Response::from_string("not here").with_status_code(404),
            };
            let _ = request.respond(response);
        }
    });
    Served { base, log, server }
}

/// The fake web: pirate hosts, a licensed host, and the search engine indexing some pages.
pub(crate) struct Web {
    pub(crate) hosts: Vec<Served>,
    licensed: Served,
    pub(crate) search: Served,
    /// Full URLs of the planted copies the crawler may read.
    pub(crate) planted: HashSet<String>,
    /// Full URLs of the licensed copies.
    licensed_copies: HashSet<String>,
    /// Planted copies the search engine does not index.
    unindexed: HashSet<String>,
    work: Vec<Chapter>,
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, bytes).unwrap();
    gz.finish().unwrap()
}

/// Builds host `i` of the twelve (layout `i % 4`): which chapters it carries, how it lists
/// them, which it lets the search engine see. `base` is its own address.
fn pirate_host(i: usize, base: &str, work: &[Chapter], filler: &[Chapter]) -> Host {
    let mut h = Host::default();
    let book = format!("{}", 100 + i);
    // Most hosts carry every chapter; some only part of the book.
    let carried: Vec<usize> = (0..work.len()).filter(|n| i < 8 || n % 3 != 1).collect();
    let title = |n: usize| format!("第{}章 {}", n + 1, work[n].title.split_whitespace().last().unwrap_or(""));
    let layout = i % 4;
    let chapter_path = |n: usize| match layout {
        0 => format!("/book/{book}/{n}.html"),
        1 => format!("/read/{book}_{n}.html"),
        2 => format!("/txt/{book}/{n}.html"),
        _ => format!("/chapter/{}.html", 9000 + i * 100 + n),
    };
    let mut robots = String::from("User-agent: *\nDisallow: /admin/\n");
    if i == 5 {
        robots += &format!("Crawl-delay: {CRAWL_DELAY}\n");
    }
    if i == 1 {
        // A chapter robots.txt forbids: never requested, not counted as findable.
        robots += &format!("Disallow: {}\n", chapter_path(4));
    }
    for &n in &carried {
        let path = chapter_path(n);
        let extra = match layout {
            0 => format!("<a href=\"/book/{book}/\">章节目录</a>"),
            1 => format!(
                "<div class=\"breadcrumb\"><a href=\"/\">首页</a> &gt; <a href=\"/book/{book}/\">聊斋志异</a></div>"
            ),
            _ => String::new(),
        };
        if i == 0 && n == 3 {
            // A chapter over two pages.
            let text = &work[n].text;
            let cut = text.char_indices().nth(text.chars().count() / 2).unwrap().0;
            let cut = cut + text[cut..].find('\n').unwrap_or(0);
            let second = format!("/book/{book}/{n}_2.html");
            h.html(&path, chapter_page(&title(n), &text[..cut], &format!("{extra}<a href=\"{second}\">下一页</a>")));
            h.html(&second, chapter_page(&title(n), &format!("x\n{}", &text[cut..]), &extra));
        } else {
            h.html(&path, chapter_page(&title(n), &work[n].text, &extra));
        }
        if !(i == 1 && n == 4) {
            h.copies.push(path.clone());
        }
        // The search engine has seen about one chapter in four of each host.
        if (n + i).is_multiple_of(4) {
            h.indexed.push((path, title(n), work[n].text.clone()));
        }
    }
    let links: Vec<(String, String)> = carried.iter().map(|&n| (chapter_path(n), title(n))).collect();
    match layout {
        0 => {
            // Contents over two pages.
            let half = links.len() / 2;
            let next = format!("/book/{book}/index_2.html");
            h.html(
                &format!("/book/{book}/"),
                contents_page(
                    "聊斋志异",
                    &links[..half],
                    &format!("<a href=\"{next}\">2</a> <a href=\"{next}\">下一页</a>"),
                ),
            );
            h.html(&next, contents_page("聊斋志异", &links[half..], &format!("<a href=\"/book/{book}/\">上一页</a>")));
        }
        1 => h.html(&format!("/book/{book}/"), contents_page("聊斋志异", &links, "")),
        2 => {
            robots += &format!("Sitemap: {base}/sitemap_index.xml\n");
            let mut urls = String::new();
            for (href, _) in &links {
                urls += &format!("<url><loc>{base}{href}</loc></url>");
            }
            urls += &format!("<url><loc>{base}/filler/{book}/0.html</loc></url>");
            let sitemap = format!(
                "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>"
            );
            h.pages.insert("/sitemap1.xml.gz".into(), ("application/gzip".into(), gzip(sitemap.as_bytes())));
            h.pages.insert(
                "/sitemap_index.xml".into(),
                (
                    "application/xml".into(),
                    format!(
                        "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                         <sitemap><loc>{base}/sitemap1.xml.gz</loc></sitemap></sitemapindex>"
                    )
                    .into_bytes(),
                ),
            );
        }
        _ => {
            // Only the site's own search leads to the book.
            h.html(&format!("/book/{book}/"), contents_page("聊斋志异", &links, ""));
            h.html(
                "/",
                "<html><body><form action=\"/search.php\" method=\"get\"><input type=\"text\" name=\"searchkey\">\
                 <input type=\"submit\" value=\"搜索\"></form><a href=\"/top.html\">排行榜</a></body></html>"
                    .into(),
            );
            let results = format!(
                "<html><body><ul><li><a href=\"/book/{book}/\">聊斋志异</a> 蒲松龄</li>\
                 <li><a href=\"/book/9/\">孽海花</a></li></ul></body></html>"
            );
            h.html("/search.php?searchkey=%E8%81%8A%E6%96%8B%E5%BF%97%E5%BC%82", results);
        }
    }
    h.pages.insert("/robots.txt".into(), ("text/plain".into(), robots.into_bytes()));
    // An unrelated book on every host: indexed, so search results lead to it as well.
    let filler_path = format!("/filler/{book}/0.html");
    h.html(&filler_path, chapter_page(&filler[0].title, &filler[0].text, ""));
    h.indexed.push((filler_path, filler[0].title.clone(), filler[0].text.clone()));
    h
}

/// The search engine: SearXNG's JSON API over the indexed pages. The first query is
/// answered 429 with Retry-After: 0 (the client must back off and retry), every answer
/// names an unresponsive engine.
fn search_engine(index: Vec<(String, String, String)>) -> Served {
    let server = Arc::new(tiny_http::Server::http("127.0.0.2:0").unwrap());
    let port = server.server_addr().to_ip().unwrap().port();
    let log: Log = Arc::default();
    let (srv, requests) = (server.clone(), log.clone());
    let index: Vec<(String, String, String, String)> =
        index.into_iter().map(|(u, t, text)| (u, t, normalized(&text), text)).collect();
    std::thread::spawn(move || {
        for request in srv.incoming_requests() {
            let url = request.url().to_string();
            let first = requests.lock().unwrap().is_empty();
            requests.lock().unwrap().push((url.clone(), Instant::now()));
            if first {
                let _ = request.respond(
                    tiny_http::Response::from_string("slow down")
                        .with_status_code(429)
                        .with_header(tiny_http::Header::from_bytes(&b"Retry-After"[..], &b"0"[..]).unwrap()),
                );
                continue;
            }
            let parsed = url::Url::parse(&format!("http://x{url}")).unwrap();
            let q: String =
                parsed.query_pairs().find(|(k, _)| k == "q").map(|(_, v)| v.into_owned()).unwrap_or_default();
            assert_eq!(parsed.query_pairs().find(|(k, _)| k == "format").unwrap().1, "json");
            let phrase = normalized(q.trim_matches('"'));
            // The matching pages, and an unrelated page as real engines add (the filler
            // books are indexed too, and never match a phrase of the work).
            let asked = requests.lock().unwrap().len();
            let fillers: Vec<&(String, String, String, String)> =
                index.iter().filter(|(u, _, _, _)| u.contains("/filler/")).collect();
            let noise = fillers[asked % fillers.len()];
            let results: Vec<serde_json::Value> = index
                .iter()
                .filter(|(_, _, norm, _)| !phrase.is_empty() && norm.contains(&phrase))
                .take(9)
                .chain([noise])
                .map(|(u, t, _, text)| serde_json::json!({"url": u, "title": t, "content": text.chars().take(60).collect::<String>()}))
                .collect();
            let body = serde_json::json!({
                "query": q, "number_of_results": results.len(), "results": results,
                "unresponsive_engines": [["sogou", "timeout"]],
            });
            let _ =
                request.respond(tiny_http::Response::from_string(body.to_string()).with_header(
                    tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"application/json"[..]).unwrap(),
                ));
        }
    });
    Served { base: format!("http://127.0.0.2:{port}"), log, server }
}

pub(crate) fn fake_web() -> Web {
    let work = read_chapters(&discovery_dir().join("works/聊斋志异"));
    let filler = read_chapters(&discovery_dir().join("filler"));
    let mut hosts = Vec::new();
    let mut planted = HashSet::new();
    let mut unindexed = HashSet::new();
    let mut index = Vec::new();
    for i in 0..12 {
        let bound = bind(&format!("127.0.0.{}", 10 + i));
        let base = bound.1.clone();
        let h = pirate_host(i, &base, &work, &filler);
        let indexed: HashSet<String> = h.indexed.iter().map(|(p, _, _)| format!("{base}{p}")).collect();
        for c in &h.copies {
            planted.insert(format!("{base}{c}"));
            if !indexed.contains(&format!("{base}{c}")) {
                unindexed.insert(format!("{base}{c}"));
            }
        }
        index.extend(h.indexed.iter().map(|(p, t, text)| (format!("{base}{p}"), t.clone(), text.clone())));
        hosts.push(start(bound, h.pages));
    }
    // The licensed site: every chapter, every one indexed.
    let mut lic = Host::default();
    for (n, c) in work.iter().enumerate() {
        lic.html(&format!("/licensed/{n}.html"), chapter_page(&c.title, &c.text, ""));
    }
    let licensed = start(bind("127.0.0.40"), lic.pages);
    let licensed_copies: HashSet<String> =
        (0..work.len()).map(|n| format!("{}/licensed/{n}.html", licensed.base)).collect();
    for (n, c) in work.iter().enumerate() {
        index.push((format!("{}/licensed/{n}.html", licensed.base), c.title.clone(), c.text.clone()));
    }
    let search = search_engine(index);
    Web { hosts, licensed, search, planted, licensed_copies, unindexed, work }
}

/// A store with the two works imported (the chapters of 聊斋志异 and of 镜花缘).
pub(crate) fn imported_works() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(discovery_dir().join("works")).assert().success();
    dir
}

fn discover(dir: &Path, web: &Web, extra: &[&str]) -> (serde_json::Value, i32, String) {
    let out = zhiwen(dir)
        .args(["discover", "--json", "--searx", &web.search.base, "--query-interval", "0", "--proxy", "none"])
        .args(["--delay", &DELAY.to_string(), "--timeout", "5"])
        .args(extra)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    (json, out.status.code().unwrap(), stderr)
}

#[test]
fn discovery_finds_the_copies_on_twelve_sites_including_those_the_search_engine_never_saw() {
    let dir = imported_works();
    let web = fake_web();
    zhiwen(dir.path()).args(["allow", "add", "127.0.0.40"]).args(["--note", "licensed partner"]).assert().success();
    let started = Instant::now();
    let (json, code, stderr) = discover(dir.path(), &web, &["聊斋志异", "--allow-private"]);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(code, 0, "{stderr}");

    let copies = json["copies"].as_array().unwrap();
    let found: HashSet<String> =
        copies.iter().filter(|c| c["licensed"] == false).map(|c| c["url"].as_str().unwrap().to_string()).collect();
    // Only planted copies are reported: no filler, no licensed page, nothing else.
    let wrong: Vec<&String> = found.iter().filter(|u| !web.planted.contains(*u)).collect();
    assert!(wrong.is_empty(), "reported as piracy but not a copy: {wrong:?}");
    let recall = found.len() as f64 / web.planted.len() as f64;
    assert!(recall >= 0.95, "recall {recall:.3}: {} of {}", found.len(), web.planted.len());
    let unindexed_found = web.unindexed.iter().filter(|u| found.contains(*u)).count();
    assert!(
        unindexed_found as f64 >= 0.95 * web.unindexed.len() as f64,
        "{unindexed_found} of {} copies the search engine never indexed",
        web.unindexed.len()
    );
    // Every way in was used: contents pages, sitemaps and site search.
    let by: HashSet<&str> = copies.iter().map(|c| c["found_by"].as_str().unwrap()).collect();
    for way in ["search", "contents", "sitemap", "site-search"] {
        assert!(by.contains(way), "no copy found by {way}: {by:?}");
    }
    // The licensed site's copies are counted apart, and only there.
    let licensed: HashSet<&str> =
        copies.iter().filter(|c| c["licensed"] == true).map(|c| c["url"].as_str().unwrap()).collect();
    assert!(!licensed.is_empty());
    assert!(licensed.iter().all(|u| web.licensed_copies.contains(*u)), "{licensed:?}");
    let work = &json["works"][0];
    assert_eq!(work["work"], "聊斋志异");
    assert_eq!(work["chapters"], 16);
    assert_eq!(work["copies"].as_u64().unwrap() as usize, found.len());
    assert_eq!(work["licensed"].as_u64().unwrap() as usize, licensed.len());
    assert_eq!(work["sites"].as_array().unwrap().len(), 12);
    assert!(work["queries"].as_u64().unwrap() <= 48, "3 per chapter at most");
    // The 429 was waited out, and the engine that did not answer is reported.
    assert!(json["search_errors"].as_array().unwrap().is_empty(), "{json}");
    assert_eq!(json["unresponsive_engines"][0], "sogou: timeout");

    // Politeness on every host: robots.txt read once, nothing it forbids asked for, and
    // never two requests within the delay (the Crawl-delay where one is set).
    for (i, host) in web.hosts.iter().enumerate() {
        let log = host.log.lock().unwrap().clone();
        assert_eq!(log.iter().filter(|(p, _)| p == "/robots.txt").count(), 1, "host {i}: {log:?}");
        assert!(!log.iter().any(|(p, _)| p.starts_with("/admin/")));
        if i == 1 {
            assert!(!log.iter().any(|(p, _)| p == "/read/101_4.html"), "a forbidden chapter was requested");
        }
        let delay = if i == 5 { CRAWL_DELAY } else { DELAY };
        let mut times: Vec<Instant> = log.iter().map(|(_, t)| *t).collect();
        times.sort();
        for pair in times.windows(2) {
            let gap = pair[1].duration_since(pair[0]).as_secs_f64();
            assert!(gap >= delay * 0.9, "host {i}: two requests {gap:.3} s apart (delay {delay})");
        }
    }
    // Licensed sites are not crawled beyond their search results.
    let licensed_log = web.licensed.log.lock().unwrap().clone();
    assert!(licensed_log.iter().all(|(p, _)| p == "/robots.txt" || p.starts_with("/licensed/")));

    let queries = json["queries"].as_u64().unwrap() as f64;
    let pages = json["pages_fetched"].as_u64().unwrap() as f64;
    println!(
        "discovery: {} hosts, {} planted copies ({} never indexed), found {} (recall {recall:.3}; never indexed {unindexed_found}), \
         {queries} queries ({:.3} per copy), {pages} pages fetched ({:.2} per copy), {seconds:.1} s, search requests {}",
        web.hosts.len(),
        web.planted.len(),
        web.unindexed.len(),
        found.len(),
        queries / found.len() as f64,
        pages / found.len() as f64,
        web.search.log.lock().unwrap().len()
    );
    let _ = &web.work;

    // The findings library keeps every verified copy, and stats count them per site.
    let out = zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap();
    let findings: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(findings.as_array().unwrap().len() >= found.len());
    // A licensed copy never goes into a notice.
    let licensed_finding = copies.iter().find(|c| c["licensed"] == true).unwrap()["finding_id"].to_string();
    let notice = zhiwen(dir.path()).args(["notice", &licensed_finding]).output().unwrap();
    assert_eq!(notice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&notice.stderr).contains("is on a licensed site"));
    let again = zhiwen(dir.path()).args(["allow", "list", "--json"]).output().unwrap();
    let allowed: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(allowed[0]["note"], "licensed partner");
}

#[test]
fn addresses_off_the_public_web_are_refused_unless_allowed() {
    let dir = imported_works();
    let web = fake_web();
    let (json, code, stderr) = discover(dir.path(), &web, &["--all", "--max-queries", "6"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(json["copies"].as_array().unwrap().is_empty(), "{json}");
    let errors = json["errors"].as_array().unwrap();
    assert!(!errors.is_empty());
    assert!(errors.iter().all(|e| e.as_str().unwrap().contains("loopback, private or link-local")), "{errors:?}");
    // Not one request reached a site.
    for host in web.hosts.iter().chain([&web.licensed]) {
        assert!(host.log.lock().unwrap().is_empty(), "{} was asked", host.base);
    }
    // The query budget was said.
    assert!(json["limits"].as_array().unwrap().iter().any(|l| l.as_str().unwrap().contains("query budget (6)")));
}

#[test]
fn a_site_limit_reached_is_reported_never_silent() {
    let dir = imported_works();
    let web = fake_web();
    let (json, _, stderr) =
        discover(dir.path(), &web, &["聊斋志异", "--allow-private", "--max-site-pages", "4", "--max-queries", "4"]);
    let limits: Vec<&str> = json["limits"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert!(limits.iter().any(|l| l.contains("pages per site (4) reached")), "{limits:?}\n{stderr}");
    for host in &web.hosts {
        let pages = host.log.lock().unwrap().iter().filter(|(p, _)| p != "/robots.txt").count();
        assert!(pages <= 4 + 3, "{}: {pages} pages", host.base);
    }
}

#[test]
fn check_follow_reads_a_contents_page_over_two_pages_and_chapters_outside_its_folder() {
    let dir = imported_works();
    let web = fake_web();
    // Host 0: contents over two pages; host 1: chapters outside the contents folder.
    for (i, book) in [(0, "/book/100/"), (1, "/book/101/")] {
        let base = &web.hosts[i].base;
        let out = zhiwen(dir.path())
            .args(["check", "--json", "--proxy", "none", "--delay", "0.01", "--follow"])
            .arg(format!("{base}{book}"))
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let copying = json["suspects"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["sources"].as_array().is_some_and(|a| !a.is_empty()))
            .count();
        let planted = web.planted.iter().filter(|u| u.starts_with(base.as_str())).count();
        assert_eq!(copying, planted, "host {i}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A page limit cuts the chapters and says so.
    let out = zhiwen(dir.path())
        .args(["check", "--json", "--proxy", "none", "--delay", "0.01", "--follow", "--max-pages", "5"])
        .arg(format!("{}/book/100/", web.hosts[0].base))
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the page limit (5) was reached"));
    // A contents page that answers 404 is an error, not zeros.
    let out = zhiwen(dir.path())
        .args(["check", "--json", "--proxy", "none", "--follow"])
        .arg(format!("{}/no/such/book/", web.hosts[0].base))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("HTTP 404"));
}

/// `watch add --discover`: a scheduled discovery runs with `watch run --due`, turns each
/// pirate site it finds into a site watch of its own, and looks only at recent results when
/// it runs again.
#[test]
fn a_scheduled_discovery_runs_when_due_and_watches_the_sites_it_finds() {
    let dir = imported_works();
    let web = fake_web();
    zhiwen(dir.path()).args(["allow", "add", "127.0.0.40"]).assert().success();
    let (hook, posted, _hook_server) = crate::alerts::webhook();
    zhiwen(dir.path()).args(["alerts", "set", "--webhook", &hook]).assert().success();
    zhiwen(dir.path())
        .args(["watch", "add", "--discover", "聊斋志异", "--searx", &web.search.base, "--watch-new-sites"])
        .args(["--max-queries", "6", "--every", "daily"])
        .assert()
        .success();
    let run = |now: &str| {
        let out = zhiwen(dir.path())
            .args(["watch", "run", "--due", "--json", "--allow-private", "--proxy", "none", "--delay", "0.02"])
            .args(["--now", now])
            .timeout(Duration::from_secs(300))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (serde_json::from_str::<serde_json::Value>(&stdout).unwrap_or(serde_json::Value::Null), out)
    };
    let (runs, out) = run("1793491200");
    assert!(out.status.code().unwrap() < 2, "{}", String::from_utf8_lossy(&out.stderr));
    let report = &runs[0]["report"];
    assert_eq!(report["queries"], 6, "{report}");
    let copies = report["copies"].as_array().unwrap();
    assert!(!copies.is_empty());
    assert!(copies.iter().filter(|c| c["licensed"] == false).all(|c| web.planted.contains(c["url"].as_str().unwrap())));
    // The copies found were alerted, in one digest for the discovery.
    let digests: Vec<serde_json::Value> =
        posted.lock().unwrap().iter().map(|b| serde_json::from_str(b).unwrap()).collect();
    let ours: Vec<&serde_json::Value> = digests
        .iter()
        .filter(|d| d["digest"]["source"].as_str().unwrap().starts_with("discovery of 聊斋志异"))
        .collect();
    assert_eq!(ours.len(), 1, "{digests:?}");
    assert_eq!(
        ours[0]["digest"]["new"].as_array().unwrap().len(),
        copies.iter().filter(|c| c["licensed"] == false).count()
    );
    // Every pirate site found is now a site watch of its own.
    let sites: Vec<&serde_json::Value> =
        report["sites"].as_array().unwrap().iter().filter(|s| s["licensed"] == false).collect();
    assert!(!sites.is_empty());
    assert!(sites.iter().all(|s| s["watch_id"].is_i64()), "{report}");
    let list: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["watch", "list", "--json"]).output().unwrap().stdout).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.iter().filter(|w| w["discover"] == true).count(), 1);
    assert!(list.iter().filter(|w| w["url"].is_string()).count() >= sites.len());

    // An hour later nothing is due; a day later it runs again, asking only for the last day.
    let asked_before = web.search.log.lock().unwrap().len();
    let (quiet, _) = run("1793494800");
    assert!(quiet.as_array().is_none_or(|a| a.iter().all(|r| r.get("discovery_watch").is_none())), "{quiet}");
    assert_eq!(web.search.log.lock().unwrap().len(), asked_before, "not due: no query");
    run("1793577600");
    let log = web.search.log.lock().unwrap();
    assert!(log.len() > asked_before);
    assert!(log[asked_before..].iter().all(|(q, _)| q.contains("time_range=day")), "{:?}", &log[asked_before..]);
}
