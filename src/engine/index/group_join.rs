//! The exact Hamming join cut into groups, for running it where the windows do not fit
//! one machine (the Spark job in `spark/`), and its in-group kernel.
//!
//! Two 64-bit fingerprints at most k = 3 bits apart agree on at least one of the four
//! 16-bit blocks ([`layout::permutations`]`(3, 4)`, the index's own tables). Every window
//! goes to the four groups (block number `t`, its block `t`): the fewest copies any exact
//! block scheme shuffles. A pair meets in every group whose block it shares, so it is
//! emitted only in the *first* one ([`first_shared_block`]).
//!
//! Inside a group the other 48 bits differ in at most 3, so of their six 8-bit blocks at
//! least three agree: 20 local tables keyed on three blocks (24 bits), and a pair is
//! emitted only from the first combination of three blocks it shares
//! ([`first_shared_combination`]). Every pair within k comes out exactly once, with no
//! de-duplication pass.
//!
//! A group too large for one task (boilerplate, repeated text) is split by the same
//! rule one level down: its windows go to the 20 sub-groups (combination, its 24 bits),
//! where the kernel runs with that combination fixed ([`Combination::Fixed`]); a pair is
//! kept in the first combination it shares, so the split stays exact and drops nothing.

use super::layout::{Permutation, permutations};
use std::sync::OnceLock;

/// The largest distance the scheme is exact for: four blocks, one must agree.
pub const MAX_DISTANCE: u32 = 3;
/// Groups (tables) each window is sent to.
pub const TABLES: usize = 4;
/// Local tables inside a group: the combinations of 3 of the 6 remaining 8-bit blocks.
pub const COMBINATIONS: usize = 20;

fn tables() -> &'static [Permutation] {
    static PERMUTATIONS: OnceLock<Vec<Permutation>> = OnceLock::new();
    PERMUTATIONS.get_or_init(|| permutations(MAX_DISTANCE, TABLES as u32))
}

/// The group key of `fp` in table `t`: its 16-bit block `t` (blocks from the most
/// significant end).
pub fn group_key(fp: u64, t: usize) -> u16 {
    (tables()[t].apply(fp) >> 48) as u16
}

/// The 48 bits outside block `t`, in a fixed order.
fn rest(fp: u64, t: usize) -> u64 {
    tables()[t].apply(fp) & ((1 << 48) - 1)
}

/// The 24-bit local key of `rest` for combination `c`: its three 8-bit blocks.
fn local_key(rest: u64, c: usize) -> u32 {
    let [a, b, d] = combinations()[c];
    let byte = |i: u8| ((rest >> (40 - 8 * u32::from(i))) & 0xff) as u32;
    (byte(a) << 16) | (byte(b) << 8) | byte(d)
}

/// The sub-group key of `fp` inside group `t` for combination `c`, used to split a hot
/// group.
pub fn sub_key(fp: u64, t: usize, c: usize) -> u32 {
    local_key(rest(fp, t), c)
}

/// The 20 combinations of three of the six local blocks, in lexicographic order.
fn combinations() -> &'static [[u8; 3]; COMBINATIONS] {
    static COMBOS: OnceLock<[[u8; 3]; COMBINATIONS]> = OnceLock::new();
    COMBOS.get_or_init(|| {
        let mut out = [[0u8; 3]; COMBINATIONS];
        let mut n = 0;
        for a in 0..6 {
            for b in a + 1..6 {
                for c in b + 1..6 {
                    out[n] = [a, b, c];
                    n += 1;
                }
            }
        }
        out
    })
}

/// The first table whose block the two fingerprints share, if any.
pub fn first_shared_block(a: u64, b: u64) -> Option<usize> {
    (0..TABLES).find(|&t| group_key(a, t) == group_key(b, t))
}

/// The first combination of three local blocks (inside group `t`) on which `a` and `b`
/// agree, if any.
pub fn first_shared_combination(a: u64, b: u64, t: usize) -> Option<usize> {
    let x = rest(a, t) ^ rest(b, t);
    let mut equal = [0u8; 3];
    let mut n = 0;
    for i in 0..6u8 {
        if (x >> (40 - 8 * u32::from(i))) & 0xff == 0 {
            equal[n] = i;
            n += 1;
            if n == 3 {
                return combinations().iter().position(|c| *c == equal);
            }
        }
    }
    None
}

/// Which local tables the kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combination {
    /// All 20: a whole group.
    All,
    /// Only this one: one sub-group of a hot group, all of whose members share its key.
    Fixed(usize),
}

/// One pair the kernel found: positions in the left and the right input, and the distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupPair {
    pub left: u32,
    pub right: u32,
    pub distance: u32,
}

/// The pairs within `max_distance` (≤ [`MAX_DISTANCE`]) between `left` and `right`, all
/// members of group `t`, that this group owns (each pair of the whole join is owned by
/// exactly one group and one combination). With `right = None` the group is joined with
/// itself and each unordered pair comes out once, as `left < right`.
pub fn join_group(
    t: usize,
    left: &[u64],
    right: Option<&[u64]>,
    combination: Combination,
    max_distance: u32,
    out: &mut Vec<GroupPair>,
) {
    assert!(t < TABLES && max_distance <= MAX_DISTANCE, "table {t}, distance {max_distance}");
    let owned = |a: u64, b: u64, c: usize| -> Option<u32> {
        let distance = (a ^ b).count_ones();
        (distance <= max_distance
            && first_shared_block(a, b) == Some(t)
            && first_shared_combination(a, b, t) == Some(c))
        .then_some(distance)
    };
    let probes = right.unwrap_or(left);
    match combination {
        Combination::Fixed(c) => {
            for (i, &a) in left.iter().enumerate() {
                let from = if right.is_none() { i + 1 } else { 0 };
                for (j, &b) in probes.iter().enumerate().skip(from) {
                    if let Some(distance) = owned(a, b, c) {
                        out.push(GroupPair { left: i as u32, right: j as u32, distance });
                    }
                }
            }
        }
        Combination::All => {
            let left_rest: Vec<u64> = left.iter().map(|&fp| rest(fp, t)).collect();
            let probe_rest: Vec<u64> = probes.iter().map(|&fp| rest(fp, t)).collect();
            let mut table: Vec<(u32, u32)> = Vec::with_capacity(left.len());
            for c in 0..COMBINATIONS {
                table.clear();
                table.extend(left_rest.iter().enumerate().map(|(i, &r)| (local_key(r, c), i as u32)));
                table.sort_unstable();
                for (j, &r) in probe_rest.iter().enumerate() {
                    let key = local_key(r, c);
                    let from = table.partition_point(|&(k, _)| k < key);
                    for &(_, i) in table[from..].iter().take_while(|&&(k, _)| k == key) {
                        if right.is_none() && i as usize >= j {
                            continue;
                        }
                        if let Some(distance) = owned(left[i as usize], probes[j], c) {
                            out.push(GroupPair { left: i, right: j as u32, distance });
                        }
                    }
                }
            }
        }
    }
}

/// [`join_group`] over several groups of table `t` at once: `left` and `right` are
/// (group key, fingerprint) pairs, and only members of the same group are joined (the
/// Spark job hands a kernel call many small groups, so a call's fixed cost is paid once
/// per batch, not once per group). Positions in `out` index the inputs as given.
pub fn join_groups(
    t: usize,
    left: &[(u32, u64)],
    right: Option<&[(u32, u64)]>,
    max_distance: u32,
    out: &mut Vec<GroupPair>,
) {
    // Each side's positions sorted by key; a group is then a run of equal keys.
    let by_key = |side: &[(u32, u64)]| {
        let mut order: Vec<u32> = (0..side.len() as u32).collect();
        order.sort_unstable_by_key(|&i| side[i as usize].0);
        order
    };
    let group = |side: &[(u32, u64)], order: &'_ [u32], key: u32| -> std::ops::Range<usize> {
        order.partition_point(|&i| side[i as usize].0 < key)..order.partition_point(|&i| side[i as usize].0 <= key)
    };
    let fps_of = |side: &[(u32, u64)], ids: &[u32]| -> Vec<u64> { ids.iter().map(|&i| side[i as usize].1).collect() };
    let left_order = by_key(left);
    let right_order = right.map(by_key);
    let mut pairs = Vec::new();
    let mut start = 0;
    while start < left_order.len() {
        let key = left[left_order[start] as usize].0;
        let l_ids = &left_order[group(left, &left_order, key)];
        start += l_ids.len();
        let l_fps = fps_of(left, l_ids);
        let (r_ids, r_fps) = match (right, &right_order) {
            (Some(r), Some(order)) => {
                let ids = &order[group(r, order, key)];
                if ids.is_empty() {
                    continue;
                }
                (ids, Some(fps_of(r, ids)))
            }
            _ => (l_ids, None),
        };
        pairs.clear();
        join_group(t, &l_fps, r_fps.as_deref(), Combination::All, max_distance, &mut pairs);
        out.extend(pairs.iter().map(|p| GroupPair {
            left: l_ids[p.left as usize],
            right: r_ids[p.right as usize],
            distance: p.distance,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    /// Fingerprints with planted neighbours at every distance 0..=k+1, in clusters that
    /// share blocks (so groups hold many members), plus unrelated ones.
    fn planted(rng: &mut fastrand::Rng, n: usize) -> Vec<u64> {
        let centres: Vec<u64> = (0..8).map(|_| rng.u64(..)).collect();
        let mut fps = Vec::with_capacity(n);
        while fps.len() < n {
            let base = if rng.bool() { centres[rng.usize(..centres.len())] } else { rng.u64(..) };
            for flips in 0..=MAX_DISTANCE + 1 {
                let mut fp = base;
                for _ in 0..flips {
                    fp ^= 1 << rng.u32(0..64);
                }
                fps.push(fp);
            }
        }
        fps
    }

    /// The join run as the Spark job runs it: every window to its four groups, each group
    /// joined (whole or split into sub-groups).
    fn grouped_join(left: &[u64], right: Option<&[u64]>, split: bool, k: u32) -> BTreeSet<(u32, u32, u32)> {
        let mut out = BTreeSet::new();
        for t in 0..TABLES {
            type Members = (Vec<u32>, Vec<u64>);
            let group = |fps: &[u64], key: &dyn Fn(u64) -> u64| -> HashMap<u64, Members> {
                let mut g: HashMap<u64, Members> = HashMap::new();
                for (i, &fp) in fps.iter().enumerate() {
                    let m = g.entry(key(fp)).or_default();
                    m.0.push(i as u32);
                    m.1.push(fp);
                }
                g
            };
            let runs: Vec<Combination> =
                if split { (0..COMBINATIONS).map(Combination::Fixed).collect() } else { vec![Combination::All] };
            for combination in runs {
                let key = |fp: u64| match combination {
                    Combination::All => u64::from(group_key(fp, t)),
                    Combination::Fixed(c) => (u64::from(group_key(fp, t)) << 32) | u64::from(sub_key(fp, t, c)),
                };
                let lg = group(left, &key);
                let rg = right.map(|r| group(r, &key));
                for (k_, (lids, lfps)) in &lg {
                    let (rids, rfps) = match &rg {
                        Some(rg) => match rg.get(k_) {
                            Some((ids, fps)) => (ids.as_slice(), Some(fps.as_slice())),
                            None => continue,
                        },
                        None => (lids.as_slice(), None),
                    };
                    let mut pairs = Vec::new();
                    join_group(t, lfps, rfps, combination, k, &mut pairs);
                    for p in pairs {
                        assert!(
                            out.insert((lids[p.left as usize], rids[p.right as usize], p.distance)),
                            "pair emitted twice"
                        );
                    }
                }
            }
        }
        out
    }

    fn brute(left: &[u64], right: Option<&[u64]>, k: u32) -> BTreeSet<(u32, u32, u32)> {
        let mut out = BTreeSet::new();
        for (i, &a) in left.iter().enumerate() {
            for (j, &b) in right.unwrap_or(left).iter().enumerate() {
                let d = (a ^ b).count_ones();
                if d <= k && (right.is_some() || i < j) {
                    out.insert((i as u32, j as u32, d));
                }
            }
        }
        out
    }

    #[test]
    fn grouped_join_gives_exactly_the_brute_force_pairs_once_each() {
        let mut rng = fastrand::Rng::with_seed(19);
        let corpus = planted(&mut rng, 600);
        let suspects = {
            let mut s = planted(&mut rng, 200);
            // Copies of corpus windows at distances 0..=4.
            for (n, &fp) in corpus.iter().step_by(7).enumerate() {
                let mut f = fp;
                for _ in 0..n % 5 {
                    f ^= 1 << rng.u32(0..64);
                }
                s.push(f);
            }
            s
        };
        for k in [0, 1, 3] {
            let want = brute(&corpus, Some(&suspects), k);
            assert!(k == 0 || want.iter().any(|p| p.2 == k), "planted pairs at distance {k}");
            assert_eq!(grouped_join(&corpus, Some(&suspects), false, k), want, "corpus × suspects, k = {k}");
            assert_eq!(grouped_join(&corpus, Some(&suspects), true, k), want, "split groups, k = {k}");
        }
        let want = brute(&corpus, None, 3);
        assert_eq!(grouped_join(&corpus, None, false, 3), want, "corpus with itself");
        assert_eq!(grouped_join(&corpus, None, true, 3), want, "corpus with itself, split");
    }

    #[test]
    fn many_groups_in_one_call_give_the_pairs_of_each_group_joined_alone() {
        let mut rng = fastrand::Rng::with_seed(23);
        let corpus = planted(&mut rng, 800);
        let suspects: Vec<u64> = corpus.iter().step_by(3).map(|&f| f ^ (1 << rng.u32(0..64))).collect();
        let mut found = 0;
        for t in 0..TABLES {
            // Coarse batches: 16 groups (blocks) per call, as the job sends them.
            let keyed =
                |fps: &[u64]| -> Vec<(u32, u64)> { fps.iter().map(|&f| (u32::from(group_key(f, t)), f)).collect() };
            let (l, r) = (keyed(&corpus), keyed(&suspects));
            for right in [Some(r.as_slice()), None] {
                let mut want = std::collections::BTreeSet::new();
                let mut got = Vec::new();
                for batch in 0..16u32 {
                    let pick = |side: &[(u32, u64)]| -> Vec<(usize, (u32, u64))> {
                        side.iter().copied().enumerate().filter(|(_, (k, _))| k >> 12 == batch).collect()
                    };
                    let lb = pick(&l);
                    let rb = right.map(pick);
                    let l_in: Vec<(u32, u64)> = lb.iter().map(|x| x.1).collect();
                    let r_in: Option<Vec<(u32, u64)>> = rb.as_ref().map(|v| v.iter().map(|x| x.1).collect());
                    let mut out = Vec::new();
                    join_groups(t, &l_in, r_in.as_deref(), MAX_DISTANCE, &mut out);
                    for p in out {
                        let a = lb[p.left as usize].0;
                        let b = match &rb {
                            Some(rb) => rb[p.right as usize].0,
                            None => lb[p.right as usize].0,
                        };
                        got.push((
                            a.min(if right.is_none() { b } else { a }),
                            if right.is_none() { a.max(b) } else { b },
                            p.distance,
                        ));
                    }
                }
                // Each group alone.
                let mut keys: Vec<u32> = l.iter().map(|x| x.0).collect();
                keys.sort_unstable();
                keys.dedup();
                for key in keys {
                    let li: Vec<usize> = (0..l.len()).filter(|&i| l[i].0 == key).collect();
                    let lf: Vec<u64> = li.iter().map(|&i| l[i].1).collect();
                    let ri: Option<Vec<usize>> = right.map(|r| (0..r.len()).filter(|&i| r[i].0 == key).collect());
                    let rf: Option<Vec<u64>> = ri.as_ref().map(|ri| ri.iter().map(|&i| right.unwrap()[i].1).collect());
                    let mut out = Vec::new();
                    join_group(t, &lf, rf.as_deref(), Combination::All, MAX_DISTANCE, &mut out);
                    for p in out {
                        let a = li[p.left as usize];
                        let b = match &ri {
                            Some(ri) => ri[p.right as usize],
                            None => li[p.right as usize],
                        };
                        want.insert((
                            a.min(if right.is_none() { b } else { a }),
                            if right.is_none() { a.max(b) } else { b },
                            p.distance,
                        ));
                    }
                }
                let got_set: std::collections::BTreeSet<_> = got.iter().copied().collect();
                assert_eq!(got.len(), got_set.len(), "a pair came out twice");
                assert_eq!(got_set, want, "table {t}, self-join {}", right.is_none());
                found += want.len();
            }
        }
        assert!(found > 300, "planted pairs: {found}");
    }

    #[test]
    fn every_pair_within_k_has_one_owner() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..5000 {
            let a = rng.u64(..);
            let mut b = a;
            for _ in 0..rng.u32(0..=MAX_DISTANCE) {
                b ^= 1 << rng.u32(0..64);
            }
            let t = first_shared_block(a, b).expect("pigeonhole: a block agrees");
            assert!(first_shared_combination(a, b, t).is_some(), "pigeonhole: three local blocks agree");
            assert_eq!(first_shared_block(a, b), first_shared_block(b, a));
        }
    }
}
