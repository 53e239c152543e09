//! Scanned PDFs: pages with no text layer are images, read by OCR ([`super::ocr`]).
//!
//! Each page's image XObjects are decoded: JPEG (`DCTDecode`, what scanners write) by the
//! image crate; Flate-compressed or raw 8-bit grey or RGB samples, and 1-bit bilevel
//! scans, from their samples. JPEG 2000, JBIG2 and CCITT fax images are refused by name.

use pdf_extract::{Document, Object};

/// Images smaller than this on either side are ornaments, not pages of text.
const MIN_SIDE: i64 = 32;

/// The text of every page image of `doc`, page by page, and how many images were read.
pub fn scanned_text(doc: &Document) -> Result<(String, u32), String> {
    let mut text = String::new();
    let mut read = 0u32;
    let mut refused: Option<String> = None;
    for picture in page_pictures(doc) {
        let picture = match picture {
            Ok(picture) => picture,
            Err(why) => {
                refused.get_or_insert(why);
                continue;
            }
        };
        text.push_str(&super::ocr::shared()?.text(&picture)?);
        text.push('\n');
        read += 1;
    }
    if read == 0
        && let Some(why) = refused
    {
        return Err(format!("the PDF has no text and its page images cannot be read ({why})"));
    }
    Ok((text, read))
}

/// The page images of `doc` big enough to hold text, page by page, each decoded when it is
/// reached (a scanned book's pages would not fit in memory at once), or why it cannot be.
pub fn page_pictures(doc: &Document) -> impl Iterator<Item = Result<image::RgbImage, String>> + '_ {
    doc.get_pages().into_values().flat_map(move |page| {
        let images = doc.get_page_images(page).unwrap_or_default();
        images
            .into_iter()
            .filter(|image| image.width >= MIN_SIDE && image.height >= MIN_SIDE)
            .map(move |image| page_image(doc, &image))
    })
}

fn page_image(doc: &Document, image: &pdf_extract::xobject::PdfImage) -> Result<image::RgbImage, String> {
    let filters = image.filters.clone().unwrap_or_default();
    let stream =
        doc.get_object(image.id).and_then(Object::as_stream).map_err(|_| "a page image is not a stream".to_string())?;
    if filters.iter().any(|f| f == "DCTDecode") {
        // The JPEG is the stream's bytes once any outer filter (rarely Flate) is undone.
        let jpeg = if filters.len() == 1 {
            stream.content.clone()
        } else {
            let mut outer = stream.clone();
            outer.dict.set("Filter", Object::Name(b"FlateDecode".to_vec()));
            outer.decompressed_content().map_err(|e| format!("damaged page image ({e})"))?
        };
        return super::ocr::decode_image(&jpeg);
    }
    if let Some(other) = filters.iter().find(|f| !matches!(f.as_str(), "FlateDecode" | "Fl")) {
        let named = match other.as_str() {
            "JPXDecode" => "JPEG 2000",
            "JBIG2Decode" => "JBIG2",
            "CCITTFaxDecode" => "CCITT fax",
            _ => other.as_str(),
        };
        return Err(format!("page images in {named} are not supported"));
    }
    let samples = if filters.is_empty() {
        stream.content.clone()
    } else {
        stream.decompressed_content().map_err(|e| format!("damaged page image ({e})"))?
    };
    let (w, h) = (image.width as u32, image.height as u32);
    let bits = image.bits_per_component.unwrap_or(8);
    let channels = match image.color_space.as_deref() {
        Some("DeviceRGB") => 3,
        Some("DeviceGray") | None => 1,
        Some(other) => return Err(format!("page images in the colour space {other} are not supported")),
    };
    let pixel_bytes = |row_bytes: usize| row_bytes * h as usize;
    match (bits, channels) {
        (8, _) => {
            if samples.len() < pixel_bytes(w as usize * channels) {
                return Err("damaged page image (too few samples)".into());
            }
            Ok(image::RgbImage::from_fn(w, h, |x, y| {
                let at = (y as usize * w as usize + x as usize) * channels;
                if channels == 3 {
                    image::Rgb([samples[at], samples[at + 1], samples[at + 2]])
                } else {
                    image::Rgb([samples[at]; 3])
                }
            }))
        }
        (1, 1) => {
            let row = (w as usize).div_ceil(8);
            if samples.len() < pixel_bytes(row) {
                return Err("damaged page image (too few samples)".into());
            }
            // 1 is white unless the image's /Decode array says [1 0].
            let inverted = image.origin_dict.get(b"Decode").and_then(Object::as_array).is_ok_and(|d| {
                matches!(d.first(), Some(Object::Integer(1))) || matches!(d.first(), Some(Object::Real(v)) if *v == 1.0)
            });
            Ok(image::RgbImage::from_fn(w, h, |x, y| {
                let bit = samples[y as usize * row + x as usize / 8] >> (7 - x % 8) & 1;
                let white = (bit == 1) != inverted;
                image::Rgb([if white { 255 } else { 0 }; 3])
            }))
        }
        _ => Err(format!("page images of {bits} bits per sample are not supported")),
    }
}
