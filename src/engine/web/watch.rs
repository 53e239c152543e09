//! Watch runs: a watched site checked again, compared with what was seen before.
//!
//! A run fetches the watch's page (or, following links, the chapters its contents page
//! lists), checks each, records each in the findings library, then fetches again every
//! copy of this watch that is still online but was not among them (a page dropped from the
//! contents may still be up), so each known copy is seen as copying, no longer copying,
//! removed (404/410) or unreachable. The statuses then move in one transaction with the
//! run's record ([`Store::finish_watch_run`], rules in `store/watch.rs`).
//!
//! Time is a parameter (`now`, unix seconds): the CLI and the app pass the clock, tests pass
//! the days they simulate.

use crate::Result;
use crate::engine::check::CheckOptions;
use crate::engine::corpus::{Checker, Corpus, record_finding_in};
use crate::engine::index::Index;
use crate::engine::progress::Cancel;
use crate::engine::store::watch::{Changes, Observation, Watch};
use crate::engine::store::{FindingKind, Store};
use crate::engine::web::check::{Gathered, WebCheckOptions, WebChecked, captured, check_gathered, gather_urls};
use crate::engine::web::fetch::{FetchOptions, Fetcher};
use std::collections::HashSet;

/// One run of a watch: every page checked (with its finding id in its report), and what
/// changed. A cancelled run changed no status.
pub struct WatchRunReport {
    pub watch: Watch,
    pub run_id: i64,
    pub checked: Vec<WebChecked>,
    pub changes: Changes,
    pub cancelled: bool,
}

/// The watches due at `now`.
pub fn due(store: &Store, now: i64) -> Result<Vec<Watch>> {
    Ok(store.watches()?.into_iter().filter(|w| w.is_due(now)).collect())
}

/// A run's pages so far: each one's report (its pages dropped once recorded) and what it
/// shows about the copy.
#[derive(Default)]
struct RunPages {
    checked: Vec<WebChecked>,
    observations: Vec<Observation>,
}

impl RunPages {
    /// Checks a page and records it as a finding at once (its own transaction): a crash
    /// loses at most the page in hand, and memory holds one page at a time.
    fn record(&mut self, index: &Index, store: &mut Store, opts: &CheckOptions, gathered: Gathered) -> Result<()> {
        // A long page is checked and recorded in its turn (its bytes, text, WARC and finding
        // are all held meanwhile), so pages of 15 MiB on many sites at once are not all in memory.
        let bytes = match &gathered {
            Gathered::Page(suspect) => suspect.pages.iter().map(|p| p.bytes.len()).sum(),
            _ => 0,
        };
        let _turn = crate::engine::check::long_text_turn(bytes);
        let mut c = check_gathered(index, store, gathered, opts)?;
        let mut finding = None;
        if let Some(suspect) = &c.suspect {
            let id = record_finding_in(
                store,
                store.params(),
                FindingKind::Web,
                &captured(suspect),
                &suspect.text,
                &c.report,
                opts,
            )?;
            finding = Some(id);
            if let Some(w) = &mut c.report.web {
                w.finding_id = Some(id);
            }
        }
        self.observations.push(c.observation(finding));
        c.suspect = None;
        self.checked.push(c);
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn run_with(
    index: &Index,
    store: &mut Store,
    watch: &Watch,
    web: &WebCheckOptions,
    opts: &CheckOptions,
    now: i64,
    progress: &dyn Fn(&str),
    cancel: &Cancel,
) -> Result<WatchRunReport> {
    store.mark_interrupted_watch_runs(watch.id)?;
    let run_id = store.start_watch_run(watch.id, now)?;
    let web = WebCheckOptions { follow: watch.follow, ..web.clone() };
    let mut pages = RunPages::default();
    // One fetcher for the whole run: robots.txt read once per site, delays kept between the
    // contents' chapters and the known copies asked again.
    // Each page is checked and recorded on this thread before the next is fetched, so a
    // long page can hold its turn from its first byte to its finding.
    let fetch = FetchOptions { long_pages_take_turns: true, ..web.fetch.clone() };
    let mut fetcher = Fetcher::new(fetch)?;
    gather_urls(&mut fetcher, std::slice::from_ref(&watch.url), &web, progress, cancel, &mut |g| {
        pages.record(index, store, opts, g)
    })?;
    // Known copies the contents no longer lists (or that did not answer there) are asked again.
    let seen: HashSet<String> = pages.checked.iter().map(|c| c.report.path.clone()).collect();
    let again: Vec<String> =
        store.online_copies_of(watch.id)?.into_iter().filter(|url| !seen.contains(url.as_str())).collect();
    if !again.is_empty() && !cancel.is_cancelled() {
        let single = WebCheckOptions { follow: false, ..web.clone() };
        gather_urls(&mut fetcher, &again, &single, progress, cancel, &mut |g| pages.record(index, store, opts, g))?;
    }
    let RunPages { checked, observations } = pages;
    if cancel.is_cancelled() {
        store.cancel_watch_run(run_id, now)?;
        return Ok(WatchRunReport {
            watch: watch.clone(),
            run_id,
            checked,
            changes: Changes::default(),
            cancelled: true,
        });
    }
    let changes = store.finish_watch_run(run_id, watch.id, now, &observations, now)?;
    Ok(WatchRunReport { watch: watch.clone(), run_id, checked, changes, cancelled: false })
}

impl Corpus {
    /// Runs one watch now (see the module).
    pub fn run_watch(
        &mut self,
        watch: &Watch,
        web: &WebCheckOptions,
        opts: &CheckOptions,
        now: i64,
        progress: &dyn Fn(&str),
        cancel: &Cancel,
    ) -> Result<WatchRunReport> {
        let index = self.index();
        run_with(&index, self.store_mut(), watch, web, opts, now, progress, cancel)
    }
}

impl Checker {
    /// [`Corpus::run_watch`] on this snapshot and connection.
    pub fn run_watch(
        &mut self,
        watch: &Watch,
        web: &WebCheckOptions,
        opts: &CheckOptions,
        now: i64,
        progress: &dyn Fn(&str),
        cancel: &Cancel,
    ) -> Result<WatchRunReport> {
        let (index, store) = self.parts();
        run_with(&index, store, watch, web, opts, now, progress, cancel)
    }
}

/// Sites checked at once by [`run_in_parallel`] unless the caller says otherwise.
pub const PARALLEL_SITES: usize = 8;

/// Runs `watches` at `now` with sites in parallel: the watches of one host run one after
/// another on one thread with one connection (so the host is asked one request at a time,
/// after its delay), different hosts at once, at most `parallel` at a time; a slow site no
/// longer holds up the others. Results come back in the order of `watches`; `done` hears of
/// each run as it ends (from the thread that ran it); a watch not started before `cancel`
/// comes back as `Err(Error::Cancelled)`. A store without a file (in memory) runs them one
/// after another.
#[allow(clippy::too_many_arguments)]
pub fn run_in_parallel(
    corpus: &mut Corpus,
    watches: &[Watch],
    web: &WebCheckOptions,
    opts: &CheckOptions,
    now: i64,
    parallel: usize,
    progress: &(dyn Fn(&str) + Sync),
    done: &(dyn Fn(&WatchRunReport) + Sync),
    cancel: &Cancel,
) -> Vec<Result<WatchRunReport>> {
    if corpus.store().path().is_none() || parallel <= 1 {
        return watches
            .iter()
            .map(|w| {
                let run = corpus.run_watch(w, web, opts, now, progress, cancel);
                if let Ok(r) = &run {
                    done(r);
                }
                run
            })
            .collect();
    }
    let hosts = host_groups(watches).len();
    // One connection per worker, opened here (a connection is not shared between threads).
    let checkers: Vec<Result<Checker>> = (0..parallel.min(hosts)).map(|_| corpus.checker()).collect();
    run_on_checkers(checkers, watches, web, opts, now, progress, done, cancel)
}

/// How many workers [`run_on_checkers`] needs for `watches`: one per host, at most `parallel`.
pub fn workers_for(watches: &[Watch], parallel: usize) -> usize {
    parallel.min(host_groups(watches).len()).max(1)
}

/// The watches grouped by host, in the order the hosts first appear: a group runs on one
/// worker, one watch after another.
fn host_groups(watches: &[Watch]) -> Vec<(String, Vec<usize>)> {
    // One group per host, in the order the hosts first appear.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, w) in watches.iter().enumerate() {
        let host = url::Url::parse(&w.url).ok().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_default();
        match groups.iter_mut().find(|(h, _)| *h == host) {
            Some((_, members)) => members.push(i),
            None => groups.push((host, vec![i])),
        }
    }
    groups
}

/// [`run_in_parallel`] on checkers already opened (one worker each; an app opens them on the
/// thread that owns its corpus and runs this on another).
#[allow(clippy::too_many_arguments)]
pub fn run_on_checkers(
    checkers: Vec<Result<Checker>>,
    watches: &[Watch],
    web: &WebCheckOptions,
    opts: &CheckOptions,
    now: i64,
    progress: &(dyn Fn(&str) + Sync),
    done: &(dyn Fn(&WatchRunReport) + Sync),
    cancel: &Cancel,
) -> Vec<Result<WatchRunReport>> {
    let groups = host_groups(watches);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<Option<Result<WatchRunReport>>>> =
        std::sync::Mutex::new((0..watches.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        let (next, results, groups) = (&next, &results, &groups);
        for mut checker in checkers {
            scope.spawn(move || {
                loop {
                    let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((_, members)) = groups.get(g) else { break };
                    for &i in members {
                        if cancel.is_cancelled() {
                            results.lock().expect("no worker panics holding it")[i] =
                                Some(Err(crate::Error::Cancelled));
                            continue;
                        }
                        let run = match &mut checker {
                            Ok(checker) => checker.run_watch(&watches[i], web, opts, now, progress, cancel),
                            Err(e) => Err(crate::Error::Parameter(format!("{}: {e}", watches[i].url))),
                        };
                        if let Ok(r) = &run {
                            done(r);
                        }
                        results.lock().expect("no worker panics holding it")[i] = Some(run);
                    }
                }
            });
        }
    });
    results.into_inner().expect("workers ended").into_iter().flatten().collect()
}
