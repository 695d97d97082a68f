//! Table plumbing every game's session shares: the crash-proof journal and safe file writes.

pub mod files;
pub mod journal;
