//! Scores: document-level recall/precision, and PAN text-alignment character measures
//! (Potthast et al., "An Evaluation Framework for Plagiarism Detection", COLING 2010).

use super::generate::TruthPassage;
use std::ops::Range;

/// A reported passage, as the check returned it.
#[derive(Clone, Debug)]
pub struct Detection {
    pub source_path: String,
    pub suspect: Range<usize>,
    pub source: Range<usize>,
}

#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct PanScores {
    pub precision: f64,
    pub recall: f64,
    pub granularity: f64,
    pub plagdet: f64,
}

fn overlap(a: &Range<usize>, b: &Range<usize>) -> usize {
    a.end.min(b.end).saturating_sub(a.start.max(b.start))
}

/// Length of the union of ranges.
fn union_len(mut rs: Vec<Range<usize>>) -> usize {
    rs.retain(|r| !r.is_empty());
    rs.sort_by_key(|r| r.start);
    let mut total = 0;
    let mut cur: Option<Range<usize>> = None;
    for r in rs {
        match &mut cur {
            Some(c) if r.start <= c.end => c.end = c.end.max(r.end),
            _ => {
                if let Some(c) = cur.take() {
                    total += c.len();
                }
                cur = Some(r);
            }
        }
    }
    total + cur.map_or(0, |c| c.len())
}

fn detects(r: &Detection, s: &TruthPassage) -> bool {
    r.source_path == s.source_path && overlap(&r.suspect, &s.suspect) > 0 && overlap(&r.source, &s.source) > 0
}

fn intersect(a: &Range<usize>, b: &Range<usize>) -> Range<usize> {
    a.start.max(b.start)..a.end.min(b.end).max(a.start.max(b.start))
}

/// PAN's macro-averaged character precision, recall, granularity and plagdet over all
/// suspects (each a list of true passages and a list of detections). Characters count on
/// both sides: a passage's size is its suspect length plus its source length.
pub fn pan(suspects: &[(Vec<TruthPassage>, Vec<Detection>)]) -> PanScores {
    let (mut prec_sum, mut n_r) = (0.0, 0usize);
    let (mut rec_sum, mut n_s) = (0.0, 0usize);
    let (mut gran_sum, mut detected) = (0usize, 0usize);
    for (truth, dets) in suspects {
        for r in dets {
            n_r += 1;
            let hits: Vec<&TruthPassage> = truth.iter().filter(|s| detects(r, s)).collect();
            let sus = union_len(hits.iter().map(|s| intersect(&s.suspect, &r.suspect)).collect());
            let src = union_len(hits.iter().map(|s| intersect(&s.source, &r.source)).collect());
            prec_sum += (sus + src) as f64 / (r.suspect.len() + r.source.len()).max(1) as f64;
        }
        for s in truth {
            n_s += 1;
            let hits: Vec<&Detection> = dets.iter().filter(|r| detects(r, s)).collect();
            if !hits.is_empty() {
                detected += 1;
                gran_sum += hits.len();
            }
            let sus = union_len(hits.iter().map(|r| intersect(&s.suspect, &r.suspect)).collect());
            let src = union_len(hits.iter().map(|r| intersect(&s.source, &r.source)).collect());
            rec_sum += (sus + src) as f64 / (s.suspect.len() + s.source.len()).max(1) as f64;
        }
    }
    let precision = if n_r == 0 { 0.0 } else { prec_sum / n_r as f64 };
    let recall = if n_s == 0 { 0.0 } else { rec_sum / n_s as f64 };
    let granularity = if detected == 0 { 1.0 } else { gran_sum as f64 / detected as f64 };
    let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
    PanScores { precision, recall, granularity, plagdet: f1 / (1.0 + granularity).log2() }
}

/// OCR's character accuracy: 1 − (edit distance / length of the truth), on NFKC text with
/// white space ignored (full-width punctuation as its narrow form); 1 for an empty truth
/// read as nothing.
pub fn char_accuracy(read: &str, truth: &str) -> f64 {
    use unicode_normalization::UnicodeNormalization;
    let comparable = |t: &str| -> Vec<char> { t.nfkc().filter(|c| !c.is_whitespace()).collect() };
    let (a, b) = (comparable(read), comparable(truth));
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    if b.is_empty() {
        return if a.is_empty() { 1.0 } else { 0.0 };
    }
    1.0 - row[b.len()] as f64 / b.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn truth(s: Range<usize>, o: Range<usize>) -> TruthPassage {
        TruthPassage { source_path: "a".into(), suspect: s, source: o }
    }
    fn det(s: Range<usize>, o: Range<usize>) -> Detection {
        Detection { source_path: "a".into(), suspect: s, source: o }
    }

    #[test]
    fn exact_detection_scores_one() {
        let p = pan(&[(vec![truth(10..110, 0..100)], vec![det(10..110, 0..100)])]);
        assert_eq!((p.precision, p.recall, p.granularity), (1.0, 1.0, 1.0));
        assert!((p.plagdet - 1.0).abs() < 1e-12);
    }

    #[test]
    fn half_found_split_in_two_and_a_false_detection() {
        let p = pan(&[(
            vec![truth(0..100, 0..100)],
            vec![
                det(0..25, 0..25),
                det(25..50, 25..50),
                Detection { source_path: "b".into(), suspect: 0..10, source: 0..10 },
            ],
        )]);
        assert!((p.recall - 0.5).abs() < 1e-12);
        assert!((p.precision - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(p.granularity, 2.0);
    }
}
