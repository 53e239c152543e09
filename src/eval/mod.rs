//! The detection-quality harness behind `zhiwen eval`.
//!
//! It imports a mother corpus (`DATA/zh-classics`, minus some held-out chapters), makes
//! pirated suspects of many kinds from real chapters with exact ground truth
//! ([`generate`]), checks each one through [`Corpus::check_text`] (the code path of
//! `zhiwen check`), and scores them ([`metrics`]). It also reports on real pairs that no
//! generator made (`real`). Everything is seeded: the same options give the same numbers.
//!
//! The data layout is that of `../shared/data` (see its README); parts that are missing
//! are skipped with a note, so the harness also runs on a small test layout.

mod dna;
pub mod generate;
pub mod metrics;
pub mod pages;
mod real;
pub mod translation_embeddings;
pub mod translations;

use crate::engine::decode;
use crate::engine::import::collect_files;
use crate::{CheckOptions, Corpus, FingerprintParams, ImportOptions, ImportReport, Result, SuspectReport};
use generate::{CharPools, TruthPassage};
use metrics::{Detection, PanScores};
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// The data folder (`../shared/data` layout).
    pub data: PathBuf,
    /// Cases per generated kind.
    pub cases: usize,
    pub seed: u64,
    pub params: FingerprintParams,
    pub check: CheckOptions,
    /// Also run the reports on real data (traditional editions, abridgements, English answers).
    pub real: bool,
    /// Also the kinds whose suspects are pictures read by OCR (minutes: each case is pages).
    pub ocr: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct KindResult {
    pub kind: &'static str,
    pub positive: bool,
    pub cases: usize,
    /// Positives: share of true sources reported.
    pub doc_recall: f64,
    /// Positives: share of reported sources that are true.
    pub doc_precision: f64,
    /// Sources reported that are not true sources and share no verified text.
    pub false_sources: usize,
    /// Sources reported that are not the generator's source but whose matched text the
    /// original (unpirated) text really shares with them, verified on the original
    /// characters ([`verified_shared`]): a poem quoted in two chapters, 金瓶梅 reusing
    /// 水浒传. Counted as correct, and shown apart.
    pub shared_sources: usize,
    /// Character-level scores, for kinds with passage ground truth.
    pub pan: Option<PanScores>,
    /// Whole-text copies: the mean share of the suspect attributed to its true source
    /// (that source's similarity).
    pub attribution: Option<f64>,
    pub check_seconds: f64,
    pub suspect_chars: usize,
    /// The DNA baseline ([`dna`]) on the same suspects: share of true sources it reports...
    pub dna_recall: f64,
    /// ... and the sources it reports that are neither true nor share verified text.
    pub dna_false_sources: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct EvalReport {
    pub params: FingerprintParams,
    pub check: CheckOptions,
    pub corpus_documents: u64,
    pub corpus_windows: u64,
    pub import_seconds: f64,
    pub kinds: Vec<KindResult>,
    pub overall: KindResult,
    pub real: Vec<real::RealResult>,
    pub notes: Vec<String>,
}

/// One generated suspect.
struct Case {
    name: String,
    /// The suspect as text, or as bytes to decode (the GB18030 kind).
    text: std::result::Result<String, Vec<u8>>,
    /// Paths of the true sources (empty for negatives).
    sources: BTreeSet<String>,
    /// Passage-level truth, for kinds that have it.
    passages: Option<Vec<TruthPassage>>,
    /// The unpirated text(s) the suspect was made from (for negatives, the suspect).
    originals: Vec<String>,
}

/// Per-case outcome, written to `cases.jsonl` for inspection.
#[derive(Serialize)]
pub struct CaseOutcome {
    pub kind: &'static str,
    pub name: String,
    pub truth: Vec<String>,
    pub found: Vec<(String, f64)>,
    pub missed: Vec<String>,
    pub false_sources: Vec<String>,
    pub shared_sources: Vec<String>,
    /// Kinds with passage truth: the true and the detected suspect ranges, and each
    /// detection's text (for looking at what went wrong).
    pub truth_ranges: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
    pub detections: Vec<(std::ops::Range<usize>, std::ops::Range<usize>, String)>,
}

struct Texts {
    /// (canonical path, text) of every corpus chapter.
    corpus: Vec<(String, String)>,
    held_out: Vec<(String, String)>,
    news: Vec<PathBuf>,
    sequels: Vec<PathBuf>,
    /// English chapters in the corpus (`en-gutenberg/chapters`).
    en_corpus: Vec<(String, String)>,
    /// Texts of the English books that are not in the corpus.
    en_hosts: Vec<String>,
}

pub fn run(opts: &EvalOptions, log: &dyn Fn(&str)) -> Result<(EvalReport, Vec<CaseOutcome>)> {
    let mut rng = fastrand::Rng::with_seed(opts.seed);
    let mut notes = Vec::new();
    let texts = load_texts(opts, &mut rng, &mut notes)?;
    log(&format!("corpus: {} chapters ({} held out); importing", texts.corpus.len(), texts.held_out.len()));

    let mut corpus = Corpus::open_in_memory_with(opts.params)?;
    corpus.ensure_distance(opts.check.max_distance)?;
    let started = Instant::now();
    let paths: Vec<PathBuf> = texts.corpus.iter().chain(&texts.en_corpus).map(|(p, _)| PathBuf::from(p)).collect();
    let import = corpus.import(&paths, &ImportOptions::default(), &|_| {}, &Default::default())?;
    let import_seconds = started.elapsed().as_secs_f64();
    if !import.failed.is_empty() {
        notes.push(format!("{} corpus files failed to import: {:?}", import.failed.len(), &import.failed[..1]));
    }
    let stats = corpus.store().stats()?;

    let pools = CharPools::from_texts(texts.corpus.iter().map(|(_, t)| t.as_str()));
    let dna_corpus: Vec<(String, String)> = texts.corpus.iter().chain(&texts.en_corpus).cloned().collect();
    let dna = dna::DnaIndex::build(&dna_corpus);
    let mut kinds = Vec::new();
    let mut outcomes = Vec::new();
    let ocr = opts.ocr && crate::engine::decode::ocr::models_dir().is_some();
    if opts.ocr && !ocr {
        notes.push("the OCR models are not installed (tools/ocr-models): no image kinds".into());
    }
    for kind in KINDS {
        if is_ocr_kind(kind.name) && !ocr {
            continue;
        }
        // The OCR kinds read pages of pictures (seconds a case): fewer cases.
        let n = if is_ocr_kind(kind.name) { opts.cases.min(OCR_CASES) } else { opts.cases };
        let cases = make_cases(kind, n, &texts, &pools, &mut rng);
        if cases.is_empty() {
            notes.push(format!("{}: no cases (data missing)", kind.name));
            continue;
        }
        log(&format!("{}: {} cases", kind.name, cases.len()));
        let (result, mut outs) = score_kind(kind, &corpus, &dna, &opts.check, cases)?;
        kinds.push(result);
        outcomes.append(&mut outs);
    }
    let overall = overall(&kinds);
    let real = if opts.real { real::run(opts, &corpus, &mut notes, log)? } else { Vec::new() };
    let report = EvalReport {
        params: opts.params,
        check: opts.check.clone(),
        corpus_documents: stats.documents,
        corpus_windows: stats.windows,
        import_seconds,
        kinds,
        overall,
        real,
        notes,
    };
    Ok((report, outcomes))
}

fn list(dir: &Path) -> Vec<PathBuf> {
    if !dir.is_dir() {
        return Vec::new();
    }
    let mut report = ImportReport::default();
    collect_files(&[dir.to_path_buf()], &mut report)
}

fn read(path: &Path) -> Option<(String, String)> {
    let text = decode::decode_file(path).ok()?.text;
    let canonical = std::fs::canonicalize(path).ok()?.to_string_lossy().into_owned();
    Some((canonical, text))
}

/// Chapters of these books are never held out: 金瓶梅 reuses 水浒传 for real, and the
/// real-data reports need every chapter of 三国演义, 红楼梦 and 西游记 in the corpus.
const NOT_HELD_OUT: &[&str] = &["jinpingmei", "shuihuzhuan", "sanguoyanyi", "hongloumeng", "xiyouji"];
/// Derivative books that reuse their original's text: positives, not hard negatives.
pub const ABRIDGEMENTS: &[&str] = &["tangsanzang_xiyoushiezhuan_abridged", "xiyoujizhuan_yangzhihe_abridged"];

fn load_texts(opts: &EvalOptions, rng: &mut fastrand::Rng, notes: &mut Vec<String>) -> Result<Texts> {
    let classics = opts.data.join("zh-classics");
    let mut chapters: Vec<(String, String)> = list(&classics).iter().filter_map(|p| read(p)).collect();
    if chapters.is_empty() {
        return Err(crate::Error::Parameter(format!("no chapters under {}", classics.display())));
    }
    chapters.sort();
    // Hold out chapters of books that copy from no other corpus book.
    let mut candidates: Vec<usize> = (0..chapters.len())
        .filter(|&i| !NOT_HELD_OUT.iter().any(|b| chapters[i].0.contains(&format!("/{b}/"))))
        .filter(|&i| chapters[i].1.chars().count() > 1500)
        .collect();
    rng.shuffle(&mut candidates);
    let held: HashSet<usize> = candidates.into_iter().take(opts.cases.min(chapters.len() / 4)).collect();
    let (mut corpus, mut held_out) = (Vec::new(), Vec::new());
    for (i, c) in chapters.into_iter().enumerate() {
        if held.contains(&i) { held_out.push(c) } else { corpus.push(c) }
    }
    let news = list(&opts.data.join("zh-news-2018"));
    if news.is_empty() {
        notes.push("zh-news-2018 missing: excerpts use held-out chapters as hosts".into());
    }
    let sequels: Vec<PathBuf> = list(&opts.data.join("zh-classics-derivative"))
        .into_iter()
        .filter(|p| !ABRIDGEMENTS.iter().any(|a| p.to_string_lossy().contains(a)))
        .collect();
    // English: the chaptered books are in the corpus, the others are hosts and negatives.
    let en = opts.data.join("en-gutenberg");
    let mut en_corpus: Vec<(String, String)> = list(&en.join("chapters")).iter().filter_map(|p| read(p)).collect();
    en_corpus.sort();
    let chaptered: HashSet<String> = std::fs::read_dir(en.join("chapters"))
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    let mut en_hosts: Vec<(PathBuf, String)> = list(&en.join("books"))
        .into_iter()
        .filter(|p| !p.file_stem().is_some_and(|s| chaptered.contains(&*s.to_string_lossy())))
        .filter_map(|p| read(&p).map(|(_, t)| (p, t)))
        .collect();
    en_hosts.sort();
    if en_corpus.is_empty() || en_hosts.is_empty() {
        notes.push("en-gutenberg missing: no English kinds".into());
    }
    let en_hosts = en_hosts.into_iter().map(|(_, t)| t).collect();
    Ok(Texts { corpus, held_out, news, sequels, en_corpus, en_hosts })
}

struct Kind {
    name: &'static str,
    positive: bool,
}

const KINDS: &[Kind] = &[
    Kind { name: "reformat", positive: true },
    Kind { name: "ads", positive: true },
    Kind { name: "homophones-5%", positive: true },
    Kind { name: "homophones-15%", positive: true },
    Kind { name: "traditional", positive: true },
    Kind { name: "typos-2%", positive: true },
    Kind { name: "shuffled", positive: true },
    Kind { name: "gb18030", positive: true },
    Kind { name: "html", positive: true },
    Kind { name: "formats", positive: true },
    Kind { name: "combined", positive: true },
    Kind { name: "excerpt", positive: true },
    Kind { name: "compilation", positive: true },
    Kind { name: "laundered", positive: true },
    Kind { name: "pinyin-passage", positive: true },
    Kind { name: "noise-letters-8%", positive: true },
    Kind { name: "invisible-10%", positive: true },
    Kind { name: "en-swapped-letters", positive: true },
    Kind { name: "en-homoglyphs", positive: true },
    Kind { name: "en-excerpt", positive: true },
    Kind { name: "en-negative", positive: false },
    Kind { name: "negative-news", positive: false },
    Kind { name: "hard-negative-sequels", positive: false },
    Kind { name: "hard-negative-same-novel", positive: false },
    // Last, so that the cases of the kinds above do not change with them (one random stream).
    Kind { name: "image-long-picture", positive: true },
    Kind { name: "image-scanned-pdf", positive: true },
    Kind { name: "scrambled-font", positive: true },
    // After them, so that adding it left the cases of every kind above as they were (its own
    // cases differ with and without --no-ocr).
    Kind { name: "lookalikes", positive: true },
];

/// Cases of each OCR kind at most.
const OCR_CASES: usize = 20;

/// Kinds whose suspects are pictures read by OCR: run only with `EvalOptions::ocr` and the
/// OCR models installed.
fn is_ocr_kind(name: &str) -> bool {
    name.starts_with("image-") || name == "scrambled-font"
}

/// A text of an unrelated host: a news article, or a held-out chapter without news.
fn host_text(texts: &Texts, rng: &mut fastrand::Rng) -> String {
    for _ in 0..10 {
        if !texts.news.is_empty() {
            if let Some((_, t)) = read(&texts.news[rng.usize(..texts.news.len())])
                && t.chars().count() > 400
            {
                return t;
            }
        } else if !texts.held_out.is_empty() {
            return texts.held_out[rng.usize(..texts.held_out.len())].1.clone();
        }
    }
    "本报讯 记者从有关部门获悉，今年全市各项工作稳步推进。\n".repeat(8)
}

/// English negatives and hosts: a stretch of about `len` characters of a book outside the
/// corpus, from a paragraph start.
fn en_stretch(texts: &Texts, len: usize, rng: &mut fastrand::Rng) -> Option<String> {
    let book = texts.en_hosts.get(rng.usize(..texts.en_hosts.len().max(1)))?;
    let chars: Vec<char> = book.chars().collect();
    let start = rng.usize(..chars.len().saturating_sub(len).max(1));
    let start = (start..chars.len()).find(|&i| i == 0 || chars[i - 1] == '\n')?;
    Some(chars[start..(start + len).min(chars.len())].iter().collect())
}

fn make_cases(kind: &Kind, n: usize, texts: &Texts, pools: &CharPools, rng: &mut fastrand::Rng) -> Vec<Case> {
    if kind.name.starts_with("en-") && (texts.en_corpus.is_empty() || texts.en_hosts.is_empty()) {
        return Vec::new();
    }
    let en_sources: Vec<&(String, String)> = texts.en_corpus.iter().filter(|(_, t)| t.len() >= 5000).collect();
    let sources: Vec<&(String, String)> = texts.corpus.iter().filter(|(_, t)| t.chars().count() >= 2000).collect();
    let pick = |rng: &mut fastrand::Rng| sources[rng.usize(..sources.len())];
    let whole = |name: String, path: &str, original: &str, text: String| Case {
        name,
        text: Ok(text),
        sources: BTreeSet::from([path.to_string()]),
        passages: None,
        originals: vec![original.to_string()],
    };
    // A negative: no true source; its own text is the original for the shared-text check.
    let negative = |path: &str, text: String| Case {
        name: short(path),
        originals: vec![text.clone()],
        text: Ok(text),
        sources: BTreeSet::new(),
        passages: None,
    };
    let mut cases = Vec::new();
    for i in 0..n {
        let case = match kind.name {
            "reformat" | "ads" | "homophones-5%" | "homophones-15%" | "traditional" | "typos-2%" | "shuffled"
            | "combined" | "laundered" => {
                let (path, text) = pick(rng);
                let pirated = match kind.name {
                    "reformat" => generate::reformat(text, rng),
                    "ads" => generate::ads(text, rng),
                    "homophones-5%" => generate::homophones(text, 0.05, pools, rng),
                    "homophones-15%" => generate::homophones(text, 0.15, pools, rng),
                    "traditional" => generate::traditional(text),
                    "typos-2%" => generate::typos(text, 0.02, pools, rng),
                    "shuffled" => generate::shuffle_paragraphs(text, rng),
                    "laundered" => generate::launder(text, 0.15, 0.15, 0.2, rng),
                    _ => {
                        let t = generate::traditional(&generate::homophones(text, 0.05, pools, rng));
                        generate::reformat(&generate::ads(&t, rng), rng)
                    }
                };
                whole(format!("{}#{i}", short(path)), path, text, pirated)
            }
            "html" => {
                let (path, text) = pick(rng);
                let page = generate::html_page(text, rng);
                let (bytes, _, _) = encoding_rs::GBK.encode(&page);
                // The name's extension tells decode to extract the page.
                Case {
                    text: Err(bytes.into_owned()),
                    ..whole(format!("{}#{i}.html", short(path)), path, text, String::new())
                }
            }
            "formats" => {
                // PDF in a standard CJK font with a predefined CMap, MOBI, RTF (GBK bytes), ODT.
                let (path, text) = pick(rng);
                let (ext, bytes) = match i % 4 {
                    0 => ("pdf", generate::pdf(text)),
                    1 => ("mobi", generate::mobi(text)),
                    2 => ("rtf", generate::rtf(text)),
                    _ => ("odt", generate::odt(text)),
                };
                Case { text: Err(bytes), ..whole(format!("{}#{i}.{ext}", short(path)), path, text, String::new()) }
            }
            "gb18030" => {
                let (path, text) = pick(rng);
                let (bytes, _, _) = encoding_rs::GB18030.encode(text);
                Case {
                    text: Err(bytes.into_owned()),
                    ..whole(format!("{}#{i}", short(path)), path, text, String::new())
                }
            }
            "excerpt" => {
                let (path, text) = pick(rng);
                let len = rng.usize(300..=1500);
                let Some(range) = generate::pick_passage(text, len, rng) else { continue };
                let (head, tail) = generate::split_at_paragraph(&host_text(texts, rng));
                excerpt(i, path, text, range, head, tail)
            }
            "compilation" => {
                let mut parts = vec![Ok(host_text(texts, rng))];
                let mut srcs = BTreeSet::new();
                while srcs.len() < 3 {
                    let (path, text) = pick(rng);
                    if !srcs.insert(path.clone()) {
                        continue;
                    }
                    let Some(range) = generate::pick_passage(text, rng.usize(300..=1000), rng) else { continue };
                    parts.push(Ok("\n".into()));
                    parts.push(Err((path.clone(), text.clone(), range)));
                    parts.push(Ok(format!("\n{}", host_text(texts, rng))));
                }
                let originals = parts
                    .iter()
                    .filter_map(|p| p.as_ref().err())
                    .map(|(_, t, r)| generate::char_slice(t, r.clone()))
                    .collect();
                let (suspect, truth) = generate::assemble(parts);
                Case {
                    name: format!("compilation#{i}"),
                    text: Ok(suspect),
                    sources: srcs,
                    passages: Some(truth),
                    originals,
                }
            }
            "pinyin-passage" => {
                // 300-600 characters written out in pinyin inside an unrelated article.
                let (path, text) = pick(rng);
                let Some(range) = generate::pick_passage(text, rng.usize(300..=600), rng) else { continue };
                let original = generate::char_slice(text, range.clone());
                // Half with tone marks, half plain (`shen gong ding an`).
                let written = generate::pinyin_written(&original, i % 2 == 0);
                let (head, tail) = generate::split_at_paragraph(&host_text(texts, rng));
                let (start, len) = (head.chars().count(), written.chars().count());
                Case {
                    name: format!("{}#{i}", short(path)),
                    text: Ok(format!("{head}{written}\n{tail}")),
                    sources: BTreeSet::from([path.to_string()]),
                    passages: Some(vec![generate::TruthPassage {
                        source_path: path.clone(),
                        suspect: start..start + len,
                        source: range,
                    }]),
                    originals: vec![original],
                }
            }
            "noise-letters-8%" => {
                let (path, text) = pick(rng);
                whole(format!("{}#{i}", short(path)), path, text, generate::noise_letters(text, 0.08, rng))
            }
            "lookalikes" => {
                // Every character that has a look-alike swapped for one (about 6% of a chapter).
                let (path, text) = pick(rng);
                whole(format!("{}#{i}", short(path)), path, text, generate::lookalikes(text, 1.0, rng))
            }
            "invisible-10%" => {
                let (path, text) = pick(rng);
                whole(format!("{}#{i}", short(path)), path, text, generate::invisible_chars(text, 0.10, rng))
            }
            "en-homoglyphs" => {
                let (path, text) = en_sources[rng.usize(..en_sources.len())];
                whole(format!("{}#{i}", short(path)), path, text, generate::homoglyphs(text, 0.10, rng))
            }
            "en-swapped-letters" => {
                let (path, text) = en_sources[rng.usize(..en_sources.len())];
                whole(format!("{}#{i}", short(path)), path, text, generate::swap_letters(text, 0.05, rng))
            }
            "en-excerpt" => {
                let (path, text) = en_sources[rng.usize(..en_sources.len())];
                let Some(range) = generate::pick_passage_en(text, rng.usize(500..=3000), rng) else { continue };
                let Some(host) = en_stretch(texts, 20_000, rng) else { continue };
                let (head, tail) = generate::split_at_paragraph(&host);
                excerpt(i, path, text, range, head, format!("\n{tail}"))
            }
            "en-negative" => {
                let Some(text) = en_stretch(texts, 20_000, rng) else { continue };
                negative(&format!("en-negative#{i}"), text)
            }
            "negative-news" | "hard-negative-sequels" => {
                let list = if kind.name == "negative-news" { &texts.news } else { &texts.sequels };
                let Some(p) = list.get(rng.usize(..list.len().max(1))) else { continue };
                let Some((path, text)) = read(p) else { continue };
                negative(&path, text)
            }
            "image-long-picture" | "image-scanned-pdf" => {
                // A whole chapter of 1,500–4,000 characters as pictures: one long PNG (24 px
                // text, clean), or a scan (a PDF of JPEG pages, quality 50, grain, turned 1°).
                let Some(font) = pages::font() else { continue };
                let short_chapters: Vec<&&(String, String)> =
                    sources.iter().filter(|(_, t)| (1500..=4000).contains(&t.chars().count())).collect();
                if short_chapters.is_empty() {
                    continue;
                }
                let (path, text) = *short_chapters[rng.usize(..short_chapters.len())];
                let (ext, bytes) = if kind.name == "image-long-picture" {
                    let style = pages::Style { size: 24.0, width: 800, height: 0, rotate: 0.0, noise: 0.0 };
                    ("png", pages::png(&pages::render(text, &font, style, rng)[0]))
                } else {
                    let style = pages::Style { size: 24.0, width: 900, height: 1300, rotate: 1.0, noise: 10.0 };
                    ("pdf", pages::scanned_pdf(&pages::render(text, &font, style, rng), 50))
                };
                Case { text: Err(bytes), ..whole(format!("{}#{i}.{ext}", short(path)), path, text, String::new()) }
            }
            "scrambled-font" => {
                // The chapter as a saved pirate page whose own font (inside it) draws each
                // Han character for another code point.
                let Some(font) = pages::sfnt_font() else { continue };
                let (path, text) = pick(rng);
                let Some(page) = pages::scrambled_font_page(text, &font, rng) else { continue };
                Case {
                    text: Err(page.into_bytes()),
                    ..whole(format!("{}#{i}.html", short(path)), path, text, String::new())
                }
            }
            "hard-negative-same-novel" => {
                let Some((path, text)) = texts.held_out.get(i) else { continue };
                negative(path, text.clone())
            }
            _ => unreachable!("unknown kind {}", kind.name),
        };
        cases.push(case);
    }
    cases
}

/// The `range` of a source `text` at `path` between `head` and `tail` of an unrelated text.
fn excerpt(i: usize, path: &str, text: &str, range: std::ops::Range<usize>, head: String, tail: String) -> Case {
    let original = generate::char_slice(text, range.clone());
    let (suspect, truth) =
        generate::assemble(vec![Ok(head), Err((path.to_string(), text.to_string(), range)), Ok(tail)]);
    Case {
        name: format!("{}#{i}", short(path)),
        text: Ok(suspect),
        sources: BTreeSet::from([path.to_string()]),
        passages: Some(truth),
        originals: vec![original],
    }
}

/// `book/NNN.txt` of a path, for case names.
fn short(path: &str) -> String {
    let p = Path::new(path);
    let book = p.parent().and_then(|d| d.file_name()).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{book}/{}", p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
}

fn score_kind(
    kind: &Kind,
    corpus: &Corpus,
    dna: &dna::DnaIndex,
    check: &CheckOptions,
    cases: Vec<Case>,
) -> Result<(KindResult, Vec<CaseOutcome>)> {
    let (mut true_found, mut true_total, mut reported, mut false_sources, mut shared_sources) = (0, 0, 0, 0, 0);
    let mut pan_input = Vec::new();
    let mut outcomes = Vec::new();
    let mut seconds = 0.0;
    let mut chars = 0;
    let mut attributed = Vec::new();
    let (mut dna_found, mut dna_false) = (0, 0);
    let n = cases.len();
    for case in cases {
        let started = Instant::now();
        let text = match case.text {
            Ok(t) => t,
            Err(bytes) => decode::decode_bytes(Path::new(&case.name), &bytes)?.text,
        };
        let report: SuspectReport = corpus.check_text(&case.name, &text, check)?;
        seconds += started.elapsed().as_secs_f64();
        chars += report.chars;
        let found: Vec<(String, f64)> = report.sources.iter().map(|s| (s.path.clone(), s.similarity)).collect();
        let found_paths: BTreeSet<&String> = found.iter().map(|(p, _)| p).collect();
        let missed: Vec<String> = case.sources.iter().filter(|s| !found_paths.contains(s)).cloned().collect();
        let extra: Vec<String> =
            found.iter().filter(|(p, _)| !case.sources.contains(p)).map(|(p, _)| p.clone()).collect();
        let dna_sources = dna.sources(&text);
        dna_found += case.sources.iter().filter(|s| dna_sources.contains(*s)).count();
        let dna_extra: Vec<&String> = dna_sources.iter().filter(|p| !case.sources.contains(*p)).collect();
        let shared = if extra.is_empty() && dna_extra.is_empty() {
            BTreeSet::new()
        } else {
            verified_shared(corpus, check, &case.originals)?
        };
        dna_false += dna_extra.iter().filter(|p| !shared.contains(**p)).count();
        let (shared, wrong): (Vec<String>, Vec<String>) = extra.into_iter().partition(|p| shared.contains(p));
        if kind.positive && case.passages.is_none() {
            attributed.extend(case.sources.iter().map(|t| found.iter().find(|(p, _)| p == t).map_or(0.0, |f| f.1)));
        }
        true_total += case.sources.len();
        true_found += case.sources.len() - missed.len();
        reported += found.len();
        false_sources += wrong.len();
        shared_sources += shared.len();
        let (mut truth_ranges, mut detections) = (Vec::new(), Vec::new());
        if let Some(truth) = case.passages {
            truth_ranges = truth.iter().map(|t| (t.suspect.clone(), t.source.clone())).collect();
            let chars: Vec<char> = text.chars().collect();
            detections = report
                .sources
                .iter()
                .flat_map(|s| s.passages.iter())
                .map(|p| {
                    let text = chars[p.suspect_start..p.suspect_end].iter().collect();
                    (p.suspect_start..p.suspect_end, p.source_start..p.source_end, text)
                })
                .collect();
            // Detections of sources the original really shares text with are neither
            // right nor wrong for the generator's truth: left out, as in doc precision.
            let dets = report
                .sources
                .iter()
                .filter(|s| !shared.contains(&s.path))
                .flat_map(|s| {
                    s.passages.iter().map(|p| Detection {
                        source_path: s.path.clone(),
                        suspect: p.suspect_start..p.suspect_end,
                        source: p.source_start..p.source_end,
                    })
                })
                .collect();
            pan_input.push((truth, dets));
        }
        outcomes.push(CaseOutcome {
            kind: kind.name,
            name: case.name,
            truth: case.sources.into_iter().collect(),
            found,
            missed,
            false_sources: wrong,
            shared_sources: shared,
            truth_ranges,
            detections,
        });
    }
    let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
    Ok((
        KindResult {
            kind: kind.name,
            positive: kind.positive,
            cases: n,
            doc_recall: ratio(true_found, true_total),
            doc_precision: ratio(reported - false_sources, reported),
            false_sources,
            shared_sources,
            pan: (!pan_input.is_empty()).then(|| metrics::pan(&pan_input)),
            attribution: (!attributed.is_empty()).then(|| attributed.iter().sum::<f64>() / attributed.len() as f64),
            check_seconds: seconds,
            suspect_chars: chars,
            dna_recall: ratio(dna_found, true_total),
            dna_false_sources: dna_false,
        },
        outcomes,
    ))
}

/// Sources that the original texts really share text with: reported for an original,
/// and at least half of the 4-character shingles of the matched passages (on the
/// original letters and Han characters, not pinyin; punctuation and spaces dropped)
/// also occur in the source's passages; independent of the fingerprints. (8-character
/// shingles, the data README's overlap measure, called a stock passage with its names
/// swapped, 王庆 for 武松, not shared: one changed name breaks 8 of them.)
fn verified_shared(corpus: &Corpus, check: &CheckOptions, originals: &[String]) -> Result<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for text in originals {
        let report = corpus.check_text("original", text, check)?;
        for s in report.sources {
            let Some(source) = corpus.text(s.id)? else { continue };
            let pick = |t: &str, ranges: Vec<(usize, usize)>| -> String {
                let chars: Vec<char> = t.chars().collect();
                ranges.iter().flat_map(|&(a, b)| chars[a..b].iter()).filter(|c| c.is_alphanumeric()).collect()
            };
            let ours = pick(text, s.passages.iter().map(|p| (p.suspect_start, p.suspect_end)).collect());
            let theirs = pick(&source, s.passages.iter().map(|p| (p.source_start, p.source_end)).collect());
            if shingle_containment(&ours, &theirs, 4) >= 0.5 {
                out.insert(s.path);
            }
        }
    }
    Ok(out)
}

/// Share of the `n`-character shingles of `a` that occur in `b`.
pub fn shingle_containment(a: &str, b: &str, n: usize) -> f64 {
    let shingles = |t: &str| -> HashSet<Vec<char>> {
        let chars: Vec<char> = t.chars().collect();
        chars.windows(n).map(|w| w.to_vec()).collect()
    };
    let (sa, sb) = (shingles(a), shingles(b));
    if sa.is_empty() {
        return 0.0;
    }
    sa.iter().filter(|s| sb.contains(*s)).count() as f64 / sa.len() as f64
}

/// Pooled over the positive kinds (recall, precision) and all kinds (false sources).
fn overall(kinds: &[KindResult]) -> KindResult {
    let pos: Vec<&KindResult> = kinds.iter().filter(|k| k.positive).collect();
    let cases: usize = pos.iter().map(|k| k.cases).sum();
    let weighted = |f: fn(&KindResult) -> f64| {
        if cases == 0 { 0.0 } else { pos.iter().map(|k| f(k) * k.cases as f64).sum::<f64>() / cases as f64 }
    };
    KindResult {
        kind: "overall",
        positive: true,
        cases: kinds.iter().map(|k| k.cases).sum(),
        doc_recall: weighted(|k| k.doc_recall),
        doc_precision: weighted(|k| k.doc_precision),
        false_sources: kinds.iter().map(|k| k.false_sources).sum(),
        shared_sources: kinds.iter().map(|k| k.shared_sources).sum(),
        pan: None,
        attribution: None,
        // Throughput over the text kinds: OCR's seconds a page would hide it.
        check_seconds: kinds.iter().filter(|k| !is_ocr_kind(k.kind)).map(|k| k.check_seconds).sum(),
        suspect_chars: kinds.iter().filter(|k| !is_ocr_kind(k.kind)).map(|k| k.suspect_chars).sum(),
        dna_recall: weighted(|k| k.dna_recall),
        dna_false_sources: kinds.iter().map(|k| k.dna_false_sources).sum(),
    }
}

/// The report as a Markdown table (what the README shows).
pub fn render(r: &EvalReport) -> String {
    let mut out = format!(
        "corpus: {} documents, {} windows, imported in {:.1} s; window {}, step {}, ngram {}, k {}, min passage {}\n\n",
        r.corpus_documents,
        r.corpus_windows,
        r.import_seconds,
        r.params.window,
        r.params.step,
        r.params.ngram,
        r.check.max_distance,
        r.check.min_passage_chars
    );
    out += "| kind | cases | doc recall | doc precision | false sources | shared text | attributed | char precision | char recall | granularity | plagdet | check MB/s |\n";
    out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for k in r.kinds.iter().chain(std::iter::once(&r.overall)) {
        // Suspects read by OCR take seconds a case: their time in those units.
        let rate = if is_ocr_kind(k.kind) {
            format!("{:.1} s a case", k.check_seconds / k.cases.max(1) as f64)
        } else {
            format!("{:.1}", k.suspect_chars as f64 * 3.0 / 1e6 / k.check_seconds.max(1e-9))
        };
        let pan = |f: fn(&PanScores) -> f64| k.pan.as_ref().map_or("".into(), |p| format!("{:.3}", f(p)));
        let (rec, prec) = if k.positive {
            (format!("{:.3}", k.doc_recall), format!("{:.3}", k.doc_precision))
        } else {
            ("".into(), "".into())
        };
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            k.kind,
            k.cases,
            rec,
            prec,
            k.false_sources,
            k.shared_sources,
            k.attribution.map_or(String::new(), |a| format!("{a:.3}")),
            pan(|p| p.precision),
            pan(|p| p.recall),
            pan(|p| p.granularity),
            pan(|p| p.plagdet),
            rate
        );
    }
    out += &format!(
        "\nBaseline, the DNA fingerprint (letter frequencies of {}-letter windows minus the corpus's, cosine ≥ {}, {} windows a document) on the same suspects:\n\n",
        dna::WINDOW,
        dna::MIN_COSINE,
        dna::MIN_WINDOWS
    );
    out +=
        "| kind | cases | doc recall: Zhiwen | DNA | false sources: Zhiwen | DNA |\n|---|---:|---:|---:|---:|---:|\n";
    for k in r.kinds.iter().chain(std::iter::once(&r.overall)) {
        let recall = |v: f64| if k.positive { format!("{v:.3}") } else { String::new() };
        out += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            k.kind,
            k.cases,
            recall(k.doc_recall),
            recall(k.dna_recall),
            k.false_sources,
            k.dna_false_sources
        );
    }
    if !r.real.is_empty() {
        out += "\nReal data:\n\n";
        for x in &r.real {
            out += &format!("- **{}**: {}\n", x.name, x.summary);
        }
    }
    for n in &r.notes {
        out += &format!("\nnote: {n}");
    }
    out + "\n"
}
