//! The one place where a file becomes text.
//!
//! [`decode_file`] reads a file, picks an extractor from its extension and content, and
//! returns [`Decoded`]: the text every later step works on, and from which all character
//! offsets in reports are counted. For plain text the extracted text is the decoded file
//! content, unchanged (line breaks included). Other formats (HTML, EPUB, DOCX, PDF) plug
//! in here as further extractors: `html` (pages, with a real parser), `archive` (EPUB
//! chapters in spine order, DOCX paragraphs; zip bombs refused) and PDF (text of each
//! page through `pdf-extract`, which reads CID fonts through their ToUnicode maps), and
//! images (PNG, JPEG, WebP, GIF, BMP, TIFF) and scanned PDF pages read by OCR (`ocr`,
//! `pdf_scan`). The extension picks the extractor; an unknown extension is sniffed from
//! the content.
//!
//! Every failure is an [`Error::Decode`] naming the file and the reason in words a user
//! understands; decoders never panic on hostile bytes (and the importer still catches a
//! panic per file, in case one does).

pub(crate) mod archive;
mod html;
mod html_stream;
mod mobi;
pub mod ocr;
mod pdf_cmap;
mod pdf_scan;
mod rtf;
mod text;
pub mod webfont;

use crate::{Error, Result};
use std::io::Read;
use std::path::Path;

pub use archive::BookMetadata;
pub use html::{page_links, page_pictures};
pub use text::decode_text_bytes;

/// Files larger than this are refused with a message rather than read into memory.
/// A 1,000-chapter novel in GB18030 is about 10 MB; 256 MiB leaves a wide margin.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Extensions imported when walking a folder. Files named explicitly are always tried.
pub const FOLDER_EXTENSIONS: &[&str] = &[
    "txt", "text", "md", "markdown", "html", "htm", "xhtml", "epub", "docx", "odt", "rtf", "pdf", "mobi", "azw",
    "azw3", "png", "jpg", "jpeg", "webp", "gif", "bmp", "tif", "tiff",
];

/// Extensions of the pictures Zhiwen reads by OCR.
pub const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "webp", "gif", "bmp", "tif", "tiff"];

/// Whether `path` names a picture by its extension.
pub fn is_image_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// What a file holds, from its extension or, failing that, its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Html,
    Epub,
    Docx,
    Odt,
    Rtf,
    Pdf,
    Mobi,
    Image,
}

fn format_of(path: &Path, bytes: &[u8]) -> Result<Format, String> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    Ok(match ext.as_deref() {
        Some("txt" | "text" | "md" | "markdown") => Format::Text,
        Some("html" | "htm" | "xhtml") => Format::Html,
        Some("epub") => Format::Epub,
        Some("docx") => Format::Docx,
        Some("odt") => Format::Odt,
        Some("rtf") => Format::Rtf,
        Some("mobi" | "azw" | "azw3" | "prc") => Format::Mobi,
        Some("pdf") => Format::Pdf,
        _ if is_image_path(path) => Format::Image,
        _ => sniff(bytes)?,
    })
}

fn sniff(bytes: &[u8]) -> Result<Format, String> {
    if bytes.starts_with(b"%PDF-") {
        return Ok(Format::Pdf);
    }
    if ocr::is_image(bytes) {
        return Ok(Format::Image);
    }
    if bytes.starts_with(b"{\\rtf") {
        return Ok(Format::Rtf);
    }
    // A Palm database whose type/creator is BOOKMOBI.
    if bytes.get(60..68) == Some(b"BOOKMOBI") {
        return Ok(Format::Mobi);
    }
    if bytes.starts_with(b"PK\x03\x04") {
        let head = &bytes[..bytes.len().min(64 * 1024)];
        let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
        return if has(b"word/document.xml") {
            Ok(Format::Docx)
        } else if has(b"application/vnd.oasis.opendocument.text") {
            Ok(Format::Odt)
        } else if has(b"application/epub+zip") || has(b"META-INF/container.xml") {
            Ok(Format::Epub)
        } else {
            Err("a zip archive that is neither EPUB, DOCX nor ODT".into())
        };
    }
    let start = String::from_utf8_lossy(&bytes[..bytes.len().min(1024)]).to_ascii_lowercase();
    let start = start.trim_start_matches('\u{feff}').trim_start();
    if start.starts_with("<!doctype html") || start.starts_with("<html") || start.contains("<body") {
        return Ok(Format::Html);
    }
    Ok(Format::Text)
}

#[derive(Clone, Debug)]
pub struct Decoded {
    pub text: String,
    /// What the bytes were: "UTF-8", "GBK", "Big5", "UTF-16LE", …
    pub encoding: &'static str,
    /// Problems that did not stop decoding, e.g. a few undecodable bytes replaced by U+FFFD.
    pub warnings: Vec<String>,
    /// How many images the text was read from by OCR (an image file, a scanned PDF's pages).
    pub images_read: u32,
    /// How many characters were replaced by the ones a scrambling web font draws for them.
    pub font_remapped: u32,
}

impl Decoded {
    fn of(text: String, encoding: &'static str) -> Decoded {
        Decoded { text, encoding, warnings: Vec::new(), images_read: 0, font_remapped: 0 }
    }
}

/// Whether markup has an `@font-face` rule (before anything is done about one).
pub fn has_font_faces(bytes: &[u8]) -> bool {
    // Every page is asked: only the rare `@` is compared further.
    bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'@' && bytes.get(i..i + 10).is_some_and(|w| w.eq_ignore_ascii_case(b"@font-face")))
}

/// The text of a PDF, and how many page images were read by OCR (a PDF with no text layer:
/// a scan). CJK fonts often map glyphs to Kangxi radicals (⼗ U+2F17 for 十); those are
/// folded to the ideographs they stand for (NFKC), so the stored text reads normally and
/// the viewer does not mark them as changes.
fn pdf_text(bytes: &[u8]) -> Result<(String, u32), String> {
    use unicode_normalization::UnicodeNormalization;
    let read = || -> Result<(String, u32), String> {
        let mut doc = pdf_extract::Document::load_mem(bytes).map_err(|e| format!("cannot read the PDF: {e}"))?;
        if doc.is_encrypted() {
            doc.decrypt("").map_err(|_| "the PDF is encrypted with a password".to_string())?;
        }
        check_page_tree(&doc)?;
        if let Some(name) = pdf_cmap::unknown_cmap(&doc) {
            return Err(format!("the PDF uses a font encoding Zhiwen cannot read ({name})"));
        }
        // Standard CJK fonts with predefined CMaps: pdf-extract cannot read them.
        let text = if pdf_cmap::uses_predefined_cmaps(&doc) {
            pdf_cmap::text(&doc)?
        } else {
            let mut text = String::new();
            pdf_extract::output_doc(&doc, &mut pdf_extract::PlainTextOutput::new(&mut text))
                .map_err(|e| format!("cannot read the PDF: {e}"))?;
            text
        };
        if text.chars().any(char::is_alphanumeric) {
            return Ok((text, 0));
        }
        pdf_scan::scanned_text(&doc)
    };
    let (text, images) = catch_quietly(read).map_err(|_| "damaged PDF (the reader failed on it)".to_string())??;
    let text = text
        .chars()
        .flat_map(|c| {
            let radical = ('\u{2e80}'..='\u{2fdf}').contains(&c);
            let folded: Vec<char> = if radical { std::iter::once(c).nfkc().collect() } else { vec![c] };
            folded
        })
        .collect();
    Ok((text, images))
}

/// The text of a Kindle ebook (MOBI, AZW3): its records are HTML, read like an HTML file.
fn mobi_text(bytes: &[u8]) -> Result<String, String> {
    let markup = catch_quietly(|| mobi::mobi_markup(bytes))
        .map_err(|_| "damaged Kindle ebook (the reader failed on it)".to_string())??;
    Ok(html::page_text(&markup))
}

/// Refuses a PDF whose pages' `/Parent` chains loop or run deeper than any real file:
/// pdf-extract follows them recursively to find inherited page attributes, so a loop
/// would hang the import, then overflow the stack (found by `cargo fuzz run decode_pdf`).
fn check_page_tree(doc: &pdf_extract::Document) -> Result<(), String> {
    const MAX_DEPTH: usize = 256;
    for (_, page) in doc.get_pages() {
        let mut seen = std::collections::HashSet::from([page]);
        let mut id = page;
        while let Some(parent) = doc.get_dictionary(id).ok().and_then(|d| d.get(b"Parent").ok()?.as_reference().ok()) {
            if !seen.insert(parent) || seen.len() > MAX_DEPTH {
                return Err("damaged PDF (its page tree loops)".into());
            }
            id = parent;
        }
    }
    Ok(())
}

thread_local! {
    /// Set while this thread runs a decoder under [`catch_quietly`].
    static QUIET: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs a decoder, catching a panic (a parser's bug on hostile input) without the panic
/// message and backtrace on the terminal: the caller turns it into one message naming the
/// file. Panics elsewhere still print as usual.
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get()) == 0 {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(q.get() + 1));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    result
}

/// Reads and decodes one file.
/// The pictures a file's text was read from by OCR, for showing beside it: a picture file
/// itself, a scanned PDF's page images (at most `max`), an EPUB's picture chapters; none for
/// other files.
pub fn pictures_read(path: &Path, max: usize) -> std::result::Result<Vec<image::RgbImage>, String> {
    let bytes = read_limited(path).map_err(|e| e.to_string())?;
    let read = || -> std::result::Result<Vec<image::RgbImage>, String> {
        if is_image_path(path) || ocr::is_image(&bytes) {
            return Ok(vec![ocr::decode_image(&bytes)?]);
        }
        if bytes.starts_with(b"%PDF") {
            let mut doc = pdf_extract::Document::load_mem(&bytes).map_err(|e| format!("cannot read the PDF: {e}"))?;
            if doc.is_encrypted() {
                doc.decrypt("").map_err(|_| "the PDF is encrypted with a password".to_string())?;
            }
            check_page_tree(&doc)?;
            return Ok(pdf_scan::page_pictures(&doc).filter_map(|p| p.ok()).take(max).collect());
        }
        if bytes.starts_with(b"PK") && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("epub")) {
            return archive::epub_pictures(&bytes).map(|p| p.into_iter().take(max).collect());
        }
        Ok(Vec::new())
    };
    catch_quietly(read).map_err(|_| format!("{}: damaged file (the reader failed on it)", path.display()))?
}

pub fn decode_file(path: &Path) -> Result<Decoded> {
    let bytes = read_limited(path)?;
    decode_bytes(path, &bytes)
}

/// Reads and decodes a file, a decoder's panic caught ([`catch_quietly`]); returns the bytes
/// as read beside the text, or one message naming the file and the problem.
pub fn read_and_decode(path: &Path) -> std::result::Result<(Vec<u8>, Decoded), String> {
    match catch_quietly(|| {
        let bytes = read_limited(path)?;
        decode_bytes(path, &bytes).map(|d| (bytes, d))
    }) {
        Ok(Ok(read)) => Ok(read),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("{}: internal error while reading", path.display())),
    }
}

/// Decodes bytes that came from `path` (used for messages and the format choice).
pub fn decode_bytes(path: &Path, bytes: &[u8]) -> Result<Decoded> {
    if bytes.is_empty() {
        return Err(Error::decode(path, "the file is empty"));
    }
    let fail = |reason: String| Error::decode(path, reason);
    let decoded = match format_of(path, bytes).map_err(fail)? {
        Format::Text => decode_text_bytes(bytes).map_err(fail)?,
        Format::Html => {
            let (text, encoding) = html::decode_html(bytes).map_err(fail)?;
            if has_font_faces(bytes) {
                // A saved page's fonts are beside it (`page_files/…`) or inside it (`data:`).
                let folder = path.parent().unwrap_or(Path::new("."));
                let mut beside = |src: &str| {
                    let local = !src.contains(':') && !src.starts_with('/');
                    let file = folder.join(src.split(['?', '#']).next().unwrap_or(src));
                    local.then(|| read_limited(&file).ok()).flatten()
                };
                let (text, font_remapped) = webfont::unscramble(&web_page_markup(bytes, None), &text, &mut beside);
                Decoded { font_remapped, ..Decoded::of(text, encoding) }
            } else {
                Decoded::of(text, encoding)
            }
        }
        Format::Epub => {
            let (text, images_read) = archive::epub_text(bytes).map_err(fail)?;
            Decoded { images_read, ..Decoded::of(text, "EPUB") }
        }
        Format::Docx => Decoded::of(archive::docx_text(bytes).map_err(fail)?, "DOCX"),
        Format::Odt => Decoded::of(archive::odt_text(bytes).map_err(fail)?, "ODT"),
        Format::Rtf => Decoded::of(rtf::rtf_text(bytes).map_err(fail)?, "RTF"),
        Format::Pdf => {
            let (text, images_read) = pdf_text(bytes).map_err(fail)?;
            Decoded { images_read, ..Decoded::of(text, "PDF") }
        }
        Format::Mobi => Decoded::of(mobi_text(bytes).map_err(fail)?, "MOBI"),
        Format::Image => Decoded { images_read: 1, ..Decoded::of(ocr::image_text(bytes).map_err(fail)?, "image") },
    };
    if !decoded.text.chars().any(|c| c.is_alphanumeric()) {
        if decoded.images_read > 0 {
            return Err(Error::decode(path, "no text was found in its images"));
        }
        if decoded.encoding == "PDF" {
            return Err(Error::decode(path, "the PDF has no text and no page images"));
        }
        return Err(Error::decode(path, "the file has no text (no letters, digits or Han characters)"));
    }
    Ok(decoded)
}

/// Decodes a fetched web page: HTML (charset from a BOM, the `Content-Type` header,
/// `<meta>` or detection) or plain text; anything else is refused. `url` names the page in
/// messages.
pub fn decode_web_page(url: &str, bytes: &[u8], content_type: Option<&str>) -> Result<Decoded> {
    let fail = |reason: String| Error::Fetch { url: url.to_string(), reason };
    if bytes.is_empty() {
        return Err(fail("the page is empty".into()));
    }
    let mime = content_type.and_then(|c| c.split(';').next()).unwrap_or("").trim().to_ascii_lowercase();
    let charset = header_charset(content_type);
    let sniffed_html = matches!(format_of(Path::new("page"), bytes), Ok(Format::Html));
    // A chapter posted as a picture, asked for by its own address.
    let picture = mime.starts_with("image/") || (mime.is_empty() && ocr::is_image(bytes));
    let decoded = match mime.as_str() {
        _ if picture => Decoded { images_read: 1, ..Decoded::of(ocr::image_text(bytes).map_err(fail)?, "image") },
        "text/html" | "application/xhtml+xml" => {
            let (text, encoding) = html::decode_html_with_charset(bytes, charset).map_err(fail)?;
            Decoded::of(text, encoding)
        }
        "" if sniffed_html => {
            let (text, encoding) = html::decode_html_with_charset(bytes, charset).map_err(fail)?;
            Decoded::of(text, encoding)
        }
        "text/plain" | "" => decode_text_bytes(bytes).map_err(fail)?,
        other => return Err(fail(format!("not a web page (content type {other})"))),
    };
    if !decoded.text.chars().any(|c| c.is_alphanumeric()) {
        return Err(fail("the page has no text (no letters, digits or Han characters)".into()));
    }
    Ok(decoded)
}

/// The `charset` parameter of a `Content-Type` header.
fn header_charset(content_type: Option<&str>) -> Option<&str> {
    content_type?
        .split(';')
        .find_map(|p| p.trim().split_once('=').filter(|(k, _)| k.trim().eq_ignore_ascii_case("charset")))
        .map(|(_, v)| v.trim().trim_matches(['"', '\'']))
}

/// A fetched HTML page's markup as text, for finding its links (undecodable bytes replaced).
pub fn web_page_markup(bytes: &[u8], content_type: Option<&str>) -> String {
    html::decode_markup(bytes, header_charset(content_type))
        .map_or_else(|_| String::from_utf8_lossy(bytes).into_owned(), |(page, _)| page)
}

/// Reads a whole file, refusing anything over [`MAX_FILE_BYTES`] before reading it.
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return Err(Error::decode(path, "is a folder, not a file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Error::decode(
            path,
            format!(
                "the file is {} MiB, over the {} MiB limit",
                meta.len() / (1024 * 1024),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // take() guards against a file that grows while we read it.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::decode(path, "the file grew over the size limit while being read"));
    }
    Ok(bytes)
}

/// What a book file (EPUB, MOBI/AZW3, DOCX, ODT) says about its title, authors and language;
/// `None` for other formats, a file without such metadata, or one that cannot be read (its
/// text is what import reports on).
pub fn book_metadata(path: &Path, bytes: &[u8]) -> Option<BookMetadata> {
    catch_quietly(|| match format_of(path, bytes).ok()? {
        Format::Epub => archive::epub_metadata(bytes).ok().flatten(),
        Format::Docx => archive::office_metadata(bytes, "DOCX").ok().flatten(),
        Format::Odt => archive::office_metadata(bytes, "ODT").ok().flatten(),
        Format::Mobi => mobi::mobi_metadata(bytes),
        _ => None,
    })
    .ok()
    .flatten()
}

/// The first non-empty line, trimmed and cut to 200 characters: a document's title.
pub fn title_of(text: &str) -> String {
    let line =
        text.lines().map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')).find(|l| !l.is_empty());
    line.unwrap_or("").chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_decoder_panic_is_an_error_and_the_quiet_flag_is_reset() {
        let caught = catch_quietly(|| -> u32 { panic!("a parser bug") });
        assert!(caught.is_err());
        assert_eq!(QUIET.with(|q| q.get()), 0);
        assert_eq!(catch_quietly(|| 7).unwrap(), 7);
    }

    #[test]
    fn a_pdf_whose_page_tree_loops_is_refused_not_followed_forever() {
        // Found by the decode_pdf fuzz target: a page that is its own /Parent's parent.
        let bytes = include_bytes!("../../../fuzz/regressions/decode_pdf/page_tree_loop.pdf");
        let err = decode_bytes(Path::new("loop.pdf"), bytes).unwrap_err().to_string();
        assert!(err.contains("page tree loops"), "{err}");
    }

    #[test]
    fn empty_and_textless_files_are_errors_naming_the_file() {
        let err = decode_bytes(Path::new("/x/empty.txt"), b"").unwrap_err().to_string();
        assert!(err.contains("/x/empty.txt") && err.contains("empty"), "{err}");
        let err = decode_bytes(Path::new("p.txt"), "，。！\n  \n".as_bytes()).unwrap_err().to_string();
        assert!(err.contains("no text"), "{err}");
    }

    #[test]
    fn every_picture_extension_is_imported_from_folders() {
        assert!(IMAGE_EXTENSIONS.iter().all(|e| FOLDER_EXTENSIONS.contains(e)));
        assert!(is_image_path(Path::new("scan.JPG")) && !is_image_path(Path::new("page.html")));
    }

    #[test]
    fn title_is_first_non_empty_line() {
        assert_eq!(title_of("\u{feff}\n\n  第一回 宴桃园豪杰三结义  \n正文"), "第一回 宴桃园豪杰三结义");
        assert_eq!(title_of(""), "");
    }

    #[test]
    fn formats_by_extension_and_by_content() {
        let page = "<!DOCTYPE html><html><body><nav>目录</nav><p>滚滚长江东逝水</p></body></html>";
        for name in ["a.html", "a.htm", "page.unknown"] {
            assert_eq!(decode_bytes(Path::new(name), page.as_bytes()).unwrap().text, "滚滚长江东逝水\n", "{name}");
        }
        // A .txt stays text, markup included: offsets count in the file as it is.
        assert!(decode_bytes(Path::new("a.txt"), page.as_bytes()).unwrap().text.contains("<nav>"));
        let epub = archive::tests::epub();
        for name in ["book.epub", "book.bin"] {
            assert!(decode_bytes(Path::new(name), &epub).unwrap().text.starts_with("第一回\n"), "{name}");
        }
        let docx = archive::tests::docx();
        assert_eq!(decode_bytes(Path::new("doc.docx"), &docx).unwrap().encoding, "DOCX");
        assert!(decode_bytes(Path::new("noext"), &docx).unwrap().text.contains("浪花淘尽英雄"));
        let pdf = decode_bytes(Path::new("x.pdf"), b"%PDF-1.7 ...").unwrap_err().to_string();
        assert!(pdf.contains("x.pdf") && pdf.contains("PDF"), "{pdf}");
        let zip = archive::tests::zip_of(&[("photo.jpg", "x")]);
        assert!(decode_bytes(Path::new("x.zip"), &zip).unwrap_err().to_string().contains("neither EPUB, DOCX nor ODT"));
        // A fake EPUB (not a zip at all).
        assert!(
            decode_bytes(Path::new("fake.epub"), b"PK\x03\x04garbage")
                .unwrap_err()
                .to_string()
                .contains("not a valid EPUB")
        );
    }

    #[test]
    fn missing_file_is_an_io_error_naming_it() {
        let err = decode_file(Path::new("/nonexistent/zhiwen.txt")).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/zhiwen.txt"), "{err}");
    }
}
