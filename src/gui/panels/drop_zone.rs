//! The drop zone: while files hover over the window, a highlighted overlay over the
//! whole window says that dropping checks them. The drop itself is handled in
//! `ZhiwenApp::drops`.

use crate::gui::app::ZhiwenApp;
use eframe::egui::{self, Color32, Stroke};

pub fn show(app: &ZhiwenApp, ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let screen = ctx.content_rect();
    let accent = ctx.global_style().visuals.selection.bg_fill;
    egui::Area::new(egui::Id::unique("zhiwen_drop_zone")).order(egui::Order::Foreground).fixed_pos(screen.min).show(
        ctx,
        |ui| {
            egui::Frame::new()
                .fill(Color32::from_black_alpha(160))
                .stroke(Stroke::new(4.0, accent))
                .corner_radius(16.0)
                .show(ui, |ui| {
                    ui.set_min_size(screen.size() - egui::vec2(8.0, 8.0));
                    ui.centered_and_justified(|ui| {
                        ui.label(egui::RichText::new(app.tr().drop_here).size(28.0).color(Color32::WHITE));
                    });
                });
        },
    );
}
