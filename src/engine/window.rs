//! Sliding windows over a token stream.
//!
//! Lengths are measured in units ([`Token::units`]): a window is the shortest run of
//! tokens from its start that reaches `window` units (24 initials, or 8 English words).
//! Stored documents get a window starting at the first token of every `step` units, plus
//! the last full window, so the tail is covered. Suspects get a window at every token
//! ([`query_spans`]): whatever was inserted or deleted before a copied passage, every
//! stored window inside it meets a query window with the same tokens. A stored window is
//! always also a query window of the same text (same start, same end rule).
//!
//! A document with fewer units than a window gets one window of all its tokens; a
//! document without tokens gets none.

use crate::engine::normalize::Token;
use std::ops::Range;

/// The query windows of a stream: entry `i` is the window starting at token `i`.
pub fn query_spans(tokens: &[Token], window: usize) -> Vec<Range<usize>> {
    spans_reaching(tokens, window as u32, Token::units)
}

/// For each item from the first, the shortest run from it that reaches `target` units,
/// until the rest is too short; a stream too short for one run is one run of it all.
/// Windows are runs of tokens, and shingles (`check::verify`) runs of token symbols.
pub fn spans_reaching<T>(items: &[T], target: u32, units: impl Fn(&T) -> u32) -> Vec<Range<usize>> {
    let mut spans = Vec::with_capacity(items.len());
    let (mut end, mut have) = (0usize, 0u32);
    for start in 0..items.len() {
        while end < items.len() && have < target {
            have += units(&items[end]);
            end += 1;
        }
        if have < target {
            break;
        }
        spans.push(start..end);
        have -= units(&items[start]);
    }
    if spans.is_empty() && !items.is_empty() {
        spans.push(0..items.len());
    }
    spans
}

/// The stored windows of a stream, a subset of its [`query_spans`].
pub fn stored_spans(tokens: &[Token], window: usize, step: usize) -> Vec<Range<usize>> {
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
                let spans = stored_spans(&tokens, w, s);
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
        for sp in stored_spans(&tokens, 24, 6) {
            assert_eq!(query[sp.start], sp);
        }
        assert_eq!(query_spans(&han(5), 24), vec![0..5], "a short text still gets one window");
        assert!(query_spans(&[], 24).is_empty());
    }
}
