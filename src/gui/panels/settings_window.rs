//! Settings: detection parameters (with defaults and a reset), store location, language,
//! theme. Check settings apply at once; window and step re-fingerprint the corpus.

use crate::engine::params::{Anchoring, Normalizing, Weighting};
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
            setting(ui, tr.window_size, tr.window_size_tip, |ui| {
                ui.add(egui::DragValue::new(&mut d.fingerprint.window).range(4..=1024))
            });
            let window = d.fingerprint.window;
            setting(ui, tr.step, tr.step_tip, |ui| {
                ui.add(egui::DragValue::new(&mut d.fingerprint.step).range(1..=window))
            });
            let mut rarity = d.fingerprint.weighting == Weighting::Rarity;
            if setting(ui, tr.rarity_weighting, tr.rarity_weighting_tip, |ui| ui.checkbox(&mut rarity, "")).changed() {
                d.fingerprint.weighting = if rarity { Weighting::Rarity } else { Weighting::Uniform };
            }
            let mut anchored = d.fingerprint.anchoring == Anchoring::Winnowed;
            if setting(ui, tr.anchored_windows, tr.anchored_windows_tip, |ui| ui.checkbox(&mut anchored, "")).changed()
            {
                d.fingerprint.anchoring = if anchored { Anchoring::Winnowed } else { Anchoring::EveryStep };
            }
            let mut undisguised = d.fingerprint.normalizing.undisguises();
            if setting(ui, tr.undo_disguises, tr.undo_disguises_tip, |ui| ui.checkbox(&mut undisguised, "")).changed() {
                d.fingerprint.normalizing = if undisguised { Normalizing::Undisguised } else { Normalizing::Plain };
            }
            let mut lookalikes = d.fingerprint.normalizing == Normalizing::Lookalikes;
            let fold = setting(ui, tr.fold_lookalikes, tr.fold_lookalikes_tip, |ui| {
                ui.add_enabled(undisguised, egui::Checkbox::without_text(&mut lookalikes))
            });
            if fold.changed() {
                d.fingerprint.normalizing = if lookalikes { Normalizing::Lookalikes } else { Normalizing::Undisguised };
            }
            setting(ui, tr.max_distance, tr.max_distance_tip, |ui| {
                ui.add(
                    egui::DragValue::new(&mut d.check.max_distance)
                        .range(0..=crate::engine::params::MAX_DISTANCE_LIMIT),
                )
            });
            setting(ui, tr.min_passage, tr.min_passage_tip, |ui| {
                ui.add(egui::DragValue::new(&mut d.check.min_passage_chars).range(0..=100_000))
            });
            setting(ui, tr.min_evidence, tr.min_evidence_tip, |ui| {
                ui.add(egui::DragValue::new(&mut d.check.min_evidence_bits).range(0.0..=100_000.0))
            });
            setting(ui, tr.crawl_delay, tr.crawl_delay_tip, |ui| {
                ui.add(egui::DragValue::new(&mut d.crawl_delay).range(0.0..=60.0).speed(0.1))
            });
            setting(ui, tr.proxy, tr.proxy_tip, |ui| {
                ui.add(egui::TextEdit::singleline(&mut d.proxy).desired_width(240.0))
            });
            setting(ui, tr.tsa, tr.tsa_tip, |ui| ui.add(egui::TextEdit::singleline(&mut d.tsa).desired_width(240.0)));
            setting(ui, tr.search_engine, tr.search_engine_tip, |ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut d.search_url)
                        .hint_text("http://localhost:8888")
                        .desired_width(240.0),
                )
            });
            setting(ui, tr.query_interval, tr.query_interval_tip, |ui| {
                ui.add(egui::DragValue::new(&mut d.query_interval).range(0.0..=120.0).speed(0.1))
            });
            setting(ui, tr.discover_private, tr.discover_private_tip, |ui| ui.checkbox(&mut d.discover_private, ""));
            setting(ui, tr.builtin_dialogs, tr.builtin_dialogs_tip, |ui| ui.checkbox(&mut d.builtin_dialogs, ""));
            let mut store = d.store.as_ref().map_or_else(|| app.db.display().to_string(), |p| p.display().to_string());
            let edited = setting(ui, tr.store_location, tr.store_location_tip, |ui| {
                ui.add(egui::TextEdit::singleline(&mut store).desired_width(360.0))
            });
            if edited.changed() {
                d.store = Some(store.into());
            }
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
        ui.strong(tr.rights_holder).on_hover_text(tr.holder_tip);
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
                setting(ui, label, tr.holder_tip, |ui| ui.add(egui::TextEdit::singleline(value).desired_width(360.0)));
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

/// One row of a settings grid: the label and the control, both explaining the setting in
/// plain words when hovered; the control's response.
fn setting(
    ui: &mut egui::Ui,
    label: &str,
    tip: &str,
    control: impl FnOnce(&mut egui::Ui) -> egui::Response,
) -> egui::Response {
    let label = ui.label(label).on_hover_text(tip);
    let response = control(ui).labelled_by(label.id).on_hover_text(tip);
    ui.end_row();
    response
}
