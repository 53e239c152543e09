//! Schema and migrations, versioned with `PRAGMA user_version`.
//!
//! Each entry of [`MIGRATIONS`] takes the schema from version i to i+1 and runs in one
//! transaction with the version bump. Add a migration; never edit a released one.

use super::StoredWindow;
use crate::{Error, Result};
use rusqlite::Connection;
use std::path::Path;

pub(super) enum Migration {
    Sql(&'static str),
    /// Steps SQL cannot express (packing rows into blobs), run in the same transaction.
    Code(fn(&Connection) -> rusqlite::Result<()>),
}

pub(super) const MIGRATIONS: &[Migration] = &[
    // 0 → 1
    Migration::Sql(
        "CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE documents (
        id           INTEGER PRIMARY KEY,
        path         TEXT NOT NULL UNIQUE,   -- canonical absolute path
        title        TEXT NOT NULL,          -- first non-empty line
        byte_size    INTEGER NOT NULL,
        content_hash TEXT NOT NULL,          -- xxh3-128 of the file's bytes, hex
        chars        INTEGER NOT NULL,       -- chars of the extracted text
        windows      INTEGER NOT NULL,
        imported_at  INTEGER NOT NULL,       -- unix seconds
        encoding     TEXT NOT NULL,
        text         TEXT NOT NULL           -- extracted text; offsets count in it
    );
    CREATE TABLE windows (
        doc_id      INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal     INTEGER NOT NULL,
        char_start  INTEGER NOT NULL,
        char_end    INTEGER NOT NULL,
        fingerprint INTEGER NOT NULL,        -- the u64 simhash stored as i64 bits
        PRIMARY KEY (doc_id, ordinal)
    ) WITHOUT ROWID;",
    ),
    // 1 → 2: one row of packed windows per document instead of one row per window.
    // Import wrote 10^5 rows per novel and opening read them one by one; a blob is one
    // write and one read (import 2×, open 10× faster, the store 40% smaller).
    Migration::Code(pack_windows),
    // 2 → 3: the findings library (see findings.rs): every check of a file or a web page,
    // with what was received, so a finding can be shown and proven without fetching again.
    Migration::Sql(
        "CREATE TABLE findings (
        id               INTEGER PRIMARY KEY,
        kind             TEXT NOT NULL,      -- 'file' or 'web'
        target           TEXT NOT NULL,      -- the path, or the URL asked for
        final_url        TEXT,               -- web: the URL that answered, after redirects
        sha256           TEXT NOT NULL,      -- of the bytes received (all pages, in order)
        text             TEXT NOT NULL,      -- the extracted text the result's offsets count in
        result           TEXT NOT NULL,      -- the suspect's report (the JSON contract's suspect)
        settings         TEXT NOT NULL,      -- fingerprint parameters and check options, JSON
        similarity       REAL NOT NULL,
        first_checked_at INTEGER NOT NULL,   -- unix seconds
        checked_at       INTEGER NOT NULL,
        UNIQUE (target, sha256)
    );
    CREATE TABLE finding_pages (
        finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        ordinal    INTEGER NOT NULL,
        url        TEXT NOT NULL,           -- the page's URL (or the file's path)
        final_url  TEXT NOT NULL,
        status     INTEGER,                 -- HTTP status; NULL for files
        headers    TEXT NOT NULL,           -- JSON [[name, value], ...] as received
        fetched_at INTEGER NOT NULL,
        sha256     TEXT NOT NULL,           -- of the bytes as received
        bytes      BLOB NOT NULL,           -- the bytes as received, deflate-compressed
        PRIMARY KEY (finding_id, ordinal)
    ) WITHOUT ROWID;
    CREATE TABLE finding_sources (
        finding_id INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        doc_id     INTEGER NOT NULL,
        similarity REAL NOT NULL,
        PRIMARY KEY (finding_id, doc_id)
    ) WITHOUT ROWID;
    CREATE INDEX finding_sources_by_doc ON finding_sources (doc_id);",
    ),
    // 3 → 4: watching over time (see watch.rs): watch lists, their runs, and the copies
    // they track (one per URL) with their status history and takedown notices.
    Migration::Sql(
        "CREATE TABLE watches (
        id          INTEGER PRIMARY KEY,
        url         TEXT NOT NULL UNIQUE,
        label       TEXT NOT NULL,
        follow      INTEGER NOT NULL,        -- 1: the URL is a contents page, its chapters are checked
        every_secs  INTEGER NOT NULL,        -- how often it is due
        created_at  INTEGER NOT NULL,        -- unix seconds
        last_run_at INTEGER                  -- start of the last completed run
    );
    CREATE TABLE watch_runs (
        id          INTEGER PRIMARY KEY,
        watch_id    INTEGER NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
        started_at  INTEGER NOT NULL,
        finished_at INTEGER,                 -- NULL while running, or when interrupted (crash, kill)
        outcome     TEXT NOT NULL,           -- 'running', 'done', 'cancelled'
        summary     TEXT NOT NULL            -- JSON: the run's changes
    );
    CREATE TABLE copies (
        id             INTEGER PRIMARY KEY,
        url            TEXT NOT NULL UNIQUE, -- the page that copies (the URL asked for)
        host           TEXT NOT NULL,
        watch_id       INTEGER REFERENCES watches(id) ON DELETE SET NULL,
        finding_id     INTEGER REFERENCES findings(id) ON DELETE SET NULL, -- the latest capture that copies
        similarity     REAL NOT NULL,
        top_source     INTEGER NOT NULL,     -- the corpus document it copies most
        status         TEXT NOT NULL,        -- 'online' or 'gone'
        first_seen     INTEGER NOT NULL,
        last_seen      INTEGER NOT NULL,     -- last time seen copying
        gone_at        INTEGER,              -- taken down on (while gone)
        gone_reason    TEXT,
        notice_sent_at INTEGER,
        notice_to      TEXT
    );
    CREATE INDEX copies_by_watch ON copies (watch_id);
    CREATE TABLE copy_events (
        copy_id INTEGER NOT NULL REFERENCES copies(id) ON DELETE CASCADE,
        at      INTEGER NOT NULL,
        event   TEXT NOT NULL,               -- 'new', 'gone', 'back', 'notice'
        detail  TEXT NOT NULL,
        run_id  INTEGER
    );
    CREATE INDEX copy_events_by_copy ON copy_events (copy_id, at);",
    ),
    // 4 → 5: whole-document signatures for near-duplicate clusters (engine/signature.rs).
    // Documents imported before get theirs on the first clustering.
    Migration::Sql(
        "CREATE TABLE doc_signatures (
        doc_id          INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
        minhash         BLOB NOT NULL,   -- 128 least hashes, u32 little-endian (empty: a text too short)
        keyword_simhash INTEGER          -- u64 stored as i64 bits; NULL until first needed
    );",
    ),
    // → +1: capture history (see findings.rs): every capture of a finding kept with its time,
    // hashes and WARC file, never overwritten when the same bytes are captured again.
    Migration::Sql(
        "CREATE TABLE finding_captures (
        finding_id  INTEGER NOT NULL REFERENCES findings(id) ON DELETE CASCADE,
        capture     INTEGER NOT NULL,   -- 1 for the first capture of the finding, then 2, ...
        ordinal     INTEGER NOT NULL,   -- the page's place in the chapter (0 for a file)
        url         TEXT NOT NULL,
        captured_at INTEGER NOT NULL,   -- unix seconds: when the page's response arrived
        sha256      TEXT NOT NULL,      -- of the page's body as received (content decoded)
        warc_sha256 TEXT,               -- of the capture file
        warc        BLOB,               -- web: the page's capture, WARC/1.1 gzip per record
        PRIMARY KEY (finding_id, capture, ordinal)
    ) WITHOUT ROWID;",
    ),
    // 6 → 7: works (see works.rs): a book or a column with its chapters, title, authors,
    // language and rights holder. The documents already stored become works by folder.
    Migration::Code(add_works),
    // 7 → 8: web discovery (engine/web/discover.rs): sites licensed to carry the works,
    // scheduled discoveries and the record of each discovery run.
    Migration::Sql(
        "CREATE TABLE allowed_sites (
        id         INTEGER PRIMARY KEY,
        pattern    TEXT NOT NULL,            -- a host (its subdomains too) or a URL prefix
        work_id    INTEGER,                  -- only for this work; NULL: every work
        note       TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (pattern, work_id)
    );
    CREATE TABLE discovery_watches (
        id          INTEGER PRIMARY KEY,
        works       TEXT NOT NULL,           -- JSON array of work ids; empty: every work
        settings    TEXT NOT NULL,           -- JSON: search engine, queries, limits
        every_secs  INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        last_run_at INTEGER
    );
    CREATE TABLE discovery_runs (
        id          INTEGER PRIMARY KEY,
        watch_id    INTEGER REFERENCES discovery_watches(id) ON DELETE SET NULL,
        started_at  INTEGER NOT NULL,
        finished_at INTEGER,                 -- NULL while running, or when interrupted
        outcome     TEXT NOT NULL,           -- 'running', 'done', 'cancelled'
        summary     TEXT NOT NULL            -- JSON: the run's report
    );",
    ),
    // 8 → 9: signatures are made of the body (the title line left out, letters and digits
    // only: engine/signature.rs); the old ones are dropped and remade on the next clustering.
    Migration::Sql("DELETE FROM doc_signatures;"),
];

/// The v7 works tables, and the documents already stored grouped into works.
fn add_works(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE works (
            id       INTEGER PRIMARY KEY,
            title    TEXT NOT NULL,
            authors  TEXT NOT NULL,              -- JSON array of names, in order
            language TEXT NOT NULL,              -- a language tag, or '' when unknown
            holder   TEXT NOT NULL,              -- the rights holder, or ''
            edited   INTEGER NOT NULL            -- 1 once a person changed it: import leaves it alone
        );
        CREATE TABLE work_origins (
            origin  TEXT PRIMARY KEY,            -- the folder or file (canonical path) import made it from
            work_id INTEGER NOT NULL REFERENCES works(id) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE TABLE work_documents (
            doc_id   INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            work_id  INTEGER NOT NULL REFERENCES works(id) ON DELETE CASCADE,
            position INTEGER                     -- chapter place; NULL: by file name (works.rs)
        );
        CREATE INDEX work_documents_by_work ON work_documents (work_id);",
    )?;
    super::works::group_existing_documents(conn)
}

/// The v2 `windows` table, and the v1 rows moved into it.
fn pack_windows(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE packed_windows (
            doc_id       INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
            fingerprints BLOB NOT NULL,   -- per window by ordinal: the u64 simhash, little-endian
            spans        BLOB NOT NULL    -- per window: char_start, char_end as u32 little-endian
        );",
    )?;
    {
        let mut rows = conn.prepare(
            "SELECT doc_id, ordinal, char_start, char_end, fingerprint FROM windows ORDER BY doc_id, ordinal",
        )?;
        let mut insert =
            conn.prepare("INSERT INTO packed_windows (doc_id, fingerprints, spans) VALUES (?1, ?2, ?3)")?;
        let mut flush = |doc: u32, windows: &mut Vec<StoredWindow>| {
            let (fps, spans) = super::packed::pack(windows);
            windows.clear();
            insert.execute(rusqlite::params![doc, fps, spans]).map(|_| ())
        };
        let mut current: Option<u32> = None;
        let mut windows = Vec::new();
        let mut rows = rows.query([])?;
        while let Some(r) = rows.next()? {
            let doc: u32 = r.get(0)?;
            if let Some(prev) = current.filter(|&p| p != doc) {
                flush(prev, &mut windows)?;
            }
            current = Some(doc);
            windows.push(StoredWindow {
                ordinal: r.get(1)?,
                char_start: r.get(2)?,
                char_end: r.get(3)?,
                fingerprint: r.get::<_, i64>(4)? as u64,
            });
        }
        if let Some(doc) = current {
            flush(doc, &mut windows)?;
        }
        // Documents without windows (too short to fingerprint) get an empty row.
        conn.execute(
            "INSERT INTO packed_windows (doc_id, fingerprints, spans)
             SELECT id, x'', x'' FROM documents WHERE id NOT IN (SELECT doc_id FROM packed_windows)",
            [],
        )?;
    }
    conn.execute_batch("DROP TABLE windows; ALTER TABLE packed_windows RENAME TO windows;")
}

pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub fn migrate(conn: &Connection, path: &Path) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(Error::Schema {
            path: path.to_path_buf(),
            reason: format!(
                "written by a newer Zhiwen (schema {version}, this one knows up to {SCHEMA_VERSION}); \
                 upgrade Zhiwen, the store was left untouched"
            ),
        });
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let run = || -> rusqlite::Result<()> {
            conn.execute_batch("BEGIN IMMEDIATE")?;
            // Another process may have upgraded the store since we looked.
            let now: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            if now > i as i64 {
                return conn.execute_batch("COMMIT");
            }
            match step {
                Migration::Sql(sql) => conn.execute_batch(sql)?,
                Migration::Code(f) => f(conn)?,
            }
            conn.execute_batch(&format!("PRAGMA user_version = {}; COMMIT;", i + 1))
        };
        run().map_err(|e| {
            let _ = conn.execute_batch("ROLLBACK");
            Error::Schema { path: path.to_path_buf(), reason: format!("cannot create or upgrade the schema: {e}") }
        })?;
    }
    Ok(())
}
