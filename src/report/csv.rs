//! CSV: one row per passage, UTF-8 with a byte-order mark so Excel opens Chinese text
//! correctly.

use crate::SuspectReport;

pub const HEADER: [&str; 14] = [
    "suspect",
    "source_id",
    "source",
    "source_title",
    "suspect_start",
    "suspect_end",
    "source_start",
    "source_end",
    "distance",
    "source_similarity",
    "suspect_similarity",
    "containment",
    "evidence_bits",
    "region",
];

/// Text from the files made inert for spreadsheets: a field starting with = + - @ (or a
/// tab or carriage return) would run as a formula in Excel, so it gets a leading quote.
fn inert(field: &str) -> String {
    if field.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{field}") } else { field.to_string() }
}

/// Rows for all passages of all suspects (a suspect without passages has none).
pub fn csv(reports: &[SuspectReport]) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER).expect("write to memory");
    for r in reports {
        for s in &r.sources {
            for p in &s.passages {
                w.write_record([
                    inert(&r.path),
                    s.id.to_string(),
                    inert(&s.path),
                    inert(&s.title),
                    p.suspect_start.to_string(),
                    p.suspect_end.to_string(),
                    p.source_start.to_string(),
                    p.source_end.to_string(),
                    p.distance.to_string(),
                    format!("{:.4}", s.similarity),
                    format!("{:.4}", r.similarity),
                    format!("{:.4}", p.containment),
                    format!("{:.1}", p.evidence_bits),
                    p.region.to_string(),
                ])
                .expect("write to memory");
            }
        }
    }
    let body = String::from_utf8(w.into_inner().expect("flush to memory")).expect("UTF-8 in, UTF-8 out");
    format!("\u{feff}{body}")
}
