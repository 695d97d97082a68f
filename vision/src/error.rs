//! One error type for the crate; every variant that concerns a file names it.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    #[error("OpenCV: {0}")]
    OpenCv(#[from] opencv::Error),
    #[error("{path}: cannot read image (missing, empty or corrupt file)")]
    BadImage { path: PathBuf },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Data { path: PathBuf, reason: String },
    #[error("camera: {0}")]
    Camera(String),
    #[error("font: {0}")]
    Font(String),
    #[error("{0}")]
    Other(String),
}

impl VisionError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        VisionError::Io {
            path: path.into(),
            source,
        }
    }
}
