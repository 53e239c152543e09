//! The picture (the reference system's analysis module): what the tracked copies say per
//! work, per site and over time. Computed from the store's copies (`store/watch.rs`) and
//! the findings they point to; nothing here is stored.
//!
//! - per work (a book with its chapters, `store/works.rs`): the pages and sites copying it (a
//!   page counts once for every work its latest copying capture matched, however many of its
//!   chapters), the chapters copied, the best similarity, first and last seen; a document removed
//!   since counts as a work of its own;
//! - per site (host): its pages, the works they copy, the share of their text that is
//!   copied (similarity weighted by the pages' characters), how many are still online;
//! - per day (UTC): copies first seen that day, and copies online at the day's end (from
//!   each copy's history: `new`/`back` put it online, `gone` takes it off).

use crate::Result;
use crate::engine::store::Store;
use crate::engine::store::watch::{CopyStatus, TrackedCopy};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Days drawn at most, back from today.
pub const MAX_DAYS: i64 = 366;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkStats {
    /// The work; `None` for a document removed since (then `title` says so).
    pub work_id: Option<u32>,
    /// The first of its chapters copied (by id), and that chapter's path.
    pub doc_id: u32,
    pub title: String,
    pub authors: Vec<String>,
    pub path: String,
    /// Its chapters that some page copies.
    pub chapters: usize,
    pub sites: usize,
    pub pages: usize,
    pub online: usize,
    pub best_similarity: f64,
    pub first_seen: i64,
    pub last_seen: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SiteStats {
    pub host: String,
    pub pages: usize,
    pub works: usize,
    /// Copied characters over all characters of the site's copying pages.
    pub copied_share: f64,
    pub online: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DayStats {
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    pub new: usize,
    pub online: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Picture {
    /// Most copied first (pages, then sites).
    pub works: Vec<WorkStats>,
    /// Most pages first.
    pub sites: Vec<SiteStats>,
    /// Oldest first, from the first copy's day (at most [`MAX_DAYS`] back) to `now`'s.
    pub days: Vec<DayStats>,
    pub copies: usize,
    pub online: usize,
    pub generated_at: i64,
}

#[derive(Default)]
struct SiteSums {
    pages: usize,
    works: BTreeSet<WorkKey>,
    copied_chars: f64,
    chars: f64,
    online: usize,
}

/// What copies are counted by: a work, or a document no longer in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum WorkKey {
    Work(u32),
    Removed(u32),
}

/// The picture as of `now` (unix seconds).
pub fn picture(store: &Store, now: i64) -> Result<Picture> {
    let copies = store.copies()?;
    let findings: HashMap<i64, crate::engine::store::FindingInfo> =
        store.findings(&Default::default())?.into_iter().map(|f| (f.id, f)).collect();
    let documents: HashMap<u32, crate::engine::store::DocumentInfo> =
        store.documents()?.into_iter().map(|d| (d.id, d)).collect();
    // Each copy's works: its latest copying capture's sources, else the one it was tracked by.
    let works_of = |c: &TrackedCopy| -> Vec<(u32, f64)> {
        match c.finding_id.and_then(|id| findings.get(&id)) {
            Some(f) if !f.sources.is_empty() => f.sources.clone(),
            _ => vec![(c.top_source, c.similarity)],
        }
    };

    let work_of = store.works_of_documents()?;
    // Per work: the hosts and chapters seen, and the stats so far (sites filled in at the end).
    type Seen<'a> = (BTreeSet<&'a str>, BTreeSet<u32>, WorkStats);
    let mut works: BTreeMap<WorkKey, Seen> = BTreeMap::new();
    let mut sites: BTreeMap<&str, SiteSums> = BTreeMap::new();
    for c in &copies {
        let online = usize::from(c.tracking.status == CopyStatus::Online);
        let site = sites.entry(&c.host).or_default();
        // A page counts once per work, with its best similarity to any of the work's chapters.
        let mut by_work: BTreeMap<WorkKey, (u32, f64)> = BTreeMap::new();
        for (doc, similarity) in works_of(c) {
            let key = work_of.get(&doc).map_or(WorkKey::Removed(doc), |w| WorkKey::Work(w.id));
            let best = by_work.entry(key).or_insert((doc, similarity));
            *best = (best.0.min(doc), best.1.max(similarity));
        }
        for (key, (doc, similarity)) in by_work {
            let (hosts, chapters, w) = works.entry(key).or_insert_with(|| {
                let d = documents.get(&doc);
                let work = work_of.get(&doc);
                (
                    BTreeSet::new(),
                    BTreeSet::new(),
                    WorkStats {
                        work_id: work.map(|w| w.id),
                        doc_id: doc,
                        title: match (work, d) {
                            (Some(w), _) => w.title.clone(),
                            (None, Some(d)) => d.title.clone(),
                            (None, None) => format!("document {doc} (removed)"),
                        },
                        authors: work.map(|w| w.authors.clone()).unwrap_or_default(),
                        path: d.map_or_else(String::new, |d| d.path.clone()),
                        chapters: 0,
                        sites: 0,
                        pages: 0,
                        online: 0,
                        best_similarity: 0.0,
                        first_seen: i64::MAX,
                        last_seen: i64::MIN,
                    },
                )
            });
            for (d, _) in works_of(c) {
                if work_of.get(&d).map_or(WorkKey::Removed(d), |w| WorkKey::Work(w.id)) == key {
                    chapters.insert(d);
                }
            }
            hosts.insert(&c.host);
            w.pages += 1;
            w.online += online;
            w.best_similarity = w.best_similarity.max(similarity);
            w.first_seen = w.first_seen.min(c.tracking.first_seen);
            w.last_seen = w.last_seen.max(c.tracking.last_seen);
            site.works.insert(key);
        }
        let chars = c.finding_id.and_then(|id| findings.get(&id)).map_or(0, |f| f.chars) as f64;
        site.pages += 1;
        site.copied_chars += c.similarity * chars;
        site.chars += chars;
        site.online += online;
    }
    let mut works: Vec<WorkStats> = works
        .into_values()
        .map(|(hosts, chapters, w)| WorkStats { sites: hosts.len(), chapters: chapters.len(), ..w })
        .collect();
    works.sort_by(|a, b| b.pages.cmp(&a.pages).then(b.sites.cmp(&a.sites)).then(a.doc_id.cmp(&b.doc_id)));
    let mut sites: Vec<SiteStats> = sites
        .into_iter()
        .map(|(host, s)| SiteStats {
            host: host.to_string(),
            pages: s.pages,
            works: s.works.len(),
            copied_share: if s.chars > 0.0 { s.copied_chars / s.chars } else { 0.0 },
            online: s.online,
        })
        .collect();
    sites.sort_by(|a, b| b.pages.cmp(&a.pages).then(a.host.cmp(&b.host)));
    Ok(Picture {
        days: days(&copies, now),
        online: copies.iter().filter(|c| c.tracking.status == CopyStatus::Online).count(),
        copies: copies.len(),
        works,
        sites,
        generated_at: now,
    })
}

fn days(copies: &[TrackedCopy], now: i64) -> Vec<DayStats> {
    const DAY: i64 = 86_400;
    let today = now.div_euclid(DAY);
    let Some(first) = copies.iter().map(|c| c.tracking.first_seen.div_euclid(DAY)).min() else { return Vec::new() };
    let first = first.max(today - MAX_DAYS + 1);
    (first..=today)
        .map(|day| {
            let end = (day + 1) * DAY;
            let online_at_end = |c: &TrackedCopy| {
                c.history
                    .iter()
                    .rfind(|e| e.at < end && matches!(e.event.as_str(), "new" | "back" | "gone"))
                    .is_some_and(|e| e.event != "gone")
            };
            let (y, m, d, ..) = crate::engine::time::civil(day * DAY);
            DayStats {
                day: format!("{y:04}-{m:02}-{d:02}"),
                new: copies.iter().filter(|c| c.tracking.first_seen.div_euclid(DAY) == day).count(),
                online: copies.iter().filter(|c| online_at_end(c)).count(),
            }
        })
        .collect()
}
