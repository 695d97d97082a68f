//! Blitz (死亡前线-闪电战): the grid's frame from the cards, and the scanner for the Blitz catalogue.

pub mod frame;
pub mod kit;
pub mod table;
