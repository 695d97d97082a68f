//! Placeholder: the duel rules engine is built under its own issue.
