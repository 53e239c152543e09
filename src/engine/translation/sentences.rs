//! Sentences of both sides and their alignment: which English sentences translate which
//! Chinese ones, in order, as a translation runs through its source.
//!
//! The alignment is a dynamic programme over the two sentence sequences (in the manner of
//! Gale and Church, with the dictionary instead of lengths, as hunalign does): one or two
//! English sentences align with one to four Chinese ones, or a sentence of either side is
//! left out. A block of sentences scores the log-likelihood ratio of its English words'
//! dictionary matches: each English word's stem is *matched* when a word of the Chinese block
//! has it among its senses. Under "translation" a word is matched with probability
//! `q + (1 − q)·c` (translated, or there by chance), under "unrelated" with the chance `c` of
//! meeting the stem in that many Chinese words; so a matched word adds
//! `ln(1 − q + q / c)` and an unmatched one `ln(1 − q)`. Rare words matched say much, common
//! ones little; a block is aligned only where its evidence is positive.

use std::ops::Range;

/// Probability that an English content word of a translated sentence has its stem among the
/// dictionary senses of the Chinese it translates (measured on the development half of the
/// Giles translations: about 0.35 of known words in aligned sentences).
const TRANSLATED: f64 = 0.35;
/// Block shapes: English sentences × Chinese sentences.
const MAX_ENGLISH: usize = 2;
const MAX_CHINESE: usize = 4;

/// Char offsets where English sentences end: after `.`, `!`, `?`, `;` or `:` followed (after
/// closing quotes and brackets) by white space, and at blank lines (paragraphs).
pub fn english_breaks(text: &str) -> Vec<u32> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            // A blank line ends a paragraph (a line break alone may only wrap the line).
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '\n' && chars[j].is_whitespace() {
                j += 1;
            }
            if j < chars.len() && chars[j] == '\n' && out.last() != Some(&(i as u32)) {
                out.push(i as u32 + 1);
            }
        } else if matches!(c, '.' | '!' | '?' | ';' | ':') {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j], '"' | '\'' | '\u{201d}' | '\u{2019}' | ')' | ']') {
                j += 1;
            }
            if j == chars.len() || chars[j].is_whitespace() {
                out.push(j as u32);
                i = j;
                continue;
            }
        }
        i += 1;
    }
    out.dedup();
    out
}

/// Whether a Chinese token ends a sentence (full stop, exclamation, question, semicolon, a
/// line break).
pub fn is_chinese_break(token: &str) -> bool {
    token.chars().any(|c| matches!(c, '。' | '！' | '？' | '；' | '!' | '?' | ';' | '\n' | '…'))
}

/// Items (by their char offsets, ascending) grouped into sentences by `breaks` (ascending
/// char offsets where a sentence ends): the index ranges of the non-empty groups.
pub fn group(starts: impl IntoIterator<Item = u32>, breaks: &[u32]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut current = usize::MAX;
    for (i, at) in starts.into_iter().enumerate() {
        let sentence = breaks.partition_point(|&b| b <= at);
        if sentence == current {
            out.last_mut().expect("a group is open").end = i + 1;
        } else {
            out.push(i..i + 1);
            current = sentence;
        }
    }
    out
}

/// One side's sentences for [`align`].
#[derive(Clone)]
pub struct EnglishSentence {
    /// Stem ids of its known words, in order.
    pub stems: Vec<u32>,
}

pub struct ChineseSentence {
    /// Distinct stem ids of all its words' senses, sorted.
    pub stems: Vec<u32>,
    /// Its number of words with senses.
    pub words: usize,
}

/// A block of aligned sentences.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub english: Range<usize>,
    pub chinese: Range<usize>,
    /// Its log-likelihood ratio (nats).
    pub llr: f64,
    /// English words in it, and how many a Chinese word of the block means.
    pub words: usize,
    pub matched: usize,
}

/// The best monotone alignment: its blocks in order and their total evidence.
#[derive(Debug, Default)]
pub struct SentenceAlignment {
    pub blocks: Vec<Block>,
    pub llr: f64,
}

/// How much leaving a sentence out costs, per English known word and per Chinese word (inside
/// the aligned stretch). Chosen on the development half of the Giles translations: lower
/// lets a long unrelated chapter collect chance blocks far apart, higher breaks real
/// alignments at a translator's omissions.
const SKIP_ENGLISH: f64 = 0.15;
const SKIP_CHINESE: f64 = 0.1;

/// Aligns English with Chinese sentences. `frequency(stem)` is the share of an unrelated
/// Chinese text's words that have `stem` among their senses.
pub fn align(
    english: &[EnglishSentence],
    chinese: &[ChineseSentence],
    frequency: &dyn Fn(u32) -> f64,
) -> SentenceAlignment {
    let (m, n) = (english.len(), chinese.len());
    if m == 0 || n == 0 {
        return SentenceAlignment::default();
    }
    // The English words numbered across sentences: each sentence's first, and per word
    // ln(1 − f), so the chance of meeting its stem in w words is 1 − exp(w · ln(1 − f)).
    let mut first_word = Vec::with_capacity(m + 1);
    let mut log_miss = Vec::new();
    let mut by_stem: std::collections::HashMap<u32, Vec<usize>> = Default::default();
    for sentence in english {
        first_word.push(log_miss.len());
        for stem in &sentence.stems {
            by_stem.entry(*stem).or_default().push(log_miss.len());
            log_miss.push((1.0 - frequency(*stem).clamp(1e-9, 0.999)).ln());
        }
    }
    first_word.push(log_miss.len());
    // matches[s * n + j]: the English words of sentence s whose stem Chinese sentence j has
    // (most pairs have none, so a block costs its matches, not its words).
    let mut sentence_of = Vec::with_capacity(log_miss.len());
    for s in 0..m {
        sentence_of.extend(std::iter::repeat_n(s, first_word[s + 1] - first_word[s]));
    }
    let mut matches: Vec<Vec<u32>> = vec![Vec::new(); m * n];
    for (j, sentence) in chinese.iter().enumerate() {
        for stem in &sentence.stems {
            for &e in by_stem.get(stem).map_or(&[][..], |v| &v[..]) {
                matches[sentence_of[e] * n + j].push(e as u32);
            }
        }
    }
    let unmatched = (1.0 - TRANSLATED).ln();
    let evidence = |e: usize, words: usize| {
        let chance = (1.0 - (words as f64 * log_miss[e]).exp()).clamp(1e-6, 0.999);
        (1.0 - TRANSLATED + TRANSLATED / chance).ln()
    };
    // The blocks ending at English sentence i and Chinese sentence j, as (a, b, llr, words,
    // matched) for a English and b Chinese sentences. `seen` marks the words matched in the
    // block so far (by generation, so it is never cleared).
    let mut seen = vec![0u32; log_miss.len()];
    let mut generation = 0u32;
    let mut matched: Vec<usize> = Vec::new();
    let mut blocks_at = |i: usize, j: usize, out: &mut Vec<(usize, usize, f64, usize, usize)>| {
        out.clear();
        for a in 1..=MAX_ENGLISH.min(i) {
            let words = first_word[i] - first_word[i - a];
            generation += 1;
            matched.clear();
            let mut chinese_words = 0;
            for b in 1..=MAX_CHINESE.min(j) {
                let z = j - b;
                chinese_words += chinese[z].words;
                for s in i - a..i {
                    for &e in &matches[s * n + z] {
                        if seen[e as usize] != generation {
                            seen[e as usize] = generation;
                            matched.push(e as usize);
                        }
                    }
                }
                let llr = matched.iter().map(|&e| evidence(e, chinese_words)).sum::<f64>()
                    + (words - matched.len()) as f64 * unmatched;
                out.push((a, b, llr, words, matched.len()));
            }
        }
    };
    // best[i][j]: the best alignment of the first i English and j Chinese sentences. A
    // translation is a stretch of its source: Chinese sentences before and after it are left
    // out for free, inside it at a cost per word; English sentences left out cost per word.
    let width = n + 1;
    let mut best = vec![0f64; (m + 1) * width];
    // How each cell was reached: (1, 0) an English sentence left out, (0, 1) a Chinese one,
    // else a block of (a + 1, b + 1).
    let mut step = vec![(0u8, 1u8); (m + 1) * width];
    let mut candidates = Vec::new();
    for i in 1..=m {
        let skip = SKIP_ENGLISH * english[i - 1].stems.len() as f64;
        for j in 0..=n {
            let (mut value, mut how) = (best[(i - 1) * width + j] - skip, (1u8, 0u8));
            if j > 0 {
                let v = best[i * width + j - 1] - SKIP_CHINESE * chinese[j - 1].words as f64;
                if v > value {
                    (value, how) = (v, (0, 1));
                }
            }
            blocks_at(i, j, &mut candidates);
            for &(a, b, llr, _, _) in &candidates {
                let v = best[(i - a) * width + j - b] + llr;
                if v > value {
                    (value, how) = (v, (a as u8 + 1, b as u8 + 1));
                }
            }
            best[i * width + j] = value;
            step[i * width + j] = how;
        }
    }
    // The Chinese sentences after the last aligned one are free too.
    let (mut j, total) =
        (0..=n).map(|j| (j, best[m * width + j])).fold((0, f64::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
    let mut blocks = Vec::new();
    let mut i = m;
    while i > 0 {
        match step[i * width + j] {
            (1, 0) => i -= 1,
            (0, 1) => j -= 1,
            (a, b) => {
                let (a, b) = (a as usize - 1, b as usize - 1);
                blocks_at(i, j, &mut candidates);
                let &(_, _, llr, words, matched) =
                    candidates.iter().find(|c| c.0 == a && c.1 == b).expect("the block the programme chose");
                blocks.push(Block { english: i - a..i, chinese: j - b..j, llr, words, matched });
                i -= a;
                j -= b;
            }
        }
    }
    blocks.reverse();
    SentenceAlignment { llr: total, blocks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_sentences_end_at_stops_followed_by_space_and_at_blank_lines() {
        let text = "He said: \"Come in.\" She came\nback. Was it 3.5 feet?\nYes\n\nA heading\n\nNo";
        let breaks = english_breaks(text);
        let pieces: Vec<String> = std::iter::once(0)
            .chain(breaks.iter().copied())
            .zip(breaks.iter().copied().chain([text.chars().count() as u32]))
            .map(|(a, b)| text.chars().skip(a as usize).take((b - a) as usize).collect::<String>().trim().to_string())
            .collect();
        assert_eq!(
            pieces,
            ["He said:", "\"Come in.\"", "She came\nback.", "Was it 3.5 feet?", "Yes", "A heading", "No"]
        );
    }

    #[test]
    fn words_group_into_the_sentences_between_breaks() {
        // Words starting at 0, 3, 12, 14, 30; sentences end at 10 and 20.
        assert_eq!(group([0, 3, 12, 14, 30], &[10, 20]), [0..2, 2..4, 4..5]);
        assert_eq!(group([12, 14], &[10, 20, 25]), vec![0..2]);
    }

    #[test]
    fn sentences_align_in_order_where_their_words_mean_each_other() {
        // Stems 1..=9 rare; English sentence k has stems of Chinese sentence k, except that
        // Chinese sentence 1 is split in two (1a, 1b) and English 3 translates nothing.
        let en = |stems: &[u32]| EnglishSentence { stems: stems.to_vec() };
        let zh = |stems: &[u32]| ChineseSentence { stems: stems.to_vec(), words: stems.len() + 2 };
        let english = [en(&[1, 2, 3]), en(&[4, 5, 6]), en(&[7, 8]), en(&[20, 21, 22])];
        let chinese = [zh(&[1, 2, 3]), zh(&[4, 5]), zh(&[6]), zh(&[7, 8]), zh(&[30, 31])];
        let alignment = align(&english, &chinese, &|_| 0.001);
        let pairs: Vec<(Range<usize>, Range<usize>)> =
            alignment.blocks.iter().map(|b| (b.english.clone(), b.chinese.clone())).collect();
        assert_eq!(pairs, [(0..1, 0..1), (1..2, 1..3), (2..3, 3..4)]);
        assert!(alignment.blocks.iter().all(|b| b.matched == b.words && b.llr > 0.0));
        // The same sentences in another order align only in part: the alignment keeps order.
        let shuffled = [en(&[7, 8]), en(&[4, 5, 6]), en(&[1, 2, 3])];
        let partial = align(&shuffled, &chinese, &|_| 0.001);
        assert_eq!(partial.blocks.len(), 1);
        assert!(partial.llr < alignment.llr);
    }
}
