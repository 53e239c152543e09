//! The in-memory index: Manku, Jain & Das Sarma's permuted tables, laid out compactly.
//!
//! Roles, after tantivy: an [`IndexBuilder`] collects (fingerprint, window) pairs;
//! [`IndexBuilder::build`] freezes them into an immutable [`Index`] that checks share
//! as an `Arc` snapshot. After the store changes, a new index is built and swapped in;
//! checks running on the old snapshot finish on it.
//!
//! Invariant: the index is exact. [`Index::query`] returns every stored fingerprint within
//! the requested distance (at most the layout's `max_distance`) and none beyond it, each
//! once; the property test below checks that against a brute-force scan.
//!
//! Layout (k = 3, four 16-bit blocks, at 10^7 windows about 30 bytes per window):
//! - `fps`: the fingerprints themselves, grouped by table 0's key (its block 0) through a
//!   directory, so table 0 is scanned in place; from [`TABLE0_TAGS_FROM`] windows on, through
//!   a 4-byte tag per window beside them (the 32 bits after the key), half the bytes;
//! - every other table is a directory on its key block plus 6 bytes per window: a slot into
//!   `fps` (as many bits as the index needs, 24 at 10^7) and, in the bits left, a *tag*: the
//!   permuted bits after the key. They are kept as a u32 lane (the tag, then the slot's low
//!   bits) and a u16 (the slot's high bits), so the scan streams over 4-byte lanes. A
//!   neighbour within k bits differs from the query in at most k bits of the tag too, so a
//!   full fingerprint is fetched only for the few entries whose tag is close (at 10^7 about
//!   one random entry in 7000);
//! - windows are numbered in push order and described by runs (document, first ordinal),
//!   one per document, instead of a reference per window.
//!
//! Good for: millions of lookups per second of "which windows are within k bits".
//! Not for: distances above its layout's k (rebuild with a larger k), or incremental
//! inserts (rebuild; bucketing 10^7 entries takes a fraction of a second per table).

pub mod group_join;
mod layout;
mod memory;
mod scan;

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

/// Consecutive entries of one document with consecutive ordinals, from entry `first`.
#[derive(Clone, Copy, Debug)]
struct Run {
    first: u32,
    doc: u32,
    ordinal: u32,
}

/// Queries one task of [`Index::query_batch`] sweeps a table for.
const SWEEP: usize = 4096;

/// Bytes of buckets asked for ahead of the one scanned.
const LOOK_AHEAD: usize = 16 << 10;

/// A hit of [`Index::query_batch`] before it is resolved to its window.
struct Found {
    position: u32,
    table: u32,
    slot: u32,
    distance: u32,
}

/// Asks the CPU to start loading `x`'s cache line; a hint, never a fault.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of x86-64; a prefetch reads nothing and cannot fault.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

pub struct IndexBuilder {
    max_distance: u32,
    blocks: u32,
    fps: Vec<u64>,
    runs: Vec<Run>,
    /// From this many entries, table 0 gets tags of its own ([`TABLE0_TAGS_FROM`]).
    table0_tags_from: usize,
}

/// Entries from which table 0 is scanned through 4-byte tags instead of the 8-byte
/// fingerprints: half the bytes its buckets stream per query, for 4 more bytes per window.
/// Above 2^25 windows the lookups are bound by memory bandwidth (the buckets hold hundreds
/// to thousands of entries) and the budget is 40 bytes per window; below, the index keeps
/// to 32.
pub const TABLE0_TAGS_FROM: usize = 1 << 25;

impl IndexBuilder {
    /// A builder for an index answering queries up to `max_distance` bits, laid out with
    /// `max_distance + 1` blocks (one table per block).
    pub fn new(max_distance: u32) -> IndexBuilder {
        IndexBuilder {
            max_distance,
            blocks: max_distance + 1,
            fps: Vec::new(),
            runs: Vec::new(),
            table0_tags_from: TABLE0_TAGS_FROM,
        }
    }

    /// Table 0 gets tags from `entries` entries on (tests use 0 to cover the layout of
    /// large indexes on small ones).
    pub fn with_table0_tags_from(mut self, entries: usize) -> IndexBuilder {
        self.table0_tags_from = entries;
        self
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
        self.fps.reserve(n);
    }

    /// Adds one window. Windows pushed document by document in ordinal order cost 8 bytes
    /// each here; any other order works but costs a run (12 bytes) per break.
    pub fn push(&mut self, fingerprint: u64, window: WindowRef) {
        let entry = u32::try_from(self.fps.len()).expect("an index holds fewer than 2^32 windows");
        let continues = self.runs.last().is_some_and(|r| {
            r.doc == window.doc && u64::from(r.ordinal) + u64::from(entry - r.first) == u64::from(window.ordinal)
        });
        if !continues {
            self.runs.push(Run { first: entry, doc: window.doc, ordinal: window.ordinal });
        }
        self.fps.push(fingerprint);
    }

    pub fn len(&self) -> usize {
        self.fps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fps.is_empty()
    }

    pub fn build(self) -> Index {
        let perms = permutations(self.max_distance, self.blocks);
        let n = self.fps.len();
        // Directory cells: about one entry per cell, at most 2^24, never more than the key.
        let dir_bits = |key_bits: u32| (usize::BITS - n.leading_zeros()).clamp(4, 24).min(key_bits);
        // Key bits of every table, in the original arrangement.
        let key_masks: Vec<u64> = perms.iter().map(|p| p.invert(u64::MAX << (64 - p.key_bits))).collect();

        // Table 0 orders the fingerprints themselves (a stable counting sort on its cell).
        let perm0 = perms[0].clone();
        let bits0 = dir_bits(perm0.key_bits);
        let cell0 = |fp: u64| (perm0.apply(fp) >> (64 - bits0)) as usize;
        let dir0 = directory(self.fps.iter().map(|&fp| cell0(fp)), bits0);
        let mut fps = memory::zeroed::<u64>(n);
        let mut entry_of = memory::zeroed::<u32>(n);
        let mut cursor = dir0[..dir0.len() - 1].to_vec();
        for (entry, &fp) in self.fps.iter().enumerate() {
            let c = cell0(fp);
            let pos = cursor[c] as usize;
            cursor[c] += 1;
            fps[pos] = fp;
            entry_of[pos] = entry as u32;
        }
        drop(self.fps);
        // Table 0's tags, when it has them: the 32 permuted bits after its directory bits,
        // in `fps` order (so a tag's position is its slot).
        let tags0 = if n >= self.table0_tags_from && n > 0 {
            let mut tags = memory::zeroed::<u32>(n);
            tags.par_iter_mut().zip(fps.par_iter()).for_each(|(t, &fp)| *t = tag(perm0.apply(fp), bits0, 32));
            tags
        } else {
            Vec::new()
        };
        let exact0 = perm0.key_bits.saturating_sub(bits0).min(32);
        let table0 = Table {
            tag_bits: if tags0.is_empty() { 0 } else { 32 },
            tag_exact: if exact0 == 0 { 0 } else { (((1u64 << exact0) - 1) << (32 - exact0)) as u32 },
            tags: tags0,
            perm: perm0,
            dir: dir0,
            dir_bits: bits0,
            slots_high: Vec::new(),
            key_mask: key_masks[0],
            earlier_keys: Vec::new(),
        };
        let rest: Vec<Table> = perms
            .into_par_iter()
            .enumerate()
            .skip(1)
            .map(|(t, perm)| {
                let bits = dir_bits(perm.key_bits);
                Table::build(perm, bits, &key_masks[..=t], &fps)
            })
            .collect();
        let mut tables = vec![table0];
        tables.extend(rest);
        Index { max_distance: self.max_distance, blocks: self.blocks, fps, entry_of, runs: self.runs, tables }
    }
}

/// `dir[c]..dir[c + 1]` is where the entries of cell `c` go, given every entry's cell.
fn directory(cells: impl Iterator<Item = usize>, bits: u32) -> Vec<u32> {
    let mut dir = vec![0u32; (1usize << bits) + 1];
    for c in cells {
        dir[c + 1] += 1;
    }
    for i in 1..dir.len() {
        dir[i] += dir[i - 1];
    }
    dir
}

struct Table {
    perm: Permutation,
    /// `dir[c]..dir[c + 1]` are the entries whose permuted top `dir_bits` bits equal `c`.
    dir: Vec<u32>,
    dir_bits: u32,
    /// Bits of the tag, the low bits of each `tags` lane; the lane's high bits and
    /// `slots_high` hold the entry's slot in `Index::fps`.
    tag_bits: u32,
    /// Tag bits that belong to the key, so must match exactly (when the key is longer
    /// than the directory).
    tag_exact: u32,
    /// Per entry, in directory order: tag and low slot bits. Empty for table 0, whose
    /// entries are `Index::fps` in place.
    tags: Vec<u32>,
    /// Per entry: the high bits of its slot.
    slots_high: Vec<u16>,
    /// This table's key bits in the original arrangement.
    key_mask: u64,
    /// Key bits of the earlier tables: a pair that agrees on one was reported there.
    earlier_keys: Vec<u64>,
}

impl Table {
    /// `key_masks` ends with this table's own.
    fn build(perm: Permutation, dir_bits: u32, key_masks: &[u64], fps: &[u64]) -> Table {
        let (&key_mask, earlier) = key_masks.split_last().expect("a table has a key");
        let cell = |p: u64| (p >> (64 - dir_bits)) as usize;
        let dir = directory(fps.iter().map(|&fp| cell(perm.apply(fp))), dir_bits);
        let mut cursor = dir[..dir.len() - 1].to_vec();
        // A slot needs as many bits as the index has entries (24 at 10^7); the tag gets
        // the rest of the 48 bits of an entry.
        let slot_bits = (usize::BITS - fps.len().leading_zeros()).clamp(16, 32);
        let tag_bits = 48 - slot_bits;
        let mut tags = memory::zeroed::<u32>(fps.len());
        let mut slots_high = memory::zeroed::<u16>(fps.len());
        for (slot, &fp) in fps.iter().enumerate() {
            let p = perm.apply(fp);
            let c = cell(p);
            let pos = cursor[c] as usize;
            cursor[c] += 1;
            let packed = (slot as u64) << tag_bits | u64::from(tag(p, dir_bits, tag_bits));
            tags[pos] = packed as u32;
            slots_high[pos] = (packed >> 32) as u16;
        }
        let exact_bits = perm.key_bits.saturating_sub(dir_bits).min(tag_bits);
        let tag_exact = (((1u64 << exact_bits) - 1) << (tag_bits - exact_bits)) as u32;
        Table { perm, dir, dir_bits, tag_bits, tag_exact, tags, slots_high, key_mask, earlier_keys: earlier.to_vec() }
    }

    /// The directory cell of a fingerprint in this table's arrangement.
    #[inline]
    fn cell(&self, permuted: u64) -> usize {
        (permuted >> (64 - self.dir_bits)) as usize
    }

    /// The entries of directory cell `c`.
    #[inline]
    fn bucket(&self, c: usize) -> std::ops::Range<usize> {
        self.dir[c] as usize..self.dir[c + 1] as usize
    }
}

/// (fingerprint in `table`'s arrangement, position) of every query, in the order of their
/// directory cells: a counting sort on the cell when the queries are many for the cells, as a
/// novel's are (a fraction of the comparison sort's time), else a comparison sort.
fn by_cell(table: &Table, fingerprints: &[u64]) -> Vec<(u64, u32)> {
    let permuted: Vec<(u64, u32)> =
        fingerprints.iter().enumerate().map(|(pos, &fp)| (table.perm.apply(fp), pos as u32)).collect();
    if fingerprints.len() < (1 << table.dir_bits) / 8 {
        let mut order = permuted;
        order.sort_unstable_by_key(|&(p, _)| table.cell(p));
        return order;
    }
    let mut start = vec![0u32; (1 << table.dir_bits) + 1];
    for &(p, _) in &permuted {
        start[table.cell(p) + 1] += 1;
    }
    for c in 1..start.len() {
        start[c] += start[c - 1];
    }
    let mut order = vec![(0u64, 0u32); fingerprints.len()];
    for (p, pos) in permuted {
        let at = &mut start[table.cell(p)];
        order[*at as usize] = (p, pos);
        *at += 1;
    }
    order
}

/// The `tag_bits` permuted bits after the directory bits.
#[inline]
fn tag(permuted: u64, dir_bits: u32, tag_bits: u32) -> u32 {
    (permuted << dir_bits >> (64 - tag_bits)) as u32
}

/// A frozen, exact near-neighbour index over window fingerprints.
pub struct Index {
    max_distance: u32,
    blocks: u32,
    /// Every fingerprint, in table 0's directory order.
    fps: Vec<u64>,
    /// The entry number (push order) of each of `fps`.
    entry_of: Vec<u32>,
    runs: Vec<Run>,
    tables: Vec<Table>,
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
        self.fps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fps.is_empty()
    }

    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// Appends to `out` every stored window within `distance` bits of `fingerprint`, each
    /// once. `distance` is clamped to [`Index::max_distance`].
    pub fn query(&self, fingerprint: u64, distance: u32, out: &mut Vec<IndexHit>) {
        let distance = distance.min(self.max_distance);
        let mut entries = Vec::new();
        for (t, table) in self.tables.iter().enumerate() {
            let p = table.perm.apply(fingerprint);
            entries.clear();
            self.candidates(t, p, table.bucket(table.cell(p)), fingerprint, distance, &mut entries);
            for &entry in &entries {
                let slot = self.slot(t, entry);
                if let Some(distance) = self.verify(t, slot, fingerprint, distance) {
                    out.push(self.hit(slot, distance));
                }
            }
        }
    }

    /// [`Index::query`] for many fingerprints, on all threads: appends (position in
    /// `fingerprints`, hit) pairs, in order of position (and, within one, in the order
    /// `query` gives). Same answers, faster: each table is swept once in address order.
    /// A suspect's queries are sorted by the table's directory cell, so a bucket that
    /// several queries fall into (at 10^7 to 10^8 windows, a novel's 140,000 queries fall
    /// about two to a bucket) is read from memory once and scanned for each of them while
    /// it is in cache, the buckets come in address order, and the next ones are asked for
    /// ahead of use, so their misses overlap with the scanning.
    pub fn query_batch(&self, fingerprints: &[u64], distance: u32, out: &mut Vec<(u32, IndexHit)>) {
        let distance = distance.min(self.max_distance);
        u32::try_from(fingerprints.len()).expect("fewer than 2^32 queries");
        let mut found: Vec<Found> = (0..self.tables.len())
            .into_par_iter()
            .flat_map(|t| {
                let table = &self.tables[t];
                let order = by_cell(table, fingerprints);
                order.par_chunks(SWEEP).flat_map_iter(|chunk| self.sweep(t, chunk, distance)).collect::<Vec<Found>>()
            })
            .collect();
        found.par_sort_unstable_by_key(|f| (f.position, f.table, f.slot));
        for f in &found {
            prefetch(&self.entry_of[f.slot as usize]);
        }
        out.extend(found.iter().map(|f| (f.position, self.hit(f.slot as usize, f.distance))));
    }

    /// The hits of table `t` for the queries in `order`: (fingerprint in the table's
    /// arrangement, position), sorted.
    fn sweep(&self, t: usize, order: &[(u64, u32)], distance: u32) -> Vec<Found> {
        let table = &self.tables[t];
        let in_place = self.scans_fingerprints(t);
        let ask_for = |c: usize| {
            let range = table.bucket(c);
            if in_place {
                self.fps[range].iter().step_by(8).for_each(prefetch);
            } else {
                table.tags[range].iter().step_by(16).for_each(prefetch);
            }
        };
        let cells: Vec<usize> = order.iter().map(|&(permuted, _)| table.cell(permuted)).collect();
        // Buckets are asked for until about `LOOK_AHEAD` bytes ahead of the one scanned are
        // on their way: a DRAM miss takes as long as scanning several small buckets.
        let lane_bytes = if in_place { 8 } else { 4 };
        let (mut asked, mut asked_until) = (0usize, 0usize); // queries whose bucket is asked for; bytes up to there
        let mut scanned_bytes = 0usize;
        // Candidates: (fingerprint, position, entry), then slots. Each step asks for the
        // memory the next one reads before any of it is used, so the misses overlap.
        let mut candidates: Vec<(u64, u32, u32)> = Vec::new();
        let mut entries = Vec::new();
        for (i, (&(permuted, position), &c)) in order.iter().zip(&cells).enumerate() {
            while asked < cells.len() && (asked <= i || asked_until < scanned_bytes + LOOK_AHEAD) {
                if asked == 0 || cells[asked - 1] != cells[asked] {
                    ask_for(cells[asked]);
                    asked_until += table.bucket(cells[asked]).len() * lane_bytes;
                }
                asked += 1;
            }
            if i == 0 || cells[i - 1] != c {
                scanned_bytes += table.bucket(c).len() * lane_bytes;
            }
            let fp = table.perm.invert(permuted);
            entries.clear();
            self.candidates(t, permuted, table.bucket(c), fp, distance, &mut entries);
            for &entry in &entries {
                if t > 0 {
                    prefetch(&table.slots_high[entry as usize]);
                }
                candidates.push((fp, position, entry));
            }
        }
        for (_, _, entry) in &mut candidates {
            *entry = self.slot(t, *entry) as u32;
            prefetch(&self.fps[*entry as usize]);
        }
        candidates
            .into_iter()
            .filter_map(|(fp, position, slot)| {
                let d = self.verify(t, slot as usize, fp, distance)?;
                Some(Found { position, table: t as u32, slot, distance: d })
            })
            .collect()
    }

    /// Appends to `out` the entries (positions in table `t`) of its cell `range` that may
    /// be within `distance` of `fingerprint` (`permuted` in the table's arrangement): their
    /// tags are. [`Index::slot`] turns an entry into its slot in `fps`.
    #[inline]
    fn candidates(
        &self,
        t: usize,
        permuted: u64,
        range: std::ops::Range<usize>,
        fingerprint: u64,
        distance: u32,
        out: &mut Vec<u32>,
    ) {
        let table = &self.tables[t];
        let from = out.len();
        if self.scans_fingerprints(t) {
            scan::close_lanes(&self.fps[range.clone()], fingerprint, u64::MAX, table.key_mask, distance, out);
        } else {
            let want = tag(permuted, table.dir_bits, table.tag_bits);
            let care = (u64::MAX >> (64 - table.tag_bits)) as u32;
            scan::close_lanes(&table.tags[range.clone()], want, care, table.tag_exact, distance, out);
        }
        for j in &mut out[from..] {
            *j += range.start as u32;
        }
    }

    /// Whether table `t` is scanned through the fingerprints themselves (table 0 of an
    /// index below [`TABLE0_TAGS_FROM`]) rather than through tags.
    #[inline]
    fn scans_fingerprints(&self, t: usize) -> bool {
        t == 0 && self.tables[0].tags.is_empty()
    }

    /// The slot in `fps` of table `t`'s `entry`.
    #[inline]
    fn slot(&self, t: usize, entry: u32) -> usize {
        let table = &self.tables[t];
        if t == 0 {
            // Table 0's entries are `fps` in place.
            return entry as usize;
        }
        let high = u64::from(table.slots_high[entry as usize]) << (32 - table.tag_bits);
        (u64::from(table.tags[entry as usize]) >> table.tag_bits | high) as usize
    }

    /// The distance of entry `slot` from `fingerprint` if table `t` reports it: within
    /// `distance`, on `t`'s key, and on no earlier table's key (that table reported it).
    #[inline]
    fn verify(&self, t: usize, slot: usize, fingerprint: u64, distance: u32) -> Option<u32> {
        let table = &self.tables[t];
        let diff = self.fps[slot] ^ fingerprint;
        (diff & table.key_mask == 0
            && diff.count_ones() <= distance
            && table.earlier_keys.iter().all(|&m| diff & m != 0))
        .then(|| diff.count_ones())
    }

    #[inline]
    fn hit(&self, slot: usize, distance: u32) -> IndexHit {
        IndexHit { window: self.window_of_entry(self.entry_of[slot]), distance }
    }

    fn window_of_entry(&self, entry: u32) -> WindowRef {
        let run = &self.runs[self.runs.partition_point(|r| r.first <= entry) - 1];
        WindowRef { doc: run.doc, ordinal: run.ordinal + (entry - run.first) }
    }

    /// All (fingerprint, window) pairs in the order they were pushed, for rebuilding.
    pub fn entries(&self) -> impl Iterator<Item = (u64, WindowRef)> + '_ {
        let mut slot_of = vec![0u32; self.fps.len()];
        for (slot, &entry) in self.entry_of.iter().enumerate() {
            slot_of[entry as usize] = slot as u32;
        }
        let mut run = 0;
        slot_of.into_iter().enumerate().map(move |(entry, slot)| {
            while run + 1 < self.runs.len() && self.runs[run + 1].first as usize <= entry {
                run += 1;
            }
            let r = self.runs[run];
            (self.fps[slot as usize], WindowRef { doc: r.doc, ordinal: r.ordinal + (entry as u32 - r.first) })
        })
    }

    /// A builder with the same layout holding the entries of the documents `keep` accepts.
    pub fn to_builder(&self, keep: impl Fn(u32) -> bool) -> IndexBuilder {
        let mut b = IndexBuilder::new(self.max_distance)
            .with_blocks(self.blocks)
            .with_table0_tags_from(if self.tables[0].tags.is_empty() { TABLE0_TAGS_FROM } else { 0 });
        b.reserve(self.len());
        self.entries().filter(|(_, r)| keep(r.doc)).for_each(|(fp, r)| b.push(fp, r));
        b
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        let tables: usize = self
            .tables
            .iter()
            .map(|t| {
                t.dir.capacity() * 4 + t.tags.capacity() * 4 + t.slots_high.capacity() * 2 + t.earlier_keys.len() * 8
            })
            .sum();
        tables
            + self.fps.capacity() * 8
            + self.entry_of.capacity() * 4
            + self.runs.capacity() * std::mem::size_of::<Run>()
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
        // The last flag: table 0 scanned through its tags, as in large indexes.
        for (k, blocks, n, tags0) in [
            (0, 1, 500, false),
            (3, 4, 5000, false),
            (3, 4, 5000, true),
            (3, 5, 3000, true),
            (3, 6, 2000, false),
            (5, 6, 3000, true),
            (6, 9, 1000, false),
        ] {
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
            let tags_from = if tags0 { 0 } else { usize::MAX };
            let mut b = IndexBuilder::new(k).with_blocks(blocks).with_table0_tags_from(tags_from);
            for (i, &fp) in fps.iter().enumerate() {
                b.push(fp, WindowRef { doc: i as u32, ordinal: 0 });
            }
            let index = b.build();
            assert_eq!(index.tables[0].tags.is_empty(), tags_from > 0);
            assert_eq!(index.len(), fps.len());
            let mut out = Vec::new();
            let mut batch = Vec::new();
            index.query_batch(&queries, k, &mut batch);
            for (i, &q) in queries.iter().enumerate() {
                out.clear();
                index.query(q, k, &mut out);
                let batched: Vec<IndexHit> = batch.iter().filter(|(p, _)| *p as usize == i).map(|&(_, h)| h).collect();
                assert_eq!(batched, out, "query_batch and query disagree, k={k} blocks={blocks}");
            }
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
    fn entries_come_back_in_push_order_with_their_windows() {
        // Documents interleaved and ordinals with gaps: every break starts a new run.
        let pushed: Vec<(u64, WindowRef)> = (0..3000u32)
            .map(|i| {
                let window = WindowRef { doc: i % 7 / 3, ordinal: i / 2 + (i % 11) * 1000 };
                ((i as u64).wrapping_mul(0x9e3779b97f4a7c15), window)
            })
            .collect();
        let mut b = IndexBuilder::new(3);
        pushed.iter().for_each(|&(fp, w)| b.push(fp, w));
        let index = b.build();
        assert_eq!(index.entries().collect::<Vec<_>>(), pushed);
        let mut out = Vec::new();
        for &(fp, w) in &pushed {
            out.clear();
            index.query(fp, 0, &mut out);
            assert_eq!(out, vec![IndexHit { window: w, distance: 0 }]);
        }
    }

    #[test]
    fn empty_index_answers_nothing() {
        let index = Index::empty(3);
        let mut out = Vec::new();
        index.query(42, 3, &mut out);
        assert!(out.is_empty() && index.is_empty());
    }
}
