//! Scrambled web fonts: pages whose markup holds other characters than the chapter a reader
//! sees, their font drawing the right glyph for each (tests/fixtures/webfont, made by
//! make_webfont_fixtures.py with fontTools). Skipped with a printed reason without the OCR
//! models, which read the fonts' glyphs.

use crate::ocr::{accuracy, models_installed};
use crate::util::{fixtures, imported, zhiwen};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    fixtures().join("webfont").join(name)
}

fn chapter() -> String {
    std::fs::read_to_string(fixture("chapter.txt")).unwrap()
}

#[test]
fn a_saved_page_with_a_scrambling_font_reads_as_the_chapter_its_reader_sees() {
    if !models_installed("a_saved_page_with_a_scrambling_font_reads_as_the_chapter_its_reader_sees") {
        return;
    }
    let dir = imported();
    // The font inside the page (data: URL, WOFF), and beside it (url(scrambled.woff2)).
    let pages = [fixture("scrambled_inline.html"), fixture("scrambled.html")];
    for page in &pages {
        let markup = zhiwen::engine::decode::decode_file(page).unwrap();
        assert!(markup.font_remapped > 300, "{page:?}: {} replaced", markup.font_remapped);
        let right = accuracy(&markup.text, &chapter());
        assert!(right >= 0.97, "{page:?}: {right:.3} of the chapter's characters\n{}", markup.text);
    }
    let (json, code) = crate::util::check_json(dir.path(), &pages);
    assert_eq!(code, 0, "{json}");
    for suspect in json["suspects"].as_array().unwrap() {
        let sources = suspect["sources"].as_array().unwrap();
        assert_eq!(sources.len(), 1, "{suspect}");
        assert!(sources[0]["path"].as_str().unwrap().ends_with("xiyouji_000.txt"), "{suspect}");
        assert!(suspect["similarity"].as_f64().unwrap() >= 0.9, "{suspect}");
        assert!(suspect["disguises"]["font_remapped"].as_u64().unwrap() > 300, "{suspect}");
    }
    // Without the font's glyphs read, the markup's characters match nothing.
    let markup = std::fs::read_to_string(fixture("scrambled.html")).unwrap();
    assert!(accuracy(&markup, &chapter()) < 0.5);
}

#[test]
fn an_ordinary_web_font_changes_nothing() {
    if !models_installed("an_ordinary_web_font_changes_nothing") {
        return;
    }
    let decoded = zhiwen::engine::decode::decode_file(&fixture("plain_font.html")).unwrap();
    assert_eq!(decoded.font_remapped, 0);
    let plain: String = chapter().split_whitespace().collect();
    assert_eq!(decoded.text.split_whitespace().collect::<String>(), plain);
}

#[test]
fn a_web_page_with_a_scrambling_font_has_its_font_fetched_and_is_found() {
    if !models_installed("a_web_page_with_a_scrambling_font_has_its_font_fetched_and_is_found") {
        return;
    }
    let dir = imported();
    let site = crate::util::StaticSite::serve(vec![
        ("/book/1.html", std::fs::read(fixture("scrambled.html")).unwrap(), "text/html; charset=utf-8"),
        ("/book/scrambled.woff2", std::fs::read(fixture("scrambled.woff2")).unwrap(), "font/woff2"),
    ]);
    let url = format!("{}/book/1.html", site.base);
    let out = zhiwen(dir.path())
        .args(["check", "--json", "--proxy", "none", "--delay", "0.2", "--timeout", "5", &url])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let suspect = &json["suspects"][0];
    assert!(suspect["sources"][0]["path"].as_str().unwrap().ends_with("xiyouji_000.txt"), "{suspect}");
    assert!(suspect["similarity"].as_f64().unwrap() >= 0.9, "{suspect}");
    assert!(suspect["disguises"]["font_remapped"].as_u64().unwrap() > 300, "{suspect}");
    assert!(site.paths().contains(&"/book/scrambled.woff2".to_string()));
}
