//! The Findings tab: the findings library (every check of a file or web page, kept in the
//! store, so it survives restarts), newest first. Open shows a finding in the viewer from
//! what was kept, without fetching again; Export evidence writes its evidence package.

use crate::gui::app::{Action, ZhiwenApp};
use eframe::egui;
use egui_extras::{Column, TableBuilder};

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::CentralPanel::default().show(ui, |ui| {
        if app.findings.is_empty() {
            ui.label(tr.no_findings);
            return;
        }
        ui.style_mut().interaction.selectable_labels = false;
        let mut actions = Vec::new();
        TableBuilder::new(ui)
            .striped(true)
            .column(Column::initial(50.0))
            .column(Column::initial(130.0))
            .column(Column::initial(80.0))
            .column(Column::remainder().clip(true))
            .column(Column::initial(260.0))
            .header(22.0, |mut h| {
                for label in ["#", tr.checked_at, tr.similarity, tr.target, ""] {
                    h.col(|ui| {
                        ui.strong(label);
                    });
                }
            })
            .body(|body| {
                body.rows(26.0, app.findings.len(), |mut row| {
                    let f = &app.findings[row.index()];
                    row.col(|ui| {
                        ui.label(f.id.to_string());
                    });
                    row.col(|ui| {
                        ui.label(crate::report::format_utc(f.checked_at));
                    });
                    row.col(|ui| {
                        ui.label(format!("{:.1}%", f.similarity * 100.0));
                    });
                    row.col(|ui| {
                        let shown = f.final_url.as_deref().filter(|u| *u != f.target);
                        let hover = shown.map_or(f.target.clone(), |u| format!("{} → {u}", f.target));
                        ui.label(&f.target).on_hover_text(hover);
                    });
                    row.col(|ui| {
                        ui.horizontal(|ui| {
                            if ui.small_button(tr.open).clicked() {
                                actions.push(Action::OpenFinding(f.id));
                            }
                            if ui.small_button(tr.export_evidence).clicked() {
                                actions.push(Action::ExportEvidence(f.id));
                            }
                            if ui.small_button(tr.remove).clicked() {
                                actions.push(Action::RemoveFinding(f.id));
                            }
                        });
                    });
                });
            });
        app.actions.extend(actions);
    });
}
