//! Streaming the stored windows into a new in-memory index.

use super::Store;
use crate::Result;
use crate::engine::index::{Index, IndexBuilder, WindowRef};

impl Store {
    /// Builds the index from every stored window. Rows stream in document order, so
    /// memory holds the index and one document's blob.
    pub fn load_index(&self, max_distance: u32) -> Result<Index> {
        Ok(self.index_builder(max_distance, |_| true)?.build())
    }

    /// An index builder holding the stored windows of the documents `keep` accepts.
    pub fn index_builder(&self, max_distance: u32, keep: impl Fn(u32) -> bool) -> Result<IndexBuilder> {
        let mut b = IndexBuilder::new(max_distance);
        let total: i64 = self.conn.query_row("SELECT COALESCE(SUM(windows), 0) FROM documents", [], |r| r.get(0))?;
        b.reserve(total as usize);
        let mut stmt = self.conn.prepare("SELECT doc_id, fingerprints FROM windows ORDER BY doc_id")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let doc: u32 = r.get(0)?;
            if keep(doc) {
                for (ordinal, fp) in
                    super::packed::fingerprints(r.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?).enumerate()
                {
                    b.push(fp, WindowRef { doc, ordinal: ordinal as u32 });
                }
            }
        }
        Ok(b)
    }

    /// Every document's stored windows in document order, one document at a time:
    /// `f(doc, fingerprints, (char_start, char_end) spans)`, both by ordinal.
    pub fn for_each_documents_windows(
        &self,
        mut f: impl FnMut(u32, Vec<u64>, Vec<(u32, u32)>) -> Result<()>,
    ) -> Result<()> {
        let mut stmt = self.conn.prepare("SELECT doc_id, fingerprints, spans FROM windows ORDER BY doc_id")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let blob = |i: usize| r.get_ref(i)?.as_blob().map_err(rusqlite::Error::from);
            let fingerprints = super::packed::fingerprints(blob(1)?).collect();
            f(r.get(0)?, fingerprints, super::packed::spans(blob(2)?))?;
        }
        Ok(())
    }

    /// The stored windows of one document, by ordinal: (char_start, char_end).
    pub fn window_spans(&self, doc: u32) -> Result<Vec<(u32, u32)>> {
        let mut stmt = self.conn.prepare_cached("SELECT spans FROM windows WHERE doc_id = ?1")?;
        let mut rows = stmt.query([doc])?;
        Ok(match rows.next()? {
            Some(r) => super::packed::spans(r.get_ref(0)?.as_blob().map_err(rusqlite::Error::from)?),
            None => Vec::new(),
        })
    }
}
