//! Search phrases from a work: the stretches of a chapter most likely to find its copies
//! and nothing else.
//!
//! A search engine matches an exact phrase against its whole index, so a phrase must be
//! long enough to be unique on the web and short enough to survive a pirate's edits and
//! the engine's own limits:
//! - **Han text: 12–20 characters within one sentence.** 12 characters of a novel are
//!   already unique on the web in practice (about 50 bits at 4.2 bits a character), while
//!   Baidu and Sogou cut queries at about 38 characters and treat longer ones as loose
//!   keyword lists; a stretch inside one sentence is what a re-poster keeps intact (they
//!   re-break lines and paragraphs, insert ads between them, rarely inside a sentence).
//! - **Latin text: 8–12 words.** Eight ordinary words (10–12 bits each) are as specific as
//!   12 Han characters; Google and Bing stop honouring exact phrases at about 32 words, and
//!   shorter phrases survive light rewording better.
//!
//! Which stretch: the rarest, by the rarity model (`engine::rarity`) for words, and for Han
//! characters by how rare each character is in the work itself (its surprisal over the
//! work's characters): a Han initial carries a flat 4.2 bits in the fingerprints, which
//! cannot tell 的了是 from a name, and a phrase full of the work's names and rare words is
//! what identifies it. One phrase per sentence at most, the best sentences first; the
//! caller rejects stock phrases the index finds in other works.

use crate::engine::normalize::{Token, tokenize};
use crate::engine::rarity::sym_bits;
use std::collections::HashMap;

/// Phrase lengths, in Han characters or words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhraseLengths {
    pub han: (usize, usize),
    pub words: (usize, usize),
}

impl Default for PhraseLengths {
    fn default() -> Self {
        PhraseLengths { han: (12, 20), words: (8, 12) }
    }
}

/// How rare each Han character is in a work: −log2 of its share of the work's characters.
pub struct HanRarity {
    bits: HashMap<char, f64>,
    unseen: f64,
}

impl HanRarity {
    /// Counts the Han characters of `texts` (a work's chapters).
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> HanRarity {
        let mut counts: HashMap<char, u64> = HashMap::new();
        let mut total = 0u64;
        for text in texts {
            for c in text.chars().filter(|c| is_han(*c)) {
                *counts.entry(c).or_default() += 1;
                total += 1;
            }
        }
        let total = total.max(1) as f64;
        let bits = counts.into_iter().map(|(c, n)| (c, -(n as f64 / total).log2())).collect();
        HanRarity { bits, unseen: total.log2() + 1.0 }
    }

    pub fn bits(&self, c: char) -> f64 {
        self.bits.get(&c).copied().unwrap_or(self.unseen)
    }
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{20000}'..='\u{3134f}')
}

/// A candidate phrase: its text as written and where it lies in the chapter (chars).
#[derive(Clone, Debug, PartialEq)]
pub struct Phrase {
    pub text: String,
    pub char_start: usize,
    pub char_end: usize,
    /// Its information by the measure above, in bits: the rank.
    pub bits: f64,
}

/// Sentence ends: Chinese and Latin full stops, question and exclamation marks,
/// semicolons, ellipses, line breaks.
fn ends_sentence(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '…' | '!' | '?' | ';' | '\n' | '.' | '」' | '”')
}

/// The sentences of `text` as char ranges.
fn sentences(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in chars.iter().enumerate() {
        // A Latin full stop ends a sentence only before white space (not 3.5, e.g.).
        let end = ends_sentence(c) && (c != '.' || chars.get(i + 1).is_none_or(|n| n.is_whitespace()));
        if end {
            if i > start {
                out.push((start, i));
            }
            start = i + 1;
        }
    }
    if start < chars.len() {
        out.push((start, chars.len()));
    }
    out
}

/// Every sentence's best phrase, best first, no two with the same text.
pub fn candidates(text: &str, rarity: &HanRarity, lengths: PhraseLengths) -> Vec<Phrase> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<Phrase> = Vec::new();
    for (s_start, s_end) in sentences(&chars) {
        let sentence: String = chars[s_start..s_end].iter().collect();
        let tokens = tokenize(&sentence);
        if tokens.is_empty() {
            continue;
        }
        let han = tokens.iter().filter(|t| t.sym < 128).count();
        let (min, max) = if han * 2 >= tokens.len() { lengths.han } else { lengths.words };
        if tokens.len() < min {
            continue;
        }
        let sentence_chars: Vec<char> = sentence.chars().collect();
        let weight = |t: &Token| -> f64 {
            if t.sym < 128 {
                sentence_chars.get(t.start as usize).map_or(0.0, |&c| rarity.bits(c))
            } else {
                sym_bits(t.sym) as f64
            }
        };
        let weights: Vec<f64> = tokens.iter().map(weight).collect();
        let len = max.min(tokens.len());
        let mut best = (0usize, f64::MIN);
        let mut sum: f64 = weights[..len].iter().sum();
        for start in 0..=tokens.len() - len {
            if start > 0 {
                sum += weights[start + len - 1] - weights[start - 1];
            }
            if sum > best.1 {
                best = (start, sum);
            }
        }
        let (first, last) = (&tokens[best.0], &tokens[best.0 + len - 1]);
        let (a, b) = (first.start as usize, last.end as usize);
        out.push(Phrase {
            text: sentence_chars[a..b].iter().collect(),
            char_start: s_start + a,
            char_end: s_start + b,
            bits: best.1,
        });
    }
    out.sort_by(|a, b| b.bits.total_cmp(&a.bits).then(a.char_start.cmp(&b.char_start)));
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.text.clone()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAPTER: &str = "诗曰：混沌未分天地乱，茫茫渺渺无人见。自从盘古破鸿蒙，开辟从兹清浊辨。\
        盖闻天地之数，有十二万九千六百岁为一元。将一元分为十二会，乃子、丑、寅、卯、辰、巳、午、未、申、酉、戌、亥之十二支也。\
        他说了。他说了。\n感盘古开辟，三皇治世，五帝定伦，世界之间，遂分为四大部洲：曰东胜神洲，曰西牛贺洲，曰南赡部洲，曰北俱芦洲。";

    #[test]
    fn han_phrases_lie_inside_one_sentence_and_have_the_right_length() {
        let rarity = HanRarity::of([CHAPTER]);
        let phrases = candidates(CHAPTER, &rarity, PhraseLengths::default());
        assert!(phrases.len() >= 4, "{phrases:?}");
        let chars: Vec<char> = CHAPTER.chars().collect();
        for p in &phrases {
            let han = p.text.chars().filter(|c| is_han(*c)).count();
            assert!((12..=20).contains(&han), "{} has {han}", p.text);
            assert_eq!(chars[p.char_start..p.char_end].iter().collect::<String>(), p.text);
            assert!(!p.text.contains(['。', '\n']), "{}", p.text);
        }
        // The short stock sentence never becomes a phrase.
        assert!(!phrases.iter().any(|p| p.text.contains("他说了")));
        // Ranked by information.
        assert!(phrases.windows(2).all(|w| w[0].bits >= w[1].bits));
    }

    #[test]
    fn latin_phrases_are_eight_to_twelve_words_and_prefer_rare_words() {
        let text = "It was the best of times, it was the worst of times, it was the age of wisdom. \
            The quixotic apothecary Mr. Pumblechook sold phosphorescent marmalade to bewildered \
            travellers on Tuesdays and the other days of the week.";
        let phrases = candidates(text, &HanRarity::of([text]), PhraseLengths::default());
        for p in &phrases {
            let words = p.text.split_whitespace().count();
            assert!((8..=12).contains(&words), "{}: {words}", p.text);
        }
        assert!(phrases[0].text.contains("Pumblechook"), "{phrases:?}");
    }

    #[test]
    fn rare_characters_outweigh_common_ones() {
        let rarity = HanRarity::of(["的的的的的的的的猴"]);
        assert!(rarity.bits('猴') > rarity.bits('的') + 2.0);
        assert!(rarity.bits('龙') >= rarity.bits('猴'));
    }
}
