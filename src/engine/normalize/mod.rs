//! Text → tokens that survive piracy.
//!
//! Each character is NFKC-folded on its own (full-width Ａ１ become A1, compatibility
//! ideographs become unified ones). Then:
//! - a Han character becomes one token: the first letter of its default pinyin reading.
//!   Homophone substitutions (同音字替代) and traditional/simplified script changes keep
//!   the pinyin, so they vanish here. A Han character without a reading is its own token.
//! - a run of letters or digits (Latin and other alphabets) becomes one lower-cased word.
//! - a kana or hangul character is its own token.
//! - punctuation, symbols and white space produce nothing.
//!
//! Every token keeps the range of characters (`char` indices, end exclusive) it came from
//! in the original text, so matches map back exactly. Normalization is total and
//! deterministic: any string gives tokens, the same string always the same tokens.

pub mod disguise;

pub use crate::engine::params::Normalizing;
pub use disguise::Disguises;
use pinyin::ToPinyin;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use xxhash_rust::xxh3::xxh3_64;

/// One token. `sym` identifies its content: an ASCII initial letter (`b'a'..=b'z'`) for
/// a Han character, otherwise a value with the top bit set (never equal to an initial):
/// the code point for a Han character without a reading or a kana/hangul character, a
/// hash with [`WORD`] set for a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub sym: u64,
    pub start: u32,
    pub end: u32,
}

impl Token {
    /// Characters of the original text this token covers.
    pub fn chars(&self) -> u32 {
        self.end - self.start
    }

    /// How much the token weighs in window and feature lengths; see [`WORD_UNITS`].
    pub fn units(&self) -> u32 {
        sym_units(self.sym)
    }
}

/// Weight of a word token relative to a pinyin initial. An initial carries about 4.2
/// bits (23 letters in use), an English word about 10-12, so a window of N units holds
/// N initials or N/3 words: specific enough either way, and short enough in English that
/// a lightly edited copy still has intact windows. Measured: 2 units found 13 of 19
/// lightly revised answers, 3 units 18 (the 19th is a paraphrase with no 8-word run in
/// common with its source); unrelated answers found nothing either way.
pub const WORD_UNITS: u32 = 3;

const HASHED: u64 = 1 << 63;
/// Marks a word token's symbol.
pub const WORD: u64 = 1 << 62;

/// How much a token with symbol `sym` weighs in window and feature lengths; see
/// [`WORD_UNITS`].
pub fn sym_units(sym: u64) -> u32 {
    if sym & WORD != 0 { WORD_UNITS } else { 1 }
}

/// The symbol of a word token: `word` must be lower-case letters and digits, as the
/// tokenizer collects them.
pub fn word_symbol(word: &str) -> u64 {
    xxh3_64(word.as_bytes()) | HASHED | WORD
}

/// The CJK Unified Ideographs block: each is its own NFKC form, and a Han token.
const UNIFIED_IDEOGRAPHS: std::ops::RangeInclusive<char> = '\u{4e00}'..='\u{9fff}';

/// Tokens of `text`, in order. A long text (a novel) is cut into pieces tokenized on all
/// threads; a cut falls just after white space or a Han character, where no word is open,
/// so the pieces' tokens are the text's.
pub fn tokenize(text: &str) -> Vec<Token> {
    pieces(text, Normalizing::Plain).into_iter().map(|p| p.tokens).collect::<Vec<_>>().concat()
}

/// Tokens of `text` as a store's [`Normalizing`] makes them.
pub fn tokens(text: &str, how: Normalizing) -> Vec<Token> {
    match how {
        Normalizing::Plain => tokenize(text),
        _ => tokens_and_disguises(text, how).0,
    }
}

/// Tokens of `text` with its disguises undone ([`disguise`]), and what was undone.
pub fn undisguised(text: &str) -> (Vec<Token>, Disguises) {
    tokens_and_disguises(text, Normalizing::Undisguised)
}

/// Tokens of `text` as `how` makes them, and the disguises undone (none for
/// [`Normalizing::Plain`]).
pub fn tokens_and_disguises(text: &str, how: Normalizing) -> (Vec<Token>, Disguises) {
    if !how.undisguises() {
        return (tokenize(text), Disguises::default());
    }
    let pieces = pieces(text, how);
    let mut tokens = Vec::with_capacity(pieces.iter().map(|p| p.tokens.len()).sum());
    let mut notes = Vec::new();
    let mut found = Disguises::default();
    for p in pieces {
        let offset = tokens.len() as u32;
        notes.extend(p.notes.into_iter().map(|(i, note)| (i + offset, note)));
        tokens.extend(p.tokens);
        found.add(&p.found);
    }
    let tokens = disguise::undo(tokens, notes, &mut found);
    (tokens, found)
}

/// A piece of a text, tokenized.
struct Piece {
    tokens: Vec<Token>,
    notes: Vec<(u32, disguise::WordNote)>,
    found: Disguises,
}

/// The text's pieces (see [`tokenize`]), tokenized on all threads.
fn pieces(text: &str, how: Normalizing) -> Vec<Piece> {
    use rayon::prelude::*;
    const PIECE: usize = 1 << 18;
    if text.len() < 2 * PIECE {
        return vec![tokenize_from(text, 0, how)];
    }
    let mut cuts = vec![0];
    let mut at = PIECE;
    while let Some(cut) = cut_at_or_after(text, at) {
        cuts.push(cut);
        at = cut + PIECE;
    }
    if cuts.last() != Some(&text.len()) {
        cuts.push(text.len());
    }
    let pieces: Vec<&str> = cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect();
    let chars: Vec<u32> = pieces.par_iter().map(|p| p.chars().count() as u32).collect();
    let firsts: Vec<u32> = chars.iter().scan(0, |seen, &n| Some(std::mem::replace(seen, *seen + n))).collect();
    pieces.par_iter().zip(firsts).map(|(p, first)| tokenize_from(p, first, how)).collect()
}

/// The first byte offset at or after `at` where `text` can be cut without splitting a
/// token (just after white space or a Han character, where no word is open): the tokens of
/// the pieces are then the tokens of the whole. `None` if there is none before the end.
pub fn cut_at_or_after(text: &str, at: usize) -> Option<usize> {
    if at >= text.len() {
        return None;
    }
    let from = text.ceil_char_boundary(at);
    let (i, c) =
        text[from..].char_indices().find(|&(_, c)| c.is_ascii_whitespace() || UNIFIED_IDEOGRAPHS.contains(&c))?;
    Some(from + i + c.len_utf8()).filter(|&cut| cut < text.len())
}

/// Tokens of `text`, whose first char is char `first` of the whole.
fn tokenize_from(text: &str, first: u32, how: Normalizing) -> Piece {
    let undisguise = how.undisguises();
    let mut t = Tokens {
        table: if how == Normalizing::Lookalikes { lookalike_initials_table() } else { initials_table() },
        out: Vec::with_capacity(text.len() / 3),
        word: String::new(),
        word_start: 0,
        word_end: 0,
        undisguise,
        word_had_capitals: false,
        notes: Vec::new(),
        found: Disguises::default(),
    };
    for (i, c) in text.chars().enumerate() {
        let i = first + i as u32;
        // Fast paths: ASCII and unified ideographs are their own NFKC form.
        if c.is_ascii() || UNIFIED_IDEOGRAPHS.contains(&c) {
            t.take(c, i);
        } else if undisguise && disguise::is_invisible(c) {
            // Zero-width and other invisible characters are nothing, not a break. Variation
            // selectors are not counted: an emoji's (⭐️) is part of it, no disguise.
            t.found.invisible += u32::from(!('\u{fe00}'..='\u{fe0f}').contains(&c));
        } else {
            std::iter::once(c).nfkc().for_each(|f| t.take(f, i));
        }
    }
    t.push_word();
    Piece { tokens: t.out, notes: t.notes, found: t.found }
}

/// Tokens as [`tokenize_from`] makes them, with the word being collected.
struct Tokens {
    table: &'static InitialsTable,
    out: Vec<Token>,
    word: String,
    /// The word being collected covers chars word_start..word_end: its end is the char after
    /// the last letter, digit or combining mark added, which matters when one char folds
    /// into several (㋀ → "1月": the word "1" ends where 月 begins, inside the same char).
    word_start: u32,
    word_end: u32,
    /// Undo disguises: fold homoglyphs in words and note the words [`disguise::undo`]
    /// may change (noise letters, pinyin).
    undisguise: bool,
    /// The word being collected has a capital letter.
    word_had_capitals: bool,
    notes: Vec<(u32, disguise::WordNote)>,
    found: Disguises,
}

impl Tokens {
    /// Takes `f`, a char of the NFKC form of the text's char `i`.
    #[inline]
    fn take(&mut self, f: char, i: u32) {
        if let Some(sym) = han_symbol(self.table, f) {
            self.push_word();
            self.out.push(Token { sym, start: i, end: i + 1 });
        } else if is_syllabic(f) {
            self.push_word();
            self.out.push(Token { sym: HASHED | f as u64, start: i, end: i + 1 });
        } else if f.is_alphanumeric() {
            if self.word.is_empty() {
                self.word_start = i;
            }
            self.word_had_capitals |= f.is_uppercase();
            if f.is_ascii() {
                self.word.push(f.to_ascii_lowercase());
            } else {
                self.word.extend(f.to_lowercase());
            }
            self.word_end = i + 1;
        } else if is_combining(f) {
            // Combining marks (e.g. from NFKC of accented letters) stay inside the word.
            if !self.word.is_empty() {
                self.word_end = i + 1;
            }
        } else {
            self.push_word();
        }
    }

    fn push_word(&mut self) {
        if self.word.is_empty() {
            return;
        }
        if self.undisguise {
            self.found.homoglyphs += disguise::fold_homoglyphs(&mut self.word);
            let chars = (self.word_end - self.word_start) as usize;
            let after_han = self.out.last().is_some_and(|t| t.sym < 128);
            if let Some(note) = disguise::note(&self.word, chars, after_han, self.word_had_capitals) {
                self.notes.push((self.out.len() as u32, note));
            }
        }
        self.out.push(Token { sym: word_symbol(&self.word), start: self.word_start, end: self.word_end });
        self.word.clear();
        self.word_had_capitals = false;
    }
}

/// The token symbol of a Han character (its initial in `table`), or `None` if `c` is not Han.
#[inline]
fn han_symbol(table: &InitialsTable, c: char) -> Option<u64> {
    let cp = c as u32;
    let letter = if (BMP_HAN_START..=BMP_HAN_END).contains(&cp) {
        table.bmp[(cp - BMP_HAN_START) as usize]
    } else if (EXT_HAN_START..=EXT_HAN_END).contains(&cp) {
        table.ext[(cp - EXT_HAN_START) as usize]
    } else if ('\u{f900}'..='\u{faff}').contains(&c) || c == '〇' {
        initial_of(c)
    } else {
        return None;
    };
    Some(if letter == 0 { HASHED | cp as u64 } else { letter as u64 })
}

/// CJK Extension A through the Unified Ideographs block.
const BMP_HAN_START: u32 = 0x3400;
const BMP_HAN_END: u32 = 0x9fff;
/// CJK Extensions B through F.
const EXT_HAN_START: u32 = 0x20000;
const EXT_HAN_END: u32 = 0x2ebef;

struct InitialsTable {
    bmp: Vec<u8>,
    ext: Vec<u8>,
}

/// Pinyin initials of every Han code point, computed once: a table lookup per character
/// instead of the pinyin crate's block search keeps tokenizing at hundreds of MB/s.
fn initials_table() -> &'static InitialsTable {
    static TABLE: OnceLock<InitialsTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let range = |a: u32, b: u32| (a..=b).map(|cp| char::from_u32(cp).map_or(0, initial_of)).collect();
        InitialsTable { bmp: range(BMP_HAN_START, BMP_HAN_END), ext: range(EXT_HAN_START, EXT_HAN_END) }
    })
}

/// [`initials_table`] with every look-alike character ([`lookalike_sets`]) given the initial of
/// the first, commonest character of its set.
fn lookalike_initials_table() -> &'static InitialsTable {
    static TABLE: OnceLock<InitialsTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let plain = initials_table();
        let mut table = InitialsTable { bmp: plain.bmp.clone(), ext: plain.ext.clone() };
        for set in lookalike_sets() {
            let mut chars = set.chars();
            let Some(letter) = chars.next().map(initial_of) else { continue };
            for c in chars {
                let cp = c as u32;
                if (BMP_HAN_START..=BMP_HAN_END).contains(&cp) {
                    table.bmp[(cp - BMP_HAN_START) as usize] = letter;
                } else if (EXT_HAN_START..=EXT_HAN_END).contains(&cp) {
                    table.ext[(cp - EXT_HAN_START) as usize] = letter;
                }
            }
        }
        table
    })
}

/// Sets of look-alike Han characters (形近字), one a line, the commonest first; made by
/// `tools/make_lookalikes.py` (four-corner codes confirmed by the glyphs' likeness).
const LOOKALIKES: &str = include_str!("lookalikes.txt");

/// The sets of look-alike Han characters, each the string of its characters, the commonest
/// first.
pub fn lookalike_sets() -> impl Iterator<Item = &'static str> {
    LOOKALIKES.lines().filter(|l| !l.starts_with('#') && !l.is_empty())
}

/// First letter of the default pinyin reading, 0 if the character has none.
fn initial_of(c: char) -> u8 {
    c.to_pinyin().map_or(0, |p| p.first_letter().as_bytes()[0].to_ascii_lowercase())
}

fn is_syllabic(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30ff | 0x31f0..=0x31ff | 0xac00..=0xd7af | 0x1100..=0x11ff | 0x3130..=0x318f)
}

fn is_combining(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036f | 0x1ab0..=0x1aff | 0x1dc0..=0x1dff | 0x20d0..=0x20ff | 0xfe20..=0xfe2f)
}

/// Number of characters that carry tokens in `tokens[range]`: the characters similarity
/// is counted in (white space and punctuation do not count).
pub fn token_chars(tokens: &[Token]) -> u64 {
    tokens.iter().map(|t| t.chars() as u64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn initials(text: &str) -> String {
        tokenize(text).iter().map(|t| if t.sym < 128 { t.sym as u8 as char } else { '#' }).collect()
    }

    #[test]
    fn a_long_text_tokenized_in_pieces_gets_the_tokens_of_one_pass() {
        // Pieces end after white space or Han; words, accents (e + U+0301), full-width
        // letters and non-BMP characters around the cuts must come out as in one pass.
        let han = include_str!("../../../tests/fixtures/corpus/hongloumeng_000.txt");
        let mixed = "Ｔｈｅ café\u{301} naïve 𠀀𠀁 Stra\u{df}e 1\u{3000}月 ";
        let text: String =
            han.chars().zip(mixed.split(' ').cycle()).flat_map(|(c, w)| [c.to_string(), w.to_string()]).collect();
        let text = text.repeat(64 * 3);
        assert!(text.len() > 8 << 18, "{} bytes", text.len());
        assert_eq!(tokenize(&text), tokenize_from(&text, 0, Normalizing::Plain).tokens);
        let no_spaces = han.replace(char::is_whitespace, "").repeat(64);
        assert_eq!(tokenize(&no_spaces), tokenize_from(&no_spaces, 0, Normalizing::Plain).tokens);
    }

    #[test]
    fn han_becomes_pinyin_initials_and_punctuation_vanishes() {
        // 长 is a heteronym (cháng/zhǎng); the crate's default reading is zhǎng.
        assert_eq!(initials("滚滚长江东逝水，浪花淘尽英雄。"), "ggzjdsslhtjyx");
    }

    #[test]
    fn homophones_and_traditional_script_give_the_same_tokens() {
        let original = "是非成败转头空，青山依旧在，几度夕阳红。";
        let traditional = "是非成敗轉頭空，青山依舊在，幾度夕陽紅。";
        let homophones = "事非城拜转投空，清山依就在，几渡夕羊红。";
        assert_eq!(initials(original), initials(traditional));
        assert_eq!(initials(original), initials(homophones));
    }

    #[test]
    fn look_alike_han_characters_share_a_token_only_when_a_store_folds_them() {
        // 己/已 (j/y), 未/末 (w/m), 日/曰 (r/y): OCR confuses them, pinyin initials do not.
        let original = "已未日";
        let damaged = "己末曰";
        let syms = |text: &str, how| tokens(text, how).iter().map(|t| t.sym).collect::<Vec<_>>();
        assert_ne!(syms(original, Normalizing::Undisguised), syms(damaged, Normalizing::Undisguised));
        assert_eq!(syms(original, Normalizing::Lookalikes), syms(damaged, Normalizing::Lookalikes));
        // Characters outside the sets keep their own initials, homophones still vanish.
        let text = "是非成败转头空，青山依旧在";
        assert_eq!(syms(text, Normalizing::Lookalikes), syms(text, Normalizing::Undisguised));
        assert_eq!(syms("事非城拜转投空", Normalizing::Lookalikes), syms(text, Normalizing::Lookalikes)[..7]);
        // Every set is Han characters of the tokenizer's tables, each in one set only.
        let mut seen = std::collections::HashSet::new();
        for set in lookalike_sets() {
            assert!(set.chars().count() >= 2, "{set}");
            for c in set.chars() {
                assert!(han_symbol(initials_table(), c).is_some_and(|s| s < 128), "{c} in {set}");
                assert!(seen.insert(c), "{c} is in two sets");
            }
        }
        assert!(seen.len() > 200, "{} characters", seen.len());
    }

    #[test]
    fn full_width_latin_folds_and_words_are_lowercased() {
        let a: Vec<u64> = tokenize("Ｈｅｌｌｏ  ＷＯＲＬＤ １２３").iter().map(|t| t.sym).collect();
        let b: Vec<u64> = tokenize("hello, world! 123").iter().map(|t| t.sym).collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
        assert!(tokenize("hello world").iter().all(|t| t.units() == WORD_UNITS));
        assert!(tokenize("你好").iter().all(|t| t.units() == 1));
    }

    #[test]
    fn tokens_keep_their_character_ranges() {
        let text = "第1回 Hello世界！";
        let toks = tokenize(text);
        let chars: Vec<char> = text.chars().collect();
        let spans: Vec<String> =
            toks.iter().map(|t| chars[t.start as usize..t.end as usize].iter().collect()).collect();
        assert_eq!(spans, ["第", "1", "回", "Hello", "世", "界"]);
        assert_eq!(token_chars(&toks), 10);
    }

    #[test]
    fn total_on_odd_input() {
        // ㋀ folds to "1月", ㍿ to 株式会社: one char, several tokens.
        for s in [
            "",
            "   ",
            "\u{0}\u{fffd}\u{10ffff}",
            "é\u{301}",
            "ｶﾀｶﾅ한국어",
            "𠀀𪚥",
            "㋀",
            "a㋀b",
            "㍿x",
            "e\u{301}\u{301} ",
        ] {
            let toks = tokenize(s);
            let n = s.chars().count() as u32;
            assert!(toks.iter().all(|t| t.start < t.end && t.end <= n), "{s:?}: {toks:?}");
        }
    }
}
