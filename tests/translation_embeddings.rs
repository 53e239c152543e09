//! The embedding signal of translated copies (engine/translation/embedding.rs) on the
//! shipped story pairs (tests/fixtures/translation): a Giles translation's sentences align
//! with its own Chinese story's better than with another story's, and an English novel's
//! chapter aligns with none. Needs the e5 model (tools/e5-model); skipped with a printed
//! reason where it is missing.

use crate::util::fixtures;
use zhiwen::engine::translation::embedding::{self, Embedding, Encoder};

fn encoder() -> Option<&'static Encoder> {
    match Encoder::shared() {
        Ok(encoder) => Some(encoder),
        Err(_) => {
            eprintln!("skipped: {}", embedding::NOT_INSTALLED);
            None
        }
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(fixtures().join("translation").join(path)).unwrap()
}

fn english(encoder: &Encoder, path: &str) -> Vec<Embedding> {
    let sentences = embedding::english_sentences(&read(path));
    let texts: Vec<&str> = sentences.iter().map(String::as_str).take(200).collect();
    encoder.embed(&texts, true)
}

fn chinese(encoder: &Encoder, story: &str) -> Vec<Embedding> {
    let sentences = embedding::chinese_sentences(&read(&format!("zh/{story}.txt")));
    let texts: Vec<&str> = sentences.iter().map(String::as_str).collect();
    encoder.embed(&texts, true)
}

const STORIES: [&str; 4] = ["064", "122", "138", "312"];

#[test]
fn a_giles_translation_aligns_with_its_own_story_more_than_with_others_and_a_novel_with_none() {
    let Some(encoder) = encoder() else { return };
    let zh: Vec<Vec<Embedding>> = STORIES.iter().map(|s| chinese(encoder, s)).collect();
    let mut lowest_own = f64::MAX;
    for (i, story) in STORIES.iter().enumerate() {
        let en = english(encoder, &format!("en/giles_{story}.txt"));
        let scores: Vec<f64> = zh.iter().map(|z| embedding::pair_score(&en, z).monotone_fraction).collect();
        for (j, other) in STORIES.iter().enumerate().filter(|&(j, _)| j != i) {
            assert!(scores[i] > scores[j], "giles_{story}: its story {} <= story {other} {}", scores[i], scores[j]);
        }
        lowest_own = lowest_own.min(scores[i]);
    }
    let dracula = english(encoder, "en/dracula_001.txt");
    for (z, story) in zh.iter().zip(STORIES) {
        let score = embedding::pair_score(&dracula, z).monotone_fraction;
        assert!(score < lowest_own, "dracula against {story}: {score} >= {lowest_own}");
        assert!(score < embedding::TRANSLATION, "dracula against {story}: {score}");
    }
}

#[test]
fn the_same_sentence_embeds_the_same_alone_and_in_a_batch_on_any_thread() {
    let Some(encoder) = encoder() else { return };
    let texts = ["The scholar Chu Erh-tan was a man of very dull intellect.", "朱尔旦，字小明，陵阳人。"];
    let together = encoder.embed(&texts, true);
    for (text, batched) in texts.iter().zip(&together) {
        let alone = &encoder.embed(&[text], true)[0];
        let norm: f32 = alone.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-3, "not unit length: {norm}");
        let cos: f32 = alone.iter().zip(batched).map(|(a, b)| a * b).sum();
        assert!(cos > 0.999, "{text}: {cos}");
    }
    // A translation pair is closer than two unrelated sentences.
    let cos = |a: &Embedding, b: &Embedding| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
    let other = &encoder.embed(&["The weather in London was cold and wet all week."], true)[0];
    assert!(cos(&together[0], &together[1]) > cos(&together[1], other));
}
