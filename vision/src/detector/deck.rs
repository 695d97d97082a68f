//! Enrolling a whole deck: the player lays a block of cards (say 3×3) upright in catalogue order under
//! the camera, one photo per block; each card is cut out, embedded and stored under its id, and what
//! could not be enrolled and which prints look alike are reported.

use super::name::turned;
use super::DetectedCard;
use crate::embed::{warp_crop, Embedder};
use crate::geometry::centroid;
use crate::VisionError;
use opencv::core::Mat;

/// One card enrolled from a block photo.
#[derive(Clone, Debug)]
pub struct EnrolledCard {
    pub id: String,
    pub embedding: Vec<f32>,
    /// The card's crop as the model saw it.
    pub crop: Mat,
    /// Corners in the photo, the card's own top-left first.
    pub corners: [[f32; 2]; 4],
}

/// What one block photo gave.
#[derive(Debug)]
pub struct BlockOutcome {
    pub enrolled: Vec<EnrolledCard>,
    /// Why the block was not enrolled, when it was not (wrong number of cards seen, say).
    pub problem: Option<String>,
}

/// Indices of `cards` in reading order (rows from the top, each row from the left), the rows being
/// runs of `cols` cards by height in the image; `None` when the count does not fill whole rows but
/// the last.
pub fn reading_order(centres: &[[f64; 2]], cols: usize) -> Option<Vec<usize>> {
    if cols == 0 {
        return None;
    }
    let mut by_y: Vec<usize> = (0..centres.len()).collect();
    by_y.sort_by(|&a, &b| centres[a][1].total_cmp(&centres[b][1]));
    let mut order = Vec::with_capacity(centres.len());
    for row in by_y.chunks(cols) {
        let mut row = row.to_vec();
        row.sort_by(|&a, &b| centres[a][0].total_cmp(&centres[b][0]));
        order.extend(row);
    }
    Some(order)
}

/// Why cards in `order` (reading order, `cols` a row) are not a block laid in rows: rows that
/// overlap in height, or cards of very different sizes (a table of scattered cards, not a block).
/// `None` for a block.
pub fn not_a_block(quads: &[[[f64; 2]; 4]], order: &[usize], cols: usize) -> Option<String> {
    let area = |q: &[[f64; 2]; 4]| crate::geometry::signed_area(q).abs();
    let areas: Vec<f64> = quads.iter().map(area).collect();
    let (small, large) = areas
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &a| (lo.min(a), hi.max(a)));
    if small <= 0.0 || large / small > MAX_BLOCK_AREA_RATIO {
        return Some(format!(
            "the cards seen differ {:.1}× in size: lay one block flat, all cards under the camera",
            large / small.max(1.0)
        ));
    }
    let span = |row: &[usize]| {
        row.iter()
            .flat_map(|&i| quads[i].iter().map(|p| p[1]))
            .fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)))
    };
    let rows: Vec<(f64, f64)> = order.chunks(cols).map(span).collect();
    let d = crate::detect::dist;
    let height = quads
        .iter()
        .map(|q| d(q[0], q[3]).max(d(q[0], q[1])))
        .sum::<f64>()
        / quads.len().max(1) as f64;
    // Rows laid apart: a row reaches into the next by no more than a little skew allows.
    for (k, pair) in rows.windows(2).enumerate() {
        let ((_, bottom), (next_top, _)) = (pair[0], pair[1]);
        if bottom - next_top > MAX_ROW_OVERLAP * height {
            return Some(format!(
                "rows {} and {} overlap: lay the cards in rows of {cols}, apart",
                k + 1,
                k + 2
            ));
        }
    }
    None
}

/// Cards of one block photographed from above differ less than this in area.
const MAX_BLOCK_AREA_RATIO: f64 = 2.0;
/// How far (in card lengths) one row of a block may reach into the next (a block laid a little
/// askew).
const MAX_ROW_OVERLAP: f64 = 0.25;

/// Enrols the block of `ids` (in laying order, `cols` a row) from the `cards` found in `photo`.
/// Every card must be seen whole, else nothing of the block is enrolled: a card missed would shift
/// every id after it.
pub fn enrol_block(
    cards: &[DetectedCard],
    embedder: &Embedder,
    photo: &Mat,
    ids: &[String],
    cols: usize,
) -> Result<BlockOutcome, VisionError> {
    let whole: Vec<&DetectedCard> = cards.iter().filter(|c| !c.partly_hidden).collect();
    if whole.len() != ids.len() {
        let hidden = cards.len() - whole.len();
        return Ok(BlockOutcome {
            enrolled: Vec::new(),
            problem: Some(format!(
                "{} whole cards seen ({hidden} partly hidden), {} expected: lay the cards apart, \
                 all in view, and take the photo again",
                whole.len(),
                ids.len()
            )),
        });
    }
    let centres: Vec<[f64; 2]> = whole.iter().map(|c| centroid(&c.corners)).collect();
    let Some(order) = reading_order(&centres, cols) else {
        return Ok(BlockOutcome {
            enrolled: Vec::new(),
            problem: Some("no cards in rows".into()),
        });
    };
    let quads: Vec<[[f64; 2]; 4]> = whole.iter().map(|c| c.corners).collect();
    if let Some(why) = not_a_block(&quads, &order, cols) {
        return Ok(BlockOutcome {
            enrolled: Vec::new(),
            problem: Some(why),
        });
    }
    let mut enrolled = Vec::with_capacity(ids.len());
    for (id, &i) in ids.iter().zip(&order) {
        let corners = upright(&whole[i].corners).map(|p| [p[0] as f32, p[1] as f32]);
        let crop = warp_crop(photo, &corners)?;
        enrolled.push(EnrolledCard {
            id: id.clone(),
            embedding: embedder.embed(&crop)?,
            crop,
            corners,
        });
    }
    Ok(BlockOutcome {
        enrolled,
        problem: None,
    })
}

/// A card lying upright: its top-left is the corner nearest the image's top-left.
pub fn upright(quad: &[[f64; 2]; 4]) -> [[f64; 2]; 4] {
    let turn = (0..4)
        .min_by(|&a, &b| (quad[a][0] + quad[a][1]).total_cmp(&(quad[b][0] + quad[b][1])))
        .unwrap_or(0);
    turned(quad, turn)
}

/// Pairs of different enrolled cards whose embeddings' cosine is at least `min_cosine`, most alike
/// first: the prints the identifier may confuse.
pub fn confusable(cards: &[(String, Vec<f32>)], min_cosine: f32) -> Vec<(String, String, f32)> {
    let unit: Vec<Vec<f32>> = cards
        .iter()
        .map(|(_, e)| crate::embed::l2_normalised(e.clone()))
        .collect();
    let mut pairs = Vec::new();
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            if cards[i].0 == cards[j].0 {
                continue;
            }
            let c: f32 = unit[i].iter().zip(&unit[j]).map(|(a, b)| a * b).sum();
            if c >= min_cosine {
                pairs.push((cards[i].0.clone(), cards[j].0.clone(), c));
            }
        }
    }
    pairs.sort_by(|a, b| b.2.total_cmp(&a.2));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_read_row_by_row_from_the_top_left() {
        // A 3×2 block, slightly skewed, listed out of order.
        let centres = [
            [210.0, 52.0],
            [10.0, 60.0],
            [110.0, 168.0],
            [110.0, 55.0],
            [12.0, 170.0],
            [208.0, 160.0],
        ];
        assert_eq!(reading_order(&centres, 3), Some(vec![1, 3, 0, 4, 2, 5]));
        assert_eq!(reading_order(&centres, 0), None);
    }

    fn card_at(x: f64, y: f64, s: f64) -> [[f64; 2]; 4] {
        [
            [x, y],
            [x + 60.0 * s, y],
            [x + 60.0 * s, y + 90.0 * s],
            [x, y + 90.0 * s],
        ]
    }

    #[test]
    fn a_block_in_rows_is_a_block_a_scatter_is_not() {
        let grid: Vec<[[f64; 2]; 4]> = (0..6)
            .map(|i| {
                card_at(
                    100.0 * (i % 3) as f64,
                    120.0 * (i / 3) as f64 + (i % 3) as f64 * 4.0,
                    1.0,
                )
            })
            .collect();
        let order =
            reading_order(&grid.iter().map(|q| centroid(q)).collect::<Vec<_>>(), 3).unwrap();
        assert_eq!(not_a_block(&grid, &order, 3), None);
        // Six cards strewn about: the "rows" overlap.
        let strewn = vec![
            card_at(0.0, 0.0, 1.0),
            card_at(300.0, 40.0, 1.0),
            card_at(150.0, 70.0, 1.0),
            card_at(40.0, 100.0, 1.0),
            card_at(250.0, 130.0, 1.0),
            card_at(500.0, 160.0, 1.0),
        ];
        let order =
            reading_order(&strewn.iter().map(|q| centroid(q)).collect::<Vec<_>>(), 3).unwrap();
        assert!(not_a_block(&strewn, &order, 3).is_some_and(|w| w.contains("overlap")));
        // A card much nearer the camera than the others.
        let mut mixed = grid.clone();
        mixed[4] = card_at(100.0, 120.0, 1.8);
        assert!(not_a_block(&mixed, &order, 3).is_some_and(|w| w.contains("size")));
    }

    #[test]
    fn an_upright_card_starts_at_its_top_left_corner() {
        let q = [[60.0, 0.0], [60.0, 90.0], [0.0, 90.0], [0.0, 0.0]];
        assert_eq!(upright(&q)[0], [0.0, 0.0]);
        assert_eq!(upright(&q)[1], [60.0, 0.0]);
    }

    #[test]
    fn look_alike_prints_are_listed_most_alike_first() {
        let cards = vec![
            ("a".to_string(), vec![1.0, 0.0, 0.0]),
            ("b".to_string(), vec![0.9, 0.1, 0.0]),
            ("c".to_string(), vec![0.0, 1.0, 0.0]),
            ("a".to_string(), vec![1.0, 0.01, 0.0]),
        ];
        let pairs = confusable(&cards, 0.9);
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        assert!(pairs.iter().all(|(x, y, _)| x != y));
        assert!(pairs[0].2 >= pairs[1].2);
    }
}
