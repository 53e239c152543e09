//! Background work. One engine thread owns the [`Corpus`] and runs imports, removals and
//! re-fingerprinting one at a time; checks run on their own threads with a [`Checker`]
//! (an index snapshot and a second SQLite connection), so a check never waits for an
//! import. Everything reports back through one channel of [`Event`]s, and every send
//! wakes the UI (`Context::request_repaint`), which drains the channel each frame and
//! never blocks.

use crate::engine::check::among;
use crate::engine::cluster::{ClusterOptions, Clusters};
use crate::engine::corpus::Checker;
use crate::engine::import::collect_files;
use crate::engine::store::watch::{NewWatch, RightsHolder, Watch, WatchRun};
use crate::engine::store::{DocumentInfo, StoreStats};
use crate::engine::store::{FindingInfo, FindingKind};
use crate::engine::web::check::WebCheckOptions;
use crate::engine::web::stats::Picture;
use crate::report::notice::{self, Jurisdiction};
use crate::{Cancel, CheckOptions, Corpus, FingerprintParams, ImportOptions, ImportReport, Progress, SuspectReport};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// What the UI knows of the corpus: replaced whole after every change.
#[derive(Clone, Default)]
pub struct CorpusSnapshot {
    pub docs: Arc<Vec<DocumentInfo>>,
    /// The works, each with its documents in chapter order.
    pub works: Arc<Vec<crate::engine::store::works::Work>>,
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
    /// A result the user asked to see (a finding opened, two documents compared): it takes
    /// the place of an earlier result of the same suspect and opens in the viewer.
    Shown(Box<CheckOutcome>),
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
    /// Watches, the picture of the copies and the rights holder (on start, after each
    /// watch run, check batch and change).
    Watching(Box<WatchingSnapshot>),
    /// A watch run finished (or was cancelled) with this summary; `None` ends the runs.
    WatchRun(Option<String>),
    /// A discovery finished with this summary; `None` ends it.
    Discovered(Option<String>),
    /// A takedown notice drafted from findings, or why it cannot be.
    Notice(Result<NoticeDraft, String>),
    /// Signatures computed so far while finding duplicates: (done, total).
    ClusterProgress(usize, usize),
    /// Near-duplicate groups of the corpus, or why there are none (cancelled, failed).
    Clusters(Result<Clusters, String>),
    /// The import or re-fingerprint under way stopped on an error (a read-only store, a
    /// full disk): what it committed is kept, and the message says why it stopped.
    JobFailed(String),
}

/// What the dashboard shows.
#[derive(Clone, Default)]
pub struct WatchingSnapshot {
    pub watches: Vec<Watch>,
    /// The latest finished run of each watch, by watch id.
    pub last_runs: Vec<WatchRun>,
    pub picture: Option<Picture>,
    pub holder: RightsHolder,
    /// The licensed sites (the allow-list).
    pub allowed: Vec<crate::engine::store::discovery::AllowedSite>,
}

/// A notice being edited: for which findings, in which form, its text.
#[derive(Clone, Debug)]
pub struct NoticeDraft {
    pub finding_ids: Vec<i64>,
    pub kind: Jurisdiction,
    pub host: String,
    pub text: String,
    /// Whom it was sent to, as typed (for *Mark as sent*).
    pub sent_to: String,
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
    /// Where to write the summary report (HTML).
    SaveSummary,
    /// A folder for the notice being edited and its evidence packages.
    ExportNotice,
    /// Where to write the duplicate groups (.csv or .json).
    SaveClusters,
    /// A Spark run's folder (`runs/<id>`) to show its results.
    OpenRun,
}

impl Dialog {
    /// Whether the dialog picks folders (else files).
    pub fn picks_folders(self) -> bool {
        matches!(self, Dialog::ImportFolder | Dialog::ExportAll | Dialog::ExportNotice | Dialog::OpenRun)
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
        Dialog::ExportAll | Dialog::ExportNotice | Dialog::OpenRun => d.pick_folder().map(|p| vec![p]),
        Dialog::SaveClusters => d
            .add_filter("CSV", &["csv"])
            .add_filter("JSON", &["json"])
            .set_file_name("zhiwen-duplicates.csv")
            .save_file()
            .map(|p| vec![p]),
        Dialog::SaveSummary => {
            d.add_filter("HTML", &["html"]).set_file_name("zhiwen-summary.html").save_file().map(|p| vec![p])
        }
        Dialog::SaveEvidence => d
            .add_filter("Evidence package (WACZ)", &["wacz", "zip"])
            .set_file_name("zhiwen-evidence.wacz")
            .save_file()
            .map(|p| vec![p]),
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
    Works(WorksChange),
    Refingerprint(FingerprintParams, Cancel),
    /// Check files; with `among`, the files against each other too.
    Check(Vec<PathBuf>, CheckOptions, bool),
    CheckUrls(Vec<String>, WebCheckOptions, CheckOptions, Cancel),
    OpenFinding(i64),
    RemoveFinding(i64),
    /// A finding's package to a file, timestamped by the TSA if one is set.
    ExportEvidence(i64, PathBuf, Option<String>),
    AddWatch(NewWatch),
    RemoveWatch(i64),
    /// Run these watches (or, if empty, those due now).
    RunWatches(Vec<i64>, WebCheckOptions, CheckOptions, Cancel),
    SetHolder(RightsHolder),
    DraftNotice(Vec<i64>, Jurisdiction),
    MarkNoticeSent(Vec<i64>, String),
    ExportNotice(NoticeDraft, PathBuf),
    ExportSummary(PathBuf),
    Clusters(ClusterOptions, Cancel),
    /// Shows two corpus documents side by side (the second as the source).
    CompareDocuments(u32, u32),
    /// Shows a Spark run's results (read from its Parquet folders, not the store).
    OpenRun(PathBuf),
    /// Finds copies on the web of the works of these documents.
    Discover(Vec<u32>, DiscoverJob, Cancel),
    AllowSite(String),
    RemoveAllowedSite(i64),
}

/// A change to the works, as `zhiwen works set|merge|move` makes it.
pub enum WorksChange {
    Edit(u32, crate::engine::store::works::WorkEdit),
    Merge(u32, u32),
    Move(Vec<u32>, crate::engine::store::works::MoveTarget),
}

/// How a discovery from the app searches.
pub struct DiscoverJob {
    pub searx: String,
    pub query_interval: std::time::Duration,
    pub opts: crate::engine::web::discover::DiscoverOptions,
    pub check: CheckOptions,
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
    pub fn edit_works(&self, change: WorksChange) {
        let _ = self.commands.send(Command::Works(change));
    }
    pub fn refingerprint(&self, params: FingerprintParams, cancel: Cancel) {
        let _ = self.commands.send(Command::Refingerprint(params, cancel));
    }
    pub fn check(&self, paths: Vec<PathBuf>, opts: CheckOptions, among: bool) {
        let _ = self.commands.send(Command::Check(paths, opts, among));
    }
    /// Finds the corpus's near-duplicate groups (signing documents first if needed).
    pub fn clusters(&self, opts: ClusterOptions, cancel: Cancel) {
        let _ = self.commands.send(Command::Clusters(opts, cancel));
    }
    pub fn compare_documents(&self, doc: u32, with: u32) {
        let _ = self.commands.send(Command::CompareDocuments(doc, with));
    }
    pub fn check_urls(&self, urls: Vec<String>, web: WebCheckOptions, opts: CheckOptions, cancel: Cancel) {
        let _ = self.commands.send(Command::CheckUrls(urls, web, opts, cancel));
    }
    /// Shows a finding as a result, from what the library kept (nothing is fetched).
    pub fn open_finding(&self, id: i64) {
        let _ = self.commands.send(Command::OpenFinding(id));
    }
    /// Shows the results of a Spark run (`zhiwen report --from-parquet` in the app).
    pub fn open_run(&self, dir: PathBuf) {
        let _ = self.commands.send(Command::OpenRun(dir));
    }
    pub fn remove_finding(&self, id: i64) {
        let _ = self.commands.send(Command::RemoveFinding(id));
    }
    pub fn export_evidence(&self, id: i64, path: PathBuf, tsa: Option<String>) {
        let _ = self.commands.send(Command::ExportEvidence(id, path, tsa));
    }
    pub fn add_watch(&self, watch: NewWatch) {
        let _ = self.commands.send(Command::AddWatch(watch));
    }
    pub fn remove_watch(&self, id: i64) {
        let _ = self.commands.send(Command::RemoveWatch(id));
    }
    /// Runs watches on a thread of their own (`ids` empty: those due now); each run ends
    /// with `Event::WatchRun`, and the last with `Event::WatchRun(None)`.
    pub fn run_watches(&self, ids: Vec<i64>, web: WebCheckOptions, opts: CheckOptions, cancel: Cancel) {
        let _ = self.commands.send(Command::RunWatches(ids, web, opts, cancel));
    }
    /// Finds copies on the web of the works `docs` belong to, on a thread of its own; ends
    /// with `Event::Discovered(Some(summary))` and `Event::Discovered(None)`.
    pub fn discover(
        &self,
        docs: Vec<u32>,
        searx: String,
        query_interval: std::time::Duration,
        opts: crate::engine::web::discover::DiscoverOptions,
        check: CheckOptions,
        cancel: Cancel,
    ) {
        let job = DiscoverJob { searx, query_interval, opts, check };
        let _ = self.commands.send(Command::Discover(docs, job, cancel));
    }
    pub fn allow_site(&self, pattern: String) {
        let _ = self.commands.send(Command::AllowSite(pattern));
    }
    pub fn remove_allowed_site(&self, id: i64) {
        let _ = self.commands.send(Command::RemoveAllowedSite(id));
    }
    pub fn set_holder(&self, holder: RightsHolder) {
        let _ = self.commands.send(Command::SetHolder(holder));
    }
    pub fn draft_notice(&self, ids: Vec<i64>, kind: Jurisdiction) {
        let _ = self.commands.send(Command::DraftNotice(ids, kind));
    }
    pub fn mark_notice_sent(&self, ids: Vec<i64>, to: String) {
        let _ = self.commands.send(Command::MarkNoticeSent(ids, to));
    }
    pub fn export_notice(&self, draft: NoticeDraft, dir: PathBuf) {
        let _ = self.commands.send(Command::ExportNotice(draft, dir));
    }
    pub fn export_summary(&self, path: PathBuf) {
        let _ = self.commands.send(Command::ExportSummary(path));
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
        works: Arc::new(corpus.works()?),
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
    publish_watching(&corpus, &emit);
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
            Command::Works(change) => {
                let done = match change {
                    WorksChange::Edit(id, edit) => corpus.edit_work(id, &edit),
                    WorksChange::Merge(from, into) => corpus.merge_works(from, into),
                    WorksChange::Move(docs, to) => corpus.move_documents(&docs, &to).map(|_| ()),
                };
                if let Err(e) = done {
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
                    Command::Check(_, opts, _) | Command::CheckUrls(_, _, opts, _) => opts.clone(),
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
                            Command::Check(paths, opts, among) => check_batch(checker, paths, opts, among, emit),
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
            Command::OpenRun(dir) => match crate::scaleout::run::read_run(&dir, &Default::default()) {
                Ok(run) => {
                    let shown = run.reports.len();
                    for outcome in run_outcomes(run) {
                        emit.send(Event::Checked(Box::new(outcome)));
                    }
                    emit.send(Event::Info(format!("{}: {shown} suspects from the Spark run", dir.display())));
                }
                Err(e) => emit.send(Event::Failed(format!("{}: {e}", dir.display()))),
            },
            Command::OpenFinding(id) => match open_finding(&corpus, id) {
                Ok(outcome) => emit.send(Event::Shown(Box::new(outcome))),
                Err(e) => emit.send(Event::Failed(e.to_string())),
            },
            Command::RemoveFinding(id) => {
                if let Err(e) = corpus.store_mut().remove_findings(&[id]) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_findings(&corpus, &emit);
            }
            Command::ExportEvidence(id, path, tsa) => {
                let opts = crate::report::evidence::EvidenceOptions { tsa };
                let written = crate::report::evidence::write_package(corpus.store(), id, &path, &opts);
                emit.send(match written {
                    Ok(()) => Event::Info(format!("evidence of finding {id}: {}", path.display())),
                    Err(e) => Event::Failed(e.to_string()),
                });
            }
            Command::AddWatch(w) => {
                if let Err(e) = corpus.store_mut().add_watch(&w, crate::engine::time::now()) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_watching(&corpus, &emit);
            }
            Command::RemoveWatch(id) => {
                if let Err(e) = corpus.store_mut().remove_watches(&[id]) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_watching(&corpus, &emit);
            }
            Command::RunWatches(ids, web, opts, cancel) => {
                // The watches to run and a checker per worker (sites in parallel, as `watch run`),
                // opened here where the corpus is; the runs go on on a thread of their own.
                let now = crate::engine::time::now();
                let started = corpus.ensure_distance(opts.max_distance).and_then(|()| {
                    let watches: Vec<Watch> = corpus
                        .store()
                        .watches()?
                        .into_iter()
                        .filter(|w| if ids.is_empty() { w.is_due(now) } else { ids.contains(&w.id) })
                        .collect();
                    let workers =
                        crate::engine::web::watch::workers_for(&watches, crate::engine::web::watch::PARALLEL_SITES);
                    let checkers: Vec<crate::Result<Checker>> = (0..workers).map(|_| corpus.checker()).collect();
                    Ok((watches, checkers, corpus.checker()?))
                });
                match started {
                    Ok((watches, checkers, checker)) => {
                        let emit = emit.clone();
                        std::thread::spawn(move || run_watches(checker, checkers, watches, web, opts, cancel, emit));
                    }
                    Err(e) => {
                        emit.send(Event::Failed(e.to_string()));
                        emit.send(Event::WatchRun(None));
                    }
                }
            }
            Command::AllowSite(pattern) => {
                if let Err(e) = corpus.store_mut().allow_site(&pattern, None, "", crate::engine::time::now()) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_watching(&corpus, &emit);
            }
            Command::RemoveAllowedSite(id) => {
                if let Err(e) = corpus.store_mut().remove_allowed_sites(&[id]) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_watching(&corpus, &emit);
            }
            Command::Discover(docs, job, cancel) => {
                let started = corpus.ensure_distance(job.check.max_distance).and_then(|()| corpus.checker());
                let works = corpus.works().map(|all| {
                    all.iter()
                        .filter(|w| w.documents.iter().any(|d| docs.contains(d)))
                        .map(crate::engine::web::discover::WorkToFind::from)
                        .collect::<Vec<_>>()
                });
                match (started, works) {
                    (Ok(checker), Ok(works)) => {
                        let emit = emit.clone();
                        std::thread::spawn(move || discover(checker, works, job, cancel, emit));
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        emit.send(Event::Failed(e.to_string()));
                        emit.send(Event::Discovered(None));
                    }
                }
            }
            Command::SetHolder(holder) => {
                if let Err(e) = corpus.store_mut().set_rights_holder(&holder) {
                    emit.send(Event::Failed(e.to_string()));
                }
                publish_watching(&corpus, &emit);
            }
            Command::DraftNotice(ids, kind) => {
                let now = crate::engine::time::now();
                let draft = notice::notice_input(corpus.store(), &ids, now).map(|input| NoticeDraft {
                    text: notice::notice_text(kind, &input),
                    host: input.host,
                    finding_ids: ids,
                    kind,
                    sent_to: String::new(),
                });
                emit.send(Event::Notice(draft.map_err(|e| e.to_string())));
            }
            Command::MarkNoticeSent(ids, to) => {
                match corpus.store_mut().mark_notice_sent(&ids, &to, crate::engine::time::now()) {
                    Ok(n) => emit.send(Event::Info(format!("notice to {to} recorded for {n} pages"))),
                    Err(e) => emit.send(Event::Failed(e.to_string())),
                }
                publish_findings(&corpus, &emit);
                publish_watching(&corpus, &emit);
            }
            Command::ExportNotice(draft, dir) => {
                let now = crate::engine::time::now();
                let written = notice::notice_input(corpus.store(), &draft.finding_ids, now).and_then(|input| {
                    notice::write_notice_folder(corpus.store(), draft.kind, &input, &draft.text, &dir)
                });
                emit.send(match written {
                    Ok(path) => Event::Info(format!("notice: {}", path.display())),
                    Err(e) => Event::Failed(e.to_string()),
                });
            }
            Command::Clusters(opts, cancel) => {
                let progress = |done: usize, total: usize| emit.send(Event::ClusterProgress(done, total));
                let found = corpus.clusters(&opts, &progress, &cancel).map_err(|e| e.to_string());
                emit.send(Event::Clusters(found));
            }
            Command::CompareDocuments(doc, with) => match compare_documents(&corpus, doc, with) {
                Ok(outcome) => emit.send(Event::Shown(Box::new(outcome))),
                Err(e) => emit.send(Event::Failed(e.to_string())),
            },
            Command::ExportSummary(path) => {
                let written = crate::engine::web::stats::picture(corpus.store(), crate::engine::time::now())
                    .map_err(|e| e.to_string())
                    .and_then(|p| {
                        std::fs::write(&path, crate::report::summary::summary_html(&p))
                            .map_err(|e| format!("{}: {e}", path.display()))
                    });
                emit.send(match written {
                    Ok(()) => Event::Info(format!("summary: {}", path.display())),
                    Err(e) => Event::Failed(e),
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

/// Sends the watches, the picture and the rights holder to the UI.
fn publish_watching(corpus: &Corpus, emit: &Emit) {
    match watching(corpus.store()) {
        Ok(w) => emit.send(Event::Watching(Box::new(w))),
        Err(e) => emit.send(Event::Failed(e.to_string())),
    }
}

fn watching(store: &crate::engine::store::Store) -> crate::Result<WatchingSnapshot> {
    let mut last_runs: Vec<WatchRun> = Vec::new();
    for run in store.watch_runs(None)?.into_iter().filter(|r| r.outcome == "done") {
        if !last_runs.iter().any(|r| r.watch_id == run.watch_id) {
            last_runs.push(run);
        }
    }
    Ok(WatchingSnapshot {
        watches: store.watches()?,
        last_runs,
        picture: Some(crate::engine::web::stats::picture(store, crate::engine::time::now())?),
        holder: store.rights_holder()?,
        allowed: store.allowed_sites()?,
    })
}

/// After web work on a checker's thread: the findings and the picture as they are now,
/// and nothing being fetched.
fn web_work_done(checker: &Checker, emit: &Emit) {
    if let Ok(list) = checker.findings() {
        emit.send(Event::Findings(list));
    }
    if let Ok(w) = watching(checker.store()) {
        emit.send(Event::Watching(Box::new(w)));
    }
    emit.send(Event::Fetching(None));
}

/// Runs a discovery on a checker's thread (see [`Worker::discover`]).
fn discover(
    mut checker: Checker,
    works: Vec<crate::engine::web::discover::WorkToFind>,
    job: DiscoverJob,
    cancel: Cancel,
    emit: Emit,
) {
    use crate::engine::web::search::{SearchOptions, Searx};
    let progress = |what: &str| emit.send(Event::Fetching(Some(what.to_string())));
    let opts =
        SearchOptions { min_interval: job.query_interval, proxy: job.opts.fetch.proxy.clone(), ..Default::default() };
    let ran = Searx::new(&job.searx, opts)
        .and_then(|mut engine| checker.discover(&mut engine, &works, &job.opts, &job.check, None, &progress, &cancel));
    match ran {
        Ok(report) => {
            let copies = report.copies.iter().filter(|c| !c.licensed).count();
            let mut summary = format!(
                "{}: {} queries, {} pages checked, {copies} copies on {} sites, {} licensed",
                works.iter().map(|w| w.title.as_str()).collect::<Vec<_>>().join(", "),
                report.queries,
                report.pages_checked,
                report.sites.iter().filter(|s| !s.licensed).count(),
                report.copies.len() - copies
            );
            if let Some(first) = report.search_errors.first() {
                summary += &format!("; {} searches failed ({first})", report.search_errors.len());
            }
            if let Some(limit) = report.limits.first() {
                summary += &format!("; limit: {limit}");
            }
            if report.cancelled {
                summary += "; cancelled";
            }
            emit.send(Event::Discovered(Some(summary)));
        }
        Err(e) => emit.send(Event::Failed(format!("{}: {e}", job.searx))),
    }
    web_work_done(&checker, &emit);
    emit.send(Event::Discovered(None));
}

/// Sends a watch run's digest where the alert settings say (see `engine::web::alerts`); a
/// channel that fails is said in the status bar.
fn send_alert(
    settings: std::result::Result<&crate::engine::web::alerts::AlertSettings, String>,
    source: &str,
    changes: &crate::engine::store::watch::Changes,
    emit: &Emit,
) {
    use crate::engine::web::alerts::{self, Digest};
    let sent = settings.and_then(|settings| {
        alerts::send(settings, &Digest::of(source, changes, settings.overdue_days, crate::engine::time::now()))
            .map_err(|e| e.to_string())
    });
    match sent {
        Ok(sent) if !sent.is_empty() => emit.send(Event::Info(format!("{source}: alert sent ({})", sent.join(", ")))),
        Ok(_) => {}
        Err(e) => emit.send(Event::Failed(format!("{source}: {e}"))),
    }
}

/// Runs `watches` with sites in parallel on `checkers` (one per worker), each run's digest
/// sent and its summary said as it ends; `checker` reads the settings and publishes after.
fn run_watches(
    checker: Checker,
    checkers: Vec<crate::Result<Checker>>,
    watches: Vec<Watch>,
    web: WebCheckOptions,
    opts: CheckOptions,
    cancel: Cancel,
    emit: Emit,
) {
    let progress = |url: &str| emit.send(Event::Fetching(Some(url.to_string())));
    let alerts = checker.store().alert_settings();
    let done = |run: &crate::engine::web::watch::WatchRunReport| {
        let (w, c) = (&run.watch, &run.changes);
        let name = if w.label.is_empty() { &w.url } else { &w.label };
        if !run.cancelled {
            send_alert(alerts.as_ref().map_err(|e| e.to_string()), name, c, &emit);
        }
        emit.send(Event::WatchRun(Some(if run.cancelled {
            format!("{name}: cancelled, nothing changed")
        } else {
            format!("{name}: {}", c.counts())
        })));
    };
    let runs = crate::engine::web::watch::run_on_checkers(
        checkers,
        &watches,
        &web,
        &opts,
        crate::engine::time::now(),
        &progress,
        &done,
        &cancel,
    );
    for (w, run) in watches.iter().zip(runs) {
        match run {
            Ok(_) | Err(crate::Error::Cancelled) => {}
            Err(e) => emit.send(Event::Failed(format!("{}: {e}", w.url))),
        }
    }
    web_work_done(&checker, &emit);
    emit.send(Event::WatchRun(None));
}

/// A kept finding as a result for the viewer: its text and report as recorded, the
/// sources' texts as the store holds them now.
/// A run's reports as results, each with the texts of the sources it names (from the
/// run's corpus export, which need not be the open store).
fn run_outcomes(run: crate::scaleout::run::RunReports) -> Vec<CheckOutcome> {
    let crate::scaleout::run::RunReports { reports, suspect_texts, source_texts, .. } = run;
    reports
        .into_iter()
        .zip(suspect_texts)
        .map(|(report, text)| {
            let sources =
                report.sources.iter().filter_map(|s| Some((s.id, source_texts.get(&s.id)?.clone()))).collect();
            CheckOutcome { report, text, sources }
        })
        .collect()
}

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
            // Pages that could not be checked are said in the status bar too, not only in
            // their rows (a missing contents page looked like a page with nothing copied).
            let failed: Vec<&str> = results.iter().filter_map(|w| w.report.error.as_deref()).collect();
            if let Some(first) = failed.first() {
                emit.send(Event::Failed(if failed.len() == 1 {
                    first.to_string()
                } else {
                    format!("{} of {} pages could not be checked; {first}", failed.len(), results.len())
                }));
            }
            for mut w in results {
                let mut kept = w.suspect.is_none();
                if let Some(suspect) = &w.suspect {
                    let pages = crate::engine::web::check::captured(suspect);
                    match checker.record_finding(FindingKind::Web, &pages, &suspect.text, &w.report, &opts) {
                        Ok(id) => {
                            w.report.web.iter_mut().for_each(|o| o.finding_id = Some(id));
                            kept = true;
                        }
                        Err(e) => emit.send(Event::Failed(format!("finding not kept: {e}"))),
                    }
                }
                // Tracked as watched pages are (a copy new, still online, gone).
                if kept {
                    let finding = w.report.web.as_ref().and_then(|o| o.finding_id);
                    if let Err(e) = checker.observe(&[w.observation(finding)]) {
                        emit.send(Event::Failed(format!("copy not tracked: {e}")));
                    }
                }
                let sources = w.report.sources.iter().filter_map(|s| Some((s.id, checker.text(s.id).ok()??))).collect();
                let text = w.suspect.map(|s| s.text);
                emit.send(Event::Checked(Box::new(CheckOutcome { report: w.report, text, sources })));
            }
        }
        Err(crate::Error::Cancelled) => {}
        // The batch as a whole failed: each address gets a row with the reason, and the bar says it.
        Err(e) => {
            for url in &urls {
                let report = SuspectReport::failed(url.clone(), format!("{url}: {e}"));
                emit.send(Event::Checked(Box::new(CheckOutcome { report, text: None, sources: Vec::new() })));
            }
            emit.send(Event::Failed(e.to_string()));
        }
    }
    web_work_done(&checker, &emit);
    emit.send(Event::CheckBatchDone);
}

/// Two corpus documents side by side: `doc` as the suspect, `with` as its source, matched
/// by the same engine as suspects among themselves.
fn compare_documents(corpus: &Corpus, doc: u32, with: u32) -> crate::Result<CheckOutcome> {
    let text = |id: u32| -> crate::Result<(String, String)> {
        let d = corpus.store().source_doc(id)?.ok_or_else(|| crate::Error::Parameter(format!("no document {id}")))?;
        Ok((d.path, d.text))
    };
    let batch = [text(doc)?, text(with)?];
    let opts = CheckOptions::default();
    let pair = among::among(&batch, &corpus.params(), &opts)?.into_iter().next();
    let report = match pair {
        Some(p) if p.a == 0 => p.report,
        // Only the other direction (or nothing) matched: the document, with no passages.
        _ => SuspectReport {
            path: batch[0].0.clone(),
            chars: batch[0].1.chars().count(),
            similarity: 0.0,
            error: None,
            sources: Vec::new(),
            web: None,
            disguises: Default::default(),
        },
    };
    let [(_, text), (_, source)] = batch;
    Ok(CheckOutcome { report, text: Some(text), sources: vec![(1, source)] })
}

/// The pairs of checked files that share text, as results: `a ↔ b`, `a` the suspect.
fn among_results(batch: &[(String, String)], opts: &CheckOptions, params: &FingerprintParams, emit: &Emit) {
    match among::among(batch, params, opts) {
        Ok(pairs) => {
            for p in pairs {
                let b = &batch[p.b];
                let path = format!("{} ↔ {}", p.report.path, crate::report::file_name(&b.0));
                let report = SuspectReport { path, ..p.report };
                let outcome =
                    CheckOutcome { report, text: Some(batch[p.a].1.clone()), sources: vec![(p.b as u32, b.1.clone())] };
                emit.send(Event::Checked(Box::new(outcome)));
            }
        }
        Err(e) => emit.send(Event::Failed(e.to_string())),
    }
}

fn check_batch(mut checker: Checker, paths: Vec<PathBuf>, opts: CheckOptions, among: bool, emit: Emit) {
    let mut walk = ImportReport::default();
    let files = collect_files(&paths, &mut walk);
    for (path, reason) in walk.failed {
        let report = SuspectReport::unreadable(&path, &reason);
        emit.send(Event::Checked(Box::new(CheckOutcome { report, text: None, sources: Vec::new() })));
    }
    let mut told = false;
    let mut batch: Vec<(String, String)> = Vec::new();
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
        if among && let Some(text) = &outcome.text {
            batch.push((report.path.clone(), text.clone()));
        }
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
    if among {
        among_results(&batch, &opts, &checker.store().params(), &emit);
    }
    if let Ok(list) = checker.findings() {
        emit.send(Event::Findings(list));
    }
    emit.send(Event::CheckBatchDone);
}
