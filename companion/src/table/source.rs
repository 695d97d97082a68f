//! Where a table's frames come from: one `--source` grammar for every table command,
//! `camera:N | video:PATH | images:DIR | synthetic[:SEED]`, parsed once into a [`SourceSpec`].

use anyhow::Context;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use vision::source::{FrameSource, ImageFiles, VideoFile, Webcam};

/// The grammar, as every `--source` help text and error gives it.
pub const SOURCE_GRAMMAR: &str = "camera:N, video:PATH, images:DIR or synthetic[:SEED]";

/// A parsed `--source`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceSpec {
    /// Webcam N, read at 1280×720.
    Camera(u32),
    /// A recorded video file.
    Video(PathBuf),
    /// A folder of images (or one image), in name order.
    Images(PathBuf),
    /// The game's own rendered table from a seed (1 when not given); each game draws its own.
    Synthetic(Option<u64>),
}

impl FromStr for SourceSpec {
    type Err = String;

    fn from_str(spec: &str) -> Result<SourceSpec, String> {
        let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
        let needs = |what: &str| {
            if arg.is_empty() {
                Err(format!("{spec:?}: {kind} needs {what} ({kind}:{what})"))
            } else {
                Ok(())
            }
        };
        match kind {
            "camera" => {
                needs("N")?;
                arg.parse()
                    .map(SourceSpec::Camera)
                    .map_err(|_| format!("{spec:?}: the camera number must be 0, 1, 2 …"))
            }
            "video" => needs("PATH").map(|()| SourceSpec::Video(PathBuf::from(arg))),
            "images" => needs("DIR").map(|()| SourceSpec::Images(PathBuf::from(arg))),
            "synthetic" if arg.is_empty() => Ok(SourceSpec::Synthetic(None)),
            "synthetic" => arg
                .parse()
                .map(|seed| SourceSpec::Synthetic(Some(seed)))
                .map_err(|_| format!("{spec:?}: the seed must be a whole number ≥ 0")),
            _ => Err(format!("{spec:?}: expected {SOURCE_GRAMMAR}")),
        }
    }
}

impl fmt::Display for SourceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceSpec::Camera(n) => write!(f, "camera:{n}"),
            SourceSpec::Video(p) => write!(f, "video:{}", p.display()),
            SourceSpec::Images(p) => write!(f, "images:{}", p.display()),
            SourceSpec::Synthetic(None) => write!(f, "synthetic"),
            SourceSpec::Synthetic(Some(seed)) => write!(f, "synthetic:{seed}"),
        }
    }
}

impl SourceSpec {
    /// The seed of a synthetic table (1 when not given); `None` for any other source.
    pub fn synthetic_seed(&self) -> Option<u64> {
        match self {
            SourceSpec::Synthetic(seed) => Some(seed.unwrap_or(1)),
            _ => None,
        }
    }

    /// Recorded frames (a video, images, a rendered table) can be replayed; a camera cannot.
    pub fn is_recorded(&self) -> bool {
        !matches!(self, SourceSpec::Camera(_))
    }

    /// Opens a camera, video or images source; `Ok(None)` for a synthetic one, which only its game
    /// can draw. A missing folder or file is named now, not at the first frame.
    pub fn open_recorded_or_camera(&self) -> anyhow::Result<Option<Box<dyn FrameSource>>> {
        Ok(Some(match self {
            SourceSpec::Camera(n) => {
                Box::new(Webcam::open(*n, 1280, 720).with_context(|| format!("--source {self}"))?)
            }
            SourceSpec::Video(path) => {
                exists(self, path)?;
                Box::new(VideoFile::open(path)?)
            }
            SourceSpec::Images(path) => {
                exists(self, path)?;
                Box::new(ImageFiles::new(std::slice::from_ref(path))?)
            }
            SourceSpec::Synthetic(_) => return Ok(None),
        }))
    }

    /// [`SourceSpec::open_recorded_or_camera`] for a command that draws no synthetic table:
    /// a synthetic source is refused, saying what `instead` does.
    pub fn open(&self, instead: &str) -> anyhow::Result<Box<dyn FrameSource>> {
        self.open_recorded_or_camera()?.with_context(|| {
            format!("--source {self}: this command reads a camera, a video or images; {instead}")
        })
    }
}

fn exists(spec: &SourceSpec, path: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        path.exists(),
        "--source {spec}: {} does not exist",
        path.display()
    );
    Ok(())
}

/// `source` (opened from `spec`) resumed after frame `last` of a journal: a recorded source (video,
/// images, a rendered table) goes on after the frames the journal holds; a camera shows the table
/// as it is now.
pub fn after_journal(
    source: Box<dyn FrameSource>,
    spec: &SourceSpec,
    last: Option<u64>,
) -> Box<dyn FrameSource> {
    match last {
        Some(last) if spec.is_recorded() => {
            Box::new(vision::source::SkipThrough::new(source, last))
        }
        _ => source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_parses_once_and_prints_back() {
        for (text, spec) in [
            ("camera:0", SourceSpec::Camera(0)),
            ("video:game.mp4", SourceSpec::Video("game.mp4".into())),
            ("images:frames/", SourceSpec::Images("frames/".into())),
            ("images:C:/a b", SourceSpec::Images("C:/a b".into())),
            ("synthetic", SourceSpec::Synthetic(None)),
            ("synthetic:42", SourceSpec::Synthetic(Some(42))),
        ] {
            let parsed: SourceSpec = text.parse().expect(text);
            assert_eq!(parsed, spec);
            assert_eq!(parsed.to_string().parse::<SourceSpec>(), Ok(spec));
        }
        assert_eq!(SourceSpec::Synthetic(None).synthetic_seed(), Some(1));
        assert!(!SourceSpec::Camera(1).is_recorded());
    }

    #[test]
    fn a_bad_source_says_what_was_expected() {
        for (text, says) in [
            ("webcam:0", "expected camera:N"),
            ("camera:", "camera needs N"),
            ("camera:one", "camera number"),
            ("images", "images needs DIR"),
            ("video:", "video needs PATH"),
            ("synthetic:-5", "seed must be"),
            ("", "expected camera:N"),
        ] {
            let err = text.parse::<SourceSpec>().unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_missing_folder_is_named_before_any_frame_and_synthetic_is_refused_where_undrawn() {
        let spec: SourceSpec = "images:/no/such/folder".parse().unwrap();
        let err = spec.open("try images:DIR").err().unwrap().to_string();
        assert!(
            err.contains("/no/such/folder") && err.contains("does not exist"),
            "{err}"
        );
        let err = SourceSpec::Synthetic(None)
            .open("arbiter demo draws one")
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("arbiter demo draws one"), "{err}");
    }
}
