//! Progress reports and cancellation shared by import and check.
//!
//! The engine only sends plain [`Progress`] values through a callback; the CLI draws an
//! indicatif bar from them, the GUI a progress dialog. Cancellation is one flag polled
//! between files, so a cancel takes effect within one file's work.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Shared cancel flag. Cloning gives another handle to the same flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// `Err(Error::Cancelled)` once cancelled, for loops that stop with `?`.
    pub fn check(&self) -> crate::Result<()> {
        if self.is_cancelled() { Err(crate::Error::Cancelled) } else { Ok(()) }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Walking folders to find the files.
    Scanning,
    /// Reading, decoding and fingerprinting files, and writing them to the store.
    Importing,
    /// Rebuilding the in-memory index after the store changed.
    Indexing,
    /// Checking suspects against the index.
    Checking,
    /// Writing documents and their windows out (Parquet, for the Spark job).
    Exporting,
    Done,
}

#[derive(Clone, Debug)]
pub struct Progress {
    pub stage: Stage,
    pub files_done: usize,
    pub files_total: usize,
    pub bytes_done: u64,
    pub bytes_total: u64,
    /// The file most recently finished, if any.
    pub current: Option<PathBuf>,
}

impl Progress {
    /// `done` of `total` files (or documents) at `stage`, nothing else known.
    pub fn files(stage: Stage, done: usize, total: usize) -> Progress {
        Progress { stage, files_done: done, files_total: total, bytes_done: 0, bytes_total: 0, current: None }
    }
}

/// The callback type frontends pass in. It is called from the thread doing the work.
pub type ProgressFn<'a> = &'a (dyn Fn(&Progress) + Sync);
