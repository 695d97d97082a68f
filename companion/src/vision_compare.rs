//! `arbiter eval-vision --identifier …` with several identifiers or conditions (issue 8): each scene is
//! rendered once and scanned by every identifier, so the columns compare the very same pixels. The
//! conditions are the standard scenes, the hard ones (glare, blur, cover, 45° tilt: the same seeds'
//! layouts made harder) and unknown cards (every tenth catalogue card left out of every identifier's
//! references: naming one of those is a wrong answer).

use anyhow::Context;
use serde::Serialize;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use vision::eval::{summarise, SceneOutcome, Summary};
use vision::identifier::{Identifier, IdentifierKind, Learned, ModelThresholds};
use vision::identify::ReferenceSet;
use vision::orb::OrbIndex;
use vision::report::{crop_failure, is_failure};
use vision::scene::{SceneOptions, SceneRenderer, Stress};
use vision::{Scanner, ScannerOptions};

/// What to compare.
pub struct Plan {
    pub identifiers: Vec<IdentifierKind>,
    pub seed: u64,
    pub scenes: usize,
    pub hard: Vec<Stress>,
    pub unknown: bool,
    /// Scenes for each hard condition and for the unknown-card one.
    pub hard_scenes: usize,
    pub model: PathBuf,
    pub thresholds: ModelThresholds,
    pub options: ScannerOptions,
    /// Write failure crops here: up to [`CROPS_EACH`] per condition and identifier.
    pub crops: Option<PathBuf>,
    /// Where the scenes' camera may stand (empty: behind the Allied player).
    pub placements: Vec<vision::scene::Placement>,
    /// The detectors each scanner finds cards with.
    pub detector: crate::vision_cli::DetectorChoice,
}

pub const CROPS_EACH: usize = 24;

/// One identifier under one condition.
#[derive(Debug, Serialize)]
pub struct Row {
    pub condition: String,
    pub identifier: &'static str,
    pub summary: Summary,
    /// Unknown-card condition only: the share of visible left-out cards that got a name.
    pub unknown_named: Option<f64>,
}

/// Every tenth card (catalogue order) plays the card nobody enrolled.
fn left_out(cat: &blitz::catalogue::Catalogue) -> HashSet<String> {
    cat.cards
        .iter()
        .skip(5)
        .step_by(10)
        .map(|c| c.id.clone())
        .collect()
}

/// The identifier `kind` with `faces` enrolled (the model loaded from `model` where it needs one).
/// A loaded learned identifier with `thresholds`, or the error naming its model file.
fn tuned(
    loaded: Result<Learned, vision::VisionError>,
    model: &Path,
    thresholds: ModelThresholds,
) -> anyhow::Result<Learned> {
    let mut learned = loaded.with_context(|| {
        format!(
            "loading the learned identifier {} (train it with models/identify/train.py)",
            model.display()
        )
    })?;
    learned.thresholds = thresholds;
    Ok(learned)
}

pub fn identifier(
    kind: IdentifierKind,
    faces: &[(&str, &opencv::core::Mat)],
    model: &Path,
    thresholds: ModelThresholds,
) -> anyhow::Result<Identifier> {
    let learned = || {
        tuned(
            Learned::load(model, faces.iter().copied()),
            model,
            thresholds,
        )
    };
    Ok(match kind {
        IdentifierKind::Hash => Identifier::Hash,
        IdentifierKind::Orb => Identifier::Orb(OrbIndex::from_faces(faces.iter().copied())?),
        IdentifierKind::Model => Identifier::Model(learned()?),
        IdentifierKind::Fused => Identifier::Fused(learned()?),
    })
}

/// The identifier `kind` with every face of `designs` (a catalogue's, from
/// `vision::distinct::blitz_designs`) enrolled; the faces are rendered one at a time, so a large
/// catalogue does not hold them all.
pub fn blitz_identifier(
    kind: IdentifierKind,
    designs: &[vision::face::FaceDesign],
    model: &Path,
    thresholds: ModelThresholds,
) -> anyhow::Result<Identifier> {
    let learned = || tuned(Learned::for_designs(model, designs), model, thresholds);
    Ok(match kind {
        IdentifierKind::Hash => Identifier::Hash,
        IdentifierKind::Model => Identifier::Model(learned()?),
        IdentifierKind::Fused => Identifier::Fused(learned()?),
        IdentifierKind::Orb => {
            let faces = designs
                .iter()
                .map(|d| Ok((d.id.as_str(), vision::face::render_design(d)?)))
                .collect::<Result<Vec<_>, vision::VisionError>>()?;
            Identifier::Orb(OrbIndex::from_faces(faces.iter().map(|(id, m)| (*id, m)))?)
        }
    })
}

fn scanner(
    kind: IdentifierKind,
    cat: &blitz::catalogue::Catalogue,
    faces: &[(&str, &opencv::core::Mat)],
    plan: &Plan,
) -> anyhow::Result<Scanner> {
    let refs = ReferenceSet::from_faces(faces.iter().copied())?;
    let identifier = identifier(kind, faces, &plan.model, plan.thresholds)?;
    plan.detector.added_to(
        Scanner::with_refs(cat, refs, plan.options.clone()).with_identifier(identifier),
        crate::vision_cli::BLITZ_DETECTOR,
    )
}

/// A scanner with every catalogue card enrolled, naming cards with `kind`.
pub fn scanner_for(
    kind: IdentifierKind,
    cat: &blitz::catalogue::Catalogue,
    plan: &Plan,
) -> anyhow::Result<Scanner> {
    let faces = vision::distinct::blitz_faces(&cat.cards)?;
    let all: Vec<(&str, &opencv::core::Mat)> =
        faces.iter().map(|(id, m)| (id.as_str(), m)).collect();
    scanner(kind, cat, &all, plan)
}

pub fn run(plan: &Plan) -> anyhow::Result<Vec<Row>> {
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = SceneRenderer::new(&cat)?;
    let faces = vision::distinct::blitz_faces(&cat.cards)?;
    let all: Vec<(&str, &opencv::core::Mat)> =
        faces.iter().map(|(id, m)| (id.as_str(), m)).collect();
    let unknown = left_out(&cat);
    let known: Vec<(&str, &opencv::core::Mat)> = all
        .iter()
        .copied()
        .filter(|(id, _)| !unknown.contains(*id))
        .collect();

    let mut conditions: Vec<(String, SceneOptions, usize, bool)> = vec![(
        "standard".into(),
        SceneOptions {
            placements: plan.placements.clone(),
            ..Default::default()
        },
        plan.scenes,
        false,
    )];
    for &stress in &plan.hard {
        let opts = SceneOptions {
            stress: Some(stress),
            placements: plan.placements.clone(),
            ..Default::default()
        };
        conditions.push((stress.name().into(), opts, plan.hard_scenes, false));
    }
    if plan.unknown {
        conditions.push((
            "unknown".into(),
            SceneOptions {
                placements: plan.placements.clone(),
                ..Default::default()
            },
            plan.hard_scenes,
            true,
        ));
    }
    if let Some(dir) = &plan.crops {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    let total: usize = conditions.iter().map(|c| c.2).sum();
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} scenes  {elapsed} (eta {eta})  {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );

    let mut rows = Vec::new();
    for (name, opts, scenes, leave_out) in conditions {
        bar.set_message(name.clone());
        let faces = if leave_out { &known } else { &all };
        let scanners = plan
            .identifiers
            .iter()
            .map(|&kind| scanner(kind, &cat, faces, plan))
            .collect::<anyhow::Result<Vec<Scanner>>>()?;
        let refs: Vec<&Scanner> = scanners.iter().collect();
        let mut written = vec![0usize; scanners.len()];
        let mut labels = Vec::new();
        let outcomes = vision::eval::run_side_by_side(
            &renderer,
            &refs,
            plan.seed,
            scenes,
            &opts,
            |scene, outcomes| {
                bar.inc(1);
                let Some(dir) = &plan.crops else {
                    return Ok(());
                };
                for (k, outcome) in outcomes.iter().enumerate() {
                    let failed = outcome.cards.iter().filter(|c| is_failure(c));
                    for c in failed.take(CROPS_EACH - written[k].min(CROPS_EACH)) {
                        let crop = crop_failure(&scene.image, outcome.seed, c)?;
                        let name = format!(
                            "{name}-{}-{:03}-seed{}.png",
                            plan.identifiers[k].name(),
                            written[k],
                            outcome.seed
                        );
                        vision::sheets::write_png(&dir.join(&name), &crop.image)?;
                        labels.push(format!("{name}: {}", crop.label));
                        written[k] += 1;
                    }
                }
                Ok(())
            },
        )?;
        if let Some(dir) = &plan.crops {
            let path = dir.join(format!("{name}-failures.txt"));
            std::fs::write(&path, labels.join("\n") + "\n")
                .with_context(|| path.display().to_string())?;
        }
        for (&kind, outcomes) in plan.identifiers.iter().zip(&outcomes) {
            rows.push(Row {
                condition: name.clone(),
                identifier: kind.name(),
                summary: summarise(outcomes, plan.seed),
                unknown_named: leave_out.then(|| named_share(outcomes, &unknown)),
            });
        }
    }
    bar.finish_and_clear();
    Ok(rows)
}

/// Of the visible cards in `cards`, the share that got any name.
fn named_share(outcomes: &[SceneOutcome], cards: &HashSet<String>) -> f64 {
    let of: Vec<bool> = outcomes
        .iter()
        .flat_map(|s| s.cards.iter())
        .filter(|c| !c.covered && cards.contains(&c.truth))
        .map(|c| c.got.is_some())
        .collect();
    of.iter().filter(|&&named| named).count() as f64 / of.len().max(1) as f64
}

pub fn print(rows: &[Row]) {
    println!(
        "{:<9} {:<6} {:>6} {:>7} {:>9} {:>10} {:>8} {:>8} {:>8} {:>8} {:>9} {:>10}",
        "condition",
        "ident",
        "scenes",
        "cards",
        "identity",
        "wrong-conf",
        "abstain",
        "missed",
        "orient",
        "board",
        "+ms/quad",
        "identify ms"
    );
    let pct = |x: f64| format!("{:.2}%", x * 100.0);
    for r in rows {
        let s = &r.summary;
        println!(
            "{:<9} {:<6} {:>6} {:>7} {:>9} {:>10} {:>8} {:>8} {:>8} {:>8} {:>9.2} {:>10.2}{}",
            r.condition,
            r.identifier,
            s.scenes,
            s.visible_cards,
            pct(s.identity_accuracy),
            format!("{:.3}%", s.wrong_confident_rate * 100.0),
            pct(s.abstain_rate),
            pct(s.missed_rate),
            pct(s.orientation_accuracy),
            pct(s.whole_board_exact),
            s.identifier_extra_ms_per_quad,
            s.identify.median_ms,
            r.unknown_named
                .map(|u| format!("  unknown cards named {}", pct(u)))
                .unwrap_or_default()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::prelude::*;

    /// `play --catalogue`: the model enrols the player's catalogue (it enrolled the demo's), each
    /// face rendered once; a card only that catalogue has is named from its own face.
    #[test]
    fn the_model_enrols_the_catalogue_it_is_given() {
        let mut cat = blitz::catalogue::Catalogue::demo();
        cat.cards.truncate(12);
        cat.cards[11].id = "my-own-card".into();
        let designs = vision::distinct::blitz_designs(&cat.cards).unwrap();
        let model =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/identify/card_embed.tflite");
        let Identifier::Fused(learned) = blitz_identifier(
            IdentifierKind::Fused,
            &designs,
            &model,
            ModelThresholds::default(),
        )
        .unwrap() else {
            panic!("fused asked for");
        };
        assert_eq!(learned.enrolment.len(), 12);
        let face = vision::face::render_design(&designs[11]).unwrap();
        let seen = learned
            .embedder
            .embed(&vision::embed::face_crop(&face).unwrap())
            .unwrap();
        assert_eq!(learned.enrolment.ranked(&seen, 1)[0].0, "my-own-card");
        // The faces are those the kit prints for the catalogue.
        let printed = vision::distinct::blitz_faces(&cat.cards).unwrap();
        let mut diff = opencv::core::Mat::default();
        opencv::core::absdiff(&printed[11].1, &face, &mut diff).unwrap();
        assert_eq!(
            opencv::core::count_non_zero(&diff.reshape(1, 0).unwrap()).unwrap(),
            0
        );
    }
}
