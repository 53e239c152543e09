//! The in-memory index: Manku, Jain & Das Sarma's permuted sorted tables.
//!
//! Roles, after tantivy: an [`IndexBuilder`] collects (fingerprint, window) pairs;
//! [`IndexBuilder::build`] freezes them into an immutable [`Index`] that checks share
//! as an `Arc` snapshot. After the store changes, a new index is built and swapped in;
//! checks running on the old snapshot finish on it.
//!
//! Invariant: the index is exact. [`Index::query`] returns every stored fingerprint within
//! the requested distance (at most the layout's `max_distance`) and none beyond it; the
//! property test below checks that against a brute-force scan.
//!
//! Good for: millions of lookups per second of "which windows are within k bits".
//! Not for: distances above its layout's k (rebuild with a larger k), or incremental
//! inserts (rebuild; sorting 10^7 entries takes about a second).
//! Cost: 12 bytes per window per table plus 8 per window for the window reference.

mod layout;

use layout::{Permutation, permutations};
use rayon::prelude::*;

/// Which stored window a fingerprint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WindowRef {
    pub doc: u32,
    pub ordinal: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexHit {
    pub window: WindowRef,
    pub distance: u32,
}

pub struct IndexBuilder {
    max_distance: u32,
    blocks: u32,
    entries: Vec<(u64, WindowRef)>,
}

impl IndexBuilder {
    /// A builder for an index answering queries up to `max_distance` bits, laid out with
    /// `max_distance + 1` blocks (one table per block).
    pub fn new(max_distance: u32) -> IndexBuilder {
        IndexBuilder { max_distance, blocks: max_distance + 1, entries: Vec::new() }
    }

    /// Use `blocks` blocks instead (more tables, fewer candidates per query).
    pub fn with_blocks(mut self, blocks: u32) -> IndexBuilder {
        assert!(blocks > self.max_distance);
        self.blocks = blocks;
        self
    }

    /// The same entries for an index answering up to `max_distance` (layout `k+1` blocks).
    pub fn rebuild_for(mut self, max_distance: u32) -> IndexBuilder {
        self.max_distance = max_distance;
        self.blocks = max_distance + 1;
        self
    }

    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
    }

    pub fn push(&mut self, fingerprint: u64, window: WindowRef) {
        self.entries.push((fingerprint, window));
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn build(self) -> Index {
        let perms = permutations(self.max_distance, self.blocks);
        let mut refs: Vec<WindowRef> = Vec::with_capacity(self.entries.len());
        let mut fps: Vec<u64> = Vec::with_capacity(self.entries.len());
        for (fp, r) in self.entries {
            fps.push(fp);
            refs.push(r);
        }
        // Key bits of every table, in the arrangement of each later table: a pair whose
        // difference misses one of them agrees on that earlier key.
        let key_masks: Vec<u64> = perms.iter().map(|p| p.invert(u64::MAX << (64 - p.key_bits))).collect();
        let tables = perms
            .into_par_iter()
            .enumerate()
            .map(|(t, perm)| {
                let earlier_keys = key_masks[..t].iter().map(|&m| perm.apply(m)).collect();
                Table::build(perm, earlier_keys, &fps)
            })
            .collect();
        Index { max_distance: self.max_distance, blocks: self.blocks, tables, refs }
    }
}

struct Table {
    perm: Permutation,
    /// Permuted fingerprints, sorted.
    keys: Vec<u64>,
    /// Entry numbers (into `Index::refs`) parallel to `keys`.
    slots: Vec<u32>,
    /// `dir[p]..dir[p + 1]` are the entries whose top `dir_bits` bits equal `p`.
    dir: Vec<u32>,
    dir_bits: u32,
    /// Key masks of the earlier tables in this table's arrangement.
    earlier_keys: Vec<u64>,
}

impl Table {
    fn build(perm: Permutation, earlier_keys: Vec<u64>, fps: &[u64]) -> Table {
        let mut pairs: Vec<(u64, u32)> = fps.iter().enumerate().map(|(i, &fp)| (perm.apply(fp), i as u32)).collect();
        pairs.sort_unstable();
        // About one entry per directory cell, never more bits than the key has.
        let want = (usize::BITS - pairs.len().leading_zeros()).clamp(4, 24);
        let dir_bits = want.min(perm.key_bits);
        let mut dir = vec![0u32; (1usize << dir_bits) + 1];
        for &(k, _) in &pairs {
            dir[(k >> (64 - dir_bits)) as usize + 1] += 1;
        }
        for i in 1..dir.len() {
            dir[i] += dir[i - 1];
        }
        let (keys, slots) = pairs.into_iter().unzip();
        Table { perm, keys, slots, dir, dir_bits, earlier_keys }
    }

    /// Entries whose key equals the key of `permuted`.
    #[inline]
    fn candidates(&self, permuted: u64) -> std::ops::Range<usize> {
        let cell = (permuted >> (64 - self.dir_bits)) as usize;
        let (lo, hi) = (self.dir[cell] as usize, self.dir[cell + 1] as usize);
        if self.perm.key_bits == self.dir_bits {
            return lo..hi;
        }
        let key = self.perm.key(permuted);
        let bucket = &self.keys[lo..hi];
        let start = bucket.partition_point(|&k| self.perm.key(k) < key);
        let end = start + bucket[start..].partition_point(|&k| self.perm.key(k) == key);
        lo + start..lo + end
    }
}

/// A frozen, exact near-neighbour index over window fingerprints.
pub struct Index {
    max_distance: u32,
    blocks: u32,
    tables: Vec<Table>,
    refs: Vec<WindowRef>,
}

impl Index {
    pub fn empty(max_distance: u32) -> Index {
        IndexBuilder::new(max_distance).build()
    }

    /// The largest distance this index can answer exactly.
    pub fn max_distance(&self) -> u32 {
        self.max_distance
    }

    pub fn len(&self) -> usize {
        self.refs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.refs.is_empty()
    }

    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// Appends to `out` every stored window within `distance` bits of `fingerprint`, each
    /// once. `distance` is clamped to [`Index::max_distance`].
    pub fn query(&self, fingerprint: u64, distance: u32, out: &mut Vec<IndexHit>) {
        let distance = distance.min(self.max_distance);
        for table in &self.tables {
            let q = table.perm.apply(fingerprint);
            for i in table.candidates(q) {
                let diff = table.keys[i] ^ q;
                // A neighbour that agrees on the key of an earlier table was reported there.
                if diff.count_ones() <= distance && table.earlier_keys.iter().all(|&m| diff & m != 0) {
                    let window = self.refs[table.slots[i] as usize];
                    out.push(IndexHit { window, distance: diff.count_ones() });
                }
            }
        }
    }

    /// All (fingerprint, window) pairs, for rebuilding with changes.
    pub fn entries(&self) -> impl Iterator<Item = (u64, WindowRef)> + '_ {
        // Table 0 uses the identity permutation (its blocks stay in place).
        let t = &self.tables[0];
        t.keys.iter().zip(&t.slots).map(|(&fp, &s)| (fp, self.refs[s as usize]))
    }

    /// A builder with the same layout holding the entries of the documents `keep` accepts.
    pub fn to_builder(&self, keep: impl Fn(u32) -> bool) -> IndexBuilder {
        let mut b = IndexBuilder::new(self.max_distance).with_blocks(self.blocks);
        b.reserve(self.len());
        self.entries().filter(|(_, r)| keep(r.doc)).for_each(|(fp, r)| b.push(fp, r));
        b
    }

    /// Approximate heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        let tables: usize =
            self.tables.iter().map(|t| t.keys.capacity() * 8 + t.slots.capacity() * 4 + t.dir.capacity() * 4).sum();
        tables + self.refs.capacity() * std::mem::size_of::<WindowRef>()
    }
}

/// Every fingerprint in `fps` within `distance` of `query`: the reference the index is
/// tested and benchmarked against.
pub fn brute_force(fps: &[u64], query: u64, distance: u32) -> Vec<usize> {
    fps.iter().enumerate().filter(|(_, fp)| (**fp ^ query).count_ones() <= distance).map(|(i, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random fingerprints plus, for each query, planted neighbours at every distance
    /// 0..=k+1; the index must return exactly what a brute-force scan returns.
    #[test]
    fn exact_against_brute_force_with_planted_neighbours() {
        let mut rng = fastrand::Rng::with_seed(7);
        for (k, blocks, n) in [(0, 1, 500), (3, 4, 5000), (3, 5, 3000), (3, 6, 2000), (5, 6, 3000), (6, 9, 1000)] {
            let mut fps: Vec<u64> = (0..n).map(|_| rng.u64(..)).collect();
            let queries: Vec<u64> = (0..200).map(|_| rng.u64(..)).collect();
            for &q in &queries {
                for d in 0..=k + 1 {
                    let mut x = q;
                    let mut flipped = 0;
                    while flipped < d {
                        let bit = 1u64 << rng.u32(0..64);
                        if x & bit == q & bit {
                            x ^= bit;
                            flipped += 1;
                        }
                    }
                    fps.push(x);
                }
                // Neighbours clustered in one block are the hard case for a layout.
                fps.push(q ^ 0b111);
                fps.push(q ^ (0b1111 << 60));
            }
            let mut b = IndexBuilder::new(k).with_blocks(blocks);
            for (i, &fp) in fps.iter().enumerate() {
                b.push(fp, WindowRef { doc: i as u32, ordinal: 0 });
            }
            let index = b.build();
            assert_eq!(index.len(), fps.len());
            let mut out = Vec::new();
            for &q in &queries {
                for dist in [k, k.saturating_sub(1)] {
                    out.clear();
                    index.query(q, dist, &mut out);
                    let mut got: Vec<usize> = out.iter().map(|h| h.window.doc as usize).collect();
                    got.sort_unstable();
                    assert_eq!(got, brute_force(&fps, q, dist), "k={k} blocks={blocks} dist={dist}");
                    for h in &out {
                        assert_eq!(h.distance, (fps[h.window.doc as usize] ^ q).count_ones());
                    }
                }
            }
        }
    }

    #[test]
    fn rebuild_keeps_entries_of_kept_documents_only() {
        let mut b = IndexBuilder::new(3);
        for doc in 0..10u32 {
            for ordinal in 0..20u32 {
                b.push(
                    ((doc as u64) << 32 | ordinal as u64).wrapping_mul(0x9e3779b97f4a7c15),
                    WindowRef { doc, ordinal },
                );
            }
        }
        let index = b.build();
        let rebuilt = index.to_builder(|doc| doc % 2 == 0).build();
        assert_eq!(rebuilt.len(), 100);
        assert!(rebuilt.entries().all(|(_, r)| r.doc % 2 == 0));
        let mut out = Vec::new();
        let fp = (4u64 << 32 | 7).wrapping_mul(0x9e3779b97f4a7c15);
        rebuilt.query(fp, 0, &mut out);
        assert_eq!(out, vec![IndexHit { window: WindowRef { doc: 4, ordinal: 7 }, distance: 0 }]);
    }

    #[test]
    fn empty_index_answers_nothing() {
        let index = Index::empty(3);
        let mut out = Vec::new();
        index.query(42, 3, &mut out);
        assert!(out.is_empty() && index.is_empty());
    }
}
