//! The corpus side, indexed: each Chinese document as a translation language model over
//! English stems (its words' dictionary senses) and as a set of name bigrams, with inverted
//! lists so a suspect meets only the documents that share its words.

use super::chinese::{self, Dictionary};
use std::collections::HashMap;
use xxhash_rust::xxh3::xxh3_64;

/// A word of a Chinese document that has dictionary senses: where it stands and which
/// distinct word it is (its stems are the index's `senses[sense]`).
#[derive(Clone, Copy)]
pub(super) struct Word {
    /// Char offsets of the word in the document.
    pub start: u32,
    pub end: u32,
    pub sense: u32,
}

/// One indexed document.
pub(super) struct Document {
    pub id: u32,
    pub words: Vec<Word>,
    /// A hash of the text: documents with the same text are one for ranking.
    pub text_hash: u64,
    /// Char offsets where its sentences end ([`super::sentences::is_chinese_break`]).
    pub breaks: Vec<u32>,
}

/// The index of a corpus's Chinese documents.
pub struct TranslationIndex {
    pub(super) documents: Vec<Document>,
    /// The stems of each distinct word of the corpus that has any, once.
    pub(super) senses: Vec<Vec<u32>>,
    /// Stem → (document, its mass in the document: each word adds 1 / its number of stems).
    pub(super) postings: HashMap<u32, Vec<(u32, f32)>>,
    /// Stem → its share of all the corpus's mass (the background model).
    pub(super) background: HashMap<u32, f64>,
    /// Stem → the share of the corpus's words that have it among their senses (the chance of
    /// meeting it in a word, for sentence alignment).
    pub(super) presence: HashMap<u32, f64>,
    /// Name bigram (hashed) → the documents that have it.
    pub(super) names: HashMap<u64, Vec<u32>>,
}

/// The hash of a name bigram, `"chu erh"`.
pub(super) fn name_key(bigram: &str) -> u64 {
    xxh3_64(bigram.as_bytes())
}

/// How many characters of a text's start [`is_chinese`] looks at.
pub const LANGUAGE_SAMPLE: usize = 20_000;

/// Whether a text is mostly Han characters (a document this index takes), by its start.
pub fn is_chinese(text: &str) -> bool {
    let (mut han, mut letters) = (0usize, 0usize);
    for c in text.chars().take(LANGUAGE_SAMPLE) {
        if c.is_alphabetic() {
            letters += 1;
            han += usize::from(('\u{3400}'..='\u{9fff}').contains(&c));
        }
    }
    letters > 0 && han * 2 > letters
}

impl TranslationIndex {
    /// Indexes the Chinese texts among `documents` (id, text) on all threads.
    pub fn build(documents: impl IntoIterator<Item = (u32, String)>) -> TranslationIndex {
        use rayon::prelude::*;
        let dictionary = Dictionary::shared();
        let texts: Vec<(u32, String)> = documents.into_iter().filter(|(_, t)| is_chinese(t)).collect();
        let read: Vec<Read> = texts.par_iter().map(|(id, text)| read(*id, text)).collect();
        let mut postings: HashMap<u32, Vec<(u32, f32)>> = HashMap::new();
        let mut background: HashMap<u32, f64> = HashMap::new();
        let mut presence: HashMap<u32, f64> = HashMap::new();
        let mut names: HashMap<u64, Vec<u32>> = HashMap::new();
        // Each distinct word looked up once; words without senses are left out.
        let mut distinct: HashMap<&str, Option<u32>> = HashMap::new();
        let mut senses: Vec<Vec<u32>> = Vec::new();
        let mut total = 0f64;
        let mut documents = Vec::with_capacity(read.len());
        for (i, (mut doc, words, bigrams)) in read.into_iter().enumerate() {
            let mut mass: HashMap<u32, f32> = HashMap::new();
            for (start, end, word) in words {
                let sense = *distinct.entry(word).or_insert_with(|| {
                    let stems = dictionary.stems(word);
                    (!stems.is_empty()).then(|| {
                        senses.push(stems);
                        senses.len() as u32 - 1
                    })
                });
                let Some(sense) = sense else { continue };
                let stems = &senses[sense as usize];
                let share = 1.0 / stems.len() as f32;
                for s in stems {
                    *mass.entry(*s).or_default() += share;
                    *presence.entry(*s).or_default() += 1.0;
                }
                doc.words.push(Word { start, end, sense });
            }
            doc.words.shrink_to_fit();
            total += doc.words.len() as f64;
            for (stem, m) in mass {
                postings.entry(stem).or_default().push((i as u32, m));
                *background.entry(stem).or_default() += m as f64;
            }
            for b in bigrams {
                names.entry(b).or_default().push(i as u32);
            }
            documents.push(doc);
        }
        let total = total.max(1.0);
        background.values_mut().for_each(|m| *m /= total);
        presence.values_mut().for_each(|m| *m /= total);
        TranslationIndex { documents, senses, postings, background, presence, names }
    }

    /// Memory the index holds, in bytes (its arrays and hash tables, approximately).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let docs: usize = self
            .documents
            .iter()
            .map(|d| d.words.capacity() * size_of::<Word>() + d.breaks.capacity() * 4 + size_of::<Document>())
            .sum::<usize>()
            + self.senses.iter().map(|s| s.capacity() * 4 + 24).sum::<usize>();
        let postings: usize = self.postings.values().map(|v| v.capacity() * 8 + 40).sum();
        let names: usize = self.names.values().map(|v| v.capacity() * 4 + 40).sum();
        docs + postings + names + (self.background.len() + self.presence.len()) * 24
    }

    /// Number of documents indexed.
    pub fn len(&self) -> usize {
        self.documents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }
}

/// A document read: the document (its words still to come), its words (char offsets and the
/// word) and its distinct name bigrams (hashed).
type Read<'a> = (Document, Vec<(u32, u32, &'a str)>, Vec<u64>);

fn read(id: u32, text: &str) -> Read<'_> {
    let jieba = crate::engine::signature::jieba_segmenter();
    let mut words = Vec::new();
    // The title line says little a translation keeps word for word; it is left out.
    let body = crate::engine::signature::body(text);
    let mut offset = text[..text.len() - body.len()].chars().count() as u32;
    let mut breaks = Vec::new();
    for word in jieba.cut(body, true).into_iter().map(|t| t.word) {
        let chars = word.chars().count() as u32;
        if word.chars().any(|c| c.is_alphanumeric()) {
            words.push((offset, offset + chars, word));
        } else if super::sentences::is_chinese_break(word) {
            breaks.push(offset + chars);
        }
        offset += chars;
    }
    let mut bigrams = Vec::new();
    let han: Vec<char> = body.chars().collect();
    let mut readings: HashMap<char, Vec<String>> = HashMap::new();
    for pair in han.windows(2) {
        if !pair.iter().all(|c| ('\u{4e00}'..='\u{9fff}').contains(c)) {
            continue;
        }
        for c in pair {
            readings.entry(*c).or_insert_with(|| chinese::readings(*c));
        }
        for a in &readings[&pair[0]] {
            for b in &readings[&pair[1]] {
                bigrams.push(name_key(&format!("{a} {b}")));
            }
        }
    }
    bigrams.sort_unstable();
    bigrams.dedup();
    (Document { id, words: Vec::new(), text_hash: xxh3_64(text.as_bytes()), breaks }, words, bigrams)
}
