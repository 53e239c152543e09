//! The notice window: a takedown notice drafted from the ticked findings of one site
//! (`report/notice.rs`), as DMCA or 通知书, editable before it is exported with the
//! findings' evidence packages; *Mark as sent* records when and to whom.

use crate::gui::app::{Action, ZhiwenApp};
use crate::gui::jobs::Dialog;
use crate::report::notice::Jurisdiction;
use eframe::egui;

pub fn show(app: &mut ZhiwenApp, ctx: &egui::Context) {
    let Some(draft) = &mut app.notice else { return };
    let tr = app.settings.lang.tr();
    let mut open = true;
    let mut actions = Vec::new();
    egui::Window::new(format!("{} — {}", tr.notice_title, draft.host))
        .open(&mut open)
        .default_size([720.0, 560.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                for (kind, label) in [(Jurisdiction::Dmca, tr.notice_dmca), (Jurisdiction::Cn, tr.notice_cn)] {
                    if ui.selectable_label(draft.kind == kind, label).clicked() && draft.kind != kind {
                        actions.push(Action::DraftNotice(draft.finding_ids.clone(), kind));
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button(tr.export_notice).clicked() {
                    actions.push(Action::OpenDialog(Dialog::ExportNotice));
                }
                ui.separator();
                let label = ui.label(tr.sent_to);
                ui.add(egui::TextEdit::singleline(&mut draft.sent_to).desired_width(220.0)).labelled_by(label.id);
                let to = draft.sent_to.trim().to_string();
                if ui.add_enabled(!to.is_empty(), egui::Button::new(tr.mark_sent)).clicked() {
                    app.worker.mark_notice_sent(draft.finding_ids.clone(), to);
                }
            });
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut draft.text)
                        .desired_width(f32::INFINITY)
                        .desired_rows(24)
                        .font(egui::TextStyle::Monospace),
                );
            });
        });
    app.actions.extend(actions);
    if !open {
        app.notice = None;
    }
}
