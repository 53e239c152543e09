//! Totals of the corpus, the store location, background work and messages.

use super::{human_bytes, thousands};
use crate::gui::app::ZhiwenApp;
use eframe::egui;

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::Panel::bottom("status_bar").show(ui, |ui| {
        ui.horizontal(|ui| {
            let s = app.corpus.stats;
            ui.label(format!(
                "{} {}  ·  {} {}  ·  {} {}  ·  {} {}",
                thousands(s.documents),
                tr.documents,
                thousands(s.chars),
                tr.characters,
                thousands(s.windows),
                tr.windows,
                human_bytes(s.disk_bytes),
                tr.store_size
            ));
            ui.separator();
            ui.label(egui::RichText::new(app.db.display().to_string()).weak());
            if app.checks_running > 0 {
                ui.separator();
                ui.spinner();
                ui.label(tr.checking);
            }
            if app.watch_running {
                ui.separator();
                ui.spinner();
                ui.label(tr.watching);
            }
            if app.discovery_running {
                ui.separator();
                ui.spinner();
                ui.label(tr.discovering);
            }
            if let Some(url) = app.fetching.clone() {
                ui.label(egui::RichText::new(format!("{} {url}", tr.fetching)).weak());
                if ui.small_button(tr.cancel).clicked() {
                    app.web_cancel.cancel();
                    app.watch_cancel.cancel();
                }
            }
            if let Some((last, left)) = app.status_message(std::time::Instant::now()) {
                // One repaint when its time is up clears it (nothing runs meanwhile).
                ui.ctx().request_repaint_after(left);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("×").clicked() {
                        app.messages.clear();
                    }
                    // A long message (a store error names the store) is cut to the room
                    // left beside the totals, not drawn over them; a cut label shows the
                    // whole text on hover.
                    ui.add(egui::Label::new(last).truncate());
                });
            }
        });
    });
}
