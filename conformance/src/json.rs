//! Reading rendered JSON in the tests.

use serde_json::Value;

/// Every string value anywhere in a JSON value.
pub fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(map) => map.values().flat_map(strings).collect(),
        Value::Null | Value::Bool(_) | Value::Number(_) => vec![],
    }
}

/// Whether a text is white space only, as the strictest provider counts it: Unicode white
/// space, and the four ASCII separators U+001C to U+001F.
pub fn is_blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}
