//! `export --parquet` and `fingerprint --parquet`: what the Spark job reads (its own tests,
//! with Spark, are in spark/tests).

use crate::util::*;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::BTreeSet;
use std::path::Path;

/// (doc_id, ordinal, fingerprint as u64, char_start, char_end) of every row of `dir/windows`.
fn windows(dir: &Path) -> BTreeSet<(i64, i64, u64, i64, i64)> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, Int64Type};
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir.join("windows")).unwrap() {
        let file = std::fs::File::open(entry.unwrap().path()).unwrap();
        for batch in ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap() {
            let b = batch.unwrap();
            let long = |name: &str| b.column_by_name(name).unwrap().as_primitive::<Int64Type>().values().to_vec();
            let ordinal = b.column_by_name("ordinal").unwrap().as_primitive::<Int32Type>().values().to_vec();
            let (doc, fp, start, end) = (long("doc_id"), long("fingerprint"), long("char_start"), long("char_end"));
            for i in 0..b.num_rows() {
                out.insert((doc[i], i64::from(ordinal[i]), fp[i] as u64, start[i], end[i]));
            }
        }
    }
    out
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn export_writes_every_stored_window_as_the_store_holds_it_and_never_overwrites() {
    let dir = imported();
    let out = dir.path().join("export");
    zhiwen(dir.path()).args(["export", "--parquet"]).arg(&out).assert().success();
    let m = manifest(&out);
    assert_eq!(m["format"], "zhiwen-parquet");
    assert_eq!(m["kind"], "corpus");
    assert_eq!(m["max_distance"], 3);
    assert_eq!(m["key_design"]["tables"], 4);
    assert_eq!(m["documents"], 5);

    let store = zhiwen::engine::store::Store::open(&dir.path().join("corpus.sqlite"), Default::default()).unwrap();
    assert_eq!(m["fingerprint_params"], serde_json::to_value(store.params()).unwrap());
    let mut want = BTreeSet::new();
    store
        .for_each_documents_windows(|doc, fps, spans| {
            for (i, (fp, (s, e))) in fps.into_iter().zip(spans).enumerate() {
                want.insert((i64::from(doc), i as i64, fp, i64::from(s), i64::from(e)));
            }
            Ok(())
        })
        .unwrap();
    let got = windows(&out);
    assert_eq!(got, want, "every stored window, its u64 fingerprint bit for bit");
    assert_eq!(m["windows"], got.len());
    assert!(got.iter().any(|w| w.2 >= 1 << 63), "fingerprints with the top bit set survive");

    // An existing export is never written over, and no partial folder is left behind.
    let again = zhiwen(dir.path()).args(["export", "--parquet"]).arg(&out).assert().code(2);
    let err = String::from_utf8_lossy(&again.get_output().stderr).into_owned();
    assert!(err.contains("not empty") && err.contains("export"), "{err}");
    assert!(!dir.path().join("export.partial").exists());
    assert_eq!(windows(&out), want);
}

#[test]
fn suspects_are_fingerprinted_as_a_check_queries_them_and_bad_files_are_named() {
    let dir = imported();
    let out = dir.path().join("suspects");
    let good = suspect("ads_xiyouji_000.txt");
    let assert = zhiwen(dir.path())
        .args(["fingerprint", "--parquet"])
        .arg(&out)
        .arg(&good)
        .arg(suspect("empty.txt"))
        .arg(dir.path().join("no-such-folder"))
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("empty.txt") && err.contains("empty"), "{err}");
    assert!(err.lines().any(|l| l.contains("no-such-folder") && l.contains("No such file")), "{err}");
    let m = manifest(&out);
    assert_eq!(m["kind"], "suspects");
    assert_eq!(m["documents"], 1);
    // Both, in the manifest the run's report reads its failed suspects from.
    let failed = m["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert!(failed.iter().any(|f| f["path"].as_str().unwrap().ends_with("no-such-folder")));

    let text = read_text(&good);
    let params: zhiwen::FingerprintParams = serde_json::from_value(m["fingerprint_params"].clone()).unwrap();
    let tokens = zhiwen::engine::normalize::tokenize(&text);
    let (spans, fps) = zhiwen::engine::simhash::query_fingerprints(&tokens, &params);
    let want: BTreeSet<_> = spans
        .iter()
        .zip(fps)
        .enumerate()
        .map(|(i, (s, fp))| (1, i as i64, fp, i64::from(tokens[s.start].start), i64::from(tokens[s.end - 1].end)))
        .collect();
    assert!(want.len() > 100);
    assert_eq!(windows(&out), want);
}

/// A run folder as the Spark job writes it, its passages taken from `check --json` on the
/// same suspects (what the job's kernels give, as spark/tests shows): so `report
/// --from-parquet` and the app's *Open Spark run…* are tested without Java. Returns the
/// run folder and the check's JSON.
pub fn run_from_check(dir: &Path, suspects: &[std::path::PathBuf]) -> (std::path::PathBuf, serde_json::Value) {
    use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch};
    use std::sync::Arc;
    let export = dir.join("export");
    let fingerprinted = dir.join("suspects");
    zhiwen(dir).args(["export", "--parquet"]).arg(&export).assert().success();
    zhiwen(dir).args(["fingerprint", "--parquet"]).arg(&fingerprinted).args(suspects).assert().success();
    let (check, _) = check_json(dir, suspects);
    let mut rows: Vec<[f64; 12]> = Vec::new();
    for (i, s) in check["suspects"].as_array().unwrap().iter().enumerate() {
        for src in s["sources"].as_array().unwrap() {
            for p in src["passages"].as_array().unwrap() {
                let n = |v: &serde_json::Value| v.as_f64().unwrap();
                rows.push([
                    (i + 1) as f64,
                    n(&src["id"]),
                    n(&p["suspect_start"]),
                    n(&p["suspect_end"]),
                    n(&p["source_start"]),
                    n(&p["source_end"]),
                    n(&p["distance"]),
                    n(&p["containment"]),
                    n(&p["evidence_bits"]),
                    n(&p["region"]),
                    n(&src["similarity"]),
                    n(&src["source_coverage"]),
                ]);
            }
        }
    }
    // Spark writes rows in any order.
    rows.reverse();
    let names = [
        "suspect_id",
        "source_id",
        "suspect_start",
        "suspect_end",
        "source_start",
        "source_end",
        "distance",
        "containment",
        "evidence_bits",
        "region",
        "similarity",
        "source_coverage",
    ];
    let columns: Vec<(&str, ArrayRef)> = names
        .iter()
        .enumerate()
        .map(|(c, &name)| {
            let array: ArrayRef = if matches!(name, "containment" | "evidence_bits" | "similarity" | "source_coverage")
            {
                Arc::new(Float64Array::from_iter_values(rows.iter().map(|r| r[c])))
            } else {
                Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r[c] as i64)))
            };
            (name, array)
        })
        .collect();
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let run = dir.join("runs").join("r1");
    std::fs::create_dir_all(run.join("passages")).unwrap();
    let file = std::fs::File::create(run.join("passages").join("part-00000-x.snappy.parquet")).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    std::fs::write(run.join("passages").join("_SUCCESS"), "").unwrap();
    let manifest = serde_json::json!({
        "format": "zhiwen-spark-run", "run_id": "r1", "mode": "check",
        "corpus": export, "suspects": fingerprinted, "max_distance": 3, "check_options": null,
        "stats": {"hits": 1}
    });
    std::fs::write(run.join("manifest.json"), manifest.to_string()).unwrap();
    (run, check)
}

#[test]
fn report_from_a_run_gives_the_json_html_and_csv_of_check() {
    let dir = imported();
    let suspects = [
        suspect("ads_xiyouji_000.txt"),
        suspect("unrelated_rulinwaishi_003.txt"),
        suspect("gbk_homophones_hongloumeng_000.txt"),
    ];
    let (run, check) = run_from_check(dir.path(), &suspects);
    let out = zhiwen(dir.path()).args(["report", "--json", "--from-parquet"]).arg(&run).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Everything `check` says about the suspects, similarity (recomputed from the
    // passages) included, and the corpus and settings it ran with.
    assert_eq!(from_run["suspects"], check["suspects"]);
    assert_eq!(from_run["corpus"], check["corpus"]);
    assert_eq!(from_run["settings"], check["settings"]);
    assert!(check["suspects"][0]["sources"].as_array().unwrap().len() == 1);

    let html = dir.path().join("html");
    zhiwen(dir.path()).args(["report", "--from-parquet"]).arg(&run).arg("--report").arg(&html).assert().success();
    let index = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(index.contains("ads_xiyouji_000.txt"));
    let csv = dir.path().join("p.csv");
    zhiwen(dir.path()).args(["report", "--from-parquet"]).arg(&run).arg("--csv").arg(&csv).assert().success();
    zhiwen(dir.path()).args(["check", "--csv"]).arg(dir.path().join("c.csv")).args(&suspects).assert().success();
    assert_eq!(std::fs::read(&csv).unwrap(), std::fs::read(dir.path().join("c.csv")).unwrap());

    // A run and its exports moved elsewhere (copied home from a cluster): named on the
    // command line, the same reports; not named, one message saying what is missing.
    let moved = dir.path().join("moved");
    std::fs::create_dir(&moved).unwrap();
    for name in ["export", "suspects"] {
        std::fs::rename(dir.path().join(name), moved.join(name)).unwrap();
    }
    let out = zhiwen(dir.path())
        .args(["report", "--json", "--from-parquet"])
        .arg(&run)
        .arg("--corpus")
        .arg(moved.join("export"))
        .arg("--suspects")
        .arg(moved.join("suspects"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let moved_json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(moved_json["suspects"], check["suspects"]);
    let lost = zhiwen(dir.path()).args(["report", "--from-parquet"]).arg(&run).assert().code(2);
    let err = String::from_utf8_lossy(&lost.get_output().stderr).into_owned();
    assert!(err.contains("export") && err.contains("manifest.json"), "{err}");

    // A folder that is no run gets one message naming it.
    let bad = zhiwen(dir.path()).args(["report", "--from-parquet"]).arg(dir.path()).assert().code(2);
    let err = String::from_utf8_lossy(&bad.get_output().stderr).into_owned();
    assert!(err.contains("manifest.json"), "{err}");
}

#[test]
fn a_cancelled_export_leaves_no_folder_behind() {
    let dir = imported();
    let store = zhiwen::engine::store::Store::open(&dir.path().join("corpus.sqlite"), Default::default()).unwrap();
    let cancel = zhiwen::Cancel::new();
    let seen = std::sync::atomic::AtomicUsize::new(0);
    // Cancelled after the second document (as Ctrl-C would be).
    let progress = |p: &zhiwen::Progress| {
        if seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            cancel.cancel();
        }
        assert_eq!(p.files_total, 5);
    };
    let out = dir.path().join("export");
    let result = zhiwen::scaleout::export::export_corpus(&store, &out, &progress, &cancel);
    assert!(matches!(result, Err(zhiwen::Error::Cancelled)), "{result:?}");
    assert!(!out.exists() && !dir.path().join("export.partial").exists());
}
