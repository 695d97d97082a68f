//! One integration-test binary: each module is one area; regression tests are named after the issue.

mod cli;
mod duel;
mod fof;
mod live;
mod message;
mod vision;
