//! Exported reports through the CLI: HTML, CSV, PAN XML, batch index.

use crate::util::*;

/// A store holding one work whose title and text carry hostile markup, and a pirated copy.
fn hostile_case(dir: &std::path::Path) -> std::path::PathBuf {
    let chapter = std::fs::read_to_string(corpus_dir().join("sanguoyanyi_000.txt")).unwrap();
    let work = format!("<script>alert('title')</script>{chapter}");
    std::fs::write(works_formula(dir), format!("=HYPERLINK(\"http://evil\")\n{chapter}")).unwrap();
    let body: String = chapter.lines().skip(1).collect::<Vec<_>>().join("\n");
    let works = dir.join("works");
    std::fs::create_dir_all(&works).unwrap();
    std::fs::write(works.join("work.txt"), &work).unwrap();
    zhiwen(dir).args(["import", "--quiet"]).arg(&works).assert().success();
    let suspect = dir.join("pirate <img src=x onerror=alert(1)>.txt");
    let (head, tail) = body.split_at(body.char_indices().nth(1200).unwrap().0);
    std::fs::write(&suspect, format!("<img src=x onerror=alert(1)>\n{head}<script>alert(2)</script>{tail}")).unwrap();
    suspect
}

fn works_formula(dir: &std::path::Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join("works")).unwrap();
    dir.join("works/formula.txt")
}

#[test]
fn csv_fields_cannot_run_as_spreadsheet_formulas() {
    let dir = tempfile::tempdir().unwrap();
    let suspect = hostile_case(dir.path());
    let csv = dir.path().join("r.csv");
    zhiwen(dir.path()).arg("check").arg("--csv").arg(&csv).arg(&suspect).assert().success();
    let table = std::fs::read_to_string(&csv).unwrap();
    let titles: Vec<String> = csv_reader(&table).records().map(|r| r.unwrap()[3].to_string()).collect();
    assert!(titles.iter().any(|t| t == "'=HYPERLINK(\"http://evil\")"), "{titles:?}");
}

#[test]
fn html_report_of_a_pirated_chapter_has_every_passage_with_its_ranges() {
    let dir = imported();
    let suspect = suspect("ads_xiyouji_000.txt");
    let out = dir.path().join("report.html");
    let (json, _) = check_json(dir.path(), std::slice::from_ref(&suspect));
    zhiwen(dir.path()).arg("check").arg("--report").arg(&out).arg(&suspect).assert().success();
    let page = std::fs::read_to_string(&out).unwrap();
    let passages = json["suspects"][0]["sources"][0]["passages"].as_array().unwrap();
    assert!(passages.len() > 10);
    assert_eq!(page.matches("<div class=\"passage\"").count(), passages.len());
    let suspect_text = read_text(&suspect);
    for p in passages {
        let (s, e) = (p["suspect_start"].as_u64().unwrap(), p["suspect_end"].as_u64().unwrap());
        let (os, oe) = (p["source_start"].as_u64().unwrap(), p["source_end"].as_u64().unwrap());
        assert!(page.contains(&format!("suspect characters {s}–{e}, source characters {os}–{oe}")), "{p}");
        let verified = format!(
            "verified {:.1}% ({:.0} bits)",
            p["containment"].as_f64().unwrap() * 100.0,
            p["evidence_bits"].as_f64().unwrap()
        );
        assert!(page.contains(&verified), "{verified}");
        // The passage text itself is in the page (first 20 characters, no markup inside).
        let start: String = chars(&suspect_text, s, e).chars().take(20).collect();
        assert!(page.contains(&start), "{start}");
    }
    assert!(page.contains("第一回　灵根育孕源流出　心性修持大道生"));
    assert!(page.contains("@media print"));
    // The ads cut the chapter into passages; the report shows them as the copies they are.
    let regions: std::collections::BTreeSet<u64> = passages.iter().map(|p| p["region"].as_u64().unwrap()).collect();
    assert_eq!(page.matches("<h3 class=\"region\">").count(), regions.len());
    assert!(regions.len() * 4 < passages.len(), "{} regions for {} passages", regions.len(), passages.len());
}

#[test]
fn hostile_markup_is_shown_as_text_and_nothing_external_is_referenced() {
    let dir = tempfile::tempdir().unwrap();
    let suspect = hostile_case(dir.path());
    let out = dir.path().join("r.html");
    zhiwen(dir.path()).arg("check").arg("--report").arg(&out).arg(&suspect).assert().success();
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;"), "the title is escaped");
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"), "the file name and text are escaped");
    // Text inside a passage is escaped (difference marks may cut through it).
    let unmarked = page.replace("<span class=\"edit\">", "").replace("</span>", "");
    assert!(unmarked.contains("&lt;script&gt;alert(2)&lt;/script&gt;"), "text inside a passage is escaped");
    let lower = page.to_lowercase();
    assert!(!lower.contains("<script") && !lower.contains("<img") && !lower.contains("<link"));
    // Escaped text has no quotes, so a quoted attribute can only be markup we wrote.
    for external in ["src=\"", "src='", "href=\"http", "href='http", "url(", "@import", "@font-face"] {
        assert!(!lower.contains(external), "{external}");
    }
    // PAN XML and CSV quote them too.
    let pan = dir.path().join("pan");
    let csv = dir.path().join("r.csv");
    zhiwen(dir.path()).arg("check").arg("--pan").arg(&pan).arg("--csv").arg(&csv).arg(&suspect).assert().success();
    let xml = std::fs::read_to_string(std::fs::read_dir(&pan).unwrap().next().unwrap().unwrap().path()).unwrap();
    assert!(xml.contains("reference=\"pirate &lt;img src=x onerror=alert(1)&gt;.txt\""), "{xml}");
    assert!(!xml.contains("<img"));
    let table = std::fs::read_to_string(&csv).unwrap();
    let titles: Vec<String> = csv_reader(&table).records().map(|r| r.unwrap()[3].to_string()).collect();
    assert!(
        titles.iter().any(|t| t.starts_with("<script>alert('title')</script>第一回")),
        "CSV keeps the title as plain text: {titles:?}"
    );
}

#[test]
fn csv_has_a_bom_a_header_and_one_row_per_passage() {
    let dir = imported();
    let suspects = [suspect("ads_xiyouji_000.txt"), suspect("excerpt_sanguoyanyi_002.txt")];
    let csv = dir.path().join("out.csv");
    let (json, _) = check_json(dir.path(), &suspects);
    zhiwen(dir.path()).arg("check").arg("--csv").arg(&csv).args(&suspects).assert().success();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("\u{feff}suspect,source_id,source,source_title,suspect_start"));
    let passages: usize = json["suspects"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["sources"].as_array().unwrap())
        .map(|s| s["passages"].as_array().unwrap().len())
        .sum();
    let mut reader = csv_reader(&text);
    assert_eq!(reader.records().count(), passages);
}

fn csv_reader(text: &str) -> ::csv::Reader<&[u8]> {
    ::csv::Reader::from_reader(text.trim_start_matches('\u{feff}').as_bytes())
}

#[test]
fn pan_xml_has_one_feature_per_passage_with_offsets_and_lengths() {
    let dir = imported();
    let truth = std::fs::read_to_string(fixtures().join("excerpt_truth.txt")).unwrap();
    let t: Vec<u64> = truth.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let pan = dir.path().join("pan");
    zhiwen(dir.path())
        .arg("check")
        .arg("--pan")
        .arg(&pan)
        .arg(suspect("excerpt_sanguoyanyi_002.txt"))
        .assert()
        .success();
    let xml = std::fs::read_to_string(pan.join("001-excerpt_sanguoyanyi_002.xml")).unwrap();
    assert!(xml.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document reference=\"excerpt_sanguoyanyi_002.txt\">"
    ));
    assert_eq!(xml.matches("<feature name=\"plagiarism\"").count(), 1);
    let attr = |name: &str| -> u64 {
        let i = xml.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        xml[i..].split('"').next().unwrap().parse().unwrap()
    };
    assert!(attr("this_offset").abs_diff(t[2]) <= 3 && attr("this_length").abs_diff(800) <= 6, "{xml}");
    assert!(attr("source_offset").abs_diff(t[0]) <= 3 && attr("source_length").abs_diff(800) <= 6, "{xml}");
    assert!(xml.contains("source_reference=\"sanguoyanyi_002.txt\""));
}

#[test]
fn a_folder_of_suspects_gets_one_report_each_and_an_index() {
    let dir = imported();
    let out = dir.path().join("reports");
    zhiwen(dir.path())
        .arg("check")
        .arg("--report")
        .arg(format!("{}/", out.display()))
        .arg(fixtures().join("suspects"))
        .assert()
        .code(1); // binary.txt and empty.txt cannot be read
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let reports: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "index.html")
        .collect();
    assert_eq!(reports.len(), 9);
    for name in &reports {
        assert!(index.contains(&format!("href=\"{name}\"")), "{name}");
    }
    assert!(index.contains("binary file"), "errors are listed");
}
