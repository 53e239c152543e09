//! Output: human-readable tables and the `check --json` contract.

use serde::Serialize;
use zhiwen::engine::store::DocumentInfo;
use zhiwen::{ImportReport, SuspectReport};

pub fn check_table(r: &SuspectReport) -> String {
    let mut out = String::new();
    if let Some(e) = &r.error {
        out += &format!("{}\n  error: {e}\n", r.path);
        return out;
    }
    out += &format!("{}  ({} chars)  similarity {:.1}%\n", r.path, r.chars, r.similarity * 100.0);
    if let Some(disguises) = r.disguises.describe() {
        out += &format!("  disguised: {disguises} (undone before matching)\n");
    }
    if r.sources.is_empty() {
        out += "  no source found\n";
        return out;
    }
    out += "   #  similarity  coverage  passages  distance  source\n";
    for (i, s) in r.sources.iter().enumerate() {
        let dist = s.passages.iter().map(|p| p.distance).min().unwrap_or(0);
        out += &format!(
            "  {:>2}  {:>9.1}%  {:>7.1}%  {:>8}  {:>8}  {}  [{}] {}\n",
            i + 1,
            s.similarity * 100.0,
            s.source_coverage * 100.0,
            s.passages.len(),
            dist,
            s.label(),
            s.id,
            s.path
        );
    }
    out
}

pub fn import_summary(r: &ImportReport) -> String {
    let mut out = format!(
        "imported {}, replaced {}, unchanged {}, failed {}{}\n",
        r.imported.len(),
        r.replaced.len(),
        r.unchanged.len(),
        r.failed.len(),
        if r.skipped.is_empty() {
            String::new()
        } else {
            format!(", skipped {} (unsupported extension)", r.skipped.len())
        }
    );
    for (path, reason) in &r.failed {
        out += &format!("  failed: {}: {reason}\n", path.display());
    }
    if r.cancelled {
        out += "cancelled: the files imported before the cancel are kept\n";
    }
    out
}

#[derive(Serialize)]
struct ListJson<'a> {
    id: u32,
    path: &'a str,
    title: &'a str,
    chars: u64,
    windows: u64,
    byte_size: u64,
    imported_at: i64,
    encoding: &'a str,
}

pub fn list_json(docs: &[DocumentInfo]) -> String {
    let rows: Vec<ListJson> = docs
        .iter()
        .map(|d| ListJson {
            id: d.id,
            path: &d.path,
            title: &d.title,
            chars: d.chars,
            windows: d.windows,
            byte_size: d.byte_size,
            imported_at: d.imported_at,
            encoding: &d.encoding,
        })
        .collect();
    serde_json::to_string_pretty(&rows).expect("list serializes")
}

pub fn list_table(docs: &[DocumentInfo]) -> String {
    let mut out = format!("{:>6}  {:>9}  {:>7}  title  path\n", "id", "chars", "windows");
    for d in docs {
        out += &format!("{:>6}  {:>9}  {:>7}  {}  {}\n", d.id, d.chars, d.windows, d.title, d.path);
    }
    out += &format!("{} documents\n", docs.len());
    out
}

/// The findings library as a table, newest check first.
pub fn findings_table(list: &[zhiwen::engine::store::FindingInfo]) -> String {
    use zhiwen::engine::store::watch::CopyStatus;
    let mut out = format!(
        "{:>5}  {:<16}  {:<16}  {:>8}  {:>10}  {:<7}  {:<24}  target\n",
        "id", "first seen (UTC)", "last seen (UTC)", "captures", "similarity", "sources", "status"
    );
    for f in list {
        let sources: Vec<String> = f.sources.iter().map(|(id, _)| id.to_string()).collect();
        let status = match &f.tracking {
            None => String::new(),
            Some(t) => {
                let mut s = match (t.status, t.gone_at) {
                    (CopyStatus::Gone, Some(at)) => format!("gone {}", &zhiwen::report::format_utc(at)[..10]),
                    (CopyStatus::Gone, None) => "gone".into(),
                    (CopyStatus::Online, _) => "online".into(),
                };
                if let Some(at) = t.notice_sent_at {
                    s += &format!(", notice {}", &zhiwen::report::format_utc(at)[..10]);
                }
                s
            }
        };
        let mut status = status;
        if f.other_versions > 0 {
            let change =
                format!("changed ({} other version{})", f.other_versions, if f.other_versions == 1 { "" } else { "s" });
            status = if status.is_empty() { change } else { format!("{status}, {change}") };
        }
        out += &format!(
            "{:>5}  {:<16}  {:<16}  {:>8}  {:>9.1}%  {:<7}  {:<24}  {}\n",
            f.id,
            zhiwen::report::format_utc(f.first_checked_at),
            zhiwen::report::format_utc(f.checked_at),
            f.captures,
            f.similarity * 100.0,
            sources.join(","),
            status,
            f.target
        );
    }
    out + &format!("{} findings\n", list.len())
}

/// How a pair of suspects is named in reports: `/path/of/a.txt ↔ b.txt` (so its file
/// name reads `a.txt ↔ b.txt`).
pub fn pair_name(p: &zhiwen::engine::check::among::SuspectPair) -> String {
    let b = p.report.sources.first().map_or("", |s| s.path.as_str());
    format!("{} ↔ {}", p.report.path, zhiwen::report::file_name(b))
}

/// The pairs of suspects that share text.
pub fn pairs_table(pairs: &[zhiwen::engine::check::among::SuspectPair]) -> String {
    let mut out = String::from("suspects sharing text with each other:\n");
    for p in pairs {
        let s = &p.report.sources[0];
        out += &format!(
            "  {:>6.1}%  {:>3} passages  {} ↔ {}\n",
            s.similarity * 100.0,
            s.passages.len(),
            p.report.path,
            s.path
        );
    }
    out + &format!("{} pairs\n", pairs.len())
}

/// Untrusted text (a title, a URL from a page) for a terminal cell: one line, no control
/// or bidirectional characters, at most `width` characters.
pub fn fit(s: &str, width: usize) -> String {
    let plain = zhiwen::report::notice::plain(s);
    match plain.char_indices().nth(width) {
        Some((cut, _)) => format!("{}…", &plain[..cut]),
        None => plain,
    }
}
