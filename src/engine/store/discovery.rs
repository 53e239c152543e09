//! What web discovery keeps: the sites licensed to carry the works (the allow-list),
//! scheduled discoveries, and a record of each discovery run.
//!
//! A verified copy on an allowed site is *licensed*: kept like any finding, counted apart,
//! never put in a notice or an alert. The allow-list is consulted when findings are read,
//! so adding a licence later reclassifies what was found before.
//!
//! A run is recorded as `running` when it starts and finished with its report; one that
//! was killed stays `running` with no end, and its findings (each written in its own
//! transaction as it was verified) stay.

use super::Store;
use crate::Result;
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

/// A site (or part of one) licensed to carry the works, or one work.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllowedSite {
    pub id: i64,
    /// A host (`example.com`, which also allows `www.example.com`) or a URL prefix
    /// (`https://example.com/licensed/`).
    pub pattern: String,
    /// Only copies of this work; `None`: of every work.
    pub work_id: Option<i64>,
    pub note: String,
    pub created_at: i64,
}

impl AllowedSite {
    /// Whether this entry licenses `url` to carry `work` (`None`: the work is not known).
    pub fn allows(&self, url: &str, work: Option<i64>) -> bool {
        if self.work_id.is_some() && self.work_id != work {
            return false;
        }
        if self.pattern.contains("://") {
            return url.starts_with(&self.pattern);
        }
        let Some(host) = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)) else {
            return false;
        };
        let pattern = self.pattern.trim_end_matches('.').to_ascii_lowercase();
        host == pattern || host.ends_with(&format!(".{pattern}"))
    }
}

/// Whether any entry of `allowed` licenses `url` to carry `work`.
pub fn is_licensed(allowed: &[AllowedSite], url: &str, work: Option<i64>) -> bool {
    allowed.iter().any(|a| a.allows(url, work))
}

/// How a scheduled discovery searches; kept with it as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiscoverySettings {
    /// The SearXNG instance (`http://localhost:8888`).
    pub searx: String,
    pub per_chapter: usize,
    pub max_queries: usize,
    /// Every newly found pirate site becomes a site watch of its own.
    pub watch_new_sites: bool,
}

/// A discovery run on a schedule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiscoveryWatch {
    pub id: i64,
    /// Work ids; empty: every work.
    pub works: Vec<i64>,
    pub settings: DiscoverySettings,
    pub every_secs: i64,
    pub created_at: i64,
    pub last_run_at: Option<i64>,
}

impl DiscoveryWatch {
    pub fn is_due(&self, now: i64) -> bool {
        self.last_run_at.is_none_or(|t| t + self.every_secs <= now)
    }
}

/// One discovery run as recorded.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiscoveryRun {
    pub id: i64,
    pub watch_id: Option<i64>,
    pub started_at: i64,
    pub finished_at: Option<i64>,
    pub outcome: String,
    pub summary: serde_json::Value,
}

impl Store {
    /// Adds a site to the allow-list (the same pattern and work again updates its note).
    pub fn allow_site(&mut self, pattern: &str, work_id: Option<i64>, note: &str, now: i64) -> Result<i64> {
        let pattern = pattern.trim().to_string();
        if pattern.is_empty() {
            return Err(crate::Error::Parameter("an allowed site needs a host or URL prefix".into()));
        }
        self.write_transaction(|tx| {
            let existing: Option<i64> = tx
                .query_row(
                    "SELECT id FROM allowed_sites WHERE pattern = ?1 AND work_id IS ?2",
                    params![pattern, work_id],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = existing {
                tx.execute("UPDATE allowed_sites SET note = ?1 WHERE id = ?2", params![note, id])?;
                return Ok(id);
            }
            tx.execute(
                "INSERT INTO allowed_sites (pattern, work_id, note, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![pattern, work_id, note, now],
            )?;
            Ok(tx.last_insert_rowid())
        })
    }

    pub fn allowed_sites(&self) -> Result<Vec<AllowedSite>> {
        let mut stmt =
            self.conn.prepare("SELECT id, pattern, work_id, note, created_at FROM allowed_sites ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok(AllowedSite {
                id: r.get(0)?,
                pattern: r.get(1)?,
                work_id: r.get(2)?,
                note: r.get(3)?,
                created_at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes allow-list entries by id; returns how many existed.
    pub fn remove_allowed_sites(&mut self, ids: &[i64]) -> Result<usize> {
        self.write_transaction(|tx| super::delete_ids(tx, "allowed_sites", ids))
    }

    pub fn add_discovery_watch(
        &mut self,
        works: &[i64],
        settings: &DiscoverySettings,
        every_secs: i64,
        now: i64,
    ) -> Result<i64> {
        let every = every_secs.clamp(super::watch::MIN_EVERY_SECS, super::watch::MAX_EVERY_SECS);
        let works = serde_json::to_string(works).expect("ids serialize");
        let settings = serde_json::to_string(settings).expect("settings serialize");
        self.write_transaction(|tx| {
            tx.execute(
                "INSERT INTO discovery_watches (works, settings, every_secs, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![works, settings, every, now],
            )?;
            Ok(tx.last_insert_rowid())
        })
    }

    pub fn discovery_watches(&self) -> Result<Vec<DiscoveryWatch>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, works, settings, every_secs, created_at, last_run_at FROM discovery_watches ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, works, settings, every_secs, created_at, last_run_at) = row?;
            let bad = |what: &str, e: serde_json::Error| {
                crate::Error::Parameter(format!("discovery watch {id}: unreadable {what}: {e}"))
            };
            out.push(DiscoveryWatch {
                id,
                works: serde_json::from_str(&works).map_err(|e| bad("works", e))?,
                settings: serde_json::from_str(&settings).map_err(|e| bad("settings", e))?,
                every_secs,
                created_at,
                last_run_at,
            });
        }
        Ok(out)
    }

    pub fn remove_discovery_watches(&mut self, ids: &[i64]) -> Result<usize> {
        self.write_transaction(|tx| super::delete_ids(tx, "discovery_watches", ids))
    }

    /// Records the start of a discovery run (of a scheduled discovery, or by hand).
    pub fn start_discovery_run(&mut self, watch_id: Option<i64>, now: i64) -> Result<i64> {
        self.write_transaction(|tx| {
            tx.execute(
                "INSERT INTO discovery_runs (watch_id, started_at, outcome, summary) VALUES (?1, ?2, 'running', '{}')",
                params![watch_id, now],
            )?;
            Ok(tx.last_insert_rowid())
        })
    }

    /// Finishes a run with its report; a completed run of a scheduled discovery moves its
    /// next due time.
    pub fn finish_discovery_run(&mut self, run_id: i64, now: i64, cancelled: bool, summary: &str) -> Result<()> {
        self.write_transaction(|tx| {
            let outcome = if cancelled { "cancelled" } else { "done" };
            tx.execute(
                "UPDATE discovery_runs SET finished_at = ?1, outcome = ?2, summary = ?3 WHERE id = ?4",
                params![now, outcome, summary, run_id],
            )?;
            if !cancelled {
                tx.execute(
                    "UPDATE discovery_watches SET last_run_at =
                       (SELECT started_at FROM discovery_runs WHERE id = ?1)
                     WHERE id = (SELECT watch_id FROM discovery_runs WHERE id = ?1)",
                    [run_id],
                )?;
            }
            Ok(())
        })
    }

    /// Discovery runs, newest first.
    pub fn discovery_runs(&self) -> Result<Vec<DiscoveryRun>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, watch_id, started_at, finished_at, outcome, summary FROM discovery_runs ORDER BY id DESC",
        )?;
        let rows = stmt.query_map([], |r| {
            let summary: String = r.get(5)?;
            Ok(DiscoveryRun {
                id: r.get(0)?,
                watch_id: r.get(1)?,
                started_at: r.get(2)?,
                finished_at: r.get(3)?,
                outcome: r.get(4)?,
                summary: serde_json::from_str(&summary).unwrap_or(serde_json::Value::Null),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(pattern: &str, work_id: Option<i64>) -> AllowedSite {
        AllowedSite { id: 1, pattern: pattern.into(), work_id, note: String::new(), created_at: 0 }
    }

    #[test]
    fn hosts_allow_their_subdomains_and_prefixes_their_pages() {
        let host = site("qidian.example", None);
        assert!(host.allows("https://qidian.example/book/1", None));
        assert!(host.allows("https://www.QIDIAN.example/book/1", Some(3)));
        assert!(!host.allows("https://notqidian.example/book/1", None));
        assert!(!host.allows("https://qidian.example.evil.test/", None));
        let prefix = site("http://127.0.0.9:80/licensed/", Some(2));
        assert!(prefix.allows("http://127.0.0.9:80/licensed/7.html", Some(2)));
        assert!(!prefix.allows("http://127.0.0.9:80/licensed/7.html", Some(3)), "another work");
        assert!(!prefix.allows("http://127.0.0.9:80/pirate/7.html", Some(2)));
    }

    #[test]
    fn the_allow_list_and_runs_are_kept() {
        let mut store = Store::open_in_memory(Default::default()).unwrap();
        let id = store.allow_site("licensed.test", None, "contract 2026-1", 10).unwrap();
        assert_eq!(store.allow_site("licensed.test", None, "renewed", 11).unwrap(), id);
        store.allow_site("licensed.test", Some(4), "", 12).unwrap();
        let all = store.allowed_sites().unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].note, "renewed");
        assert!(is_licensed(&all, "http://licensed.test/x", Some(9)));
        assert_eq!(store.remove_allowed_sites(&[id]).unwrap(), 1);
        assert!(!is_licensed(&store.allowed_sites().unwrap(), "http://licensed.test/x", Some(9)));

        let settings =
            DiscoverySettings { searx: "http://s".into(), per_chapter: 3, max_queries: 50, watch_new_sites: true };
        let w = store.add_discovery_watch(&[1, 2], &settings, 86_400, 100).unwrap();
        assert!(store.discovery_watches().unwrap()[0].is_due(100));
        let killed = store.start_discovery_run(Some(w), 200).unwrap();
        let run = store.start_discovery_run(Some(w), 300).unwrap();
        store.finish_discovery_run(run, 400, false, "{\"queries\":3}").unwrap();
        let watch = &store.discovery_watches().unwrap()[0];
        assert_eq!((watch.works.clone(), watch.last_run_at), (vec![1, 2], Some(300)));
        assert!(!watch.is_due(300 + 3600) && watch.is_due(300 + 86_400));
        let runs = store.discovery_runs().unwrap();
        assert_eq!(runs[0].summary["queries"], 3);
        let interrupted = runs.iter().find(|r| r.id == killed).unwrap();
        assert_eq!((interrupted.outcome.as_str(), interrupted.finished_at), ("running", None));
    }
}
