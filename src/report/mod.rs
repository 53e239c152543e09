//! Exported reports. Both frontends call these; nothing here draws or prints.
//!
//! - [`json`]: the `check --json` contract (README);
//! - [`html()`]: a self-contained side-by-side report of one suspect, [`html::index`] for a batch;
//! - [`csv()`]: one row per passage; [`pan_xml`]: PAN text-alignment XML;
//! - [`evidence`]: a finding's evidence package; [`notice`]: takedown notices;
//!   [`summary`]: the picture per work, per site and over time, with its chart.
//!
//! Invariant: text from the files (content, titles, paths) is untrusted; everything
//! that reaches HTML or XML goes through [`escape`].

mod csv;
pub mod evidence;
pub mod html;
pub mod notice;
mod pan;
pub mod summary;
pub mod timestamp;

pub use csv::{clusters_csv, csv, summary_csv};
pub use html::html;
pub use pan::pan_xml;

use crate::{CheckOptions, FingerprintParams, SuspectReport};
use serde::Serialize;

/// Everything a report of one suspect shows.
pub struct ReportInput<'a> {
    pub report: &'a SuspectReport,
    /// The suspect's extracted text (offsets count in it).
    pub suspect_text: &'a str,
    /// Extracted texts of the reported sources, by document id.
    pub source_texts: &'a [(u32, String)],
    pub corpus: CorpusSize,
    pub params: FingerprintParams,
    pub check: CheckOptions,
    /// Unix seconds.
    pub generated_at: i64,
}

impl ReportInput<'_> {
    fn source_text(&self, id: u32) -> &str {
        self.source_texts.iter().find(|(i, _)| *i == id).map_or("", |(_, t)| t.as_str())
    }
}

/// Escapes text for HTML and XML, content and attribute values alike.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML; show them as the replacement character.
            c if c.is_control() && !matches!(c, '\n' | '\r' | '\t') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The file name of a path (the whole string if it has none).
pub fn file_name(path: &str) -> String {
    std::path::Path::new(path).file_name().map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Unix seconds as "2026-11-21 21:30" (UTC).
pub fn format_utc(secs: i64) -> String {
    let (y, m, d, h, mi, _) = crate::engine::time::civil(secs);
    format!("{y:04}-{m:02}-{d:02} {h:02}:{mi:02}")
}

pub use crate::engine::time::now;

/// The file name of the `i`th suspect's report in a folder of reports: `001-name.html`
/// (the suspect's file stem, with anything but letters, digits, `-` and `_` made `_`).
pub fn report_name(i: usize, path: &str, ext: &str) -> String {
    let stem =
        std::path::Path::new(path).file_stem().map_or_else(|| "suspect".into(), |s| s.to_string_lossy().into_owned());
    let safe: String =
        stem.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("{:03}-{safe}.{ext}", i + 1)
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, then
/// renamed, so a reader (or a crash) never sees half a file.
pub fn write_whole(path: &std::path::Path, bytes: &[u8]) -> crate::Result<()> {
    use std::io::Write;
    let io = |source| crate::Error::Io { path: path.to_path_buf(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Writes a folder of HTML reports: one per suspect (`html_of(i)` makes the `i`th) and an
/// `index.html` linking them. Returns the index's path. The CLI's `check --report DIR/`
/// and the app's *Export all* both use it.
pub fn write_html_folder(
    dir: &std::path::Path,
    reports: &[&SuspectReport],
    mut html_of: impl FnMut(usize) -> std::io::Result<String>,
    generated_at: i64,
) -> std::io::Result<std::path::PathBuf> {
    let with_path =
        |e: std::io::Error, p: &std::path::Path| std::io::Error::new(e.kind(), format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
    let mut entries = Vec::with_capacity(reports.len());
    for (i, r) in reports.iter().enumerate() {
        let name = report_name(i, &r.path, "html");
        let path = dir.join(&name);
        std::fs::write(&path, html_of(i)?).map_err(|e| with_path(e, &path))?;
        entries.push((name, *r));
    }
    let index = dir.join("index.html");
    std::fs::write(&index, html::index(&entries, generated_at)).map_err(|e| with_path(e, &index))?;
    Ok(index)
}

/// Near-duplicate groups as JSON: the options, the counts, and each group's members with
/// their title, path and Jaccard to the group's first member.
pub fn clusters_json(
    c: &crate::engine::cluster::Clusters,
    opts: &crate::engine::cluster::ClusterOptions,
    docs: &[crate::engine::store::DocumentInfo],
) -> String {
    let groups: Vec<serde_json::Value> = c
        .groups
        .iter()
        .map(|g| {
            let members: Vec<serde_json::Value> = g
                .members
                .iter()
                .map(|m| {
                    let d = docs.iter().find(|d| d.id == m.doc_id);
                    serde_json::json!({
                        "doc_id": m.doc_id, "jaccard": m.jaccard,
                        "title": d.map(|d| d.title.as_str()), "path": d.map(|d| d.path.as_str()),
                    })
                })
                .collect();
            serde_json::json!({ "members": members })
        })
        .collect();
    let doc = serde_json::json!({
        "method": opts.method, "threshold": opts.threshold, "max_distance": opts.max_distance,
        "documents": c.documents, "candidates": c.candidates, "bands": c.bands, "rows": c.rows,
        "groups": groups,
    });
    serde_json::to_string_pretty(&doc).expect("JSON serializes")
}

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
    /// With `--among`: the suspects that share text with each other.
    #[serde(skip_serializing_if = "Option::is_none")]
    pairs: Option<Vec<PairJson<'a>>>,
}

/// A pair of suspects that share text, as the JSON contract gives it.
#[derive(Serialize)]
struct PairJson<'a> {
    a: &'a str,
    b: &'a str,
    /// Share of `a`'s text found in `b`, and of `b`'s in `a`.
    similarity: f64,
    b_coverage: f64,
    /// Offsets: `suspect_*` in `a`, `source_*` in `b`.
    passages: &'a [crate::engine::check::Passage],
}

#[derive(Serialize)]
struct Settings {
    window: usize,
    step: usize,
    max_distance: u32,
    min_passage_chars: usize,
    min_evidence_bits: f64,
    weighting: crate::engine::params::Weighting,
    anchoring: crate::engine::params::Anchoring,
    normalizing: crate::engine::params::Normalizing,
}

/// The JSON document of the `check --json` contract.
pub fn json(params: &FingerprintParams, opts: &CheckOptions, corpus: CorpusSize, suspects: &[SuspectReport]) -> String {
    json_with_pairs(params, opts, corpus, suspects, None)
}

/// [`json`] with the pairs of suspects that share text (`check --among`).
pub fn json_with_pairs(
    params: &FingerprintParams,
    opts: &CheckOptions,
    corpus: CorpusSize,
    suspects: &[SuspectReport],
    pairs: Option<&[crate::engine::check::among::SuspectPair]>,
) -> String {
    let pairs = pairs.map(|pairs| {
        pairs
            .iter()
            .filter_map(|p| {
                let s = p.report.sources.first()?;
                Some(PairJson {
                    a: &p.report.path,
                    b: &s.path,
                    similarity: s.similarity,
                    b_coverage: s.source_coverage,
                    passages: &s.passages,
                })
            })
            .collect()
    });
    let doc = CheckJson {
        version: JSON_VERSION,
        settings: Settings {
            window: params.window,
            step: params.step,
            max_distance: opts.max_distance,
            min_passage_chars: opts.min_passage_chars,
            min_evidence_bits: opts.min_evidence_bits,
            weighting: params.weighting,
            anchoring: params.anchoring,
            normalizing: params.normalizing,
        },
        corpus,
        suspects,
        pairs,
    };
    serde_json::to_string_pretty(&doc).expect("report serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_utc_is_the_utc_calendar() {
        assert_eq!(format_utc(0), "1970-01-01 00:00");
        assert_eq!(format_utc(1_795_296_600), "2026-11-21 21:30");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00");
    }

    #[test]
    fn escape_neutralises_markup_and_controls() {
        assert_eq!(
            escape(r#"<img src=x onerror="a('b')">&"#),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
        assert_eq!(escape("a\u{0}b\nc"), "a\u{fffd}b\nc");
    }
}
