//! Each game's part of the vision crate: what its table looks like to the scanner, its printed
//! faces, synthetic scenes and readers.

pub mod blitz;
pub mod duel;
pub mod message;
