//! Arguments → engine calls → output and exit code. The one place where CLI flags
//! become engine options.

use super::args::{Args, CheckArgs, Command, EvalArgs, FingerprintArgs};
use super::progress::Bar;
use super::render;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zhiwen::engine::import::collect_files;
use zhiwen::{Cancel, CheckOptions, Corpus, ImportOptions, ImportReport};

pub fn run(args: Args) -> ExitCode {
    match dispatch(args) {
        Ok(code) => code,
        Err(e) => {
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("zhiwen: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: Args) -> Result<ExitCode> {
    let Args { db, command } = args;
    let db = match db {
        Some(p) => p,
        None => default_db()?,
    };
    match command {
        None => gui(&db, Vec::new()),
        Some(Command::Gui { paths }) => gui(&db, paths),
        Some(Command::Import { paths, quiet }) => import(&db, &paths, quiet),
        Some(Command::Check { paths, json, check }) => check_cmd(&db, &paths, json, &check),
        Some(Command::List { json }) => list(&db, json),
        Some(Command::Remove { targets }) => remove(&db, &targets),
        Some(Command::Eval(args)) => eval(&args),
    }
}

/// `~/.local/share/zhiwen/corpus.sqlite` (or the platform's equivalent).
pub fn default_db() -> Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "zhiwen").context("cannot find the user's data folder")?;
    Ok(dirs.data_dir().join("corpus.sqlite"))
}

fn open(db: &Path) -> Result<Corpus> {
    Corpus::open(db).with_context(|| format!("cannot open the store {}", db.display()))
}

#[cfg(feature = "gui")]
fn gui(db: &Path, paths: Vec<PathBuf>) -> Result<ExitCode> {
    zhiwen::gui::run(db.to_path_buf(), paths)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "gui"))]
fn gui(_db: &Path, _paths: Vec<PathBuf>) -> Result<ExitCode> {
    bail!("this build has no desktop app (built without the `gui` feature); see `zhiwen --help`")
}

fn import(db: &Path, paths: &[PathBuf], quiet: bool) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let cancel = Cancel::new();
    let on_ctrl_c = cancel.clone();
    // A second Ctrl-C while we finish the current batch kills the process as usual.
    let _ = ctrlc::set_handler(move || {
        if on_ctrl_c.is_cancelled() {
            std::process::exit(130);
        }
        on_ctrl_c.cancel();
    });
    let bar = Bar::new(quiet);
    let report: ImportReport = corpus.import(paths, &ImportOptions::default(), &|p| bar.update(p), &cancel)?;
    bar.update(&zhiwen::Progress {
        stage: zhiwen::Stage::Done,
        files_done: 0,
        files_total: 0,
        bytes_done: 0,
        bytes_total: 0,
        current: None,
    });
    eprint!("{}", render::import_summary(&report));
    Ok(if report.ok() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn check_options(args: &CheckArgs) -> CheckOptions {
    let CheckArgs { max_distance, min_passage } = args.clone();
    let defaults = CheckOptions::default();
    CheckOptions {
        max_distance: max_distance.unwrap_or(defaults.max_distance),
        min_passage_chars: min_passage.unwrap_or(defaults.min_passage_chars),
    }
}

fn fingerprint_params(args: &FingerprintArgs) -> zhiwen::FingerprintParams {
    let FingerprintArgs { window, step, ngram } = args.clone();
    let d = zhiwen::FingerprintParams::default();
    zhiwen::FingerprintParams {
        window: window.unwrap_or(d.window),
        step: step.unwrap_or(d.step),
        ngram: ngram.unwrap_or(d.ngram),
    }
}

fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let EvalArgs { data, out, cases, seed, no_real, fingerprint, check } = args.clone();
    let opts = zhiwen::eval::EvalOptions {
        data,
        cases,
        seed,
        params: fingerprint_params(&fingerprint),
        check: check_options(&check),
        real: !no_real,
    };
    opts.params.validate()?;
    let (report, cases) = zhiwen::eval::run(&opts, &|line| eprintln!("{line}"))?;
    let table = zhiwen::eval::render(&report);
    print!("{table}");
    if let Some(out) = out {
        std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
        std::fs::write(out.join("summary.json"), serde_json::to_string_pretty(&report)?)?;
        std::fs::write(out.join("report.md"), &table)?;
        let lines: Vec<String> = cases.iter().map(|c| serde_json::to_string(c).expect("case serializes")).collect();
        std::fs::write(out.join("cases.jsonl"), lines.join("\n") + "\n")?;
        eprintln!("wrote {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn check_cmd(db: &Path, paths: &[PathBuf], json: bool, args: &CheckArgs) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let opts = check_options(args);
    corpus.ensure_distance(opts.max_distance)?;
    let mut walk = ImportReport::default();
    let files = collect_files(paths, &mut walk);
    let mut reports = Vec::new();
    for (path, reason) in &walk.failed {
        reports
            .push(zhiwen::SuspectReport::failed(path.display().to_string(), format!("{}: {reason}", path.display())));
    }
    for file in &files {
        let report = corpus.check_file(file, &opts)?;
        if !json {
            println!("{}", render::check_table(&report));
        }
        reports.push(report);
    }
    if files.is_empty() && walk.failed.is_empty() {
        bail!(
            "no files to check under {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    if json {
        let stats = corpus.store().stats()?;
        let size = zhiwen::report::CorpusSize { documents: stats.documents, windows: stats.windows };
        println!("{}", zhiwen::report::json(&corpus.params(), &opts, size, &reports));
    }
    let failed = reports.iter().any(|r| r.error.is_some());
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn list(db: &Path, json: bool) -> Result<ExitCode> {
    let corpus = open(db)?;
    let docs = corpus.store().documents()?;
    if json {
        println!("{}", render::list_json(&docs));
    } else {
        print!("{}", render::list_table(&docs));
    }
    Ok(ExitCode::SUCCESS)
}

fn remove(db: &Path, targets: &[String]) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let mut ids = Vec::new();
    let mut missing = Vec::new();
    for t in targets {
        let id = match t.parse::<u32>() {
            Ok(id) if corpus.store().document(id)?.is_some() => Some(id),
            _ => {
                let canonical = std::fs::canonicalize(t).map(|p| p.to_string_lossy().into_owned()).unwrap_or(t.clone());
                corpus.store().id_of_path(&canonical)?
            }
        };
        match id {
            Some(id) => ids.push(id),
            None => missing.push(t),
        }
    }
    let n = corpus.remove(&ids)?;
    eprintln!("removed {n} document(s)");
    for m in &missing {
        eprintln!("  not in the corpus: {m}");
    }
    Ok(if missing.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}
