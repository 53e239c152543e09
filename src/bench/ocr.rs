//! `zhiwen bench --only ocr`: pages drawn from corpus chapters (every 7th of the first 70
//! of five novels, one page each, as `tools/ocr_accuracy.py` renders them) read by OCR,
//! clean and as noisy scans: pages a minute, characters right, peak memory.

use crate::engine::decode::{decode_bytes, ocr};
use crate::eval::metrics::char_accuracy;
use crate::eval::pages;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

const WORKS: [&str; 5] = ["hongloumeng", "rulinwaishi", "guanchangxianxingji", "ershinianmudu", "liaozhaizhiyi"];

pub fn ocr_bench(data: &Path, emit: &dyn Fn(serde_json::Value)) -> crate::Result<()> {
    if ocr::models_dir().is_none() {
        emit(json!({"bench": "ocr", "skipped": "the OCR models are not installed (tools/ocr-models)"}));
        return Ok(());
    }
    let Some(font) = pages::font() else {
        emit(json!({"bench": "ocr", "skipped": "no CJK font to draw pages with"}));
        return Ok(());
    };
    let mut chapters = Vec::new();
    for work in WORKS {
        let mut files: Vec<_> = std::fs::read_dir(data.join("zh-classics").join(work))
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        chapters.extend(files.into_iter().step_by(7).take(10));
    }
    // Loaded before timing: a process loads them once.
    let started = Instant::now();
    if let Err(why) = ocr::shared() {
        emit(json!({"bench": "ocr", "skipped": why}));
        return Ok(());
    }
    let load_seconds = started.elapsed().as_secs_f64();
    let mut rng = fastrand::Rng::with_seed(7);
    for (condition, style, jpeg) in [
        ("clean-28px", pages::Style { size: 28.0, width: 1000, height: 1400, rotate: 0.0, noise: 0.0 }, None),
        ("scanned-24px", pages::Style { size: 24.0, width: 1000, height: 1400, rotate: 2.0, noise: 12.0 }, Some(60)),
    ] {
        let (mut seconds, mut right, mut total, mut count) = (0.0, 0.0, 0, 0);
        for chapter in &chapters {
            let Ok(text) = std::fs::read_to_string(chapter) else { continue };
            // The first page, and the text drawn on it.
            let page = pages::render(&text, &font, style, &mut rng).remove(0);
            let drawn = pages::page_text(&text, &font, style);
            let bytes = match jpeg {
                Some(q) => pages::jpeg(&page, q),
                None => pages::png(&page),
            };
            let name = if jpeg.is_some() { "page.jpg" } else { "page.png" };
            let started = Instant::now();
            let read = decode_bytes(Path::new(name), &bytes).map(|d| d.text).unwrap_or_default();
            seconds += started.elapsed().as_secs_f64();
            // Pooled over pages: each page's accuracy weighted by its characters.
            let chars = drawn.chars().filter(|c| !c.is_whitespace()).count();
            right += char_accuracy(&read, &drawn) * chars as f64;
            total += chars;
            count += 1;
        }
        emit(json!({
            "bench": "ocr", "condition": condition, "pages": count, "characters": total,
            "accuracy": right / total.max(1) as f64,
            "seconds": seconds, "pages_per_minute": count as f64 * 60.0 / seconds.max(1e-9),
            "model_load_seconds": load_seconds, "peak_rss_mb": super::peak_rss() as f64 / 1e6,
        }));
    }
    Ok(())
}
