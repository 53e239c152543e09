//! Batched writes: one transaction per batch of documents.

use super::Store;
use crate::Result;
use rusqlite::params;

#[derive(Clone, Debug)]
pub struct StoredWindow {
    pub ordinal: u32,
    pub char_start: u32,
    pub char_end: u32,
    pub fingerprint: u64,
}

/// A document ready to be written: decoded, fingerprinted.
#[derive(Clone, Debug)]
pub struct NewDocument {
    pub path: String,
    pub title: String,
    pub byte_size: u64,
    pub content_hash: String,
    pub chars: u64,
    pub encoding: String,
    pub text: String,
    pub windows: Vec<StoredWindow>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOutcome {
    pub id: u32,
    /// The id of the older version of the same path that this document replaced.
    pub replaced: Option<u32>,
}

impl Store {
    /// Writes a batch in one transaction: either all of it is in the store, or none.
    /// A document at a path already stored replaces the old one.
    pub fn write_batch(&mut self, docs: &[NewDocument]) -> Result<Vec<WriteOutcome>> {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        let tx = self.conn.transaction()?;
        let mut out = Vec::with_capacity(docs.len());
        {
            let mut find = tx.prepare_cached("SELECT id FROM documents WHERE path = ?1")?;
            let mut del_windows = tx.prepare_cached("DELETE FROM windows WHERE doc_id = ?1")?;
            let mut del_doc = tx.prepare_cached("DELETE FROM documents WHERE id = ?1")?;
            let mut ins_doc = tx.prepare_cached(
                "INSERT INTO documents (path, title, byte_size, content_hash, chars, windows, imported_at, encoding, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?;
            let mut ins_window = tx.prepare_cached(
                "INSERT INTO windows (doc_id, ordinal, char_start, char_end, fingerprint) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for d in docs {
                let replaced: Option<u32> = find.query_row([&d.path], |r| r.get(0)).ok();
                if let Some(old) = replaced {
                    del_windows.execute([old])?;
                    del_doc.execute([old])?;
                }
                ins_doc.execute(params![
                    d.path,
                    d.title,
                    d.byte_size,
                    d.content_hash,
                    d.chars,
                    d.windows.len() as u64,
                    now,
                    d.encoding,
                    d.text
                ])?;
                let id = u32::try_from(tx.last_insert_rowid()).expect("document ids fit in u32");
                for w in &d.windows {
                    ins_window.execute(params![id, w.ordinal, w.char_start, w.char_end, w.fingerprint as i64])?;
                }
                out.push(WriteOutcome { id, replaced });
            }
        }
        tx.commit()?;
        Ok(out)
    }
}
