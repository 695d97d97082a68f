//! 风声 live play: seat regions, the camera tally of face-up intelligence, announcements, and chain
//! entry in the panel.

pub mod data;
pub mod feed;
pub mod panel;
pub mod record;
pub mod report;
pub mod session;

#[cfg(test)]
mod tests;
