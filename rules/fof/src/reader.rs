//! Reads one TOML table (a `[[card]]`, `[mission]`, `[[hq]]` …) key by key, keeping each key's line, so
//! a bad value is reported as `file:line: field \`card[7].r\`: …` rather than at the table header.

use rules_core::data::{DataError, Lines};
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use toml::{Spanned, Value};

/// A table as read from the file: every key with its span.
pub type RawTable = BTreeMap<String, Spanned<Value>>;

/// One table being decoded. Keys read are remembered so `finish` can refuse unknown (misspelt) keys.
pub struct TableReader<'a> {
    origin: &'a str,
    lines: &'a Lines,
    /// How the table is named in errors, e.g. `card[3]`.
    path: String,
    line: usize,
    table: &'a RawTable,
    used: RefCell<BTreeSet<String>>,
}

impl<'a> TableReader<'a> {
    pub fn new(
        origin: &'a str,
        lines: &'a Lines,
        path: impl Into<String>,
        table: &'a Spanned<RawTable>,
    ) -> Self {
        TableReader {
            origin,
            lines,
            path: path.into(),
            line: lines.of(table.span().start),
            table: table.get_ref(),
            used: RefCell::new(BTreeSet::new()),
        }
    }

    /// Line of the table itself (its first key, or its header).
    pub fn line(&self) -> usize {
        self.line
    }

    /// Line of `key` if present, else of the table.
    pub fn line_of_key(&self, key: &str) -> usize {
        self.table
            .get(key)
            .map(|v| self.lines.of(v.span().start))
            .unwrap_or(self.line)
    }

    pub fn field_name(&self, key: &str) -> String {
        format!("{}.{}", self.path, key)
    }

    /// An error about `key`, at its line.
    pub fn error(&self, key: &str, message: impl Into<String>) -> DataError {
        DataError::new(self.origin, message)
            .at_line(self.line_of_key(key))
            .with_field(self.field_name(key))
    }

    pub fn opt<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, DataError> {
        self.used.borrow_mut().insert(key.to_string());
        match self.table.get(key) {
            None => Ok(None),
            Some(v) => v
                .get_ref()
                .clone()
                .try_into()
                .map(Some)
                .map_err(|e: toml::de::Error| self.error(key, e.message().to_string())),
        }
    }

    pub fn req<T: DeserializeOwned>(&self, key: &str) -> Result<T, DataError> {
        self.opt(key)?.ok_or_else(|| {
            DataError::new(self.origin, format!("missing field `{key}`"))
                .at_line(self.line)
                .with_field(self.field_name(key))
        })
    }

    pub fn or<T: DeserializeOwned>(&self, key: &str, default: T) -> Result<T, DataError> {
        Ok(self.opt(key)?.unwrap_or(default))
    }

    /// Refuses keys that were never asked for: a typo must not silently fall back to a default.
    pub fn finish(&self) -> Result<(), DataError> {
        let used = self.used.borrow();
        match self.table.keys().find(|k| !used.contains(*k)) {
            None => Ok(()),
            Some(k) => Err(self.error(k, format!("unknown field `{k}`"))),
        }
    }
}
