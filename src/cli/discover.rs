//! Discovery from the command line: `discover`, `allow`, and the scheduled discoveries of
//! `watch add --discover` / `watch run`.

use super::args::{AllowAction, DiscoverArgs, SearchArgs};
use super::common::{cancel_on_ctrl_c, check_options, fetch_options, open, seconds, send_alert};
use super::render::fit;
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::ExitCode;
use zhiwen::Corpus;
use zhiwen::engine::store::discovery::{DiscoverySettings, DiscoveryWatch};
use zhiwen::engine::web::discover::{DiscoverOptions, DiscoveryReport, WorkToFind};
use zhiwen::engine::web::search::{SearchOptions, Searx, TimeRange};

/// The works of the corpus, chapters in order.
pub(crate) fn corpus_works(corpus: &Corpus) -> Result<Vec<WorkToFind>> {
    Ok(corpus.works()?.iter().map(WorkToFind::from).collect())
}

/// The works named on the command line (ids or titles), or every work.
fn chosen_works(corpus: &Corpus, names: &[String], all: bool) -> Result<Vec<WorkToFind>> {
    let works = corpus_works(corpus)?;
    if all || names.is_empty() {
        if works.is_empty() {
            bail!("the corpus is empty: import your works first (zhiwen import FOLDER)");
        }
        return Ok(works);
    }
    names
        .iter()
        .map(|name| {
            works
                .iter()
                .find(|w| w.id.is_some_and(|id| id.to_string() == *name) || w.title == *name)
                .cloned()
                .with_context(|| format!("no work {name:?} in the corpus (see zhiwen works list)"))
        })
        .collect()
}

fn search_engine(searx: Option<&str>, interval: f64, proxy: Option<&str>) -> Result<Searx> {
    let base = searx.context(
        "say which search engine to ask: --searx URL of a SearXNG instance (or ZHIWEN_SEARX); README, \"Discovery\"",
    )?;
    let opts = SearchOptions {
        min_interval: seconds(interval, "query-interval")?,
        proxy: zhiwen::engine::web::fetch::ProxySetting::parse(proxy.unwrap_or("")),
        ..SearchOptions::default()
    };
    Ok(Searx::new(base, opts)?)
}

pub fn discover(db: &Path, args: &DiscoverArgs) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let works = chosen_works(&corpus, &args.works, args.all)?;
    let mut engine = search_engine(args.search.searx.as_deref(), args.query_interval, args.fetch.proxy.as_deref())?;
    let check = check_options(&args.check);
    corpus.ensure_distance(check.max_distance)?;
    let opts = DiscoverOptions {
        per_chapter: args.search.per_chapter as usize,
        max_queries: args.search.max_queries,
        time_range: args.time_range.as_deref().map(time_range),
        learn_sites: !args.no_site_learning,
        max_pages_per_site: args.max_site_pages,
        max_site_time: seconds(args.max_site_time, "max-site-time")?,
        allow_private: args.allow_private,
        watch_new_sites: args.search.watch_new_sites,
        fetch: fetch_options(&args.fetch)?,
        ..DiscoverOptions::default()
    };
    let cancel = cancel_on_ctrl_c();
    let progress = |what: &str| eprintln!("{what}");
    let report = corpus.discover(&mut engine, &works, &opts, &check, None, &progress, &cancel)?;
    print_report(&report, args.json)?;
    if !report.cancelled {
        send_alert(&corpus, &format!("discovery of {}", names(&works)), &report.changes, now());
    }
    Ok(exit_code(&report))
}

fn time_range(s: &str) -> TimeRange {
    match s {
        "day" => TimeRange::Day,
        "week" => TimeRange::Week,
        "month" => TimeRange::Month,
        _ => TimeRange::Year,
    }
}

/// 0 when every query was answered; 1 when some were not (the rest was done).
fn exit_code(report: &DiscoveryReport) -> ExitCode {
    if report.search_errors.is_empty() && !report.cancelled { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn print_report(report: &DiscoveryReport, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
        return Ok(());
    }
    print!("{}", report_text(report));
    Ok(())
}

/// The report as a person reads it: per work, then the copies and sites, then what was
/// not done and why.
fn report_text(r: &DiscoveryReport) -> String {
    let mut out = format!("searched with {}\n", r.search_engine);
    out += &format!(
        "{:<28} {:>8} {:>8} {:>10} {:>7} {:>9} {:>6}\n",
        "work", "chapters", "queries", "candidates", "copies", "licensed", "sites"
    );
    for w in &r.works {
        out += &format!(
            "{:<28} {:>8} {:>8} {:>10} {:>7} {:>9} {:>6}\n",
            fit(&w.work, 27),
            w.chapters,
            w.queries,
            w.candidates,
            w.copies,
            w.licensed,
            w.sites.len()
        );
    }
    for c in &r.copies {
        out += &format!(
            "{} {:.2}  {}  ({}, {:?})\n",
            if c.licensed { "licensed" } else { "COPY    " },
            c.similarity,
            fit(&c.url, 200),
            fit(&c.work, 40),
            c.found_by
        );
    }
    for s in &r.sites {
        out += &format!(
            "site {}: {} {}copies, {} pages fetched{}\n",
            s.site,
            s.copies,
            if s.licensed { "licensed " } else { "" },
            s.pages,
            s.watch_id.map_or_else(String::new, |id| format!(", now watched (watch {id})"))
        );
    }
    for l in &r.limits {
        out += &format!("limit: {l}\n");
    }
    for e in &r.search_errors {
        out += &format!("search failed: {e}\n");
    }
    if !r.unresponsive_engines.is_empty() {
        out += &format!("engines that did not answer: {}\n", r.unresponsive_engines.join(", "));
    }
    let copies = r.copies.iter().filter(|c| !c.licensed).count();
    out += &format!(
        "{} queries, {} pages fetched, {} checked, {} copies ({} licensed) on {} sites in {:.1} s{}\n",
        r.queries,
        r.pages_fetched,
        r.pages_checked,
        copies,
        r.copies.len() - copies,
        r.sites.iter().filter(|s| !s.licensed).count(),
        r.seconds,
        r.queries_per_copy().map_or_else(String::new, |q| format!("; {q:.2} queries per copy"))
    );
    if r.cancelled {
        out += "cancelled: what was found before is kept\n";
    }
    out
}

pub fn allow(db: &Path, action: AllowAction) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    match action {
        AllowAction::Add { pattern, work, note } => {
            let work_id = match work {
                None => None,
                Some(w) => Some(
                    chosen_works(&corpus, std::slice::from_ref(&w), false)?[0].id.context("a work without an id")?,
                ),
            };
            let id = corpus.store_mut().allow_site(&pattern, work_id, &note, zhiwen::engine::time::now())?;
            eprintln!("allowed {pattern} (id {id}): its copies count as licensed");
        }
        AllowAction::List { json } => {
            let sites = corpus.store().allowed_sites()?;
            if json {
                println!("{}", serde_json::to_string_pretty(&sites)?);
            } else {
                println!("{:>4}  {:<8}  {:<40}  note", "id", "work", "host or URL prefix");
                for s in &sites {
                    println!(
                        "{:>4}  {:<8}  {:<40}  {}",
                        s.id,
                        s.work_id.map_or_else(|| "all".into(), |w| w.to_string()),
                        s.pattern,
                        s.note
                    );
                }
                println!("{} allowed sites", sites.len());
            }
        }
        AllowAction::Rm { ids } => {
            let n = corpus.store_mut().remove_allowed_sites(&ids)?;
            eprintln!("removed {n} of {} allowed sites", ids.len());
            if n < ids.len() {
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `watch add --discover [WORK...]`.
pub fn add_discovery_watch(corpus: &mut Corpus, works: &[String], search: &SearchArgs, every_secs: i64) -> Result<i64> {
    let searx = search.searx.clone().context("a scheduled discovery needs --searx URL (or ZHIWEN_SEARX)")?;
    Searx::new(&searx, SearchOptions::default())?;
    let ids: Vec<i64> = if works.is_empty() {
        Vec::new()
    } else {
        chosen_works(corpus, works, false)?
            .iter()
            .map(|w| w.id.context("a work without an id"))
            .collect::<Result<_>>()?
    };
    let settings = DiscoverySettings {
        searx,
        per_chapter: search.per_chapter as usize,
        max_queries: search.max_queries,
        watch_new_sites: search.watch_new_sites,
    };
    Ok(corpus.store_mut().add_discovery_watch(&ids, &settings, every_secs, zhiwen::engine::time::now())?)
}

/// Runs a scheduled discovery: results only as recent as its schedule since the last run.
#[allow(clippy::too_many_arguments)]
pub fn run_discovery_watch(
    corpus: &mut Corpus,
    watch: &DiscoveryWatch,
    fetch: &zhiwen::engine::web::fetch::FetchOptions,
    check: &zhiwen::CheckOptions,
    allow_private: bool,
    now: i64,
    json: bool,
    cancel: &zhiwen::Cancel,
) -> Result<(serde_json::Value, bool)> {
    let all = corpus_works(corpus)?;
    let works: Vec<WorkToFind> = if watch.works.is_empty() {
        all
    } else {
        all.into_iter().filter(|w| w.id.is_some_and(|id| watch.works.contains(&id))).collect()
    };
    let mut engine = search_engine(Some(&watch.settings.searx), 2.0, None)?;
    let opts = DiscoverOptions {
        per_chapter: watch.settings.per_chapter,
        max_queries: watch.settings.max_queries,
        time_range: watch.last_run_at.map(|t| TimeRange::covering(now - t)),
        allow_private,
        watch_new_sites: watch.settings.watch_new_sites,
        fetch: fetch.clone(),
        now: Some(now),
        ..DiscoverOptions::default()
    };
    let progress = |what: &str| eprintln!("{what}");
    let report = corpus.discover(&mut engine, &works, &opts, check, Some(watch.id), &progress, cancel)?;
    if !json {
        print!("discovery watch {}:\n{}", watch.id, report_text(&report));
    }
    let mut ok = report.search_errors.is_empty();
    if !report.cancelled {
        ok &= send_alert(corpus, &format!("discovery of {}", names(&works)), &report.changes, now);
    }
    Ok((serde_json::json!({ "discovery_watch": watch, "report": report }), ok))
}

/// The works' titles for a message: `聊斋志异, 镜花缘` (the first few).
fn names(works: &[WorkToFind]) -> String {
    let mut shown: Vec<&str> = works.iter().take(3).map(|w| w.title.as_str()).collect();
    if works.len() > 3 {
        shown.push("…");
    }
    shown.join(", ")
}

fn now() -> i64 {
    zhiwen::engine::time::now()
}
