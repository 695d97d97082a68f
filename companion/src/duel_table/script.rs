//! A scripted Duel table for the synthetic source, the e2e test and the screenshot: a few turns of
//! the demo decks laid out step by step and rendered by the synthetic scene renderer (one camera
//! set-up from the seed for the whole game), so every frame goes through the real vision pipeline.

use vision::games::duel::{DuelSceneOptions, DuelSceneRenderer, LaidCard, Place, BACK_ID};
use vision::source::{Frame, FrameSource};
use vision::types::DuelSide;
use vision::VisionError;

/// Frames each table layout is shown for (the tracker commits after 3 steady frames).
pub const FRAMES_PER_STEP: usize = 5;

fn unit(side: DuelSide, slot: u8, card: &str, tapped: bool) -> LaidCard {
    LaidCard {
        card: card.into(),
        place: Place::Slot { side, slot },
        tapped,
    }
}

fn land(side: DuelSide, index: u8, card: &str, tapped: bool) -> LaidCard {
    LaidCard {
        card: card.into(),
        place: Place::Territory { side, index },
        tapped,
    }
}

/// The table after each step, with what the step shows (for logs and docs).
pub fn steps() -> Vec<(&'static str, Vec<LaidCard>)> {
    use DuelSide::{Far, Near};
    vec![
        ("empty table", vec![]),
        (
            "near: 魏领土 face up",
            vec![land(Near, 0, "wei-land", false)],
        ),
        (
            "near: taps 魏领土, 虎卫新兵 into 陣地 3",
            vec![
                land(Near, 0, "wei-land", true),
                unit(Near, 2, "wei-01", false),
            ],
        ),
        (
            "far: 群领土 face up",
            vec![
                land(Near, 0, "wei-land", true),
                unit(Near, 2, "wei-01", false),
                land(Far, 0, "qun-land", false),
            ],
        ),
        (
            "far: taps 群领土, 黄巾信徒 into 陣地 3",
            vec![
                land(Near, 0, "wei-land", true),
                unit(Near, 2, "wei-01", false),
                land(Far, 0, "qun-land", true),
                unit(Far, 2, "qun-02", false),
            ],
        ),
        (
            "far: 黄巾信徒 turned sideways the turn it entered (refused: 整备)",
            vec![
                land(Near, 0, "wei-land", true),
                unit(Near, 2, "wei-01", false),
                land(Far, 0, "qun-land", true),
                unit(Far, 2, "qun-02", true),
            ],
        ),
        (
            "near: untaps 魏领土, a territory face down",
            vec![
                land(Near, 0, "wei-land", false),
                land(Near, 1, BACK_ID, false),
                unit(Near, 2, "wei-01", false),
                land(Far, 0, "qun-land", true),
                unit(Far, 2, "qun-02", false),
            ],
        ),
        (
            "near: taps both territories, 轻骑斥候 into 陣地 1",
            vec![
                land(Near, 0, "wei-land", true),
                land(Near, 1, BACK_ID, true),
                unit(Near, 0, "wei-03", false),
                unit(Near, 2, "wei-01", false),
                land(Far, 0, "qun-land", true),
                unit(Far, 2, "qun-02", false),
            ],
        ),
        (
            "near: 虎卫新兵 turned sideways: attacks",
            vec![
                land(Near, 0, "wei-land", true),
                land(Near, 1, BACK_ID, true),
                unit(Near, 0, "wei-03", false),
                unit(Near, 2, "wei-01", true),
                land(Far, 0, "qun-land", true),
                unit(Far, 2, "qun-02", false),
            ],
        ),
    ]
}

/// Renders the scripted steps, `FRAMES_PER_STEP` frames each.
pub struct ScriptedTable {
    renderer: DuelSceneRenderer,
    steps: Vec<(&'static str, Vec<LaidCard>)>,
    seed: u64,
    next: usize,
}

impl ScriptedTable {
    pub fn new(seed: u64) -> Result<ScriptedTable, VisionError> {
        Ok(ScriptedTable {
            renderer: DuelSceneRenderer::new(&duel::Catalogue::demo())?,
            steps: steps(),
            seed,
            next: 0,
        })
    }

    pub fn frames(&self) -> usize {
        self.steps.len() * FRAMES_PER_STEP
    }
}

impl FrameSource for ScriptedTable {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        let i = self.next;
        let Some((what, layout)) = self.steps.get(i / FRAMES_PER_STEP) else {
            return Ok(None);
        };
        self.next += 1;
        let opts = DuelSceneOptions {
            aruco_mat: Some(true),
            hand: Some(false),
            layout: Some(layout.clone()),
            gentle: true,
            ..DuelSceneOptions::default()
        };
        // One seed for the whole game: the same camera, light and card jitter in every frame.
        let scene = self.renderer.render(self.seed, &opts)?;
        Ok(Some(Frame {
            index: i as u64,
            image: scene.image,
            origin: format!(
                "scripted seed {} step {}: {what}",
                self.seed,
                i / FRAMES_PER_STEP
            ),
            truth: None,
        }))
    }
}
