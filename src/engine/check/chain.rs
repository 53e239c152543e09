//! Window hits → passages.
//!
//! A hit says: the suspect's query window starting at token `q` is within k bits of the
//! source's stored window starting at token `s`. Hits of one copied passage lie near one
//! diagonal (s - q), advancing together; inserted ads shift the diagonal, typos leave
//! gaps. Hits are chained greedily in suspect order: a hit joins the open chain it
//! continues with the smallest change of diagonal, if neither side jumps more than
//! `max_gap` tokens. A chain is then extended token by token at both ends while the
//! tokens agree, so passage boundaries are exact rather than rounded to the window step.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    /// Suspect token where the query window starts.
    pub q: u32,
    /// Source token where the stored window starts.
    pub s: u32,
    pub distance: u32,
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

/// Chains `hits` (any order) into passages. `q_len`/`s_len` are the token counts.
pub fn chain(hits: &mut [Hit], window: usize, max_gap: usize, q_len: usize, s_len: usize) -> Vec<TokenPassage> {
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
            if drift <= max_gap as i64 && best.is_none_or(|(_, d)| drift < d) {
                best = Some((i, drift));
            }
        }
        let q_end = (h.q as usize + window).min(q_len);
        let s_end = (h.s as usize + window).min(s_len);
        match best {
            Some((i, _)) => {
                let (p, lq, ls) = &mut open[i];
                p.q_end = p.q_end.max(q_end);
                p.s_end = p.s_end.max(s_end);
                p.s_start = p.s_start.min(h.s as usize);
                p.distance = p.distance.min(h.distance);
                p.hits += 1;
                (*lq, *ls) = (h.q, h.s);
            }
            None if open.iter().any(|(_, lq, ls)| *lq == h.q && *ls == h.s) => {}
            None => open.push((
                TokenPassage { q_start: h.q as usize, q_end, s_start: h.s as usize, s_end, distance: h.distance, hits: 1 },
                h.q,
                h.s,
            )),
        }
    }
    done.extend(open.into_iter().map(|o| o.0));
    done.sort_by_key(|p| (p.q_start, p.s_start));
    done
}

/// Moves a passage's ends outwards while suspect and source tokens agree, allowing one
/// differing token when the next `RESUME` agree again (a typo inside copied text).
pub fn extend(p: &mut TokenPassage, q: &[u64], s: &[u64]) {
    const RESUME: usize = 3;
    let agree_before = |qi: usize, si: usize, n: usize| (1..=n).all(|k| qi >= k && si >= k && q[qi - k] == s[si - k]);
    let agree_after = |qi: usize, si: usize, n: usize| (0..n).all(|k| qi + k < q.len() && si + k < s.len() && q[qi + k] == s[si + k]);
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

/// Merges passages that overlap on both sides (a chain split by a gap and re-joined by
/// extension, or the same text reached from two chains).
pub fn merge_overlapping(mut ps: Vec<TokenPassage>) -> Vec<TokenPassage> {
    ps.sort_by_key(|p| (p.q_start, p.s_start));
    let mut out: Vec<TokenPassage> = Vec::with_capacity(ps.len());
    for p in ps {
        if let Some(last) = out.iter_mut().rev().take(4).find(|l| {
            p.q_start <= l.q_end && p.s_start <= l.s_end && l.s_start <= p.s_end
        }) {
            last.q_end = last.q_end.max(p.q_end);
            last.s_start = last.s_start.min(p.s_start);
            last.s_end = last.s_end.max(p.s_end);
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
        Hit { q, s, distance: 1 }
    }

    #[test]
    fn a_shifted_copy_is_one_passage() {
        // Source windows every 6 tokens, copied with a 100-token shift.
        let mut hits: Vec<Hit> = (0..20).map(|i| hit(100 + i * 6, i * 6)).collect();
        let ps = chain(&mut hits, 24, 60, 1000, 1000);
        assert_eq!(ps.len(), 1);
        assert_eq!((ps[0].q_start, ps[0].q_end, ps[0].s_start, ps[0].s_end), (100, 238, 0, 138));
    }

    #[test]
    fn an_inserted_ad_keeps_the_chain_and_shuffled_paragraphs_split_it() {
        let mut hits: Vec<Hit> = (0..5).map(|i| hit(i * 6, i * 6)).chain((6..10).map(|i| hit(i * 6 + 30, i * 6))).collect();
        assert_eq!(chain(&mut hits, 24, 60, 1000, 1000).len(), 1);
        // Second half of the suspect comes from before the first half of the source.
        let mut hits: Vec<Hit> = (10..15).map(|i| hit((i - 10) * 6, i * 6)).chain((0..5).map(|i| hit(100 + i * 6, i * 6))).collect();
        assert_eq!(chain(&mut hits, 24, 60, 1000, 1000).len(), 2);
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
