//! Scores detection and naming of cards of any design on an evaluation set written by
//! models/detect/export_eval.py (a compositor that shares no code with `scene.rs`): each card is
//! enrolled from its one photo, then every scene is detected and named and compared with its truth,
//! by design family, table, layout, camera tilt and camera yaw.

use super::name::{enrolment_embedding, name_card, NameOptions, NamedCard};
use super::{CardDetector, DetectTimings, DetectedCard};
use crate::detect::dist;
use crate::geometry::{centroid, signed_area};
use crate::identifier::Learned;
use crate::pipeline::read_image;
use crate::VisionError;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

#[derive(Deserialize)]
pub struct Manifest {
    pub compositor: String,
    pub seeds: [u64; 2],
    pub families: Vec<String>,
    pub scenes: Vec<SceneEntry>,
    pub enrol: Vec<EnrolEntry>,
    pub not_enrolled: Vec<String>,
}

#[derive(Deserialize)]
pub struct SceneEntry {
    pub image: String,
    pub seed: u64,
    pub yaw_deg: f64,
    pub tilt_deg: f64,
    pub layout: String,
    pub table: String,
    pub cards: Vec<TruthCard>,
}

#[derive(Deserialize)]
pub struct TruthCard {
    pub id: String,
    pub design: String,
    pub family: String,
    /// The card's own top-left, top-right, bottom-right, bottom-left (image px).
    pub corners: [[f64; 2]; 4],
    pub visible: f64,
    /// Wholly in view and uncovered: it must be found.
    pub findable: bool,
}

#[derive(Deserialize)]
pub struct EnrolEntry {
    pub id: String,
    pub image: String,
}

impl SceneEntry {
    /// The decks (designs) lying on the scene's table, whether their cards are in view or not.
    pub fn decks(&self) -> HashSet<&str> {
        self.cards.iter().map(|c| c.design.as_str()).collect()
    }
}

impl Manifest {
    pub fn load(dir: &Path) -> Result<Manifest, VisionError> {
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|e| VisionError::io(&path, e))?;
        serde_json::from_str(&text).map_err(|e| VisionError::Data {
            path: path.clone(),
            reason: format!("line {}: {e}", e.line()),
        })
    }
}

/// Counts for one condition (or all scenes).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Cards wholly in view.
    pub cards: u64,
    pub found: u64,
    pub named_right: u64,
    pub named_wrong: u64,
    /// Found cards whose top-left corner was put at the truth's top-left (named ones only).
    pub turned_right: u64,
    /// Cards not enrolled (wholly in view) and how many of them were named at all.
    pub unknown: u64,
    pub unknown_named: u64,
    pub extra_detections: u64,
    pub scenes: u64,
    /// Scenes with every enrolled card found and named right, no wrong name and no extra detection.
    pub scenes_exact: u64,
    /// Sum of mean corner errors of found cards (px), for the average.
    pub corner_err_sum: f64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.cards += o.cards;
        self.found += o.found;
        self.named_right += o.named_right;
        self.named_wrong += o.named_wrong;
        self.turned_right += o.turned_right;
        self.unknown += o.unknown;
        self.unknown_named += o.unknown_named;
        self.extra_detections += o.extra_detections;
        self.scenes += o.scenes;
        self.scenes_exact += o.scenes_exact;
        self.corner_err_sum += o.corner_err_sum;
    }

    pub fn rates(&self) -> Rates {
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let known = self.cards - self.unknown;
        Rates {
            found: pct(self.found, self.cards),
            named_right: pct(self.named_right, known),
            named_wrong: pct(self.named_wrong, known),
            turned_right: pct(self.turned_right, self.named_right),
            unknown_named: pct(self.unknown_named, self.unknown),
            scenes_exact: pct(self.scenes_exact, self.scenes),
            extra_per_scene: if self.scenes == 0 {
                0.0
            } else {
                self.extra_detections as f64 / self.scenes as f64
            },
            corner_err_px: if self.found == 0 {
                0.0
            } else {
                self.corner_err_sum / self.found as f64
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rates {
    pub found: f64,
    pub named_right: f64,
    pub named_wrong: f64,
    pub turned_right: f64,
    pub unknown_named: f64,
    pub scenes_exact: f64,
    pub extra_per_scene: f64,
    pub corner_err_px: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct StageTimes {
    pub median_ms: f64,
    pub p95_ms: f64,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub compositor: String,
    pub seeds: [u64; 2],
    pub families: Vec<String>,
    pub enrolled: usize,
    pub enrolment_failed: Vec<String>,
    pub total: Tally,
    pub total_rates: Rates,
    /// Condition kind ("family", "table", "layout", "tilt", "yaw") → value → tally.
    pub by: BTreeMap<String, BTreeMap<String, (Tally, Rates)>>,
    pub stages: BTreeMap<String, StageTimes>,
    /// Every failure, to look at: (scene image, card id, what went wrong).
    pub failures: Vec<(String, String, String)>,
    /// Every found, wholly visible card's nearest enrolled print before thresholds, for tuning them
    /// on a tuning set (never on the evaluation's).
    pub decisions: Vec<Decision>,
    /// Median and 90th percentile of found cards' mean corner error (px).
    pub corner_err_median_px: f64,
    pub corner_err_p90_px: f64,
    /// Cards were named from their true corners, not found by the detector.
    pub true_corners: bool,
    /// Which enrolled decks each scene's cards were named among.
    pub enrolled_decks: EnrolledDecks,
    /// Detections named only once one side of their quad was moved.
    pub sides_mended: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// The scene's image and the card's id.
    pub scene: String,
    pub card: String,
    /// The card's design family.
    pub family: String,
    pub unknown: bool,
    /// The nearest enrolled print's card, and whether it is this card.
    pub nearest: String,
    pub nearest_right: bool,
    pub cosine: f32,
    pub gap: f32,
    pub corner_err_px: f64,
    /// Named once one side was moved: whether rightly, the cosine and the lead there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mended: Option<(bool, f32, f32)>,
    /// Where the model abstained: what the look-alike comparison found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lookalike: Option<LookalikeDecision>,
    /// Where the model abstained: the ink comparison's nearest card, its dissimilarity, the next
    /// card's, and how far the model's cosine to it lies behind its nearest print's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ink: Option<(String, f64, f64, f32)>,
    /// Where the model abstained between near prints: whether the pair verifier's likeliest (its
    /// probability and lead in probability) or else the sibling model's nearest (its cosine and
    /// lead) was right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub siblings: Option<(bool, f32, f32)>,
    /// There: whether this card was among the near prints ranked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub siblings_among: Option<bool>,
}

/// The look-alike comparison of one card (see [`crate::lookalike::Resolved`]): whether its best
/// print was the right card's, and the measures its rule reads.
#[derive(Clone, Debug, Serialize)]
pub struct LookalikeDecision {
    pub right: bool,
    pub fit: f64,
    pub runner_up_fit: f64,
    pub telling_share: f64,
    pub mismatch: f64,
    pub worst_spot: f64,
}

/// Matching a detection to a truth card: centres within this share of the card's size, areas within
/// this ratio.
const MATCH_CENTRE_SHARE: f64 = 0.3;
const MATCH_AREA_RATIO: f64 = 1.6;

/// How [`evaluate`] runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalOptions {
    /// Score only the first N scenes.
    pub limit: Option<usize>,
    /// Where the model abstains, compare the look-alike prints' ink.
    pub ink: bool,
    /// Where neither the model nor the ink names a card, compare look-alike prints pixel by pixel.
    pub lookalikes: bool,
    /// Name each card wholly in view from its true corners instead of the detector's quads: what
    /// the identifier alone achieves, apart from finding.
    pub true_corners: bool,
    /// Try whole cards the model does not name again with one side moved (`name::name_card`).
    pub mend_sides: bool,
    /// Look again, closer, where the detector ran cards together
    /// ([`CardDetector::look_closer`]).
    pub look_closer: bool,
    /// Which enrolled decks each scene's cards are named among.
    pub enrolled: EnrolledDecks,
}

/// Which enrolled decks a scene's cards are named among.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum EnrolledDecks {
    /// Every deck of the set at once (hundreds of designs, dozens of them one style of playing
    /// cards that differ only in their paper's tint and suit colours).
    #[default]
    All,
    /// Only the decks lying on the scene's table, as a player who enrolled the decks of the game
    /// in play has them (cards of those decks left unenrolled are still unknown).
    OnTable,
}

/// The design (deck) an evaluation card id belongs to: ids are `<design>-<card>`.
pub fn deck_of(card: &str) -> &str {
    card.rsplit_once('-').map_or(card, |(deck, _)| deck)
}

/// Every enrolled print, kept apart so that each scene can be named among the decks on its table.
struct AllEnrolled {
    enrolment: crate::embed::Enrolment,
    prints: crate::lookalike::Prints,
    siblings: Option<crate::embed::Enrolment>,
    pairs: Option<crate::pairs::PairPrints>,
}

impl AllEnrolled {
    fn keep(learned: &Learned) -> AllEnrolled {
        AllEnrolled {
            enrolment: learned.enrolment.clone(),
            prints: learned.prints.clone(),
            siblings: learned.siblings.as_ref().map(|s| s.enrolment.clone()),
            pairs: learned.pairs.as_ref().map(|p| p.prints.clone()),
        }
    }

    /// Puts into `learned` only the prints of the decks lying in `scene`.
    fn only_on_table(&self, learned: &mut Learned, scene: &SceneEntry) {
        let decks = scene.decks();
        let on_table = |id: &str| decks.contains(deck_of(id));
        learned.enrolment = self.enrolment.clone();
        learned.enrolment.retain(on_table);
        learned.prints = self.prints.clone();
        learned.prints.retain(on_table);
        if let (Some(siblings), Some(all)) = (&mut learned.siblings, &self.siblings) {
            siblings.enrolment = all.clone();
            siblings.enrolment.retain(on_table);
        }
        if let (Some(pairs), Some(all)) = (&mut learned.pairs, &self.pairs) {
            pairs.prints = all.only(on_table);
        }
    }
}

/// Enrols every card from its photo (with its patch for telling look-alikes apart when `ink` or
/// `lookalikes`), then scores every scene.
pub fn evaluate(
    dir: &Path,
    detector: &mut CardDetector,
    learned: &mut Learned,
    options: EvalOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<Report, VisionError> {
    let EvalOptions {
        limit,
        ink,
        lookalikes,
        true_corners,
        mend_sides,
        look_closer,
        enrolled,
    } = options;
    let naming = NameOptions {
        mend_sides: mend_sides && !true_corners,
        compare_ink: ink,
        compare_pixels: lookalikes,
    };
    let manifest = Manifest::load(dir)?;
    let mut failed = Vec::new();
    for e in &manifest.enrol {
        let photo = read_image(&dir.join(&e.image))?;
        match enrolment_embedding(detector, learned, &photo)? {
            Some(enrolled) => {
                learned.enrolment.enrol(&e.id, enrolled.embedding);
                if let (Some(siblings), Some(v)) = (&mut learned.siblings, enrolled.sibling) {
                    siblings.enrolment.enrol(&e.id, v);
                }
                if let Some(pairs) = &mut learned.pairs {
                    pairs.prints.enrol(&e.id, &photo, &enrolled.corners)?;
                }
                if ink || lookalikes {
                    let patch = crate::lookalike::Patch::cut(&photo, &enrolled.corners)?;
                    learned.prints.enrol(&e.id, patch);
                }
            }
            None => failed.push(e.id.clone()),
        }
    }
    let unknown: HashSet<&str> = manifest.not_enrolled.iter().map(|s| s.as_str()).collect();
    let all_enrolled = (enrolled == EnrolledDecks::OnTable).then(|| AllEnrolled::keep(learned));
    let mut total = Tally::default();
    let mut by: BTreeMap<String, BTreeMap<String, Tally>> = BTreeMap::new();
    let mut times: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut decisions = Vec::new();
    let mut sides_mended = 0;
    let n = limit.unwrap_or(usize::MAX).min(manifest.scenes.len());
    for (i, scene) in manifest.scenes.iter().take(n).enumerate() {
        progress(i, n);
        let path = dir.join(&scene.image);
        let image = read_image(&path)?;
        if let Some(all) = &all_enrolled {
            all.only_on_table(learned, scene);
        }
        let t = Instant::now();
        let detected = if true_corners {
            truth_quads(scene)
        } else {
            detector.detect(&image)?
        };
        let mut detect_ms = t.elapsed().as_secs_f64() * 1000.0;
        let t = Instant::now();
        let mut named: Vec<NamedCard> = detected
            .iter()
            .map(|d| name_card(learned, &image, d, naming))
            .collect::<Result<_, _>>()?;
        let mut name_ms = t.elapsed().as_secs_f64() * 1000.0;
        if look_closer && !true_corners {
            let known: Vec<bool> = named.iter().map(|n| n.verdict.card.is_some()).collect();
            let closer = detector.look_closer(&image, &detected, &known)?;
            let closer_ms = detector.timings.closer_ms;
            detect_ms += closer_ms;
            let stage = times.entry("detect: closer look".into()).or_default();
            stage.push(closer_ms);
            let t = Instant::now();
            named = named
                .into_iter()
                .enumerate()
                .filter(|(k, _)| !closer.parted.contains(k))
                .map(|(_, n)| n)
                .collect();
            for card in &closer.cards {
                named.push(name_card(learned, &image, card, naming)?);
            }
            name_ms += t.elapsed().as_secs_f64() * 1000.0;
        }
        sides_mended += named
            .iter()
            .filter(|n| matches!(n.sides_mended, Some(Some(_))))
            .count();
        // From true corners nothing was detected: the detector's timings are an earlier run's.
        let timings = (!true_corners).then_some(&detector.timings);
        record_times(&mut times, timings, detect_ms, name_ms);
        let (tally, family_tallies, why) = score_scene(scene, &named, &unknown, &mut decisions);
        failures.extend(
            why.into_iter()
                .map(|(card, reason)| (scene.image.clone(), card, reason)),
        );
        total.add(&tally);
        let mut put = |kind: &str, value: String, t: &Tally| {
            by.entry(kind.into())
                .or_default()
                .entry(value)
                .or_default()
                .add(t);
        };
        put("table", scene.table.clone(), &tally);
        put("layout", scene.layout.clone(), &tally);
        put("tilt", bucket(scene.tilt_deg, 15.0, "°"), &tally);
        put("yaw", bucket(scene.yaw_deg, 45.0, "°"), &tally);
        for (family, t) in family_tallies {
            put("family", family, &t);
        }
    }
    let stages = times
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(f64::total_cmp);
            let q = |f: f64| {
                v.get(((v.len() as f64 - 1.0) * f).round() as usize)
                    .copied()
                    .unwrap_or(0.0)
            };
            (
                k,
                StageTimes {
                    median_ms: q(0.5),
                    p95_ms: q(0.95),
                },
            )
        })
        .collect();
    let mut errs: Vec<f64> = decisions.iter().map(|d| d.corner_err_px).collect();
    errs.sort_by(f64::total_cmp);
    let pick = |f: f64| {
        errs.get(((errs.len() as f64 - 1.0) * f).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let (corner_err_median_px, corner_err_p90_px) = (pick(0.5), pick(0.9));
    Ok(Report {
        enrolled_decks: enrolled,
        true_corners,
        sides_mended,
        corner_err_median_px,
        corner_err_p90_px,
        compositor: manifest.compositor.clone(),
        seeds: manifest.seeds,
        families: manifest.families.clone(),
        enrolled: manifest.enrol.len() - failed.len(),
        enrolment_failed: failed,
        total_rates: total.rates(),
        total,
        by: by
            .into_iter()
            .map(|(k, m)| {
                (
                    k,
                    m.into_iter()
                        .map(|(v, t)| {
                            let r = t.rates();
                            (v, (t, r))
                        })
                        .collect(),
                )
            })
            .collect(),
        stages,
        failures,
        decisions,
    })
}

/// Every card wholly in view as the detector would report it, from its true corners.
fn truth_quads(scene: &SceneEntry) -> Vec<DetectedCard> {
    scene
        .cards
        .iter()
        .filter(|c| c.findable)
        .map(|c| DetectedCard {
            corners: c.corners,
            partly_hidden: false,
            score: 1.0,
        })
        .collect()
}

fn record_times(
    times: &mut BTreeMap<String, Vec<f64>>,
    detector: Option<&DetectTimings>,
    detect_ms: f64,
    name_ms: f64,
) {
    if let Some(t) = detector {
        for (k, v) in [
            ("detect: prepare", t.prepare_ms),
            ("detect: model", t.model_ms),
            ("detect: quads", t.quads_ms),
            ("detect: snap to edges", t.snap_ms),
            ("detect: corners", t.corners_ms),
            ("detect (all)", detect_ms),
        ] {
            times.entry(k.into()).or_default().push(v);
        }
    }
    for (k, v) in [("name", name_ms), ("frame", detect_ms + name_ms)] {
        times.entry(k.into()).or_default().push(v);
    }
}

fn bucket(v: f64, width: f64, unit: &str) -> String {
    let lo = (v / width).floor() * width;
    format!("{:03}–{:03}{unit}", lo as i64, (lo + width) as i64)
}

/// Mean distance between corresponding corners, for the best cyclic alignment.
pub fn corner_error(a: &[[f64; 2]; 4], b: &[[f64; 2]; 4]) -> (f64, usize) {
    (0..4)
        .map(|turn| {
            let e = (0..4).map(|k| dist(a[(k + turn) % 4], b[k])).sum::<f64>() / 4.0;
            (e, turn)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .unwrap_or((f64::MAX, 0))
}

fn matches(det: &[[f64; 2]; 4], truth: &[[f64; 2]; 4]) -> bool {
    let (ad, at) = (signed_area(det).abs(), signed_area(truth).abs());
    if ad <= 0.0 || at <= 0.0 {
        return false;
    }
    let ratio = ad.max(at) / ad.min(at);
    dist(centroid(det), centroid(truth)) < MATCH_CENTRE_SHARE * at.sqrt()
        && ratio < MATCH_AREA_RATIO
}

type FamilyTallies = BTreeMap<String, Tally>;

fn score_scene(
    scene: &SceneEntry,
    named: &[NamedCard],
    unknown: &HashSet<&str>,
    decisions: &mut Vec<Decision>,
) -> (Tally, FamilyTallies, Vec<(String, String)>) {
    let mut t = Tally {
        scenes: 1,
        ..Tally::default()
    };
    let mut families: FamilyTallies = BTreeMap::new();
    let mut why = Vec::new();
    let mut used = vec![false; named.len()];
    let mut exact = true;
    // Cards that must be found take their detections first; a partly covered card then only
    // absorbs a detection left over (so it is not counted extra), never one a findable card needs.
    let (must, may): (Vec<&TruthCard>, Vec<&TruthCard>) =
        scene.cards.iter().partition(|c| c.findable);
    for truth in must.into_iter().chain(may) {
        // The best unused detection on this card.
        let hit = named
            .iter()
            .enumerate()
            .filter(|(i, n)| !used[*i] && matches(&n.corners, &truth.corners))
            .min_by(|a, b| {
                corner_error(&a.1.corners, &truth.corners)
                    .0
                    .total_cmp(&corner_error(&b.1.corners, &truth.corners).0)
            })
            .map(|(i, _)| i);
        if let Some(i) = hit {
            used[i] = true;
        }
        if !truth.findable {
            continue;
        }
        let mut c = Tally {
            cards: 1,
            ..Tally::default()
        };
        let is_unknown = unknown.contains(truth.id.as_str());
        c.unknown = is_unknown as u64;
        match hit {
            None => {
                why.push((truth.id.clone(), "not found".into()));
                exact = false;
            }
            Some(i) => {
                let n = &named[i];
                c.found = 1;
                let (err, turn) = corner_error(&n.corners, &truth.corners);
                c.corner_err_sum = err;
                if let (Some((id, cosine, gap)), false) = (&n.nearest, n.partly_hidden) {
                    decisions.push(Decision {
                        scene: scene.image.clone(),
                        card: truth.id.clone(),
                        family: truth.family.clone(),
                        unknown: is_unknown,
                        nearest: id.clone(),
                        nearest_right: *id == truth.id,
                        cosine: *cosine,
                        gap: *gap,
                        corner_err_px: err,
                        mended: n
                            .sides_mended
                            .clone()
                            .flatten()
                            .map(|(id, cos, gap)| (id == truth.id, cos, gap)),
                        lookalike: n.lookalike.as_ref().map(|r| LookalikeDecision {
                            right: r.card == truth.id,
                            fit: r.fit,
                            runner_up_fit: r.runner_up_fit,
                            telling_share: r.telling_share,
                            mismatch: r.mismatch,
                            worst_spot: r.worst_spot,
                        }),
                        ink: n.ink.as_ref().map(|r| {
                            (
                                r.card.clone(),
                                r.dissimilarity,
                                r.runner_up,
                                r.behind_nearest,
                            )
                        }),
                        siblings: n.siblings.as_ref().map(|r| {
                            let (id, cos, gap) = &r.likeliest;
                            (*id == truth.id, *cos, *gap)
                        }),
                        siblings_among: n
                            .siblings
                            .as_ref()
                            .map(|r| r.candidates.contains(&truth.id)),
                    });
                }
                match (&n.verdict.card, is_unknown) {
                    (Some(_), true) => {
                        c.unknown_named = 1;
                        why.push((truth.id.clone(), "unknown card named".into()));
                        exact = false;
                    }
                    (Some(card), false) if *card == truth.id => {
                        c.named_right = 1;
                        c.turned_right = (turn == 0) as u64;
                        if turn != 0 {
                            exact = false;
                            why.push((truth.id.clone(), format!("named right, turned by {turn}")));
                        }
                    }
                    (Some(card), false) => {
                        c.named_wrong = 1;
                        exact = false;
                        why.push((truth.id.clone(), format!("named {card}")));
                    }
                    (None, true) => {}
                    (None, false) => {
                        exact = false;
                        let near = n
                            .nearest
                            .as_ref()
                            .map(|(id, cos, gap)| {
                                format!(" (nearest {id} at {cos:.3}, lead {gap:.3})")
                            })
                            .unwrap_or_default();
                        let hidden = if n.partly_hidden {
                            " as partly hidden"
                        } else {
                            ""
                        };
                        why.push((truth.id.clone(), format!("found{hidden}, not named{near}")));
                    }
                }
            }
        }
        t.add(&c);
        families.entry(truth.family.clone()).or_default().add(&c);
    }
    // A detection matched to no card at all, not even a partly hidden one.
    let extra = used.iter().filter(|u| !**u).count() as u64;
    t.extra_detections = extra;
    if extra > 0 {
        exact = false;
    }
    t.scenes_exact = exact as u64;
    // Scene counts per family: each family in the scene counts the scene once.
    for f in families.values_mut() {
        f.scenes = 1;
        f.scenes_exact = exact as u64;
    }
    (t, families, why)
}

/// Prints the report as tables.
pub fn print(report: &Report) {
    println!(
        "cards of any design: {} scenes from {} (seeds {}–{}), families {}",
        report.total.scenes,
        report.compositor,
        report.seeds[0],
        report.seeds[1],
        report.families.join(", ")
    );
    if report.true_corners {
        println!("named from the cards' true corners: the detector's quads were not used");
    }
    println!(
        "enrolled {} cards from one photo each ({} photos where no whole card was found)",
        report.enrolled,
        report.enrolment_failed.len()
    );
    if report.enrolled_decks == EnrolledDecks::OnTable {
        println!("each scene's cards named among the decks on its table only");
    }
    if report.sides_mended > 0 {
        println!(
            "{} detections named once one side of their quad was moved",
            report.sides_mended
        );
    }
    let header = format!(
        "{:<22} {:>6} {:>7} {:>7} {:>7} {:>7} {:>8} {:>7} {:>6} {:>6}",
        "condition",
        "cards",
        "found%",
        "right%",
        "wrong%",
        "turn%",
        "unkNm%",
        "exact%",
        "extra",
        "errpx"
    );
    let row = |name: &str, t: &Tally| {
        let r = t.rates();
        println!(
            "{:<22} {:>6} {:>7.2} {:>7.2} {:>7.3} {:>7.2} {:>8.2} {:>7.1} {:>6.2} {:>6.2}",
            name,
            t.cards,
            r.found,
            r.named_right,
            r.named_wrong,
            r.turned_right,
            r.unknown_named,
            r.scenes_exact,
            r.extra_per_scene,
            r.corner_err_px
        )
    };
    println!("{header}");
    row("all", &report.total);
    for (kind, values) in &report.by {
        for (value, (t, _)) in values {
            row(&format!("{kind} {value}"), t);
        }
    }
    println!("stage                  median ms   p95 ms");
    for (k, s) in &report.stages {
        println!("{k:<22} {:>9.2} {:>8.2}", s.median_ms, s.p95_ms);
    }
}
