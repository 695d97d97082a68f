//! Enrolling a whole deck: the player lays a block of cards (say 3×3) upright in catalogue order under
//! the camera, one photo per block; each card is cut out, embedded and stored under its id, and what
//! could not be enrolled and which prints look alike are reported.

use super::name::turned;
use super::{CardDetector, DetectedCard};
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

/// Enrols the block of `ids` (in laying order, `cols` a row) seen in `photo`. Every card must be
/// seen whole, else nothing of the block is enrolled: a card missed would shift every id after it.
pub fn enrol_block(
    detector: &mut CardDetector,
    embedder: &Embedder,
    photo: &Mat,
    ids: &[String],
    cols: usize,
) -> Result<BlockOutcome, VisionError> {
    let cards: Vec<DetectedCard> = detector.detect(photo)?;
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
