//! `zhiwen clusters`: near-duplicate groups of the corpus.

use super::common::{cancel_on_ctrl_c, open};
use anyhow::{Result, bail};
use std::path::Path;
use std::process::ExitCode;
use zhiwen::engine::cluster::{ClusterOptions, Clusters, Method};

pub fn clusters(db: &Path, json: bool, csv: bool, threshold: f64, method: &str) -> Result<ExitCode> {
    if !(threshold > 0.0 && threshold <= 1.0) {
        bail!("--threshold {threshold}: a Jaccard above 0 and at most 1");
    }
    let mut corpus = open(db)?;
    let method = if method == "simhash" { Method::Simhash } else { Method::MinHash };
    let opts = ClusterOptions { method, threshold, ..Default::default() };
    let progress = |done: usize, total: usize| {
        if done == total || done.is_multiple_of(2048) {
            eprintln!("signatures computed for {done} of {total} documents");
        }
    };
    let found = corpus.clusters(&opts, &progress, &cancel_on_ctrl_c())?;
    let docs = corpus.store().documents()?;
    if json {
        println!("{}", zhiwen::report::clusters_json(&found, &opts, &docs));
    } else if csv {
        print!("{}", zhiwen::report::clusters_csv(&found, &docs));
    } else {
        print!("{}", clusters_text(&found, &docs));
    }
    Ok(ExitCode::SUCCESS)
}

fn clusters_text(c: &Clusters, docs: &[zhiwen::engine::store::DocumentInfo]) -> String {
    let mut out = String::new();
    for (i, g) in c.groups.iter().enumerate() {
        out += &format!("group {} ({} documents)\n", i + 1, g.members.len());
        for m in &g.members {
            let d = docs.iter().find(|d| d.id == m.doc_id);
            out += &format!(
                "  {:>6}  {:>6.1}%  {}  {}\n",
                m.doc_id,
                m.jaccard * 100.0,
                d.map_or("", |d| d.title.as_str()),
                d.map_or("", |d| d.path.as_str())
            );
        }
    }
    let grouped: usize = c.groups.iter().map(|g| g.members.len()).sum();
    out + &format!("{} groups, {grouped} of {} documents\n", c.groups.len(), c.documents)
}
