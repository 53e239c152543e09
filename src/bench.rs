//! The speed and scale harness behind `zhiwen bench`: one JSON line per measurement.
//!
//! - `import`: end to end into a SQLite store on disk (MB/s, characters/s, peak memory);
//! - `index`: build time and exact k-distance queries per second (one thread, all
//!   threads) for N random fingerprints with planted neighbours, against a brute-force
//!   popcount scan in the same run, and bytes of RAM per stored window;
//! - `check`: suspect throughput against a corpus padded to N windows, and one
//!   1,000,000-character novel;
//! - `open`: time to open a store (ready to answer queries) and its size on disk per MB of text;
//! - `watch` (only when asked for): many watched sites on loopback, pages/s and memory of a run
//!   and the time until a new chapter's digest (`bench/watch.rs`);
//! - `ocr` (only when asked for): pages drawn from chapters read by OCR, clean and scanned:
//!   pages a minute, characters right, memory (`bench/ocr.rs`).
//!
//! Numbers depend on the machine; the README records those of the reference machine.

mod ocr;
mod watch;

use crate::engine::check::{self, CheckOptions};
use crate::engine::index::{IndexBuilder, WindowRef, brute_force};
use crate::{Cancel, Corpus, FingerprintParams, ImportOptions, Result};
use rayon::prelude::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// The data folder (`../shared/data` layout).
    pub data: PathBuf,
    /// Index sizes to measure, in stored fingerprints.
    pub index_sizes: Vec<usize>,
    /// Windows the check corpus is padded to.
    pub check_windows: usize,
    /// Times the check and each of its steps run (the median is reported).
    pub check_runs: usize,
    /// Which measurements to run: any of "import", "index", "check", "open", "clusters".
    pub only: Vec<String>,
    /// Where stores are built (a temporary folder is made inside).
    pub scratch: PathBuf,
    /// The watch benchmark's sites (run only when `only` names `watch`).
    pub watch: watch::WatchBenchOptions,
}

pub use watch::WatchBenchOptions;

/// Peak resident memory of this process so far, in bytes (Linux; 0 elsewhere).
pub fn peak_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.to_string()))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()))
        .map_or(0, |kb| kb * 1024)
}

fn dir_bytes(paths: &[PathBuf]) -> u64 {
    let mut report = crate::ImportReport::default();
    crate::engine::import::collect_files(paths, &mut report)
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum()
}

pub fn run(opts: &BenchOptions, emit: &dyn Fn(serde_json::Value)) -> Result<()> {
    let wants = |what: &str| opts.only.is_empty() || opts.only.iter().any(|o| o == what);
    let scratch = tempfile::Builder::new()
        .prefix("zhiwen-bench")
        .tempdir_in(&opts.scratch)
        .map_err(|e| crate::Error::io(&opts.scratch, e))?;
    let classics = opts.data.join("zh-classics");
    let store = scratch.path().join("classics.sqlite");
    if wants("import") || wants("check") || wants("open") || wants("clusters") {
        for (name, dirs) in
            [("zh-classics", vec![classics.clone()]), ("zh-news-2018", vec![opts.data.join("zh-news-2018")])]
        {
            if !dirs[0].is_dir() || (name != "zh-classics" && !wants("import") && !wants("clusters")) {
                continue;
            }
            let db = if name == "zh-classics" { store.clone() } else { scratch.path().join("news.sqlite") };
            let bytes = dir_bytes(&dirs);
            // The parallel part alone (read, decode, tokenize, fingerprint), without SQLite.
            let t = Instant::now();
            let mut walk = crate::ImportReport::default();
            let files = crate::engine::import::collect_files(&dirs, &mut walk);
            let params = FingerprintParams::default();
            let prepared: usize = files
                .par_iter()
                .filter_map(|f| {
                    let bytes = std::fs::read(f).ok()?;
                    crate::engine::import::prepare_document(f.display().to_string(), &bytes, &params).ok()
                })
                .map(|d| d.windows.len())
                .sum();
            let prepare_s = t.elapsed().as_secs_f64();
            let started = Instant::now();
            let mut corpus = Corpus::open(&db)?;
            let report = corpus.import(&dirs, &ImportOptions::default(), &|_| {}, &Cancel::new())?;
            let secs = started.elapsed().as_secs_f64();
            let stats = corpus.store().stats()?;
            emit(json!({
                "bench": "import", "corpus": name, "files": report.imported.len(), "mb": bytes as f64 / 1e6,
                "seconds": secs, "mb_per_s": bytes as f64 / 1e6 / secs, "chars_per_s": report.chars as f64 / secs,
                "windows": stats.windows, "store_mb": stats.disk_bytes as f64 / 1e6,
                "store_mb_per_text_mb": stats.disk_bytes as f64 / bytes as f64,
                "peak_rss_mb": peak_rss() as f64 / 1e6,
                "prepare_only_seconds": prepare_s, "prepare_only_mb_per_s": bytes as f64 / 1e6 / prepare_s,
                "prepared_windows": prepared,
            }));
            if wants("clusters") && name == "zh-news-2018" {
                clusters_bench(&mut corpus, emit)?;
            }
        }
    }
    if wants("index") {
        for &n in &opts.index_sizes {
            index_bench(n, emit);
        }
    }
    if wants("check") && store.exists() {
        check_bench(&store, opts, &classics, emit)?;
    }
    if wants("open") && store.exists() {
        open_bench(&store, &classics, opts, scratch.path(), emit)?;
    }
    // Hundreds of loopback hosts and a minute or two: only when named.
    if opts.only.iter().any(|o| o == "watch") {
        watch::watch_bench(&opts.data, scratch.path(), &opts.watch, emit)?;
    }
    // Minutes of OCR: only when named.
    if opts.only.iter().any(|o| o == "ocr") {
        ocr::ocr_bench(&opts.data, emit)?;
    }
    Ok(())
}

/// Near-duplicate groups of the news store, after import (signatures kept at import), by
/// MinHash; then by keyword simhash, the first time including the keywords' computation.
fn clusters_bench(corpus: &mut Corpus, emit: &dyn Fn(serde_json::Value)) -> Result<()> {
    use crate::engine::cluster::{ClusterOptions, Method};
    for (method, run) in
        [(Method::MinHash, "after import"), (Method::Simhash, "first, keywords computed"), (Method::Simhash, "again")]
    {
        let opts = ClusterOptions { method, ..Default::default() };
        let t = Instant::now();
        let c = corpus.clusters(&opts, &|_, _| {}, &Cancel::new())?;
        emit(json!({
            "bench": "clusters", "method": method, "run": run, "seconds": t.elapsed().as_secs_f64(),
            "documents": c.documents, "groups": c.groups.len(),
            "grouped": c.groups.iter().map(|g| g.members.len()).sum::<usize>(),
            "candidates": c.candidates, "bands": c.bands, "rows": c.rows, "peak_rss_mb": peak_rss() as f64 / 1e6,
        }));
    }
    Ok(())
}

/// Looks every fingerprint up on all threads; returns the number of hits.
fn hits_on_all_threads(index: &crate::engine::index::Index, queries: &[u64], k: u32) -> usize {
    let mut out = Vec::new();
    index.query_batch(queries, k, &mut out);
    out.len()
}

/// Random fingerprints, and queries each with one planted neighbour at distance 0..=3.
fn planted(n: usize, queries: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut fps: Vec<u64> = (0..n).map(|_| rng.u64(..)).collect();
    let qs: Vec<u64> = (0..queries).map(|_| rng.u64(..)).collect();
    for (i, &q) in qs.iter().enumerate().take(n / 2) {
        let mut x = q;
        for _ in 0..i % 4 {
            x ^= 1 << rng.u32(0..64);
        }
        fps[i * 2] = x;
    }
    (fps, qs)
}

fn index_bench(n: usize, emit: &dyn Fn(serde_json::Value)) {
    let (fps, queries) = planted(n, 200_000, n as u64);
    let started = Instant::now();
    let mut b = IndexBuilder::new(3);
    b.reserve(n);
    for (i, &fp) in fps.iter().enumerate() {
        b.push(fp, WindowRef { doc: (i / 1000) as u32, ordinal: (i % 1000) as u32 });
    }
    let index = b.build();
    let build = started.elapsed().as_secs_f64();
    let mut out = Vec::new();
    let started = Instant::now();
    let mut hits = 0usize;
    for &q in &queries {
        out.clear();
        index.query(q, 3, &mut out);
        hits += out.len();
    }
    let one_at_a_time = queries.len() as f64 / started.elapsed().as_secs_f64();
    let mut batch_out = Vec::new();
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool");
    let started = Instant::now();
    one_thread.install(|| index.query_batch(&queries, 3, &mut batch_out));
    let one = queries.len() as f64 / started.elapsed().as_secs_f64();
    assert_eq!(hits, batch_out.len());
    let started = Instant::now();
    let hits_par = hits_on_all_threads(&index, &queries, 3);
    let all = queries.len() as f64 / started.elapsed().as_secs_f64();
    assert_eq!(hits, hits_par);
    let brute_queries = (2_000_000_000 / n).clamp(5, 2000);
    let started = Instant::now();
    let brute_hits: usize = queries[..brute_queries].iter().map(|&q| brute_force(&fps, q, 3).len()).sum();
    let brute = brute_queries as f64 / started.elapsed().as_secs_f64();
    let index_hits: usize = queries[..brute_queries]
        .iter()
        .map(|&q| {
            out.clear();
            index.query(q, 3, &mut out);
            out.len()
        })
        .sum();
    emit(json!({
        "bench": "index", "windows": n, "k": 3, "tables": index.tables(), "build_seconds": build,
        "queries_per_s_1_thread": one, "queries_per_s_1_thread_one_at_a_time": one_at_a_time, "queries_per_s_all_threads": all, "threads": rayon::current_num_threads(),
        "brute_force_queries_per_s": brute, "hits_agree_with_brute_force": brute_hits == index_hits,
        "ram_bytes_per_window": index.memory_bytes() as f64 / n as f64,
    }));
}

/// A suspect made of whole chapters: the first `chars` characters of the classics.
fn novel(classics: &Path, chars: usize) -> String {
    let mut report = crate::ImportReport::default();
    let mut text = String::new();
    for f in crate::engine::import::collect_files(&[classics.to_path_buf()], &mut report) {
        if let Ok(d) = crate::engine::decode::decode_file(&f) {
            text.push_str(&d.text);
            text.push('\n');
        }
        if text.chars().count() >= chars {
            break;
        }
    }
    text.chars().take(chars).collect()
}

fn check_bench(store: &Path, opts: &BenchOptions, classics: &Path, emit: &dyn Fn(serde_json::Value)) -> Result<()> {
    let corpus = Corpus::open(store)?;
    let real = corpus.index().len();
    // Pad with random fingerprints of a document that does not exist: they cost lookups
    // like real windows but never produce a source.
    let mut b = corpus.index().to_builder(|_| true);
    let mut rng = fastrand::Rng::with_seed(1);
    for i in real..opts.check_windows {
        b.push(rng.u64(..), WindowRef { doc: u32::MAX, ordinal: i as u32 });
    }
    let index = b.build();
    let text = novel(classics, 1_000_000);
    let check_opts = CheckOptions::default();
    let params: FingerprintParams = corpus.params();
    // Each step is timed over several runs and reported by its median (the first run also
    // reads the sources' texts from SQLite; a 2-core machine shared with others is noisy).
    let runs = opts.check_runs.max(1);
    let median = |mut seconds: Vec<f64>| {
        seconds.sort_by(f64::total_cmp);
        seconds[seconds.len() / 2]
    };
    let timed = |f: &mut dyn FnMut()| {
        median(
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    let mut reports = Vec::new();
    let mut check_runs = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let report = check::check_text(&index, corpus.store(), &params, &check_opts, "novel", &text)?;
        check_runs.push(t.elapsed().as_secs_f64());
        reports.push(report);
    }
    let runs_agree = reports.iter().all(|r| *r == reports[0]);
    let report = &reports[0];
    let secs = median(check_runs.clone());
    // Where the time goes: the same steps one by one.
    let mut tokens = Vec::new();
    let tokenize_s = timed(&mut || tokens = crate::engine::normalize::tokenize(&text));
    let mut fps = Vec::new();
    let fingerprint_s = timed(&mut || fps = crate::engine::simhash::query_fingerprints(&tokens, &params).1);
    let mut hits = 0;
    let lookup_s = timed(&mut || hits = hits_on_all_threads(&index, &fps, check_opts.max_distance));
    emit(json!({
        "bench": "check", "corpus_windows": index.len(), "real_windows": real, "suspect_chars": report.chars,
        "suspect_mb": text.len() as f64 / 1e6, "seconds": secs, "seconds_runs": check_runs, "runs_agree": runs_agree, "mb_per_s": text.len() as f64 / 1e6 / secs,
        "sources_found": report.sources.len(), "similarity": report.similarity,
        "queries": fps.len(), "hits": hits, "tokenize_s": tokenize_s, "fingerprint_s": fingerprint_s,
        "lookup_s": lookup_s, "chain_and_rest_s": (secs - tokenize_s - fingerprint_s - lookup_s).max(0.0),
    }));
    Ok(())
}

fn open_bench(
    store: &Path,
    classics: &Path,
    opts: &BenchOptions,
    scratch: &Path,
    emit: &dyn Fn(serde_json::Value),
) -> Result<()> {
    let mut stores = vec![store.to_path_buf()];
    // A store of over 10^7 windows: the classics and the news fingerprinted every token.
    let news = opts.data.join("zh-news-2018");
    if news.is_dir() {
        let big = scratch.join("big.sqlite");
        let fine = FingerprintParams { step: 1, ..FingerprintParams::default() };
        let started = Instant::now();
        let mut c = Corpus::open_with(&big, fine)?;
        c.import(&[classics.to_path_buf(), news], &ImportOptions::default(), &|_| {}, &Cancel::new())?;
        emit(
            json!({"bench": "open-setup", "windows": c.store().stats()?.windows, "import_seconds": started.elapsed().as_secs_f64()}),
        );
        stores.push(big);
    }
    for path in stores {
        let started = Instant::now();
        let corpus = Corpus::open(&path)?;
        let secs = started.elapsed().as_secs_f64();
        let stats = corpus.store().stats()?;
        emit(json!({
            "bench": "open", "windows": stats.windows, "documents": stats.documents, "seconds": secs,
            "store_mb": stats.disk_bytes as f64 / 1e6, "text_mb": stats.chars as f64 * 3.0 / 1e6,
        }));
    }
    Ok(())
}
