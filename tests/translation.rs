//! Translated copies on real public-domain translations (tests/fixtures/translation: Herbert
//! Giles' English versions of five 聊斋志异 stories among forty Chinese ones): each is reported as
//! a translation of its story, with aligned passages; a Giles story whose original is not in
//! the store and an English novel's chapter get no source.

use crate::util::{fixtures, zhiwen};
use serde_json::Value;

fn translation_store(dir: &std::path::Path) {
    let out = zhiwen(dir).args(["import", "--quiet"]).arg(fixtures().join("translation/zh")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn english_translations_are_found_with_their_chinese_stories_and_nothing_else_is() {
    let dir = tempfile::tempdir().unwrap();
    translation_store(dir.path());
    let en = fixtures().join("translation/en");
    let out = zhiwen(dir.path()).args(["check", "--json"]).arg(&en).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let suspects = json["suspects"].as_array().unwrap();
    assert_eq!(suspects.len(), 7);
    for s in suspects {
        let name =
            std::path::Path::new(s["path"].as_str().unwrap()).file_stem().unwrap().to_string_lossy().into_owned();
        let sources = s["sources"].as_array().unwrap();
        match name.strip_prefix("giles_").filter(|n| !n.starts_with("unmatched")) {
            Some(story) => {
                assert_eq!(sources.len(), 1, "{name}: {sources:#?}");
                let source = &sources[0];
                assert!(source["path"].as_str().unwrap().ends_with(&format!("zh/{story}.txt")), "{name}: {source:#?}");
                assert_eq!(source["kind"], "translation", "{name}");
                assert!(source["similarity"].as_f64().unwrap() > 0.3, "{name}: {source:#?}");
                // The names both share, as evidence: 小惠 is Hsiao-hui ten times in 059.
                if story == "059" {
                    let names = source["names"].as_array().unwrap();
                    assert_eq!((&names[0]["english"], &names[0]["chinese"]), (&"Hsiao-hui".into(), &"小惠".into()));
                    assert_eq!(names[0]["count"], 10, "{names:#?}");
                }
                // Passages pair whole English sentences with whole Chinese ones, in order on
                // both sides, each with its evidence.
                let english: Vec<char> =
                    std::fs::read_to_string(s["path"].as_str().unwrap()).unwrap().chars().collect();
                let chinese: Vec<char> =
                    std::fs::read_to_string(source["path"].as_str().unwrap()).unwrap().chars().collect();
                let passages = source["passages"].as_array().unwrap();
                assert!(passages.len() >= 3, "{name}: {passages:#?}");
                let at = |p: &Value, k: &str| p[k].as_u64().unwrap() as usize;
                for (i, p) in passages.iter().enumerate() {
                    let en: String = english[at(p, "suspect_start")..at(p, "suspect_end")].iter().collect();
                    let zh: String = chinese[at(p, "source_start")..at(p, "source_end")].iter().collect();
                    assert!(
                        en.trim_end().ends_with(['.', '!', '?', ';', ':', '"', '\'', '\u{201d}', '\u{2019}']),
                        "{name}: {en:?}"
                    );
                    assert!(
                        zh.trim_end().ends_with(['。', '！', '？', '；', '”', '\n'])
                            || zh.trim_end().len() + 3 > chinese.len(),
                        "{name}: {zh:?}"
                    );
                    assert!(p["evidence_bits"].as_f64().unwrap() > 0.0, "{name}: {p:#?}");
                    if i > 0 {
                        let before = &passages[i - 1];
                        assert!(at(p, "suspect_start") >= at(before, "suspect_end"), "{name}: English out of order");
                        assert!(at(p, "source_start") >= at(before, "source_end"), "{name}: Chinese out of order");
                    }
                }
            }
            None => assert!(sources.is_empty(), "{name} is no translation of the store's stories: {sources:#?}"),
        }
    }
}

#[test]
fn a_text_copy_has_no_kind_in_the_json_and_a_translation_report_says_aligned() {
    let dir = tempfile::tempdir().unwrap();
    translation_store(dir.path());
    // A Chinese story checked against itself is an ordinary copy: no "kind" (the contract of
    // text copies is unchanged).
    let story = fixtures().join("translation/zh/122.txt");
    let out = zhiwen(dir.path()).args(["check", "--json"]).arg(&story).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let source = &json["suspects"][0]["sources"][0];
    assert!(source["similarity"].as_f64().unwrap() > 0.99);
    assert!(source.get("kind").is_none(), "{source:#?}");
    // The HTML report of a translation names it and shows aligned passages, escaped.
    let report = dir.path().join("report.html");
    let out = zhiwen(dir.path())
        .arg("check")
        .arg(fixtures().join("translation/en/giles_312.txt"))
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("(translation)"), "the source is named as translated");
    assert!(html.contains("Aligned sentences 1"));
    assert!(!html.contains("Copied region"));
    // Its similarity is said as what it is, and there is no key to character marks it lacks.
    assert!(html.contains("in sentences aligned with those of 1 source document(s) in another language"));
    assert!(!html.contains("homophone or script change"));
}

/// An English web page that translates a story of the corpus is checked for translation on its
/// own (its language is not the corpus's), kept as a finding, and its takedown notice says it
/// is an unauthorised translation, not a copy.
#[test]
fn a_translated_web_page_becomes_a_finding_and_its_notice_says_translation() {
    let dir = tempfile::tempdir().unwrap();
    translation_store(dir.path());
    let english = std::fs::read_to_string(fixtures().join("translation/en/giles_312.txt")).unwrap();
    let paragraphs: String =
        english.split("\n\n").map(|p| format!("<p>{}</p>\n", p.replace('&', "&amp;").replace('<', "&lt;"))).collect();
    let page = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>The Elephant</title></head>\
         <body><nav>Home | Stories</nav><article>{paragraphs}</article></body></html>"
    );
    let site = crate::util::StaticSite::serve(vec![("/story/312.html", page.into_bytes(), "text/html; charset=utf-8")]);
    let url = format!("{}/story/312.html", site.base);
    let out = zhiwen(dir.path())
        .args(["check", "--json", "--proxy", "none", "--delay", "0.05", "--timeout", "5", &url])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let suspect = &json["suspects"][0];
    let source = &suspect["sources"][0];
    assert_eq!(source["kind"], "translation", "{suspect:#}");
    assert!(source["path"].as_str().unwrap().ends_with("zh/312.txt"), "{source:#}");
    let id = suspect["finding_id"].as_i64().expect("the page is kept as a finding").to_string();
    let out = zhiwen(dir.path()).args(["notice", "--kind", "dmca", &id]).output().unwrap();
    let dmca = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dmca.contains("is an unauthorised translation of \""), "{dmca}");
    assert!(dmca.contains(&url), "{dmca}");
    let out = zhiwen(dir.path()).args(["notice", "--kind", "cn", &id]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("（未经许可的翻译作品）"));
}
