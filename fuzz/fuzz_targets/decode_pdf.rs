//! Any bytes, decoded as a .pdf file: refused or decoded, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    zhiwen_fuzz::quiet_caught_panics();
    zhiwen::fuzz::decode("pdf", data);
});
