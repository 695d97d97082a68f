//! A float32 TFLite model run by tract (pure Rust, exact float32; no quantised models), loaded and run
//! under `catch_unwind`: tract can panic on a malformed model, and a bad file must be an error that
//! names it, never a crash. Every learned stage (identifier, detector) loads its model through here.

use crate::VisionError;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tract_tflite::prelude::*;

type Plan = Arc<TypedRunnableModel>;

pub struct TfliteModel {
    plan: Plan,
    path: PathBuf,
}

impl TfliteModel {
    /// Reads and plans a `.tflite` file.
    pub fn load(path: impl AsRef<Path>) -> Result<TfliteModel, VisionError> {
        let path = path.as_ref().to_path_buf();
        let bytes = std::fs::read(&path).map_err(|e| VisionError::io(&path, e))?;
        let plan = catch_unwind(|| -> TractResult<Plan> {
            tract_tflite::tflite()
                .model_for_read(&mut bytes.as_slice())?
                .into_optimized()?
                .into_runnable()
        })
        .map_err(|panic| {
            data_error(
                &path,
                format!("model loader panicked: {}", panic_text(&panic)),
            )
        })?
        .map_err(|e| data_error(&path, format!("not a usable TFLite model: {e:#}")))?;
        Ok(TfliteModel { plan, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The first input's shape, when the model fixes it.
    pub fn input_shape(&self) -> Option<Vec<usize>> {
        let fact = self.plan.model().input_fact(0).ok()?;
        fact.shape.as_concrete().map(|dims| dims.to_vec())
    }

    /// Runs the model on one float32 input of `shape` and returns its first output, flattened.
    pub fn run(&self, shape: &[usize], input: &[f32]) -> Result<Vec<f32>, VisionError> {
        let outputs = catch_unwind(AssertUnwindSafe(|| -> TractResult<Vec<f32>> {
            let tensor = Tensor::from_shape(shape, input)?;
            let out = self.plan.run(tvec!(tensor.into()))?;
            let first = out
                .first()
                .ok_or_else(|| TractError::msg("the model has no output"))?;
            Ok(first
                .to_plain_array_view::<f32>()?
                .iter()
                .copied()
                .collect())
        }))
        .map_err(|panic| {
            data_error(
                &self.path,
                format!("model run panicked: {}", panic_text(&panic)),
            )
        })?
        .map_err(|e| data_error(&self.path, format!("model run failed: {e:#}")))?;
        Ok(outputs)
    }

    /// An error about this model's file.
    pub fn error(&self, reason: String) -> VisionError {
        data_error(&self.path, reason)
    }
}

fn data_error(path: &Path, reason: String) -> VisionError {
    VisionError::Data {
        path: path.to_path_buf(),
        reason,
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}
