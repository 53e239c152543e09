//! Text detection: PP-OCRv4's DB model gives each pixel a probability of being text;
//! pixels over [`PIXEL_THRESHOLD`] are grouped into regions, each region becomes the
//! smallest rotated rectangle around it, kept when the model is sure enough of it
//! ([`BOX_THRESHOLD`]) and grown by [`UNCLIP_RATIO`] (the model is trained on shrunk
//! lines). The post-processing follows PaddleOCR's `DBPostProcess`.

use rten::Model;
use rten_tensor::NdTensor;
use rten_tensor::prelude::*;

const PIXEL_THRESHOLD: f32 = 0.3;
const BOX_THRESHOLD: f32 = 0.5;
const UNCLIP_RATIO: f32 = 1.6;
/// The shorter side is scaled up to at least this (PaddleOCR's `limit_side_len`, type min).
const MIN_SIDE: u32 = 736;
/// And the longer side down to at most this, which bounds the work on huge scans.
const MAX_SIDE: u32 = 2560;
const MAX_REGIONS: usize = 1000;

pub type Point = (f32, f32);
/// Corners of a text line in image pixels: top-left, top-right, bottom-right, bottom-left.
pub type Quad = [Point; 4];

/// The text lines of an image, in reading order.
pub fn text_boxes(model: &Model, image: &image::RgbImage) -> Result<Vec<Quad>, String> {
    let (width, height) = image.dimensions();
    if width < 4 || height < 4 {
        return Ok(Vec::new());
    }
    let mut scale = 1.0f32;
    if width.min(height) < MIN_SIDE {
        scale = MIN_SIDE as f32 / width.min(height) as f32;
    }
    if width.max(height) as f32 * scale > MAX_SIDE as f32 {
        scale = MAX_SIDE as f32 / width.max(height) as f32;
    }
    let round32 = |v: f32| (((v / 32.0).round() as u32) * 32).max(32);
    let (net_w, net_h) = (round32(width as f32 * scale), round32(height as f32 * scale));
    let resized = image::imageops::resize(image, net_w, net_h, image::imageops::FilterType::Triangle);

    // (x / 255 - 0.5) / 0.5, channels in BGR order as PaddleOCR trains with OpenCV's images.
    let (w, h) = (net_w as usize, net_h as usize);
    let mut input = vec![0f32; 3 * w * h];
    for (x, y, pixel) in resized.enumerate_pixels() {
        let at = y as usize * w + x as usize;
        for (channel, value) in [pixel[2], pixel[1], pixel[0]].into_iter().enumerate() {
            input[channel * w * h + at] = value as f32 / 127.5 - 1.0;
        }
    }
    let input = NdTensor::from_data([1, 3, h, w], input);
    let output = model.run_one(input.view().into(), None).map_err(|e| format!("text detection failed: {e}"))?;
    let map: NdTensor<f32, 4> = output.try_into().map_err(|e| format!("text detection gave no map: {e:?}"))?;
    let [_, _, map_h, map_w] = map.shape();
    let probabilities = map.to_vec();

    let to_image = (width as f32 / map_w as f32, height as f32 / map_h as f32);
    let mut quads: Vec<Quad> = regions(&probabilities, map_w, map_h)
        .into_iter()
        .take(MAX_REGIONS)
        .filter_map(|points| {
            let hull = convex_hull(&points);
            let rect = min_area_rect(&hull);
            if short_side(&rect) < 3.0 || mean_inside(&probabilities, map_w, map_h, &rect) < BOX_THRESHOLD {
                return None;
            }
            let grown = unclip(&rect);
            if short_side(&grown) < 5.0 {
                return None;
            }
            let corners = ordered(&grown);
            Some(corners.map(|(x, y)| {
                ((x * to_image.0).clamp(0.0, width as f32 - 1.0), (y * to_image.1).clamp(0.0, height as f32 - 1.0))
            }))
        })
        .collect();
    reading_order(&mut quads);
    Ok(quads)
}

/// Regions of the thresholded map, dilated by a 2×2 square as PaddleOCR does, 8-connected.
/// Each region is given by the leftmost and rightmost pixel of each of its rows (enough for
/// its convex hull), as pixel-corner points.
fn regions(probabilities: &[f32], w: usize, h: usize) -> Vec<Vec<Point>> {
    let on = |x: usize, y: usize| probabilities[y * w + x] > PIXEL_THRESHOLD;
    let mut mask = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            // 2×2 dilation: a pixel is set when it or its left, upper or upper-left neighbour is.
            mask[y * w + x] =
                on(x, y) || (x > 0 && on(x - 1, y)) || (y > 0 && on(x, y - 1)) || (x > 0 && y > 0 && on(x - 1, y - 1));
        }
    }
    let mut label = vec![0u32; w * h];
    let mut regions = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        if !mask[start] || label[start] != 0 {
            continue;
        }
        let id = regions.len() as u32 + 1;
        // Per row: (min x, max x).
        let mut rows: std::collections::BTreeMap<usize, (usize, usize)> = Default::default();
        label[start] = id;
        stack.push(start);
        while let Some(at) = stack.pop() {
            let (x, y) = (at % w, at / w);
            let row = rows.entry(y).or_insert((x, x));
            row.0 = row.0.min(x);
            row.1 = row.1.max(x);
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        continue;
                    }
                    let next = ny as usize * w + nx as usize;
                    if mask[next] && label[next] == 0 {
                        label[next] = id;
                        stack.push(next);
                    }
                }
            }
        }
        let mut points = Vec::with_capacity(rows.len() * 4);
        for (y, (x0, x1)) in rows {
            let (y, x0, x1) = (y as f32, x0 as f32, x1 as f32);
            points.extend([(x0, y), (x0, y + 1.0), (x1 + 1.0, y), (x1 + 1.0, y + 1.0)]);
        }
        regions.push(points);
    }
    regions
}

/// Andrew's monotone chain; counter-clockwise in image coordinates (y down).
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Point, a: Point, b: Point| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut hull: Vec<Point> = Vec::with_capacity(pts.len() * 2);
    for pass in [pts.clone(), pts.iter().rev().copied().collect()] {
        let base = hull.len();
        for p in pass {
            while hull.len() >= base + 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// The smallest-area rectangle around a convex polygon (one of its sides lies on a hull
/// edge: rotating calipers, tried edge by edge).
pub fn min_area_rect(hull: &[Point]) -> Quad {
    if hull.is_empty() {
        return [(0.0, 0.0); 4];
    }
    let mut best: Option<(f32, Quad)> = None;
    for i in 0..hull.len().max(1) {
        let a = hull[i];
        let b = hull[(i + 1) % hull.len()];
        let (mut ux, mut uy) = (b.0 - a.0, b.1 - a.1);
        let len = (ux * ux + uy * uy).sqrt();
        if len < 1e-6 {
            (ux, uy) = (1.0, 0.0);
        } else {
            (ux, uy) = (ux / len, uy / len);
        }
        let (vx, vy) = (-uy, ux);
        let (mut min_u, mut max_u, mut min_v, mut max_v) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for p in hull {
            let u = p.0 * ux + p.1 * uy;
            let v = p.0 * vx + p.1 * vy;
            min_u = min_u.min(u);
            max_u = max_u.max(u);
            min_v = min_v.min(v);
            max_v = max_v.max(v);
        }
        let area = (max_u - min_u) * (max_v - min_v);
        if best.as_ref().is_none_or(|(a, _)| area < *a) {
            let at = |u: f32, v: f32| (u * ux + v * vx, u * uy + v * vy);
            best = Some((area, [at(min_u, min_v), at(max_u, min_v), at(max_u, max_v), at(min_u, max_v)]));
        }
    }
    best.map(|(_, q)| q).unwrap_or([(0.0, 0.0); 4])
}

fn distance(a: Point, b: Point) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn short_side(rect: &Quad) -> f32 {
    distance(rect[0], rect[1]).min(distance(rect[1], rect[2]))
}

/// Mean probability inside a rectangle of the map (PaddleOCR's "fast" box score).
fn mean_inside(probabilities: &[f32], w: usize, h: usize, rect: &Quad) -> f32 {
    let xs = rect.iter().map(|p| p.0);
    let ys = rect.iter().map(|p| p.1);
    let x0 = xs.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
    let x1 = (xs.fold(f32::MIN, f32::max).ceil() as usize).min(w);
    let y0 = ys.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
    let y1 = (ys.fold(f32::MIN, f32::max).ceil() as usize).min(h);
    let (mut sum, mut n) = (0f32, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            if inside(rect, (x as f32 + 0.5, y as f32 + 0.5)) {
                sum += probabilities[y * w + x];
                n += 1;
            }
        }
    }
    if n == 0 { 0.0 } else { sum / n as f32 }
}

/// Whether a point lies inside a convex quadrilateral (either winding).
fn inside(quad: &Quad, p: Point) -> bool {
    let mut sign = 0f32;
    for i in 0..4 {
        let (a, b) = (quad[i], quad[(i + 1) % 4]);
        let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        if cross != 0.0 {
            if sign != 0.0 && cross.signum() != sign {
                return false;
            }
            sign = cross.signum();
        }
    }
    true
}

/// The rectangle grown on every side by area × ratio / perimeter (what pyclipper's offset
/// does to a rectangle, its rounded corners aside).
fn unclip(rect: &Quad) -> Quad {
    let (a, b) = (distance(rect[0], rect[1]), distance(rect[1], rect[2]));
    let grow = a * b * UNCLIP_RATIO / (2.0 * (a + b)).max(1e-6);
    let centre = ((rect[0].0 + rect[2].0) / 2.0, (rect[0].1 + rect[2].1) / 2.0);
    let unit = |p: Point, q: Point| {
        let d = distance(p, q).max(1e-6);
        ((q.0 - p.0) / d, (q.1 - p.1) / d)
    };
    let u = unit(rect[0], rect[1]);
    let v = unit(rect[1], rect[2]);
    let (hu, hv) = (a / 2.0 + grow, b / 2.0 + grow);
    let at = |su: f32, sv: f32| (centre.0 + su * hu * u.0 + sv * hv * v.0, centre.1 + su * hu * u.1 + sv * hv * v.1);
    [at(-1.0, -1.0), at(1.0, -1.0), at(1.0, 1.0), at(-1.0, 1.0)]
}

/// Corners as top-left, top-right, bottom-right, bottom-left: the two leftmost points are
/// the left side, each side's upper point first.
pub fn ordered(quad: &Quad) -> Quad {
    let mut by_x = *quad;
    by_x.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    let (mut left, mut right) = ([by_x[0], by_x[1]], [by_x[2], by_x[3]]);
    left.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
    right.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(std::cmp::Ordering::Equal));
    [left[0], right[0], right[1], left[1]]
}

/// Top to bottom, and left to right within a line: boxes whose vertical extents overlap by
/// more than half the shorter one's height are on the same line.
pub fn reading_order(quads: &mut Vec<Quad>) {
    let top = |q: &Quad| q.iter().map(|p| p.1).fold(f32::MAX, f32::min);
    let bottom = |q: &Quad| q.iter().map(|p| p.1).fold(f32::MIN, f32::max);
    let left = |q: &Quad| q.iter().map(|p| p.0).fold(f32::MAX, f32::min);
    quads.sort_by(|a, b| top(a).partial_cmp(&top(b)).unwrap_or(std::cmp::Ordering::Equal));
    let mut lines: Vec<Vec<Quad>> = Vec::new();
    for quad in quads.drain(..) {
        let joins = lines.last().is_some_and(|line| {
            let first = &line[0];
            let overlap = bottom(first).min(bottom(&quad)) - top(first).max(top(&quad));
            let shorter = (bottom(first) - top(first)).min(bottom(&quad) - top(&quad));
            overlap > shorter / 2.0
        });
        if joins {
            lines.last_mut().expect("a line").push(quad);
        } else {
            lines.push(vec![quad]);
        }
    }
    for mut line in lines {
        line.sort_by(|a, b| left(a).partial_cmp(&left(b)).unwrap_or(std::cmp::Ordering::Equal));
        quads.extend(line);
    }
}

/// The colour at a point between pixels, from its four neighbours (points outside the
/// image take the nearest edge's).
pub fn bilinear(image: &image::RgbImage, x: f32, y: f32) -> image::Rgb<u8> {
    let (w, h) = image.dimensions();
    let x = x.clamp(0.0, w as f32 - 1.0);
    let y = y.clamp(0.0, h as f32 - 1.0);
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |x, y| image.get_pixel(x, y).0;
    let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    image::Rgb(std::array::from_fn(|i| {
        let top = a[i] as f32 * (1.0 - fx) + b[i] as f32 * fx;
        let low = c[i] as f32 * (1.0 - fx) + d[i] as f32 * fx;
        (top * (1.0 - fy) + low * fy).round() as u8
    }))
}

/// The line's pixels straightened into an upright rectangle (bilinear sampling); a line
/// much taller than wide (vertical writing) is turned a quarter to lie along the x axis.
pub fn straightened_crop(image: &image::RgbImage, quad: &Quad) -> image::RgbImage {
    let [tl, tr, br, bl] = *quad;
    let width = distance(tl, tr).max(distance(bl, br)).round().max(1.0) as u32;
    let height = distance(tl, bl).max(distance(tr, br)).round().max(1.0) as u32;
    let crop = image::RgbImage::from_fn(width, height, |u, v| {
        let (fu, fv) = ((u as f32 + 0.5) / width as f32, (v as f32 + 0.5) / height as f32);
        let x = tl.0 + (tr.0 - tl.0) * fu + (bl.0 - tl.0) * fv;
        let y = tl.1 + (tr.1 - tl.1) * fu + (bl.1 - tl.1) * fv;
        bilinear(image, x, y)
    });
    if height as f32 >= width as f32 * 1.5 { image::imageops::rotate270(&crop) } else { crop }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(q: &Quad) -> f32 {
        distance(q[0], q[1]) * distance(q[1], q[2])
    }

    #[test]
    fn the_smallest_rectangle_around_a_tilted_line_is_tilted_with_it() {
        // A 100×10 bar turned by 30 degrees.
        let (s, c) = (30f32.to_radians().sin(), 30f32.to_radians().cos());
        let corners: Vec<Point> = [(0.0, 0.0), (100.0, 0.0), (100.0, 10.0), (0.0, 10.0)]
            .iter()
            .map(|&(x, y)| (x * c - y * s, x * s + y * c))
            .collect();
        let rect = min_area_rect(&convex_hull(&corners));
        assert!((area(&rect) - 1000.0).abs() < 1.0, "{rect:?}");
        let axis_aligned = {
            let xs = corners.iter().map(|p| p.0);
            let ys = corners.iter().map(|p| p.1);
            (xs.clone().fold(f32::MIN, f32::max) - xs.fold(f32::MAX, f32::min))
                * (ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min))
        };
        assert!(area(&rect) < axis_aligned / 2.0);
        // Grown on every side by area × 1.6 / perimeter = 1000 × 1.6 / 220.
        let grown = unclip(&rect);
        let g = 1000.0 * 1.6 / 220.0;
        assert!((area(&grown) - (100.0 + 2.0 * g) * (10.0 + 2.0 * g)).abs() < 2.0, "{grown:?}");
    }

    #[test]
    fn lines_are_read_top_to_bottom_and_boxes_of_a_line_left_to_right() {
        let bar = |x: f32, y: f32| [(x, y), (x + 50.0, y), (x + 50.0, y + 20.0), (x, y + 20.0)];
        // The right box of the first line sits 3 px higher than its left box.
        let mut quads = vec![bar(0.0, 60.0), bar(100.0, 0.0), bar(0.0, 3.0), bar(100.0, 62.0)];
        reading_order(&mut quads);
        assert_eq!(quads, vec![bar(0.0, 3.0), bar(100.0, 0.0), bar(0.0, 60.0), bar(100.0, 62.0)]);
    }

    #[test]
    fn corners_are_ordered_from_the_top_left_clockwise() {
        let q = [(10.0, 20.0), (0.0, 0.0), (10.0, 0.0), (0.0, 20.0)];
        assert_eq!(ordered(&q), [(0.0, 0.0), (10.0, 0.0), (10.0, 20.0), (0.0, 20.0)]);
    }
}
