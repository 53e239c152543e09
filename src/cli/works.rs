//! `zhiwen works`: list, show, edit and regroup works (a book, a column) and their chapters.

use super::args::WorksAction;
use super::common::open;
use anyhow::Result;
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use zhiwen::engine::store::{DocumentInfo, MoveTarget, Work, WorkEdit};

/// A work in `--json`: its fields, and its chapters in order with their titles and paths.
#[derive(Serialize)]
struct WorkJson<'a> {
    #[serde(flatten)]
    work: &'a Work,
    chapters: Vec<ChapterJson<'a>>,
}

#[derive(Serialize)]
struct ChapterJson<'a> {
    id: u32,
    title: &'a str,
    path: &'a str,
    chars: u64,
}

pub fn works(db: &Path, action: Option<WorksAction>, json: bool) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let shown = match action.unwrap_or(WorksAction::List) {
        WorksAction::List => None,
        WorksAction::Show { id } => Some(id),
        WorksAction::Set { id, title, authors, language, holder } => {
            let edit = WorkEdit { title, authors: (!authors.is_empty()).then_some(authors), language, holder };
            corpus.edit_work(id, &edit)?;
            Some(id)
        }
        WorksAction::Merge { from, into } => {
            corpus.merge_works(from, into)?;
            Some(into)
        }
        WorksAction::Move { docs, to, new } => {
            let target = match (to, new) {
                (Some(id), _) => MoveTarget::Work(id),
                (None, Some(title)) => MoveTarget::NewWork(title),
                (None, None) => unreachable!("clap requires --to or --new"),
            };
            Some(corpus.move_documents(&docs, &target)?)
        }
    };
    let docs: std::collections::HashMap<u32, DocumentInfo> =
        corpus.store().documents()?.into_iter().map(|d| (d.id, d)).collect();
    let works = match shown {
        Some(id) => vec![corpus.work(id)?.ok_or_else(|| anyhow::anyhow!("no work {id} (see `zhiwen works list`)"))?],
        None => corpus.works()?,
    };
    if json {
        let rows: Vec<WorkJson> = works.iter().map(|w| work_json(w, &docs)).collect();
        let out =
            if shown.is_some() { serde_json::to_string_pretty(&rows[0]) } else { serde_json::to_string_pretty(&rows) };
        println!("{}", out.expect("works serialize"));
    } else if let (Some(_), Some(w)) = (shown, works.first()) {
        print!("{}", work_text(w, &docs));
    } else {
        print!("{}", works_table(&works));
    }
    Ok(ExitCode::SUCCESS)
}

fn work_json<'a>(w: &'a Work, docs: &'a std::collections::HashMap<u32, DocumentInfo>) -> WorkJson<'a> {
    let chapters = w
        .documents
        .iter()
        .filter_map(|id| docs.get(id))
        .map(|d| ChapterJson { id: d.id, title: &d.title, path: &d.path, chars: d.chars })
        .collect();
    WorkJson { work: w, chapters }
}

fn works_table(works: &[Work]) -> String {
    let mut out = format!("{:>5}  {:>8}  {:<4}  title · authors · holder\n", "id", "chapters", "lang");
    for w in works {
        out += &format!("{:>5}  {:>8}  {:<4}  《{}》", w.id, w.documents.len(), w.language, w.title);
        if !w.authors.is_empty() {
            out += &format!(" · {}", w.authors.join("、"));
        }
        if !w.holder.is_empty() {
            out += &format!(" · © {}", w.holder);
        }
        out.push('\n');
    }
    out + &format!("{} works\n", works.len())
}

fn work_text(w: &Work, docs: &std::collections::HashMap<u32, DocumentInfo>) -> String {
    let mut out = format!("work {}: 《{}》\n", w.id, w.title);
    out += &format!("  authors:  {}\n", w.authors.join("、"));
    out += &format!("  language: {}\n", w.language);
    out += &format!("  holder:   {}\n", w.holder);
    out += &format!("  {} chapters:\n", w.documents.len());
    for (i, id) in w.documents.iter().enumerate() {
        if let Some(d) = docs.get(id) {
            out += &format!("  {:>4}. [{}] {}  {}\n", i + 1, d.id, d.title, d.path);
        }
    }
    out
}
