//! [`Corpus`]: the engine's front door. It owns the store (source of truth) and an
//! `Arc` snapshot of the index derived from it, and keeps the two in step: after an
//! import or removal commits, a new index is built and swapped in.
//!
//! Both frontends use only this type (and the plain data it returns).

use crate::engine::check::{self, CheckOptions, SourceDoc, Sources, SuspectReport};
use crate::engine::decode;
use crate::engine::import::{self, ImportOptions, ImportReport};
use crate::engine::index::Index;
use crate::engine::params::{FingerprintParams, MAX_DISTANCE_LIMIT};
use crate::engine::progress::{Cancel, Progress, ProgressFn, Stage};
use crate::engine::store::Store;
use crate::{Error, Result};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The distance the index is laid out for unless a check asks for more.
pub const DEFAULT_INDEX_DISTANCE: u32 = 3;

pub struct Corpus {
    store: Store,
    index: Arc<Index>,
    data_version: i64,
}

impl Corpus {
    /// Opens (or creates, with default parameters) the store at `path`.
    pub fn open(path: &Path) -> Result<Corpus> {
        Corpus::open_with(path, FingerprintParams::default())
    }

    /// Opens the store at `path`, creating it with `params` if it is new.
    pub fn open_with(path: &Path, params: FingerprintParams) -> Result<Corpus> {
        Corpus::from_store(Store::open(path, params)?)
    }

    pub fn open_in_memory() -> Result<Corpus> {
        Corpus::from_store(Store::open_in_memory(FingerprintParams::default())?)
    }

    pub fn open_in_memory_with(params: FingerprintParams) -> Result<Corpus> {
        Corpus::from_store(Store::open_in_memory(params)?)
    }

    fn from_store(store: Store) -> Result<Corpus> {
        let index = Arc::new(store.load_index(DEFAULT_INDEX_DISTANCE)?);
        let data_version = store.data_version()?;
        Ok(Corpus { store, index, data_version })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn params(&self) -> FingerprintParams {
        self.store.params()
    }

    /// The current index snapshot; it stays valid (and unchanged) while it is held.
    pub fn index(&self) -> Arc<Index> {
        self.index.clone()
    }

    /// Makes the index answer distances up to `k` exactly, rebuilding it if its layout
    /// was made for a smaller k.
    pub fn ensure_distance(&mut self, k: u32) -> Result<()> {
        if k > MAX_DISTANCE_LIMIT {
            return Err(Error::Parameter(format!("maximum distance must be at most {MAX_DISTANCE_LIMIT}, not {k}")));
        }
        if k > self.index.max_distance() {
            self.index = Arc::new(self.index.to_builder(|_| true).rebuild_for(k).build());
        }
        Ok(())
    }

    /// Imports files and folders; see [`import`]. The index is updated before returning.
    pub fn import(
        &mut self,
        paths: &[PathBuf],
        opts: &ImportOptions,
        progress: ProgressFn,
        cancel: &Cancel,
    ) -> Result<ImportReport> {
        let (report, new_windows) = import::import_into(&mut self.store, paths, opts, progress, cancel)?;
        if !new_windows.is_empty() {
            progress(&Progress {
                stage: Stage::Indexing,
                files_done: 0,
                files_total: 0,
                bytes_done: 0,
                bytes_total: 0,
                current: None,
            });
            let removed: HashSet<u32> = report.removed_ids.iter().copied().collect();
            let mut b = self.index.to_builder(|doc| !removed.contains(&doc));
            for (doc, fps) in &new_windows {
                for (ordinal, &fp) in fps.iter().enumerate() {
                    b.push(fp, crate::engine::index::WindowRef { doc: *doc, ordinal: ordinal as u32 });
                }
            }
            self.index = Arc::new(b.build());
        }
        self.data_version = self.store.data_version()?;
        progress(&Progress {
            stage: Stage::Done,
            files_done: report.imported.len() + report.replaced.len() + report.unchanged.len() + report.failed.len(),
            files_total: 0,
            bytes_done: report.bytes,
            bytes_total: report.bytes,
            current: None,
        });
        Ok(report)
    }

    /// Removes documents by id; returns how many existed.
    pub fn remove(&mut self, ids: &[u32]) -> Result<usize> {
        let n = self.store.remove(ids)?;
        let gone: HashSet<u32> = ids.iter().copied().collect();
        self.index = Arc::new(self.index.to_builder(|doc| !gone.contains(&doc)).build());
        self.data_version = self.store.data_version()?;
        Ok(n)
    }

    /// Reloads the index if another process changed the store since we last looked.
    /// Returns whether it did.
    pub fn reload_if_changed(&mut self) -> Result<bool> {
        let v = self.store.data_version()?;
        if v == self.data_version {
            return Ok(false);
        }
        self.index = Arc::new(self.store.load_index(self.index.max_distance())?);
        self.data_version = v;
        Ok(true)
    }

    /// Checks a text. `path` is only carried into the report.
    pub fn check_text(&self, path: &str, text: &str, opts: &CheckOptions) -> Result<SuspectReport> {
        if opts.max_distance > self.index.max_distance() {
            return Err(Error::Parameter(format!(
                "maximum distance {} is above the index's {}; call ensure_distance first",
                opts.max_distance,
                self.index.max_distance()
            )));
        }
        check::check_text(&self.index, &self.store, &self.params(), opts, path, text)
    }

    /// Reads, decodes and checks a file. A file that cannot be read gives a report with
    /// `error` set, never an `Err`: a batch of suspects goes on past a bad one.
    pub fn check_file(&self, path: &Path, opts: &CheckOptions) -> Result<SuspectReport> {
        let shown = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()).to_string_lossy().into_owned();
        let decoded = match std::panic::catch_unwind(|| decode::decode_file(path)) {
            Ok(Ok(d)) => d,
            Ok(Err(e)) => return Ok(SuspectReport::failed(shown, e.to_string())),
            Err(_) => {
                return Ok(SuspectReport::failed(shown, format!("{}: internal error while reading", path.display())));
            }
        };
        self.check_text(&shown, &decoded.text, opts)
    }

    /// The extracted text of a stored document.
    pub fn text(&self, id: u32) -> Result<Option<String>> {
        self.store.text(id)
    }
}

impl Sources for Store {
    fn source(&self, id: u32) -> Result<Option<SourceDoc>> {
        self.source_doc(id)
    }
}
