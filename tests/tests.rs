//! End-to-end tests: one binary (ripgrep's layout). Fixtures live in tests/fixtures and
//! are public-domain chapters plus pirated variants made from them (make_fixtures.py).

mod util;

mod alerts;
mod check;
mod cli;
mod clusters;
mod discover;
mod eval;
mod evidence;
mod fuzz_regressions;
#[cfg(feature = "gui")]
mod gui;
mod mutations;
mod ocr;
mod precision;
mod reliability;
mod report;
mod scaleout;
mod translation;
mod translation_embeddings;
mod watch;
mod web;
mod webfont;
mod works;
