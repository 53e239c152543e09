//! Translated copies: finds which works of a Chinese corpus an English text translates,
//! and which passages, through a bilingual dictionary and the names both sides share.
//!
//! - [`chinese`]: the corpus side. Each document is cut into words by jieba; each word
//!   becomes the English stems of its CC-CEDICT senses (a word the dictionary lacks, its
//!   characters' senses); each pair of neighbouring Han characters becomes name bigrams
//!   in pinyin and Wade–Giles (朱尔 → `zhu er`, `chu erh`).
//! - [`english`]: the suspect side. Content words as Snowball stems; capitalised runs of
//!   romanised syllables as name bigrams (`Chu Erh-tan` → `chu erh`, `erh tan`).
//! - [`index`]: the corpus's Chinese documents as a translation language model (each
//!   stem's mass per document, Dirichlet-smoothed against the corpus) with inverted lists of
//!   stems and of name bigrams.
//! - [`sentences`]: sentence breaks of both sides, and the monotone alignment of English
//!   with Chinese sentences (a dynamic programme over blocks scored by dictionary evidence).
//! - [`matching`]: an English suspect is ranked against every document sharing a stem or a
//!   name (a smoothed likelihood ratio per word), the ten best are aligned window by window
//!   (50 known English words against 100 Chinese words) and sentence by sentence, and the
//!   best is reported when its score, its lead over the next and its sentences' order say so:
//!   a translation where its sentences align densely, else an adaptation.
//! - [`embedding`]: the second signal, measured beside the first (`zhiwen eval --translations
//!   --embeddings`): sentences of both sides embedded by a multilingual encoder and aligned.
//!
//! The method and its thresholds were worked out on half of Herbert Giles' translations of
//! 聊斋志异 and measured on the other half (README, *Translated copies*).
pub mod chinese;
pub mod embedding;
pub mod english;
pub mod index;
pub mod matching;
pub mod sentences;

pub use index::{TranslationIndex, is_chinese};
pub use matching::{Found, find};

use crate::Result;
use crate::engine::check::{CopyKind, SharedName, SourceMatch, SuspectReport};
use crate::engine::store::Store;
use std::sync::{Arc, Mutex};

/// Whether a suspect is in another language than a Chinese corpus: mostly Latin letters,
/// and enough of them to judge.
pub fn is_other_language(text: &str) -> bool {
    let (mut latin, mut letters) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        latin += usize::from(c.is_ascii_alphabetic());
    }
    letters >= 200 && latin * 5 >= letters * 4
}

/// The translation index of a store's Chinese documents, built on first use and kept for
/// the process while the store's documents stay the same (a few seconds for 1,500 chapters).
pub fn index_for(store: &Store) -> Result<Arc<TranslationIndex>> {
    static CACHE: Mutex<Option<(String, u64, Arc<TranslationIndex>)>> = Mutex::new(None);
    let documents = store.documents()?;
    let key = store.path().map_or_else(|| format!("memory {:p}", store), |p| p.display().to_string());
    let contents = documents
        .iter()
        .fold(0u64, |h, d| xxhash_rust::xxh3::xxh3_64_with_seed(d.content_hash.as_bytes(), h ^ d.id as u64));
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, c, index)) = cache.as_ref()
        && *k == key
        && *c == contents
    {
        return Ok(index.clone());
    }
    // Only the Chinese documents are read whole: an English corpus costs a look at each start.
    let mut texts = Vec::new();
    for d in &documents {
        if store.text_start(d.id, index::LANGUAGE_SAMPLE)?.is_some_and(|start| is_chinese(&start))
            && let Some(text) = store.text(d.id)?
        {
            texts.push((d.id, text));
        }
    }
    let index = Arc::new(TranslationIndex::build(texts));
    *cache = Some((key, contents, index.clone()));
    Ok(index)
}

/// Adds to a suspect's report the store's document it translates or adapts, if the suspect
/// is in another language than the corpus and one is found (`kind` says which; passages are
/// aligned windows, the similarity the share of its words a word of the source means).
pub fn add_translations(report: &mut SuspectReport, store: &Store, text: &str) -> Result<()> {
    if report.error.is_some() || !is_other_language(text) {
        return Ok(());
    }
    let index = index_for(store)?;
    let Some(found) = find(&index, text) else { return Ok(()) };
    if report.sources.iter().any(|s| s.id == found.id) {
        return Ok(());
    }
    let Some(doc) = store.source_doc(found.id)? else { return Ok(()) };
    debug_assert!(found.kind != CopyKind::Text);
    let names = match store.text(found.id)? {
        Some(source) => shared_names(text, &source),
        None => Vec::new(),
    };
    report.similarity = report.similarity.max(found.features.english_aligned);
    report.sources.push(SourceMatch {
        id: found.id,
        path: doc.path,
        title: doc.title,
        similarity: found.features.english_aligned,
        source_coverage: found.features.source_covered,
        passages: found.passages,
        work: store.work_of(found.id)?,
        kind: found.kind,
        names,
    });
    Ok(())
}

/// How many shared names a report lists at most.
const MAX_NAMES: usize = 20;

/// The romanised names of an English text that a Chinese text has in characters read that
/// way (`Chu Erh-tan` ↔ 朱尔旦), commonest first: the evidence of names a reader can check.
pub fn shared_names(english: &str, chinese: &str) -> Vec<SharedName> {
    let han: Vec<char> = chinese.chars().collect();
    let mut readings: std::collections::HashMap<char, Vec<String>> = Default::default();
    // Per distinct name (its syllables): how the English writes it first, how often, and
    // the Chinese it was found as.
    let mut found: std::collections::BTreeMap<Vec<String>, (String, usize, Option<String>)> = Default::default();
    for name in english::names(english, &chinese::is_syllable) {
        found.entry(name.syllables).or_insert_with(|| (name.text, 0, None)).1 += 1;
    }
    for (syllables, (_, _, chinese_name)) in found.iter_mut() {
        let k = syllables.len();
        *chinese_name = (0..han.len().saturating_sub(k - 1)).find_map(|i| {
            let reads = |j: usize| {
                let c = han[i + j];
                ('\u{3400}'..='\u{9fff}').contains(&c)
                    && readings.entry(c).or_insert_with(|| chinese::readings(c)).contains(&syllables[j])
            };
            (0..k).all(reads).then(|| han[i..i + k].iter().collect())
        });
    }
    let mut out: Vec<SharedName> = found
        .into_values()
        .filter_map(|(english, count, chinese)| Some(SharedName { english, chinese: chinese?, count }))
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.english.cmp(&b.english)));
    out.truncate(MAX_NAMES);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_shared_where_the_chinese_reads_as_the_english_romanises() {
        // The opening of 陆判 (聊斋志异) and of Herbert Giles' translation, "The Judge".
        let english = "At Ling-yang there lived a man named Chu Erh-tan, whose literary\n\
                       designation was Hsiao-ming. He was a fine manly fellow, but an egregious dunce. \
                       One day Chu met the Judge; Hsiao-ming laughed. Mr. Wang Fu came too.";
        let chinese = "卷二 陆判\n　　陵阳朱尔旦，字小明，性豪放，然素钝，学虽笃，尚未知名。";
        let names: Vec<(String, String, usize)> =
            shared_names(english, chinese).into_iter().map(|n| (n.english, n.chinese, n.count)).collect();
        let expected = [("Hsiao-ming", "小明", 2), ("Chu Erh-tan", "朱尔旦", 1), ("Ling-yang", "陵阳", 1)];
        // Wang Fu is no one in the Chinese text.
        assert_eq!(names, expected.map(|(e, c, n)| (e.to_string(), c.to_string(), n)));
    }
}
