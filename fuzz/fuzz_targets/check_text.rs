//! Any text as a suspect against a corpus of one real chapter: passages inside both
//! texts, a report with no markup from the input.
#![no_main]

const SOURCE: &str = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    zhiwen::fuzz::check(SOURCE, data);
});
