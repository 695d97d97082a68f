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
    let src = upright_order(corners);
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

/// The outline's corners ordered so that its first side is a short one, as the upright patch's
/// top is: an unnamed card's outline may start on either side, and read across it the band
/// would cross the picture. A square outline keeps its order.
fn upright_order(corners: &[[f32; 2]; 4]) -> Vec<[f64; 2]> {
    let p: Vec<[f64; 2]> = corners.iter().map(|c| [c[0] as f64, c[1] as f64]).collect();
    let side = |k: usize| crate::detect::dist(p[k], p[(k + 1) % 4]);
    let first_longer = side(0) + side(2) > side(1) + side(3);
    let start = usize::from(first_longer);
    (0..4).map(|k| p[(start + k) % 4]).collect()
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

/// Whether a covered card is hidden by something that is not one of the cards beside it (a hand or
/// an arm): cards in a fanned row cover each other by design. Only a card read as a card (named, or
/// its colour read) counts: a covered outline with neither is as often a patterned table's square
/// or brick as a card under a hand.
pub fn hand_over_table(cards: &[SeatCard]) -> bool {
    let quad = |c: &SeatCard| c.corners.map(|p| [f64::from(p[0]), f64::from(p[1])]);
    cards.iter().enumerate().any(|(i, c)| {
        c.covered
            && (c.face.is_some() || c.colour.is_some())
            && !cards
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && crate::geometry::quads_touch(&quad(c), &quad(o)))
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::message::faces::{faces, render};
    use opencv::core::{Scalar, CV_8UC3};

    /// An unnamed card's outline may start at any corner: the colour is read the same from each,
    /// the card lying upright or turned a quarter.
    #[test]
    fn the_colour_is_read_from_an_outline_starting_at_any_corner() {
        let cat = message::Catalogue::shipped().expect("shipped");
        let all = faces(&cat);
        for id in ["lock-red", "lock-blue", "lock-black"] {
            let face = all.iter().find(|f| f.id == id).expect("face");
            let card = render(face).unwrap();
            let mut sideways = Mat::default();
            opencv::core::rotate(&card, &mut sideways, opencv::core::ROTATE_90_CLOCKWISE).unwrap();
            for turned in [&card, &sideways] {
                let (w, h) = (turned.cols(), turned.rows());
                let mut table =
                    Mat::new_rows_cols_with_default(h + 80, w + 80, CV_8UC3, Scalar::all(90.0))
                        .unwrap();
                let mut roi = Mat::roi_mut(&mut table, Rect::new(40, 40, w, h)).unwrap();
                turned.copy_to(&mut roi).unwrap();
                let (x0, y0, x1, y1) = (40.0, 40.0, 40.0 + w as f32, 40.0 + h as f32);
                let quad = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
                for start in 0..4 {
                    let corners = [0, 1, 2, 3].map(|k| quad[(start + k) % 4]);
                    let seen = read_colour(&table, &corners).unwrap();
                    assert!(
                        seen.is_some_and(|(c, sure)| c == face.colour && sure >= PIXEL_COLOUR_MIN),
                        "{id}, {}×{} starting at corner {start}: {seen:?}",
                        w,
                        h
                    );
                }
            }
        }
    }

    /// Cards lying sideways in a row (tuning tables 661018 and 661023, the second partly hidden
    /// by the next card), outlined from the card's long side: read across the outline, the band
    /// crossed the picture and gave red for the black card and blue for the red one.
    #[test]
    fn a_sideways_card_outlined_from_its_long_side_is_read_along_its_header() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/message-colour");
        let cases = [
            (
                "sideways-black.png",
                [[59.9, 60.8], [155.6, 62.8], [168.2, 122.7], [63.0, 122.1]],
                Colour::Black,
            ),
            (
                "sideways-red-partly-hidden.png",
                [[51.9, 45.1], [112.8, 60.1], [108.9, 92.4], [48.8, 85.6]],
                Colour::Red,
            ),
        ];
        for (file, corners, colour) in cases {
            let image = crate::pipeline::read_image(&dir.join(file)).unwrap();
            let seen = read_colour(&image, &corners).unwrap();
            assert!(
                seen.is_some_and(|(c, sure)| c == colour && sure >= PIXEL_COLOUR_MIN),
                "{file}: {seen:?}"
            );
        }
    }
}
