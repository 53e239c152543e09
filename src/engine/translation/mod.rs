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
//! - [`matching`]: an English suspect is ranked against every document sharing a stem or a
//!   name (a smoothed likelihood ratio per word), the ten best are aligned window by window
//!   (50 known English words against 100 Chinese words), and the best is a translation when
//!   its score and its lead over the next are high enough; lower, an adaptation; else nothing.
//!
//! The method and its thresholds were worked out on half of Herbert Giles' translations of
//! 聊斋志异 and measured on the other half (README, *Translated copies*).
pub mod chinese;
pub mod english;
pub mod index;
pub mod matching;

pub use index::{TranslationIndex, is_chinese};
pub use matching::{Found, find};
