//! A4 print sheets: nine card faces a page (3×3) at 300 dpi, with thin cut marks.

use crate::face::{FACE_H, FACE_W, PX_PER_MM};
use crate::VisionError;
use opencv::core::{Mat, Rect, Scalar, CV_8UC3};
use opencv::prelude::*;

pub const A4_W: i32 = 2480;
pub const A4_H: i32 = 3508;

/// Lays out up to nine faces on one A4 page.
pub fn sheet(faces: &[&Mat]) -> Result<Mat, VisionError> {
    let mut page = Mat::new_rows_cols_with_default(A4_H, A4_W, CV_8UC3, Scalar::all(255.0))?;
    let gap = (2.0 * PX_PER_MM) as i32;
    let x0 = (A4_W - 3 * FACE_W - 2 * gap) / 2;
    let y0 = (A4_H - 3 * FACE_H - 2 * gap) / 2;
    for (i, face) in faces.iter().take(9).enumerate() {
        let (c, r) = ((i % 3) as i32, (i / 3) as i32);
        let rect = Rect::new(
            x0 + c * (FACE_W + gap),
            y0 + r * (FACE_H + gap),
            FACE_W,
            FACE_H,
        );
        let mut roi = page.roi_mut(rect)?;
        face.copy_to(&mut roi)?;
        opencv::imgproc::rectangle(&mut page, rect, Scalar::all(200.0), 1, 8, 0)?;
    }
    Ok(page)
}

/// Writes one PNG per card (named by id), A4 sheets of nine, and the game's mats into `out`.
/// Returns the files written.
pub fn write_print_set(
    cards: &[blitz::catalogue::CardDef],
    mats: &[crate::mats::MatLayout],
    out: &std::path::Path,
) -> Result<Vec<std::path::PathBuf>, VisionError> {
    std::fs::create_dir_all(out).map_err(|e| VisionError::io(out, e))?;
    let mut written = Vec::new();
    let mut faces = Vec::new();
    for (id, face) in crate::distinct::blitz_faces(cards)? {
        let path = out.join(format!("{id}.png"));
        write_png(&path, &face)?;
        written.push(path);
        faces.push(face);
    }
    for (page, chunk) in faces.chunks(9).enumerate() {
        let refs: Vec<&Mat> = chunk.iter().collect();
        let path = out.join(format!("sheet-{:02}.png", page + 1));
        write_png(&path, &sheet(&refs)?)?;
        written.push(path);
    }
    for layout in mats {
        let path = out.join(format!("mat-{}.png", layout.name));
        write_png(&path, &crate::mats::render_mat(layout, 10.0)?)?;
        written.push(path);
    }
    Ok(written)
}

pub fn write_png(path: &std::path::Path, img: &Mat) -> Result<(), VisionError> {
    let ok = opencv::imgcodecs::imwrite(path, img, &opencv::core::Vector::new())?;
    if ok {
        Ok(())
    } else {
        Err(VisionError::Data {
            path: path.to_path_buf(),
            reason: "could not write image".into(),
        })
    }
}
