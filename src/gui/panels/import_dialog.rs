//! The import dialog: progress (files, MB/s, time left, current file) with Cancel while
//! the import runs; a summary with every failed file and its reason when it is done.

use super::human_bytes;
use crate::Stage;
use crate::gui::app::{Action, ZhiwenApp};
use eframe::egui;

pub fn show(app: &mut ZhiwenApp, ctx: &egui::Context) {
    let tr = app.tr();
    let Some(job) = &app.import else { return };
    let mut actions = Vec::new();
    egui::Window::new(tr.importing)
        .collapsible(false)
        .resizable(true)
        .default_width(560.0)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| match &job.report {
            None => {
                let p = job.progress.clone();
                let (done, total, bytes, bytes_total) =
                    p.as_ref().map_or((0, 0, 0, 0), |p| (p.files_done, p.files_total, p.bytes_done, p.bytes_total));
                let fraction = if bytes_total > 0 { bytes as f32 / bytes_total as f32 } else { 0.0 };
                let secs = job.started.elapsed().as_secs_f64().max(0.001);
                let rate = bytes as f64 / secs;
                let left = if rate > 0.0 { (bytes_total.saturating_sub(bytes)) as f64 / rate } else { 0.0 };
                let stage = p.as_ref().map_or(Stage::Scanning, |p| p.stage);
                ui.add(egui::ProgressBar::new(fraction).show_percentage().animate(true));
                ui.label(format!(
                    "{done} / {total} {}  ·  {}/s  ·  {:.0} s {}  ·  {stage:?}",
                    tr.files,
                    human_bytes(rate as u64),
                    left,
                    tr.time_left
                ));
                if let Some(current) = p.as_ref().and_then(|p| p.current.as_ref()) {
                    ui.label(egui::RichText::new(current.display().to_string()).weak().small());
                }
                ui.add_space(6.0);
                if ui.button(tr.cancel).clicked() {
                    actions.push(Action::CancelJob);
                }
            }
            Some(report) => {
                ui.heading(if report.cancelled { tr.import_cancelled } else { tr.import_done });
                ui.label(format!(
                    "{} {}  ·  {} {}  ·  {} {}  ·  {} {}  ·  {} {}",
                    report.imported.len(),
                    tr.imported_count,
                    report.replaced.len(),
                    tr.replaced,
                    report.unchanged.len(),
                    tr.unchanged,
                    report.failed.len(),
                    tr.failed,
                    report.skipped.len(),
                    tr.skipped
                ));
                if !report.failed.is_empty() {
                    ui.separator();
                    egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
                        for (path, reason) in &report.failed {
                            ui.horizontal_wrapped(|ui| {
                                ui.colored_label(ui.visuals().error_fg_color, "×");
                                ui.label(path.display().to_string());
                                ui.label(egui::RichText::new(reason).weak());
                            });
                        }
                    });
                }
                ui.add_space(6.0);
                if ui.button(tr.close).clicked() {
                    actions.push(Action::DismissImport);
                }
            }
        });
    app.actions.extend(actions);
}
