//! Batched writes: one transaction per batch of documents.

use super::Store;
use super::works::{self, WorkHint};
use crate::Result;
use crate::engine::signature::DocSignature;
use crate::engine::simhash::StoredWindow;
use rusqlite::{OptionalExtension, params};

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
    /// Its whole-document signature (near-duplicate clusters), if computed.
    pub signature: Option<DocSignature>,
    /// The work import inferred for it; `None`: a work of its own, named by its title.
    pub work: Option<WorkHint>,
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
        self.write_transaction(|tx| write_rows(tx, docs, now))
    }
}

fn write_rows(tx: &rusqlite::Transaction, docs: &[NewDocument], now: i64) -> Result<Vec<WriteOutcome>> {
    let mut out = Vec::with_capacity(docs.len());
    {
        let mut find = tx.prepare_cached("SELECT id FROM documents WHERE path = ?1")?;
        let mut del_windows = tx.prepare_cached("DELETE FROM windows WHERE doc_id = ?1")?;
        let mut del_doc = tx.prepare_cached("DELETE FROM documents WHERE id = ?1")?;
        let mut ins_doc = tx.prepare_cached(
            "INSERT INTO documents (path, title, byte_size, content_hash, chars, windows, imported_at, encoding, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        let mut ins_windows =
            tx.prepare_cached("INSERT INTO windows (doc_id, fingerprints, spans) VALUES (?1, ?2, ?3)")?;
        let mut ins_signature = tx.prepare_cached(SIGNATURE_INSERT)?;
        for d in docs {
            let replaced: Option<u32> = find.query_row([&d.path], |r| r.get(0)).ok();
            // A new version of a stored file keeps its work and place if a person edited that work
            // (they may have moved it there); otherwise it goes where import infers it now.
            let kept_place: Option<(u32, Option<i64>)> = match replaced {
                Some(old) => tx
                    .query_row(
                        "SELECT wd.work_id, wd.position FROM work_documents wd JOIN works w ON w.id = wd.work_id
                         WHERE wd.doc_id = ?1 AND w.edited = 1",
                        [old],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .optional()?,
                None => None,
            };
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
            let (fps, spans) = super::packed::pack(&d.windows);
            ins_windows.execute(params![id, fps, spans])?;
            if let Some(sig) = &d.signature {
                ins_signature.execute(signature_params(id, sig))?;
            }
            match (kept_place, &d.work) {
                (Some((work, position)), _) => {
                    tx.execute(
                        "INSERT INTO work_documents (doc_id, work_id, position) VALUES (?1, ?2, ?3)",
                        params![id, work, position],
                    )?;
                }
                (None, Some(hint)) => works::place_document(tx, id, hint)?,
                (None, None) => works::place_document(tx, id, &WorkHint::single(&d.path, &d.title))?,
            }
            out.push(WriteOutcome { id, replaced });
        }
    }
    works::delete_empty_works(tx)?;
    Ok(out)
}

impl Store {
    /// Replaces every document's windows with windows made with `params` from its stored
    /// text, and records `params`; all in one transaction, so a cancel or crash leaves the
    /// store as it was.
    pub fn refingerprint(
        &mut self,
        params: crate::FingerprintParams,
        progress: crate::engine::progress::ProgressFn,
        cancel: &crate::Cancel,
    ) -> Result<()> {
        use rayon::prelude::*;
        params.validate()?;
        self.write_transaction(|tx| {
            let ids: Vec<u32> = {
                let mut stmt = tx.prepare("SELECT id FROM documents ORDER BY id")?;
                stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
            };
            {
                let mut text_of = tx.prepare("SELECT text FROM documents WHERE id = ?1")?;
                let mut set_count = tx.prepare("UPDATE documents SET windows = ?2 WHERE id = ?1")?;
                let mut set_windows =
                    tx.prepare("UPDATE windows SET fingerprints = ?2, spans = ?3 WHERE doc_id = ?1")?;
                for (n, chunk) in ids.chunks(64).enumerate() {
                    if cancel.is_cancelled() {
                        return Err(crate::Error::Cancelled); // the transaction rolls back on drop
                    }
                    let texts: Vec<(u32, String)> = chunk
                        .iter()
                        .map(|&id| Ok((id, text_of.query_row([id], |r| r.get(0))?)))
                        .collect::<Result<_>>()?;
                    let windows: Vec<(u32, Vec<StoredWindow>)> = texts
                        .par_iter()
                        .map(|(id, text)| {
                            (
                                *id,
                                crate::engine::simhash::stored_windows(
                                    &crate::engine::normalize::tokens(text, params.normalizing),
                                    &params,
                                ),
                            )
                        })
                        .collect();
                    for (id, ws) in &windows {
                        set_count.execute(params![id, ws.len() as u64])?;
                        let (fps, spans) = super::packed::pack(ws);
                        set_windows.execute(params![id, fps, spans])?;
                    }
                    let done = (n * 64 + chunk.len()).min(ids.len());
                    progress(&crate::Progress::files(crate::Stage::Indexing, done, ids.len()));
                }
            }
            super::write_params(tx, &params)?;
            Ok(())
        })?;
        self.params = params;
        Ok(())
    }
}

const SIGNATURE_INSERT: &str =
    "INSERT OR REPLACE INTO doc_signatures (doc_id, minhash, keyword_simhash) VALUES (?1, ?2, ?3)";

fn u32s_le(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn u32s_from_le(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
}

fn signature_params(id: u32, sig: &DocSignature) -> (u32, Vec<u8>, Option<i64>) {
    (id, u32s_le(&sig.minhash), sig.keyword_simhash.map(|k| k as i64))
}

impl Store {
    /// Every stored signature, by document id.
    pub fn signatures(&self) -> Result<Vec<(u32, DocSignature)>> {
        let mut stmt =
            self.conn.prepare("SELECT doc_id, minhash, keyword_simhash FROM doc_signatures ORDER BY doc_id")?;
        let rows = stmt.query_map([], |r| {
            let minhash: Vec<u8> = r.get(1)?;
            Ok((
                r.get(0)?,
                DocSignature {
                    minhash: u32s_from_le(&minhash),
                    keyword_simhash: r.get::<_, Option<i64>>(2)?.map(|k| k as u64),
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Documents without a signature (imported before signatures existed).
    pub fn unsigned_documents(&self) -> Result<Vec<u32>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM documents WHERE id NOT IN (SELECT doc_id FROM doc_signatures) ORDER BY id")?;
        Ok(stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
    }

    /// Stores keyword simhashes computed later (see `DocSignature::keyword_simhash`).
    pub fn write_keyword_simhashes(&mut self, simhashes: &[(u32, u64)]) -> Result<()> {
        self.write_transaction(|tx| {
            let mut update = tx.prepare_cached("UPDATE doc_signatures SET keyword_simhash = ?2 WHERE doc_id = ?1")?;
            for (id, k) in simhashes {
                update.execute(params![id, *k as i64])?;
            }
            Ok(())
        })
    }

    /// Stores signatures (of documents that exist), in one transaction.
    pub fn write_signatures(&mut self, signatures: &[(u32, DocSignature)]) -> Result<()> {
        self.write_transaction(|tx| {
            let mut insert = tx.prepare_cached(SIGNATURE_INSERT)?;
            for (id, sig) in signatures {
                insert.execute(signature_params(*id, sig))?;
            }
            Ok(())
        })
    }
}
