//! Text in images: pages rendered from the fixture corpus (tests/fixtures/ocr, made by
//! make_ocr_fixtures.sh) read by OCR, checked, and their disguise reported. The tests that
//! need the OCR models skip with a printed reason when `tools/ocr-models` has not put them
//! where Zhiwen looks.

use crate::util::{fixtures, imported, zhiwen};
use std::path::{Path, PathBuf};

fn ocr_fixture(name: &str) -> PathBuf {
    fixtures().join("ocr").join(name)
}

pub fn models_installed(test: &str) -> bool {
    let found = zhiwen::engine::decode::ocr::models_dir().is_some();
    if !found {
        eprintln!("skipped {test}: the OCR models are not installed (run tools/ocr-models)");
    }
    found
}

pub use zhiwen::eval::metrics::char_accuracy as accuracy;

fn text_of(dir: &Path, file: &Path) -> String {
    let out = zhiwen(dir).arg("text").arg(file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn images_and_a_scanned_pdf_are_read_by_ocr_with_few_errors() {
    if !models_installed("images_and_a_scanned_pdf_are_read_by_ocr_with_few_errors") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // (file, the least share of characters right): clean text, then a re-saved JPEG turned
    // a degree, then a noisy two-page scan.
    for (name, least) in
        [("hongloumeng_000_page.png", 0.98), ("sanguoyanyi_001_page.jpg", 0.95), ("xiyouji_000_scan.pdf", 0.95)]
    {
        let file = ocr_fixture(name);
        let truth = std::fs::read_to_string(file.with_extension("txt")).unwrap();
        let read = text_of(dir.path(), &file);
        let right = accuracy(&read, &truth);
        assert!(right >= least, "{name}: {right:.4} of characters right\n{read}");
    }
    // The check is not a formality: another chapter's text scores far lower.
    let other = std::fs::read_to_string(ocr_fixture("hongloumeng_000_page.txt")).unwrap();
    let read = text_of(dir.path(), &ocr_fixture("sanguoyanyi_001_page.jpg"));
    assert!(accuracy(&read, &other) < 0.3);
}

#[test]
fn a_chapter_posted_as_pictures_finds_its_source_and_is_reported_as_read_from_images() {
    if !models_installed("a_chapter_posted_as_pictures_finds_its_source_and_is_reported_as_read_from_images") {
        return;
    }
    let dir = imported();
    let suspects = [
        (ocr_fixture("sanguoyanyi_001_page.jpg"), "sanguoyanyi_001.txt", 1),
        (ocr_fixture("hongloumeng_000_page.png"), "hongloumeng_000.txt", 1),
        (ocr_fixture("xiyouji_000_scan.pdf"), "xiyouji_000.txt", 2),
    ];
    let files: Vec<PathBuf> = suspects.iter().map(|s| s.0.clone()).collect();
    let out = zhiwen(dir.path()).args(["check", "--json"]).args(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (suspect, (file, source, images)) in json["suspects"].as_array().unwrap().iter().zip(&suspects) {
        let sources = suspect["sources"].as_array().unwrap();
        assert_eq!(sources.len(), 1, "{file:?}: one source, no false one: {suspect}");
        assert!(sources[0]["path"].as_str().unwrap().ends_with(source), "{suspect}");
        assert!(suspect["similarity"].as_f64().unwrap() >= 0.9, "{file:?}: {}", suspect["similarity"]);
        assert_eq!(suspect["disguises"]["images"], *images, "{suspect}");
    }
    // The HTML report says so, in words.
    let report = dir.path().join("r.html");
    zhiwen(dir.path()).args(["check", "--report"]).arg(&report).arg(&files[0]).assert().success();
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("text read from 1 image"), "the report names the disguise");
}

#[test]
fn without_the_models_an_image_gets_one_message_and_the_rest_is_checked() {
    let dir = imported();
    let empty = tempfile::tempdir().unwrap();
    let out = zhiwen(dir.path())
        .env("ZHIWEN_OCR_MODELS", empty.path())
        .env("XDG_DATA_HOME", empty.path())
        .env("HOME", empty.path())
        .args(["check", "--json"])
        .arg(ocr_fixture("hongloumeng_000_page.png"))
        .arg(crate::util::suspect("excerpt_sanguoyanyi_002.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = json["suspects"][0]["error"].as_str().unwrap();
    assert!(error.contains("hongloumeng_000_page.png") && error.contains("tools/ocr-models"), "{error}");
    assert!(json["suspects"][1]["sources"][0]["path"].as_str().unwrap().ends_with("sanguoyanyi_002.txt"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_damaged_image_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(ocr_fixture("hongloumeng_000_page.png")).unwrap();
    let cut = dir.path().join("cut.png");
    std::fs::write(&cut, &bytes[..bytes.len() / 3]).unwrap();
    let out = zhiwen(dir.path()).arg("text").arg(&cut).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cut.png") && stderr.contains("damaged image"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// An EPUB whose one chapter is a picture of a page (`OEBPS/Images/p1.jpg`), with a cover
/// picture of another chapter's page that is a cover, not a chapter.
fn picture_book(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("picture_book.epub");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut add = |name: &str, bytes: &[u8]| {
        zip.start_file(name, stored).unwrap();
        zip.write_all(bytes).unwrap();
    };
    add("mimetype", b"application/epub+zip");
    add(
        "META-INF/container.xml",
        br#"<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
    );
    add(
        "OEBPS/content.opf",
        br#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Pictures</dc:title></metadata><manifest><item id="cover" href="Images/cover.png" media-type="image/png" properties="cover-image"/><item id="c0" href="Text/cover.xhtml" media-type="application/xhtml+xml"/><item id="p1" href="Images/p1.jpg" media-type="image/jpeg"/><item id="c1" href="Text/ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c0"/><itemref idref="c1"/></spine></package>"#,
    );
    add(
        "OEBPS/Text/cover.xhtml",
        br#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><img src="../Images/cover.png" alt=""/></body></html>"#,
    );
    add(
        "OEBPS/Text/ch1.xhtml",
        br#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p><img src="../Images/p1.jpg" alt=""/></p></body></html>"#,
    );
    add("OEBPS/Images/cover.png", &std::fs::read(ocr_fixture("hongloumeng_000_page.png")).unwrap());
    add("OEBPS/Images/p1.jpg", &std::fs::read(ocr_fixture("sanguoyanyi_001_page.jpg")).unwrap());
    zip.finish().unwrap();
    path
}

#[test]
fn an_epub_of_picture_chapters_is_read_by_ocr_but_not_its_cover() {
    if !models_installed("an_epub_of_picture_chapters_is_read_by_ocr_but_not_its_cover") {
        return;
    }
    let dir = imported();
    let book = picture_book(dir.path());
    let (json, code) = crate::util::check_json(dir.path(), &[book]);
    assert_eq!(code, 0, "{json}");
    let suspect = &json["suspects"][0];
    let sources = suspect["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1, "the cover's chapter is not a source: {suspect}");
    assert!(sources[0]["path"].as_str().unwrap().ends_with("sanguoyanyi_001.txt"), "{suspect}");
    assert!(suspect["similarity"].as_f64().unwrap() >= 0.9, "{}", suspect["similarity"]);
    assert_eq!(suspect["disguises"]["images"], 1, "{suspect}");
}

/// A pirate site on 127.0.0.1 that posts chapters as pictures: a chapter page whose text is
/// one lazy-loaded `<img>`, and a picture asked for by its own address.
fn picture_site() -> crate::util::StaticSite {
    let page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>第二回_笔趣阁</title></head><body>\
        <div class=\"nav\"><a href=\"/\">首页</a></div><div id=\"content\">\
        <img class=\"lazy\" src=\"/img/loading.gif\" data-original=\"/img/p1.jpg\"></div>\
        <div class=\"footer\">本站所有小说均来自网络</div></body></html>";
    crate::util::StaticSite::serve(vec![
        ("/robots.txt", b"User-agent: *\nAllow: /\n".to_vec(), "text/plain"),
        ("/book/2.html", page.as_bytes().to_vec(), "text/html; charset=utf-8"),
        ("/img/p1.jpg", std::fs::read(ocr_fixture("sanguoyanyi_001_page.jpg")).unwrap(), "image/jpeg"),
        ("/img/p2.png", std::fs::read(ocr_fixture("hongloumeng_000_page.png")).unwrap(), "image/png"),
    ])
}

#[test]
fn a_web_chapter_posted_as_pictures_is_fetched_read_and_found() {
    if !models_installed("a_web_chapter_posted_as_pictures_is_fetched_read_and_found") {
        return;
    }
    let dir = imported();
    let site = picture_site();
    let (page, picture) = (format!("{}/book/2.html", site.base), format!("{}/img/p2.png", site.base));
    let out = zhiwen(dir.path())
        .args(["check", "--json", "--proxy", "none", "--delay", "0.2", "--timeout", "5"])
        .args([&page, &picture])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (url, source) in [(&page, "sanguoyanyi_001.txt"), (&picture, "hongloumeng_000.txt")] {
        let suspect = json["suspects"].as_array().unwrap().iter().find(|s| s["url"] == **url).unwrap();
        let sources = suspect["sources"].as_array().unwrap();
        assert_eq!(sources.len(), 1, "{suspect}");
        assert!(sources[0]["path"].as_str().unwrap().ends_with(source), "{suspect}");
        assert!(suspect["similarity"].as_f64().unwrap() >= 0.9, "{suspect}");
        assert_eq!(suspect["disguises"]["images"], 1, "{suspect}");
    }
    let asked = site.paths();
    assert!(asked.contains(&"/img/p1.jpg".to_string()), "{asked:?}");
    assert!(
        !asked.contains(&"/img/loading.gif".to_string()),
        "the lazy loader's address, not the placeholder: {asked:?}"
    );
}

#[test]
fn text_prints_each_files_text_headed_when_there_are_several() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (crate::util::corpus_dir().join("xiyouji_000.txt"), ocr_fixture("missing.png"));
    // One file: its text alone, as decoded.
    let one = text_of(dir.path(), &a);
    assert_eq!(one, zhiwen::engine::decode::decode_file(&a).unwrap().text);
    // Several: each headed as `head` heads them; a failure named on stderr, the rest printed.
    let out = zhiwen(dir.path()).arg("text").arg(&a).arg(&b).arg(&a).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.matches(&format!("==> {} <==\n", a.display())).count(), 2);
    assert!(stdout.contains(one.lines().next().unwrap()));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.png"));
}

#[test]
fn a_folder_of_pictures_imports_on_all_threads_without_waiting_on_itself() {
    if !models_installed("a_folder_of_pictures_imports_on_all_threads_without_waiting_on_itself") {
        return;
    }
    // The models load on first use while other threads decode pictures too: that once
    // deadlocked (a rayon worker waiting on the loader took another picture and waited on
    // itself).
    let dir = tempfile::tempdir().unwrap();
    let pictures = dir.path().join("pictures");
    std::fs::create_dir(&pictures).unwrap();
    for i in 0..4 {
        for name in ["sanguoyanyi_001_page.jpg", "hongloumeng_000_page.png"] {
            let mut bytes = std::fs::read(ocr_fixture(name)).unwrap();
            bytes.extend(format!("{i}").bytes()); // each file its own bytes
            std::fs::write(pictures.join(format!("{i}_{name}")), bytes).unwrap();
        }
    }
    zhiwen(dir.path())
        .args(["import", "--quiet", "--batch", "2"])
        .arg(&pictures)
        // A deadlock never ends; a debug build on a loaded 2-core machine takes minutes.
        .timeout(std::time::Duration::from_secs(900))
        .assert()
        .success();
    assert_eq!(crate::util::doc_count(&dir.path().join("corpus.sqlite")), 8);
}
