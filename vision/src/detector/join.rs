//! A card the model cut into pieces: a strong line across the print (where the art meets the text
//! box, or a bold stroke of full-bleed art) can part its core like the seam between two touching
//! cards. Where the cards are known to lie apart (an enrolment photo, a block laid for
//! enroll-deck), the pieces that touch one another are one card, whose outline is the largest quad
//! on their hull.

use crate::geometry::signed_area;
use crate::VisionError;
use opencv::core::Vector;
use opencv::imgproc;

/// A card's short side over its long one (63×88 mm is 0.72, a tall tarot 70×120 is 0.58); an
/// outline of pieces is a card only within these, with room for perspective.
const MIN_CARD_ASPECT: f64 = 0.45;
const MAX_CARD_ASPECT: f64 = 0.9;
/// Pieces whose bounding boxes come this close touch.
const TOUCH_PX: f64 = 3.0;

/// `quads` in groups that touch one another (each quad in one group, groups in the order of their
/// first quad).
pub fn touching_groups(quads: &[[[f64; 2]; 4]]) -> Vec<Vec<usize>> {
    let bounds: Vec<[f64; 4]> = quads.iter().map(bounding_box).collect();
    let meet = |a: &[f64; 4], b: &[f64; 4]| {
        a[0] <= b[2] + TOUCH_PX
            && b[0] <= a[2] + TOUCH_PX
            && a[1] <= b[3] + TOUCH_PX
            && b[1] <= a[3] + TOUCH_PX
    };
    let mut group_of: Vec<Option<usize>> = vec![None; quads.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..quads.len() {
        if group_of[start].is_some() {
            continue;
        }
        let g = groups.len();
        group_of[start] = Some(g);
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            let i = members[next];
            next += 1;
            for j in 0..quads.len() {
                if group_of[j].is_none() && meet(&bounds[i], &bounds[j]) {
                    group_of[j] = Some(g);
                    members.push(j);
                }
            }
        }
        members.sort_unstable();
        groups.push(members);
    }
    groups
}

/// The one card that all of `pieces` come from: the largest quad on their convex hull, clockwise
/// on screen, when it is card-shaped.
pub fn outline_of_pieces(pieces: &[[[f64; 2]; 4]]) -> Result<Option<[[f64; 2]; 4]>, VisionError> {
    let points: Vec<[f64; 2]> = pieces.iter().flatten().copied().collect();
    let outline = largest_inscribed_quad(&convex_hull(&points)?);
    Ok(outline.filter(card_shaped))
}

fn bounding_box(q: &[[f64; 2]; 4]) -> [f64; 4] {
    q.iter()
        .fold([f64::MAX, f64::MAX, f64::MIN, f64::MIN], |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        })
}

/// Short over long side within a card's range (with room for perspective).
pub(crate) fn card_shaped(q: &[[f64; 2]; 4]) -> bool {
    let d = crate::detect::dist;
    let across = (d(q[0], q[1]) + d(q[2], q[3])) / 2.0;
    let along = (d(q[1], q[2]) + d(q[3], q[0])) / 2.0;
    let (short, long) = (across.min(along), across.max(along));
    long > 0.0 && (MIN_CARD_ASPECT..=MAX_CARD_ASPECT).contains(&(short / long))
}

/// The convex hull of `points` (OpenCV's), clockwise on screen, the points as given (OpenCV
/// answers with their indices, so no precision is lost to its `f32` points).
fn convex_hull(points: &[[f64; 2]]) -> Result<Vec<[f64; 2]>, VisionError> {
    let mut indices = Vector::<i32>::new();
    imgproc::convex_hull(&crate::geometry::points(points), &mut indices, true, false)?;
    let mut hull: Vec<[f64; 2]> = indices
        .iter()
        .filter_map(|i| usize::try_from(i).ok().and_then(|i| points.get(i)).copied())
        .collect();
    if signed_area(&hull) < 0.0 {
        hull.reverse();
    }
    Ok(hull)
}

/// The four hull vertices spanning the largest quad, in the hull's (clockwise) order.
fn largest_inscribed_quad(hull: &[[f64; 2]]) -> Option<[[f64; 2]; 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let mut best: Option<([[f64; 2]; 4], f64)> = None;
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    let q = [hull[a], hull[b], hull[c], hull[d]];
                    let area = signed_area(&q).abs();
                    if best.is_none_or(|(_, most)| area > most) {
                        best = Some((q, area));
                    }
                }
            }
        }
    }
    best.map(|(q, _)| q)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Quad = [[f64; 2]; 4];

    /// A 63×88 card seen in perspective, cut across at `t` of its height: the card and its pieces.
    fn card_and_pieces(t: f64) -> (Quad, Quad, Quad) {
        let card = [[100.0, 50.0], [168.0, 54.0], [172.0, 150.0], [96.0, 146.0]];
        let lerp = |p: [f64; 2], q: [f64; 2]| [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
        let (left, right) = (lerp(card[0], card[3]), lerp(card[1], card[2]));
        (
            card,
            [card[0], card[1], right, left],
            [left, right, card[2], card[3]],
        )
    }

    fn same_corners(a: &[[f64; 2]; 4], b: &[[f64; 2]; 4]) -> bool {
        (0..4).any(|k| (0..4).all(|i| crate::detect::dist(a[(i + k) % 4], b[i]) < 1e-6))
    }

    fn moved(q: &[[f64; 2]; 4], dx: f64, dy: f64) -> [[f64; 2]; 4] {
        q.map(|p| [p[0] + dx, p[1] + dy])
    }

    #[test]
    fn the_pieces_of_a_cut_card_give_back_its_outline() {
        for t in [0.3, 0.45, 0.6] {
            let (card, top, bottom) = card_and_pieces(t);
            let got = outline_of_pieces(&[top, bottom])
                .unwrap()
                .expect("pieces of one card");
            assert!(same_corners(&got, &card), "cut at {t}: {got:?}");
            assert!(signed_area(&got) > 0.0, "clockwise on screen");
        }
        // A third, overlapping piece inside the card changes nothing.
        let (card, top, bottom) = card_and_pieces(0.5);
        let inner = [[110.0, 70.0], [150.0, 72.0], [150.0, 120.0], [110.0, 118.0]];
        let got = outline_of_pieces(&[top, inner, bottom])
            .unwrap()
            .expect("pieces of one card");
        assert!(same_corners(&got, &card));
    }

    #[test]
    fn pieces_that_do_not_make_a_card_shape_give_no_outline() {
        let (card, _, _) = card_and_pieces(0.5);
        // Two whole cards end to end make a strip.
        assert!(outline_of_pieces(&[card, moved(&card, 4.0, 96.0)])
            .unwrap()
            .is_none());
    }

    #[test]
    fn touching_quads_are_grouped_and_cards_lying_apart_are_not() {
        let (card, top, bottom) = card_and_pieces(0.4);
        let apart = moved(&card, 120.0, 0.0);
        let far = moved(&card, 0.0, 130.0);
        let groups = touching_groups(&[apart, top, far, bottom]);
        assert_eq!(groups, vec![vec![0], vec![1, 3], vec![2]]);
    }
}
