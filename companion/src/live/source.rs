//! The frame sources every game's `--source` names alike: `camera:N`, `video:PATH`, `images:PATH`.

use anyhow::Context;
use std::path::{Path, PathBuf};
use vision::source::{FrameSource, ImageFiles, VideoFile, Webcam};

/// Opens `kind:arg` (from the option `spec`) when `kind` is camera (webcam N at 1280×720), video or
/// images (a folder or one image); `None` for any other kind, which the caller may know (synthetic)
/// or refuse in its own words.
pub fn open_frame_source(
    spec: &str,
    kind: &str,
    arg: &str,
) -> anyhow::Result<Option<Box<dyn FrameSource>>> {
    Ok(Some(match kind {
        "camera" => {
            let n: u32 = arg
                .parse()
                .with_context(|| format!("--source {spec:?}: camera number"))?;
            Box::new(Webcam::open(n, 1280, 720)?)
        }
        "video" => Box::new(VideoFile::open(Path::new(arg))?),
        "images" => Box::new(ImageFiles::new(&[PathBuf::from(arg)])?),
        _ => return Ok(None),
    }))
}

/// `source` (opened from `spec`) resumed after frame `last` of a journal: a recorded source (video,
/// images, a scripted demo) goes on after the frames the journal holds; a camera shows the table
/// as it is now.
pub fn after_journal(
    source: Box<dyn FrameSource>,
    spec: &str,
    last: Option<u64>,
) -> Box<dyn FrameSource> {
    match last {
        Some(last) if !spec.starts_with("camera") => {
            Box::new(vision::source::SkipThrough::new(source, last))
        }
        _ => source,
    }
}

/// Opens `images:DIR`, `video:PATH` or `camera:N`, naming a spec it cannot open (a synthetic
/// game is built by its caller).
pub fn open(spec: &str) -> anyhow::Result<Box<dyn FrameSource>> {
    let (kind, arg) = spec.split_once(':').with_context(|| {
        format!("--source {spec:?}: expected images:DIR, video:PATH, camera:N or synthetic")
    })?;
    // Named here: the image source would only fail at its first frame.
    if kind == "images" && !Path::new(arg).exists() {
        anyhow::bail!("--source {spec:?}: {arg} does not exist");
    }
    open_frame_source(spec, kind, arg)?.with_context(|| {
        format!("--source {spec:?}: unknown kind {kind:?} (images, video, camera, synthetic)")
    })
}
