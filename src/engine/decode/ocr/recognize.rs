//! Text recognition: each straightened line scaled to the model's height of 48 pixels,
//! lines of similar width batched together, and the model's per-step character
//! probabilities decoded greedily (CTC: the most likely class at each step, repeats
//! merged, blanks dropped).

use super::Line;
use rten::Model;
use rten_tensor::NdTensor;
use rten_tensor::prelude::*;

const HEIGHT: u32 = 48;
/// Lines narrower than this are padded to it (PaddleOCR's `rec_img_shape`).
const MIN_WIDTH: u32 = 320;
/// A line wider than this (relative to its height) is cut short: no page line is longer.
const MAX_WIDTH: u32 = 48 * 64;
const BATCH: usize = 6;
/// Lines whose characters the model is less sure of than this on average are dropped:
/// below it they are mostly noise and pictures read as text.
pub const MIN_CONFIDENCE: f32 = 0.5;

/// Reads each crop; the result has one line per crop, in order.
pub fn read_lines(model: &Model, alphabet: &[String], crops: &[image::RgbImage]) -> Result<Vec<Line>, String> {
    let width_of = |crop: &image::RgbImage| {
        let (w, h) = crop.dimensions();
        ((HEIGHT as f32 * w as f32 / h.max(1) as f32).ceil() as u32).clamp(1, MAX_WIDTH)
    };
    // Lines of similar width together, so little of a batch is padding.
    let mut order: Vec<usize> = (0..crops.len()).collect();
    order.sort_by_key(|&i| width_of(&crops[i]));
    let mut lines = vec![Line { text: String::new(), confidence: 0.0 }; crops.len()];
    for batch in order.chunks(BATCH) {
        let widest = batch.iter().map(|&i| width_of(&crops[i])).max().unwrap_or(1).max(MIN_WIDTH);
        let (h, w) = (HEIGHT as usize, widest as usize);
        // Padding is 0, mid-grey after normalisation, as in PaddleOCR.
        let mut input = vec![0f32; batch.len() * 3 * h * w];
        for (slot, &i) in batch.iter().enumerate() {
            let scaled =
                image::imageops::resize(&crops[i], width_of(&crops[i]), HEIGHT, image::imageops::FilterType::Triangle);
            let base = slot * 3 * h * w;
            for (x, y, pixel) in scaled.enumerate_pixels() {
                let at = y as usize * w + x as usize;
                for (channel, value) in [pixel[2], pixel[1], pixel[0]].into_iter().enumerate() {
                    input[base + channel * h * w + at] = value as f32 / 127.5 - 1.0;
                }
            }
        }
        let input = NdTensor::from_data([batch.len(), 3, h, w], input);
        let output = model.run_one(input.view().into(), None).map_err(|e| format!("text recognition failed: {e}"))?;
        let steps: NdTensor<f32, 3> =
            output.try_into().map_err(|e| format!("text recognition gave no probabilities: {e:?}"))?;
        for (slot, &i) in batch.iter().enumerate() {
            lines[i] = greedy_ctc(steps.slice(slot), alphabet);
        }
    }
    Ok(lines)
}

/// The text of one line from its [steps × classes] probabilities; class 0 is the blank.
fn greedy_ctc(steps: rten_tensor::NdTensorView<f32, 2>, alphabet: &[String]) -> Line {
    let mut text = String::new();
    let (mut sum, mut kept) = (0f32, 0u32);
    let mut previous = 0usize;
    for step in 0..steps.size(0) {
        let row = steps.slice(step);
        let (mut best, mut best_p) = (0usize, f32::MIN);
        for (class, &p) in row.iter().enumerate() {
            if p > best_p {
                (best, best_p) = (class, p);
            }
        }
        if best != 0
            && best != previous
            && let Some(ch) = alphabet.get(best - 1)
        {
            text.push_str(ch);
            sum += best_p;
            kept += 1;
        }
        previous = best;
    }
    Line { text, confidence: if kept == 0 { 0.0 } else { sum / kept as f32 } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_ctc_merges_repeats_and_drops_blanks() {
        let alphabet: Vec<String> = ["天", "下", " "].iter().map(|s| s.to_string()).collect();
        // Steps: 天 天 blank 下 blank 下 — "天下下" (a blank separates a real repeat).
        let classes = [1, 1, 0, 2, 0, 2];
        let mut data = vec![0.0f32; classes.len() * 4];
        for (step, &c) in classes.iter().enumerate() {
            data[step * 4 + c] = 0.9;
        }
        let steps = NdTensor::from_data([classes.len(), 4], data);
        let line = greedy_ctc(steps.view(), &alphabet);
        assert_eq!(line.text, "天下下");
        assert!((line.confidence - 0.9).abs() < 1e-6);
    }
}
