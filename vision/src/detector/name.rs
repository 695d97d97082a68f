//! Naming a detected card of any design by its nearest enrolled print, and enrolling a print from a
//! photo of it lying upright.

use super::{CardDetector, DetectedCard};
use crate::detect::dist;
use crate::identifier::{Assessment, Learned, ModelThresholds, Verdict};
use crate::lookalike::{InkResolved, Patch, Resolved};
use crate::VisionError;
use opencv::core::Mat;
use opencv::prelude::*;

/// A detected card with its identity: corners from the card's own top-left.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedCard {
    pub corners: [[f64; 2]; 4],
    pub verdict: Verdict,
    /// The nearest enrolled card and its cosine, before thresholds.
    pub nearest: Option<(String, f32, f32)>,
    pub partly_hidden: bool,
    /// Where the model abstained between look-alike prints (and their ink named nothing): what
    /// comparing their pixels decided.
    pub lookalike: Option<Resolved>,
    /// Where the model abstained: what comparing the look-alike prints' ink found.
    pub ink: Option<InkResolved>,
    /// Whether the quad's sides were moved to name it: `None` not tried, `Some(None)` tried in
    /// vain, else what the model saw at the quad that named it.
    pub sides_mended: Option<Option<Seen>>,
    /// Where the model abstained between near prints: what the pair verifier or the sibling
    /// model saw among them.
    pub siblings: Option<NearPrintsRanked>,
}

/// The near prints a ranking model looked at, and its likeliest among them.
#[derive(Clone, Debug, PartialEq)]
pub struct NearPrintsRanked {
    pub likeliest: Seen,
    pub candidates: Vec<String>,
}

/// Opposite sides within this ratio: the quad's long axis is unclear (a card seen end-on), so all four
/// turns are tried instead of the two that put a short side on top.
const SQUARE_RATIO: f64 = 1.12;

/// Which of the quad's corners may be the card's top-left: those that put a short side on top.
pub fn candidate_turns(quad: &[[f64; 2]; 4]) -> Vec<usize> {
    let side = |a: usize| dist(quad[a], quad[(a + 1) % 4]);
    let (first, second) = (side(0) + side(2), side(1) + side(3));
    if first.max(second) / first.min(second).max(1e-9) < SQUARE_RATIO {
        vec![0, 1, 2, 3]
    } else if first < second {
        vec![0, 2]
    } else {
        vec![1, 3]
    }
}

/// The quad's corners starting at corner `turn`.
pub fn turned(quad: &[[f64; 2]; 4], turn: usize) -> [[f64; 2]; 4] {
    [0, 1, 2, 3].map(|k| quad[(k + turn) % 4])
}

fn px(c: &[[f64; 2]; 4]) -> [[f32; 2]; 4] {
    c.map(|p| [p[0] as f32, p[1] as f32])
}

type Corners = [[f64; 2]; 4];
/// The nearest enrolled card, its cosine and its lead over the runner-up.
pub type Seen = (String, f32, f32);

/// A card of any design is named by the model only when its nearest print leads the runner-up by
/// this much, whatever the model's own lead threshold below it: siblings of one printed design that
/// differ in a count (marks, pips) sit closer in the embedding than our demo faces, for which the
/// model's thresholds were chosen. Chosen on the tuning sets (`export_eval.py --families train
/// --seed 800000` and `--families tuning --seed 810000`, 200 scenes each): a lead of 0.10 named 4
/// count-marks cards wrong and 1 card nobody enrolled; 0.12 none, naming 830 instead of 864.
pub const ANY_DESIGN_MIN_GAP: f32 = 0.12;

/// ... and, with a lead below [`ANY_DESIGN_CLEAR_GAP`], only when the nearest print is at least this
/// near. With only the decks on the table enrolled (as a player has them), a card left unenrolled
/// has no crowd of other decks' prints around it, and the model named it as its sibling at cosines
/// 0.72–0.83 with leads 0.13–0.24. Chosen on the same tuning sets, each scene named among the decks
/// on its table (`eval-cards --enrolled table`): 0.70 / 0.12 named 978 right and 7 wrong or
/// unknown; this rule 929 and none; with every deck enrolled at once 873 / 1 → 852 / 1.
pub const ANY_DESIGN_MIN_COSINE_AT_SMALL_GAP: f32 = 0.85;
/// A lead that names a card of any design at the model's own cosine threshold.
pub const ANY_DESIGN_CLEAR_GAP: f32 = 0.25;

/// Whether the model's nearest print (its cosine and its lead) names a card of any design.
fn any_design_names(cosine: f32, gap: f32) -> bool {
    gap >= ANY_DESIGN_CLEAR_GAP
        || (gap >= ANY_DESIGN_MIN_GAP && cosine >= ANY_DESIGN_MIN_COSINE_AT_SMALL_GAP)
}

/// The model's verdict on a card of any design: past the model's thresholds and
/// [`any_design_names`], and never for a card partly hidden.
fn any_design_verdict(t: &ModelThresholds, nearest: &Assessment, partly_hidden: bool) -> Verdict {
    match nearest {
        Some((_, cosine, gap)) if !partly_hidden && any_design_names(*cosine, *gap) => {
            t.verdict(nearest)
        }
        _ => Verdict::abstain(),
    }
}

/// The turn of `quad` whose crop is nearest an enrolled print: its corners (the card's own top-left
/// first), the crop's embedding and what the model saw there.
fn best_turn(
    learned: &Learned,
    image: &Mat,
    quad: &Corners,
) -> Result<Option<(Corners, Vec<f32>, Seen)>, VisionError> {
    let mut best: Option<(Corners, Vec<f32>, Seen)> = None;
    for turn in candidate_turns(quad) {
        let corners = turned(quad, turn);
        let embedding = learned.embed_at(image, &px(&corners))?;
        if let Some(seen) = learned.assess_embedding(&embedding) {
            if best.as_ref().is_none_or(|(_, _, b)| seen.1 > b.1) {
                best = Some((corners, embedding, seen));
            }
        }
    }
    Ok(best)
}

/// What [`name_card`] tries beyond the model's nearest print.
#[derive(Clone, Copy, Debug, Default)]
pub struct NameOptions {
    /// A whole card the model does not name is tried again with each side moved to give it a
    /// card's shape ([`super::reshape`]): up to 64 more crops a card, so live scans leave it off.
    pub mend_sides: bool,
    /// Where the model abstains and prints are enrolled, the look-alike prints' ink decides
    /// ([`crate::ink`]).
    pub compare_ink: bool,
    /// Where the ink comparison does not name it either, the look-alike prints are compared pixel
    /// by pixel ([`crate::lookalike::Prints::compare`]): several times the naming time.
    pub compare_pixels: bool,
}

/// Names a detected card: each candidate turn is embedded, the closest enrolled card wins, and the
/// model's thresholds decide whether it is named; `options` say what else is tried where it
/// abstains.
pub fn name_card(
    learned: &Learned,
    image: &Mat,
    card: &DetectedCard,
    options: NameOptions,
) -> Result<NamedCard, VisionError> {
    let (mut corners, embedding, nearest) = match best_turn(learned, image, &card.corners)? {
        Some((c, e, n)) => (c, Some(e), Some(n)),
        None => (card.corners, None, None),
    };
    let mut verdict = any_design_verdict(&learned.thresholds, &nearest, card.partly_hidden);
    let mut siblings = None;
    if let (None, false, Some(embedding)) = (&verdict.card, card.partly_hidden, &embedding) {
        if let Some(told) = tell_siblings_apart(learned, image, &corners, embedding)? {
            if told.names {
                corners = told.corners;
                verdict = Verdict {
                    card: Some(told.ranked.likeliest.0.clone()),
                    confidence: crate::identifier::model_confidence(told.ranked.likeliest.2),
                };
            }
            siblings = Some(told.ranked);
        }
    }
    let mut sides_mended = None;
    let misplaced = nearest
        .as_ref()
        .is_some_and(|(_, cosine, _)| *cosine < MOVED_SIDE_MAX_FOUND_COSINE);
    if options.mend_sides && verdict.card.is_none() && !card.partly_hidden && misplaced {
        let mended = name_with_one_side_moved(learned, image, &card.corners)?;
        if let Some((mended, seen)) = &mended {
            corners = *mended;
            verdict = learned.verdict(&Some(seen.clone()));
        }
        sides_mended = Some(mended.map(|(_, seen)| seen));
    }
    let (mut lookalike, mut ink) = (None, None);
    let compares = (options.compare_ink || options.compare_pixels) && !learned.prints.is_empty();
    if let (None, false, true, Some(embedding)) =
        (&verdict.card, card.partly_hidden, compares, &embedding)
    {
        let nearest_cosine = nearest.as_ref().map_or(0.0, |n| n.1);
        let seen = compare_lookalikes(
            learned,
            image,
            &card.corners,
            embedding,
            nearest_cosine,
            options,
        )?;
        if let Some((named_corners, named)) = seen.named {
            corners = named_corners;
            verdict = named;
        }
        (lookalike, ink) = (seen.pixels, seen.ink);
    }
    Ok(NamedCard {
        corners,
        verdict,
        nearest,
        partly_hidden: card.partly_hidden,
        lookalike,
        ink,
        sides_mended,
        siblings,
    })
}

/// The sibling model looks only where the model's nearest print is at least this near: below it the
/// crop is seldom a sibling of an enrolled print (on the training-family tuning set, 204 of 368
/// looks, none of which named a card) ...
const SIBLING_MIN_NEAREST: f32 = 0.7;
/// ... among the nearest cards within this cosine of the nearest ...
const SIBLING_WITHIN: f32 = 0.3;
/// ... at most this many.
const SIBLING_CANDIDATES: usize = 12;
/// The sibling model names its nearest candidate when it is at least this near and leads the other
/// candidates by this much. Chosen on the tuning sets (`export_eval.py --families tuning --seed
/// 810000` and `--families train --seed 800000`, 200 scenes each, detector corners): the loosest
/// pair with no card named wrong and no card nobody enrolled named on both. 0.90 / 0.25 named 82
/// count-marks cards and 5 others; 0.90 / 0.20 named 124 but one wrong and one unknown; 0.85 / 0.25
/// seven wrong.
const SIBLING_MIN_COSINE: f32 = 0.9;
const SIBLING_MIN_GAP: f32 = 0.25;

fn sibling_names(seen: &Seen) -> bool {
    seen.1 >= SIBLING_MIN_COSINE && seen.2 >= SIBLING_MIN_GAP
}

/// The pair verifier names its likeliest candidate when it is at least this likely the card seen
/// and leads the next candidate by this much in probability (the loosest pair naming none wrong and
/// no unknown card on the two tuning sets, seeds 800000–800199 and 810000–810199).
const PAIR_MIN_PROBABILITY: f32 = 0.995;
const PAIR_MIN_LEAD: f32 = 0.1;

fn pair_names(seen: &Seen) -> bool {
    seen.1 >= PAIR_MIN_PROBABILITY && seen.2 >= PAIR_MIN_LEAD
}

/// What the pair verifier (or else the sibling model) sees among the prints nearest the crop
/// (`embedding`, the model's, at `corners`), at that turn or the card turned half round, with the
/// corners of the turn it chose, whether that model's rule names it and the prints it ranked;
/// `None` without either model or near prints to tell apart.
fn tell_siblings_apart(
    learned: &Learned,
    image: &Mat,
    corners: &Corners,
    embedding: &[f32],
) -> Result<Option<Told>, VisionError> {
    if learned.pairs.is_none() && learned.siblings.is_none() {
        return Ok(None);
    }
    let candidates = near_prints(
        learned,
        embedding,
        SIBLING_CANDIDATES,
        SIBLING_MIN_NEAREST,
        SIBLING_WITHIN,
        0,
    );
    let turns = [*corners, turned(corners, 2)];
    let at = turns.map(|t| px(&t));
    let (ranked, names): (_, fn(&Seen) -> bool) = match (&learned.pairs, &learned.siblings) {
        (Some(pairs), _) => (pairs.rank(image, &at, &candidates)?, pair_names),
        (None, Some(siblings)) => (siblings.rank(image, &at, &candidates)?, sibling_names),
        (None, None) => return Ok(None),
    };
    Ok(ranked.map(|(seen, i)| Told {
        names: names(&seen),
        corners: turns[i],
        ranked: NearPrintsRanked {
            likeliest: seen,
            candidates: candidates.iter().map(|c| c.to_string()).collect(),
        },
    }))
}

/// What the pair verifier or the sibling model made of the near prints, at which turn its
/// likeliest was, and whether that is sure enough to name.
struct Told {
    ranked: NearPrintsRanked,
    corners: Corners,
    names: bool,
}

/// A card named only once one side of its quad is moved ([`super::reshape`]) must be nearer its
/// print and lead the runner-up more than a card named as found: of the many quads tried, one
/// may fit another print (a sibling one mark away) by chance. Chosen on the two tuning sets
/// (`export_eval.py --families train --seed 800000` and `--families tuning --seed 810000`, 200
/// scenes each): at cosine 0.80 and lead 0.15, 66 more cards named right on the first, but 2 of 7
/// count-marks cards named as a sibling (at 0.814 / 0.234 and 0.821 / 0.214); at 0.85 and 0.25,
/// 47 and none wrong on either.
const MOVED_SIDE_MIN_COSINE: f32 = 0.85;
const MOVED_SIDE_MIN_GAP: f32 = 0.25;
/// A card whose found quad is already this near a print, yet not named, is torn between
/// look-alike prints, not misplaced: moving its sides does not tell siblings apart, and each try
/// costs up to 64 crops. On the training-family tuning set every card named by a moved side had
/// a found-quad cosine below 0.78 (median 0.55), while a quarter of the tries were above 0.8.
const MOVED_SIDE_MAX_FOUND_COSINE: f32 = 0.8;

/// The quad with one side moved that names a card past the stricter bars above, at the turn that
/// fits best, with what the model saw there; `None` when no such quad does, or when such quads
/// name different cards.
fn name_with_one_side_moved(
    learned: &Learned,
    image: &Mat,
    quad: &Corners,
) -> Result<Option<(Corners, Seen)>, VisionError> {
    let mut best: Option<(Corners, Seen)> = None;
    for moved in super::reshape::with_one_side_moved(quad) {
        let Some((corners, _, seen)) = best_turn(learned, image, &moved)? else {
            continue;
        };
        if seen.1 < MOVED_SIDE_MIN_COSINE || seen.2 < MOVED_SIDE_MIN_GAP {
            continue;
        }
        match &best {
            Some((_, b)) if b.0 != seen.0 => return Ok(None),
            Some((_, b)) if b.1 >= seen.1 => {}
            _ => best = Some((corners, seen)),
        }
    }
    Ok(best)
}

/// The enrolled cards nearest `embedding`, at most `most`: those within `within` of the nearest and
/// the first `always` whatever their cosine; none when the nearest is below `min_nearest`.
fn near_prints<'a>(
    learned: &'a Learned,
    embedding: &[f32],
    most: usize,
    min_nearest: f32,
    within: f32,
    always: usize,
) -> Vec<&'a str> {
    let ranked = learned.enrolment.ranked(embedding, most);
    match ranked.first() {
        Some(&(_, nearest)) if nearest >= min_nearest => ranked
            .iter()
            .enumerate()
            .filter(|(i, (_, c))| *i < always || *c >= nearest - within)
            .map(|(_, (card, _))| *card)
            .collect(),
        _ => Vec::new(),
    }
}

/// The look-alike comparison looks at this many nearest cards by embedding ...
const LOOKALIKE_CANDIDATES: usize = 12;
/// ... those within this cosine of the nearest ...
const LOOKALIKE_WITHIN: f32 = 0.3;
/// ... and at least this close: below it the crop is nothing enrolled ...
const LOOKALIKE_MIN_COSINE: f32 = 0.5;
/// ... with this many cards whose prints' thumbnails look most like the crop.
const LOOKALIKE_BY_LOOK: usize = 8;

/// What the look-alike comparisons found where the model abstained.
struct LookalikesSeen {
    /// The card they named, with the corners of the turn that named it.
    named: Option<(Corners, Verdict)>,
    pixels: Option<Resolved>,
    ink: Option<InkResolved>,
}

/// Compares the quad's crops with the look-alike prints: their ink (`options.compare_ink`), then,
/// where that names nothing, their pixels (`options.compare_pixels`). `embedding` is the crop's at
/// the model's chosen turn, `nearest_cosine` the model's cosine to its nearest print.
fn compare_lookalikes(
    learned: &Learned,
    image: &Mat,
    quad: &Corners,
    embedding: &[f32],
    nearest_cosine: f32,
    options: NameOptions,
) -> Result<LookalikesSeen, VisionError> {
    let mut seen = LookalikesSeen {
        named: None,
        pixels: None,
        ink: None,
    };
    let Some(among) = lookalike_candidates(learned, image, quad, embedding)? else {
        return Ok(seen);
    };
    if options.compare_ink {
        let behind_nearest = |card: &str| {
            nearest_cosine - learned.enrolment.cosine_of(card, embedding).unwrap_or(-1.0)
        };
        seen.ink = learned
            .prints
            .compare_ink(&among.crops, &among.cards, behind_nearest);
        if let Some(r) = seen.ink.as_ref().filter(|r| crate::lookalike::ink_names(r)) {
            let verdict = Verdict {
                card: Some(r.card.clone()),
                confidence: crate::lookalike::ink_confidence(r),
            };
            seen.named = among.turns.get(r.crop).map(|&t| (t, verdict));
        }
    }
    if seen.named.is_none() && options.compare_pixels {
        seen.pixels = learned.prints.compare(&among.crops, &among.cards)?;
        if let Some(r) = seen.pixels.as_ref().filter(|r| crate::lookalike::names(r)) {
            let verdict = Verdict {
                card: Some(r.card.clone()),
                confidence: (1.0 - r.telling_share / crate::lookalike::MAX_TELLING_SHARE)
                    .clamp(0.0, 1.0) as f32,
            };
            seen.named = among.turns.get(r.crop).map(|&t| (t, verdict));
        }
    }
    Ok(seen)
}

/// The crops and candidates of the look-alike comparisons: the quad cut at each turn it allows,
/// and the cards nearest `embedding` (the crop at the turn the embedding chose) with those whose
/// prints look most like the crops.
struct Lookalikes<'a> {
    turns: Vec<Corners>,
    crops: Vec<Patch>,
    cards: Vec<&'a str>,
}

fn lookalike_candidates<'a>(
    learned: &'a Learned,
    image: &Mat,
    quad: &Corners,
    embedding: &[f32],
) -> Result<Option<Lookalikes<'a>>, VisionError> {
    // The runner-up always takes part, so that the lead says how much better the crop fits its card
    // than any other, even when the embedding left the others far behind.
    let mut cards = near_prints(
        learned,
        embedding,
        LOOKALIKE_CANDIDATES,
        LOOKALIKE_MIN_COSINE,
        LOOKALIKE_WITHIN,
        2,
    );
    if cards.is_empty() {
        return Ok(None);
    }
    let turns: Vec<Corners> = candidate_turns(quad)
        .into_iter()
        .map(|t| turned(quad, t))
        .collect();
    let crops: Vec<Patch> = turns
        .iter()
        .map(|c| Patch::cut(image, &px(c)))
        .collect::<Result<_, _>>()?;
    // The embedding can miss a sparse print's card altogether (a few marks on plain paper under a
    // colour cast): the prints that look most like the crop take part too.
    for card in learned.prints.nearest_by_look(&crops, LOOKALIKE_BY_LOOK) {
        if !cards.contains(&card) {
            cards.push(card);
        }
    }
    Ok(Some(Lookalikes {
        turns,
        crops,
        cards,
    }))
}

/// The card in an enrolment photo (one card lying upright, the camera above it): the largest card
/// wholly in view (its pieces joined: [`CardDetector::detect_apart`]), else the largest one called
/// partly hidden that is card-shaped and inside the frame; its corners from the one nearest the
/// image's top-left.
pub fn enrolment_corners(
    detector: &mut CardDetector,
    photo: &Mat,
) -> Result<Option<[[f64; 2]; 4]>, VisionError> {
    let cards = detector.detect_apart(photo)?;
    let largest = |whole: bool| {
        cards
            .iter()
            .filter(|c| c.partly_hidden != whole)
            .max_by(|a, b| area(&a.corners).total_cmp(&area(&b.corners)))
    };
    if let Some(card) = largest(true) {
        return Ok(Some(super::deck::upright(&card.corners)));
    }
    // One card lies there: a plain card (flat colour, no frame) whose core does not fill its
    // quad is called partly hidden; inside the frame and card-shaped, it is the card, fitted to
    // its edges as a whole one would be.
    let (w, h) = (photo.cols() as f64, photo.rows() as f64);
    let Some(card) = largest(false).filter(|c| {
        super::join::card_shaped(&c.corners) && !super::reaches_past_frame(&c.corners, w, h)
    }) else {
        return Ok(None);
    };
    let gray = super::gray_of(photo)?;
    let fitted = detector.fitted(photo, &gray, card.corners)?;
    Ok(Some(super::deck::upright(&fitted)))
}

/// The embedding of the card in an enrolment photo and its patch for telling look-alikes apart,
/// or `None` when no card is found there ([`enrolment_corners`]).
pub fn enrolment_embedding(
    detector: &mut CardDetector,
    learned: &Learned,
    photo: &Mat,
) -> Result<Option<EnrolledPhoto>, VisionError> {
    let Some(corners) = enrolment_corners(detector, photo)? else {
        return Ok(None);
    };
    let corners = px(&corners);
    let sibling = match &learned.siblings {
        Some(s) => Some(s.embed_at(photo, &corners)?),
        None => None,
    };
    Ok(Some(EnrolledPhoto {
        embedding: learned.embed_at(photo, &corners)?,
        sibling,
        corners,
    }))
}

/// What a photo of one card enrols: the model's embedding, the sibling model's (when loaded) and
/// where the card lies (its own top-left first), to cut its patch for comparing look-alike prints
/// when they are compared.
pub struct EnrolledPhoto {
    pub embedding: Vec<f32>,
    pub sibling: Option<Vec<f32>>,
    pub corners: [[f32; 2]; 4],
}

fn area(q: &[[f64; 2]; 4]) -> f64 {
    crate::geometry::signed_area(q).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_of_any_design_needs_the_larger_lead() {
        let t = ModelThresholds::default();
        assert!(
            t.min_gap < ANY_DESIGN_MIN_GAP,
            "the floor must be above the model's own"
        );
        let seen = |gap: f32| Some(("a".to_string(), 0.9, gap));
        // Enough for the model's own thresholds, not for a card of any design.
        let between = (t.min_gap + ANY_DESIGN_MIN_GAP) / 2.0;
        assert!(t.verdict(&seen(between)).card.is_some());
        assert_eq!(any_design_verdict(&t, &seen(between), false).card, None);
        assert_eq!(
            any_design_verdict(&t, &seen(ANY_DESIGN_MIN_GAP + 0.01), false).card,
            Some("a".to_string())
        );
        // A small lead names only a near print; a clear lead names one as near as the model asks.
        let near = |cosine: f32, gap: f32| Some(("a".to_string(), cosine, gap));
        let small_gap = ANY_DESIGN_MIN_GAP + 0.01;
        let below = ANY_DESIGN_MIN_COSINE_AT_SMALL_GAP - 0.05;
        assert_eq!(
            any_design_verdict(&t, &near(below, small_gap), false).card,
            None
        );
        assert_eq!(
            any_design_verdict(&t, &near(below, ANY_DESIGN_CLEAR_GAP), false).card,
            Some("a".to_string())
        );
        assert_eq!(
            any_design_verdict(&t, &near(t.min_cosine - 0.01, 0.5), false).card,
            None,
            "below the model's own cosine"
        );
        assert_eq!(
            any_design_verdict(&t, &seen(0.5), true).card,
            None,
            "partly hidden"
        );
        assert_eq!(any_design_verdict(&t, &None, false).card, None);
    }

    #[test]
    fn a_portrait_quad_tries_the_two_turns_with_a_short_side_on_top() {
        let portrait = [[0.0, 0.0], [60.0, 0.0], [60.0, 90.0], [0.0, 90.0]];
        assert_eq!(candidate_turns(&portrait), vec![0, 2]);
        let sideways = [[0.0, 0.0], [90.0, 0.0], [90.0, 60.0], [0.0, 60.0]];
        assert_eq!(candidate_turns(&sideways), vec![1, 3]);
        let end_on = [[0.0, 0.0], [60.0, 0.0], [62.0, 64.0], [0.0, 64.0]];
        assert_eq!(candidate_turns(&end_on), vec![0, 1, 2, 3]);
        assert_eq!(turned(&portrait, 1)[0], [60.0, 0.0]);
    }
}
