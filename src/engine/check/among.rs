//! Copies among the suspects themselves (`check --among`): a teacher's 40 essays compared
//! with each other, as WCopyfind, JPlag, MOSS and Dolos do, through the same engine.
//!
//! The batch is fingerprinted like an import (stored windows every `step`) into an index
//! of its own beside the corpus's; each suspect is then checked against it, with itself
//! left out, by the same [`check_text`]. A pair that shares text is reported once, as a
//! report whose suspect is the pair's first member and whose one source is the second
//! (the direction with the better match when both found it), so the viewer, the JSON and
//! the reports show it like any other match.

use super::{CheckOptions, SourceDoc, Sources, SuspectReport, check_text};
use crate::Result;
use crate::engine::index::{IndexBuilder, WindowRef};
use crate::engine::params::FingerprintParams;
use crate::engine::simhash::stored_windows;
use rayon::prelude::*;
use serde::Serialize;

/// Two suspects that share text, as positions in the batch: `report` is `a`'s check with
/// `b` as its one source (source ids are batch positions).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuspectPair {
    pub a: usize,
    pub b: usize,
    pub report: SuspectReport,
}

/// The batch as sources: its texts, by position, except the suspect being checked.
struct Batch<'a> {
    docs: &'a [(String, String)],
    exclude: usize,
}

impl Sources for Batch<'_> {
    fn source(&self, id: u32) -> Result<Option<SourceDoc>> {
        let id = id as usize;
        Ok((id != self.exclude).then(|| self.docs.get(id)).flatten().map(|(path, text)| SourceDoc {
            path: path.clone(),
            title: crate::engine::decode::title_of(text),
            text: text.clone(),
        }))
    }
}

/// The pairs of `suspects` (path, text) that share text, each once.
pub fn among(
    suspects: &[(String, String)],
    params: &FingerprintParams,
    opts: &CheckOptions,
) -> Result<Vec<SuspectPair>> {
    let mut builder = IndexBuilder::new(opts.max_distance);
    for (i, (_, text)) in suspects.iter().enumerate() {
        for w in stored_windows(&crate::engine::normalize::tokens(text, params.normalizing), params) {
            builder.push(w.fingerprint, WindowRef { doc: i as u32, ordinal: w.ordinal });
        }
    }
    let index = builder.build();
    let reports: Vec<SuspectReport> = suspects
        .par_iter()
        .enumerate()
        .map(|(i, (path, text))| check_text(&index, &Batch { docs: suspects, exclude: i }, params, opts, path, text))
        .collect::<Result<_>>()?;
    let mut pairs = Vec::new();
    for a in 0..suspects.len() {
        for b in a + 1..suspects.len() {
            let ab = reports[a].sources.iter().find(|s| s.id as usize == b);
            let ba = reports[b].sources.iter().find(|s| s.id as usize == a);
            let (suspect, source) = match (ab, ba) {
                (Some(x), Some(y)) if y.similarity > x.similarity => (b, y),
                (Some(x), _) => (a, x),
                (None, Some(y)) => (b, y),
                (None, None) => continue,
            };
            let r = &reports[suspect];
            let report = SuspectReport { similarity: source.similarity, sources: vec![source.clone()], ..r.clone() };
            pairs.push(SuspectPair { a: suspect, b: if suspect == a { b } else { a }, report });
        }
    }
    Ok(pairs)
}
