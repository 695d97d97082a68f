//! Printed 风声 game cards. A face is one `[[card]]` row of the deck catalogue (kind, colour, method
//! and, for 试探, its table of answers); that row's `count` copies share the face, so they share one
//! reference id: the camera names the face kind, never the copy (copies are printed alike).
//!
//! The intelligence colour is the header colour, a thick band round the picture and a stat box, so
//! the colour can be read from the pixels even when the card itself cannot be named.

use crate::face::{render_design, FaceDesign, FACE_W, GAP_MM, HOLE_INSET_MM, PX_PER_MM};
use crate::identify::ReferenceSet;
use crate::sheets::{sheet, write_png};
use crate::VisionError;
use message::catalogue::{Card, Catalogue, Colour, Kind, Method, ProbeTable};
use opencv::core::{Mat, Rect, Scalar};
use opencv::imgproc;
use std::path::{Path, PathBuf};

/// One distinct printed face of the deck and how many copies of it the deck holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageFace {
    /// Reference id, e.g. `lock-red` or `probe-blue-2` (a number only where one kind and colour
    /// has several faces).
    pub id: String,
    pub kind: Kind,
    pub colour: Colour,
    pub method: Method,
    pub probe: Option<ProbeTable>,
    pub copies: usize,
}

/// Print colour (BGR) of each intelligence colour; chosen far apart in hue and lightness so a soft,
/// badly lit webcam frame still tells them apart.
pub fn colour_bgr(c: Colour) -> [u8; 3] {
    match c {
        Colour::Red => [40, 40, 205],
        Colour::Blue => [195, 95, 20],
        Colour::Black => [25, 25, 25],
    }
}

pub fn colour_zh(c: Colour) -> &'static str {
    match c {
        Colour::Red => "红",
        Colour::Blue => "蓝",
        Colour::Black => "黑",
    }
}

pub fn colour_en(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Blue => "blue",
        Colour::Black => "black",
    }
}

fn method_zh(m: Method) -> &'static str {
    m.zh()
}

fn kind_slug(k: Kind) -> String {
    format!("{k:?}").to_lowercase()
}

/// The deck's distinct faces, in catalogue order.
pub fn faces(cat: &Catalogue) -> Vec<MessageFace> {
    let mut out: Vec<MessageFace> = Vec::new();
    for card in &cat.deck.cards {
        let same = |f: &MessageFace| same_face(f, card);
        match out.iter_mut().find(|f| same(f)) {
            Some(f) => f.copies += 1,
            None => out.push(MessageFace {
                id: String::new(),
                kind: card.kind,
                colour: card.colour,
                method: card.method,
                probe: card.probe,
                copies: 1,
            }),
        }
    }
    // Ids: kind-colour, numbered only when a kind and colour has more than one face.
    let keys: Vec<(Kind, Colour)> = out.iter().map(|f| (f.kind, f.colour)).collect();
    let mut seen: Vec<(Kind, Colour)> = Vec::new();
    for (i, f) in out.iter_mut().enumerate() {
        let key = keys[i];
        let total = keys.iter().filter(|k| **k == key).count();
        seen.push(key);
        let n = seen.iter().filter(|k| **k == key).count();
        let base = format!("{}-{}", kind_slug(f.kind), colour_en(f.colour));
        f.id = if total > 1 {
            format!("{base}-{n}")
        } else {
            base
        };
    }
    out
}

fn same_face(f: &MessageFace, c: &Card) -> bool {
    f.kind == c.kind && f.colour == c.colour && f.method == c.method && f.probe == c.probe
}

/// The face id of one physical card of the deck.
pub fn face_of<'a>(faces: &'a [MessageFace], card: &Card) -> Option<&'a MessageFace> {
    faces.iter().find(|f| same_face(f, card))
}

/// The printed face: name, colour · method, and three boxes (colour, method, copies in the deck).
pub fn design(face: &MessageFace) -> FaceDesign {
    let m = method_zh(face.method);
    FaceDesign {
        id: face.id.clone(),
        title: face.kind.zh().to_string(),
        subtitle: format!(
            "{}色情报 {} · {}",
            colour_zh(face.colour),
            colour_en(face.colour).to_uppercase(),
            m
        ),
        colour: colour_bgr(face.colour),
        stats: vec![
            ("色".to_string(), colour_zh(face.colour).to_string()),
            (
                "传".to_string(),
                m.chars().next().unwrap_or('?').to_string(),
            ),
        ],
        pattern: None,
        art: crate::face::id_seed(&face.id),
    }
}

/// Renders a face and rings its picture with the intelligence colour.
pub fn render(face: &MessageFace) -> Result<Mat, VisionError> {
    let mut img = render_design(&design(face))?;
    // The picture sits at (c0, c0 + 160, cw, 340) on every face (see face::render_design).
    let c0 = ((HOLE_INSET_MM + GAP_MM) * PX_PER_MM).round() as i32;
    let cw = FACE_W - 2 * c0;
    let band = 26;
    let [b, g, r] = colour_bgr(face.colour);
    imgproc::rectangle(
        &mut img,
        Rect::new(c0 + band / 2, c0 + 160 + band / 2, cw - band, 340 - band),
        Scalar::new(b as f64, g as f64, r as f64, 0.0),
        band,
        imgproc::LINE_8,
        0,
    )?;
    Ok(img)
}

/// Every distinct face at print resolution, with its id.
pub fn render_faces(faces: &[MessageFace]) -> Result<Vec<(String, Mat)>, VisionError> {
    faces
        .iter()
        .map(|f| Ok((f.id.clone(), render(f)?)))
        .collect()
}

pub fn reference_set(rendered: &[(String, Mat)]) -> Result<ReferenceSet, VisionError> {
    ReferenceSet::from_faces(rendered.iter().map(|(id, m)| (id.as_str(), m)))
}

/// Writes one PNG per face (named by id), A4 sheets holding every physical copy of the deck (81
/// cards, nine a page), and the nine seat cards (`seat-N.png` and their sheet). Returns the files
/// written.
pub fn write_print_set(cat: &Catalogue, out: &Path) -> Result<Vec<PathBuf>, VisionError> {
    std::fs::create_dir_all(out).map_err(|e| VisionError::io(out, e))?;
    let faces = faces(cat);
    let rendered = render_faces(&faces)?;
    let mut written = Vec::new();
    for (id, img) in &rendered {
        let path = out.join(format!("{id}.png"));
        write_png(&path, img)?;
        written.push(path);
    }
    let copies: Vec<&Mat> = faces
        .iter()
        .zip(&rendered)
        .flat_map(|(f, (_, img))| std::iter::repeat_n(img, f.copies))
        .collect();
    for (page, chunk) in copies.chunks(9).enumerate() {
        let path = out.join(format!("deck-sheet-{:02}.png", page + 1));
        write_png(&path, &sheet(chunk)?)?;
        written.push(path);
    }
    let seat_cards = (0..super::markers::MAX_SEATS)
        .map(|s| super::markers::render_seat_card(s, crate::face::PX_PER_MM))
        .collect::<Result<Vec<Mat>, _>>()?;
    for (s, card) in seat_cards.iter().enumerate() {
        let path = out.join(format!("seat-{}.png", s + 1));
        write_png(&path, card)?;
        written.push(path);
    }
    let path = out.join("seat-cards-sheet.png");
    write_png(&path, &sheet(&seat_cards.iter().collect::<Vec<_>>())?)?;
    written.push(path);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_table_faces_cover_the_deck_and_copies_share_a_face() {
        let cat = Catalogue::shipped().expect("shipped");
        let f = faces(&cat);
        assert_eq!(
            f.iter().map(|f| f.copies).sum::<usize>(),
            cat.deck.cards.len()
        );
        let mut ids: Vec<&str> = f.iter().map(|f| f.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), f.len(), "face ids are unique");
        // Six black 截获 copies, one face.
        let intercept = f.iter().find(|f| f.id == "intercept-black").expect("face");
        assert_eq!(intercept.copies, 6);
        // 试探 red comes in two printed variants (different answers): two faces.
        assert!(f.iter().any(|f| f.id == "probe-red-1") && f.iter().any(|f| f.id == "probe-red-2"));
        for card in &cat.deck.cards {
            assert_eq!(face_of(&f, card).map(|x| x.colour), Some(card.colour));
        }
    }
}
