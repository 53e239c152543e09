//! How much a token says: its information in bits, from a background table per script.
//!
//! Two uses, both against chance agreement of common text: features vote in a window's
//! simhash with the bits of their tokens ([`crate::engine::params::Weighting::Rarity`]),
//! and a passage needs enough bits of verified shared text before it is reported
//! (`check::verify`).
//!
//! Why a fixed background table and not document frequencies of the corpus: a stored
//! fingerprint must be computed the same way at import and at every later check, and
//! frequencies that move with each import would change the weights under the stored
//! fingerprints (every import would call for a re-fingerprint of the corpus). The table is
//! part of the program; a store records which weighting made its windows.
//!
//! - A Han character is one pinyin initial: 4.2 bits on average (23 letters in use, as the
//!   data README measures). One value for all: Chinese text has no function words that
//!   dominate windows the way *the* and *of* do, and the measured Chinese precision was
//!   already clean, so its fingerprints stay what they were.
//! - A Latin word: −log2 of its frequency in a background of 1.6 million words of English
//!   books (`assets/background/en-words.tsv`, made by `make_en_words.py`), between
//!   [`MIN_WORD_BITS`] and [`RARE_WORD_BITS`]; a word not in the table (rarer than 25 per
//!   million, a name, a number) is [`RARE_WORD_BITS`].
//! - Any other token (a Han character without a reading, kana, hangul): [`OTHER_BITS`].

use crate::engine::normalize::{Token, WORD, word_symbol};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Bits of a Han character's pinyin initial.
pub const HAN_INITIAL_BITS: f32 = 4.2;
/// Bits of a word rarer than any in the background table.
pub const RARE_WORD_BITS: f32 = 16.0;
/// The floor for the commonest words (*the* is 4.1).
pub const MIN_WORD_BITS: f32 = 3.0;
/// Bits of a syllable token of a script without a table (kana, hangul, Han without reading).
pub const OTHER_BITS: f32 = 8.0;

const EN_WORDS: &str = include_str!("../../assets/background/en-words.tsv");

fn word_bits_table() -> &'static HashMap<u64, f32> {
    static TABLE: OnceLock<HashMap<u64, f32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        EN_WORDS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let (word, per_million) = l.split_once('\t')?;
                let p = per_million.trim().parse::<f64>().ok()? / 1e6;
                let bits = (-p.log2()) as f32;
                Some((word_symbol(word), bits.clamp(MIN_WORD_BITS, RARE_WORD_BITS)))
            })
            .collect()
    })
}

/// The information of one token symbol, in bits.
pub fn sym_bits(sym: u64) -> f32 {
    if sym < 128 {
        HAN_INITIAL_BITS
    } else if sym & WORD != 0 {
        word_bits_table().get(&sym).copied().unwrap_or(RARE_WORD_BITS)
    } else {
        OTHER_BITS
    }
}

/// The information of a run of token symbols, in bits.
pub fn syms_bits(syms: &[u64]) -> f64 {
    syms.iter().map(|&s| sym_bits(s) as f64).sum()
}

/// The information of `tokens`, in bits.
pub fn bits(tokens: &[Token]) -> f32 {
    tokens.iter().map(|t| sym_bits(t.sym)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::normalize::tokenize;

    #[test]
    fn common_words_say_less_than_rare_ones_and_han_is_flat() {
        let b = |text: &str| bits(&tokenize(text));
        assert!(b("the") < 4.5 && b("the") >= MIN_WORD_BITS, "{}", b("the"));
        assert!(b("of the") < 10.0);
        assert!(b("jealous") > 12.0, "{}", b("jealous"));
        assert_eq!(b("Zhiwenxyz"), RARE_WORD_BITS);
        assert!((b("滚滚长江东逝水") - 7.0 * HAN_INITIAL_BITS).abs() < 1e-3);
        // Case and script folding reach the table: THE is the.
        assert_eq!(b("THE"), b("the"));
    }
}
