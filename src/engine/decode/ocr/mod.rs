//! Text in images: PaddleOCR's PP-OCRv4 models (Apache-2.0), detection then recognition,
//! run on the CPU by `rten`, a pure-Rust ONNX runtime.
//!
//! [`detect`] finds the text lines of an image (a probability map of "text here",
//! thresholded into regions, each turned into the smallest rotated rectangle around it);
//! [`recognize`] reads each line, straightened and scaled to the model's height, with a
//! greedy CTC decode over the model's own alphabet (6,623 characters, read from the
//! model's metadata). Lines the recognizer is unsure of are dropped rather than guessed.
//!
//! The models are not downloaded at run time: `tools/ocr-models` takes them from the
//! `rapidocr-onnxruntime` package on PyPI (sha256-pinned) into a folder
//! [`models_dir`] finds; packages ship them. Without them, images are refused with one
//! message saying so.

mod detect;
mod recognize;

pub use detect::bilinear;

use rten::Model;
use std::path::PathBuf;
use std::sync::OnceLock;

/// File names of the two models, as `rapidocr-onnxruntime` ships them.
pub const DETECTION_MODEL: &str = "ch_PP-OCRv4_det_infer.onnx";
pub const RECOGNITION_MODEL: &str = "ch_PP-OCRv4_rec_infer.onnx";

/// Images larger than this many pixels are refused: a decoded 60-megapixel page is
/// 180 MB of RGB, and no page of text needs more.
const MAX_PIXELS: u64 = 60_000_000;

/// Tall pictures are read in strips this tall (or as tall as the picture is wide)...
const STRIP_HEIGHT: u32 = 1600;
/// ... each with this much of the picture above and below it, more than any line is tall.
const STRIP_OVERLAP: u32 = 240;

/// A picture is taken for a page of text from this many letters read on (fewer: an
/// ornament, a logo, a title).
pub const MIN_PAGE_LETTERS: usize = 20;

/// One line of text read from an image.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    /// Mean probability of the characters kept, 0–1.
    pub confidence: f32,
}

/// The two loaded models and the recognizer's alphabet.
pub struct Ocr {
    detector: Model,
    recognizer: Model,
    /// Index 0 of the recognizer's output is CTC's blank; index i ≥ 1 is `alphabet[i - 1]`.
    alphabet: Vec<String>,
}

impl Ocr {
    /// Loads both models from `dir`.
    pub fn load(dir: &std::path::Path) -> Result<Ocr, String> {
        let load = |name: &str| {
            let path = dir.join(name);
            Model::load_file(&path).map_err(|e| format!("cannot load the OCR model {}: {e}", path.display()))
        };
        let detector = load(DETECTION_MODEL)?;
        let recognizer = load(RECOGNITION_MODEL)?;
        // PaddleOCR's exporter stores the dictionary in the model, one character a line;
        // its decoder then adds a space as the last class.
        let dictionary = recognizer
            .metadata()
            .get("character")
            .ok_or_else(|| format!("the OCR model {RECOGNITION_MODEL} carries no character list"))?;
        let mut alphabet: Vec<String> = dictionary.lines().map(str::to_string).collect();
        alphabet.push(" ".to_string());
        Ok(Ocr { detector, recognizer, alphabet })
    }

    /// The lines of text in an image, in reading order. A picture much taller than wide (a
    /// chapter posted as one "long picture") is read in strips, so its text is not shrunk to
    /// fit the detector: each strip is read with a margin above and below it taller than
    /// any line, and keeps the lines whose top edge lies in it.
    pub fn read(&self, image: &image::RgbImage) -> Result<Vec<Line>, String> {
        let (width, height) = image.dimensions();
        let strip = width.max(STRIP_HEIGHT);
        if height <= strip + STRIP_OVERLAP {
            return self.read_strip(image, 0.0..f32::MAX);
        }
        let mut lines = Vec::new();
        let mut top = 0;
        while top < height {
            let start = top.saturating_sub(STRIP_OVERLAP);
            let end = (top + strip + STRIP_OVERLAP).min(height);
            let part = image::imageops::crop_imm(image, 0, start, width, end - start).to_image();
            let first = (top - start) as f32;
            let keep = if end == height { first..f32::MAX } else { first..first + strip as f32 };
            lines.extend(self.read_strip(&part, keep)?);
            if end == height {
                break;
            }
            top += strip;
        }
        Ok(lines)
    }

    /// What each picture of one line of text reads as, in order.
    pub fn recognize(&self, lines: &[image::RgbImage]) -> Result<Vec<Line>, String> {
        recognize::read_lines(&self.recognizer, &self.alphabet, lines)
    }

    /// The lines of `image` whose top edge lies in `tops`.
    fn read_strip(&self, image: &image::RgbImage, tops: std::ops::Range<f32>) -> Result<Vec<Line>, String> {
        let boxes = detect::text_boxes(&self.detector, image)?;
        let crops: Vec<image::RgbImage> = boxes
            .iter()
            .filter(|quad| tops.contains(&quad.iter().map(|p| p.1).fold(f32::MAX, f32::min)))
            .map(|quad| detect::straightened_crop(image, quad))
            .collect();
        recognize::read_lines(&self.recognizer, &self.alphabet, &crops)
    }

    /// The text of an image: its lines, one per line, the doubtful ones dropped.
    pub fn text(&self, image: &image::RgbImage) -> Result<String, String> {
        let mut text = String::new();
        for line in self.read(image)? {
            if line.confidence >= recognize::MIN_CONFIDENCE && !line.text.trim().is_empty() {
                text.push_str(line.text.trim());
                text.push('\n');
            }
        }
        Ok(text)
    }
}

/// Where the models are looked for, first found wins: `$ZHIWEN_OCR_MODELS`, then `ocr` in the
/// places of [`crate::engine::installed_dirs`] (beside the executable, `../share/zhiwen/ocr`,
/// `~/.local/share/zhiwen/ocr`, where `tools/ocr-models` puts them).
pub fn model_dirs() -> Vec<PathBuf> {
    crate::engine::installed_dirs("ZHIWEN_OCR_MODELS", "ocr")
}

/// The first of [`model_dirs`] that holds both models.
pub fn models_dir() -> Option<PathBuf> {
    model_dirs().into_iter().find(|dir| dir.join(DETECTION_MODEL).is_file() && dir.join(RECOGNITION_MODEL).is_file())
}

/// The models, loaded once per process; an error (the same each time) when they are missing.
pub fn shared() -> Result<&'static Ocr, String> {
    static OCR: OnceLock<Result<Ocr, String>> = OnceLock::new();
    OCR.get_or_init(|| match models_dir() {
        // Loaded on a thread of its own, inside rten's thread pool: rten loads with rayon, and
        // a rayon worker of ours waiting on it could take on another file's decoding, ask for
        // the models again and wait on itself (a deadlock seen importing a folder of pictures).
        Some(dir) => std::thread::scope(|s| s.spawn(|| rten::thread_pool().run(|| Ocr::load(&dir))).join())
            .unwrap_or_else(|_| Err("the OCR models could not be loaded (the loader failed)".to_string())),
        None => Err("the OCR models are not installed (run tools/ocr-models, or see the README, \"Text in images\")"
            .to_string()),
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Whether the bytes are an image format Zhiwen reads (PNG, JPEG, WebP, GIF, BMP, TIFF).
pub fn is_image(bytes: &[u8]) -> bool {
    matches!(
        image::guess_format(bytes),
        Ok(image::ImageFormat::Png
            | image::ImageFormat::Jpeg
            | image::ImageFormat::WebP
            | image::ImageFormat::Gif
            | image::ImageFormat::Bmp
            | image::ImageFormat::Tiff)
    )
}

/// Decodes an image (a GIF's first frame) to RGB, transparent parts on white (text drawn
/// on a transparent background is usually dark).
pub fn decode_image(bytes: &[u8]) -> Result<image::RgbImage, String> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("cannot read the image: {e}"))?;
    let (width, height) = reader.into_dimensions().map_err(|e| format!("damaged image ({e})"))?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "the image is {width}×{height} pixels, over the {} megapixel limit",
            MAX_PIXELS / 1_000_000
        ));
    }
    let image = image::load_from_memory(bytes).map_err(|e| format!("damaged image ({e})"))?;
    Ok(on_white(image))
}

/// An image with any transparency composited over white.
pub fn on_white(image: image::DynamicImage) -> image::RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    image::RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over = |c: u8| ((u32::from(c) * u32::from(a) + 255 * (255 - u32::from(a))) / 255) as u8;
        image::Rgb([over(r), over(g), over(b)])
    })
}

/// The text of an image file's bytes, read with the shared models.
pub fn image_text(bytes: &[u8]) -> Result<String, String> {
    let image = decode_image(bytes)?;
    shared()?.text(&image)
}
