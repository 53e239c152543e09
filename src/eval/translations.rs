//! Translated copies measured on real translations (`zhiwen eval --translations`):
//! `en-translations/` holds Herbert Giles' faithful translations of 聊斋志异 stories and
//! George Soulié's free adaptations, each named after the `zh-classics` file it translates,
//! and translations of stories the corpus lacks (`unmatched/`); the English books and
//! chapters of `en-gutenberg` are not translations of anything in it. The corpus is all of
//! `zh-classics`. Files with an even number are the development half (the thresholds were
//! chosen on them), odd ones the test half.

use crate::Result;
use crate::engine::check::CopyKind;
use crate::engine::translation::{self, TranslationIndex};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One suspect's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub file: String,
    /// giles, soulie, unmatched, gutenberg-chapter, gutenberg-book.
    pub group: &'static str,
    pub split: &'static str,
    /// The zh-classics file it translates (relative), if any.
    pub truth: Option<String>,
    /// What was reported: the file, translation or adaptation, score, margin.
    pub found: Option<(String, &'static str, f64, f64)>,
    /// The best candidate whether reported or not: file, score, margin, what the score is made of.
    pub best: Option<(String, f64, f64, translation::matching::Features)>,
    /// The documents aligned, with their decision scores, best first (the candidates the
    /// embedding measurement re-ranks, eval/translation_embeddings.rs).
    pub ranked: Vec<(String, f64)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TranslationReport {
    pub corpus_documents: usize,
    /// Unpacking and reading the dictionary (once a process).
    pub dictionary_seconds: f64,
    pub index_seconds: f64,
    pub index_bytes: usize,
    pub suspects: usize,
    pub match_seconds: f64,
    pub outcomes: Vec<Outcome>,
}

pub fn run(data: &Path, log: &dyn Fn(&str)) -> Result<TranslationReport> {
    let classics = data.join("zh-classics");
    let files = super::list(&classics);
    let texts: Vec<(u32, String)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i as u32, crate::engine::decode::decode_file(p).ok()?.text)))
        .collect();
    log(&format!("indexing {} chapters", texts.len()));
    let started = Instant::now();
    crate::engine::translation::chinese::Dictionary::shared();
    let dictionary_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let index = TranslationIndex::build(texts);
    let index_seconds = started.elapsed().as_secs_f64();
    let name_of =
        |id: u32| files[id as usize].strip_prefix(&classics).unwrap_or(&files[id as usize]).display().to_string();

    let mut suspects: Vec<(PathBuf, &'static str, &'static str, Option<String>)> = Vec::new();
    let pairs = std::fs::read_to_string(data.join("en-translations/pairs.tsv")).unwrap_or_default();
    for line in pairs.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 || f[1] == "-" {
            continue;
        }
        let group = if f[2].to_lowercase().starts_with("giles") { "giles" } else { "soulie" };
        let path = data.join(f[0]);
        let split = split_of(&path);
        suspects.push((path, group, split, Some(f[1].trim_start_matches("zh-classics/").to_string())));
    }
    for dir in ["giles-liaozhai", "soulie-liaozhai"] {
        for p in super::list(&data.join("en-translations").join(dir).join("unmatched")) {
            let split = split_of(&p);
            suspects.push((p, "unmatched", split, None));
        }
    }
    for p in super::list(&data.join("en-gutenberg/chapters")) {
        let split = split_of(&p);
        suspects.push((p, "gutenberg-chapter", split, None));
    }
    for (i, p) in super::list(&data.join("en-gutenberg/books")).into_iter().enumerate() {
        suspects.push((p, "gutenberg-book", if i % 2 == 0 { "dev" } else { "test" }, None));
    }
    log(&format!("matching {} English suspects", suspects.len()));
    let started = Instant::now();
    use rayon::prelude::*;
    let outcomes: Vec<Outcome> = suspects
        .par_iter()
        .map(|(path, group, split, truth)| {
            let text = crate::engine::decode::decode_file(path).map(|d| d.text).unwrap_or_default();
            // The first line names the unit in the English book (see the data's README).
            let text = if *group == "giles" || *group == "soulie" || *group == "unmatched" {
                text.split_once('\n').map_or(text.as_str(), |(_, rest)| rest).to_string()
            } else {
                text
            };
            let best = translation::matching::best(&index, &text);
            let described = best.as_ref().map(|f| (name_of(f.id), f.score, f.margin, f.features.clone()));
            let ranked =
                best.as_ref().map_or(Vec::new(), |f| f.ranked.iter().map(|&(id, s)| (name_of(id), s)).collect());
            let found = best.and_then(translation::matching::decide).map(|f| {
                let kind = if f.kind == CopyKind::Translation { "translation" } else { "adaptation" };
                (name_of(f.id), kind, f.score, f.margin)
            });
            Outcome {
                file: path.strip_prefix(data).unwrap_or(path).display().to_string(),
                group,
                split,
                truth: truth.clone(),
                found,
                best: described,
                ranked,
            }
        })
        .collect();
    Ok(TranslationReport {
        corpus_documents: index.len(),
        dictionary_seconds,
        index_seconds,
        index_bytes: index.heap_bytes(),
        suspects: outcomes.len(),
        match_seconds: started.elapsed().as_secs_f64(),
        outcomes,
    })
}

/// dev for even-numbered files, test for odd ones (the number the file name starts with).
fn split_of(path: &Path) -> &'static str {
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let digits: String = name.chars().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit()).collect();
    if digits.parse::<u32>().unwrap_or(0) % 2 == 0 { "dev" } else { "test" }
}

/// The report as a Markdown table per group and split.
pub fn render(report: &TranslationReport) -> String {
    let mut rows: BTreeMap<(&str, &str), [usize; 6]> = BTreeMap::new();
    for o in &report.outcomes {
        let r = rows.entry((o.group, o.split)).or_default();
        r[0] += 1;
        match (&o.found, &o.truth) {
            (Some((file, kind, _, _)), Some(truth)) if same_story(file, truth) => {
                r[if *kind == "translation" { 1 } else { 2 }] += 1;
            }
            (Some(_), _) => r[3] += 1,
            (None, _) => r[4] += 1,
        }
    }
    let mut out = format!(
        "corpus: {} Chinese documents; dictionary read in {:.2} s, indexed in {:.1} s ({:.0} kB a document); {} suspects \
         matched in {:.1} s ({:.0} a minute)\n\n",
        report.corpus_documents,
        report.dictionary_seconds,
        report.index_seconds,
        report.index_bytes as f64 / 1024.0 / report.corpus_documents.max(1) as f64,
        report.suspects,
        report.match_seconds,
        report.suspects as f64 * 60.0 / report.match_seconds.max(1e-9)
    );
    out.push_str("| suspects | split | files | its source, as translation | its source, as adaptation | a wrong source named | nothing named |\n|---|---|---:|---:|---:|---:|---:|\n");
    for ((group, split), r) in &rows {
        out.push_str(&format!("| {group} | {split} | {} | {} | {} | {} | {} |\n", r[0], r[1], r[2], r[3], r[4]));
    }
    out
}

/// 134 and 135, 201 and 202 of 聊斋志异 are the same story twice in the data.
pub(crate) fn same_story(found: &str, truth: &str) -> bool {
    let twin = |f: &str| {
        match f {
            "liaozhaizhiyi/134.txt" => "liaozhaizhiyi/135.txt",
            "liaozhaizhiyi/135.txt" => "liaozhaizhiyi/134.txt",
            "liaozhaizhiyi/201.txt" => "liaozhaizhiyi/202.txt",
            "liaozhaizhiyi/202.txt" => "liaozhaizhiyi/201.txt",
            other => other,
        }
        .to_string()
    };
    found == truth || twin(found) == truth
}
