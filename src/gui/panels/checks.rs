//! The checks view: results as they arrive on the left, the side-by-side viewer of the
//! selected result in the middle.

use super::{file_name, viewer};
use crate::gui::app::{Action, ZhiwenApp};
use eframe::egui;
use egui_extras::{Column, TableBuilder};

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::Panel::left("results").resizable(true).default_size(380.0).show(ui, |ui| {
        ui.add_space(4.0);
        ui.label(egui::RichText::new(tr.drop_hint).weak());
        ui.separator();
        if app.results.is_empty() {
            ui.label(tr.no_results);
            return;
        }
        let selected = app.viewer.as_ref().map(|v| v.result);
        // Rows are clicked as a whole; selectable labels would take the click.
        ui.style_mut().interaction.selectable_labels = false;
        TableBuilder::new(ui)
            .striped(true)
            .sense(egui::Sense::click())
            .column(Column::initial(150.0).clip(true))
            .column(Column::initial(70.0))
            .column(Column::remainder().clip(true))
            .header(22.0, |mut h| {
                h.col(|ui| {
                    ui.strong(tr.suspect);
                });
                h.col(|ui| {
                    ui.strong(tr.similarity);
                });
                h.col(|ui| {
                    ui.strong(tr.top_source);
                });
            })
            .body(|body| {
                body.rows(34.0, app.results.len(), |mut row| {
                    let i = row.index();
                    let r = &app.results[i].outcome.report;
                    row.set_selected(selected == Some(i));
                    row.col(|ui| {
                        ui.label(file_name(&r.path)).on_hover_text(&r.path);
                    });
                    row.col(|ui| {
                        if r.error.is_none() {
                            ui.label(egui::RichText::new(format!("{:.1}%", r.similarity * 100.0)).strong());
                        }
                    });
                    row.col(|ui| {
                        if let Some(e) = &r.error {
                            ui.colored_label(ui.visuals().error_fg_color, e);
                        } else if let Some(s) = r.sources.first() {
                            ui.vertical(|ui| {
                                ui.label(&s.title);
                                ui.label(
                                    egui::RichText::new(format!("{} {}", s.passages.len(), tr.passages)).weak().small(),
                                );
                            });
                        } else {
                            ui.label(egui::RichText::new(tr.no_source).weak());
                        }
                    });
                    if row.response().clicked() {
                        app.actions.push(Action::SelectResult(i));
                    }
                });
            });
    });
    egui::CentralPanel::default().show(ui, |ui| viewer::show(app, ui));
}
