//! A Spark run's results read back into the reports `check` makes.
//!
//! The job (`spark/zhiwen_spark/job.py`) writes `runs/<id>/` with `manifest.json`
//! ([`RunManifest`]), `hits/` (window pairs), `doc_pairs/` (suspect, source, similarity,
//! coverage, counts) and `passages/` (one row per passage, in the engine's own words:
//! [`crate::engine::check::match_pair`] made them).

use super::{Manifest, float_column, int_column, parquet_error, read_table, string_column};
use crate::engine::check::{Passage, SourceMatch, SuspectReport, suspect_similarity};
use crate::engine::params::FingerprintParams;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// What the job joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunMode {
    /// New suspects against a stored corpus.
    Check,
    /// A corpus against itself: each pair of documents that share text once, its suspect
    /// the side with the better match (the lower id on a tie), as `check --among` reports it.
    #[serde(rename = "self")]
    SelfJoin,
}

/// `manifest.json` of a run folder, as the job writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunManifest {
    pub format: String,
    pub run_id: String,
    pub mode: RunMode,
    /// The export folders the run read (absolute, as the job saw them).
    pub corpus: PathBuf,
    pub suspects: Option<PathBuf>,
    pub max_distance: u32,
    /// The check options the passages were made with (`None`: the defaults).
    #[serde(default)]
    pub check_options: Option<crate::engine::check::CheckOptions>,
    /// Whatever the job measured (rows shuffled, the largest group, seconds).
    #[serde(default)]
    pub stats: serde_json::Value,
}

/// A run's reports, with what the HTML reports need beside them.
pub struct RunReports {
    pub manifest: RunManifest,
    pub params: FingerprintParams,
    /// One per suspect in id order (in a self-join, each corpus document that shares text
    /// with a later one), then the suspects that could not be read.
    pub reports: Vec<SuspectReport>,
    /// The suspects' texts, by position in `reports` (`None` for unreadable ones).
    pub suspect_texts: Vec<Option<String>>,
    /// The corpus documents' texts, for the sources the reports name.
    pub source_texts: HashMap<u32, String>,
    pub corpus_documents: u64,
    pub corpus_windows: u64,
}

/// A document of an export: path, title, text.
#[derive(Clone)]
struct ExportedDoc {
    path: String,
    title: String,
    /// Its work (exports made before works have none).
    work: Option<crate::engine::store::WorkRef>,
    text: String,
}

fn read_documents(dir: &Path, wanted: Option<&std::collections::HashSet<u32>>) -> Result<BTreeMap<u32, ExportedDoc>> {
    let mut docs: BTreeMap<u32, ExportedDoc> = BTreeMap::new();
    let table = dir.join("documents");
    for batch in read_table(dir, "documents")? {
        let ids = int_column(&batch, "id", &table)?;
        let paths = string_column(&batch, "path", &table)?;
        let titles = string_column(&batch, "title", &table)?;
        let works = if batch.schema().column_with_name("work").is_some() {
            string_column(&batch, "work", &table)?
        } else {
            vec![String::new(); ids.len()]
        };
        for (((id, path), title), work) in ids.into_iter().zip(paths).zip(titles).zip(works) {
            let id = id as u32;
            if wanted.is_none_or(|w| w.contains(&id)) {
                let work = serde_json::from_str(&work).ok();
                docs.insert(id, ExportedDoc { path, title, work, text: String::new() });
            }
        }
    }
    let table = dir.join("texts");
    for batch in read_table(dir, "texts")? {
        let ids = int_column(&batch, "id", &table)?;
        let texts = string_column(&batch, "text", &table)?;
        for (id, text) in ids.into_iter().zip(texts) {
            if let Some(d) = docs.get_mut(&(id as u32)) {
                d.text = text;
            }
        }
    }
    Ok(docs)
}

/// Where a run's export folders are, when not where the job read them (a run and its
/// exports copied home from a cluster, whose manifest names `hdfs://…` paths).
#[derive(Clone, Debug, Default)]
pub struct ExportFolders {
    pub corpus: Option<PathBuf>,
    pub suspects: Option<PathBuf>,
}

/// Reads a run folder and the export folders it names (or `folders` gives) into reports.
pub fn read_run(run_dir: &Path, folders: &ExportFolders) -> Result<RunReports> {
    let path = run_dir.join("manifest.json");
    let bytes = std::fs::read(&path).map_err(|e| Error::Io { path: path.clone(), source: e })?;
    let mut manifest: RunManifest = serde_json::from_slice(&bytes)
        .map_err(|e| parquet_error(&path, format!("not a Zhiwen Spark run manifest ({e})")))?;
    if let Some(corpus) = &folders.corpus {
        manifest.corpus = corpus.clone();
    }
    if let Some(suspects) = &folders.suspects {
        manifest.suspects = Some(suspects.clone());
    }
    let corpus_manifest = Manifest::read(&manifest.corpus)?;
    let suspects_dir = match manifest.mode {
        RunMode::Check => {
            manifest.suspects.clone().ok_or_else(|| parquet_error(&path, "a check run names no suspects folder"))?
        }
        RunMode::SelfJoin => manifest.corpus.clone(),
    };
    let suspects_manifest = Manifest::read(&suspects_dir)?;
    if suspects_manifest.fingerprint_params != corpus_manifest.fingerprint_params {
        return Err(parquet_error(&suspects_dir, "fingerprinted with other parameters than the corpus"));
    }

    // Passages by (suspect, source), with each pair's shares.
    let mut pairs: BTreeMap<(u32, u32), SourceMatch> = BTreeMap::new();
    let table = run_dir.join("passages");
    for batch in read_table(run_dir, "passages")? {
        let col = |name: &str| int_column(&batch, name, &table);
        let (suspect, source) = (col("suspect_id")?, col("source_id")?);
        let (ss, se, cs, ce) = (col("suspect_start")?, col("suspect_end")?, col("source_start")?, col("source_end")?);
        let (distance, region) = (col("distance")?, col("region")?);
        let fcol = |name: &str| float_column(&batch, name, &table);
        let (similarity, coverage) = (fcol("similarity")?, fcol("source_coverage")?);
        let (containment, bits) = (fcol("containment")?, fcol("evidence_bits")?);
        for i in 0..batch.num_rows() {
            let m = pairs.entry((suspect[i] as u32, source[i] as u32)).or_insert_with(|| SourceMatch {
                id: source[i] as u32,
                path: String::new(),
                title: String::new(),
                similarity: similarity[i],
                source_coverage: coverage[i],
                passages: Vec::new(),
                work: None,
                kind: Default::default(),
                names: Vec::new(),
            });
            m.passages.push(Passage {
                suspect_start: ss[i] as usize,
                suspect_end: se[i] as usize,
                source_start: cs[i] as usize,
                source_end: ce[i] as usize,
                distance: distance[i] as u32,
                containment: containment[i],
                evidence_bits: bits[i],
                region: region[i] as usize,
            });
        }
    }
    let named: std::collections::HashSet<u32> = pairs.keys().map(|&(_, source)| source).collect();
    let suspects = read_documents(&suspects_dir, None)?;
    // A self-join's suspects are the corpus: its texts are read once.
    let sources = if suspects_dir == manifest.corpus {
        suspects.iter().filter(|(id, _)| named.contains(id)).map(|(&id, d)| (id, d.clone())).collect()
    } else {
        read_documents(&manifest.corpus, Some(&named))?
    };

    let mut by_suspect: BTreeMap<u32, Vec<SourceMatch>> = BTreeMap::new();
    for ((suspect, source), mut m) in pairs {
        let Some(doc) = sources.get(&source) else {
            return Err(parquet_error(&table, format!("source {source} is not in {}", manifest.corpus.display())));
        };
        m.path = doc.path.clone();
        m.title = doc.title.clone();
        m.work = doc.work.clone();
        // The order `check` gives them in: by suspect, then source position.
        m.passages.sort_by_key(|p| (p.suspect_start, p.source_start));
        by_suspect.entry(suspect).or_default().push(m);
    }
    let mut reports = Vec::new();
    let mut suspect_texts = Vec::new();
    for (id, doc) in &suspects {
        // Sources in id order, then by score, as `check` ranks them (the sort is stable).
        let mut found = by_suspect.remove(id).unwrap_or_default();
        // A self-join reports the documents that share text, not the whole corpus.
        if found.is_empty() && manifest.mode == RunMode::SelfJoin {
            continue;
        }
        found.sort_by(|a, b| {
            b.similarity.total_cmp(&a.similarity).then(b.source_coverage.total_cmp(&a.source_coverage))
        });
        reports.push(SuspectReport {
            path: doc.path.clone(),
            chars: doc.text.chars().count(),
            similarity: suspect_similarity(&doc.text, &found, &corpus_manifest.fingerprint_params),
            error: None,
            sources: found,
            web: None,
            disguises: Default::default(),
        });
        suspect_texts.push(Some(doc.text.clone()));
    }
    for failed in &suspects_manifest.failed {
        reports.push(SuspectReport::failed(failed.path.clone(), failed.error.clone()));
        suspect_texts.push(None);
    }
    Ok(RunReports {
        manifest,
        params: corpus_manifest.fingerprint_params,
        reports,
        suspect_texts,
        source_texts: sources.into_iter().map(|(id, d)| (id, d.text)).collect(),
        corpus_documents: corpus_manifest.documents,
        corpus_windows: corpus_manifest.windows,
    })
}
