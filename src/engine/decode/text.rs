//! Plain text in any common Chinese encoding: UTF-8 (with or without BOM), UTF-16 with
//! a BOM (or without one, recognised by its zero bytes), GB18030/GBK and Big5 detected
//! with chardetng.

use super::Decoded;
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// Share of replacement characters above which a decode is judged wrong rather than
/// slightly damaged. Real GBK files with a stray byte stay far below it.
const MAX_REPLACEMENT_SHARE: f64 = 0.01;
/// Share of private-use characters above which a decode is judged to be noise.
const MAX_PRIVATE_USE_SHARE: f64 = 0.05;
/// Share of control characters (other than tab, CR, LF, FF) above which text is binary.
const MAX_CONTROL_SHARE: f64 = 0.01;

pub fn decode_text_bytes(bytes: &[u8]) -> Result<Decoded, String> {
    let (encoding, body) = if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        (enc, &bytes[bom_len..])
    } else if let Some(enc) = sniff_utf16_without_bom(bytes) {
        (enc, bytes)
    } else if bytes.contains(&0) {
        return Err("binary file (contains NUL bytes), not text".into());
    } else if std::str::from_utf8(bytes).is_ok() {
        (UTF_8, bytes)
    } else {
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        detector.feed(bytes, true);
        (detector.guess(None, chardetng::Utf8Detection::Allow), bytes)
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    let text = text.into_owned();
    let total = text.chars().count().max(1);
    let mut warnings = Vec::new();
    if had_errors {
        let bad = text.chars().filter(|&c| c == '\u{fffd}').count();
        if bad as f64 / total as f64 > MAX_REPLACEMENT_SHARE {
            return Err(format!(
                "undecodable: {bad} of {total} characters are invalid in the best guess ({}); \
                 the file is binary or in an unsupported encoding",
                encoding.name()
            ));
        }
        warnings.push(format!("{bad} undecodable byte sequence(s) replaced by U+FFFD ({})", encoding.name()));
    }
    if encoding.is_single_byte() && !plausible_single_byte(&text) {
        return Err(format!(
            "undecodable: not valid UTF-8, GB18030 or Big5, and reads as noise in {}; \
             the file is binary or in an unsupported encoding",
            encoding.name()
        ));
    }
    let control = text.chars().filter(|&c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c')).count();
    if control as f64 / total as f64 > MAX_CONTROL_SHARE {
        return Err("binary file (control characters), not text".into());
    }
    // Bytes read in the wrong encoding (or random bytes behind a BOM) land in the
    // private-use area; real text almost never does.
    let private = text.chars().filter(|&c| ('\u{e000}'..='\u{f8ff}').contains(&c)).count();
    if private as f64 / total as f64 > MAX_PRIVATE_USE_SHARE {
        return Err(format!("undecodable: the text read as {} is mostly unassigned characters", encoding.name()));
    }
    Ok(Decoded { text, encoding: encoding.name(), warnings, images_read: 0, font_remapped: 0 })
}

/// In a single-byte encoding every byte decodes to something, so broken bytes come out
/// as symbol soup rather than errors. Real Western text in such an encoding is mostly
/// ASCII letters, digits, spaces and punctuation with some accented letters.
fn plausible_single_byte(text: &str) -> bool {
    let (mut ascii, mut total) = (0usize, 0usize);
    for c in text.chars() {
        total += 1;
        if c.is_ascii_alphanumeric() || c.is_ascii_whitespace() || c.is_ascii_punctuation() {
            ascii += 1;
        }
    }
    total == 0 || ascii * 10 >= total * 7
}

/// UTF-16 without a BOM shows as ASCII-range text with every other byte zero. Chinese
/// UTF-16 has few zero bytes, so this only catches the mostly-ASCII case; that is the
/// case that would otherwise be misread as binary.
fn sniff_utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    if sample.len() < 4 {
        return None;
    }
    let pairs = sample.len() / 2;
    let zero_even = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let zero_odd = sample.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    if zero_odd * 10 >= pairs * 7 && zero_even * 10 < pairs {
        Some(UTF_16LE)
    } else if zero_even * 10 >= pairs * 7 && zero_odd * 10 < pairs {
        Some(UTF_16BE)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "话说天下大势，分久必合，合久必分。周末七国分争，并入于秦。";
    const TRAD: &str = "話說天下大勢，分久必合，合久必分。周末七國分爭，並入於秦。";

    #[test]
    fn utf8_with_and_without_bom() {
        let plain = decode_text_bytes(SAMPLE.as_bytes()).unwrap();
        assert_eq!(plain.text, SAMPLE);
        assert_eq!(plain.encoding, "UTF-8");
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(SAMPLE.as_bytes());
        assert_eq!(decode_text_bytes(&bom).unwrap().text, SAMPLE);
    }

    #[test]
    fn utf16_with_bom_both_orders_and_without_bom() {
        for (enc, bom) in [(UTF_16LE, [0xff, 0xfe]), (UTF_16BE, [0xfe, 0xff])] {
            let mut bytes = bom.to_vec();
            for unit in SAMPLE.encode_utf16() {
                let b = if enc == UTF_16LE { unit.to_le_bytes() } else { unit.to_be_bytes() };
                bytes.extend_from_slice(&b);
            }
            let d = decode_text_bytes(&bytes).unwrap();
            assert_eq!(d.text, SAMPLE);
            assert_eq!(d.encoding, enc.name());
        }
        let ascii: Vec<u8> = "Chapter One. It was a dark night.".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(decode_text_bytes(&ascii).unwrap().text, "Chapter One. It was a dark night.");
    }

    #[test]
    fn gbk_and_big5_are_detected() {
        let long_simplified = SAMPLE.repeat(4);
        let (gbk, _, _) = encoding_rs::GBK.encode(&long_simplified);
        let d = decode_text_bytes(&gbk).unwrap();
        assert_eq!(d.text, long_simplified);
        assert!(d.encoding == "GBK" || d.encoding == "gb18030", "{}", d.encoding);

        let long_traditional = TRAD.repeat(4);
        let (big5, _, _) = encoding_rs::BIG5.encode(&long_traditional);
        let d = decode_text_bytes(&big5).unwrap();
        assert_eq!(d.text, long_traditional);
        assert_eq!(d.encoding, "Big5");
    }

    #[test]
    fn broken_bytes_are_refused_and_latin1_text_is_kept() {
        let mut broken = vec![0xfd, 0x80, 0x81];
        broken.extend(std::iter::repeat_n([0xc3u8, 0x28, 0xa0, 0xa1, 0xe2, 0x28], 200).flatten());
        assert!(decode_text_bytes(&broken).unwrap_err().contains("undecodable"));
        // The same behind a UTF-16 byte-order mark.
        let behind_bom = [&[0xff, 0xfe][..], &broken].concat();
        assert!(decode_text_bytes(&behind_bom).unwrap_err().contains("undecodable"));
        let (latin1, _, _) =
            encoding_rs::WINDOWS_1252.encode("Le cœur a ses raisons que la raison ne connaît point. Déjà vu, café.");
        let d = decode_text_bytes(&latin1).unwrap();
        assert!(d.text.contains("connaît"), "{}", d.text);
    }

    #[test]
    fn binary_is_refused_and_a_stray_bad_byte_is_a_warning() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
        assert!(decode_text_bytes(png).unwrap_err().contains("binary"));
        let noise: Vec<u8> = (0..4000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8 | 1).collect();
        assert!(decode_text_bytes(&noise).is_err());

        let long = SAMPLE.repeat(20);
        let mut bytes = encoding_rs::GBK.encode(&long).0.into_owned();
        bytes.insert(30, 0xff);
        let d = decode_text_bytes(&bytes).unwrap();
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
        assert!(d.text.contains("周末七国分争"));
    }
}
