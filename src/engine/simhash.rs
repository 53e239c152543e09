//! Charikar's simhash of a window: each feature (an n-gram of token symbols, hashed with
//! xxh3) votes +1 or -1 on each of 64 bits; a bit of the fingerprint is set where the
//! votes are positive. Windows that share most features get fingerprints a few bits
//! apart (Manku, Jain & Das Sarma 2007), which the index finds exactly.
//!
//! Consecutive windows share all but a few features, so the votes are kept in a running
//! tally: moving a window by one token adds one feature and removes one. That makes
//! fingerprinting every position of a suspect (step 1) cost O(64) per token.

use crate::engine::normalize::Token;
use crate::engine::params::{FingerprintParams, Weighting};
use crate::engine::rarity;
use crate::engine::window;
use std::ops::Range;
use xxhash_rust::xxh3::xxh3_64;

/// One stored window of a document: its ordinal among the document's stored windows, its
/// character span in the extracted text, its fingerprint.
#[derive(Clone, Debug)]
pub struct StoredWindow {
    pub ordinal: u32,
    pub char_start: u32,
    pub char_end: u32,
    pub fingerprint: u64,
}

/// The features of a token stream: for each token, the hash of the shortest run of
/// tokens from it that reaches `ngram` units (3 initials, or 1 word), that run's end, and
/// the feature's vote (1, or its tokens' bits with rarity weighting). A stream too short
/// for one full feature gives one feature of all its tokens.
pub struct Features {
    pub hashes: Vec<u64>,
    pub ends: Vec<usize>,
    pub weights: Vec<i16>,
}

pub fn features(tokens: &[Token], p: &FingerprintParams) -> Features {
    use rayon::prelude::*;
    // A feature per token: a novel has a million, made on all threads in pieces, each
    // finding its features' ends from its own first token on.
    const PIECE: usize = 1 << 14;
    let pieces: Vec<Features> = (0..tokens.len().div_ceil(PIECE))
        .into_par_iter()
        .map(|k| features_from(tokens, p, k * PIECE..((k + 1) * PIECE).min(tokens.len())))
        .collect();
    let mut all = Features { hashes: Vec::new(), ends: Vec::new(), weights: Vec::new() };
    for piece in pieces {
        all.hashes.extend(piece.hashes);
        all.ends.extend(piece.ends);
        all.weights.extend(piece.weights);
    }
    if all.hashes.is_empty() && !tokens.is_empty() {
        // Too short for one full feature: one of all its tokens.
        all = features_of(tokens, p, std::iter::once(0..tokens.len()));
    }
    all
}

/// The full features starting at tokens `starts` (those whose rest reaches `p.ngram` units).
fn features_from(tokens: &[Token], p: &FingerprintParams, starts: Range<usize>) -> Features {
    let spans = window::spans_from(tokens, p.ngram as u32, Token::units, starts);
    features_of(tokens, p, spans)
}

/// The features of the token runs `spans`.
fn features_of(tokens: &[Token], p: &FingerprintParams, spans: impl Iterator<Item = Range<usize>>) -> Features {
    let mut f = Features { hashes: Vec::new(), ends: Vec::new(), weights: Vec::new() };
    let mut buf = Vec::with_capacity(p.ngram * 8);
    for sp in spans {
        let run = &tokens[sp.clone()];
        buf.clear();
        run.iter().for_each(|t| buf.extend_from_slice(&t.sym.to_le_bytes()));
        f.hashes.push(xxh3_64(&buf));
        f.weights.push(match p.weighting {
            Weighting::Uniform => 1,
            Weighting::Rarity => (rarity::bits(run).round() as i16).clamp(1, MAX_WEIGHT),
        });
        f.ends.push(sp.end);
    }
    f
}

/// Fingerprints of the windows `spans` (token ranges with increasing starts and ends):
/// each is the simhash of the features that lie wholly inside it (at least one).
pub fn window_fingerprints(f: &Features, spans: &[Range<usize>]) -> Vec<u64> {
    let n = f.hashes.len();
    let mut tally = Tally::default();
    let (mut lo, mut hi) = (0usize, 0usize); // features in the tally
    let mut out = Vec::with_capacity(spans.len());
    for span in spans {
        let new_lo = span.start.min(n.saturating_sub(1));
        let mut new_hi = hi.max(new_lo);
        while new_hi < n && f.ends[new_hi] <= span.end {
            new_hi += 1;
        }
        let new_hi = new_hi.max(new_lo + 1).min(n);
        if new_lo >= hi {
            tally = Tally::default();
            (lo, hi) = (new_lo, new_lo);
        }
        (hi..new_hi).for_each(|i| tally.add(f.hashes[i], f.weights[i]));
        (lo..new_lo).for_each(|i| tally.add(f.hashes[i], -f.weights[i]));
        (lo, hi) = (new_lo, new_hi);
        out.push(tally.fingerprint());
    }
    out
}

/// The stored windows of a tokenized document: ordinal, character span, fingerprint.
pub fn stored_windows(tokens: &[Token], p: &FingerprintParams) -> Vec<StoredWindow> {
    let features = features(tokens, p);
    let spans = window::stored_spans(tokens, p);
    let fps = window_fingerprints(&features, &spans);
    spans
        .iter()
        .zip(fps)
        .enumerate()
        .map(|(ordinal, (span, fingerprint))| StoredWindow {
            ordinal: ordinal as u32,
            char_start: tokens[span.start].start,
            char_end: tokens[span.end - 1].end,
            fingerprint,
        })
        .collect()
}

/// A suspect's query windows ([`window::query_windows`]) and their fingerprints.
pub fn query_fingerprints(tokens: &[Token], p: &FingerprintParams) -> (Vec<Range<usize>>, Vec<u64>) {
    use rayon::prelude::*;
    let features = features(tokens, p);
    let spans = window::query_windows(tokens, p);
    // Up to a window per token: a novel has a million, so they are split among the
    // threads (each chunk starts its running tally afresh).
    let fps = spans.par_chunks(1 << 14).flat_map_iter(|chunk| window_fingerprints(&features, chunk)).collect();
    (spans, fps)
}

/// Hamming distance of two fingerprints.
#[inline]
pub fn distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Per bit of the fingerprint, the votes of features with the bit set minus those without;
/// bit b is at `.0[b / 8][b % 8]`.
#[derive(Default)]
struct Tally([[i16; 8]; 8]);

/// The largest vote of one feature. A tally lane holds at most (features in a window) x
/// (vote): windows have at most 1,024 tokens ([`FingerprintParams::validate`]), so votes up
/// to 31 keep every lane inside an `i16`. Rarity votes are the bits of a feature's tokens:
/// 13 for three Han initials, 4-16 for an English word.
pub const MAX_WEIGHT: i16 = 31;

/// `SPREAD[b][j]` is +1 if bit j of byte b is set, else -1: adding a feature to the tally
/// is 8 lookups and 8 multiply-adds of 8 `i16` lanes (one SSE2 register each, so vector
/// code on any x86-64), instead of 64 per-bit shifts that SSE2 cannot vectorize
/// (measured: fingerprinting was half of import).
const SPREAD: [[i16; 8]; 256] = {
    let mut t = [[0i16; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            t[b][j] = if (b >> j) & 1 == 1 { 1 } else { -1 };
            j += 1;
        }
        b += 1;
    }
    t
};

impl Tally {
    /// Adds a feature's vote `w` (negative to take it out again).
    #[inline]
    fn add(&mut self, h: u64, w: i16) {
        for (lanes, byte) in self.0.iter_mut().zip(h.to_le_bytes()) {
            let spread = &SPREAD[byte as usize];
            // Wrapping ops: the range is bounded above, and release builds check overflow,
            // which would keep this loop from being vector code.
            for j in 0..8 {
                lanes[j] = lanes[j].wrapping_add(spread[j].wrapping_mul(w));
            }
        }
    }
    fn fingerprint(&self) -> u64 {
        self.0.as_flattened().iter().enumerate().fold(0u64, |fp, (b, &v)| fp | (((v > 0) as u64) << b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::normalize::tokenize;

    fn direct(f: &Features, range: Range<usize>) -> u64 {
        let mut t = Tally::default();
        range.for_each(|i| t.add(f.hashes[i], f.weights[i]));
        t.fingerprint()
    }

    const UNIFORM: FingerprintParams = FingerprintParams {
        window: 24,
        step: 6,
        ngram: 3,
        weighting: Weighting::Uniform,
        anchoring: crate::engine::params::Anchoring::EveryStep,
        normalizing: crate::engine::params::Normalizing::Plain,
    };

    const TEXT: &str = "却说张飞拍马赶到关下，关上矢石如雨，不得进而回。次日，张飞又去搦战。\
        曹操在城上看见，张飞一骑当先，厉声大叫：谁敢与我决一死战！";

    /// Features as first written: every token's shortest run of `ngram` units, one pass.
    fn features_in_one_pass(tokens: &[Token], p: &FingerprintParams) -> Features {
        features_of(tokens, p, window::query_spans(tokens, p.ngram).into_iter())
    }

    #[test]
    fn features_made_in_pieces_are_those_of_one_pass() {
        let fixture = include_str!("../../tests/fixtures/corpus/sanguoyanyi_000.txt");
        let mixed = crate::engine::test_texts::han_with_words(fixture);
        for text in [mixed.repeat(6), fixture.repeat(12), "三国".to_string(), "one".to_string(), String::new()] {
            let tokens = tokenize(&text);
            for p in [UNIFORM, FingerprintParams::default()] {
                let (a, b) = (features(&tokens, &p), features_in_one_pass(&tokens, &p));
                assert_eq!((a.hashes, a.ends, a.weights), (b.hashes, b.ends, b.weights), "{} tokens", tokens.len());
            }
        }
    }

    #[test]
    fn running_tally_equals_direct_computation_at_any_step() {
        let text = format!("{TEXT} Then the quick brown fox jumps over the lazy dog, and the dog sleeps on.");
        let tokens = tokenize(&text);
        for p in [UNIFORM, FingerprintParams::default()] {
            let f = features(&tokens, &p);
            for step in [1, 2, 5, 7, 30] {
                let spans: Vec<Range<usize>> = (0..tokens.len() - 10).step_by(step).map(|s| s..s + 10).collect();
                let fps = window_fingerprints(&f, &spans);
                for (sp, &fp) in spans.iter().zip(&fps) {
                    let inside =
                        sp.start..(sp.start..f.ends.len()).take_while(|&i| f.ends[i] <= sp.end).last().unwrap() + 1;
                    assert_eq!(fp, direct(&f, inside), "{p:?} step {step} span {sp:?}");
                }
            }
        }
    }

    /// Charikar's definition, bit by bit: the fingerprints of stores made before rarity
    /// weighting (uniform votes) must come out exactly as they were stored.
    fn by_definition(f: &Features, range: Range<usize>) -> u64 {
        (0..64).fold(0u64, |fp, b| {
            let votes: i64 =
                range.clone().map(|i| if f.hashes[i] >> b & 1 == 1 { 1 } else { -1 } * f.weights[i] as i64).sum();
            fp | (((votes > 0) as u64) << b)
        })
    }

    #[test]
    fn the_vector_tally_is_charikars_simhash_with_uniform_and_rarity_votes() {
        let text = format!("{TEXT} It was the best of times, it was the worst of times, it was the age of wisdom.");
        let tokens = tokenize(&text);
        for p in [UNIFORM, FingerprintParams::default()] {
            let f = features(&tokens, &p);
            for start in 0..f.hashes.len() - 12 {
                assert_eq!(direct(&f, start..start + 12), by_definition(&f, start..start + 12), "{p:?} at {start}");
            }
        }
        // Rarity votes: *the* counts for about a quarter of *wisdom*.
        let f = features(&tokenize("the wisdom"), &FingerprintParams::default());
        assert!(f.weights[1] >= 3 * f.weights[0], "{:?}", f.weights);
    }

    #[test]
    fn rarity_votes_part_english_windows_that_share_only_common_words() {
        // Windows a check once matched by chance (issue #12): within 3 bits with uniform
        // votes, because *the* and *of* decide most bits.
        let fp = |text: &str, p: &FingerprintParams| {
            let t = tokenize(text);
            window_fingerprints(&features(&t, p), std::slice::from_ref(&(0..t.len())))[0]
        };
        let pairs = [
            ("the seriousness of the business. About eleven, the", "the littleness of the houses, the\ntrees, the"),
            ("the seriousness of the business. About eleven, the", "the fight of the caestus, the\nwrestling, the"),
        ];
        for (a, b) in pairs {
            assert!(distance(fp(a, &UNIFORM), fp(b, &UNIFORM)) <= 3, "uniform: {a} / {b}");
            let rarity = distance(fp(a, &FingerprintParams::default()), fp(b, &FingerprintParams::default()));
            assert!(rarity > 3, "rarity: {rarity} bits for {a} / {b}");
        }
    }

    #[test]
    fn one_changed_token_moves_few_bits_unrelated_text_moves_many() {
        let fp = |text: &str| {
            let t = tokenize(text);
            window_fingerprints(&features(&t, &UNIFORM), std::slice::from_ref(&(0..t.len())))[0]
        };
        let changed: String = TEXT.chars().enumerate().map(|(i, c)| if i == 20 { '甲' } else { c }).collect();
        let other = "宝玉听了，忙下床来，笑道：好妹妹，你别恼我，我原是无心的话。黛玉只不理他。\
            袭人在外间听见，也走进来劝了一回，方才罢了。次日起来，众姊妹都往贾母处请安。";
        assert!(distance(fp(TEXT), fp(&changed)) <= 8, "near copy: {}", distance(fp(TEXT), fp(&changed)));
        assert!(distance(fp(TEXT), fp(other)) >= 16, "unrelated: {}", distance(fp(TEXT), fp(other)));
    }

    #[test]
    fn short_streams_still_get_a_fingerprint_and_words_make_bigrams() {
        let t = tokenize("三国");
        let f = features(&t, &UNIFORM);
        assert_eq!((f.hashes.len(), f.ends), (1, vec![2]));
        assert_eq!(query_fingerprints(&t, &FingerprintParams::default()).1.len(), 1);
        let t = tokenize("one two three four");
        assert_eq!(features(&t, &UNIFORM).ends, vec![1, 2, 3, 4], "one word is three units");
    }
}
