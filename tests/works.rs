//! Works: inferred at import (a folder of chapters with a zh-classics-style manifest in its
//! parent, numbered files with a metadata.json, an EPUB's metadata), edited and regrouped on
//! the command line, kept across re-imports, and named in check results.

use crate::util::{fixtures, zhiwen};
use serde_json::Value;
use std::path::Path;

fn works_json(dir: &Path) -> Vec<Value> {
    let out = zhiwen(dir).args(["works", "list", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout).unwrap().as_array().unwrap().clone()
}

fn work<'a>(works: &'a [Value], title: &str) -> &'a Value {
    works.iter().find(|w| w["title"] == title).unwrap_or_else(|| panic!("no work {title} in {works:#?}"))
}

fn chapter_files(w: &Value) -> Vec<String> {
    let name = |c: &Value| Path::new(c["path"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
    w["chapters"].as_array().unwrap().iter().map(name).collect()
}

/// The works fixtures copied to a temp dir (files there can change).
fn copied_fixtures(dir: &Path) -> std::path::PathBuf {
    let to = dir.join("works");
    for entry in walkdir::WalkDir::new(fixtures().join("works")) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(fixtures().join("works")).unwrap();
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(to.join(rel)).unwrap();
        } else {
            std::fs::copy(entry.path(), to.join(rel)).unwrap();
        }
    }
    to
}

#[test]
fn import_infers_works_from_folders_manifests_and_book_metadata() {
    let dir = tempfile::tempdir().unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(fixtures().join("works")).assert().success();
    let works = works_json(dir.path());
    assert_eq!(works.len(), 3, "{works:#?}");

    let sanguo = work(&works, "三国演义");
    assert_eq!(sanguo["authors"], serde_json::json!(["罗贯中"]));
    assert_eq!(sanguo["language"], "zh");
    assert_eq!(chapter_files(sanguo), ["000.txt", "001.txt", "002.txt"]);
    assert!(sanguo["chapters"][0]["title"].as_str().unwrap().starts_with("第一回"));

    let numbered = work(&works, "红楼梦选段");
    assert_eq!(chapter_files(numbered), ["1.txt", "2.txt", "10.txt"], "numeric order, not 1, 10, 2");
    assert_eq!(numbered["holder"], "示例出版社");
    assert_eq!(numbered["authors"], serde_json::json!(["曹雪芹"]));

    let epub = work(&works, "西游记");
    assert_eq!(epub["authors"], serde_json::json!(["吴承恩"]));
    assert_eq!(chapter_files(epub), ["xiyouji.epub"]);
}

#[test]
fn edited_works_survive_reimport_and_results_name_work_and_chapter() {
    let dir = tempfile::tempdir().unwrap();
    let books = copied_fixtures(dir.path());
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(&books).assert().success();
    let works = works_json(dir.path());
    let sanguo = work(&works, "三国演义")["id"].as_u64().unwrap().to_string();
    let numbered = work(&works, "红楼梦选段")["id"].as_u64().unwrap().to_string();
    zhiwen(dir.path())
        .args(["works", "set", &sanguo, "--title", "三国志通俗演义", "--author", "罗贯中", "--author", "毛宗岗"])
        .args(["--holder", "某出版社"])
        .assert()
        .success();

    // A chapter changes and a manifest row changes the title: import brings the new chapter
    // into the edited work, which keeps its fields and order.
    let first = books.join("classics/sanguoyanyi/000.txt");
    let text = std::fs::read_to_string(&first).unwrap();
    std::fs::write(&first, text.replace("桃园", "桃源")).unwrap();
    let manifest = books.join("classics/manifest.tsv");
    std::fs::write(&manifest, std::fs::read_to_string(&manifest).unwrap().replace("三国演义", "三国")).unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(&books).assert().success();
    let works = works_json(dir.path());
    assert_eq!(works.len(), 3, "{works:#?}");
    let edited = work(&works, "三国志通俗演义");
    assert_eq!(edited["authors"], serde_json::json!(["罗贯中", "毛宗岗"]));
    assert_eq!(edited["holder"], "某出版社");
    assert_eq!(chapter_files(edited), ["000.txt", "001.txt", "002.txt"]);

    // An unedited work follows its metadata when imported again.
    let meta = books.join("numbered/metadata.json");
    std::fs::write(&meta, std::fs::read_to_string(&meta).unwrap().replace("红楼梦选段", "石头记选段")).unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(&books).assert().success();
    assert_eq!(work(&works_json(dir.path()), "石头记选段")["id"].as_u64().unwrap().to_string(), numbered);

    // Results name the work and the chapter, in the table and the JSON.
    let suspect = dir.path().join("suspect.txt");
    std::fs::write(
        &suspect,
        format!("转载：\n{}", std::fs::read_to_string(books.join("classics/sanguoyanyi/001.txt")).unwrap()),
    )
    .unwrap();
    let table = zhiwen(dir.path()).arg("check").arg(&suspect).output().unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(table.contains("《三国志通俗演义》第二回"), "{table}");
    let out = zhiwen(dir.path()).args(["check", "--json"]).arg(&suspect).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let source = &json["suspects"][0]["sources"][0];
    assert_eq!(source["work"]["title"], "三国志通俗演义");
    assert_eq!(source["work"]["authors"], serde_json::json!(["罗贯中", "毛宗岗"]));
    assert_eq!(source["work"]["id"].as_u64().unwrap().to_string(), sanguo);
}

#[test]
fn works_merge_and_move_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    zhiwen(dir.path()).args(["import", "--quiet"]).arg(fixtures().join("works")).assert().success();
    let works = works_json(dir.path());
    let id = |title: &str| work(&works, title)["id"].as_u64().unwrap().to_string();
    let epub_doc = work(&works, "西游记")["documents"][0].as_u64().unwrap().to_string();
    zhiwen(dir.path()).args(["works", "merge", &id("红楼梦选段"), &id("三国演义")]).assert().success();
    let merged = works_json(dir.path());
    assert_eq!(merged.len(), 2);
    assert_eq!(chapter_files(work(&merged, "三国演义")), ["000.txt", "001.txt", "002.txt", "1.txt", "2.txt", "10.txt"]);

    let out = zhiwen(dir.path()).args(["works", "move", &epub_doc, "--new", "游记", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let moved: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((moved["title"].as_str(), moved["authors"][0].as_str()), (Some("游记"), Some("吴承恩")));
    assert!(work_titles(dir.path()).iter().all(|t| t != "西游记"), "the emptied work is gone");

    let bad = zhiwen(dir.path()).args(["works", "set", "9999", "--title", "x"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no work 9999"), "{}", String::from_utf8_lossy(&bad.stderr));
}

fn work_titles(dir: &Path) -> Vec<String> {
    works_json(dir).iter().map(|w| w["title"].as_str().unwrap().to_string()).collect()
}
