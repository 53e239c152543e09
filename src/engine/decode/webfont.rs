//! Scrambled web fonts (字体反爬): a page's text holds the wrong characters (or private-use
//! code points) and a font of its own, named in an `@font-face` rule, draws the right glyph
//! for each. A reader sees the chapter; a copy of the text does not match it.
//!
//! [`unscramble`] reads the page's `@font-face` fonts (TrueType, OpenType, WOFF, WOFF2;
//! `data:` URLs or fetched), draws the glyph each font gives every character of the text,
//! and reads the glyphs back with the OCR recognizer ([`super::ocr`]), several to a line.
//! A font is taken for a scrambling one when the glyphs of a sample of the text's
//! characters read as other characters; then every character it covers is replaced by the
//! one its glyph shows. Ordinary web fonts (a typeface that draws each character as
//! itself) are left alone.

use super::ocr::Ocr;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use std::collections::{BTreeMap, HashMap};

/// Fonts tried per page at most.
const MAX_FONTS: usize = 8;
/// Characters of the text read back from one font at most (a chapter uses about 1,500
/// different ones).
const MAX_CHARS: usize = 4000;
/// The sample that decides whether a font scrambles: its most frequent characters...
const SAMPLE: usize = 32;
/// ... of which at least this share must read as another character.
const SCRAMBLED_SHARE: f32 = 0.25;
/// Glyphs drawn on one line for the recognizer.
const PER_LINE: usize = 8;

/// One `@font-face` rule: its family and its `src` URLs in order.
#[derive(Clone, Debug, PartialEq)]
pub struct FontFace {
    pub family: String,
    pub sources: Vec<String>,
}

/// The `@font-face` rules of a page's markup (its `<style>` blocks and attributes).
pub fn font_faces(markup: &str) -> Vec<FontFace> {
    let mut faces = Vec::new();
    let lower = markup.to_ascii_lowercase();
    let mut at = 0;
    while let Some(found) = lower[at..].find("@font-face") {
        let start = at + found;
        let Some(open) = lower[start..].find('{').map(|i| start + i + 1) else { break };
        let Some(close) = lower[open..].find('}').map(|i| open + i) else { break };
        let body = &markup[open..close];
        let family = property(body, "font-family").map(|f| f.trim_matches(['"', '\'', ' ']).to_string());
        let sources = property(body, "src").map(urls).unwrap_or_default();
        if let Some(family) = family.filter(|_| !sources.is_empty()) {
            faces.push(FontFace { family, sources });
        }
        at = close;
    }
    faces
}

/// The value of a CSS property in a declaration block (up to its `;`; a `data:` URL's own
/// `;` kept inside its parentheses).
fn property<'a>(body: &'a str, name: &str) -> Option<&'a str> {
    let lower = body.to_ascii_lowercase();
    let mut at = 0;
    while let Some(found) = lower[at..].find(name) {
        let start = at + found;
        let before = lower[..start].chars().next_back();
        let rest = lower[start + name.len()..].trim_start();
        if before.is_none_or(|c| c == ';' || c == '{' || c.is_whitespace()) && rest.starts_with(':') {
            let value_start = body.len() - rest.len() + 1;
            let mut depth = 0;
            let end = body[value_start..]
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    c == ';' && depth == 0
                })
                .map_or(body.len(), |(i, _)| value_start + i);
            return Some(body[value_start..end].trim());
        }
        at = start + name.len();
    }
    None
}

/// The `url(…)` values of a `src` descriptor, quotes removed.
fn urls(src: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.to_ascii_lowercase().find("url(") {
        let after = &rest[i + 4..];
        let Some(end) = after.find(')') else { break };
        found.push(after[..end].trim().trim_matches(['"', '\'']).to_string());
        rest = &after[end + 1..];
    }
    found
}

/// The bytes of a `data:` URL (base64 or percent-encoded), if it is one.
pub fn data_url(url: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    let rest = url.strip_prefix("data:")?;
    let (meta, payload) = rest.split_once(',')?;
    if meta.ends_with(";base64") {
        let clean: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
        base64::engine::general_purpose::STANDARD.decode(clean).ok()
    } else {
        Some(payload.as_bytes().to_vec())
    }
}

/// A font's bytes as a plain sfnt (TrueType/OpenType), WOFF and WOFF2 unpacked.
pub fn sfnt(bytes: &[u8]) -> Result<Vec<u8>, String> {
    match bytes.get(..4) {
        Some(b"wOFF") => wuff::decompress_woff1(bytes).map_err(|e| format!("damaged WOFF font ({e:?})")),
        Some(b"wOF2") => wuff::decompress_woff2(bytes).map_err(|e| format!("damaged WOFF2 font ({e:?})")),
        Some([0, 1, 0, 0] | b"OTTO" | b"true") => Ok(bytes.to_vec()),
        _ => Err("not a font (TrueType, OpenType, WOFF or WOFF2)".into()),
    }
}

/// The characters a scrambling font redraws: code point → the character its glyph shows.
pub fn remapping(font: &[u8], text: &str, ocr: &Ocr) -> Result<HashMap<char, char>, String> {
    let font = FontRef::try_from_slice(font).map_err(|_| "damaged font".to_string())?;
    let mut counts: BTreeMap<char, usize> = BTreeMap::new();
    for c in text.chars().filter(|c| !c.is_whitespace() && !c.is_ascii_punctuation()) {
        *counts.entry(c).or_default() += 1;
    }
    let mut covered: Vec<(char, usize)> = counts.into_iter().filter(|&(c, _)| font.glyph_id(c).0 != 0).collect();
    // Most frequent first: the sample is what the page is mostly made of.
    covered.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    covered.truncate(MAX_CHARS);
    let chars: Vec<char> = covered.into_iter().map(|(c, _)| c).collect();
    let sample = &chars[..chars.len().min(SAMPLE)];
    if sample.is_empty() {
        return Ok(HashMap::new());
    }
    let read = read_glyphs(&font, sample, ocr)?;
    let differ = sample.iter().zip(&read).filter(|(c, r)| r.is_some_and(|r| r != **c)).count();
    if (differ as f32) < sample.len() as f32 * SCRAMBLED_SHARE {
        return Ok(HashMap::new());
    }
    let mut map = HashMap::new();
    let rest = read_glyphs(&font, &chars[sample.len()..], ocr)?;
    for (c, r) in chars.iter().zip(read.into_iter().chain(rest)) {
        if let Some(r) = r.filter(|r| r != c) {
            map.insert(*c, r);
        }
    }
    Ok(map)
}

/// What each character's glyph in `font` reads as (`None`: unreadable, or not one
/// character), several glyphs drawn to a line.
fn read_glyphs(font: &FontRef, chars: &[char], ocr: &Ocr) -> Result<Vec<Option<char>>, String> {
    let mut read = Vec::with_capacity(chars.len());
    for line in chars.chunks(PER_LINE) {
        let lines = ocr.recognize(&[draw(font, line)])?;
        let text: Vec<char> = lines[0].text.chars().filter(|c| !c.is_whitespace()).collect();
        if text.len() == line.len() {
            read.extend(text.into_iter().map(Some));
            continue;
        }
        // The line did not read as one character per glyph: each glyph alone.
        let singles = ocr.recognize(&line.iter().map(|&c| draw(font, &[c])).collect::<Vec<_>>())?;
        read.extend(singles.into_iter().map(|l| {
            let mut chars = l.text.chars().filter(|c| !c.is_whitespace());
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        }));
    }
    Ok(read)
}

/// The glyphs of `chars` in a row, dark on white, 36 px, spaced by a third of their size.
fn draw(font: &FontRef, chars: &[char]) -> image::RgbImage {
    let size = 36.0;
    let scaled = font.as_scaled(PxScale::from(size));
    let gap = size / 3.0;
    let width = chars.len() as f32 * (size + gap) + gap;
    let height = size * 1.5;
    let mut page = image::RgbImage::from_pixel(width.ceil() as u32, height.ceil() as u32, image::Rgb([255, 255, 255]));
    let baseline = (height - (scaled.ascent() - scaled.descent())) / 2.0 + scaled.ascent();
    for (i, &c) in chars.iter().enumerate() {
        let x = gap + i as f32 * (size + gap);
        ink_glyph(&mut page, font, scaled.scaled_glyph(c), (x, baseline), 0.0);
    }
    page
}

/// Draws `glyph` of `font` with its baseline's left end at `at`, in the grey `ink`
/// (0 black), blended by how much of each pixel it covers.
pub fn ink_glyph(page: &mut image::RgbImage, font: &impl Font, glyph: ab_glyph::Glyph, at: (f32, f32), ink: f32) {
    let Some(outline) = font.outline_glyph(ab_glyph::Glyph { position: ab_glyph::point(at.0, at.1), ..glyph }) else {
        return;
    };
    let bounds = outline.px_bounds();
    outline.draw(|gx, gy, coverage| {
        let (px, py) = (bounds.min.x as i64 + gx as i64, bounds.min.y as i64 + gy as i64);
        if px >= 0 && py >= 0 && (px as u32) < page.width() && (py as u32) < page.height() {
            let pixel = page.get_pixel_mut(px as u32, py as u32);
            for channel in pixel.0.iter_mut() {
                *channel = (ink * coverage + *channel as f32 * (1.0 - coverage)).round() as u8;
            }
        }
    });
}

/// `text` with each character a page's scrambling fonts redraw replaced by the one they
/// show, and how many characters were replaced. `fetch` gives a font's bytes for a URL of
/// the page (resolved by the caller; `None` when it cannot be had); `data:` URLs are read
/// here. Fonts that cannot be read are skipped; without the OCR models nothing changes.
pub fn unscramble(markup: &str, text: &str, fetch: &mut dyn FnMut(&str) -> Option<Vec<u8>>) -> (String, u32) {
    let faces = font_faces(markup);
    if faces.is_empty() {
        return (text.to_string(), 0);
    }
    let Ok(ocr) = super::ocr::shared() else { return (text.to_string(), 0) };
    let mut map: HashMap<char, char> = HashMap::new();
    for face in faces.iter().take(MAX_FONTS) {
        let font = face.sources.iter().find_map(|src| {
            let bytes = data_url(src).or_else(|| fetch(src))?;
            sfnt(&bytes).ok()
        });
        if let Some(font) = font
            && let Ok(found) = remapping(&font, text, ocr)
        {
            for (from, to) in found {
                map.entry(from).or_insert(to);
            }
        }
    }
    if map.is_empty() {
        return (text.to_string(), 0);
    }
    let mut replaced = 0;
    let repaired = text
        .chars()
        .map(|c| match map.get(&c) {
            Some(&to) => {
                replaced += 1;
                to
            }
            None => c,
        })
        .collect();
    (repaired, replaced)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_face_rules_are_found_with_their_sources_and_data_urls_read() {
        let page = r#"<style>
            .a { color: red }
            @font-face { font-family: "zw-x"; src: url('/fonts/a.woff2') format("woff2"),
                url(data:font/ttf;base64,AAEAAA==) format("truetype"); }
            @FONT-FACE{font-family:plain;src:url(b.ttf)}
        </style>"#;
        let faces = font_faces(page);
        assert_eq!(faces.len(), 2, "{faces:?}");
        assert_eq!(faces[0].family, "zw-x");
        assert_eq!(faces[0].sources, vec!["/fonts/a.woff2".to_string(), "data:font/ttf;base64,AAEAAA==".to_string()]);
        assert_eq!(faces[1], FontFace { family: "plain".into(), sources: vec!["b.ttf".into()] });
        assert_eq!(data_url(&faces[0].sources[1]).unwrap(), vec![0, 1, 0, 0]);
        assert!(sfnt(b"<html>").is_err());
    }
}
