//! Reports on real text that no generator made: another script, another edition, real
//! abridgements, and the Clough & Stevenson corpus of plagiarised English answers.

use super::{EvalOptions, list};
use crate::{Corpus, ImportOptions, Result};
use serde::Serialize;
use std::path::Path;

#[derive(Clone, Debug, Serialize)]
pub struct RealResult {
    pub name: String,
    pub summary: String,
}

pub fn run(
    opts: &EvalOptions,
    corpus: &Corpus,
    notes: &mut Vec<String>,
    log: &dyn Fn(&str),
) -> Result<Vec<RealResult>> {
    let mut out = Vec::new();
    let trad = opts.data.join("zh-classics-traditional");
    for (edition, book) in [("sanguoyanyi_pg23950", "sanguoyanyi"), ("hongloumeng_pg24264", "hongloumeng")] {
        let dir = trad.join(edition);
        if dir.is_dir() {
            log(&format!("real: {edition}"));
            out.push(twins(opts, corpus, &dir, book)?);
        } else {
            notes.push(format!("{} missing", dir.display()));
        }
    }
    for book in super::ABRIDGEMENTS {
        let dir = opts.data.join("zh-classics-derivative").join(book);
        if dir.is_dir() {
            log(&format!("real: {book}"));
            out.push(abridgement(opts, corpus, &dir, "xiyouji")?);
        }
    }
    let answers = opts.data.join("en-plagiarised-answers");
    if answers.is_dir() {
        log("real: en-plagiarised-answers");
        out.push(english(opts, &answers)?);
    }
    Ok(out)
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn canonical(p: &Path) -> String {
    std::fs::canonicalize(p).map_or_else(|_| p.display().to_string(), |c| c.to_string_lossy().into_owned())
}

/// Chapter NNN of an edition against chapter NNN of `book` in the corpus.
fn twins(opts: &EvalOptions, corpus: &Corpus, dir: &Path, book: &str) -> Result<RealResult> {
    let files = list(dir);
    let (mut first, mut first_08, mut sims, mut early, mut late) = (0, 0, Vec::new(), Vec::new(), Vec::new());
    let mut misses = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let twin = canonical(&opts.data.join("zh-classics").join(book).join(f.file_name().unwrap()));
        let r = corpus.check_file(f, &opts.check)?;
        let sim = r.sources.iter().find(|s| s.path == twin).map_or(0.0, |s| s.similarity);
        let top = r.sources.first().is_some_and(|s| s.path == twin);
        first += top as usize;
        first_08 += (top && sim >= 0.8) as usize;
        if !top && misses.len() < 5 {
            misses.push(f.file_name().unwrap().to_string_lossy().into_owned());
        }
        sims.push(sim);
        if i < 80 { early.push(sim) } else { late.push(sim) }
    }
    let n = files.len();
    Ok(RealResult {
        name: dir.file_name().unwrap().to_string_lossy().into_owned(),
        summary: format!(
            "{first}/{n} chapters find their twin first, {first_08}/{n} with similarity ≥ 0.8; \
             median similarity {:.3} (chapters 1-80: {:.3}, 81-120: {:.3}); min {:.3}{}",
            median(sims.clone()),
            median(early),
            median(late),
            sims.iter().copied().fold(f64::INFINITY, f64::min),
            if misses.is_empty() { String::new() } else { format!("; not first: {}", misses.join(", ")) }
        ),
    })
}

/// An abridgement's chapters against the original `book`.
fn abridgement(opts: &EvalOptions, corpus: &Corpus, dir: &Path, book: &str) -> Result<RealResult> {
    let files = list(dir);
    let marker = format!("/{book}/");
    let (mut with_source, mut other, mut sims, mut cover) = (0, 0, Vec::new(), Vec::new());
    for f in &files {
        let r = corpus.check_file(f, &opts.check)?;
        let from_book: Vec<_> = r.sources.iter().filter(|s| s.path.contains(&marker)).collect();
        with_source += (!from_book.is_empty()) as usize;
        other += r.sources.len() - from_book.len();
        sims.push(r.similarity);
        cover.push(from_book.first().map_or(0.0, |s| s.similarity));
    }
    Ok(RealResult {
        name: dir.file_name().unwrap().to_string_lossy().into_owned(),
        summary: format!(
            "{with_source}/{} chapters have a {book} source; median share of the chapter matched {:.3} \
             (top source alone {:.3}); {other} sources from other books",
            files.len(),
            median(sims),
            median(cover)
        ),
    })
}

/// The confusion table of answer categories against "found its own source".
fn english(opts: &EvalOptions, dir: &Path) -> Result<RealResult> {
    let mut corpus = Corpus::open_in_memory_with(opts.params)?;
    corpus.ensure_distance(opts.check.max_distance)?;
    corpus.import(&[dir.join("sources")], &ImportOptions::default(), &|_| {}, &Default::default())?;
    let info = std::fs::read_to_string(dir.join("file_information.csv")).unwrap_or_default();
    let mut table: std::collections::BTreeMap<String, (usize, usize, usize)> = Default::default();
    for line in info.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').map(str::trim).collect();
        let [file, task, category] = cols[..] else { continue };
        let path = dir.join("answers").join(file);
        if !path.exists() {
            continue;
        }
        let own = format!("orig_task{task}.txt");
        let r = corpus.check_file(&path, &opts.check)?;
        let entry = table.entry(category.to_string()).or_default();
        if r.sources.iter().any(|s| s.path.ends_with(&own)) {
            entry.0 += 1;
        } else if r.sources.is_empty() {
            entry.1 += 1;
        } else {
            entry.2 += 1;
        }
    }
    let rows: Vec<String> = table
        .iter()
        .map(|(c, (own, none, other))| format!("{c}: {own} own source / {none} none / {other} other"))
        .collect();
    Ok(RealResult { name: "en-plagiarised-answers".into(), summary: rows.join("; ") })
}
