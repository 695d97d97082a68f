//! Results printed for people: an options struct (a rules profile) as one `key = value` line per
//! option, the names it has in its TOML file, instead of a Rust Debug dump.

use serde::Serialize;

/// `options` as `key = value` lines, sorted by key (serde_json keeps no field order); nested tables as
/// `outer.inner = value`, strings bare, lists and numbers as JSON writes them.
pub fn option_lines<T: Serialize>(options: &T) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    push_lines("", &serde_json::to_value(options)?, &mut lines);
    Ok(lines)
}

fn push_lines(key: &str, value: &serde_json::Value, lines: &mut Vec<String>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                push_lines(&key, v, lines);
            }
        }
        Value::String(s) => lines.push(format!("{key} = {s}")),
        Value::Null => lines.push(format!("{key} = none")),
        other => lines.push(format!("{key} = {other}")),
    }
}

/// Prints `options` under `title`, one indented `key = value` line per option.
pub fn print_options<T: Serialize>(title: &str, options: &T) -> anyhow::Result<()> {
    println!("{title}:");
    for line in option_lines(options)? {
        println!("  {line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_reads_as_one_line_per_option() {
        let lines = option_lines(&message::Profile::default()).unwrap();
        assert!(
            lines.contains(&"death_before_win = true".to_string()),
            "{lines:?}"
        );
        assert!(
            lines.contains(&"identity_set = standard".to_string()),
            "{lines:?}"
        );
        assert_eq!(lines.len(), 6, "{lines:?}");
    }
}
