//! Disguises pirates put on copied text so that it stops matching, undone while tokenizing
//! (stores with [`super::Normalizing::Undisguised`]), and counted, since a disguise is
//! evidence of intent:
//! - **invisible characters** (zero-width spaces and joiners, soft hyphens, bidi marks,
//!   variation selectors, tags) are nothing: they no longer split a word;
//! - **homoglyphs**: in a word with Latin letters, a letter of another script that looks
//!   like a Latin one (Cyrillic а, Greek ο) becomes that letter, by its UTS #39 skeleton;
//! - **noise letters**: a word of one or two Latin letters between two Han characters
//!   (`名下士n。顺治`) is dropped;
//! - **pinyin-written passages**: a run of words that all read as pinyin syllables (toned,
//!   toneless or with tone numbers; spaced or run together), [`MIN_PINYIN_SYLLABLES`] or
//!   more, becomes the initials it spells (`shen gong` → s g), as the Han text it came from.
//!   English is left alone: a run must parse completely, and English words rarely run
//!   that long on pinyin syllables alone (a test reads English books and finds none).

use super::Token;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::OnceLock;

/// What was undone in a text, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disguises {
    /// Invisible characters ignored.
    pub invisible: u32,
    /// Letters of other scripts read as the Latin letters they look like.
    pub homoglyphs: u32,
    /// Single Latin letters (or pairs) between Han characters dropped.
    pub noise_letters: u32,
    /// Passages written out in pinyin, read as initials.
    pub pinyin_passages: u32,
    /// The syllables of those passages.
    pub pinyin_syllables: u32,
    /// Images the text was read from by OCR (an image file, a scanned PDF's pages): posting
    /// a chapter as a picture hides it from text matching.
    #[serde(default)]
    pub images: u32,
    /// Characters of a web page replaced by the ones its scrambling font draws for them.
    #[serde(default)]
    pub font_remapped: u32,
}

impl Disguises {
    pub fn add(&mut self, other: &Disguises) {
        self.invisible += other.invisible;
        self.homoglyphs += other.homoglyphs;
        self.noise_letters += other.noise_letters;
        self.pinyin_passages += other.pinyin_passages;
        self.pinyin_syllables += other.pinyin_syllables;
        self.images += other.images;
        self.font_remapped += other.font_remapped;
    }

    pub fn is_empty(&self) -> bool {
        *self == Disguises::default()
    }

    /// What of it is a disguise of a text of `chars` characters, not the odd character
    /// ordinary text has: invisible characters and look-alike letters count when there are
    /// at least ten and they are frequent (one in 200 characters, one in 500); a web page's
    /// stray zero-width space or a unit's µ in `10µm` is not a disguise. (Noise letters are
    /// judged by their variety in [`undo`], pinyin passages by their length.)
    pub fn systematic(self, chars: usize) -> Disguises {
        let frequent = |n: u32, one_in: usize| n >= 10 && n as usize * one_in >= chars;
        Disguises {
            invisible: if frequent(self.invisible, 200) { self.invisible } else { 0 },
            homoglyphs: if frequent(self.homoglyphs, 500) { self.homoglyphs } else { 0 },
            ..self
        }
    }

    /// In words, for reports: "5 noise letters, 1 passage written in pinyin (212
    /// syllables)"; `None` when nothing was undone.
    pub fn describe(&self) -> Option<String> {
        let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut parts = Vec::new();
        if self.images > 0 {
            parts.push(format!("text read from {}", plural(self.images, "image", "images")));
        }
        if self.font_remapped > 0 {
            parts.push(plural(
                self.font_remapped,
                "character drawn differently by a scrambled web font",
                "characters drawn differently by a scrambled web font",
            ));
        }
        if self.pinyin_passages > 0 {
            parts.push(format!(
                "{} ({} syllables)",
                plural(self.pinyin_passages, "passage written in pinyin", "passages written in pinyin"),
                self.pinyin_syllables
            ));
        }
        if self.noise_letters > 0 {
            parts.push(plural(
                self.noise_letters,
                "noise letter between Han characters",
                "noise letters between Han characters",
            ));
        }
        if self.homoglyphs > 0 {
            parts.push(plural(
                self.homoglyphs,
                "look-alike letter of another script",
                "look-alike letters of another script",
            ));
        }
        if self.invisible > 0 {
            parts.push(plural(self.invisible, "invisible character", "invisible characters"));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// A pinyin-written run shorter than this many syllables is left as words.
pub const MIN_PINYIN_SYLLABLES: usize = 12;

/// Noise letters are said to be a disguise when at least this many different ones were
/// dropped from a text.
pub const MIN_NOISE_KINDS: usize = 5;

/// ... and its syllables begin with at least this many different letters.
pub const MIN_PINYIN_INITIALS: usize = 5;

/// What [`undo`] needs to know of a word token.
#[derive(Clone, Debug)]
pub struct WordNote {
    /// One or two ASCII letters: noise when it stands between Han characters.
    short_letters: bool,
    /// Its syllables if it reads as pinyin: (initial, first char, end char) relative to the
    /// word's first char.
    syllables: Option<Vec<(u8, u32, u32)>>,
}

/// The note on a collected word (lower case) covering `chars` characters of the text, if
/// [`undo`] may change it. `after_han`: the token before it is a Han character (noise
/// letters stand between two); `had_capitals`: it was written with capitals (A股, C罗, X光:
/// letters Chinese text uses, never noise).
pub fn note(word: &str, chars: usize, after_han: bool, had_capitals: bool) -> Option<WordNote> {
    let short_letters = after_han && !had_capitals && word.len() <= 2 && word.bytes().all(|b| b.is_ascii_lowercase());
    // Offsets map to the text's chars only when each char of the word is one of the text.
    let syllables = (word.chars().count() == chars).then(|| syllables(word)).flatten();
    (short_letters || syllables.is_some()).then_some(WordNote { short_letters, syllables })
}

/// Whether `c` is invisible: format characters, variation selectors, fillers.
pub fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00ad | 0x034f | 0x061c | 0x115f | 0x1160 | 0x17b4 | 0x17b5 | 0x180b..=0x180f
        | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x206f | 0x3164 | 0xfe00..=0xfe0f | 0xfeff
        | 0xffa0 | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a | 0xe0000..=0xe0fff)
}

/// Folds letters of other scripts that look like Latin letters into them, in a word that
/// has Latin letters (a word wholly in another script is that script's word); the count.
pub fn fold_homoglyphs(word: &mut String) -> u32 {
    if word.is_ascii() || !word.bytes().any(|b| b.is_ascii_lowercase()) {
        return 0;
    }
    let mut folded = 0;
    let out: String = word
        .chars()
        .map(|c| {
            if c.is_ascii() {
                return c;
            }
            let mut buf = [0; 4];
            let mut skeleton = unicode_security::skeleton(c.encode_utf8(&mut buf));
            match (skeleton.next(), skeleton.next()) {
                (Some(s), None) if s.is_ascii_alphabetic() => {
                    folded += 1;
                    s.to_ascii_lowercase()
                }
                _ => c,
            }
        })
        .collect();
    *word = out;
    folded
}

/// The toneless pinyin syllables (ü written v), from the readings the pinyin crate gives
/// every Han character, as [`syllable_key`]s, sorted.
fn syllable_keys() -> &'static [u32] {
    static KEYS: OnceLock<Vec<u32>> = OnceLock::new();
    KEYS.get_or_init(|| {
        use pinyin::ToPinyin;
        let mut keys: Vec<u32> = (0x3400u32..=0x9fff)
            .filter_map(char::from_u32)
            .filter_map(|c| c.to_pinyin())
            .map(|p| p.plain().replace('ü', "v"))
            // Interjections without a vowel (m, n, ng, hm) would make English words pinyin.
            .filter(|s| s.is_ascii() && s.contains(['a', 'e', 'i', 'o', 'u', 'v']))
            .filter_map(|s| syllable_key(s.as_bytes()))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    })
}

/// Whether `letters` (lower case, ü as v) are a pinyin syllable. Syllables of up to three
/// letters are looked up in a bit table (15 bits of key), longer ones searched.
fn is_syllable(letters: &[u8]) -> bool {
    static SHORT: OnceLock<Vec<u64>> = OnceLock::new();
    let Some(key) = syllable_key(letters) else { return false };
    if letters.len() > 3 {
        return syllable_keys().binary_search(&key).is_ok();
    }
    let short = SHORT.get_or_init(|| {
        let mut bits = vec![0u64; (1 << 15) / 64];
        for &k in syllable_keys().iter().filter(|&&k| k < 1 << 15) {
            bits[k as usize / 64] |= 1 << (k % 64);
        }
        bits
    });
    short[key as usize / 64] & (1 << (key % 64)) != 0
}

/// Up to six lower-case letters as one number (5 bits a letter); `None` if longer.
fn syllable_key(letters: &[u8]) -> Option<u32> {
    (letters.len() <= 6).then(|| letters.iter().fold(0u32, |key, &b| key << 5 | u32::from(b - b'a' + 1)))
}

/// A tone-marked vowel's plain letter (ü as v).
fn untoned(c: char) -> Option<char> {
    Some(match c {
        'a'..='z' => c,
        'ā' | 'á' | 'ǎ' | 'à' => 'a',
        'ē' | 'é' | 'ě' | 'è' => 'e',
        'ī' | 'í' | 'ǐ' | 'ì' => 'i',
        'ō' | 'ó' | 'ǒ' | 'ò' => 'o',
        'ū' | 'ú' | 'ǔ' | 'ù' => 'u',
        'ü' | 'ǖ' | 'ǘ' | 'ǚ' | 'ǜ' => 'v',
        _ => return None,
    })
}

/// Words longer than this are not read as pinyin (a run-together passage rarely is).
const MAX_PINYIN_WORD: usize = 240;

/// The syllables a word reads as, if it reads wholly as pinyin: toneless, tone-marked, or
/// each syllable followed by a tone number 1–5; run together or not. Longest syllables
/// first, with backtracking (`xian` is one syllable, `xi'an` two only with the
/// apostrophe, which splits words here anyway). Most English words fail on their first
/// letters, so it is cheap for them.
fn syllables(word: &str) -> Option<Vec<(u8, u32, u32)>> {
    if word.len() > MAX_PINYIN_WORD || !word.starts_with(|c: char| untoned(c).is_some()) {
        return None;
    }
    let mut dead = [false; MAX_PINYIN_WORD + 1];
    if word.bytes().all(|b| b.is_ascii_lowercase()) {
        // Plain letters (most words): chars are bytes, no tones.
        let plain = word.as_bytes();
        let mut ends = Vec::new();
        if !way_from(0, plain, &[], &mut dead, &mut ends) {
            return None;
        }
        ends.reverse();
        let starts = std::iter::once(0).chain(ends.iter().copied());
        return Some(starts.zip(&ends).map(|(a, &b)| (plain[a], a as u32, b as u32)).collect());
    }
    // Plain letters with their char positions; a tone digit ends the syllable before it.
    let mut letters: Vec<(u8, u32)> = Vec::with_capacity(word.len());
    let mut tone_after: Vec<bool> = Vec::new();
    for (i, c) in word.chars().enumerate() {
        if ('1'..='5').contains(&c) {
            match tone_after.last_mut() {
                Some(last) if !*last => *last = true,
                _ => return None,
            }
            continue;
        }
        letters.push((untoned(c)? as u8, i as u32));
        tone_after.push(false);
    }
    let plain: Vec<u8> = letters.iter().map(|(c, _)| *c).collect();
    let mut ends = Vec::new();
    if !way_from(0, &plain, &tone_after, &mut dead, &mut ends) {
        return None;
    }
    ends.reverse();
    let mut out = Vec::with_capacity(ends.len());
    let mut start = 0;
    for end in ends {
        let last_char = letters[end - 1].1 + 1 + u32::from(tone_after[end - 1]);
        out.push((plain[start], letters[start].1, last_char));
        start = end;
    }
    Some(out)
}

/// Whether `plain[at..]` reads as syllables, longest first; if so, their ends are pushed
/// (last first). `tone_after[i]`: a tone number follows letter i (empty: none do); `dead[i]`:
/// no way on from i, learned on the way.
fn way_from(at: usize, plain: &[u8], tone_after: &[bool], dead: &mut [bool], ends: &mut Vec<usize>) -> bool {
    if at == plain.len() {
        return true;
    }
    if dead[at] {
        return false;
    }
    for end in (at + 1..=(at + 6).min(plain.len())).rev() {
        // A tone number may only follow a syllable's last letter.
        let digit_inside = !tone_after.is_empty() && tone_after[at..end - 1].iter().any(|&t| t);
        let syllable = is_syllable(&plain[at..end]);
        if !digit_inside && syllable && way_from(end, plain, tone_after, dead, ends) {
            ends.push(end);
            return true;
        }
    }
    dead[at] = true;
    false
}

/// Undoes what the notes show: noise letters between Han characters dropped, pinyin-written
/// runs turned into initials. `notes` are by token index, in order.
pub fn undo(tokens: Vec<Token>, notes: Vec<(u32, WordNote)>, found: &mut Disguises) -> Vec<Token> {
    if notes.is_empty() {
        return tokens;
    }
    let is_han = |t: &Token| t.sym < 128 && t.chars() == 1;
    let mut drop = vec![false; tokens.len()];
    let mut replace: Vec<(usize, usize, Vec<Token>)> = Vec::new();
    // Noise letters: one or two letters with a Han character at most a character away on
    // each side. All are dropped; they are said to be a disguise only when they vary, as
    // slipped-in letters do (a brand's 宝e家 or a score's 德vs云 repeat one word).
    let (mut dropped, mut kinds) = (0, HashSet::new());
    for (i, note) in &notes {
        let i = *i as usize;
        if note.short_letters && i > 0 && i + 1 < tokens.len() {
            let (before, word, after) = (&tokens[i - 1], &tokens[i], &tokens[i + 1]);
            if is_han(before) && is_han(after) && word.start - before.end <= 1 && after.start - word.end <= 1 {
                drop[i] = true;
                dropped += 1;
                kinds.insert(word.sym);
            }
        }
    }
    if kinds.len() >= MIN_NOISE_KINDS {
        found.noise_letters += dropped;
    }
    // Pinyin runs: consecutive word tokens that all read as pinyin.
    let mut k = 0;
    while k < notes.len() {
        let mut end = k;
        while end < notes.len()
            && notes[end].1.syllables.is_some()
            && (end == k || notes[end].0 == notes[end - 1].0 + 1)
            && !drop[notes[end].0 as usize]
        {
            end += 1;
        }
        let count: usize = notes[k..end].iter().map(|(_, n)| n.syllables.as_ref().map_or(0, Vec::len)).sum();
        // Real text starts its syllables with many different letters; a run of few is a
        // refrain or a sound (Joyce's "pa pa pa pa"), left as words.
        let initials: HashSet<u8> =
            notes[k..end].iter().flat_map(|(_, n)| n.syllables.iter().flatten().map(|s| s.0)).collect();
        if count >= MIN_PINYIN_SYLLABLES && initials.len() >= MIN_PINYIN_INITIALS {
            let first = notes[k].0 as usize;
            let initials = notes[k..end]
                .iter()
                .flat_map(|(i, n)| {
                    let word = tokens[*i as usize];
                    n.syllables.iter().flatten().map(move |&(initial, a, b)| Token {
                        sym: initial as u64,
                        start: word.start + a,
                        end: (word.start + b).min(word.end),
                    })
                })
                .collect();
            replace.push((first, first + (end - k), initials));
            found.pinyin_passages += 1;
            found.pinyin_syllables += count as u32;
        }
        k = end.max(k + 1);
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut replace = replace.into_iter().peekable();
    let mut i = 0;
    while i < tokens.len() {
        if replace.peek().is_some_and(|(first, _, _)| *first == i) {
            let (_, end, initials) = replace.next().expect("peeked");
            out.extend(initials);
            i = end;
            continue;
        }
        if !drop[i] {
            out.push(tokens[i]);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{tokenize, undisguised};
    use super::*;

    fn syms(tokens: &[Token]) -> Vec<u64> {
        tokens.iter().map(|t| t.sym).collect()
    }

    #[test]
    fn pinyin_words_read_as_their_syllables() {
        let initials = |w: &str| syllables(w).map(|s| s.iter().map(|&(c, _, _)| c as char).collect::<String>());
        assert_eq!(initials("shen").as_deref(), Some("s"));
        assert_eq!(initials("shengongdingan").as_deref(), Some("sgda"));
        assert_eq!(initials("zhōngguó").as_deref(), Some("zg"));
        assert_eq!(initials("zhong1guo2").as_deref(), Some("zg"));
        assert_eq!(initials("lv").as_deref(), Some("l"));
        for not_pinyin in ["the", "of", "and", "plagiarism", "xyz", "zhong12", "1guo"] {
            assert_eq!(initials(not_pinyin), None, "{not_pinyin}");
        }
        // Char offsets cover the tone number.
        assert_eq!(syllables("zhong1guo2").unwrap(), vec![(b'z', 0, 6), (b'g', 6, 10)]);
    }

    #[test]
    fn a_passage_written_in_pinyin_tokenizes_as_its_han_text() {
        let han = "话说天下大势分久必合合久必分周末七国分争";
        let pinyin = "huà shuō tiān xià dà shì, fēn jiǔ bì hé, hé jiǔ bì fēn. zhōu mò qī guó fēn zhēng";
        let numbered = "hua4shuo1 tian1xia4 da4shi4 fen1jiu3bi4he2 he2jiu3bi4fen1 zhou1mo4 qi1guo2 fen1zheng1";
        let (han_tokens, _) = undisguised(han);
        for written in [pinyin, numbered] {
            let (tokens, found) = undisguised(&format!("他说：{written}。"));
            assert_eq!(syms(&tokens[2..tokens.len()]), syms(&han_tokens), "{written}");
            assert_eq!((found.pinyin_passages, found.pinyin_syllables), (1, 20));
        }
        // The plain tokenizer keeps the words.
        assert!(tokenize(pinyin).iter().all(|t| t.sym >= 128));
    }

    #[test]
    fn english_and_short_pinyin_are_left_alone() {
        for text in [
            "Say papa, baby. Say pa pa pa pa pa pa pa pa pa pa pa pa pa pa.",
            "A man can hang on a long pan, she said; then he ran to the bank and began to sing.",
            "women in China change the game",
            "Beijing and Shanghai are big",
        ] {
            let (tokens, found) = undisguised(text);
            assert_eq!(syms(&tokens), syms(&tokenize(text)), "{text}");
            assert!(found.is_empty(), "{text}: {found:?}");
        }
    }

    #[test]
    fn noise_letters_invisible_characters_and_homoglyphs_are_undone() {
        let clean = "名下士。顺治间赴乡试，官至郎中";
        let (noisy, found) = undisguised("名下士n。顺x治间赴ab乡试，官k至郎q中");
        assert_eq!(syms(&noisy), syms(&tokenize(clean)));
        assert_eq!(found.noise_letters, 5);
        // The same letters again and again are a name, dropped but not called a disguise.
        let (tokens, found) = undisguised("宝e家的宝e家，融e购");
        assert_eq!(found.noise_letters, 0);
        assert_eq!(syms(&tokens), syms(&tokenize("宝家的宝家，融购")));
        // Letters beside a single Han character, or inside words, stay; so do capitals, which
        // Chinese text uses (的X光片, 看C罗进球).
        assert_eq!(undisguised("A股").1.noise_letters, 0);
        let (tokens, found) = undisguised("拍了X光片，看C罗进球");
        assert_eq!(found.noise_letters, 0);
        assert_eq!(syms(&tokens), syms(&tokenize("拍了X光片，看C罗进球")));
        let (tokens, found) = undisguised("pla\u{200b}gia\u{00ad}rism is wrоng"); // Cyrillic о
        assert_eq!(syms(&tokens), syms(&tokenize("plagiarism is wrong")));
        assert_eq!((found.invisible, found.homoglyphs), (2, 1));
        // A word wholly in another script is that script's.
        assert_eq!(syms(&undisguised("сор").0), syms(&tokenize("сор")));
    }
}
