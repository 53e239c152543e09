//! The corpus view: every stored document in a sortable, searchable table that lays out
//! only the visible rows (100,000 documents scroll smoothly), with removal and totals.

use super::thousands;
use crate::gui::app::{Action, ZhiwenApp};
use eframe::egui;
use egui_extras::{Column, TableBuilder};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    Title,
    Path,
    Chars,
    Windows,
    Imported,
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
                app.actions.push(Action::Remove(app.selected_docs.iter().copied().collect()));
                app.selected_docs.clear();
            }
            let idle = !app.discovery_running;
            if ui
                .add_enabled(n > 0 && idle, egui::Button::new(tr.find_copies))
                .on_hover_text(tr.find_copies_tip)
                .clicked()
            {
                app.actions.push(Action::Discover(app.selected_docs.iter().copied().collect()));
            }
        });
        ui.separator();
        if app.corpus.docs.is_empty() {
            ui.add_space(40.0);
            ui.vertical_centered(|ui| ui.label(egui::RichText::new(tr.empty_corpus).size(16.0)));
            return;
        }
        let needle = app.search.to_lowercase();
        let docs = app.corpus.docs.clone();
        let mut rows: Vec<usize> = (0..docs.len())
            .filter(|&i| {
                needle.is_empty()
                    || docs[i].title.to_lowercase().contains(&needle)
                    || docs[i].path.to_lowercase().contains(&needle)
            })
            .collect();
        let (by, ascending) = app.sort;
        rows.sort_by(|&a, &b| {
            let (a, b) = (&docs[a], &docs[b]);
            let o = match by {
                SortBy::Title => a.title.cmp(&b.title),
                SortBy::Path => a.path.cmp(&b.path),
                SortBy::Chars => a.chars.cmp(&b.chars),
                SortBy::Windows => a.windows.cmp(&b.windows),
                SortBy::Imported => a.imported_at.cmp(&b.imported_at).then(a.id.cmp(&b.id)),
            };
            if ascending { o } else { o.reverse() }
        });
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
            .column(Column::initial(320.0).at_least(120.0).clip(true))
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
                body.rows(22.0, rows.len(), |mut row| {
                    let d = &docs[rows[row.index()]];
                    row.set_selected(app.selected_docs.contains(&d.id));
                    row.col(|ui| {
                        ui.label(&d.title);
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
                });
            });
    });
}
