//! Placeholder: the fof rules engine is built under its own issue.
