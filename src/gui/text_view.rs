//! A read-only text pane that lays out only the rows on screen, so a 1,000,000-character
//! novel scrolls as smoothly as a page. The text is wrapped into rows once per width
//! (glyph widths cached per character), and each visible row is drawn as one LayoutJob
//! with its highlights.

use eframe::egui::{self, Color32, FontId, Stroke, TextFormat, text::LayoutJob};
use std::collections::HashMap;
use std::ops::Range;

/// A highlighted range of characters.
#[derive(Clone, Debug)]
pub struct Span {
    pub range: Range<usize>,
    pub background: Color32,
    pub underline: Option<Color32>,
}

pub struct TextPane {
    chars: Vec<char>,
    /// Char ranges of the rows, for the current wrap width.
    rows: Vec<Range<usize>>,
    wrapped_for: f32,
    widths: HashMap<char, f32>,
    /// A character to bring into view; kept until the scroll area has really moved there
    /// (on the first frame it does not know its height yet and clamps the offset).
    pending_scroll: Option<usize>,
    /// Rows shown above `pending_scroll`'s character: a few for a jump to a passage, none to
    /// keep the top character in place when the width changes.
    pending_lead: f32,
    /// Frames spent on `pending_scroll`: an area that never gets there (no rows, a zero
    /// height) must not keep the app repainting forever.
    scroll_frames: u32,
    /// The first character on screen when last drawn.
    first_visible: usize,
    /// The scroll offset the pane was last drawn at.
    last_offset: Option<f32>,
}

pub const FONT_SIZE: f32 = 15.0;

/// Frames a scroll target is retried for; the area knows its height after one or two.
const MAX_SCROLL_FRAMES: u32 = 8;

impl TextPane {
    pub fn new(text: &str) -> TextPane {
        TextPane {
            chars: text.chars().collect(),
            rows: Vec::new(),
            wrapped_for: -1.0,
            widths: HashMap::new(),
            pending_scroll: None,
            pending_lead: 0.0,
            scroll_frames: 0,
            first_visible: 0,
            last_offset: None,
        }
    }

    pub fn chars(&self) -> &[char] {
        &self.chars
    }

    fn rewrap(&mut self, ctx: &egui::Context, width: f32) {
        if (self.wrapped_for - width).abs() < 0.5 && !self.rows.is_empty() {
            return;
        }
        let font = FontId::proportional(FONT_SIZE);
        let mut missing: Vec<char> = self.chars.iter().copied().filter(|c| !self.widths.contains_key(c)).collect();
        missing.sort_unstable();
        missing.dedup();
        if !missing.is_empty() {
            ctx.fonts_mut(|f| {
                for c in missing {
                    self.widths.insert(c, f.glyph_width(&font, if c == '\t' { ' ' } else { c }));
                }
            });
        }
        let rewrapped = !self.rows.is_empty();
        self.rows = wrap_rows(&self.chars, |c| self.widths[&c], width);
        self.wrapped_for = width;
        // New rows put other text at the same height: keep the character that was on top
        // there (a jump still under way keeps its own target). The panes' widths settle over
        // the first frames, which had left a long suspect far from the passage it opened at.
        if rewrapped && self.pending_scroll.is_none() {
            self.pending_scroll = Some(self.first_visible);
            self.pending_lead = 0.0;
            self.scroll_frames = 0;
        }
    }

    /// Brings character `c` into view (near the top) from the next frame on.
    pub fn scroll_to(&mut self, c: usize) {
        self.pending_scroll = Some(c);
        self.pending_lead = 2.0;
        self.scroll_frames = 0;
    }

    /// The first character on screen when the pane was last drawn.
    pub fn first_visible(&self) -> usize {
        self.first_visible
    }

    /// The row holding character `c`.
    pub fn row_of(&self, c: usize) -> usize {
        self.rows.partition_point(|r| r.end <= c).min(self.rows.len().saturating_sub(1))
    }

    /// Draws the pane. `passages` are few long spans; `marks` are many short ones sorted by
    /// start and not overlapping each other (found per row by binary search, so a text
    /// with hundreds of thousands of marks still draws only what is visible).
    /// Returns the first visible character and whether the user scrolled this frame.
    pub fn show(&mut self, ui: &mut egui::Ui, id: &str, passages: &[Span], marks: &[Span]) -> (usize, bool) {
        let width = (ui.available_width() - 16.0).max(50.0);
        self.rewrap(ui.ctx(), width);
        let font = FontId::proportional(FONT_SIZE);
        let row_height = ui.fonts_mut(|f| f.row_height(&font));
        let row_step = row_height + ui.spacing().item_spacing.y;
        let mut area = egui::ScrollArea::vertical().id_salt(id).auto_shrink(false);
        let target = self.pending_scroll.map(|c| (self.row_of(c) as f32 - self.pending_lead).max(0.0) * row_step);
        if let Some(y) = target {
            area = area.vertical_scroll_offset(y);
        }
        let text_color = ui.visuals().text_color();
        let out = area.show_rows(ui, row_height, self.rows.len(), |ui, visible| {
            for r in visible {
                let row = self.rows[r].clone();
                let first = marks.partition_point(|m| m.range.end <= row.start);
                let last = first + marks[first..].partition_point(|m| m.range.start < row.end);
                let mut spans: Vec<Span> =
                    passages.iter().filter(|s| s.range.start < row.end && s.range.end > row.start).cloned().collect();
                spans.extend_from_slice(&marks[first..last]);
                let job = self.row_job(row, &spans, &font, text_color);
                ui.add(egui::Label::new(job).wrap_mode(egui::TextWrapMode::Extend).selectable(true));
            }
        });
        let top_row =
            ((out.state.clamped_offset().y / row_step).floor() as usize).min(self.rows.len().saturating_sub(1));
        let top = self.rows.get(top_row).map_or(0, |r| r.start);
        let now = out.state.clamped_offset().y;
        // Against the offset this pane last drew at (egui's stored state is keyed by an id
        // hashed from the salt, which `make_persistent_id(id)` does not reproduce: reading it
        // found nothing, so linked scrolling never saw the suspect move).
        let moved = target.is_none() && self.last_offset.is_some_and(|b| (b - now).abs() > 0.5);
        self.last_offset = Some(now);
        let max = (out.content_size.y - out.inner_rect.height()).max(0.0);
        self.scroll_frames += target.is_some() as u32;
        let arrived = target.is_some_and(|y| (y.min(max) - now).abs() < 1.0 && out.content_size.y > 0.0);
        if arrived || self.rows.is_empty() || self.scroll_frames > MAX_SCROLL_FRAMES {
            self.pending_scroll = None;
        } else if target.is_some() {
            ui.ctx().request_repaint();
        }
        self.first_visible = top;
        (top, moved)
    }

    fn row_job(&self, row: Range<usize>, spans: &[Span], font: &FontId, color: Color32) -> LayoutJob {
        let mut job = LayoutJob::default();
        job.wrap.max_width = f32::INFINITY;
        let style_at = |i: usize| -> (Color32, Option<Color32>) {
            let mut bg = Color32::TRANSPARENT;
            let mut underline = None;
            for s in spans.iter().filter(|s| s.range.contains(&i)) {
                if s.background != Color32::TRANSPARENT {
                    bg = s.background;
                }
                if s.underline.is_some() {
                    underline = s.underline;
                }
            }
            (bg, underline)
        };
        let mut i = row.start;
        while i < row.end {
            let style = style_at(i);
            let mut j = i + 1;
            while j < row.end && style_at(j) == style {
                j += 1;
            }
            let text: String =
                self.chars[i..j].iter().map(|&c| if c == '\t' { ' ' } else { c }).filter(|&c| c != '\n').collect();
            let format = TextFormat {
                font_id: font.clone(),
                color,
                background: style.0,
                underline: style.1.map_or(Stroke::NONE, |c| Stroke::new(2.0, c)),
                ..Default::default()
            };
            job.append(&text, 0.0, format);
            i = j;
        }
        job
    }
}

/// Cuts text into rows no wider than `width`: at line breaks, between any two Han
/// characters, and, in Latin text, after the last space before the edge, so an English word
/// is not split (a word wider than a row is cut where it must be).
fn wrap_rows(chars: &[char], width_of: impl Fn(char) -> f32, width: f32) -> Vec<Range<usize>> {
    let mut rows = Vec::new();
    let (mut start, mut x) = (0, 0.0);
    // Where the row may end before the edge (after a character that is not part of a Latin
    // word), and the width from there to the current character.
    let mut last_break: Option<usize> = None;
    let mut since_break = 0.0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\n' {
            rows.push(start..i + 1);
            (start, x, last_break, since_break) = (i + 1, 0.0, None, 0.0);
            continue;
        }
        let w = width_of(c);
        if x + w > width && i > start {
            let in_word = is_word_char(c) && is_word_char(chars[i - 1]);
            match last_break.filter(|&b| in_word && b > start) {
                Some(b) => {
                    rows.push(start..b);
                    (start, x) = (b, since_break);
                }
                None => {
                    rows.push(start..i);
                    (start, x) = (i, 0.0);
                }
            }
            last_break = None;
            since_break = 0.0;
        }
        x += w;
        since_break += w;
        if !is_word_char(c) {
            last_break = Some(i + 1);
            since_break = 0.0;
        }
    }
    if start < chars.len() || rows.is_empty() {
        rows.push(start..chars.len());
    }
    rows
}

/// Letters, digits and the marks inside Latin words (`don't`, `well-known`): a row is not cut
/// between two of them when it can be cut elsewhere. Han characters (from U+2E80 on) are not.
fn is_word_char(c: char) -> bool {
    (c.is_alphanumeric() && c < '\u{2E80}') || matches!(c, '\'' | '-' | '\u{2019}')
}

#[cfg(test)]
mod tests {
    use super::wrap_rows;

    fn rows(text: &str, width: f32) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        wrap_rows(&chars, |_| 1.0, width).into_iter().map(|r| chars[r].iter().collect()).collect()
    }

    #[test]
    fn english_wraps_between_words_and_han_anywhere() {
        assert_eq!(rows("the quick brown fox jumps", 12.0), ["the quick ", "brown fox ", "jumps"]);
        assert_eq!(rows("天地玄黄宇宙洪荒日月", 4.0), ["天地玄黄", "宇宙洪荒", "日月"]);
        // A word longer than a row is cut where it must be.
        assert_eq!(rows("supercalifragilistic ok", 8.0), ["supercal", "ifragili", "stic ok"]);
        // Line breaks end rows; mixed text breaks after the Han character before a word.
        assert_eq!(rows("ab\ncd", 10.0), ["ab\n", "cd"]);
        assert_eq!(rows("孙悟空Monkey", 7.0), ["孙悟空", "Monkey"]);
    }
}
