//! Mutation testing of the decoders and the check pipeline on stable Rust: fixture files
//! mutated many ways go through decode → tokenize → check; nothing may panic, errors
//! must name the file, and every offset in a result must lie inside its text.

use crate::util::*;
use std::path::Path;
use zhiwen::engine::decode::decode_bytes;
use zhiwen::engine::normalize::tokenize;
use zhiwen::{CheckOptions, Corpus};

fn seeds() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for dir in [corpus_dir(), fixtures().join("suspects")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let bytes = std::fs::read(e.unwrap().path()).unwrap();
            out.push(bytes[..bytes.len().min(6000)].to_vec());
        }
    }
    out
}

fn mutate(seed: &[u8], other: &[u8], rng: &mut fastrand::Rng) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..rng.usize(1..6) {
        let len = b.len().max(1);
        match rng.u8(0..8) {
            0 if !b.is_empty() => {
                let i = rng.usize(..b.len());
                b[i] ^= 1 << rng.u8(0..8);
            }
            1 => b.insert(rng.usize(..=b.len()), rng.u8(..)),
            2 if !b.is_empty() => {
                b.remove(rng.usize(..b.len()));
            }
            3 => b.truncate(rng.usize(..len)),
            4 => {
                let at = rng.usize(..=b.len());
                let from = rng.usize(..other.len().max(1)).min(other.len());
                let to = (from + rng.usize(..200)).min(other.len());
                b.splice(at..at, other[from..to].iter().copied());
            }
            5 => {
                let bom: &[u8] = [&[0xef, 0xbb, 0xbf][..], &[0xff, 0xfe], &[0xfe, 0xff]][rng.usize(..3)];
                b.splice(0..0, bom.iter().copied());
            }
            6 => {
                let at = rng.usize(..=b.len());
                let noise: Vec<u8> = (0..rng.usize(1..64)).map(|_| rng.u8(..)).collect();
                b.splice(at..at, noise);
            }
            _ => b.extend(
                (0..rng.usize(1..16)).map(|_| *[b'<', b'&', 0xe4, 0xb8, 0x80, b'\n', 0].get(rng.usize(..7)).unwrap()),
            ),
        }
    }
    b
}

#[test]
fn mutated_files_never_panic_and_results_stay_in_bounds() {
    let seeds = seeds();
    let mut corpus = Corpus::open_in_memory().unwrap();
    let works = corpus_files();
    corpus.import(&works, &Default::default(), &|_| {}, &Default::default()).unwrap();
    let sources: Vec<usize> = (1..=5).map(|id| corpus.text(id).unwrap().unwrap().chars().count()).collect();
    let mut rng = fastrand::Rng::with_seed(2026);
    let (mut decoded, mut refused) = (0, 0);
    for round in 0..600 {
        let seed = &seeds[rng.usize(..seeds.len())];
        let other = &seeds[rng.usize(..seeds.len())];
        let bytes = mutate(seed, other, &mut rng);
        let path = format!("/mutant/{round}.txt");
        match decode_bytes(Path::new(&path), &bytes) {
            Err(e) => {
                refused += 1;
                assert!(e.to_string().starts_with(&path), "error must name the file: {e}");
            }
            Ok(d) => {
                decoded += 1;
                let n = d.text.chars().count() as u32;
                assert!(tokenize(&d.text).iter().all(|t| t.start < t.end && t.end <= n));
                let r = corpus.check_text(&path, &d.text, &CheckOptions::default()).unwrap();
                assert!((0.0..=1.0).contains(&r.similarity));
                for s in &r.sources {
                    assert!((0.0..=1.0).contains(&s.similarity) && (0.0..=1.0).contains(&s.source_coverage));
                    for p in &s.passages {
                        assert!(p.suspect_start < p.suspect_end && p.suspect_end <= n as usize, "{p:?}");
                        assert!(p.source_start < p.source_end && p.source_end <= sources[s.id as usize - 1], "{p:?}");
                    }
                }
            }
        }
    }
    // Both paths were exercised.
    assert!(decoded > 50 && refused > 50, "decoded {decoded}, refused {refused}");
}

#[test]
fn arbitrary_unicode_text_checks_without_panicking() {
    let mut corpus = Corpus::open_in_memory().unwrap();
    corpus.import(&[corpus_dir().join("xiyouji_000.txt")], &Default::default(), &|_| {}, &Default::default()).unwrap();
    let mut rng = fastrand::Rng::with_seed(7);
    let ranges = [
        0x0..0x80u32,
        0x80..0x800,
        0x3000..0x3040,
        0x4e00..0xa000,
        0xac00..0xd7a4,
        0xe000..0xf900,
        0xff00..0xfff0,
        0x1f300..0x1f600,
        0x20000..0x2a6e0,
        0x300..0x370,
    ];
    for _ in 0..200 {
        let text: String = (0..rng.usize(0..400))
            .filter_map(|_| {
                let r = &ranges[rng.usize(..ranges.len())];
                char::from_u32(rng.u32(r.clone()))
            })
            .collect();
        let n = text.chars().count();
        let r = corpus.check_text("random", &text, &CheckOptions::default()).unwrap();
        assert!(r.chars == n && (0.0..=1.0).contains(&r.similarity));
    }
}
