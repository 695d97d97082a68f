//! What the pipeline reports for one frame; the tracker (a later issue) consumes these.

use serde::{Deserialize, Serialize};

/// How a card lies relative to the viewer (the camera sits on the Allied side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// The card's top points away from the viewer (Allied cards).
    Upright,
    /// The card's top points toward the viewer (Axis cards).
    Inverted,
    /// Turned 90°: the card's top points to the viewer's left.
    TappedLeft,
    /// Turned 90°: the card's top points to the viewer's right.
    TappedRight,
}

impl Orientation {
    /// From the direction of the card's top edge in table coordinates (x right, y away from viewer).
    pub fn from_up_vector(dx: f64, dy: f64) -> Orientation {
        if dy.abs() >= dx.abs() {
            if dy > 0.0 {
                Orientation::Upright
            } else {
                Orientation::Inverted
            }
        } else if dx > 0.0 {
            Orientation::TappedRight
        } else {
            Orientation::TappedLeft
        }
    }

    /// Quarter turns clockwise (seen from above) from upright.
    pub fn quarter_turns(self) -> u8 {
        match self {
            Orientation::Upright => 0,
            Orientation::TappedRight => 1,
            Orientation::Inverted => 2,
            Orientation::TappedLeft => 3,
        }
    }

    fn upright() -> Orientation {
        Orientation::Upright
    }

    /// Turned by `turns` more quarter turns clockwise.
    pub fn turned(self, turns: u8) -> Orientation {
        Orientation::from_quarter_turns((self.quarter_turns() + turns) % 4)
    }

    pub fn from_quarter_turns(turns: u8) -> Orientation {
        match turns % 4 {
            0 => Orientation::Upright,
            1 => Orientation::TappedRight,
            2 => Orientation::Inverted,
            _ => Orientation::TappedLeft,
        }
    }
}

/// A place on the game's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "game")]
pub enum Cell {
    /// Blitz (col, row): col from the viewer's left; row 0..6 from the viewer's side, row 3 the front.
    Blitz { col: u8, row: u8 },
    /// Duel: 陣地 `slot` 1–5 on the `near` or `far` side.
    Duel { side: DuelSide, slot: u8 },
}

impl Cell {
    /// (column, row) of the cell on the game's card lattice, as the table memory keeps it: a Duel
    /// 陣地 is column slot − 1 of row 0 (near) or 1 (far).
    pub fn lattice_cell(self) -> (u8, u8) {
        match self {
            Cell::Blitz { col, row } => (col, row),
            Cell::Duel { side, slot } => (slot.saturating_sub(1), (side == DuelSide::Far) as u8),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuelSide {
    Near,
    Far,
}

/// How image pixels were tied to the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "method")]
pub enum Calibration {
    /// ArUco mat found: `homography` maps image pixels to table millimetres.
    Mat {
        mat: String,
        markers: usize,
        homography: [[f64; 3]; 3],
    },
    /// No mat: the grid fitted from `front_cards` visible front-line cards (and every other named
    /// card), from any side of the table.
    FrontLine {
        front_cards: usize,
        homography: [[f64; 3]; 3],
        #[serde(default)]
        allied_side: AlliedSide,
        /// The pitch measured along the frame's x and y, mm (the frame's cells are squares of the
        /// mat's pitch, whatever spacing the cards were laid at).
        #[serde(default = "printed_pitch")]
        pitch_mm: [f64; 2],
    },
    /// No mat and no front-line card visible (all under units): the grid fitted from `named_cards`
    /// named cards, rows placed so Allied cards lie on the near side and Axis cards on the far side.
    Cards {
        named_cards: usize,
        homography: [[f64; 3]; 3],
        #[serde(default)]
        allied_side: AlliedSide,
        /// As for `FrontLine`.
        #[serde(default = "printed_pitch")]
        pitch_mm: [f64; 2],
    },
    /// Nothing to fit the grid to: cells are not reported.
    None { reason: String },
}

fn printed_pitch() -> [f64; 2] {
    [crate::mats::PITCH_MM; 2]
}

/// Which way the Allied side lies in the image, and how that was known.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlliedSide {
    pub from: AlliedFrom,
    /// Unit image vector from the grid's middle toward the Allied player.
    pub towards: [f64; 2],
}

impl Default for AlliedSide {
    fn default() -> Self {
        AlliedSide {
            from: AlliedFrom::Guessed,
            towards: [0.0, 1.0],
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlliedFrom {
    /// Where the Allied and Axis cards lie and which way they face.
    Cards,
    /// The players' answer (the cards could not tell: only front-line cards, say).
    Asked,
    /// Where the same cards lay in earlier frames.
    Remembered,
    /// Nobody could tell: the image's bottom taken for the Allied side; ask the players.
    #[default]
    Guessed,
}

impl Calibration {
    /// Whether the players must be asked which side is Allied: the grid was fitted but nothing on
    /// the table said which way round it lies.
    pub fn allied_side_unknown(&self) -> bool {
        matches!(
            self,
            Calibration::FrontLine {
                allied_side: AlliedSide {
                    from: AlliedFrom::Guessed,
                    ..
                },
                ..
            } | Calibration::Cards {
                allied_side: AlliedSide {
                    from: AlliedFrom::Guessed,
                    ..
                },
                ..
            }
        )
    }

    pub fn homography(&self) -> Option<&[[f64; 3]; 3]> {
        match self {
            Calibration::Mat { homography, .. }
            | Calibration::FrontLine { homography, .. }
            | Calibration::Cards { homography, .. } => Some(homography),
            Calibration::None { .. } => None,
        }
    }

    /// Image → table millimetres (the frame's cells scaled back to the pitch the cards were laid
    /// at): what a card's size is measured in.
    pub fn metric_homography(&self) -> Option<[[f64; 3]; 3]> {
        match self {
            Calibration::Mat { homography, .. } => Some(*homography),
            Calibration::FrontLine {
                homography,
                pitch_mm,
                ..
            }
            | Calibration::Cards {
                homography,
                pitch_mm,
                ..
            } => {
                let nominal = crate::mats::PITCH_MM;
                let scale = [
                    [pitch_mm[0] / nominal, 0.0, 0.0],
                    [0.0, pitch_mm[1] / nominal, 0.0],
                    [0.0, 0.0, 1.0],
                ];
                Some(crate::geometry::mul(&scale, homography))
            }
            Calibration::None { .. } => None,
        }
    }
}

/// One card seen on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObservedCard {
    /// Catalogue id, or `None` when the match was not clear enough to name it (abstain).
    pub card: Option<String>,
    /// Card corners in image pixels: the card's top-left, top-right, bottom-right, bottom-left.
    pub corners: [[f32; 2]; 4],
    pub center: [f32; 2],
    pub orientation: Orientation,
    /// The orientation as its owner sees it (an Axis card upright to the Axis player is
    /// `upright` here, `inverted` above); the same as `orientation` for cards nobody owns, and
    /// when no table frame was fitted.
    #[serde(default = "Orientation::upright")]
    pub to_owner: Orientation,
    pub cell: Option<Cell>,
    /// Part of the card is hidden (by a hand, a sleeve or another card).
    pub covered: bool,
    /// 0..1: how clearly the winner beat the runner-up.
    pub confidence: f32,
}

/// Milliseconds spent in each stage for one frame.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    pub calibrate_ms: f64,
    pub detect_ms: f64,
    pub identify_ms: f64,
    pub assign_ms: f64,
    pub total_ms: f64,
    /// Of `identify_ms`, the time the chosen identifier spent beyond the classical matcher (ORB or
    /// the model's warp and run), and on how many quads.
    #[serde(default)]
    pub identifier_extra_ms: f64,
    #[serde(default)]
    pub quads_identified: u32,
    /// Of `quads_identified`, those a changed frame took as the last scan named them (nothing
    /// changed under them).
    #[serde(default)]
    pub quads_taken_again: u32,
    /// Nothing changed since the frame last scanned: its observation was taken again, and
    /// `total_ms` is the comparison's (and the hand and motion watch's) time.
    #[serde(default)]
    pub reused: bool,
}

/// Everything the pipeline says about one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableObservation {
    pub frame_index: u64,
    pub calibration: Calibration,
    pub cards: Vec<ObservedCard>,
    /// A hand, a sleeve or motion blur probably hides part of the table: do not act on this frame alone.
    pub hand_or_motion_suspected: bool,
    /// Much of the frame changed since the last one (a hand moving, a bumped camera): only set
    /// when scanning a sequence of frames.
    #[serde(default)]
    pub motion: bool,
    /// A hand, moving or held still, is over the table (skin where the learnt table changed):
    /// only set when scanning a sequence of frames.
    #[serde(default)]
    pub hand: bool,
    pub timings: Timings,
}
