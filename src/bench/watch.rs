//! `zhiwen bench --only watch`: many watched pirate sites on loopback, each its own host
//! (127.0.1.x …), polite as a real run is (robots.txt read, one request at a time per host,
//! the 1 s delay between them), pages of a real chapter's size and a few of 15 MiB. It measures
//! a full run of every site (pages/s across hosts, peak memory) and, with a new chapter posted on
//! 20 of the sites, how long the next run takes to have checked it and sent its digest: with a
//! watch every 5 minutes, the alert comes at most that interval plus that run after the chapter.

use super::peak_rss;
use crate::engine::store::watch::NewWatch;
use crate::engine::web::check::WebCheckOptions;
use crate::engine::web::watch::{WatchRunReport, run_in_parallel};
use crate::{Cancel, CheckOptions, Corpus, ImportOptions, Result};
use serde_json::json;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// What the benchmark's sites look like.
#[derive(Clone, Debug)]
pub struct WatchBenchOptions {
    pub sites: usize,
    /// Chapters each site's contents page lists.
    pub chapters: usize,
    /// Sites checked at once.
    pub parallel: usize,
    /// Every this many sites, one chapter is a page of 15 MiB.
    pub big_every: usize,
}

/// One site: its chapters, whether its new chapter is up, and how many pages it served.
struct Site {
    base: String,
    new_chapter: Arc<AtomicBool>,
}

const BIG_PAGE: usize = 15 << 20;

/// Serves one site on `ip` until the process ends; counts every chapter page served.
fn serve(ip: &str, chapters: Arc<Vec<String>>, big: bool, served: Arc<AtomicUsize>) -> std::io::Result<Site> {
    let listener = TcpListener::bind((ip, 0))?;
    let base = format!("http://{ip}:{}", listener.local_addr()?.port());
    let new_chapter = Arc::new(AtomicBool::new(false));
    let posted = new_chapter.clone();
    let n = chapters.len();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            // The rest of the request's head.
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|read| read > 2) {
                header.clear();
            }
            let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
            let listed = if posted.load(Ordering::Relaxed) { n } else { n - 1 };
            let body: Vec<u8> = if path == "/robots.txt" {
                b"User-agent: *\nAllow: /\n".to_vec()
            } else if path == "/book/" {
                let links: String = (1..=listed).map(|k| format!("<a href=\"/book/{k}.html\">第{k}章</a>\n")).collect();
                format!("<html><head><meta charset=\"utf-8\"></head><body>{links}</body></html>").into_bytes()
            } else if let Some(k) = path
                .strip_prefix("/book/")
                .and_then(|p| p.strip_suffix(".html"))
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|k| (1..=listed).contains(k))
            {
                served.fetch_add(1, Ordering::Relaxed);
                let text = &chapters[k - 1];
                let mut page = String::from("<html><head><meta charset=\"utf-8\"></head><body>");
                if big && k == 1 {
                    // A 15 MiB page: the chapter, then filler lines a pirate pads with.
                    page.push_str(text);
                    while page.len() < BIG_PAGE {
                        page.push_str("<p>本站所有小说均来自网络，天才一秒记住本站地址。</p>\n");
                    }
                } else {
                    for l in text.lines().filter(|l| !l.trim().is_empty()) {
                        page.push_str("<p>");
                        page.push_str(l);
                        page.push_str("</p>\n");
                    }
                }
                page.push_str("</body></html>");
                page.into_bytes()
            } else {
                let _ =
                    (&stream).write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                continue;
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/{}; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                if path == "/robots.txt" { "plain" } else { "html" },
                body.len()
            );
            let _ = (&stream).write_all(head.as_bytes()).and_then(|()| (&stream).write_all(&body));
        }
    });
    Ok(Site { base, new_chapter })
}

/// The loopback address of site `i`: 127.0.1.1, 127.0.1.2, … (each address a host of its own).
fn site_ip(i: usize) -> String {
    format!("127.0.{}.{}", 1 + i / 250, 1 + i % 250)
}

pub fn watch_bench(
    data: &Path,
    scratch: &Path,
    opts: &WatchBenchOptions,
    emit: &dyn Fn(serde_json::Value),
) -> Result<()> {
    // The works: one novel's first chapters (the corpus), which every site copies.
    let book = data.join("zh-classics").join("xiyouji");
    let mut files: Vec<_> = std::fs::read_dir(&book)
        .map_err(|e| crate::Error::io(&book, e))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files.truncate(opts.chapters);
    let chapters: Arc<Vec<String>> =
        Arc::new(files.iter().map(|f| std::fs::read_to_string(f).unwrap_or_default()).collect());
    let db = scratch.join("watch.sqlite");
    let mut corpus = Corpus::open(&db)?;
    corpus.import(&files, &ImportOptions::default(), &|_| {}, &Cancel::new())?;

    let served = Arc::new(AtomicUsize::new(0));
    let mut sites = Vec::new();
    for i in 0..opts.sites {
        let big = opts.big_every > 0 && i % opts.big_every == 0;
        sites.push(serve(&site_ip(i), chapters.clone(), big, served.clone()).map_err(|e| crate::Error::io(&db, e))?);
    }
    let now = crate::engine::time::now();
    for s in &sites {
        let w = NewWatch { url: format!("{}/book/", s.base), label: String::new(), follow: true, every_secs: 300 };
        corpus.store_mut().add_watch(&w, now)?;
    }
    let watches = corpus.store().watches()?;
    let web = WebCheckOptions { follow: true, ..Default::default() };
    let check = CheckOptions::default();
    let cancel = Cancel::new();

    // A full run: every chapter of every site (the last chapter not yet posted).
    let rss_before = peak_rss();
    let started = Instant::now();
    let runs = run_in_parallel(&mut corpus, &watches, &web, &check, now, opts.parallel, &|_| {}, &|_| {}, &cancel);
    let secs = started.elapsed().as_secs_f64();
    let pages = served.swap(0, Ordering::Relaxed);
    let failed = runs.iter().filter(|r| r.is_err()).count();
    let new: usize = runs.iter().flatten().map(|r: &WatchRunReport| r.changes.new.len()).sum();
    emit(json!({
        "bench": "watch", "run": "first", "sites": opts.sites, "parallel": opts.parallel,
        "delay_s": web.fetch.delay.as_secs_f64(), "chapter_pages": pages, "seconds": secs,
        "pages_per_s": pages as f64 / secs, "copies_found": new, "runs_failed": failed,
        "pages_of_15_mib": if opts.big_every > 0 { opts.sites.div_ceil(opts.big_every) } else { 0 },
        "peak_rss_mb": peak_rss() as f64 / 1e6, "peak_rss_mb_before_run": rss_before as f64 / 1e6,
    }));

    // A new chapter on 20 sites; the next run (due 5 minutes later) finds it: the time until the
    // last of those 20 digests is ready.
    for s in sites.iter().take(20) {
        s.new_chapter.store(true, Ordering::Relaxed);
    }
    // Five minutes after the first run ended.
    let next = crate::engine::time::now() + 300;
    let due: Vec<_> = corpus.store().watches()?.into_iter().filter(|w| w.is_due(next)).collect();
    let started = Instant::now();
    let alerted = std::sync::Mutex::new(Vec::new());
    let done = |r: &WatchRunReport| {
        if !r.changes.new.is_empty() {
            alerted.lock().expect("no panics holding it").push(started.elapsed().as_secs_f64());
        }
    };
    run_in_parallel(&mut corpus, &due, &web, &check, next, opts.parallel, &|_| {}, &done, &cancel);
    let secs = started.elapsed().as_secs_f64();
    let pages = served.swap(0, Ordering::Relaxed);
    let alerted = alerted.into_inner().expect("no panics holding it");
    let last_alert = alerted.iter().copied().fold(0.0f64, f64::max);
    emit(json!({
        "bench": "watch", "run": "next, a new chapter on 20 sites", "due_watches": due.len(),
        "chapter_pages": pages, "seconds": secs, "pages_per_s": pages as f64 / secs,
        "sites_alerted": alerted.len(), "last_digest_after_s": last_alert,
        "watch_every_s": 300, "worst_alert_latency_s": 300.0 + last_alert,
        "peak_rss_mb": peak_rss() as f64 / 1e6,
    }));
    Ok(())
}
