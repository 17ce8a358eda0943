//! JSON text as a tool's stored input is replayed: the white space between its tokens removed,
//! so that the bytes a model reads do not depend on how the store was formatted.

use std::fmt;

/// JSON text with the white space between its tokens removed: strings, their escapes and the
/// spelling of numbers stay exactly as written. The same value stored compactly,
/// pretty-printed or nested in a conversation file writes the same bytes.
///
/// ```
/// use transcript_replay::wire::CompactJson;
///
/// let stored = "{\n  \"path\" : \"a b.rs\",\n  \"n\": 1.50e1 }";
/// assert_eq!(CompactJson(stored).to_string(), r#"{"path":"a b.rs","n":1.50e1}"#);
/// assert_eq!(CompactJson(r#"{"q": "\" \\"}"#).to_string(), r#"{"q":"\" \\"}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CompactJson<'a>(pub &'a str);

impl fmt::Display for CompactJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0;
        let bytes = text.as_bytes();
        let (mut in_string, mut escaped) = (false, false);
        let mut start = 0;
        for (at, &byte) in bytes.iter().enumerate() {
            if in_string {
                match (escaped, byte) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    (false, _) => {}
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b' ' | b'\t' | b'\n' | b'\r' => {
                    // White space between tokens: write what came before it, skip it. The
                    // slice ends on an ASCII byte, so it is whole UTF-8.
                    f.write_str(text.get(start..at).unwrap_or_default())?;
                    start = at + 1;
                }
                _ => {}
            }
        }
        f.write_str(text.get(start..).unwrap_or_default())
    }
}
