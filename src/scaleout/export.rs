//! Export folders: a store's documents and stored windows, or files fingerprinted as
//! suspects with their query windows (the module header has the layout).

use super::{ExportKind, FailedFile, Manifest, PartialFolder, TableWriter, fingerprint_to_i64};
use crate::Result;
use crate::engine::decode;
use crate::engine::params::FingerprintParams;
use crate::engine::progress::{Cancel, Progress, ProgressFn, Stage};
use crate::engine::simhash::query_fingerprints;
use crate::engine::store::Store;
use crate::engine::store::findings::sha256;
use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn documents_schema() -> Schema {
    Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("path", DataType::Utf8, false),
        Field::new("title", DataType::Utf8, false),
        Field::new("chars", DataType::Int64, false),
        Field::new("text_sha256", DataType::Utf8, false),
        // The document's work as the JSON contract names it (`WorkRef`); empty for suspects.
        Field::new("work", DataType::Utf8, false),
    ])
}

fn texts_schema() -> Schema {
    Schema::new(vec![Field::new("id", DataType::Int64, false), Field::new("text", DataType::Utf8, false)])
}

fn windows_schema() -> Schema {
    Schema::new(vec![
        Field::new("doc_id", DataType::Int64, false),
        Field::new("ordinal", DataType::Int32, false),
        Field::new("fingerprint", DataType::Int64, false),
        Field::new("char_start", DataType::Int64, false),
        Field::new("char_end", DataType::Int64, false),
    ])
}

/// Texts per row batch: few enough that a batch of novels stays under Arrow's 2 GiB of
/// string data.
const TEXTS_PER_BATCH: usize = 64;
/// Windows per row batch.
const WINDOWS_PER_BATCH: usize = 1 << 20;

/// The three tables of an export, buffered a batch at a time.
struct ExportWriter {
    documents: TableWriter,
    texts: TableWriter,
    windows: TableWriter,
    docs: Vec<(i64, String, String, i64, String, String)>,
    text_rows: Vec<(i64, String)>,
    window_rows: WindowRows,
    manifest: Manifest,
}

#[derive(Default)]
struct WindowRows {
    doc: Vec<i64>,
    ordinal: Vec<i32>,
    fingerprint: Vec<i64>,
    start: Vec<i64>,
    end: Vec<i64>,
}

impl ExportWriter {
    fn create(folder: &Path, manifest: Manifest) -> Result<ExportWriter> {
        Ok(ExportWriter {
            documents: TableWriter::create(folder, "documents", documents_schema())?,
            texts: TableWriter::create(folder, "texts", texts_schema())?,
            windows: TableWriter::create(folder, "windows", windows_schema())?,
            docs: Vec::new(),
            text_rows: Vec::new(),
            window_rows: WindowRows::default(),
            manifest,
        })
    }

    /// Adds one document: its text and its windows' fingerprints and char spans.
    fn add(&mut self, id: u32, path: &str, title: &str, text: String, windows: &[(u64, u32, u32)]) -> Result<()> {
        self.add_with_work(id, path, title, None, text, windows)
    }

    /// [`ExportWriter::add`] with the document's work.
    fn add_with_work(
        &mut self,
        id: u32,
        path: &str,
        title: &str,
        work: Option<&crate::engine::store::WorkRef>,
        text: String,
        windows: &[(u64, u32, u32)],
    ) -> Result<()> {
        let id = i64::from(id);
        let chars = text.chars().count() as i64;
        let work = work.map_or_else(String::new, |w| serde_json::to_string(w).expect("works serialize"));
        self.docs.push((id, path.to_string(), title.to_string(), chars, sha256(text.as_bytes()), work));
        self.text_rows.push((id, text));
        for (ordinal, &(fp, start, end)) in windows.iter().enumerate() {
            let w = &mut self.window_rows;
            w.doc.push(id);
            w.ordinal.push(ordinal as i32);
            w.fingerprint.push(fingerprint_to_i64(fp));
            w.start.push(i64::from(start));
            w.end.push(i64::from(end));
        }
        self.manifest.documents += 1;
        self.manifest.windows += windows.len() as u64;
        if self.text_rows.len() >= TEXTS_PER_BATCH {
            self.flush_texts()?;
        }
        if self.window_rows.doc.len() >= WINDOWS_PER_BATCH {
            self.flush_windows()?;
        }
        Ok(())
    }

    fn flush_texts(&mut self) -> Result<()> {
        if self.text_rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.text_rows);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.0))),
            Arc::new(StringArray::from_iter_values(rows.iter().map(|r| r.1.as_str()))),
        ];
        let batch = RecordBatch::try_new(self.texts.schema(), columns).expect("columns match the schema");
        self.texts.write(&batch)
    }

    fn flush_windows(&mut self) -> Result<()> {
        if self.window_rows.doc.is_empty() {
            return Ok(());
        }
        let w = std::mem::take(&mut self.window_rows);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(w.doc)),
            Arc::new(Int32Array::from(w.ordinal)),
            Arc::new(Int64Array::from(w.fingerprint)),
            Arc::new(Int64Array::from(w.start)),
            Arc::new(Int64Array::from(w.end)),
        ];
        let batch = RecordBatch::try_new(self.windows.schema(), columns).expect("columns match the schema");
        self.windows.write(&batch)
    }

    fn finish(mut self, folder: PartialFolder) -> Result<Manifest> {
        self.flush_texts()?;
        self.flush_windows()?;
        let docs = std::mem::take(&mut self.docs);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from_iter_values(docs.iter().map(|d| d.0))),
            Arc::new(StringArray::from_iter_values(docs.iter().map(|d| d.1.as_str()))),
            Arc::new(StringArray::from_iter_values(docs.iter().map(|d| d.2.as_str()))),
            Arc::new(Int64Array::from_iter_values(docs.iter().map(|d| d.3))),
            Arc::new(StringArray::from_iter_values(docs.iter().map(|d| d.4.as_str()))),
            Arc::new(StringArray::from_iter_values(docs.iter().map(|d| d.5.as_str()))),
        ];
        let batch = RecordBatch::try_new(self.documents.schema(), columns).expect("columns match the schema");
        self.documents.write(&batch)?;
        self.documents.finish()?;
        self.texts.finish()?;
        self.windows.finish()?;
        folder.finish(&self.manifest)?;
        Ok(self.manifest)
    }
}

/// Writes every document of `store` with its stored windows to `dir` (new or empty).
/// Cancelled, nothing is left behind.
pub fn export_corpus(store: &Store, dir: &Path, progress: ProgressFn, cancel: &Cancel) -> Result<Manifest> {
    let folder = PartialFolder::create(dir)?;
    let mut out = ExportWriter::create(folder.path(), Manifest::new(ExportKind::Corpus, store.params()))?;
    let docs: std::collections::HashMap<u32, _> = store.documents()?.into_iter().map(|d| (d.id, d)).collect();
    let works = store.works_of_documents()?;
    let mut done = 0;
    store.for_each_documents_windows(|doc, fingerprints, spans| {
        cancel.check()?;
        done += 1;
        progress(&Progress::files(Stage::Exporting, done, docs.len()));
        let (Some(info), Some(text)) = (docs.get(&doc), store.text(doc)?) else { return Ok(()) };
        let windows: Vec<(u64, u32, u32)> =
            fingerprints.into_iter().zip(spans).map(|(fp, (s, e))| (fp, s, e)).collect();
        out.add_with_work(doc, &info.path, &info.title, works.get(&doc), text, &windows)
    })?;
    out.finish(folder)
}

/// Fingerprints `files` as suspects are (their query windows under `params`) and writes
/// them to `dir` (new or empty), numbered from 1 in the order given. A file that cannot
/// be read is listed in the manifest with its message and the rest go on, after the paths
/// that could not even be listed (`unlisted`: path and reason, as walking folders gave them).
pub fn export_suspects(
    files: &[PathBuf],
    unlisted: &[(PathBuf, String)],
    params: &FingerprintParams,
    dir: &Path,
    progress: ProgressFn,
    cancel: &Cancel,
) -> Result<Manifest> {
    let folder = PartialFolder::create(dir)?;
    let mut out = ExportWriter::create(folder.path(), Manifest::new(ExportKind::Suspects, *params))?;
    for (path, reason) in unlisted {
        let report = crate::engine::check::SuspectReport::unreadable(path, reason);
        out.manifest.failed.push(FailedFile { path: report.path, error: report.error.unwrap_or_default() });
    }
    let mut id = 0u32;
    for (done, path) in files.iter().enumerate() {
        cancel.check()?;
        progress(&Progress::files(Stage::Exporting, done, files.len()));
        let shown = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone()).to_string_lossy().into_owned();
        let decoded = match decode::read_and_decode(path) {
            Ok((_, decoded)) => decoded,
            Err(error) => {
                out.manifest.failed.push(FailedFile { path: shown, error });
                continue;
            }
        };
        let tokens = crate::engine::normalize::tokens(&decoded.text, params.normalizing);
        let (spans, fps) = query_fingerprints(&tokens, params);
        let windows: Vec<(u64, u32, u32)> =
            spans.iter().zip(fps).map(|(s, fp)| (fp, tokens[s.start].start, tokens[s.end - 1].end)).collect();
        id += 1;
        let title = decode::title_of(&decoded.text);
        out.add(id, &shown, &title, decoded.text, &windows)?;
    }
    out.finish(folder)
}
