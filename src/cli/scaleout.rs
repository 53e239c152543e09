//! `export --parquet`, `fingerprint --parquet` and `report --from-parquet`: the way to the
//! Spark job in `spark/` and back.

use super::common::{CorpusSide, Outputs, cancel_on_ctrl_c, open, write_outputs};
use super::progress::Bar;
use super::render;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zhiwen::ImportReport;
use zhiwen::engine::import::collect_files;
use zhiwen::scaleout::{Manifest, export, run};

fn summary(m: &Manifest, dir: &Path) {
    eprintln!("{} documents, {} windows written to {}", m.documents, m.windows, dir.display());
}

pub(super) fn export(db: &Path, dir: &Path) -> Result<ExitCode> {
    let corpus = open(db)?;
    let bar = Bar::new(false);
    let m = export::export_corpus(corpus.store(), dir, &|p| bar.update(p), &cancel_on_ctrl_c())
        .with_context(|| format!("cannot export the corpus to {}", dir.display()))?;
    bar.update(&zhiwen::Progress::files(zhiwen::Stage::Done, 0, 0));
    summary(&m, dir);
    Ok(ExitCode::SUCCESS)
}

pub(super) fn fingerprint(db: &Path, dir: &Path, paths: &[PathBuf]) -> Result<ExitCode> {
    // The store's parameters: the suspects must be fingerprinted as its windows were.
    let corpus = open(db)?;
    let mut walk = ImportReport::default();
    let files = collect_files(paths, &mut walk);
    let bar = Bar::new(false);
    let progress = |p: &zhiwen::Progress| bar.update(p);
    let m = export::export_suspects(&files, &walk.failed, &corpus.params(), dir, &progress, &cancel_on_ctrl_c())
        .with_context(|| format!("cannot write the suspects to {}", dir.display()))?;
    bar.update(&zhiwen::Progress::files(zhiwen::Stage::Done, 0, 0));
    for f in &m.failed {
        eprintln!("{}", f.error);
    }
    summary(&m, dir);
    Ok(if m.failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub(super) fn report(run_dir: &Path, folders: &run::ExportFolders, json: bool, outputs: &Outputs) -> Result<ExitCode> {
    let run = run::read_run(run_dir, folders).with_context(|| format!("cannot read the run {}", run_dir.display()))?;
    let size = zhiwen::report::CorpusSize { documents: run.corpus_documents, windows: run.corpus_windows };
    let opts = run.manifest.check_options.clone().unwrap_or_default();
    if json {
        println!("{}", zhiwen::report::json(&run.params, &opts, size, &run.reports));
    } else {
        for r in &run.reports {
            println!("{}", render::check_table(r));
        }
    }
    let checked: Vec<zhiwen::engine::corpus::Checked> = run
        .reports
        .iter()
        .zip(&run.suspect_texts)
        .map(|(report, text)| zhiwen::engine::corpus::Checked {
            report: report.clone(),
            text: text.clone(),
            page: None,
        })
        .collect();
    let source_text = |id: u32| run.source_texts.get(&id).cloned();
    let corpus = CorpusSide { params: run.params, size, source_text: &source_text };
    write_outputs(&corpus, &checked, &run.reports, outputs, &opts, run.reports.len(), &[])?;
    let failed = run.reports.iter().any(|r| r.error.is_some());
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
