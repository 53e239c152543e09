//! Sliding windows over a token stream.
//!
//! Lengths are measured in units ([`Token::units`]): a window is the shortest run of
//! tokens from its start that reaches `window` units (24 initials, or 8 English words).
//! Where windows start depends on the store's [`Anchoring`]:
//! - `EveryStep` (stores made before anchors): stored documents get a window at the first
//!   token of every `step` units, plus the last full window, so the tail is covered;
//!   suspects get a window at every token ([`query_spans`]): whatever was inserted or
//!   deleted before a copied passage, every stored window inside it meets a query window
//!   with the same tokens.
//! - `Winnowed`: both sides get windows at the same content-defined anchors
//!   ([`anchors`]: winnowing, Schleimer, Wilkerson & Aiken 2003, over a hash of each
//!   token's next [`ANCHOR_TOKENS`] symbols), plus the last full window. An anchor depends
//!   only on the text around it, so a copied passage has the anchors of its source
//!   wherever it stands, and a suspect is queried about once per `step` units instead of
//!   at every token. Any run of text shared over `2 step - 1 + ANCHOR_TOKENS - 1` units
//!   beyond a window holds a window both sides start at.
//!
//! A stored window is always also a query window of the same text (same start, same end
//! rule).
//!
//! A document with fewer units than a window gets one window of all its tokens; a
//! document without tokens gets none.

use crate::engine::normalize::Token;
use crate::engine::params::{Anchoring, FingerprintParams};
use std::ops::Range;

/// Symbols hashed for a token's anchor score: the token and the ones after it.
pub const ANCHOR_TOKENS: usize = 4;

/// The query windows of a stream: entry `i` is the window starting at token `i`.
pub fn query_spans(tokens: &[Token], window: usize) -> Vec<Range<usize>> {
    spans_reaching(tokens, window as u32, Token::units)
}

/// For each item from the first, the shortest run from it that reaches `target` units,
/// until the rest is too short; a stream too short for one run is one run of it all.
/// Windows are runs of tokens, and shingles (`check::verify`) runs of token symbols.
pub fn spans_reaching<T>(items: &[T], target: u32, units: impl Fn(&T) -> u32) -> Vec<Range<usize>> {
    let mut spans = Vec::with_capacity(items.len());
    spans.extend(spans_from(items, target, units, 0..items.len()));
    if spans.is_empty() && !items.is_empty() {
        spans.push(0..items.len());
    }
    spans
}

/// The spans [`spans_reaching`] gives at the ascending indexes `starts`, without making
/// the others: the shortest run from each start that reaches `target` units, until a start
/// whose rest is too short.
pub fn spans_from<T>(
    items: &[T],
    target: u32,
    units: impl Fn(&T) -> u32,
    starts: impl IntoIterator<Item = usize>,
) -> impl Iterator<Item = Range<usize>> {
    // `have` counts the units of items[from..end].
    let (mut from, mut end, mut have) = (0usize, 0usize, 0u32);
    starts.into_iter().map_while(move |start| {
        if start >= end {
            (from, end, have) = (start, start, 0);
        }
        while from < start {
            have -= units(&items[from]);
            from += 1;
        }
        while end < items.len() && have < target {
            have += units(&items[end]);
            end += 1;
        }
        (have >= target).then_some(start..end)
    })
}

/// The stored windows of a stream under `p`: a subset of its [`query_spans`].
pub fn stored_spans(tokens: &[Token], p: &FingerprintParams) -> Vec<Range<usize>> {
    match p.anchoring {
        Anchoring::EveryStep => every_step_spans(tokens, p.window, p.step),
        Anchoring::Winnowed => anchored_spans(tokens, p.window, stored_width(p.step)),
    }
}

/// The windows a suspect is queried with under `p`: every token's, or the anchored ones
/// (the same anchors a stored text gets: a narrower winnowing width on the query side,
/// twice or three times the queries, found no more copies in `zhiwen eval`).
pub fn query_windows(tokens: &[Token], p: &FingerprintParams) -> Vec<Range<usize>> {
    match p.anchoring {
        Anchoring::EveryStep => query_spans(tokens, p.window),
        Anchoring::Winnowed => anchored_spans(tokens, p.window, stored_width(p.step)),
    }
}

/// Winnowing width, in units, for about one anchor per `step` units.
fn stored_width(step: usize) -> u32 {
    (2 * step.max(1) - 1) as u32
}

/// Windows at the [`anchors`] of winnowing `width`, plus the last full window (or the one
/// window of a stream too short for a full one).
fn anchored_spans(tokens: &[Token], window: usize, width: u32) -> Vec<Range<usize>> {
    use rayon::prelude::*;
    let target = window as u32;
    // The last start with a full window: from the end back until `window` units.
    let mut have = 0;
    let Some(last_start) = (0..tokens.len()).rev().find(|&i| {
        have += tokens[i].units();
        have >= target
    }) else {
        // Shorter than one window: one window of it all, as `query_spans` gives.
        return query_spans(tokens, window);
    };
    let last =
        spans_from(tokens, target, Token::units, [last_start]).next().expect("a full window from the last start");
    if last_start == 0 {
        return vec![last];
    }
    let anchors = anchors(tokens, width);
    let mut out: Vec<Range<usize>> = anchors
        .par_chunks(1 << 12)
        .flat_map_iter(|starts| spans_from(tokens, target, Token::units, starts.iter().copied()))
        .collect();
    if out.last() != Some(&last) {
        out.push(last);
    }
    out
}

/// Content-defined anchors, about two per `width + 1` units: each token scores a hash of
/// its next [`ANCHOR_TOKENS`] symbols and fills as many slots as it has units; of every
/// `width` consecutive slots the lowest score (the rightmost of equals) is an anchor.
/// Token indexes, ascending.
pub fn anchors(tokens: &[Token], width: u32) -> Vec<usize> {
    use rayon::prelude::*;
    let scores = anchor_scores(tokens);
    let width = width.max(1);
    // A novel's million tokens are winnowed in pieces on all threads: a winnowing window
    // depends only on its own slots, so each piece starts `width` tokens early (at least
    // `width` slots) and keeps the anchors of windows ending in it.
    const PIECE: usize = 1 << 15;
    if tokens.len() <= PIECE || width as usize >= PIECE {
        return winnow(tokens, &scores, width, 0..tokens.len());
    }
    let pieces: Vec<Vec<usize>> = (0..tokens.len().div_ceil(PIECE))
        .into_par_iter()
        .map(|k| winnow(tokens, &scores, width, k * PIECE..((k + 1) * PIECE).min(tokens.len())))
        .collect();
    let mut out = pieces.concat();
    // Anchors never go back (a window's minimum stays until it leaves or a smaller one
    // comes after it), so the one a piece repeats from the piece before is next to it.
    out.dedup();
    out
}

/// Each token's winnowing score: a hash of its next [`ANCHOR_TOKENS`] symbols.
fn anchor_scores(tokens: &[Token]) -> Vec<u64> {
    use rayon::prelude::*;
    let score = |i: usize| {
        let mut h = 0x243f_6a88_85a3_08d3u64;
        for t in &tokens[i..(i + ANCHOR_TOKENS).min(tokens.len())] {
            h = (h ^ t.sym).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        }
        h ^ (h >> 32)
    };
    (0..tokens.len()).into_par_iter().with_min_len(1 << 12).map(score).collect()
}

/// The [`anchors`] of the winnowing windows that end in the slots of tokens `ending`.
fn winnow(tokens: &[Token], scores: &[u64], width: u32, ending: Range<usize>) -> Vec<usize> {
    let from = ending.start.saturating_sub(width as usize);
    // The slots in order: (score, token), a token's repeated for each of its units.
    let slots = (from..ending.end).flat_map(|i| std::iter::repeat_n((scores[i], i), tokens[i].units() as usize));
    let mut out: Vec<usize> = Vec::with_capacity(2 * ending.len() / width as usize + 1);
    // Slots whose scores rise from front to back: the front is the window's minimum.
    let mut rising: std::collections::VecDeque<(u32, u64, usize)> = std::collections::VecDeque::new();
    let mut n = 0u32;
    for (slot, (score, token)) in slots.enumerate() {
        let slot = slot as u32;
        while rising.back().is_some_and(|&(_, s, _)| s >= score) {
            rising.pop_back();
        }
        rising.push_back((slot, score, token));
        while rising.front().is_some_and(|&(at, _, _)| at + width <= slot) {
            rising.pop_front();
        }
        n = slot + 1;
        // Slots counted from `from`: a piece that starts early has `width` before `ending`.
        if n >= width && token >= ending.start {
            let (_, _, best) = *rising.front().expect("the slot just pushed");
            if out.last() != Some(&best) {
                out.push(best);
            }
        }
    }
    // A stream shorter than one winnowing window: its lowest score.
    if n > 0 && n < width {
        out.push(rising.front().expect("a slot").2);
    }
    out
}

/// Windows every `step` units, plus the last full window.
fn every_step_spans(tokens: &[Token], window: usize, step: usize) -> Vec<Range<usize>> {
    let query = query_spans(tokens, window);
    let mut out = Vec::with_capacity(query.len() / step.max(1) + 1);
    let mut offset = 0u32; // units before token i
    let mut next = 0u32;
    for (i, span) in query.iter().enumerate() {
        if offset >= next {
            out.push(span.clone());
            next = (offset / step as u32 + 1) * step as u32;
        }
        offset += tokens[i].units();
    }
    if let Some(last) = query.last()
        && out.last() != Some(last)
    {
        out.push(last.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::normalize::tokenize;

    fn han(n: usize) -> Vec<Token> {
        tokenize(&"天地玄黄宇宙洪荒日月盈昃辰宿列张".chars().cycle().take(n).collect::<String>())
    }

    #[test]
    fn stored_windows_cover_every_token_and_end_at_the_last() {
        for n in 0..100 {
            let tokens = han(n);
            for (w, s) in [(8, 3), (8, 8), (10, 1), (24, 6)] {
                let spans = every_step_spans(&tokens, w, s);
                let mut covered = vec![false; n];
                for sp in &spans {
                    covered[sp.clone()].iter_mut().for_each(|c| *c = true);
                    assert!(sp.len() == w.min(n), "n={n} w={w}: {sp:?}");
                }
                assert!(covered.iter().all(|&c| c), "n={n} w={w} s={s}");
                assert!(spans.windows(2).all(|p| p[0].start < p[1].start && p[1].start - p[0].start <= s));
                if n > 0 {
                    assert_eq!(spans.last().unwrap().end, n);
                }
            }
        }
    }

    #[test]
    fn words_weigh_three_units_and_stored_windows_are_query_windows() {
        let text = "The vector space model is an algebraic model for representing text documents as vectors \
                    of identifiers such as index terms. 它用于信息过滤、信息检索、索引以及相关性排序。";
        let tokens = tokenize(text);
        let query = query_spans(&tokens, 24);
        assert_eq!(query[0], 0..8, "8 words make 24 units");
        for anchoring in [Anchoring::EveryStep, Anchoring::Winnowed] {
            let p = FingerprintParams { anchoring, ..FingerprintParams::default() };
            for sp in stored_spans(&tokens, &p) {
                assert_eq!(query[sp.start], sp);
                assert!(query_windows(&tokens, &p).contains(&sp), "a stored window is queried too");
            }
        }
        assert_eq!(query_spans(&han(5), 24), vec![0..5], "a short text still gets one window");
        assert!(query_spans(&[], 24).is_empty());
    }

    #[test]
    fn anchors_follow_the_text_and_come_about_once_a_step() {
        let text = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");
        let tokens = tokenize(text);
        let p = FingerprintParams::default();
        let at = |tokens: &[Token]| -> Vec<u64> {
            anchors(tokens, stored_width(p.step)).iter().map(|&i| tokens[i].start as u64).collect()
        };
        let units: u32 = tokens.iter().map(|t| t.units()).sum();
        let n = at(&tokens).len() as f64;
        let per = f64::from(units) / n;
        assert!((4.5..7.5).contains(&per), "one anchor per {per:.1} units");
        // Text put after a header gets the same anchors, shifted, apart from its first few.
        let moved = format!(
            "本站最新网址请收藏
{text}"
        );
        let shift = 10u64;
        let moved_at: std::collections::HashSet<u64> = at(&tokenize(&moved)).into_iter().map(|c| c - shift).collect();
        let kept = at(&tokens).iter().filter(|c| moved_at.contains(c)).count();
        assert!(kept as f64 >= n - 3.0, "{kept} of {n} anchors kept");
        // Winnowing's guarantee: no gap between anchors longer than the width.
        let starts = anchors(&tokens, stored_width(p.step));
        for pair in starts.windows(2) {
            let gap: u32 = tokens[pair[0]..pair[1]].iter().map(|t| t.units()).sum();
            assert!(gap <= stored_width(p.step), "{gap}");
        }
        // A stream shorter than the width still gets one.
        assert_eq!(anchors(&han(3), 11).len(), 1);
        assert!(anchors(&[], 11).is_empty());
    }

    #[test]
    fn a_long_text_winnowed_in_pieces_gets_the_anchors_of_one_pass() {
        let fixture = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");
        let text = crate::engine::test_texts::han_with_words(fixture);
        let tokens = tokenize(&text.repeat(12));
        assert!(tokens.len() > 4 << 15, "{} tokens", tokens.len());
        let scores = anchor_scores(&tokens);
        for width in [1, 2, 11, 23] {
            assert_eq!(anchors(&tokens, width), winnow(&tokens, &scores, width, 0..tokens.len()), "width {width}");
        }
    }

    /// Windows at anchors as first written: all of `query_spans`, then those at the anchors.
    fn anchored_spans_from_all(tokens: &[Token], window: usize, width: u32) -> Vec<Range<usize>> {
        let all = query_spans(tokens, window);
        if all.len() <= 1 {
            return all;
        }
        let mut out: Vec<Range<usize>> =
            anchors(tokens, width).into_iter().filter_map(|a| all.get(a).cloned()).collect();
        let last = all.last().expect("two windows at least");
        if out.last() != Some(last) {
            out.push(last.clone());
        }
        out
    }

    #[test]
    fn windows_made_only_at_anchors_are_those_picked_from_every_window() {
        let fixture = include_str!("../../tests/fixtures/corpus/xiyouji_000.txt");
        let mixed = crate::engine::test_texts::han_with_words(fixture);
        let mut texts =
            vec![mixed.repeat(4), fixture.to_string(), "one two three four five six seven eight nine".into()];
        texts.extend((0..40).map(|n| "天地玄黄 wisdom 宇宙洪荒".chars().take(n).collect::<String>()));
        for text in texts {
            let tokens = tokenize(&text);
            for (window, width) in [(24, 11), (8, 3), (3, 1)] {
                assert_eq!(
                    anchored_spans(&tokens, window, width),
                    anchored_spans_from_all(&tokens, window, width),
                    "{} tokens, window {window}",
                    tokens.len()
                );
            }
        }
    }
}
