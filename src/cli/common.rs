//! What the sub-commands share: opening the store, the engine options made from the
//! shared flags, Ctrl-C as a cancel flag, and the report files a check writes. Sub-command
//! modules (`run`, `watch`, `clusters`, `scaleout`, `discover`, `works`) import from here,
//! never from each other; alerts after a run are sent from here too.

use super::args::{CheckArgs, FetchArgs, WebArgs};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use zhiwen::{Cancel, CheckOptions, Corpus};

pub(crate) fn open(db: &Path) -> Result<Corpus> {
    Corpus::open(db).with_context(|| format!("cannot open the store {}", db.display()))
}

pub(crate) fn check_options(args: &CheckArgs) -> CheckOptions {
    let CheckArgs { max_distance, min_passage, min_evidence } = args.clone();
    let defaults = CheckOptions::default();
    CheckOptions {
        max_distance: max_distance.unwrap_or(defaults.max_distance),
        min_passage_chars: min_passage.unwrap_or(defaults.min_passage_chars),
        min_evidence_bits: min_evidence.unwrap_or(defaults.min_evidence_bits),
    }
}

/// Report files `check` writes besides its standard output.
pub(crate) struct Outputs {
    pub(crate) report: Option<PathBuf>,
    pub(crate) csv: Option<PathBuf>,
    pub(crate) pan: Option<PathBuf>,
    /// Compare the suspects with each other too.
    pub(crate) among: bool,
}

/// A flag Ctrl-C sets: the work in hand finishes (a batch, a page) and what is done is
/// kept. A second Ctrl-C kills the process as usual.
pub(crate) fn cancel_on_ctrl_c() -> Cancel {
    let cancel = Cancel::new();
    let on_ctrl_c = cancel.clone();
    let _ = ctrlc::set_handler(move || {
        if on_ctrl_c.is_cancelled() {
            std::process::exit(130);
        }
        on_ctrl_c.cancel();
    });
    cancel
}

/// The engine's fetch options from the command line.
pub(crate) fn fetch_options(args: &FetchArgs) -> Result<zhiwen::engine::web::fetch::FetchOptions> {
    use zhiwen::engine::web::fetch::{FetchOptions, ProxySetting};
    // Said once here rather than at every page: without Chromium the plain fetch reads them.
    let render = args.render
        && match zhiwen::engine::web::render::find_chromium(args.chromium.as_deref()) {
            Ok(_) => true,
            Err(reason) => {
                eprintln!("--render: {reason}");
                false
            }
        };
    Ok(FetchOptions {
        render,
        chromium: args.chromium.clone(),
        delay: seconds(args.delay, "delay")?,
        timeout: seconds(args.timeout, "timeout")?,
        max_bytes: args.max_page_mib << 20,
        proxy: ProxySetting::parse(args.proxy.as_deref().unwrap_or("")),
        ..FetchOptions::default()
    })
}

/// `--what SECONDS` as a duration, or a message naming the option.
pub(crate) fn seconds(s: f64, what: &str) -> Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(s)
        .map_err(|_| anyhow::anyhow!("--{what} must be a number of seconds, not {s}"))
}

/// The engine's web options from the command line.
pub(crate) fn web_options(args: &WebArgs) -> Result<zhiwen::engine::web::check::WebCheckOptions> {
    use zhiwen::engine::web::fetch::FetchOptions;
    Ok(zhiwen::engine::web::check::WebCheckOptions {
        follow: args.follow,
        max_pages: args.max_pages,
        fetch: FetchOptions { named_as_browser: args.named_as_browser, ..fetch_options(&args.fetch)? },
    })
}

/// What the reports say about the corpus a check ran against, and its texts.
pub(crate) struct CorpusSide<'a> {
    pub(crate) params: zhiwen::FingerprintParams,
    pub(crate) size: zhiwen::report::CorpusSize,
    pub(crate) source_text: &'a dyn Fn(u32) -> Option<String>,
}

/// Writes the CSV, PAN and HTML outputs. `reports` are the corpus checks (CSV and PAN);
/// `checked` holds them and then the pairs among the suspects (HTML), whose source texts
/// are `pair_texts` (by batch position) instead of the corpus's.
pub(crate) fn write_outputs(
    corpus: &CorpusSide,
    checked: &[zhiwen::engine::corpus::Checked],
    reports: &[zhiwen::SuspectReport],
    outputs: &Outputs,
    opts: &CheckOptions,
    pairs_from: usize,
    pair_texts: &[(u32, String)],
) -> Result<()> {
    let write = |path: &Path, text: &str| -> Result<()> {
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    if let Some(csv) = &outputs.csv {
        write(csv, &zhiwen::report::csv(reports))?;
    }
    if let Some(dir) = &outputs.pan {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for (i, r) in reports.iter().enumerate() {
            write(&dir.join(zhiwen::report::report_name(i, &r.path, "xml")), &zhiwen::report::pan_xml(r))?;
        }
    }
    let Some(target) = &outputs.report else { return Ok(()) };
    let now = zhiwen::report::now();
    let html_of = |i: usize| -> Result<String> {
        let c = &checked[i];
        let sources: Vec<(u32, String)> = if i >= pairs_from {
            vec![pair_texts[i - pairs_from].clone()]
        } else {
            c.report.sources.iter().filter_map(|s| Some((s.id, (corpus.source_text)(s.id)?))).collect()
        };
        Ok(zhiwen::report::html(&zhiwen::report::ReportInput {
            report: &c.report,
            suspect_text: c.text.as_deref().unwrap_or(""),
            source_texts: &sources,
            corpus: corpus.size,
            params: corpus.params,
            check: opts.clone(),
            generated_at: now,
        }))
    };
    let as_folder = checked.len() > 1 || target.is_dir() || target.to_string_lossy().ends_with('/');
    if !as_folder {
        return write(target, &html_of(0)?);
    }
    let reports: Vec<&zhiwen::SuspectReport> = checked.iter().map(|c| &c.report).collect();
    let index = zhiwen::report::write_html_folder(
        target,
        &reports,
        |i| html_of(i).map_err(|e| std::io::Error::other(format!("{e:#}"))),
        now,
    )
    .with_context(|| format!("cannot write the reports to {}", target.display()))?;
    eprintln!("reports written to {}", index.display());
    Ok(())
}

/// Sends the digest of a run's changes where the alert settings say; says on stderr what
/// was sent or why not. Whether nothing failed.
pub(crate) fn send_alert(
    corpus: &Corpus,
    source: &str,
    changes: &zhiwen::engine::store::watch::Changes,
    now: i64,
) -> bool {
    use zhiwen::engine::web::alerts::{self, Digest};
    let settings = match corpus.store().alert_settings() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("alerts: {e}");
            return false;
        }
    };
    match alerts::send(&settings, &Digest::of(source, changes, settings.overdue_days, now)) {
        Ok(sent) => {
            for s in sent {
                eprintln!("alert sent: {s}");
            }
            true
        }
        Err(e) => {
            eprintln!("{e}");
            false
        }
    }
}
