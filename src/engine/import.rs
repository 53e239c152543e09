//! Import: walk → read → decode → tokenize → fingerprint → store, in batches.
//!
//! Files are prepared in parallel (rayon) and written one batch per transaction, so the
//! store only ever holds whole documents and a cancel or crash keeps every batch already
//! committed. A file that cannot be read is reported with its reason and the batch goes
//! on; a file whose bytes are unchanged since its last import is skipped; a changed file
//! at a stored path replaces the old version.

use crate::engine::decode::{self, FOLDER_EXTENSIONS};
use crate::engine::params::FingerprintParams;
use crate::engine::progress::{Cancel, Progress, ProgressFn, Stage};
use crate::engine::simhash::stored_windows;
use crate::engine::store::{NewDocument, Store, WorkHint};
use crate::engine::works::{self, FolderMetadata, Found};
use crate::{Error, Result};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// Documents per transaction. Larger batches import faster; smaller ones lose less
    /// work to a crash and make cancel quicker.
    pub batch_files: usize,
    /// Bytes of text per transaction, whichever limit comes first.
    pub batch_bytes: u64,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions { batch_files: 256, batch_bytes: 32 << 20 }
    }
}

/// What an import did, file by file.
#[derive(Clone, Debug, Default)]
pub struct ImportReport {
    pub imported: Vec<PathBuf>,
    /// Imported again because the file at a stored path changed.
    pub replaced: Vec<PathBuf>,
    pub unchanged: Vec<PathBuf>,
    /// Each failed file and the reason, in words.
    pub failed: Vec<(PathBuf, String)>,
    /// Files in walked folders whose extension is not one we import.
    pub skipped: Vec<PathBuf>,
    pub cancelled: bool,
    pub bytes: u64,
    pub chars: u64,
    /// Ids of the documents now in the store for the imported and replaced files.
    pub(crate) new_ids: Vec<u32>,
    pub(crate) removed_ids: Vec<u32>,
}

impl ImportReport {
    pub fn ok(&self) -> bool {
        self.failed.is_empty() && !self.cancelled
    }
}

/// The files to import under `paths`: named files as they are, folders walked
/// recursively (following links, with loop detection) for [`FOLDER_EXTENSIONS`].
pub fn collect_files(paths: &[PathBuf], report: &mut ImportReport) -> Vec<PathBuf> {
    collect_files_found(paths, report).into_iter().map(|(path, _)| path).collect()
}

/// [`collect_files`], each file with how it was found (named, or in a walked folder).
pub fn collect_files_found(paths: &[PathBuf], report: &mut ImportReport) -> Vec<(PathBuf, Found)> {
    let mut out = Vec::new();
    for root in paths {
        match std::fs::metadata(root) {
            Err(e) => report.failed.push((root.clone(), e.to_string())),
            Ok(m) if m.is_file() => out.push((root.clone(), Found::Named)),
            Ok(m) if !m.is_dir() => report.failed.push((root.clone(), NOT_REGULAR.into())),
            Ok(_) => {
                for entry in walkdir::WalkDir::new(root).follow_links(true).sort_by_file_name() {
                    match entry {
                        Err(e) => {
                            let path = e.path().map_or_else(|| root.clone(), Path::to_path_buf);
                            let reason = if e.loop_ancestor().is_some() {
                                "symbolic link loop, not followed".to_string()
                            } else {
                                e.io_error().map_or_else(|| e.to_string(), |io| io.to_string())
                            };
                            report.failed.push((path, reason));
                        }
                        Ok(entry) if entry.file_type().is_file() => {
                            let path = entry.into_path();
                            if is_hidden(&path) {
                                continue;
                            }
                            let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
                            if ext.is_some_and(|e| FOLDER_EXTENSIONS.contains(&e.as_str())) {
                                out.push((path, Found::InFolder));
                            } else {
                                report.skipped.push(path);
                            }
                        }
                        // A pipe would block the import forever; a device is not a text.
                        Ok(entry) if !entry.file_type().is_dir() && !is_hidden(entry.path()) => {
                            report.failed.push((entry.into_path(), NOT_REGULAR.into()));
                        }
                        Ok(_) => {}
                    }
                }
            }
        }
    }
    out
}

const NOT_REGULAR: &str = "not a regular file (a pipe, socket or device), not read";

fn is_hidden(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'))
}

/// The canonical absolute path under which a file is stored.
pub fn canonical_path(path: &Path) -> Result<String> {
    let abs = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    Ok(abs.to_string_lossy().into_owned())
}

/// Hex xxh3-128 of a file's bytes: how an unchanged file is recognised.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// Decodes and fingerprints one document.
pub fn prepare_document(canonical: String, bytes: &[u8], params: &FingerprintParams) -> Result<NewDocument> {
    let decoded = decode::decode_bytes(Path::new(&canonical), bytes)?;
    let tokens = crate::engine::normalize::tokens(&decoded.text, params.normalizing);
    let windows = stored_windows(&tokens, params);
    Ok(NewDocument {
        title: decode::title_of(&decoded.text),
        byte_size: bytes.len() as u64,
        content_hash: content_hash(bytes),
        chars: decoded.text.chars().count() as u64,
        encoding: decoded.encoding.to_string(),
        signature: Some(crate::engine::signature::signature(&decoded.text)),
        work: None,
        text: decoded.text,
        windows,
        path: canonical,
    })
}

/// A newly written document's id and its window fingerprints, by ordinal.
pub(crate) type NewWindows = (u32, Vec<u64>);

enum Prepared {
    New(NewDocument),
    /// With the document's id and its folder's work, to refresh (see `Store::refresh_works`).
    Unchanged(PathBuf, Option<(u32, WorkHint)>),
    Failed(PathBuf, String),
}

/// Imports `paths` into `store`. Returns the report and the new documents' windows
/// (for updating the in-memory index without rereading the store).
pub(crate) fn import_into(
    store: &mut Store,
    paths: &[PathBuf],
    opts: &ImportOptions,
    progress: ProgressFn,
    cancel: &Cancel,
) -> Result<(ImportReport, Vec<NewWindows>)> {
    store.writable()?;
    let mut report = ImportReport::default();
    let send = |stage, done, total, bytes_done, bytes_total, current: Option<PathBuf>| {
        progress(&Progress { stage, files_done: done, files_total: total, bytes_done, bytes_total, current })
    };
    send(Stage::Scanning, 0, 0, 0, 0, None);
    let (files, found): (Vec<PathBuf>, Vec<Found>) = collect_files_found(paths, &mut report).into_iter().unzip();
    let folders = folder_metadata_of(&files, &mut report);
    let sizes: Vec<u64> = files.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).collect();
    let bytes_total: u64 = sizes.iter().sum();
    send(Stage::Importing, 0, files.len(), 0, bytes_total, None);
    let known = store.known_files()?;
    let params = store.params();
    let done = AtomicUsize::new(0);
    let bytes_done = AtomicU64::new(0);
    let last_sent = Mutex::new(std::time::Instant::now());
    let prepare = |range: std::ops::Range<usize>| -> Option<Vec<Prepared>> {
        files[range.clone()]
            .par_iter()
            .zip(&sizes[range.clone()])
            .zip(&found[range])
            .map(|((path, &size), &found)| {
                if cancel.is_cancelled() {
                    return None;
                }
                let result = decode::catch_quietly(|| {
                    let canonical = canonical_path(path)?;
                    let bytes = decode::read_limited(path)?;
                    let stored = Path::new(&canonical);
                    let folder = stored.parent().and_then(|d| folders.get(d)).and_then(Option::as_ref);
                    let file_name = stored.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let book = decode::book_metadata(stored, &bytes);
                    if let Some((id, hash, size)) = known.get(&canonical)
                        && *size == bytes.len() as u64
                        && *hash == content_hash(&bytes)
                    {
                        let folder_work = (works::in_folder_work(found, &file_name, folder, book.as_ref()))
                            .then(|| stored.parent().map(|dir| (*id, works::folder_hint(dir, &file_name, folder))))
                            .flatten();
                        return Ok(Prepared::Unchanged(path.clone(), folder_work));
                    }
                    let mut doc = prepare_document(canonical.clone(), &bytes, &params)?;
                    doc.work = Some(works::hint_for(stored, found, folder, book.as_ref(), &doc.title, &doc.text));
                    Ok(Prepared::New(doc))
                });
                let prepared = match result {
                    Ok(Ok(p)) => p,
                    Ok(Err(e)) => Prepared::Failed(path.clone(), reason_of(e, path)),
                    Err(panic) => Prepared::Failed(
                        path.clone(),
                        format!("internal error while reading: {}", panic_message(&panic)),
                    ),
                };
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                let b = bytes_done.fetch_add(size, Ordering::Relaxed) + size;
                // Progress at most every 50 ms, and always for the last file.
                let mut last = last_sent.lock().unwrap();
                if last.elapsed().as_millis() >= 50 || n == files.len() {
                    *last = std::time::Instant::now();
                    drop(last);
                    send(Stage::Importing, n, files.len(), b, bytes_total, Some(path.clone()));
                }
                Some(prepared)
            })
            .collect::<Option<Vec<_>>>()
    };
    // The batches, each up to batch_files files or batch_bytes bytes.
    let mut batches = Vec::new();
    let mut start = 0;
    while start < files.len() {
        let mut end = start;
        let mut batch_bytes = 0;
        while end < files.len()
            && end - start < opts.batch_files
            && (end == start || batch_bytes + sizes[end] <= opts.batch_bytes)
        {
            batch_bytes += sizes[end];
            end += 1;
        }
        batches.push(start..end);
        start = end;
    }
    // Files are prepared on the rayon threads while this one writes the batch before:
    // SQLite's share of an import (a third of it) overlaps the fingerprinting.
    let (to_writer, prepared_batches) = std::sync::mpsc::sync_channel::<Vec<Prepared>>(1);
    let mut cancelled = false;
    let mut new_windows = Vec::new();
    let written = std::thread::scope(|scope| {
        let producer = scope.spawn(|| {
            // Owned here, so the writer's loop ends when this thread is done.
            let to_writer = to_writer;
            for range in batches {
                // `None`: cancelled while reading; the batch is dropped whole.
                let Some(batch) = prepare(range) else { return true };
                if to_writer.send(batch).is_err() {
                    return false; // the writer stopped on an error
                }
                if cancel.is_cancelled() {
                    return true;
                }
            }
            false
        });
        let written = write_batches(store, prepared_batches, &mut report, &mut new_windows);
        cancelled = producer.join().expect("the file reader does not panic (files are read under catch_unwind)");
        written
    });
    written?;
    report.cancelled = cancelled;
    Ok((report, new_windows))
}

/// Writes each prepared batch in its own transaction and records the outcome.
fn write_batches(
    store: &mut Store,
    batches: std::sync::mpsc::Receiver<Vec<Prepared>>,
    report: &mut ImportReport,
    new_windows: &mut Vec<NewWindows>,
) -> Result<()> {
    let mut seen = HashSet::new();
    for prepared in batches {
        let mut docs = Vec::new();
        let mut paths_of_docs = Vec::new();
        let mut unchanged_works = Vec::new();
        for p in prepared {
            match p {
                Prepared::Unchanged(path, work) => {
                    report.unchanged.push(path);
                    unchanged_works.extend(work);
                }
                Prepared::Failed(path, reason) => report.failed.push((path, reason)),
                Prepared::New(doc) => {
                    // The same file named twice (e.g. by two overlapping folders).
                    if seen.insert(doc.path.clone()) {
                        paths_of_docs.push(PathBuf::from(&doc.path));
                        docs.push(doc);
                    }
                }
            }
        }
        let outcomes = store.write_batch(&docs)?;
        store.refresh_works(&unchanged_works)?;
        for ((doc, outcome), path) in docs.iter().zip(&outcomes).zip(paths_of_docs) {
            report.bytes += doc.byte_size;
            report.chars += doc.chars;
            report.new_ids.push(outcome.id);
            new_windows.push((outcome.id, doc.windows.iter().map(|w| w.fingerprint).collect()));
            match outcome.replaced {
                Some(old) => {
                    report.removed_ids.push(old);
                    report.replaced.push(path);
                }
                None => report.imported.push(path),
            }
        }
    }
    Ok(())
}

/// The metadata of each folder holding files to import (canonical path → metadata, if any);
/// metadata files that cannot be read are reported as failed, the import goes on without them.
fn folder_metadata_of(files: &[PathBuf], report: &mut ImportReport) -> HashMap<PathBuf, Option<FolderMetadata>> {
    let mut out = HashMap::new();
    let mut looked = HashSet::new();
    for file in files {
        let Some(dir) = file.parent() else { continue };
        if !looked.insert(dir.to_path_buf()) {
            continue;
        }
        let Ok(canonical) = std::fs::canonicalize(dir) else { continue };
        if out.contains_key(&canonical) {
            continue;
        }
        let (meta, errors) = works::folder_metadata(&canonical);
        report.failed.extend(errors);
        out.insert(canonical, meta);
    }
    out
}

/// The reason of a per-file error without the path (the report pairs them).
fn reason_of(e: Error, path: &Path) -> String {
    match e {
        Error::Decode { reason, .. } => reason,
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            "the file disappeared before it could be read".into()
        }
        Error::Io { source, .. } => source.to_string(),
        other => other.to_string().replace(&format!("{}: ", path.display()), ""),
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}
