//! The self-contained HTML report: one file, CSS inline, no script, no network, no
//! external fonts or images; CJK text renders with the reader's system fonts. Every
//! piece of text from the files (content, titles, paths) is untrusted and escaped.

use super::{ReportInput, escape, format_utc, percent};
use crate::engine::check::diff::MarkKind;
use std::fmt::Write;

/// Characters of context shown around a passage on each side.
const CONTEXT: usize = 80;

pub(super) const STYLE: &str = r#"
:root { --fg:#1d1d1f; --muted:#666; --line:#ddd; --accent:#b22234; --sub:#e67800; --edit:rgba(200,30,30,.28); }
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC","Source Han Sans SC","PingFang SC","Microsoft YaHei","WenQuanYi Micro Hei",system-ui,sans-serif;
       color: var(--fg); margin: 0 auto; max-width: 1200px; padding: 24px; line-height: 1.6; }
h1 { color: var(--accent); margin: 0 0 8px; font-size: 26px; }
h2 { border-bottom: 2px solid var(--accent); padding-bottom: 4px; margin-top: 36px; }
h3 { font-size: 15px; margin: 0 0 6px; }
h3.region { margin: 22px 0 8px; color: var(--accent); }
.passage > h4 { font-size: 14px; margin: 0 0 6px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; white-space: nowrap; }
.meta td:first-child { color: var(--muted); width: 180px; }
.path { color: var(--muted); font-size: 12px; word-break: break-all; }
.overall { font-size: 20px; margin: 16px 0; }
.overall b { color: var(--accent); }
.passage { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 14px 0; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.side h4 { margin: 0 0 4px; color: var(--muted); font-size: 12px; font-weight: normal; }
.text { white-space: pre-wrap; word-break: break-all; font-size: 15px; margin: 0; padding: 8px; background: #fafafa; border-radius: 6px; }
.ctx { color: #999; }
mark { background: #ffe08a; color: inherit; }
.sub { text-decoration: underline 2px var(--sub); text-underline-offset: 3px; }
.edit { background: var(--edit); }
.legend span { margin-right: 16px; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
a { color: var(--accent); }
@media print {
  body { max-width: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  .passage { break-inside: avoid-page; }
  h2 { break-after: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"#;

/// The report of one suspect.
pub fn html(input: &ReportInput) -> String {
    let r = input.report;
    let mut out = String::with_capacity(64 * 1024);
    let name = super::file_name(&r.path);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Zhiwen report — {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&name)
    );
    let _ = write!(
        out,
        "<header>\n<h1>指纹 Zhiwen — match report</h1>\n<table class=\"meta\">\n\
         <tr><td>Suspect</td><td>{}<div class=\"path\">{}</div></td></tr>\n\
         <tr><td>Generated</td><td>{} UTC</td></tr>\n\
         <tr><td>Corpus</td><td>{} documents, {} windows</td></tr>\n\
         <tr><td>Settings</td><td>window {} units, step {}, n-gram {}, {} votes, maximum distance {} bits, minimum copy {} characters \
         and {} bits of verified text</td></tr>\n\
         <tr><td>Suspect length</td><td>{} characters</td></tr>\n</table>\n",
        escape(&name),
        escape(&r.path),
        format_utc(input.generated_at),
        input.corpus.documents,
        input.corpus.windows,
        input.params.window,
        input.params.step,
        input.params.ngram,
        match input.params.weighting {
            crate::engine::params::Weighting::Rarity => "rarity-weighted",
            crate::engine::params::Weighting::Uniform => "uniform",
        },
        input.check.max_distance,
        input.check.min_passage_chars,
        input.check.min_evidence_bits,
        r.chars
    );
    if let Some(e) = &r.error {
        let _ = write!(out, "<p class=\"overall\">This file could not be checked: {}</p>\n</header>\n", escape(e));
        return finish(out);
    }
    // A suspect that only translates (or adapts) its sources shares no characters with them.
    let translated_only = !r.sources.is_empty() && r.sources.iter().all(|s| !s.kind.is_text());
    let explanation = if translated_only {
        format!(
            "share of the suspect's words in sentences aligned with those of {} source document(s) in another language",
            r.sources.len()
        )
    } else {
        format!(
            "share of the suspect's characters (Han characters, letters, digits) inside passages copied from {} source \
             document(s)",
            r.sources.len()
        )
    };
    let _ = write!(
        out,
        "<p class=\"overall\">Overall similarity <b>{}</b>: {explanation}.</p>\n</header>\n",
        percent(r.similarity)
    );
    if let Some(disguises) = r.disguises.describe() {
        // A disguise is evidence of intent: said before the sources.
        let _ = writeln!(out, "<p class=\"disguises\">Disguised: {} (undone before matching).</p>", escape(&disguises));
    }
    if r.sources.is_empty() {
        out += "<p>No source in the corpus was found.</p>\n";
        return finish(out);
    }
    out += "<section id=\"sources\">\n<h2>Sources</h2>\n<table>\n<tr><th>#</th><th>Title and path</th>\
            <th class=\"num\">Similarity</th><th class=\"num\">Source coverage</th><th class=\"num\">Passages</th></tr>\n";
    for (i, s) in r.sources.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{n}</td><td><a href=\"#source-{n}\">{}</a><div class=\"path\">{}</div></td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&s.label()),
            escape(&s.path),
            percent(s.similarity),
            percent(s.source_coverage),
            s.passages.len(),
            n = i + 1
        );
    }
    out += "</table>\n";
    if translated_only {
        out += "<p class=\"legend\"><span><mark>aligned sentences</mark></span></p>\n</section>\n";
    } else {
        out += "<p class=\"legend\"><span><mark>copied passage</mark></span>\
                <span><span class=\"sub\">字</span> homophone or script change</span>\
                <span><span class=\"edit\">字</span> typo, insertion or deletion</span></p>\n</section>\n";
    }

    let suspect: Vec<char> = input.suspect_text.chars().collect();
    for (i, s) in r.sources.iter().enumerate() {
        let source: Vec<char> = input.source_text(s.id).chars().collect();
        let _ = write!(
            out,
            "<section class=\"source\" id=\"source-{n}\">\n<h2>{n}. {}</h2>\n<p class=\"path\">{}{} · similarity {} · source coverage {}</p>\n",
            escape(&s.label()),
            s.work
                .as_ref()
                .filter(|w| !w.authors.is_empty())
                .map_or_else(String::new, |w| format!("{} · ", escape(&w.authors.join("、")))),
            escape(&s.path),
            percent(s.similarity),
            percent(s.source_coverage),
            n = i + 1
        );
        if !s.names.is_empty() {
            let names: Vec<String> = s
                .names
                .iter()
                .map(|n| format!("{} = {} ({}×)", escape(&n.english), escape(&n.chinese), n.count))
                .collect();
            let _ = writeln!(out, "<p class=\"names\">Names both share: {}</p>", names.join(" · "));
        }
        for (j, p) in s.passages.iter().enumerate() {
            let d = s.passage_marks(&suspect, &source, p);
            let heading = if s.kind.is_text() {
                if j == 0 || s.passages[j - 1].region != p.region {
                    let members: Vec<&crate::Passage> = s.passages.iter().filter(|q| q.region == p.region).collect();
                    let _ = writeln!(
                        out,
                        "<h3 class=\"region\">Copied region {}: {} passage(s), suspect characters {}–{}</h3>",
                        p.region + 1,
                        members.len(),
                        members.iter().map(|q| q.suspect_start).min().unwrap_or(0),
                        members.iter().map(|q| q.suspect_end).max().unwrap_or(0),
                    );
                }
                format!(
                    "Passage {}: suspect characters {}–{}, source characters {}–{}, {} characters, distance {}, \
                     verified {} ({:.0} bits)",
                    j + 1,
                    p.suspect_start,
                    p.suspect_end,
                    p.source_start,
                    p.source_end,
                    p.suspect_end - p.suspect_start,
                    p.distance,
                    percent(p.containment),
                    p.evidence_bits
                )
            } else {
                // A translation's passages are aligned sentences, not shared characters.
                format!(
                    "Aligned sentences {}: suspect characters {}–{}, source characters {}–{}; {} of its words have a \
                     word of the source meaning them ({:.1} bits)",
                    j + 1,
                    p.suspect_start,
                    p.suspect_end,
                    p.source_start,
                    p.source_end,
                    percent(p.containment),
                    p.evidence_bits
                )
            };
            let _ = write!(
                out,
                "<div class=\"passage\" id=\"source-{}-passage-{}\">\n<h4>{heading}</h4>\n<div class=\"pair\">\n",
                i + 1,
                j + 1
            );
            side(&mut out, "Suspect", &suspect, p.suspect_start..p.suspect_end, &d.suspect);
            side(&mut out, "Source", &source, p.source_start..p.source_end, &d.source);
            out += "</div>\n</div>\n";
        }
        out += "</section>\n";
    }
    finish(out)
}

fn finish(mut out: String) -> String {
    let _ = write!(
        out,
        "<footer>Made by Zhiwen {} from the files named above. Offsets count characters (Unicode scalar values) of the \
         extracted texts, end exclusive. Distance: smallest Hamming distance (of 64 bits) between matching window \
         fingerprints. Verified: share of the suspect passage's token shingles (6 pinyin initials or 2 words) found in \
         the source passage, and the information of that shared text in bits. A copied region is one copy cut into \
         passages by inserted lines, edits or reordered sentences.</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// One side of a passage with its context, the passage marked and its differences shown.
fn side(
    out: &mut String,
    label: &str,
    text: &[char],
    range: std::ops::Range<usize>,
    marks: &[crate::engine::check::diff::Mark],
) {
    let (start, end) = (range.start.min(text.len()), range.end.min(text.len()));
    let before = start.saturating_sub(CONTEXT);
    let after = (end + CONTEXT).min(text.len());
    let _ = write!(out, "<div class=\"side\"><h4>{label} {start}–{end}</h4><p class=\"text\">");
    let piece = |a: usize, b: usize| -> String { escape(&text[a..b].iter().collect::<String>()) };
    let _ =
        write!(out, "<span class=\"ctx\">{}{}</span><mark>", if before > 0 { "…" } else { "" }, piece(before, start));
    let mut at = start;
    for m in marks.iter().filter(|m| m.start >= start && m.end <= end) {
        if m.start < at {
            continue;
        }
        out.push_str(&piece(at, m.start));
        let class = match m.kind {
            MarkKind::Substitution => "sub",
            MarkKind::Edit => "edit",
        };
        let _ = write!(out, "<span class=\"{class}\">{}</span>", piece(m.start, m.end));
        at = m.end;
    }
    out.push_str(&piece(at, end));
    let _ = writeln!(
        out,
        "</mark><span class=\"ctx\">{}{}</span></p></div>",
        piece(end, after),
        if after < text.len() { "…" } else { "" }
    );
}

/// The index page of a batch: one row per suspect, linking its report.
pub fn index(entries: &[(String, &crate::SuspectReport)], generated_at: i64) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n<title>Zhiwen reports</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<h1>指纹 Zhiwen — reports</h1>\n<p>{} suspects, generated {} UTC.</p>\n\
         <table>\n<tr><th>Suspect</th><th class=\"num\">Similarity</th><th>Top source</th><th class=\"num\">Passages</th></tr>\n",
        entries.len(),
        format_utc(generated_at)
    );
    for (file, r) in entries {
        let (top, passages) = match (&r.error, r.sources.first()) {
            (Some(e), _) => (format!("error: {}", escape(e)), String::new()),
            (None, Some(s)) => (escape(&s.label()), s.passages.len().to_string()),
            (None, None) => ("no source found".into(), "0".into()),
        };
        let _ = writeln!(
            out,
            "<tr><td><a href=\"{}\">{}</a><div class=\"path\">{}</div></td><td class=\"num\">{}</td><td>{top}</td><td class=\"num\">{passages}</td></tr>",
            escape(file),
            escape(&super::file_name(&r.path)),
            escape(&r.path),
            if r.error.is_some() { String::new() } else { percent(r.similarity) }
        );
    }
    out + "</table>\n</body>\n</html>\n"
}
