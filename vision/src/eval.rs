//! Evaluation on synthetic scenes: render from seeds, scan, compare with the ground truth.

use crate::geometry::point_in_convex;
use crate::scene::{Scene, SceneOptions, SceneRenderer, SceneTruth};
use crate::types::TableObservation;
use crate::{Scanner, VisionError};
use serde::{Deserialize, Serialize};

/// How one truth card fared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardOutcome {
    pub truth: String,
    pub got: Option<String>,
    pub detected: bool,
    pub covered: bool,
    /// The pipeline said it looked covered.
    #[serde(default)]
    pub seen_covered: bool,
    pub orientation_ok: bool,
    pub cell_ok: bool,
    pub confidence: f32,
    pub corners: [[f32; 2]; 4],
}

/// One outline the scanner reported, and where it lies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeenOutline {
    pub card: Option<String>,
    pub corners: [[f32; 2]; 4],
    /// Where the scanner put its centre (what decides the card it lies on).
    pub center: [f32; 2],
    pub covered: bool,
    pub confidence: f32,
    /// The index in the truth's cards of the card whose outline holds its centre; `None` where
    /// no card lies.
    pub on_card: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneOutcome {
    pub seed: u64,
    pub tilt_deg: f64,
    pub blur: f64,
    pub glare_spots: u32,
    pub aruco_mat: bool,
    pub hand: bool,
    #[serde(default)]
    pub placement: crate::scene::Placement,
    #[serde(default)]
    pub yaw_deg: f64,
    /// The table's kind ("wood", "marble", ...).
    #[serde(default)]
    pub table: String,
    pub cards: Vec<CardOutcome>,
    /// Observations naming a card that is not there (wrong id or no card at all).
    pub wrong_named: usize,
    /// Each of those, said in words for the report: "covered ss-u10 named wh-u02 at (x, y)".
    pub wrong_names: Vec<String>,
    /// Every outline the scanner reported, with the truth card it lies on (for looking at
    /// failures: `eval-vision --outcomes`).
    #[serde(default)]
    pub seen: Vec<SeenOutline>,
    /// Every visible card named, placed and oriented right, and nothing extra: no wrong name, no
    /// phantom.
    pub exact: bool,
    pub timings: crate::types::Timings,
}

impl SeenOutline {
    /// An unnamed outline where no card lies: a card the table's tracker waits on.
    pub fn is_phantom(&self) -> bool {
        self.card.is_none() && self.on_card.is_none()
    }
}

impl SceneOutcome {
    /// Unnamed outlines where no card lies.
    pub fn phantoms(&self) -> usize {
        self.seen.iter().filter(|s| s.is_phantom()).count()
    }

    /// Each unnamed outline where no card lies, said in words for the report: "partly hidden,
    /// 52×71 px at (x, y)".
    pub fn phantom_places(&self) -> Vec<String> {
        self.seen
            .iter()
            .filter(|s| s.is_phantom())
            .map(|s| {
                let corner = |k: usize| s.corners[k % 4].map(f64::from);
                let side = |k: usize| crate::detect::dist(corner(k), corner(k + 1));
                let c = s.center;
                format!(
                    "{}{:.0}×{:.0} px at ({:.0}, {:.0})",
                    if s.covered { "partly hidden, " } else { "" },
                    side(0),
                    side(1),
                    c[0],
                    c[1]
                )
            })
            .collect()
    }
}

/// Compares one observation with its truth. An observation belongs to the truth card whose outline
/// holds its centre (the top card of a stack, since it was laid last).
pub fn compare(truth: &SceneTruth, obs: &TableObservation) -> SceneOutcome {
    let mut cards: Vec<CardOutcome> = truth
        .cards
        .iter()
        .map(|t| CardOutcome {
            truth: t.card.clone(),
            got: None,
            detected: false,
            covered: t.covered,
            seen_covered: false,
            orientation_ok: false,
            cell_ok: false,
            confidence: 0.0,
            corners: t.corners,
        })
        .collect();
    let mut wrong_names = Vec::new();
    let mut seen = Vec::with_capacity(obs.cards.len());
    for o in &obs.cards {
        let c = [o.center[0] as f64, o.center[1] as f64];
        let owner = truth.cards.iter().enumerate().rev().find(|(_, t)| {
            let poly = t.corners.map(|p| [p[0] as f64, p[1] as f64]);
            point_in_convex(c, &poly)
        });
        seen.push(SeenOutline {
            card: o.card.clone(),
            corners: o.corners,
            center: o.center,
            covered: o.covered,
            confidence: o.confidence,
            on_card: owner.map(|(i, _)| i),
        });
        match owner {
            Some((i, t)) => {
                let out = &mut cards[i];
                out.detected = true;
                out.got = o.card.clone();
                out.confidence = o.confidence;
                out.seen_covered = o.covered;
                out.orientation_ok = o.orientation == t.orientation;
                out.cell_ok = o.cell == Some(t.cell);
                if let Some(id) = o.card.as_ref().filter(|id| *id != &t.card) {
                    let state = if t.covered { "covered " } else { "" };
                    wrong_names.push(format!(
                        "{state}{} named {id} at ({:.0}, {:.0})",
                        t.card, c[0], c[1]
                    ));
                }
            }
            None => {
                if let Some(id) = &o.card {
                    wrong_names.push(format!(
                        "nothing there named {id} at ({:.0}, {:.0})",
                        c[0], c[1]
                    ));
                }
            }
        }
    }
    let wrong_named = wrong_names.len();
    let exact = wrong_named == 0
        && seen.iter().all(|s| !s.is_phantom())
        && cards
            .iter()
            .filter(|c| !c.covered)
            .all(|c| c.got.as_ref() == Some(&c.truth) && c.orientation_ok && c.cell_ok);
    let p = &truth.params;
    SceneOutcome {
        seed: p.seed,
        tilt_deg: p.tilt_deg,
        blur: p.motion_blur_px + p.defocus_sigma * 2.0,
        glare_spots: p.glare_spots,
        aruco_mat: p.aruco_mat,
        hand: p.hand,
        placement: p.placement,
        yaw_deg: p.yaw_deg,
        table: format!("{:?}", p.background).to_lowercase(),
        cards,
        wrong_named,
        wrong_names,
        seen,
        exact,
        timings: obs.timings.clone(),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageStats {
    pub median_ms: f64,
    pub p95_ms: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub scenes: usize,
    pub first_seed: u64,
    /// Cards not hidden, which must be named.
    pub visible_cards: usize,
    pub identity_accuracy: f64,
    pub wrong_confident_rate: f64,
    pub abstain_rate: f64,
    pub missed_rate: f64,
    pub orientation_accuracy: f64,
    pub cell_accuracy: f64,
    pub whole_board_exact: f64,
    /// Unnamed outlines where no card lies, all scenes.
    #[serde(default)]
    pub phantoms: usize,
    pub total: StageStats,
    pub calibrate: StageStats,
    pub detect: StageStats,
    pub identify: StageStats,
    pub assign: StageStats,
    pub cards_per_frame: f64,
    /// Milliseconds the identifier added beyond the classical matcher, per quad identified.
    #[serde(default)]
    pub identifier_extra_ms_per_quad: f64,
}

/// Median and 95th percentile of times in milliseconds (zero for none).
pub fn stats(mut v: Vec<f64>) -> StageStats {
    if v.is_empty() {
        return StageStats::default();
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    StageStats {
        median_ms: at(0.5),
        p95_ms: at(0.95),
    }
}

pub fn summarise(outcomes: &[SceneOutcome], first_seed: u64) -> Summary {
    let visible: Vec<&CardOutcome> = outcomes
        .iter()
        .flat_map(|s| s.cards.iter().filter(|c| !c.covered))
        .collect();
    let n = visible.len().max(1) as f64;
    let all_cards: usize = outcomes.iter().map(|s| s.cards.len()).sum();
    let rate =
        |f: &dyn Fn(&CardOutcome) -> bool| visible.iter().filter(|c| f(c)).count() as f64 / n;
    let t = |f: &dyn Fn(&crate::types::Timings) -> f64| {
        stats(outcomes.iter().map(|s| f(&s.timings)).collect())
    };
    Summary {
        scenes: outcomes.len(),
        first_seed,
        visible_cards: visible.len(),
        identity_accuracy: rate(&|c| c.got.as_ref() == Some(&c.truth)),
        wrong_confident_rate: outcomes.iter().map(|s| s.wrong_named).sum::<usize>() as f64
            / all_cards.max(1) as f64,
        abstain_rate: rate(&|c| c.detected && c.got.is_none()),
        missed_rate: rate(&|c| !c.detected),
        orientation_accuracy: rate(&|c| c.orientation_ok),
        cell_accuracy: rate(&|c| c.cell_ok),
        whole_board_exact: outcomes.iter().filter(|s| s.exact).count() as f64
            / outcomes.len().max(1) as f64,
        phantoms: outcomes.iter().map(SceneOutcome::phantoms).sum(),
        total: t(&|x| x.total_ms),
        calibrate: t(&|x| x.calibrate_ms),
        detect: t(&|x| x.detect_ms),
        identify: t(&|x| x.identify_ms),
        assign: t(&|x| x.assign_ms),
        cards_per_frame: all_cards as f64 / outcomes.len().max(1) as f64,
        identifier_extra_ms_per_quad: outcomes
            .iter()
            .map(|s| s.timings.identifier_extra_ms)
            .sum::<f64>()
            / outcomes
                .iter()
                .map(|s| s.timings.quads_identified as f64)
                .sum::<f64>()
                .max(1.0),
    }
}

/// The scores of the scenes that share one condition (a placement, a yaw or tilt band, a table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConditionRow {
    /// "placement", "yaw", "tilt" or "table".
    pub axis: String,
    pub value: String,
    pub scenes: usize,
    pub visible_cards: usize,
    pub named_right: f64,
    pub cell_right: f64,
    pub orientation_right: f64,
    pub whole_board_exact: f64,
}

/// The 45° band of a camera yaw, e.g. "90-135".
pub fn yaw_band(yaw_deg: f64) -> String {
    let band = (yaw_deg.rem_euclid(360.0) / 45.0).floor() as u32 * 45;
    format!("{band}-{}", band + 45)
}

/// The 15° band of a camera tilt, e.g. "30-45".
pub fn tilt_band(tilt_deg: f64) -> String {
    let band = (tilt_deg.max(0.0) / 15.0).floor() as u32 * 15;
    format!("{band}-{}", band + 15)
}

/// The outcomes split by camera placement, yaw (45° bands), tilt (15° bands) and table.
pub fn by_condition(outcomes: &[SceneOutcome]) -> Vec<ConditionRow> {
    let axes: [ConditionAxis<SceneOutcome>; 4] = [
        ("placement", |s| s.placement.name().to_string()),
        ("yaw", |s| yaw_band(s.yaw_deg)),
        ("tilt", |s| tilt_band(s.tilt_deg)),
        ("table", |s| s.table.clone()),
    ];
    group_by_condition(outcomes, &axes)
        .into_iter()
        .map(|(axis, value, these)| {
            let visible: Vec<&CardOutcome> = these
                .iter()
                .flat_map(|s| s.cards.iter().filter(|c| !c.covered))
                .collect();
            let n = visible.len().max(1) as f64;
            let rate = |f: &dyn Fn(&CardOutcome) -> bool| {
                visible.iter().filter(|c| f(c)).count() as f64 / n
            };
            ConditionRow {
                axis: axis.to_string(),
                value,
                scenes: these.len(),
                visible_cards: visible.len(),
                named_right: rate(&|c| c.got.as_ref() == Some(&c.truth)),
                cell_right: rate(&|c| c.cell_ok),
                orientation_right: rate(&|c| c.orientation_ok),
                whole_board_exact: these.iter().filter(|s| s.exact).count() as f64
                    / these.len().max(1) as f64,
            }
        })
        .collect()
}

/// One axis of a report by condition: its name, and the value of an item along it.
pub type ConditionAxis<T> = (&'static str, fn(&T) -> String);

/// A game's summary of the scenes that share one value along one axis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow<S> {
    pub axis: String,
    pub value: String,
    pub summary: S,
}

/// `outcomes` split along each axis (see [`group_by_condition`]), each group summarised by
/// `summarise` from the seed of its first outcome.
pub fn summaries_by_condition<T: Clone, S>(
    outcomes: &[T],
    axes: &[ConditionAxis<T>],
    seed: fn(&T) -> u64,
    summarise: fn(&[T], u64) -> S,
) -> Vec<SummaryRow<S>> {
    group_by_condition(outcomes, axes)
        .into_iter()
        .map(|(axis, value, these)| {
            let these: Vec<T> = these.into_iter().cloned().collect();
            let first = these.first().map_or(0, seed);
            SummaryRow {
                axis: axis.to_string(),
                value,
                summary: summarise(&these, first),
            }
        })
        .collect()
}

/// How serde spells a unit variant (`free`, `tapped_left`, `LightMat`), for reports.
pub fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "unknown".into(),
    }
}

/// `items` split along each axis into the groups sharing one value, in axis order and then value
/// order: (axis, value, the group's items).
pub fn group_by_condition<'a, T>(
    items: &'a [T],
    axes: &[ConditionAxis<T>],
) -> Vec<(&'static str, String, Vec<&'a T>)> {
    let mut groups = Vec::new();
    for &(axis, key) in axes {
        let mut values: Vec<String> = items.iter().map(key).collect();
        values.sort();
        values.dedup();
        for value in values {
            let these = items.iter().filter(|s| key(s) == value).collect();
            groups.push((axis, value, these));
        }
    }
    groups
}

/// Renders and scans scenes `seed..seed+n`, calling `each` after every scene (progress, reports).
pub fn run(
    renderer: &SceneRenderer,
    scanner: &Scanner,
    seed: u64,
    n: usize,
    opts: &SceneOptions,
    mut each: impl FnMut(&Scene, &TableObservation, &SceneOutcome) -> Result<(), VisionError>,
) -> Result<Vec<SceneOutcome>, VisionError> {
    let mut outcomes = Vec::with_capacity(n);
    for i in 0..n as u64 {
        let scene = renderer.render(seed + i, opts)?;
        let obs = scanner.scan(&scene.image, i)?;
        let outcome = compare(&scene.truth, &obs);
        each(&scene, &obs, &outcome)?;
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// As [`run`], each scene rendered once and scanned by every scanner (identifiers side by side on
/// the very same pixels): one list of outcomes per scanner.
pub fn run_side_by_side(
    renderer: &SceneRenderer,
    scanners: &[&Scanner],
    seed: u64,
    n: usize,
    opts: &SceneOptions,
    mut each: impl FnMut(&Scene, &[SceneOutcome]) -> Result<(), VisionError>,
) -> Result<Vec<Vec<SceneOutcome>>, VisionError> {
    let mut outcomes = vec![Vec::with_capacity(n); scanners.len()];
    for i in 0..n as u64 {
        let scene = renderer.render(seed + i, opts)?;
        let mut these = Vec::with_capacity(scanners.len());
        for scanner in scanners {
            let obs = scanner.scan(&scene.image, i)?;
            these.push(compare(&scene.truth, &obs));
        }
        each(&scene, &these)?;
        for (out, outcome) in outcomes.iter_mut().zip(these) {
            out.push(outcome);
        }
    }
    Ok(outcomes)
}

/// A set of scenes written by another compositor (models/detect/export_boards.py): its
/// manifest.json lists each image and the truth of every card on it.
#[derive(Clone, Debug, Deserialize)]
pub struct BoardManifest {
    pub compositor: String,
    pub width: i32,
    pub height: i32,
    pub scenes: Vec<BoardScene>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct BoardScene {
    /// Relative to the manifest's folder.
    pub image: String,
    pub seed: u64,
    pub placement: crate::scene::Placement,
    pub yaw_deg: f64,
    pub tilt_deg: f64,
    pub table: String,
    pub cols: u8,
    pub cards: Vec<BoardCard>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct BoardCard {
    pub id: String,
    /// Image corners from the card's own top-left.
    pub corners: [[f32; 2]; 4],
    /// (col, row) on the Blitz grid.
    pub cell: [u8; 2],
    pub orientation: crate::types::Orientation,
    /// Hidden in part (under another card, a hand, or past the frame's edge).
    pub covered: bool,
}

impl BoardManifest {
    /// Reads `dir/manifest.json`; a missing or malformed one is an error naming it.
    pub fn load(dir: &std::path::Path) -> Result<BoardManifest, VisionError> {
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|e| VisionError::io(&path, e))?;
        serde_json::from_str(&text).map_err(|e| VisionError::Data {
            path: path.clone(),
            reason: format!("not a board manifest: {e}"),
        })
    }
}

impl BoardScene {
    /// The scene's truth in the form [`compare`] reads (the camera's own knobs are not known).
    pub fn truth(&self, width: i32, height: i32) -> SceneTruth {
        let cards = self
            .cards
            .iter()
            .map(|c| {
                let centre =
                    crate::geometry::centroid(&c.corners.map(|p| [p[0] as f64, p[1] as f64]));
                crate::scene::TruthCard {
                    card: c.id.clone(),
                    corners: c.corners,
                    center: [centre[0] as f32, centre[1] as f32],
                    orientation: c.orientation,
                    cell: crate::types::Cell::Blitz {
                        col: c.cell[0],
                        row: c.cell[1],
                    },
                    covered: c.covered,
                    on_top_of: None,
                }
            })
            .collect();
        SceneTruth {
            params: crate::scene::SceneParams {
                seed: self.seed,
                width,
                height,
                cols: self.cols,
                background: crate::scene::Background::Wood,
                aruco_mat: false,
                tilt_deg: self.tilt_deg,
                roll_deg: 0.0,
                distortion_k1: 0.0,
                light_gradient: 0.0,
                glare_spots: 0,
                glare_strength: 0.0,
                motion_blur_px: 0.0,
                defocus_sigma: 0.0,
                noise_sigma: 0.0,
                jpeg_quality: 95,
                hand: false,
                stress: None,
                placement: self.placement,
                yaw_deg: self.yaw_deg,
            },
            cards,
            table_to_image: crate::geometry::IDENTITY,
        }
    }
}

/// Scans every scene of another compositor's set in `dir` (the first `limit`), calling `each`
/// after every scene.
pub fn run_dir(
    scanner: &Scanner,
    dir: &std::path::Path,
    limit: Option<usize>,
    mut each: impl FnMut(usize, usize),
) -> Result<Vec<SceneOutcome>, VisionError> {
    let manifest = BoardManifest::load(dir)?;
    let n = limit.unwrap_or(usize::MAX).min(manifest.scenes.len());
    let mut outcomes = Vec::with_capacity(n);
    for (i, scene) in manifest.scenes.iter().take(n).enumerate() {
        let image = crate::pipeline::read_image(&dir.join(&scene.image))?;
        let obs = scanner.scan(&image, i as u64)?;
        let mut outcome = compare(&scene.truth(manifest.width, manifest.height), &obs);
        outcome.table = scene.table.clone();
        outcomes.push(outcome);
        each(i + 1, n);
    }
    Ok(outcomes)
}
