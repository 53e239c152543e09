//! Near-duplicates among many: corpus clusters and copies among the suspects themselves.

use crate::util::*;

/// A corpus with the fixture chapters, a repost of one (site header and footer, two words
/// changed) and a 60% excerpt of another (below the 0.8 threshold).
fn corpus_with_duplicates() -> (tempfile::TempDir, String, String) {
    let dir = imported();
    let works = dir.path().join("more");
    std::fs::create_dir_all(&works).unwrap();
    let original = read_text(&corpus_dir().join("xiyouji_000.txt"));
    let repost = format!("【转载】笔趣阁 最新章节\n{}\n（本章完）", original.replacen("猴王", "美猴王", 2));
    std::fs::write(works.join("repost.txt"), repost).unwrap();
    let other = read_text(&corpus_dir().join("sanguoyanyi_001.txt"));
    let excerpt: String = other.chars().take(other.chars().count() * 3 / 5).collect();
    std::fs::write(works.join("excerpt.txt"), excerpt).unwrap();
    assert!(zhiwen(dir.path()).arg("import").arg(&works).output().unwrap().status.success());
    let canonical = |p: std::path::PathBuf| std::fs::canonicalize(p).unwrap().to_string_lossy().into_owned();
    (dir, canonical(corpus_dir().join("xiyouji_000.txt")), canonical(works.join("repost.txt")))
}

fn clusters_json(dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let out = zhiwen(dir).args(["clusters", "--json"]).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn member_paths(group: &serde_json::Value) -> Vec<String> {
    group["members"].as_array().unwrap().iter().map(|m| m["path"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_repost_groups_with_its_original_by_minhash_and_by_keywords_and_old_stores_are_signed() {
    let (dir, original, repost) = corpus_with_duplicates();
    let json = clusters_json(dir.path(), &[]);
    assert_eq!(json["groups"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(member_paths(&json["groups"][0]), [original.clone(), repost.clone()]);
    let jaccard = json["groups"][0]["members"][1]["jaccard"].as_f64().unwrap();
    assert!(jaccard > 0.9 && jaccard < 1.0, "{jaccard}");
    assert_eq!(json["groups"][0]["members"][0]["jaccard"], 1.0);
    // At 0.5 the excerpt joins its chapter too.
    assert_eq!(clusters_json(dir.path(), &["--threshold", "0.5"])["groups"].as_array().unwrap().len(), 2);
    // The keyword simhash recipe finds the repost as well.
    let by_keywords = clusters_json(dir.path(), &["--method", "simhash"]);
    assert!(
        by_keywords["groups"].as_array().unwrap().iter().any(|g| member_paths(g) == [original.clone(), repost.clone()])
    );

    // A store from before signatures (rows gone): the first clustering signs its documents.
    let db = dir.path().join("corpus.sqlite");
    rusqlite::Connection::open(&db).unwrap().execute("DELETE FROM doc_signatures", []).unwrap();
    let out = zhiwen(dir.path()).args(["clusters", "--csv"]).output().unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("\u{feff}group,doc_id,jaccard_to_first,title,path"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("signatures computed for 7 of 7 documents"));
    let signed: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM doc_signatures", [], |r| r.get(0))
        .unwrap();
    assert_eq!(signed, 7);
}

#[test]
fn among_finds_exactly_the_essays_that_copy_each_other_with_their_passages() {
    let dir = imported();
    let essays: Vec<std::path::PathBuf> =
        ["a", "b", "c", "d", "e"].iter().map(|e| fixtures().join(format!("among/essay_{e}.txt"))).collect();
    let out = zhiwen(dir.path()).args(["check", "--json", "--among"]).args(&essays).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let name = |p: &serde_json::Value| {
        std::path::Path::new(p.as_str().unwrap()).file_stem().unwrap().to_string_lossy().into_owned()
    };
    let mut pairs: Vec<(String, String)> = json["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let (a, b) = (name(&p["a"]), name(&p["b"]));
            if a < b { (a, b) } else { (b, a) }
        })
        .collect();
    pairs.sort();
    let expected = [("essay_a", "essay_b"), ("essay_a", "essay_c"), ("essay_b", "essay_c")];
    assert_eq!(pairs, expected.map(|(a, b)| (a.to_string(), b.to_string())), "{}", json["pairs"]);
    // Each pair's passage is the copied paragraph, on both sides.
    let text = |p: &serde_json::Value| read_text(std::path::Path::new(p.as_str().unwrap()));
    for p in json["pairs"].as_array().unwrap() {
        let (a, b) = (text(&p["a"]), text(&p["b"]));
        let passages = p["passages"].as_array().unwrap();
        assert_eq!(passages.len(), 1, "{p}");
        let q = &passages[0];
        let in_a = chars(&a, q["suspect_start"].as_u64().unwrap(), q["suspect_end"].as_u64().unwrap());
        let in_b = chars(&b, q["source_start"].as_u64().unwrap(), q["source_end"].as_u64().unwrap());
        assert!(in_a.chars().count() > 300, "{in_a}");
        let head: String = in_a.chars().skip(40).take(60).collect();
        assert!(in_b.contains(&head), "{head} not in {in_b}");
    }
    // Nothing in the Chinese corpus; without --among no pairs at all.
    assert!(json["suspects"].as_array().unwrap().iter().all(|s| s["sources"].as_array().unwrap().is_empty()));
    let out = zhiwen(dir.path()).args(["check", "--json"]).args(&essays).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json.get("pairs").is_none());

    // The HTML reports have one page per pair beside the suspects'.
    let reports = dir.path().join("reports/");
    let out = zhiwen(dir.path()).args(["check", "--among", "--report"]).arg(&reports).args(&essays).output().unwrap();
    assert!(out.status.success());
    let index = std::fs::read_to_string(reports.join("index.html")).unwrap();
    assert_eq!(index.matches(" ↔ ").count(), 3 * 2, "each pair's link and path: {index}");
    assert_eq!(std::fs::read_dir(&reports).unwrap().count(), 5 + 3 + 1);
}
