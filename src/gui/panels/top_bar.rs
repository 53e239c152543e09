//! The toolbar: import, check, export, settings, tabs, language and theme.

use crate::gui::app::{Action, Tab, ZhiwenApp, apply_theme};
use crate::gui::i18n::Lang;
use crate::gui::jobs::Dialog;
use crate::gui::settings::Theme;
use eframe::egui;

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::Panel::top("top_bar").show(ui, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            ui.heading("指纹 Zhiwen");
            ui.separator();
            let busy = app.busy();
            if ui.add_enabled(!busy, egui::Button::new(tr.import_files)).on_hover_text("Ctrl+I: folder").clicked() {
                app.actions.push(Action::OpenDialog(Dialog::ImportFiles));
            }
            if ui.add_enabled(!busy, egui::Button::new(tr.import_folder)).clicked() {
                app.actions.push(Action::OpenDialog(Dialog::ImportFolder));
            }
            if ui.button(tr.check_files).on_hover_text("Ctrl+O").clicked() {
                app.actions.push(Action::OpenDialog(Dialog::CheckFiles));
            }
            let can_export = !app.results.is_empty();
            if ui.add_enabled(can_export, egui::Button::new(tr.export_report)).on_hover_text("Ctrl+E").clicked() {
                app.actions.push(Action::OpenDialog(Dialog::SaveReport));
            }
            if ui.button(tr.open_run).on_hover_text(tr.open_run_hint).clicked() {
                app.actions.push(Action::OpenDialog(Dialog::OpenRun));
            }
            // Folders picked or dropped lately: import or check them again in one click.
            ui.add_enabled_ui(!app.settings.recent_folders.is_empty(), |ui| {
                ui.menu_button(tr.recent, |ui| {
                    for folder in app.settings.recent_folders.clone() {
                        ui.horizontal(|ui| {
                            ui.label(folder.display().to_string());
                            if ui.add_enabled(!busy, egui::Button::new(tr.import_folder)).clicked() {
                                app.actions.push(Action::Import(vec![folder.clone()]));
                                ui.close();
                            }
                            if ui.button(tr.check_files).clicked() {
                                app.actions.push(Action::Check(vec![folder.clone()]));
                                ui.close();
                            }
                        });
                    }
                });
            });
            if ui.button(tr.settings).on_hover_text("Ctrl+,").clicked() {
                app.actions.push(Action::ToggleSettings);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let dark = app.settings.theme == Theme::Dark;
                if ui.button(if dark { tr.light } else { tr.dark }).on_hover_text(tr.theme).clicked() {
                    app.settings.theme = if dark { Theme::Light } else { Theme::Dark };
                    apply_theme(ui.ctx(), app.settings.theme);
                }
                egui::ComboBox::from_id_salt("lang")
                    .selected_text(match app.settings.lang {
                        Lang::En => "English",
                        Lang::Zh => "中文",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut app.settings.lang, Lang::En, "English");
                        ui.selectable_value(&mut app.settings.lang, Lang::Zh, "中文");
                    })
                    .response
                    .on_hover_text("Language / 语言");
            });
        });
        ui.horizontal(|ui| {
            let corpus_label = format!("{} ({})", tr.corpus, app.corpus.docs.len());
            if ui.selectable_label(app.tab == Tab::Corpus, corpus_label).clicked() {
                app.actions.push(Action::SetTab(Tab::Corpus));
            }
            let checks_label = format!("{} ({})", tr.results, app.results.len());
            if ui.selectable_label(app.tab == Tab::Checks, checks_label).clicked() {
                app.actions.push(Action::SetTab(Tab::Checks));
            }
            let findings_label = format!("{} ({})", tr.findings_tab, app.findings.len());
            if ui.selectable_label(app.tab == Tab::Findings, findings_label).clicked() {
                app.actions.push(Action::SetTab(Tab::Findings));
            }
            if ui.selectable_label(app.tab == Tab::Duplicates, tr.duplicates).clicked() {
                app.actions.push(Action::SetTab(Tab::Duplicates));
            }
            if ui.selectable_label(app.tab == Tab::Dashboard, tr.dashboard).clicked() {
                app.actions.push(Action::SetTab(Tab::Dashboard));
            }
        });
        ui.add_space(2.0);
    });
}
