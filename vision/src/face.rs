//! Printable card faces drawn from the catalogue: 63×88 mm at 300 dpi.
//!
//! The layout is fixed by the constants below so the detector knows where the black frame is: a thin
//! white margin, a black frame, a white gap, then the content. The detector looks for the *hole* inside
//! the frame, which stays a clean quad even when cards touch or lie across each other.

use crate::font::{draw_text, draw_text_centered};
use crate::VisionError;
use blitz::catalogue::{CardDef, CardKind, FacilityEffect, Faction, SkillEffect};
use opencv::core::{Mat, Point, Rect, Scalar, Vector, CV_8UC3};
use opencv::imgproc::{self, LINE_AA};
use opencv::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const CARD_W_MM: f64 = 63.0;
pub const CARD_H_MM: f64 = 88.0;
pub const DPI: f64 = 300.0;
pub const PX_PER_MM: f64 = DPI / 25.4;
pub const FACE_W: i32 = 744;
pub const FACE_H: i32 = 1039;
/// White margin outside the black frame.
pub const MARGIN_MM: f64 = 2.0;
/// Width of the black frame.
pub const FRAME_MM: f64 = 4.0;
/// Inset of the frame's inner edge (the "hole" the detector finds) from the card edge.
pub const HOLE_INSET_MM: f64 = MARGIN_MM + FRAME_MM;
/// White gap between the frame and the content.
pub const GAP_MM: f64 = 4.0;
/// Extra white above the header: a far card seen at 45° is foreshortened top to bottom, and a
/// 4 mm gap between the frame and a dark header closes up under blur, so the hole is lost.
pub const HEADER_GAP_MM: f64 = 6.0;
/// The size every picture is drawn at before it is scaled onto the face.
const PICTURE_W: i32 = 508;
const PICTURE_H: i32 = 340;

fn px(mm: f64) -> i32 {
    (mm * PX_PER_MM).round() as i32
}

fn bgr(c: [u8; 3]) -> Scalar {
    Scalar::new(c[0] as f64, c[1] as f64, c[2] as f64, 0.0)
}

/// Faction colour of the header band (BGR); front-line cards are dark red.
pub fn faction_colour(faction: Option<Faction>) -> [u8; 3] {
    match faction {
        Some(Faction::Us) => [150, 80, 20],
        Some(Faction::Uk) => [40, 110, 170],
        Some(Faction::Ss) => [130, 50, 110],
        Some(Faction::Wh) => [110, 125, 95],
        None => [40, 30, 160],
    }
}

/// A stable 64-bit seed from a card id (FNV-1a), so each card gets its own picture forever.
pub fn id_seed(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x1000_0000_01b3)
    })
}

fn random_colour(rng: &mut ChaCha8Rng) -> [u8; 3] {
    // HSV with strong saturation so pictures stay distinct after a webcam washes them out.
    let h: f64 = rng.random_range(0.0..6.0);
    let s: f64 = rng.random_range(0.55..1.0);
    let v: f64 = rng.random_range(0.35..1.0);
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let to = |f: f64| ((f + m) * 255.0).round() as u8;
    [to(b), to(g), to(r)]
}

/// A picture of our own making: big coloured shapes seeded from the card id.
fn draw_picture(img: &mut Mat, area: Rect, art: u64) -> Result<(), VisionError> {
    let mut rng = ChaCha8Rng::seed_from_u64(art);
    // Drawn at one fixed size and scaled into `area`, so a layout change never redraws the art.
    let area_in = area;
    let area = Rect::new(0, 0, PICTURE_W, PICTURE_H);
    let mut pic =
        Mat::new_rows_cols_with_default(area.height, area.width, CV_8UC3, Scalar::all(0.0))?;
    let (a, b) = (random_colour(&mut rng), random_colour(&mut rng));
    for y in 0..area.height {
        let t = y as f64 / area.height as f64;
        let c = [0, 1, 2].map(|k| a[k] as f64 * (1.0 - t) + b[k] as f64 * t);
        imgproc::line(
            &mut pic,
            Point::new(0, y),
            Point::new(area.width, y),
            Scalar::new(c[0], c[1], c[2], 0.0),
            1,
            8,
            0,
        )?;
    }
    let (w, h) = (area.width, area.height);
    let shapes = rng.random_range(4..7);
    for _ in 0..shapes {
        let colour = bgr(random_colour(&mut rng));
        let cx = rng.random_range(0..w);
        let cy = rng.random_range(0..h);
        let size = rng.random_range(w / 6..w / 2);
        match rng.random_range(0..5) {
            0 => imgproc::circle(
                &mut pic,
                Point::new(cx, cy),
                size / 2,
                colour,
                -1,
                LINE_AA,
                0,
            )?,
            1 => imgproc::rectangle(
                &mut pic,
                Rect::new(cx - size / 2, cy - size / 3, size, size * 2 / 3),
                colour,
                -1,
                LINE_AA,
                0,
            )?,
            2 => {
                let pts: Vector<Point> = (0..3)
                    .map(|_| {
                        Point::new(
                            cx + rng.random_range(-size..size),
                            cy + rng.random_range(-size..size),
                        )
                    })
                    .collect();
                imgproc::fill_convex_poly(&mut pic, &pts, colour, LINE_AA, 0)?;
            }
            3 => {
                let angle: f64 = rng.random_range(0.0..std::f64::consts::PI);
                let (dx, dy) = (
                    (angle.cos() * w as f64) as i32,
                    (angle.sin() * w as f64) as i32,
                );
                imgproc::line(
                    &mut pic,
                    Point::new(cx - dx, cy - dy),
                    Point::new(cx + dx, cy + dy),
                    colour,
                    size / 4 + 8,
                    LINE_AA,
                    0,
                )?;
            }
            _ => imgproc::circle(
                &mut pic,
                Point::new(cx, cy),
                size / 2,
                colour,
                size / 6 + 6,
                LINE_AA,
                0,
            )?,
        }
    }
    let mut scaled = Mat::default();
    imgproc::resize(
        &pic,
        &mut scaled,
        opencv::core::Size::new(area_in.width, area_in.height),
        0.0,
        0.0,
        imgproc::INTER_AREA,
    )?;
    let mut roi = img.roi_mut(area_in)?;
    scaled.copy_to(&mut roi)?;
    Ok(())
}

/// The range / supply pattern: own cell blue, reachable cells red (attack) or green (supply).
/// Forward (toward the enemy) is up on the printed card.
fn draw_pattern(
    img: &mut Mat,
    area: Rect,
    offsets: &[(i8, i8)],
    colour: [u8; 3],
) -> Result<(), VisionError> {
    let max_across = offsets
        .iter()
        .map(|o| o.0.unsigned_abs())
        .max()
        .unwrap_or(1)
        .max(1) as i32;
    let min_fwd = offsets.iter().map(|o| o.1).min().unwrap_or(0).min(0) as i32;
    let max_fwd = offsets.iter().map(|o| o.1).max().unwrap_or(1).max(1) as i32;
    let cols = 2 * max_across + 1;
    let rows = max_fwd - min_fwd + 1;
    let cell = (area.width / cols).min(area.height / rows);
    let x0 = area.x + (area.width - cell * cols) / 2;
    let y0 = area.y + (area.height - cell * rows) / 2;
    for r in 0..rows {
        for c in 0..cols {
            let across = c - max_across;
            let forward = max_fwd - r;
            let rect = Rect::new(x0 + c * cell, y0 + r * cell, cell, cell);
            let fill = if across == 0 && forward == 0 {
                Some([200, 90, 30])
            } else if offsets
                .iter()
                .any(|o| o.0 as i32 == across && o.1 as i32 == forward)
            {
                Some(colour)
            } else {
                None
            };
            if let Some(f) = fill {
                imgproc::rectangle(img, rect, bgr(f), -1, 8, 0)?;
            }
            imgproc::rectangle(img, rect, Scalar::all(60.0), 2, 8, 0)?;
        }
    }
    Ok(())
}

fn kind_label(card: &CardDef) -> (&'static str, Vec<(String, String)>) {
    match &card.kind {
        CardKind::Unit {
            attack,
            defence,
            supply,
            ..
        } => (
            "部队 UNIT",
            vec![
                ("攻".into(), attack.to_string()),
                ("防".into(), defence.to_string()),
                ("补".into(), supply.to_string()),
            ],
        ),
        CardKind::Resource { level, defence, .. } => (
            "资源 RESOURCE",
            vec![
                ("级".into(), level.to_string()),
                ("防".into(), defence.to_string()),
            ],
        ),
        CardKind::Facility { defence, effect } => {
            let e = match effect {
                FacilityEffect::Mine => "雷".to_string(),
                FacilityEffect::AntiTank => "障".to_string(),
                FacilityEffect::Bunker { bonus } => format!("+{bonus}"),
            };
            (
                "设施 FACILITY",
                vec![("防".into(), defence.to_string()), ("效".into(), e)],
            )
        }
        CardKind::Skill { effect } => {
            let e = match effect {
                SkillEffect::Strike { power } => ("击".to_string(), power.to_string()),
                SkillEffect::Barrage { power } => ("炮".to_string(), power.to_string()),
                SkillEffect::Sabotage => ("破".to_string(), "坏".to_string()),
                SkillEffect::Rally => ("补".to_string(), "给".to_string()),
            };
            ("技能 SKILL", vec![e])
        }
        CardKind::Frontline => ("前线 FRONT LINE", vec![]),
    }
}

/// Offsets (across, forward) of a range or supply pattern and the colour of its cells (BGR).
pub type Pattern = (Vec<(i8, i8)>, [u8; 3]);

/// What one printed face shows, for any game: the frame, header, picture, number boxes and pattern
/// are laid out alike on every card so the detector and the matcher need not know the game.
#[derive(Clone, Debug, PartialEq)]
pub struct FaceDesign {
    /// Printed small at the bottom; also seeds the picture, so each id gets its own forever.
    pub id: String,
    /// Big in the header band.
    pub title: String,
    /// Small under the title (faction · kind).
    pub subtitle: String,
    /// Header band and number boxes (BGR).
    pub colour: [u8; 3],
    /// Up to three (label, value) boxes under the picture (more are not drawn).
    pub stats: Vec<(String, String)>,
    /// Range or supply pattern in the bottom-right: offsets (across, forward) and their colour.
    pub pattern: Option<Pattern>,
    /// Seed of the picture: the id's own by default, re-rolled by [`crate::distinct`] when the
    /// picture looks too much like another card's.
    pub art: u64,
}

impl FaceDesign {
    /// The Blitz face of a catalogue card.
    pub fn blitz(card: &CardDef) -> FaceDesign {
        let (label, stats) = kind_label(card);
        let faction = card.faction.map(|f| f.name_zh()).unwrap_or("中立");
        let pattern = match &card.kind {
            CardKind::Unit { range, .. } => Some((range.clone(), [40, 40, 210])),
            CardKind::Resource { supply_range, .. } => {
                let around: Vec<(i8, i8)> = (-1..=1)
                    .flat_map(|a| (-1..=1).map(move |f| (a, f)))
                    .filter(|o| *o != (0, 0))
                    .collect();
                Some((supply_range.clone().unwrap_or(around), [60, 170, 40]))
            }
            _ => None,
        };
        FaceDesign {
            id: card.id.clone(),
            title: card.name_zh.clone(),
            subtitle: format!("{faction} · {label}"),
            colour: faction_colour(card.faction),
            stats,
            pattern,
            art: id_seed(&card.id),
        }
    }
}

/// Renders one Blitz card face (BGR, FACE_W × FACE_H).
pub fn render_face(card: &CardDef) -> Result<Mat, VisionError> {
    render_design(&FaceDesign::blitz(card))
}

/// Renders any game's face (BGR, FACE_W × FACE_H).
pub fn render_design(card: &FaceDesign) -> Result<Mat, VisionError> {
    let mut img = Mat::new_rows_cols_with_default(FACE_H, FACE_W, CV_8UC3, Scalar::all(255.0))?;
    let m = px(MARGIN_MM);
    let f = px(FRAME_MM);
    imgproc::rectangle(
        &mut img,
        Rect::new(m, m, FACE_W - 2 * m, FACE_H - 2 * m),
        Scalar::all(0.0),
        -1,
        8,
        0,
    )?;
    let hole = m + f;
    imgproc::rectangle(
        &mut img,
        Rect::new(hole, hole, FACE_W - 2 * hole, FACE_H - 2 * hole),
        Scalar::all(255.0),
        -1,
        8,
        0,
    )?;
    let c0 = px(HOLE_INSET_MM + GAP_MM);
    let cw = FACE_W - 2 * c0;
    let top = px(HOLE_INSET_MM + HEADER_GAP_MM);
    let colour = card.colour;
    let white = [255, 255, 255];
    // Header band: name and type, on the faction colour.
    imgproc::rectangle(&mut img, Rect::new(c0, top, cw, 150), bgr(colour), -1, 8, 0)?;
    draw_text_centered(
        &mut img,
        &card.title,
        (FACE_W / 2) as f32,
        (top + 95) as f32,
        84.0,
        cw as f32 - 20.0,
        white,
    )?;
    draw_text_centered(
        &mut img,
        &card.subtitle,
        (FACE_W / 2) as f32,
        (top + 138) as f32,
        32.0,
        cw as f32 - 20.0,
        white,
    )?;
    // Picture of our own making.
    let pic = Rect::new(c0, top + 160, cw, cw * PICTURE_H / PICTURE_W);
    draw_picture(&mut img, pic, card.art)?;
    // Numbers: big, in boxes of the faction colour.
    let stat_y = pic.y + pic.height + 16;
    for (i, (name, value)) in card.stats.iter().take(3).enumerate() {
        let x = c0 + i as i32 * 172;
        imgproc::rectangle(
            &mut img,
            Rect::new(x, stat_y, 160, 112),
            bgr(colour),
            6,
            8,
            0,
        )?;
        draw_text(
            &mut img,
            name,
            (x + 8) as f32,
            (stat_y + 76) as f32,
            54.0,
            colour,
        )?;
        draw_text(
            &mut img,
            value,
            (x + 70) as f32,
            (stat_y + 94) as f32,
            92.0,
            [0, 0, 0],
        )?;
    }
    // Bottom: big id on the left, pattern grid on the right.
    let bottom = stat_y + 124;
    let bottom_h = FACE_H - c0 - bottom;
    draw_text(
        &mut img,
        &card.id,
        c0 as f32,
        (bottom + 70) as f32,
        72.0,
        [0, 0, 0],
    )?;
    draw_text(
        &mut img,
        "DEMO 演示卡",
        c0 as f32,
        (bottom + 122) as f32,
        34.0,
        [90, 90, 90],
    )?;
    let grid = Rect::new(FACE_W - c0 - 210, bottom, 210, bottom_h);
    if let Some((offsets, pattern_colour)) = &card.pattern {
        draw_pattern(&mut img, grid, offsets, *pattern_colour)?;
    }
    Ok(img)
}

/// Where the four corners of the frame's hole lie on a card of size (w, h) in any unit, given the
/// card's own size in mm: top-left, top-right, bottom-right, bottom-left.
pub fn hole_rect(w: f64, h: f64) -> [[f64; 2]; 4] {
    let ix = HOLE_INSET_MM / CARD_W_MM * w;
    let iy = HOLE_INSET_MM / CARD_H_MM * h;
    [[ix, iy], [w - ix, iy], [w - ix, h - iy], [ix, h - iy]]
}
