//! Chapters as pictures, for the OCR kinds of the evaluation: text drawn with a CJK font
//! (ab_glyph), optionally turned, grainy and JPEG-compressed, written as one long PNG (a
//! chapter posted as a "long picture") or as a PDF of JPEG pages with no text layer (a
//! scan). `tools/render_pages.py` makes the test fixtures the same way with Pillow.

use ab_glyph::{Font, FontVec, PxScale, ScaleFont};
use image::{Rgb, RgbImage};

/// The fonts tried, first found wins: the system's Noto Serif CJK (Debian's
/// fonts-noto-cjk; face 2 of the collection is Simplified Chinese), then the app's own
/// Noto Sans SC.
const FONTS: &[(&str, u32)] = &[
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    (concat!(env!("CARGO_MANIFEST_DIR"), "/assets/fonts/NotoSansSC-Zhiwen.otf"), 0),
];

pub fn font() -> Option<FontVec> {
    FONTS.iter().find_map(|&(path, index)| FontVec::try_from_vec_and_index(std::fs::read(path).ok()?, index).ok())
}

/// How a page looks.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Text size in pixels.
    pub size: f32,
    pub width: u32,
    /// Page height; 0 draws all the text on one picture as tall as it needs.
    pub height: u32,
    /// Turned by this many degrees (a crooked scan).
    pub rotate: f32,
    /// Standard deviation of the grain added to each pixel, 0–255.
    pub noise: f32,
}

const MARGIN: u32 = 50;

/// The text's lines broken to the page width (anywhere: Chinese has no spaces), each
/// paragraph on new lines.
fn wrap<F: Font>(text: &str, font: &impl ScaleFont<F>, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines().map(str::trim).filter(|p| !p.is_empty()) {
        let (mut line, mut used) = (String::new(), 0f32);
        for c in paragraph.chars() {
            let advance = font.h_advance(font.glyph_id(c));
            if used + advance > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0.0;
            }
            line.push(c);
            used += advance;
        }
        lines.push(line);
    }
    lines
}

/// The lines of each page of `text` in `style`.
fn page_lines(text: &str, font: &FontVec, style: Style) -> Vec<Vec<String>> {
    let scaled = font.as_scaled(PxScale::from(style.size));
    let lines = wrap(text, &scaled, (style.width - 2 * MARGIN) as f32);
    let step = (style.size * 1.6).round() as u32;
    let per_page =
        if style.height == 0 { lines.len().max(1) } else { ((style.height - 2 * MARGIN) / step).max(1) as usize };
    lines.chunks(per_page).map(<[String]>::to_vec).collect()
}

/// The text drawn on the first page of `text` in `style`, a line each.
pub fn page_text(text: &str, font: &FontVec, style: Style) -> String {
    page_lines(text, font, style).into_iter().next().unwrap_or_default().join("\n")
}

/// The pages of `text` in `style`.
pub fn render(text: &str, font: &FontVec, style: Style, rng: &mut fastrand::Rng) -> Vec<RgbImage> {
    let scaled = font.as_scaled(PxScale::from(style.size));
    let step = (style.size * 1.6).round() as u32;
    page_lines(text, font, style)
        .iter()
        .map(|chunk| {
            let height = if style.height == 0 { 2 * MARGIN + step * chunk.len() as u32 } else { style.height };
            let mut page = RgbImage::from_pixel(style.width, height, Rgb([255, 255, 255]));
            for (i, line) in chunk.iter().enumerate() {
                let baseline = MARGIN as f32 + i as f32 * step as f32 + scaled.ascent();
                let mut x = MARGIN as f32;
                for c in line.chars() {
                    let glyph = scaled.scaled_glyph(c);
                    let advance = scaled.h_advance(glyph.id);
                    crate::engine::decode::webfont::ink_glyph(&mut page, font, glyph, (x, baseline), 20.0);
                    x += advance;
                }
            }
            degrade(page, style, rng)
        })
        .collect()
}

fn degrade(page: RgbImage, style: Style, rng: &mut fastrand::Rng) -> RgbImage {
    let mut page = if style.rotate == 0.0 { page } else { rotate(&page, style.rotate) };
    if style.noise > 0.0 {
        for pixel in page.pixels_mut() {
            // Grey paper and grain (a sum of uniforms is close enough to Gaussian).
            let grain = (0..4).map(|_| rng.f32() - 0.5).sum::<f32>() * style.noise * 1.7;
            for channel in pixel.0.iter_mut() {
                *channel = (*channel as f32 - 12.0 + grain).clamp(0.0, 255.0) as u8;
            }
        }
    }
    page
}

/// Turned about the centre by `degrees`, bilinear, the corners filled white.
fn rotate(page: &RgbImage, degrees: f32) -> RgbImage {
    let (w, h) = page.dimensions();
    let (sin, cos) = degrees.to_radians().sin_cos();
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    RgbImage::from_fn(w, h, |x, y| {
        let (dx, dy) = (x as f32 - cx, y as f32 - cy);
        let (sx, sy) = (cos * dx + sin * dy + cx, -sin * dx + cos * dy + cy);
        if sx < 0.0 || sy < 0.0 || sx >= (w - 1) as f32 || sy >= (h - 1) as f32 {
            return Rgb([255, 255, 255]);
        }
        crate::engine::decode::ocr::bilinear(page, sx, sy)
    })
}

pub fn png(page: &RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    page.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).expect("PNG into memory");
    bytes
}

pub fn jpeg(page: &RgbImage, quality: u8) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(page)
        .expect("JPEG into memory");
    bytes
}

/// A PDF with one JPEG image per page and no text layer, as a scanner writes it (150 dpi).
pub fn scanned_pdf(pages: &[RgbImage], quality: u8) -> Vec<u8> {
    let mut out: Vec<u8> = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    let mut object = |out: &mut Vec<u8>, body: &[u8]| {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", offsets.len()).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    };
    // 1: catalog, 2: pages, then per page: page, contents, image.
    let kids: Vec<String> = (0..pages.len()).map(|i| format!("{} 0 R", 3 + 3 * i)).collect();
    object(&mut out, b"<< /Type /Catalog /Pages 2 0 R >>");
    object(&mut out, format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), pages.len()).as_bytes());
    for (i, page) in pages.iter().enumerate() {
        let (w, h) = (page.width() as f32 * 72.0 / 150.0, page.height() as f32 * 72.0 / 150.0);
        let (contents, image) = (4 + 3 * i, 5 + 3 * i);
        object(
            &mut out,
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w:.2} {h:.2}] /Resources << /XObject << /Im0 {image} 0 R >> >> /Contents {contents} 0 R >>"
            )
            .as_bytes(),
        );
        let draw = format!("q {w:.2} 0 0 {h:.2} 0 0 cm /Im0 Do Q");
        object(&mut out, format!("<< /Length {} >>\nstream\n{draw}\nendstream", draw.len()).as_bytes());
        let data = jpeg(page, quality);
        let mut body = format!(
            "<< /Type /XObject /Subtype /Image /Width {} /Height {} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length {} >>\nstream\n",
            page.width(),
            page.height(),
            data.len()
        )
        .into_bytes();
        body.extend_from_slice(&data);
        body.extend_from_slice(b"\nendstream");
        object(&mut out, &body);
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1).as_bytes());
    for offset in &offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", offsets.len() + 1).as_bytes(),
    );
    out
}

/// A copy of a font (a single sfnt: TrueType or OpenType) whose character map is permuted
/// among `chars`: code point `c` draws the glyph of `perm[c]`. Every other table is kept
/// as it is. `None` when the font cannot be read.
pub fn scrambled_font(font: &[u8], perm: &std::collections::HashMap<char, char>) -> Option<Vec<u8>> {
    use ab_glyph::Font;
    let face = ab_glyph::FontRef::try_from_slice(font).ok()?;
    let be16 = |at: usize| u16::from_be_bytes([font[at], font[at + 1]]) as usize;
    let be32 = |at: usize| u32::from_be_bytes(font[at..at + 4].try_into().expect("4 bytes")) as usize;
    let tables = be16(4);
    if font.len() < 12 + 16 * tables {
        return None;
    }
    // One format 12 group per mapped character: (code point, glyph), in code point order.
    let mut map: Vec<(u32, u16)> = perm.iter().map(|(&c, &to)| (c as u32, face.glyph_id(to).0)).collect();
    map.sort_unstable();
    let mut cmap = Vec::new();
    cmap.extend_from_slice(&[0, 0, 0, 1, 0, 3, 0, 10, 0, 0, 0, 12]); // version, 1 subtable: (3, 10) at 12
    let length = 16 + 12 * map.len() as u32;
    cmap.extend_from_slice(&12u16.to_be_bytes());
    cmap.extend_from_slice(&0u16.to_be_bytes());
    cmap.extend_from_slice(&length.to_be_bytes());
    cmap.extend_from_slice(&0u32.to_be_bytes());
    cmap.extend_from_slice(&(map.len() as u32).to_be_bytes());
    for (code, glyph) in map {
        cmap.extend_from_slice(&code.to_be_bytes());
        cmap.extend_from_slice(&code.to_be_bytes());
        cmap.extend_from_slice(&u32::from(glyph).to_be_bytes());
    }
    // The table directory, then the tables, each 4-byte aligned.
    let mut records: Vec<([u8; 4], Vec<u8>)> = (0..tables)
        .map(|i| {
            let at = 12 + 16 * i;
            let tag: [u8; 4] = font[at..at + 4].try_into().expect("4 bytes");
            let (offset, len) = (be32(at + 8), be32(at + 12));
            let data =
                if &tag == b"cmap" { cmap.clone() } else { font.get(offset..offset + len).unwrap_or(&[]).to_vec() };
            (tag, data)
        })
        .collect();
    records.sort_by_key(|(tag, _)| *tag);
    let mut out = font[..12].to_vec();
    let mut offset = 12 + 16 * tables;
    let mut body = Vec::new();
    for (tag, data) in &records {
        let sum = data.chunks(4).fold(0u32, |s, c| {
            let mut word = [0u8; 4];
            word[..c.len()].copy_from_slice(c);
            s.wrapping_add(u32::from_be_bytes(word))
        });
        out.extend_from_slice(tag);
        out.extend_from_slice(&sum.to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        body.extend_from_slice(data);
        while body.len() % 4 != 0 {
            body.push(0);
        }
        offset = 12 + 16 * tables + body.len();
    }
    out.extend_from_slice(&body);
    Some(out)
}

/// The font the scrambled-font kind builds on: the app's own Noto Sans SC (one sfnt).
pub fn sfnt_font() -> Option<Vec<u8>> {
    std::fs::read(FONTS.last().expect("a font").0).ok()
}

/// A pirate-site page of `text` whose markup holds other characters: each Han character c
/// of the text is written as the character the page's own font (inside the page, a
/// `data:` URL) draws c for, so a reader sees the text.
pub fn scrambled_font_page(text: &str, font: &[u8], rng: &mut fastrand::Rng) -> Option<String> {
    use base64::Engine;
    let mut han: Vec<char> = text.chars().filter(|&c| super::generate::is_han(c)).collect();
    han.sort_unstable();
    han.dedup();
    let mut shuffled = han.clone();
    rng.shuffle(&mut shuffled);
    // Code point han[i] draws shuffled[i]; the text's c is written as the code point that draws it.
    let perm: std::collections::HashMap<char, char> = han.iter().copied().zip(shuffled.iter().copied()).collect();
    let written_as: std::collections::HashMap<char, char> = perm.iter().map(|(&from, &to)| (to, from)).collect();
    let scrambled = scrambled_font(font, &perm)?;
    let markup: String = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("<p>{}</p>\n", l.chars().map(|c| *written_as.get(&c).unwrap_or(&c)).collect::<String>()))
        .collect();
    Some(format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>@font-face {{ font-family: zw; src: \
         url(data:font/otf;base64,{}) format(\"opentype\"); }} .content {{ font-family: zw; }}</style></head>\
         <body><div class=\"nav\"><a href=\"/\">首页</a></div><div class=\"content\">{markup}</div></body></html>",
        base64::engine::general_purpose::STANDARD.encode(scrambled)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ab_glyph::Font;

    #[test]
    fn a_scrambled_font_draws_each_character_with_the_glyph_of_its_permuted_one() {
        let Some(original) = sfnt_font() else { return };
        let perm = std::collections::HashMap::from([('天', '下'), ('下', '大'), ('大', '天')]);
        let scrambled = scrambled_font(&original, &perm).expect("a font");
        let (before, after) = (
            ab_glyph::FontRef::try_from_slice(&original).unwrap(),
            ab_glyph::FontRef::try_from_slice(&scrambled).unwrap(),
        );
        for (c, drawn) in perm {
            assert_eq!(after.glyph_id(c), before.glyph_id(drawn), "{c}");
            assert_ne!(after.glyph_id(c), before.glyph_id(c), "{c}");
        }
        // Outlines come along: the scrambled font draws the permuted glyph.
        assert!(after.outline(after.glyph_id('天')).is_some());
        // Characters outside the permutation are not in its map.
        assert_eq!(after.glyph_id('人').0, 0);
    }
}
