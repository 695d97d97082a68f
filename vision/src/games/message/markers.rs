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

/// How much a card found without a name is enlarged, in turn, to look for a seat marker too small
/// or soft for the whole-frame pass (a far seat card's marker is 25–35 px wide at 1080p).
const CLOSER_LOOK_SCALES: [f64; 2] = [2.0, 3.0];
/// The margin round that card's outline, as a share of its box, in the enlarged crop.
const CLOSER_LOOK_MARGIN: f64 = 0.25;

/// Seat markers inside the cards the scanner found but could not name, each looked at enlarged
/// [`CLOSER_LOOK_SCALES`] times; added to `markers` when their seat is not there yet.
pub fn look_closer(
    gray: &Mat,
    unnamed: &[[[f32; 2]; 4]],
    markers: &mut Vec<SeatMarker>,
) -> Result<(), VisionError> {
    for quad in unnamed {
        if markers.iter().any(|m| point_in_polygon(m.centre(), quad)) {
            continue;
        }
        let (x0, x1) = quad
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p[0]), b.max(p[0])));
        let (y0, y1) = quad
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p[1]), b.max(p[1])));
        let (mx, my) = (
            (x1 - x0) as f64 * CLOSER_LOOK_MARGIN,
            (y1 - y0) as f64 * CLOSER_LOOK_MARGIN,
        );
        let left = ((x0 as f64 - mx).floor() as i32).clamp(0, gray.cols());
        let top = ((y0 as f64 - my).floor() as i32).clamp(0, gray.rows());
        let right = ((x1 as f64 + mx).ceil() as i32).clamp(0, gray.cols());
        let bottom = ((y1 as f64 + my).ceil() as i32).clamp(0, gray.rows());
        if right - left < 8 || bottom - top < 8 {
            continue;
        }
        let crop = Mat::roi(gray, Rect::new(left, top, right - left, bottom - top))?.try_clone()?;
        for scale in CLOSER_LOOK_SCALES {
            if let Some(m) = marker_enlarged(&crop, scale, [left, top], markers)? {
                markers.push(m);
                break;
            }
        }
    }
    markers.sort_by_key(|m| m.seat);
    Ok(())
}

/// The first seat marker in `crop` (whose top-left lies at `origin` in the frame) enlarged `scale`
/// times whose seat `markers` lacks, its corners in the frame's pixels.
fn marker_enlarged(
    crop: &Mat,
    scale: f64,
    origin: [i32; 2],
    markers: &[SeatMarker],
) -> Result<Option<SeatMarker>, VisionError> {
    let mut big = Mat::default();
    imgproc::resize(
        crop,
        &mut big,
        opencv::core::Size::new(0, 0),
        scale,
        scale,
        imgproc::INTER_CUBIC,
    )?;
    let back = |p: [f64; 2]| {
        [
            (p[0] / scale) as f32 + origin[0] as f32,
            (p[1] / scale) as f32 + origin[1] as f32,
        ]
    };
    Ok(find_markers(&big, 1)?.into_iter().find_map(|m| {
        let seat = usize::try_from(m.id - FIRST_SEAT_MARKER).ok()?;
        (seat < MAX_SEATS && markers.iter().all(|o| o.seat != seat)).then(|| SeatMarker {
            seat,
            corners: m.corners.map(back),
        })
    }))
}

/// Reads `image` (scanned into `obs`) seat by seat: against the seat cards' regions when every one
/// of `drawn`'s seats has its seat card in view, or all but one whose place its neighbours give
/// (those regions are returned too), else against `drawn`; the seat cards themselves are left out.
pub fn read_with_seat_cards(
    obs: &TableObservation,
    image: &Mat,
    drawn: &SeatRegions,
    faces: &[MessageFace],
) -> Result<(Vec<SeatCard>, Option<SeatRegions>), VisionError> {
    let mut gray = Mat::default();
    imgproc::cvt_color(image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    let mut markers = find_seat_markers(&gray)?;
    let seats = drawn.seats.len();
    if (0..seats).any(|s| markers.iter().all(|m| m.seat != s)) {
        let unnamed: Vec<[[f32; 2]; 4]> = obs
            .cards
            .iter()
            // Whole outlines only: a patterned table's squares and bricks come as partly hidden
            // ones, by the hundred, and a seat card's marker under a hand cannot be read anyway.
            .filter(|c| c.card.is_none() && !c.covered)
            .map(|c| c.corners)
            .collect();
        look_closer(&gray, &unnamed, &mut markers)?;
    }
    let size = [image.cols() as u32, image.rows() as u32];
    let from_cards = regions_from_markers(&markers, seats, size);
    let read = read_seats(obs, image, from_cards.as_ref().unwrap_or(drawn), faces)?;
    Ok((without_seat_cards(read, &markers), from_cards))
}

/// Seat regions for `seats` players from their seat cards: each seat's region is the part of the
/// frame nearer its card than any other. One seat card out of sight (under a hand, its marker not
/// read) at a table of four or more stands where its neighbours put it ([`stand_in`]). `None`
/// when more are missing.
pub fn regions_from_markers(
    markers: &[SeatMarker],
    seats: usize,
    image_size: [u32; 2],
) -> Option<SeatRegions> {
    if !(3..=MAX_SEATS).contains(&seats) {
        return None;
    }
    let mut seen: Vec<Option<[f32; 2]>> = (0..seats)
        .map(|s| markers.iter().find(|m| m.seat == s).map(SeatMarker::centre))
        .collect();
    let missing: Vec<usize> = (0..seats).filter(|&s| seen[s].is_none()).collect();
    if let [hidden] = missing[..] {
        seen[hidden] = stand_in(&seen, hidden);
    }
    let centres: Vec<[f32; 2]> = seen.into_iter().collect::<Option<_>>()?;
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

/// Where the hidden seat card of seat `hidden` lies, from the others, as if the seat cards stood
/// evenly round a circle (the rules pass to the right, so seats go round the table in order): the
/// seat beyond its two neighbours' midpoint `m`, `x = (N·m − (1 − q)·S) / (N·q + 1 − q)` with `S`
/// the sum of the seen centres and `q = cos(2π/N)`. `None` for three seats (two points leave the
/// third on either side) or without both neighbours.
fn stand_in(seen: &[Option<[f32; 2]>], hidden: usize) -> Option<[f32; 2]> {
    let n = seen.len();
    if n < 4 {
        return None;
    }
    let before = seen[(hidden + n - 1) % n]?;
    let after = seen[(hidden + 1) % n]?;
    let m = [(before[0] + after[0]) / 2.0, (before[1] + after[1]) / 2.0];
    let sum = seen
        .iter()
        .flatten()
        .fold([0.0f32; 2], |a, p| [a[0] + p[0], a[1] + p[1]]);
    let (nf, q) = (n as f32, (std::f32::consts::TAU / n as f32).cos());
    let d = nf * q + 1.0 - q;
    Some([
        (nf * m[0] - (1.0 - q) * sum[0]) / d,
        (nf * m[1] - (1.0 - q) * sum[1]) / d,
    ])
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
        let stood_in = regions_from_markers(&markers[..3], 4, [1280, 720]).expect("one hidden");
        assert_eq!(
            stood_in.seat_of([250.0, 400.0]),
            Some(3),
            "between its neighbours"
        );
        assert_eq!(stood_in.seat_of([640.0, 500.0]), Some(0));
        assert!(
            regions_from_markers(&markers[..2], 4, [1280, 720]).is_none(),
            "two seats unseen"
        );
        assert!(
            regions_from_markers(&markers[..2], 3, [1280, 720]).is_none(),
            "three seats: the third could lie on either side"
        );
    }

    /// Seven seat cards round an oval seen at a slant: any one hidden stands within a fifth of the
    /// seat spacing of where it lies.
    #[test]
    fn a_hidden_seat_card_stands_where_its_neighbours_put_it() {
        let n = 7;
        let place = |s: usize| {
            let t = -std::f32::consts::FRAC_PI_2 + s as f32 * std::f32::consts::TAU / n as f32;
            // An oval 1.3 times wider than deep, its far side drawn smaller.
            let (x, y) = (1.3 * t.cos(), t.sin() / 1.3);
            let depth = 1.0 + 0.25 * y;
            [640.0 + 380.0 * x / depth, 360.0 - 300.0 * y / depth]
        };
        let spacing = {
            let (a, b) = (place(0), place(1));
            (a[0] - b[0]).hypot(a[1] - b[1])
        };
        for hidden in 0..n {
            let seen: Vec<Option<[f32; 2]>> =
                (0..n).map(|s| (s != hidden).then(|| place(s))).collect();
            let x = stand_in(&seen, hidden).expect("stand-in");
            let want = place(hidden);
            let off = (x[0] - want[0]).hypot(x[1] - want[1]);
            assert!(
                off < spacing / 5.0,
                "seat {hidden}: {off:.1} px off of {spacing:.1}"
            );
        }
    }

    /// A seat card so small and soft that the whole-frame pass misses its marker (seat 5 of the
    /// second compositor's scene 699204) is found when its outline is looked at enlarged.
    #[test]
    fn a_small_seat_marker_is_found_on_a_closer_look() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/message-tables");
        let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        let scene = manifest["scenes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seed"] == 699204)
            .unwrap();
        let corners: Vec<[f32; 2]> =
            serde_json::from_value(scene["seat_cards"][4]["corners"].clone()).unwrap();
        let quad = [corners[0], corners[1], corners[2], corners[3]];
        let image = crate::pipeline::read_image(&dir.join("scenes/699204.jpg")).unwrap();
        let mut gray = Mat::default();
        imgproc::cvt_color(&image, &mut gray, imgproc::COLOR_BGR2GRAY, 0).unwrap();
        let mut markers = find_seat_markers(&gray).unwrap();
        assert!(
            markers.iter().all(|m| m.seat != 4),
            "the case needs a marker the whole-frame pass misses"
        );
        look_closer(&gray, &[quad], &mut markers).unwrap();
        let found = markers.iter().find(|m| m.seat == 4).expect("seat 5 found");
        assert!(point_in_polygon(found.centre(), &quad));
    }
}
