//! The side-by-side viewer: suspect left, selected source right, every passage in its own
//! colour on both sides, the characters that differ inside a passage marked, a passage
//! list, next/previous (N/P, F3/Shift+F3), and the right side following the left one at
//! matched passages.

use super::{file_name, one_line, source_label};
use crate::gui::app::{Action, EDIT, SUBSTITUTION, ZhiwenApp};
use crate::gui::i18n::Tr;
use crate::gui::text_view::Span;
use eframe::egui::{self, Color32};

const PALETTE: [(u8, u8, u8); 8] = [
    (255, 196, 0),
    (0, 170, 255),
    (110, 210, 90),
    (255, 110, 160),
    (170, 120, 255),
    (0, 200, 180),
    (255, 140, 60),
    (150, 150, 255),
];

fn passage_color(i: usize, selected: bool) -> Color32 {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    Color32::from_rgba_unmultiplied(r, g, b, if selected { 150 } else { 60 })
}

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    let Some(v) = &mut app.viewer else {
        ui.centered_and_justified(|ui| ui.label(egui::RichText::new(tr.drop_hint).size(18.0).weak()));
        return;
    };
    let report = &app.results[v.result].outcome.report;
    let mut actions = Vec::new();

    // Header: suspect, source switcher, navigation.
    ui.horizontal_wrapped(|ui| {
        ui.heading(file_name(&report.path));
        if let Some(e) = &report.error {
            ui.colored_label(ui.visuals().error_fg_color, format!("{}: {e}", tr.error));
            return;
        }
        ui.label(format!("{} {:.1}%", tr.similarity, report.similarity * 100.0));
        if let Some(disguises) = disguises_line(tr, &report.disguises) {
            ui.separator();
            ui.colored_label(ui.visuals().warn_fg_color, disguises).on_hover_text(tr.disguised_tip);
        }
        if shows_pictures(report) {
            ui.toggle_value(&mut v.show_picture, tr.show_picture).on_hover_text(tr.show_picture_tip);
        }
        ui.separator();
        if report.sources.is_empty() {
            ui.label(tr.no_source);
            return;
        }
        let label = ui.label(tr.source);
        let current = &report.sources[v.source];
        // One line whatever the title (an English source is titled by its first paragraph).
        egui::ComboBox::from_id_salt("source")
            .width(320.0)
            .selected_text(format!(
                "{}  ({:.1}%)",
                one_line(&source_label(tr, current), 40),
                current.similarity * 100.0
            ))
            .show_ui(ui, |ui| {
                for (i, s) in report.sources.iter().enumerate() {
                    let label = format!(
                        "{}  {:.1}%  {} {}",
                        one_line(&source_label(tr, s), 60),
                        s.similarity * 100.0,
                        s.passages.len(),
                        tr.passages
                    );
                    if ui.selectable_label(i == v.source, label).clicked() {
                        actions.push(Action::SelectSource(i));
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.label(format!("{} {:.1}%", tr.coverage, current.source_coverage * 100.0));
        ui.separator();
        if ui.button(tr.previous_match).on_hover_text("P / Shift+F3").clicked() {
            actions.push(Action::PreviousPassage);
        }
        ui.label(format!("{} / {}", v.passage + 1, current.passages.len()));
        if ui.button(tr.next_match).on_hover_text("N / F3").clicked() {
            actions.push(Action::NextPassage);
        }
        ui.checkbox(&mut app.settings.link_scrolling, tr.link_scrolling);
    });
    // A translation's passages have no character marks: no key for them.
    if report.sources.get(v.source).is_none_or(|s| s.kind.is_text()) {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("——").color(SUBSTITUTION).strong());
            ui.label(egui::RichText::new(tr.legend_substitution).small());
            ui.label(egui::RichText::new("  ").background_color(EDIT));
            ui.label(egui::RichText::new(tr.legend_edit).small());
        });
    }
    ui.separator();
    let Some(source) = report.sources.get(v.source) else {
        app.actions.extend(actions);
        return;
    };

    // Passage list.
    egui::Panel::left("passages").resizable(true).default_size(230.0).show(ui, |ui| {
        // A translation's shared names: evidence a reader checks at a glance.
        if !source.names.is_empty() {
            ui.strong(tr.shared_names);
            for n in &source.names {
                ui.label(format!("{} = {}  ×{}", n.english, n.chinese, n.count));
            }
            ui.separator();
        }
        ui.strong(tr.passages);
        egui::ScrollArea::vertical().id_salt("passage_list").show(ui, |ui| {
            for (i, p) in source.passages.iter().enumerate() {
                // One copy cut by ads, edits or reordered sentences is one region.
                if source.kind.is_text() && (i == 0 || source.passages[i - 1].region != p.region) {
                    ui.label(egui::RichText::new(format!("{} {}", tr.region, p.region + 1)).strong());
                }
                let text = if source.kind.is_text() {
                    format!(
                        "#{}  {}–{} ↔ {}–{}\n{} {} · {} {} · {} {:.0}%",
                        i + 1,
                        p.suspect_start,
                        p.suspect_end,
                        p.source_start,
                        p.source_end,
                        p.suspect_end - p.suspect_start,
                        tr.length,
                        tr.distance,
                        p.distance,
                        tr.verified,
                        p.containment * 100.0
                    )
                } else {
                    // Aligned sentences of a translation: how many of the English words a word
                    // of the Chinese sentences means, and the evidence.
                    format!(
                        "#{}  {}–{} ↔ {}–{}\n{} {:.0}% · {:.1} bits",
                        i + 1,
                        p.suspect_start,
                        p.suspect_end,
                        p.source_start,
                        p.source_end,
                        tr.words_explained,
                        p.containment * 100.0,
                        p.evidence_bits
                    )
                };
                let label = egui::RichText::new(text).background_color(passage_color(i, false));
                if ui.selectable_label(i == v.passage, label).clicked() {
                    actions.push(Action::SelectPassage(i));
                }
            }
        });
    });

    // The two texts.
    let mut left_spans = Vec::new();
    let mut right_spans = Vec::new();
    for (i, p) in source.passages.iter().enumerate() {
        let selected = i == v.passage;
        left_spans.push(Span {
            range: p.suspect_start..p.suspect_end,
            background: passage_color(i, selected),
            underline: None,
        });
        right_spans.push(Span {
            range: p.source_start..p.source_end,
            background: passage_color(i, selected),
            underline: None,
        });
    }
    let link = app.settings.link_scrolling;
    let passages = &source.passages;
    let title = one_line(&source_label(tr, source), 60);
    let picture = v.show_picture && shows_pictures(report);
    if picture && v.picture.is_none() {
        v.picture = Some(load_pictures(ui.ctx(), &report.path));
    }
    if let Some(loaded) = v.picture.as_ref().filter(|_| picture) {
        // The pictures beside the text read from them, in a panel of its own (resizable).
        egui::Panel::left("picture").resizable(true).default_size(ui.available_width() * 0.5).show(ui, |ui| {
            ui.strong(tr.picture);
            match loaded {
                Ok(textures) => {
                    egui::ScrollArea::both().id_salt("picture").show(ui, |ui| {
                        // As wide as the panel, one under another; tall pictures scroll.
                        let width = ui.available_width();
                        for texture in textures {
                            let size = texture.size_vec2();
                            ui.image((texture.id(), egui::vec2(width, size.y * width / size.x.max(1.0))));
                        }
                    });
                }
                Err(why) => {
                    ui.colored_label(ui.visuals().error_fg_color, why);
                }
            }
        });
    }
    ui.columns(2, |cols| {
        cols[0].strong(format!("{}: {}", tr.suspect, file_name(&report.path)));
        let (top, moved) = v.left.show(&mut cols[0], "left_text", &left_spans, &v.left_marks);
        cols[1].strong(format!("{}: {title}", tr.source));
        v.right.show(&mut cols[1], "right_text", &right_spans, &v.right_marks);
        // Linked scrolling: when the user scrolls the suspect inside a passage, bring the
        // corresponding place of the source into view on the next frame.
        if link
            && moved
            && let Some(p) = passages.iter().find(|p| (p.suspect_start..p.suspect_end).contains(&top))
        {
            let along = (top - p.suspect_start) as f64 / (p.suspect_end - p.suspect_start).max(1) as f64;
            v.right.scroll_to(p.source_start + (along * (p.source_end - p.source_start) as f64) as usize);
            cols[1].ctx().request_repaint();
        }
    });
    app.actions.extend(actions);
}

/// Whether a suspect's text was read from pictures of a file that can show them: a picture
/// file, a scanned PDF, an EPUB of picture chapters (a web page's pictures are in its
/// evidence package).
fn shows_pictures(report: &crate::SuspectReport) -> bool {
    let path = std::path::Path::new(&report.path);
    report.web.is_none()
        && (crate::engine::decode::is_image_path(path) || report.disguises.images > 0 && path.is_file())
}

/// Pages a scanned PDF shows beside its text at most.
const MAX_PAGES_SHOWN: usize = 60;

/// The pictures as textures, each scaled down to what the graphics card can hold.
fn load_pictures(ctx: &egui::Context, path: &str) -> Result<Vec<egui::TextureHandle>, String> {
    let pictures = crate::engine::decode::pictures_read(std::path::Path::new(path), MAX_PAGES_SHOWN)?;
    let max = ctx.input(|i| i.max_texture_side) as u32;
    let textures = pictures.into_iter().enumerate().map(|(i, mut picture)| {
        if picture.width() > max || picture.height() > max {
            let scale = max as f32 / picture.width().max(picture.height()) as f32;
            let (w, h) = ((picture.width() as f32 * scale) as u32, (picture.height() as f32 * scale) as u32);
            picture = image::imageops::resize(&picture, w.max(1), h.max(1), image::imageops::FilterType::Triangle);
        }
        let size = [picture.width() as usize, picture.height() as usize];
        let color = egui::ColorImage::from_rgb(size, picture.as_raw());
        ctx.load_texture(format!("picture {i} {path}"), color, egui::TextureOptions::LINEAR)
    });
    Ok(textures.collect())
}

/// "Disguised: passages in pinyin 1, noise letters 383" in the app's language, or `None`.
pub fn disguises_line(tr: &Tr, d: &crate::engine::normalize::Disguises) -> Option<String> {
    let parts: Vec<String> = [
        (tr.images_read, d.images),
        (tr.font_remapped, d.font_remapped),
        (tr.pinyin_passages, d.pinyin_passages),
        (tr.noise_letters, d.noise_letters),
        (tr.homoglyph_letters, d.homoglyphs),
        (tr.invisible_chars, d.invisible),
    ]
    .into_iter()
    .filter(|&(_, n)| n > 0)
    .map(|(label, n)| format!("{label} {n}"))
    .collect();
    (!parts.is_empty()).then(|| format!("{}: {}", tr.disguised, parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disguises_line_names_each_kind_found_in_the_apps_language() {
        let d = crate::engine::normalize::Disguises { noise_letters: 383, pinyin_passages: 1, ..Default::default() };
        assert_eq!(
            disguises_line(&crate::gui::i18n::EN, &d).as_deref(),
            Some("Disguised: passages in pinyin 1, noise letters 383")
        );
        assert_eq!(disguises_line(&crate::gui::i18n::ZH, &d).as_deref(), Some("伪装: 拼音段落 1, 夹杂字母 383"));
        assert_eq!(disguises_line(&crate::gui::i18n::EN, &Default::default()), None);
    }
}
