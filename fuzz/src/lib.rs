//! Shared by the fuzz targets.

use std::sync::Once;

/// libfuzzer-sys aborts on every panic, even one the code under test catches. The PDF
/// reader (pdf-extract, lopdf) panics on damaged files and Zhiwen catches that by design
/// (`decode::pdf_text`), so those panics are let through to the catch; any other panic
/// is a bug and still aborts.
pub fn quiet_caught_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let file = info.location().map_or("", |l| l.file());
            if !["pdf-extract", "pdf_extract", "lopdf", "type1-encoding-parser", "adobe-cmap-parser"]
                .iter()
                .any(|c| file.contains(c))
            {
                fuzzer_hook(info);
            }
        }));
    });
}
