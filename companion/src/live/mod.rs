//! Live play: the tracker (camera sightings → table events), the game journal, and each game's session.

pub mod allied;
pub mod blitz;
pub mod confirm;
pub mod demo;
pub mod runner;
pub mod tracker;
pub mod vision_feed;

#[cfg(test)]
mod blitz_tests;
