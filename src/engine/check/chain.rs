//! Window hits → passages.
//!
//! A hit says: the suspect's query window starting at token `q` is within k bits of the
//! source's stored window starting at token `s`. Hits of one copied passage lie near one
//! diagonal (s - q), advancing together; typos leave gaps and shift the diagonal by a
//! token or two, inserted ads or cut paragraphs shift it by more. Hits are chained
//! greedily in suspect order: a hit joins the open chain it continues with the smallest
//! change of diagonal, if neither side jumps more than `max_gap` tokens and the diagonal
//! moves by at most [`MAX_DRIFT`]. A larger move starts a new passage, so a passage is
//! text that corresponds on both sides, never an ad line bridged over. A chain is then extended token by token at both ends while the
//! tokens agree, so passage boundaries are exact rather than rounded to the window step.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    /// Suspect tokens of the query window: `q..q_end`.
    pub q: u32,
    /// Source tokens of the stored window: `s..s_end`.
    pub s: u32,
    pub distance: u32,
    pub q_end: u32,
    pub s_end: u32,
}

/// A passage in token coordinates, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenPassage {
    pub q_start: usize,
    pub q_end: usize,
    pub s_start: usize,
    pub s_end: usize,
    pub distance: u32,
    pub hits: usize,
}

/// Largest change of diagonal (tokens inserted or deleted) inside one passage: typos
/// shift it by one or two, an inserted ad line by ten or more.
pub const MAX_DRIFT: i64 = 4;

/// Chains `hits` (any order) into passages.
///
/// A stored window is often also near a query window one token off its true alignment
/// (a shift by one changes only a few features); only the closest hits of each stored
/// window are kept, and a passage's ends come from its first and last hit, so its two
/// ranges stay aligned.
pub fn chain(hits: &mut Vec<Hit>, max_gap: usize) -> Vec<TokenPassage> {
    hits.sort_unstable_by_key(|h| (h.s, h.distance, h.q));
    let mut best_of_s: Vec<Hit> = Vec::with_capacity(hits.len());
    for h in hits.iter() {
        match best_of_s.last() {
            Some(b) if b.s == h.s && h.distance > b.distance => {}
            _ => best_of_s.push(*h),
        }
    }
    *hits = best_of_s;
    hits.sort_unstable();
    let mut open: Vec<(TokenPassage, u32, u32)> = Vec::new(); // passage, last q, last s
    let mut done = Vec::new();
    for h in hits.iter() {
        // Close chains the suspect has moved too far past.
        let mut i = 0;
        while i < open.len() {
            if h.q as usize > open[i].1 as usize + max_gap {
                done.push(open.swap_remove(i).0);
            } else {
                i += 1;
            }
        }
        let mut best: Option<(usize, i64)> = None;
        for (i, (_, lq, ls)) in open.iter().enumerate() {
            let dq = h.q as i64 - *lq as i64;
            let ds = h.s as i64 - *ls as i64;
            if (dq == 0 && ds == 0) || ds < 0 || ds > max_gap as i64 {
                continue;
            }
            let drift = (dq - ds).abs();
            if drift <= MAX_DRIFT && best.is_none_or(|(_, d)| drift < d) {
                best = Some((i, drift));
            }
        }
        let (q_end, s_end) = (h.q_end as usize, h.s_end as usize);
        match best {
            Some((i, _)) => {
                let (p, lq, ls) = &mut open[i];
                p.q_end = q_end;
                p.s_end = s_end;
                p.distance = p.distance.min(h.distance);
                p.hits += 1;
                (*lq, *ls) = (h.q, h.s);
            }
            None => open.push((
                TokenPassage {
                    q_start: h.q as usize,
                    q_end,
                    s_start: h.s as usize,
                    s_end,
                    distance: h.distance,
                    hits: 1,
                },
                h.q,
                h.s,
            )),
        }
    }
    done.extend(open.into_iter().map(|o| o.0));
    done.sort_by_key(|p| (p.q_start, p.s_start));
    done
}

/// Re-aligns each end of a passage to the shift (within [`MAX_DRIFT`]) under which its
/// first and last `window` tokens (or fewer, in a short passage) agree best. A window one or two tokens off its true
/// alignment can still be within k bits, and a passage may start or end on such a hit.
pub fn realign(p: &mut TokenPassage, q: &[u64], s: &[u64], window: usize) {
    let agreement = |qs: usize, ss: i64, n: usize| -> usize {
        (0..n)
            .filter(|&i| {
                ss + (i as i64) >= 0 && ((ss as usize) + i) < s.len() && q.get(qs + i) == s.get(ss as usize + i)
            })
            .count()
    };
    let best_shift = |qs: usize, ss: usize, n: usize| -> i64 {
        (-MAX_DRIFT..=MAX_DRIFT)
            .filter(|d| ss as i64 + d >= 0)
            .max_by_key(|&d| (agreement(qs, ss as i64 + d, n), std::cmp::Reverse(d.abs())))
            .unwrap_or(0)
    };
    let n = window.min(p.q_end - p.q_start);
    let start = (p.s_start as i64 + best_shift(p.q_start, p.s_start, n)) as usize;
    let end = ((p.s_end as i64 + best_shift(p.q_end - n, p.s_end.saturating_sub(n), n)) as usize).min(s.len());
    // A passage of a few tokens can have its two ends shifted past each other.
    if start < end {
        (p.s_start, p.s_end) = (start, end);
    }
}

/// Moves a passage's ends outwards while suspect and source tokens agree, allowing one
/// differing token when the next `RESUME` agree again (a typo inside copied text).
pub fn extend(p: &mut TokenPassage, q: &[u64], s: &[u64]) {
    const RESUME: usize = 3;
    let agree_before = |qi: usize, si: usize, n: usize| (1..=n).all(|k| qi >= k && si >= k && q[qi - k] == s[si - k]);
    let agree_after =
        |qi: usize, si: usize, n: usize| (0..n).all(|k| qi + k < q.len() && si + k < s.len() && q[qi + k] == s[si + k]);
    loop {
        if agree_before(p.q_start, p.s_start, 1) {
            p.q_start -= 1;
            p.s_start -= 1;
        } else if p.q_start > 1 && p.s_start > 1 && agree_before(p.q_start - 1, p.s_start - 1, RESUME) {
            p.q_start -= RESUME + 1;
            p.s_start -= RESUME + 1;
        } else {
            break;
        }
    }
    loop {
        if agree_after(p.q_end, p.s_end, 1) {
            p.q_end += 1;
            p.s_end += 1;
        } else if agree_after(p.q_end + 1, p.s_end + 1, RESUME) {
            p.q_end += RESUME + 1;
            p.s_end += RESUME + 1;
        } else {
            break;
        }
    }
}

/// Trims up to `max` tokens from each end of a passage while the outermost tokens agree
/// only by pinyin initial, not by character (`same_char`): extension stops at a mismatch
/// of initials, but one chance agreement of initials (验/寅, both "y") at a paragraph
/// boundary would otherwise pull a neighbouring character into the passage.
pub fn trim_chance_ends(p: &mut TokenPassage, max: usize, same_char: impl Fn(usize, usize) -> bool) {
    for _ in 0..max {
        if p.q_end - p.q_start > 1 && !same_char(p.q_start, p.s_start) {
            p.q_start += 1;
            p.s_start += 1;
        }
        if p.q_end - p.q_start > 1 && !same_char(p.q_end - 1, p.s_end - 1) {
            p.q_end -= 1;
            p.s_end -= 1;
        }
    }
}

/// Merges passages that overlap on both sides along nearly the same diagonal (a chain
/// split by a gap and re-joined by extension). The merged passage keeps the start of the
/// first and the end of the one reaching further, so its ranges stay aligned.
pub fn merge_overlapping(mut ps: Vec<TokenPassage>) -> Vec<TokenPassage> {
    ps.sort_by_key(|p| (p.q_start, p.s_start));
    let diag = |q: usize, s: usize| s as i64 - q as i64;
    let mut out: Vec<TokenPassage> = Vec::with_capacity(ps.len());
    for p in ps {
        let joins = |l: &&mut TokenPassage| {
            p.q_start <= l.q_end
                && p.s_start <= l.s_end
                && l.s_start <= p.s_end
                && (diag(l.q_end, l.s_end) - diag(p.q_start, p.s_start)).abs() <= MAX_DRIFT
        };
        if let Some(last) = out.iter_mut().rev().take(4).find(joins) {
            if p.q_end > last.q_end {
                last.q_end = p.q_end;
                last.s_end = p.s_end;
            }
            last.distance = last.distance.min(p.distance);
            last.hits += p.hits;
        } else {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(q: u32, s: u32) -> Hit {
        Hit { q, s, distance: 1, q_end: q + 24, s_end: s + 24 }
    }

    #[test]
    fn a_shifted_copy_is_one_passage() {
        // Source windows every 6 tokens, copied with a 100-token shift.
        let mut hits: Vec<Hit> = (0..20).map(|i| hit(100 + i * 6, i * 6)).collect();
        // Off-by-one neighbours at a larger distance are dropped.
        hits.extend((0..20).map(|i| Hit { distance: 3, ..hit(101 + i * 6, i * 6) }));
        let ps = chain(&mut hits, 60);
        assert_eq!(ps.len(), 1);
        assert_eq!((ps[0].q_start, ps[0].q_end, ps[0].s_start, ps[0].s_end), (100, 238, 0, 138));
    }

    #[test]
    fn typos_keep_the_chain_ads_and_shuffled_paragraphs_split_it() {
        // A typo deleted two tokens: one passage. An ad of 30 tokens: two passages.
        let mut hits: Vec<Hit> =
            (0..5).map(|i| hit(i * 6, i * 6)).chain((6..10).map(|i| hit(i * 6 - 2, i * 6))).collect();
        assert_eq!(chain(&mut hits, 60).len(), 1);
        let mut hits: Vec<Hit> =
            (0..5).map(|i| hit(i * 6, i * 6)).chain((6..10).map(|i| hit(i * 6 + 30, i * 6))).collect();
        assert_eq!(chain(&mut hits, 60).len(), 2);
        // Second half of the suspect comes from before the first half of the source.
        let mut hits: Vec<Hit> =
            (10..15).map(|i| hit((i - 10) * 6, i * 6)).chain((0..5).map(|i| hit(100 + i * 6, i * 6))).collect();
        assert_eq!(chain(&mut hits, 60).len(), 2);
    }

    #[test]
    fn realign_fixes_an_off_diagonal_first_hit() {
        let s: Vec<u64> = (0..100).collect();
        let q: Vec<u64> = (20..80).collect();
        // Truly q[i] = s[i + 20]; the passage was started two tokens off.
        let mut p = TokenPassage { q_start: 5, q_end: 40, s_start: 23, s_end: 61, distance: 2, hits: 3 };
        realign(&mut p, &q, &s, 24);
        assert_eq!((p.s_start, p.s_end), (25, 60));
    }

    #[test]
    fn realign_never_turns_a_short_passage_inside_out() {
        // A chain's two sides can differ in length by the drift of its hits (here 11 suspect
        // tokens, 7 source tokens); unrelated tokens let each end pick an opposite shift.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut inverted = 0;
        for _ in 0..2000 {
            let s: Vec<u64> = (0..60).map(|_| rng.u64(0..4)).collect();
            let q: Vec<u64> = (0..60).map(|_| rng.u64(0..4)).collect();
            let mut p = TokenPassage { q_start: 20, q_end: 31, s_start: 20, s_end: 27, distance: 3, hits: 2 };
            realign(&mut p, &q, &s, 24);
            inverted += (p.s_start >= p.s_end) as usize;
            assert!(p.s_end <= s.len());
        }
        assert_eq!(inverted, 0);
    }

    #[test]
    fn extension_reaches_the_exact_ends_and_skips_a_typo() {
        let s: Vec<u64> = (0..100).collect();
        let mut q: Vec<u64> = vec![500, 501, 502];
        q.extend(10..60);
        q[20] = 999; // typo inside the copy
        q.push(777);
        let mut p = TokenPassage { q_start: 25, q_end: 40, s_start: 32, s_end: 47, distance: 0, hits: 1 };
        extend(&mut p, &q, &s);
        assert_eq!((p.q_start, p.q_end, p.s_start, p.s_end), (3, 53, 10, 60));
    }
}
