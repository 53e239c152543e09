//! What the fuzz targets (`fuzz/`, run with cargo-fuzz) do with each input, shared with
//! their regression tests (`tests/fuzz_regressions.rs`, run by `cargo test` on the saved
//! inputs), so a fixed crash stays fixed. Each function panics only on a bug: a decoder
//! may refuse its input, but never panic, and what it returns must hold together.

use crate::engine::check::{self, SourceDoc, Sources};
use crate::engine::decode::decode_bytes;
use crate::engine::index::{IndexBuilder, WindowRef};
use crate::engine::normalize::tokenize;
use crate::engine::simhash::stored_windows;
use crate::report::{self, CorpusSize, ReportInput};
use crate::{CheckOptions, FingerprintParams, Result};
use std::path::Path;

/// Decodes `bytes` as a file with extension `ext` ("txt", "html", "epub", "docx", "pdf").
pub fn decode(ext: &str, bytes: &[u8]) {
    let Ok(decoded) = decode_bytes(Path::new(&format!("fuzzed.{ext}")), bytes) else { return };
    let chars = decoded.text.chars().count();
    assert!(chars > 0, "a decoded file has text");
    for t in tokenize(&decoded.text) {
        assert!(t.start < t.end && t.end as usize <= chars, "token {t:?} outside {chars} chars");
    }
}

/// Checks `bytes` (as lossy UTF-8), framed around a slice of `source`, against a corpus
/// holding `source`; renders the HTML report. Passages must lie inside both texts.
pub fn check(source: &str, bytes: &[u8]) {
    let params = FingerprintParams::default();
    let fuzzed = String::from_utf8_lossy(bytes);
    // Some of the source inside the suspect, so the fuzzed text meets real matches.
    let cut: String = source.chars().skip(bytes.len() % 97).take(300).collect();
    let suspect = format!("{fuzzed}{cut}{fuzzed}");
    let mut b = IndexBuilder::new(3);
    for w in stored_windows(&crate::engine::normalize::tokens(source, params.normalizing), &params) {
        b.push(w.fingerprint, WindowRef { doc: 1, ordinal: w.ordinal });
    }
    let index = b.build();
    let one = OneSource(source);
    let opts = CheckOptions::default();
    let report = check::check_text(&index, &one, &params, &opts, "fuzzed", &suspect).expect("a check of text");
    let (q_chars, s_chars) = (suspect.chars().count(), source.chars().count());
    assert!((0.0..=1.0).contains(&report.similarity));
    for m in &report.sources {
        for p in &m.passages {
            assert!(p.suspect_start < p.suspect_end && p.suspect_end <= q_chars, "{p:?} in {q_chars}");
            assert!(p.source_start < p.source_end && p.source_end <= s_chars, "{p:?} in {s_chars}");
        }
    }
    let page = report::html::html(&ReportInput {
        report: &report,
        suspect_text: &suspect,
        source_texts: &[(1, source.to_string())],
        corpus: CorpusSize::default(),
        params,
        check: opts,
        generated_at: 0,
    });
    assert!(!page.contains("<script"), "no markup from the input reaches the report");
}

struct OneSource<'a>(&'a str);

impl Sources for OneSource<'_> {
    fn source(&self, id: u32) -> Result<Option<SourceDoc>> {
        Ok((id == 1).then(|| SourceDoc { path: "source.txt".into(), title: "source".into(), text: self.0.to_string() }))
    }
}
