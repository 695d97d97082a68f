//! Draws what the card detector finds in an image: its quads (green whole, orange partly hidden)
//! and the model's core map, side by side, into OUT.png.
//!
//!     cargo run --release -p vision --example detect_debug -- IMAGE OUT.png [MODEL]

use opencv::core::{Mat, Point, Scalar, Size, Vector, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;
use vision::detector::{CardDetector, DetectorOptions, OUTPUT_SCALE};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (image, out) = (args.get(1).ok_or("IMAGE")?, args.get(2).ok_or("OUT")?);
    let model = args
        .get(3)
        .map(String::as_str)
        .unwrap_or(vision::detector::DEFAULT_MODEL);
    let mut detector = CardDetector::new(model, DetectorOptions::default())?;
    let img = vision::pipeline::read_image(std::path::Path::new(image))?;
    let cards = detector.detect(&img)?;
    let mut shown = img.clone();
    for c in &cards {
        let pts: Vector<Point> = c
            .corners
            .iter()
            .map(|p| Point::new(p[0] as i32, p[1] as i32))
            .collect();
        let colour = if c.partly_hidden {
            Scalar::new(0.0, 140.0, 255.0, 0.0)
        } else {
            Scalar::new(0.0, 255.0, 0.0, 0.0)
        };
        imgproc::polylines(
            &mut shown,
            &Vector::<Vector<Point>>::from(vec![pts]),
            true,
            colour,
            2,
            imgproc::LINE_AA,
            0,
        )?;
        imgproc::circle(
            &mut shown,
            Point::new(c.corners[0][0] as i32, c.corners[0][1] as i32),
            4,
            colour,
            -1,
            imgproc::LINE_8,
            0,
        )?;
    }
    println!(
        "{} cards ({} partly hidden); {:?}",
        cards.len(),
        cards.iter().filter(|c| c.partly_hidden).count(),
        detector.timings
    );
    // The core channel, scaled to the image's size.
    let mut letter = Mat::default();
    let (input_w, input_h) = detector.input_size();
    let s = (input_w as f64 / img.cols() as f64).min(input_h as f64 / img.rows() as f64);
    imgproc::resize(
        &img,
        &mut letter,
        Size::new(0, 0),
        s,
        s,
        imgproc::INTER_AREA,
    )?;
    let mut canvas = Mat::new_rows_cols_with_default(
        input_h as i32,
        input_w as i32,
        opencv::core::CV_8UC3,
        Scalar::all(0.0),
    )?;
    let mut roi = Mat::roi_mut(
        &mut canvas,
        opencv::core::Rect::new(0, 0, letter.cols(), letter.rows()),
    )?;
    letter.copy_to(&mut roi)?;
    let raw = detector.raw_output(&canvas)?;
    let (ow, oh) = (input_w / OUTPUT_SCALE, input_h / OUTPUT_SCALE);
    let mut core =
        Mat::new_rows_cols_with_default(oh as i32, ow as i32, CV_8UC1, Scalar::all(0.0))?;
    for (i, v) in core.data_bytes_mut()?.iter_mut().enumerate() {
        *v = (raw[i * 2] * 255.0) as u8;
    }
    let mut big = Mat::default();
    imgproc::resize(
        &core,
        &mut big,
        Size::new(
            (ow as f64 * OUTPUT_SCALE as f64 / s) as i32,
            (oh as f64 * OUTPUT_SCALE as f64 / s) as i32,
        ),
        0.0,
        0.0,
        imgproc::INTER_NEAREST,
    )?;
    let mut big3 = Mat::default();
    imgproc::cvt_color(&big, &mut big3, imgproc::COLOR_GRAY2BGR, 0)?;
    let crop = Mat::roi(
        &big3,
        opencv::core::Rect::new(
            0,
            0,
            img.cols().min(big3.cols()),
            img.rows().min(big3.rows()),
        ),
    )?
    .try_clone()?;
    let mut both = Mat::default();
    let mut crop_sized = Mat::default();
    imgproc::resize(
        &crop,
        &mut crop_sized,
        Size::new(img.cols(), img.rows()),
        0.0,
        0.0,
        imgproc::INTER_NEAREST,
    )?;
    opencv::core::hconcat2(&shown, &crop_sized, &mut both)?;
    vision::sheets::write_png(std::path::Path::new(out), &both)?;
    Ok(())
}
