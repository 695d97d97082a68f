//! The Blitz engine's tests: one binary, a module per area, tests named after the rule they check.

mod combat;
mod deployment;
mod properties;
mod scenarios;
mod table;
mod victory;
