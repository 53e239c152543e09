//! Zhiwen's kernels for the Spark job, Arrow in and Arrow out. Each is a thin adapter:
//! the join is `zhiwen::engine::index::group_join`, the passages are
//! `zhiwen::engine::check::match_pair`, the windows of raw texts are
//! `zhiwen::engine::simhash::stored_windows` of `normalize::tokens`, the same code a
//! single-machine import and check run.
//! The GIL is released while they compute, so Spark's Python workers run them in parallel.

use arrow::pyarrow::{PyArrowType, Table};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, UInt32Array};
use arrow_schema::{DataType, Field, Schema};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;
use zhiwen::engine::check::{CheckOptions, SourceDoc, WindowHit, match_pair};
use zhiwen::engine::index::group_join::{self, Combination, GroupPair};
use zhiwen::engine::params::FingerprintParams;

fn bad(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A column of a table as `i64`s (Spark hands over int or long).
fn ints(table: &Table, name: &str) -> PyResult<Vec<i64>> {
    let mut out = Vec::new();
    for batch in table.record_batches() {
        let column = batch.column_by_name(name).ok_or_else(|| bad(format!("no column {name}")))?;
        match column.data_type() {
            DataType::Int64 => out.extend(column.as_primitive::<Int64Type>().iter().map(|v| v.unwrap_or(0))),
            DataType::Int32 => out.extend(column.as_primitive::<Int32Type>().iter().map(|v| i64::from(v.unwrap_or(0)))),
            other => return Err(bad(format!("column {name} is {other}, not an integer"))),
        }
    }
    Ok(out)
}

/// `Err` unless `t` names a table and the join is exact at `max_distance`.
fn in_range(t: usize, max_distance: u32) -> PyResult<()> {
    if t >= group_join::TABLES || max_distance > group_join::MAX_DISTANCE {
        return Err(bad(format!("table {t} or distance {max_distance} out of range")));
    }
    Ok(())
}

fn table(columns: Vec<(&str, ArrayRef)>) -> PyResult<PyArrowType<Table>> {
    let schema = Arc::new(Schema::new(
        columns.iter().map(|(name, a)| Field::new(*name, a.data_type().clone(), false)).collect::<Vec<_>>(),
    ));
    let batch = RecordBatch::try_new(schema.clone(), columns.into_iter().map(|(_, a)| a).collect()).map_err(bad)?;
    Ok(PyArrowType(Table::try_new(vec![batch], schema).map_err(bad)?))
}

/// The window pairs within `max_distance` that group `t` owns. `left` and `right` have
/// columns `doc_id`, `ordinal`, `fingerprint` (the u64 bit-cast to i64); without `right`
/// the group is joined with itself. `combination` is -1 for a whole group, or the local
/// combination (0..20) of a hot group's sub-group. Returns `left_doc`, `left_ordinal`,
/// `right_doc`, `right_ordinal`, `distance`.
#[pyfunction]
#[pyo3(signature = (t, combination, left, right=None, max_distance=3))]
fn join_group(
    py: Python<'_>,
    t: usize,
    combination: i64,
    left: PyArrowType<Table>,
    right: Option<PyArrowType<Table>>,
    max_distance: u32,
) -> PyResult<PyArrowType<Table>> {
    in_range(t, max_distance)?;
    let combination = match combination {
        -1 => Combination::All,
        c if (0..group_join::COMBINATIONS as i64).contains(&c) => Combination::Fixed(c as usize),
        c => return Err(bad(format!("no combination {c}"))),
    };
    let side = |t: &Table| -> PyResult<(Vec<i64>, Vec<i64>, Vec<u64>)> {
        let fps = ints(t, "fingerprint")?.into_iter().map(|v| v as u64).collect();
        Ok((ints(t, "doc_id")?, ints(t, "ordinal")?, fps))
    };
    let l = side(&left.0)?;
    let r = right.as_ref().map(|r| side(&r.0)).transpose()?;
    let pairs = py.detach(|| {
        let mut out: Vec<GroupPair> = Vec::new();
        group_join::join_group(t, &l.2, r.as_ref().map(|r| r.2.as_slice()), combination, max_distance, &mut out);
        out
    });
    let r = r.as_ref().unwrap_or(&l);
    pairs_table(&pairs, (&l.0, &l.1), (&r.0, &r.1))
}

/// [`join_group`] over many whole groups of table `t` in one call: `left` and `right`
/// also have a `key` column (the group's 16-bit block), and only rows of the same key
/// are joined. The job sends a batch of groups per call so the call's fixed cost is paid
/// per batch. Returns the same columns as `join_group`.
#[pyfunction]
#[pyo3(signature = (t, left, right=None, max_distance=3))]
fn join_groups(
    py: Python<'_>,
    t: usize,
    left: PyArrowType<Table>,
    right: Option<PyArrowType<Table>>,
    max_distance: u32,
) -> PyResult<PyArrowType<Table>> {
    in_range(t, max_distance)?;
    let side = |t: &Table| -> PyResult<(Vec<i64>, Vec<i64>, Vec<(u32, u64)>)> {
        let keyed = ints(t, "key")?.into_iter().zip(ints(t, "fingerprint")?).map(|(k, f)| (k as u32, f as u64));
        Ok((ints(t, "doc_id")?, ints(t, "ordinal")?, keyed.collect()))
    };
    let l = side(&left.0)?;
    let r = right.as_ref().map(|r| side(&r.0)).transpose()?;
    let pairs = py.detach(|| {
        let mut out: Vec<GroupPair> = Vec::new();
        group_join::join_groups(t, &l.2, r.as_ref().map(|r| r.2.as_slice()), max_distance, &mut out);
        out
    });
    let r = r.as_ref().unwrap_or(&l);
    pairs_table(&pairs, (&l.0, &l.1), (&r.0, &r.1))
}

/// The output of the join kernels: the pairs' documents and ordinals on each side.
fn pairs_table(pairs: &[GroupPair], l: (&[i64], &[i64]), r: (&[i64], &[i64])) -> PyResult<PyArrowType<Table>> {
    let pick = |v: &[i64], i: fn(&GroupPair) -> u32| -> ArrayRef {
        Arc::new(Int64Array::from_iter_values(pairs.iter().map(|p| v[i(p) as usize])))
    };
    table(vec![
        ("left_doc", pick(l.0, |p| p.left)),
        ("left_ordinal", pick(l.1, |p| p.left)),
        ("right_doc", pick(r.0, |p| p.right)),
        ("right_ordinal", pick(r.1, |p| p.right)),
        ("distance", Arc::new(Int32Array::from_iter_values(pairs.iter().map(|p| p.distance as i32)))),
    ])
}

/// The sub-groups a hot group's windows go to: for each row of `batch` (columns `t`,
/// `fingerprint`), 20 rows of (`row`, `combination`, `sub_key`), one per local combination.
#[pyfunction]
fn sub_keys(py: Python<'_>, batch: PyArrowType<Table>) -> PyResult<PyArrowType<Table>> {
    let ts = ints(&batch.0, "t")?;
    let fps = ints(&batch.0, "fingerprint")?;
    if ts.iter().any(|&t| !(0..group_join::TABLES as i64).contains(&t)) {
        return Err(bad("t out of range"));
    }
    let (rows, combos, keys) = py.detach(|| {
        let n = ts.len() * group_join::COMBINATIONS;
        let (mut rows, mut combos, mut keys) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        for (i, (&t, &fp)) in ts.iter().zip(&fps).enumerate() {
            for c in 0..group_join::COMBINATIONS {
                rows.push(i as u32);
                combos.push(c as i32);
                keys.push(i64::from(group_join::sub_key(fp as u64, t as usize, c)));
            }
        }
        (rows, combos, keys)
    });
    table(vec![
        ("row", Arc::new(UInt32Array::from(rows))),
        ("combination", Arc::new(Int32Array::from(combos))),
        ("sub_key", Arc::new(Int64Array::from(keys))),
    ])
}

/// The passages between one suspect and one source from their window pairs (`hits`:
/// `suspect_ordinal`, `source_ordinal`, `distance`), as `check` makes them. `params` is
/// the export manifest's `fingerprint_params` as JSON; `options` the check options as
/// JSON (empty for the defaults). Returns one row per passage, with the pair's
/// `similarity` and `source_coverage` on each.
#[pyfunction]
#[pyo3(signature = (hits, suspect_text, source_id, source_text, params, options=""))]
fn match_passages(
    py: Python<'_>,
    hits: PyArrowType<Table>,
    suspect_text: String,
    source_id: u32,
    source_text: String,
    params: &str,
    options: &str,
) -> PyResult<PyArrowType<Table>> {
    let params: FingerprintParams = serde_json::from_str(params).map_err(bad)?;
    let options: CheckOptions =
        if options.is_empty() { CheckOptions::default() } else { serde_json::from_str(options).map_err(bad)? };
    let (q, s, d) = (ints(&hits.0, "suspect_ordinal")?, ints(&hits.0, "source_ordinal")?, ints(&hits.0, "distance")?);
    let hits: Vec<WindowHit> = (0..q.len()).map(|i| (q[i] as u32, s[i] as u32, d[i] as u32)).collect();
    let found = py.detach(|| {
        let source = SourceDoc { path: String::new(), title: String::new(), text: source_text };
        match_pair(&suspect_text, source_id, source, &hits, &params, &options)
    });
    let passages = found.as_ref().map_or(&[][..], |m| m.passages.as_slice());
    let int = |f: fn(&zhiwen::Passage) -> usize| -> ArrayRef {
        Arc::new(Int64Array::from_iter_values(passages.iter().map(|p| f(p) as i64)))
    };
    let float = |f: fn(&zhiwen::Passage) -> f64| -> ArrayRef {
        Arc::new(Float64Array::from_iter_values(passages.iter().map(f)))
    };
    let (similarity, coverage) = found.as_ref().map_or((0.0, 0.0), |m| (m.similarity, m.source_coverage));
    table(vec![
        ("suspect_start", int(|p| p.suspect_start)),
        ("suspect_end", int(|p| p.suspect_end)),
        ("source_start", int(|p| p.source_start)),
        ("source_end", int(|p| p.source_end)),
        ("distance", int(|p| p.distance as usize)),
        ("containment", float(|p| p.containment)),
        ("evidence_bits", float(|p| p.evidence_bits)),
        ("region", int(|p| p.region)),
        ("similarity", Arc::new(Float64Array::from(vec![similarity; passages.len()]))),
        ("source_coverage", Arc::new(Float64Array::from(vec![coverage; passages.len()]))),
    ])
}

/// The stored windows of each text, as `zhiwen import` makes them: `texts` has columns
/// `id` and `text`; `params` is the fingerprint parameters as JSON (empty: the defaults a
/// new store gets). Returns `doc_id`, `ordinal` (int32), `fingerprint` (the u64 bit-cast to
/// i64), `char_start`, `char_end`: the columns of an export's `windows/`.
#[pyfunction]
#[pyo3(signature = (texts, params=""))]
fn stored_windows(py: Python<'_>, texts: PyArrowType<Table>, params: &str) -> PyResult<PyArrowType<Table>> {
    let params: FingerprintParams =
        if params.is_empty() { FingerprintParams::default() } else { serde_json::from_str(params).map_err(bad)? };
    let ids = ints(&texts.0, "id")?;
    let mut strings: Vec<String> = Vec::with_capacity(ids.len());
    for batch in texts.0.record_batches() {
        let column = batch.column_by_name("text").ok_or_else(|| bad("no column text"))?;
        match column.data_type() {
            DataType::Utf8 => strings.extend(column.as_string::<i32>().iter().map(|t| t.unwrap_or("").to_string())),
            DataType::LargeUtf8 => {
                strings.extend(column.as_string::<i64>().iter().map(|t| t.unwrap_or("").to_string()))
            }
            other => return Err(bad(format!("column text is {other}, not a string"))),
        }
    }
    let (mut doc, mut ordinal, mut fingerprint, mut start, mut end) = (vec![], vec![], vec![], vec![], vec![]);
    py.detach(|| {
        for (id, text) in ids.iter().zip(&strings) {
            let tokens = zhiwen::engine::normalize::tokens(text, params.normalizing);
            for w in zhiwen::engine::simhash::stored_windows(&tokens, &params) {
                doc.push(*id);
                ordinal.push(w.ordinal as i32);
                fingerprint.push(w.fingerprint as i64);
                start.push(w.char_start as i64);
                end.push(w.char_end as i64);
            }
        }
    });
    table(vec![
        ("doc_id", Arc::new(Int64Array::from(doc))),
        ("ordinal", Arc::new(Int32Array::from(ordinal))),
        ("fingerprint", Arc::new(Int64Array::from(fingerprint))),
        ("char_start", Arc::new(Int64Array::from(start))),
        ("char_end", Arc::new(Int64Array::from(end))),
    ])
}

/// The fingerprint parameters a new store gets, as JSON (an export manifest's
/// `fingerprint_params`).
#[pyfunction]
fn default_params() -> PyResult<String> {
    serde_json::to_string(&FingerprintParams::default()).map_err(bad)
}

#[pymodule]
fn zhiwen_kernel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(stored_windows, m)?)?;
    m.add_function(wrap_pyfunction!(default_params, m)?)?;
    m.add_function(wrap_pyfunction!(join_group, m)?)?;
    m.add_function(wrap_pyfunction!(join_groups, m)?)?;
    m.add_function(wrap_pyfunction!(sub_keys, m)?)?;
    m.add_function(wrap_pyfunction!(match_passages, m)?)?;
    m.add("MAX_DISTANCE", group_join::MAX_DISTANCE)?;
    m.add("TABLES", group_join::TABLES)?;
    m.add("COMBINATIONS", group_join::COMBINATIONS)?;
    Ok(())
}
