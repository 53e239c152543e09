//! Any bytes, decoded as a .html file: refused or decoded, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    zhiwen_fuzz::quiet_caught_panics();
    zhiwen::fuzz::decode("html", data);
});
