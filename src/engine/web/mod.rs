//! The web-facing steps: pages fetched politely ([`fetch`]), chapters and contents pages
//! read into suspects ([`crawl`]), checked against the corpus ([`check`]), copies found
//! through a search engine ([`search`], [`phrases`]) and the sites they lead to ([`site`],
//! [`discover`]), watched over time ([`watch`]) and summed up ([`stats`]); a notice's recipients are
//! looked up in RDAP and on the site's contact page ([`contacts`]).
//!
//! Dependencies point one way: this folder uses the corpus, the check and the store;
//! nothing below it imports from here.

pub mod alerts;
pub mod check;
pub mod contacts;
pub mod crawl;
pub mod discover;
pub mod fetch;
pub mod phrases;
pub mod render;
pub mod search;
pub mod site;
pub mod stats;
pub mod warc;
pub mod watch;
pub mod wire;
