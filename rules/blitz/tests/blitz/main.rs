//! The Blitz engine's tests: one binary, a module per area, tests named after the rule they check.

mod deployment;
mod table;
