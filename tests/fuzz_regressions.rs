//! The saved fuzz inputs (`fuzz/regressions/<target>/`: seeds, the inputs that once
//! crashed, and a minimized sample of each target's corpus) replayed through the same
//! code as the fuzz targets, on every `cargo test`.

use std::path::Path;

const SOURCE: &str = include_str!("fixtures/corpus/xiyouji_000.txt");

/// Runs every saved input of `target` through `run`; returns how many there were.
fn replay(target: &str, run: impl Fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&bytes))).is_err() {
            panic!("{target}: {} fails again", path.display());
        }
        n += 1;
    }
    n
}

#[test]
fn every_decoder_survives_its_saved_fuzz_inputs() {
    for (target, ext) in [
        ("decode_text", "txt"),
        ("decode_html", "html"),
        ("decode_epub", "epub"),
        ("decode_docx", "docx"),
        ("decode_pdf", "pdf"),
    ] {
        let n = replay(target, |bytes| zhiwen::fuzz::decode(ext, bytes));
        assert!(n > 0, "no saved inputs for {target}");
    }
}

#[test]
fn checks_survive_the_saved_fuzz_inputs() {
    assert!(replay("check_text", |bytes| zhiwen::fuzz::check(SOURCE, bytes)) > 0);
}
