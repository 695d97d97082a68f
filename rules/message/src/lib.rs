//! Placeholder: the message rules engine is built under its own issue.
