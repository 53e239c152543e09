//! Kindle ebooks: MOBI and AZW3 (KF8), read from their Palm database records.
//!
//! Record 0 holds the PalmDOC header (compression, text length, text record count,
//! encryption) and the MOBI header (text encoding, the flags of the trailing entries each
//! text record carries). Text records 1..=n are PalmDOC-compressed (LZ77) HTML; their
//! trailing entries are stripped, the records decompressed and joined, and the HTML read like
//! an HTML file. A DRM-protected book and HUFF/CDIC compression are refused by name. (The
//! `mobi` crate, tried first, returned a few characters of calibre's MOBI output and zero
//! bytes before the text of its AZW3.)

/// Largest text a book may decompress to (the same cap as a file).
const MAX_TEXT: usize = super::MAX_FILE_BYTES as usize;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The book's text as HTML markup.
pub fn mobi_markup(bytes: &[u8]) -> Result<String, String> {
    let damaged = |what: &str| format!("damaged Kindle ebook ({what})");
    if bytes.get(60..68) != Some(b"BOOKMOBI") {
        return Err("not a Kindle ebook (no BOOKMOBI header)".into());
    }
    let records = u16_at(bytes, 76).ok_or_else(|| damaged("truncated header"))? as usize;
    let offset = |i: usize| u32_at(bytes, 78 + 8 * i).map(|o| o as usize);
    let record = |i: usize| -> Result<&[u8], String> {
        let start = offset(i).ok_or_else(|| damaged("truncated record list"))?;
        let end =
            if i + 1 < records { offset(i + 1).ok_or_else(|| damaged("truncated record list"))? } else { bytes.len() };
        bytes.get(start..end.max(start)).ok_or_else(|| damaged("truncated: a record lies past the end of the file"))
    };
    let r0 = record(0)?;
    let compression = u16_at(r0, 0).ok_or_else(|| damaged("no PalmDOC header"))?;
    let text_length = u32_at(r0, 4).unwrap_or(0) as usize;
    let text_records = u16_at(r0, 8).unwrap_or(0) as usize;
    if u16_at(r0, 12).unwrap_or(0) != 0 {
        return Err("the Kindle ebook is protected by DRM: it cannot be read".into());
    }
    if r0.get(16..20) != Some(b"MOBI") {
        return Err(damaged("no MOBI header"));
    }
    let header_length = u32_at(r0, 20).unwrap_or(0) as usize;
    let encoding = match u32_at(r0, 28) {
        Some(65001) => encoding_rs::UTF_8,
        _ => encoding_rs::WINDOWS_1252,
    };
    let extra_flags = if header_length >= 0xE4 { u16_at(r0, 16 + 0xE2).unwrap_or(0) } else { 0 };
    if text_records == 0 || text_records >= records {
        return Err(damaged("no text records"));
    }
    let mut text = Vec::with_capacity(text_length.min(MAX_TEXT));
    for i in 1..=text_records {
        let data = record(i)?;
        let data = &data[..data.len() - trailing_size(data, extra_flags).min(data.len())];
        match compression {
            1 => text.extend_from_slice(data),
            2 => palmdoc_decompress(data, &mut text).ok_or_else(|| damaged("a text record does not decompress"))?,
            17480 => return Err("the Kindle ebook uses HUFF/CDIC compression, which Zhiwen cannot read".into()),
            other => return Err(damaged(&format!("unknown compression {other}"))),
        }
        if text.len() > MAX_TEXT {
            return Err(format!("the Kindle ebook unpacks to more than {} MiB: refused", MAX_TEXT >> 20));
        }
    }
    text.truncate(text_length.max(1).min(text.len()));
    Ok(encoding.decode_without_bom_handling(&text).0.into_owned())
}

/// The book's title, authors and language: EXTH records 503 (title), 100 (author), 524
/// (language), else the MOBI header's full name. `None` when it has neither title nor author.
pub fn mobi_metadata(bytes: &[u8]) -> Option<super::archive::BookMetadata> {
    if bytes.get(60..68) != Some(b"BOOKMOBI") {
        return None;
    }
    let start = u32_at(bytes, 78)? as usize;
    let end = if u16_at(bytes, 76)? > 1 { u32_at(bytes, 86)? as usize } else { bytes.len() };
    let r0 = bytes.get(start..end.max(start))?;
    if r0.get(16..20) != Some(b"MOBI") {
        return None;
    }
    let utf8 = u32_at(r0, 28) == Some(65001);
    let text = |b: &[u8]| {
        let s = if utf8 {
            String::from_utf8_lossy(b).into_owned()
        } else {
            encoding_rs::WINDOWS_1252.decode(b).0.into_owned()
        };
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut meta = super::archive::BookMetadata::default();
    let header_length = u32_at(r0, 20)? as usize;
    let has_exth = u32_at(r0, 16 + 0x70).is_some_and(|f| f & 0x40 != 0);
    let exth = 16 + header_length;
    if has_exth && r0.get(exth..exth + 4) == Some(b"EXTH") {
        let count = u32_at(r0, exth + 8)? as usize;
        let mut at = exth + 12;
        for _ in 0..count.min(10_000) {
            let (kind, len) = (u32_at(r0, at)?, u32_at(r0, at + 4)? as usize);
            let data = r0.get(at + 8..at + len.max(8))?;
            match kind {
                100 => {
                    let author = text(data);
                    if !author.is_empty() && !meta.authors.contains(&author) {
                        meta.authors.push(author);
                    }
                }
                503 => meta.title = text(data),
                524 => meta.language = text(data),
                _ => {}
            }
            at += len.max(8);
        }
    }
    if meta.title.is_empty() {
        let (offset, len) = (u32_at(r0, 0x54)? as usize, u32_at(r0, 0x58)? as usize);
        meta.title = r0.get(offset..offset + len).map(text).unwrap_or_default();
    }
    (!meta.title.is_empty() || !meta.authors.is_empty()).then_some(meta)
}

/// Bytes at the end of a text record that are not text: the trailing entries the MOBI
/// header's extra-data flags announce (bits 1..15, each a size stored backwards), then the
/// multibyte overlap (bit 0).
fn trailing_size(data: &[u8], flags: u16) -> usize {
    let mut num = 0usize;
    let mut f = flags >> 1;
    while f != 0 {
        if f & 1 == 1 {
            num += backward_varint(&data[..data.len().saturating_sub(num)]);
        }
        f >>= 1;
    }
    if flags & 1 == 1 && num < data.len() {
        num += (data[data.len() - num - 1] & 3) as usize + 1;
    }
    num
}

/// A size stored at the end of `data` as a backward varint (7 bits per byte, the first
/// byte of the number has its top bit set).
fn backward_varint(data: &[u8]) -> usize {
    let (mut result, mut shift) = (0usize, 0u32);
    for &b in data.iter().rev().take(4) {
        result |= ((b & 0x7f) as usize) << shift;
        shift += 7;
        if b & 0x80 != 0 {
            break;
        }
    }
    result
}

/// PalmDOC's LZ77: literals, runs of literals, (distance, length) pairs, space + char.
fn palmdoc_decompress(data: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let start = out.len();
    let mut i = 0;
    while i < data.len() {
        let c = data[i];
        i += 1;
        match c {
            0 | 9..=0x7f => out.push(c),
            1..=8 => {
                out.extend_from_slice(data.get(i..i + c as usize)?);
                i += c as usize;
            }
            0xc0..=0xff => {
                out.push(b' ');
                out.push(c ^ 0x80);
            }
            _ => {
                let pair = ((c as usize) << 8) | *data.get(i)? as usize;
                i += 1;
                let distance = (pair >> 3) & 0x7ff;
                let length = (pair & 7) + 3;
                if distance == 0 || distance > out.len() - start {
                    return None;
                }
                for _ in 0..length {
                    out.push(out[out.len() - distance]);
                }
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palmdoc_literals_runs_pairs_and_spaces() {
        // "abcabcabc x": literals, a pair (distance 3, length 6), a space + 'x'.
        let data = [b'a', b'b', b'c', 0x80, (3 << 3) | 3, 0x80 ^ b'x'];
        let mut out = Vec::new();
        palmdoc_decompress(&data, &mut out).unwrap();
        assert_eq!(out, b"abcabcabc x");
        assert!(palmdoc_decompress(&[0x80, 0x00], &mut Vec::new()).is_none(), "distance 0");
    }

    #[test]
    fn trailing_entries_are_stripped() {
        // Text "hello", one trailing entry of 3 bytes (size stored as 0x83), multibyte 1 byte.
        let data = [b'h', b'e', b'l', b'l', b'o', 0x00, 0xaa, 0xbb, 0x83];
        assert_eq!(trailing_size(&data, 0b10), 3);
        assert_eq!(trailing_size(&data, 0b11), 4);
    }
}
