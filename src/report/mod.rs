//! Exported reports. Both frontends call these; nothing here draws or prints.
//!
//! - [`json`]: the `check --json` contract (README), also the GUI's JSON export.

use crate::{CheckOptions, FingerprintParams, SuspectReport};
use serde::Serialize;

/// Version of the JSON contract; bump on incompatible changes.
pub const JSON_VERSION: &str = "0.1.0";

/// Corpus size as reports state it.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct CorpusSize {
    pub documents: u64,
    pub windows: u64,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    version: &'static str,
    settings: Settings,
    corpus: CorpusSize,
    suspects: &'a [SuspectReport],
}

#[derive(Serialize)]
struct Settings {
    window: usize,
    step: usize,
    max_distance: u32,
    min_passage_chars: usize,
}

/// The JSON document of the `check --json` contract.
pub fn json(params: &FingerprintParams, opts: &CheckOptions, corpus: CorpusSize, suspects: &[SuspectReport]) -> String {
    let doc = CheckJson {
        version: JSON_VERSION,
        settings: Settings {
            window: params.window,
            step: params.step,
            max_distance: opts.max_distance,
            min_passage_chars: opts.min_passage_chars,
        },
        corpus,
        suspects,
    };
    serde_json::to_string_pretty(&doc).expect("report serializes")
}
