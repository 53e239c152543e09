//! Watching over time: watch lists, their runs, and the copies they track.
//!
//! A *copy* is a web page (one URL) that copies a work of the corpus. Each check of a page
//! is an [`Observation`]; [`Store::observe`] moves the copies' statuses from them, in one
//! transaction, and says what changed:
//! - a page seen copying for the first time is *new*, or *back* when a copy of the same
//!   work on the same site had gone (a page taken down and put up again under another
//!   address; it inherits the notice sent for the old one);
//! - a known copy seen copying again is *still online*, or *back* if it had gone;
//! - an online copy whose page answers 404/410, or no longer copies, is *gone*;
//! - a page that gives no usable answer (timeout, server error) changes nothing.
//!
//! A watch run is recorded as `running` when it starts and finished in the same
//! transaction that moves the statuses, so a run that crashes or is killed changes no
//! status and leaves its watch due; its findings (each written in its own transaction)
//! stay.

use super::Store;
use crate::Result;
use rusqlite::{OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

/// How often a watch is due, at least and at most.
pub const MIN_EVERY_SECS: i64 = 300;
pub const MAX_EVERY_SECS: i64 = 7 * 86_400;
pub const DAILY: i64 = 86_400;

/// A site or page checked again and again.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Watch {
    pub id: i64,
    pub url: String,
    /// A name for the site (may be empty).
    pub label: String,
    /// The URL is a contents page: its chapters are checked.
    pub follow: bool,
    pub every_secs: i64,
    pub created_at: i64,
    /// When the last completed run started.
    pub last_run_at: Option<i64>,
}

impl Watch {
    /// When the next run is due: at once for a watch never run.
    pub fn due_at(&self) -> i64 {
        self.last_run_at.map_or(self.created_at, |t| t + self.every_secs)
    }

    /// A watch never run is due whatever the clock says.
    pub fn is_due(&self, now: i64) -> bool {
        self.last_run_at.is_none() || self.due_at() <= now
    }
}

/// What a watch is added with.
#[derive(Clone, Debug, PartialEq)]
pub struct NewWatch {
    pub url: String,
    pub label: String,
    pub follow: bool,
    pub every_secs: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CopyStatus {
    Online,
    Gone,
}

impl CopyStatus {
    pub(super) fn parse(s: &str) -> CopyStatus {
        if s == "gone" { CopyStatus::Gone } else { CopyStatus::Online }
    }
}

/// A page that copies a work, followed over time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrackedCopy {
    pub id: i64,
    pub url: String,
    pub host: String,
    pub watch_id: Option<i64>,
    /// The latest finding in which the page copies.
    pub finding_id: Option<i64>,
    pub similarity: f64,
    /// The corpus document it copies most.
    pub top_source: u32,
    #[serde(flatten)]
    pub tracking: Tracking,
    /// Status changes, oldest first.
    pub history: Vec<CopyEvent>,
}

/// Where a copy stands: its status, when it was seen, taken down and sent a notice (also
/// shown beside the findings of its page).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tracking {
    pub status: CopyStatus,
    pub first_seen: i64,
    pub last_seen: i64,
    /// Taken down on (while gone).
    pub gone_at: Option<i64>,
    pub gone_reason: Option<String>,
    pub notice_sent_at: Option<i64>,
    pub notice_to: Option<String>,
}

impl Tracking {
    /// From the columns `status, first_seen, last_seen, gone_at, gone_reason,
    /// notice_sent_at, notice_to` of `copies`, starting at column `first`.
    pub(super) fn from_row(r: &rusqlite::Row, first: usize) -> rusqlite::Result<Tracking> {
        Ok(Tracking {
            status: CopyStatus::parse(&r.get::<_, String>(first)?),
            first_seen: r.get(first + 1)?,
            last_seen: r.get(first + 2)?,
            gone_at: r.get(first + 3)?,
            gone_reason: r.get(first + 4)?,
            notice_sent_at: r.get(first + 5)?,
            notice_to: r.get(first + 6)?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CopyEvent {
    pub at: i64,
    /// `new`, `gone`, `back` or `notice`.
    pub event: String,
    pub detail: String,
}

/// What one check of a page showed.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen {
    /// The page copies: its finding, its similarity and the document it copies most.
    Copies { finding_id: Option<i64>, similarity: f64, top_source: u32 },
    /// The page was read and copies nothing (any more).
    NoMatch,
    /// The server says the page is not there (HTTP 404 or 410).
    Missing { status: u16 },
    /// No answer that says anything (timeout, server error, refused): nothing changes.
    Unreachable { reason: String },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    pub url: String,
    pub seen: Seen,
}

/// One copy in a run's changes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub copy_id: i64,
    pub url: String,
    /// Why it went, where it was before it came back; empty otherwise.
    pub detail: String,
    pub notice_sent_at: Option<i64>,
    pub notice_to: Option<String>,
}

/// What changed since the last look.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Changes {
    pub new: Vec<Change>,
    pub still_online: Vec<Change>,
    pub gone: Vec<Change>,
    pub back: Vec<Change>,
    /// Pages that gave no usable answer: (URL, reason).
    pub unreachable: Vec<(String, String)>,
}

impl Changes {
    /// The counts as runs are summed up: `2 new, 0 back, 1 gone, 3 still online, 0 unreachable`.
    pub fn counts(&self) -> String {
        format!(
            "{} new, {} back, {} gone, {} still online, {} unreachable",
            self.new.len(),
            self.back.len(),
            self.gone.len(),
            self.still_online.len(),
            self.unreachable.len()
        )
    }
}

/// A run of a watch as recorded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WatchRun {
    pub id: i64,
    pub watch_id: i64,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    /// `running` (or interrupted, when it never finished), `done`, `cancelled`.
    pub outcome: String,
    pub changes: Changes,
}

/// The host of a URL, lower-case, as the per-site picture groups pages.
pub fn host_of(url: &str) -> String {
    url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)).unwrap_or_default()
}

const COPY_COLUMNS: &str = "id, url, host, watch_id, finding_id, similarity, top_source, status, first_seen, last_seen,
     gone_at, gone_reason, notice_sent_at, notice_to";

fn copy_row(r: &rusqlite::Row) -> rusqlite::Result<TrackedCopy> {
    Ok(TrackedCopy {
        id: r.get(0)?,
        url: r.get(1)?,
        host: r.get(2)?,
        watch_id: r.get(3)?,
        finding_id: r.get(4)?,
        similarity: r.get(5)?,
        top_source: r.get(6)?,
        tracking: Tracking::from_row(r, 7)?,
        history: Vec::new(),
    })
}

fn event(tx: &Transaction, copy: i64, at: i64, what: &str, detail: &str, run: Option<i64>) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO copy_events (copy_id, at, event, detail, run_id) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![copy, at, what, detail, run],
    )
    .map(|_| ())
}

fn change(c: &TrackedCopy, detail: String) -> Change {
    Change {
        copy_id: c.id,
        url: c.url.clone(),
        detail,
        notice_sent_at: c.tracking.notice_sent_at,
        notice_to: c.tracking.notice_to.clone(),
    }
}

/// Moves the statuses of the copies `observations` speak of (see the module's rules).
fn observe_in(
    tx: &Transaction,
    watch: Option<i64>,
    run: Option<i64>,
    observations: &[Observation],
    now: i64,
) -> rusqlite::Result<Changes> {
    let mut changes = Changes::default();
    let find = |url: &str| -> rusqlite::Result<Option<TrackedCopy>> {
        tx.query_row(&format!("SELECT {COPY_COLUMNS} FROM copies WHERE url = ?1"), [url], copy_row).optional()
    };
    // Pages that went are taken before pages that copy, so a chapter moved to another address
    // within one run is seen as gone at the old one and back at the new one (inheriting its
    // notice), not as a new copy; otherwise the run's order is kept.
    let mut ordered: Vec<&Observation> = observations.iter().collect();
    ordered.sort_by_key(|o| matches!(o.seen, Seen::Copies { .. }));
    for o in ordered {
        let known = find(&o.url)?;
        match (&o.seen, known) {
            (Seen::Copies { finding_id, similarity, top_source }, Some(c)) => {
                tx.execute(
                    "UPDATE copies SET status = 'online', last_seen = ?2, finding_id = ?3, similarity = ?4,
                     top_source = ?5, gone_at = NULL, gone_reason = NULL, watch_id = COALESCE(?6, watch_id)
                     WHERE id = ?1",
                    params![c.id, now, finding_id, similarity, top_source, watch],
                )?;
                if c.tracking.status == CopyStatus::Gone {
                    let detail =
                        format!("gone since {}", crate::engine::time::rfc3339(c.tracking.gone_at.unwrap_or(now)));
                    event(tx, c.id, now, "back", &detail, run)?;
                    changes.back.push(change(&c, detail));
                } else {
                    changes.still_online.push(change(&c, String::new()));
                }
            }
            (Seen::Copies { finding_id, similarity, top_source }, None) => {
                let host = host_of(&o.url);
                // The same work on the same site, gone: the page was put up again elsewhere.
                let moved: Option<TrackedCopy> = tx
                    .query_row(
                        &format!(
                            "SELECT {COPY_COLUMNS} FROM copies WHERE host = ?1 AND top_source = ?2 AND status = 'gone'
                             ORDER BY gone_at DESC LIMIT 1"
                        ),
                        params![host, top_source],
                        copy_row,
                    )
                    .optional()?;
                tx.execute(
                    "INSERT INTO copies (url, host, watch_id, finding_id, similarity, top_source, status, first_seen,
                     last_seen, notice_sent_at, notice_to) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'online', ?7, ?7, ?8, ?9)",
                    params![
                        o.url,
                        host,
                        watch,
                        finding_id,
                        similarity,
                        top_source,
                        now,
                        moved.as_ref().and_then(|m| m.tracking.notice_sent_at),
                        moved.as_ref().and_then(|m| m.tracking.notice_to.clone())
                    ],
                )?;
                let id = tx.last_insert_rowid();
                let copy = find(&o.url)?.expect("just inserted");
                match moved {
                    Some(old) => {
                        let detail = format!("was at {} (gone since {})", old.url, {
                            crate::engine::time::rfc3339(old.tracking.gone_at.unwrap_or(now))
                        });
                        event(tx, id, now, "back", &detail, run)?;
                        event(tx, old.id, now, "moved", &format!("back at {}", o.url), run)?;
                        changes.back.push(change(&copy, detail));
                    }
                    None => {
                        event(tx, id, now, "new", "", run)?;
                        changes.new.push(change(&copy, String::new()));
                    }
                }
            }
            (Seen::NoMatch | Seen::Missing { .. }, Some(c)) if c.tracking.status == CopyStatus::Online => {
                let reason = match &o.seen {
                    Seen::Missing { status } => format!("HTTP {status}: the page was removed"),
                    _ => "the page no longer copies".to_string(),
                };
                tx.execute(
                    "UPDATE copies SET status = 'gone', gone_at = ?2, gone_reason = ?3 WHERE id = ?1",
                    params![c.id, now, reason],
                )?;
                event(tx, c.id, now, "gone", &reason, run)?;
                changes.gone.push(change(&c, reason));
            }
            (Seen::Unreachable { reason }, _) => changes.unreachable.push((o.url.clone(), reason.clone())),
            // Still gone, or never a copy.
            _ => {}
        }
    }
    Ok(changes)
}

impl Store {
    /// Adds a watch; the same URL again updates its label, follow switch and frequency.
    pub fn add_watch(&mut self, w: &NewWatch, now: i64) -> Result<i64> {
        let every = w.every_secs.clamp(MIN_EVERY_SECS, MAX_EVERY_SECS);
        self.write_transaction(|tx| {
            tx.execute(
                "INSERT INTO watches (url, label, follow, every_secs, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (url) DO UPDATE SET label = excluded.label, follow = excluded.follow,
                 every_secs = excluded.every_secs",
                params![w.url, w.label, w.follow, every, now],
            )?;
            Ok(tx.query_row("SELECT id FROM watches WHERE url = ?1", [&w.url], |r| r.get(0))?)
        })
    }

    /// Watches, in the order they were added.
    pub fn watches(&self) -> Result<Vec<Watch>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, url, label, follow, every_secs, created_at, last_run_at FROM watches ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok(Watch {
                id: r.get(0)?,
                url: r.get(1)?,
                label: r.get(2)?,
                follow: r.get(3)?,
                every_secs: r.get(4)?,
                created_at: r.get(5)?,
                last_run_at: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes watches by id (their copies and findings stay); returns how many existed.
    pub fn remove_watches(&mut self, ids: &[i64]) -> Result<usize> {
        self.write_transaction(|tx| super::delete_ids(tx, "watches", ids))
    }

    /// Records that a run of `watch` starts; returns the run's id.
    pub fn start_watch_run(&mut self, watch: i64, now: i64) -> Result<i64> {
        self.write_transaction(|tx| {
            tx.execute(
                "INSERT INTO watch_runs (watch_id, started_at, outcome, summary) VALUES (?1, ?2, 'running', '{}')",
                params![watch, now],
            )?;
            Ok(tx.last_insert_rowid())
        })
    }

    /// Finishes a run: moves the copies' statuses from `observations`, records the changes
    /// and the watch's last run, all in one transaction.
    pub fn finish_watch_run(
        &mut self,
        run: i64,
        watch: i64,
        started_at: i64,
        observations: &[Observation],
        now: i64,
    ) -> Result<Changes> {
        self.write_transaction(|tx| {
            let changes = observe_in(tx, Some(watch), Some(run), observations, now)?;
            tx.execute(
                "UPDATE watch_runs SET finished_at = ?2, outcome = 'done', summary = ?3 WHERE id = ?1",
                params![run, now, serde_json::to_string(&changes).expect("changes serialize")],
            )?;
            tx.execute("UPDATE watches SET last_run_at = ?2 WHERE id = ?1", params![watch, started_at])?;
            Ok(changes)
        })
    }

    /// Marks a run cancelled: no status moves and its watch stays due.
    /// Marks the runs of `watch` still recorded as running as interrupted (killed or
    /// crashed: a run in progress is never started twice for one watch). Their findings stay;
    /// no status moved.
    pub fn mark_interrupted_watch_runs(&mut self, watch: i64) -> Result<usize> {
        self.write_transaction(|tx| {
            Ok(tx.execute(
                "UPDATE watch_runs SET outcome = 'interrupted' WHERE watch_id = ?1 AND outcome = 'running'",
                [watch],
            )?)
        })
    }

    /// Runs that never finished: still marked running (killed, crashed, or running now in
    /// another process) or marked interrupted by a later run.
    pub fn unfinished_watch_runs(&self) -> Result<Vec<WatchRun>> {
        Ok(self
            .watch_runs(None)?
            .into_iter()
            .filter(|r| r.outcome == "running" || r.outcome == "interrupted")
            .collect())
    }

    pub fn cancel_watch_run(&mut self, run: i64, now: i64) -> Result<()> {
        self.write_transaction(|tx| {
            tx.execute(
                "UPDATE watch_runs SET finished_at = ?2, outcome = 'cancelled' WHERE id = ?1",
                params![run, now],
            )?;
            Ok(())
        })
    }

    /// Moves the copies' statuses from checks made outside a watch (a page checked once).
    pub fn observe(&mut self, observations: &[Observation], now: i64) -> Result<Changes> {
        self.write_transaction(|tx| Ok(observe_in(tx, None, None, observations, now)?))
    }

    /// Runs of a watch (all watches if `None`), newest first.
    pub fn watch_runs(&self, watch: Option<i64>) -> Result<Vec<WatchRun>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, watch_id, started_at, finished_at, outcome, summary FROM watch_runs
             WHERE ?1 IS NULL OR watch_id = ?1 ORDER BY started_at DESC, id DESC",
        )?;
        let rows = stmt.query_map([watch], |r| {
            let summary: String = r.get(5)?;
            Ok(WatchRun {
                id: r.get(0)?,
                watch_id: r.get(1)?,
                started_at: r.get(2)?,
                finished_at: r.get(3)?,
                outcome: r.get(4)?,
                changes: serde_json::from_str(&summary).unwrap_or_default(),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The URLs of `watch`'s copies that are online, in the order first seen.
    pub fn online_copies_of(&self, watch: i64) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT url FROM copies WHERE watch_id = ?1 AND status = 'online' ORDER BY first_seen, id")?;
        Ok(stmt.query_map([watch], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
    }

    /// Every tracked copy with its history, in the order first seen.
    pub fn copies(&self) -> Result<Vec<TrackedCopy>> {
        let mut stmt = self.conn.prepare(&format!("SELECT {COPY_COLUMNS} FROM copies ORDER BY first_seen, id"))?;
        let mut copies = stmt.query_map([], copy_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
        let mut events =
            self.conn.prepare("SELECT at, event, detail FROM copy_events WHERE copy_id = ?1 ORDER BY at, rowid")?;
        for c in &mut copies {
            c.history = events
                .query_map([c.id], |r| Ok(CopyEvent { at: r.get(0)?, event: r.get(1)?, detail: r.get(2)? }))?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(copies)
    }

    /// Records a takedown notice sent for the copies of these findings (their pages):
    /// when and to whom. Returns how many copies it applies to.
    pub fn mark_notice_sent(&mut self, finding_ids: &[i64], to: &str, at: i64) -> Result<usize> {
        self.write_transaction(|tx| {
            let mut n = 0;
            for id in finding_ids {
                let copy: Option<i64> = tx
                    .query_row(
                        "SELECT c.id FROM copies c JOIN findings f ON f.target = c.url WHERE f.id = ?1",
                        [id],
                        |r| r.get(0),
                    )
                    .optional()?;
                if let Some(copy) = copy {
                    tx.execute(
                        "UPDATE copies SET notice_sent_at = ?2, notice_to = ?3 WHERE id = ?1",
                        params![copy, at, to],
                    )?;
                    event(tx, copy, at, "notice", &format!("notice sent to {to}"), None)?;
                    n += 1;
                }
            }
            Ok(n)
        })
    }
}

/// The rights holder named in takedown notices: entered once, kept in the store.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RightsHolder {
    /// The owner of the works (a person or a company).
    pub name: String,
    pub address: String,
    pub email: String,
    pub phone: String,
    /// Who signs the notices (for the owner), if not the owner themself.
    pub signatory: String,
}

const RIGHTS_HOLDER_KEY: &str = "rights_holder";

impl Store {
    pub fn rights_holder(&self) -> Result<RightsHolder> {
        let json: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [RIGHTS_HOLDER_KEY], |r| r.get(0))
            .optional()?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()).unwrap_or_default())
    }

    pub fn set_rights_holder(&mut self, holder: &RightsHolder) -> Result<()> {
        self.write_transaction(|tx| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![RIGHTS_HOLDER_KEY, serde_json::to_string(holder).expect("holder serializes")],
            )?;
            Ok(())
        })
    }
}
