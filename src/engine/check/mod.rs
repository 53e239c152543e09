//! Check: suspect text → query windows → index hits → passages → ranked sources.
//!
//! The suspect is windowed at step 1 and every window is looked up in the index
//! (in parallel). Hits are grouped by source document; each source's text is
//! re-tokenized (cheap, and it lets passages be extended to exact token boundaries)
//! and its hits chained into passages ([`chain`]). Offsets in the result count `char`s
//! of the extracted texts, end exclusive.
//!
//! Similarity is counted in characters that carry tokens (Han characters, letters and
//! digits), so white space, punctuation and reformatting do not move it:
//! - `similarity` = share of the suspect's counted characters inside the source's passages;
//! - `source_coverage` = share of the source's counted characters inside them.

pub mod among;
pub mod chain;
pub mod diff;
mod pieces;
pub mod regions;
pub mod verify;

use crate::Result;
use crate::engine::index::Index;
use crate::engine::normalize::{Disguises, Token, token_chars, tokens, tokens_and_disguises};
use crate::engine::params::FingerprintParams;
use crate::engine::simhash::query_fingerprints;
pub use crate::engine::store::{SourceDoc, WorkRef};
use crate::engine::window;
use chain::{Hit, TokenPassage};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// Check-time settings (fingerprinting settings belong to the store).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CheckOptions {
    /// Largest Hamming distance between a query window and a stored window that counts.
    pub max_distance: u32,
    /// Copied regions with fewer counted characters on the suspect side are dropped: they
    /// are the stock phrases any two texts of a genre share.
    pub min_passage_chars: usize,
    /// A copied region needs at least this much verified shared text, in bits
    /// ([`verify`]): the same evidence in either script (100 bits: about 24 Han
    /// characters, or 8-25 English words by how common they are).
    #[serde(default = "default_min_evidence_bits")]
    pub min_evidence_bits: f64,
}

fn default_min_evidence_bits() -> f64 {
    100.0
}

/// A passage whose suspect side has fewer of its shingles on the source side than this is
/// a chance match of fingerprints, not a copy ([`verify`]).
pub const MIN_CONTAINMENT: f64 = 0.5;

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { max_distance: 3, min_passage_chars: 40, min_evidence_bits: default_min_evidence_bits() }
    }
}

/// Texts longer than this (UTF-8 bytes; a long chapter is 30 kB) are decoded and checked one
/// at a time across threads.
pub const LONG_TEXT_BYTES: usize = 1 << 20;

static LONG_TEXT_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

thread_local! {
    /// This thread holds the turn (asking again inside it is a no-op, not a deadlock).
    static HOLDS_LONG_TEXT_TURN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The turn to work on a long text, held until dropped (see [`long_text_turn`]).
pub struct LongTextTurn {
    _guard: std::sync::MutexGuard<'static, ()>,
}

impl Drop for LongTextTurn {
    fn drop(&mut self) {
        HOLDS_LONG_TEXT_TURN.set(false);
    }
}

/// Waits for the turn to work on a text of `bytes` when it is long, and holds it until the
/// guard is dropped. Decoding a long page (its HTML tree), checking a long text (tokens,
/// windows, lookups) and recording its finding take many bytes per character: taking turns
/// keeps many threads at once (a watch run's sites, a batch) within one long text's memory,
/// however many 15 MiB pages arrive together. A thread that holds the turn gets `None` (it
/// goes on inside its turn). Never hold it while fetching.
pub fn long_text_turn(bytes: usize) -> Option<LongTextTurn> {
    if bytes <= LONG_TEXT_BYTES || HOLDS_LONG_TEXT_TURN.get() {
        return None;
    }
    let guard = LONG_TEXT_TURN.lock().unwrap_or_else(|e| e.into_inner());
    HOLDS_LONG_TEXT_TURN.set(true);
    Some(LongTextTurn { _guard: guard })
}

thread_local! {
    /// The turn this thread took for a long page it is reading ([`hold_long_text_turn`]).
    static HELD_TURN: std::cell::RefCell<Option<LongTextTurn>> = const { std::cell::RefCell::new(None) };
}

/// Takes the long-text turn for a long page this thread is about to read, and holds it
/// until [`release_held_turn`], so the page's body, text, check and record are the only long
/// ones in memory. `wait`: wait for the turn; otherwise, when another thread has it, return
/// `false` at once (the caller puts the page off). `true` when this thread holds it.
pub fn hold_long_text_turn(wait: bool) -> bool {
    if HOLDS_LONG_TEXT_TURN.get() {
        return true;
    }
    let guard = match LONG_TEXT_TURN.try_lock() {
        Ok(guard) => guard,
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) if wait => LONG_TEXT_TURN.lock().unwrap_or_else(|e| e.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => return false,
    };
    HOLDS_LONG_TEXT_TURN.set(true);
    HELD_TURN.with(|held| *held.borrow_mut() = Some(LongTextTurn { _guard: guard }));
    true
}

/// Gives back the turn [`hold_long_text_turn`] took on this thread, if it did.
pub fn release_held_turn() {
    HELD_TURN.with(|held| held.borrow_mut().take());
}

/// One matched passage, in `char` offsets of the two extracted texts (end exclusive).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Passage {
    pub suspect_start: usize,
    pub suspect_end: usize,
    pub source_start: usize,
    pub source_end: usize,
    /// Smallest Hamming distance among the windows that matched in this passage (0 for a
    /// piece found between passages by exact tokens, [`regions::fill_gaps`]).
    pub distance: u32,
    /// Share of the suspect side's token shingles (6 initials or 2 words) that occur on the
    /// source side: the verification of the passage, independent of the fingerprints.
    pub containment: f64,
    /// Information of the verified shared text, in bits ([`verify`]).
    pub evidence_bits: f64,
    /// The copied region of this source the passage belongs to, counted from 0 in suspect
    /// order: passages cut apart by ads, edits or laundering share one ([`regions`]).
    pub region: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SourceMatch {
    pub id: u32,
    pub path: String,
    pub title: String,
    pub similarity: f64,
    pub source_coverage: f64,
    pub passages: Vec<Passage>,
    /// The work the source document belongs to (`None` from sources without works, and
    /// then not in the JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work: Option<WorkRef>,
    /// How the suspect copies the source: its text (not in the JSON), or a translation or
    /// adaptation of it into another language (`engine/translation/`), whose passages are
    /// aligned sentences rather than shared characters.
    #[serde(default, skip_serializing_if = "CopyKind::is_text")]
    pub kind: CopyKind,
    /// For a translation or adaptation: the names both texts share, romanised on the
    /// suspect's side (evidence a reader can check; not in the JSON when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<SharedName>,
}

/// A name a translation shares with its source: `Chu Erh-tan` ↔ `朱尔旦`, and how often the
/// English text has it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SharedName {
    pub english: String,
    pub chinese: String,
    pub count: usize,
}

/// How a suspect copies a source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CopyKind {
    /// The source's text, however disguised.
    #[default]
    Text,
    /// A faithful translation: the source's sentences one after another in another language.
    Translation,
    /// A free adaptation in another language: the source's story and names, retold. Never
    /// called a copy.
    Adaptation,
}

impl CopyKind {
    pub fn is_text(&self) -> bool {
        *self == CopyKind::Text
    }

    /// How reports name it, for translations and adaptations (`None` for a text copy).
    pub fn label(self) -> Option<&'static str> {
        match self {
            CopyKind::Text => None,
            CopyKind::Translation => Some("translation"),
            CopyKind::Adaptation => Some("adaptation"),
        }
    }
}

impl SourceMatch {
    /// How results name the source: `《西游记》第一回 …` (work and chapter), or its title;
    /// `(translation)` or `(adaptation)` after it when the suspect is one.
    pub fn label(&self) -> String {
        let name = self.name();
        match self.kind.label() {
            Some(kind) => format!("{name} ({kind})"),
            None => name,
        }
    }

    /// The source's name without how it was copied: `《西游记》第一回 …`, or its title.
    pub fn name(&self) -> String {
        self.work.as_ref().map_or_else(|| self.title.clone(), |w| w.label(&self.title))
    }

    /// What differs inside passage `p` of this source, character by character; nothing for a
    /// translation, whose sides are in different languages.
    pub fn passage_marks(&self, suspect: &[char], source: &[char], p: &Passage) -> diff::PassageDiff {
        if self.kind.is_text() { diff::passage_diff(suspect, source, p) } else { diff::PassageDiff::default() }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SuspectReport {
    pub path: String,
    pub chars: usize,
    pub similarity: f64,
    pub error: Option<String>,
    pub sources: Vec<SourceMatch>,
    /// Where a web suspect came from; `None` for files (and then not in the JSON).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub web: Option<WebOrigin>,
    /// The disguises undone in its text (stores that undo them), by kind; not in the JSON
    /// when there were none.
    #[serde(default, skip_serializing_if = "Disguises::is_empty")]
    pub disguises: Disguises,
}

/// One page of a web suspect: where it answered and the SHA-256 (hex) of its bytes.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct PageHash {
    pub url: String,
    pub sha256: String,
}

/// A web suspect's origin, as the JSON contract gives it beside the suspect's fields.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct WebOrigin {
    /// The URL asked for.
    pub url: String,
    /// The URL that answered, after redirects.
    pub final_url: String,
    /// When the (first) page arrived, UTC, RFC 3339.
    pub fetched_at: String,
    /// SHA-256 (hex) of the bytes received: of the page, or of its pages one after another.
    pub sha256: String,
    /// Each page read, in order, with the SHA-256 of its own bytes (a chapter over pages has
    /// one per page, each matching its file in the evidence package).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<PageHash>,
    /// The finding this check is recorded as, once it is.
    pub finding_id: Option<i64>,
}

impl SuspectReport {
    pub fn failed(path: String, error: String) -> SuspectReport {
        SuspectReport {
            path,
            chars: 0,
            similarity: 0.0,
            error: Some(error),
            sources: Vec::new(),
            web: None,
            disguises: Disguises::default(),
        }
    }

    /// A suspect that could not even be listed (walking its folder failed).
    pub fn unreadable(path: &std::path::Path, reason: &str) -> SuspectReport {
        SuspectReport::failed(path.display().to_string(), format!("{}: {reason}", path.display()))
    }
}

/// Where a check gets source documents from (the store, or a test's map).
pub trait Sources {
    fn source(&self, id: u32) -> Result<Option<SourceDoc>>;

    /// The work a source document belongs to, for naming it in results.
    fn work_of(&self, _id: u32) -> Result<Option<WorkRef>> {
        Ok(None)
    }
}

/// Checks `text` against `index`. `path` is only carried into the report.
/// A text longer than [`LONG_TEXT_BYTES`] is checked in overlapping pieces
/// ([`pieces`]), so its memory is a piece's, not the text's.
pub fn check_text(
    index: &Index,
    sources: &dyn Sources,
    params: &FingerprintParams,
    opts: &CheckOptions,
    path: &str,
    text: &str,
) -> Result<SuspectReport> {
    if text.len() > LONG_TEXT_BYTES {
        return pieces::check_in_pieces(index, sources, params, opts, path, text, pieces::CUTS);
    }
    check_whole(index, sources, params, opts, path, text)
}

/// [`check_text`] on the whole text at once.
fn check_whole(
    index: &Index,
    sources: &dyn Sources,
    params: &FingerprintParams,
    opts: &CheckOptions,
    path: &str,
    text: &str,
) -> Result<SuspectReport> {
    let (q_tokens, disguises) = tokens_and_disguises(text, params.normalizing);
    let disguises = disguises.systematic(text.chars().count());
    let (q_spans, fps) = query_fingerprints(&q_tokens, params);
    let by_doc = lookup(index, &fps, opts.max_distance);

    let suspect = Suspect::new(text, q_tokens, q_spans);
    let mut q_cover = Coverage::new(&suspect.tokens);
    let mut sources_out = Vec::new();
    // Sources in id order, so equal scores rank the same way every run.
    let mut docs: Vec<_> = by_doc.into_iter().collect();
    docs.sort_unstable_by_key(|(doc, _)| *doc);
    // The store is read on this thread (one connection) while the sources read before are
    // matched on the pool's threads, a few at a time so memory holds only their texts.
    let mut chunks = docs.chunks(SOURCES_AT_ONCE);
    let mut next = chunks.next().map(|c| fetch(sources, c)).transpose()?;
    while let Some(these) = next {
        let mut matched: Vec<Option<Matched>> = Vec::new();
        let suspect = &suspect;
        next = rayon::in_place_scope(|scope| {
            scope.spawn(|_| {
                matched = these
                    .into_par_iter()
                    .map(|(doc, src, hits)| match_source(suspect, doc, src, hits, params, opts))
                    .collect();
            });
            chunks.next().map(|c| fetch(sources, c)).transpose()
        })?;
        for (m, token_ranges) in matched.into_iter().flatten() {
            token_ranges.into_iter().for_each(|(start, end)| q_cover.add(start, end));
            sources_out.push(m);
        }
    }
    sources_out
        .sort_by(|a, b| b.similarity.total_cmp(&a.similarity).then(b.source_coverage.total_cmp(&a.source_coverage)));
    for m in &mut sources_out {
        m.work = sources.work_of(m.id)?;
    }
    Ok(SuspectReport {
        path: path.to_string(),
        chars: text.chars().count(),
        similarity: q_cover.share(),
        error: None,
        sources: sources_out,
        web: None,
        disguises,
    })
}

/// The passages between a suspect and one source from window pairs found elsewhere (the
/// Spark job's join): `hits` are (query window, stored window, distance), the windows
/// numbered as [`query_fingerprints`] and [`window::stored_spans`] number them. The
/// matching is the one [`check_text`] runs for each source, so both give the same passages.
pub fn match_pair(
    suspect_text: &str,
    source_id: u32,
    source: SourceDoc,
    hits: &[WindowHit],
    params: &FingerprintParams,
    opts: &CheckOptions,
) -> Option<SourceMatch> {
    let q_tokens = tokens(suspect_text, params.normalizing);
    let q_spans = window::query_windows(&q_tokens, params);
    let suspect = Suspect::new(suspect_text, q_tokens, q_spans);
    match_source(&suspect, source_id, source, hits, params, opts).map(|(m, _)| m)
}

/// A suspect's similarity from its sources' passages: the share of its counted characters
/// inside any of them, as [`check_text`] gives it.
pub fn suspect_similarity(suspect_text: &str, sources: &[SourceMatch], params: &FingerprintParams) -> f64 {
    let tokens = tokens(suspect_text, params.normalizing);
    // Passages start and end on token boundaries, so the token range of a char range is
    // found by the tokens' starts.
    let token_at = |char_offset: usize| tokens.partition_point(|t| (t.start as usize) < char_offset);
    let ranges = sources
        .iter()
        .flat_map(|s| &s.passages)
        .map(|p| (token_at(p.suspect_start), token_at(p.suspect_end)))
        .collect();
    share_of_ranges(&tokens, token_chars(&tokens), ranges)
}

/// The texts of the sources `chunk` names, with their hits; sources no longer in the
/// store are left out.
fn fetch<'a>(
    sources: &dyn Sources,
    chunk: &'a [(u32, Vec<WindowHit>)],
) -> Result<Vec<(u32, SourceDoc, &'a [WindowHit])>> {
    let mut fetched = Vec::with_capacity(chunk.len());
    for (doc, hits) in chunk {
        if let Some(src) = sources.source(*doc)? {
            fetched.push((*doc, src, hits.as_slice()));
        }
    }
    Ok(fetched)
}

/// A query window that met a stored window of a source: (query window, stored window
/// ordinal, distance).
pub type WindowHit = (u32, u32, u32);

/// Sources fetched from the store and matched in parallel at a time.
const SOURCES_AT_ONCE: usize = 64;

/// A source's match and the suspect token ranges its passages cover.
type Matched = (SourceMatch, Vec<(usize, usize)>);

/// The suspect as every source is matched against it.
struct Suspect {
    tokens: Vec<Token>,
    /// `token_chars(tokens)`, the denominator of every source's similarity.
    counted_chars: u64,
    syms: Vec<u64>,
    chars: Vec<char>,
    /// Its query windows, by number, in tokens.
    spans: Vec<std::ops::Range<usize>>,
}

impl Suspect {
    fn new(text: &str, tokens: Vec<Token>, spans: Vec<std::ops::Range<usize>>) -> Suspect {
        Suspect {
            counted_chars: token_chars(&tokens),
            syms: tokens.iter().map(|t| t.sym).collect(),
            chars: text.chars().collect(),
            tokens,
            spans,
        }
    }
}

/// The passages `hits` (query token, stored window ordinal, distance) make between the
/// suspect and one source, as that source's match plus the suspect token ranges it
/// covers; `None` if no passage is long enough.
fn match_source(
    q: &Suspect,
    doc: u32,
    src: SourceDoc,
    hits: &[WindowHit],
    params: &FingerprintParams,
    opts: &CheckOptions,
) -> Option<Matched> {
    let s_tokens = tokens(&src.text, params.normalizing);
    let s_syms: Vec<u64> = s_tokens.iter().map(|t| t.sym).collect();
    let s_spans = window::stored_spans(&s_tokens, params);
    let mut token_hits: Vec<Hit> = hits
        .iter()
        .filter_map(|&(qi, ordinal, distance)| {
            // Hits from elsewhere (a Spark run) may name windows these texts do not have.
            let (qs, ss) = (q.spans.get(qi as usize)?, s_spans.get(ordinal as usize)?);
            Some(Hit { q: qs.start as u32, q_end: qs.end as u32, s: ss.start as u32, s_end: ss.end as u32, distance })
        })
        .collect();
    // Gaps left by typos and dropped sentences, up to four windows long.
    let max_gap = params.window * 4;
    let mut passages = chain::chain(&mut token_hits, max_gap);
    let s_chars: Vec<char> = src.text.chars().collect();
    let same_char = |qi: usize, si: usize| {
        let (qt, st) = (q.tokens[qi], s_tokens[si]);
        qt.sym == st.sym && (qt.chars() > 1 || q.chars[qt.start as usize] == s_chars[st.start as usize])
    };
    for p in passages.iter_mut() {
        chain::realign(p, &q.syms, &s_syms, 24);
        chain::extend(p, &q.syms, &s_syms);
        chain::trim_chance_ends(p, 2, same_char);
    }
    // Verified passages only: a chance match of fingerprints must not seed gap filling.
    // Passages that come out of the second merge unchanged are not verified again.
    let mut checked: HashMap<(usize, usize, usize, usize), verify::Verification> = HashMap::new();
    let mut verified = |ps: Vec<TokenPassage>| -> Vec<(TokenPassage, verify::Verification)> {
        ps.into_iter()
            .filter(|p| p.q_start < p.q_end && p.s_start < p.s_end && p.s_end <= s_syms.len())
            .map(|p| {
                let v = *checked
                    .entry((p.q_start, p.q_end, p.s_start, p.s_end))
                    .or_insert_with(|| verify::verify(&q.syms[p.q_start..p.q_end], &s_syms[p.s_start..p.s_end]));
                (p, v)
            })
            .filter(|(_, v)| v.containment >= MIN_CONTAINMENT)
            .collect()
    };
    let mut found: Vec<TokenPassage> =
        verified(chain::merge_overlapping(passages)).into_iter().map(|(p, _)| p).collect();
    if found.is_empty() {
        return None;
    }
    let mut pieces = regions::fill_gaps(&found, &q.syms, &s_syms);
    pieces.iter_mut().for_each(|p| chain::trim_chance_ends(p, 2, same_char));
    found.extend(pieces);
    let mut passages = drop_repeats(verified(chain::merge_overlapping(found)));
    passages.sort_by_key(|(p, _)| (p.q_start, p.s_start));
    let tps: Vec<TokenPassage> = passages.iter().map(|(p, _)| *p).collect();
    let region_of = regions::group(&tps);
    // A region is kept when the passages the index found in it (gap pieces add coverage,
    // not evidence: a topic's stock phrases must not add up to a copy) hold enough
    // verified text, and it has enough characters.
    let regions_count = region_of.last().map_or(0, |r| r + 1);
    let (mut bits, mut chars) = (vec![0.0f64; regions_count], vec![0u64; regions_count]);
    for ((p, v), &r) in passages.iter().zip(&region_of) {
        if p.hits > 0 {
            bits[r] += v.bits;
        }
        chars[r] += visible_token_chars(&q.tokens[p.q_start..p.q_end], &q.chars);
    }
    let keep = |r: usize| bits[r] >= opts.min_evidence_bits && chars[r] >= opts.min_passage_chars as u64;
    let mut renumber = vec![usize::MAX; regions_count];
    let mut next_region = 0;
    let passages: Vec<(TokenPassage, verify::Verification, usize)> = passages
        .into_iter()
        .zip(region_of)
        .filter(|&(_, r)| keep(r))
        .map(|((p, v), r)| {
            if renumber[r] == usize::MAX {
                renumber[r] = next_region;
                next_region += 1;
            }
            (p, v, renumber[r])
        })
        .collect();
    if passages.is_empty() {
        return None;
    }
    let token_ranges: Vec<(usize, usize)> = passages.iter().map(|(p, _, _)| (p.q_start, p.q_end)).collect();
    // Shares from the passages' ranges alone: a suspect novel has a million tokens and may
    // match hundreds of sources, so nothing per source may cost a pass over the suspect.
    let similarity = share_of_ranges(&q.tokens, q.counted_chars, token_ranges.clone());
    let source_ranges = passages.iter().map(|(p, _, _)| (p.s_start, p.s_end)).collect();
    let source_coverage = share_of_ranges(&s_tokens, token_chars(&s_tokens), source_ranges);
    let m = SourceMatch {
        id: doc,
        path: src.path,
        title: src.title,
        similarity,
        source_coverage,
        work: None,
        kind: CopyKind::Text,
        names: Vec::new(),
        passages: passages
            .iter()
            .map(|(p, v, region)| Passage {
                suspect_start: q.tokens[p.q_start].start as usize,
                suspect_end: q.tokens[p.q_end - 1].end as usize,
                source_start: s_tokens[p.s_start].start as usize,
                source_end: s_tokens[p.s_end - 1].end as usize,
                distance: p.distance,
                containment: v.containment,
                evidence_bits: v.bits,
                region: *region,
            })
            .collect(),
    };
    Some((m, token_ranges))
}

/// Counted characters of `tokens` (of the text `chars`) without invisible characters
/// inside words: a zero-width space slipped into a word must not lengthen a region past
/// [`CheckOptions::min_passage_chars`].
fn visible_token_chars(tokens: &[Token], chars: &[char]) -> u64 {
    let invisible = |t: &Token| {
        chars[t.start as usize..(t.end as usize).min(chars.len())]
            .iter()
            .filter(|&&c| crate::engine::normalize::disguise::is_invisible(c))
            .count() as u64
    };
    tokens.iter().map(|t| t.chars() as u64 - if t.chars() > 1 { invisible(t) } else { 0 }).sum()
}

/// Drops passages whose suspect side lies mostly inside a longer passage's: text the
/// source holds twice (a repeated verse, a refrain) is reported once, where its
/// surroundings match too.
fn drop_repeats(mut ps: Vec<(TokenPassage, verify::Verification)>) -> Vec<(TokenPassage, verify::Verification)> {
    ps.sort_by_key(|(p, _)| std::cmp::Reverse(p.q_end - p.q_start));
    // Kept passages by suspect start; they barely overlap, so a few neighbours suffice.
    let mut kept: std::collections::BTreeMap<usize, usize> = Default::default();
    let mut out = Vec::with_capacity(ps.len());
    for (p, v) in ps {
        let inside: usize = kept
            .range(..p.q_end)
            .rev()
            .take(16)
            .map(|(&start, &end)| p.q_end.min(end).saturating_sub(p.q_start.max(start)))
            .sum();
        if inside * 5 < (p.q_end - p.q_start) * 4 {
            let end = kept.entry(p.q_start).or_insert(p.q_end);
            *end = (*end).max(p.q_end);
            out.push((p, v));
        }
    }
    out
}

/// Looks every query window up; returns, per source document, (query token, stored window
/// ordinal, distance) triples.
/// The documents with a stored window within `max_distance` of a window of `text`: what
/// the index says shares text with it, before any verification.
pub fn documents_sharing(
    index: &Index,
    params: &FingerprintParams,
    text: &str,
    max_distance: u32,
) -> std::collections::HashSet<u32> {
    let (_, fps) = query_fingerprints(&tokens(text, params.normalizing), params);
    lookup(index, &fps, max_distance.min(index.max_distance())).into_keys().collect()
}

fn lookup(index: &Index, fps: &[u64], max_distance: u32) -> HashMap<u32, Vec<WindowHit>> {
    let mut hits = Vec::new();
    index.query_batch(fps, max_distance, &mut hits);
    let mut by_doc: HashMap<u32, Vec<WindowHit>> = HashMap::new();
    for (q, h) in hits {
        by_doc.entry(h.window.doc).or_default().push((q, h.window.ordinal, h.distance));
    }
    by_doc
}

/// The share of `tokens`' characters inside the union of the token `ranges`, like
/// [`Coverage`] but in time proportional to the ranges, not the tokens.
/// `total` is `token_chars(tokens)`, counted once by the caller: the suspect's is needed for
/// every source.
fn share_of_ranges(tokens: &[Token], total: u64, mut ranges: Vec<(usize, usize)>) -> f64 {
    if total == 0 {
        return 0.0;
    }
    ranges.sort_unstable();
    let mut covered = 0u64;
    let mut reached = 0usize; // tokens before this are counted
    for (start, end) in ranges {
        let start = start.max(reached);
        if start < end {
            covered += token_chars(&tokens[start..end]);
            reached = end;
        }
    }
    covered as f64 / total as f64
}

/// Which tokens of a text are covered by passages, measured in counted characters.
struct Coverage<'a> {
    tokens: &'a [Token],
    covered: Vec<bool>,
}

impl<'a> Coverage<'a> {
    fn new(tokens: &'a [Token]) -> Self {
        Coverage { tokens, covered: vec![false; tokens.len()] }
    }
    fn add(&mut self, start: usize, end: usize) {
        self.covered[start..end].iter_mut().for_each(|c| *c = true);
    }
    fn share(&self) -> f64 {
        let total = token_chars(self.tokens);
        if total == 0 {
            return 0.0;
        }
        let covered: u64 =
            self.tokens.iter().zip(&self.covered).filter(|(_, c)| **c).map(|(t, _)| t.chars() as u64).sum();
        covered as f64 / total as f64
    }
}

#[cfg(test)]
mod share_tests {
    use super::*;

    #[test]
    fn share_of_ranges_counts_the_union_like_a_coverage_mask() {
        let tokens =
            crate::engine::normalize::tokenize("甲乙丙丁 the quick brown fox 戊己庚辛，壬癸 jumps over 子丑寅卯");
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..200 {
            let ranges: Vec<(usize, usize)> = (0..rng.usize(0..5))
                .map(|_| {
                    let a = rng.usize(0..tokens.len());
                    (a, rng.usize(a..=tokens.len()))
                })
                .collect();
            let mut mask = Coverage::new(&tokens);
            ranges.iter().for_each(|&(a, b)| mask.add(a, b));
            assert_eq!(share_of_ranges(&tokens, token_chars(&tokens), ranges.clone()), mask.share(), "{ranges:?}");
        }
    }
}

#[cfg(test)]
mod long_text_tests {
    /// The turn is one per process: its tests take turns too.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

    #[test]
    fn long_texts_take_turns_and_short_ones_never_wait() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        use std::sync::atomic::{AtomicBool, Ordering};
        let first = super::long_text_turn(super::LONG_TEXT_BYTES + 1).expect("a long text takes a turn");
        assert!(super::long_text_turn(100).is_none(), "a short text never waits");
        assert!(super::long_text_turn(super::LONG_TEXT_BYTES + 1).is_none(), "inside its turn, a thread goes on");
        let second_ran = AtomicBool::new(false);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let _turn = super::long_text_turn(super::LONG_TEXT_BYTES + 1);
                second_ran.store(true, Ordering::SeqCst);
            });
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert!(!second_ran.load(Ordering::SeqCst), "the second long text waited for the first");
            drop(first);
            waiter.join().unwrap();
        });
        assert!(second_ran.load(Ordering::SeqCst));
    }

    #[test]
    fn a_held_turn_is_kept_until_released_and_others_may_put_off_their_page() {
        let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        assert!(super::hold_long_text_turn(false), "a free turn is taken");
        assert!(super::long_text_turn(super::LONG_TEXT_BYTES + 1).is_none(), "the holder goes on");
        std::thread::scope(|s| {
            assert!(!s.spawn(|| super::hold_long_text_turn(false)).join().unwrap(), "another thread puts off");
        });
        super::release_held_turn();
        std::thread::scope(|s| {
            let other = s.spawn(|| {
                let held = super::hold_long_text_turn(false);
                super::release_held_turn();
                held
            });
            assert!(other.join().unwrap(), "once released, another thread takes it");
        });
    }
}
