//! The findings library (the reference system's 匹配信息库): every check of a file or a
//! web page, kept with the exact bytes received (deflate-compressed), their SHA-256, the
//! extracted text, the result and the settings, so a finding can be shown, exported as
//! evidence and proven later without fetching anything again.
//!
//! A finding is keyed by what was checked and the hash of what was received: checking the
//! same content again updates its result and `checked_at`, never adds a second row. Each
//! finding is written in one transaction with its pages and sources.

use super::Store;
pub use super::watch::Tracking;
use crate::Result;
use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::Digest;
use std::io::{Read, Write};

/// One page (or the file) a finding was read from, as received.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedPage {
    pub url: String,
    pub final_url: String,
    /// HTTP status; `None` for a file.
    pub status: Option<u16>,
    pub headers: Vec<(String, String)>,
    pub fetched_at: i64,
    pub bytes: Vec<u8>,
    /// Web: the page's capture file (WARC/1.1); `None` for a file.
    pub warc: Option<Vec<u8>>,
}

impl CapturedPage {
    /// A file as read now, named by its (canonical) path.
    pub fn file(path: &str, bytes: Vec<u8>) -> CapturedPage {
        CapturedPage {
            url: path.to_string(),
            final_url: path.to_string(),
            status: None,
            headers: Vec::new(),
            fetched_at: crate::engine::time::now(),
            bytes,
            warc: None,
        }
    }
}

/// One capture of a finding: every page of it as it was received that time.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// 1 for the finding's first capture, then 2, ...
    pub number: u32,
    pub pages: Vec<CapturePage>,
}

/// One page of a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturePage {
    pub url: String,
    pub captured_at: i64,
    /// SHA-256 of the page's body as received (content decoded), lower-case hex.
    pub sha256: String,
    /// The page's capture file (WARC/1.1); `None` for a file.
    pub warc: Option<Vec<u8>>,
}

impl Capture {
    /// When the capture began: its first page's time.
    pub fn captured_at(&self) -> i64 {
        self.pages.first().map_or(0, |p| p.captured_at)
    }
}

/// What a check gives the library to keep.
#[derive(Clone, Debug)]
pub struct NewFinding<'a> {
    pub kind: FindingKind,
    /// The path, or the URL asked for.
    pub target: &'a str,
    pub final_url: Option<&'a str>,
    pub pages: &'a [CapturedPage],
    pub text: &'a str,
    /// The suspect's report as JSON (the contract's suspect object).
    pub result: String,
    /// Fingerprint parameters and check options, as JSON.
    pub settings: String,
    pub similarity: f64,
    /// Source documents and their similarity.
    pub sources: Vec<(u32, f64)>,
    pub checked_at: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FindingKind {
    File,
    Web,
}

impl FindingKind {
    fn as_str(self) -> &'static str {
        match self {
            FindingKind::File => "file",
            FindingKind::Web => "web",
        }
    }
}

/// A finding as listed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FindingInfo {
    pub id: i64,
    pub kind: FindingKind,
    pub target: String,
    pub final_url: Option<String>,
    pub sha256: String,
    pub similarity: f64,
    /// Characters of the extracted text.
    pub chars: u64,
    /// Source documents, most similar first.
    pub sources: Vec<(u32, f64)>,
    pub first_checked_at: i64,
    pub checked_at: i64,
    /// How many times these bytes were captured (each capture is kept).
    pub captures: u32,
    /// Findings of the same target with other bytes: the page changed (or the file did).
    pub other_versions: u32,
    /// For a web page that copies (or copied): its status over time.
    pub tracking: Option<Tracking>,
}

/// A finding whole: its listing, text, result, settings, pages (as last received) and
/// every capture of it, oldest first.
#[derive(Clone, Debug)]
pub struct Finding {
    pub info: FindingInfo,
    pub text: String,
    pub result: String,
    pub settings: String,
    pub pages: Vec<CapturedPage>,
    pub captures: Vec<Capture>,
}

/// SHA-256 of pages' bytes one after another, lower-case hex.
pub fn sha256_of<'a>(pages: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h = sha2::Sha256::new();
    pages.into_iter().for_each(|p| h.update(p));
    hex(&h.finalize())
}

/// SHA-256 of bytes, lower-case hex.
pub fn sha256(bytes: &[u8]) -> String {
    hex(&sha2::Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).expect("write to memory");
    e.finish().expect("write to memory")
}

fn inflate(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(bytes).read_to_end(&mut out)?;
    Ok(out)
}

/// Finding filters for [`Store::findings`].
#[derive(Clone, Debug, Default)]
pub struct FindingFilter {
    /// Only findings that copy this document.
    pub source: Option<u32>,
    /// Only findings checked at or after this time (unix seconds).
    pub since: Option<i64>,
}

impl Store {
    /// Records a check; the same target with the same bytes updates the earlier finding.
    /// Returns the finding's id.
    pub fn record_finding(&mut self, f: &NewFinding) -> Result<i64> {
        // Refused before the pages are hashed, not after.
        self.writable()?;
        // Hashed and compressed before the transaction, which holds the store's write lock.
        let packed: Vec<(String, Vec<u8>)> = f.pages.iter().map(|p| (sha256(&p.bytes), deflate(&p.bytes))).collect();
        let sha = match packed.as_slice() {
            [(only, _)] => only.clone(),
            _ => sha256_of(f.pages.iter().map(|p| p.bytes.as_slice())),
        };
        self.write_transaction(|tx| {
            let existing: Option<i64> = tx
                .query_row("SELECT id FROM findings WHERE target = ?1 AND sha256 = ?2", params![f.target, sha], |r| {
                    r.get(0)
                })
                .optional()?;
            let id = match existing {
                Some(id) => {
                    tx.execute(
                        "UPDATE findings SET text = ?2, result = ?3, settings = ?4, similarity = ?5, checked_at = ?6,
                         final_url = ?7 WHERE id = ?1",
                        params![id, f.text, f.result, f.settings, f.similarity, f.checked_at, f.final_url],
                    )?;
                    tx.execute("DELETE FROM finding_pages WHERE finding_id = ?1", [id])?;
                    tx.execute("DELETE FROM finding_sources WHERE finding_id = ?1", [id])?;
                    id
                }
                None => {
                    tx.execute(
                        "INSERT INTO findings (kind, target, final_url, sha256, text, result, settings, similarity,
                         first_checked_at, checked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
                        params![
                            f.kind.as_str(),
                            f.target,
                            f.final_url,
                            sha,
                            f.text,
                            f.result,
                            f.settings,
                            f.similarity,
                            f.checked_at
                        ],
                    )?;
                    tx.last_insert_rowid()
                }
            };
            for (i, (p, (page_sha, deflated))) in f.pages.iter().zip(&packed).enumerate() {
                tx.execute(
                    "INSERT INTO finding_pages (finding_id, ordinal, url, final_url, status, headers, fetched_at,
                     sha256, bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                    params![
                        id,
                        i as i64,
                        p.url,
                        p.final_url,
                        p.status,
                        serde_json::to_string(&p.headers).expect("headers serialize"),
                        p.fetched_at,
                        page_sha,
                        deflated
                    ],
                )?;
            }
            // The capture is added to the history, never written over an earlier one.
            let capture: i64 = tx.query_row(
                "SELECT COALESCE(MAX(capture), 0) + 1 FROM finding_captures WHERE finding_id = ?1",
                [id],
                |r| r.get(0),
            )?;
            for (i, (p, (page_sha, _))) in f.pages.iter().zip(&packed).enumerate() {
                tx.execute(
                    "INSERT INTO finding_captures (finding_id, capture, ordinal, url, captured_at, sha256, warc_sha256,
                     warc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![
                        id,
                        capture,
                        i as i64,
                        p.final_url,
                        p.fetched_at,
                        page_sha,
                        p.warc.as_deref().map(sha256),
                        p.warc
                    ],
                )?;
            }
            for (doc, sim) in &f.sources {
                tx.execute(
                    "INSERT OR REPLACE INTO finding_sources (finding_id, doc_id, similarity) VALUES (?1, ?2, ?3)",
                    params![id, doc, sim],
                )?;
            }
            Ok(id)
        })
    }

    /// Findings, newest check first.
    pub fn findings(&self, filter: &FindingFilter) -> Result<Vec<FindingInfo>> {
        self.finding_infos(filter, None)
    }

    /// Findings that pass `filter` (and are `id`, if given), newest check first.
    fn finding_infos(&self, filter: &FindingFilter, id: Option<i64>) -> Result<Vec<FindingInfo>> {
        let mut stmt = self.conn.prepare(
            "SELECT f.id, f.kind, f.target, f.final_url, f.sha256, f.similarity, f.first_checked_at, f.checked_at,
                    length(f.text), c.status, c.first_seen, c.last_seen, c.gone_at, c.gone_reason, c.notice_sent_at,
                    c.notice_to,
                    (SELECT COUNT(DISTINCT capture) FROM finding_captures WHERE finding_id = f.id),
                    (SELECT COUNT(*) FROM findings o WHERE o.target = f.target AND o.id != f.id)
             FROM findings f LEFT JOIN copies c ON c.url = f.target
             WHERE (?1 IS NULL OR f.id IN (SELECT finding_id FROM finding_sources WHERE doc_id = ?1))
               AND (?2 IS NULL OR f.checked_at >= ?2)
               AND (?3 IS NULL OR f.id = ?3)
             ORDER BY f.checked_at DESC, f.id DESC",
        )?;
        let rows = stmt.query_map(params![filter.source, filter.since, id], |r| {
            let kind: String = r.get(1)?;
            // Findings of pages no watch follows have no copy row.
            let tracking = match r.get::<_, Option<String>>(9)? {
                Some(_) => Some(Tracking::from_row(r, 9)?),
                None => None,
            };
            Ok(FindingInfo {
                id: r.get(0)?,
                kind: if kind == "web" { FindingKind::Web } else { FindingKind::File },
                target: r.get(2)?,
                final_url: r.get(3)?,
                sha256: r.get(4)?,
                similarity: r.get(5)?,
                chars: r.get(8)?,
                sources: Vec::new(),
                first_checked_at: r.get(6)?,
                checked_at: r.get(7)?,
                captures: r.get(16)?,
                other_versions: r.get(17)?,
                tracking,
            })
        })?;
        let mut out = rows.collect::<rusqlite::Result<Vec<_>>>()?;
        let mut sources = self
            .conn
            .prepare("SELECT doc_id, similarity FROM finding_sources WHERE finding_id = ?1 ORDER BY similarity DESC")?;
        for f in &mut out {
            f.sources = sources.query_map([f.id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
        }
        Ok(out)
    }

    /// One finding as listed.
    pub fn finding_info(&self, id: i64) -> Result<Option<FindingInfo>> {
        Ok(self.finding_infos(&FindingFilter::default(), Some(id))?.pop())
    }

    /// A finding's result (the suspect's report), without its text and pages.
    pub fn finding_result(&self, id: i64) -> Result<Option<crate::SuspectReport>> {
        use rusqlite::OptionalExtension;
        let json: Option<String> =
            self.conn.query_row("SELECT result FROM findings WHERE id = ?1", [id], |r| r.get(0)).optional()?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
    }

    /// One finding whole, with its pages' bytes as received.
    pub fn finding(&self, id: i64) -> Result<Option<Finding>> {
        let Some(info) = self.finding_info(id)? else {
            return Ok(None);
        };
        let (text, result, settings) =
            self.conn.query_row("SELECT text, result, settings FROM findings WHERE id = ?1", [id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?;
        let mut stmt = self.conn.prepare(
            "SELECT url, final_url, status, headers, fetched_at, bytes FROM finding_pages WHERE finding_id = ?1
             ORDER BY ordinal",
        )?;
        let pages = stmt
            .query_map([id], |r| {
                let headers: String = r.get(3)?;
                let bytes: Vec<u8> = r.get(5)?;
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, headers, r.get(4)?, bytes))
            })?
            .map(|row| {
                let (url, final_url, status, headers, fetched_at, bytes) = row?;
                let bytes = inflate(&bytes).map_err(|e| crate::Error::Corrupt {
                    path: self.shown_path(),
                    reason: format!("finding {id}: the captured bytes do not inflate: {e}"),
                })?;
                Ok(CapturedPage {
                    url,
                    final_url,
                    status,
                    headers: serde_json::from_str(&headers).unwrap_or_default(),
                    fetched_at,
                    bytes,
                    warc: None,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut captures: Vec<Capture> = Vec::new();
        let mut stmt = self.conn.prepare(
            "SELECT capture, url, captured_at, sha256, warc FROM finding_captures WHERE finding_id = ?1
             ORDER BY capture, ordinal",
        )?;
        let rows = stmt.query_map([id], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                CapturePage { url: r.get(1)?, captured_at: r.get(2)?, sha256: r.get(3)?, warc: r.get(4)? },
            ))
        })?;
        for row in rows {
            let (number, page) = row?;
            match captures.last_mut() {
                Some(c) if c.number == number => c.pages.push(page),
                _ => captures.push(Capture { number, pages: vec![page] }),
            }
        }
        let mut pages = pages;
        // The latest capture's files go with the pages as last received.
        if let Some(latest) = captures.last() {
            for (page, captured) in pages.iter_mut().zip(&latest.pages) {
                page.warc = captured.warc.clone();
            }
        }
        Ok(Some(Finding { info, text, result, settings, pages, captures }))
    }

    /// Removes findings by id; returns how many existed.
    pub fn remove_findings(&mut self, ids: &[i64]) -> Result<usize> {
        self.write_transaction(|tx| super::delete_ids(tx, "findings", ids))
    }
}
