//! The English side: content words as Snowball stems, and the romanised names in the text.

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

/// Function words and words too general to say what a text is about (`sb`, `sth` and
/// `etc` come from dictionary glosses).
const STOPWORDS: &str = "a about above after again against all also am an and any are as at be because been before \
being below between both but by can could did do does doing down during e.g each either else etc ever every few for \
from further had has have having he her here hers herself him himself his how i i.e if in into is it its itself just \
let like may me might miss more most mr mrs much must my myself neither no nor not now of off on once one ones oneself \
only or other ought our ours ourselves out over own per said same say says sb shall she should since sir so some \
someone something sth such than that the their theirs them themselves then there these they thing things this those \
though through thus till to too under until up upon us used very was we were what when where whether which while who \
whom whose why will with within without would yet you your yours yourself yourselves";

fn is_stopword(word: &str) -> bool {
    static SET: OnceLock<std::collections::HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| STOPWORDS.split_whitespace().collect()).contains(word)
}

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Accents taken off (`Chü` → `Chu`), as NFKD without its combining marks.
pub fn fold(text: &str) -> String {
    text.nfkd().filter(|c| !unicode_normalization::char::is_combining_mark(*c)).collect()
}

/// A content word of English text: its stem and where it stands (char offsets).
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    pub stem: String,
    pub start: u32,
    pub end: u32,
}

/// The content words of `text` in order: runs of ASCII letters (after folding accents),
/// lower-cased, stopwords and one-letter words left out, stemmed (Snowball English).
pub fn content_words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut start = 0u32;
    let flush = |word: &mut String, start: u32, end: u32, out: &mut Vec<Word>| {
        if word.len() >= 2 && !is_stopword(word) {
            out.push(Word { stem: stemmer().stem(word).into_owned(), start, end });
        }
        word.clear();
    };
    let mut i = 0u32;
    for c in text.chars() {
        let mut letters = false;
        for f in std::iter::once(c).nfkd().filter(|f| !unicode_normalization::char::is_combining_mark(*f)) {
            if f.is_ascii_alphabetic() {
                if word.is_empty() {
                    start = i;
                }
                word.push(f.to_ascii_lowercase());
                letters = true;
            }
        }
        if !letters && !word.is_empty() {
            flush(&mut word, start, i, &mut out);
        }
        i += 1;
    }
    flush(&mut word, start, i, &mut out);
    out
}

/// The stems of a dictionary gloss (already without its parenthesised and bracketed parts).
pub fn gloss_stems(gloss: &str) -> impl Iterator<Item = String> {
    content_words(gloss).into_iter().map(|w| w.stem)
}

/// A romanised name in English text: `Chu Erh-tan`, its syllables normalised
/// ([`normalise_syllable`]) and the char offset where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub syllables: Vec<String>,
    pub start: u32,
}

/// The romanised names of English text: in runs of capitalised words (`Chu Erh-tan`,
/// `Ling-yang`) split at spaces and hyphens into syllables, each maximal stretch of at least
/// two romanised syllables (pinyin or Wade–Giles, `is_syllable`).
pub fn names(text: &str, is_syllable: &dyn Fn(&str) -> bool) -> Vec<Name> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // A run: capitalised words separated by one space or a hyphen.
        if !(chars[i].is_uppercase() && (i == 0 || !chars[i - 1].is_alphabetic())) {
            i += 1;
            continue;
        }
        // (normalised syllable, start, end)
        let mut syllables: Vec<(String, usize, usize)> = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while j < chars.len() && (chars[j].is_alphabetic() || chars[j] == '\'' || chars[j] == '\u{2019}') {
                j += 1;
            }
            let word: String = chars[start..j].iter().collect();
            syllables.push((normalise_syllable(&word), start, j));
            let hyphen = j + 1 < chars.len() && chars[j] == '-' && chars[j + 1].is_alphabetic();
            let space = j + 1 < chars.len() && chars[j] == ' ' && chars[j + 1].is_uppercase();
            if !(hyphen || space) {
                break;
            }
            j += 1;
        }
        let mut stretch: Vec<&(String, usize, usize)> = Vec::new();
        for s in syllables.iter().map(Some).chain([None]) {
            match s {
                Some(s) if is_syllable(&s.0) => stretch.push(s),
                _ => {
                    if stretch.len() >= 2 {
                        let (from, to) = (stretch[0].1, stretch[stretch.len() - 1].2);
                        out.push(Name {
                            text: chars[from..to].iter().collect(),
                            syllables: stretch.iter().map(|s| s.0.clone()).collect(),
                            start: from as u32,
                        });
                    }
                    stretch.clear();
                }
            }
        }
        i = j.max(i + 1);
    }
    out
}

/// Name bigrams of English text: the neighbouring syllable pairs of its [`names`]
/// (`chu erh`, `erh tan`), with the char offset of the name.
pub fn name_bigrams(text: &str, is_syllable: &dyn Fn(&str) -> bool) -> Vec<(String, u32)> {
    names(text, is_syllable)
        .into_iter()
        .flat_map(|n| n.syllables.windows(2).map(|w| (format!("{} {}", w[0], w[1]), n.start)).collect::<Vec<_>>())
        .collect()
}

/// A romanised syllable as names are compared: accents off, lower case, no apostrophes
/// (Wade–Giles `ch'ing` = `ching`), `ü`/`v` as `u`.
pub fn normalise_syllable(syllable: &str) -> String {
    fold(syllable)
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| if c == 'v' { 'u' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_words_are_stems_without_function_words() {
        let words = content_words("The Judge was drinking wine with his friends, and Chü laughed.");
        let stems: Vec<&str> = words.iter().map(|w| w.stem.as_str()).collect();
        assert_eq!(stems, ["judg", "drink", "wine", "friend", "chu", "laugh"]);
        assert_eq!((words[0].start, words[0].end), (4, 9));
    }

    #[test]
    fn names_give_bigrams_of_romanised_syllables() {
        let syllables = ["chu", "erh", "tan", "ling", "yang", "lu"];
        let is = |s: &str| syllables.contains(&s);
        let names: Vec<String> = name_bigrams("Chu Erh-tan met Judge Lu at Ling-yang. The Chinese say", &is)
            .into_iter()
            .map(|n| n.0)
            .collect();
        assert_eq!(names, ["chu erh", "erh tan", "ling yang"]);
    }
}
