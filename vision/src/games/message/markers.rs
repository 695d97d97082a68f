//! Seat cards: one printed card per seat with an ArUco marker (ids 30–38, seat 1 first), laid in
//! front of each player. The seat regions come from where the seat cards lie in each frame, so a
//! camera moved between sessions (or bumped during one) needs no regions drawn again.

use super::faces::MessageFace;
use super::read::{read_seats, SeatCard};
use super::seats::{point_in_polygon, SeatRegion, SeatRegions};
use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::mats::{dictionary, find_markers};
use crate::types::TableObservation;
use crate::VisionError;
use opencv::aruco;
use opencv::core::{Mat, Rect, Scalar, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

/// Marker id of seat 1; seat `k` (0-based) has `FIRST_SEAT_MARKER + k`.
pub const FIRST_SEAT_MARKER: i32 = 30;
pub const MAX_SEATS: usize = 9;
/// The marker's side on the printed card.
const MARKER_MM: f64 = 40.0;

/// The printed seat card of `seat` (0-based) at `px_per_mm`: a white card, the marker in its middle,
/// "座位 N · SEAT N" under it.
pub fn render_seat_card(seat: usize, px_per_mm: f64) -> Result<Mat, VisionError> {
    if seat >= MAX_SEATS {
        return Err(VisionError::Other(format!(
            "seat {}: 风声 has at most {MAX_SEATS} seats",
            seat + 1
        )));
    }
    let (w, h) = (
        (CARD_W_MM * px_per_mm).round() as i32,
        (CARD_H_MM * px_per_mm).round() as i32,
    );
    let mut card = Mat::new_rows_cols_with_default(h, w, CV_8UC3, Scalar::all(255.0))?;
    let side = (MARKER_MM * px_per_mm).round() as i32;
    let mut marker = Mat::default();
    aruco::draw_marker(
        &dictionary()?,
        FIRST_SEAT_MARKER + seat as i32,
        side,
        &mut marker,
        1,
    )?;
    let mut bgr = Mat::default();
    imgproc::cvt_color(&marker, &mut bgr, imgproc::COLOR_GRAY2BGR, 0)?;
    let (x, y) = ((w - side) / 2, (h - side) / 2 - (6.0 * px_per_mm) as i32);
    let mut roi = card.roi_mut(Rect::new(x, y, side, side))?;
    bgr.copy_to(&mut roi)?;
    let label = format!("座位 {} · SEAT {}", seat + 1, seat + 1);
    crate::font::draw_text_centered(
        &mut card,
        &label,
        w as f32 / 2.0,
        (y + side) as f32 + 12.0 * px_per_mm as f32,
        7.0 * px_per_mm as f32,
        w as f32 * 0.9,
        [40, 40, 40],
    )?;
    Ok(card)
}

/// A seat card seen in a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatMarker {
    /// 0-based seat.
    pub seat: usize,
    /// The marker's corners (image px).
    pub corners: [[f32; 2]; 4],
}

impl SeatMarker {
    pub fn centre(&self) -> [f32; 2] {
        let c = self.corners;
        [
            (c[0][0] + c[1][0] + c[2][0] + c[3][0]) / 4.0,
            (c[0][1] + c[1][1] + c[2][1] + c[3][1]) / 4.0,
        ]
    }
}

/// The seat cards in `gray` (one per seat: the first of a repeated id), found at full resolution.
pub fn find_seat_markers(gray: &Mat) -> Result<Vec<SeatMarker>, VisionError> {
    let mut out: Vec<SeatMarker> = Vec::new();
    for m in find_markers(gray, 1)? {
        let seat = m.id - FIRST_SEAT_MARKER;
        if !(0..MAX_SEATS as i32).contains(&seat) || out.iter().any(|o| o.seat == seat as usize) {
            continue;
        }
        out.push(SeatMarker {
            seat: seat as usize,
            corners: m.corners.map(|p| [p[0] as f32, p[1] as f32]),
        });
    }
    out.sort_by_key(|m| m.seat);
    Ok(out)
}

/// Reads `image` (scanned into `obs`) seat by seat: against the seat cards' regions when every one
/// of `drawn`'s seats has its seat card in view (those regions are returned too), else against
/// `drawn`; the seat cards themselves are left out.
pub fn read_with_seat_cards(
    obs: &TableObservation,
    image: &Mat,
    drawn: &SeatRegions,
    faces: &[MessageFace],
) -> Result<(Vec<SeatCard>, Option<SeatRegions>), VisionError> {
    let mut gray = Mat::default();
    imgproc::cvt_color(image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    let markers = find_seat_markers(&gray)?;
    let size = [image.cols() as u32, image.rows() as u32];
    let from_cards = regions_from_markers(&markers, drawn.seats.len(), size);
    let read = read_seats(obs, image, from_cards.as_ref().unwrap_or(drawn), faces)?;
    Ok((without_seat_cards(read, &markers), from_cards))
}

/// Seat regions for `seats` players from their seat cards: each seat's region is the part of the
/// frame nearer its card than any other. `None` unless every seat's card is seen.
pub fn regions_from_markers(
    markers: &[SeatMarker],
    seats: usize,
    image_size: [u32; 2],
) -> Option<SeatRegions> {
    if !(3..=MAX_SEATS).contains(&seats) {
        return None;
    }
    let centres: Vec<[f32; 2]> = (0..seats)
        .map(|s| markers.iter().find(|m| m.seat == s).map(SeatMarker::centre))
        .collect::<Option<_>>()?;
    let (w, h) = (image_size[0] as f32, image_size[1] as f32);
    let frame = vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let seats = centres
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let polygon = centres
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .fold(frame.clone(), |poly, (_, &o)| nearer_half(&poly, c, o));
            SeatRegion { polygon }
        })
        .collect();
    Some(SeatRegions { image_size, seats })
}

/// `read` without the seat cards themselves (a quad holding a seat marker is its card, not
/// intelligence).
pub fn without_seat_cards(read: Vec<SeatCard>, markers: &[SeatMarker]) -> Vec<SeatCard> {
    read.into_iter()
        .filter(|c| {
            !markers
                .iter()
                .any(|m| point_in_polygon(m.centre(), &c.corners))
        })
        .collect()
}

/// The part of convex polygon `poly` nearer `a` than `b` (Sutherland–Hodgman against their
/// perpendicular bisector).
fn nearer_half(poly: &[[f32; 2]], a: [f32; 2], b: [f32; 2]) -> Vec<[f32; 2]> {
    let n = [b[0] - a[0], b[1] - a[1]];
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    // Negative on a's side.
    let side = |p: [f32; 2]| (p[0] - mid[0]) * n[0] + (p[1] - mid[1]) * n[1];
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (sp, sq) = (side(p), side(q));
        if sp <= 0.0 {
            out.push(p);
        }
        if (sp < 0.0) != (sq < 0.0) && sp != sq {
            let t = sp / (sp - sq);
            out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_seat_card_is_found_with_its_seat() {
        let card = render_seat_card(4, 4.0).unwrap();
        let mut table =
            Mat::new_rows_cols_with_default(600, 800, CV_8UC3, Scalar::all(90.0)).unwrap();
        let mut roi = table
            .roi_mut(Rect::new(200, 100, card.cols(), card.rows()))
            .unwrap();
        card.copy_to(&mut roi).unwrap();
        let mut gray = Mat::default();
        imgproc::cvt_color(&table, &mut gray, imgproc::COLOR_BGR2GRAY, 0).unwrap();
        let found = find_seat_markers(&gray).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].seat, 4);
        let c = found[0].centre();
        assert!(
            (c[0] - (200.0 + card.cols() as f32 / 2.0)).abs() < 3.0,
            "{c:?}"
        );
        assert!(render_seat_card(9, 4.0).is_err(), "there is no tenth seat");
    }

    /// A seat card whose marker is not read is still seen as a card: it must not count as a
    /// coloured intelligence in the tally.
    #[test]
    fn a_seat_card_has_no_intelligence_colour() {
        for seat in 0..MAX_SEATS {
            let card = render_seat_card(seat, 4.0).unwrap();
            let (w, h) = (card.cols() as f32, card.rows() as f32);
            let corners = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
            for turned in [corners, [corners[2], corners[3], corners[0], corners[1]]] {
                let seen = super::super::read::read_colour(&card, &turned).unwrap();
                assert!(
                    seen.is_none_or(|(_, sure)| sure < super::super::read::PIXEL_COLOUR_MIN),
                    "seat {}: {seen:?}",
                    seat + 1
                );
            }
        }
    }

    #[test]
    fn regions_split_the_frame_between_the_seat_cards() {
        let at = |seat, x: f32, y: f32| SeatMarker {
            seat,
            corners: [
                [x - 5.0, y - 5.0],
                [x + 5.0, y - 5.0],
                [x + 5.0, y + 5.0],
                [x - 5.0, y + 5.0],
            ],
        };
        let markers = [
            at(0, 640.0, 650.0),
            at(1, 1100.0, 360.0),
            at(2, 640.0, 80.0),
            at(3, 180.0, 360.0),
        ];
        let r = regions_from_markers(&markers, 4, [1280, 720]).unwrap();
        assert_eq!(r.seat_of([640.0, 500.0]), Some(0));
        assert_eq!(r.seat_of([1000.0, 300.0]), Some(1));
        assert_eq!(r.seat_of([600.0, 150.0]), Some(2));
        assert_eq!(r.seat_of([250.0, 400.0]), Some(3));
        assert!(
            regions_from_markers(&markers[..3], 4, [1280, 720]).is_none(),
            "a seat unseen"
        );
    }
}
