//! Zip-based formats: EPUB (chapters in spine order) and DOCX (paragraphs of
//! `word/document.xml`). Archives are untrusted: the number of entries and the bytes
//! unpacked are capped before and while reading, so a zip bomb is refused with a message.

use super::html::decode_html;
use quick_xml::events::Event;
use std::io::{Cursor, Read};

/// Entries an archive may have.
pub const MAX_ENTRIES: usize = 20_000;
/// Bytes an archive may unpack to, in all.
pub const MAX_UNPACKED: u64 = 256 * 1024 * 1024;

struct Archive {
    zip: zip::ZipArchive<Cursor<Vec<u8>>>,
    unpacked: u64,
}

impl Archive {
    fn open(bytes: &[u8], what: &str) -> Result<Archive, String> {
        let zip = zip::ZipArchive::new(Cursor::new(bytes.to_vec()))
            .map_err(|e| format!("not a valid {what} (the zip container is damaged: {e})"))?;
        if zip.len() > MAX_ENTRIES {
            return Err(format!("{what} has {} entries, over the limit of {MAX_ENTRIES}", zip.len()));
        }
        Ok(Archive { zip, unpacked: 0 })
    }

    fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, String> {
        let mut entry = match self.zip.by_name(name) {
            Ok(e) => e,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(format!("cannot read {name} in the archive: {e}")),
        };
        let budget = MAX_UNPACKED - self.unpacked;
        if entry.size() > budget {
            return Err(format!("the archive unpacks to over {} MiB (a zip bomb?)", MAX_UNPACKED >> 20));
        }
        let mut out = Vec::new();
        // Declared sizes can lie: cap what is actually inflated too.
        (&mut entry).take(budget + 1).read_to_end(&mut out).map_err(|e| format!("cannot unpack {name}: {e}"))?;
        self.unpacked += out.len() as u64;
        if self.unpacked > MAX_UNPACKED {
            return Err(format!("the archive unpacks to over {} MiB (a zip bomb?)", MAX_UNPACKED >> 20));
        }
        Ok(Some(out))
    }
}

fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

fn attr(e: &quick_xml::events::BytesStart, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| local(a.key.as_ref()) == key)
        .and_then(|a| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).ok().map(|v| v.into_owned()))
}

/// A spine document with fewer letters than this is a chapter posted as pictures (or a
/// cover): its images are read by OCR.
const PICTURE_CHAPTER_MAX_CHARS: usize = 50;

/// The text of an EPUB: its spine's documents in order, separated by blank lines; chapters
/// that are pictures read by OCR. Also how many images were read.
pub fn epub_text(bytes: &[u8]) -> Result<(String, u32), String> {
    read_epub(bytes, &mut |bytes| super::ocr::decode_image(bytes).and_then(|image| super::ocr::shared()?.text(&image)))
}

/// The pictures of an EPUB's chapters that are pictures (what [`epub_text`] reads by OCR), in
/// reading order; pictures that cannot be decoded are left out.
pub fn epub_pictures(bytes: &[u8]) -> Result<Vec<image::RgbImage>, String> {
    let mut pictures = Vec::new();
    read_epub(bytes, &mut |bytes| {
        pictures.extend(super::ocr::decode_image(bytes).ok());
        Ok(String::new())
    })?;
    Ok(pictures)
}

/// [`epub_text`] with `read_picture` giving the text of each picture of a picture chapter.
fn read_epub(
    bytes: &[u8],
    read_picture: &mut dyn FnMut(&[u8]) -> Result<String, String>,
) -> Result<(String, u32), String> {
    let mut ar = Archive::open(bytes, "EPUB")?;
    let container = ar.read("META-INF/container.xml")?.ok_or("not a valid EPUB (no META-INF/container.xml)")?;
    let mut opf_path = None;
    each_start(&container, |e| {
        if local(e.name().as_ref()) == "rootfile" {
            opf_path = opf_path.take().or_else(|| attr(e, "full-path"));
        }
    })?;
    let opf_path = opf_path.ok_or("not a valid EPUB (no rootfile in container.xml)")?;
    let opf = ar.read(&opf_path)?.ok_or_else(|| format!("not a valid EPUB ({opf_path} is missing)"))?;
    let base = opf_path.rsplit_once('/').map_or(String::new(), |(dir, _)| format!("{dir}/"));
    let (mut items, mut spine) = (std::collections::HashMap::new(), Vec::new());
    // The cover picture (EPUB 3's `cover-image` property, EPUB 2's `<meta name="cover">`):
    // a title, not a chapter, never read by OCR.
    let (mut covers, mut cover_ids) = (Vec::new(), Vec::new());
    each_start(&opf, |e| match local(e.name().as_ref()) {
        "item" => {
            if let (Some(id), Some(href)) = (attr(e, "id"), attr(e, "href")) {
                if attr(e, "properties").is_some_and(|p| p.split_whitespace().any(|p| p == "cover-image")) {
                    covers.push(href.clone());
                }
                items.insert(id, href);
            }
        }
        "itemref" => spine.extend(attr(e, "idref")),
        "meta" if attr(e, "name").as_deref() == Some("cover") => cover_ids.extend(attr(e, "content")),
        _ => {}
    })?;
    covers.extend(cover_ids.iter().filter_map(|id| items.get(id).cloned()));
    let covers: Vec<String> = covers.iter().map(|href| format!("{base}{href}")).collect();
    let mut text = String::new();
    let (mut images_read, mut unread) = (0u32, None);
    for idref in spine {
        let Some(href) = items.get(&idref) else { continue };
        let path = format!("{base}{}", href.split('#').next().unwrap_or(href));
        let Some(page) = ar.read(&path)? else { continue };
        let (chapter, _) = decode_html(&page)?;
        if !chapter.trim().is_empty() {
            text.push_str(&chapter);
            text.push('\n');
        }
        if chapter.chars().filter(|c| c.is_alphanumeric()).count() < PICTURE_CHAPTER_MAX_CHARS {
            for picture in pictures_of(&page, &path).into_iter().filter(|p| !covers.contains(p)) {
                let Some(bytes) = ar.read(&picture)? else { continue };
                match read_picture(&bytes) {
                    Ok(read) => {
                        if read.chars().filter(|c| c.is_alphanumeric()).count() >= super::ocr::MIN_PAGE_LETTERS {
                            images_read += 1;
                        }
                        text.push_str(&read);
                    }
                    Err(why) => {
                        unread.get_or_insert(format!("{picture}: {why}"));
                    }
                }
            }
        }
    }
    // Pictures that could not be read matter only when the book has no other text.
    if let Some(why) = unread.filter(|_| !text.chars().any(char::is_alphanumeric)) {
        return Err(format!("the EPUB's chapters are pictures and cannot be read ({why})"));
    }
    Ok((text, images_read))
}

/// Archive paths of the pictures an XHTML document at `path` shows (`<img src>`, SVG
/// `<image href>`), resolved against its folder.
fn pictures_of(page: &[u8], path: &str) -> Vec<String> {
    let mut sources = Vec::new();
    // A document that is not well-formed XML has no pictures Zhiwen can find.
    let _ = each_start(page, |e| match local(e.name().as_ref()) {
        "img" => sources.extend(attr(e, "src")),
        "image" => sources.extend(attr(e, "href")),
        _ => {}
    });
    let folder = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    sources
        .into_iter()
        .filter(|src| !src.contains(':'))
        .map(|src| {
            let mut parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
            for part in src.split('#').next().unwrap_or("").split('/') {
                match part {
                    "" | "." => {}
                    ".." => {
                        parts.pop();
                    }
                    _ => parts.push(part),
                }
            }
            parts.join("/")
        })
        .collect()
}

/// The text of a DOCX: one line per paragraph of `word/document.xml`.
pub fn docx_text(bytes: &[u8]) -> Result<String, String> {
    let mut ar = Archive::open(bytes, "DOCX")?;
    let xml = ar.read("word/document.xml")?.ok_or("not a valid DOCX (no word/document.xml)")?;
    let mut reader = quick_xml::Reader::from_reader(xml.as_slice());
    let mut buf = Vec::new();
    let (mut text, mut in_text) = (String::new(), false);
    loop {
        match reader.read_event_into(&mut buf).map_err(|e| format!("damaged word/document.xml: {e}"))? {
            Event::Start(e) if local(e.name().as_ref()) == "t" => in_text = true,
            Event::End(e) => match local(e.name().as_ref()) {
                "t" => in_text = false,
                "p" => text.push('\n'),
                _ => {}
            },
            Event::Empty(e) => match local(e.name().as_ref()) {
                "tab" => text.push('\t'),
                "br" | "cr" => text.push('\n'),
                _ => {}
            },
            Event::Text(t) if in_text => text.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if in_text => text.push_str(&resolve_entity(&r.xml10_content())),
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(text)
}

/// The paragraphs of an ODT (OpenDocument text): `content.xml`'s `text:p` and `text:h`,
/// with `text:s` (spaces), `text:tab` and `text:line-break`.
pub fn odt_text(bytes: &[u8]) -> Result<String, String> {
    let mut ar = Archive::open(bytes, "ODT")?;
    let xml = ar.read("content.xml")?.ok_or("not a valid ODT (no content.xml)")?;
    let mut reader = quick_xml::Reader::from_reader(xml.as_slice());
    let mut buf = Vec::new();
    let (mut text, mut depth) = (String::new(), 0usize); // depth: open text:p / text:h
    loop {
        match reader.read_event_into(&mut buf).map_err(|e| format!("damaged content.xml: {e}"))? {
            Event::Start(e) if matches!(local(e.name().as_ref()), "p" | "h") => depth += 1,
            Event::End(e) if matches!(local(e.name().as_ref()), "p" | "h") => {
                depth = depth.saturating_sub(1);
                text.push('\n');
            }
            Event::Empty(e) if depth > 0 => match local(e.name().as_ref()) {
                "s" => text.push(' '),
                "tab" => text.push('\t'),
                "line-break" => text.push('\n'),
                _ => {}
            },
            Event::Text(t) if depth > 0 => text.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if depth > 0 => text.push_str(&resolve_entity(&r.xml10_content())),
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok(text)
}

/// What a book file says about itself: its title, creators and language (Dublin Core in an
/// EPUB's package document or a DOCX/ODT's document properties).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BookMetadata {
    pub title: String,
    pub authors: Vec<String>,
    pub language: String,
}

impl BookMetadata {
    fn is_empty(&self) -> bool {
        self.title.is_empty() && self.authors.is_empty()
    }
}

/// The metadata of an EPUB (`dc:title`, `dc:creator`, `dc:language` of its package document).
pub fn epub_metadata(bytes: &[u8]) -> Result<Option<BookMetadata>, String> {
    let mut ar = Archive::open(bytes, "EPUB")?;
    let Some(container) = ar.read("META-INF/container.xml")? else { return Ok(None) };
    let mut opf_path = None;
    each_start(&container, |e| {
        if local(e.name().as_ref()) == "rootfile" {
            opf_path = opf_path.take().or_else(|| attr(e, "full-path"));
        }
    })?;
    let Some(opf) = opf_path.map(|p| ar.read(&p)).transpose()?.flatten() else { return Ok(None) };
    Ok(dublin_core(&opf))
}

/// The metadata of a DOCX (`docProps/core.xml`) or an ODT (`meta.xml`).
pub fn office_metadata(bytes: &[u8], what: &str) -> Result<Option<BookMetadata>, String> {
    let mut ar = Archive::open(bytes, what)?;
    let entry = if what == "ODT" { "meta.xml" } else { "docProps/core.xml" };
    Ok(ar.read(entry)?.and_then(|xml| dublin_core(&xml)))
}

/// The first `title`, every `creator` (ODT: `initial-creator` too) and the first `language`
/// element's text, whatever their namespace prefix; `None` without a title or creator.
fn dublin_core(xml: &[u8]) -> Option<BookMetadata> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut buf = Vec::new();
    let mut meta = BookMetadata::default();
    let mut open: Option<String> = None;
    let mut value = String::new();
    loop {
        match reader.read_event_into(&mut buf).ok()? {
            Event::Start(e) => {
                let name = local(e.name().as_ref()).to_string();
                if matches!(name.as_str(), "title" | "creator" | "initial-creator" | "language") {
                    open = Some(name);
                    value.clear();
                }
            }
            Event::Text(t) if open.is_some() => value.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if open.is_some() => value.push_str(&resolve_entity(&r.xml10_content())),
            Event::CData(t) if open.is_some() => value.push_str(&t.into_inner()),
            Event::End(_) => {
                let v = value.split_whitespace().collect::<Vec<_>>().join(" ");
                match open.take().as_deref() {
                    Some("title") if meta.title.is_empty() => meta.title = v,
                    Some("creator" | "initial-creator") if !v.is_empty() && !meta.authors.contains(&v) => {
                        meta.authors.push(v)
                    }
                    Some("language") if meta.language.is_empty() => meta.language = v,
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    (!meta.is_empty()).then_some(meta)
}

/// `amp` → `&`, `#x4E00` → `一`; unknown entities are kept as written.
pub(crate) fn resolve_entity(name: &str) -> String {
    let c = match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        n if n.starts_with("#x") || n.starts_with("#X") => {
            u32::from_str_radix(&n[2..], 16).ok().and_then(char::from_u32)
        }
        n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
        _ => None,
    };
    c.map_or_else(|| format!("&{name};"), String::from)
}

/// Calls `f` for every start or empty element of an XML document.
fn each_start(xml: &[u8], mut f: impl FnMut(&quick_xml::events::BytesStart)) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).map_err(|e| format!("damaged XML in the archive: {e}"))? {
            Event::Start(e) | Event::Empty(e) => f(&e),
            Event::Eof => return Ok(()),
            _ => {}
        }
        buf.clear();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    /// A zip with the given (name, content) entries.
    pub fn zip_of(entries: &[(&str, &str)]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, content) in entries {
            w.start_file(*name, SimpleFileOptions::default()).unwrap();
            w.write_all(content.as_bytes()).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    pub fn epub() -> Vec<u8> {
        zip_of(&[
            ("mimetype", "application/epub+zip"),
            (
                "META-INF/container.xml",
                r#"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
            ),
            (
                "OEBPS/content.opf",
                r#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf"><manifest><item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>"#,
            ),
            ("OEBPS/text/ch1.xhtml", "<html><body><h1>第一回</h1><p>滚滚长江东逝水，浪花淘尽英雄。</p></body></html>"),
            ("OEBPS/text/ch2.xhtml", "<html><body><h1>第二回</h1><p>是非成败转头空，青山依旧在。</p></body></html>"),
        ])
    }

    pub fn docx() -> Vec<u8> {
        zip_of(&[(
            "word/document.xml",
            r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>第一回</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">滚滚长江&amp;东逝水，</w:t></w:r><w:r><w:t>浪花淘尽英雄。</w:t></w:r></w:p></w:body></w:document>"#,
        )])
    }

    #[test]
    fn epub_and_docx_metadata_give_title_creators_and_language() {
        let opf = r#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>西游记</dc:title><dc:creator opf:role="aut">吴承恩</dc:creator><dc:creator>佚名 &amp; 某</dc:creator><dc:language>zh</dc:language></metadata><manifest/><spine/></package>"#;
        let book = zip_of(&[
            (
                "META-INF/container.xml",
                r#"<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>"#,
            ),
            ("content.opf", opf),
        ]);
        let meta = epub_metadata(&book).unwrap().unwrap();
        assert_eq!(meta.title, "西游记");
        assert_eq!(meta.authors, ["吴承恩", "佚名 & 某"]);
        assert_eq!(meta.language, "zh");
        // The test EPUB above has no metadata at all.
        assert_eq!(epub_metadata(&epub()).unwrap(), None);
        let core = r#"<cp:coreProperties xmlns:cp="x" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>A Column</dc:title><dc:creator>Ann Lee</dc:creator></cp:coreProperties>"#;
        let with_core = zip_of(&[("docProps/core.xml", core)]);
        let meta = office_metadata(&with_core, "DOCX").unwrap().unwrap();
        assert_eq!((meta.title.as_str(), meta.authors.as_slice()), ("A Column", &["Ann Lee".to_string()][..]));
        assert_eq!(office_metadata(&docx(), "DOCX").unwrap(), None);
    }

    #[test]
    fn epub_chapters_come_in_spine_order() {
        assert_eq!(
            epub_text(&epub()).unwrap().0,
            "第一回\n滚滚长江东逝水，浪花淘尽英雄。\n\n第二回\n是非成败转头空，青山依旧在。\n\n"
        );
    }

    #[test]
    fn docx_paragraphs_and_runs() {
        assert_eq!(docx_text(&docx()).unwrap(), "第一回\n滚滚长江&东逝水，浪花淘尽英雄。\n");
    }

    #[test]
    fn damaged_and_fake_archives_are_refused_with_a_reason() {
        assert!(epub_text(b"PK\x03\x04 not really a zip").unwrap_err().contains("not a valid EPUB"));
        assert_eq!(
            pictures_of(br#"<html><body><img src="../Images/p1.jpg"/><svg><image xlink:href="p2.png"/></svg><img src="http://x/y.png"/></body></html>"#, "OEBPS/Text/ch1.xhtml"),
            vec!["OEBPS/Images/p1.jpg".to_string(), "OEBPS/Text/p2.png".to_string()]
        );
        assert!(docx_text(&zip_of(&[("a.txt", "x")])).unwrap_err().contains("no word/document.xml"));
    }

    #[test]
    fn a_zip_bomb_is_refused() {
        // 300 MiB of zeros deflate to a few hundred kB.
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file("word/document.xml", opts).unwrap();
        let zeros = vec![b' '; 1 << 20];
        for _ in 0..300 {
            w.write_all(&zeros).unwrap();
        }
        let bomb = w.finish().unwrap().into_inner();
        assert!(bomb.len() < 2 << 20, "{}", bomb.len());
        assert!(docx_text(&bomb).unwrap_err().contains("zip bomb"));
    }
}
