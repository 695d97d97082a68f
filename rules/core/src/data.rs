//! Errors for data files (catalogues, profiles, decks, scenarios) that name the file, line and field.

use serde::de::DeserializeOwned;
use std::fmt;

/// A problem in a data file. `origin` is whatever names the file for a person (usually its path).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct DataError {
    pub origin: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The field or entry at fault, e.g. `card[12].attack` or `us-u03.range`.
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl DataError {
    pub fn new(origin: &str, message: impl Into<String>) -> Self {
        DataError {
            origin: origin.to_string(),
            line: None,
            field: None,
            message: message.into(),
        }
    }

    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

/// 1-based line of a byte offset in `text`. For many offsets in one text use [`Lines`].
pub fn line_of(text: &str, offset: usize) -> usize {
    Lines::new(text).of(offset)
}

/// The newlines of one text, so that the line of each of many offsets (a key of every card in a
/// large catalogue) is a binary search rather than a count from the start.
pub struct Lines {
    newlines: Vec<usize>,
    len: usize,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        Lines {
            newlines: text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
            len: text.len(),
        }
    }

    /// 1-based line of a byte offset (offsets past the end are on the last line).
    pub fn of(&self, offset: usize) -> usize {
        let end = offset.min(self.len);
        self.newlines.partition_point(|&n| n < end) + 1
    }
}

/// Parses TOML into `T`, turning serde's error into a [`DataError`] with the line and, when serde
/// names one, the field.
pub fn parse_toml<T: DeserializeOwned>(origin: &str, text: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| {
        let mut err = DataError::new(origin, e.message().to_string());
        if let Some(span) = e.span() {
            err = err.at_line(line_of(text, span.start));
        }
        let field = field_named_in(e.message())
            .or_else(|| e.span().and_then(|span| key_before(text, span.start)));
        if let Some(field) = field {
            err = err.with_field(field);
        }
        err
    })
}

/// serde names the field of a missing, unknown or duplicate field in backticks ("missing field
/// `attack`"); other messages quote the bad value that way, which is no field.
fn field_named_in(message: &str) -> Option<String> {
    let rest = ["missing field `", "unknown field `", "duplicate field `"]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))?;
    let len = rest.find('`')?;
    Some(rest[..len].to_string())
}

/// The key of a `key = value` line whose value starts at `offset` (a bad value's span).
fn key_before(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let key = line[..line.rfind('=')?].trim().trim_matches('"');
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Card {
        name: String,
        attack: u8,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct File {
        card: Vec<Card>,
    }

    #[test]
    fn missing_field_names_line_and_field() {
        let text = "[[card]]\nname = \"a\"\nattack = 1\n\n[[card]]\nname = \"b\"\n";
        let err = parse_toml::<File>("deck.toml", text).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("attack"));
        assert!(err.line.is_some_and(|l| l >= 5), "{err}");
        assert!(err.to_string().starts_with("deck.toml:"), "{err}");
    }

    #[test]
    fn wrong_type_names_line() {
        let text = "[[card]]\nname = \"a\"\nattack = \"high\"\n";
        let err = parse_toml::<File>("deck.toml", text).unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
    }

    #[test]
    fn a_bad_value_is_named_by_its_key_not_taken_for_the_field() {
        let text = "[[card]]\nname = \"a\"\nattack = 100000\n";
        let err = parse_toml::<File>("deck.toml", text).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("attack"), "{err}");
        assert!(err.to_string().contains("100000"), "{err}");
    }

    #[test]
    fn line_of_counts_newlines() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 99), 3);
        let lines = Lines::new("a\nb\n\nc\n");
        let by_count = |o: usize| {
            "a\nb\n\nc\n".as_bytes()[..o.min(7)]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        };
        for offset in 0..10 {
            assert_eq!(lines.of(offset), by_count(offset), "offset {offset}");
        }
    }
}
