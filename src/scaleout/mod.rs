//! Beyond one machine: the corpus and batches of suspects as Parquet folders that the
//! Spark job in `spark/` joins exactly ([`crate::engine::index::group_join`]), and a run's
//! results read back into the reports `check` makes.
//!
//! An export folder (`zhiwen export --parquet`, `zhiwen fingerprint --parquet`):
//!
//! ```text
//! manifest.json       Manifest: kind, fingerprint parameters, k, the key design
//! documents/*.parquet id, path, title, chars, text_sha256
//! texts/*.parquet     id, text
//! windows/*.parquet   doc_id, ordinal, fingerprint, char_start, char_end
//! ```
//!
//! Fingerprints are `i64`, the `u64` bit-cast: Spark has no unsigned 64-bit type and reads
//! Parquet's UINT_64 as a decimal. A run folder (written by the job) holds `manifest.json`
//! ([`run::RunManifest`]) and `hits/`, `passages/`, `doc_pairs/`.
//!
//! Folders are written under a temporary name and renamed when complete, so a crash or a
//! cancel never leaves a folder that looks whole.

pub mod export;
pub mod run;

use crate::engine::index::group_join;
use crate::engine::params::FingerprintParams;
use crate::{Error, Result};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What `manifest.json` says a folder is.
pub const FORMAT: &str = "zhiwen-parquet";
/// The layout version of export folders; a reader refuses a newer one.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportKind {
    /// A store's documents and their stored windows.
    Corpus,
    /// Files fingerprinted as suspects: their query windows.
    Suspects,
}

/// `manifest.json` of an export folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub schema_version: u32,
    pub kind: ExportKind,
    pub zhiwen_version: String,
    /// The parameters the windows were made with; a corpus and suspects must agree.
    pub fingerprint_params: FingerprintParams,
    /// The distance the join is exact for.
    pub max_distance: u32,
    pub key_design: KeyDesign,
    pub documents: u64,
    pub windows: u64,
    /// Suspects that could not be read, each with its message (suspect exports only).
    #[serde(default)]
    pub failed: Vec<FailedFile>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedFile {
    pub path: String,
    pub error: String,
}

/// How the job keys the join, so a run can be checked against the export it read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyDesign {
    /// Groups per window: (table t, 16-bit block t of the fingerprint).
    pub tables: u32,
    pub block_bits: u32,
    /// Inside a group: the other bits in blocks of this size, this many of which agree.
    pub local_blocks: u32,
    pub local_block_bits: u32,
    pub local_blocks_agreeing: u32,
    pub local_tables: u32,
}

impl KeyDesign {
    pub fn current() -> KeyDesign {
        KeyDesign {
            tables: group_join::TABLES as u32,
            block_bits: 16,
            local_blocks: 6,
            local_block_bits: 8,
            local_blocks_agreeing: 3,
            local_tables: group_join::COMBINATIONS as u32,
        }
    }
}

impl Manifest {
    fn new(kind: ExportKind, params: FingerprintParams) -> Manifest {
        Manifest {
            format: FORMAT.to_string(),
            schema_version: SCHEMA_VERSION,
            kind,
            zhiwen_version: env!("CARGO_PKG_VERSION").to_string(),
            fingerprint_params: params,
            max_distance: group_join::MAX_DISTANCE,
            key_design: KeyDesign::current(),
            documents: 0,
            windows: 0,
            failed: Vec::new(),
        }
    }

    /// Reads and checks `dir/manifest.json`.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join("manifest.json");
        let bytes = std::fs::read(&path).map_err(|e| Error::Io { path: path.clone(), source: e })?;
        let not_export = |e: serde_json::Error| parquet_error(&path, format!("not a Zhiwen export manifest ({e})"));
        // The format and version first: a newer layout may have other fields.
        #[derive(Deserialize)]
        struct Version {
            format: String,
            schema_version: u32,
        }
        let v: Version = serde_json::from_slice(&bytes).map_err(not_export)?;
        if v.format != FORMAT || v.schema_version > SCHEMA_VERSION {
            return Err(parquet_error(
                &path,
                format!("format {} version {} is not one this Zhiwen reads", v.format, v.schema_version),
            ));
        }
        serde_json::from_slice(&bytes).map_err(not_export)
    }
}

pub(crate) fn parquet_error(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::Parquet { path: path.to_path_buf(), reason: reason.to_string() }
}

/// A folder being written: everything goes to `<dir>.partial`, renamed to `dir` by
/// [`PartialFolder::finish`]; dropped unfinished, it is removed.
pub(crate) struct PartialFolder {
    partial: PathBuf,
    dir: PathBuf,
    done: bool,
}

impl PartialFolder {
    /// Refuses a `dir` that exists and is not empty (an export is never written over).
    pub(crate) fn create(dir: &Path) -> Result<PartialFolder> {
        if dir.read_dir().is_ok_and(|mut entries| entries.next().is_some()) {
            return Err(parquet_error(dir, "the folder exists and is not empty; choose a new one"));
        }
        let mut name = dir.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "export".into());
        name.push(".partial");
        let partial = dir.with_file_name(name);
        let io = |e| Error::Io { path: partial.clone(), source: e };
        if partial.exists() {
            std::fs::remove_dir_all(&partial).map_err(io)?;
        }
        std::fs::create_dir_all(&partial).map_err(io)?;
        Ok(PartialFolder { partial, dir: dir.to_path_buf(), done: false })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.partial
    }

    /// Writes `manifest.json` last and moves the folder into place.
    pub(crate) fn finish(mut self, manifest: &impl Serialize) -> Result<()> {
        let path = self.partial.join("manifest.json");
        let json = serde_json::to_vec_pretty(manifest).expect("a manifest serializes");
        std::fs::write(&path, json).map_err(|e| Error::Io { path: path.clone(), source: e })?;
        if self.dir.exists() {
            std::fs::remove_dir(&self.dir).map_err(|e| Error::Io { path: self.dir.clone(), source: e })?;
        }
        std::fs::rename(&self.partial, &self.dir).map_err(|e| Error::Io { path: self.dir.clone(), source: e })?;
        self.done = true;
        Ok(())
    }
}

impl Drop for PartialFolder {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.partial);
        }
    }
}

/// Rows in one Parquet file of a table; more make another file (`part-00001.parquet`, …),
/// so Spark reads a large table in parallel.
const ROWS_PER_PART: usize = 1 << 23;

/// One table of a folder (`dir/name/part-*.parquet`), written a batch at a time.
pub(crate) struct TableWriter {
    dir: PathBuf,
    schema: arrow_schema::SchemaRef,
    writer: Option<ArrowWriter<std::fs::File>>,
    parts: usize,
    rows_in_part: usize,
}

impl TableWriter {
    pub(crate) fn create(folder: &Path, name: &str, schema: arrow_schema::Schema) -> Result<TableWriter> {
        let dir = folder.join(name);
        std::fs::create_dir_all(&dir).map_err(|e| Error::Io { path: dir.clone(), source: e })?;
        Ok(TableWriter { dir, schema: Arc::new(schema), writer: None, parts: 0, rows_in_part: 0 })
    }

    pub(crate) fn schema(&self) -> arrow_schema::SchemaRef {
        self.schema.clone()
    }

    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if self.writer.is_none() || self.rows_in_part >= ROWS_PER_PART {
            self.close_part()?;
            let path = self.dir.join(format!("part-{:05}.parquet", self.parts));
            let file = std::fs::File::create(&path).map_err(|e| Error::Io { path: path.clone(), source: e })?;
            let props = parquet::file::properties::WriterProperties::builder()
                .set_compression(parquet::basic::Compression::SNAPPY)
                .build();
            self.writer = Some(
                ArrowWriter::try_new(file, self.schema.clone(), Some(props)).map_err(|e| parquet_error(&path, e))?,
            );
            self.parts += 1;
            self.rows_in_part = 0;
        }
        let writer = self.writer.as_mut().expect("opened above");
        writer.write(batch).map_err(|e| parquet_error(&self.dir, e))?;
        self.rows_in_part += batch.num_rows();
        Ok(())
    }

    fn close_part(&mut self) -> Result<()> {
        if let Some(w) = self.writer.take() {
            w.close().map_err(|e| parquet_error(&self.dir, e))?;
        }
        Ok(())
    }

    /// Closes the last file; a table with no rows gets one empty file (so it has a schema).
    pub(crate) fn finish(mut self) -> Result<()> {
        if self.parts == 0 {
            self.write(&RecordBatch::new_empty(self.schema.clone()))?;
        }
        self.close_part()
    }
}

/// Every row batch of the table `dir/name` (Parquet files in name order; Spark's
/// `_SUCCESS` and checksum files are skipped).
pub(crate) fn read_table(dir: &Path, name: &str) -> Result<Vec<RecordBatch>> {
    let table = dir.join(name);
    let entries = std::fs::read_dir(&table).map_err(|e| Error::Io { path: table.clone(), source: e })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect();
    files.sort();
    let mut batches = Vec::new();
    for path in files {
        let file = std::fs::File::open(&path).map_err(|e| Error::Io { path: path.clone(), source: e })?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .and_then(|b| b.build())
            .map_err(|e| parquet_error(&path, e))?;
        for batch in reader {
            batches.push(batch.map_err(|e| parquet_error(&path, e))?);
        }
    }
    Ok(batches)
}

fn column<'a>(batch: &'a RecordBatch, name: &str, table: &Path) -> Result<&'a arrow_array::ArrayRef> {
    batch.column_by_name(name).ok_or_else(|| parquet_error(table, format!("no column {name}")))
}

/// A column of integers (Spark's int or long) as `i64`s.
pub(crate) fn int_column(batch: &RecordBatch, name: &str, table: &Path) -> Result<Vec<i64>> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, Int64Type};
    let column = column(batch, name, table)?;
    match column.data_type() {
        arrow_schema::DataType::Int64 => {
            Ok(column.as_primitive::<Int64Type>().iter().map(|v| v.unwrap_or(0)).collect())
        }
        arrow_schema::DataType::Int32 => {
            Ok(column.as_primitive::<Int32Type>().iter().map(|v| i64::from(v.unwrap_or(0))).collect())
        }
        other => Err(parquet_error(table, format!("column {name} is {other}, not an integer"))),
    }
}

/// A column of floating-point numbers.
pub(crate) fn float_column(batch: &RecordBatch, name: &str, table: &Path) -> Result<Vec<f64>> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Float64Type;
    let column = column(batch, name, table)?;
    match column.data_type() {
        arrow_schema::DataType::Float64 => {
            Ok(column.as_primitive::<Float64Type>().iter().map(|v| v.unwrap_or(0.0)).collect())
        }
        other => Err(parquet_error(table, format!("column {name} is {other}, not a double"))),
    }
}

/// A column of strings.
pub(crate) fn string_column(batch: &RecordBatch, name: &str, table: &Path) -> Result<Vec<String>> {
    use arrow_array::cast::AsArray;
    let column = column(batch, name, table)?;
    match column.data_type() {
        arrow_schema::DataType::Utf8 => {
            Ok(column.as_string::<i32>().iter().map(|v| v.unwrap_or_default().to_string()).collect())
        }
        arrow_schema::DataType::LargeUtf8 => {
            Ok(column.as_string::<i64>().iter().map(|v| v.unwrap_or_default().to_string()).collect())
        }
        other => Err(parquet_error(table, format!("column {name} is {other}, not a string"))),
    }
}

/// A fingerprint as Spark and Parquet hold it.
pub fn fingerprint_to_i64(fp: u64) -> i64 {
    fp as i64
}

pub fn fingerprint_from_i64(v: i64) -> u64 {
    v as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{ArrayRef, Int64Array};
    use arrow_schema::{DataType, Field, Schema};

    #[test]
    fn u64_fingerprints_survive_the_parquet_round_trip_bit_for_bit() {
        let dir = tempfile::tempdir().unwrap();
        let fps = [0u64, 1, (1 << 63) - 1, 1 << 63, u64::MAX, 0xdead_beef_f00d_cafe];
        let schema = Schema::new(vec![Field::new("fingerprint", DataType::Int64, false)]);
        let mut w = TableWriter::create(dir.path(), "windows", schema).unwrap();
        let column: ArrayRef = Arc::new(Int64Array::from_iter_values(fps.iter().map(|&f| fingerprint_to_i64(f))));
        w.write(&RecordBatch::try_new(w.schema(), vec![column]).unwrap()).unwrap();
        w.finish().unwrap();
        let batches = read_table(dir.path(), "windows").unwrap();
        let back: Vec<u64> = batches
            .iter()
            .flat_map(|b| int_column(b, "fingerprint", dir.path()).unwrap())
            .map(fingerprint_from_i64)
            .collect();
        assert_eq!(back, fps);
    }

    #[test]
    fn a_manifest_of_a_newer_layout_or_another_format_is_refused_with_its_version() {
        let dir = tempfile::tempdir().unwrap();
        let write = |json: &str| std::fs::write(dir.path().join("manifest.json"), json).unwrap();
        write(r#"{"format": "zhiwen-parquet", "schema_version": 99, "something": "new"}"#);
        let e = Manifest::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("version 99") && e.contains("manifest.json"), "{e}");
        write(r#"{"format": "other", "schema_version": 1}"#);
        assert!(Manifest::read(dir.path()).unwrap_err().to_string().contains("format other"));
        write("not json");
        assert!(Manifest::read(dir.path()).unwrap_err().to_string().contains("not a Zhiwen export manifest"));
    }

    #[test]
    fn an_unfinished_folder_is_removed_and_a_finished_one_appears_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out");
        {
            let folder = PartialFolder::create(&target).unwrap();
            std::fs::write(folder.path().join("half"), "x").unwrap();
        }
        assert!(!target.exists() && !dir.path().join("out.partial").exists());
        let folder = PartialFolder::create(&target).unwrap();
        std::fs::write(folder.path().join("whole"), "x").unwrap();
        folder.finish(&serde_json::json!({"format": FORMAT})).unwrap();
        assert!(target.join("whole").exists() && target.join("manifest.json").exists());
        assert!(PartialFolder::create(&target).is_err(), "a folder with an export is never written over");
    }
}
