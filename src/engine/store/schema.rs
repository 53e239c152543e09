//! Schema and migrations, versioned with `PRAGMA user_version`.
//!
//! Each entry of [`MIGRATIONS`] takes the schema from version i to i+1 and runs in one
//! transaction with the version bump. Add a migration; never edit a released one.

use crate::{Error, Result};
use rusqlite::Connection;
use std::path::Path;

const MIGRATIONS: &[&str] = &[
    // 0 → 1
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
];

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
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        conn.execute_batch(&format!("BEGIN IMMEDIATE; {sql}; PRAGMA user_version = {}; COMMIT;", i + 1)).map_err(
            |e| {
                let _ = conn.execute_batch("ROLLBACK");
                Error::Schema { path: path.to_path_buf(), reason: format!("cannot create or upgrade the schema: {e}") }
            },
        )?;
    }
    Ok(())
}
