//! Chinese text on card faces. OpenCV's putText only has Hershey (Latin) fonts, so glyphs are
//! rasterised with `ab_glyph`, which is pure Rust and reads one face out of a .ttc collection.

use crate::VisionError;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use opencv::core::Mat;
use opencv::prelude::*;
use std::sync::OnceLock;

/// Debian's fonts-noto-cjk; face 2 of the collection is Simplified Chinese.
const DEFAULT_FONT: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
const DEFAULT_FACE: u32 = 2;

static FONT_BYTES: OnceLock<Result<&'static [u8], String>> = OnceLock::new();

fn font() -> Result<FontRef<'static>, VisionError> {
    let bytes = FONT_BYTES.get_or_init(|| {
        let path = std::env::var("ARBITER_CJK_FONT").unwrap_or_else(|_| DEFAULT_FONT.to_string());
        std::fs::read(&path)
            .map(|b| &*Box::leak(b.into_boxed_slice()))
            .map_err(|e| format!("{path}: {e} (install fonts-noto-cjk or set ARBITER_CJK_FONT)"))
    });
    let bytes = bytes.clone().map_err(VisionError::Font)?;
    let face = if std::env::var("ARBITER_CJK_FONT").is_ok() {
        0
    } else {
        DEFAULT_FACE
    };
    FontRef::try_from_slice_and_index(bytes, face).map_err(|e| VisionError::Font(e.to_string()))
}

/// Width in pixels of `text` at `size` px.
pub fn text_width(text: &str, size: f32) -> Result<f32, VisionError> {
    let font = font()?;
    let scaled = font.as_scaled(PxScale::from(size));
    Ok(text
        .chars()
        .map(|c| scaled.h_advance(font.glyph_id(c)))
        .sum())
}

/// Draws `text` on a BGR 8-bit image with its baseline at (x, y), blending by glyph coverage.
pub fn draw_text(
    img: &mut Mat,
    text: &str,
    x: f32,
    y: f32,
    size: f32,
    bgr: [u8; 3],
) -> Result<(), VisionError> {
    let font = font()?;
    let scale = PxScale::from(size);
    let scaled = font.as_scaled(scale);
    let (w, h) = (img.cols(), img.rows());
    let data = img.data_bytes_mut()?;
    let mut pen = x;
    for c in text.chars() {
        let id = font.glyph_id(c);
        let glyph = id.with_scale_and_position(scale, ab_glyph::point(pen, y));
        pen += scaled.h_advance(id);
        let Some(outline) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, cov| {
            let px = bounds.min.x as i32 + gx as i32;
            let py = bounds.min.y as i32 + gy as i32;
            if px < 0 || py < 0 || px >= w || py >= h {
                return;
            }
            let i = (py as usize * w as usize + px as usize) * 3;
            for k in 0..3 {
                let old = data[i + k] as f32;
                data[i + k] = (old + (bgr[k] as f32 - old) * cov.min(1.0)).round() as u8;
            }
        });
    }
    Ok(())
}

/// Draws `text` centred horizontally on `cx`, shrinking it to fit `max_width`.
pub fn draw_text_centered(
    img: &mut Mat,
    text: &str,
    cx: f32,
    y: f32,
    size: f32,
    max_width: f32,
    bgr: [u8; 3],
) -> Result<(), VisionError> {
    let mut size = size;
    let mut width = text_width(text, size)?;
    if width > max_width && width > 0.0 {
        size *= max_width / width;
        width = text_width(text, size)?;
    }
    draw_text(img, text, cx - width / 2.0, y, size, bgr)
}
