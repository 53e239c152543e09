//! Translated copies: finds which works of a Chinese corpus an English text translates,
//! and which passages, through a bilingual dictionary and the names both sides share.
//!
//! - [`chinese`]: the corpus side. Each document is cut into words by jieba; each word
//!   becomes the English stems of its CC-CEDICT senses (a word the dictionary lacks, its
//!   characters' senses); each pair of neighbouring Han characters becomes name bigrams
//!   in pinyin and Wade–Giles (朱尔 → `zhu er`, `chu erh`).
//! - [`english`]: the suspect side. Content words as Snowball stems; capitalised runs of
//!   romanised syllables as name bigrams (`Chu Erh-tan` → `chu erh`, `erh tan`).
pub mod chinese;
pub mod english;
