//! The one place where a file becomes text.
//!
//! [`decode_file`] reads a file, picks an extractor from its extension and content, and
//! returns [`Decoded`]: the text every later step works on, and from which all character
//! offsets in reports are counted. For plain text the extracted text is the decoded file
//! content, unchanged (line breaks included). Other formats (HTML, EPUB, DOCX, PDF) plug
//! in here as further extractors.
//!
//! Every failure is an [`Error::Decode`] naming the file and the reason in words a user
//! understands; decoders never panic on hostile bytes (and the importer still catches a
//! panic per file, in case one does).

mod text;

use crate::{Error, Result};
use std::io::Read;
use std::path::Path;

pub use text::decode_text_bytes;

/// Files larger than this are refused with a message rather than read into memory.
/// A 1,000-chapter novel in GB18030 is about 10 MB; 256 MiB leaves a wide margin.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Extensions imported when walking a folder. Files named explicitly are always tried.
pub const FOLDER_EXTENSIONS: &[&str] = &["txt", "text", "md", "markdown"];

#[derive(Clone, Debug)]
pub struct Decoded {
    pub text: String,
    /// What the bytes were: "UTF-8", "GBK", "Big5", "UTF-16LE", …
    pub encoding: &'static str,
    /// Problems that did not stop decoding, e.g. a few undecodable bytes replaced by U+FFFD.
    pub warnings: Vec<String>,
}

/// Reads and decodes one file.
pub fn decode_file(path: &Path) -> Result<Decoded> {
    let bytes = read_limited(path)?;
    decode_bytes(path, &bytes)
}

/// Decodes bytes that came from `path` (used for messages and the format choice).
pub fn decode_bytes(path: &Path, bytes: &[u8]) -> Result<Decoded> {
    if bytes.is_empty() {
        return Err(Error::decode(path, "the file is empty"));
    }
    let decoded = decode_text_bytes(bytes).map_err(|reason| Error::decode(path, reason))?;
    if !decoded.text.chars().any(|c| c.is_alphanumeric()) {
        return Err(Error::decode(path, "the file has no text (no letters, digits or Han characters)"));
    }
    Ok(decoded)
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
    fn empty_and_textless_files_are_errors_naming_the_file() {
        let err = decode_bytes(Path::new("/x/empty.txt"), b"").unwrap_err().to_string();
        assert!(err.contains("/x/empty.txt") && err.contains("empty"), "{err}");
        let err = decode_bytes(Path::new("p.txt"), "，。！\n  \n".as_bytes()).unwrap_err().to_string();
        assert!(err.contains("no text"), "{err}");
    }

    #[test]
    fn title_is_first_non_empty_line() {
        assert_eq!(title_of("\u{feff}\n\n  第一回 宴桃园豪杰三结义  \n正文"), "第一回 宴桃园豪杰三结义");
        assert_eq!(title_of(""), "");
    }

    #[test]
    fn missing_file_is_an_io_error_naming_it() {
        let err = decode_file(Path::new("/nonexistent/zhiwen.txt")).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/zhiwen.txt"), "{err}");
    }
}
