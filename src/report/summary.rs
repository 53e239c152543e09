//! The summary report of the picture (`engine/stats.rs`): per work, per site and over
//! time, one self-contained HTML page with the report's style and an inline SVG chart.
//! Titles, paths and hosts come from files and pages: all of it goes through [`escape`].

use super::{escape, format_utc, percent};
use crate::engine::web::stats::{DayStats, Picture};
use std::fmt::Write;

/// The chart's colours: new copies and copies online.
const NEW: &str = "#e67800";
const ONLINE: &str = "#b22234";

pub fn summary_html(p: &Picture) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n<title>Zhiwen — piracy summary</title>\n\
         <style>{}</style>\n</head>\n<body>\n<h1>指纹 Zhiwen — piracy summary</h1>\n\
         <p class=\"overall\"><b>{}</b> pages copy your works, <b>{}</b> still online, on <b>{}</b> sites; \
         generated {} UTC.</p>\n",
        super::html::STYLE,
        p.copies,
        p.online,
        p.sites.len(),
        format_utc(p.generated_at)
    );
    out += "<h2>Over time</h2>\n";
    out += &chart_svg(&p.days);
    out += "<h2>Per work</h2>\n<table>\n<tr><th>Work</th><th class=\"num\">Sites</th><th class=\"num\">Pages</th>\
            <th class=\"num\">Online</th><th class=\"num\">Best similarity</th><th>First seen</th><th>Last seen</th></tr>\n";
    for w in &p.works {
        let _ = writeln!(
            out,
            "<tr><td>《{}》{}<div class=\"path\">{}</div></td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&w.title),
            if w.authors.is_empty() { String::new() } else { format!(" · {}", escape(&w.authors.join("、"))) },
            if w.chapters > 1 { format!("{} chapters", w.chapters) } else { escape(&w.path) },
            w.sites,
            w.pages,
            w.online,
            percent(w.best_similarity),
            format_utc(w.first_seen),
            format_utc(w.last_seen)
        );
    }
    out += "</table>\n<h2>Per site</h2>\n<table>\n<tr><th>Site</th><th class=\"num\">Pages</th><th class=\"num\">Works</th>\
            <th class=\"num\">Copied share of their text</th><th class=\"num\">Still online</th></tr>\n";
    for s in &p.sites {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&s.host),
            s.pages,
            s.works,
            percent(s.copied_share),
            s.online
        );
    }
    out += "</table>\n<h2>Per day</h2>\n<table>\n<tr><th>Day (UTC)</th><th class=\"num\">New copies</th>\
            <th class=\"num\">Copies online</th></tr>\n";
    for d in p.days.iter().rev() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&d.day),
            d.new,
            d.online
        );
    }
    out + "</table>\n<footer>Made by Zhiwen from its findings library; copies are web pages watched or checked.</footer>\n\
           </body>\n</html>\n"
}

/// New copies per day and copies online per day as two lines, in an SVG of its own.
pub fn chart_svg(days: &[DayStats]) -> String {
    let (w, h, left, bottom, top, right) = (900.0, 260.0, 48.0, 40.0, 16.0, 16.0);
    let max = days.iter().map(|d| d.new.max(d.online)).max().unwrap_or(0).max(1) as f64;
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let x = |i: usize| left + if days.len() > 1 { plot_w * i as f64 / (days.len() - 1) as f64 } else { plot_w / 2.0 };
    let y = |v: usize| top + plot_h * (1.0 - v as f64 / max);
    let line = |value: fn(&DayStats) -> usize| -> String {
        days.iter().enumerate().map(|(i, d)| format!("{:.1},{:.1}", x(i), y(value(d)))).collect::<Vec<_>>().join(" ")
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"100%\" role=\"img\" \
         aria-label=\"New copies and copies online per day\" style=\"font-size:12px\">\n\
         <line x1=\"{left}\" y1=\"{t}\" x2=\"{left}\" y2=\"{b}\" stroke=\"#999\"/>\
         <line x1=\"{left}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#999\"/>\n\
         <text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{max}</text><text x=\"{lx}\" y=\"{b}\" text-anchor=\"end\">0</text>\n",
        t = top,
        b = top + plot_h,
        r = left + plot_w,
        lx = left - 6.0,
        ty = top + 4.0,
        max = max as usize,
    );
    if let (Some(first), Some(last)) = (days.first(), days.last()) {
        let _ = writeln!(
            svg,
            "<text x=\"{left}\" y=\"{ly}\">{}</text><text x=\"{r}\" y=\"{ly}\" text-anchor=\"end\">{}</text>",
            escape(&first.day),
            escape(&last.day),
            ly = h - bottom + 18.0,
            r = left + plot_w
        );
        for (value, colour) in [(line(|d| d.online), ONLINE), (line(|d| d.new), NEW)] {
            let _ =
                writeln!(svg, "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{value}\"/>");
        }
    }
    let _ = writeln!(
        svg,
        "<rect x=\"{lx}\" y=\"{ly}\" width=\"12\" height=\"4\" fill=\"{ONLINE}\"/><text x=\"{tx}\" y=\"{ty}\">copies online</text>\
         <rect x=\"{lx2}\" y=\"{ly}\" width=\"12\" height=\"4\" fill=\"{NEW}\"/><text x=\"{tx2}\" y=\"{ty}\">new copies</text>",
        lx = left + 200.0,
        ly = h - 14.0,
        tx = left + 216.0,
        ty = h - 9.0,
        lx2 = left + 330.0,
        tx2 = left + 346.0
    );
    svg + "</svg>\n"
}
