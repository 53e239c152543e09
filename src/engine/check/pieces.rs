//! A long text checked in overlapping pieces, so that a check's memory depends on the
//! piece, not on the text: a 15 MiB page holds five million characters, and the whole-text
//! check keeps several structures per token and per window (about 50 bytes a character).
//!
//! The text is cut where no token is open ([`cut_at_or_after`]), each piece overlapping
//! the next ([`CUTS`]), and each piece is checked on its own. A copied region no
//! longer than the overlap lies whole inside some piece; a longer one that crosses a cut is
//! found in parts at least the overlap long, one on each side, whose passages meet in the
//! overlap and are joined. The shares are then counted once over the whole text, a piece
//! at a time, as the whole-text check counts them.

use super::{CheckOptions, Passage, SourceMatch, Sources, SuspectReport, check_whole, verify};
use crate::Result;
use crate::engine::index::Index;
use crate::engine::normalize::{Disguises, Normalizing, Token, cut_at_or_after, token_chars, tokens};
use crate::engine::params::FingerprintParams;
use std::collections::BTreeMap;

/// How a long text is cut: bytes per piece, and bytes each piece shares with the next.
#[derive(Clone, Copy, Debug)]
pub struct Cuts {
    pub piece_bytes: usize,
    pub overlap_bytes: usize,
}

/// Pieces of 1 MiB (about 350,000 Han characters) sharing 16 KiB (about 5,000: far more
/// than a copied region needs to be kept, [`CheckOptions::min_passage_chars`]).
pub const CUTS: Cuts = Cuts { piece_bytes: 1 << 20, overlap_bytes: 16 << 10 };

/// One piece: its bytes of the text and the char offset of its first byte.
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    end: usize,
    first_char: usize,
}

/// Overlapping pieces of `text` (each about `piece_bytes`, sharing at least `overlap_bytes`
/// with the next), and the cuts that part it without overlap (`parts[i]..parts[i + 1]`,
/// in bytes, with their first chars).
fn pieces(text: &str, piece_bytes: usize, overlap_bytes: usize) -> (Vec<Piece>, Vec<(usize, usize)>) {
    let mut pieces = Vec::new();
    let mut parts = vec![(0, 0)];
    let (mut start, mut first_char) = (0, 0);
    loop {
        let end = cut_at_or_after(text, start + piece_bytes).unwrap_or(text.len());
        pieces.push(Piece { start, end, first_char });
        if end == text.len() {
            break;
        }
        // The next piece starts `overlap_bytes` before this one ends, at a cut after this
        // one's start (so pieces always advance).
        let next = cut_at_or_after(text, end.saturating_sub(overlap_bytes).max(start + 1)).unwrap_or(end).min(end);
        first_char += text[start..next].chars().count();
        parts.push((end, first_char + text[next..end].chars().count()));
        start = next;
    }
    parts.push((text.len(), first_char + text[start..].chars().count()));
    (pieces, parts)
}

/// A passage found in one piece, in the whole text's char offsets, and the region it was
/// given there as (piece, region).
struct Found {
    passage: Passage,
    region: (usize, usize),
    /// Joined from passages of two pieces: its verification is no longer theirs.
    joined: bool,
}

/// [`super::check_text`] for a long text, in pieces cut as `cuts` says.
pub(super) fn check_in_pieces(
    index: &Index,
    sources: &dyn Sources,
    params: &FingerprintParams,
    opts: &CheckOptions,
    path: &str,
    text: &str,
    cuts: Cuts,
) -> Result<SuspectReport> {
    let (pieces, parts) = pieces(text, cuts.piece_bytes, cuts.overlap_bytes);
    let how = params.normalizing;
    let mut found: BTreeMap<u32, (SourceMatch, Vec<Found>)> = BTreeMap::new();
    let mut disguises = Disguises::default();
    for (i, piece) in pieces.iter().enumerate() {
        let report = check_whole(index, sources, params, opts, path, &text[piece.start..piece.end])?;
        // Counted once: a piece's share of the overlap with the next is left to the next.
        let own = pieces.get(i + 1).map_or(piece.end, |next| next.start);
        if how.undisguises() {
            disguises.add(&crate::engine::normalize::tokens_and_disguises(&text[piece.start..own], how).1);
        }
        for mut m in report.sources {
            let passages = std::mem::take(&mut m.passages);
            let (_, all) = found.entry(m.id).or_insert_with(|| (m, Vec::new()));
            all.extend(passages.into_iter().map(|mut p| {
                p.suspect_start += piece.first_char;
                p.suspect_end += piece.first_char;
                let region = (i, p.region);
                Found { passage: p, region, joined: false }
            }));
        }
    }
    let mut matches = Vec::with_capacity(found.len());
    for (id, (mut m, all)) in found {
        let Some(source) = sources.source(id)? else { continue };
        let mut passages = join_across_cuts(all);
        for f in passages.iter_mut().filter(|f| f.joined) {
            let q = syms_of(text, &pieces, f.passage.suspect_start, f.passage.suspect_end, how);
            let s = syms_in(&source.text, f.passage.source_start, f.passage.source_end, how);
            let v = verify::verify(&q, &s);
            (f.passage.containment, f.passage.evidence_bits) = (v.containment, v.bits);
        }
        m.passages = renumber_regions(passages);
        let s_tokens = tokens(&source.text, how);
        let source_ranges = m.passages.iter().map(|p| (p.source_start, p.source_end)).collect();
        m.source_coverage = share_in(&s_tokens, source_ranges);
        matches.push(m);
    }
    // Every source's suspect ranges, and all of them together (the suspect's similarity),
    // counted over the text a part at a time.
    let mut range_sets: Vec<Vec<(usize, usize)>> =
        matches.iter().map(|m| m.passages.iter().map(|p| (p.suspect_start, p.suspect_end)).collect()).collect();
    range_sets.push(range_sets.concat());
    let (covered, total) = counted_chars(text, &parts, range_sets, how);
    let share = |c: u64| if total == 0 { 0.0 } else { c as f64 / total as f64 };
    for (m, &c) in matches.iter_mut().zip(&covered) {
        m.similarity = share(c);
    }
    matches.sort_by(|a, b| b.similarity.total_cmp(&a.similarity).then(b.source_coverage.total_cmp(&a.source_coverage)));
    Ok(SuspectReport {
        path: path.to_string(),
        chars: parts.last().map_or(0, |&(_, chars)| chars),
        similarity: share(*covered.last().expect("the union is counted")),
        error: None,
        sources: matches,
        web: None,
        disguises: disguises.systematic(parts.last().map_or(0, |&(_, chars)| chars)),
    })
}

/// Joins the passages of one source that two pieces found each in part: passages of
/// different pieces whose suspect sides and source sides both overlap become one (the
/// union of both sides, the smaller distance), and their regions one region.
fn join_across_cuts(mut all: Vec<Found>) -> Vec<Found> {
    all.sort_by_key(|f| (f.passage.suspect_start, f.passage.suspect_end, f.region.0));
    let mut out: Vec<Found> = Vec::with_capacity(all.len());
    let mut same_region: Vec<((usize, usize), (usize, usize))> = Vec::new();
    for f in all {
        let p = &f.passage;
        // Passages of one piece barely overlap ([`super::drop_repeats`]), so only the last
        // few kept can still reach this one.
        let partner = out.iter_mut().rev().take(16).find(|g| {
            let q = &g.passage;
            g.region.0 != f.region.0
                && q.suspect_end > p.suspect_start
                && q.suspect_start < p.suspect_end
                && q.source_end > p.source_start
                && q.source_start < p.source_end
        });
        match partner {
            Some(g) => {
                let q = &mut g.passage;
                if (q.suspect_start, q.suspect_end, q.source_start, q.source_end)
                    != (p.suspect_start, p.suspect_end, p.source_start, p.source_end)
                {
                    q.suspect_start = q.suspect_start.min(p.suspect_start);
                    q.suspect_end = q.suspect_end.max(p.suspect_end);
                    q.source_start = q.source_start.min(p.source_start);
                    q.source_end = q.source_end.max(p.source_end);
                    g.joined = true;
                }
                q.distance = q.distance.min(p.distance);
                same_region.push((g.region, f.region));
            }
            None => out.push(f),
        }
    }
    // A region keeps one name: the (piece, region) every joined one leads to.
    let mut leader: BTreeMap<(usize, usize), (usize, usize)> = BTreeMap::new();
    fn find(leader: &BTreeMap<(usize, usize), (usize, usize)>, mut r: (usize, usize)) -> (usize, usize) {
        while let Some(&up) = leader.get(&r) {
            r = up;
        }
        r
    }
    for (a, b) in same_region {
        let (a, b) = (find(&leader, a), find(&leader, b));
        if a != b {
            leader.insert(a.max(b), a.min(b));
        }
    }
    for f in &mut out {
        f.region = find(&leader, f.region);
    }
    out
}

/// The passages with their regions numbered from 0 in suspect order.
fn renumber_regions(found: Vec<Found>) -> Vec<Passage> {
    let mut number: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    found
        .into_iter()
        .map(|f| {
            let next = number.len();
            let region = *number.entry(f.region).or_insert(next);
            Passage { region, ..f.passage }
        })
        .collect()
}

/// The token symbols of chars `start..end` of the long text (its pieces locate the bytes).
fn syms_of(text: &str, pieces: &[Piece], start: usize, end: usize, how: Normalizing) -> Vec<u64> {
    let piece = pieces[pieces.partition_point(|p| p.first_char <= start) - 1];
    syms_in(&text[piece.start..], start - piece.first_char, end - piece.first_char, how)
}

/// The token symbols of chars `start..end` of `text`.
fn syms_in(text: &str, start: usize, end: usize, how: Normalizing) -> Vec<u64> {
    let byte = |c: usize| text.char_indices().nth(c).map_or(text.len(), |(b, _)| b);
    let from = byte(start);
    let to = from + text[from..].char_indices().nth(end - start).map_or(text.len() - from, |(b, _)| b);
    tokens(&text[from..to], how).iter().map(|t| t.sym).collect()
}

/// The share of `tokens`' counted chars whose tokens start inside the char `ranges`.
fn share_in(tokens: &[Token], ranges: Vec<(usize, usize)>) -> f64 {
    let total = token_chars(tokens);
    if total == 0 {
        return 0.0;
    }
    covered_chars(tokens, ranges) as f64 / total as f64
}

/// Counted chars of the tokens that start inside the union of the char `ranges`.
/// Passages start and end on token boundaries, so these are the tokens they cover.
fn covered_chars(tokens: &[Token], mut ranges: Vec<(usize, usize)>) -> u64 {
    ranges.sort_unstable();
    let at = |c: usize| tokens.partition_point(|t| (t.start as usize) < c);
    let (mut covered, mut reached) = (0, 0);
    for (start, end) in ranges {
        let (from, to) = (at(start).max(reached), at(end));
        if from < to {
            covered += token_chars(&tokens[from..to]);
            reached = to;
        }
    }
    covered
}

/// For each set of char ranges, the counted chars inside its union, and the text's counted
/// chars in all; the text is tokenized one part (`parts`: cuts in bytes with their first
/// chars) at a time.
fn counted_chars(
    text: &str,
    parts: &[(usize, usize)],
    range_sets: Vec<Vec<(usize, usize)>>,
    how: Normalizing,
) -> (Vec<u64>, u64) {
    let mut covered = vec![0u64; range_sets.len()];
    let mut total = 0;
    for w in parts.windows(2) {
        let ((start, first_char), (end, end_char)) = (w[0], w[1]);
        let tokens = tokens(&text[start..end], how);
        total += token_chars(&tokens);
        for (set, c) in range_sets.iter().zip(covered.iter_mut()) {
            let inside = set
                .iter()
                .filter(|&&(a, b)| a < end_char && b > first_char)
                .map(|&(a, b)| (a.max(first_char) - first_char, b.min(end_char) - first_char))
                .collect();
            *c += covered_chars(&tokens, inside);
        }
    }
    (covered, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::corpus::Corpus;
    use crate::engine::import::ImportOptions;
    use crate::engine::progress::Cancel;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/corpus/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    /// A long pirate page: unrelated text (红楼梦, not in the corpus) around three copied
    /// chapters, one with a paragraph left out and an advertisement put in.
    fn suspect() -> String {
        let filler = fixture("hongloumeng_000.txt");
        let filler: Vec<char> = filler.chars().collect();
        let (a, b, c) = (fixture("sanguoyanyi_000.txt"), fixture("sanguoyanyi_001.txt"), fixture("xiyouji_000.txt"));
        let b_paragraphs: Vec<&str> = b.lines().collect();
        let edited: String = b_paragraphs
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != 5)
            .map(|(i, l)| {
                if i == 9 {
                    format!("{l}\n本站所有小说均来自网络，天才一秒记住本站地址。\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let cut = |from: usize, to: usize| filler[from..to].iter().collect::<String>();
        [cut(0, 1500), a, cut(1500, 2600), edited, cut(2600, 3000), c, cut(3000, 6000)].concat()
    }

    #[test]
    fn pieces_find_what_the_whole_text_check_finds() {
        let dir = tempfile::tempdir().unwrap();
        let files: Vec<_> = ["sanguoyanyi_000.txt", "sanguoyanyi_001.txt", "sanguoyanyi_002.txt", "xiyouji_000.txt"]
            .iter()
            .map(|n| {
                let path = dir.path().join(n);
                std::fs::write(&path, fixture(n)).unwrap();
                path
            })
            .collect();
        let mut corpus = Corpus::open(&dir.path().join("c.sqlite")).unwrap();
        corpus.import(&files, &ImportOptions::default(), &|_| {}, &Cancel::new()).unwrap();
        let text = suspect();
        let (index, store) = (corpus.index(), corpus.store());
        let opts = CheckOptions::default();
        let whole = check_whole(&index, store, &store.params(), &opts, "s", &text).unwrap();
        assert_eq!(whole.sources.len(), 3, "the three copied chapters");
        // Pieces of 8 KiB (about 2,700 Han characters, so every copied chapter crosses a
        // cut) sharing 2 KiB, and other cuts, find the same passages and shares.
        for (piece, overlap) in [(8 << 10, 2 << 10), (5 << 10, 1 << 10), (20 << 10, 3 << 10)] {
            let (ps, _) = pieces(&text, piece, overlap);
            assert!(ps.len() >= 4, "{} pieces", ps.len());
            let cut = check_in_pieces(
                &index,
                store,
                &store.params(),
                &opts,
                "s",
                &text,
                Cuts { piece_bytes: piece, overlap_bytes: overlap },
            )
            .unwrap();
            assert_eq!(cut.chars, whole.chars);
            assert!((cut.similarity - whole.similarity).abs() < 1e-9, "{} vs {}", cut.similarity, whole.similarity);
            assert_eq!(cut.sources.len(), whole.sources.len());
            for (c, w) in cut.sources.iter().zip(&whole.sources) {
                assert_eq!(c.id, w.id);
                let sides = |m: &SourceMatch| -> Vec<_> {
                    m.passages
                        .iter()
                        .map(|p| (p.suspect_start, p.suspect_end, p.source_start, p.source_end, p.region))
                        .collect()
                };
                assert_eq!(sides(c), sides(w), "source {} in pieces of {piece}", w.id);
                assert!((c.similarity - w.similarity).abs() < 1e-9);
                assert!((c.source_coverage - w.source_coverage).abs() < 1e-9);
                for (cp, wp) in c.passages.iter().zip(&w.passages) {
                    assert!((cp.containment - wp.containment).abs() < 1e-9, "{cp:?} vs {wp:?}");
                    assert!((cp.evidence_bits - wp.evidence_bits).abs() < 1e-6, "{cp:?} vs {wp:?}");
                }
            }
        }
    }

    #[test]
    fn parts_count_every_char_once() {
        let text = suspect();
        let (ps, parts) = pieces(&text, 4 << 10, 1 << 10);
        assert_eq!(parts.first(), Some(&(0, 0)));
        assert_eq!(parts.last(), Some(&(text.len(), text.chars().count())));
        for w in parts.windows(2) {
            assert_eq!(w[1].1 - w[0].1, text[w[0].0..w[1].0].chars().count());
        }
        for (p, next) in ps.iter().zip(&ps[1..]) {
            assert!(next.start < p.end && next.start > p.start, "pieces overlap and advance");
            assert_eq!(next.first_char, text[..next.start].chars().count());
        }
    }
}
