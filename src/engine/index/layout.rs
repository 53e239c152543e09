//! Block arrangements of the permuted tables.
//!
//! The 64 bits are split into `b` blocks (b > k). Two fingerprints at most k bits apart
//! differ in at most k blocks, so they agree exactly on at least b-k of them (pigeonhole).
//! One table exists for every choice of b-k blocks: its entries are permuted so those
//! blocks form the top bits (the key), sorted, and a query only scans the entries whose
//! key equals its own. With b = k+1 that is k+1 tables keyed on ~64/(k+1) bits; a larger
//! b gives more tables with longer keys (fewer candidates per query, more memory).

/// One table's permutation: each block moved from `src` to `dst` (bit shifts from the
/// least significant end), and how many top bits form the key.
#[derive(Clone, Debug)]
pub struct Permutation {
    moves: Vec<(u32, u32, u32)>, // (src_shift, width, dst_shift)
    pub key_bits: u32,
}

impl Permutation {
    #[inline]
    pub fn apply(&self, fp: u64) -> u64 {
        self.moves.iter().fold(0, |acc, &(src, width, dst)| acc | (((fp >> src) & mask(width)) << dst))
    }

    #[inline]
    pub fn invert(&self, permuted: u64) -> u64 {
        self.moves.iter().fold(0, |acc, &(src, width, dst)| acc | (((permuted >> dst) & mask(width)) << src))
    }
}

#[inline]
fn mask(width: u32) -> u64 {
    if width >= 64 { u64::MAX } else { (1u64 << width) - 1 }
}

/// The permutations for distance `k` with `blocks` blocks (`blocks` > `k`).
pub fn permutations(k: u32, blocks: u32) -> Vec<Permutation> {
    assert!(blocks > k && blocks <= 64, "need more blocks ({blocks}) than the distance ({k})");
    // Blocks from the most significant end; the first 64 % blocks get one extra bit.
    let mut spans = Vec::new(); // (shift, width)
    let mut top = 64u32;
    for i in 0..blocks {
        let width = 64 / blocks + u32::from(i < 64 % blocks);
        top -= width;
        spans.push((top, width));
    }
    combinations(blocks as usize, (blocks - k) as usize)
        .into_iter()
        .map(|chosen| {
            let order = chosen.iter().copied().chain((0..blocks as usize).filter(|i| !chosen.contains(i)));
            let mut dst_top = 64u32;
            let mut moves = Vec::new();
            for i in order {
                let (src, width) = spans[i];
                dst_top -= width;
                moves.push((src, width, dst_top));
            }
            let key_bits = chosen.iter().map(|&i| spans[i].1).sum();
            Permutation { moves, key_bits }
        })
        .collect()
}

fn combinations(n: usize, r: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(r);
    fn go(start: usize, n: usize, r: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == r {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, r, cur, out);
            cur.pop();
        }
    }
    go(0, n, r, &mut cur, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_bijections_and_the_first_is_the_identity() {
        for (k, b) in [(0, 1), (3, 4), (3, 5), (3, 6), (5, 7), (8, 9)] {
            let perms = permutations(k, b);
            assert_eq!(perms.len(), combinations(b as usize, (b - k) as usize).len());
            assert_eq!(perms[0].apply(0x0123_4567_89ab_cdef), 0x0123_4567_89ab_cdef);
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for p in &perms {
                for _ in 0..100 {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    assert_eq!(p.invert(p.apply(x)), x);
                    assert_eq!(p.apply(x).count_ones(), x.count_ones());
                }
            }
        }
    }
}
