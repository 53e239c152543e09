//! The corpus store: SQLite, the source of truth. The in-memory index is derived from it
//! and can always be rebuilt from it ([`Store::load_index`]).
//!
//! Invariants:
//! - a document and all its windows are written in one transaction with the rest of its
//!   batch, so a crash or cancel never leaves half a document;
//! - every window was made with the fingerprint parameters recorded in `meta`; a store
//!   opened with other parameters keeps its own (re-fingerprint to change them);
//! - the schema version is `PRAGMA user_version`; a store from a newer Zhiwen is refused,
//!   never rewritten.
//!
//! Good for: durable storage, listing, fetching a document's text for display.
//! Not for: lookups during a check (never query SQLite per window; use the index).

pub mod discovery;
pub mod findings;
mod load;
mod packed;
mod schema;
pub mod watch;
pub mod works;
mod write;

use crate::engine::params::FingerprintParams;
use crate::{Error, Result};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use crate::engine::simhash::StoredWindow;
pub use findings::{CapturedPage, Finding, FindingFilter, FindingInfo, FindingKind, NewFinding, Tracking};
pub use works::{MoveTarget, Work, WorkEdit, WorkHint, WorkRef};
pub use write::{NewDocument, WriteOutcome};

/// A document as listed: everything but its text.
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentInfo {
    pub id: u32,
    pub path: String,
    pub title: String,
    pub byte_size: u64,
    pub content_hash: String,
    pub chars: u64,
    pub windows: u64,
    /// Unix seconds.
    pub imported_at: i64,
    pub encoding: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    pub documents: u64,
    pub chars: u64,
    pub windows: u64,
    /// Bytes on disk (database file plus WAL); 0 in memory.
    pub disk_bytes: u64,
}

pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
    params: FingerprintParams,
    /// Opened read-only because it cannot be written (see [`Store::open`]).
    read_only: bool,
}

impl Store {
    /// Opens the store at `path`, creating it (and its folder) with `params` if it does
    /// not exist. An existing store keeps the parameters it was built with.
    pub fn open(path: &Path, params: FingerprintParams) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let conn = Connection::open(path).map_err(|e| store_error(path, e))?;
        match Store::init(conn, Some(path.to_path_buf()), params) {
            Ok(store) => Ok(store),
            // A store on a read-only disk: SQLite cannot create the WAL's shared-memory
            // file next to it. Nothing can change it then, so it is read as immutable,
            // for listing and checking; writes are refused with `Error::ReadOnly`. Only
            // then: immutable reads ignore locks and the WAL, so a store another process
            // may be writing, or with commits still in its WAL, is never read that way.
            Err(e) if path.is_file() && folder_is_read_only(path) && !wal_has_commits(path) => {
                Store::open_immutable(path, params).map_err(|_| e)
            }
            Err(e) => Err(e),
        }
    }

    fn open_immutable(path: &Path, params: FingerprintParams) -> Result<Store> {
        use rusqlite::OpenFlags;
        let mut uri = String::from("file:");
        for c in path.to_string_lossy().chars() {
            match c {
                '%' => uri.push_str("%25"),
                '?' => uri.push_str("%3f"),
                '#' => uri.push_str("%23"),
                c => uri.push(c),
            }
        }
        uri.push_str("?immutable=1");
        let conn = Connection::open_with_flags(uri, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI)
            .map_err(|e| store_error(path, e))?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version != schema::SCHEMA_VERSION {
            return Err(Error::ReadOnly { path: path.to_path_buf() });
        }
        let params = read_params(&conn)?.unwrap_or(params);
        Ok(Store { conn, path: Some(path.to_path_buf()), params, read_only: true })
    }

    /// `Ok` if the store can be written, else [`Error::ReadOnly`].
    pub fn writable(&self) -> Result<()> {
        if self.read_only {
            return Err(Error::ReadOnly { path: self.shown_path() });
        }
        Ok(())
    }

    fn shown_path(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(|| PathBuf::from(":memory:"))
    }

    /// Runs `f` in one write transaction of a writable store: all of it is committed or
    /// none, and SQLite's errors come back in the words a user needs ([`Store::write_error`]).
    pub(crate) fn write_transaction<T>(&mut self, f: impl FnOnce(&rusqlite::Transaction) -> Result<T>) -> Result<T> {
        self.writable()?;
        let written = (|| {
            let tx = self.conn.transaction()?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        })();
        written.map_err(|e| self.write_error(e))
    }

    /// A write's SQLite error in the words a user needs: a full disk, a read-only store.
    fn write_error(&self, e: Error) -> Error {
        use rusqlite::ErrorCode;
        match &e {
            Error::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => match f.code {
                ErrorCode::DiskFull => Error::Full { path: self.shown_path() },
                ErrorCode::ReadOnly => Error::ReadOnly { path: self.shown_path() },
                _ => e,
            },
            _ => e,
        }
    }

    pub fn open_in_memory(params: FingerprintParams) -> Result<Store> {
        Store::init(Connection::open_in_memory()?, None, params)
    }

    fn init(mut conn: Connection, path: Option<PathBuf>, params: FingerprintParams) -> Result<Store> {
        params.validate()?;
        let shown = path.clone().unwrap_or_else(|| PathBuf::from(":memory:"));
        // Another process (the GUI and the CLI at once) may hold the write lock for a
        // batch; wait for it rather than failing with "database is locked".
        conn.busy_timeout(Duration::from_secs(30))?;
        // Every write transaction takes the write lock when it begins. A deferred one that
        // reads first and then writes fails at once with SQLITE_BUSY (no waiting) when the
        // other process committed in between, which is what "database is locked" was.
        conn.set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
        conn.pragma_update(None, "foreign_keys", true)?;
        if path.is_some() {
            let mode: String =
                conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(|e| store_error(&shown, e))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(Error::Schema { path: shown, reason: format!("cannot use WAL journal mode ({mode})") });
            }
            conn.pragma_update(None, "synchronous", "NORMAL")?;
        }
        schema::migrate(&conn, &shown)?;
        let params = match read_params(&conn)? {
            Some(stored) => stored,
            None => {
                write_params(&conn, &params)?;
                params
            }
        };
        Ok(Store { conn, path, params, read_only: false })
    }

    /// Keeps this connection's page cache small (256 KiB instead of SQLite's 2 MiB): a
    /// checker reads a few source texts and writes findings, which the cache never reads
    /// again, and a watch run opens one connection per site at once.
    pub(crate) fn limit_page_cache(&self) -> Result<()> {
        self.conn.pragma_update(None, "cache_size", -256)?;
        Ok(())
    }

    /// The parameters every stored window was made with.
    pub fn params(&self) -> FingerprintParams {
        self.params
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn documents(&self) -> Result<Vec<DocumentInfo>> {
        let mut stmt = self.conn.prepare(&format!("SELECT {INFO_COLUMNS} FROM documents ORDER BY id"))?;
        let rows = stmt.query_map([], info_of_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn document(&self, id: u32) -> Result<Option<DocumentInfo>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {INFO_COLUMNS} FROM documents WHERE id = ?1"))?;
        Ok(stmt.query_row([id], info_of_row).optional()?)
    }

    /// The id of the document imported from `path` (canonical, absolute), if any.
    pub fn id_of_path(&self, path: &str) -> Result<Option<u32>> {
        Ok(self.conn.query_row("SELECT id FROM documents WHERE path = ?1", [path], |r| r.get(0)).optional()?)
    }

    /// The extracted text of a document: what was fingerprinted and what offsets count in.
    /// A value of the `meta` table (settings kept with the store), if set.
    pub fn meta_value(&self, key: &str) -> Result<Option<String>> {
        Ok(self.conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional()?)
    }

    /// Sets a value of the `meta` table.
    pub fn set_meta_value(&mut self, key: &str, value: &str) -> Result<()> {
        self.write_transaction(|tx| {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )?;
            Ok(())
        })
    }

    pub fn text(&self, id: u32) -> Result<Option<String>> {
        Ok(self.conn.query_row("SELECT text FROM documents WHERE id = ?1", [id], |r| r.get(0)).optional()?)
    }

    /// The first `chars` characters of a document's text: enough to tell what it is without
    /// reading all of it.
    pub fn text_start(&self, id: u32, chars: usize) -> Result<Option<String>> {
        let mut stmt = self.conn.prepare_cached("SELECT substr(text, 1, ?2) FROM documents WHERE id = ?1")?;
        Ok(stmt.query_row(params![id, chars as i64], |r| r.get(0)).optional()?)
    }

    /// Path, title and text of one document.
    pub fn source_doc(&self, id: u32) -> Result<Option<SourceDoc>> {
        let mut stmt = self.conn.prepare_cached("SELECT path, title, text FROM documents WHERE id = ?1")?;
        Ok(stmt.query_row([id], |r| Ok(SourceDoc { path: r.get(0)?, title: r.get(1)?, text: r.get(2)? })).optional()?)
    }

    /// Path → (id, content hash, byte size) of every document, to skip unchanged files.
    pub fn known_files(&self) -> Result<std::collections::HashMap<String, (u32, String, u64)>> {
        let mut stmt = self.conn.prepare("SELECT path, id, content_hash, byte_size FROM documents")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes documents and their windows; returns how many existed.
    pub fn remove(&mut self, ids: &[u32]) -> Result<usize> {
        self.write_transaction(|tx| {
            let mut removed = 0;
            let mut del_windows = tx.prepare_cached("DELETE FROM windows WHERE doc_id = ?1")?;
            let mut del_doc = tx.prepare_cached("DELETE FROM documents WHERE id = ?1")?;
            for id in ids {
                del_windows.execute([id])?;
                removed += del_doc.execute([id])?;
            }
            works::delete_empty_works(tx)?;
            Ok(removed)
        })
    }

    pub fn stats(&self) -> Result<StoreStats> {
        let (documents, chars, windows) = self.conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(chars), 0), COALESCE(SUM(windows), 0) FROM documents",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let disk_bytes = self.path.as_ref().map_or(0, |p| {
            let wal = PathBuf::from(format!("{}-wal", p.display()));
            [p.as_path(), wal.as_path()].iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum()
        });
        Ok(StoreStats { documents, chars, windows, disk_bytes })
    }

    /// A change counter that moves when another connection commits (`PRAGMA
    /// data_version`): the GUI polls it to pick up imports made by the CLI.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self.conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// SQLite's integrity check plus our own: window counts agree with the documents.
    pub fn verify(&self) -> Result<Vec<String>> {
        let mut problems: Vec<String> = {
            let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
            let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
            rows.collect::<rusqlite::Result<Vec<_>>>()?.into_iter().filter(|s| s != "ok").collect()
        };
        let mut stmt = self.conn.prepare(
            "SELECT d.id, d.path, d.windows, length(w.fingerprints), length(w.spans)
             FROM documents d LEFT JOIN windows w ON w.doc_id = d.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u64>(2)?,
                r.get::<_, Option<u64>>(3)?,
                r.get::<_, Option<u64>>(4)?,
            ))
        })?;
        for row in rows {
            let (id, path, want, fps, spans) = row?;
            let (Some(fps), Some(spans)) = (fps, spans) else {
                problems.push(format!("document {id} ({path}) has no windows row"));
                continue;
            };
            let whole = |bytes: u64, per: usize| bytes.is_multiple_of(per as u64).then_some(bytes / per as u64);
            let have = (whole(fps, packed::FINGERPRINT_BYTES), whole(spans, packed::SPAN_BYTES));
            if have != (Some(want), Some(want)) {
                problems.push(format!(
                    "document {id} ({path}) should have {want} windows, has {fps} bytes of fingerprints and {spans} of spans"
                ));
            }
        }
        let orphans: u64 = self.conn.query_row(
            "SELECT COUNT(*) FROM windows WHERE doc_id NOT IN (SELECT id FROM documents)",
            [],
            |r| r.get(0),
        )?;
        if orphans > 0 {
            problems.push(format!("{orphans} windows belong to no document"));
        }
        Ok(problems)
    }
}

/// Whether nothing can be created in the store's folder (a read-only disk or folder).
fn folder_is_read_only(path: &Path) -> bool {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    tempfile::tempfile_in(dir).is_err()
}

/// Whether the store's WAL file holds anything (commits not yet copied into the store).
fn wal_has_commits(path: &Path) -> bool {
    std::fs::metadata(format!("{}-wal", path.display())).is_ok_and(|m| m.len() > 0)
}

/// A stored document as a check needs it: where it came from and its extracted text.
pub struct SourceDoc {
    pub path: String,
    pub title: String,
    pub text: String,
}

/// Deletes the rows of `table` with these ids; returns how many existed.
pub(crate) fn delete_ids(tx: &rusqlite::Transaction, table: &str, ids: &[i64]) -> Result<usize> {
    let mut delete = tx.prepare(&format!("DELETE FROM {table} WHERE id = ?1"))?;
    let mut n = 0;
    for id in ids {
        n += delete.execute([id])?;
    }
    Ok(n)
}

/// The columns of a [`DocumentInfo`], in the order [`info_of_row`] reads them.
const INFO_COLUMNS: &str = "id, path, title, byte_size, content_hash, chars, windows, imported_at, encoding";

fn info_of_row(r: &rusqlite::Row) -> rusqlite::Result<DocumentInfo> {
    Ok(DocumentInfo {
        id: r.get(0)?,
        path: r.get(1)?,
        title: r.get(2)?,
        byte_size: r.get(3)?,
        content_hash: r.get(4)?,
        chars: r.get(5)?,
        windows: r.get(6)?,
        imported_at: r.get(7)?,
        encoding: r.get(8)?,
    })
}

fn store_error(path: &Path, e: rusqlite::Error) -> Error {
    Error::Schema { path: path.to_path_buf(), reason: e.to_string() }
}

fn read_params(conn: &Connection) -> Result<Option<FingerprintParams>> {
    let json: Option<String> =
        conn.query_row("SELECT value FROM meta WHERE key = 'fingerprint_params'", [], |r| r.get(0)).optional()?;
    json.map(|j| serde_json::from_str(&j).map_err(|e| Error::Parameter(format!("stored parameters unreadable: {e}"))))
        .transpose()
}

fn write_params(conn: &Connection, p: &FingerprintParams) -> Result<()> {
    let json = serde_json::to_string(p).expect("params serialize");
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('fingerprint_params', ?1)", params![json])?;
    Ok(())
}

#[cfg(test)]
mod tests;
