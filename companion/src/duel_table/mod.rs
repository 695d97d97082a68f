//! 陣面對決 live play: camera 陣地 rows → engine, paying with territories, the stack and priority panel.

pub mod adapter;
pub mod correct;
pub mod data;
pub mod feed;
mod lands;
pub mod panel;
pub mod run;
pub mod script;
pub mod session;
mod units;

#[cfg(test)]
mod tests;
