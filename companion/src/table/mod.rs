//! Table plumbing every game's session shares: the crash-proof journal, safe file writes and the
//! frame source.

pub mod files;
pub mod journal;
pub mod source;
