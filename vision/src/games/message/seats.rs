//! Seat regions: one polygon per seat in image pixels, set once in the panel (or written by the scene
//! renderer) and kept in a small JSON file. A card belongs to the seat whose region holds its centre.

use crate::VisionError;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatRegion {
    /// Corners in image pixels, in order (either winding); need not be convex.
    pub polygon: Vec<[f32; 2]>,
    /// Where the seat's seat card lay when the region came from the seat cards (image pixels):
    /// a seat card hidden later stays there while the others have not moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_card: Option<[f32; 2]>,
}

/// Seats 1..N in passing order (to the right), as the rules number them; index 0 is seat 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatRegions {
    /// Frame size the polygons were drawn on (a different camera resolution is refused).
    pub image_size: [u32; 2],
    pub seats: Vec<SeatRegion>,
}

/// Whether `p` lies inside the polygon (even-odd rule, so concave regions work).
pub fn point_in_polygon(p: [f32; 2], poly: &[[f32; 2]]) -> bool {
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let mut inside = false;
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
            if p[0] < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

impl SeatRegions {
    /// The seat (0-based) whose region holds `p`; the first one when regions overlap.
    pub fn seat_of(&self, p: [f32; 2]) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| point_in_polygon(p, &s.polygon))
    }

    /// Seats with a usable region (three corners or more).
    pub fn complete(&self) -> bool {
        (3..=9).contains(&self.seats.len()) && self.seats.iter().all(|s| s.polygon.len() >= 3)
    }

    pub fn load(path: &Path) -> Result<SeatRegions, VisionError> {
        let text = std::fs::read_to_string(path).map_err(|e| VisionError::io(path, e))?;
        let regions: SeatRegions = serde_json::from_str(&text).map_err(|e| VisionError::Data {
            path: path.to_path_buf(),
            reason: format!("line {}: {e}", e.line()),
        })?;
        if !(3..=9).contains(&regions.seats.len()) {
            return Err(VisionError::Data {
                path: path.to_path_buf(),
                reason: format!(
                    "seats: 风声 is played by 3 to 9 players, the file has {} seats",
                    regions.seats.len()
                ),
            });
        }
        if let Some(i) = regions.seats.iter().position(|s| s.polygon.len() < 3) {
            return Err(VisionError::Data {
                path: path.to_path_buf(),
                reason: format!("seats[{i}].polygon: a region needs at least 3 corners"),
            });
        }
        let [w, h] = regions.image_size;
        if w == 0 || h == 0 {
            return Err(VisionError::Data {
                path: path.to_path_buf(),
                reason: format!(
                    "image_size: [{w}, {h}] is no camera picture (the regions are drawn on one)"
                ),
            });
        }
        // A corner may lie past the picture's edge (a region drawn to the border), not far past it.
        let (w, h) = (w as f32, h as f32);
        let off = |p: &[f32; 2]| {
            !(p[0].is_finite() && p[1].is_finite())
                || p[0] < -w
                || p[0] > 2.0 * w
                || p[1] < -h
                || p[1] > 2.0 * h
        };
        for (i, seat) in regions.seats.iter().enumerate() {
            if let Some(k) = seat.polygon.iter().position(off) {
                let p = seat.polygon[k];
                return Err(VisionError::Data {
                    path: path.to_path_buf(),
                    reason: format!(
                        "seats[{i}].polygon[{k}]: [{}, {}] lies far outside the {}×{} picture",
                        p[0], p[1], regions.image_size[0], regions.image_size[1]
                    ),
                });
            }
        }
        Ok(regions)
    }

    pub fn save(&self, path: &Path) -> Result<(), VisionError> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| VisionError::Other(format!("seat regions: {e}")))?;
        crate::files::write_atomic(path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f32, y: f32, s: f32) -> SeatRegion {
        SeatRegion {
            polygon: vec![[x, y], [x + s, y], [x + s, y + s], [x, y + s]],
            seat_card: None,
        }
    }

    #[test]
    fn message_table_seat_assignment_by_the_region_holding_the_centre() {
        let r = SeatRegions {
            image_size: [300, 100],
            seats: vec![
                square(0.0, 0.0, 100.0),
                square(100.0, 0.0, 100.0),
                square(200.0, 0.0, 100.0),
            ],
        };
        assert_eq!(r.seat_of([50.0, 50.0]), Some(0));
        assert_eq!(r.seat_of([150.0, 10.0]), Some(1));
        assert_eq!(r.seat_of([299.0, 99.0]), Some(2));
        assert_eq!(r.seat_of([350.0, 50.0]), None, "outside every region");
        assert_eq!(r.seat_of([50.0, -1.0]), None);
    }

    #[test]
    fn message_table_seat_assignment_works_in_a_concave_region() {
        // An L shape: the notch (inside its bounding box) is not the seat's.
        let l = SeatRegion {
            polygon: vec![
                [0.0, 0.0],
                [100.0, 0.0],
                [100.0, 40.0],
                [40.0, 40.0],
                [40.0, 100.0],
                [0.0, 100.0],
            ],
            seat_card: None,
        };
        let r = SeatRegions {
            image_size: [100, 100],
            seats: vec![l],
        };
        assert_eq!(r.seat_of([20.0, 80.0]), Some(0));
        assert_eq!(r.seat_of([80.0, 20.0]), Some(0));
        assert_eq!(r.seat_of([80.0, 80.0]), None);
    }

    #[test]
    fn message_table_seat_file_errors_name_the_field() {
        let dir = std::env::temp_dir().join(format!("msg-seats-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("seats.json");
        std::fs::write(&path, r#"{"image_size":[10,10],"seats":[{"polygon":[[0,0],[1,0],[1,1]]},{"polygon":[[0,0],[1,0],[1,1]]},{"polygon":[[0,0]]}]}"#).expect("write");
        let err = SeatRegions::load(&path)
            .expect_err("too few corners")
            .to_string();
        assert!(err.contains("seats[2].polygon"), "{err}");
        std::fs::write(&path, "{\"image_size\": [1, 1],\n \"seats\": 3}").expect("write");
        let err = SeatRegions::load(&path).expect_err("bad json").to_string();
        assert!(err.contains("line 2"), "{err}");
        let triangle = r#"{"polygon":[[0,0],[10,0],[10,10]]}"#;
        std::fs::write(
            &path,
            format!(r#"{{"image_size":[0,0],"seats":[{triangle},{triangle},{triangle}]}}"#),
        )
        .expect("write");
        let err = SeatRegions::load(&path).expect_err("no size").to_string();
        assert!(
            err.contains("seats.json") && err.contains("image_size"),
            "{err}"
        );
        let far = r#"{"polygon":[[0,0],[1e39,0],[10,10]]}"#;
        std::fs::write(
            &path,
            format!(r#"{{"image_size":[640,480],"seats":[{triangle},{far},{triangle}]}}"#),
        )
        .expect("write");
        let err = SeatRegions::load(&path)
            .expect_err("far corner")
            .to_string();
        assert!(err.contains("seats[1].polygon[1]"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
