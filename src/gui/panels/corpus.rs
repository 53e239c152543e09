//! The corpus view: the stored works as a tree (work ▸ chapters in order) in a sortable,
//! searchable table that lays out only the visible rows (100,000 documents scroll smoothly);
//! a work's fields edited and works regrouped through the same engine calls as
//! `zhiwen works set|merge|move`; removal asked for again before anything is deleted.

use super::thousands;
use crate::engine::store::works::{MoveTarget, Work, WorkEdit};
use crate::gui::app::{Action, ZhiwenApp};
use crate::gui::i18n::Tr;
use eframe::egui;
use egui_extras::{Column, TableBuilder};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    Title,
    Path,
    Chars,
    Windows,
    Imported,
}

/// What the corpus tree remembers between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TreeState {
    /// Works folded to their row (all are open at first).
    pub collapsed: HashSet<u32>,
    /// The work whose fields are being edited.
    pub editing: Option<WorkEditor>,
    /// Documents the user asked to remove, until they confirm or cancel.
    pub confirm_remove: Option<Vec<u32>>,
    /// Where "Move to" puts the selected chapters (`None`: a new work).
    pub move_to: Option<u32>,
    /// The work "Merge into" moves the edited work's chapters to.
    pub merge_into: Option<u32>,
}

/// A work's fields as typed (authors comma-separated).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkEditor {
    pub id: u32,
    pub title: String,
    pub authors: String,
    pub language: String,
    pub holder: String,
}

impl WorkEditor {
    fn of(work: &Work) -> WorkEditor {
        WorkEditor {
            id: work.id,
            title: work.title.clone(),
            authors: work.authors.join(", "),
            language: work.language.clone(),
            holder: work.holder.clone(),
        }
    }

    /// The edit to send: every field as typed (empty authors dropped).
    pub fn edit(&self) -> WorkEdit {
        WorkEdit {
            title: Some(self.title.trim().to_string()),
            authors: Some(
                self.authors
                    .split([',', '，', '、', ';'])
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
            language: Some(self.language.trim().to_string()),
            holder: Some(self.holder.trim().to_string()),
        }
    }
}

/// One line of the tree: a work, or a document (under its work, or alone when it has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Work(usize),
    Document(usize),
}

/// A work as the tree shows it: `《title》 authors`.
pub fn work_label(w: &Work) -> String {
    super::work_name(&w.title, &w.authors)
}

/// The tree's rows: works in the chosen order, each followed by its matching chapters in
/// chapter order unless folded (a search opens every work it matches inside); documents
/// that belong to no work last.
pub fn rows(app: &ZhiwenApp) -> Vec<Row> {
    let docs = &app.corpus.docs;
    let works = &app.corpus.works;
    let at: HashMap<u32, usize> = docs.iter().enumerate().map(|(i, d)| (d.id, i)).collect();
    let needle = app.search.to_lowercase();
    let doc_matches = |i: usize| {
        needle.is_empty()
            || docs[i].title.to_lowercase().contains(&needle)
            || docs[i].path.to_lowercase().contains(&needle)
    };
    let (by, ascending) = app.sort;
    let total =
        |w: &Work, f: &dyn Fn(usize) -> u64| w.documents.iter().filter_map(|d| at.get(d)).map(|&i| f(i)).sum::<u64>();
    let newest = |w: &Work| w.documents.iter().filter_map(|d| at.get(d)).map(|&i| docs[i].imported_at).max();
    let first_path = |w: &Work| w.documents.iter().filter_map(|d| at.get(d)).map(|&i| docs[i].path.clone()).next();
    let mut order: Vec<usize> = (0..works.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&works[a], &works[b]);
        let o = match by {
            SortBy::Title => crate::engine::store::works::natural_cmp(&a.title, &b.title),
            SortBy::Path => first_path(a).cmp(&first_path(b)),
            SortBy::Chars => total(a, &|i| docs[i].chars).cmp(&total(b, &|i| docs[i].chars)),
            SortBy::Windows => total(a, &|i| docs[i].windows).cmp(&total(b, &|i| docs[i].windows)),
            SortBy::Imported => newest(a).cmp(&newest(b)).then(a.id.cmp(&b.id)),
        };
        if ascending { o } else { o.reverse() }
    });
    let mut out = Vec::new();
    let mut placed = HashSet::new();
    for wi in order {
        let w = &works[wi];
        let work_matches = needle.is_empty()
            || w.title.to_lowercase().contains(&needle)
            || w.authors.iter().any(|a| a.to_lowercase().contains(&needle));
        let chapters: Vec<usize> =
            w.documents.iter().filter_map(|d| at.get(d).copied()).filter(|&i| work_matches || doc_matches(i)).collect();
        placed.extend(w.documents.iter().copied());
        if chapters.is_empty() && !work_matches {
            continue;
        }
        out.push(Row::Work(wi));
        if !needle.is_empty() || !app.corpus_tree.collapsed.contains(&w.id) {
            out.extend(chapters.into_iter().map(Row::Document));
        }
    }
    out.extend((0..docs.len()).filter(|&i| !placed.contains(&docs[i].id) && doc_matches(i)).map(Row::Document));
    out
}

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::CentralPanel::default().show(ui, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label(tr.find);
            ui.add(egui::TextEdit::singleline(&mut app.search).hint_text(tr.search).desired_width(320.0))
                .labelled_by(label.id)
                .on_hover_text(tr.search);
            let n = app.selected_docs.len();
            if ui.add_enabled(n > 0, egui::Button::new(format!("{} ({n})", tr.remove_selected))).clicked() {
                app.corpus_tree.confirm_remove = Some(app.selected_docs.iter().copied().collect());
            }
            let idle = !app.discovery_running;
            if ui
                .add_enabled(n > 0 && idle, egui::Button::new(tr.find_copies))
                .on_hover_text(tr.find_copies_tip)
                .clicked()
            {
                app.actions.push(Action::Discover(app.selected_docs.iter().copied().collect()));
            }
            if n > 0 && !app.corpus.works.is_empty() {
                ui.separator();
                move_chapters(app, ui, tr);
            }
        });
        if app.corpus_tree.editing.is_some() {
            ui.separator();
            work_editor(app, ui, tr);
        }
        ui.separator();
        if app.corpus.docs.is_empty() {
            ui.add_space(40.0);
            ui.vertical_centered(|ui| ui.label(egui::RichText::new(tr.empty_corpus).size(16.0)));
            return;
        }
        table(app, ui, tr);
    });
    confirm_removal(app, ui.ctx(), tr);
}

fn table(app: &mut ZhiwenApp, ui: &mut egui::Ui, tr: &'static Tr) {
    let rows = rows(app);
    let docs = app.corpus.docs.clone();
    let works = app.corpus.works.clone();
    let at: HashMap<u32, usize> = docs.iter().enumerate().map(|(i, d)| (d.id, i)).collect();
    let header = |ui: &mut egui::Ui, app: &mut ZhiwenApp, label: &str, col: SortBy| {
        if super::sort_button(ui, label, (app.sort.0 == col).then_some(app.sort.1), true) {
            app.sort = (col, if app.sort.0 == col { !app.sort.1 } else { true });
        }
    };
    // Rows are clicked as a whole; selectable labels would take the click.
    ui.style_mut().interaction.selectable_labels = false;
    TableBuilder::new(ui)
        .striped(true)
        .resizable(true)
        .sense(egui::Sense::click())
        .column(Column::initial(360.0).at_least(120.0).clip(true))
        .column(Column::remainder().at_least(160.0).clip(true))
        .column(Column::initial(90.0))
        .column(Column::initial(80.0))
        .column(Column::initial(150.0))
        .header(24.0, |mut h| {
            h.col(|ui| header(ui, app, tr.title, SortBy::Title));
            h.col(|ui| header(ui, app, tr.path, SortBy::Path));
            h.col(|ui| header(ui, app, tr.characters, SortBy::Chars));
            h.col(|ui| header(ui, app, tr.windows, SortBy::Windows));
            h.col(|ui| header(ui, app, tr.imported, SortBy::Imported));
        })
        .body(|body| {
            body.rows(22.0, rows.len(), |mut row| match rows[row.index()] {
                Row::Work(wi) => {
                    let w = &works[wi];
                    let chapters: Vec<usize> = w.documents.iter().filter_map(|d| at.get(d).copied()).collect();
                    let sum = |f: &dyn Fn(usize) -> u64| chapters.iter().map(|&i| f(i)).sum::<u64>();
                    let editing = app.corpus_tree.editing.as_ref().is_some_and(|e| e.id == w.id);
                    row.set_selected(editing);
                    row.col(|ui| {
                        ui.horizontal(|ui| {
                            let open = !app.corpus_tree.collapsed.contains(&w.id);
                            let arrow = if open { "▼" } else { "▶" };
                            if ui.add(egui::Button::new(arrow).frame(false)).on_hover_text(tr.fold_work).clicked()
                                && !app.corpus_tree.collapsed.remove(&w.id)
                            {
                                app.corpus_tree.collapsed.insert(w.id);
                            }
                            ui.label(egui::RichText::new(work_label(w)).strong());
                        });
                    });
                    row.col(|ui| {
                        let unit = if chapters.len() == 1 { tr.chapter } else { tr.chapters };
                        let mut about = format!("{} {unit}", chapters.len());
                        if !w.language.is_empty() {
                            about.push_str(&format!(" · {}", w.language));
                        }
                        if !w.holder.is_empty() {
                            about.push_str(&format!(" · © {}", w.holder));
                        }
                        ui.label(egui::RichText::new(about).weak());
                    });
                    row.col(|ui| {
                        ui.label(thousands(sum(&|i| docs[i].chars)));
                    });
                    row.col(|ui| {
                        ui.label(thousands(sum(&|i| docs[i].windows)));
                    });
                    row.col(|ui| {
                        if let Some(t) = chapters.iter().map(|&i| docs[i].imported_at).max() {
                            ui.label(crate::report::format_utc(t));
                        }
                    });
                    // Clicking a work opens its fields for editing (and selects no chapter).
                    if row.response().clicked() {
                        app.selected_docs.clear();
                        app.corpus_tree.editing = (!editing).then(|| WorkEditor::of(w));
                        app.corpus_tree.merge_into = None;
                    }
                }
                Row::Document(i) => {
                    let d = &docs[i];
                    row.set_selected(app.selected_docs.contains(&d.id));
                    row.col(|ui| {
                        ui.horizontal(|ui| {
                            ui.add_space(22.0);
                            ui.label(&d.title);
                        });
                    });
                    row.col(|ui| {
                        ui.label(egui::RichText::new(&d.path).weak());
                    });
                    row.col(|ui| {
                        ui.label(thousands(d.chars));
                    });
                    row.col(|ui| {
                        ui.label(thousands(d.windows));
                    });
                    row.col(|ui| {
                        ui.label(crate::report::format_utc(d.imported_at));
                    });
                    if row.response().clicked() {
                        let ctrl = row.response().ctx.input(|i| i.modifiers.command);
                        if !ctrl {
                            app.selected_docs.clear();
                        }
                        if !app.selected_docs.remove(&d.id) || !ctrl {
                            app.selected_docs.insert(d.id);
                        }
                    }
                }
            });
        });
}

/// The edited work's fields, Save, and Merge into another work.
fn work_editor(app: &mut ZhiwenApp, ui: &mut egui::Ui, tr: &'static Tr) {
    let works = app.corpus.works.clone();
    let Some(ed) = app.corpus_tree.editing.as_mut() else { return };
    if !works.iter().any(|w| w.id == ed.id) {
        app.corpus_tree.editing = None;
        return;
    }
    let mut save = false;
    let mut close = false;
    ui.horizontal_wrapped(|ui| {
        for (label, field, width, tip) in [
            (tr.work_title, &mut ed.title, 200.0, tr.work_title_tip),
            (tr.work_authors, &mut ed.authors, 140.0, tr.work_authors_tip),
            (tr.work_language, &mut ed.language, 40.0, tr.work_language_tip),
            (tr.work_holder, &mut ed.holder, 140.0, tr.work_holder_tip),
        ] {
            let l = ui.label(label).on_hover_text(tip);
            ui.add(egui::TextEdit::singleline(field).desired_width(width)).labelled_by(l.id).on_hover_text(tip);
        }
        save = ui.button(tr.save_work).clicked();
        close = ui.button(tr.close).clicked();
    });
    let id = ed.id;
    let edit = ed.edit();
    ui.horizontal(|ui| {
        let others: Vec<&Work> = works.iter().filter(|w| w.id != id).collect();
        let chosen = app.corpus_tree.merge_into.and_then(|m| others.iter().find(|w| w.id == m));
        let label = ui.label(tr.merge_into).on_hover_text(tr.merge_into_tip);
        egui::ComboBox::from_id_salt("merge-into")
            .selected_text(chosen.map_or(String::from("—"), |w| work_label(w)))
            .show_ui(ui, |ui| {
                for w in &others {
                    ui.selectable_value(&mut app.corpus_tree.merge_into, Some(w.id), work_label(w));
                }
            })
            .response
            .labelled_by(label.id);
        if ui.add_enabled(chosen.is_some(), egui::Button::new(tr.merge)).clicked()
            && let Some(into) = app.corpus_tree.merge_into
        {
            app.actions.push(Action::MergeWorks(id, into));
            app.corpus_tree.editing = None;
            app.corpus_tree.merge_into = None;
        }
    });
    if save {
        if edit.title.as_deref().is_some_and(str::is_empty) {
            app.messages.push(tr.work_needs_title.to_string());
        } else {
            app.actions.push(Action::EditWork(id, edit));
        }
    }
    if close {
        app.corpus_tree.editing = None;
    }
}

/// "Move to [work] [Move]" for the selected chapters (a new work named after the first).
fn move_chapters(app: &mut ZhiwenApp, ui: &mut egui::Ui, tr: &'static Tr) {
    let works = app.corpus.works.clone();
    let label = ui.label(tr.move_to).on_hover_text(tr.move_to_tip);
    let chosen = app.corpus_tree.move_to.and_then(|m| works.iter().find(|w| w.id == m));
    egui::ComboBox::from_id_salt("move-to")
        .selected_text(chosen.map_or(tr.new_work.to_string(), work_label))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut app.corpus_tree.move_to, None, tr.new_work);
            for w in works.iter() {
                ui.selectable_value(&mut app.corpus_tree.move_to, Some(w.id), work_label(w));
            }
        })
        .response
        .labelled_by(label.id);
    if ui.button(tr.move_chapters).clicked() {
        let mut ids: Vec<u32> = app.selected_docs.iter().copied().collect();
        ids.sort_unstable();
        let target = match app.corpus_tree.move_to {
            Some(w) => MoveTarget::Work(w),
            None => {
                let first = app.corpus.docs.iter().find(|d| d.id == ids[0]).map_or(String::new(), |d| d.title.clone());
                MoveTarget::NewWork(first)
            }
        };
        app.actions.push(Action::MoveDocuments(ids, target));
    }
}

/// Asks before documents are removed: their fingerprints go, and only an import brings them back.
fn confirm_removal(app: &mut ZhiwenApp, ctx: &egui::Context, tr: &'static Tr) {
    let Some(ids) = app.corpus_tree.confirm_remove.clone() else { return };
    let titles: Vec<String> =
        app.corpus.docs.iter().filter(|d| ids.contains(&d.id)).take(5).map(|d| d.title.clone()).collect();
    let mut decided = None;
    egui::Window::new(tr.confirm_remove_title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!("{} {}", ids.len(), tr.confirm_remove_text));
            for t in &titles {
                ui.label(egui::RichText::new(format!("· {t}")).weak());
            }
            if ids.len() > titles.len() {
                ui.label(egui::RichText::new(format!("… +{}", ids.len() - titles.len())).weak());
            }
            ui.horizontal(|ui| {
                if ui.button(tr.remove).clicked() {
                    decided = Some(true);
                }
                if ui.button(tr.cancel).clicked() {
                    decided = Some(false);
                }
            });
        });
    match decided {
        Some(true) => {
            app.actions.push(Action::Remove(ids));
            app.selected_docs.clear();
            app.corpus_tree.confirm_remove = None;
        }
        Some(false) => app.corpus_tree.confirm_remove = None,
        None => {}
    }
}
