//! `arbiter print|scan|enroll|eval-vision|render-scene`: printable cards and mats, scanning images,
//! enrolling real cards and measuring the pipeline on synthetic scenes.

use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use vision::identifier::{IdentifierKind, ModelThresholds};
use vision::identify::ReferenceSet;
use vision::mats::MatLayout;
use vision::scene::Stress;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameName {
    Blitz,
    Duel,
}

/// `--identifier` values (see `vision::identifier::IdentifierKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IdentifierArg {
    /// Colour thumbnails compared by correlation (the classical matcher).
    Hash,
    /// ORB keypoints voted per reference.
    Orb,
    /// The learned embedding (models/identify).
    Model,
    /// Hash and model: agreement names, disagreement abstains.
    Fused,
}

impl From<IdentifierArg> for IdentifierKind {
    fn from(a: IdentifierArg) -> Self {
        match a {
            IdentifierArg::Hash => IdentifierKind::Hash,
            IdentifierArg::Orb => IdentifierKind::Orb,
            IdentifierArg::Model => IdentifierKind::Model,
            IdentifierArg::Fused => IdentifierKind::Fused,
        }
    }
}

/// `--hard` values (see `vision::scene::Stress`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HardArg {
    Glare,
    Blur,
    Cover,
    Tilt45,
}

impl From<HardArg> for Stress {
    fn from(a: HardArg) -> Self {
        match a {
            HardArg::Glare => Stress::Glare,
            HardArg::Blur => Stress::Blur,
            HardArg::Cover => Stress::Cover,
            HardArg::Tilt45 => Stress::Tilt45,
        }
    }
}

/// `--camera` values: where the scenes' camera stands (see `vision::scene::Placement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CameraArg {
    /// Behind the Allied player, along the grid.
    Allied,
    /// Overhead, side, end or anywhere round the table, one drawn per scene.
    Any,
    Overhead,
    Side,
    End,
    /// Yaw over the full circle, tilt 0–55°.
    Free,
}

impl CameraArg {
    pub fn placements(self) -> Vec<vision::scene::Placement> {
        use vision::scene::Placement;
        match self {
            CameraArg::Allied => Vec::new(),
            CameraArg::Any => Placement::ANY.to_vec(),
            CameraArg::Overhead => vec![Placement::Overhead],
            CameraArg::Side => vec![Placement::Side],
            CameraArg::End => vec![Placement::End],
            CameraArg::Free => vec![Placement::Free],
        }
    }
}

/// `--enrolled` values for `eval-cards`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EnrolledArg {
    /// Every deck of the set at once.
    All,
    /// Only the decks lying on each scene's table (as a player enrols the decks of the game).
    Table,
}

/// `--mat` values for synthetic scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatArg {
    Yes,
    No,
    Either,
}

impl MatArg {
    pub fn drawn(self) -> Option<bool> {
        match self {
            MatArg::Yes => Some(true),
            MatArg::No => Some(false),
            MatArg::Either => None,
        }
    }
}

/// Which identifier names the cards of a live or scanned table.
#[derive(clap::Args, Clone, Debug)]
pub struct IdentifierChoice {
    /// fused (classical checked by the model: best measured), hash (classical), orb or model
    /// (learned alone).
    #[arg(long, value_enum, default_value = "fused")]
    pub identifier: IdentifierArg,
    /// The learned identifier's model (for model and fused).
    #[arg(long, default_value = "models/identify/card_embed.tflite")]
    pub model: PathBuf,
    #[command(flatten)]
    pub detector: DetectorChoice,
}

/// Which detectors find the cards of a table.
#[derive(clap::Args, Clone, Debug)]
pub struct DetectorChoice {
    /// both: our printed faces' black frame and the learned detector (finds far, blurred and
    /// half-hidden cards the frame misses, and cards of any printed design); both-named: both,
    /// keeping only the learned outlines that are named; frame: the frame alone (faster).
    /// Default: both for Blitz and 风声, both-named for the Duel table (where the learned detector
    /// takes parts of the white mat for cards it cannot name).
    #[arg(long, value_enum)]
    pub detector: Option<DetectorArg>,
    /// The learned card detector's model (for --detector both or both-named).
    #[arg(long, default_value = vision::detector::DEFAULT_MODEL)]
    pub detector_model: PathBuf,
}

/// The learned card detector from `model` with the shipped corner refiner, both found from any
/// directory.
pub fn learned_card_detector(model: &Path) -> anyhow::Result<vision::detector::CardDetector> {
    let refiner = vision::detector::CornerRefiner::load(crate::paths::shipped(Path::new(
        vision::detector::DEFAULT_CORNER_MODEL,
    )))?;
    Ok(vision::detector::CardDetector::new(
        crate::paths::shipped(model),
        vision::detector::DetectorOptions::default(),
    )?
    .with_corner_refiner(refiner))
}

/// `--detector` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DetectorArg {
    /// The black frame of our own printed faces.
    Frame,
    /// The frame, and the learned detector for cards of any design.
    Both,
    /// Both, keeping only the learned detector's outlines that are named (every card at the
    /// table is one the identifier knows).
    BothNamed,
}

impl DetectorChoice {
    /// The learned card detector, when `--detector` (or the game's `default`) asks for it.
    pub fn card_detector(
        &self,
        default: DetectorArg,
    ) -> anyhow::Result<Option<vision::LearnedDetection>> {
        let keep_unnamed = match self.detector.unwrap_or(default) {
            DetectorArg::Frame => return Ok(None),
            DetectorArg::Both => true,
            DetectorArg::BothNamed => false,
        };
        Ok(Some(vision::LearnedDetection {
            detector: learned_card_detector(&self.detector_model)?,
            keep_unnamed,
        }))
    }

    /// `scanner` with the learned card detector added when `--detector` (or the game's
    /// `default`) asks for it.
    pub fn added_to(
        &self,
        scanner: vision::Scanner,
        default: DetectorArg,
    ) -> anyhow::Result<vision::Scanner> {
        Ok(scanner.with_card_detector(self.card_detector(default)?))
    }
}

/// Blitz reads best with both detectors (the second compositor's boards: whole table exact 94.3 →
/// 97.1 %, no wrong name, unnamed extras not counted then; counting them, fresh boards 85.0 →
/// 88.0 %, and 92.3 → 97.7 % once unnamed outlines had to look like cards, docs/vision.md). It
/// keeps the unnamed outlines that do: a card nobody enrolled is reported as one that could not
/// be named.
pub const BLITZ_DETECTOR: DetectorArg = DetectorArg::Both;
/// The Duel table keeps only the learned outlines it names: every card there is one of our faces
/// or the back, and the outlines it cannot name are mostly the white printed mat's paper, which
/// would stall the tracker or read as face-down territories (the second compositor's tables
/// 623000–623299: named 98.57 → 99.13 %, unnamed outlines where no card lies 36 either way; with
/// every outline kept 759).
pub const DUEL_DETECTOR: DetectorArg = DetectorArg::BothNamed;
/// The 风声 table reads fanned cards much better with both (the second compositor's tables: fanned
/// cards found 32.7 → 70.3 %, seat tallies exact 67.4 → 75.2 %).
pub const MESSAGE_DETECTOR: DetectorArg = DetectorArg::Both;

impl IdentifierChoice {
    /// The chosen identifier with every face of `designs` (a Blitz catalogue's, from
    /// `vision::distinct::blitz_designs`) enrolled.
    pub fn load(
        &self,
        designs: &[vision::face::FaceDesign],
    ) -> anyhow::Result<vision::identifier::Identifier> {
        crate::vision_compare::blitz_identifier(
            self.identifier.into(),
            designs,
            &crate::paths::shipped(&self.model),
            ModelThresholds::default(),
        )
    }
}

#[derive(clap::Subcommand)]
pub enum Command {
    /// Write a game's printable set: card faces (one PNG per card, 63×88 mm at 300 dpi), A4 sheets,
    /// and its ArUco mat (Blitz, Duel), card back (Duel) or seat cards (风声).
    Print {
        #[arg(long, value_enum)]
        game: PrintGame,
        /// The folder to write into (created when missing).
        #[arg(long)]
        out: PathBuf,
        /// The paper the kit PDF is laid out on (cards and mats at true scale either way).
        #[arg(long, value_enum, default_value = "a4")]
        paper: PaperArg,
        /// Print the files written as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Find, identify and place the cards in images (files or folders); one JSON line per image.
    Scan {
        #[arg(long, value_enum)]
        game: GameName,
        /// Use the ArUco mat to calibrate (otherwise the grid is fitted from the front-line cards).
        #[arg(long)]
        mat: bool,
        /// Players (2: 4 columns, 4: 5 columns) when fitting without a mat.
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// Extra references from `arbiter enroll`.
        #[arg(long)]
        refs: Option<PathBuf>,
        /// Catalogue TOML of the cards at the table (default: the shipped demo catalogue): its
        /// cards are the ones named.
        #[arg(long)]
        catalogue: Option<PathBuf>,
        /// Print JSON (the default output is a short table).
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        identifier: IdentifierChoice,
        /// Which edge of the picture the Allied player sits at, for when the cards cannot tell.
        #[arg(long, value_enum)]
        allied_side: Option<crate::live::allied::ImageEdge>,
        #[arg(required = true)]
        images: Vec<PathBuf>,
    },
    /// Add your own printed card to a reference file from a photo of it lying upright.
    Enroll {
        #[arg(long, value_enum)]
        game: GameName,
        /// Catalogue id of the card in the image.
        #[arg(long)]
        id: String,
        /// Reference file to add to (created if missing).
        /// (default: enrolled.json in $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter)
        #[arg(long)]
        refs: Option<PathBuf>,
        /// The learned identifier's model: the photo's embedding is stored too, so `--identifier
        /// model|fused` know this print (without the model, the card is enrolled for `hash` only).
        #[arg(long, default_value = "models/identify/card_embed.tflite")]
        model: PathBuf,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
        image: PathBuf,
    },
    /// Enrol a whole deck from photos of blocks of cards laid upright in catalogue order (say 3×3),
    /// one photo per block: each card is found, cut out and stored under its id (its embedding for
    /// --identifier model|fused, its crop beside the references file); what was not enrolled and
    /// which prints look alike are listed.
    EnrollDeck(crate::enroll_deck::DeckArgs),
    /// Render N synthetic scenes from seed S, scan them and report accuracy and speed.
    EvalVision {
        #[arg(long, value_enum)]
        game: GameName,
        #[arg(long, default_value_t = 100)]
        scenes: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        json: bool,
        /// Also write failure crops, an accuracy chart and summary.json here (side by side: failure
        /// crops and a list per condition).
        #[arg(long)]
        report: Option<PathBuf>,
        /// Abstain unless the winner leads the best other card by this much (default: the
        /// scanner's own).
        #[arg(long)]
        min_margin: Option<f32>,
        /// Identifiers, comma-separated; more than one (or --hard/--unknown) prints them side by
        /// side, each scene scanned by all.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "fused")]
        identifier: Vec<IdentifierArg>,
        /// Hard conditions to add, comma-separated: the same seeds' layouts made harder.
        #[arg(long, value_enum, value_delimiter = ',')]
        hard: Vec<HardArg>,
        /// Add the unknown-card condition: every tenth card left out of every identifier's
        /// references; naming one is wrong.
        #[arg(long)]
        unknown: bool,
        /// Scenes for each hard condition and the unknown-card one.
        #[arg(long, default_value_t = 200)]
        hard_scenes: usize,
        /// The learned identifier's model.
        #[arg(long, default_value = "models/identify/card_embed.tflite")]
        model: PathBuf,
        /// Override the model's tuned minimum cosine to the nearest enrolled card.
        #[arg(long)]
        model_min_cosine: Option<f32>,
        /// Override the model's tuned minimum lead over the runner-up card.
        #[arg(long)]
        model_min_gap: Option<f32>,
        /// Where the camera stands; `any` draws overhead, side, end or anywhere per scene and
        /// reports each placement, yaw, tilt and table apart.
        #[arg(long, value_enum, default_value = "allied")]
        camera: CameraArg,
        /// Players: 2 (a 7×4 grid) or 4 (7×5).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
        players: u8,
        /// Whether the scenes have the printed mat: yes, no, or either (half each).
        #[arg(long, value_enum, default_value = "either")]
        mat: MatArg,
        /// Score the scenes another compositor wrote here (models/detect/export_boards.py, with
        /// manifest.json) instead of rendering; --scenes limits how many.
        #[arg(long)]
        scenes_dir: Option<PathBuf>,
        /// Write each scene's outcome (every card's truth and read, every outline reported and
        /// the card it lies on) to FILE, one JSON line a scene, to look at the failures. One
        /// identifier, no hard or unknown conditions.
        #[arg(long, value_name = "FILE")]
        outcomes: Option<PathBuf>,
        #[command(flatten)]
        detector: DetectorChoice,
    },
    /// Score finding and naming cards of any printed design on an evaluation set written by
    /// models/detect/export_eval.py: every card enrolled from its one photo, then every scene
    /// detected, named and compared with its truth, by family, table, layout, tilt and yaw.
    EvalCards {
        /// The evaluation set's folder (with manifest.json).
        #[arg(long)]
        scenes_dir: PathBuf,
        /// The card detector's model.
        #[arg(long, default_value = vision::detector::DEFAULT_MODEL)]
        detector: PathBuf,
        /// The learned identifier's model.
        #[arg(long, default_value = "models/identify/card_embed.tflite")]
        model: PathBuf,
        /// Score only the first N scenes.
        #[arg(long)]
        limit: Option<usize>,
        /// Do not snap the detector's quads to the card edges in the full frame.
        #[arg(long)]
        no_snap: bool,
        /// The corner refiner's model (whole cards' corners, after the snap).
        #[arg(long, default_value = vision::detector::DEFAULT_CORNER_MODEL)]
        corner_model: PathBuf,
        /// Keep the detector's corners (no learned corner refinement).
        #[arg(long)]
        no_corner_refine: bool,
        /// The detector model's core is each card shrunk to this share of its size (models trained
        /// with `train.py --target share`); by default it is the shipped model's inset core.
        #[arg(long)]
        core_share: Option<f64>,
        /// Grow cores from the model's pixels above this probability (tuning; default the
        /// detector's own).
        #[arg(long)]
        split_threshold: Option<f32>,
        /// Where the model abstains, compare the look-alike prints' ink (vision::ink; an
        /// experiment: it names count siblings of the tuning set, but nearly as many held-out pips
        /// cards wrong as right, as the same card of another deck; see models/detect/README.md)
        #[arg(long)]
        ink: bool,
        /// Where neither the model nor the prints' ink names a card, compare the nearest enrolled
        /// prints pixel by pixel
        /// (vision::lookalike; an experiment: on held-out designs it names hardly more, at several
        /// times the naming time; see models/detect/README.md).
        #[arg(long)]
        lookalikes: bool,
        /// Name each card wholly in view from its true corners instead of the detector's quads:
        /// the identifier's share of the losses, apart from finding.
        #[arg(long)]
        true_corners: bool,
        /// Try unnamed whole cards again with one side of their quad moved (a side the detector
        /// put on the print's art, say): names more, at up to 64 crops a card (an experiment; see
        /// models/detect/README.md).
        #[arg(long)]
        mend_sides: bool,
        /// Look again, closer, where the detector ran cards together: outlines several cards
        /// large and card pixels no outline holds, tiled into one more model run.
        #[arg(long)]
        look_closer: bool,
        /// Where the identifier abstains between near prints, let the sibling model (twice the
        /// crop, trained on cards that differ only in a count) name one (an experiment: it names
        /// count-like siblings of the tuning set, none of the held-out pips, and a few wrong there;
        /// see models/identify/README.md).
        #[arg(long)]
        siblings: bool,
        /// The sibling model, for `--siblings`.
        #[arg(long, default_value = vision::siblings::DEFAULT_MODEL)]
        sibling_model: PathBuf,
        /// Where the identifier abstains between near prints, let the pair verifier (the card
        /// and each near print side by side) name one, instead of the sibling model (an
        /// experiment: under a point more of the held-out cards, hardly any pips, at several times the
        /// naming time; see models/identify/README.md).
        #[arg(long)]
        pairs: bool,
        /// The pair verifier's model, for `--pairs`.
        #[arg(long, default_value = vision::pairs::DEFAULT_MODEL)]
        pair_model: PathBuf,
        /// Which enrolled decks each scene's cards are named among: every deck of the set at once,
        /// or only those on the scene's table (cards of them left unenrolled stay unknown).
        #[arg(long, value_enum, default_value = "all")]
        enrolled: EnrolledArg,
        /// Override the model's minimum cosine to the nearest enrolled card.
        #[arg(long)]
        model_min_cosine: Option<f32>,
        /// Override the model's minimum lead over the runner-up card.
        #[arg(long)]
        model_min_gap: Option<f32>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Render one synthetic scene (image + ground-truth JSON) from a seed.
    RenderScene {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
        /// Make it one of the hard conditions.
        #[arg(long, value_enum)]
        hard: Option<HardArg>,
        /// Where the camera stands.
        #[arg(long, value_enum, default_value = "allied")]
        camera: CameraArg,
        /// Print the result as JSON
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Print {
            game,
            out,
            paper,
            json,
        } => print(game, &out, paper.into(), json),
        Command::Scan {
            game,
            mat,
            players,
            refs,
            catalogue,
            json,
            identifier,
            allied_side,
            images,
        } => {
            blitz_only(game)?;
            let table = TableSetup {
                mat,
                players,
                allied_towards: allied_side.map(|e| e.towards()),
            };
            let catalogue = match catalogue {
                Some(path) => crate::live::blitz::CatalogueFile::load(&path)?.1,
                None => blitz::catalogue::Catalogue::demo(),
            };
            let scanner = scanner(&catalogue, &table, refs, &identifier)?;
            scan(scanner, json, images)
        }
        Command::Enroll {
            game,
            id,
            refs,
            model,
            json,
            image,
        } => {
            let refs = refs.unwrap_or_else(|| crate::paths::user_data("enrolled.json"));
            enroll(game, id, refs, &crate::paths::shipped(&model), image, json)
        }
        Command::EvalVision {
            game,
            scenes,
            seed,
            json,
            report,
            min_margin,
            identifier,
            hard,
            unknown,
            hard_scenes,
            model,
            model_min_cosine,
            model_min_gap,
            camera,
            players,
            mat,
            scenes_dir,
            outcomes,
            detector,
        } => {
            let cols = if players >= 4 { 5 } else { 4 };
            let model = crate::paths::shipped(&model);
            if identifier.len() == 1 && hard.is_empty() && !unknown {
                let eval = Eval {
                    scenes,
                    seed,
                    json,
                    report,
                    min_margin,
                    placements: camera.placements(),
                    cols,
                    mat: mat.drawn(),
                    scenes_dir,
                    outcomes,
                    detector,
                };
                return eval.run(
                    game,
                    identifier[0].into(),
                    &model,
                    model_thresholds(model_min_cosine, model_min_gap),
                );
            }
            blitz_only(game)?;
            if outcomes.is_some() {
                anyhow::bail!(
                    "--outcomes takes one identifier and no --hard or --unknown condition"
                );
            }
            let mut options = vision::ScannerOptions::default();
            if let Some(m) = min_margin {
                options.min_margin = m;
            }
            let plan = crate::vision_compare::Plan {
                identifiers: identifier.into_iter().map(Into::into).collect(),
                seed,
                scenes,
                hard: hard.into_iter().map(Into::into).collect(),
                unknown,
                hard_scenes,
                model,
                thresholds: model_thresholds(model_min_cosine, model_min_gap),
                options,
                crops: report,
                placements: camera.placements(),
                detector,
            };
            let rows = crate::vision_compare::run(&plan)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                crate::vision_compare::print(&rows);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::EnrollDeck(args) => crate::enroll_deck::run(args),
        Command::EvalCards {
            scenes_dir,
            detector,
            model,
            limit,
            no_snap,
            corner_model,
            no_corner_refine,
            core_share,
            split_threshold,
            ink,
            lookalikes,
            true_corners,
            mend_sides,
            look_closer,
            siblings,
            sibling_model,
            pairs,
            pair_model,
            enrolled,
            model_min_cosine,
            model_min_gap,
            json,
        } => {
            let mut options = vision::detector::DetectorOptions {
                snap_edges: !no_snap,
                ..Default::default()
            };
            if let Some(share) = core_share {
                anyhow::ensure!(
                    share > 0.0 && share <= 1.0,
                    "--core-share {share}: a share of the card's size, above 0 and at most 1"
                );
                options.core = vision::detector::CoreShape::Share(share);
            }
            if let Some(split) = split_threshold {
                options.split_threshold = split;
            }
            let mut detector =
                vision::detector::CardDetector::new(crate::paths::shipped(&detector), options)?;
            if !no_corner_refine {
                detector = detector.with_corner_refiner(vision::detector::CornerRefiner::load(
                    crate::paths::shipped(&corner_model),
                )?);
            }
            let mut learned = vision::identifier::Learned::load(
                &crate::paths::shipped(&model),
                std::iter::empty(),
            )?;
            learned.thresholds = model_thresholds(model_min_cosine, model_min_gap);
            if pairs {
                learned.pairs = Some(vision::pairs::PairVerifier::load(crate::paths::shipped(
                    &pair_model,
                ))?);
            }
            if siblings {
                learned.siblings = Some(vision::siblings::Siblings::load(crate::paths::shipped(
                    &sibling_model,
                ))?);
            }
            let report = vision::detector::eval::evaluate(
                &scenes_dir,
                &mut detector,
                &mut learned,
                vision::detector::eval::EvalOptions {
                    limit,
                    ink,
                    lookalikes,
                    true_corners,
                    mend_sides,
                    look_closer,
                    enrolled: match enrolled {
                        EnrolledArg::All => vision::detector::eval::EnrolledDecks::All,
                        EnrolledArg::Table => vision::detector::eval::EnrolledDecks::OnTable,
                    },
                },
                |i, n| {
                    if !json && i % 100 == 0 {
                        eprintln!("scene {i} of {n}");
                    }
                },
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                vision::detector::eval::print(&report);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::RenderScene {
            seed,
            out,
            hard,
            camera,
            json,
        } => render_scene(seed, out, hard, camera, json),
    }
}

fn blitz_only(game: GameName) -> anyhow::Result<()> {
    anyhow::ensure!(
        game == GameName::Blitz,
        "this command reads the Blitz table only: the Duel table is read by `arbiter duel table` \
         (at the table) and measured by `arbiter duel eval-table`; a Duel deck's own prints are \
         enrolled with `arbiter enroll-deck --ids FILE`"
    );
    Ok(())
}

/// Paper sizes for the kit PDF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PaperArg {
    A4,
    /// US Letter (8.5 × 11 in).
    Letter,
}

impl From<PaperArg> for vision::kit::Paper {
    fn from(p: PaperArg) -> Self {
        match p {
            PaperArg::A4 => vision::kit::Paper::A4,
            PaperArg::Letter => vision::kit::Paper::Letter,
        }
    }
}

/// The games `arbiter print` writes a set for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PrintGame {
    Blitz,
    Duel,
    /// 风声.
    Message,
    /// Fields of Fire: the demo action deck as cards.
    Fof,
}

/// Writes `game`'s printable set into `out` (`arbiter print`): the faces and sheets as PNGs, and the
/// whole kit as `<game>-kit.pdf`.
pub fn print(
    game: PrintGame,
    out: &std::path::Path,
    paper: vision::kit::Paper,
    json: bool,
) -> anyhow::Result<ExitCode> {
    use clap::ValueEnum;
    let name = game
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    let (written, kit) = match game {
        PrintGame::Blitz => {
            let cat = blitz::catalogue::Catalogue::demo();
            let mats = [MatLayout::blitz(4), MatLayout::blitz(5)];
            let files = vision::sheets::write_print_set(&cat.cards, &mats, out);
            (files, vision::games::blitz::kit::kit(&cat))
        }
        PrintGame::Duel => {
            let cat = duel::Catalogue::demo();
            let decks = duel::DEMO_DECKS
                .iter()
                .map(|(origin, text)| {
                    duel::parse_deck(origin, text, &cat, &duel::Profile::default(), None)
                        .map_err(|e| anyhow::anyhow!("{e}"))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let files = vision::games::duel::write_print_set(&cat, out);
            (files, vision::games::duel::kit::kit(&cat, &decks))
        }
        PrintGame::Message => {
            let cat = message::Catalogue::shipped().map_err(|e| anyhow::anyhow!("{e}"))?;
            let files = vision::games::message::write_print_set(&cat, out);
            (files, vision::games::message::kit::kit(&cat))
        }
        PrintGame::Fof => {
            let deck = fof::deck::Deck::demo().map_err(|e| anyhow::anyhow!("{e}"))?;
            let fof::deck::DeckKind::Digital(cards) = &deck.kind else {
                anyhow::bail!("the shipped Fields of Fire deck lists no cards");
            };
            std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
            (Ok(Vec::new()), crate::fof_kit::kit(cards))
        }
    };
    let written = written.with_context(|| format!("writing the print set to {}", out.display()))?;
    let pdf = out.join(format!("{name}-kit.pdf"));
    let pages = kit
        .and_then(|kit| vision::kit::write_pdf(&kit, &pdf, paper))
        .with_context(|| format!("writing the kit to {}", pdf.display()))?;
    if json {
        let out = serde_json::json!({
            "game": name,
            "out": out,
            "files": written,
            "pdf": pdf,
            "paper": paper,
            "pages": pages,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "wrote {} files to {} and the kit, {} {} pages, to {}",
            written.len(),
            out.display(),
            pages.len(),
            match paper {
                vision::kit::Paper::A4 => "A4",
                vision::kit::Paper::Letter => "Letter",
            },
            pdf.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// How the scanned table is laid out: the mat or not, how many players, and (when the cards
/// cannot tell) where the Allied side is in the picture.
struct TableSetup {
    mat: bool,
    players: u8,
    allied_towards: Option<[f64; 2]>,
}

fn scanner(
    cat: &blitz::catalogue::Catalogue,
    table: &TableSetup,
    refs: Option<PathBuf>,
    identifier: &IdentifierChoice,
) -> anyhow::Result<vision::Scanner> {
    let designs = vision::distinct::blitz_designs(&cat.cards)?;
    let mut set = ReferenceSet::from_designs(&designs)?;
    let mut chosen = identifier.load(&designs)?;
    if let Some(path) = refs {
        let enrolled = ReferenceSet::load(&path)?.refs;
        for r in &enrolled {
            use vision::identifier::Identifier;
            match &mut chosen {
                Identifier::Hash => {}
                Identifier::Model(learned) | Identifier::Fused(learned) => {
                    // The fused identifier would refuse a print the model does not know.
                    anyhow::ensure!(
                        r.embedding.len() == vision::embed::EMBED_DIM,
                        "--refs {}: {} was enrolled without the model; enrol it again with the \
                         model at hand, or scan with --identifier hash",
                        path.display(),
                        r.card
                    );
                    learned.enrolment.enrol(&r.card, r.embedding.clone());
                }
                Identifier::Orb(_) => anyhow::bail!(
                    "--refs {}: enrolled references are not known to --identifier orb",
                    path.display()
                ),
            }
        }
        // Prints enrolled from a whole deck carry only the model's embedding, nothing the classical
        // matcher could compare.
        set.extend(
            enrolled
                .into_iter()
                .filter(|r| !r.coarse.is_empty())
                .collect(),
        );
    }
    let options = vision::ScannerOptions {
        use_mat: table.mat,
        cols: if table.players >= 4 { 5 } else { 4 },
        allied_towards: table.allied_towards,
        ..Default::default()
    };
    identifier.detector.added_to(
        vision::Scanner::with_refs(cat, set, options).with_identifier(chosen),
        BLITZ_DETECTOR,
    )
}

fn scan(scanner: vision::Scanner, json: bool, images: Vec<PathBuf>) -> anyhow::Result<ExitCode> {
    let mut source = vision::source::ImageFiles::new(&images)?;
    use vision::source::FrameSource;
    while let Some(frame) = source.next_frame()? {
        let obs = scanner.scan(&frame.image, frame.index)?;
        if json {
            let line = serde_json::json!({ "image": frame.origin, "observation": obs });
            println!("{line}");
        } else {
            println!(
                "{}: {} cards, table frame from {}, {:.1} ms",
                frame.origin,
                obs.cards.len(),
                method(&obs.calibration),
                obs.timings.total_ms
            );
            println!(
                "  {:<14} {:<6} {:<13} {:<8} confidence",
                "card", "cell", "orientation", "covered"
            );
            for c in &obs.cards {
                println!(
                    "  {:<14} {:<6} {:<13} {:<8} {:.2}",
                    c.card.as_deref().unwrap_or("unknown"),
                    c.cell.map_or_else(|| "-".to_string(), cell_name),
                    vision::eval::serde_name(&c.orientation),
                    if c.covered { "partly" } else { "no" },
                    c.confidence
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A cell as the panel and the rulings name it: B3 (column letter, row from the Allied side), or a
/// Duel 陣地 by side and number.
fn cell_name(cell: vision::Cell) -> String {
    match cell {
        vision::Cell::Blitz { col, row } => {
            blitz::board::Cell::new(col as i8, row as i8).to_string()
        }
        vision::Cell::Duel { side, slot } => format!("{}{slot}", vision::eval::serde_name(&side)),
    }
}

fn method(c: &vision::Calibration) -> &'static str {
    match c {
        vision::Calibration::Mat { .. } => "the mat",
        vision::Calibration::FrontLine { .. } => "the front line",
        vision::Calibration::Cards { .. } => "the cards",
        vision::Calibration::None { .. } => "nothing (no frame)",
    }
}

/// What `enroll --json` prints: the card enrolled, where, and what the player should know.
#[derive(serde::Serialize)]
struct Enrolment {
    id: String,
    image: PathBuf,
    refs: PathBuf,
    /// References the file holds now.
    references: usize,
    /// The learned identifier's embedding was stored (else the print is known to `hash` only).
    embedding: bool,
    /// A known card this print looks like, and how alike.
    similar: Option<Similar>,
    /// The warnings also written to stderr.
    warnings: Vec<String>,
}

#[derive(serde::Serialize)]
struct Similar {
    card: String,
    score: f32,
}

fn enroll(
    game: GameName,
    id: String,
    refs: PathBuf,
    model: &std::path::Path,
    image: PathBuf,
    json: bool,
) -> anyhow::Result<ExitCode> {
    blitz_only(game)?;
    let cat = blitz::catalogue::Catalogue::demo();
    anyhow::ensure!(
        cat.get(&id).is_some(),
        "{id}: not a card id of the Blitz catalogue"
    );
    let img = vision::pipeline::read_image(&image)?;
    let mut enrolled = if refs.exists() {
        ReferenceSet::load(&refs)?
    } else {
        ReferenceSet::default()
    };
    let mut known = ReferenceSet::from_catalogue(&cat.cards)?;
    known.extend(enrolled.refs.clone());
    let vision::identify::Enrolled {
        mut reference,
        similar,
        corners,
    } = vision::identify::enroll(&img, &id, &known).with_context(|| image.display().to_string())?;
    let mut warnings = Vec::new();
    match vision::embed::Embedder::load(model) {
        Ok(embedder) => {
            let crop = vision::embed::warp_crop(&img, &corners)?;
            reference.embedding = embedder.embed(&crop)?;
        }
        Err(e) => warnings.push(format!("{e}; {id} is enrolled for --identifier hash only")),
    }
    if let Some((other, score)) = &similar {
        warnings.push(format!(
            "{} looks like {other} (score {score:.2}); the scanner may confuse them",
            image.display()
        ));
    }
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let embedding = !reference.embedding.is_empty();
    enrolled.refs.push(reference);
    if let Some(dir) = refs.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    enrolled.save(&refs)?;
    if json {
        let done = Enrolment {
            id,
            image,
            refs,
            references: enrolled.refs.len(),
            embedding,
            similar: similar.map(|(card, score)| Similar { card, score }),
            warnings,
        };
        println!("{}", serde_json::to_string_pretty(&done)?);
    } else {
        println!(
            "enrolled {id} into {} ({} references)",
            refs.display(),
            enrolled.refs.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn model_thresholds(min_cosine: Option<f32>, min_gap: Option<f32>) -> ModelThresholds {
    let tuned = ModelThresholds::default();
    ModelThresholds {
        min_cosine: min_cosine.unwrap_or(tuned.min_cosine),
        min_gap: min_gap.unwrap_or(tuned.min_gap),
        ..tuned
    }
}

/// One identifier on the standard scenes, with the optional failure report.
struct Eval {
    scenes: usize,
    seed: u64,
    json: bool,
    report: Option<PathBuf>,
    min_margin: Option<f32>,
    placements: Vec<vision::scene::Placement>,
    cols: u8,
    mat: Option<bool>,
    scenes_dir: Option<PathBuf>,
    outcomes: Option<PathBuf>,
    detector: DetectorChoice,
}

impl Eval {
    fn run(
        self,
        game: GameName,
        kind: IdentifierKind,
        model: &std::path::Path,
        thresholds: ModelThresholds,
    ) -> anyhow::Result<ExitCode> {
        let Eval {
            scenes,
            seed,
            json,
            report,
            min_margin,
            placements,
            cols,
            mat,
            scenes_dir,
            outcomes: outcomes_file,
            detector,
        } = self;
        blitz_only(game)?;
        let cat = blitz::catalogue::Catalogue::demo();
        let renderer = vision::scene::SceneRenderer::new(&cat)?;
        let mut options = vision::ScannerOptions {
            cols,
            ..Default::default()
        };
        if let Some(m) = min_margin {
            options.min_margin = m;
        }
        let plan = crate::vision_compare::Plan {
            identifiers: vec![kind],
            seed,
            scenes,
            hard: Vec::new(),
            unknown: false,
            hard_scenes: 0,
            model: model.to_path_buf(),
            thresholds,
            options,
            crops: None,
            placements: Vec::new(),
            detector,
        };
        let scanner = crate::vision_compare::scanner_for(kind, &cat, &plan)?;
        let opts = vision::scene::SceneOptions {
            placements,
            cols: Some(cols),
            aruco_mat: mat,
            ..Default::default()
        };
        let (s, outcomes) = match &scenes_dir {
            Some(dir) => {
                let outcomes = vision::eval::run_dir(&scanner, dir, Some(scenes), |i, n| {
                    if i % 100 == 0 || i == n {
                        eprintln!("scene {i} of {n}");
                    }
                })?;
                if let Some(out) = &report {
                    vision::report::write_report(out, &outcomes, &[])?;
                }
                (vision::eval::summarise(&outcomes, seed), outcomes)
            }
            None => vision::report::evaluate(
                &renderer,
                &scanner,
                seed,
                scenes,
                &opts,
                report.as_deref(),
                true,
            )?,
        };
        if let Some(path) = &outcomes_file {
            crate::table::files::write_json_lines(path, &outcomes)?;
        }
        let conditions = vision::eval::by_condition(&outcomes);
        if json {
            let both = serde_json::json!({ "summary": s, "by_condition": conditions });
            println!("{}", serde_json::to_string_pretty(&both)?);
            return Ok(ExitCode::SUCCESS);
        }
        let pct = |x: f64| format!("{:.2} %", x * 100.0);
        let from = match &scenes_dir {
            Some(dir) => format!("from {}", dir.display()),
            None => format!("seeds {}..{}", seed, seed + scenes as u64),
        };
        println!(
            "scenes {} ({from}), {} visible cards, {:.1} cards a frame, identifier {}",
            s.scenes,
            s.visible_cards,
            s.cards_per_frame,
            kind.name()
        );
        println!("identity accuracy     {}", pct(s.identity_accuracy));
        println!("wrong but confident   {}", pct(s.wrong_confident_rate));
        println!("abstain (unknown)     {}", pct(s.abstain_rate));
        println!("missed (not found)    {}", pct(s.missed_rate));
        println!("orientation accuracy  {}", pct(s.orientation_accuracy));
        println!("cell accuracy         {}", pct(s.cell_accuracy));
        println!("whole board exact     {}", pct(s.whole_board_exact));
        for (name, st) in [
            ("total", &s.total),
            ("calibrate", &s.calibrate),
            ("detect", &s.detect),
            ("identify", &s.identify),
            ("assign", &s.assign),
        ] {
            println!(
                "ms/frame {name:<10} median {:.2}  p95 {:.2}",
                st.median_ms, st.p95_ms
            );
        }
        if kind != IdentifierKind::Hash {
            println!(
                "identifier's added time  {:.2} ms per quad (mean)",
                s.identifier_extra_ms_per_quad
            );
        }
        println!(
            "{:<10} {:<12} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8}",
            "by", "value", "scenes", "cards", "named", "cell", "orient", "exact"
        );
        for r in &conditions {
            println!(
                "{:<10} {:<12} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8}",
                r.axis,
                r.value,
                r.scenes,
                r.visible_cards,
                pct(r.named_right),
                pct(r.cell_right),
                pct(r.orientation_right),
                pct(r.whole_board_exact)
            );
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// What `render-scene --json` prints: the scene's seed and the files written.
#[derive(serde::Serialize)]
struct Rendered<'a> {
    out: &'a std::path::Path,
    seed: u64,
    image: &'a std::path::Path,
    truth: &'a std::path::Path,
}

fn render_scene(
    seed: u64,
    out: PathBuf,
    hard: Option<HardArg>,
    camera: CameraArg,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let cat = blitz::catalogue::Catalogue::demo();
    let renderer = vision::scene::SceneRenderer::new(&cat)?;
    let opts = vision::scene::SceneOptions {
        stress: hard.map(Into::into),
        placements: camera.placements(),
        ..Default::default()
    };
    let scene = renderer.render(seed, &opts)?;
    std::fs::create_dir_all(&out).with_context(|| out.display().to_string())?;
    let image = out.join(format!("scene-{seed}.png"));
    vision::sheets::write_png(&image, &scene.image)?;
    let truth = out.join(format!("scene-{seed}.json"));
    std::fs::write(&truth, serde_json::to_string_pretty(&scene.truth)?)
        .with_context(|| truth.display().to_string())?;
    if json {
        let rendered = Rendered {
            out: &out,
            seed,
            image: &image,
            truth: &truth,
        };
        println!("{}", serde_json::to_string_pretty(&rendered)?);
    } else {
        println!("wrote {} and {}", image.display(), truth.display());
    }
    Ok(ExitCode::SUCCESS)
}
