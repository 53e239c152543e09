//! An English suspect against the index: candidates by a translation language model, then
//! windowed and sentence alignments with the few best, then the decision (translation,
//! adaptation, or nothing).

use super::index::{TranslationIndex, name_key};
use super::{english, sentences};
use crate::engine::check::{CopyKind, Passage};
use std::collections::HashMap;

/// Dirichlet smoothing of the candidate ranking (recall) and of the readable score.
const MU_RANK: f64 = 3000.0;
const MU_SCORE: f64 = 1000.0;
/// How much shared names weigh in the ranking and in the score.
const NAME_RANK: f64 = 0.05;
const NAME_SCORE: f64 = 0.03;
/// Documents aligned after ranking.
const CANDIDATES: usize = 10;
/// English windows (known stems) and Chinese windows (words with senses), and their steps.
const EN_WINDOW: usize = 50;
const EN_STEP: usize = 25;
const ZH_WINDOW: usize = 100;
const ZH_STEP: usize = 25;
const MU_WINDOW: f64 = 200.0;
/// Suspects longer than this many words are cut into parts of `PART_WORDS` (a novel's worth
/// of chapters in one file), each matched on its own.
const MAX_WORDS: usize = 5000;
const PART_WORDS: usize = 2500;
/// The decision, chosen on the development half of the Giles and Soulié translations
/// (README, *Translated copies*; among settings equally good there, the strictest): the best
/// document is reported when it scores at least `REPORTED` and beats every other document by
/// `MARGIN`, its sentences aligning in order better than in reverse by `ORDER`; as a
/// translation when at least `ALIGNED` of the English known words are in
/// aligned sentences at a density (English words per Chinese word there) of at least
/// `DENSITY`, else as an adaptation (a retelling aligns loosely, or condenses its source).
pub const REPORTED: f64 = 0.50;
pub const MARGIN: f64 = 0.16;
pub const ALIGNED: f64 = 0.65;
pub const DENSITY: f64 = 0.65;
/// How much more evidence the sentences must align with in their order than last to first
/// (chance aligns as well either way: on the development half no unrelated text got more
/// than 0.03 per word, no Giles translation less than 0.07).
pub const ORDER: f64 = 0.05;
/// How much the sentence alignment's evidence per word weighs in the score, beside the
/// windows' and the likelihood ratio's.
const SENTENCE_WEIGHT: f64 = 3.0;

/// A document an English text translates or adapts.
#[derive(Clone, Debug)]
pub struct Found {
    /// The document's id in the store.
    pub id: u32,
    pub kind: CopyKind,
    /// The decision score ([`REPORTED`]) and how far it is ahead of the next document.
    pub score: f64,
    pub margin: f64,
    /// What the score and the decision are made of (`english_aligned` is the similarity
    /// reports show).
    pub features: Features,
    /// Aligned passages: English sentences and the Chinese sentences they translate.
    pub passages: Vec<Passage>,
    /// The documents aligned (this one first), with their decision scores, best first.
    pub ranked: Vec<(u32, f64)>,
}

/// The windows' mean aligned score, the document's smoothed likelihood ratio, the shared
/// names' weight, how straight the windows align (Pearson's r of English window against
/// Chinese window) and the share of the document's windows some English window aligns with;
/// then the sentence alignment's.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Features {
    /// English known words the dictionary and the corpus know, of `english_words`.
    pub known_words: usize,
    pub window_mean: f64,
    pub likelihood: f64,
    pub names: f64,
    pub diagonal: f64,
    pub source_covered: f64,
    pub english_words: usize,
    pub chinese_words: usize,
    /// The sentence alignment's evidence per known English word, and the shares of the
    /// English known words and of the document's words in aligned sentences.
    pub sentence_llr: f64,
    /// The same with the suspect's sentences in reverse order: chance's share of the evidence.
    pub sentence_llr_reversed: f64,
    pub english_aligned: f64,
    pub chinese_aligned: f64,
}

impl Features {
    /// English known words per Chinese word in the aligned sentences: about one in a
    /// translation, much less in a retelling that condenses.
    pub fn density(&self) -> f64 {
        let english = self.english_aligned * self.known_words as f64;
        english / (self.chinese_aligned * self.chinese_words as f64).max(1.0)
    }
}

/// The English suspect as the index sees it.
struct Query<'a> {
    words: &'a [english::Word],
    /// Term ids of the words the corpus knows (others dropped), with their index in `words`.
    known: Vec<(u32, usize)>,
    /// Char offsets where the suspect's sentences end.
    breaks: &'a [u32],
    /// The known words by sentence (ranges of `known`), and as the sentence alignment takes
    /// them.
    sentences: Vec<std::ops::Range<usize>>,
    english: Vec<sentences::EnglishSentence>,
    /// The distinct stems of `known`: the only ones a document's words matter for.
    stems: std::collections::HashSet<u32>,
    bigrams: Vec<(String, u32)>,
}

/// What the suspect translates, if anything: at most one document (the best), as a
/// translation or an adaptation.
pub fn find(index: &TranslationIndex, text: &str) -> Option<Found> {
    best(index, text).and_then(decide)
}

/// The decision on the best candidate: a translation, an adaptation, or nothing.
pub fn decide(mut found: Found) -> Option<Found> {
    let order = found.features.sentence_llr - found.features.sentence_llr_reversed;
    if found.margin < MARGIN || found.score < REPORTED || order < ORDER {
        return None;
    }
    let f = &found.features;
    let faithful = f.english_aligned >= ALIGNED && f.density() >= DENSITY;
    found.kind = if faithful { CopyKind::Translation } else { CopyKind::Adaptation };
    Some(found)
}

/// The document the suspect most likely translates, with its score and margin, whatever
/// they are (`kind` is [`CopyKind::Text`] until [`decide`]).
pub fn best(index: &TranslationIndex, text: &str) -> Option<Found> {
    if index.is_empty() {
        return None;
    }
    let dictionary = super::chinese::Dictionary::shared();
    let words = english::content_words(text);
    let bigrams = english::name_bigrams(text, &super::chinese::is_syllable);
    let breaks = sentences::english_breaks(text);
    // A long text: its parts, the best part speaking for it; a short last part joins the one
    // before (a few dozen words meet some chapter by chance).
    let mut parts: Vec<&[english::Word]> =
        if words.len() <= MAX_WORDS { vec![&words[..]] } else { words.chunks(PART_WORDS).collect() };
    if parts.len() > 1 && parts[parts.len() - 1].len() < PART_WORDS / 2 {
        let joined = words.len() - parts[parts.len() - 2].len() - parts[parts.len() - 1].len();
        parts.truncate(parts.len() - 2);
        parts.push(&words[joined..]);
    }
    let mut best: Option<Found> = None;
    for part in parts {
        let (from, to) = (part.first().map_or(0, |w| w.start), part.last().map_or(0, |w| w.end));
        let known: Vec<(u32, usize)> = part
            .iter()
            .enumerate()
            .filter_map(|(i, w)| dictionary.term(&w.stem).filter(|t| index.background.contains_key(t)).map(|t| (t, i)))
            .collect();
        let sentences = sentences::group(known.iter().map(|(_, i)| part[*i].start), &breaks);
        let english = sentences
            .iter()
            .map(|r| sentences::EnglishSentence { stems: known[r.clone()].iter().map(|(t, _)| *t).collect() })
            .collect();
        let stems = known.iter().map(|(t, _)| *t).collect();
        let bigrams = bigrams.iter().filter(|(_, at)| (from..to).contains(at)).cloned().collect();
        let query = Query { words: part, known, breaks: &breaks, sentences, english, stems, bigrams };
        if let Some(found) = find_part(index, &query)
            && best.as_ref().is_none_or(|b| found.score > b.score)
        {
            best = Some(found);
        }
    }
    best
}

fn find_part(index: &TranslationIndex, q: &Query) -> Option<Found> {
    let n = index.documents.len();
    let nq = q.known.len();
    if nq < 20 {
        return None;
    }
    // In stem order: the sums below come out the same, to the last bit, on every run.
    let mut counts: std::collections::BTreeMap<u32, f64> = Default::default();
    for (t, _) in &q.known {
        *counts.entry(*t).or_default() += 1.0;
    }
    // Stage 1: every document sharing a stem, by the smoothed likelihood ratio per word.
    let (mut rank, mut score) = (vec![0f64; n], vec![0f64; n]);
    let mut touched = vec![false; n];
    for (t, c) in &counts {
        let pb = index.background[t];
        for &(d, mass) in &index.postings[t] {
            let d = d as usize;
            rank[d] += c * (1.0 + mass as f64 / (MU_RANK * pb)).ln();
            score[d] += c * (1.0 + mass as f64 / (MU_SCORE * pb)).ln();
            touched[d] = true;
        }
    }
    let mut names_weight = vec![0f64; n];
    let mut distinct: Vec<&str> = q.bigrams.iter().map(|(b, _)| b.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    for b in &distinct {
        if let Some(docs) = index.names.get(&name_key(b)) {
            let idf = (n as f64 / docs.len() as f64).ln();
            for &d in docs {
                names_weight[d as usize] += idf;
                touched[d as usize] = true;
            }
        }
    }
    let nqf = nq as f64;
    let mut ranked: Vec<(f64, usize, f64)> = (0..n)
        .filter(|&d| touched[d])
        .map(|d| {
            let len = index.documents[d].words.len() as f64;
            let r = (rank[d] + nqf * (MU_RANK / (len + MU_RANK)).ln()) / nqf;
            let s = (score[d] + nqf * (MU_SCORE / (len + MU_SCORE)).ln()) / nqf;
            (r + NAME_RANK * names_weight[d], d, s)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked.truncate(CANDIDATES);
    // Stage 2: aligned windows with each candidate.
    let mut judged: Vec<(f64, usize, f64, Alignment, SentenceFeatures)> = ranked
        .iter()
        .map(|&(_, d, llr)| {
            let a = align(index, d, q);
            let sf = align_sentences(index, d, q, false);
            let windows = a.mean + 0.5 * llr + NAME_SCORE * names_weight[d] + 0.2 * a.diagonal + COVERED * a.covered;
            (windows + SENTENCE_WEIGHT * sf.llr, d, llr, a, sf)
        })
        .collect();
    judged.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (top_score, top, llr, alignment, sf) = judged.first()?;
    let hash = index.documents[*top].text_hash;
    // Documents with the same text as the best (a chapter imported twice) do not compete.
    let next = judged.iter().skip(1).find(|j| index.documents[j.1].text_hash != hash).map(|j| j.0);
    let margin = next.map_or(*top_score, |next| top_score - next);
    let doc = &index.documents[*top];
    let reversed = align_sentences(index, *top, q, true);
    let features = Features {
        window_mean: alignment.mean,
        likelihood: *llr,
        names: names_weight[*top],
        diagonal: alignment.diagonal,
        source_covered: alignment.covered,
        english_words: q.words.len(),
        known_words: q.known.len(),
        chinese_words: doc.words.len(),
        sentence_llr: sf.llr,
        sentence_llr_reversed: reversed.llr,
        english_aligned: sf.english,
        chinese_aligned: sf.chinese,
    };
    Some(Found {
        id: doc.id,
        kind: CopyKind::Text,
        features,
        score: *top_score,
        margin,
        passages: sf.passages(q, doc),
        ranked: judged.iter().map(|j| (index.documents[j.1].id, j.0)).collect(),
    })
}

/// Smoothing of a document's stem frequencies towards the corpus's, for the chance of
/// meeting a stem in its sentences.
const MU_SENTENCE: f64 = 500.0;

struct SentenceFeatures {
    llr: f64,
    english: f64,
    chinese: f64,
    alignment: sentences::SentenceAlignment,
    /// The document's sentences as ranges of its words.
    chinese_sentences: Vec<std::ops::Range<usize>>,
}

impl SentenceFeatures {
    /// The aligned blocks with evidence as passages: whole English sentences ↔ whole Chinese
    /// sentences (char ranges), the share of the block's English words a Chinese word means,
    /// and the block's evidence in bits. Blocks the alignment only passes through (worse than
    /// chance, but cheaper than leaving sentences out) are not shown.
    fn passages(&self, q: &Query, doc: &super::index::Document) -> Vec<Passage> {
        // The sentence around char range start..end, given where sentences end.
        let sentence = |breaks: &[u32], start: u32, end: u32| {
            let before = breaks.partition_point(|&b| b <= start);
            let after = breaks.partition_point(|&b| b < end);
            let from = if before == 0 { start } else { breaks[before - 1] };
            (from as usize, breaks.get(after).copied().unwrap_or(end) as usize)
        };
        self.alignment
            .blocks
            .iter()
            .filter(|b| b.llr > 0.0)
            .enumerate()
            .map(|(region, b)| {
                let english = q.sentences[b.english.start].start..q.sentences[b.english.end - 1].end;
                let first = &q.words[q.known[english.start].1];
                let last = &q.words[q.known[english.end - 1].1];
                let (suspect_start, suspect_end) = sentence(q.breaks, first.start, last.end);
                let chinese =
                    self.chinese_sentences[b.chinese.start].start..self.chinese_sentences[b.chinese.end - 1].end;
                let (first, last) = (&doc.words[chinese.start], &doc.words[chinese.end - 1]);
                let (source_start, source_end) = sentence(&doc.breaks, first.start, last.end);
                Passage {
                    suspect_start,
                    suspect_end,
                    source_start,
                    source_end,
                    distance: 0,
                    containment: b.matched as f64 / b.words.max(1) as f64,
                    evidence_bits: b.llr / std::f64::consts::LN_2,
                    region,
                }
            })
            .collect()
    }
}

/// The suspect's sentences aligned with document `d`'s; `reversed`, the suspect's sentences
/// taken last to first (what chance alone aligns between these two texts: a translation keeps
/// its source's order, chance does not care).
fn align_sentences(index: &TranslationIndex, d: usize, q: &Query, reversed: bool) -> SentenceFeatures {
    let doc = &index.documents[d];
    let groups = sentences::group(doc.words.iter().map(|w| w.start), &doc.breaks);
    let mut in_document: HashMap<u32, f64> = HashMap::new();
    let chinese: Vec<sentences::ChineseSentence> = groups
        .iter()
        .map(|r| {
            let mut stems = Vec::new();
            for w in &doc.words[r.clone()] {
                for s in index.senses[w.sense as usize].iter().filter(|s| q.stems.contains(s)) {
                    *in_document.entry(*s).or_default() += 1.0;
                    stems.push(*s);
                }
            }
            stems.sort_unstable();
            stems.dedup();
            sentences::ChineseSentence { stems, words: r.len() }
        })
        .collect();
    let length = doc.words.len() as f64;
    let frequency = |stem: u32| {
        let corpus = index.presence.get(&stem).copied().unwrap_or(0.0);
        (in_document.get(&stem).copied().unwrap_or(0.0) + MU_SENTENCE * corpus) / (length + MU_SENTENCE)
    };
    let alignment = if reversed {
        let backwards: Vec<sentences::EnglishSentence> = q.english.iter().rev().cloned().collect();
        sentences::align(&backwards, &chinese, &frequency)
    } else {
        sentences::align(&q.english, &chinese, &frequency)
    };
    let known = q.known.len().max(1) as f64;
    let english_aligned: usize = alignment.blocks.iter().map(|b| b.words).sum();
    let chinese_aligned: usize =
        alignment.blocks.iter().map(|b| groups[b.chinese.clone()].iter().map(|r| r.len()).sum::<usize>()).sum();
    SentenceFeatures {
        llr: alignment.llr / known,
        english: english_aligned as f64 / known,
        chinese: chinese_aligned as f64 / length.max(1.0),
        alignment,
        chinese_sentences: groups,
    }
}

/// The best Chinese window of each English window, summed up.
struct Alignment {
    /// The mean of the English windows' best scores.
    mean: f64,
    /// How straight the alignment runs: Pearson's r of English window against its best
    /// Chinese window.
    diagonal: f64,
    /// Share of the document's windows some English window aligns with better than chance.
    covered: f64,
}

/// How much it counts that the English windows align with much of the document (a
/// translation runs through its source; a short text meets some window of a long chapter by
/// chance).
const COVERED: f64 = 0.3;

fn spans(len: usize, window: usize, step: usize) -> Vec<(usize, usize)> {
    if len <= window {
        return vec![(0, len)];
    }
    let mut out: Vec<(usize, usize)> = (0..=len - window).step_by(step).map(|s| (s, s + window)).collect();
    if out.last().is_some_and(|&(_, e)| e < len) {
        out.push((len - window, len));
    }
    out
}

fn align(index: &TranslationIndex, d: usize, q: &Query) -> Alignment {
    let doc = &index.documents[d];
    let k = doc.words.len();
    let zh = spans(k, ZH_WINDOW, ZH_STEP);
    let zl = k.min(ZH_WINDOW) as f64;
    let constant = (MU_WINDOW / (zl + MU_WINDOW)).ln();
    // Each stem's mass per Chinese window (sparse), only for the suspect's stems.
    let mut mass: HashMap<u32, HashMap<usize, f64>> = HashMap::new();
    for (i, w) in doc.words.iter().enumerate() {
        let stems = &index.senses[w.sense as usize];
        let share = 1.0 / stems.len() as f64;
        for s in stems {
            if !q.stems.contains(s) {
                continue;
            }
            // The windows holding word i.
            let first = zh.partition_point(|&(_, e)| e <= i);
            for (z, &(s0, e0)) in zh.iter().enumerate().skip(first) {
                if s0 > i {
                    break;
                }
                if i < e0 {
                    *mass.entry(*s).or_default().entry(z).or_default() += share;
                }
            }
        }
    }
    let log_mass: HashMap<u32, Vec<(usize, f64)>> = mass
        .into_iter()
        .map(|(t, by_window)| {
            let pb = index.background[&t];
            (t, by_window.into_iter().map(|(z, m)| (z, (1.0 + m / (MU_WINDOW * pb)).ln())).collect())
        })
        .collect();
    let en = spans(q.known.len(), EN_WINDOW, EN_STEP);
    let mut windows = Vec::with_capacity(en.len());
    let mut scores = vec![0f64; zh.len()];
    for &(from, to) in &en {
        scores.iter_mut().for_each(|s| *s = 0.0);
        for (t, _) in &q.known[from..to] {
            for &(z, lg) in log_mass.get(t).map_or(&[][..], |v| &v[..]) {
                scores[z] += lg;
            }
        }
        let len = (to - from) as f64;
        let (z, best) = scores.iter().enumerate().fold((0, f64::MIN), |b, (z, s)| if *s > b.1 { (z, *s) } else { b });
        windows.push((z, best / len + constant));
    }
    let mean = windows.iter().map(|w| w.1).sum::<f64>() / windows.len().max(1) as f64;
    let diagonal = if windows.len() < 3 {
        0.0
    } else {
        let xs: Vec<f64> = (0..windows.len()).map(|i| i as f64).collect();
        let ys: Vec<f64> = windows.iter().map(|w| w.0 as f64).collect();
        pearson(&xs, &ys)
    };
    let aligned: std::collections::HashSet<usize> = windows.iter().filter(|w| w.1 > 0.0).map(|w| w.0).collect();
    let covered = aligned.len() as f64 / zh.len().max(1) as f64;
    Alignment { mean, diagonal, covered }
}

fn pearson(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx == 0.0 || syy == 0.0 { 0.0 } else { sxy / (sxx * syy).sqrt() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_suspect_scores_the_same_to_the_last_bit() {
        let zh = |n: &str| std::fs::read_to_string(format!("tests/fixtures/translation/zh/{n}.txt")).unwrap();
        let index = TranslationIndex::build([(1, zh("064")), (2, zh("122")), (3, zh("138")), (4, zh("312"))]);
        let english = std::fs::read_to_string("tests/fixtures/translation/en/giles_312.txt").unwrap();
        let first = best(&index, &english).unwrap();
        assert_eq!(first.id, 4);
        // Each call has hash maps of its own, seeded anew: nothing may depend on their order.
        for _ in 0..8 {
            let again = best(&index, &english).unwrap();
            assert_eq!(
                (again.score.to_bits(), again.margin.to_bits()),
                (first.score.to_bits(), first.margin.to_bits())
            );
        }
    }
}
