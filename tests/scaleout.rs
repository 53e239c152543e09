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
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("empty.txt") && err.contains("empty"), "{err}");
    let m = manifest(&out);
    assert_eq!(m["kind"], "suspects");
    assert_eq!(m["documents"], 1);
    assert_eq!(m["failed"].as_array().unwrap().len(), 1);

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
