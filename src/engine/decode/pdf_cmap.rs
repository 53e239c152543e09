//! PDF text shown in fonts with Adobe's predefined CJK CMaps.
//!
//! Chinese PDF tools often write text in a standard, non-embedded CID font (STSong-Light,
//! MSung-Light) with a predefined CMap as its encoding (`UniGB-UCS2-H`, `GBK-EUC-H`,
//! `B5pc-H`, …) and no ToUnicode map. pdf-extract does not know these CMaps (it panics on
//! them), yet their byte codes *are* a known character encoding: UCS-2/UTF-16 for the `Uni…`
//! CMaps, GBK, Big5, Shift_JIS or EUC-KR for the others. So such a document is read here:
//! each page's text operators are decoded with the encoding its font's CMap names, and a
//! move to a new line (a `Td`/`TD`/`T*`/`Tm` that changes the line, a new text object)
//! starts a new line of text. Ideographs of one line are joined without spaces.

use encoding_rs::Encoding;
use pdf_extract::{Document, Object, ObjectId};
use std::collections::BTreeMap;

/// The character encoding of a predefined CMap's byte codes, by the CMap's name.
/// `None` for a name that is not a predefined CJK CMap (or one without a byte encoding,
/// such as `Identity-H`, which needs a ToUnicode map).
pub fn cmap_encoding(name: &str) -> Option<&'static Encoding> {
    let base = name.trim_end_matches("-H").trim_end_matches("-V");
    Some(match base {
        n if n.starts_with("Uni") && (n.ends_with("-UCS2") || n.ends_with("-UTF16")) => encoding_rs::UTF_16BE,
        "GB-EUC" | "GBpc-EUC" | "GBK-EUC" | "GBKp-EUC" | "GBK2K" => encoding_rs::GB18030,
        "B5pc" | "ETen-B5" | "HKscs-B5" | "ETenms-B5" | "CNS-EUC" => encoding_rs::BIG5,
        "90ms-RKSJ" | "90msp-RKSJ" | "83pv-RKSJ" | "90pv-RKSJ" => encoding_rs::SHIFT_JIS,
        "EUC" => encoding_rs::EUC_JP,
        "KSC-EUC" | "KSCms-UHC" | "KSCpc-EUC" => encoding_rs::EUC_KR,
        _ => return None,
    })
}

/// The predefined-CMap encoding of each font resource name of a page.
fn page_encodings(doc: &Document, page: ObjectId) -> BTreeMap<Vec<u8>, &'static Encoding> {
    let Ok(fonts) = doc.get_page_fonts(page) else { return BTreeMap::new() };
    fonts
        .into_iter()
        .filter_map(|(name, font)| {
            let encoding = font.get(b"Encoding").ok()?.as_name().ok()?;
            Some((name, cmap_encoding(std::str::from_utf8(encoding).ok()?)?))
        })
        .collect()
}

/// The first composite (Type0) font encoding no reader here knows: not Identity, not a
/// predefined CJK CMap, not an embedded CMap stream.
pub fn unknown_cmap(doc: &Document) -> Option<String> {
    doc.get_pages().values().find_map(|&page| {
        doc.get_page_fonts(page).ok()?.into_values().find_map(|font| {
            let composite = font.get(b"Subtype").ok()?.as_name().ok()? == b"Type0";
            let name = std::str::from_utf8(font.get(b"Encoding").ok()?.as_name().ok()?).ok()?.to_string();
            (composite && !name.starts_with("Identity-") && cmap_encoding(&name).is_none()).then_some(name)
        })
    })
}

/// Whether any page shows text in a font with a predefined CJK CMap.
pub fn uses_predefined_cmaps(doc: &Document) -> bool {
    doc.get_pages().values().any(|&page| !page_encodings(doc, page).is_empty())
}

/// The text of `doc`, page by page, decoding strings by their font's CMap encoding (other
/// fonts' strings as Latin-1, which is right for the ASCII they mostly hold).
pub fn text(doc: &Document) -> Result<String, String> {
    let mut out = String::new();
    for (_, &page) in doc.get_pages().iter() {
        let encodings = page_encodings(doc, page);
        let content = doc.get_and_decode_page_content(page).map_err(|e| format!("cannot read a page: {e}"))?;
        let mut font: Option<&'static Encoding> = None;
        let mut line_y: Option<f32> = None;
        let show = |out: &mut String, bytes: &[u8], font: Option<&'static Encoding>| match font {
            Some(enc) => out.push_str(&enc.decode_without_bom_handling(bytes).0),
            None => out.extend(bytes.iter().map(|&b| b as char)),
        };
        let number = |o: &Object| o.as_float().ok().or_else(|| o.as_i64().ok().map(|i| i as f32));
        for op in content.operations {
            match op.operator.as_str() {
                "Tf" => {
                    font = op.operands.first().and_then(|n| n.as_name().ok()).and_then(|n| encodings.get(n).copied());
                }
                "BT" | "T*" => out.push('\n'),
                "Td" | "TD" if op.operands.get(1).and_then(number).is_some_and(|ty| ty.abs() > 0.01) => {
                    out.push('\n');
                }
                "Tm" => {
                    let y = op.operands.get(5).and_then(number);
                    if y != line_y {
                        out.push('\n');
                        line_y = y;
                    }
                }
                "Tj" | "'" | "\"" => {
                    if matches!(op.operator.as_str(), "'" | "\"") {
                        out.push('\n');
                    }
                    if let Some(Object::String(bytes, _)) = op.operands.last() {
                        show(&mut out, bytes, font);
                    }
                }
                "TJ" => {
                    if let Some(Object::Array(parts)) = op.operands.first() {
                        for part in parts {
                            if let Object::String(bytes, _) = part {
                                show(&mut out, bytes, font);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out.push('\n');
    }
    // Collapse the blank lines text objects leave.
    let mut text = String::with_capacity(out.len());
    for line in out.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
        text.push_str(line);
        text.push('\n');
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_cmaps_name_their_byte_encodings() {
        assert_eq!(cmap_encoding("UniGB-UCS2-H"), Some(encoding_rs::UTF_16BE));
        assert_eq!(cmap_encoding("UniCNS-UTF16-V"), Some(encoding_rs::UTF_16BE));
        assert_eq!(cmap_encoding("GBK-EUC-H"), Some(encoding_rs::GB18030));
        assert_eq!(cmap_encoding("ETen-B5-H"), Some(encoding_rs::BIG5));
        assert_eq!(cmap_encoding("90ms-RKSJ-H"), Some(encoding_rs::SHIFT_JIS));
        assert_eq!(cmap_encoding("KSCms-UHC-H"), Some(encoding_rs::EUC_KR));
        assert_eq!(cmap_encoding("Identity-H"), None);
        assert_eq!(cmap_encoding("WinAnsiEncoding"), None);
    }
}
