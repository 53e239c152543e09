//! Watching over time against a pirate site served on 127.0.0.1 that changes between runs:
//! a chapter added, one taken down, one put up again under another address. Days are
//! simulated with `watch run --now`.

use crate::util::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const DAY: i64 = 86_400;
/// 2026-11-01 00:00 UTC.
const T0: i64 = 1_793_491_200;

/// A site whose pages the test changes: path → HTML (UTF-8). Anything else is a 404.
struct ChangingSite {
    base: String,
    pages: Arc<Mutex<HashMap<String, String>>>,
    requests: Arc<Mutex<Vec<String>>>,
    _server: Arc<tiny_http::Server>,
}

impl ChangingSite {
    fn start() -> ChangingSite {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let base = format!("http://127.0.0.1:{}", server.server_addr().to_ip().unwrap().port());
        let pages: Arc<Mutex<HashMap<String, String>>> = Arc::default();
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        let (srv, p, log) = (server.clone(), pages.clone(), requests.clone());
        std::thread::spawn(move || {
            for request in srv.incoming_requests() {
                let path = request.url().to_string();
                log.lock().unwrap().push(path.clone());
                let page = p.lock().unwrap().get(&path).cloned();
                let _ = match page {
                    Some(html) => request.respond(tiny_http::Response::from_string(html).with_header(
                        tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"text/html; charset=utf-8"[..]).unwrap(),
                    )),
                    None => request.respond(tiny_http::Response::from_string("not here").with_status_code(404)),
                };
            }
        });
        ChangingSite { base, pages, requests, _server: server }
    }

    /// Puts `chapters` (file name in the fixture corpus, or None for an original text) at
    /// `/book/<n>.html` and lists them on `/book/`.
    fn publish(&self, chapters: &[(&str, Option<&str>)]) {
        let mut pages = self.pages.lock().unwrap();
        pages.clear();
        let mut toc = String::from("<html><head><title>全本小说网</title></head><body><ul>");
        for (name, chapter) in chapters {
            toc += &format!("<li><a href=\"{name}.html\">{name}</a></li>");
            let text = match chapter {
                Some(file) => read_text(&corpus_dir().join(file)),
                None => "这一页是本站自己写的公告，与任何小说都没有关系。".repeat(40),
            };
            let body = text.replace('\n', "<br>");
            pages.insert(
                format!("/book/{name}.html"),
                format!("<html><body><div class=\"ad\">最新网址 www.pirate.example</div><div id=\"content\">{body}</div></body></html>"),
            );
        }
        pages.insert("/book/".into(), toc + "</ul></body></html>");
    }

    fn url(&self, name: &str) -> String {
        format!("{}/book/{name}.html", self.base)
    }
}

/// `watch run` with fast web settings at `now`; the JSON of the runs.
fn run_at(dir: &std::path::Path, now: i64, due: bool) -> serde_json::Value {
    let mut cmd = zhiwen(dir);
    cmd.args(["watch", "run", "--json", "--proxy", "none", "--delay", "0.05", "--timeout", "5"])
        .args(["--now", &now.to_string()]);
    if due {
        cmd.arg("--due");
    }
    let out = cmd.timeout(Duration::from_secs(120)).output().unwrap();
    assert!(out.status.code().unwrap() < 2, "{}", String::from_utf8_lossy(&out.stderr));
    if out.stdout.is_empty() {
        return serde_json::json!([]);
    }
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn urls(changes: &serde_json::Value, what: &str) -> Vec<String> {
    let mut urls: Vec<String> =
        changes[what].as_array().unwrap().iter().map(|c| c["url"].as_str().unwrap().to_string()).collect();
    urls.sort();
    urls
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn add_watch(dir: &std::path::Path, url: &str) {
    let out = zhiwen(dir).args(["watch", "add", "--follow", "--label", "全本小说网", url]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn runs_report_new_gone_back_and_still_online_copies_and_only_due_watches_run() {
    let dir = imported();
    let site = ChangingSite::start();
    site.publish(&[
        ("1", Some("sanguoyanyi_000.txt")),
        ("2", Some("sanguoyanyi_001.txt")),
        ("3", Some("xiyouji_000.txt")),
        ("about", None),
    ]);
    add_watch(dir.path(), &format!("{}/book/", site.base));

    // Day 0: every copying chapter is new; the site's own page is no copy.
    let runs = run_at(dir.path(), T0, true);
    let changes = &runs[0]["changes"];
    assert_eq!(urls(changes, "new"), sorted(vec![site.url("1"), site.url("2"), site.url("3")]), "{changes}");
    assert_eq!(urls(changes, "gone"), Vec::<String>::new());

    // An hour later nothing is due (daily), and nothing is fetched.
    let before = site.requests.lock().unwrap().len();
    assert_eq!(run_at(dir.path(), T0 + 3600, true), serde_json::json!([]));
    assert_eq!(site.requests.lock().unwrap().len(), before, "a watch that is not due fetches nothing");

    // Day 1: a chapter added, one taken down (404, and no longer listed).
    site.publish(&[
        ("1", Some("sanguoyanyi_000.txt")),
        ("3", Some("xiyouji_000.txt")),
        ("4", Some("hongloumeng_000.txt")),
        ("about", None),
    ]);
    let robots = || site.requests.lock().unwrap().iter().filter(|p| p.as_str() == "/robots.txt").count();
    let robots_before = robots();
    let runs = run_at(dir.path(), T0 + DAY, true);
    // robots.txt is read once in a run, the known copy asked again included.
    assert_eq!(robots() - robots_before, 1);
    let changes = &runs[0]["changes"];
    assert_eq!(urls(changes, "new"), vec![site.url("4")], "{changes}");
    assert_eq!(urls(changes, "gone"), vec![site.url("2")], "{changes}");
    assert!(changes["gone"][0]["detail"].as_str().unwrap().contains("HTTP 404"), "{changes}");
    assert_eq!(urls(changes, "still_online"), sorted(vec![site.url("1"), site.url("3")]));
    assert_eq!(urls(changes, "back"), Vec::<String>::new());

    // A notice is sent for chapter 1 (its finding) and for the one taken down.
    let findings: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    let finding_of = |url: &str| {
        findings.as_array().unwrap().iter().find(|f| f["target"] == url).unwrap()["id"].as_i64().unwrap().to_string()
    };
    let out = zhiwen(dir.path())
        .args(["findings", "notice-sent", &finding_of(&site.url("1")), &finding_of(&site.url("2"))])
        .args(["--to", "abuse@pirate.example", "--on", "2026-11-02"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // Day 3: the chapter taken down is back under another address; chapter 3 now holds
    // the site's own text (no longer a copy).
    site.publish(&[
        ("1", Some("sanguoyanyi_000.txt")),
        ("2b", Some("sanguoyanyi_001.txt")),
        ("3", None),
        ("4", Some("hongloumeng_000.txt")),
    ]);
    let runs = run_at(dir.path(), T0 + 3 * DAY, true);
    let changes = &runs[0]["changes"];
    assert_eq!(urls(changes, "new"), Vec::<String>::new(), "{changes}");
    assert_eq!(urls(changes, "back"), vec![site.url("2b")], "{changes}");
    assert!(changes["back"][0]["detail"].as_str().unwrap().contains(&site.url("2")), "{changes}");
    // It inherits the notice sent for the old address.
    assert_eq!(changes["back"][0]["notice_to"], "abuse@pirate.example");
    assert_eq!(urls(changes, "gone"), vec![site.url("3")]);
    assert!(changes["gone"][0]["detail"].as_str().unwrap().contains("no longer copies"));
    assert_eq!(urls(changes, "still_online"), sorted(vec![site.url("1"), site.url("4")]));
    let one = changes["still_online"].as_array().unwrap().iter().find(|c| c["url"] == site.url("1")).unwrap();
    assert_eq!(one["notice_sent_at"], T0 + DAY, "{one}");

    // The human-readable run says how long since the notice.
    site.publish(&[
        ("1", Some("sanguoyanyi_000.txt")),
        ("2b", Some("sanguoyanyi_001.txt")),
        ("4", Some("hongloumeng_000.txt")),
    ]);
    let out = zhiwen(dir.path())
        .args(["watch", "run", "--proxy", "none", "--delay", "0.05", "--now", &(T0 + 5 * DAY).to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "still online  {}  [notice sent 2026-11-02 00:00 to abuse@pirate.example: 4 days ago]",
            site.url("1")
        )),
        "{text}"
    );

    // Findings carry the status: the page taken down is gone (since day 1), with its notice.
    let findings: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    let two = findings.as_array().unwrap().iter().find(|f| f["target"] == site.url("2")).unwrap();
    assert_eq!(two["tracking"]["status"], "gone");
    assert_eq!(two["tracking"]["gone_at"], T0 + DAY);
    assert_eq!(two["tracking"]["notice_to"], "abuse@pirate.example");
}

#[test]
fn a_run_killed_midway_changes_no_status_and_the_next_run_completes() {
    let dir = imported();
    let site = ChangingSite::start();
    site.publish(&[
        ("1", Some("sanguoyanyi_000.txt")),
        ("2", Some("sanguoyanyi_001.txt")),
        ("3", Some("xiyouji_000.txt")),
    ]);
    add_watch(dir.path(), &format!("{}/book/", site.base));
    assert_eq!(urls(&run_at(dir.path(), T0, true)[0]["changes"], "new").len(), 3);

    // Day 1: chapter 2 is taken down; the run is killed after its first pages.
    site.publish(&[("1", Some("sanguoyanyi_000.txt")), ("3", Some("xiyouji_000.txt"))]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("zhiwen"))
        .env("ZHIWEN_DB", dir.path().join("corpus.sqlite"))
        .args(["watch", "run", "--due", "--proxy", "none", "--delay", "1", "--now", &(T0 + DAY).to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while site.requests.lock().unwrap().iter().filter(|p| p.ends_with(".html")).count() < 5 {
        assert!(start.elapsed() < Duration::from_secs(30), "the run never fetched a chapter");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    // Nothing moved: the store is whole, every copy still online, the watch still due;
    // doctor names the run that died, and the pages it checked before the kill are kept.
    let doctor = zhiwen(dir.path()).arg("doctor").output().unwrap();
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(doctor.status.success(), "{said}");
    assert!(said.contains("never finished (killed, crashed, or still running)"), "{said}");
    // Chapter 1 was fetched, checked and recorded before chapter 3 was asked for (a second
    // apart): its capture of day 1 is in the findings library although the run died.
    let kept: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    let one = kept.as_array().unwrap().iter().find(|f| f["target"] == site.url("1")).unwrap();
    assert_eq!(one["captures"], 2, "day 0 and day 1: {one}");
    let list: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["watch", "list", "--json"]).output().unwrap().stdout).unwrap();
    assert_eq!(list[0]["last_run_at"], T0);
    let findings: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    assert!(findings.as_array().unwrap().iter().all(|f| f["tracking"]["status"] == "online"), "{findings}");

    // The next run completes and reports the change.
    let changes = &run_at(dir.path(), T0 + DAY, true)[0]["changes"];
    assert_eq!(urls(changes, "gone"), vec![site.url("2")], "{changes}");
    assert_eq!(urls(changes, "still_online").len(), 2);
}

/// A corpus document whose title is hostile (markup, a right-to-left override, a bell),
/// with a text of its own (a classic chapter reversed), and its path.
fn hostile_work(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let body: String = read_text(&corpus_dir().join("hongloumeng_000.txt")).chars().rev().collect();
    let title = "<script>alert(1)</script>\u{202e}txt.exe\u{7} 第九回";
    let path = dir.join("works").join("evil.txt");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("{title}\n{body}")).unwrap();
    (path, body)
}

#[test]
fn stats_agree_with_the_findings_and_notices_and_the_summary_carry_every_element_escaped() {
    let dir = imported();
    let (evil, evil_body) = hostile_work(dir.path());
    assert!(zhiwen(dir.path()).arg("import").arg(&evil).output().unwrap().status.success());
    let site = ChangingSite::start();
    site.publish(&[
        ("1", Some("sanguoyanyi_000.txt")),
        ("2", Some("sanguoyanyi_001.txt")),
        ("3", Some("xiyouji_000.txt")),
    ]);
    site.pages.lock().unwrap().insert("/book/9.html".into(), format!("<html><body>{evil_body}</body></html>"));
    site.pages.lock().unwrap().get_mut("/book/").unwrap().push_str("<a href=\"9.html\">9</a>");
    add_watch(dir.path(), &format!("{}/book/", site.base));
    // The same server under another name is another site: one page, a single-page watch.
    let other = format!("{}/book/1.html", site.base.replace("127.0.0.1", "localhost"));
    assert!(zhiwen(dir.path()).args(["watch", "add", &other]).output().unwrap().status.success());
    let runs = run_at(dir.path(), T0, true);
    assert_eq!(runs.as_array().unwrap().len(), 2);
    site.publish(&[("1", Some("sanguoyanyi_000.txt")), ("3", Some("xiyouji_000.txt"))]);
    run_at(dir.path(), T0 + DAY, true);

    // Recompute per work and per site from the findings table alone.
    let json = |args: &[&str]| -> serde_json::Value {
        let out = zhiwen(dir.path()).args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let findings = json(&["findings", "--json"]);
    let stats = json(&["stats", "--json"]);
    let tracked: Vec<&serde_json::Value> =
        findings.as_array().unwrap().iter().filter(|f| !f["tracking"].is_null()).collect();
    let host = |url: &str| url.split('/').nth(2).unwrap().split(':').next().unwrap().to_string();
    // Latest finding per page (findings are newest first).
    let mut latest: HashMap<String, &serde_json::Value> = HashMap::new();
    for f in &tracked {
        latest.entry(f["target"].as_str().unwrap().to_string()).or_insert(f);
    }
    let works = json(&["works", "list", "--json"]);
    for w in stats["works"].as_array().unwrap() {
        let work = works.as_array().unwrap().iter().find(|x| x["id"] == w["work_id"]).unwrap();
        assert_eq!(w["title"], work["title"]);
        let docs: Vec<u64> = work["documents"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).collect();
        let pages: Vec<&String> = latest
            .iter()
            .filter(|(_, f)| f["sources"].as_array().unwrap().iter().any(|s| docs.contains(&s[0].as_u64().unwrap())))
            .map(|(url, _)| url)
            .collect();
        let sites: std::collections::BTreeSet<String> = pages.iter().map(|u| host(u)).collect();
        assert_eq!(w["pages"].as_u64().unwrap() as usize, pages.len(), "{w}");
        assert_eq!(w["sites"].as_u64().unwrap() as usize, sites.len(), "{w}");
    }
    // 三国演义: its two chapters on one site (one since gone) and its first on the other: one
    // work, not two, with both chapters counted.
    let sanguo = stats["works"].as_array().unwrap().iter().find(|w| w["title"] == "三国演义").unwrap();
    assert_eq!((sanguo["pages"].as_u64(), sanguo["sites"].as_u64()), (Some(3), Some(2)), "{sanguo}");
    assert_eq!(sanguo["chapters"].as_u64(), Some(2), "{sanguo}");
    assert_eq!(stats["works"].as_array().unwrap().len(), 3, "三国演义, 西游记 and the hostile one: {stats}");
    for s in stats["sites"].as_array().unwrap() {
        let mine: Vec<_> = latest.iter().filter(|(u, _)| host(u) == s["host"]).collect();
        let online = mine.iter().filter(|(_, f)| f["tracking"]["status"] == "online").count();
        assert_eq!(s["pages"].as_u64().unwrap() as usize, mine.len(), "{s}");
        assert_eq!(s["online"].as_u64().unwrap() as usize, online, "{s}");
    }
    assert_eq!(stats["sites"].as_array().unwrap().len(), 2);
    // Per day: five new on day 0 (four chapters and the other site's page), none after;
    // two gone on day 1 (chapters 2 and 9 were not published again).
    let days = stats["days"].as_array().unwrap();
    assert_eq!(days[0]["day"], "2026-11-01");
    assert_eq!((days[0]["new"].as_u64(), days[0]["online"].as_u64()), (Some(5), Some(5)), "{days:?}");
    assert_eq!((days[1]["new"].as_u64(), days[1]["online"].as_u64()), (Some(0), Some(3)), "{days:?}");

    // The summary report: tables, the chart, and the hostile title escaped.
    let summary = dir.path().join("summary.html");
    let out = zhiwen(dir.path()).args(["stats", "--html"]).arg(&summary).output().unwrap();
    assert!(out.status.success());
    let html = std::fs::read_to_string(&summary).unwrap();
    assert!(html.contains("<svg") && html.contains("<polyline"), "the chart is drawn");
    assert!(html.contains("Per work") && html.contains("Per site") && html.contains("localhost"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !html.contains("<script>"));
    let csv = String::from_utf8(zhiwen(dir.path()).args(["stats", "--csv"]).output().unwrap().stdout).unwrap();
    assert!(csv.starts_with("\u{feff}works,doc_id") && csv.contains("\nsites,host") && csv.contains("\ndays,day"));

    // Notices for the pages of one site, with the rights holder set once.
    let out = zhiwen(dir.path())
        .args([
            "holder",
            "--name",
            "长江文艺出版社",
            "--address",
            "武汉市雄楚大街268号",
            "--email",
            "rights@example.com",
        ])
        .args(["--phone", "+86 27 8767 9300", "--signatory", "王律师"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let id_of = |url: &str| latest[url]["id"].as_i64().unwrap().to_string();
    let (one, evil_page) = (site.url("1"), site.url("9"));
    let notice = |kind: &str, ids: &[String]| {
        let out = zhiwen(dir.path()).args(["notice", "--kind", kind]).args(ids).output().unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status,
        )
    };
    let ids = [id_of(&one), id_of(&evil_page)];
    let (dmca, _, status) = notice("dmca", &ids);
    assert!(status.success());
    for element in [
        "17 U.S.C. § 512(c)(3)",
        "(A)(i)",
        "(A)(ii)",
        "(A)(iii)",
        "(A)(iv)",
        "(A)(v)",
        "(A)(vi)",
        "   - \"三国演义\" by 罗贯中",
        "copies \"三国演义\" (第一回　宴桃园豪杰三结义　斩黄巾英雄首立功)",
        &one,
        &evil_page,
        "长江文艺出版社",
        "武汉市雄楚大街268号",
        "rights@example.com",
        "+86 27 8767 9300",
        "I have a good faith belief that use of the material in the manner complained of is not authorized",
        "The information in this notification is accurate, and under penalty of perjury",
        "authorized to act on behalf of the owner",
        "/王律师/",
        "evidence-",
        "SHA-256",
        "To: the designated copyright agent of 127.0.0.1",
    ] {
        assert!(dmca.contains(element), "DMCA notice lacks {element:?}:\n{dmca}");
    }
    let (cn, _, status) = notice("cn", &ids);
    assert!(status.success());
    for element in [
        "《信息网络传播权保护条例》第十四条",
        "《中华人民共和国民法典》第一千一百九十五条",
        "真实身份信息：【营业执照或身份证件复印件，随附】",
        "权利人名称：长江文艺出版社",
        "联系方式：电话 +86 27 8767 9300；电子邮箱 rights@example.com",
        "地址：武汉市雄楚大街268号",
        "作品名称：《三国演义》（罗贯中 著）第一回　宴桃园豪杰三结义　斩黄巾英雄首立功",
        &format!("侵权网络地址：{one}"),
        "构成侵权的初步证明材料",
        &format!("evidence-{}.zip", id_of(&one)),
        "权利人对本通知书的真实性负责",
        "权利人（签名或盖章）：长江文艺出版社",
    ] {
        assert!(cn.contains(element), "通知书 lacks {element:?}:\n{cn}");
    }
    // The hostile title reaches both as one line of visible text.
    for text in [&dmca, &cn] {
        assert!(text.contains("<script>alert(1)</script>txt.exe 第九回"), "{text}");
        assert!(!text.contains('\u{202e}') && !text.contains('\u{7}'));
    }
    // One site per notice.
    let (_, err, status) = notice("dmca", &[id_of(&one), id_of(&other)]);
    assert!(!status.success() && err.contains("2 sites"), "{err}");

    // Written with the evidence packages beside it.
    let out_dir = dir.path().join("notice");
    let out = zhiwen(dir.path()).args(["notice", "--kind", "cn", "--out"]).arg(&out_dir).args(&ids).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(out_dir.join("notice-cn.txt")).unwrap(), cn);
    for id in &ids {
        assert!(out_dir.join(format!("evidence-{id}.zip")).is_file());
    }
}

/// A chapter moved to another address between two runs, with its old address no longer
/// listed and answering 404 in the same run: the copy is back under the new address,
/// carrying the notice sent for the old one, not a new copy.
#[test]
fn a_chapter_moved_within_one_run_is_back_with_its_notice() {
    let dir = imported();
    let site = ChangingSite::start();
    site.publish(&[("1", Some("sanguoyanyi_000.txt")), ("2", Some("sanguoyanyi_001.txt"))]);
    add_watch(dir.path(), &format!("{}/book/", site.base));
    assert_eq!(urls(&run_at(dir.path(), T0, true)[0]["changes"], "new").len(), 2);
    let findings: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    let two = findings.as_array().unwrap().iter().find(|f| f["target"] == site.url("2")).unwrap()["id"].to_string();
    zhiwen(dir.path()).args(["findings", "notice-sent", &two, "--to", "abuse@pirate.example"]).assert().success();

    site.publish(&[("1", Some("sanguoyanyi_000.txt")), ("2-moved", Some("sanguoyanyi_001.txt"))]);
    let changes = &run_at(dir.path(), T0 + DAY, true)[0]["changes"];
    assert_eq!(urls(changes, "new"), Vec::<String>::new(), "{changes}");
    assert_eq!(urls(changes, "back"), vec![site.url("2-moved")], "{changes}");
    assert_eq!(changes["back"][0]["notice_to"], "abuse@pirate.example", "{changes}");
    assert_eq!(urls(changes, "gone"), vec![site.url("2")], "{changes}");
}

/// When each request of a site arrived, by path.
pub(crate) type RequestLog = Arc<Mutex<Vec<(String, std::time::Instant)>>>;

/// A site on `ip` serving a contents page at /book/ listing `chapters` (name, corpus file),
/// each chapter answered after `latency`; logs when each request arrived.
pub(crate) fn slow_site(
    ip: &str,
    chapters: &[(&str, &str)],
    latency: Duration,
) -> (String, RequestLog, Arc<tiny_http::Server>) {
    let mut pages: HashMap<String, String> = HashMap::new();
    let links: String = chapters.iter().map(|(n, _)| format!("<a href=\"/book/{n}.html\">第{n}章</a>")).collect();
    pages.insert("/book/".into(), format!("<html><body>{links}</body></html>"));
    for (n, file) in chapters {
        let text = read_text(&corpus_dir().join(file));
        pages.insert(
            format!("/book/{n}.html"),
            format!("<html><body><p>{}</p></body></html>", text.replace('\n', "</p><p>")),
        );
    }
    serve_pages(ip, pages, latency)
}

/// A site on `ip` answering `pages` (path → HTML), each `.html` page after `latency`, any
/// other path with 404; logs when each request arrived. Returns its base URL.
fn serve_pages(
    ip: &str,
    pages: HashMap<String, String>,
    latency: Duration,
) -> (String, RequestLog, Arc<tiny_http::Server>) {
    let server = Arc::new(tiny_http::Server::http(format!("{ip}:0")).unwrap());
    let base = format!("http://{ip}:{}", server.server_addr().to_ip().unwrap().port());
    let log: RequestLog = Arc::default();
    let (srv, got) = (server.clone(), log.clone());
    std::thread::spawn(move || {
        for request in srv.incoming_requests() {
            let path = request.url().to_string();
            got.lock().unwrap().push((path.clone(), std::time::Instant::now()));
            let page = pages.get(&path).cloned();
            std::thread::spawn(move || {
                let response = match page {
                    Some(body) => {
                        if path.ends_with(".html") {
                            std::thread::sleep(latency);
                        }
                        tiny_http::Response::from_string(body).with_header(
                            tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"text/html; charset=utf-8"[..])
                                .unwrap(),
                        )
                    }
                    None => tiny_http::Response::from_string("not here").with_status_code(404),
                };
                let _ = request.respond(response);
            });
        }
    });
    (base, log, server)
}

/// Watches of different hosts run at once: a slow site does not hold up a fast one.
#[test]
fn a_slow_site_does_not_hold_up_the_others() {
    let dir = imported();
    let (slow, slow_log, _s) = slow_site(
        "127.0.0.50",
        &[("1", "sanguoyanyi_000.txt"), ("2", "sanguoyanyi_001.txt"), ("3", "sanguoyanyi_002.txt")],
        Duration::from_millis(1500),
    );
    let (fast, fast_log, _f) = slow_site("127.0.0.51", &[("1", "xiyouji_000.txt")], Duration::ZERO);
    add_watch(dir.path(), &format!("{slow}/book/"));
    add_watch(dir.path(), &format!("{fast}/book/"));
    let runs = run_at(dir.path(), T0, true);
    assert_eq!(urls(&runs[0]["changes"], "new").len(), 3, "{runs}");
    assert_eq!(urls(&runs[1]["changes"], "new").len(), 1, "{runs}");
    let last = |log: &Arc<Mutex<Vec<(String, std::time::Instant)>>>| {
        log.lock().unwrap().iter().map(|(_, t)| *t).max().unwrap()
    };
    assert!(last(&fast_log) < last(&slow_log), "the fast site waited for the slow one");
}

/// An RDAP server (RFC 9083) on `ip` answering `/ip/<addr>` for any address with a network
/// whose abuse contact sits inside its registrant's entity; logs the paths asked.
fn rdap_server(ip: &str) -> (String, Arc<Mutex<Vec<String>>>, Arc<tiny_http::Server>) {
    let server = Arc::new(tiny_http::Server::http(format!("{ip}:0")).unwrap());
    let base = format!("http://{ip}:{}", server.server_addr().to_ip().unwrap().port());
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let (srv, asked) = (server.clone(), log.clone());
    std::thread::spawn(move || {
        for request in srv.incoming_requests() {
            let path = request.url().to_string();
            asked.lock().unwrap().push(path.clone());
            let Some(addr) = path.strip_prefix("/ip/") else {
                let _ = request.respond(tiny_http::Response::from_string("{}").with_status_code(404));
                continue;
            };
            let body = serde_json::json!({
                "rdapConformance": ["rdap_level_0"],
                "objectClassName": "ip network",
                "handle": "NET-127-0-0-0-1",
                "startAddress": "127.0.0.0", "endAddress": "127.255.255.255",
                "name": "PIRATE-HOSTING", "ipVersion": if addr.contains(':') { "v6" } else { "v4" },
                "entities": [{
                    "objectClassName": "entity", "handle": "PH-1", "roles": ["registrant"],
                    "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Pirate Hosting Ltd"],
                        ["email", {}, "text", "owner@pirate-hosting.example"]]],
                    "entities": [{
                        "objectClassName": "entity", "handle": "PH-ABUSE", "roles": ["abuse"],
                        "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Abuse desk"],
                            ["email", {"type": "work"}, "text", "abuse@pirate-hosting.example"]]]
                    }]
                }]
            });
            let _ = request.respond(tiny_http::Response::from_string(body.to_string()).with_header(
                tiny_http::Header::from_bytes(&b"Content-Type"[..], &b"application/rdap+json"[..]).unwrap(),
            ));
        }
    });
    (base, log, server)
}

/// `notice --find-recipients`: the site's contact page (linked as 联系我们 from its home page)
/// and the abuse contact of the hosting network's RDAP record, asked at the RDAP base given.
#[test]
fn a_notice_suggests_the_sites_contact_address_and_the_networks_abuse_desk() {
    let dir = imported();
    let site = ChangingSite::start();
    site.publish(&[("1", Some("sanguoyanyi_000.txt"))]);
    {
        let mut pages = site.pages.lock().unwrap();
        pages.insert(
            "/".into(),
            "<html><body><a href=\"/book/\">书库</a> <a href=\"/help/lx.html\">联系我们</a></body></html>".into(),
        );
        pages.insert(
            "/help/lx.html".into(),
            "<html><body><p>版权投诉请发送至 <a href=\"mailto:banquan@pirate.example\">banquan@pirate.example</a>。</p>\
             <img src=\"/img/logo@2x.png\"></body></html>"
                .into(),
        );
    }
    add_watch(dir.path(), &format!("{}/book/", site.base));
    assert_eq!(urls(&run_at(dir.path(), T0, true)[0]["changes"], "new").len(), 1);
    let findings: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    let id = findings[0]["id"].to_string();
    let (rdap, asked, _server) = rdap_server("127.0.0.2");

    for (kind, line) in [("dmca", "    suggested recipient: "), ("cn", "    建议收件人：")] {
        let out = zhiwen(dir.path())
            .args(["notice", &id, "--kind", kind, "--find-recipients", "--rdap", &rdap])
            .args(["--proxy", "none", "--delay", "0.05", "--timeout", "5"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let suggested: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix(line)).collect();
        assert_eq!(suggested.len(), 2, "{text}");
        assert!(suggested[0].starts_with("banquan@pirate.example"), "{text}");
        assert!(suggested[0].contains(&format!("contact page {}/help/lx.html", site.base)), "{text}");
        assert!(suggested[1].starts_with("abuse@pirate-hosting.example"), "{text}");
        assert!(suggested[1].contains("RDAP abuse contact of network PIRATE-HOSTING (127.0.0.1)"), "{text}");
        assert!(!text.contains("owner@pirate-hosting.example") && !text.contains("logo@2x"), "{text}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("suggested recipient: banquan@pirate.example"));
    }
    // Each run (one process) reads the RDAP server's robots.txt once, then asks for the address.
    assert_eq!(*asked.lock().unwrap(), ["/robots.txt", "/ip/127.0.0.1"].repeat(2));

    // Without the option nothing is looked up; an RDAP server that is down is one note.
    let plain = zhiwen(dir.path()).args(["notice", &id]).output().unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("suggested recipient"));
    let out = zhiwen(dir.path())
        .args(["notice", &id, "--find-recipients", "--rdap", "http://127.0.0.3:9/rdap"])
        .args(["--proxy", "none", "--delay", "0.05", "--timeout", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("RDAP lookup of 127.0.0.1"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("suggested recipient: banquan@pirate.example"));
}

/// `watch run --budget`: when the time is spent the run stops after the page in hand, keeps
/// what it checked, says so, and stays due; the next run completes it.
#[test]
fn a_run_over_its_time_budget_stops_keeps_its_pages_and_stays_due() {
    let dir = imported();
    let chapters = [("1", "sanguoyanyi_000.txt"), ("2", "sanguoyanyi_001.txt"), ("3", "sanguoyanyi_002.txt")];
    let (site, _log, _s) = slow_site("127.0.0.52", &chapters, Duration::from_millis(1200));
    add_watch(dir.path(), &format!("{site}/book/"));
    let out = zhiwen(dir.path())
        .args(["watch", "run", "--due", "--json", "--budget", "1.8", "--proxy", "none", "--delay", "0.05"])
        .args(["--now", &T0.to_string()])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("time budget spent: 0 watch runs finished, 1 stopped midway"), "{stderr}");
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(runs[0]["cancelled"], true, "{runs}");
    let findings = || -> usize {
        let out = zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap();
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap().as_array().unwrap().len()
    };
    let kept = findings();
    assert!((1..3).contains(&kept), "pages checked before the budget ran out are kept: {kept}");
    // Still due: the next run (no budget) checks every chapter.
    let runs = run_at(dir.path(), T0 + 60, true);
    assert_eq!(runs[0]["cancelled"], false, "{runs}");
    assert_eq!(runs[0]["pages"], 3, "{runs}");
    assert_eq!(findings(), 3);
}

/// Watches can be due every 5 minutes (a new chapter is copied within minutes); less is refused.
#[test]
fn a_watch_can_run_every_five_minutes_and_no_more_often() {
    let dir = imported();
    let add = |every: &str| {
        zhiwen(dir.path())
            .args(["watch", "add", "https://pirate.example/book/", "--follow", "--every", every])
            .output()
            .unwrap()
    };
    assert!(add("5m").status.success());
    let listed = zhiwen(dir.path()).args(["watch", "list"]).output().unwrap();
    assert!(String::from_utf8_lossy(&listed.stdout).contains("5m"), "{}", String::from_utf8_lossy(&listed.stdout));
    let refused = add("2m");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("between every 5 minutes and weekly"));
}

/// A site on `ip` whose first chapter is a long page (the copied chapter `long`, then the
/// filler lines pirates pad a page with, to `long_bytes`), then `chapters` of usual size.
fn site_with_a_long_page(
    ip: &str,
    long: &str,
    long_bytes: usize,
    chapters: &[&str],
) -> (String, RequestLog, Arc<tiny_http::Server>) {
    let paragraphs = |file: &str| format!("<p>{}</p>", read_text(&corpus_dir().join(file)).replace('\n', "</p><p>"));
    let mut pages: HashMap<String, String> = HashMap::new();
    let mut first = format!("<html><body><div id=\"content\">{}", paragraphs(long));
    while first.len() < long_bytes {
        first.push_str("<p>本站所有小说均来自网络，天才一秒记住本站地址。</p>\n");
    }
    pages.insert("/book/1.html".into(), first + "</div></body></html>");
    for (i, file) in chapters.iter().enumerate() {
        pages.insert(format!("/book/{}.html", i + 2), format!("<html><body>{}</body></html>", paragraphs(file)));
    }
    let links: String = (1..=chapters.len() + 1).map(|n| format!("<a href=\"/book/{n}.html\">第{n}章</a>")).collect();
    pages.insert("/book/".into(), format!("<html><body>{links}</body></html>"));
    let (base, log, server) = serve_pages(ip, pages, Duration::ZERO);
    (format!("{base}/book/"), log, server)
}

#[test]
fn long_pages_on_sites_watched_at_once_are_each_checked_and_asked_for_at_most_twice() {
    let dir = imported();
    // Three sites whose first chapter is a 4.5 MiB page: read in turn (over 1 MiB), decoded
    // as a stream of tokens (over 4 MiB) and checked in pieces (over 1 MiB of text).
    let long_bytes = 4_500_000;
    let sites: Vec<_> = [
        ("127.0.0.70", "sanguoyanyi_000.txt", ["sanguoyanyi_001.txt", "xiyouji_000.txt"]),
        ("127.0.0.71", "sanguoyanyi_001.txt", ["sanguoyanyi_002.txt", "sanguoyanyi_000.txt"]),
        ("127.0.0.72", "xiyouji_000.txt", ["sanguoyanyi_000.txt", "sanguoyanyi_002.txt"]),
    ]
    .into_iter()
    .map(|(ip, long, rest)| site_with_a_long_page(ip, long, long_bytes, &rest))
    .collect();
    for (url, _, _) in &sites {
        add_watch(dir.path(), url);
    }
    let out = zhiwen(dir.path())
        .args(["watch", "run", "--json", "--proxy", "none", "--delay", "0.2", "--timeout", "20", "--parallel", "3"])
        .args(["--now", &T0.to_string()])
        .timeout(Duration::from_secs(180))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings: serde_json::Value =
        serde_json::from_slice(&zhiwen(dir.path()).args(["findings", "--json"]).output().unwrap().stdout).unwrap();
    for (url, log, _) in &sites {
        let run = runs.as_array().unwrap().iter().find(|r| r["watch"]["url"].as_str() == Some(url.as_str()));
        let run = run.unwrap_or_else(|| panic!("{url} ran: {runs}"));
        assert_eq!(urls(&run["changes"], "new").len(), 3, "every chapter, the long one too, is a new copy: {run}");
        let long_url = format!("{url}1.html");
        let long = findings.as_array().unwrap().iter().find(|f| f["target"].as_str() == Some(long_url.as_str()));
        let long = long.unwrap_or_else(|| panic!("the long page is a finding: {findings}"));
        assert!(long["chars"].as_u64().unwrap() > 1_400_000, "{long}");
        assert_eq!(long["sources"].as_array().unwrap().len(), 1, "its one copied chapter: {long}");
        let asked = log.lock().unwrap().iter().filter(|(p, _)| p == "/book/1.html").count();
        assert!((1..=2).contains(&asked), "the long page asked for {asked} times (put off at most once)");
    }
}
