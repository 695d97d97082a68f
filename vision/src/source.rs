//! Where frames come from: a webcam, a video file, a folder or list of images, or the synthetic
//! renderer. Every source yields frames until it runs out (`Ok(None)`).

use crate::pipeline::read_image;
use crate::scene::{SceneOptions, SceneRenderer, SceneTruth};
use crate::VisionError;
use opencv::core::{Mat, CV_8UC3};
use opencv::prelude::*;
use opencv::videoio;
use std::path::{Path, PathBuf};

pub struct Frame {
    pub index: u64,
    /// BGR, 8 bits a channel.
    pub image: Mat,
    /// File name, "camera 0" or "synthetic seed 7".
    pub origin: String,
    /// Ground truth when the frame is synthetic.
    pub truth: Option<SceneTruth>,
}

pub trait FrameSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError>;
    /// The rate the frames were recorded at, when the source knows it (a video file).
    fn frames_per_second(&self) -> Option<f64> {
        None
    }
}

/// A source without its frames up to and including index `last`: a recorded source (video,
/// images) resumed after the frames a game's journal already holds.
pub struct SkipThrough {
    inner: Box<dyn FrameSource>,
    last: u64,
}

impl SkipThrough {
    pub fn new(inner: Box<dyn FrameSource>, last: u64) -> SkipThrough {
        SkipThrough { inner, last }
    }
}

impl FrameSource for SkipThrough {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        loop {
            match self.inner.next_frame()? {
                Some(f) if f.index <= self.last => continue,
                other => return Ok(other),
            }
        }
    }

    fn frames_per_second(&self) -> Option<f64> {
        self.inner.frames_per_second()
    }
}

/// Image files, in the order given; a folder contributes its .png/.jpg/.jpeg files sorted by name.
pub struct ImageFiles {
    paths: Vec<PathBuf>,
    next: usize,
}

impl ImageFiles {
    pub fn new(inputs: &[PathBuf]) -> Result<ImageFiles, VisionError> {
        let mut paths = Vec::new();
        for input in inputs {
            if input.is_dir() {
                let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                    .map_err(|e| VisionError::io(input, e))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.extension().and_then(|x| x.to_str()).is_some_and(|x| {
                            matches!(x.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg")
                        })
                    })
                    .collect();
                found.sort();
                paths.extend(found);
            } else {
                paths.push(input.clone());
            }
        }
        Ok(ImageFiles { paths, next: 0 })
    }
}

impl FrameSource for ImageFiles {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        let Some(path) = self.paths.get(self.next) else {
            return Ok(None);
        };
        let image = read_image(path)?;
        self.next += 1;
        Ok(Some(Frame {
            index: self.next as u64 - 1,
            image,
            origin: path.display().to_string(),
            truth: None,
        }))
    }
}

/// A video file read through OpenCV.
pub struct VideoFile {
    capture: videoio::VideoCapture,
    path: PathBuf,
    index: u64,
}

impl VideoFile {
    pub fn open(path: &Path) -> Result<VideoFile, VisionError> {
        if !path.is_file() {
            return Err(VisionError::BadImage {
                path: path.to_path_buf(),
            });
        }
        let capture = videoio::VideoCapture::from_file(path, videoio::CAP_ANY)?;
        if !capture.is_opened()? {
            return Err(VisionError::Data {
                path: path.to_path_buf(),
                reason: "cannot open as a video".into(),
            });
        }
        Ok(VideoFile {
            capture,
            path: path.to_path_buf(),
            index: 0,
        })
    }
}

impl FrameSource for VideoFile {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        let mut image = Mat::default();
        if !self.capture.read(&mut image)? || image.empty() {
            return Ok(None);
        }
        self.index += 1;
        Ok(Some(Frame {
            index: self.index - 1,
            image,
            origin: format!("{} frame {}", self.path.display(), self.index - 1),
            truth: None,
        }))
    }

    fn frames_per_second(&self) -> Option<f64> {
        let fps = self.capture.get(videoio::CAP_PROP_FPS).ok()?;
        (fps.is_finite() && fps > 0.0).then_some(fps)
    }
}

/// Synthetic scenes with seeds `seed, seed+1, …` (`count` of them).
pub struct Synthetic {
    renderer: SceneRenderer,
    options: SceneOptions,
    seed: u64,
    remaining: usize,
    index: u64,
}

impl Synthetic {
    pub fn new(
        renderer: SceneRenderer,
        options: SceneOptions,
        seed: u64,
        count: usize,
    ) -> Synthetic {
        Synthetic {
            renderer,
            options,
            seed,
            remaining: count,
            index: 0,
        }
    }
}

impl FrameSource for Synthetic {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        if self.remaining == 0 {
            return Ok(None);
        }
        let scene = self.renderer.render(self.seed, &self.options)?;
        let frame = Frame {
            index: self.index,
            image: scene.image,
            origin: format!("synthetic seed {}", self.seed),
            truth: Some(scene.truth),
        };
        self.seed += 1;
        self.index += 1;
        self.remaining -= 1;
        Ok(Some(frame))
    }
}

/// A webcam through nokhwa (V4L2 on Linux).
pub struct Webcam {
    camera: nokhwa::Camera,
    index: u64,
    device: u32,
}

/// Names of the cameras present (empty when there are none).
pub fn list_cameras() -> Result<Vec<String>, VisionError> {
    let cams = nokhwa::query(nokhwa::utils::ApiBackend::Auto)
        .map_err(|e| VisionError::Camera(e.to_string()))?;
    Ok(cams
        .iter()
        .map(|c| format!("{}: {}", c.index(), c.human_name()))
        .collect())
}

impl Webcam {
    pub fn open(device: u32, width: u32, height: u32) -> Result<Webcam, VisionError> {
        use nokhwa::pixel_format::RgbFormat;
        use nokhwa::utils::{
            CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType,
            Resolution,
        };
        let present = list_cameras().unwrap_or_default();
        if present.is_empty() {
            return Err(VisionError::Camera(format!(
                "no camera found (asked for device {device})"
            )));
        }
        let format = RequestedFormat::new::<RgbFormat>(RequestedFormatType::Closest(
            CameraFormat::new(Resolution::new(width, height), FrameFormat::MJPEG, 30),
        ));
        let mut camera = nokhwa::Camera::new(CameraIndex::Index(device), format).map_err(|e| {
            VisionError::Camera(format!(
                "device {device}: {e} (cameras: {})",
                present.join(", ")
            ))
        })?;
        camera
            .open_stream()
            .map_err(|e| VisionError::Camera(format!("device {device}: {e}")))?;
        Ok(Webcam {
            camera,
            index: 0,
            device,
        })
    }
}

impl FrameSource for Webcam {
    fn next_frame(&mut self) -> Result<Option<Frame>, VisionError> {
        use nokhwa::pixel_format::RgbFormat;
        let buffer = self
            .camera
            .frame()
            .map_err(|e| VisionError::Camera(e.to_string()))?;
        let rgb = buffer
            .decode_image::<RgbFormat>()
            .map_err(|e| VisionError::Camera(e.to_string()))?;
        let (w, h) = (rgb.width() as i32, rgb.height() as i32);
        let mut image =
            Mat::new_rows_cols_with_default(h, w, CV_8UC3, opencv::core::Scalar::all(0.0))?;
        {
            let data = image.data_bytes_mut()?;
            for (dst, src) in data.chunks_exact_mut(3).zip(rgb.as_raw().chunks_exact(3)) {
                dst.copy_from_slice(&[src[2], src[1], src[0]]);
            }
        }
        self.index += 1;
        Ok(Some(Frame {
            index: self.index - 1,
            image,
            origin: format!("camera {}", self.device),
            truth: None,
        }))
    }
}
