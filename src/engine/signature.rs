//! Whole-document signatures, for finding near-duplicate documents (`engine/cluster.rs`).
//! Computed at import and kept in the store, so clustering never reads the texts again.
//!
//! - **Shingles** ([`shingles`]): every run of [`SHINGLE`] characters of the document's
//!   [`body`] with everything but letters and digits removed (white space, punctuation,
//!   symbols; ASCII letters lower-cased), each hashed to 32 bits (xxh3), sorted and unique:
//!   the exact Jaccard of two documents is a merge of two sorted lists. Characters, not
//!   words, so Chinese needs no segmentation and the measure is the usual character
//!   5-shingle Jaccard. The body leaves the title line out: a repost under a new headline
//!   is the same text, and a wire story's punctuation edits do not make it another. Not
//!   stored (4 bytes a character would double the store): clustering makes them from the
//!   texts of the candidate pairs only.
//! - **MinHash** ([`MINHASH_PERMS`] values, one-permutation hashing: see [`minhash`]); two
//!   documents agree on each value with probability equal to their Jaccard (Broder 1997).
//!   LSH bands of these values are Broder's super-shingles.
//! - **Keyword simhash** (the DataGrand recipe): jieba's TF-IDF keywords (top
//!   [`KEYWORDS`], with its IDF table), each voting its weight into a 64-bit simhash over
//!   the xxh3 hash of the word. Near-duplicates land within 3 bits. Coarse: it sees topics,
//!   not passages, and is weak on short texts (few keywords, each a large share of the vote).
//!   Computed on first use, not at import (see [`DocSignature::keyword_simhash`]).

use jieba_rs::{Jieba, KeywordExtract, TfIdf};
use std::sync::OnceLock;
use xxhash_rust::xxh3::xxh3_64;

/// Characters per shingle.
pub const SHINGLE: usize = 5;
/// MinHash values per document.
pub const MINHASH_PERMS: usize = 128;
/// Keywords voting in the keyword simhash.
pub const KEYWORDS: usize = 20;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocSignature {
    /// One least hash per bin; empty for a text shorter than a shingle.
    pub minhash: Vec<u32>,
    /// Computed when first needed (jieba runs at about 20 MB/s, slower than the rest of
    /// an import), then kept.
    pub keyword_simhash: Option<u64>,
}

/// The signature of `text`, without the keyword simhash ([`keyword_simhash`]).
pub fn signature(text: &str) -> DocSignature {
    let hashes = shingle_hashes(text);
    let minhash = if hashes.is_empty() { Vec::new() } else { minhash(&hashes) };
    DocSignature { minhash, keyword_simhash: None }
}

/// The 32-bit hashes of `text`'s shingles, sorted, without repeats.
pub fn shingles(text: &str) -> Vec<u32> {
    let mut shingles: Vec<u32> = shingle_hashes(text).iter().map(|h| (h >> 32) as u32).collect();
    shingles.sort_unstable();
    shingles.dedup();
    shingles
}

/// What near-duplicates are judged on: the text after its first non-empty line (the title
/// or headline, as [`crate::engine::decode::title_of`] takes it), or the whole text when
/// that line is all it has.
pub fn body(text: &str) -> &str {
    let mut rest = text;
    while let Some((line, after)) = rest.split_once('\n') {
        if line.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}').is_empty() {
            rest = after;
            continue;
        }
        return if after.trim().is_empty() { text } else { after };
    }
    text
}

/// 64-bit hashes of every shingle of `text`'s body, in order.
fn shingle_hashes(text: &str) -> Vec<u64> {
    let chars: Vec<char> = body(text).chars().filter(|c| c.is_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
    let mut buf = [0u8; SHINGLE * 4];
    chars
        .windows(SHINGLE)
        .map(|w| {
            let mut n = 0;
            for c in w {
                n += c.encode_utf8(&mut buf[n..]).len();
            }
            xxh3_64(&buf[..n])
        })
        .collect()
}

/// One-permutation MinHash (Li, Owen & Zhang 2012) with rotation densification
/// (Shrivastava & Li 2014): each shingle hash goes to one of the 128 bins by its top 7
/// bits and each bin keeps its least value (the low 32 bits); an empty bin takes the value
/// of the next bin to its right that has one, offset by the distance. One hash per
/// shingle instead of 128, and two documents still agree on a bin with probability equal
/// to their Jaccard.
fn minhash(hashes: &[u64]) -> Vec<u32> {
    let mut bins = vec![u32::MAX; MINHASH_PERMS];
    let mut filled = [false; MINHASH_PERMS];
    for &h in hashes {
        let bin = (h >> (64 - MINHASH_PERMS.trailing_zeros())) as usize;
        bins[bin] = bins[bin].min(h as u32);
        filled[bin] = true;
    }
    if filled.iter().all(|f| *f) {
        return bins;
    }
    (0..MINHASH_PERMS)
        .map(|i| {
            let t = (0..MINHASH_PERMS).find(|t| filled[(i + t) % MINHASH_PERMS]).expect("one bin at least is filled");
            bins[(i + t) % MINHASH_PERMS].wrapping_add((t as u32).wrapping_mul(0x9e37_79b9))
        })
        .collect()
}

/// Exact Jaccard of two sorted, unique shingle lists (0 when both are empty).
pub fn jaccard(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    both as f64 / (a.len() + b.len() - both) as f64
}

/// jieba and its TF-IDF table, loaded once (about half a second).
fn jieba() -> &'static (Jieba, TfIdf) {
    static JIEBA: OnceLock<(Jieba, TfIdf)> = OnceLock::new();
    JIEBA.get_or_init(|| (Jieba::new(), TfIdf::default()))
}

/// jieba's segmenter (the one keywords use), for other steps that cut Chinese into words.
pub fn jieba_segmenter() -> &'static Jieba {
    &jieba().0
}

/// The keywords of `text` with their TF-IDF weights, best first.
pub fn keywords(text: &str) -> Vec<(String, f64)> {
    let (jieba, tfidf) = jieba();
    // All words, ranked here: jieba breaks ties among equal weights in hash-map order,
    // which differs from run to run, so the same text could get other keywords.
    let mut all: Vec<(String, f64)> = tfidf
        .extract_keywords(jieba, text, usize::MAX, Vec::new())
        .into_iter()
        .map(|k| (k.keyword, k.weight))
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.truncate(KEYWORDS);
    all
}

/// The weighted simhash of `text`'s keywords; 0 for a text without any.
pub fn keyword_simhash(text: &str) -> u64 {
    let mut votes = [0f64; 64];
    for (word, weight) in keywords(text) {
        let h = xxh3_64(word.to_lowercase().as_bytes());
        for (bit, v) in votes.iter_mut().enumerate() {
            *v += if h >> bit & 1 == 1 { weight } else { -weight };
        }
    }
    votes.iter().enumerate().fold(0u64, |fp, (bit, v)| if *v > 0.0 { fp | 1 << bit } else { fp })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minhash_agreement_estimates_the_exact_jaccard() {
        let a = "滚滚长江东逝水，浪花淘尽英雄。是非成败转头空。青山依旧在，几度夕阳红。白发渔樵江渚上，惯看秋月春风。一壶浊酒喜相逢。古今多少事，都付笑谈中。";
        let b = a.replace("浪花淘尽英雄", "浪花淘尽了英雄们").replace("一壶浊酒", "一壶清酒");
        let (sa, sb) = (signature(a), signature(&b));
        let exact = jaccard(&shingles(a), &shingles(&b));
        let agree = sa.minhash.iter().zip(&sb.minhash).filter(|(x, y)| x == y).count() as f64 / MINHASH_PERMS as f64;
        assert!(exact > 0.5 && exact < 0.9, "{exact}");
        assert!((agree - exact).abs() < 0.15, "minhash {agree} vs exact {exact}");
        assert_eq!(jaccard(&shingles(a), &shingles(a)), 1.0);
        // White space, punctuation and letter case do not matter; a text shorter than a
        // shingle has none.
        assert_eq!(shingles("Hello World, 你好!"), shingles("hello world你 好。"));
        assert!(signature("短").minhash.is_empty());
    }

    #[test]
    fn the_title_line_does_not_decide_a_near_duplicate() {
        let chapter = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");
        let (title, rest) = chapter.trim_start().split_once('\n').unwrap();
        assert!(!title.trim().is_empty() && rest.chars().count() > 1000);
        // A repost under another headline, its punctuation changed: the same text.
        let repost = format!("\n震惊！原来西游记第一回竟然是这样写的\n{}", rest.replace('，', ",").replace('。', "."));
        assert_eq!(jaccard(&shingles(chapter), &shingles(&repost)), 1.0);
        assert_eq!(signature(chapter).minhash, signature(&repost).minhash);
        // The same headline over another text is another document.
        let other = include_str!("../../tests/fixtures/corpus/sanguoyanyi_001.txt");
        let (_, other_rest) = other.trim_start().split_once('\n').unwrap();
        assert!(jaccard(&shingles(chapter), &shingles(&format!("{title}\n{other_rest}"))) < 0.1);
        // A text of one line is its own body.
        assert_eq!(body("  \n只有一行的文字\n\n"), "  \n只有一行的文字\n\n");
        assert_eq!(body("标题\n正文"), "正文");
    }

    #[test]
    fn keyword_simhash_keeps_a_reposted_chapter_close_and_another_chapter_far() {
        let chapter = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");
        let repost = format!("【笔趣阁 最新章节 免费阅读】\n{chapter}\n（本章完，请收藏本站）");
        let other = include_str!("../../tests/fixtures/corpus/sanguoyanyi_001.txt");
        let d = |a: &str, b: &str| (keyword_simhash(a) ^ keyword_simhash(b)).count_ones();
        assert!(d(chapter, &repost) <= 3, "{}", d(chapter, &repost));
        assert!(d(chapter, other) > 10, "{}", d(chapter, other));
        assert!(keywords(chapter).iter().any(|(w, _)| w == "猴王"), "{:?}", keywords(chapter));
    }
}
