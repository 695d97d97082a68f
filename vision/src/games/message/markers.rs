//! Seat cards: one printed card per seat with an ArUco marker (ids 30–38, seat 1 first), laid in
//! front of each player. The seat regions come from where the seat cards lie in each frame, so a
//! camera moved between sessions (or bumped during one) needs no regions drawn again.

use super::faces::MessageFace;
use super::read::{read_seats, SeatCard};
use super::seats::{point_in_polygon, SeatRegion, SeatRegions};
use crate::face::{CARD_H_MM, CARD_W_MM};
use crate::mats::{dictionary, find_markers, find_markers_and_candidates, MarkerPass};
use crate::types::TableObservation;
use crate::{geometry, VisionError};
use opencv::aruco;
use opencv::core::{Mat, Rect, Scalar, CV_8UC3};
use opencv::imgproc;
use opencv::prelude::*;

/// Marker id of seat 1; seat `k` (0-based) has `FIRST_SEAT_MARKER + k`.
pub const FIRST_SEAT_MARKER: i32 = 30;
pub const MAX_SEATS: usize = 9;
/// The marker's side on the printed card.
const MARKER_MM: f64 = 40.0;
/// How far below the card's top the marker begins: centred on the card, 6 mm up.
const MARKER_TOP_MM: f64 = (CARD_H_MM - MARKER_MM) / 2.0 - 6.0;

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
    let (x, y) = ((w - side) / 2, (MARKER_TOP_MM * px_per_mm).round() as i32);
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
        centre_of(&self.corners)
    }

    /// The whole seat card's outline (image px) from its marker's corners: the marker is
    /// [`MARKER_MM`] square, centred across the card, its top [`MARKER_TOP_MM`] below the card's.
    /// `None` for a degenerate marker.
    pub fn card_outline(&self) -> Option<[[f32; 2]; 4]> {
        let marker = self.corners.map(|p| [f64::from(p[0]), f64::from(p[1])]);
        let h = crate::geometry::square_to_quad(&marker)?;
        // The card's corners in marker sides from the marker's top-left.
        let left = -(CARD_W_MM - MARKER_MM) / 2.0 / MARKER_MM;
        let right = 1.0 - left;
        let top = -MARKER_TOP_MM / MARKER_MM;
        let bottom = (CARD_H_MM - MARKER_TOP_MM) / MARKER_MM;
        let card = [[left, top], [right, top], [right, bottom], [left, bottom]];
        Some(card.map(|p| {
            let q = crate::geometry::apply(&h, p);
            [q[0] as f32, q[1] as f32]
        }))
    }
}

/// The mean of a quad's corners.
fn centre_of(c: &[[f32; 2]; 4]) -> [f32; 2] {
    [
        (c[0][0] + c[1][0] + c[2][0] + c[3][0]) / 4.0,
        (c[0][1] + c[1][1] + c[2][1] + c[3][1]) / 4.0,
    ]
}

/// The seat cards in `gray` (one per seat: the first of a repeated id), found at full resolution.
pub fn find_seat_markers(gray: &Mat) -> Result<Vec<SeatMarker>, VisionError> {
    Ok(find_seat_markers_and_candidates(gray)?.markers)
}

/// The seat cards one marker pass read, and the outlines it could not read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatMarkerPass {
    pub markers: Vec<SeatMarker>,
    pub unread: Vec<[[f32; 2]; 4]>,
}

/// [`find_seat_markers`], and the outlines that looked like a marker but could not be read.
pub fn find_seat_markers_and_candidates(gray: &Mat) -> Result<SeatMarkerPass, VisionError> {
    let MarkerPass { seen, unread } = find_markers_and_candidates(gray, 1)?;
    let mut out: Vec<SeatMarker> = Vec::new();
    for m in seen {
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
    let unread = unread
        .into_iter()
        .map(|q| q.map(|p| [p[0] as f32, p[1] as f32]))
        .collect();
    Ok(SeatMarkerPass {
        markers: out,
        unread,
    })
}

/// How much a card found without a name is enlarged, in turn, to look for a seat marker too small
/// or soft for the whole-frame pass (a far seat card's marker is 25–35 px wide at 1080p).
const CLOSER_LOOK_SCALES: [f64; 2] = [2.0, 3.0];
/// The margin round that card's outline, as a share of its box, in the enlarged crop.
const CLOSER_LOOK_MARGIN: f64 = 0.25;

/// Seat markers inside the cards the scanner found but could not name (or the outlines the marker
/// pass could not read), each looked at enlarged [`CLOSER_LOOK_SCALES`] times; added to `markers`
/// when their seat is not there yet, until each seat of `wanted` has one.
pub fn look_closer(
    gray: &Mat,
    unnamed: &[[[f32; 2]; 4]],
    wanted: &[usize],
    markers: &mut Vec<SeatMarker>,
) -> Result<(), VisionError> {
    for quad in unnamed {
        if wanted.iter().all(|&s| markers.iter().any(|m| m.seat == s)) {
            break;
        }
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

/// At most this many outlines the marker pass could not read are looked at closer in one frame: a
/// patterned table (checks, bricks) gives a thousand marker-like squares.
const MAX_UNREAD_LOOKED_AT: usize = 64;

/// The outlines the marker pass could not read that may be a seat card's marker: none inside a
/// card named as intelligence, the ones nearest in size to the markers read first (every seat
/// card's marker is the same printed size), at most [`MAX_UNREAD_LOOKED_AT`].
fn marker_candidates(
    obs: &TableObservation,
    unread: Vec<[[f32; 2]; 4]>,
    markers: &[SeatMarker],
) -> Vec<[[f32; 2]; 4]> {
    let area =
        |q: &[[f32; 2]; 4]| geometry::signed_area(&q.map(|p| [p[0] as f64, p[1] as f64])).abs();
    let mut seen: Vec<f64> = markers.iter().map(|m| area(&m.corners)).collect();
    seen.sort_by(f64::total_cmp);
    let typical = seen.get(seen.len() / 2).copied();
    let mut kept: Vec<(f64, [[f32; 2]; 4])> = unread
        .into_iter()
        .filter(|q| {
            let centre = centre_of(q);
            !obs.cards
                .iter()
                .any(|c| c.card.is_some() && point_in_polygon(centre, &c.corners))
        })
        .map(|q| {
            let off = typical.map_or(0.0, |t| (area(&q).max(1.0) / t.max(1.0)).ln().abs());
            (off, q)
        })
        .collect();
    kept.sort_by(|a, b| a.0.total_cmp(&b.0));
    kept.into_iter()
        .take(MAX_UNREAD_LOOKED_AT)
        .map(|(_, q)| q)
        .collect()
}

/// Reads `image` (scanned into `obs`) seat by seat: against the seat cards' regions when they give
/// every one of `drawn`'s seats (seen, kept where `drawn` last had them while the seen ones have
/// not moved, or stood in: [`stand_ins`]; those regions are returned too), else against `drawn`;
/// the seat cards themselves are left out.
pub fn read_with_seat_cards(
    obs: &TableObservation,
    image: &Mat,
    drawn: &SeatRegions,
    faces: &[MessageFace],
) -> Result<(Vec<SeatCard>, Option<SeatRegions>), VisionError> {
    let mut gray = Mat::default();
    imgproc::cvt_color(image, &mut gray, imgproc::COLOR_BGR2GRAY, 0)?;
    let SeatMarkerPass {
        mut markers,
        unread,
    } = find_seat_markers_and_candidates(&gray)?;
    let seats = drawn.seats.len();
    let mut kept = still_hidden(&markers, drawn);
    // Seats neither seen nor kept where they lay: worth a closer look.
    let wanted: Vec<usize> = (0..seats)
        .filter(|&s| markers.iter().chain(&kept).all(|m| m.seat != s))
        .collect();
    if !wanted.is_empty() {
        let mut closer: Vec<[[f32; 2]; 4]> = obs
            .cards
            .iter()
            // Whole outlines only: a patterned table's squares and bricks come as partly hidden
            // ones, by the hundred, and a seat card's marker under a hand cannot be read anyway.
            .filter(|c| c.card.is_none() && !c.covered)
            .map(|c| c.corners)
            .collect();
        closer.extend(marker_candidates(obs, unread, &markers));
        look_closer(&gray, &closer, &wanted, &mut markers)?;
        kept = still_hidden(&markers, drawn);
    }
    let size = [image.cols() as u32, image.rows() as u32];
    let placed = [markers.as_slice(), kept.as_slice()].concat();
    let from_cards = regions_from_markers(&placed, seats, size, middle_of_named(obs));
    let read = read_seats(obs, image, from_cards.as_ref().unwrap_or(drawn), faces)?;
    let read = without_seat_cards(read, &markers);
    let unseen: Vec<[f32; 2]> = from_cards
        .iter()
        .flat_map(|r| r.seats.iter().enumerate())
        .filter(|(s, _)| markers.iter().all(|m| m.seat != *s))
        .filter_map(|(_, r)| r.seat_card)
        .collect();
    Ok((without_unread_seat_cards(read, &unseen), from_cards))
}

/// `read` without an unnamed, uncovered outline on a seat card whose marker was not read (where
/// the seen seat cards put it): at the far side of the table the marker is too small to read, and
/// its card, black print on white, reads as black intelligence.
fn without_unread_seat_cards(read: Vec<SeatCard>, unseen: &[[f32; 2]]) -> Vec<SeatCard> {
    read.into_iter()
        .filter(|c| {
            c.face.is_some()
                || c.covered
                || !unseen.iter().any(|&p| point_in_polygon(p, &c.corners))
        })
        .collect()
}

/// How far a seen seat card may lie from where `drawn` had it, as a share of the distance between
/// the two closest seat cards there, for the camera to count as not moved.
const STILL_SHARE: f32 = 0.15;

/// The seat cards `markers` lacks, where `drawn` last had them, when at least two are seen and
/// each lies where it was (a hand over a seat card is not a moved camera); none otherwise.
fn still_hidden(markers: &[SeatMarker], drawn: &SeatRegions) -> Vec<SeatMarker> {
    let Some(before) = drawn
        .seats
        .iter()
        .map(|r| r.seat_card)
        .collect::<Option<Vec<[f32; 2]>>>()
    else {
        return Vec::new();
    };
    let dist = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let closest = before
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| before[i + 1..].iter().map(move |&b| dist(a, b)))
        .fold(f32::INFINITY, f32::min);
    let still = markers.len() >= 2
        && markers.iter().all(|m| {
            before
                .get(m.seat)
                .is_some_and(|&b| dist(m.centre(), b) <= STILL_SHARE * closest)
        });
    if !still {
        return Vec::new();
    }
    (0..before.len())
        .filter(|&s| markers.iter().all(|m| m.seat != s))
        .map(|s| SeatMarker {
            seat: s,
            corners: [before[s]; 4],
        })
        .collect()
}

/// The mean centre of the cards named as intelligence; `None` without one.
fn middle_of_named(obs: &TableObservation) -> Option<[f32; 2]> {
    let named: Vec<[f32; 2]> = obs
        .cards
        .iter()
        .filter(|c| c.card.is_some())
        .map(|c| c.center)
        .collect();
    let sum = named
        .iter()
        .fold([0.0f32; 2], |a, p| [a[0] + p[0], a[1] + p[1]]);
    (!named.is_empty()).then(|| [sum[0] / named.len() as f32, sum[1] / named.len() as f32])
}

/// Seat regions for `seats` players from their seat cards: each seat's region is the part of the
/// frame nearer its card than any other. Seat cards out of sight (under a hand, their markers not
/// read) stand where the others put them ([`stand_ins`]); `None` when too few are seen for that.
/// `middle` is the middle of the intelligence on the table, which only a table of three needs.
pub fn regions_from_markers(
    markers: &[SeatMarker],
    seats: usize,
    image_size: [u32; 2],
    middle: Option<[f32; 2]>,
) -> Option<SeatRegions> {
    if !(3..=MAX_SEATS).contains(&seats) {
        return None;
    }
    let seen: Vec<Option<[f32; 2]>> = (0..seats)
        .map(|s| markers.iter().find(|m| m.seat == s).map(SeatMarker::centre))
        .collect();
    let centres = stand_ins(&seen, middle)?;
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
            SeatRegion {
                polygon,
                seat_card: Some(c),
            }
        })
        .collect();
    Some(SeatRegions { image_size, seats })
}

/// Every seat card's centre, the hidden ones where the seen ones put them. The rules pass to the
/// right, so the seats go round the table in order, about evenly: seat `k` of `N` lies where the
/// camera sees the point at angle `2πk/N` of a circle on the table. Four or more seen seats give
/// that view (a homography, least squares); three give it as an affine view. At least twice as
/// many seen as hidden are needed (a short arc does not say the whole circle). At a table of three
/// with one hidden, the seats' mean is the table's middle: the hidden one lies at
/// `3·middle − a − b`.
fn stand_ins(seen: &[Option<[f32; 2]>], middle: Option<[f32; 2]>) -> Option<Vec<[f32; 2]>> {
    let n = seen.len();
    let known: Vec<(usize, [f32; 2])> = seen
        .iter()
        .enumerate()
        .filter_map(|(k, p)| Some((k, (*p)?)))
        .collect();
    let hidden = n - known.len();
    if hidden == 0 {
        return seen.iter().copied().collect();
    }
    if n == 3 && hidden == 1 {
        let m = middle?;
        let (a, b) = (known[0].1, known[1].1);
        let x = [3.0 * m[0] - a[0] - b[0], 3.0 * m[1] - a[1] - b[1]];
        return Some(seen.iter().map(|p| p.unwrap_or(x)).collect());
    }
    if known.len() < 3 || 2 * hidden > known.len() {
        return None;
    }
    let circle = |k: usize| {
        let t = k as f64 * std::f64::consts::TAU / n as f64;
        [t.cos(), t.sin()]
    };
    let src: Vec<[f64; 2]> = known.iter().map(|&(k, _)| circle(k)).collect();
    let dst: Vec<[f64; 2]> = known
        .iter()
        .map(|(_, p)| [p[0] as f64, p[1] as f64])
        .collect();
    let view = if known.len() >= 4 {
        geometry::homography(&src, &dst, false).ok()??
    } else {
        affine(&src, &dst)?
    };
    Some(
        seen.iter()
            .enumerate()
            .map(|(k, p)| {
                p.unwrap_or_else(|| {
                    let q = geometry::apply(&view, circle(k));
                    [q[0] as f32, q[1] as f32]
                })
            })
            .collect(),
    )
}

/// The affine map taking three points to three others, as a homography; `None` when they lie on
/// a line.
fn affine(src: &[[f64; 2]], dst: &[[f64; 2]]) -> Option<geometry::H3> {
    let m = opencv::imgproc::get_affine_transform(&geometry::points(src), &geometry::points(dst))
        .ok()?;
    let at = |i: i32, j: i32| m.at_2d::<f64>(i, j).ok().copied();
    let h = [
        [at(0, 0)?, at(0, 1)?, at(0, 2)?],
        [at(1, 0)?, at(1, 1)?, at(1, 2)?],
        [0.0, 0.0, 1.0],
    ];
    (h.iter().flatten().all(|v| v.is_finite()) && geometry::invert(&h).is_some()).then_some(h)
}

/// `read` without the seat cards themselves (a quad holding a seat marker is its card, not
/// intelligence).
pub fn without_seat_cards(read: Vec<SeatCard>, markers: &[SeatMarker]) -> Vec<SeatCard> {
    let cards: Vec<[[f32; 2]; 4]> = markers
        .iter()
        .filter_map(SeatMarker::card_outline)
        .collect();
    read.into_iter()
        .filter(|c| {
            let holds_a_marker = markers
                .iter()
                .any(|m| point_in_polygon(m.centre(), &c.corners));
            // A piece of a seat card (its marker's black, its margin) outlined on its own.
            let on_a_seat_card = cards.iter().any(|q| point_in_polygon(c.center, q));
            !holds_a_marker && !on_a_seat_card
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

    /// Where a seat card's marker was not read (the seen ones put it), an unnamed outline lying
    /// whole on it is the seat card, not black intelligence; a named card there, a covered one,
    /// and an outline elsewhere stay.
    #[test]
    fn an_unread_seat_card_is_not_intelligence() {
        let read = |x: f32, named: bool, covered: bool| SeatCard {
            seat: Some(0),
            face: named.then(|| "lock-black".to_string()),
            colour: Some(message::Colour::Black),
            pixel_colour: None,
            center: [x, 100.0],
            corners: [
                [x - 20.0, 80.0],
                [x + 20.0, 80.0],
                [x + 20.0, 120.0],
                [x - 20.0, 120.0],
            ],
            covered,
            confidence: 0.0,
        };
        let unseen = [[105.0, 102.0]];
        let kept = without_unread_seat_cards(
            vec![
                read(100.0, false, false),
                read(100.0, true, false),
                read(100.0, false, true),
                read(300.0, false, false),
            ],
            &unseen,
        );
        let left: Vec<(f32, bool, bool)> = kept
            .iter()
            .map(|c| (c.center[0], c.face.is_some(), c.covered))
            .collect();
        assert_eq!(
            left,
            [
                (100.0, true, false),
                (100.0, false, true),
                (300.0, false, false)
            ]
        );
    }

    /// The seat card's outline follows its marker (a turned, scaled marker gives the card round
    /// it), and a piece of the card outlined on its own (here its lower margin) is not read as
    /// intelligence; a card beside it is.
    #[test]
    fn a_piece_of_a_seat_card_is_not_intelligence() {
        // Marker 40 px square at (100, 100): 1 px a mm, upright.
        let marker = SeatMarker {
            seat: 0,
            corners: [
                [100.0, 100.0],
                [140.0, 100.0],
                [140.0, 140.0],
                [100.0, 140.0],
            ],
        };
        let card = marker.card_outline().expect("an outline");
        let near =
            |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).abs() < 1e-3 && (a[1] - b[1]).abs() < 1e-3;
        assert!(near(card[0], [88.5, 82.0]), "{card:?}");
        assert!(near(card[2], [151.5, 170.0]), "{card:?}");
        let read = |x: f32, y: f32| SeatCard {
            seat: Some(0),
            face: None,
            colour: Some(message::Colour::Black),
            pixel_colour: None,
            center: [x, y],
            corners: [
                [x - 10.0, y - 5.0],
                [x + 10.0, y - 5.0],
                [x + 10.0, y + 5.0],
                [x - 10.0, y + 5.0],
            ],
            covered: true,
            confidence: 0.0,
        };
        let kept = without_seat_cards(vec![read(120.0, 160.0), read(200.0, 160.0)], &[marker]);
        let centres: Vec<[f32; 2]> = kept.iter().map(|c| c.center).collect();
        assert_eq!(centres, vec![[200.0, 160.0]]);
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
        let r = regions_from_markers(&markers, 4, [1280, 720], None).unwrap();
        assert_eq!(r.seat_of([640.0, 500.0]), Some(0));
        assert_eq!(r.seat_of([1000.0, 300.0]), Some(1));
        assert_eq!(r.seat_of([600.0, 150.0]), Some(2));
        assert_eq!(r.seat_of([250.0, 400.0]), Some(3));
        let stood_in =
            regions_from_markers(&markers[..3], 4, [1280, 720], None).expect("one hidden");
        assert_eq!(
            stood_in.seat_of([250.0, 400.0]),
            Some(3),
            "between its neighbours"
        );
        assert_eq!(stood_in.seat_of([640.0, 500.0]), Some(0));
        assert!(
            regions_from_markers(&markers[..2], 4, [1280, 720], None).is_none(),
            "two seats unseen"
        );
        let three = [markers[0], markers[1], at(2, 180.0, 360.0)];
        assert!(
            regions_from_markers(&three[..2], 3, [1280, 720], None).is_none(),
            "three seats: the third could lie on either side"
        );
        let middle = [
            (640.0 + 1100.0 + 180.0) / 3.0,
            (650.0 + 360.0 + 360.0) / 3.0,
        ];
        let third = regions_from_markers(&three[..2], 3, [1280, 720], Some(middle))
            .expect("the table's middle says the side");
        assert_eq!(third.seat_of([250.0, 400.0]), Some(2));
        assert_eq!(third.seat_of([1000.0, 300.0]), Some(1));
    }

    /// Seven seat cards round an oval seen at a slant: any one or two hidden stand within a fifth
    /// of the seat spacing of where they lie.
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
        // One hidden, anywhere; two, apart or side by side.
        let cases: Vec<Vec<usize>> = (0..n)
            .map(|h| vec![h])
            .chain((0..n).flat_map(|h| [vec![h, (h + 1) % n], vec![h, (h + 3) % n]]))
            .collect();
        for hidden in &cases {
            let seen: Vec<Option<[f32; 2]>> = (0..n)
                .map(|s| (!hidden.contains(&s)).then(|| place(s)))
                .collect();
            let all = stand_ins(&seen, None).expect("stand-ins");
            for &h in hidden {
                let (x, want) = (all[h], place(h));
                let off = (x[0] - want[0]).hypot(x[1] - want[1]);
                assert!(
                    off < spacing / 5.0,
                    "seats {hidden:?}: seat {h} {off:.1} px off of {spacing:.1}"
                );
            }
        }
        let three_hidden: Vec<Option<[f32; 2]>> =
            (0..n).map(|s| (s >= 3).then(|| place(s))).collect();
        assert!(
            stand_ins(&three_hidden, None).is_none(),
            "four seen do not say where three more lie"
        );
    }

    /// A second-compositor fixture scene in grey, and where its seat card of `seat` (0-based) lies.
    fn fixture_seat_card(seed: u64, seat: usize) -> (Mat, [[f32; 2]; 4]) {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/message-tables");
        let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        let scene = manifest["scenes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["seed"] == seed)
            .unwrap();
        let corners: Vec<[f32; 2]> =
            serde_json::from_value(scene["seat_cards"][seat]["corners"].clone()).unwrap();
        let image = crate::pipeline::read_image(&dir.join(format!("scenes/{seed}.jpg"))).unwrap();
        let mut gray = Mat::default();
        imgproc::cvt_color(&image, &mut gray, imgproc::COLOR_BGR2GRAY, 0).unwrap();
        (gray, [corners[0], corners[1], corners[2], corners[3]])
    }

    /// A seat card so small and soft that the whole-frame pass misses its marker (seat 5 of the
    /// second compositor's scene 699204) is found when its outline is looked at enlarged.
    #[test]
    fn a_small_seat_marker_is_found_on_a_closer_look() {
        let (gray, quad) = fixture_seat_card(699204, 4);
        let mut markers = find_seat_markers(&gray).unwrap();
        assert!(
            markers.iter().all(|m| m.seat != 4),
            "the case needs a marker the whole-frame pass misses"
        );
        look_closer(&gray, &[quad], &[4], &mut markers).unwrap();
        let found = markers.iter().find(|m| m.seat == 4).expect("seat 5 found");
        assert!(point_in_polygon(found.centre(), &quad));
    }

    /// A far seat card whose outline the scanner did not find (seat 5 of the second compositor's
    /// scene 699204): the marker pass's unread outlines are looked at closer.
    #[test]
    fn a_seat_card_without_an_outline_is_read_from_the_marker_pass_candidates() {
        let (gray, c) = fixture_seat_card(699204, 4);
        let SeatMarkerPass {
            mut markers,
            unread,
        } = find_seat_markers_and_candidates(&gray).unwrap();
        assert!(
            markers.iter().all(|m| m.seat != 4),
            "the case needs a marker the whole-frame pass misses"
        );
        let no_outlines = TableObservation {
            frame_index: 0,
            calibration: crate::types::Calibration::None {
                reason: "no table frame".into(),
            },
            cards: Vec::new(),
            hand_or_motion_suspected: false,
            motion: false,
            hand: false,
            timings: crate::types::Timings::default(),
        };
        let closer = marker_candidates(&no_outlines, unread, &markers);
        assert!(closer.len() <= MAX_UNREAD_LOOKED_AT);
        look_closer(&gray, &closer, &[4], &mut markers).unwrap();
        let found = markers.iter().find(|m| m.seat == 4).expect("seat 5 found");
        assert!(point_in_polygon(found.centre(), &c));
    }

    /// Seat cards under a hand stay where they lay while the seen ones have not moved; a moved
    /// camera (every seen one elsewhere) drops them, so the stand-ins are used instead.
    #[test]
    fn a_hidden_seat_card_stays_where_it_lay_until_the_camera_moves() {
        let at = |seat, p: [f32; 2]| SeatMarker {
            seat,
            corners: [
                [p[0] - 5.0, p[1] - 5.0],
                [p[0] + 5.0, p[1] - 5.0],
                [p[0] + 5.0, p[1] + 5.0],
                [p[0] - 5.0, p[1] + 5.0],
            ],
        };
        // Five seats on a lopsided ring: the stand-ins would not fall where the cards lay.
        let places = [
            [640.0, 650.0],
            [1150.0, 420.0],
            [900.0, 90.0],
            [300.0, 120.0],
            [150.0, 450.0],
        ];
        let all: Vec<SeatMarker> = places.iter().enumerate().map(|(s, &p)| at(s, p)).collect();
        let first = regions_from_markers(&all, 5, [1280, 720], None).expect("all five");
        assert_eq!(first.seats[2].seat_card, Some(places[2]));
        let nudged: Vec<SeatMarker> = [0, 1, 4]
            .iter()
            .map(|&s| at(s, [places[s][0] + 4.0, places[s][1] - 3.0]))
            .collect();
        let kept = still_hidden(&nudged, &first);
        assert_eq!(
            kept.iter()
                .map(|m| (m.seat, m.centre()))
                .collect::<Vec<_>>(),
            vec![(2, places[2]), (3, places[3])]
        );
        let moved: Vec<SeatMarker> = [0, 1, 4]
            .iter()
            .map(|&s| at(s, [places[s][0] + 120.0, places[s][1] + 40.0]))
            .collect();
        assert!(still_hidden(&moved, &first).is_empty(), "the camera moved");
        assert!(
            still_hidden(&nudged[..1], &first).is_empty(),
            "one seen card does not say the camera stayed"
        );
        let drawn_by_hand = SeatRegions {
            image_size: [1280, 720],
            seats: first
                .seats
                .iter()
                .map(|r| SeatRegion {
                    polygon: r.polygon.clone(),
                    seat_card: None,
                })
                .collect(),
        };
        assert!(still_hidden(&nudged, &drawn_by_hand).is_empty());
    }
}
