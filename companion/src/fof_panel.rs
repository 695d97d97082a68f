//! The Fields of Fire egui panel: filled in by the Fields of Fire issue.
