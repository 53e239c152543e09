//! Zhiwen (指纹) finds which of your documents were copied into a suspect text.
//!
//! The engine is a pipeline, one module per step (see `ARCHITECTURE.md`):
//! decode → normalize → window → simhash → index ↔ store → check → report.
//! The CLI (`cli`) and the desktop app (`gui`, feature `gui`) are thin layers over
//! [`Corpus`]; neither has a private path into the engine.
//!
//! ```
//! use zhiwen::{CheckOptions, Corpus, ImportOptions};
//! # fn main() -> zhiwen::Result<()> {
//! let dir = tempfile::tempdir().unwrap();
//! let work = dir.path().join("work.txt");
//! std::fs::write(&work, "滚滚长江东逝水，浪花淘尽英雄。是非成败转头空，青山依旧在，几度夕阳红。\
//!     白发渔樵江渚上，惯看秋月春风。一壶浊酒喜相逢，古今多少事，都付笑谈中。").unwrap();
//! let mut corpus = Corpus::open_in_memory()?;
//! corpus.import(&[work], &ImportOptions::default(), &|_| {}, &Default::default())?;
//! // A homophone-substituted, traditional-script copy still matches.
//! let report = corpus.check_text("盗版.txt", "滾滾長江東逝水，浪花淘盡英雄。是非成敗轉頭空，青山依舊在，幾度夕陽紅。\
//!     白發漁樵江渚上，慣看秋月春風。一壺濁酒喜相逢，古今多少事，都付笑談中。", &CheckOptions::default())?;
//! assert_eq!(report.sources.len(), 1);
//! assert!(report.similarity > 0.9);
//! # Ok(()) }
//! ```

pub mod bench;
pub mod engine;
mod error;
pub mod eval;
#[doc(hidden)]
pub mod fuzz;
pub mod report;
pub mod scaleout;

#[cfg(feature = "gui")]
pub mod gui;

pub use engine::check::{CheckOptions, CopyKind, Passage, SourceMatch, SuspectReport};
pub use engine::corpus::Corpus;
pub use engine::import::{ImportOptions, ImportReport};
pub use engine::params::FingerprintParams;
pub use engine::progress::{Cancel, Progress, Stage};
pub use error::{Error, Result};
