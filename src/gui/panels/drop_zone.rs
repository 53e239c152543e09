//! The drop zone: while files hover over the window, a highlighted overlay says that
//! dropping checks them. The drop itself is handled in `ZhiwenApp::drops`.

use crate::gui::app::ZhiwenApp;
use eframe::egui::{self, Align2, Color32, FontId, Id, LayerId, Order, Stroke, StrokeKind};

pub fn show(app: &ZhiwenApp, ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let painter = ctx.layer_painter(LayerId::new(Order::Foreground, Id::unique("zhiwen_drop_zone")));
    let rect = ctx.content_rect().shrink(12.0);
    let accent = ctx.global_style().visuals.selection.bg_fill;
    painter.rect_filled(ctx.content_rect(), 0.0, Color32::from_black_alpha(150));
    painter.rect_stroke(rect, 16.0, Stroke::new(4.0, accent), StrokeKind::Inside);
    painter.text(rect.center(), Align2::CENTER_CENTER, app.tr().drop_here, FontId::proportional(28.0), Color32::WHITE);
}
