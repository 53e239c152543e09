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
use crate::engine::store::watch::Observation;
use crate::engine::store::{CapturedPage, FindingKind, MoveTarget, NewFinding, Store, Work, WorkEdit, WorkRef};
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

    /// The store, for writes that leave the index alone (the findings library).
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
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
            progress(&Progress::files(Stage::Indexing, 0, 0));
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
        check_text_with(&self.index, &self.store, path, text, opts)
    }

    /// Reads, decodes and checks a file. A file that cannot be read gives a report with
    /// `error` set, never an `Err`: a batch of suspects goes on past a bad one.
    pub fn check_file(&self, path: &Path, opts: &CheckOptions) -> Result<SuspectReport> {
        Ok(check_file_with(&self.index, &self.store, path, opts)?.report)
    }

    /// Like [`Corpus::check_file`], also returning the extracted text (for reports).
    pub fn check_file_full(&self, path: &Path, opts: &CheckOptions) -> Result<Checked> {
        check_file_with(&self.index, &self.store, path, opts)
    }

    /// The extracted text of a stored document.
    pub fn text(&self, id: u32) -> Result<Option<String>> {
        self.store.text(id)
    }

    /// Every work (a book, a column) with its document ids in chapter order, by title.
    pub fn works(&self) -> Result<Vec<Work>> {
        self.store.works()
    }

    /// One work by id.
    pub fn work(&self, id: u32) -> Result<Option<Work>> {
        self.store.work(id)
    }

    /// The work a document belongs to (every stored document has one).
    pub fn work_of(&self, doc: u32) -> Result<Option<WorkRef>> {
        self.store.work_of(doc)
    }

    /// Changes a work's title, authors, language or rights holder ([`Store::edit_work`]).
    pub fn edit_work(&mut self, id: u32, edit: &WorkEdit) -> Result<()> {
        self.store.edit_work(id, edit)?;
        self.data_version = self.store.data_version()?;
        Ok(())
    }

    /// Moves every document of work `from` into work `into` ([`Store::merge_works`]).
    pub fn merge_works(&mut self, from: u32, into: u32) -> Result<()> {
        self.store.merge_works(from, into)?;
        self.data_version = self.store.data_version()?;
        Ok(())
    }

    /// Moves documents to a work or a new one; returns the work's id ([`Store::move_documents`]).
    pub fn move_documents(&mut self, docs: &[u32], to: &MoveTarget) -> Result<u32> {
        let id = self.store.move_documents(docs, to)?;
        self.data_version = self.store.data_version()?;
        Ok(id)
    }

    /// A handle for checking on another thread: the current index snapshot and a second
    /// connection to the store file. Imports made later are not seen by it.
    pub fn checker(&self) -> Result<Checker> {
        let path =
            self.store.path().ok_or_else(|| Error::Parameter("an in-memory store has no second connection".into()))?;
        let store = Store::open(path, self.params())?;
        store.limit_page_cache()?;
        Ok(Checker { index: self.index.clone(), store })
    }

    /// Re-fingerprints every stored document with `params` (from the stored texts) in one
    /// transaction, then rebuilds the index. A cancel leaves the store as it was.
    pub fn refingerprint(&mut self, params: FingerprintParams, progress: ProgressFn, cancel: &Cancel) -> Result<()> {
        self.store.refingerprint(params, progress, cancel)?;
        self.index = Arc::new(self.store.load_index(self.index.max_distance())?);
        self.data_version = self.store.data_version()?;
        Ok(())
    }
}

/// A checked file: the report and, when it could be read, the extracted text and the bytes
/// as read (what the findings library keeps: read once, so text and bytes always agree).
pub struct Checked {
    pub report: SuspectReport,
    pub text: Option<String>,
    pub page: Option<CapturedPage>,
}

impl Corpus {
    /// Records a checked suspect in the findings library: `pages` as received (a file's
    /// bytes, or a web suspect's pages), its text and its report. Returns the finding's id.
    pub fn record_finding(
        &mut self,
        kind: FindingKind,
        pages: &[CapturedPage],
        text: &str,
        report: &SuspectReport,
        opts: &CheckOptions,
    ) -> Result<i64> {
        let params = self.params();
        record_finding_in(&mut self.store, params, kind, pages, text, report, opts)
    }
}

pub(crate) fn record_finding_in(
    store: &mut Store,
    params: FingerprintParams,
    kind: FindingKind,
    pages: &[CapturedPage],
    text: &str,
    report: &SuspectReport,
    opts: &CheckOptions,
) -> Result<i64> {
    let settings = serde_json::json!({ "fingerprint": params, "check": opts });
    let target = report.web.as_ref().map_or(report.path.as_str(), |w| w.url.as_str());
    store.record_finding(&NewFinding {
        kind,
        target,
        final_url: report.web.as_ref().map(|w| w.final_url.as_str()),
        pages,
        text,
        result: serde_json::to_string(report).expect("reports serialize"),
        settings: settings.to_string(),
        similarity: report.similarity,
        sources: report.sources.iter().map(|s| (s.id, s.similarity)).collect(),
        checked_at: crate::engine::time::now(),
    })
}

/// Checking from a background thread (see [`Corpus::checker`]).
pub struct Checker {
    index: Arc<Index>,
    store: Store,
}

impl Checker {
    /// The index snapshot this checker reads.
    pub(crate) fn index(&self) -> Arc<Index> {
        self.index.clone()
    }

    /// The index snapshot and the connection, for the engine's steps that need both.
    pub(crate) fn parts(&mut self) -> (Arc<Index>, &mut Store) {
        (self.index.clone(), &mut self.store)
    }

    pub fn check_text(&self, path: &str, text: &str, opts: &CheckOptions) -> Result<SuspectReport> {
        check_text_with(&self.index, &self.store, path, text, opts)
    }

    pub fn check_file(&self, path: &Path, opts: &CheckOptions) -> Result<Checked> {
        check_file_with(&self.index, &self.store, path, opts)
    }

    pub fn text(&self, id: u32) -> Result<Option<String>> {
        self.store.text(id)
    }

    pub fn record_finding(
        &mut self,
        kind: FindingKind,
        pages: &[CapturedPage],
        text: &str,
        report: &SuspectReport,
        opts: &CheckOptions,
    ) -> Result<i64> {
        let params = self.store.params();
        record_finding_in(&mut self.store, params, kind, pages, text, report, opts)
    }

    /// Tracks copies from checks made here ([`Store::observe`]).
    pub fn observe(&mut self, observations: &[Observation]) -> Result<crate::engine::store::watch::Changes> {
        self.store.observe(observations, crate::engine::time::now())
    }

    /// The watches kept in the store.
    pub fn watches(&self) -> Result<Vec<crate::engine::store::watch::Watch>> {
        self.store.watches()
    }

    /// The store this checker reads through.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The findings library, newest first.
    pub fn findings(&self) -> Result<Vec<crate::engine::store::FindingInfo>> {
        self.store.findings(&Default::default())
    }

    /// One finding whole.
    pub fn finding(&self, id: i64) -> Result<Option<crate::engine::store::Finding>> {
        self.store.finding(id)
    }
}

pub(crate) fn check_text_with(
    index: &Index,
    store: &Store,
    path: &str,
    text: &str,
    opts: &CheckOptions,
) -> Result<SuspectReport> {
    if opts.max_distance > index.max_distance() {
        return Err(Error::Parameter(format!(
            "maximum distance {} is above the index's {}; call ensure_distance first",
            opts.max_distance,
            index.max_distance()
        )));
    }
    let _turn = check::long_text_turn(text.len());
    let mut report = check::check_text(index, store, &store.params(), opts, path, text)?;
    crate::engine::translation::add_translations(&mut report, store, text)?;
    Ok(report)
}

fn check_file_with(index: &Index, store: &Store, path: &Path, opts: &CheckOptions) -> Result<Checked> {
    let shown = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()).to_string_lossy().into_owned();
    let (bytes, decoded) = match decode::read_and_decode(path) {
        Ok(read) => read,
        Err(error) => {
            return Ok(Checked { report: SuspectReport::failed(shown, error), text: None, page: None });
        }
    };
    let mut report = check_text_with(index, store, &shown, &decoded.text, opts)?;
    report.disguises.images = decoded.images_read;
    report.disguises.font_remapped = decoded.font_remapped;
    Ok(Checked { page: Some(CapturedPage::file(&shown, bytes)), report, text: Some(decoded.text) })
}

impl Sources for Store {
    fn source(&self, id: u32) -> Result<Option<SourceDoc>> {
        self.source_doc(id)
    }

    fn work_of(&self, id: u32) -> Result<Option<crate::engine::store::WorkRef>> {
        Store::work_of(self, id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAPTER: &str = "话说天下大势，分久必合，合久必分。周末七国分争，并入于秦。及秦灭之后，楚、汉分争，又并入于汉。\
        汉朝自高祖斩白蛇而起义，一统天下，后来光武中兴，传至献帝，遂分为三国。推其致乱之由，殆始于桓、灵二帝。";

    fn corpus_with_chapter(dir: &Path) -> Corpus {
        let work = dir.join("work.txt");
        std::fs::write(&work, CHAPTER).unwrap();
        let mut c = Corpus::open(&dir.join("c.sqlite")).unwrap();
        c.import(&[work], &ImportOptions::default(), &|_| {}, &Cancel::new()).unwrap();
        c
    }

    #[test]
    fn a_checker_on_another_thread_sees_the_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = corpus_with_chapter(dir.path());
        let checker = corpus.checker().unwrap();
        let found = std::thread::spawn(move || checker.check_text("s", CHAPTER, &CheckOptions::default()).unwrap())
            .join()
            .unwrap();
        assert_eq!(found.sources.len(), 1);
        assert!(Corpus::open_in_memory().unwrap().checker().is_err());
    }

    #[test]
    fn refingerprint_changes_the_windows_and_cancel_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut corpus = corpus_with_chapter(dir.path());
        let before = corpus.store().stats().unwrap().windows;
        let finer = FingerprintParams { window: 20, step: 2, ..FingerprintParams::default() };
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(matches!(corpus.refingerprint(finer, &|_| {}, &cancel), Err(Error::Cancelled)));
        assert_eq!(corpus.store().stats().unwrap().windows, before);
        assert_eq!(corpus.params(), FingerprintParams::default());

        corpus.refingerprint(finer, &|_| {}, &Cancel::new()).unwrap();
        assert_eq!(corpus.params(), finer);
        assert!(corpus.store().stats().unwrap().windows > before * 2);
        assert_eq!(corpus.index().len() as u64, corpus.store().stats().unwrap().windows);
        assert!(corpus.store().verify().unwrap().is_empty());
        let r = corpus.check_text("s", CHAPTER, &CheckOptions::default()).unwrap();
        assert!(r.similarity > 0.95, "{}", r.similarity);
        // Reopened, the store keeps the new parameters.
        drop(corpus);
        assert_eq!(Corpus::open(&dir.path().join("c.sqlite")).unwrap().params(), finer);
    }
}
