//! Pirated suspects made from real chapters, each with exact ground truth.
//!
//! Every generator is deterministic for a given `fastrand::Rng` seed. Whole-chapter
//! kinds record the source document; excerpt and compilation kinds also record the
//! character ranges on both sides, so character-level precision and recall can be
//! measured (PAN text-alignment style).

use pinyin::ToPinyin;
use std::collections::HashMap;
use std::ops::Range;

/// One piece of copied text: `suspect` chars of the suspect came from `source` chars of
/// the document at `source_path`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TruthPassage {
    pub source_path: String,
    pub suspect: Range<usize>,
    pub source: Range<usize>,
}

/// Characters that occur in the corpus, grouped for substitutions.
pub struct CharPools {
    /// Plain pinyin → characters with that reading (seen at least twice in the corpus).
    homophones: HashMap<&'static str, Vec<char>>,
    /// Frequent Han characters, for typos.
    common: Vec<char>,
}

impl CharPools {
    pub fn from_texts<'a>(texts: impl Iterator<Item = &'a str>) -> CharPools {
        let mut freq: HashMap<char, u32> = HashMap::new();
        for t in texts {
            for c in t.chars().filter(|&c| is_han(c)) {
                *freq.entry(c).or_default() += 1;
            }
        }
        let mut chars: Vec<(char, u32)> = freq.into_iter().filter(|&(_, n)| n >= 2).collect();
        chars.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut homophones: HashMap<&'static str, Vec<char>> = HashMap::new();
        for &(c, _) in &chars {
            if let Some(p) = c.to_pinyin() {
                homophones.entry(p.plain()).or_default().push(c);
            }
        }
        let common = chars.iter().take(3000).map(|&(c, _)| c).collect();
        CharPools { homophones, common }
    }

    fn homophone_of(&self, c: char, rng: &mut fastrand::Rng) -> Option<char> {
        let group = self.homophones.get(c.to_pinyin()?.plain())?;
        let others: Vec<char> = group.iter().copied().filter(|&o| o != c).collect();
        (!others.is_empty()).then(|| others[rng.usize(..others.len())])
    }

    fn random_han(&self, rng: &mut fastrand::Rng) -> char {
        self.common[rng.usize(..self.common.len())]
    }
}

pub fn is_han(c: char) -> bool {
    ('\u{3400}'..='\u{9fff}').contains(&c) || ('\u{20000}'..='\u{2ebef}').contains(&c)
}

/// Replaces `share` of the Han characters that have a homophone by one (同音字替代).
pub fn homophones(text: &str, share: f64, pools: &CharPools, rng: &mut fastrand::Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let han = chars.iter().filter(|&&c| is_han(c)).count();
    let want = (han as f64 * share).round() as usize;
    let mut positions: Vec<usize> = (0..chars.len()).filter(|&i| is_han(chars[i])).collect();
    rng.shuffle(&mut positions);
    let mut done = 0;
    for i in positions {
        if done == want {
            break;
        }
        if let Some(h) = pools.homophone_of(chars[i], rng) {
            chars[i] = h;
            done += 1;
        }
    }
    chars.into_iter().collect()
}

/// Deletes, inserts or replaces `share` of the characters (one of the three at random),
/// with unrelated Han characters.
pub fn typos(text: &str, share: f64, pools: &CharPools, rng: &mut fastrand::Rng) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        if is_han(c) && rng.f64() < share {
            match rng.u8(0..3) {
                0 => {}
                1 => {
                    out.push(c);
                    out.push(pools.random_han(rng));
                }
                _ => out.push(pools.random_han(rng)),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn paragraphs(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_matches(|c: char| c.is_whitespace()).to_string()).filter(|l| !l.is_empty()).collect()
}

/// Hard line wraps at a random width, indentation removed, half of the full-width
/// punctuation turned half-width.
pub fn reformat(text: &str, rng: &mut fastrand::Rng) -> String {
    let width = rng.usize(18..60);
    let mut out = String::new();
    for p in paragraphs(text) {
        let folded: String = p
            .chars()
            .map(|c| {
                let half = match c {
                    '，' => ',',
                    '。' => '.',
                    '：' => ':',
                    '；' => ';',
                    '！' => '!',
                    '？' => '?',
                    '“' | '”' => '"',
                    '（' => '(',
                    '）' => ')',
                    _ => return c,
                };
                if rng.bool() { half } else { c }
            })
            .collect();
        let chars: Vec<char> = folded.chars().collect();
        for line in chars.chunks(width) {
            out.extend(line);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

pub const ADS: &[&str] = &[
    "最新章节请访问 www.biquge.example 免费阅读",
    "本章未完，请点击下一页继续阅读",
    "手机用户请浏览 m.xbiquge.example 阅读，更优质的阅读体验。",
    "天才一秒记住本站地址：顶点小说网",
    "喜欢本书请收藏并推荐给您的朋友，谢谢支持！",
    "（本章完）求月票、求推荐票！",
    "百度搜索 笔趣阁 本书最新章节免费阅读",
];

/// Site header and footer lines, and an ad line between most paragraphs.
pub fn ads(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut out = format!("{}\n首页 > 古典名著 > 正文\n\n", ADS[rng.usize(..ADS.len())]);
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if !line.trim().is_empty() && rng.f64() < 0.7 {
            out.push_str(ADS[rng.usize(..ADS.len())]);
            out.push('\n');
        }
    }
    out.push_str("\n上一章 ← 章节目录 → 下一章\n本站所有小说均来自网络，版权归原作者所有。\n");
    out
}

/// The chapter as a pirate site serves it: a GBK page with navigation, an ad after most
/// paragraphs, a footer and scripts.
pub fn html_page(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut page = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"gbk\"><title>笔趣阁</title><script>var a=1;</script></head>\
         <body><div class=\"header\">笔趣阁 首页 排行榜</div><div class=\"breadcrumb\">首页 &gt; 古典名著</div><div id=\"content\">",
    );
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        page += &format!("<p>{}</p>\n", line.replace('&', "&amp;").replace('<', "&lt;"));
        if rng.f64() < 0.5 {
            page += &format!("<div class=\"ads\">{}</div>\n", ADS[rng.usize(..ADS.len())]);
        }
    }
    page + "</div><div class=\"footer\">本站所有小说均来自网络</div></body></html>"
}

/// Simplified → traditional script (phrase-aware, MIT-licensed tables).
pub fn traditional(text: &str) -> String {
    character_converter::simplified_to_traditional(text).into_owned()
}

pub fn shuffle_paragraphs(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut ps: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    rng.shuffle(&mut ps);
    ps.join("\n")
}

/// Filler words a launderer puts before sentences (洗稿).
pub const FILLERS: &[&str] = &["其实", "当时", "不过", "然而", "于是", "据说", "原来", "后来"];

/// Sentence-level laundering (洗稿): `drop` of the sentences left out, neighbouring
/// sentences swapped at `swap` of the places, a filler word before `filler` of them.
pub fn launder(text: &str, drop: f64, swap: f64, filler: f64, rng: &mut fastrand::Rng) -> String {
    let mut out = String::new();
    for para in paragraphs(text) {
        let mut sentences: Vec<String> = Vec::new();
        let mut cur = String::new();
        for c in para.chars() {
            cur.push(c);
            if matches!(c, '。' | '！' | '？' | '；') {
                sentences.push(std::mem::take(&mut cur));
            }
        }
        if !cur.is_empty() {
            sentences.push(cur);
        }
        sentences.retain(|_| rng.f64() >= drop);
        let mut i = 0;
        while i + 1 < sentences.len() {
            if rng.f64() < swap {
                sentences.swap(i, i + 1);
                i += 2;
            } else {
                i += 1;
            }
        }
        for s in sentences {
            if rng.f64() < filler {
                out.push_str(FILLERS[rng.usize(..FILLERS.len())]);
                out.push('，');
            }
            out.push_str(&s);
        }
        out.push('\n');
    }
    out
}

/// Swaps two neighbouring letters inside `share` of the words of four letters or more
/// (English typos: "teh", "recieve").
pub fn swap_letters(text: &str, share: f64, rng: &mut fastrand::Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i - start >= 4 && rng.f64() < share {
            let at = rng.usize(start + 1..i - 2);
            chars.swap(at, at + 1);
        }
        i += 1;
    }
    chars.into_iter().collect()
}

/// The text written out in pinyin, as pirates disguise a passage: each Han character its
/// reading (tone-marked, or `toned` false: plain), a space between syllables; other
/// characters (punctuation) kept.
pub fn pinyin_written(text: &str, toned: bool) -> String {
    use pinyin::ToPinyin;
    let mut out = String::with_capacity(text.len() * 3);
    for c in text.chars() {
        match c.to_pinyin() {
            Some(p) => {
                if out.ends_with(|c: char| c.is_alphabetic()) {
                    out.push(' ');
                }
                out.push_str(if toned { p.with_tone() } else { p.plain() });
            }
            None => out.push(c),
        }
    }
    out
}

/// Slips a random Latin letter after `share` of the Han characters (`名下士n。顺治间`).
pub fn noise_letters(text: &str, share: f64, rng: &mut fastrand::Rng) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        out.push(c);
        if is_han(c) && rng.f64() < share {
            out.push(rng.alphabetic().to_ascii_lowercase());
        }
    }
    out
}

/// Swaps `share` of the Han characters that have look-alikes (形近字, the sets of
/// [`crate::engine::normalize::lookalike_sets`]) for another of their set (己 for 已, 末 for 未).
pub fn lookalikes(text: &str, share: f64, rng: &mut fastrand::Rng) -> String {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static SETS: OnceLock<HashMap<char, Vec<char>>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        crate::engine::normalize::lookalike_sets()
            .flat_map(|set| {
                let chars: Vec<char> = set.chars().collect();
                chars.clone().into_iter().map(move |c| (c, chars.iter().copied().filter(|&o| o != c).collect()))
            })
            .collect()
    });
    text.chars()
        .map(|c| match sets.get(&c) {
            Some(others) if rng.f64() < share => others[rng.usize(..others.len())],
            _ => c,
        })
        .collect()
}

/// Slips an invisible character (zero-width space, joiner, soft hyphen, word joiner)
/// after `share` of the characters.
pub fn invisible_chars(text: &str, share: f64, rng: &mut fastrand::Rng) -> String {
    const INVISIBLE: [char; 5] = ['\u{200b}', '\u{200c}', '\u{200d}', '\u{00ad}', '\u{2060}'];
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        out.push(c);
        if !c.is_whitespace() && rng.f64() < share {
            out.push(INVISIBLE[rng.usize(..INVISIBLE.len())]);
        }
    }
    out
}

/// English disguised with look-alike letters from Cyrillic and Greek in `share` of the
/// words, and zero-width spaces inside `share` of them.
pub fn homoglyphs(text: &str, share: f64, rng: &mut fastrand::Rng) -> String {
    const LOOK_ALIKES: [(char, char); 8] =
        [('a', 'а'), ('e', 'е'), ('o', 'о'), ('p', 'р'), ('c', 'с'), ('x', 'х'), ('y', 'у'), ('i', 'і')];
    let mut out = String::with_capacity(text.len() + 64);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String, rng: &mut fastrand::Rng| {
        if word.chars().count() >= 4 && rng.f64() < share {
            let mut chars: Vec<char> = word.chars().collect();
            if let Some(at) = chars.iter().position(|c| LOOK_ALIKES.iter().any(|(l, _)| l == c)) {
                chars[at] = LOOK_ALIKES.iter().find(|(l, _)| *l == chars[at]).expect("found").1;
            }
            if rng.bool() {
                chars.insert(rng.usize(1..chars.len()), '\u{200b}');
            }
            out.extend(chars);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out, rng);
            out.push(c);
        }
    }
    flush(&mut word, &mut out, rng);
    out
}

/// The chapter as an RTF document in code page 936: Han characters as GBK `\'hh` bytes (as
/// Chinese Word and WPS write them), anything GBK lacks as `\uN`.
pub fn rtf(text: &str) -> Vec<u8> {
    let mut out = String::from("{\\rtf1\\ansi\\ansicpg936{\\fonttbl{\\f0\\fnil SimSun;}}\\f0 ");
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\par\n"),
            '\\' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii() => out.push(c),
            c => {
                let mut utf8 = [0; 4];
                let (bytes, _, unmappable) = encoding_rs::GBK.encode(c.encode_utf8(&mut utf8));
                if unmappable {
                    out.push_str(&format!("\\u{}?", c as u32 as i16));
                } else {
                    bytes.iter().for_each(|b| out.push_str(&format!("\\'{b:02x}")));
                }
            }
        }
    }
    out.push('}');
    out.into_bytes()
}

/// The chapter as an ODT document: one `text:p` per line.
pub fn odt(text: &str) -> Vec<u8> {
    use std::io::Write;
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content \
         xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:text>",
    );
    for line in text.lines() {
        xml += &format!("<text:p>{}</text:p>", escape(line));
    }
    xml += "</office:text></office:body></office:document-content>";
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("mimetype", stored).expect("zip in memory");
    zip.write_all(b"application/vnd.oasis.opendocument.text").expect("zip in memory");
    zip.start_file("content.xml", stored).expect("zip in memory");
    zip.write_all(xml.as_bytes()).expect("zip in memory");
    zip.finish().expect("zip in memory").into_inner()
}

/// The chapter as a PDF the way Chinese PDF tools write it: the standard, non-embedded
/// STSong-Light with Adobe's predefined `UniGB-UCS2-H` CMap, no ToUnicode map; 30
/// characters a line, 50 lines a page.
pub fn pdf(text: &str) -> Vec<u8> {
    let lines: Vec<String> = text
        .lines()
        .flat_map(|l| l.chars().collect::<Vec<_>>().chunks(30).map(|c| c.iter().collect()).collect::<Vec<String>>())
        .collect();
    let pages: Vec<&[String]> = lines.chunks(50).collect();
    let mut objects: Vec<String> = vec![
        String::new(), // 1: catalog, filled below
        String::new(), // 2: pages
        "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [4 0 R] >>"
            .into(),
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) \
         /Ordering (GB1) /Supplement 2 >> /FontDescriptor 5 0 R >>"
            .into(),
        "<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 \
         /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>"
            .into(),
    ];
    let mut kids = Vec::new();
    for page in &pages {
        let mut content = String::from("BT /F1 12 Tf 14 TL 40 800 Td\n");
        for line in page.iter() {
            let hex: String = line.encode_utf16().map(|u| format!("{u:04X}")).collect();
            content += &format!("<{hex}> Tj T*\n");
        }
        content += "ET";
        objects.push(format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()));
        let contents = objects.len();
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> \
             /Contents {contents} 0 R >>"
        ));
        kids.push(format!("{} 0 R", objects.len()));
    }
    objects[0] = "<< /Type /Catalog /Pages 2 0 R >>".into();
    objects[1] = format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), kids.len());
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

/// The chapter as a Kindle book (MOBI, uncompressed records of HTML, UTF-8).
pub fn mobi(text: &str) -> Vec<u8> {
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let html: String = std::iter::once("<html><head></head><body>".to_string())
        .chain(text.lines().map(|l| format!("<p>{}</p>", escape(l))))
        .chain(std::iter::once("</body></html>".to_string()))
        .collect();
    let body = html.as_bytes();
    let chunks: Vec<&[u8]> = body.chunks(4096).collect();
    let mut r0 = Vec::new();
    r0.extend_from_slice(&1u16.to_be_bytes()); // no compression
    r0.extend_from_slice(&0u16.to_be_bytes());
    r0.extend_from_slice(&(body.len() as u32).to_be_bytes());
    r0.extend_from_slice(&(chunks.len() as u16).to_be_bytes());
    r0.extend_from_slice(&4096u16.to_be_bytes());
    r0.extend_from_slice(&0u16.to_be_bytes()); // no encryption
    r0.extend_from_slice(&0u16.to_be_bytes());
    let mut header = vec![0u8; 0xE8];
    header[..4].copy_from_slice(b"MOBI");
    header[4..8].copy_from_slice(&0xE8u32.to_be_bytes());
    header[8..12].copy_from_slice(&2u32.to_be_bytes()); // a book
    header[12..16].copy_from_slice(&65001u32.to_be_bytes()); // UTF-8
    r0.extend_from_slice(&header);
    let records: Vec<&[u8]> = std::iter::once(r0.as_slice()).chain(chunks).collect();
    let mut out = vec![0u8; 78];
    out[..7].copy_from_slice(b"chapter");
    out[60..68].copy_from_slice(b"BOOKMOBI");
    out[76..78].copy_from_slice(&(records.len() as u16).to_be_bytes());
    let mut offset = 78 + 8 * records.len() + 2;
    for (i, r) in records.iter().enumerate() {
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(i as u32 * 2).to_be_bytes());
        offset += r.len();
    }
    out.extend_from_slice(&[0, 0]);
    records.iter().for_each(|r| out.extend_from_slice(r));
    out
}

/// A random passage of about `len` characters of English `text`, from the start of a word
/// to the end of one, as a char range.
pub fn pick_passage_en(text: &str, len: usize, rng: &mut fastrand::Rng) -> Option<Range<usize>> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < len + 20 {
        return None;
    }
    let start = rng.usize(1..chars.len() - len);
    let start = (start..chars.len()).find(|&i| chars[i].is_alphanumeric() && !chars[i - 1].is_alphanumeric())?;
    let end = (start + len).min(chars.len() - 1);
    let end = (end..chars.len()).find(|&i| !chars[i].is_alphanumeric())?;
    Some(start..end)
}

/// A random passage of `len` characters of `text`, starting and ending inside Han text
/// (as a human would cut), as a char range.
pub fn pick_passage(text: &str, len: usize, rng: &mut fastrand::Rng) -> Option<Range<usize>> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < len + 20 {
        return None;
    }
    for _ in 0..20 {
        let start = rng.usize(0..chars.len() - len);
        let end = start + len;
        if is_han(chars[start]) && is_han(chars[end - 1]) {
            return Some(start..end);
        }
    }
    None
}

pub fn char_slice(text: &str, r: Range<usize>) -> String {
    text.chars().skip(r.start).take(r.len()).collect()
}

/// A piece of a generated suspect: unrelated text, or (source path, source text, copied range).
pub type Part = Result<String, (String, String, Range<usize>)>;

/// Builds a suspect from parts: `Ok(text)` pieces are unrelated text, `Err((path, text,
/// range))` pieces are copied, and their ground truth is recorded.
pub fn assemble(parts: Vec<Part>) -> (String, Vec<TruthPassage>) {
    let mut out = String::new();
    let mut n = 0usize;
    let mut truth = Vec::new();
    for part in parts {
        let piece = match part {
            Ok(text) => text,
            Err((path, text, range)) => {
                let piece = char_slice(&text, range.clone());
                let len = piece.chars().count();
                truth.push(TruthPassage { source_path: path, suspect: n..n + len, source: range });
                piece
            }
        };
        n += piece.chars().count();
        out.push_str(&piece);
    }
    (out, truth)
}

/// Splits an unrelated article at a paragraph boundary near the middle.
pub fn split_at_paragraph(host: &str) -> (String, String) {
    let mut mid = host.len() / 2;
    while !host.is_char_boundary(mid) {
        mid += 1;
    }
    let cut = host[mid..].find('\n').map_or(host.len(), |i| mid + i + 1);
    (host[..cut].to_string(), host[cut..].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "第一回　宴桃园豪杰三结义\n　　滚滚长江东逝水，浪花淘尽英雄。是非成败转头空。\n　　青山依旧在，几度夕阳红。白发渔樵江渚上，惯看秋月春风。\n　　一壶浊酒喜相逢：古今多少事，都付笑谈中。";

    fn pools() -> CharPools {
        CharPools::from_texts([TEXT, TEXT, "事实是市师诗施十时石识史使始世式试视室士势"].into_iter())
    }

    #[test]
    fn homophones_keep_pinyin_and_change_characters() {
        let mut rng = fastrand::Rng::with_seed(1);
        let out = homophones(TEXT, 0.5, &pools(), &mut rng);
        assert_ne!(out, TEXT);
        assert_eq!(out.chars().count(), TEXT.chars().count());
        for (a, b) in TEXT.chars().zip(out.chars()) {
            if a != b {
                assert_eq!(a.to_pinyin().unwrap().plain(), b.to_pinyin().unwrap().plain());
            }
        }
    }

    #[test]
    fn assembled_truth_points_at_the_copied_text() {
        let mut rng = fastrand::Rng::with_seed(2);
        let range = pick_passage(TEXT, 12, &mut rng).unwrap();
        let (text, truth) = assemble(vec![
            Ok("新闻开头。\n".into()),
            Err(("/src.txt".into(), TEXT.into(), range.clone())),
            Ok("结尾".into()),
        ]);
        assert_eq!(char_slice(&text, truth[0].suspect.clone()), char_slice(TEXT, range));
        assert_eq!(truth[0].suspect.start, 6);
        let (a, b) = split_at_paragraph("新闻一\n新闻二\n新闻三");
        assert_eq!((a.as_str(), b.as_str()), ("新闻一\n新闻二\n", "新闻三"));
    }

    #[test]
    fn laundering_keeps_most_sentences_in_near_order_and_typos_keep_letters() {
        let mut rng = fastrand::Rng::with_seed(4);
        let text = TEXT.repeat(20);
        let out = launder(&text, 0.15, 0.15, 0.2, &mut rng);
        let han = |s: &str| s.chars().filter(|&c| is_han(c)).count();
        let (before, after) = (han(&text), han(&out));
        assert!(after < before && after > before * 3 / 4, "{before} → {after}");
        assert!(FILLERS.iter().any(|f| out.contains(f)));
        let en = "The quick brown foxes jumped over sleeping dogs";
        let typo = swap_letters(en, 1.0, &mut rng);
        assert_ne!(typo, en);
        let sorted = |s: &str| {
            let mut v: Vec<char> = s.chars().collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&typo), sorted(en), "letters swapped, none lost");
        let r = pick_passage_en(&en.repeat(10), 60, &mut rng).unwrap();
        let piece = char_slice(&en.repeat(10), r);
        assert!(piece.starts_with(char::is_alphanumeric) && piece.ends_with(char::is_alphanumeric), "{piece}");
    }

    #[test]
    fn every_generated_format_decodes_back_to_the_chapter() {
        use crate::engine::decode::decode_bytes;
        let han = |s: &str| s.chars().filter(|&c| is_han(c)).collect::<String>();
        for (ext, bytes) in [("rtf", rtf(TEXT)), ("odt", odt(TEXT)), ("pdf", pdf(TEXT)), ("mobi", mobi(TEXT))] {
            let decoded = decode_bytes(std::path::Path::new(&format!("c.{ext}")), &bytes).unwrap();
            assert_eq!(han(&decoded.text), han(TEXT), "{ext}: {}", decoded.text);
        }
    }

    #[test]
    fn a_drm_protected_kindle_book_is_refused_by_name() {
        use crate::engine::decode::decode_bytes;
        let mut book = mobi(TEXT);
        let r0 = u32::from_be_bytes(book[78..82].try_into().unwrap()) as usize;
        book[r0 + 13] = 2; // PalmDOC encryption: MobiPocket DRM
        let e = decode_bytes(std::path::Path::new("book.mobi"), &book).unwrap_err().to_string();
        assert!(e.contains("protected by DRM"), "{e}");
    }

    #[test]
    fn reformat_and_ads_keep_every_han_character() {
        let mut rng = fastrand::Rng::with_seed(3);
        let han = |s: &str| s.chars().filter(|&c| is_han(c)).collect::<String>();
        assert_eq!(han(&reformat(TEXT, &mut rng)), han(TEXT));
        let with_ads = ads(TEXT, &mut rng);
        let kept: Vec<&str> = with_ads.lines().filter(|l| TEXT.lines().any(|t| t == *l)).collect();
        assert_eq!(kept, TEXT.lines().collect::<Vec<_>>(), "every line kept, in order");
        assert!(with_ads.lines().count() > TEXT.lines().count() + 2);
        assert_eq!(traditional("这部书单表东胜神洲"), "這部書單表東勝神洲");
    }
}
