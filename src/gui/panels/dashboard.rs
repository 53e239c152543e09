//! The Dashboard tab: the watch list (add, run now, remove; due watches run by themselves
//! while the app is open) and the picture of the copies found (`engine/stats.rs`): totals,
//! new copies and copies online per day as a chart (egui_plot), per work and per site.

use crate::engine::store::watch::{DAILY, NewWatch};
use crate::engine::web::stats::Picture;
use crate::gui::app::{Action, ZhiwenApp};
use crate::gui::i18n::Tr;
use crate::gui::jobs::Dialog;
use crate::report::format_utc;
use eframe::egui;
use egui_extras::{Column, TableBuilder};

pub fn show(app: &mut ZhiwenApp, ui: &mut egui::Ui) {
    let tr = app.tr();
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            ui.heading(tr.watching);
            add_watch_form(app, ui, tr);
            ui.add_space(4.0);
            watch_list(app, ui, tr);
            ui.separator();
            match app.watching.picture.clone() {
                Some(p) if p.copies > 0 => picture(app, ui, tr, &p),
                _ => {}
            }
        });
    });
}

/// The frequencies offered: (label, seconds).
fn frequencies(tr: &Tr) -> [(&'static str, i64); 4] {
    [(tr.hourly, 3600), (tr.every_6h, 6 * 3600), (tr.daily, DAILY), (tr.weekly, 7 * DAILY)]
}

fn every_label(tr: &Tr, secs: i64) -> String {
    frequencies(tr)
        .iter()
        .find(|(_, s)| *s == secs)
        .map_or_else(|| format!("{} h", secs / 3600), |(l, _)| l.to_string())
}

fn add_watch_form(app: &mut ZhiwenApp, ui: &mut egui::Ui, tr: &'static Tr) {
    let mut add = None;
    let w = &mut app.new_watch;
    ui.horizontal(|ui| {
        let label = ui.label(tr.watch_url);
        let url = ui
            .add(egui::TextEdit::singleline(&mut w.url).hint_text("https://").desired_width(320.0))
            .labelled_by(label.id);
        let label = ui.label(tr.watch_label);
        ui.add(egui::TextEdit::singleline(&mut w.label).desired_width(120.0)).labelled_by(label.id);
        ui.checkbox(&mut w.follow, tr.follow_links);
        egui::ComboBox::from_id_salt("watch_every").selected_text(every_label(tr, w.every_secs)).show_ui(ui, |ui| {
            for (label, secs) in frequencies(tr) {
                ui.selectable_value(&mut w.every_secs, secs, label);
            }
        });
        let valid = crate::engine::web::fetch::is_url(w.url.trim());
        let enter = url.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.add_enabled(valid, egui::Button::new(tr.add_watch)).clicked() || (enter && valid) {
            add = Some(NewWatch { url: w.url.trim().to_string(), ..w.clone() });
            w.url.clear();
            w.label.clear();
        }
    });
    if let Some(new) = add {
        app.actions.push(Action::AddWatch(new));
    }
}

fn watch_list(app: &mut ZhiwenApp, ui: &mut egui::Ui, tr: &'static Tr) {
    if app.watching.watches.is_empty() {
        ui.label(egui::RichText::new(tr.no_watches).weak());
        return;
    }
    let now = crate::engine::time::now();
    let mut actions = Vec::new();
    ui.push_id("watches", |ui| {
        TableBuilder::new(ui)
            .striped(true)
            .column(Column::remainder().at_least(220.0).clip(true))
            .column(Column::initial(90.0))
            .column(Column::initial(120.0))
            .column(Column::initial(120.0))
            .column(Column::initial(260.0).clip(true))
            .column(Column::initial(150.0))
            .header(22.0, |mut h| {
                for label in [tr.watch_url, tr.every, tr.last_run, tr.next_due, tr.last_changes, ""] {
                    h.col(|ui| {
                        ui.strong(label);
                    });
                }
            })
            .body(|body| {
                body.rows(24.0, app.watching.watches.len(), |mut row| {
                    let w = &app.watching.watches[row.index()];
                    row.col(|ui| {
                        let shown =
                            if w.label.is_empty() { w.url.clone() } else { format!("{} — {}", w.label, w.url) };
                        ui.label(shown).on_hover_text(&w.url);
                    });
                    row.col(|ui| {
                        ui.label(every_label(tr, w.every_secs));
                    });
                    row.col(|ui| {
                        ui.label(w.last_run_at.map_or_else(|| tr.never.to_string(), format_utc));
                    });
                    row.col(|ui| {
                        ui.label(if w.is_due(now) { tr.now_due.to_string() } else { format_utc(w.due_at()) });
                    });
                    row.col(|ui| {
                        if let Some(run) = app.watching.last_runs.iter().find(|r| r.watch_id == w.id) {
                            let c = &run.changes;
                            ui.label(format!(
                                "+{} new · {} back · {} gone · {} online",
                                c.new.len(),
                                c.back.len(),
                                c.gone.len(),
                                c.still_online.len()
                            ));
                        }
                    });
                    row.col(|ui| {
                        ui.horizontal(|ui| {
                            let idle = !app.watch_running;
                            if ui.add_enabled(idle, egui::Button::new(tr.run_now).small()).clicked() {
                                actions.push(Action::RunWatches(vec![w.id]));
                            }
                            if ui.add_enabled(idle, egui::Button::new(tr.remove).small()).clicked() {
                                actions.push(Action::RemoveWatch(w.id));
                            }
                        });
                    });
                });
            });
    });
    if ui.add_enabled(!app.watch_running, egui::Button::new(tr.run_due)).clicked() {
        actions.push(Action::RunWatches(Vec::new()));
    }
    app.actions.extend(actions);
}

fn picture(app: &mut ZhiwenApp, ui: &mut egui::Ui, tr: &'static Tr, p: &Picture) {
    ui.horizontal(|ui| {
        ui.label(
            egui::RichText::new(format!(
                "{} {}, {} {}, {} {}",
                p.copies,
                tr.pages_copy,
                p.online,
                tr.still_online,
                p.sites.len(),
                tr.on_sites
            ))
            .size(16.0)
            .strong(),
        );
        if ui.button(tr.export_summary).clicked() {
            app.actions.push(Action::OpenDialog(Dialog::SaveSummary));
        }
    });
    ui.add_space(6.0);
    ui.strong(tr.over_time);
    let days = p.days.clone();
    let series = |value: fn(&crate::engine::web::stats::DayStats) -> usize| -> Vec<[f64; 2]> {
        days.iter().enumerate().map(|(i, d)| [i as f64, value(d) as f64]).collect()
    };
    let (online, new) = (series(|d| d.online), series(|d| d.new));
    let labels = days.iter().map(|d| d.day.clone()).collect::<Vec<_>>();
    egui_plot::Plot::new("copies_per_day")
        .height(180.0)
        .legend(egui_plot::Legend::default())
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag(false)
        .include_y(0.0)
        // Half a day of margin each side: one day of data is a point in the middle, not on the edge.
        .include_x(-0.5)
        .include_x(days.len() as f64 - 0.5)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            labels.get(i as usize).map_or_else(String::new, |d| d[5..].to_string())
        })
        .show(ui, |plot| {
            // Lines between days and a visible point on each day, so one or two days of data
            // show as points, not as a 1-pixel dot.
            for (name, values, color) in [
                (tr.online_per_day, online, egui::Color32::from_rgb(178, 34, 52)),
                (tr.new_per_day, new, egui::Color32::from_rgb(230, 120, 0)),
            ] {
                plot.line(egui_plot::Line::new(name, values.clone()).color(color).width(2.0));
                plot.points(egui_plot::Points::new(name, values).color(color).radius(4.0).filled(true));
            }
        });
    ui.add_space(8.0);
    ui.columns(2, |cols| {
        cols[0].strong(tr.per_work);
        cols[0].push_id("per_work", |ui| {
            TableBuilder::new(ui)
                .striped(true)
                .column(Column::remainder().at_least(160.0).clip(true))
                .columns(Column::auto(), 4)
                .header(22.0, |mut h| {
                    for label in [tr.work, tr.sites, tr.pages, tr.online, tr.best] {
                        h.col(|ui| {
                            ui.strong(label);
                        });
                    }
                })
                .body(|body| {
                    body.rows(22.0, p.works.len(), |mut row| {
                        let w = &p.works[row.index()];
                        // A work as everywhere else: 《title》 and its authors.
                        let name = match w.work_id {
                            Some(_) => super::work_name(&w.title, &w.authors),
                            None => w.title.clone(),
                        };
                        row.col(|ui| {
                            ui.label(name).on_hover_text(format!(
                                "{}\n{}: {}\n{}: {}",
                                w.path,
                                tr.first_seen,
                                format_utc(w.first_seen),
                                tr.last_seen,
                                format_utc(w.last_seen)
                            ));
                        });
                        for v in [w.sites.to_string(), w.pages.to_string(), w.online.to_string()] {
                            row.col(|ui| {
                                ui.label(v);
                            });
                        }
                        row.col(|ui| {
                            ui.label(format!("{:.1}%", w.best_similarity * 100.0));
                        });
                    });
                });
        });
        cols[1].strong(tr.per_site);
        cols[1].push_id("per_site", |ui| {
            TableBuilder::new(ui)
                .striped(true)
                .column(Column::remainder().at_least(140.0).clip(true))
                .columns(Column::auto(), 4)
                .header(22.0, |mut h| {
                    for label in [tr.site, tr.pages, tr.works, tr.copied_share, tr.online] {
                        h.col(|ui| {
                            ui.strong(label);
                        });
                    }
                })
                .body(|body| {
                    body.rows(22.0, p.sites.len(), |mut row| {
                        let s = &p.sites[row.index()];
                        row.col(|ui| {
                            ui.label(&s.host);
                        });
                        for v in [s.pages.to_string(), s.works.to_string()] {
                            row.col(|ui| {
                                ui.label(v);
                            });
                        }
                        row.col(|ui| {
                            ui.label(format!("{:.1}%", s.copied_share * 100.0));
                        });
                        row.col(|ui| {
                            ui.label(s.online.to_string());
                        });
                    });
                });
        });
    });
}
