//! Crash safety, cancel, hostile inputs and store problems, for real: child processes
//! killed mid-import, files that are not what they claim.

use crate::util::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("zhiwen")
}

/// Starts an import of `works` in a child process and stops it with `signal` once some
/// batches are committed.
fn interrupt_import(db: &Path, works: &Path, signal: &str) -> std::process::Output {
    let child = Command::new(bin())
        .arg("--db")
        .arg(db)
        .args(["import", "--quiet", "--batch", "8"])
        .arg(works)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while doc_count(db) < 16 {
        assert!(start.elapsed() < Duration::from_secs(60), "import made no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn kill_9_mid_import_leaves_whole_documents_and_a_rerun_completes() {
    let dir = tempfile::tempdir().unwrap();
    let works = many_files(dir.path(), 600);
    let db = dir.path().join("corpus.sqlite");
    let out = interrupt_import(&db, &works, "-9");
    assert!(!out.status.success());
    let kept = doc_count(&db);
    assert!(kept > 0 && kept < 600, "killed mid-way: {kept}");
    // Integrity, and every document with all its windows.
    zhiwen(dir.path()).arg("--db").arg(&db).arg("doctor").assert().success();
    assert_eq!(kept % 8, 0, "only whole batches: {kept}");
    // The same import again completes the rest, without duplicates.
    let rerun = zhiwen(dir.path()).arg("--db").arg(&db).args(["import", "--quiet"]).arg(&works).output().unwrap();
    assert!(rerun.status.success());
    let summary = String::from_utf8_lossy(&rerun.stderr);
    assert!(summary.contains(&format!("imported {}, replaced 0, unchanged {kept}, failed 0", 600 - kept)), "{summary}");
    assert_eq!(doc_count(&db), 600);
    zhiwen(dir.path()).arg("--db").arg(&db).arg("doctor").assert().success();
}

#[test]
fn ctrl_c_stops_promptly_and_keeps_what_was_committed() {
    let dir = tempfile::tempdir().unwrap();
    let works = many_files(dir.path(), 600);
    let db = dir.path().join("corpus.sqlite");
    let started = Instant::now();
    let out = interrupt_import(&db, &works, "-INT");
    assert!(started.elapsed() < Duration::from_secs(30));
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("cancelled"), "{summary}");
    assert_eq!(out.status.code(), Some(1));
    let kept = doc_count(&db);
    assert!(kept > 0 && kept < 600);
    assert!(summary.contains(&format!("imported {kept},")), "the summary counts what was kept: {summary}");
    zhiwen(dir.path()).arg("--db").arg(&db).arg("doctor").assert().success();
}

#[test]
fn hostile_inputs_each_get_one_message_and_the_good_files_are_imported() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("batch");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::copy(corpus_dir().join("xiyouji_000.txt"), bad.join("good.txt")).unwrap();
    std::fs::write(bad.join("binary.txt"), [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0]).unwrap();
    std::fs::write(bad.join("empty.txt"), b"").unwrap();
    let mut broken = vec![0xfd, 0x80, 0x81];
    broken.extend(std::iter::repeat_n([0xc3u8, 0x28, 0xa0, 0xa1, 0xe2, 0x28], 200).flatten());
    std::fs::write(bad.join("broken.txt"), &broken).unwrap();
    std::fs::write(bad.join("broken-bom.txt"), [&[0xff, 0xfe][..], &broken].concat()).unwrap();
    // A zip named .txt (a pirate's "epub"): binary.
    std::fs::write(bad.join("fake.txt"), b"PK\x03\x04\x14\0\0\0\x08\0mimetypeapplication/epub+zip\0\0\0").unwrap();
    // 2 GB: refused by its size before anything is read (sparse, so it costs no disk).
    std::fs::File::create(bad.join("huge.txt")).unwrap().set_len(2 << 30).unwrap();
    std::os::unix::fs::symlink(&bad, bad.join("loop")).unwrap();
    // Unreadable even for root: reading a process's memory at address 0 fails (EIO).
    std::os::unix::fs::symlink("/proc/self/mem", bad.join("unreadable.txt")).unwrap();
    // A named pipe would block a reader forever.
    assert!(Command::new("mkfifo").arg(bad.join("pipe.txt")).status().unwrap().success());
    // A fake EPUB, and a DOCX that unpacks to 300 MiB (a zip bomb of a few hundred kB).
    std::fs::write(bad.join("fake.epub"), b"PK\x03\x04 this is not a zip archive at all").unwrap();
    {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(std::fs::File::create(bad.join("bomb.docx")).unwrap());
        let deflated = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file("word/document.xml", deflated).unwrap();
        let spaces = vec![b' '; 1 << 20];
        for _ in 0..300 {
            w.write_all(&spaces).unwrap();
        }
        w.finish().unwrap();
    }
    // A PDF whose font names a CMap that does not exist, a truncated Kindle book, an RTF of
    // groups nested a million deep.
    std::fs::copy(fixtures().join("formats/hostile_unknown_cmap.pdf"), bad.join("cmap.pdf")).unwrap();
    std::fs::copy(fixtures().join("formats/hostile_truncated.mobi"), bad.join("cut.mobi")).unwrap();
    std::fs::write(bad.join("deep.rtf"), format!("{{\\rtf1 {}x{}}}", "{".repeat(1 << 20), "}".repeat(1 << 20)))
        .unwrap();
    let out = zhiwen(dir.path()).args(["import", "--quiet"]).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("imported 1, replaced 0, unchanged 0, failed 14"), "{summary}");
    assert!(!summary.contains("panicked"), "a caught decoder panic prints nothing: {summary}");
    for (file, reason) in [
        ("binary.txt", "binary file"),
        ("empty.txt", "the file is empty"),
        ("broken.txt", "undecodable"),
        ("broken-bom.txt", "undecodable"),
        ("fake.txt", "binary file"),
        ("huge.txt", "over the 256 MiB limit"),
        ("loop", "symbolic link loop"),
        ("fake.epub", "not a valid EPUB"),
        ("bomb.docx", "zip bomb"),
        ("unreadable.txt", "Input/output error"),
        ("pipe.txt", "not a regular file"),
        ("cmap.pdf", "font encoding Zhiwen cannot read"),
        ("cut.mobi", "damaged Kindle ebook (truncated"),
        ("deep.rtf", "refused as hostile"),
    ] {
        let line =
            summary.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("no line for {file}: {summary}"));
        assert!(line.contains(reason), "{file}: {line}");
    }
}

#[test]
fn a_corrupt_or_unwritable_store_gives_a_clear_message_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("corpus.sqlite");
    std::fs::write(&db, b"this is not a database, it was overwritten by something else".repeat(100)).unwrap();
    let out = zhiwen(dir.path()).arg("--db").arg(&db).arg("list").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot open the store") && err.contains("not a database"), "{err}");
    assert!(!err.contains("panicked"));
    // Untouched.
    assert!(std::fs::read(&db).unwrap().starts_with(b"this is not a database"));

    // A store in a folder that cannot be created.
    let out = zhiwen(dir.path()).arg("--db").arg("/proc/zhiwen/corpus.sqlite").arg("list").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/proc/zhiwen"));
}

#[test]
fn a_file_deleted_between_listing_and_reading_is_reported_and_the_rest_imported() {
    use zhiwen::{Cancel, Corpus, ImportOptions, Progress, Stage};
    let dir = tempfile::tempdir().unwrap();
    let works = many_files(dir.path(), 10);
    let victim = works.join("0005.txt");
    let mut corpus = Corpus::open(&dir.path().join("corpus.sqlite")).unwrap();
    // The first progress after the listing, before any file is read.
    let delete = |p: &Progress| {
        if matches!(p.stage, Stage::Importing) && p.files_done == 0 && p.files_total == 10 {
            std::fs::remove_file(&victim).unwrap();
        }
    };
    let report =
        corpus.import(std::slice::from_ref(&works), &ImportOptions::default(), &delete, &Cancel::new()).unwrap();
    assert!(!victim.exists());
    assert_eq!(report.imported.len(), 9);
    assert_eq!(report.failed, [(victim, "the file disappeared before it could be read".to_string())]);
    assert_eq!(corpus.store().stats().unwrap().documents, 9);
}

#[test]
fn a_full_disk_stops_the_import_with_a_clear_message_and_keeps_whole_batches() {
    let dir = tempfile::tempdir().unwrap();
    let works = many_files(dir.path(), 300);
    let Some(disk) = Tmpfs::mount(dir.path(), "2m") else { return };
    let db = disk.0.join("corpus.sqlite");
    let out = zhiwen(dir.path())
        .arg("--db")
        .arg(&db)
        .args(["import", "--quiet", "--batch", "8"])
        .arg(&works)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no space left for store") && err.contains("corpus.sqlite"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let kept = doc_count(&db);
    assert!(kept > 0 && kept < 300 && kept.is_multiple_of(8), "whole batches only: {kept}");
    zhiwen(dir.path()).arg("--db").arg(&db).arg("doctor").assert().success();
    // With room again, the same import adds the rest.
    disk.remount("size=50m");
    zhiwen(dir.path()).arg("--db").arg(&db).args(["import", "--quiet"]).arg(&works).assert().success();
    assert_eq!(doc_count(&db), 300);
    zhiwen(dir.path()).arg("--db").arg(&db).arg("doctor").assert().success();
}

#[test]
fn a_store_on_a_read_only_disk_is_listed_and_checked_but_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let Some((_disk, db)) = read_only_store(dir.path()) else { return };
    let before = std::fs::read(&db).unwrap();
    let list = zhiwen(dir.path()).arg("--db").arg(&db).args(["list", "--json"]).output().unwrap();
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&list.stdout).unwrap().as_array().unwrap().len(), 5);
    let (json, code) = check_json_with_db(dir.path(), &db, &suspect("ads_xiyouji_000.txt"));
    assert_eq!(code, 0);
    assert!(json["suspects"][0]["sources"][0]["path"].as_str().unwrap().ends_with("xiyouji_000.txt"));
    zhiwen(dir.path()).arg("--db").arg(&db).arg("doctor").assert().success();
    let suspect_path = suspect("ads_xiyouji_000.txt").display().to_string();
    for args in [vec!["import", "--quiet", suspect_path.as_str()], vec!["remove", "1"]] {
        let out = zhiwen(dir.path()).arg("--db").arg(&db).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is read-only") && err.contains("corpus.sqlite"), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

fn check_json_with_db(dir: &Path, db: &Path, file: &Path) -> (serde_json::Value, i32) {
    let out = zhiwen(dir).arg("--db").arg(db).args(["check", "--json"]).arg(file).output().unwrap();
    (serde_json::from_slice(&out.stdout).unwrap(), out.status.code().unwrap())
}
