//! Passages of one source → copied regions.
//!
//! A copy laundered sentence by sentence (洗稿: sentences dropped, neighbours swapped,
//! a filler word put before some) leaves runs of copied text too short to hold a whole
//! stored window; only the longer runs are found by the index. [`fill_gaps`] looks for
//! the short ones where they must be: in the suspect between (and just around) the found
//! passages, against the source near those passages, seeded by exact runs of tokens.
//! [`group`] then joins passages of one source that follow each other closely in the
//! suspect and come from one neighbourhood of the source into regions: one copy, shown and
//! judged as one, however many pieces ads, edits or laundering cut it into.

use super::chain::{self, TokenPassage};
use super::verify::{shingle_hash, shingle_spans};
use crate::engine::normalize::sym_units;
use crate::engine::rarity::syms_bits;
use std::collections::HashMap;

/// Suspect tokens searched between two passages or beyond the outermost ones.
pub const MAX_GAP_TOKENS: usize = 300;
/// How far around its found passages the source is searched, in tokens.
pub const NEIGHBOURHOOD_TOKENS: usize = 300;
/// A seed: an exact run of this many units (8 initials, or 3 words).
const SEED_UNITS: u32 = 8;
/// A piece found in a gap needs this much information (about 11 Han characters, 3-5
/// English words that are not all common).
const MIN_PIECE_BITS: f64 = 46.0;
/// Passages at most this many suspect tokens apart can share a region.
pub const REGION_GAP_TOKENS: usize = 300;

/// Pieces of copied text in the gaps around `found` (passages of one source, any order).
pub fn fill_gaps(found: &[TokenPassage], q: &[u64], s: &[u64]) -> Vec<TokenPassage> {
    let mut ps: Vec<&TokenPassage> = found.iter().collect();
    ps.sort_by_key(|p| p.q_start);
    let mut out = Vec::new();
    // Gaps before the first passage, between neighbours and after the last (suspect
    // ranges), and where in the source their text would come from: around the end of the
    // passage before and the start of the passage after (a laundered sentence moves a few
    // places, not across the book).
    let mut gaps: Vec<(usize, usize, [usize; 2])> = Vec::new();
    if let Some(first) = ps.first() {
        gaps.push((first.q_start.saturating_sub(MAX_GAP_TOKENS), first.q_start, [first.s_start; 2]));
    }
    for w in ps.windows(2) {
        let (a, b) = (w[0], w[1]);
        if b.q_start > a.q_end && b.q_start - a.q_end <= MAX_GAP_TOKENS {
            gaps.push((a.q_end, b.q_start, [a.s_end, b.s_start]));
        }
    }
    if let Some(last) = ps.iter().max_by_key(|p| p.q_end) {
        gaps.push((last.q_end, (last.q_end + MAX_GAP_TOKENS).min(q.len()), [last.s_end; 2]));
    }
    let mut seeds: HashMap<u64, usize> = HashMap::new();
    for (q_lo, q_hi, anchors) in gaps {
        if q_hi <= q_lo {
            continue;
        }
        seeds.clear();
        let mut windows: Vec<(usize, usize)> = anchors
            .iter()
            .map(|&a| (a.saturating_sub(NEIGHBOURHOOD_TOKENS), (a + NEIGHBOURHOOD_TOKENS).min(s.len())))
            .collect();
        if windows[1].0 <= windows[0].1 && windows[0].0 <= windows[1].1 {
            windows = vec![(windows[0].0.min(windows[1].0), windows[0].1.max(windows[1].1))];
        }
        for (s_lo, s_hi) in windows {
            for r in shingle_spans(&s[s_lo..s_hi], SEED_UNITS) {
                seeds.entry(shingle_hash(&s[s_lo + r.start..s_lo + r.end])).or_insert(s_lo + r.start);
            }
        }
        let gap = &q[q_lo..q_hi];
        let spans = shingle_spans(gap, SEED_UNITS);
        let mut i = 0;
        while i < spans.len() {
            let r = spans[i].clone();
            let units: u32 = gap[r.clone()].iter().map(|&t| sym_units(t)).sum();
            let Some(&sj) = (units >= SEED_UNITS).then(|| seeds.get(&shingle_hash(&gap[r.clone()]))).flatten() else {
                i += 1;
                continue;
            };
            let mut p = TokenPassage {
                q_start: q_lo + r.start,
                q_end: q_lo + r.end,
                s_start: sj,
                s_end: sj + r.len(),
                distance: 0,
                hits: 0,
            };
            chain::extend(&mut p, q, s);
            // Stay inside the gap: the passages around it already hold the rest.
            if p.q_start < q_lo {
                p.s_start += q_lo - p.q_start;
                p.q_start = q_lo;
            }
            if p.q_end > q_hi {
                p.s_end = p.s_end.saturating_sub(p.q_end - q_hi);
                p.q_end = q_hi;
            }
            let bits = syms_bits(&q[p.q_start..p.q_end]);
            if p.q_end > p.q_start && p.s_end > p.s_start && bits >= MIN_PIECE_BITS {
                out.push(p);
            }
            // Continue after this piece.
            let next = p.q_end.max(q_lo + r.start + 1) - q_lo;
            while i < spans.len() && spans[i].start < next {
                i += 1;
            }
        }
    }
    out
}

/// The region of each passage (`ps` sorted by suspect start): a passage joins the region
/// of the passage before it when it starts at most [`REGION_GAP_TOKENS`] after that
/// region ends in the suspect and its source side reaches within [`NEIGHBOURHOOD_TOKENS`]
/// of the region's source side (however long the passage itself is).
pub fn group(ps: &[TokenPassage]) -> Vec<usize> {
    let mut out = Vec::with_capacity(ps.len());
    let mut region = 0usize;
    let mut span: Option<(usize, usize, usize)> = None; // q_end, s_start, s_end of the region
    for p in ps {
        match span {
            Some((q_end, s_start, s_end))
                if p.q_start <= q_end + REGION_GAP_TOKENS
                    && p.s_end + NEIGHBOURHOOD_TOKENS >= s_start
                    && p.s_start <= s_end + NEIGHBOURHOOD_TOKENS =>
            {
                span = Some((q_end.max(p.q_end), s_start.min(p.s_start), s_end.max(p.s_end)));
            }
            Some(_) => {
                region += 1;
                span = Some((p.q_end, p.s_start, p.s_end));
            }
            None => span = Some((p.q_end, p.s_start, p.s_end)),
        }
        out.push(region);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::normalize::tokenize;

    fn syms(t: &str) -> Vec<u64> {
        tokenize(t).iter().map(|t| t.sym).collect()
    }

    #[test]
    fn a_swapped_short_sentence_between_two_passages_is_found() {
        let src = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉。天地玄黄宇宙洪荒日月盈昃。辰宿列张寒来暑往秋收冬藏。\
                   闰余成岁律吕调阳云腾致雨露结为霜金生丽水玉出昆冈剑号巨阙珠称夜光。";
        // The suspect swaps the two short middle sentences and adds a filler word.
        let sus = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉。其实辰宿列张寒来暑往秋收冬藏。天地玄黄宇宙洪荒日月盈昃。\
                   闰余成岁律吕调阳云腾致雨露结为霜金生丽水玉出昆冈剑号巨阙珠称夜光。";
        let (q, s) = (syms(sus), syms(src));
        let found = vec![
            TokenPassage { q_start: 0, q_end: 20, s_start: 0, s_end: 20, distance: 0, hits: 1 },
            TokenPassage { q_start: 46, q_end: q.len(), s_start: 44, s_end: s.len(), distance: 0, hits: 1 },
        ];
        let pieces = fill_gaps(&found, &q, &s);
        let mut got: Vec<(usize, usize, usize, usize)> =
            pieces.iter().map(|p| (p.q_start, p.q_end, p.s_start, p.s_end)).collect();
        got.sort();
        // 辰宿列张寒来暑往秋收冬藏 at q 22..34 is s 32..44; 天地玄黄宇宙洪荒日月盈昃 at q 34..46 is s 20..32.
        assert_eq!(got, vec![(22, 34, 32, 44), (34, 46, 20, 32)]);
        let mut all = found.clone();
        all.extend(pieces);
        all.sort_by_key(|p| p.q_start);
        assert_eq!(group(&all), vec![0, 0, 0, 0], "one laundered copy, one region");
    }

    #[test]
    fn unrelated_gaps_stay_empty_and_far_passages_are_other_regions() {
        let src = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉";
        let sus = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉今天天气很好我们一起去公园散步吧";
        let found = vec![TokenPassage { q_start: 0, q_end: 20, s_start: 0, s_end: 20, distance: 0, hits: 1 }];
        assert!(fill_gaps(&found, &syms(sus), &syms(src)).is_empty());
        let p = |q: usize, s: usize| TokenPassage {
            q_start: q,
            q_end: q + 50,
            s_start: s,
            s_end: s + 50,
            distance: 0,
            hits: 1,
        };
        assert_eq!(group(&[p(0, 0), p(60, 60), p(120, 5000), p(2000, 5060)]), vec![0, 0, 1, 2]);
        // A long passage after a short one, an ad line between them: one copy.
        let long = TokenPassage { q_start: 70, q_end: 1070, s_start: 52, s_end: 1052, distance: 0, hits: 40 };
        assert_eq!(group(&[p(0, 0), long]), vec![0, 0]);
    }
}
