//! Verification of a passage, independent of the simhash that found it.
//!
//! Window fingerprints within k bits are a hint, not proof: eight English words that are
//! mostly *the, and, of* can land within 3 bits of eight others. Each passage is therefore
//! checked on its tokens (pinyin initials for Han, words for Latin): the share of the
//! suspect side's token shingles that occur on the source side (containment, Broder 1997),
//! and the information of the suspect tokens those shared shingles cover, in bits
//! ([`crate::engine::rarity`]), so that a minimum of evidence means the same in both
//! scripts: 160 bits are about 38 Han characters, or 12-40 English words depending on how
//! common they are.

use crate::engine::normalize::sym_units;
use crate::engine::rarity::syms_bits;

/// Units per shingle: 6 initials (25 bits) or 2 words.
pub const SHINGLE_UNITS: u32 = 6;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verification {
    /// Share of the suspect side's shingles found on the source side, 0..=1.
    pub containment: f64,
    /// Information of the suspect tokens inside shared shingles, in bits.
    pub bits: f64,
}

/// Token ranges of the shingles of `syms`: from each token the shortest run reaching
/// `units` units; a stream shorter than that is one shingle.
pub fn shingle_spans(syms: &[u64], units: u32) -> Vec<std::ops::Range<usize>> {
    crate::engine::window::spans_reaching(syms, units, |&s| sym_units(s))
}

/// A 64-bit hash of a run of token symbols (a few tokens; no allocation: this runs for
/// every token of every passage).
pub fn shingle_hash(syms: &[u64]) -> u64 {
    let h =
        syms.iter().fold(0x243f_6a88_85a3_08d3u64, |h, &s| (h ^ s).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(27));
    h ^ (h >> 31)
}

/// Verifies the passage whose suspect side has tokens `q` and source side `s`.
pub fn verify(q: &[u64], s: &[u64]) -> Verification {
    let mut theirs: Vec<u64> = shingle_spans(s, SHINGLE_UNITS).into_iter().map(|r| shingle_hash(&s[r])).collect();
    theirs.sort_unstable();
    let ours = shingle_spans(q, SHINGLE_UNITS);
    if ours.is_empty() {
        return Verification { containment: 0.0, bits: 0.0 };
    }
    let mut shared = 0usize;
    let mut bits = 0.0f64;
    let mut counted_to = 0usize; // tokens before this already counted
    for r in &ours {
        if theirs.binary_search(&shingle_hash(&q[r.clone()])).is_ok() {
            shared += 1;
            let from = r.start.max(counted_to);
            bits += syms_bits(&q[from..r.end.max(from)]);
            counted_to = counted_to.max(r.end);
        }
    }
    Verification { containment: shared as f64 / ours.len() as f64, bits }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::normalize::tokenize;

    fn syms(t: &str) -> Vec<u64> {
        tokenize(t).iter().map(|t| t.sym).collect()
    }

    #[test]
    fn a_copy_verifies_a_chance_match_does_not() {
        let src = "滚滚长江东逝水，浪花淘尽英雄。是非成败转头空。青山依旧在，几度夕阳红。";
        let v = verify(&syms(src), &syms(src));
        assert_eq!(v.containment, 1.0);
        let han = src.chars().filter(|c| !"，。".contains(*c)).count() as f64;
        assert!((v.bits - han * 4.2).abs() < 0.01, "{} bits for {han} characters", v.bits);
        // Homophones keep every initial: still a full copy.
        let v = verify(&syms("滚滚长江东逝水，浪花涛尽英雄。是非成败转头空。"), &syms(src));
        assert_eq!(v.containment, 1.0);
        // The chance match of two English windows of common words (issue #12).
        let v = verify(
            &syms("I give the jealous, the rejected, the forgotten, the"),
            &syms("I saw the steam from the horses of the"),
        );
        assert_eq!(v.containment, 0.0);
        assert_eq!(v.bits, 0.0);
    }

    #[test]
    fn common_words_carry_less_evidence_than_rare_ones() {
        // Seven words each.
        let common = "and it was in the house of";
        let rare = "ornithologists catalogued migratory warblers near brackish estuaries";
        let (c, r) = (verify(&syms(common), &syms(common)), verify(&syms(rare), &syms(rare)));
        assert_eq!((c.containment, r.containment), (1.0, 1.0));
        assert!(r.bits > 2.0 * c.bits, "rare {} common {}", r.bits, c.bits);
    }

    #[test]
    fn shingles_reach_six_units_and_short_streams_are_one() {
        let s = syms("甲乙丙丁戊己庚 one two");
        let spans = shingle_spans(&s, SHINGLE_UNITS);
        assert_eq!(spans[0], 0..6);
        assert_eq!(spans.last().unwrap().clone(), 7..9, "two words");
        assert_eq!(shingle_spans(&syms("甲乙"), SHINGLE_UNITS), vec![0..2]);
    }
}
