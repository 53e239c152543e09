//! The letter-frequency "DNA" fingerprint of pinyin initials that the DataGrand article
//! describes, as a baseline run beside Zhiwen's windows on every kind: a text becomes the
//! string of its Han characters' pinyin initials;
//! each window of [`WINDOW`] letters becomes its 26 letter frequencies minus the corpus's
//! own, normalised to unit length, and a document is the concatenation of its windows. A
//! suspect's windows (every [`STEP`] letters) are compared with every corpus window; one
//! matches when the cosine of their vectors is at least [`MIN_COSINE`], and a document is
//! reported when [`MIN_WINDOWS`] of its windows are matched.

use crate::engine::normalize::tokens;
use crate::engine::params::Normalizing;
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap};

pub const WINDOW: usize = 200;
pub const STEP: usize = 20;
pub const MIN_COSINE: f32 = 0.95;
pub const MIN_WINDOWS: usize = 3;

type Vector = [f32; 26];

/// The corpus's windows as DNA vectors.
pub struct DnaIndex {
    paths: Vec<String>,
    /// (document, vector) of every corpus window.
    windows: Vec<(u32, Vector)>,
    reference: Vector,
}

/// The letters of a text: 0–25 per pinyin initial, read as the store reads text (disguises
/// undone: a passage written in pinyin gives its initials). Words give none: the DNA is
/// defined on pinyin initials, and English word initials all look alike to it.
fn letters(text: &str) -> Vec<u8> {
    tokens(text, Normalizing::Undisguised)
        .iter()
        .filter(|t| (u64::from(b'a')..=u64::from(b'z')).contains(&t.sym))
        .map(|t| (t.sym - u64::from(b'a')) as u8)
        .collect()
}

fn frequencies(window: &[u8]) -> Vector {
    let mut v = [0f32; 26];
    for &l in window {
        v[l as usize] += 1.0;
    }
    let n = window.len().max(1) as f32;
    v.map(|x| x / n)
}

fn dna(window: &[u8], reference: &Vector) -> Vector {
    let f = frequencies(window);
    let mut v: Vector = std::array::from_fn(|i| f[i] - reference[i]);
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

impl DnaIndex {
    /// Non-overlapping windows of every text, against the letter frequencies of them all.
    pub fn build(texts: &[(String, String)]) -> DnaIndex {
        let all: Vec<Vec<u8>> = texts.par_iter().map(|(_, t)| letters(t)).collect();
        let mut totals = [0f64; 26];
        let mut count = 0f64;
        for l in all.iter().flatten() {
            totals[*l as usize] += 1.0;
            count += 1.0;
        }
        let reference: Vector = std::array::from_fn(|i| (totals[i] / count.max(1.0)) as f32);
        let windows = all
            .iter()
            .enumerate()
            .flat_map(|(doc, l)| l.chunks_exact(WINDOW).map(move |w| (doc as u32, dna(w, &reference))))
            .collect();
        DnaIndex { paths: texts.iter().map(|(p, _)| p.clone()).collect(), windows, reference }
    }

    /// The documents the suspect's DNA matches.
    pub fn sources(&self, text: &str) -> BTreeSet<String> {
        let l = letters(text);
        if l.len() < WINDOW {
            return BTreeSet::new();
        }
        let starts: Vec<usize> = (0..=l.len() - WINDOW).step_by(STEP).collect();
        let matched: Vec<usize> = starts
            .par_iter()
            .flat_map_iter(|&s| {
                let v = dna(&l[s..s + WINDOW], &self.reference);
                self.windows
                    .iter()
                    .enumerate()
                    .filter(move |(_, (_, w))| w.iter().zip(&v).map(|(a, b)| a * b).sum::<f32>() >= MIN_COSINE)
                    .map(|(i, _)| i)
            })
            .collect();
        let mut per_doc: HashMap<u32, BTreeSet<usize>> = HashMap::new();
        for i in matched {
            per_doc.entry(self.windows[i].0).or_default().insert(i);
        }
        per_doc
            .into_iter()
            .filter(|(_, w)| w.len() >= MIN_WINDOWS)
            .map(|(doc, _)| self.paths[doc as usize].clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_matches_its_source_by_letter_frequencies_and_another_text_does_not() {
        let chapters = [
            include_str!("../../tests/fixtures/corpus/sanguoyanyi_000.txt"),
            include_str!("../../tests/fixtures/corpus/xiyouji_000.txt"),
            include_str!("../../tests/fixtures/corpus/hongloumeng_000.txt"),
        ];
        let texts: Vec<(String, String)> =
            chapters.iter().enumerate().map(|(i, t)| (format!("doc{i}"), t.to_string())).collect();
        let index = DnaIndex::build(&texts);
        let copy = format!("本站广告\n{}", texts[0].1);
        assert!(index.sources(&copy).contains("doc0"), "{:?}", index.sources(&copy));
        // Another chapter, and the first chapter's second half against the second alone.
        assert_eq!(index.sources(&texts[1].1), BTreeSet::from(["doc1".to_string()]));
        let only_second = DnaIndex::build(&texts[1..]);
        assert!(only_second.sources(&texts[0].1).is_empty(), "{:?}", only_second.sources(&texts[0].1));
    }
}
