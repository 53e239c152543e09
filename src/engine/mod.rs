//! The detection engine. Invariant: nothing here imports egui, clap or indicatif;
//! progress and cancellation are plain data ([`progress`]) that frontends render.

pub mod check;
pub mod cluster;
pub mod corpus;
pub mod decode;
pub mod fetch;
pub mod import;
pub mod index;
pub mod normalize;
pub mod params;
pub mod progress;
pub mod rarity;
pub mod signature;
pub mod simhash;
pub mod stats;
pub mod store;
pub mod time;
pub mod watch;
pub mod window;
