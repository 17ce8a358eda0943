//! The content blocks a streamed Messages reply builds, as the whole response carries them:
//! each block's state as its events came (`Kind`), and the blocks written from it
//! (`native`), which the whole reply's reader reads and the round in flight sends back.

use serde_json::value::RawValue;

use crate::body::with_member;
use crate::record::Block;
use crate::stream::{native_input, Blocks, Fault};

/// What a content block is, by its index, for the round in flight.
#[derive(Debug)]
pub(super) enum Kind {
    /// A text block: its text as the events wrote it (the JSON string's contents, escapes as
    /// sent), and the citations its `citations_delta` events carried, each as it came, in
    /// order.
    Text {
        escaped: String,
        citations: Vec<Box<RawValue>>,
    },
    Thinking {
        signature: String,
    },
    ToolUse,
    /// A server tool's call (`server_tool_use`, `mcp_tool_use`), as its start event carried
    /// it: it goes back with every field it came with (`mcp_tool_use`'s `server_name`), its
    /// input the one its deltas made.
    ServerToolUse(Box<RawValue>),
    /// A `compaction` block: its summary comes in `compaction_delta`s, and it goes back as
    /// the record's block says.
    Compaction,
    /// A block that comes whole in its start event and goes back as it came, its deltas
    /// changing nothing: redacted thinking, a server tool's result, a `fallback` (the model
    /// hop), a `container_upload` (its file's line), a kind the crate does not read (its
    /// marker the stored text).
    Kept(Box<RawValue>),
}

/// The content blocks as Anthropic takes them back in the round in flight: each block's
/// accumulated content, a text block with its citations as they came, thinking with its
/// signature, redacted thinking as it came; no empty text block (Anthropic rejects one).
pub(super) fn native(kinds: &[(usize, Kind)], blocks: &mut Blocks) -> Vec<Box<RawValue>> {
    let mut native = Vec::with_capacity(kinds.len());
    // Each block's keys in Anthropic's order; strings written as JSON.
    let string = |text: &str| serde_json::Value::from(text).to_string();
    for (index, kind) in kinds {
        let block = blocks.block_of(*index);
        let json = match kind {
            // The text as it was sent, its escapes kept, as the whole reply keeps it.
            Kind::Text { escaped, .. } if escaped.is_empty() => continue,
            Kind::Text { escaped, citations } if citations.is_empty() => {
                format!(r#"{{"type":"text","text":"{escaped}"}}"#)
            }
            Kind::Text { escaped, citations } => {
                let citations: Vec<&str> = citations.iter().map(|raw| raw.get()).collect();
                format!(
                    r#"{{"type":"text","text":"{escaped}","citations":[{}]}}"#,
                    citations.join(",")
                )
            }
            Kind::Thinking { signature } => {
                let thinking = block.and_then(Block::into_reasoning).unwrap_or_default();
                format!(
                    r#"{{"type":"thinking","thinking":{},"signature":{}}}"#,
                    string(&thinking),
                    string(signature)
                )
            }
            Kind::Kept(raw) => raw.get().to_owned(),
            Kind::ToolUse => {
                let Some(Block::ToolUse {
                    id, name, input, ..
                }) = block
                else {
                    continue;
                };
                format!(
                    r#"{{"type":"tool_use","id":{},"name":{},"input":{}}}"#,
                    string(&id),
                    string(&name),
                    native_input(&input),
                )
            }
            Kind::Compaction => {
                let Some(Block::Compaction { summary, data, .. }) = block else {
                    continue;
                };
                let data = data.map_or_else(String::new, |data| {
                    format!(r#","encrypted_content":{}"#, string(&data))
                });
                let summary = summary.map_or_else(|| "null".to_owned(), |text| string(&text));
                format!(r#"{{"type":"compaction","content":{summary}{data}}}"#)
            }
            // Its start event's members where and as they came, the input in its place,
            // without white space between its tokens.
            Kind::ServerToolUse(start) => {
                let Some(Block::ToolUse { input, .. }) = block else {
                    continue;
                };
                let input = crate::wire::CompactJson(native_input(&input)).to_string();
                match with_member(start.get(), "input", &input, &[]) {
                    Some(json) => json,
                    None => continue,
                }
            }
        };
        if let Ok(raw) = RawValue::from_string(json) {
            native.push(raw);
        }
    }
    native
}

/// A text event's `text`: the text, and the JSON string's contents as sent (between its
/// quotes, escapes kept), which the pieces of one block join into one JSON string as the
/// whole reply writes it; none is an empty text.
pub(super) fn text_of(raw: Option<&RawValue>) -> Result<(String, &str), Fault> {
    let Some(raw) = raw.filter(|raw| raw.get() != "null") else {
        return Ok((String::new(), ""));
    };
    let text: String = serde_json::from_str(raw.get()).map_err(|error| Fault::json(&error))?;
    // A JSON string's text, as sent, is what its quotes enclose.
    let escaped = raw
        .get()
        .strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
        .unwrap_or_default();
    Ok((text, escaped))
}
