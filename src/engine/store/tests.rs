use super::*;
use crate::engine::index::WindowRef;

fn doc(path: &str, text: &str, fps: &[u64]) -> NewDocument {
    NewDocument {
        path: path.into(),
        title: crate::engine::decode::title_of(text),
        byte_size: text.len() as u64,
        content_hash: format!("{:032x}", xxhash_rust::xxh3::xxh3_128(text.as_bytes())),
        chars: text.chars().count() as u64,
        encoding: "UTF-8".into(),
        text: text.into(),
        windows: fps
            .iter()
            .enumerate()
            .map(|(i, &fp)| StoredWindow {
                ordinal: i as u32,
                char_start: i as u32,
                char_end: i as u32 + 1,
                fingerprint: fp,
            })
            .collect(),
        signature: None,
        work: None,
    }
}

#[test]
fn write_list_replace_remove() {
    let mut s = Store::open_in_memory(FingerprintParams::default()).unwrap();
    let out = s.write_batch(&[doc("/a.txt", "第一回\n甲", &[1, 2, u64::MAX]), doc("/b.txt", "乙", &[3])]).unwrap();
    assert_eq!(out.iter().map(|o| o.replaced).collect::<Vec<_>>(), [None, None]);
    let docs = s.documents().unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].title, "第一回");
    assert_eq!(docs[0].windows, 3);
    assert_eq!(s.text(out[0].id).unwrap().as_deref(), Some("第一回\n甲"));

    // The same path again replaces the old version, windows included.
    let again = s.write_batch(&[doc("/a.txt", "新版", &[9])]).unwrap();
    assert_eq!(again[0].replaced, Some(out[0].id));
    assert_eq!(s.documents().unwrap().len(), 2);
    let index = s.load_index(3).unwrap();
    let mut fps: Vec<(u64, WindowRef)> = index.entries().collect();
    fps.sort();
    assert_eq!(fps.iter().map(|e| e.0).collect::<Vec<_>>(), [3, 9]);
    // u64 fingerprints survive the i64 column.
    assert!(s.verify().unwrap().is_empty());

    assert_eq!(s.remove(&[again[0].id, 999]).unwrap(), 1);
    assert_eq!(s.stats().unwrap().documents, 1);
    assert_eq!(s.stats().unwrap().windows, 1);
    assert!(s.verify().unwrap().is_empty());
}

#[test]
fn high_bit_fingerprints_round_trip() {
    let mut s = Store::open_in_memory(FingerprintParams::default()).unwrap();
    s.write_batch(&[doc("/a.txt", "甲", &[u64::MAX, 1 << 63])]).unwrap();
    let mut got: Vec<u64> = s.load_index(3).unwrap().entries().map(|e| e.0).collect();
    got.sort();
    assert_eq!(got, [1 << 63, u64::MAX]);
}

#[test]
fn file_store_keeps_params_and_refuses_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/corpus.sqlite");
    let custom = FingerprintParams { window: 40, step: 10, ngram: 2, ..FingerprintParams::default() };
    {
        let mut s = Store::open(&path, custom).unwrap();
        s.write_batch(&[doc("/a.txt", "甲乙", &[5])]).unwrap();
    }
    // Reopening with other parameters keeps the stored ones.
    let s = Store::open(&path, FingerprintParams::default()).unwrap();
    assert_eq!(s.params(), custom);
    assert_eq!(s.documents().unwrap().len(), 1);
    drop(s);

    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let err = Store::open(&path, custom).err().unwrap().to_string();
    assert!(err.contains("newer Zhiwen"), "{err}");
    // Untouched: still version 99.
    let conn = Connection::open(&path).unwrap();
    assert_eq!(conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0)).unwrap(), 99);
}

#[test]
fn a_failed_batch_leaves_nothing_behind() {
    let mut s = Store::open_in_memory(FingerprintParams::default()).unwrap();
    // The second document's insert fails, after the first one's succeeded.
    s.conn
        .execute_batch(
            "CREATE TEMP TRIGGER fail BEFORE INSERT ON documents WHEN NEW.path = '/b.txt'
             BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
        )
        .unwrap();
    let err = s.write_batch(&[doc("/a.txt", "甲", &[7]), doc("/b.txt", "乙", &[1, 2])]).unwrap_err();
    assert!(err.to_string().contains("injected failure"), "{err}");
    assert_eq!(s.stats().unwrap(), StoreStats::default());
}

#[test]
fn a_version_1_store_is_upgraded_with_its_windows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite");
    {
        let conn = Connection::open(&path).unwrap();
        let schema::Migration::Sql(v1) = &schema::MIGRATIONS[0] else { panic!("version 1 is SQL") };
        conn.execute_batch(v1).unwrap();
        conn.execute_batch("PRAGMA user_version = 1").unwrap();
        write_params(&conn, &FingerprintParams::default()).unwrap();
        for (id, windows) in [(1u32, 3u32), (2, 0), (3, 2)] {
            conn.execute(
                "INSERT INTO documents VALUES (?1, ?2, 't', 1, 'h', 10, ?3, 0, 'UTF-8', '甲乙丙')",
                params![id, format!("/{id}.txt"), windows],
            )
            .unwrap();
            for ordinal in 0..windows {
                let fp = (u64::from(id) << 60 | u64::from(ordinal)) | 1 << 63;
                conn.execute(
                    "INSERT INTO windows VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, ordinal, ordinal * 2, ordinal * 2 + 5, fp as i64],
                )
                .unwrap();
            }
        }
    }
    let s = Store::open(&path, FingerprintParams::default()).unwrap();
    let version: i64 = s.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, schema::SCHEMA_VERSION);
    assert_eq!(s.verify().unwrap(), Vec::<String>::new());
    let entries: Vec<(u64, WindowRef)> = s.load_index(3).unwrap().entries().collect();
    let want: Vec<(u64, WindowRef)> = [(1u32, 3u32), (3, 2)]
        .iter()
        .flat_map(|&(doc, n)| {
            (0..n)
                .map(move |ordinal| ((u64::from(doc) << 60 | u64::from(ordinal)) | 1 << 63, WindowRef { doc, ordinal }))
        })
        .collect();
    assert_eq!(entries, want);
    assert_eq!(s.window_spans(1).unwrap(), [(0, 5), (2, 7), (4, 9)]);
    assert_eq!(s.window_spans(2).unwrap(), []);
}

#[test]
fn verify_reports_windows_that_disagree_with_their_document() {
    let mut s = Store::open_in_memory(FingerprintParams::default()).unwrap();
    let out = s.write_batch(&[doc("/a.txt", "甲", &[1, 2, 3]), doc("/b.txt", "乙", &[4])]).unwrap();
    assert!(s.verify().unwrap().is_empty());
    s.conn
        .execute("UPDATE windows SET fingerprints = substr(fingerprints, 1, 12) WHERE doc_id = ?1", [out[0].id])
        .unwrap();
    s.conn.execute("DELETE FROM windows WHERE doc_id = ?1", [out[1].id]).unwrap();
    let problems = s.verify().unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("/a.txt") && problems[0].contains("should have 3 windows"), "{problems:?}");
    assert!(problems[1].contains("/b.txt") && problems[1].contains("no windows row"), "{problems:?}");
}

#[test]
fn copies_move_only_on_answers_that_say_something() {
    use super::watch::{CopyStatus, Observation, Seen};
    let mut s = Store::open_in_memory(FingerprintParams::default()).unwrap();
    let seen = |url: &str, seen: Seen| Observation { url: url.into(), seen };
    let copies = |top| Seen::Copies { finding_id: None, similarity: 0.9, top_source: top };
    let (a, b) = ("http://site.example/a.html", "http://site.example/b.html");
    let day = 86_400;

    let c = s.observe(&[seen(a, copies(1)), seen(b, Seen::NoMatch)], day).unwrap();
    assert_eq!(c.new.iter().map(|c| c.url.as_str()).collect::<Vec<_>>(), [a], "a page that copies nothing is no copy");
    // A timeout or a server error says nothing about the page: it stays online.
    let c = s.observe(&[seen(a, Seen::Unreachable { reason: "HTTP 503".into() })], 2 * day).unwrap();
    assert_eq!(c.unreachable.len(), 1);
    assert!(c.gone.is_empty());
    assert_eq!(s.copies().unwrap()[0].tracking.status, CopyStatus::Online);
    // 410 takes it down; seen copying again, it is back (same address).
    let c = s.observe(&[seen(a, Seen::Missing { status: 410 })], 3 * day).unwrap();
    assert_eq!(c.gone[0].detail, "HTTP 410: the page was removed");
    let gone = &s.copies().unwrap()[0];
    assert_eq!((gone.tracking.status, gone.tracking.gone_at), (CopyStatus::Gone, Some(3 * day)));
    // Still gone: a second 404 changes nothing and adds no event.
    assert!(s.observe(&[seen(a, Seen::Missing { status: 404 })], 4 * day).unwrap().gone.is_empty());
    let c = s.observe(&[seen(a, copies(1))], 5 * day).unwrap();
    assert_eq!(c.back.len(), 1);
    let back = &s.copies().unwrap()[0];
    assert_eq!(
        (back.tracking.status, back.tracking.gone_at, back.tracking.last_seen),
        (CopyStatus::Online, None, 5 * day)
    );
    let events: Vec<&str> = back.history.iter().map(|e| e.event.as_str()).collect();
    assert_eq!(events, ["new", "gone", "back"]);
    // Another work on the same site is new, not the same copy back elsewhere.
    let c = s.observe(&[seen(b, copies(2))], 6 * day).unwrap();
    assert_eq!(c.new.len(), 1);
}

#[test]
fn a_write_that_reads_first_waits_for_another_connections_write_instead_of_failing() {
    // The app and the CLI on one store: the app records a finding (reads, then writes)
    // while the CLI's import holds the write lock. A deferred transaction would read a
    // snapshot the import then makes stale, and fail with "database is locked".
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    let mut a = Store::open(&path, FingerprintParams::default()).unwrap();
    let mut b = Store::open(&path, FingerprintParams::default()).unwrap();
    let (holding, held) = std::sync::mpsc::channel();
    let writer = std::thread::spawn(move || {
        a.write_transaction(|tx| {
            tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')", [])?;
            holding.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            Ok(())
        })
    });
    held.recv().unwrap();
    b.write_transaction(|tx| {
        let n: i64 = tx.query_row("SELECT COUNT(*) FROM meta", [], |r| r.get(0))?;
        tx.execute("INSERT INTO meta (key, value) VALUES ('b', ?1)", [n.to_string()])?;
        Ok(())
    })
    .expect("the second write waits for the first");
    writer.join().unwrap().unwrap();
    let seen: String = b.conn.query_row("SELECT value FROM meta WHERE key = 'b'", [], |r| r.get(0)).unwrap();
    let before: i64 = seen.parse().unwrap();
    let all: i64 = b.conn.query_row("SELECT COUNT(*) FROM meta", [], |r| r.get(0)).unwrap();
    assert_eq!(before + 1, all, "the second write saw the first one's row");
}

/// A store as Zhiwen wrote it before works (schema 5), with documents in two folders and
/// one alone in a third.
fn version_5_store(path: &Path) {
    let conn = Connection::open(path).unwrap();
    for step in &schema::MIGRATIONS[..5] {
        match step {
            schema::Migration::Sql(sql) => conn.execute_batch(sql).unwrap(),
            schema::Migration::Code(f) => f(&conn).unwrap(),
        }
    }
    conn.execute_batch("PRAGMA user_version = 5").unwrap();
    write_params(&conn, &FingerprintParams::default()).unwrap();
    for (id, path, title) in [
        (1u32, "/lib/xiyouji/10.txt", "第十回"),
        (2, "/lib/xiyouji/2.txt", "第二回"),
        (3, "/lib/hongloumeng/000.txt", "第一回 甄士隐梦幻识通灵"),
        (4, "/lib/xiyouji/1.txt", "第一回"),
        (5, "/lib/hongloumeng/001.txt", "第二回 贾夫人仙逝扬州城"),
        (6, "/notes/essay.txt", "An essay"),
    ] {
        conn.execute(
            "INSERT INTO documents VALUES (?1, ?2, ?3, 1, 'h', 10, 0, 0, 'UTF-8', '甲乙丙')",
            params![id, path, title],
        )
        .unwrap();
        conn.execute("INSERT INTO windows VALUES (?1, x'', x'')", [id]).unwrap();
    }
}

#[test]
fn an_older_store_gets_works_by_folder_in_file_name_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v5.sqlite");
    version_5_store(&path);
    let s = Store::open(&path, FingerprintParams::default()).unwrap();
    let works = s.works().unwrap();
    let summary: Vec<(&str, &[u32])> = works.iter().map(|w| (w.title.as_str(), w.documents.as_slice())).collect();
    assert_eq!(summary, [("An essay", &[6][..]), ("hongloumeng", &[3, 5][..]), ("xiyouji", &[4, 2, 1][..])]);
    assert_eq!(s.work_of(2).unwrap().unwrap().title, "xiyouji");
    assert!(s.verify().unwrap().is_empty());
}

#[test]
fn edits_merges_and_moves_keep_every_document_in_one_work() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v5.sqlite");
    version_5_store(&path);
    let mut s = Store::open(&path, FingerprintParams::default()).unwrap();
    let id_of = |s: &Store, title: &str| s.works().unwrap().iter().find(|w| w.title == title).unwrap().id;
    let (xyj, hlm, essay) = (id_of(&s, "xiyouji"), id_of(&s, "hongloumeng"), id_of(&s, "An essay"));
    let edit = WorkEdit {
        title: Some("西游记".into()),
        authors: Some(vec!["吴承恩".into(), " ".into()]),
        holder: Some("某出版社".into()),
        ..Default::default()
    };
    s.edit_work(xyj, &edit).unwrap();
    let w = s.work(xyj).unwrap().unwrap();
    assert_eq!(
        (w.title.as_str(), w.authors.as_slice(), w.holder.as_str()),
        ("西游记", &["吴承恩".to_string()][..], "某出版社")
    );
    assert!(s.edit_work(xyj, &WorkEdit { title: Some(" ".into()), ..Default::default() }).is_err());
    assert!(s.edit_work(999, &edit).is_err());

    // The essay goes after the novel's last chapter; its work, now empty, is gone.
    s.move_documents(&[6], &MoveTarget::Work(xyj)).unwrap();
    assert_eq!(s.work(xyj).unwrap().unwrap().documents, [4, 2, 1, 6]);
    assert_eq!(s.work(essay).unwrap(), None);
    // A new work for one chapter takes the old work's authors.
    let new = s.move_documents(&[6], &MoveTarget::NewWork("随笔".into())).unwrap();
    assert_eq!(s.work(new).unwrap().unwrap().authors, ["吴承恩"]);
    s.merge_works(hlm, xyj).unwrap();
    assert_eq!(s.work(xyj).unwrap().unwrap().documents, [4, 2, 1, 3, 5]);
    assert_eq!(s.work(hlm).unwrap(), None);
    assert!(s.merge_works(xyj, xyj).is_err());
    // Removing every chapter of a work removes the work.
    s.remove(&[6]).unwrap();
    assert_eq!(s.work(new).unwrap(), None);
    let placed: u32 = s.conn.query_row("SELECT COUNT(*) FROM work_documents", [], |r| r.get(0)).unwrap();
    assert_eq!(placed, 5);
}
