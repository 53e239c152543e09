//! What differs inside a matched passage, character by character.
//!
//! The two sides of a passage are aligned on their tokens (Myers diff over token symbols,
//! via `similar`): tokens that align but whose characters differ are substitutions that
//! keep the pinyin initial (homophones, traditional/simplified script); tokens present on
//! one side only are edits (typos, insertions, deletions). Frontends and reports mark them.

use super::Passage;
use crate::engine::normalize::{Token, tokenize};
use serde::Serialize;
use similar::{Algorithm, DiffOp, capture_diff_slices};
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// Same pinyin initial, different character: a homophone or a script change.
    Substitution,
    /// Present on this side only: a typo, an insertion or a deletion.
    Edit,
}

/// A marked range of characters (absolute `char` offsets in that side's text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub start: usize,
    pub end: usize,
    pub kind: MarkKind,
}

/// The marks of one passage, on the suspect side and on the source side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PassageDiff {
    pub suspect: Vec<Mark>,
    pub source: Vec<Mark>,
}

fn tokens_in(chars: &[char], range: Range<usize>) -> Vec<Token> {
    let text: String = chars[range.clone()].iter().collect();
    let offset = range.start as u32;
    tokenize(&text).into_iter().map(|t| Token { start: t.start + offset, end: t.end + offset, ..t }).collect()
}

/// Marks of `p`, given the two texts as char slices.
pub fn passage_diff(suspect: &[char], source: &[char], p: &Passage) -> PassageDiff {
    let q = tokens_in(suspect, p.suspect_start..p.suspect_end.min(suspect.len()));
    let s = tokens_in(source, p.source_start..p.source_end.min(source.len()));
    let qs: Vec<u64> = q.iter().map(|t| t.sym).collect();
    let ss: Vec<u64> = s.iter().map(|t| t.sym).collect();
    let mut out = PassageDiff::default();
    let mark = |v: &mut Vec<Mark>, toks: &[Token], kind| {
        if let (Some(a), Some(b)) = (toks.first(), toks.last()) {
            v.push(Mark { start: a.start as usize, end: b.end as usize, kind });
        }
    };
    for op in capture_diff_slices(Algorithm::Myers, &ss, &qs) {
        match op {
            DiffOp::Equal { old_index, new_index, len } => {
                for i in 0..len {
                    let (st, qt) = (s[old_index + i], q[new_index + i]);
                    let same =
                        source[st.start as usize..st.end as usize] == suspect[qt.start as usize..qt.end as usize];
                    if !same {
                        mark(&mut out.suspect, &[qt], MarkKind::Substitution);
                        mark(&mut out.source, &[st], MarkKind::Substitution);
                    }
                }
            }
            DiffOp::Delete { old_index, old_len, .. } => {
                mark(&mut out.source, &s[old_index..old_index + old_len], MarkKind::Edit)
            }
            DiffOp::Insert { new_index, new_len, .. } => {
                mark(&mut out.suspect, &q[new_index..new_index + new_len], MarkKind::Edit)
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                mark(&mut out.source, &s[old_index..old_index + old_len], MarkKind::Edit);
                mark(&mut out.suspect, &q[new_index..new_index + new_len], MarkKind::Edit);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn homophones_script_changes_and_typos_are_told_apart() {
        let source: Vec<char> = "前言。是非成败转头空，青山依旧在，几度夕阳红。".chars().collect();
        // 是→事 (homophone), 敗/頭 (script), 依 deleted, 甲 inserted.
        let suspect: Vec<char> = "广告！事非成敗轉頭空，青山旧在，几度甲夕阳红。".chars().collect();
        let p = Passage {
            suspect_start: 3,
            suspect_end: 22,
            source_start: 3,
            source_end: 23,
            distance: 0,
            containment: 1.0,
            evidence_bits: 100.0,
            region: 0,
        };
        let d = passage_diff(&suspect, &source, &p);
        let text = |chars: &[char], m: &Mark| chars[m.start..m.end].iter().collect::<String>();
        let subs: Vec<String> =
            d.suspect.iter().filter(|m| m.kind == MarkKind::Substitution).map(|m| text(&suspect, m)).collect();
        assert_eq!(subs, ["事", "敗", "轉", "頭"]);
        let edits: Vec<String> =
            d.suspect.iter().filter(|m| m.kind == MarkKind::Edit).map(|m| text(&suspect, m)).collect();
        assert_eq!(edits, ["甲"]);
        let deleted: Vec<String> =
            d.source.iter().filter(|m| m.kind == MarkKind::Edit).map(|m| text(&source, m)).collect();
        assert_eq!(deleted, ["依"]);
    }

    #[test]
    fn identical_passages_have_no_marks() {
        let t: Vec<char> = "滚滚长江东逝水".chars().collect();
        let p = Passage {
            suspect_start: 0,
            suspect_end: 7,
            source_start: 0,
            source_end: 7,
            distance: 0,
            containment: 1.0,
            evidence_bits: 100.0,
            region: 0,
        };
        assert_eq!(passage_diff(&t, &t, &p), PassageDiff::default());
    }
}
