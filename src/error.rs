//! The engine's one error type. Frontends add context (`anyhow`) and decide exit codes.

use std::path::PathBuf;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be turned into text. The message names the reason in plain words.
    #[error("{path}: {reason}")]
    Decode { path: PathBuf, reason: String },

    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("store error: {0}")]
    Sqlite(#[from] rusqlite::Error),

    /// The store was written by a newer Zhiwen, or its schema is not one we know.
    #[error("store {path}: {reason}")]
    Schema { path: PathBuf, reason: String },

    /// The store is damaged: rows that contradict each other, or SQLite's integrity check failed.
    #[error("store {path} is corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },

    /// The store cannot be written: a read-only disk or folder, or a write-protected file.
    #[error(
        "store {path} is read-only (on a read-only disk or folder, or write-protected): it can be listed, \
         checked against and verified, not changed"
    )]
    ReadOnly { path: PathBuf },

    /// The disk holding the store is full. The batch being written was rolled back.
    #[error(
        "no space left for store {path}: the batch being written was rolled back, the documents imported \
         before it are kept; free some space and run the import again to add the rest"
    )]
    Full { path: PathBuf },

    #[error("invalid setting: {0}")]
    Parameter(String),

    /// A long page not read while another thread checks one
    /// ([`crate::engine::web::fetch::FetchOptions::long_pages_take_turns`]): its caller asks
    /// again later.
    #[error("{url}: put off while another long page is checked")]
    PutOff { url: String },

    /// A web page could not be fetched or was refused; the message names the URL.
    #[error("{url}: {reason}")]
    Fetch { url: String, reason: String },

    /// A web page answered with an error status (after redirects); the message names the URL.
    #[error("{url}: HTTP {status}{}", crate::engine::web::fetch::status_text(*.status))]
    HttpStatus { url: String, status: u16 },

    #[error("cancelled")]
    Cancelled,

    /// A Parquet folder (an export, a Spark run) that cannot be written or read.
    #[error("{path}: {reason}")]
    Parquet { path: PathBuf, reason: String },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }

    pub(crate) fn decode(path: impl Into<PathBuf>, reason: impl Into<String>) -> Error {
        Error::Decode { path: path.into(), reason: reason.into() }
    }
}
