//! Background work. One engine thread owns the [`Corpus`] and runs imports, removals and
//! re-fingerprinting one at a time; checks run on their own threads with a [`Checker`]
//! (an index snapshot and a second SQLite connection), so a check never waits for an
//! import. Everything reports back through one channel of [`Event`]s, and every send
//! wakes the UI (`Context::request_repaint`), which drains the channel each frame and
//! never blocks.

use crate::engine::corpus::{Checker, WebCheckOptions};
use crate::engine::import::collect_files;
use crate::engine::store::{DocumentInfo, StoreStats};
use crate::engine::store::{FindingInfo, FindingKind};
use crate::{Cancel, CheckOptions, Corpus, FingerprintParams, ImportOptions, ImportReport, Progress, SuspectReport};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// What the UI knows of the corpus: replaced whole after every change.
#[derive(Clone, Default)]
pub struct CorpusSnapshot {
    pub docs: Arc<Vec<DocumentInfo>>,
    pub stats: StoreStats,
    pub params: FingerprintParams,
}

/// One checked suspect with the texts the viewer shows.
pub struct CheckOutcome {
    pub report: SuspectReport,
    pub text: Option<String>,
    /// Extracted text of each reported source, by document id.
    pub sources: Vec<(u32, String)>,
}

pub enum Event {
    Corpus(CorpusSnapshot),
    Progress(Progress),
    ImportDone(ImportReport),
    Checked(Box<CheckOutcome>),
    CheckBatchDone,
    /// A file dialog closed: what it was for, and the chosen paths (empty if cancelled).
    Picked(Dialog, Vec<PathBuf>),
    /// The native file dialog could not open, and why.
    DialogUnavailable(Dialog, String),
    Failed(String),
    /// Something done, for the status bar (an evidence package written).
    Info(String),
    /// The web page being fetched (`None` when a web check ends).
    Fetching(Option<String>),
    /// The findings library, newest first (after each check batch and on start).
    Findings(Vec<FindingInfo>),
    /// The import or re-fingerprint under way stopped on an error (a read-only store, a
    /// full disk): what it committed is kept, and the message says why it stopped.
    JobFailed(String),
}

/// The native dialogs the app opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog {
    ImportFiles,
    ImportFolder,
    CheckFiles,
    SaveReport,
    /// A folder for one report per result and an index.
    ExportAll,
    /// Where to write the evidence package of the finding `ZhiwenApp::evidence_for`.
    SaveEvidence,
}

impl Dialog {
    /// Whether the dialog picks folders (else files).
    pub fn picks_folders(self) -> bool {
        matches!(self, Dialog::ImportFolder | Dialog::ExportAll)
    }
}

/// What opening a dialog gave: the chosen paths (`None` if cancelled), or why the dialog
/// could not open at all.
pub type DialogResult = Result<Option<Vec<PathBuf>>, String>;

/// Opens dialogs. The default shows native dialogs (rfd) on a thread of their own; tests
/// put a stub in its place that answers at once.
pub type DialogOpener = Box<dyn Fn(Dialog, Option<&std::path::Path>) -> DialogResult + Send + Sync>;

/// A native dialog that closes sooner than this without a choice did not open: on Linux
/// rfd needs an XDG desktop portal or `zenity`, and without them returns at once, as if
/// cancelled (people take longer than this to cancel a dialog).
const NATIVE_DIALOG_MIN: Duration = Duration::from_millis(400);

/// The native dialog for `dialog`, starting in `folder`.
pub fn native_dialog(dialog: Dialog, folder: Option<&std::path::Path>) -> DialogResult {
    let mut d = rfd::FileDialog::new();
    if let Some(folder) = folder {
        d = d.set_directory(folder);
    }
    let started = std::time::Instant::now();
    let picked = match dialog {
        Dialog::ImportFiles => d.add_filter("Documents", crate::engine::decode::FOLDER_EXTENSIONS).pick_files(),
        Dialog::ImportFolder => d.pick_folders(),
        Dialog::ExportAll => d.pick_folder().map(|p| vec![p]),
        Dialog::SaveEvidence => {
            d.add_filter("Evidence package", &["zip"]).set_file_name("zhiwen-evidence.zip").save_file().map(|p| vec![p])
        }
        Dialog::CheckFiles => d.pick_files(),
        Dialog::SaveReport => d
            .add_filter("HTML report", &["html"])
            .add_filter("CSV", &["csv"])
            .add_filter("JSON", &["json"])
            .add_filter("PAN XML", &["xml"])
            .set_file_name("zhiwen-report.html")
            .save_file()
            .map(|p| vec![p]),
    };
    if picked.is_none() && started.elapsed() < NATIVE_DIALOG_MIN {
        return Err("the system file dialog could not open (it needs an XDG desktop portal or zenity)".into());
    }
    Ok(picked)
}

enum Command {
    Import(Vec<PathBuf>, Cancel),
    Remove(Vec<u32>),
    Refingerprint(FingerprintParams, Cancel),
    Check(Vec<PathBuf>, CheckOptions),
    CheckUrls(Vec<String>, WebCheckOptions, CheckOptions, Cancel),
    OpenFinding(i64),
    RemoveFinding(i64),
    ExportEvidence(i64, PathBuf),
}

/// The UI's handle on the engine thread.
pub struct Worker {
    commands: Sender<Command>,
    events: Receiver<Event>,
    sender: Sender<Event>,
    ctx: egui::Context,
}

use eframe::egui;

impl Worker {
    /// Starts the engine thread on the store at `db`. Opening errors arrive as events.
    pub fn start(db: PathBuf, ctx: egui::Context) -> Worker {
        let (commands, command_rx) = channel();
        let (sender, events) = channel();
        let tx = sender.clone();
        let wake = ctx.clone();
        std::thread::Builder::new()
            .name("zhiwen-engine".into())
            .spawn(move || engine_thread(db, command_rx, Emit { tx, ctx: wake }))
            .expect("spawn engine thread");
        Worker { commands, events, sender, ctx }
    }

    pub fn import(&self, paths: Vec<PathBuf>, cancel: Cancel) {
        let _ = self.commands.send(Command::Import(paths, cancel));
    }
    pub fn remove(&self, ids: Vec<u32>) {
        let _ = self.commands.send(Command::Remove(ids));
    }
    pub fn refingerprint(&self, params: FingerprintParams, cancel: Cancel) {
        let _ = self.commands.send(Command::Refingerprint(params, cancel));
    }
    pub fn check(&self, paths: Vec<PathBuf>, opts: CheckOptions) {
        let _ = self.commands.send(Command::Check(paths, opts));
    }
    pub fn check_urls(&self, urls: Vec<String>, web: WebCheckOptions, opts: CheckOptions, cancel: Cancel) {
        let _ = self.commands.send(Command::CheckUrls(urls, web, opts, cancel));
    }
    /// Shows a finding as a result, from what the library kept (nothing is fetched).
    pub fn open_finding(&self, id: i64) {
        let _ = self.commands.send(Command::OpenFinding(id));
    }
    pub fn remove_finding(&self, id: i64) {
        let _ = self.commands.send(Command::RemoveFinding(id));
    }
    pub fn export_evidence(&self, id: i64, path: PathBuf) {
        let _ = self.commands.send(Command::ExportEvidence(id, path));
    }

    /// Events that arrived since the last call.
    pub fn drain(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }

    /// Opens a dialog with `opener` on a thread of its own (a native dialog blocks until
    /// closed); the chosen paths arrive as `Event::Picked`, a dialog that cannot open as
    /// `Event::DialogUnavailable`.
    pub fn open_dialog(&self, dialog: Dialog, folder: Option<PathBuf>, opener: std::sync::Arc<DialogOpener>) {
        let emit = Emit { tx: self.sender.clone(), ctx: self.ctx.clone() };
        std::thread::spawn(move || {
            emit.send(match opener(dialog, folder.as_deref()) {
                Ok(paths) => Event::Picked(dialog, paths.unwrap_or_default()),
                Err(why) => Event::DialogUnavailable(dialog, why),
            })
        });
    }
}

#[derive(Clone)]
struct Emit {
    tx: Sender<Event>,
    ctx: egui::Context,
}

impl Emit {
    fn send(&self, e: Event) {
        let _ = self.tx.send(e);
        self.ctx.request_repaint();
    }
}

fn snapshot(corpus: &Corpus) -> crate::Result<CorpusSnapshot> {
    Ok(CorpusSnapshot {
        docs: Arc::new(corpus.store().documents()?),
        stats: corpus.store().stats()?,
        params: corpus.params(),
    })
}

fn engine_thread(db: PathBuf, commands: Receiver<Command>, emit: Emit) {
    let mut corpus = match Corpus::open(&db) {
        Ok(c) => c,
        Err(e) => {
            emit.send(Event::Failed(format!("{}: {e}", db.display())));
            return;
        }
    };
    let publish = |corpus: &Corpus| match snapshot(corpus) {
        Ok(s) => emit.send(Event::Corpus(s)),
        Err(e) => emit.send(Event::Failed(e.to_string())),
    };
    publish(&corpus);
    publish_findings(&corpus, &emit);
    loop {
        // Between commands, look for imports made by another process (the CLI).
        let command = match commands.recv_timeout(Duration::from_secs(2)) {
            Ok(c) => c,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if corpus.reload_if_changed().unwrap_or(false) {
                    publish(&corpus);
                }
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        };
        match command {
            Command::Import(paths, cancel) => {
                let progress = |p: &Progress| emit.send(Event::Progress(p.clone()));
                match corpus.import(&paths, &ImportOptions::default(), &progress, &cancel) {
                    Ok(report) => emit.send(Event::ImportDone(report)),
                    Err(e) => emit.send(Event::JobFailed(e.to_string())),
                }
                publish(&corpus);
            }
            Command::Remove(ids) => {
                if let Err(e) = corpus.remove(&ids) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish(&corpus);
            }
            Command::Refingerprint(params, cancel) => {
                let progress = |p: &Progress| emit.send(Event::Progress(p.clone()));
                match corpus.refingerprint(params, &progress, &cancel) {
                    Ok(()) | Err(crate::Error::Cancelled) => {}
                    Err(e) => emit.send(Event::JobFailed(e.to_string())),
                }
                publish(&corpus);
            }
            Command::Check(..) | Command::CheckUrls(..) => {
                let opts = match &command {
                    Command::Check(_, opts) | Command::CheckUrls(_, _, opts, _) => opts.clone(),
                    _ => unreachable!(),
                };
                if let Err(e) = corpus.ensure_distance(opts.max_distance) {
                    emit.send(Event::Failed(e.to_string()));
                    emit.send(Event::CheckBatchDone);
                    continue;
                }
                match corpus.checker() {
                    Ok(checker) => {
                        let emit = emit.clone();
                        std::thread::spawn(move || match command {
                            Command::Check(paths, opts) => check_batch(checker, paths, opts, emit),
                            Command::CheckUrls(urls, web, opts, cancel) => {
                                check_web_batch(checker, urls, web, opts, cancel, emit)
                            }
                            _ => unreachable!(),
                        });
                    }
                    Err(e) => {
                        emit.send(Event::Failed(e.to_string()));
                        emit.send(Event::CheckBatchDone);
                    }
                }
            }
            Command::OpenFinding(id) => match open_finding(&corpus, id) {
                Ok(outcome) => emit.send(Event::Checked(Box::new(outcome))),
                Err(e) => emit.send(Event::Failed(e.to_string())),
            },
            Command::RemoveFinding(id) => {
                if let Err(e) = corpus.store_mut().remove_findings(&[id]) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_findings(&corpus, &emit);
            }
            Command::ExportEvidence(id, path) => {
                let written = crate::report::evidence::write_package(corpus.store(), id, &path);
                emit.send(match written {
                    Ok(()) => Event::Info(format!("evidence of finding {id}: {}", path.display())),
                    Err(e) => Event::Failed(e.to_string()),
                });
            }
        }
    }
}

/// Sends the findings library to the UI.
fn publish_findings(corpus: &Corpus, emit: &Emit) {
    match corpus.store().findings(&Default::default()) {
        Ok(list) => emit.send(Event::Findings(list)),
        Err(e) => emit.send(Event::Failed(e.to_string())),
    }
}

/// A kept finding as a result for the viewer: its text and report as recorded, the
/// sources' texts as the store holds them now.
fn open_finding(corpus: &Corpus, id: i64) -> crate::Result<CheckOutcome> {
    let finding = corpus.store().finding(id)?.ok_or_else(|| crate::Error::Parameter(format!("no finding {id}")))?;
    let report: SuspectReport = serde_json::from_str(&finding.result)
        .map_err(|e| crate::Error::Parameter(format!("finding {id}: unreadable result: {e}")))?;
    let sources = report.sources.iter().filter_map(|s| Some((s.id, corpus.text(s.id).ok()??))).collect();
    Ok(CheckOutcome { report, text: Some(finding.text), sources })
}

/// Checks web pages on a checker's thread, keeps each as a finding, reports each result.
fn check_web_batch(
    mut checker: Checker,
    urls: Vec<String>,
    web: WebCheckOptions,
    opts: CheckOptions,
    cancel: Cancel,
    emit: Emit,
) {
    let progress = |url: &str| emit.send(Event::Fetching(Some(url.to_string())));
    match checker.check_urls(&urls, &web, &opts, &progress, &cancel) {
        Ok(results) => {
            for mut w in results {
                if let Some(suspect) = &w.suspect {
                    let pages = crate::engine::corpus::captured(suspect);
                    match checker.record_finding(FindingKind::Web, &pages, &suspect.text, &w.report, &opts) {
                        Ok(id) => w.report.web.iter_mut().for_each(|o| o.finding_id = Some(id)),
                        Err(e) => emit.send(Event::Failed(format!("finding not kept: {e}"))),
                    }
                }
                let sources = w.report.sources.iter().filter_map(|s| Some((s.id, checker.text(s.id).ok()??))).collect();
                let text = w.suspect.map(|s| s.text);
                emit.send(Event::Checked(Box::new(CheckOutcome { report: w.report, text, sources })));
            }
        }
        Err(e) => emit.send(Event::Failed(e.to_string())),
    }
    if let Ok(list) = checker.findings() {
        emit.send(Event::Findings(list));
    }
    if let Ok(list) = checker.findings() {
        emit.send(Event::Findings(list));
    }
    emit.send(Event::Fetching(None));
    emit.send(Event::CheckBatchDone);
}

fn check_batch(mut checker: Checker, paths: Vec<PathBuf>, opts: CheckOptions, emit: Emit) {
    let mut walk = ImportReport::default();
    let files = collect_files(&paths, &mut walk);
    for (path, reason) in walk.failed {
        let report = SuspectReport::unreadable(&path, &reason);
        emit.send(Event::Checked(Box::new(CheckOutcome { report, text: None, sources: Vec::new() })));
    }
    let mut told = false;
    for file in files {
        let (outcome, kept) = match checker.check_file(&file, &opts) {
            Ok(checked) => {
                let sources =
                    checked.report.sources.iter().filter_map(|s| Some((s.id, checker.text(s.id).ok()??))).collect();
                let kept = checked.text.clone().zip(checked.page);
                (CheckOutcome { report: checked.report, text: checked.text, sources }, kept)
            }
            Err(e) => {
                let report = SuspectReport::failed(file.display().to_string(), e.to_string());
                (CheckOutcome { report, text: None, sources: Vec::new() }, None)
            }
        };
        let report = outcome.report.clone();
        emit.send(Event::Checked(Box::new(outcome)));
        // Then kept in the findings library with the bytes it read (after the UI has the
        // result: the write may wait for another process's import to commit).
        if let Some((text, page)) = kept
            && let Err(e) = checker.record_finding(FindingKind::File, &[page], &text, &report, &opts)
            && !told
        {
            // Once per batch: on a read-only store every file would say the same.
            emit.send(Event::Failed(format!("findings not kept: {e}")));
            told = true;
        }
    }
    if let Ok(list) = checker.findings() {
        emit.send(Event::Findings(list));
    }
    emit.send(Event::CheckBatchDone);
}
