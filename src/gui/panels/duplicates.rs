//! The Duplicates tab: groups of near-duplicate documents in the corpus
//! (`engine/cluster.rs`), found from the signatures kept at import, with progress and
//! Cancel while missing signatures are computed; each member can be compared with the
//! group's first in the viewer; the groups export as CSV or JSON.

use crate::engine::cluster::Method;
use crate::gui::app::{Action, ZhiwenApp};
use crate::gui::jobs::Dialog;
use eframe::egui;

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::CentralPanel::default().show(ui, |ui| {
        ui.label(egui::RichText::new(tr.duplicates_hint).weak());
        let d = &mut app.duplicates;
        let mut actions = Vec::new();
        ui.horizontal(|ui| {
            ui.label(tr.method);
            let shown = if d.opts.method == Method::MinHash { tr.method_minhash } else { tr.method_simhash };
            egui::ComboBox::from_id_salt("cluster_method").selected_text(shown).show_ui(ui, |ui| {
                ui.selectable_value(&mut d.opts.method, Method::MinHash, tr.method_minhash);
                ui.selectable_value(&mut d.opts.method, Method::Simhash, tr.method_simhash);
            });
            if d.opts.method == Method::MinHash {
                let label = ui.label(tr.threshold);
                ui.add(egui::DragValue::new(&mut d.opts.threshold).range(0.3..=1.0).speed(0.01).fixed_decimals(2))
                    .labelled_by(label.id);
            }
            match &d.running {
                None => {
                    if ui.button(tr.find_duplicates).clicked() {
                        actions.push(Action::FindDuplicates);
                    }
                }
                Some((cancel, done, total)) => {
                    ui.spinner();
                    if *total > 0 {
                        ui.label(format!("{} {done} / {total}", tr.signing));
                    }
                    if ui.button(tr.cancel).clicked() {
                        cancel.cancel();
                    }
                }
            }
            if d.found.as_ref().is_some_and(|f| !f.groups.is_empty()) && ui.button(tr.export_duplicates).clicked() {
                actions.push(Action::OpenDialog(Dialog::SaveClusters));
            }
        });
        ui.separator();
        let Some(found) = &d.found else {
            app.actions.extend(actions);
            return;
        };
        if found.groups.is_empty() {
            ui.label(tr.no_duplicates);
        }
        let grouped: usize = found.groups.iter().map(|g| g.members.len()).sum();
        if !found.groups.is_empty() {
            ui.label(format!(
                "{} {}, {grouped} {} {}",
                found.groups.len(),
                tr.groups_found,
                tr.documents_grouped,
                super::thousands(found.documents as u64)
            ));
        }
        let docs = &app.corpus.docs;
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            for (g, group) in found.groups.iter().enumerate() {
                let first = group.members[0].doc_id;
                let title = docs.iter().find(|x| x.id == first).map_or("", |x| x.title.as_str());
                egui::CollapsingHeader::new(format!("{} {} · {} · {title}", tr.group, g + 1, group.members.len()))
                    .id_salt(("group", g))
                    .default_open(g < 20)
                    .show(ui, |ui| {
                        egui::Grid::new(("members", g)).striped(true).num_columns(4).show(ui, |ui| {
                            for m in &group.members {
                                let doc = docs.iter().find(|x| x.id == m.doc_id);
                                ui.label(format!("{:.1}%", m.jaccard * 100.0)).on_hover_text(tr.jaccard_to_first);
                                ui.label(doc.map_or("", |x| x.title.as_str()));
                                ui.label(egui::RichText::new(doc.map_or("", |x| x.path.as_str())).weak());
                                if m.doc_id != first && ui.small_button(tr.compare).clicked() {
                                    actions.push(Action::CompareDocuments(m.doc_id, first));
                                }
                                ui.end_row();
                            }
                        });
                    });
            }
        });
        app.actions.extend(actions);
    });
}
