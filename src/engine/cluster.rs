//! Near-duplicate documents: groups of documents that are the same text (a wire story
//! reposted with light edits, a duplicate upload, a chapter crawled fifty times), from the
//! signatures kept in the store (`engine/signature.rs`); no text is read again.
//!
//! Two methods:
//! - **MinHash** (default): documents agreeing on a whole LSH band of their MinHash values
//!   (Broder's super-shingles) become candidates; each candidate pair is verified by the
//!   exact Jaccard of its shingle lists (made from the two texts), and pairs at or above the threshold are joined by
//!   union-find. The band width is the widest whose chance of missing a pair at the
//!   threshold is below 1/1000, so candidates stay few.
//! - **Keyword simhash** (the DataGrand recipe): documents whose jieba TF-IDF keyword
//!   simhashes are within k bits (the same exact index as the windows, one fingerprint per
//!   document) are joined, unverified. The caller fills in the simhashes first
//!   (`Corpus::clusters` computes missing ones and keeps them). Coarse and weak on short texts (the README gives
//!   the measurement); the reported similarity is still the exact Jaccard.
//!
//! A group lists its first member (the lowest document id) and every member's Jaccard to it.

use crate::engine::index::{IndexBuilder, IndexHit, WindowRef};
use crate::engine::progress::Cancel;
use crate::engine::signature::{DocSignature, MINHASH_PERMS, jaccard};
use crate::{Error, Result};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    MinHash,
    Simhash,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClusterOptions {
    pub method: Method,
    /// Least exact Jaccard of a joined pair (MinHash).
    pub threshold: f64,
    /// Largest keyword-simhash distance of a joined pair (keyword simhash).
    pub max_distance: u32,
}

impl Default for ClusterOptions {
    fn default() -> Self {
        ClusterOptions { method: Method::MinHash, threshold: 0.8, max_distance: 3 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Member {
    pub doc_id: u32,
    /// Exact Jaccard of its shingles to the group's first member's (1 for the first).
    pub jaccard: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    pub members: Vec<Member>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clusters {
    /// Largest first.
    pub groups: Vec<Group>,
    pub documents: usize,
    /// Candidate pairs examined, and pairs joined.
    pub candidates: usize,
    pub joined: usize,
    /// LSH bands × rows (MinHash).
    pub bands: usize,
    pub rows: usize,
}

/// Union-find over `0..n` with path halving and union by size.
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    pub fn new(n: usize) -> UnionFind {
        UnionFind { parent: (0..n as u32).collect(), size: vec![1; n] }
    }

    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Joins the sets of `a` and `b`; false if they were one already.
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
        true
    }
}

/// Rows per band for `threshold`: the most rows (fewest candidates) for which a pair at
/// the threshold still meets in some band with probability ≥ 0.999.
pub fn rows_for(threshold: f64) -> usize {
    [32, 16, 8, 4, 2, 1]
        .into_iter()
        .find(|&r| {
            let bands = (MINHASH_PERMS / r) as i32;
            1.0 - (1.0 - threshold.powi(r as i32)).powi(bands) >= 0.999
        })
        .unwrap_or(1)
}

/// Groups `docs` (id and signature) into near-duplicate groups; documents in no group
/// are left out. `shingles_of(id)` gives a document's shingles ([`shingles`]); it is asked
/// once per document of a candidate pair. Checks `cancel` between steps.
pub fn clusters(
    docs: &[(u32, DocSignature)],
    shingles_of: &mut dyn FnMut(u32) -> Result<Vec<u32>>,
    opts: &ClusterOptions,
    cancel: &Cancel,
) -> Result<Clusters> {
    if !(0.0..=1.0).contains(&opts.threshold) || opts.threshold <= 0.0 {
        return Err(Error::Parameter(format!("threshold {} is not a Jaccard in (0, 1]", opts.threshold)));
    }
    // Texts shorter than a shingle have nothing to compare.
    let docs: Vec<&(u32, DocSignature)> = docs.iter().filter(|(_, s)| !s.minhash.is_empty()).collect();
    // Shingles of the documents met so far, by index into `docs`.
    let mut cache: std::collections::HashMap<u32, Vec<u32>> = std::collections::HashMap::new();
    let mut load = |cache: &mut std::collections::HashMap<u32, Vec<u32>>, i: u32| -> Result<()> {
        if let std::collections::hash_map::Entry::Vacant(e) = cache.entry(i) {
            e.insert(shingles_of(docs[i as usize].0)?);
        }
        Ok(())
    };
    let mut uf = UnionFind::new(docs.len());
    let (mut candidates, mut joined) = (0usize, 0usize);
    let rows = rows_for(opts.threshold);
    let mut pairs: Vec<(u32, u32)> = match opts.method {
        Method::MinHash => band_candidates(&docs, rows, cancel)?,
        Method::Simhash => simhash_candidates(&docs, opts.max_distance),
    };
    pairs.sort_unstable();
    pairs.dedup();
    for (a, b) in pairs {
        candidates += 1;
        if candidates.is_multiple_of(1 << 16) && cancel.is_cancelled() {
            return Err(Error::Cancelled);
        }
        let join = match opts.method {
            Method::MinHash => {
                load(&mut cache, a)?;
                load(&mut cache, b)?;
                jaccard(&cache[&a], &cache[&b]) >= opts.threshold
            }
            Method::Simhash => true,
        };
        if join && uf.union(a, b) {
            joined += 1;
        }
    }
    let mut by_root: std::collections::HashMap<u32, Vec<u32>> = std::collections::HashMap::new();
    for i in 0..docs.len() as u32 {
        by_root.entry(uf.find(i)).or_default().push(i);
    }
    let mut groups = Vec::new();
    for mut m in by_root.into_values().filter(|m| m.len() > 1) {
        m.sort_by_key(|&i| docs[i as usize].0);
        for &i in &m {
            load(&mut cache, i)?;
        }
        let members = m
            .iter()
            .map(|i| Member { doc_id: docs[*i as usize].0, jaccard: jaccard(&cache[&m[0]], &cache[i]) })
            .collect();
        groups.push(Group { members });
    }
    groups.sort_by(|a, b| b.members.len().cmp(&a.members.len()).then(a.members[0].doc_id.cmp(&b.members[0].doc_id)));
    Ok(Clusters { groups, documents: docs.len(), candidates, joined, bands: MINHASH_PERMS / rows, rows })
}

/// Documents signed per transaction while filling in missing signatures.
const SIGN_BATCH: usize = 256;

impl crate::Corpus {
    /// Near-duplicate groups of the corpus. Signatures missing (documents imported before
    /// they existed; keyword simhashes, computed on first use) are computed from the
    /// stored texts first and kept, a batch per transaction; `progress(done, total)`
    /// hears of that work. A cancel keeps what was computed.
    pub fn clusters(
        &mut self,
        opts: &ClusterOptions,
        progress: &(dyn Fn(usize, usize) + Sync),
        cancel: &Cancel,
    ) -> Result<Clusters> {
        use rayon::prelude::*;
        let store = self.store_mut();
        let unsigned = store.unsigned_documents()?;
        let need_keywords: Vec<u32> = if opts.method == Method::Simhash {
            store.signatures()?.into_iter().filter(|(_, s)| s.keyword_simhash.is_none()).map(|(id, _)| id).collect()
        } else {
            Vec::new()
        };
        let total = unsigned.len() + need_keywords.len();
        let mut done = 0;
        for chunk in unsigned.chunks(SIGN_BATCH) {
            if cancel.is_cancelled() {
                return Err(Error::Cancelled);
            }
            let texts = texts_of(store, chunk)?;
            let keywords = opts.method == Method::Simhash;
            let signed: Vec<(u32, DocSignature)> = texts
                .par_iter()
                .map(|(id, text)| {
                    let sig = crate::engine::signature::signature(text);
                    let keyword_simhash = keywords.then(|| crate::engine::signature::keyword_simhash(text));
                    (*id, DocSignature { keyword_simhash, ..sig })
                })
                .collect();
            store.write_signatures(&signed)?;
            done += chunk.len();
            progress(done, total);
        }
        for chunk in need_keywords.chunks(SIGN_BATCH) {
            if cancel.is_cancelled() {
                return Err(Error::Cancelled);
            }
            let texts = texts_of(store, chunk)?;
            let simhashes: Vec<(u32, u64)> =
                texts.par_iter().map(|(id, text)| (*id, crate::engine::signature::keyword_simhash(text))).collect();
            store.write_keyword_simhashes(&simhashes)?;
            done += chunk.len();
            progress(done, total);
        }
        let mut shingles_of =
            |id: u32| Ok(store.text(id)?.map_or_else(Vec::new, |t| crate::engine::signature::shingles(&t)));
        clusters(&store.signatures()?, &mut shingles_of, opts, cancel)
    }
}

/// The stored texts of `ids` (a document removed meanwhile is skipped).
fn texts_of(store: &crate::engine::store::Store, ids: &[u32]) -> Result<Vec<(u32, String)>> {
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        if let Some(text) = store.text(id)? {
            out.push((id, text));
        }
    }
    Ok(out)
}

/// Pairs (as indexes into `docs`, smaller first) that agree on a whole band.
fn band_candidates(docs: &[&(u32, DocSignature)], rows: usize, cancel: &Cancel) -> Result<Vec<(u32, u32)>> {
    let mut pairs = Vec::new();
    let mut keys: Vec<(u64, u32)> = Vec::with_capacity(docs.len());
    for band in 0..MINHASH_PERMS / rows {
        if cancel.is_cancelled() {
            return Err(Error::Cancelled);
        }
        keys.clear();
        keys.extend(docs.iter().enumerate().map(|(i, (_, s))| {
            let values = &s.minhash[band * rows..(band + 1) * rows];
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            (xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, band as u64), i as u32)
        }));
        keys.sort_unstable();
        for run in keys.chunk_by(|a, b| a.0 == b.0).filter(|r| r.len() > 1) {
            for (x, a) in run.iter().enumerate() {
                pairs.extend(run[x + 1..].iter().map(|b| (a.1.min(b.1), a.1.max(b.1))));
            }
        }
    }
    Ok(pairs)
}

/// Pairs whose keyword simhashes are within `k` bits, through the exact index.
fn simhash_candidates(docs: &[&(u32, DocSignature)], k: u32) -> Vec<(u32, u32)> {
    let mut builder = IndexBuilder::new(k);
    for (i, (_, s)) in docs.iter().enumerate() {
        builder.push(s.keyword_simhash.unwrap_or(0), WindowRef { doc: i as u32, ordinal: 0 });
    }
    let index = builder.build();
    let mut hits: Vec<IndexHit> = Vec::new();
    let mut pairs = Vec::new();
    for (i, (_, s)) in docs.iter().enumerate() {
        // A text without keywords (simhash 0 or none) is like no other.
        let Some(fp) = s.keyword_simhash.filter(|&fp| fp != 0) else { continue };
        hits.clear();
        index.query(fp, k, &mut hits);
        pairs.extend(hits.iter().map(|h| h.window.doc).filter(|&j| j > i as u32).map(|j| (i as u32, j)));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::signature::{keyword_simhash, shingles, signature};

    #[test]
    fn reposts_group_with_their_original_and_other_stories_stay_apart() {
        let a = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");
        let b = include_str!("../../tests/fixtures/corpus/sanguoyanyi_001.txt");
        let repost = format!("【转载】{}", a.replacen("猴王", "美猴王", 3));
        let cut: String = b.chars().take(b.chars().count() * 3 / 5).collect();
        let texts = [(1, a.to_string()), (2, b.to_string()), (5, repost), (9, cut)];
        let docs: Vec<(u32, DocSignature)> = texts
            .iter()
            .map(|(i, t)| (*i, DocSignature { keyword_simhash: Some(keyword_simhash(t)), ..signature(t) }))
            .collect();
        let mut asked = Vec::new();
        let mut shingles_of = |id: u32| {
            asked.push(id);
            Ok(shingles(&texts.iter().find(|(i, _)| *i == id).unwrap().1))
        };
        let c = clusters(&docs, &mut shingles_of, &ClusterOptions::default(), &Cancel::new()).unwrap();
        let ids: Vec<Vec<u32>> = c.groups.iter().map(|g| g.members.iter().map(|m| m.doc_id).collect()).collect();
        assert_eq!(ids, [vec![1, 5]], "a 60% excerpt is below 0.8");
        assert!(c.groups[0].members[1].jaccard > 0.9);
        let mut once = asked.clone();
        once.sort();
        once.dedup();
        assert_eq!(once.len(), asked.len(), "each text is read once at most: {asked:?}");
        let mut shingles_of = |id: u32| Ok(shingles(&texts.iter().find(|(i, _)| *i == id).unwrap().1));
        let loose = ClusterOptions { threshold: 0.5, ..Default::default() };
        let c = clusters(&docs, &mut shingles_of, &loose, &Cancel::new()).unwrap();
        assert_eq!(c.groups.len(), 2, "{c:?}");
        let by_keywords = ClusterOptions { method: Method::Simhash, ..Default::default() };
        let c = clusters(&docs, &mut shingles_of, &by_keywords, &Cancel::new()).unwrap();
        assert!(c.groups.iter().any(|g| g.members.iter().map(|m| m.doc_id).collect::<Vec<_>>() == [1, 5]), "{c:?}");
    }

    #[test]
    fn bands_are_the_narrowest_that_keep_pairs_at_the_threshold() {
        assert_eq!(rows_for(0.8), 4);
        assert_eq!(rows_for(0.5), 2);
        assert_eq!(rows_for(0.9), 8);
        let mut uf = UnionFind::new(4);
        assert!(uf.union(0, 1) && uf.union(2, 3) && uf.union(1, 3));
        assert!(!uf.union(0, 2));
        assert_eq!(uf.find(0), uf.find(3));
    }
}
