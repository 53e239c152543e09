//! The checks view: triage of the results on the left (a summary of the batch, sortable
//! columns, filters, and the same results grouped by the corpus work they copy), the
//! side-by-side viewer of the selected result in the middle.

use super::{source_label, viewer};
use crate::gui::app::{Action, ZhiwenApp};
use crate::gui::jobs::Dialog;
use eframe::egui;
use egui_extras::{Column, TableBuilder};
use std::collections::BTreeMap;

/// Columns the results list sorts by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultSort {
    /// Arrival order.
    #[default]
    Arrival,
    Suspect,
    Similarity,
    TopSource,
    Passages,
    /// Suspects that could not be checked first.
    Errors,
}

/// How the results are shown: what the user sorted and filtered by.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Triage {
    pub sort: ResultSort,
    pub descending: bool,
    pub copies_only: bool,
    /// Percent; results below it are hidden (errors are shown unless `copies_only`).
    pub min_similarity: f64,
    /// Matches the suspect's path or a source's title or path, case-insensitive.
    pub search: String,
    /// Show the works-by-suspects table instead of the suspects.
    pub by_work: bool,
    /// Only suspects that copy this work.
    pub work: Option<WorkKey>,
}

/// What *By work* groups by: a work of the corpus, or a document that belongs to none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WorkKey {
    Work(u32),
    Document(u32),
}

impl WorkKey {
    pub fn of(s: &crate::engine::check::SourceMatch) -> WorkKey {
        s.work.as_ref().map_or(WorkKey::Document(s.id), |w| WorkKey::Work(w.id))
    }
}

/// A work (`《title》 authors`), or a source without one by its title.
fn source_work_name(s: &crate::engine::check::SourceMatch) -> String {
    s.work.as_ref().map_or_else(|| s.title.clone(), |w| super::work_name(&w.title, &w.authors))
}

/// One corpus work and the suspects of this batch that copy it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkRow {
    pub key: WorkKey,
    /// `《西游记》 吴承恩`.
    pub title: String,
    /// The chapters copied, by their titles.
    pub chapters: Vec<String>,
    pub suspects: usize,
    /// Highest similarity of a suspect to this work.
    pub best: f64,
    pub passages: usize,
}

fn passages(r: &crate::SuspectReport) -> usize {
    r.sources.iter().map(|s| s.passages.len()).sum()
}

/// Indices of the results to show, filtered and in the chosen order.
pub fn visible(app: &ZhiwenApp) -> Vec<usize> {
    let t = &app.triage;
    let needle = t.search.to_lowercase();
    let mut out: Vec<usize> = (0..app.results.len())
        .filter(|&i| {
            let r = &app.results[i].outcome.report;
            let copies = !r.sources.is_empty();
            (!t.copies_only || copies)
                && (r.error.is_some() || r.similarity * 100.0 >= t.min_similarity)
                && t.work.is_none_or(|w| r.sources.iter().any(|s| WorkKey::of(s) == w))
                && (needle.is_empty()
                    || r.path.to_lowercase().contains(&needle)
                    || r.sources
                        .iter()
                        .any(|s| s.title.to_lowercase().contains(&needle) || s.path.to_lowercase().contains(&needle)))
        })
        .collect();
    let report = |i: usize| &app.results[i].outcome.report;
    let top_title = |i: usize| report(i).sources.first().map_or(String::new(), |s| s.name());
    let names = suspect_names(app);
    match t.sort {
        ResultSort::Arrival => {}
        ResultSort::Suspect => out.sort_by_cached_key(|&i| names[i].clone()),
        ResultSort::Similarity => out.sort_by(|&a, &b| report(a).similarity.total_cmp(&report(b).similarity)),
        ResultSort::TopSource => out.sort_by_cached_key(|&i| top_title(i)),
        ResultSort::Passages => out.sort_by_key(|&i| passages(report(i))),
        ResultSort::Errors => out.sort_by_key(|&i| report(i).error.is_none()),
    }
    if t.descending {
        out.reverse();
    }
    out
}

/// The works of the corpus copied by this batch (chapters of one book are one row), most
/// copied first.
pub fn works(app: &ZhiwenApp) -> Vec<WorkRow> {
    let mut by_key: BTreeMap<WorkKey, WorkRow> = BTreeMap::new();
    for r in &app.results {
        let mut counted = std::collections::HashSet::new();
        for s in &r.outcome.report.sources {
            let key = WorkKey::of(s);
            let w = by_key.entry(key).or_insert_with(|| WorkRow {
                key,
                title: source_work_name(s),
                chapters: Vec::new(),
                suspects: 0,
                best: 0.0,
                passages: 0,
            });
            // A suspect copying three chapters of one book counts once for the book.
            if counted.insert(key) {
                w.suspects += 1;
            }
            if !w.chapters.contains(&s.title) {
                w.chapters.push(s.title.clone());
            }
            w.best = w.best.max(s.similarity);
            w.passages += s.passages.len();
        }
    }
    let mut out: Vec<WorkRow> = by_key.into_values().collect();
    out.sort_by(|a, b| b.suspects.cmp(&a.suspects).then(b.best.total_cmp(&a.best)).then(a.key.cmp(&b.key)));
    out
}

/// How the results list names each suspect: its file name, or, where file names repeat in
/// the batch (five `000.txt`), as many of the last folders as tell them apart.
pub fn suspect_names(app: &ZhiwenApp) -> Vec<String> {
    let paths: Vec<&str> = app.results.iter().map(|r| r.outcome.report.path.as_str()).collect();
    super::distinct_names(&paths)
}

/// The batch in one line: how many suspects, how many copy, errors, works copied.
pub fn summary(app: &ZhiwenApp, shown: usize) -> String {
    let tr = app.tr();
    let n = app.results.len();
    let copies = app.results.iter().filter(|r| !r.outcome.report.sources.is_empty()).count();
    let errors = app.results.iter().filter(|r| r.outcome.report.error.is_some()).count();
    let best = app.results.iter().map(|r| r.outcome.report.similarity).fold(0.0f64, f64::max);
    format!(
        "{} {n} · {} {copies} · {} {errors} · {} {} · {} {:.1}% · {} {shown}",
        tr.suspects_count,
        tr.with_copies,
        tr.errors,
        tr.works_copied,
        app.results
            .iter()
            .flat_map(|r| r.outcome.report.sources.iter().map(WorkKey::of))
            .collect::<std::collections::HashSet<WorkKey>>()
            .len(),
        tr.best,
        best * 100.0,
        tr.shown
    )
}

/// The next (or previous) result in the shown order after the one in the viewer.
pub fn step(app: &ZhiwenApp, forward: bool) -> Option<usize> {
    let shown = visible(app);
    let current = app.viewer.as_ref().and_then(|v| shown.iter().position(|&i| i == v.result));
    match (current, forward) {
        (None, _) => shown.first().copied(),
        (Some(p), true) => shown.get(p + 1).copied(),
        (Some(p), false) => p.checked_sub(1).map(|p| shown[p]),
    }
}

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::Panel::left("results").resizable(true).default_size(520.0).show(ui, |ui| {
        ui.add_space(4.0);
        ui.label(egui::RichText::new(tr.drop_hint).weak());
        ui.checkbox(&mut app.among, tr.among);
        // A web page (or, with Follow links, a contents page) to check; Enter checks.
        ui.horizontal(|ui| {
            let label = ui.label(tr.web_address);
            let field = ui
                .add(egui::TextEdit::singleline(&mut app.url_input).hint_text("https://").desired_width(220.0))
                .labelled_by(label.id);
            ui.checkbox(&mut app.follow_links, tr.follow_links);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let urls: Vec<String> = app.url_input.split_whitespace().map(str::to_string).collect();
            if (ui.add_enabled(!urls.is_empty(), egui::Button::new(tr.check_url)).clicked() || enter)
                && !urls.is_empty()
            {
                app.actions.push(Action::CheckUrls(urls, app.follow_links));
            }
        });
        ui.separator();
        if app.results.is_empty() {
            ui.label(tr.no_results);
            return;
        }
        let shown = visible(app);
        ui.label(egui::RichText::new(summary(app, shown.len())).strong());
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut app.triage.by_work, false, tr.by_suspect);
            ui.selectable_value(&mut app.triage.by_work, true, tr.by_work);
            ui.separator();
            if ui.button(tr.export_all).clicked() {
                app.actions.push(Action::OpenDialog(Dialog::ExportAll));
            }
            if ui.button(tr.clear_results).on_hover_text(tr.clear_results_tip).clicked() {
                app.actions.push(Action::ClearResults);
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut app.triage.copies_only, tr.copies_only);
            let label = ui.label(tr.min_similarity);
            ui.add(egui::DragValue::new(&mut app.triage.min_similarity).range(0.0..=100.0).suffix("%"))
                .labelled_by(label.id);
            let label = ui.label(tr.filter_label);
            ui.add(
                egui::TextEdit::singleline(&mut app.triage.search).hint_text(tr.filter_results).desired_width(160.0),
            )
            .labelled_by(label.id);
        });
        if let Some(w) = app.triage.work {
            let title = app
                .results
                .iter()
                .flat_map(|r| &r.outcome.report.sources)
                .find(|s| WorkKey::of(s) == w)
                .map_or(String::new(), source_work_name);
            ui.horizontal(|ui| {
                ui.label(format!("{}: {title}", tr.work));
                if ui.small_button(tr.all_suspects).clicked() {
                    app.triage.work = None;
                }
            });
        }
        ui.label(egui::RichText::new(tr.keyboard_hint).weak().small());
        ui.separator();
        if app.triage.by_work {
            works_table(app, ui);
        } else {
            results_table(app, ui, &shown);
        }
    });
    egui::CentralPanel::default().show(ui, |ui| viewer::show(app, ui));
}

/// A header cell that sorts by `by`; a second click reverses the order.
fn sort_header(ui: &mut egui::Ui, app: &mut ZhiwenApp, label: &str, by: ResultSort) {
    let t = &mut app.triage;
    if super::sort_button(ui, label, (t.sort == by).then_some(!t.descending), false) {
        if t.sort == by {
            t.descending = !t.descending;
        } else {
            t.sort = by;
            // Most similar, most passages and errors first; names A to Z.
            t.descending = matches!(by, ResultSort::Similarity | ResultSort::Passages);
        }
    }
}

fn results_table(app: &mut ZhiwenApp, ui: &mut egui::Ui, shown: &[usize]) {
    let tr = app.tr();
    let selected = app.viewer.as_ref().map(|v| v.result);
    let names = suspect_names(app);
    // Rows are clicked as a whole; selectable labels would take the click.
    ui.style_mut().interaction.selectable_labels = false;
    let mut table = TableBuilder::new(ui)
        .striped(true)
        .sense(egui::Sense::click())
        .column(Column::initial(150.0).clip(true))
        .column(Column::initial(72.0))
        .column(Column::initial(150.0).clip(true))
        .column(Column::initial(64.0))
        .column(Column::remainder().at_least(50.0).clip(true));
    if let Some(row) = selected.and_then(|s| shown.iter().position(|&i| i == s)) {
        table = table.scroll_to_row(row, None);
    }
    let mut clicked = None;
    table
        .header(22.0, |mut h| {
            h.col(|ui| sort_header(ui, app, tr.suspect, ResultSort::Suspect));
            h.col(|ui| sort_header(ui, app, tr.similarity, ResultSort::Similarity));
            h.col(|ui| sort_header(ui, app, tr.top_source, ResultSort::TopSource));
            h.col(|ui| sort_header(ui, app, tr.passages, ResultSort::Passages));
            h.col(|ui| sort_header(ui, app, tr.status, ResultSort::Errors));
        })
        .body(|body| {
            body.rows(26.0, shown.len(), |mut row| {
                let i = shown[row.index()];
                let r = &app.results[i].outcome.report;
                row.set_selected(selected == Some(i));
                row.col(|ui| {
                    ui.label(&names[i]).on_hover_text(&r.path);
                });
                row.col(|ui| {
                    if r.error.is_none() {
                        ui.label(egui::RichText::new(format!("{:.1}%", r.similarity * 100.0)).strong());
                    }
                });
                row.col(|ui| match (r.sources.first(), &r.error) {
                    (_, Some(e)) => {
                        ui.colored_label(ui.visuals().error_fg_color, e).on_hover_text(e);
                    }
                    (Some(s), None) => {
                        ui.label(source_label(tr, s)).on_hover_text(&s.path);
                    }
                    (None, None) => {
                        ui.label(egui::RichText::new(tr.no_source).weak());
                    }
                });
                row.col(|ui| {
                    if r.error.is_none() {
                        ui.label(passages(r).to_string());
                    }
                });
                row.col(|ui| {
                    if r.error.is_some() {
                        ui.colored_label(ui.visuals().error_fg_color, tr.error_status);
                    } else if r.sources.iter().any(|s| s.kind == crate::CopyKind::Text) {
                        ui.label(tr.copied_status);
                    } else if r.sources.iter().any(|s| s.kind == crate::CopyKind::Translation) {
                        ui.label(tr.translated_status);
                    } else if !r.sources.is_empty() {
                        // A free adaptation is never called a copy.
                        ui.label(tr.adaptation);
                    }
                });
                if row.response().clicked() {
                    clicked = Some(i);
                }
            });
        });
    if let Some(i) = clicked {
        app.actions.push(Action::SelectResult(i));
    }
}

fn works_table(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    let rows = works(app);
    ui.style_mut().interaction.selectable_labels = false;
    let mut clicked = None;
    TableBuilder::new(ui)
        .striped(true)
        .sense(egui::Sense::click())
        .column(Column::initial(200.0).clip(true))
        .column(Column::initial(80.0))
        .column(Column::initial(70.0))
        .column(Column::remainder())
        .header(22.0, |mut h| {
            for label in [tr.work, tr.suspects_count, tr.best, tr.passages] {
                h.col(|ui| {
                    ui.strong(label);
                });
            }
        })
        .body(|body| {
            body.rows(26.0, rows.len(), |mut row| {
                let w = &rows[row.index()];
                row.set_selected(app.triage.work == Some(w.key));
                row.col(|ui| {
                    ui.label(&w.title).on_hover_text(w.chapters.join("\n"));
                });
                row.col(|ui| {
                    ui.label(w.suspects.to_string());
                });
                row.col(|ui| {
                    ui.label(format!("{:.1}%", w.best * 100.0));
                });
                row.col(|ui| {
                    ui.label(w.passages.to_string());
                });
                if row.response().clicked() {
                    clicked = Some(w.key);
                }
            });
        });
    // Clicking a work lists the suspects that copy it.
    if let Some(id) = clicked {
        app.triage.work = Some(id);
        app.triage.by_work = false;
    }
}
