//! Arguments → engine calls → output and exit code. The one place where CLI flags
//! become engine options.

use super::args::{
    Args, BenchArgs, CheckArgs, Command, EvalArgs, EvidenceAction, FindingsAction, FingerprintArgs, WebArgs,
};
use super::common::{CorpusSide, Outputs, cancel_on_ctrl_c, check_options, open, web_options, write_outputs};
use super::progress::Bar;
use super::render;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use zhiwen::engine::import::collect_files;
use zhiwen::engine::store::FindingKind;
use zhiwen::{CheckOptions, Corpus, ImportOptions, ImportReport};

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
        Some(Command::Import { paths, quiet, batch }) => import(&db, &paths, quiet, batch as usize),
        Some(Command::Doctor) => doctor(&db),
        Some(Command::Text { paths }) => text(&paths),
        Some(Command::Check { paths, out, among, check, web }) => check_cmd(
            &db,
            &paths,
            out.json,
            &Outputs { report: out.report, csv: out.csv, pan: out.pan, among },
            &check,
            &web,
        ),
        Some(Command::List { json }) => list(&db, json),
        Some(Command::Findings { action: Some(FindingsAction::NoticeSent { ids, to, on }), .. }) => {
            super::watch::notice_sent(&db, &ids, &to, on.as_deref())
        }
        Some(Command::Findings { action, json, source, since }) => findings(&db, action, json, source, since),
        Some(Command::Watch { action }) => super::watch::watch(&db, action),
        Some(Command::Stats { json, csv, html }) => super::watch::stats(&db, json, csv, html.as_deref()),
        Some(Command::Notice { ids, kind, out, find_recipients, rdap, fetch }) => {
            let lookup = find_recipients.then_some((rdap.as_str(), &fetch));
            super::watch::notice(&db, &ids, &kind, out.as_deref(), lookup)
        }
        Some(Command::Holder { name, address, email, phone, signatory }) => {
            super::watch::holder(&db, [name, address, email, phone, signatory])
        }
        Some(Command::Evidence { action: Some(EvidenceAction::Verify { file }), .. }) => verify_evidence(&file),
        Some(Command::Evidence { id: Some(id), out: Some(out), tsa, .. }) => evidence(&db, id, &out, tsa),
        Some(Command::Evidence { .. }) => Err(anyhow::anyhow!("evidence: give a finding id and --out FILE")),
        Some(Command::Remove { targets }) => remove(&db, &targets),
        Some(Command::Discover(args)) => super::discover::discover(&db, &args),
        Some(Command::Allow { action }) => super::discover::allow(&db, action),
        Some(Command::Alerts { action }) => super::watch::alerts(&db, action),
        Some(Command::Eval(args)) => eval(&args),
        Some(Command::Bench(args)) => bench(args),
        Some(Command::Completions { shell }) => super::package_files::completions(shell),
        Some(Command::Man { dir }) => super::package_files::man_pages(&dir),
        Some(Command::Works { action, json }) => super::works::works(&db, action, json),
        Some(Command::Clusters { json, csv, threshold, method }) => {
            super::clusters::clusters(&db, json, csv, threshold, &method)
        }
        Some(Command::Export { parquet }) => super::scaleout::export(&db, &parquet),
        Some(Command::Fingerprint { parquet, paths }) => super::scaleout::fingerprint(&db, &parquet, &paths),
        Some(Command::Report { from_parquet, corpus, suspects, out }) => super::scaleout::report(
            &from_parquet,
            &zhiwen::scaleout::run::ExportFolders { corpus, suspects },
            out.json,
            &Outputs { report: out.report, csv: out.csv, pan: out.pan, among: false },
        ),
    }
}

/// `~/.local/share/zhiwen/corpus.sqlite` (or the platform's equivalent).
pub fn default_db() -> Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "zhiwen").context("cannot find the user's data folder")?;
    Ok(dirs.data_dir().join("corpus.sqlite"))
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

/// Each file's text on stdout (several headed `==> PATH <==`), a failure on stderr naming
/// the file; the rest go on.
fn text(paths: &[PathBuf]) -> Result<ExitCode> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for path in paths {
        match zhiwen::engine::decode::read_and_decode(path) {
            Ok((_, decoded)) => {
                // Several files: each headed as `head` does, so the output can be split.
                let header = if paths.len() > 1 { format!("==> {} <==\n", path.display()) } else { String::new() };
                // A closed pipe (`| head`) ends the output quietly.
                if write!(out, "{header}{}", decoded.text).and_then(|_| out.flush()).is_err() {
                    return Ok(ExitCode::SUCCESS);
                }
            }
            Err(error) => {
                eprintln!("{error}");
                failed = true;
            }
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn doctor(db: &Path) -> Result<ExitCode> {
    if !db.exists() {
        bail!("no store at {}", db.display());
    }
    let corpus = open(db)?;
    let problems = corpus.store().verify()?;
    let stats = corpus.store().stats()?;
    if corpus.index().len() as u64 != stats.windows {
        eprintln!("the index holds {} windows, the store {}", corpus.index().len(), stats.windows);
        return Ok(ExitCode::from(1));
    }
    for p in &problems {
        eprintln!("problem: {p}");
    }
    // Runs that never finished are not damage (each page's finding was committed as it was
    // checked, and no status moved), but the user should know a run died.
    for run in corpus.store().unfinished_watch_runs()? {
        println!(
            "watch {}: the run started {} never finished ({}); the pages it checked are kept as findings, \
             no status moved, and the watch stays due",
            run.watch_id,
            zhiwen::report::format_utc(run.started_at),
            if run.outcome == "running" { "killed, crashed, or still running" } else { "interrupted" }
        );
    }
    for run in corpus.store().discovery_runs()?.iter().filter(|r| r.outcome == "running") {
        println!(
            "discovery run {} started {} never finished (killed, crashed, or still running); the copies it verified are kept",
            run.id,
            zhiwen::report::format_utc(run.started_at)
        );
    }
    match zhiwen::engine::decode::ocr::models_dir() {
        Some(dir) => println!("OCR models: {}", dir.display()),
        None => println!("OCR models: not installed (images and scanned PDFs are refused; run tools/ocr-models)"),
    }
    if problems.is_empty() {
        println!("ok: {} documents, {} windows, integrity check passed", stats.documents, stats.windows);
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(1))
    }
}

fn import(db: &Path, paths: &[PathBuf], quiet: bool, batch: usize) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let cancel = cancel_on_ctrl_c();
    let bar = Bar::new(quiet);
    let opts = ImportOptions { batch_files: batch, ..ImportOptions::default() };
    // The engine's last progress (Stage::Done) clears the bar.
    let report: ImportReport = corpus.import(paths, &opts, &|p| bar.update(p), &cancel)?;
    eprint!("{}", render::import_summary(&report));
    Ok(if report.ok() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn fingerprint_params(args: &FingerprintArgs) -> zhiwen::FingerprintParams {
    let FingerprintArgs { window, step, ngram, weighting, anchoring, normalizing } = args.clone();
    let d = zhiwen::FingerprintParams::default();
    zhiwen::FingerprintParams {
        window: window.unwrap_or(d.window),
        step: step.unwrap_or(d.step),
        ngram: ngram.unwrap_or(d.ngram),
        weighting: match weighting.as_deref() {
            Some("uniform") => zhiwen::engine::params::Weighting::Uniform,
            Some(_) => zhiwen::engine::params::Weighting::Rarity,
            None => d.weighting,
        },
        anchoring: match anchoring.as_deref() {
            Some("every-step") => zhiwen::engine::params::Anchoring::EveryStep,
            Some(_) => zhiwen::engine::params::Anchoring::Winnowed,
            None => d.anchoring,
        },
        normalizing: match normalizing.as_deref() {
            Some("plain") => zhiwen::engine::params::Normalizing::Plain,
            Some("lookalikes") => zhiwen::engine::params::Normalizing::Lookalikes,
            Some(_) => zhiwen::engine::params::Normalizing::Undisguised,
            None => d.normalizing,
        },
    }
}

fn bench(args: BenchArgs) -> Result<ExitCode> {
    let BenchArgs {
        data,
        index_sizes,
        check_windows,
        check_runs,
        only,
        scratch,
        watch_sites,
        watch_parallel,
        watch_chapters,
        watch_big_every,
    } = args;
    let scratch = scratch.unwrap_or_else(std::env::temp_dir);
    let opts = zhiwen::bench::BenchOptions {
        data,
        index_sizes,
        check_windows,
        check_runs: check_runs as usize,
        only,
        scratch,
        watch: zhiwen::bench::WatchBenchOptions {
            sites: watch_sites,
            chapters: watch_chapters.max(2),
            parallel: watch_parallel.max(1),
            big_every: watch_big_every,
        },
    };
    zhiwen::bench::run(&opts, &|line| println!("{line}"))?;
    Ok(ExitCode::SUCCESS)
}

fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let EvalArgs { data, out, cases, seed, no_real, no_ocr, translations, embeddings, fingerprint, check } =
        args.clone();
    if translations {
        // The encoder first: a missing model stops before the minutes of the dictionary's run.
        let encoder = if embeddings {
            Some(zhiwen::engine::translation::embedding::Encoder::shared().map_err(|e| anyhow::anyhow!("{e}"))?)
        } else {
            None
        };
        let report = zhiwen::eval::translations::run(&data, &|line| eprintln!("{line}"))?;
        let table = zhiwen::eval::translations::render(&report);
        print!("{table}");
        if let Some(out) = &out {
            std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
            std::fs::write(out.join("translations.json"), serde_json::to_string_pretty(&report)?)?;
            std::fs::write(out.join("translations.md"), &table)?;
        }
        if let Some(encoder) = encoder {
            // Sentences an earlier run in the same --out embedded are not embedded again.
            let previous = out.as_deref().map(zhiwen::eval::translation_embeddings::read_vectors).unwrap_or_default();
            let measured = zhiwen::eval::translation_embeddings::run(&data, encoder, &report, &previous, &|line| {
                eprintln!("{line}")
            })?;
            let table = zhiwen::eval::translation_embeddings::render(&measured);
            print!("\n{table}");
            if let Some(out) = &out {
                std::fs::write(out.join("translation-embeddings.json"), serde_json::to_string_pretty(&measured)?)?;
                std::fs::write(out.join("translation-embeddings.md"), &table)?;
                measured.write_vectors(out)?;
            }
        }
        if let Some(out) = out {
            eprintln!("wrote {}", out.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let opts = zhiwen::eval::EvalOptions {
        data,
        cases,
        seed,
        params: fingerprint_params(&fingerprint),
        check: check_options(&check),
        real: !no_real,
        ocr: !no_ocr,
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

/// Records checks in the findings library; on a read-only store says so once and goes on.
#[derive(Default)]
struct Library {
    read_only: bool,
}

impl Library {
    fn record(
        &mut self,
        corpus: &mut Corpus,
        kind: FindingKind,
        pages: &[zhiwen::engine::store::CapturedPage],
        text: &str,
        report: &zhiwen::SuspectReport,
        opts: &CheckOptions,
    ) -> Result<Option<i64>> {
        if self.read_only {
            return Ok(None);
        }
        match corpus.record_finding(kind, pages, text, report, opts) {
            Ok(id) => Ok(Some(id)),
            Err(e @ zhiwen::Error::ReadOnly { .. }) => {
                eprintln!("findings not recorded: {e}");
                self.read_only = true;
                Ok(None)
            }
            Err(e) => Err(e.into()),
        }
    }
}

fn check_cmd(
    db: &Path,
    paths: &[PathBuf],
    json: bool,
    outputs: &Outputs,
    args: &CheckArgs,
    web: &WebArgs,
) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    let opts = check_options(args);
    corpus.ensure_distance(opts.max_distance)?;
    let (urls, paths): (Vec<&PathBuf>, Vec<&PathBuf>) =
        paths.iter().partition(|p| p.to_str().is_some_and(zhiwen::engine::web::fetch::is_url));
    let paths: Vec<PathBuf> = paths.into_iter().cloned().collect();
    let mut walk = ImportReport::default();
    let files = collect_files(&paths, &mut walk);
    if files.is_empty() && walk.failed.is_empty() && urls.is_empty() {
        bail!(
            "no files to check under {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    let mut checked: Vec<zhiwen::engine::corpus::Checked> = walk
        .failed
        .iter()
        .map(|(path, reason)| zhiwen::engine::corpus::Checked {
            report: zhiwen::SuspectReport::unreadable(path, reason),
            text: None,
            page: None,
        })
        .collect();
    let mut library = Library::default();
    for file in &files {
        let mut c = corpus.check_file_full(file, &opts)?;
        if !json {
            println!("{}", render::check_table(&c.report));
        }
        if let (Some(text), Some(page)) = (&c.text, c.page.take()) {
            library.record(&mut corpus, FindingKind::File, &[page], text, &c.report, &opts)?;
        }
        checked.push(c);
    }
    if !urls.is_empty() {
        let urls: Vec<String> = urls.iter().map(|u| u.to_string_lossy().into_owned()).collect();
        // Ctrl-C stops after the page being fetched; what was checked is reported and kept.
        let cancel = cancel_on_ctrl_c();
        let progress = |url: &str| eprintln!("fetching {url}");
        for mut w in corpus.check_urls(&urls, &web_options(web)?, &opts, &progress, &cancel)? {
            if let Some(suspect) = &w.suspect {
                let pages = zhiwen::engine::web::check::captured(suspect);
                let id = library.record(&mut corpus, FindingKind::Web, &pages, &suspect.text, &w.report, &opts)?;
                if let Some(web) = &mut w.report.web {
                    web.finding_id = id;
                }
            }
            // A page checked once is tracked as watched ones are (a copy new, still online, gone).
            if !library.read_only {
                let finding = w.report.web.as_ref().and_then(|web| web.finding_id);
                corpus.store_mut().observe(&[w.observation(finding)], zhiwen::engine::time::now())?;
            }
            if let Some(e) = &w.report.error {
                eprintln!("{e}");
            } else if !json {
                println!("{}", render::check_table(&w.report));
            }
            checked.push(zhiwen::engine::corpus::Checked {
                report: w.report,
                text: w.suspect.map(|s| s.text),
                page: None,
            });
        }
    }
    let stats = corpus.store().stats()?;
    let size = zhiwen::report::CorpusSize { documents: stats.documents, windows: stats.windows };
    let reports: Vec<zhiwen::SuspectReport> = checked.iter().map(|c| c.report.clone()).collect();
    // The suspects against each other: the ones that were read, by their texts.
    let batch: Vec<(String, String)> =
        checked.iter().filter_map(|c| Some((c.report.path.clone(), c.text.clone()?))).collect();
    let pairs =
        if outputs.among { zhiwen::engine::check::among::among(&batch, &corpus.params(), &opts)? } else { Vec::new() };
    if json {
        let pairs = outputs.among.then_some(pairs.as_slice());
        println!("{}", zhiwen::report::json_with_pairs(&corpus.params(), &opts, size, &reports, pairs));
    } else if outputs.among {
        print!("{}", render::pairs_table(&pairs));
    }
    // Each pair as one more report: the first suspect, the second as its source.
    for p in &pairs {
        let report = zhiwen::SuspectReport { path: render::pair_name(p), ..p.report.clone() };
        checked.push(zhiwen::engine::corpus::Checked { report, text: Some(batch[p.a].1.clone()), page: None });
    }
    let pair_texts: Vec<(u32, String)> = pairs.iter().map(|p| (p.b as u32, batch[p.b].1.clone())).collect();
    let source_text = |id: u32| corpus.text(id).ok().flatten();
    let corpus_side = CorpusSide { params: corpus.params(), size, source_text: &source_text };
    write_outputs(&corpus_side, &checked, &reports, outputs, &opts, reports.len(), &pair_texts)?;
    let failed = reports.iter().any(|r| r.error.is_some());
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn findings(
    db: &Path,
    action: Option<FindingsAction>,
    json: bool,
    source: Option<u32>,
    since: Option<String>,
) -> Result<ExitCode> {
    let mut corpus = open(db)?;
    if let Some(FindingsAction::Rm { ids }) = action {
        let n = corpus.store_mut().remove_findings(&ids)?;
        eprintln!("removed {n} of {} findings", ids.len());
        return Ok(if n == ids.len() { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    // (`notice-sent` is dispatched to the watch commands.)
    let since = since
        .map(|d| zhiwen::engine::time::parse_date(&d).with_context(|| format!("--since {d}: not a date (YYYY-MM-DD)")))
        .transpose()?;
    let list = corpus.store().findings(&zhiwen::engine::store::FindingFilter { source, since })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else {
        print!("{}", render::findings_table(&list));
    }
    Ok(ExitCode::SUCCESS)
}

fn evidence(db: &Path, id: i64, out: &Path, tsa: Option<String>) -> Result<ExitCode> {
    let corpus = open(db)?;
    let timestamped = tsa.is_some();
    zhiwen::report::evidence::write_package(
        corpus.store(),
        id,
        out,
        &zhiwen::report::evidence::EvidenceOptions { tsa },
    )?;
    let how = if timestamped { "timestamped" } else { "not timestamped (no --tsa)" };
    eprintln!("evidence for finding {id} written to {}, {how}", out.display());
    Ok(ExitCode::SUCCESS)
}

fn verify_evidence(file: &Path) -> Result<ExitCode> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let v = zhiwen::report::evidence::verify(&bytes);
    for h in &v.holds {
        println!("holds: {h}");
    }
    for p in &v.problems {
        println!("FAILS: {p}");
    }
    if v.problems.is_empty() {
        println!("{}: every check holds", file.display());
        Ok(ExitCode::SUCCESS)
    } else {
        println!("{}: {} check(s) fail", file.display(), v.problems.len());
        Ok(ExitCode::from(1))
    }
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
