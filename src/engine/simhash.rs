//! Charikar's simhash of a window: each feature (an n-gram of token symbols, hashed with
//! xxh3) votes +1 or -1 on each of 64 bits; a bit of the fingerprint is set where the
//! votes are positive. Windows that share most features get fingerprints a few bits
//! apart (Manku, Jain & Das Sarma 2007), which the index finds exactly.
//!
//! Consecutive windows share all but a few features, so the votes are kept in a running
//! tally: moving a window by one token adds one feature and removes one. That makes
//! fingerprinting every position of a suspect (step 1) cost O(64) per token.

use crate::engine::normalize::Token;
use crate::engine::params::FingerprintParams;
use crate::engine::store::StoredWindow;
use crate::engine::window;
use std::ops::Range;
use xxhash_rust::xxh3::xxh3_64;

/// The features of a token stream: for each token, the hash of the shortest run of
/// tokens from it that reaches `ngram` units (3 initials, or 1 word), and that run's
/// end. A stream too short for one full feature gives one feature of all its tokens.
pub fn features(tokens: &[Token], ngram: usize) -> (Vec<u64>, Vec<usize>) {
    let spans = crate::engine::window::query_spans(tokens, ngram);
    let mut buf = Vec::with_capacity(ngram * 8);
    let hashes = spans
        .iter()
        .map(|sp| {
            buf.clear();
            tokens[sp.clone()].iter().for_each(|t| buf.extend_from_slice(&t.sym.to_le_bytes()));
            xxh3_64(&buf)
        })
        .collect();
    (hashes, spans.iter().map(|sp| sp.end).collect())
}

/// Fingerprints of the windows `spans` (token ranges with increasing starts and ends):
/// each is the simhash of the features that lie wholly inside it (at least one).
pub fn window_fingerprints(features: &[u64], feature_ends: &[usize], spans: &[Range<usize>]) -> Vec<u64> {
    let mut tally = Tally::default();
    let (mut lo, mut hi) = (0usize, 0usize); // features in the tally
    let mut out = Vec::with_capacity(spans.len());
    for span in spans {
        let new_lo = span.start.min(features.len().saturating_sub(1));
        let mut new_hi = hi.max(new_lo);
        while new_hi < features.len() && feature_ends[new_hi] <= span.end {
            new_hi += 1;
        }
        let new_hi = new_hi.max(new_lo + 1).min(features.len());
        if new_lo >= hi {
            tally = Tally::default();
            (lo, hi) = (new_lo, new_lo);
        }
        features[hi..new_hi].iter().for_each(|&f| tally.add(f));
        features[lo..new_lo].iter().for_each(|&f| tally.remove(f));
        (lo, hi) = (new_lo, new_hi);
        out.push(tally.fingerprint());
    }
    out
}

/// The stored windows of a tokenized document: ordinal, character span, fingerprint.
pub fn stored_windows(tokens: &[Token], p: &FingerprintParams) -> Vec<StoredWindow> {
    let (features, ends) = features(tokens, p.ngram);
    let spans = window::stored_spans(tokens, p.window, p.step);
    let fps = window_fingerprints(&features, &ends, &spans);
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

/// A suspect's query windows (one per start token, see [`window::query_spans`]) and
/// their fingerprints.
pub fn query_fingerprints(tokens: &[Token], p: &FingerprintParams) -> (Vec<Range<usize>>, Vec<u64>) {
    use rayon::prelude::*;
    let (features, ends) = features(tokens, p.ngram);
    let spans = window::query_spans(tokens, p.window);
    // A window per token: a novel has a million, so they are split among the threads
    // (each chunk starts its running tally afresh).
    let fps = spans.par_chunks(1 << 14).flat_map_iter(|chunk| window_fingerprints(&features, &ends, chunk)).collect();
    (spans, fps)
}

/// Hamming distance of two fingerprints.
#[inline]
pub fn distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Per bit of the fingerprint, (features with the bit set) - (features without); bit b is
/// at `.0[b / 8][b % 8]`.
#[derive(Default)]
struct Tally([[i32; 8]; 8]);

/// `SPREAD[b][j]` is +1 if bit j of byte b is set, else -1: adding a feature to the tally
/// is 8 lookups and 8 adds of 8 lanes (vector code on any x86-64), instead of 64
/// per-bit shifts that SSE2 cannot vectorize (measured: fingerprinting was half of import).
const SPREAD: [[i32; 8]; 256] = {
    let mut t = [[0i32; 8]; 256];
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
    #[inline]
    fn add(&mut self, h: u64) {
        for (lanes, byte) in self.0.iter_mut().zip(h.to_le_bytes()) {
            let spread = &SPREAD[byte as usize];
            for j in 0..8 {
                lanes[j] += spread[j];
            }
        }
    }
    #[inline]
    fn remove(&mut self, h: u64) {
        for (lanes, byte) in self.0.iter_mut().zip(h.to_le_bytes()) {
            let spread = &SPREAD[byte as usize];
            for j in 0..8 {
                lanes[j] -= spread[j];
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

    fn direct(features: &[u64]) -> u64 {
        let mut t = Tally::default();
        features.iter().for_each(|&f| t.add(f));
        t.fingerprint()
    }

    const TEXT: &str = "却说张飞拍马赶到关下，关上矢石如雨，不得进而回。次日，张飞又去搦战。\
        曹操在城上看见，张飞一骑当先，厉声大叫：谁敢与我决一死战！";

    #[test]
    fn running_tally_equals_direct_computation_at_any_step() {
        let tokens = tokenize(TEXT);
        let (f, ends) = features(&tokens, 3);
        for step in [1, 2, 5, 7, 30] {
            let spans: Vec<Range<usize>> = (0..tokens.len() - 10).step_by(step).map(|s| s..s + 10).collect();
            let fps = window_fingerprints(&f, &ends, &spans);
            for (sp, &fp) in spans.iter().zip(&fps) {
                assert_eq!(fp, direct(&f[sp.start..sp.start + 8]), "step {step} span {sp:?}");
            }
        }
    }

    #[test]
    fn one_changed_token_moves_few_bits_unrelated_text_moves_many() {
        let fp = |text: &str| {
            let t = tokenize(text);
            let (f, e) = features(&t, 3);
            window_fingerprints(&f, &e, std::slice::from_ref(&(0..t.len())))[0]
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
        let (f, e) = features(&t, 3);
        assert_eq!((f.len(), e), (1, vec![2]));
        assert_eq!(query_fingerprints(&t, &FingerprintParams::default()).1.len(), 1);
        let t = tokenize("one two three four");
        assert_eq!(features(&t, 3).1, vec![1, 2, 3, 4], "one word is three units");
    }
}
