//! CSV: one row per passage, UTF-8 with a byte-order mark so Excel opens Chinese text
//! correctly.

use crate::SuspectReport;

/// Columns 15-17 (added, compatible) name the source's work; the last (added, compatible)
/// says what disguises the suspect's text hid, in words (empty when none).
pub const HEADER: [&str; 18] = [
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
    "work_id",
    "work_title",
    "work_authors",
    "suspect_disguises",
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
        let disguises = r.disguises.describe().unwrap_or_default();
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
                    s.work.as_ref().map_or_else(String::new, |w| w.id.to_string()),
                    inert(s.work.as_ref().map_or("", |w| w.title.as_str())),
                    inert(&s.work.as_ref().map_or_else(String::new, |w| w.authors.join("; "))),
                    disguises.clone(),
                ])
                .expect("write to memory");
            }
        }
    }
    let body = String::from_utf8(w.into_inner().expect("flush to memory")).expect("UTF-8 in, UTF-8 out");
    format!("\u{feff}{body}")
}

/// The picture's tables one after another (works, sites, days), each under its own header
/// row whose first field names the table; UTF-8 with a byte-order mark.
pub fn summary_csv(p: &crate::engine::web::stats::Picture) -> String {
    let mut w = ::csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    let mut row = |fields: Vec<String>| w.write_record(fields).expect("write to memory");
    let s = |x: &str| x.to_string();
    row([
        "works",
        "doc_id",
        "title",
        "path",
        "sites",
        "pages",
        "online",
        "best_similarity",
        "first_seen",
        "last_seen",
        "work_id",
        "authors",
        "chapters",
    ]
    .map(s)
    .to_vec());
    for x in &p.works {
        row(vec![
            s("work"),
            x.doc_id.to_string(),
            inert(&x.title),
            inert(&x.path),
            x.sites.to_string(),
            x.pages.to_string(),
            x.online.to_string(),
            format!("{:.4}", x.best_similarity),
            crate::engine::time::rfc3339(x.first_seen),
            crate::engine::time::rfc3339(x.last_seen),
            x.work_id.map_or_else(String::new, |w| w.to_string()),
            inert(&x.authors.join("; ")),
            x.chapters.to_string(),
        ]);
    }
    row(["sites", "host", "pages", "works", "copied_share", "online"].map(s).to_vec());
    for x in &p.sites {
        row(vec![
            s("site"),
            inert(&x.host),
            x.pages.to_string(),
            x.works.to_string(),
            format!("{:.4}", x.copied_share),
            x.online.to_string(),
        ]);
    }
    row(["days", "day", "new", "online"].map(s).to_vec());
    for x in &p.days {
        row(vec![s("day"), x.day.clone(), x.new.to_string(), x.online.to_string()]);
    }
    let body = String::from_utf8(w.into_inner().expect("flush to memory")).expect("UTF-8 in, UTF-8 out");
    format!("\u{feff}{body}")
}

/// Near-duplicate groups, one row per member: group number, document id, Jaccard to the
/// group's first member, title, path; UTF-8 with a byte-order mark.
pub fn clusters_csv(c: &crate::engine::cluster::Clusters, docs: &[crate::engine::store::DocumentInfo]) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(["group", "doc_id", "jaccard_to_first", "title", "path"]).expect("write to memory");
    for (g, group) in c.groups.iter().enumerate() {
        for m in &group.members {
            let d = docs.iter().find(|d| d.id == m.doc_id);
            w.write_record([
                (g + 1).to_string(),
                m.doc_id.to_string(),
                format!("{:.4}", m.jaccard),
                inert(d.map_or("", |d| d.title.as_str())),
                inert(d.map_or("", |d| d.path.as_str())),
            ])
            .expect("write to memory");
        }
    }
    let body = String::from_utf8(w.into_inner().expect("flush to memory")).expect("UTF-8 in, UTF-8 out");
    format!("\u{feff}{body}")
}
