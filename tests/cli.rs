//! The CLI contract: subcommands, summaries, exit codes.

use crate::util::*;
use predicates::prelude::*;

#[test]
fn import_twice_is_a_no_op_and_a_changed_file_replaces_its_old_version() {
    let dir = tempfile::tempdir().unwrap();
    let works = dir.path().join("works");
    std::fs::create_dir(&works).unwrap();
    for f in ["sanguoyanyi_000.txt", "xiyouji_000.txt"] {
        std::fs::copy(corpus_dir().join(f), works.join(f)).unwrap();
    }
    std::fs::write(works.join("notes.tsv"), "not a text extension").unwrap();
    zhiwen(dir.path())
        .args(["import", &works.to_string_lossy()])
        .assert()
        .success()
        .stderr(predicate::str::contains("imported 2, replaced 0, unchanged 0, failed 0, skipped 1"));
    zhiwen(dir.path())
        .args(["import", &works.to_string_lossy()])
        .assert()
        .success()
        .stderr(predicate::str::contains("imported 0, replaced 0, unchanged 2, failed 0"));

    let edited = works.join("xiyouji_000.txt");
    let text = std::fs::read_to_string(&edited).unwrap();
    std::fs::write(&edited, text.replacen("花果山", "花菓山", 1)).unwrap();
    zhiwen(dir.path())
        .args(["import", &works.to_string_lossy()])
        .assert()
        .success()
        .stderr(predicate::str::contains("imported 0, replaced 1, unchanged 1, failed 0"));

    let list = zhiwen(dir.path()).args(["list", "--json"]).output().unwrap();
    let docs: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let docs = docs.as_array().unwrap();
    assert_eq!(docs.len(), 2);
    assert!(docs.iter().any(|d| d["title"] == "第一回　灵根育孕源流出　心性修持大道生"));
    assert!(docs.iter().all(|d| d["windows"].as_u64().unwrap() > 100));
}

#[test]
fn bad_files_are_reported_by_name_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    zhiwen(dir.path())
        .arg("import")
        .arg(suspect("binary.txt"))
        .arg(suspect("empty.txt"))
        .arg(corpus_dir().join("sanguoyanyi_000.txt"))
        .arg(dir.path().join("missing.txt"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("imported 1, replaced 0, unchanged 0, failed 3"))
        .stderr(predicate::str::contains("binary.txt: binary file"))
        .stderr(predicate::str::contains("empty.txt: the file is empty"))
        .stderr(predicate::str::contains("missing.txt"));

    // Checking: unreadable suspects get an error, the others are still checked.
    let (json, code) = check_json(dir.path(), &[suspect("binary.txt"), suspect("traditional_sanguoyanyi_001.txt")]);
    assert_eq!(code, 1);
    let suspects = json["suspects"].as_array().unwrap();
    assert!(suspects[0]["error"].as_str().unwrap().contains("binary"));
    assert_eq!(suspects[0]["sources"].as_array().unwrap().len(), 0);
    assert!(suspects[1]["error"].is_null());
}

#[test]
fn remove_by_id_and_by_path() {
    let dir = imported();
    let first = corpus_dir().join("hongloumeng_000.txt");
    zhiwen(dir.path()).args(["remove"]).arg(&first).assert().success().stderr(predicate::str::contains("removed 1"));
    zhiwen(dir.path())
        .args(["remove", "2", "nowhere.txt"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not in the corpus: nowhere.txt"));
    let list = zhiwen(dir.path()).args(["list", "--json"]).output().unwrap();
    let docs: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(docs.as_array().unwrap().len(), 3);
    // The removed chapter is no longer found.
    let (json, _) = check_json(dir.path(), &[suspect("gbk_homophones_hongloumeng_000.txt")]);
    assert_eq!(json["suspects"][0]["sources"].as_array().unwrap().len(), 0);
}

#[test]
fn usage_errors_exit_2_and_the_store_defaults_to_db_flag_or_env() {
    let dir = tempfile::tempdir().unwrap();
    zhiwen(dir.path()).args(["check"]).assert().code(2);
    zhiwen(dir.path()).args(["frobnicate"]).assert().code(2);
    let other = dir.path().join("other.sqlite");
    zhiwen(dir.path())
        .arg("--db")
        .arg(&other)
        .args(["import", "--quiet"])
        .arg(corpus_dir().join("xiyouji_000.txt"))
        .assert()
        .success();
    assert!(other.exists());
    assert!(!dir.path().join("corpus.sqlite").exists());
}

#[test]
fn readable_table_names_the_source() {
    let dir = imported();
    zhiwen(dir.path())
        .arg("check")
        .arg(suspect("traditional_sanguoyanyi_001.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("第二回　张翼德怒鞭督邮　何国舅谋诛宦竖"))
        .stdout(predicate::str::contains("sanguoyanyi_001.txt"));
    zhiwen(dir.path())
        .arg("check")
        .arg(suspect("english_peter_pan_001.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("no source found"));
}
