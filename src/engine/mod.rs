//! The detection engine. Invariant: nothing here imports egui, clap or indicatif;
//! progress and cancellation are plain data ([`progress`]) that frontends render.

pub mod check;
pub mod cluster;
pub mod corpus;
pub mod decode;
pub mod import;
pub mod index;
pub mod normalize;
pub mod params;
pub mod progress;
pub mod rarity;
pub mod signature;
pub mod simhash;
pub mod store;
pub mod time;
pub mod translation;
pub mod web;
pub mod window;
pub mod works;

/// Texts the engine's unit tests share.
#[cfg(test)]
pub(crate) mod test_texts {
    /// `han` with an English word after each of its characters: runs of one-unit initials
    /// and three-unit words mixed, so a text cut into pieces anywhere is cut inside both.
    pub fn han_with_words(han: &str) -> String {
        let words = "It was the best of times it was the worst of times";
        han.chars().zip(words.split(' ').cycle()).flat_map(|(c, w)| [c.to_string(), format!(" {w} ")]).collect()
    }
}
