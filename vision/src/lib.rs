//! Placeholder until the vision issue fills it: frame sources, calibration, detection, identification.
