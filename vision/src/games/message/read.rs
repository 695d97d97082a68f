//! Reading the table: each observed card's seat (the region holding its centre), its face when the
//! matcher names it, and its intelligence colour — from the face when named, otherwise from the
//! header's pixels, so a card the matcher abstains on still counts in its seat's tally.

use super::faces::MessageFace;
use super::seats::SeatRegions;
use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::geometry;
use crate::types::TableObservation;
use crate::VisionError;
use message::catalogue::Colour;
use opencv::core::{Mat, Rect};
use opencv::imgproc::INTER_AREA;
use opencv::prelude::*;
use serde::{Deserialize, Serialize};

/// One card as read at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatCard {
    /// 0-based seat whose region holds the card's centre.
    pub seat: Option<usize>,
    /// Face id when the matcher named it.
    pub face: Option<String>,
    /// The colour counted: the named face's, else the one read from the pixels.
    pub colour: Option<Colour>,
    /// The colour read from the header's pixels alone (with how sure, 0–1).
    pub pixel_colour: Option<(Colour, f32)>,
    pub center: [f32; 2],
    pub corners: [[f32; 2]; 4],
    /// Partly hidden (by a hand or a card on it).
    pub covered: bool,
    pub confidence: f32,
}

/// Pixels per mm of the upright card patch the colour is read from.
const PATCH_PX_PER_MM: f64 = 2.0;
/// Below this the pixel colour is not used on its own.
pub const PIXEL_COLOUR_MIN: f32 = 0.25;

/// The intelligence colour of a card from its header band: warped upright, the band's per-channel
/// median is divided by the card's own white (so the light's colour and strength cancel), then
/// compared with the three print colours. Both ends of the card are tried (the roll of an unnamed
/// card may be half a turn off) and the inkier band is taken: the other end is mostly white.
pub fn read_colour(
    image: &Mat,
    corners: &[[f32; 2]; 4],
) -> Result<Option<(Colour, f32)>, VisionError> {
    let (w, h) = (
        (CARD_W_MM * PATCH_PX_PER_MM).round() as i32,
        (CARD_H_MM * PATCH_PX_PER_MM).round() as i32,
    );
    let src: Vec<[f64; 2]> = corners.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let Some(patch) = geometry::warp_quad(image, &src, w, h, INTER_AREA)? else {
        return Ok(None);
    };
    let px = |mm: f64| (mm * PATCH_PX_PER_MM).round() as i32;
    let white = channel_percentile(
        &patch,
        Rect::new(px(8.0), px(8.0), px(47.0), px(72.0)),
        0.95,
    )?;
    let band = |y0: f64| Rect::new(px(14.0), px(y0), px(35.0), px(8.0));
    let top = channel_percentile(&patch, band(12.5), 0.5)?;
    let bottom = channel_percentile(&patch, band(CARD_H_MM - 20.5), 0.5)?;
    let norm = |c: [f64; 3]| [0, 1, 2].map(|k| c[k] / white[k].max(30.0));
    let ink = |n: [f64; 3]| (n[2] - n[0]).abs() + (1.0 - (n[0] + n[1] + n[2]) / 3.0);
    let (t, b) = (norm(top), norm(bottom));
    let n = if ink(t) >= ink(b) { t } else { b };
    // Features: red minus blue, and lightness.
    let f = [n[2] - n[0], (n[0] + n[1] + n[2]) / 3.0];
    let protos = [
        (Colour::Red, [0.6, 0.38]),
        (Colour::Blue, [-0.6, 0.42]),
        (Colour::Black, [0.0, 0.12]),
    ];
    let mut d: Vec<(Colour, f64)> = protos
        .iter()
        .map(|(c, p)| (*c, ((f[0] - p[0]).powi(2) + (f[1] - p[1]).powi(2)).sqrt()))
        .collect();
    d.sort_by(|x, y| x.1.total_cmp(&y.1));
    // A card that is not one of ours (or a white blur) is far from every print colour.
    if d[0].1 > 0.45 {
        return Ok(None);
    }
    let sure = ((d[1].1 - d[0].1) / 0.4).clamp(0.0, 1.0) as f32;
    Ok(Some((d[0].0, sure)))
}

/// Per-channel percentile (0–1) of a region.
fn channel_percentile(img: &Mat, r: Rect, q: f64) -> Result<[f64; 3], VisionError> {
    let r = r & Rect::new(0, 0, img.cols(), img.rows());
    let roi = Mat::roi(img, r)?.try_clone()?;
    let data = roi.data_bytes()?;
    let mut out = [0.0; 3];
    for (k, o) in out.iter_mut().enumerate() {
        let mut v: Vec<u8> = data.iter().skip(k).step_by(3).copied().collect();
        if v.is_empty() {
            return Ok([0.0; 3]);
        }
        v.sort_unstable();
        *o = v[((v.len() - 1) as f64 * q).round() as usize] as f64;
    }
    Ok(out)
}

/// Every observed card with its seat, face and colour.
pub fn read_seats(
    obs: &TableObservation,
    image: &Mat,
    regions: &SeatRegions,
    faces: &[MessageFace],
) -> Result<Vec<SeatCard>, VisionError> {
    obs.cards
        .iter()
        .map(|c| {
            let pixel_colour = read_colour(image, &c.corners)?;
            let named = c
                .card
                .as_deref()
                .and_then(|id| faces.iter().find(|f| f.id == id));
            let colour = match named {
                Some(f) => Some(f.colour),
                None => pixel_colour
                    .filter(|(_, sure)| *sure >= PIXEL_COLOUR_MIN)
                    .map(|(c, _)| c),
            };
            Ok(SeatCard {
                seat: regions.seat_of(c.center),
                face: named.map(|f| f.id.clone()),
                colour,
                pixel_colour,
                center: c.center,
                corners: c.corners,
                covered: c.covered,
                confidence: c.confidence,
            })
        })
        .collect()
}
