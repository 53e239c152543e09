//! The embedding signal measured beside the dictionary (`zhiwen eval --translations
//! --embeddings`): for each suspect of the dictionary's measurement (eval/translations.rs)
//! the first [`CANDIDATES`] documents the dictionary aligned are scored again by bitext
//! mining of sentence embeddings (engine/translation/embedding.rs), and every suspect is also
//! searched among all of 聊斋志异's chapters by embeddings alone (a chapter's mean sentence
//! embedding as its signature, and bitext mining against every chapter), to see whether the
//! embeddings could replace the dictionary's first stage.
//!
//! Suspects: all Giles and Soulié stories and the unmatched ones; every
//! [`GUTENBERG_EVERY`]th English chapter of `en-gutenberg` (its first
//! [`MAX_ENGLISH_SENTENCES`] sentences); not the whole books (a book is tens of thousands of
//! sentences).

use super::translations::{Outcome, TranslationReport, same_story};
use crate::Result;
use crate::engine::translation::embedding::{self, Embedding, EmbeddingScore, Encoder};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The dictionary's candidates scored again.
pub const CANDIDATES: usize = 5;
pub const GUTENBERG_EVERY: usize = 10;
pub const MAX_ENGLISH_SENTENCES: usize = 200;
pub const MAX_CHINESE_SENTENCES: usize = 250;

#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    pub file: String,
    /// The dictionary's decision score.
    pub dictionary: f64,
    pub embedding: EmbeddingScore,
}

#[derive(Clone, Debug, Serialize)]
pub struct SuspectScores {
    pub file: String,
    pub group: &'static str,
    pub split: &'static str,
    pub truth: Option<String>,
    /// The dictionary's report: file and kind.
    pub dictionary: Option<(String, &'static str)>,
    /// The dictionary's first candidates, in its order, with their embedding scores.
    pub candidates: Vec<Candidate>,
    pub english_sentences: usize,
    /// Embedding the suspect's sentences and scoring its candidates (their sentences cached).
    pub seconds: f64,
    /// Among all of 聊斋志异: the true source's rank (1 = first) by mean-embedding cosine
    /// and by bitext mining (`monotone_fraction`), if it is a 聊斋志异 chapter.
    pub signature_rank: Option<usize>,
    pub bitext_rank: Option<usize>,
    /// Among all of 聊斋志异 by bitext mining: the best chapter and its score, and the next
    /// chapter's score.
    pub bitext_best: Option<(String, f64, f64)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EmbeddingReport {
    pub build: &'static str,
    pub model_load_seconds: f64,
    pub liaozhai_chapters: usize,
    pub liaozhai_sentences: usize,
    pub liaozhai_seconds: f64,
    pub sentences_embedded: usize,
    pub embedding_seconds: f64,
    pub suspects: Vec<SuspectScores>,
    pub suspects_seconds: f64,
    /// Every text's sentence embeddings (written beside the report by `--out`, for analysis).
    #[serde(skip)]
    pub vectors: Vec<(String, Arc<Vec<Embedding>>)>,
}

impl EmbeddingReport {
    /// The sentence embeddings as little-endian f32 rows (`embeddings.f32`) and where each
    /// text's rows are (`embeddings.json`: name → [first row, rows]).
    pub fn write_vectors(&self, dir: &Path) -> std::io::Result<()> {
        let mut bytes = Vec::new();
        let mut at = BTreeMap::new();
        let mut row = 0usize;
        for (name, v) in &self.vectors {
            at.insert(name.clone(), (row, v.len()));
            row += v.len();
            for e in v.iter() {
                e.iter().for_each(|x| bytes.extend_from_slice(&x.to_le_bytes()));
            }
        }
        std::fs::write(dir.join("embeddings.f32"), bytes)?;
        std::fs::write(dir.join("embeddings.json"), serde_json::to_string(&at).map_err(std::io::Error::other)?)?;
        Ok(())
    }
}

/// The sentence embeddings an earlier run wrote in `dir` ([`EmbeddingReport::write_vectors`]),
/// to score again without embedding again; none where there are none.
pub fn read_vectors(dir: &Path) -> HashMap<String, Vec<Embedding>> {
    let (Ok(bytes), Ok(at)) = (std::fs::read(dir.join("embeddings.f32")), std::fs::read(dir.join("embeddings.json")))
    else {
        return HashMap::new();
    };
    let at: BTreeMap<String, (usize, usize)> = serde_json::from_slice(&at).unwrap_or_default();
    let row = |r: usize| -> Option<Embedding> {
        let b = bytes.get(r * embedding::DIM * 4..(r + 1) * embedding::DIM * 4)?;
        let mut e = [0f32; embedding::DIM];
        e.iter_mut().zip(b.chunks_exact(4)).for_each(|(x, c)| *x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        Some(e)
    };
    at.into_iter()
        .filter_map(|(name, (first, n))| Some((name, (first..first + n).map(row).collect::<Option<Vec<_>>>()?)))
        .collect()
}

/// A Chinese document's sentence embeddings, embedded once.
type Cache = Mutex<HashMap<String, Arc<Vec<Embedding>>>>;

pub fn run(
    data: &Path,
    encoder: &Encoder,
    dictionary: &TranslationReport,
    previous: &HashMap<String, Vec<Embedding>>,
    log: &(dyn Fn(&str) + Sync),
) -> Result<EmbeddingReport> {
    let classics = data.join("zh-classics");
    let counted = Mutex::new((0usize, 0f64));
    let embed = |key: &str, sentences: &[String]| {
        if let Some(v) = previous.get(key).filter(|v| v.len() == sentences.len()) {
            return v.clone();
        }
        let started = Instant::now();
        let texts: Vec<&str> = sentences.iter().map(String::as_str).collect();
        let out = encoder.embed(&texts, true);
        let mut c = counted.lock().unwrap_or_else(|e| e.into_inner());
        c.0 += texts.len();
        c.1 += started.elapsed().as_secs_f64();
        out
    };
    let chinese = |file: &str| {
        let text = crate::engine::decode::decode_file(&classics.join(file)).map(|d| d.text).unwrap_or_default();
        let mut s = embedding::chinese_sentences(&text);
        s.truncate(MAX_CHINESE_SENTENCES);
        s
    };
    // All of 聊斋志异, embedded once (as one batch list: the threads stay busy).
    let started = Instant::now();
    let mut liaozhai: Vec<String> = super::list(&classics.join("liaozhaizhiyi"))
        .iter()
        .filter_map(|p| p.strip_prefix(&classics).ok().map(|p| p.display().to_string()))
        .collect();
    liaozhai.sort();
    let sentences: Vec<Vec<String>> = liaozhai.par_iter().map(|f| chinese(f)).collect();
    let missing = |(f, s): &(&String, &Vec<String>)| previous.get(*f).is_none_or(|v| v.len() != s.len());
    let flat: Vec<String> = liaozhai.iter().zip(&sentences).filter(missing).flat_map(|(_, s)| s.clone()).collect();
    log(&format!(
        "embedding {} sentences of {} chapters of 聊斋志异",
        sentences.iter().map(Vec::len).sum::<usize>(),
        liaozhai.len()
    ));
    let mut all = embed("", &flat).into_iter();
    let cache: Cache = Mutex::new(HashMap::new());
    let mut signatures: Vec<Embedding> = Vec::new();
    let mut chapters: Vec<Arc<Vec<Embedding>>> = Vec::new();
    for (file, s) in liaozhai.iter().zip(&sentences) {
        let e: Vec<Embedding> = match previous.get(file).filter(|v| v.len() == s.len()) {
            Some(v) => v.clone(),
            None => all.by_ref().take(s.len()).collect(),
        };
        signatures.push(mean(&e));
        let e = Arc::new(e);
        chapters.push(e.clone());
        cache.lock().unwrap_or_else(|e| e.into_inner()).insert(file.clone(), e);
    }
    let liaozhai_seconds = started.elapsed().as_secs_f64();
    log(&format!("  in {liaozhai_seconds:.0} s"));

    let chosen: Vec<&Outcome> = {
        let mut gutenberg = 0usize;
        dictionary
            .outcomes
            .iter()
            .filter(|o| match o.group {
                "giles" | "soulie" | "unmatched" => true,
                "gutenberg-chapter" => {
                    gutenberg += 1;
                    (gutenberg - 1).is_multiple_of(GUTENBERG_EVERY)
                }
                _ => false,
            })
            .collect()
    };
    log(&format!("scoring {} suspects against their first {CANDIDATES} candidates", chosen.len()));
    let started = Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let suspect_vectors: Mutex<Vec<(String, Arc<Vec<Embedding>>)>> = Mutex::new(Vec::new());
    let suspects: Vec<SuspectScores> = chosen
        .par_iter()
        .map(|o| {
            let began = Instant::now();
            let path = data.join(&o.file);
            let text = crate::engine::decode::decode_file(&path).map(|d| d.text).unwrap_or_default();
            let text = if matches!(o.group, "giles" | "soulie" | "unmatched") {
                text.split_once('\n').map_or(text.as_str(), |(_, rest)| rest).to_string()
            } else {
                text
            };
            let mut sentences = embedding::english_sentences(&text);
            sentences.truncate(MAX_ENGLISH_SENTENCES);
            let english = Arc::new(embed(&o.file, &sentences));
            suspect_vectors.lock().unwrap_or_else(|e| e.into_inner()).push((o.file.clone(), english.clone()));
            let candidates: Vec<Candidate> = o
                .ranked
                .iter()
                .take(CANDIDATES)
                .map(|(file, dictionary)| {
                    let cached = cache.lock().unwrap_or_else(|e| e.into_inner()).get(file).cloned();
                    let zh = cached.unwrap_or_else(|| {
                        let e = Arc::new(embed(file, &chinese(file)));
                        cache.lock().unwrap_or_else(|e| e.into_inner()).insert(file.clone(), e.clone());
                        e
                    });
                    let mut score = embedding::pair_score(&english, &zh);
                    score.pairs.clear();
                    Candidate { file: file.clone(), dictionary: *dictionary, embedding: score }
                })
                .collect();
            let seconds = began.elapsed().as_secs_f64();
            // Embeddings alone, against every chapter of 聊斋志异.
            let truth_at = o.truth.as_ref().and_then(|t| liaozhai.iter().position(|f| same_story(f, t)));
            let signature = mean(&english);
            // Ties count against the true source (all zeros would otherwise rank it first).
            let rank_of = |scores: &[f64], t: usize| scores.iter().filter(|&&s| s >= scores[t]).count();
            let cosines: Vec<f64> = signatures.iter().map(|s| dot(s, &signature)).collect();
            let bitext: Vec<f64> =
                chapters.iter().map(|c| embedding::pair_score(&english, c).monotone_fraction).collect();
            let mut order: Vec<usize> = (0..bitext.len()).collect();
            order.sort_by(|&a, &b| bitext[b].total_cmp(&bitext[a]));
            let bitext_best = (!english.is_empty() && order.len() > 1)
                .then(|| (liaozhai[order[0]].clone(), bitext[order[0]], bitext[order[1]]));
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n.is_multiple_of(25) {
                log(&format!("  {n} of {}", chosen.len()));
            }
            SuspectScores {
                file: o.file.clone(),
                group: o.group,
                split: o.split,
                truth: o.truth.clone(),
                dictionary: o.found.as_ref().map(|f| (f.0.clone(), f.1)),
                candidates,
                english_sentences: english.len(),
                seconds,
                signature_rank: truth_at.map(|t| rank_of(&cosines, t)),
                bitext_rank: truth_at.map(|t| rank_of(&bitext, t)),
                bitext_best,
            }
        })
        .collect();
    let suspects_seconds = started.elapsed().as_secs_f64();
    let (sentences_embedded, embedding_seconds) = *counted.lock().unwrap_or_else(|e| e.into_inner());
    let mut vectors = suspect_vectors.into_inner().unwrap_or_else(|e| e.into_inner());
    vectors.extend(cache.into_inner().unwrap_or_else(|e| e.into_inner()));
    vectors.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(EmbeddingReport {
        build: encoder.build(),
        model_load_seconds: encoder.load_seconds,
        liaozhai_chapters: liaozhai.len(),
        liaozhai_sentences: sentences.iter().map(Vec::len).sum(),
        liaozhai_seconds,
        sentences_embedded,
        embedding_seconds,
        suspects,
        suspects_seconds,
        vectors,
    })
}

fn dot(a: &Embedding, b: &Embedding) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum()
}

/// The mean of unit vectors, made unit length again.
fn mean(e: &[Embedding]) -> Embedding {
    let mut m = [0f32; embedding::DIM];
    for v in e {
        m.iter_mut().zip(v).for_each(|(a, b)| *a += b);
    }
    let norm = m.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
    m.map(|x| x / norm)
}

/// What the embedding score decides for a suspect: the candidate with the best score, if it
/// reaches [`embedding::TRANSLATION`] (no level separates adaptations: none is drawn).
fn embedding_decision(s: &SuspectScores) -> Option<&str> {
    let best =
        s.candidates.iter().max_by(|a, b| a.embedding.monotone_fraction.total_cmp(&b.embedding.monotone_fraction))?;
    (best.embedding.monotone_fraction >= embedding::TRANSLATION).then_some(best.file.as_str())
}

/// Tables: per group and split, what the dictionary reports, what the embedding score
/// reports from the same candidates, the embeddings' ranking, and embeddings alone.
pub fn render(report: &EmbeddingReport) -> String {
    let per = report.suspects.iter().map(|s| s.seconds).sum::<f64>() / report.suspects.len().max(1) as f64;
    let mut out = format!(
        "encoder: {} build, loaded in {:.3} s; {} sentences embedded in {:.0} s of thread time \
         ({:.1} a second per thread); 聊斋志异: {} chapters, {} sentences, embedded in {:.0} s; {} suspects \
         scored in {:.0} s ({:.2} s a suspect on one thread: its sentences embedded, {CANDIDATES} candidates scored)\n\n",
        report.build,
        report.model_load_seconds,
        report.sentences_embedded,
        report.embedding_seconds,
        report.sentences_embedded as f64 / report.embedding_seconds.max(1e-9),
        report.liaozhai_chapters,
        report.liaozhai_sentences,
        report.liaozhai_seconds,
        report.suspects.len(),
        report.suspects_seconds,
        per,
    );
    let right = |file: &str, s: &SuspectScores| s.truth.as_deref().is_some_and(|t| same_story(file, t));
    // counts: files, dict translation, dict adaptation, dict wrong, dict top-ranked right,
    // emb top-ranked right, emb reported right, emb wrong, signature top1, signature top10,
    // bitext top1
    let mut rows: BTreeMap<(&str, &str), [usize; 11]> = BTreeMap::new();
    for s in &report.suspects {
        let r = rows.entry((s.group, s.split)).or_default();
        r[0] += 1;
        match &s.dictionary {
            Some((f, kind)) if right(f, s) => r[if *kind == "translation" { 1 } else { 2 }] += 1,
            Some(_) => r[3] += 1,
            None => {}
        }
        r[4] += usize::from(s.candidates.first().is_some_and(|c| right(&c.file, s)));
        if let Some(best) =
            s.candidates.iter().max_by(|a, b| a.embedding.monotone_fraction.total_cmp(&b.embedding.monotone_fraction))
            && right(&best.file, s)
        {
            r[5] += 1;
        }
        match embedding_decision(s) {
            Some(f) if right(f, s) => r[6] += 1,
            Some(_) => r[7] += 1,
            None => {}
        }
        r[8] += usize::from(s.signature_rank == Some(1));
        r[9] += usize::from(s.signature_rank.is_some_and(|r| r <= 10));
        r[10] += usize::from(s.bitext_rank == Some(1));
    }
    out.push_str(
        "| suspects | split | files | dictionary: its source as translation | as adaptation | a wrong source | right \
         source ranked first | embeddings (same candidates): right source ranked first | reported | a wrong source | \
         聊斋志异 by embeddings alone, signature: first | in the first 10 | bitext: first |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for ((group, split), r) in &rows {
        out.push_str(&format!("| {group} | {split} | {} |", r[0]));
        for v in &r[1..] {
            out.push_str(&format!(" {v} |"));
        }
        out.push('\n');
    }
    out
}
