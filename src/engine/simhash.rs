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
use xxhash_rust::xxh3::xxh3_64;

/// Hash of each n-gram of `syms`. A stream shorter than `ngram` gives one feature of all
/// its symbols, so short documents still get a fingerprint.
pub fn feature_hashes(syms: &[u64], ngram: usize) -> Vec<u64> {
    if syms.is_empty() {
        return Vec::new();
    }
    let ngram = ngram.min(syms.len());
    let mut buf = Vec::with_capacity(ngram * 8);
    syms.windows(ngram)
        .map(|gram| {
            buf.clear();
            gram.iter()
                .for_each(|s| buf.extend_from_slice(&s.to_le_bytes()));
            xxh3_64(&buf)
        })
        .collect()
}

/// Fingerprints of the windows starting at `starts` (increasing), each `window` tokens
/// long (cut at the end of the stream), over a stream of `n_tokens` whose features are
/// `features` (from [`feature_hashes`] with the same `ngram`).
pub fn window_fingerprints(
    features: &[u64],
    n_tokens: usize,
    window: usize,
    ngram: usize,
    starts: impl IntoIterator<Item = usize>,
) -> Vec<u64> {
    let mut tally = Tally::default();
    let (mut lo, mut hi) = (0usize, 0usize);
    let mut out = Vec::new();
    for start in starts {
        let end = (start + window).min(n_tokens);
        // Features wholly inside the window; at least one, so tiny windows still hash.
        let (new_lo, new_hi) = if end - start >= ngram {
            (start, end + 1 - ngram)
        } else {
            (
                start.min(features.len().saturating_sub(1)),
                (start + 1).min(features.len()),
            )
        };
        debug_assert!(new_lo >= lo, "starts must increase");
        if new_lo >= hi {
            tally = Tally::default();
            (lo, hi) = (new_lo, new_lo);
        }
        features[hi..new_hi.max(hi)]
            .iter()
            .for_each(|&f| tally.add(f));
        features[lo..new_lo].iter().for_each(|&f| tally.remove(f));
        (lo, hi) = (new_lo, new_hi.max(hi));
        out.push(tally.fingerprint());
    }
    out
}

/// The stored windows of a tokenized document: ordinal, character span, fingerprint.
pub fn stored_windows(tokens: &[Token], p: &FingerprintParams) -> Vec<StoredWindow> {
    let syms: Vec<u64> = tokens.iter().map(|t| t.sym).collect();
    let features = feature_hashes(&syms, p.ngram);
    let starts = window::stored_starts(tokens.len(), p.window, p.step);
    let fps = window_fingerprints(
        &features,
        tokens.len(),
        p.window,
        p.ngram,
        starts.iter().copied(),
    );
    starts
        .iter()
        .zip(fps)
        .enumerate()
        .map(|(ordinal, (&start, fingerprint))| {
            let span = window::span(start, tokens.len(), p.window);
            StoredWindow {
                ordinal: ordinal as u32,
                char_start: tokens[span.start].start,
                char_end: tokens[span.end - 1].end,
                fingerprint,
            }
        })
        .collect()
}

/// Fingerprints of a suspect's query windows, one per start token (see
/// [`window::query_starts`]).
pub fn query_fingerprints(tokens: &[Token], p: &FingerprintParams) -> Vec<u64> {
    let syms: Vec<u64> = tokens.iter().map(|t| t.sym).collect();
    let features = feature_hashes(&syms, p.ngram);
    window_fingerprints(
        &features,
        tokens.len(),
        p.window,
        p.ngram,
        window::query_starts(tokens.len(), p.window),
    )
}

/// Hamming distance of two fingerprints.
#[inline]
pub fn distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

struct Tally([i32; 64]);

impl Default for Tally {
    fn default() -> Self {
        Tally([0; 64])
    }
}

impl Tally {
    #[inline]
    fn add(&mut self, h: u64) {
        for (b, v) in self.0.iter_mut().enumerate() {
            *v += ((h >> b) & 1) as i32 * 2 - 1;
        }
    }
    #[inline]
    fn remove(&mut self, h: u64) {
        for (b, v) in self.0.iter_mut().enumerate() {
            *v -= ((h >> b) & 1) as i32 * 2 - 1;
        }
    }
    fn fingerprint(&self) -> u64 {
        self.0
            .iter()
            .enumerate()
            .fold(0u64, |fp, (b, &v)| fp | (((v > 0) as u64) << b))
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

    fn syms(text: &str) -> Vec<u64> {
        tokenize(text).iter().map(|t| t.sym).collect()
    }

    const TEXT: &str = "却说张飞拍马赶到关下，关上矢石如雨，不得进而回。次日，张飞又去搦战。\
        曹操在城上看见，张飞一骑当先，厉声大叫：谁敢与我决一死战！";

    #[test]
    fn running_tally_equals_direct_computation_at_any_step() {
        let s = syms(TEXT);
        let f = feature_hashes(&s, 3);
        for step in [1, 2, 5, 7, 30] {
            let starts: Vec<usize> = (0..s.len() - 10).step_by(step).collect();
            let fps = window_fingerprints(&f, s.len(), 10, 3, starts.iter().copied());
            for (&st, &fp) in starts.iter().zip(&fps) {
                assert_eq!(fp, direct(&f[st..st + 8]), "step {step} start {st}");
            }
        }
    }

    #[test]
    fn one_changed_token_moves_few_bits_unrelated_text_moves_many() {
        let a = syms(TEXT);
        let mut b = a.clone();
        b[20] = b'x' as u64;
        let fa = window_fingerprints(&feature_hashes(&a, 3), a.len(), a.len(), 3, [0]);
        let fb = window_fingerprints(&feature_hashes(&b, 3), b.len(), b.len(), 3, [0]);
        let other = syms(
            "宝玉听了，忙下床来，笑道：好妹妹，你别恼我，我原是无心的话。黛玉只不理他。\
            袭人在外间听见，也走进来劝了一回，方才罢了。次日起来，众姊妹都往贾母处请安。",
        );
        let fc = window_fingerprints(&feature_hashes(&other, 3), other.len(), other.len(), 3, [0]);
        assert!(
            distance(fa[0], fb[0]) <= 8,
            "near copy: {}",
            distance(fa[0], fb[0])
        );
        assert!(
            distance(fa[0], fc[0]) >= 16,
            "unrelated: {}",
            distance(fa[0], fc[0])
        );
    }

    #[test]
    fn short_streams_still_get_a_fingerprint() {
        let s = syms("三国");
        let f = feature_hashes(&s, 3);
        assert_eq!(f.len(), 1);
        assert_eq!(window_fingerprints(&f, s.len(), 24, 3, [0]).len(), 1);
    }
}
