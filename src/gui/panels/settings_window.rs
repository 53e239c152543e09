//! Settings: detection parameters (with defaults and a reset), store location, language,
//! theme. Check settings apply at once; window and step re-fingerprint the corpus.

use crate::engine::params::{Anchoring, Weighting};
use crate::gui::app::{Action, ZhiwenApp};
use crate::gui::settings::Settings;
use crate::{CheckOptions, FingerprintParams};
use eframe::egui;

pub fn show(app: &mut ZhiwenApp, ctx: &egui::Context) {
    if !app.show_settings {
        return;
    }
    let tr = app.tr();
    let mut open = true;
    let mut apply = false;
    egui::Window::new(tr.settings).open(&mut open).resizable(false).show(ctx, |ui| {
        let d = &mut app.draft;
        egui::Grid::new("settings_grid").num_columns(2).spacing([16.0, 8.0]).show(ui, |ui| {
            ui.label(tr.window_size);
            ui.add(egui::DragValue::new(&mut d.fingerprint.window).range(4..=1024));
            ui.end_row();
            ui.label(tr.step);
            ui.add(egui::DragValue::new(&mut d.fingerprint.step).range(1..=d.fingerprint.window));
            ui.end_row();
            let label = ui.label(tr.rarity_weighting);
            let mut rarity = d.fingerprint.weighting == Weighting::Rarity;
            if ui.checkbox(&mut rarity, "").labelled_by(label.id).changed() {
                d.fingerprint.weighting = if rarity { Weighting::Rarity } else { Weighting::Uniform };
            }
            ui.end_row();
            let label = ui.label(tr.anchored_windows);
            let mut anchored = d.fingerprint.anchoring == Anchoring::Winnowed;
            if ui.checkbox(&mut anchored, "").labelled_by(label.id).changed() {
                d.fingerprint.anchoring = if anchored { Anchoring::Winnowed } else { Anchoring::EveryStep };
            }
            ui.end_row();
            ui.label(tr.max_distance);
            ui.add(
                egui::DragValue::new(&mut d.check.max_distance).range(0..=crate::engine::params::MAX_DISTANCE_LIMIT),
            );
            ui.end_row();
            ui.label(tr.min_passage);
            ui.add(egui::DragValue::new(&mut d.check.min_passage_chars).range(0..=100_000));
            ui.end_row();
            ui.label(tr.min_evidence);
            ui.add(egui::DragValue::new(&mut d.check.min_evidence_bits).range(0.0..=100_000.0));
            ui.end_row();
            let label = ui.label(tr.crawl_delay);
            ui.add(egui::DragValue::new(&mut d.crawl_delay).range(0.0..=60.0).speed(0.1)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label(tr.proxy);
            ui.add(egui::TextEdit::singleline(&mut d.proxy).desired_width(240.0)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label(tr.tsa);
            ui.add(egui::TextEdit::singleline(&mut d.tsa).desired_width(240.0)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label(tr.search_engine).on_hover_text(tr.search_engine_tip);
            ui.add(
                egui::TextEdit::singleline(&mut d.search_url).hint_text("http://localhost:8888").desired_width(240.0),
            )
            .labelled_by(label.id)
            .on_hover_text(tr.search_engine_tip);
            ui.end_row();
            let label = ui.label(tr.query_interval);
            ui.add(egui::DragValue::new(&mut d.query_interval).range(0.0..=120.0).speed(0.1)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label(tr.discover_private).on_hover_text(tr.discover_private_tip);
            ui.checkbox(&mut d.discover_private, "").labelled_by(label.id).on_hover_text(tr.discover_private_tip);
            ui.end_row();
            let label = ui.label(tr.builtin_dialogs);
            ui.checkbox(&mut d.builtin_dialogs, "").labelled_by(label.id);
            ui.end_row();
            ui.label(tr.store_location);
            let mut store = d.store.as_ref().map_or_else(|| app.db.display().to_string(), |p| p.display().to_string());
            if ui.add(egui::TextEdit::singleline(&mut store).desired_width(360.0)).changed() {
                d.store = Some(store.into());
            }
            ui.end_row();
        });
        ui.label(egui::RichText::new(tr.refingerprint_note).weak().small());
        ui.separator();
        ui.strong(tr.licensed_sites).on_hover_text(tr.licensed_sites_tip);
        for site in &app.watching.allowed {
            ui.horizontal(|ui| {
                if ui.small_button("×").clicked() {
                    app.actions.push(Action::RemoveAllowedSite(site.id));
                }
                ui.label(&site.pattern);
                ui.label(egui::RichText::new(&site.note).weak());
            });
        }
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut app.allow_draft).hint_text("licensed.example").desired_width(240.0));
            let pattern = app.allow_draft.trim().to_string();
            if ui.add_enabled(!pattern.is_empty(), egui::Button::new(tr.allow)).clicked() {
                app.actions.push(Action::AllowSite(pattern));
                app.allow_draft.clear();
            }
        });
        ui.separator();
        ui.strong(tr.rights_holder);
        let h = &mut app.holder_draft;
        egui::Grid::new("holder_grid").num_columns(2).spacing([16.0, 6.0]).show(ui, |ui| {
            let fields = [
                (tr.holder_name, &mut h.name),
                (tr.holder_address, &mut h.address),
                (tr.holder_email, &mut h.email),
                (tr.holder_phone, &mut h.phone),
                (tr.holder_signatory, &mut h.signatory),
            ];
            for (label, value) in fields {
                let label = ui.label(label);
                ui.add(egui::TextEdit::singleline(value).desired_width(360.0)).labelled_by(label.id);
                ui.end_row();
            }
        });
        ui.horizontal(|ui| {
            if ui.button(tr.reset_defaults).clicked() {
                let keep = Settings { lang: d.lang, theme: d.theme, store: d.store.clone(), ..Settings::default() };
                *d = Settings { check: CheckOptions::default(), fingerprint: FingerprintParams::default(), ..keep };
            }
            if ui.button(tr.apply).clicked() {
                apply = true;
            }
        });
    });
    if apply {
        if app.holder_draft != app.watching.holder {
            app.worker.set_holder(app.holder_draft.clone());
        }
        let draft = app.draft.clone();
        if draft.fingerprint != app.corpus.params && draft.fingerprint.validate().is_ok() {
            app.actions.push(Action::ApplyFingerprint(draft.fingerprint));
        }
        if let Some(store) = draft.store.as_ref().filter(|s| **s != app.db) {
            app.actions.push(Action::SetStore(store.clone()));
        }
        app.settings = Settings { lang: app.settings.lang, theme: app.settings.theme, ..draft };
        app.show_settings = false;
    }
    if !open {
        app.show_settings = false;
    }
}
