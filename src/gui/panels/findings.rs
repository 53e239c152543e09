//! The Findings tab: the findings library (every check of a file or web page, kept in the
//! store, so it survives restarts), newest first. Open shows a finding in the viewer from
//! what was kept, without fetching again; Export evidence writes its evidence package.
//! A web page that copies shows its status over time (online, gone since, notice sent);
//! ticked findings of one site make a takedown notice (`notice_window.rs`).

use crate::engine::store::watch::CopyStatus;
use crate::gui::app::{Action, ZhiwenApp};
use crate::report::format_utc;
use crate::report::notice::Jurisdiction;
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
        ui.horizontal(|ui| {
            let ticked: Vec<i64> =
                app.findings.iter().map(|f| f.id).filter(|id| app.selected_findings.contains(id)).collect();
            // A notice asks a host to take pages down: files have no host to ask.
            let files = app
                .findings
                .iter()
                .filter(|f| ticked.contains(&f.id) && f.kind == crate::engine::store::FindingKind::File)
                .count();
            let button = ui
                .add_enabled(!ticked.is_empty() && files == 0, egui::Button::new(tr.notice))
                .on_disabled_hover_text(tr.notice_hint);
            if button.clicked() {
                actions.push(Action::DraftNotice(ticked, Jurisdiction::Dmca));
            }
            if files > 0 {
                ui.colored_label(ui.visuals().warn_fg_color, format!("{files} {}", tr.notice_files));
            } else {
                ui.label(egui::RichText::new(tr.notice_hint).weak());
            }
        });
        TableBuilder::new(ui)
            .striped(true)
            .column(Column::initial(70.0))
            .column(Column::initial(130.0))
            .column(Column::initial(80.0))
            .column(Column::initial(170.0))
            .column(Column::remainder().clip(true))
            .column(Column::initial(260.0))
            .header(22.0, |mut h| {
                for label in ["#", tr.checked_at, tr.similarity, tr.status, tr.target, ""] {
                    h.col(|ui| {
                        ui.strong(label);
                    });
                }
            })
            .body(|body| {
                body.rows(26.0, app.findings.len(), |mut row| {
                    let f = &app.findings[row.index()];
                    row.col(|ui| {
                        let mut ticked = app.selected_findings.contains(&f.id);
                        if ui.checkbox(&mut ticked, f.id.to_string()).changed() {
                            if ticked {
                                app.selected_findings.insert(f.id);
                            } else {
                                app.selected_findings.remove(&f.id);
                            }
                        }
                    });
                    row.col(|ui| {
                        ui.label(crate::report::format_utc(f.checked_at));
                    });
                    row.col(|ui| {
                        ui.label(format!("{:.1}%", f.similarity * 100.0));
                    });
                    row.col(|ui| {
                        if let Some(t) = &f.tracking {
                            let mut status = match (t.status, t.gone_at) {
                                (CopyStatus::Gone, Some(at)) => format!("{} {}", tr.gone, &format_utc(at)[..10]),
                                (CopyStatus::Gone, None) => tr.gone.to_string(),
                                (CopyStatus::Online, _) => tr.online.to_lowercase(),
                            };
                            if let Some(at) = t.notice_sent_at {
                                status += &format!(" · {} {}", tr.notice_sent_on, &format_utc(at)[..10]);
                            }
                            let hover = format!(
                                "{}: {}\n{}: {}{}",
                                tr.first_seen,
                                format_utc(t.first_seen),
                                tr.last_seen,
                                format_utc(t.last_seen),
                                t.notice_to.as_deref().map_or(String::new(), |to| format!("\n→ {to}"))
                            );
                            ui.label(status).on_hover_text(hover);
                        }
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
