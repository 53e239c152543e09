//! Discovery: finding the copies nobody pointed to.
//!
//! 1. **Queries from the works**: each chapter's rarest phrases ([`phrases`]), stock
//!    phrases dropped (a phrase whose surrounding text the index finds in a document of
//!    another work, or that occurs in another chapter of the same work), several per chapter,
//!    taken round-robin over the chapters until the run's query budget is spent.
//! 2. **A search engine** ([`SearchEngine`]) answers each exact-phrase query with URLs.
//! 3. **Each candidate is fetched and checked** like any web suspect; only a page the check
//!    verifies (passages verified on tokens, as in every check) is a copy. It is recorded
//!    as a finding (with its pages as received) and tracked as a copy, unless its site is on
//!    the allow-list: then it is *licensed*, counted apart, never tracked for notices.
//! 4. **A site found copying is learned** ([`site`]): its contents page for the book (over
//!    all its pages), its sitemaps, its own search for the work's title; every chapter
//!    found there is checked too, so chapters the search engine never indexed are found.
//!    Pages per site and time per site are limited; a limit reached is reported.
//!
//! Every request goes through one [`Fetcher`]: robots.txt and per-host delays hold for
//! search results, contents pages, sitemaps and site search alike, and addresses that are
//! not on the public internet are refused unless [`DiscoverOptions::allow_private`].

use super::check::{WebChecked, captured, web_origin};
use super::crawl;
use super::fetch::{FetchOptions, Fetcher};
use super::phrases::{self, HanRarity, Phrase, PhraseLengths};
use super::search::{SearchEngine, SearchError, SearchQuery, TimeRange};
use super::site;
use crate::Result;
use crate::engine::check::{self, CheckOptions, SuspectReport};
use crate::engine::corpus::{Checker, Corpus, check_text_with, record_finding_in};
use crate::engine::index::Index;
use crate::engine::normalize::tokenize;
use crate::engine::progress::Cancel;
use crate::engine::store::discovery::{AllowedSite, is_licensed};
use crate::engine::store::watch::{DAILY, NewWatch, Observation, Seen};
use crate::engine::store::{FindingKind, Store};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use url::Url;

/// A work to look for: its chapters in order, and what its site search is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkToFind {
    pub id: Option<i64>,
    pub title: String,
    pub authors: Vec<String>,
    /// Corpus document ids, chapters in order.
    pub documents: Vec<u32>,
}

impl From<&crate::engine::store::Work> for WorkToFind {
    fn from(w: &crate::engine::store::Work) -> Self {
        WorkToFind {
            id: Some(i64::from(w.id)),
            title: w.title.clone(),
            authors: w.authors.clone(),
            documents: w.documents.clone(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct DiscoverOptions {
    /// Phrases searched per chapter.
    pub per_chapter: usize,
    /// Queries sent per run at most.
    pub max_queries: usize,
    pub lengths: PhraseLengths,
    /// Only results this recent (scheduled runs look at what is new since the last).
    pub time_range: Option<TimeRange>,
    /// Learn the sites found copying (contents pages, sitemaps, site search).
    pub learn_sites: bool,
    /// Pages fetched per site at most (robots.txt not counted).
    pub max_pages_per_site: usize,
    /// Time spent learning one site at most.
    pub max_site_time: Duration,
    /// Fetch addresses on loopback, private and link-local networks too (tests; an
    /// intranet mirror the user trusts). Off: a planted search result cannot make Zhiwen
    /// read the user's own network.
    pub allow_private: bool,
    /// Every newly found pirate site becomes a site watch of its own.
    pub watch_new_sites: bool,
    pub fetch: FetchOptions,
    /// The time the run counts as, unix seconds (a schedule's clock; tests simulate days);
    /// `None`: now.
    pub now: Option<i64>,
}

impl Default for DiscoverOptions {
    fn default() -> Self {
        DiscoverOptions {
            per_chapter: 3,
            max_queries: 200,
            lengths: PhraseLengths::default(),
            time_range: None,
            learn_sites: true,
            max_pages_per_site: 300,
            max_site_time: Duration::from_secs(600),
            allow_private: false,
            watch_new_sites: false,
            fetch: FetchOptions::default(),
            now: None,
        }
    }
}

/// How a copy was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FoundBy {
    /// A search engine's result.
    Search,
    /// Listed on the site's contents page for the book.
    Contents,
    /// Listed in the site's sitemap.
    Sitemap,
    /// Through the site's own search box.
    SiteSearch,
}

/// A verified copy.
#[derive(Clone, Debug, Serialize)]
pub struct FoundCopy {
    pub url: String,
    pub final_url: String,
    pub host: String,
    /// The work it copies (of those searched), by id and title.
    pub work_id: Option<i64>,
    pub work: String,
    pub top_source: u32,
    pub similarity: f64,
    /// On a site of the allow-list: licensed, not piracy.
    pub licensed: bool,
    pub found_by: FoundBy,
    pub finding_id: Option<i64>,
}

/// A site found carrying copies.
#[derive(Clone, Debug, Serialize)]
pub struct FoundSite {
    /// `http://host:port`
    pub site: String,
    pub copies: usize,
    pub licensed: bool,
    /// The contents pages read on it.
    pub contents: Vec<String>,
    /// Pages fetched on it.
    pub pages: usize,
    /// The site watch it became (with `watch_new_sites`).
    pub watch_id: Option<i64>,
}

/// Per work: what was asked and what was found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WorkDiscovery {
    pub work_id: Option<i64>,
    pub work: String,
    pub chapters: usize,
    /// Phrases picked (before the query budget).
    pub phrases: usize,
    pub queries: usize,
    /// Distinct result URLs the queries gave.
    pub candidates: usize,
    /// Verified copies, not licensed.
    pub copies: usize,
    pub licensed: usize,
    /// Sites with a copy of this work (not licensed).
    pub sites: Vec<String>,
}

/// A discovery run's report: the JSON `zhiwen discover --json` prints.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DiscoveryReport {
    pub run_id: Option<i64>,
    pub search_engine: String,
    pub works: Vec<WorkDiscovery>,
    pub copies: Vec<FoundCopy>,
    pub sites: Vec<FoundSite>,
    pub queries: usize,
    /// Pages fetched, robots.txt and search queries not counted.
    pub pages_fetched: usize,
    /// Pages checked against the corpus.
    pub pages_checked: usize,
    /// Queries that gave no answer, each with its reason.
    pub search_errors: Vec<String>,
    /// Engines the search engine said did not answer (results may be missing).
    pub unresponsive_engines: Vec<String>,
    /// Limits reached (query budget, pages or time per site, contents cut): never silent.
    pub limits: Vec<String>,
    /// Pages that could not be read, each with its reason.
    pub errors: Vec<String>,
    pub cancelled: bool,
    pub seconds: f64,
    /// What the verified copies changed among the tracked copies: new ones, ones back after
    /// a takedown, ones already known (for alerts).
    pub changes: crate::engine::store::watch::Changes,
}

impl DiscoveryReport {
    /// Queries per verified copy (not licensed), the retrieval cost PAN's source-retrieval
    /// task measures; `None` before any copy is found.
    pub fn queries_per_copy(&self) -> Option<f64> {
        let copies = self.copies.iter().filter(|c| !c.licensed).count();
        (copies > 0).then(|| self.queries as f64 / copies as f64)
    }
}

/// Each chapter of a work (by document id) with its search phrases, best first.
pub type ChapterPhrases = Vec<(u32, Vec<Phrase>)>;

/// Picks each chapter's search phrases for `works`: best first, stock phrases dropped.
pub fn pick_phrases(
    index: &Index,
    store: &Store,
    works: &[WorkToFind],
    opts: &DiscoverOptions,
    check_opts: &CheckOptions,
) -> Result<Vec<ChapterPhrases>> {
    let params = store.params();
    let mut out = Vec::with_capacity(works.len());
    let work_of = work_of_documents(works);
    for (w, work) in works.iter().enumerate() {
        let texts: Vec<(u32, String)> = work
            .documents
            .iter()
            .filter_map(|&d| store.text(d).transpose().map(|t| t.map(|t| (d, t))))
            .collect::<Result<_>>()?;
        let rarity = HanRarity::of(texts.iter().map(|(_, t)| t.as_str()));
        let initials: Vec<(u32, Vec<u64>)> =
            texts.iter().map(|(d, t)| (*d, tokenize(t).iter().map(|t| t.sym).collect())).collect();
        let mut chapters = Vec::with_capacity(texts.len());
        for (doc, text) in &texts {
            let chars: Vec<char> = text.chars().collect();
            let mut kept = Vec::new();
            for phrase in phrases::candidates(text, &rarity, opts.lengths) {
                if kept.len() == opts.per_chapter {
                    break;
                }
                let syms: Vec<u64> = tokenize(&phrase.text).iter().map(|t| t.sym).collect();
                let elsewhere_in_work = initials.iter().any(|(d, all)| d != doc && contains(all, &syms));
                if elsewhere_in_work
                    || shared_with_other_works(index, &params, &chars, &phrase, check_opts, |d| {
                        work_of.get(&d) != Some(&w)
                    })
                {
                    continue;
                }
                kept.push(phrase);
            }
            chapters.push((*doc, kept));
        }
        out.push(chapters);
    }
    Ok(out)
}

/// Which of `works` (by position) each document belongs to.
fn work_of_documents(works: &[WorkToFind]) -> HashMap<u32, usize> {
    works.iter().enumerate().flat_map(|(w, work)| work.documents.iter().map(move |&d| (d, w))).collect()
}

fn contains(haystack: &[u64], needle: &[u64]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether the text around `phrase` (padded to two windows' length) has a window the index
/// finds in a document `other` accepts: a stock passage several works share.
fn shared_with_other_works(
    index: &Index,
    params: &crate::FingerprintParams,
    chars: &[char],
    phrase: &Phrase,
    opts: &CheckOptions,
    other: impl Fn(u32) -> bool,
) -> bool {
    let pad = params.window;
    let start = phrase.char_start.saturating_sub(pad);
    let end = (phrase.char_end + pad).min(chars.len());
    let context: String = chars[start..end].iter().collect();
    check::documents_sharing(index, params, &context, opts.max_distance).into_iter().any(other)
}

/// One discovery run in progress.
struct Run<'a> {
    index: &'a Index,
    store: &'a mut Store,
    fetcher: Fetcher,
    opts: &'a DiscoverOptions,
    check_opts: &'a CheckOptions,
    works: &'a [WorkToFind],
    work_of: HashMap<u32, usize>,
    allowed: Vec<AllowedSite>,
    checked: HashSet<String>,
    learned: HashSet<String>,
    /// The first page of the copy checked last, for its links when its site is learned.
    last_copy_page: Option<super::fetch::Page>,
    site_pages: HashMap<String, usize>,
    report: DiscoveryReport,
    candidates: Vec<HashSet<String>>,
    progress: &'a dyn Fn(&str),
    cancel: &'a Cancel,
}

fn site_of(url: &Url) -> String {
    url.origin().ascii_serialization()
}

impl Run<'_> {
    /// Fetches and checks one page (once per run); records a verified copy. Returns the
    /// copy's URL, the work it copies and whether it is licensed.
    fn check_page(&mut self, url: &str, found_by: FoundBy, hint: Option<usize>) -> Result<Option<(Url, usize, bool)>> {
        if !self.checked.insert(url.to_string()) {
            return Ok(None);
        }
        let Ok(parsed) = Url::parse(url) else {
            self.report.errors.push(format!("{url}: not a URL"));
            return Ok(None);
        };
        let site = site_of(&parsed);
        let used = self.site_pages.entry(site.clone()).or_default();
        if *used >= self.opts.max_pages_per_site {
            return Ok(None);
        }
        (self.progress)(url);
        let suspect = match crawl::chapter(&mut self.fetcher, url, &HashSet::new(), false, self.cancel) {
            Ok(s) => s,
            Err(e) => {
                *used += 1;
                self.report.errors.push(e.to_string());
                return Ok(None);
            }
        };
        *used += suspect.pages.len();
        self.report.pages_fetched += suspect.pages.len();
        self.report.pages_checked += 1;
        let mut report: SuspectReport = check_text_with(self.index, self.store, url, &suspect.text, self.check_opts)?;
        report.web = Some(web_origin(&suspect));
        // The work it copies: the searched work with the most similar source.
        let Some((work, top)) = report
            .sources
            .iter()
            .find_map(|s| self.work_of.get(&s.id).map(|&w| (w, s)))
            .or_else(|| hint.zip(report.sources.first()))
        else {
            return Ok(None);
        };
        let (top_source, similarity) = (top.id, top.similarity);
        let work_id = self.works[work].id;
        let licensed = is_licensed(&self.allowed, url, work_id);
        let finding_id = record_finding_in(
            self.store,
            self.store.params(),
            FindingKind::Web,
            &captured(&suspect),
            &suspect.text,
            &report,
            self.check_opts,
        )?;
        if let Some(w) = &mut report.web {
            w.finding_id = Some(finding_id);
        }
        self.last_copy_page = suspect.pages.first().cloned();
        if !licensed {
            let checked = WebChecked { report: report.clone(), suspect: None, failed_status: None };
            let mut observation: Observation = checked.observation(Some(finding_id));
            observation.url = url.to_string();
            observation.seen = Seen::Copies { finding_id: Some(finding_id), similarity, top_source };
            let changed = self.store.observe(&[observation], crate::engine::time::now())?;
            let c = &mut self.report.changes;
            c.new.extend(changed.new);
            c.back.extend(changed.back);
            c.still_online.extend(changed.still_online);
        }
        let wd = &mut self.report.works[work];
        if licensed {
            wd.licensed += 1;
        } else {
            wd.copies += 1;
            if !wd.sites.contains(&site) {
                wd.sites.push(site.clone());
            }
        }
        self.report.copies.push(FoundCopy {
            url: url.to_string(),
            final_url: suspect.final_url().to_string(),
            host: parsed.host_str().unwrap_or("").to_string(),
            work_id,
            work: self.works[work].title.clone(),
            top_source,
            similarity,
            licensed,
            found_by,
            finding_id: Some(finding_id),
        });
        Ok(Some((parsed, work, licensed)))
    }

    fn limit(&mut self, message: String) {
        if !self.report.limits.contains(&message) {
            self.report.limits.push(message);
        }
    }

    /// Learns the site of `copy` (a verified, unlicensed copy of `work`): see the module.
    fn learn_site(&mut self, copy: &Url, work: usize) -> Result<()> {
        let site = site_of(copy);
        if !self.learned.insert(site.clone()) {
            return Ok(());
        }
        let started = Instant::now();
        let mut contents_read = Vec::new();
        let over_time = |run: &mut Self| -> bool {
            if started.elapsed() > run.opts.max_site_time {
                run.limit(format!(
                    "{site}: time per site ({} s) reached; the rest of the site was not checked",
                    run.opts.max_site_time.as_secs()
                ));
                return true;
            }
            false
        };
        // The copy's first page, just checked, for its links.
        let contents_pages: Vec<Url> =
            self.last_copy_page.take().map_or_else(Vec::new, |p| site::contents_candidates(&p));
        let mut folders: Vec<String> = vec![folder_of(copy)];
        for candidate in contents_pages.into_iter().take(3) {
            if self.cancel.is_cancelled() || over_time(self) {
                break;
            }
            if self.read_contents(&site, candidate.as_str(), FoundBy::Contents, work, &mut contents_read)? {
                folders.push(candidate.path().to_string());
                break;
            }
        }
        // The sitemaps: pages in the folders of the book's copies and contents.
        if !self.cancel.is_cancelled() && !over_time(self) && self.room(&site) > 0 {
            let room = self.room(&site);
            let (listed, files) = site::sitemap_urls(&mut self.fetcher, copy, 50_000, room);
            self.bump(&site, files);
            let room = self.room(&site);
            let mut in_book: Vec<Url> = listed
                .into_iter()
                .filter(|u| !self.checked.contains(u.as_str()))
                .filter(|u| folders.iter().any(|f| u.path().starts_with(f.as_str()) && f != "/"))
                .collect();
            if in_book.len() > room {
                self.limit(format!(
                    "{site}: pages per site ({}) reached; {} pages its sitemap lists were not checked",
                    self.opts.max_pages_per_site,
                    in_book.len() - room
                ));
                in_book.truncate(room);
            }
            for url in in_book {
                if self.cancel.is_cancelled() || over_time(self) {
                    break;
                }
                self.check_page(url.as_str(), FoundBy::Sitemap, Some(work))?;
            }
        }
        // The site's own search for the title (and author).
        if !self.cancel.is_cancelled() && !over_time(self) && self.room(&site) > 0 {
            let title = self.works[work].title.clone();
            let mut terms = vec![title.as_str()];
            terms.extend(self.works[work].authors.iter().map(String::as_str));
            let room = self.room(&site);
            let (found, fetched) = site::site_search(&mut self.fetcher, copy, &title, &terms, room);
            self.bump(&site, fetched);
            for book in found.into_iter().take(3) {
                if self.cancel.is_cancelled() || over_time(self) {
                    break;
                }
                if !contents_read.contains(&book.to_string()) {
                    self.read_contents(&site, book.as_str(), FoundBy::SiteSearch, work, &mut contents_read)?;
                }
            }
        }
        let pages = self.site_pages.get(&site).copied().unwrap_or(0);
        if pages >= self.opts.max_pages_per_site {
            self.limit(format!(
                "{site}: pages per site ({}) reached; the rest of the site was not checked",
                self.opts.max_pages_per_site
            ));
        }
        let copies = self.report.copies.iter().filter(|c| !c.licensed && c.url.starts_with(&site)).count();
        let mut watch_id = None;
        if self.opts.watch_new_sites {
            let known: HashSet<String> =
                self.store.watches()?.iter().filter_map(|w| Url::parse(&w.url).ok().map(|u| site_of(&u))).collect();
            if !known.contains(&site) {
                let (url, follow) = contents_read.first().map_or((copy.to_string(), false), |c| (c.clone(), true));
                let label = format!("{} (found by discovery)", copy.host_str().unwrap_or(""));
                watch_id = Some(
                    self.store
                        .add_watch(&NewWatch { url, label, follow, every_secs: DAILY }, crate::engine::time::now())?,
                );
            }
        }
        self.report.sites.push(FoundSite { site, copies, licensed: false, contents: contents_read, pages, watch_id });
        Ok(())
    }

    /// Pages `site` may still be asked for.
    fn room(&self, site: &str) -> usize {
        self.opts.max_pages_per_site.saturating_sub(self.site_pages.get(site).copied().unwrap_or(0))
    }

    fn bump(&mut self, site: &str, pages: usize) {
        *self.site_pages.entry(site.to_string()).or_default() += pages;
        self.report.pages_fetched += pages;
    }

    /// Reads a contents page (over all its pages) and checks its chapters; whether it
    /// listed any copy.
    fn read_contents(
        &mut self,
        site: &str,
        url: &str,
        found_by: FoundBy,
        work: usize,
        contents_read: &mut Vec<String>,
    ) -> Result<bool> {
        if self.checked.contains(url) || self.room(site) == 0 {
            return Ok(false);
        }
        let contents = match crawl::contents(&mut self.fetcher, url, self.cancel) {
            Ok(c) => c,
            Err(_) => {
                self.bump(site, 1);
                return Ok(false);
            }
        };
        self.bump(site, contents.pages);
        if let Some(cut) = contents.cut {
            self.limit(cut);
        }
        if contents.chapters.len() < 2 {
            return Ok(false);
        }
        let before = self.report.copies.len();
        let room = self.room(site);
        let unchecked: Vec<Url> =
            contents.chapters.into_iter().filter(|c| !self.checked.contains(c.as_str())).collect();
        if unchecked.len() > room {
            self.limit(format!(
                "{site}: pages per site ({}) reached; {} chapters listed by {url} were not checked",
                self.opts.max_pages_per_site,
                unchecked.len() - room
            ));
        }
        for chapter in unchecked {
            if self.cancel.is_cancelled() {
                break;
            }
            self.check_page(chapter.as_str(), found_by, Some(work))?;
        }
        let found = self.report.copies.len() > before;
        if found {
            contents_read.push(url.to_string());
        }
        Ok(found)
    }
}

/// The folder of a page's path (`/book/7/3.html` → `/book/7/`).
fn folder_of(url: &Url) -> String {
    url.join("./").map_or_else(|_| "/".to_string(), |u| u.path().to_string())
}

/// Runs one discovery: see the module. `watch_id` names the scheduled discovery it runs
/// for, if any. A search engine that fails is reported, never fatal; a store that fails
/// is (nothing can be kept).
#[allow(clippy::too_many_arguments)]
pub fn discover_with(
    index: &Index,
    store: &mut Store,
    engine: &mut dyn SearchEngine,
    works: &[WorkToFind],
    opts: &DiscoverOptions,
    check_opts: &CheckOptions,
    watch_id: Option<i64>,
    progress: &dyn Fn(&str),
    cancel: &Cancel,
) -> Result<DiscoveryReport> {
    let started = Instant::now();
    let now = opts.now.unwrap_or_else(crate::engine::time::now);
    let run_id = store.start_discovery_run(watch_id, now)?;
    let phrases = pick_phrases(index, store, works, opts, check_opts)?;
    // Never rendered: the browser would load whatever a found page asks for.
    let fetch = FetchOptions { public_only: !opts.allow_private, render: false, ..opts.fetch.clone() };
    let mut run = Run {
        index,
        allowed: store.allowed_sites()?,
        store,
        fetcher: Fetcher::new(fetch)?,
        opts,
        check_opts,
        works,
        work_of: work_of_documents(works),
        checked: HashSet::new(),
        learned: HashSet::new(),
        last_copy_page: None,
        site_pages: HashMap::new(),
        report: DiscoveryReport {
            run_id: Some(run_id),
            search_engine: engine.describe(),
            works: works
                .iter()
                .zip(&phrases)
                .map(|(w, p)| WorkDiscovery {
                    work_id: w.id,
                    work: w.title.clone(),
                    chapters: w.documents.len(),
                    phrases: p.iter().map(|(_, ph)| ph.len()).sum(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        },
        candidates: vec![HashSet::new(); works.len()],
        progress,
        cancel,
    };
    // Round-robin: every chapter's best phrase, then every chapter's second, … so a query
    // budget smaller than the phrases still covers every chapter.
    let mut queue: Vec<(usize, String)> = Vec::new();
    let rounds = phrases.iter().flatten().map(|(_, p)| p.len()).max().unwrap_or(0);
    for round in 0..rounds {
        for (w, chapters) in phrases.iter().enumerate() {
            for (_, p) in chapters {
                if let Some(phrase) = p.get(round) {
                    queue.push((w, phrase.text.clone()));
                }
            }
        }
    }
    if queue.len() > opts.max_queries {
        run.limit(format!(
            "query budget ({}) reached; {} of {} phrases were not searched",
            opts.max_queries,
            queue.len() - opts.max_queries,
            queue.len()
        ));
        queue.truncate(opts.max_queries);
    }
    let mut refused_in_a_row = 0;
    for (w, phrase) in queue {
        if cancel.is_cancelled() {
            break;
        }
        progress(&format!("search: {phrase}"));
        run.report.queries += 1;
        run.report.works[w].queries += 1;
        let answer = engine.search(&SearchQuery { phrase, page: 1, time_range: opts.time_range });
        let answer = match answer {
            Ok(a) => {
                refused_in_a_row = 0;
                a
            }
            Err(e) => {
                if matches!(e, SearchError::RateLimited { .. }) {
                    refused_in_a_row += 1;
                }
                run.report.search_errors.push(e.to_string());
                if refused_in_a_row == 3 {
                    run.limit("the search engine refused 3 queries in a row (rate limit); searching stopped".into());
                    break;
                }
                continue;
            }
        };
        for engine_name in answer.unresponsive {
            if !run.report.unresponsive_engines.contains(&engine_name) {
                run.report.unresponsive_engines.push(engine_name);
            }
        }
        for hit in answer.hits {
            let Ok(mut url) = Url::parse(&hit.url) else { continue };
            if !matches!(url.scheme(), "http" | "https") {
                continue;
            }
            url.set_fragment(None);
            if run.candidates[w].insert(url.to_string()) {
                run.report.works[w].candidates += 1;
            }
            if cancel.is_cancelled() {
                break;
            }
            if let Some((copy, work, licensed)) = run.check_page(url.as_str(), FoundBy::Search, Some(w))?
                && opts.learn_sites
                && !licensed
            {
                run.learn_site(&copy, work)?;
            }
        }
    }
    // Sites with only licensed copies are listed too, apart.
    let mut licensed_sites: Vec<String> = run
        .report
        .copies
        .iter()
        .filter(|c| c.licensed)
        .filter_map(|c| Url::parse(&c.url).ok().map(|u| site_of(&u)))
        .collect();
    licensed_sites.sort();
    licensed_sites.dedup();
    for site in licensed_sites {
        if !run.report.sites.iter().any(|s| s.site == site) {
            let copies = run.report.copies.iter().filter(|c| c.licensed && c.url.starts_with(&site)).count();
            let pages = run.site_pages.get(&site).copied().unwrap_or(0);
            run.report.sites.push(FoundSite {
                site,
                copies,
                licensed: true,
                contents: Vec::new(),
                pages,
                watch_id: None,
            });
        }
    }
    let mut report = run.report;
    report.cancelled = cancel.is_cancelled();
    report.seconds = started.elapsed().as_secs_f64();
    let summary = serde_json::to_string(&report).expect("reports serialize");
    store.finish_discovery_run(run_id, now + started.elapsed().as_secs() as i64, report.cancelled, &summary)?;
    Ok(report)
}

impl Corpus {
    /// Runs one discovery on this corpus (see the module).
    #[allow(clippy::too_many_arguments)]
    pub fn discover(
        &mut self,
        engine: &mut dyn SearchEngine,
        works: &[WorkToFind],
        opts: &DiscoverOptions,
        check_opts: &CheckOptions,
        watch_id: Option<i64>,
        progress: &dyn Fn(&str),
        cancel: &Cancel,
    ) -> Result<DiscoveryReport> {
        let index = self.index();
        discover_with(&index, self.store_mut(), engine, works, opts, check_opts, watch_id, progress, cancel)
    }
}

impl Checker {
    /// [`Corpus::discover`] on this snapshot and connection.
    #[allow(clippy::too_many_arguments)]
    pub fn discover(
        &mut self,
        engine: &mut dyn SearchEngine,
        works: &[WorkToFind],
        opts: &DiscoverOptions,
        check_opts: &CheckOptions,
        watch_id: Option<i64>,
        progress: &dyn Fn(&str),
        cancel: &Cancel,
    ) -> Result<DiscoveryReport> {
        let (index, store) = self.parts();
        discover_with(&index, store, engine, works, opts, check_opts, watch_id, progress, cancel)
    }
}
