//! RTF: the visible text of a Rich Text Format document.
//!
//! Text comes as plain characters, `\'hh` bytes in the document's code page (`\ansicpg936`
//! is GBK, 950 Big5; Chinese Word and WPS write Han characters this way, two `\'hh` per
//! character), and `\uN` Unicode escapes followed by `\ucN` fallback characters that are
//! skipped. Groups that are not text (font, colour and style tables, document info,
//! pictures, `{\*…}` destinations) are skipped. Groups nested deeper than [`MAX_DEPTH`]
//! are refused: no real document needs them, and a crafted one would only cost time.

use encoding_rs::Encoding;

pub const MAX_DEPTH: usize = 1_000;

/// Destinations whose content is not the document's text.
const SKIPPED: &[&str] = &[
    "fonttbl",
    "colortbl",
    "stylesheet",
    "info",
    "pict",
    "object",
    "themedata",
    "colorschememapping",
    "datastore",
    "latentstyles",
    "listtable",
    "listoverridetable",
    "rsidtbl",
    "generator",
    "xmlnstbl",
    "mmathPr",
    "fldinst",
    "header",
    "footer",
    "headerl",
    "headerr",
    "footerl",
    "footerr",
    "bkmkstart",
    "bkmkend",
];

#[derive(Clone, Copy)]
struct Group {
    skip: bool,
    /// Fallback characters after `\uN`.
    uc: usize,
}

pub fn rtf_text(bytes: &[u8]) -> Result<String, String> {
    if !bytes.starts_with(b"{\\rtf") {
        return Err("not an RTF document (no {\\rtf header)".into());
    }
    let mut encoding: &'static Encoding = encoding_rs::WINDOWS_1252;
    let mut out = String::new();
    let mut pending: Vec<u8> = Vec::new(); // \'hh bytes, decoded together
    let mut stack: Vec<Group> = Vec::new();
    let mut group = Group { skip: false, uc: 1 };
    let mut skip_chars = 0usize; // fallback characters still to skip after \uN
    let mut first_in_group = false;
    let flush = |pending: &mut Vec<u8>, out: &mut String, encoding: &'static Encoding| {
        if !pending.is_empty() {
            out.push_str(&encoding.decode_without_bom_handling(pending).0);
            pending.clear();
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' => {
                if stack.len() >= MAX_DEPTH {
                    return Err(format!("RTF nested more than {MAX_DEPTH} groups deep: refused as hostile"));
                }
                flush(&mut pending, &mut out, encoding);
                stack.push(group);
                first_in_group = true;
                i += 1;
            }
            b'}' => {
                flush(&mut pending, &mut out, encoding);
                group = stack.pop().unwrap_or(group);
                i += 1;
            }
            b'\\' => {
                let next = *bytes.get(i + 1).unwrap_or(&b' ');
                if next.is_ascii_alphabetic() {
                    let start = i + 1;
                    let mut j = start;
                    while j < bytes.len() && bytes[j].is_ascii_alphabetic() {
                        j += 1;
                    }
                    let word = std::str::from_utf8(&bytes[start..j]).unwrap_or("");
                    let num_start = j;
                    if j < bytes.len() && bytes[j] == b'-' {
                        j += 1;
                    }
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let param: Option<i64> =
                        std::str::from_utf8(&bytes[num_start..j]).ok().and_then(|s| s.parse().ok());
                    if j < bytes.len() && bytes[j] == b' ' {
                        j += 1;
                    }
                    i = j;
                    if first_in_group && SKIPPED.contains(&word) {
                        group.skip = true;
                    }
                    first_in_group = false;
                    if group.skip {
                        continue;
                    }
                    match word {
                        "ansicpg" => {
                            encoding = match param {
                                Some(936) => encoding_rs::GBK,
                                Some(950) => encoding_rs::BIG5,
                                Some(932) => encoding_rs::SHIFT_JIS,
                                Some(949) => encoding_rs::EUC_KR,
                                Some(65001) => encoding_rs::UTF_8,
                                Some(cp) => Encoding::for_label(format!("windows-{cp}").as_bytes())
                                    .unwrap_or(encoding_rs::WINDOWS_1252),
                                None => encoding,
                            }
                        }
                        "uc" => group.uc = param.unwrap_or(1).clamp(0, 8) as usize,
                        "u" => {
                            flush(&mut pending, &mut out, encoding);
                            let n = param.unwrap_or(0);
                            let code = if n < 0 { n + 65_536 } else { n };
                            out.extend(char::from_u32(code as u32));
                            skip_chars = group.uc;
                        }
                        "par" | "line" | "sect" | "page" | "row" => {
                            flush(&mut pending, &mut out, encoding);
                            out.push('\n');
                        }
                        "tab" | "cell" => {
                            flush(&mut pending, &mut out, encoding);
                            out.push('\t');
                        }
                        _ => {}
                    }
                } else {
                    // Control symbols: \'hh, \\ \{ \}, \* (an ignorable destination), \~ ...
                    first_in_group = false;
                    i += 2;
                    match next {
                        b'\'' => {
                            let hex = bytes.get(i..i + 2).and_then(|h| std::str::from_utf8(h).ok());
                            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok());
                            i += 2;
                            if group.skip {
                                continue;
                            }
                            if skip_chars > 0 {
                                skip_chars -= 1;
                            } else if let Some(byte) = byte {
                                pending.push(byte);
                            }
                        }
                        b'*' => group.skip = true,
                        b'\\' | b'{' | b'}' if !group.skip => {
                            flush(&mut pending, &mut out, encoding);
                            out.push(next as char);
                        }
                        b'~' if !group.skip => out.push('\u{a0}'),
                        b'\n' | b'\r' if !group.skip => {
                            flush(&mut pending, &mut out, encoding);
                            out.push('\n');
                        }
                        _ => {}
                    }
                }
            }
            b'\r' | b'\n' => i += 1,
            _ => {
                first_in_group = false;
                i += 1;
                if group.skip {
                    continue;
                }
                if skip_chars > 0 {
                    skip_chars -= 1;
                    continue;
                }
                if b < 0x80 {
                    flush(&mut pending, &mut out, encoding);
                    out.push(b as char);
                } else {
                    pending.push(b);
                }
            }
        }
    }
    flush(&mut pending, &mut out, encoding);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gbk_bytes_unicode_escapes_and_skipped_tables() {
        let rtf = br"{\rtf1\ansi\ansicpg936{\fonttbl{\f0\fnil \'cb\'ce\'cc\'e5;}}{\*\generator Msftedit;}\f0
\'b5\'da\'d2\'bb\'bb\'d8\par \u28151?\u27788?\u26410?\u20998?\par A \{brace\}}";
        assert_eq!(rtf_text(rtf).unwrap(), "第一回\n混沌未分\nA {brace}");
    }

    #[test]
    fn deep_groups_are_refused_and_non_rtf_is_not_rtf() {
        let bomb = format!("{{\\rtf1 {}x{}}}", "{".repeat(MAX_DEPTH + 5), "}".repeat(MAX_DEPTH + 5));
        assert!(rtf_text(bomb.as_bytes()).unwrap_err().contains("refused as hostile"));
        assert!(rtf_text(b"hello").is_err());
    }
}
