//! Sliding windows over a token stream.
//!
//! Stored documents are cut into windows of `window` tokens every `step` tokens, plus
//! one final window ending at the last token so the tail is covered. Suspects are cut at
//! step 1 ([`query_starts`]): whatever was inserted or deleted before a copied passage,
//! every stored window inside it meets a query window that starts on the same token.
//! Measured against content-defined anchors in `ARCHITECTURE.md`.
//!
//! A document with fewer tokens than a window still gets one window of all its tokens;
//! a document without tokens gets none.

/// Start tokens of the stored windows of a document with `n` tokens.
pub fn stored_starts(n: usize, window: usize, step: usize) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    if n <= window {
        return vec![0];
    }
    let last = n - window;
    let mut starts: Vec<usize> = (0..=last).step_by(step).collect();
    if *starts.last().unwrap() != last {
        starts.push(last);
    }
    starts
}

/// Start tokens of a suspect's query windows: every token.
pub fn query_starts(n: usize, window: usize) -> std::ops::Range<usize> {
    if n == 0 {
        0..0
    } else if n <= window {
        0..1
    } else {
        0..n - window + 1
    }
}

/// Token range of the window starting at `start` in a document of `n` tokens.
pub fn span(start: usize, n: usize, window: usize) -> std::ops::Range<usize> {
    start..(start + window).min(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_windows_cover_every_token_and_end_at_the_last() {
        for n in 0..100 {
            for (w, s) in [(8, 3), (8, 8), (10, 1), (24, 6)] {
                let starts = stored_starts(n, w, s);
                let mut covered = vec![false; n];
                for &st in &starts {
                    covered[span(st, n, w)].iter_mut().for_each(|c| *c = true);
                }
                assert!(covered.iter().all(|&c| c), "n={n} w={w} s={s}");
                assert!(starts.windows(2).all(|p| p[0] < p[1] && p[1] - p[0] <= s));
                if n > 0 {
                    assert_eq!(span(*starts.last().unwrap(), n, w).end, n);
                }
            }
        }
    }

    #[test]
    fn every_stored_window_has_a_query_window_with_the_same_start() {
        for n in [1, 5, 24, 25, 97] {
            let q = query_starts(n, 24);
            assert!(
                stored_starts(n, 24, 6).iter().all(|s| q.contains(s)),
                "n={n}"
            );
        }
    }
}
