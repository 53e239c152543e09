//! Web pages checked against the corpus: fetched (a chapter over its pages, or the chapters
//! a contents page lists), checked like any text, with their origin in the report.

use crate::engine::check::{self, CheckOptions, SuspectReport, WebOrigin};
use crate::engine::corpus::{Checker, Corpus, check_text_with};
use crate::engine::index::Index;
use crate::engine::progress::Cancel;
use crate::engine::store::watch::{Observation, Seen};
use crate::engine::store::{CapturedPage, Store, findings};
use crate::engine::web::crawl::{self, WebSuspect};
use crate::engine::web::fetch::{FetchOptions, Fetcher};
use crate::{Error, Result};
use std::collections::HashSet;

/// A checked web suspect: its report (with its origin) and the pages it was read from.
pub struct WebChecked {
    pub report: SuspectReport,
    /// `None` when nothing could be fetched (the report says why).
    pub suspect: Option<WebSuspect>,
    /// The HTTP status the page failed with, if it answered with one.
    pub failed_status: Option<u16>,
}

impl WebChecked {
    /// What this check shows about the page, for tracking copies over time; `finding_id`
    /// is the finding it was recorded as.
    pub fn observation(&self, finding_id: Option<i64>) -> Observation {
        let url = self.report.web.as_ref().map_or(&self.report.path, |w| &w.url).clone();
        let seen = match (&self.suspect, self.report.sources.first(), self.failed_status) {
            (Some(_), Some(top), _) => {
                Seen::Copies { finding_id, similarity: self.report.similarity, top_source: top.id }
            }
            (Some(_), None, _) => Seen::NoMatch,
            (None, _, Some(status @ (404 | 410))) => Seen::Missing { status },
            (None, _, _) => Seen::Unreachable { reason: self.report.error.clone().unwrap_or_default() },
        };
        Observation { url, seen }
    }
}

/// How web suspects are gathered.
#[derive(Clone, Debug)]
pub struct WebCheckOptions {
    /// Treat each URL as a table of contents and check the chapters it links to.
    pub follow: bool,
    /// Pages fetched at most, over all URLs (robots.txt not counted).
    pub max_pages: usize,
    pub fetch: FetchOptions,
}

impl Default for WebCheckOptions {
    fn default() -> Self {
        WebCheckOptions { follow: false, max_pages: 500, fetch: FetchOptions::default() }
    }
}

impl Corpus {
    /// Fetches and checks web pages: each URL as one suspect (a chapter split over pages
    /// read whole), or with `follow` the chapters each URL lists. A URL that cannot be
    /// fetched gives a report with `error` naming it and the reason; the rest go on.
    /// `progress` hears of each URL as it is fetched.
    pub fn check_urls(
        &self,
        urls: &[String],
        web: &WebCheckOptions,
        opts: &CheckOptions,
        progress: &dyn Fn(&str),
        cancel: &Cancel,
    ) -> Result<Vec<WebChecked>> {
        check_urls_with(&self.index(), self.store(), urls, web, opts, progress, cancel)
    }
}

pub(crate) fn check_urls_with(
    index: &Index,
    store: &Store,
    urls: &[String],
    web: &WebCheckOptions,
    opts: &CheckOptions,
    progress: &dyn Fn(&str),
    cancel: &Cancel,
) -> Result<Vec<WebChecked>> {
    let mut out = Vec::new();
    let mut fetcher = Fetcher::new(web.fetch.clone())?;
    gather_urls(&mut fetcher, urls, web, progress, cancel, &mut |gathered| {
        out.push(check_gathered(index, store, gathered, opts)?);
        Ok(())
    })?;
    Ok(out)
}

/// A page read for checking, or a URL that could not be read (its report says why).
pub(crate) enum Gathered {
    Page(WebSuspect),
    Failed(Box<WebChecked>),
}

/// Checks a gathered page against the corpus.
pub(crate) fn check_gathered(
    index: &Index,
    store: &Store,
    gathered: Gathered,
    opts: &CheckOptions,
) -> Result<WebChecked> {
    match gathered {
        Gathered::Page(suspect) => {
            let mut report = check_text_with(index, store, &suspect.url, &suspect.text, opts)?;
            report.web = Some(web_origin(&suspect));
            report.disguises.images = suspect.images_read;
            report.disguises.font_remapped = suspect.font_remapped;
            Ok(WebChecked { report, suspect: Some(suspect), failed_status: None })
        }
        Gathered::Failed(failed) => Ok(*failed),
    }
}

/// Where each page goes as soon as it is read: checked there and, in a watch run,
/// recorded at once, so a crash loses at most the page in hand and memory holds one page
/// at a time.
pub(crate) type PageSink<'a> = dyn FnMut(Gathered) -> Result<()> + 'a;

/// Reads each URL (a chapter over its pages), or with `follow` the chapters each lists,
/// handing every page or failure to `sink` in turn. One `fetcher` for a whole run keeps its
/// robots.txt and per-host delays across calls.
pub(crate) fn gather_urls(
    fetcher: &mut Fetcher,
    urls: &[String],
    web: &WebCheckOptions,
    progress: &dyn Fn(&str),
    cancel: &Cancel,
    sink: &mut PageSink,
) -> Result<()> {
    let mut out = Sink(sink);
    let mut pages = 0usize;
    let failed = |url: &str, e: Error| WebChecked {
        failed_status: if let Error::HttpStatus { status, .. } = e { Some(status) } else { None },
        report: SuspectReport::failed(url.to_string(), e.to_string()),
        suspect: None,
    };
    for url in urls {
        if cancel.is_cancelled() {
            break;
        }
        let (chapters, listed): (Vec<String>, HashSet<url::Url>) = if web.follow {
            progress(url);
            match crawl::contents(fetcher, url, cancel) {
                // A chapter's own link followed: the page is checked as itself.
                Ok(contents) if contents.is_chapter => (vec![url.clone()], HashSet::new()),
                Ok(contents) if contents.chapters.is_empty() => {
                    pages += contents.pages;
                    out.push(failed(
                        url,
                        Error::Fetch {
                            url: url.clone(),
                            reason: "the contents page links to no chapter of this site".into(),
                        },
                    ))?;
                    continue;
                }
                Ok(contents) => {
                    pages += contents.pages;
                    if let Some(cut) = contents.cut {
                        out.push(failed(url, Error::Fetch { url: url.clone(), reason: cut }))?;
                    }
                    let links = contents.chapters;
                    (links.iter().map(|u| u.to_string()).collect(), links.into_iter().collect())
                }
                Err(e) => {
                    out.push(failed(url, e))?;
                    continue;
                }
            }
        } else {
            (vec![url.clone()], HashSet::new())
        };
        // A contents page read in this thread's long-text turn is done with.
        check::release_held_turn();
        let total = chapters.len();
        // Long chapters put off while another thread checks a long page (see
        // `FetchOptions::long_pages_take_turns`): tried again between the next chapters when
        // the turn is free, and after the last, waiting for it.
        let mut put_off: std::collections::VecDeque<String> = Default::default();
        let mut queue = chapters.into_iter().map(|c| (c, true)).collect::<std::collections::VecDeque<_>>();
        let mut done = 0usize;
        loop {
            let (chapter, may_put_off) = match put_off.front() {
                // The last ones wait for the turn.
                Some(_) if queue.is_empty() => (put_off.pop_front().expect("one is put off"), false),
                // Once the site's delay has passed, the turn is taken if free and the page
                // read in it; else the next chapter is read.
                Some(first) if fetcher.wait_for_host(first) && check::hold_long_text_turn(false) => {
                    (put_off.pop_front().expect("one is put off"), false)
                }
                _ => match queue.pop_front() {
                    Some(next) => next,
                    None => break,
                },
            };
            if cancel.is_cancelled() {
                break;
            }
            if pages >= web.max_pages {
                // Said, never silent: the first chapter left out names the limit.
                let reason = format!(
                    "not checked: the page limit ({}) was reached; {} of {total} chapters listed by {url} were not checked",
                    web.max_pages,
                    total - done
                );
                out.push(failed(&chapter, Error::Fetch { url: chapter.clone(), reason }))?;
                break;
            }
            progress(&chapter);
            fetcher.put_off_long_pages = may_put_off;
            let result = crawl::chapter(fetcher, &chapter, &listed, !web.follow, cancel);
            fetcher.put_off_long_pages = false;
            match result {
                Err(Error::PutOff { .. }) => {
                    put_off.push_back(chapter);
                    continue;
                }
                Ok(suspect) => {
                    pages += suspect.pages.len();
                    (out.0)(Gathered::Page(suspect))?;
                }
                Err(e) => out.push(failed(&chapter, e))?,
            }
            done += 1;
            // The page is checked and recorded (or failed): its turn goes to the next.
            check::release_held_turn();
        }
        check::release_held_turn();
    }
    Ok(())
}

/// The sink with `push`, so the crawl reads as it did when it collected a list.
struct Sink<'a, 'b>(&'a mut PageSink<'b>);

impl Sink<'_, '_> {
    fn push(&mut self, failed: WebChecked) -> Result<()> {
        (self.0)(Gathered::Failed(Box::new(failed)))
    }
}

/// The pages of a web suspect as the findings library keeps them.
pub fn captured(suspect: &WebSuspect) -> Vec<CapturedPage> {
    suspect
        .pages
        .iter()
        .map(|p| CapturedPage {
            url: p.url.clone(),
            final_url: p.final_url.clone(),
            status: Some(p.status),
            headers: p.headers.clone(),
            fetched_at: p.fetched_at,
            bytes: p.bytes.clone(),
            warc: Some(p.warc.clone()),
        })
        .collect()
}

/// The origin a web suspect's report carries.
pub fn web_origin(suspect: &WebSuspect) -> WebOrigin {
    WebOrigin {
        url: suspect.url.clone(),
        final_url: suspect.final_url().to_string(),
        fetched_at: crate::engine::time::rfc3339(suspect.pages.first().map_or(0, |p| p.fetched_at)),
        sha256: findings::sha256_of(suspect.pages.iter().map(|p| p.bytes.as_slice())),
        pages: suspect
            .pages
            .iter()
            .map(|p| crate::engine::check::PageHash { url: p.final_url.clone(), sha256: findings::sha256(&p.bytes) })
            .collect(),
        finding_id: None,
    }
}

impl Checker {
    /// [`Corpus::check_urls`] on this snapshot.
    pub fn check_urls(
        &self,
        urls: &[String],
        web: &WebCheckOptions,
        opts: &CheckOptions,
        progress: &dyn Fn(&str),
        cancel: &Cancel,
    ) -> Result<Vec<WebChecked>> {
        let (index, store) = (self.index(), self.store());
        check_urls_with(&index, store, urls, web, opts, progress, cancel)
    }
}
