//! Fingerprinting parameters. They are a property of a store: every stored window was
//! made with them, so a store records them and checks use the store's values.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// How text becomes window fingerprints. Defaults come from the evaluation harness
/// (`zhiwen eval`); `ARCHITECTURE.md` explains the choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FingerprintParams {
    /// Tokens per window. A Han character is one token (its pinyin initial), a Latin
    /// word or number is one token.
    pub window: usize,
    /// Tokens between the starts of stored windows. Suspects are windowed at step 1,
    /// so every stored window meets a query window that starts on the same token.
    pub step: usize,
    /// Tokens per simhash feature (n-gram length).
    pub ngram: usize,
    /// How features vote in a window's simhash. Stores made before rarity weighting have
    /// no such field and keep their uniform votes until they are re-fingerprinted.
    #[serde(default)]
    pub weighting: Weighting,
    /// Where windows start. Stores made before anchors have no such field and keep
    /// windows every `step` (queried at every token) until they are re-fingerprinted.
    #[serde(default)]
    pub anchoring: Anchoring,
    /// What tokenizing undoes beyond the fixed rules. Stores made before disguises were
    /// undone have no such field and keep plain tokens until they are re-fingerprinted.
    #[serde(default)]
    pub normalizing: Normalizing,
}

/// What tokenizing undoes ([`crate::engine::normalize`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Normalizing {
    /// The fixed rules only (stores made before disguises were undone).
    #[default]
    Plain,
    /// Disguises undone as well ([`crate::engine::normalize::disguise`]): invisible
    /// characters ignored, look-alike letters from other scripts folded in Latin words,
    /// single letters slipped between Han characters dropped, and passages written out in
    /// pinyin read as the initials they spell.
    Undisguised,
    /// Disguises undone as [`Normalizing::Undisguised`] does, and look-alike Han characters
    /// (形近字: 己/已, 未/末, 日/曰, the sets of `engine/normalize/lookalikes.txt`) given one
    /// token per set: OCR damage and deliberate swaps vanish, but a homophone swap of a
    /// character in a set no longer does. An option, measured in the README; not the default.
    Lookalikes,
}

impl Normalizing {
    /// Disguises are undone (and counted) while tokenizing.
    pub fn undisguises(self) -> bool {
        self != Normalizing::Plain
    }
}

/// Where windows start, on both sides of a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Anchoring {
    /// Stored every `step` units, queried at every token: every stored window inside a
    /// copy meets a query window with its tokens (stores made before anchors).
    #[default]
    EveryStep,
    /// Stored and queried at content-defined anchors (winnowing over the token stream,
    /// about one per `step` units, `engine/window.rs`): the same text gets the same
    /// anchors wherever it stands, so a suspect is queried about as often as the corpus
    /// stores, a sixth of every token.
    Winnowed,
}

/// How much a feature's vote counts in a window's simhash.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weighting {
    /// Every feature votes 1 (stores made before rarity weighting).
    #[default]
    Uniform,
    /// A feature votes with the information of its tokens ([`crate::engine::rarity`]):
    /// *the* and *of* weigh a quarter of a rare word, so windows of common words stop
    /// colliding by chance.
    Rarity,
}

impl Default for FingerprintParams {
    fn default() -> Self {
        FingerprintParams {
            window: 24,
            step: 6,
            ngram: 3,
            weighting: Weighting::Rarity,
            anchoring: Anchoring::Winnowed,
            normalizing: Normalizing::Undisguised,
        }
    }
}

impl FingerprintParams {
    pub fn validate(&self) -> Result<()> {
        if !(4..=1024).contains(&self.window) {
            return Err(Error::Parameter(format!("window must be 4..=1024 tokens, not {}", self.window)));
        }
        if self.step == 0 || self.step > self.window {
            return Err(Error::Parameter(format!("step must be 1..=window ({}), not {}", self.window, self.step)));
        }
        if self.ngram == 0 || self.ngram > 8 || self.ngram > self.window {
            return Err(Error::Parameter(format!("ngram must be 1..=8 and at most the window, not {}", self.ngram)));
        }
        Ok(())
    }
}

/// Largest Hamming distance the index layout supports. The permuted-table layout needs
/// k+1 blocks of the 64 bits; beyond 8 the blocks become too narrow to prune anything.
pub const MAX_DISTANCE_LIMIT: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_made_before_rarity_weighting_keeps_uniform_votes() {
        // What `meta.fingerprint_params` of an older store holds.
        let old: FingerprintParams = serde_json::from_str(r#"{"window":24,"step":6,"ngram":3}"#).unwrap();
        assert_eq!(old.weighting, Weighting::Uniform);
        assert_eq!(FingerprintParams::default().weighting, Weighting::Rarity);
        let json = serde_json::to_string(&FingerprintParams::default()).unwrap();
        assert!(json.contains(r#""weighting":"rarity""#), "{json}");
    }

    #[test]
    fn look_alike_folding_is_kept_by_a_store_and_is_not_the_default() {
        let folded = FingerprintParams { normalizing: Normalizing::Lookalikes, ..FingerprintParams::default() };
        let json = serde_json::to_string(&folded).unwrap();
        assert!(json.contains(r#""normalizing":"lookalikes""#), "{json}");
        assert_eq!(serde_json::from_str::<FingerprintParams>(&json).unwrap(), folded);
        assert_eq!(FingerprintParams::default().normalizing, Normalizing::Undisguised);
        assert!(Normalizing::Lookalikes.undisguises() && !Normalizing::Plain.undisguises());
    }
}
