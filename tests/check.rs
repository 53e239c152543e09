//! Detection on real text: the cases the engine issue names, through `check --json`.

use crate::util::*;

fn top_source(json: &serde_json::Value, i: usize) -> &serde_json::Value {
    &json["suspects"][i]["sources"][0]
}

#[test]
fn traditional_script_chapter_finds_its_simplified_twin_first() {
    let dir = imported();
    let (json, code) = check_json(dir.path(), &[suspect("traditional_sanguoyanyi_001.txt")]);
    assert_eq!(code, 0);
    let top = top_source(&json, 0);
    assert!(top["path"].as_str().unwrap().ends_with("sanguoyanyi_001.txt"), "{top}");
    assert!(top["similarity"].as_f64().unwrap() >= 0.8, "{top}");
    assert_eq!(json["corpus"]["documents"], 5);
    assert_eq!(json["settings"]["max_distance"], 3);
}

#[test]
fn ads_after_every_paragraph_passages_point_at_the_same_text_on_both_sides() {
    let dir = imported();
    let path = suspect("ads_xiyouji_000.txt");
    let (json, _) = check_json(dir.path(), std::slice::from_ref(&path));
    let sources = json["suspects"][0]["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1, "only the copied chapter: {sources:?}");
    let top = &sources[0];
    assert!(top["path"].as_str().unwrap().ends_with("xiyouji_000.txt"));
    assert!(top["source_coverage"].as_f64().unwrap() > 0.9, "{}", top["source_coverage"]);
    let suspect_text = read_text(&path);
    let source_text = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let passages = top["passages"].as_array().unwrap();
    assert!(passages.len() > 10);
    for p in passages {
        let s = chars(&suspect_text, p["suspect_start"].as_u64().unwrap(), p["suspect_end"].as_u64().unwrap());
        let o = chars(&source_text, p["source_start"].as_u64().unwrap(), p["source_end"].as_u64().unwrap());
        // Same text, and no ad inside a passage.
        assert_eq!(s, o, "passage {p}");
        assert!(!s.contains("请点击") && !s.contains("pirate"), "{s}");
    }
}

#[test]
fn homophones_in_gbk_are_found_in_full() {
    let dir = imported();
    let (json, _) = check_json(dir.path(), &[suspect("gbk_homophones_hongloumeng_000.txt")]);
    let top = top_source(&json, 0);
    assert!(top["path"].as_str().unwrap().ends_with("hongloumeng_000.txt"));
    assert!(top["similarity"].as_f64().unwrap() > 0.95, "{top}");
}

#[test]
fn an_excerpt_is_located_to_within_a_few_characters() {
    let dir = imported();
    let truth = std::fs::read_to_string(fixtures().join("excerpt_truth.txt")).unwrap();
    let t: Vec<u64> = truth.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let (src_start, src_end, sus_start) = (t[0], t[1], t[2]);
    let (json, _) = check_json(dir.path(), &[suspect("excerpt_sanguoyanyi_002.txt")]);
    let sources = json["suspects"][0]["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1);
    assert!(sources[0]["path"].as_str().unwrap().ends_with("sanguoyanyi_002.txt"));
    let p = &sources[0]["passages"][0];
    let near = |got: &serde_json::Value, want: u64| got.as_u64().unwrap().abs_diff(want) <= 3;
    assert!(near(&p["source_start"], src_start) && near(&p["source_end"], src_end), "{p}");
    assert!(near(&p["suspect_start"], sus_start) && near(&p["suspect_end"], sus_start + 800), "{p}");
}

#[test]
fn negatives_find_no_source() {
    let dir = imported();
    let names = ["english_peter_pan_001.txt", "unrelated_rulinwaishi_003.txt", "sequel_xu_sanguoyanyi_000.txt"];
    let (json, code) = check_json(dir.path(), &names.map(suspect));
    assert_eq!(code, 0);
    for (i, name) in names.iter().enumerate() {
        assert_eq!(json["suspects"][i]["sources"].as_array().unwrap().len(), 0, "{name}: {}", json["suspects"][i]);
        assert_eq!(json["suspects"][i]["similarity"], 0.0);
    }
}

#[test]
fn a_folder_of_suspects_is_checked_file_by_file() {
    let dir = imported();
    let (json, code) = check_json(dir.path(), &[fixtures().join("suspects")]);
    assert_eq!(code, 1, "binary.txt and empty.txt cannot be read");
    let suspects = json["suspects"].as_array().unwrap();
    assert_eq!(suspects.len(), 9);
    let found = suspects.iter().filter(|s| !s["sources"].as_array().unwrap().is_empty()).count();
    assert_eq!(found, 4);
}

/// A chapter as a pirate site serves it: GBK, navigation, ads, footer.
fn pirate_page(chapter: &str) -> Vec<u8> {
    let mut page = String::from(
        "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gbk\">\
         <script>document.write('ad')</script></head><body><div class=\"nav\">笔趣阁 > 西游记</div><div id=\"content\">",
    );
    for line in chapter.lines().filter(|l| !l.trim().is_empty()) {
        page += &format!("<p>{line}</p><div class=\"ads\">天才一秒记住本站地址</div>");
    }
    page += "</div><div class=\"footer\">本站所有小说均来自网络</div></body></html>";
    encoding_rs::GBK.encode(&page).0.into_owned()
}

#[test]
fn a_pirate_site_html_page_finds_its_source_with_offsets_into_the_extracted_text() {
    let dir = imported();
    let chapter = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let page = dir.path().join("第一回.html");
    std::fs::write(&page, pirate_page(&chapter)).unwrap();
    let (json, code) = check_json(dir.path(), std::slice::from_ref(&page));
    assert_eq!(code, 0);
    let s = &json["suspects"][0];
    let top = &s["sources"][0];
    assert!(top["path"].as_str().unwrap().ends_with("xiyouji_000.txt"));
    assert!(
        s["similarity"].as_f64().unwrap() > 0.95,
        "ads and navigation are not in the extracted text: {}",
        s["similarity"]
    );
    let extracted = read_text(&page);
    assert!(!extracted.contains("天才一秒") && !extracted.contains("笔趣阁"));
    for p in top["passages"].as_array().unwrap() {
        let a = chars(&extracted, p["suspect_start"].as_u64().unwrap(), p["suspect_end"].as_u64().unwrap());
        let b = chars(&chapter, p["source_start"].as_u64().unwrap(), p["source_end"].as_u64().unwrap());
        assert_eq!(a.trim(), b.trim());
    }
}

#[test]
fn epub_and_docx_works_are_imported_and_found() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let chapter = read_text(&corpus_dir().join("sanguoyanyi_001.txt"));
    let works = dir.path().join("works");
    std::fs::create_dir_all(&works).unwrap();
    let zip = |entries: &[(&str, String)]| {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, content) in entries {
            w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
            w.write_all(content.as_bytes()).unwrap();
        }
        w.finish().unwrap().into_inner()
    };
    let paragraphs: String = chapter.lines().map(|l| format!("<w:p><w:r><w:t>{l}</w:t></w:r></w:p>")).collect();
    std::fs::write(
        works.join("chapter.docx"),
        zip(&[("word/document.xml", format!("<w:document xmlns:w=\"w\"><w:body>{paragraphs}</w:body></w:document>"))]),
    )
    .unwrap();
    let html: String = chapter.lines().map(|l| format!("<p>{l}</p>")).collect();
    std::fs::write(
        works.join("book.epub"),
        zip(&[
            ("mimetype", "application/epub+zip".into()),
            ("META-INF/container.xml", r#"<container><rootfiles><rootfile full-path="c.opf"/></rootfiles></container>"#.into()),
            ("c.opf", r#"<package><manifest><item id="a" href="a.xhtml"/></manifest><spine><itemref idref="a"/></spine></package>"#.into()),
            ("a.xhtml", format!("<html><body>{html}</body></html>")),
        ]),
    )
    .unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(&works).assert().success();
    let (json, _) = check_json(dir.path(), &[suspect("traditional_sanguoyanyi_001.txt")]);
    let found: Vec<&str> =
        json["suspects"][0]["sources"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().any(|p| p.ends_with("chapter.docx")) && found.iter().any(|p| p.ends_with("book.epub")));
}

#[test]
fn a_cjk_pdf_is_read_through_its_cid_fonts_and_found() {
    // Printed from the first 1,500 characters of the chapter by headless Chromium: CID fonts
    // with ToUnicode maps, as real PDFs have.
    let pdf = fixtures().join("formats/xiyouji_000_start.pdf");
    let text = read_text(&pdf);
    assert!(text.contains("盖闻天地之数，有十二万九千六百岁为一元"), "Kangxi radicals folded: {}", &text[..200]);
    let dir = imported();
    let (json, code) = check_json(dir.path(), &[pdf]);
    assert_eq!(code, 0);
    let top = &json["suspects"][0]["sources"][0];
    assert!(top["path"].as_str().unwrap().ends_with("xiyouji_000.txt"), "{top}");
    assert!(json["suspects"][0]["similarity"].as_f64().unwrap() > 0.9);
}

#[test]
fn pdfs_in_standard_cjk_fonts_with_predefined_cmaps_are_read_and_found() {
    // reportlab's STSong-Light and MSung-Light: not embedded, Encoding /UniGB-UCS2-H, no
    // ToUnicode map (pdf-extract panicked on them: "damaged PDF").
    let dir = imported();
    let pdfs = [fixtures().join("formats/xiyouji_000_stsong.pdf"), fixtures().join("formats/xiyouji_000_msung.pdf")];
    let text = read_text(&pdfs[0]);
    assert!(text.contains("诗曰："), "{}", &text[..300]);
    assert!(!text.contains("诗 曰"), "no spaces between ideographs");
    let (json, code) = check_json(dir.path(), &pdfs);
    assert_eq!(code, 0);
    for s in json["suspects"].as_array().unwrap() {
        assert!(s["sources"][0]["path"].as_str().unwrap().ends_with("xiyouji_000.txt"), "{s}");
        assert!(s["similarity"].as_f64().unwrap() >= 0.9, "{s}");
    }
}

#[test]
fn a_pdf_with_an_unknown_cmap_gets_one_truthful_message_and_no_panic_output() {
    let dir = imported();
    let pdf = fixtures().join("formats/hostile_unknown_cmap.pdf");
    let out = zhiwen(dir.path()).args(["check", "--json"]).arg(&pdf).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = json["suspects"][0]["error"].as_str().unwrap();
    assert!(error.contains("font encoding Zhiwen cannot read (Zhiwen-XX-H1)"), "{error}");
    assert!(!error.contains("damaged"), "{error}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn odt_and_rtf_written_by_libreoffice_find_their_source_and_an_rtf_bomb_is_refused() {
    let dir = imported();
    let files =
        [fixtures().join("formats/hongloumeng_000_start.odt"), fixtures().join("formats/hongloumeng_000_start.rtf")];
    let (json, code) = check_json(dir.path(), &files);
    assert_eq!(code, 0);
    for s in json["suspects"].as_array().unwrap() {
        assert!(s["sources"][0]["path"].as_str().unwrap().ends_with("hongloumeng_000.txt"), "{s}");
        assert!(s["similarity"].as_f64().unwrap() >= 0.9, "{s}");
    }
    // Groups nested a million deep: one message, the other file still checked.
    let bomb = dir.path().join("bomb.rtf");
    std::fs::write(&bomb, format!("{{\\rtf1 {}x{}}}", "{".repeat(1_000_000), "}".repeat(1_000_000))).unwrap();
    let out = zhiwen(dir.path()).args(["check", "--json"]).arg(&bomb).arg(&files[1]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["suspects"][0]["error"].as_str().unwrap().contains("refused as hostile"), "{json}");
    assert!(json["suspects"][1]["similarity"].as_f64().unwrap() >= 0.9);
}

#[test]
fn kindle_ebooks_made_by_calibre_find_their_source_and_a_truncated_one_says_so() {
    let dir = imported();
    let files = [
        fixtures().join("formats/sanguoyanyi_002_start.mobi"),
        fixtures().join("formats/sanguoyanyi_002_start.azw3"),
        fixtures().join("formats/hostile_truncated.mobi"),
    ];
    let (json, code) = check_json(dir.path(), &files);
    assert_eq!(code, 1);
    let suspects = json["suspects"].as_array().unwrap();
    for s in &suspects[..2] {
        assert!(s["sources"][0]["path"].as_str().unwrap().ends_with("sanguoyanyi_002.txt"), "{s}");
        assert!(s["similarity"].as_f64().unwrap() >= 0.9, "{s}");
    }
    let error = suspects[2]["error"].as_str().unwrap();
    assert!(error.contains("hostile_truncated.mobi: damaged Kindle ebook (truncated"), "{error}");
}

#[test]
fn disguised_copies_are_found_and_their_disguises_said_in_json_table_and_report() {
    let dir = imported();
    let chapter = read_text(&corpus_dir().join("sanguoyanyi_001.txt"));
    let passage: String = chapter.chars().skip(200).take(400).collect();
    let host = "这一页是本站自己写的公告，与任何小说都没有关系，请读者朋友们多多支持。\n".repeat(20);
    // A passage written out in pinyin (tone marks, as pirates post it) inside unrelated text,
    // and a whole chapter with a letter slipped after some Han characters.
    let pinyin = dir.path().join("pinyin.txt");
    std::fs::write(&pinyin, format!("{host}{}\n{host}", zhiwen::eval::generate::pinyin_written(&passage, true)))
        .unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let noisy = dir.path().join("noisy.txt");
    std::fs::write(&noisy, zhiwen::eval::generate::noise_letters(&chapter, 0.08, &mut rng)).unwrap();
    let (json, code) = check_json(dir.path(), &[pinyin.clone(), noisy.clone()]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["settings"]["normalizing"], "undisguised");
    let suspects = json["suspects"].as_array().unwrap();
    let pinyin_report = &suspects[0];
    assert!(pinyin_report["sources"][0]["path"].as_str().unwrap().ends_with("sanguoyanyi_001.txt"), "{pinyin_report}");
    assert_eq!(pinyin_report["disguises"]["pinyin_passages"], 1, "{}", pinyin_report["disguises"]);
    assert!(pinyin_report["disguises"]["pinyin_syllables"].as_u64().unwrap() >= 300);
    let noisy_report = &suspects[1];
    assert!(noisy_report["similarity"].as_f64().unwrap() > 0.95, "{}", noisy_report["similarity"]);
    assert!(noisy_report["disguises"]["noise_letters"].as_u64().unwrap() > 100, "{}", noisy_report["disguises"]);
    // Said in the table and the HTML report too.
    let table = zhiwen(dir.path()).arg("check").arg(&pinyin).output().unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(table.contains("disguised: 1 passage written in pinyin"), "{table}");
    let report = dir.path().join("r.html");
    zhiwen(dir.path()).arg("check").arg(&noisy).arg("--report").arg(&report).output().unwrap();
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("noise letters between Han characters"), "no disguise line in the report");
    let csv = dir.path().join("r.csv");
    zhiwen(dir.path()).arg("check").arg(&pinyin).arg("--csv").arg(&csv).output().unwrap();
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",suspect_disguises"));
    assert!(lines.next().unwrap().ends_with(",1 passage written in pinyin (333 syllables)"), "{csv}");
}
