//! The app's state and frame loop.

use super::i18n::Tr;
use super::jobs::{
    CheckOutcome, CorpusSnapshot, Dialog, DialogOpener, Event, NoticeDraft, WatchingSnapshot, Worker, WorksChange,
    native_dialog,
};
use super::panels;
use super::settings::{STORAGE_KEY, Settings, Theme};
use super::text_view::{Span, TextPane};
use crate::engine::check::diff::Mark;
use crate::{Cancel, ImportReport, Progress, Stage};
use eframe::egui;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// What panels ask for; applied once per frame, after drawing.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    OpenDialog(Dialog),
    Import(Vec<PathBuf>),
    Check(Vec<PathBuf>),
    Remove(Vec<u32>),
    /// Change a work's fields.
    EditWork(u32, crate::engine::store::works::WorkEdit),
    /// Move every chapter of the first work into the second.
    MergeWorks(u32, u32),
    /// Move documents to a work (or a new one).
    MoveDocuments(Vec<u32>, crate::engine::store::works::MoveTarget),
    CancelJob,
    DismissImport,
    SelectResult(usize),
    SelectSource(usize),
    SelectPassage(usize),
    NextPassage,
    PreviousPassage,
    CloseViewer,
    /// Empty the results list (the findings library keeps what was found).
    ClearResults,
    ExportTo(PathBuf),
    /// One HTML report per result and an index, into this folder.
    ExportAll(PathBuf),
    /// Fetch and check web pages (with `follow`, the chapters a contents page lists).
    CheckUrls(Vec<String>, bool),
    /// Show a kept finding in the viewer (nothing is fetched).
    OpenFinding(i64),
    /// Ask where to write a finding's evidence package, then write it.
    ExportEvidence(i64),
    RemoveFinding(i64),
    ToggleSettings,
    ApplyFingerprint(crate::FingerprintParams),
    /// Reopen the app on another store.
    SetStore(PathBuf),
    SetTab(Tab),
    AddWatch(crate::engine::store::watch::NewWatch),
    RemoveWatch(i64),
    /// Run these watches now (empty: those due).
    RunWatches(Vec<i64>),
    /// Draft a notice from these findings in this form (opens the notice window).
    DraftNotice(Vec<i64>, crate::report::notice::Jurisdiction),
    /// Find the corpus's near-duplicate groups with the options on the Duplicates tab.
    FindDuplicates,
    /// Show a corpus document beside another (the first of its group) in the viewer.
    CompareDocuments(u32, u32),
    /// Find copies on the web of the works these documents belong to.
    Discover(Vec<u32>),
    /// Add a host or URL prefix to the licensed sites.
    AllowSite(String),
    RemoveAllowedSite(i64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Corpus,
    Checks,
    Findings,
    Dashboard,
    Duplicates,
}

/// The Duplicates tab: its options, the search under way, the groups found.
#[derive(Default)]
pub struct DuplicatesState {
    pub opts: crate::engine::cluster::ClusterOptions,
    /// While a search runs: how to stop it, and signatures computed so far (done, total).
    pub running: Option<(Cancel, usize, usize)>,
    pub found: Option<crate::engine::cluster::Clusters>,
    /// The options the groups were found with (for the export).
    pub found_with: crate::engine::cluster::ClusterOptions,
}

/// A running or finished import (or re-fingerprinting), for the import dialog.
pub struct ImportJob {
    pub started: Instant,
    pub cancel: Cancel,
    pub progress: Option<Progress>,
    pub report: Option<ImportReport>,
}

/// One checked suspect in the results list.
pub struct CheckResult {
    pub outcome: CheckOutcome,
}

/// The side-by-side viewer of one result and one of its sources.
pub struct Viewer {
    pub result: usize,
    pub source: usize,
    pub passage: usize,
    pub left: TextPane,
    pub right: TextPane,
    /// Difference marks of all passages, sorted by start, per side.
    pub left_marks: Vec<Span>,
    pub right_marks: Vec<Span>,
    /// A suspect read from pictures (a picture, a scanned PDF's pages, an EPUB's picture
    /// chapters): them, shown beside its text when asked for (loaded on first showing; `Err`
    /// says why they cannot be).
    pub picture: Option<Result<Vec<egui::TextureHandle>, String>>,
    pub show_picture: bool,
}

pub struct ZhiwenApp {
    pub settings: Settings,
    pub db: PathBuf,
    pub worker: Worker,
    pub dialogs: Arc<DialogOpener>,
    pub corpus: CorpusSnapshot,
    pub tab: Tab,
    pub search: String,
    pub sort: (panels::corpus::SortBy, bool),
    pub selected_docs: HashSet<u32>,
    /// The corpus tree's folds, the work being edited, a removal awaiting confirmation.
    pub corpus_tree: panels::corpus::TreeState,
    pub import: Option<ImportJob>,
    pub results: Vec<CheckResult>,
    /// How the results list is sorted and filtered.
    pub triage: panels::checks::Triage,
    /// The findings library, newest first, as the engine last sent it.
    pub findings: Vec<crate::engine::store::FindingInfo>,
    /// The web address being typed, and whether it is a contents page to follow.
    pub url_input: String,
    pub follow_links: bool,
    /// The finding whose evidence package the save dialog is for.
    pub evidence_for: Option<i64>,
    /// The page a web check is fetching, and how to stop it.
    pub fetching: Option<String>,
    pub web_cancel: Cancel,
    pub checks_running: usize,
    pub viewer: Option<Viewer>,
    pub show_settings: bool,
    /// Settings being edited in the settings window.
    pub draft: Settings,
    pub messages: Vec<String>,
    /// How many messages there were when the last one was first shown, and when: the status
    /// bar shows it for `MESSAGE_SHOWN_FOR`, then clears itself.
    pub message_shown: Option<(usize, Instant)>,
    pub actions: Vec<Action>,
    /// The title last sent to the window, so it is sent again only when it changes.
    window_title: String,
    /// The in-app file dialog, while open, and what it is for.
    pub file_dialog: Option<(Dialog, egui_file::FileDialog)>,
    /// Where the pointer is during a drag of files, when the platform tells (set each
    /// frame by the eframe frontend; see `drag_pointer`).
    pub drop_pointer: Option<egui::Pos2>,
    drag_pointer: super::drag_pointer::DragPointer,
    /// Watches, the picture of the copies, the rights holder, as the engine last sent them.
    pub watching: WatchingSnapshot,
    /// The watch being added on the dashboard.
    pub new_watch: crate::engine::store::watch::NewWatch,
    /// Watch runs under way, and how to stop them.
    pub watch_running: bool,
    /// A discovery is running (one at a time; Cancel in the status bar stops it).
    pub discovery_running: bool,
    /// The licensed site being typed in the settings.
    pub allow_draft: String,
    pub watch_cancel: Cancel,
    /// When the app last looked for due watches (it looks once a minute while open).
    next_due_check: Instant,
    /// Findings ticked in the findings tab (for a notice).
    pub selected_findings: HashSet<i64>,
    /// The notice being edited, if its window is open.
    pub notice: Option<NoticeDraft>,
    /// The rights holder being edited in the settings window.
    pub holder_draft: crate::engine::store::watch::RightsHolder,
    /// Check dropped or picked files against each other too.
    pub among: bool,
    pub duplicates: DuplicatesState,
}

/// How long the status bar shows a message.
pub const MESSAGE_SHOWN_FOR: std::time::Duration = std::time::Duration::from_secs(15);

/// How often the app looks for due watches while open.
const DUE_CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

impl ZhiwenApp {
    pub fn new(ctx: &egui::Context, db: PathBuf, settings: Settings) -> ZhiwenApp {
        apply_theme(ctx, settings.theme);
        ZhiwenApp {
            worker: Worker::start(db.clone(), ctx.clone()),
            db,
            dialogs: Arc::new(Box::new(native_dialog)),
            corpus: CorpusSnapshot::default(),
            tab: Tab::Corpus,
            search: String::new(),
            sort: (panels::corpus::SortBy::Imported, false),
            selected_docs: HashSet::new(),
            corpus_tree: Default::default(),
            import: None,
            results: Vec::new(),
            triage: Default::default(),
            findings: Vec::new(),
            url_input: String::new(),
            follow_links: false,
            evidence_for: None,
            fetching: None,
            web_cancel: Cancel::new(),
            checks_running: 0,
            viewer: None,
            show_settings: false,
            draft: settings.clone(),
            settings,
            messages: Vec::new(),
            message_shown: None,
            actions: Vec::new(),
            window_title: String::new(),
            file_dialog: None,
            drop_pointer: None,
            drag_pointer: Default::default(),
            watching: WatchingSnapshot::default(),
            new_watch: crate::engine::store::watch::NewWatch {
                url: String::new(),
                label: String::new(),
                follow: true,
                every_secs: crate::engine::store::watch::DAILY,
            },
            watch_running: false,
            discovery_running: false,
            allow_draft: String::new(),
            watch_cancel: Cancel::new(),
            next_due_check: Instant::now(),
            selected_findings: HashSet::new(),
            notice: None,
            holder_draft: Default::default(),
            among: false,
            duplicates: DuplicatesState::default(),
        }
    }

    /// The message the status bar shows now: the newest, for `MESSAGE_SHOWN_FOR` after it
    /// came, and how long it has left.
    pub fn status_message(&mut self, now: Instant) -> Option<(String, std::time::Duration)> {
        let last = self.messages.last()?.clone();
        let since = match self.message_shown {
            Some((n, at)) if n == self.messages.len() => at,
            _ => {
                self.message_shown = Some((self.messages.len(), now));
                now
            }
        };
        MESSAGE_SHOWN_FOR.checked_sub(now.saturating_duration_since(since)).map(|left| (last, left))
    }

    pub fn tr(&self) -> &'static Tr {
        self.settings.lang.tr()
    }

    /// True while an import or re-fingerprinting runs.
    pub fn busy(&self) -> bool {
        self.import
            .as_ref()
            .is_some_and(|j| j.report.is_none() && j.progress.as_ref().is_none_or(|p| p.stage != Stage::Done))
    }

    fn handle_events(&mut self) {
        for event in self.worker.drain() {
            match event {
                Event::Corpus(snapshot) => {
                    self.selected_docs.retain(|id| snapshot.docs.iter().any(|d| d.id == *id));
                    self.corpus = snapshot;
                    // A re-fingerprint finishes with a new snapshot and no import report.
                    if let Some(job) = &mut self.import
                        && job.progress.as_ref().is_some_and(|p| p.stage == Stage::Indexing && p.files_total > 0)
                        && job.report.is_none()
                    {
                        job.report = Some(ImportReport::default());
                    }
                }
                Event::Progress(p) => {
                    if let Some(job) = &mut self.import {
                        job.progress = Some(p);
                    }
                }
                Event::ImportDone(report) => {
                    if let Some(job) = &mut self.import {
                        job.report = Some(report);
                    }
                }
                Event::Checked(outcome) => {
                    self.results.push(CheckResult { outcome: *outcome });
                    if self.viewer.is_none() && self.results.len() == 1 {
                        self.actions.push(Action::SelectResult(0));
                    }
                }
                Event::Shown(outcome) => {
                    let same = self.results.iter().position(|r| r.outcome.report.path == outcome.report.path);
                    let at = match same {
                        Some(i) => {
                            self.results[i] = CheckResult { outcome: *outcome };
                            i
                        }
                        None => {
                            self.results.push(CheckResult { outcome: *outcome });
                            self.results.len() - 1
                        }
                    };
                    // Shown whatever the filters: they would hide what was asked for.
                    self.triage.work = None;
                    self.triage.search.clear();
                    self.triage.min_similarity = 0.0;
                    self.actions.push(Action::SelectResult(at));
                }
                Event::CheckBatchDone => self.checks_running = self.checks_running.saturating_sub(1),
                Event::Picked(dialog, paths) => self.picked(dialog, paths),
                Event::DialogUnavailable(dialog, why) => {
                    // From now on (and after a restart) the in-app dialog opens directly.
                    self.messages.push(format!("{why}: {}", self.tr().builtin_dialog_note));
                    self.settings.builtin_dialogs = true;
                    self.open_builtin_dialog(dialog);
                }
                Event::Failed(message) | Event::Info(message) => self.messages.push(message),
                Event::Findings(list) => {
                    self.selected_findings.retain(|id| list.iter().any(|f| f.id == *id));
                    self.findings = list;
                }
                Event::Watching(w) => {
                    if self.holder_draft == self.watching.holder {
                        self.holder_draft = w.holder.clone();
                    }
                    self.watching = *w;
                }
                Event::WatchRun(Some(summary)) => self.messages.push(summary),
                Event::WatchRun(None) => self.watch_running = false,
                Event::Discovered(Some(summary)) => {
                    self.messages.push(summary);
                    self.tab = Tab::Findings;
                }
                Event::Discovered(None) => self.discovery_running = false,
                Event::Notice(Ok(draft)) => self.notice = Some(draft),
                Event::ClusterProgress(done, total) => {
                    if let Some(running) = &mut self.duplicates.running {
                        (running.1, running.2) = (done, total);
                    }
                }
                Event::Clusters(found) => {
                    self.duplicates.running = None;
                    match found {
                        Ok(c) => self.duplicates.found = Some(c),
                        Err(e) => self.messages.push(e),
                    }
                }
                Event::Notice(Err(why)) => self.messages.push(why),
                Event::Fetching(url) => self.fetching = url,
                Event::JobFailed(message) => {
                    self.import = None;
                    self.messages.push(message);
                }
            }
        }
    }

    /// Paths chosen in a dialog (none if it was cancelled): act on them and remember where
    /// they came from.
    fn picked(&mut self, dialog: Dialog, paths: Vec<PathBuf>) {
        let Some(first) = paths.first() else { return };
        self.settings.remember_folder_of(first, dialog.picks_folders());
        match dialog {
            Dialog::ImportFiles | Dialog::ImportFolder => self.actions.push(Action::Import(paths)),
            Dialog::CheckFiles => self.actions.push(Action::Check(paths)),
            Dialog::SaveReport => self.actions.push(Action::ExportTo(paths[0].clone())),
            Dialog::ExportAll => self.actions.push(Action::ExportAll(paths[0].clone())),
            Dialog::SaveEvidence => {
                if let Some(id) = self.evidence_for.take() {
                    let tsa = Some(self.settings.tsa.trim().to_string()).filter(|t| !t.is_empty());
                    self.worker.export_evidence(id, paths[0].clone(), tsa);
                }
            }
            Dialog::SaveSummary => self.worker.export_summary(paths[0].clone()),
            Dialog::SaveClusters => self.export_duplicates(&paths[0]),
            Dialog::OpenRun => {
                self.tab = Tab::Checks;
                self.worker.open_run(paths[0].clone());
            }
            Dialog::ExportNotice => {
                if let Some(draft) = &self.notice {
                    self.worker.export_notice(draft.clone(), paths[0].clone());
                }
            }
        }
    }

    /// Opens the in-app file dialog (egui_file) for `dialog`, at the most recent folder.
    pub fn open_builtin_dialog(&mut self, dialog: Dialog) {
        let tr = self.tr();
        let mut d = match dialog {
            Dialog::ImportFolder | Dialog::ExportAll | Dialog::ExportNotice | Dialog::OpenRun => {
                egui_file::FileDialog::select_folder()
            }
            Dialog::SaveSummary => egui_file::FileDialog::save_file().default_filename("zhiwen-summary.html"),
            Dialog::SaveClusters => egui_file::FileDialog::save_file().default_filename("zhiwen-duplicates.csv"),
            Dialog::ImportFiles | Dialog::CheckFiles => egui_file::FileDialog::open_file().multi_select(true),
            Dialog::SaveReport => egui_file::FileDialog::save_file().default_filename("zhiwen-report.html"),
            Dialog::SaveEvidence => egui_file::FileDialog::save_file().default_filename("zhiwen-evidence.wacz"),
        }
        .title(match dialog {
            Dialog::ImportFiles => tr.import_files,
            Dialog::ImportFolder => tr.import_folder,
            Dialog::CheckFiles => tr.check_files,
            Dialog::SaveReport => tr.export_report,
            Dialog::ExportAll => tr.export_all,
            Dialog::SaveEvidence => tr.export_evidence,
            Dialog::SaveSummary => tr.export_summary,
            Dialog::SaveClusters => tr.export_duplicates,
            Dialog::ExportNotice => tr.export_notice,
            Dialog::OpenRun => tr.open_run,
        })
        .id(egui::Id::unique("zhiwen_file_dialog"));
        let start = self
            .settings
            .recent_folders
            .first()
            .cloned()
            .or_else(|| directories::UserDirs::new().map(|u| u.home_dir().to_path_buf()));
        if let Some(start) = start.filter(|s| s.is_dir()) {
            d = d.initial_path(start);
        }
        d.open();
        self.file_dialog = Some((dialog, d));
    }

    /// Draws the in-app file dialog, if open, and acts on its choice.
    fn show_builtin_dialog(&mut self, ctx: &egui::Context) {
        let Some((dialog, d)) = &mut self.file_dialog else { return };
        d.show(ctx);
        if d.selected() {
            let paths: Vec<PathBuf> = if d.has_multi_select() {
                d.selection().into_iter().map(|p| p.to_path_buf()).collect()
            } else {
                d.path().map(|p| p.to_path_buf()).into_iter().collect()
            };
            let dialog = *dialog;
            self.file_dialog = None;
            self.picked(dialog, paths);
        } else if !d.visible() {
            self.file_dialog = None;
        }
    }

    /// Applies one action. Public so tests can drive what a dialog would.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::OpenDialog(d) if self.settings.builtin_dialogs => self.open_builtin_dialog(d),
            Action::OpenDialog(d) => {
                self.worker.open_dialog(d, self.settings.recent_folders.first().cloned(), self.dialogs.clone())
            }
            Action::Import(paths) => {
                let cancel = Cancel::new();
                self.import =
                    Some(ImportJob { started: Instant::now(), cancel: cancel.clone(), progress: None, report: None });
                self.worker.import(paths, cancel);
            }
            Action::Check(paths) => {
                self.tab = Tab::Checks;
                self.checks_running += 1;
                self.worker.check(paths, self.settings.check.clone(), self.among);
            }
            Action::Remove(ids) => self.worker.remove(ids),
            Action::EditWork(id, edit) => self.worker.edit_works(WorksChange::Edit(id, edit)),
            Action::MergeWorks(from, into) => self.worker.edit_works(WorksChange::Merge(from, into)),
            Action::MoveDocuments(docs, to) => self.worker.edit_works(WorksChange::Move(docs, to)),
            Action::CancelJob => {
                if let Some(job) = &self.import {
                    job.cancel.cancel();
                }
            }
            Action::DismissImport => self.import = None,
            Action::SelectResult(i) => self.open_viewer(i, 0),
            Action::SelectSource(s) => {
                if let Some(v) = &self.viewer {
                    self.open_viewer(v.result, s);
                }
            }
            Action::SelectPassage(p) => self.select_passage(p),
            Action::NextPassage | Action::PreviousPassage => {
                if let Some(v) = &self.viewer {
                    let n = self.passage_count();
                    if n > 0 {
                        let p =
                            if action == Action::NextPassage { (v.passage + 1) % n } else { (v.passage + n - 1) % n };
                        self.select_passage(p);
                    }
                }
            }
            Action::CloseViewer => self.viewer = None,
            Action::ExportTo(path) => self.export(&path),
            Action::ExportAll(dir) => self.export_all(&dir),
            Action::CheckUrls(urls, follow) => {
                self.tab = Tab::Checks;
                self.checks_running += 1;
                let web = crate::engine::web::check::WebCheckOptions {
                    follow,
                    fetch: self.settings.fetch_options(),
                    ..Default::default()
                };
                self.web_cancel = Cancel::new();
                self.worker.check_urls(urls, web, self.settings.check.clone(), self.web_cancel.clone());
            }
            Action::OpenFinding(id) => {
                self.tab = Tab::Checks;
                self.worker.open_finding(id);
            }
            Action::ExportEvidence(id) => {
                self.evidence_for = Some(id);
                self.actions.push(Action::OpenDialog(Dialog::SaveEvidence));
            }
            Action::RemoveFinding(id) => self.worker.remove_finding(id),
            Action::ToggleSettings => {
                self.show_settings = !self.show_settings;
                self.draft = self.settings.clone();
                self.draft.fingerprint = self.corpus.params;
            }
            Action::ApplyFingerprint(params) => {
                let cancel = Cancel::new();
                self.import =
                    Some(ImportJob { started: Instant::now(), cancel: cancel.clone(), progress: None, report: None });
                self.worker.refingerprint(params, cancel);
            }
            Action::SetStore(path) => {
                self.worker = Worker::start(path.clone(), ctx.clone());
                self.db = path;
                self.corpus = CorpusSnapshot::default();
                self.selected_docs.clear();
            }
            Action::SetTab(t) => self.tab = t,
            Action::AddWatch(w) => self.worker.add_watch(w),
            Action::RemoveWatch(id) => self.worker.remove_watch(id),
            Action::RunWatches(ids) => self.run_watches(ids),
            Action::Discover(docs) => self.discover(docs),
            Action::AllowSite(pattern) => self.worker.allow_site(pattern),
            Action::RemoveAllowedSite(id) => self.worker.remove_allowed_site(id),
            Action::DraftNotice(ids, kind) => self.worker.draft_notice(ids, kind),
            Action::FindDuplicates => {
                if self.duplicates.running.is_none() {
                    let cancel = Cancel::new();
                    self.duplicates.running = Some((cancel.clone(), 0, 0));
                    self.duplicates.found_with = self.duplicates.opts.clone();
                    self.worker.clusters(self.duplicates.opts.clone(), cancel);
                }
            }
            Action::ClearResults => {
                self.results.clear();
                self.viewer = None;
                self.triage.work = None;
            }
            Action::CompareDocuments(doc, with) => {
                self.tab = Tab::Checks;
                self.worker.compare_documents(doc, with);
            }
        }
        ctx.request_repaint();
    }

    /// Writes the duplicate groups found, as JSON (a `.json` name) or CSV.
    fn export_duplicates(&mut self, path: &std::path::Path) {
        let Some(found) = &self.duplicates.found else { return };
        let docs = &self.corpus.docs;
        let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let text = if json {
            crate::report::clusters_json(found, &self.duplicates.found_with, docs)
        } else {
            crate::report::clusters_csv(found, docs)
        };
        match std::fs::write(path, text) {
            Ok(()) => self.messages.push(format!("{} {}", self.tr().exported, path.display())),
            Err(e) => self.messages.push(format!("{}: {e}", path.display())),
        }
    }

    /// Starts a discovery for the works of `docs` unless one is running.
    fn discover(&mut self, docs: Vec<u32>) {
        if self.discovery_running {
            return;
        }
        let searx = self.settings.search_url.trim().to_string();
        if searx.is_empty() {
            self.messages.push(self.tr().no_search_engine.to_string());
            self.show_settings = true;
            return;
        }
        self.discovery_running = true;
        self.web_cancel = Cancel::new();
        let opts = crate::engine::web::discover::DiscoverOptions {
            fetch: self.settings.fetch_options(),
            allow_private: self.settings.discover_private,
            ..Default::default()
        };
        let interval = std::time::Duration::try_from_secs_f64(self.settings.query_interval)
            .unwrap_or(std::time::Duration::from_secs(2));
        self.worker.discover(docs, searx, interval, opts, self.settings.check.clone(), self.web_cancel.clone());
    }

    /// Starts watch runs (`ids`, or those due when empty) unless some are running.
    fn run_watches(&mut self, ids: Vec<i64>) {
        if self.watch_running {
            return;
        }
        self.watch_running = true;
        self.watch_cancel = Cancel::new();
        let web =
            crate::engine::web::check::WebCheckOptions { fetch: self.settings.fetch_options(), ..Default::default() };
        self.worker.run_watches(ids, web, self.settings.check.clone(), self.watch_cancel.clone());
    }

    /// Once a minute while open: runs the watches that are due. Asks for a frame a minute
    /// only while there are watches, so an app without any stays idle.
    fn run_due_watches(&mut self, ctx: &egui::Context) {
        if self.watching.watches.is_empty() {
            return;
        }
        if Instant::now() >= self.next_due_check {
            self.next_due_check = Instant::now() + DUE_CHECK_EVERY;
            let now = crate::engine::time::now();
            if !self.watch_running && self.watching.watches.iter().any(|w| w.is_due(now)) {
                self.run_watches(Vec::new());
            }
        }
        ctx.request_repaint_after(self.next_due_check.saturating_duration_since(Instant::now()));
    }

    fn passage_count(&self) -> usize {
        self.viewer
            .as_ref()
            .map_or(0, |v| self.results[v.result].outcome.report.sources.get(v.source).map_or(0, |s| s.passages.len()))
    }

    fn open_viewer(&mut self, result: usize, source: usize) {
        let Some(r) = self.results.get(result) else { return };
        let o = &r.outcome;
        let text = o.text.clone().unwrap_or_default();
        let left = TextPane::new(&text);
        let (right, left_marks, right_marks) = match o.report.sources.get(source) {
            Some(s) => {
                let src = o.sources.iter().find(|(id, _)| *id == s.id).map_or("", |(_, t)| t.as_str());
                let right = TextPane::new(src);
                let (mut lm, mut rm) = (Vec::new(), Vec::new());
                for p in &s.passages {
                    let d = s.passage_marks(left.chars(), right.chars(), p);
                    lm.extend(d.suspect.iter().map(mark_span));
                    rm.extend(d.source.iter().map(mark_span));
                }
                // Passages may overlap on the source side: keep marks sorted and disjoint.
                for m in [&mut lm, &mut rm] {
                    m.sort_by_key(|s| (s.range.start, s.range.end));
                    m.dedup_by(|b, a| b.range.start < a.range.end);
                }
                (right, lm, rm)
            }
            None => (TextPane::new(""), Vec::new(), Vec::new()),
        };
        self.viewer = Some(Viewer {
            result,
            source,
            passage: 0,
            left,
            right,
            left_marks,
            right_marks,
            picture: None,
            show_picture: false,
        });
        self.select_passage(0);
    }

    fn select_passage(&mut self, p: usize) {
        let Some(v) = &mut self.viewer else { return };
        let Some(s) = self.results[v.result].outcome.report.sources.get(v.source) else { return };
        if let Some(passage) = s.passages.get(p) {
            v.passage = p;
            v.left.scroll_to(passage.suspect_start);
            v.right.scroll_to(passage.source_start);
        }
    }

    /// Writes the report of the result in the viewer (or the latest one), in the format
    /// the file name asks for: .html (default), .csv, .xml (PAN) or .json.
    fn export(&mut self, path: &std::path::Path) {
        let Some(i) = self.viewer.as_ref().map(|v| v.result).or(self.results.len().checked_sub(1)) else { return };
        let o = &self.results[i].outcome;
        let size =
            crate::report::CorpusSize { documents: self.corpus.stats.documents, windows: self.corpus.stats.windows };
        let reports = std::slice::from_ref(&o.report);
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let text = match ext.as_str() {
            "csv" => crate::report::csv(reports),
            "xml" => crate::report::pan_xml(&o.report),
            "json" => crate::report::json(&self.corpus.params, &self.settings.check, size, reports),
            _ => crate::report::html(&self.report_input(i, crate::report::now())),
        };
        match std::fs::write(path, text) {
            Ok(()) => self.messages.push(format!("{} {}", self.tr().exported, path.display())),
            Err(e) => self.messages.push(format!("{}: {e}", path.display())),
        }
    }

    /// What the HTML report of result `i` is made from.
    fn report_input(&self, i: usize, generated_at: i64) -> crate::report::ReportInput<'_> {
        let o = &self.results[i].outcome;
        crate::report::ReportInput {
            report: &o.report,
            suspect_text: o.text.as_deref().unwrap_or(""),
            source_texts: &o.sources,
            corpus: crate::report::CorpusSize {
                documents: self.corpus.stats.documents,
                windows: self.corpus.stats.windows,
            },
            params: self.corpus.params,
            check: self.settings.check.clone(),
            generated_at,
        }
    }

    /// Writes one HTML report per result and an index into `dir` (as `check --report DIR/`).
    fn export_all(&mut self, dir: &std::path::Path) {
        let reports: Vec<&crate::SuspectReport> = self.results.iter().map(|r| &r.outcome.report).collect();
        let now = crate::report::now();
        let html_of = |i: usize| Ok(crate::report::html(&self.report_input(i, now)));
        let message = match crate::report::write_html_folder(dir, &reports, html_of, now) {
            Ok(index) => format!("{} {}", self.tr().exported, index.display()),
            Err(e) => e.to_string(),
        };
        self.messages.push(message);
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let cmd = |k| KeyboardShortcut::new(Modifiers::COMMAND, k);
        let typing = ctx.egui_wants_keyboard_input();
        ctx.input_mut(|i| {
            if i.consume_shortcut(&cmd(Key::O)) {
                self.actions.push(Action::OpenDialog(Dialog::CheckFiles));
            }
            if i.consume_shortcut(&cmd(Key::I)) {
                self.actions.push(Action::OpenDialog(Dialog::ImportFolder));
            }
            if i.consume_shortcut(&cmd(Key::E)) {
                self.actions.push(Action::OpenDialog(Dialog::SaveReport));
            }
            if i.consume_shortcut(&cmd(Key::W)) {
                self.actions.push(Action::CloseViewer);
            }
            if i.consume_shortcut(&cmd(Key::Comma)) {
                self.actions.push(Action::ToggleSettings);
            }
            if i.consume_key(Modifiers::NONE, Key::F3) || (!typing && i.consume_key(Modifiers::NONE, Key::N)) {
                self.actions.push(Action::NextPassage);
            }
            if i.consume_key(Modifiers::SHIFT, Key::F3) || (!typing && i.consume_key(Modifiers::NONE, Key::P)) {
                self.actions.push(Action::PreviousPassage);
            }
        });
        // A link pasted anywhere outside a text field is checked, as a dropped one is.
        if !typing {
            let pasted: Vec<String> = ctx.input(|i| {
                i.events
                    .iter()
                    .filter_map(|e| if let egui::Event::Paste(t) = e { Some(t.clone()) } else { None })
                    .flat_map(|t| t.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                    .filter(|t| crate::engine::web::fetch::is_url(t))
                    .collect()
            });
            if !pasted.is_empty() {
                self.actions.push(Action::CheckUrls(pasted, self.follow_links));
            }
        }
        // Up and down (or J and K) walk the results in the order shown.
        if self.tab == Tab::Checks && !typing {
            let (down, up) = ctx.input_mut(|i| {
                (
                    i.consume_key(Modifiers::NONE, Key::ArrowDown) || i.consume_key(Modifiers::NONE, Key::J),
                    i.consume_key(Modifiers::NONE, Key::ArrowUp) || i.consume_key(Modifiers::NONE, Key::K),
                )
            });
            if (down || up)
                && let Some(next) = panels::checks::step(self, down)
            {
                self.actions.push(Action::SelectResult(next));
            }
        }
    }

    fn drops(&mut self, ctx: &egui::Context) {
        let (links, dropped): (Vec<PathBuf>, Vec<PathBuf>) = ctx
            .input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect::<Vec<_>>())
            .into_iter()
            .partition(|p| panels::drop_zone::dropped_link(p).is_some());
        if !links.is_empty() {
            // A link is a web suspect wherever it lands: a page is checked, never imported.
            let urls = links.iter().filter_map(|p| panels::drop_zone::dropped_link(p)).map(str::to_string).collect();
            self.actions.push(Action::CheckUrls(urls, self.follow_links));
        }
        let Some(first) = dropped.first() else { return };
        self.settings.remember_folder_of(first, first.is_dir());
        match panels::drop_zone::zone(self, ctx) {
            panels::drop_zone::DropZone::AddToCorpus if !self.busy() => self.actions.push(Action::Import(dropped)),
            // An import is running: say so rather than queue a second one.
            panels::drop_zone::DropZone::AddToCorpus => self.messages.push(self.tr().import_busy.to_string()),
            panels::drop_zone::DropZone::Check => self.actions.push(Action::Check(dropped)),
        }
    }
}

/// How a difference mark is drawn: substitutions underlined, edits on red.
fn mark_span(m: &Mark) -> Span {
    use crate::engine::check::diff::MarkKind;
    let range = m.start..m.end;
    match m.kind {
        MarkKind::Substitution => Span { range, background: egui::Color32::TRANSPARENT, underline: Some(SUBSTITUTION) },
        MarkKind::Edit => Span { range, background: EDIT, underline: None },
    }
}

/// Colours of the difference marks (the viewer's legend uses them too).
pub const SUBSTITUTION: egui::Color32 = egui::Color32::from_rgb(230, 120, 0);
pub const EDIT: egui::Color32 = egui::Color32::from_rgba_premultiplied(200, 30, 30, 200);

pub fn apply_theme(ctx: &egui::Context, theme: Theme) {
    ctx.set_theme(match theme {
        Theme::Light => egui::Theme::Light,
        Theme::Dark => egui::Theme::Dark,
    });
}

impl eframe::App for ZhiwenApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let dragging = ui.ctx().input(|i| !i.raw.hovered_files.is_empty() || !i.raw.dropped_files.is_empty());
        self.drop_pointer =
            if dragging { self.drag_pointer.position(frame, ui.ctx().pixels_per_point()) } else { None };
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, STORAGE_KEY, &self.settings);
    }
}

impl ZhiwenApp {
    /// One frame of the whole app. `eframe::App::ui` calls it; tests drive it directly.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.handle_events();
        self.run_due_watches(&ctx);
        self.shortcuts(&ctx);
        self.drops(&ctx);
        let title = if let Some(v) = &self.viewer {
            let path = &self.results[v.result].outcome.report.path;
            let name =
                std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
            format!("{name} — Zhiwen 指纹")
        } else {
            "Zhiwen 指纹".to_string()
        };
        // A viewport command wakes the next frame: sending the title every frame kept an
        // idle app repainting flat out.
        if self.window_title != title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }

        panels::top_bar::show(self, ui);
        panels::status_bar::show(self, ui);
        match self.tab {
            Tab::Corpus => panels::corpus::show(self, ui),
            Tab::Checks => panels::checks::show(self, ui),
            Tab::Findings => panels::findings::show(self, ui),
            Tab::Dashboard => panels::dashboard::show(self, ui),
            Tab::Duplicates => panels::duplicates::show(self, ui),
        }
        panels::import_dialog::show(self, &ctx);
        panels::notice_window::show(self, &ctx);
        panels::settings_window::show(self, &ctx);
        panels::drop_zone::show(self, &ctx);
        self.show_builtin_dialog(&ctx);

        for action in std::mem::take(&mut self.actions) {
            self.apply(&ctx, action);
        }
        if self.busy() || self.checks_running > 0 || self.duplicates.running.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
    }
}
