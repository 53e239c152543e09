//! The drop zones: while files hover over the window, an overlay offers two zones, *Add to
//! corpus* (left half) and *Check* (right half), and lights up the one a drop would go to.
//! The drop itself is handled in `ZhiwenApp::drops` with the same [`zone`]. Links dragged
//! from a browser arrive as dropped "paths" that are URLs (see `vendor/winit/PATCHED.md`);
//! they can only be checked, so while only links hover the whole window is the check zone.

use crate::gui::app::{Tab, ZhiwenApp};
use eframe::egui::{self, Color32, Stroke};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropZone {
    AddToCorpus,
    Check,
}

/// The zone a drop goes to now: the one under the pointer where the platform tells where
/// the pointer is ([`ZhiwenApp::drop_pointer`], else egui's pointer), otherwise the one the
/// tab suggests (adding on the corpus tab, checking on the checks tab).
pub fn zone(app: &ZhiwenApp, ctx: &egui::Context) -> DropZone {
    if only_links_hover(ctx) {
        return DropZone::Check;
    }
    let screen = ctx.content_rect();
    let pointer = app.drop_pointer.or_else(|| ctx.input(|i| i.pointer.latest_pos()));
    match pointer.filter(|p| screen.contains(*p)) {
        Some(p) if p.x < screen.center().x => DropZone::AddToCorpus,
        Some(_) => DropZone::Check,
        None if app.tab == Tab::Corpus => DropZone::AddToCorpus,
        None => DropZone::Check,
    }
}

pub fn show(app: &ZhiwenApp, ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let tr = app.tr();
    let active = zone(app, ctx);
    let screen = ctx.content_rect();
    let accent = ctx.global_style().visuals.selection.bg_fill;
    let (half, zones) = if only_links_hover(ctx) {
        (screen.size(), vec![(DropZone::Check, screen.min, tr.drop_check, tr.drop_link_hint)])
    } else {
        let half = egui::vec2(screen.width() / 2.0, screen.height());
        (
            half,
            vec![
                (DropZone::AddToCorpus, screen.min, tr.drop_add, tr.drop_add_hint),
                (DropZone::Check, screen.min + egui::vec2(half.x, 0.0), tr.drop_check, tr.drop_check_hint),
            ],
        )
    };
    for (z, at, title, hint) in zones {
        let lit = z == active;
        egui::Area::new(egui::Id::unique(("zhiwen_drop_zone", title)))
            .order(egui::Order::Foreground)
            .fixed_pos(at)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .fill(Color32::from_black_alpha(if lit { 190 } else { 120 }))
                    .stroke(Stroke::new(if lit { 5.0 } else { 1.0 }, if lit { accent } else { Color32::GRAY }))
                    .corner_radius(16.0)
                    .show(ui, |ui| {
                        ui.set_min_size(half - egui::vec2(12.0, 12.0));
                        ui.vertical_centered(|ui| {
                            ui.add_space(half.y / 2.0 - 40.0);
                            let color = if lit { Color32::WHITE } else { Color32::LIGHT_GRAY };
                            ui.label(egui::RichText::new(title).size(30.0).color(color).strong());
                            ui.label(egui::RichText::new(hint).size(16.0).color(color));
                        });
                    });
            });
    }
}

/// The URL a dropped "path" carries when it is a link dragged from a browser.
pub fn dropped_link(path: &std::path::Path) -> Option<&str> {
    path.to_str().filter(|s| s.starts_with("http://") || s.starts_with("https://"))
}

fn only_links_hover(ctx: &egui::Context) -> bool {
    ctx.input(|i| {
        let paths = || i.raw.hovered_files.iter().filter_map(|f| f.path.as_deref());
        paths().next().is_some() && paths().all(|p| dropped_link(p).is_some())
    })
}
