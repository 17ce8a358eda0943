//! The content blocks a streamed Converse reply builds, as the whole response carries them:
//! each block's state as its events came (`Kind`), and the blocks written from it
//! (`native`), which the whole reply's reader reads and the round in flight sends back.

use serde_json::value::RawValue;
use serde_json::Value;

use crate::record::Block;
use crate::stream::{native_input, Blocks};

/// What a content block is, by its index, for the round in flight.
#[derive(Debug)]
pub(super) enum Kind {
    Text,
    /// A `citationsContent` block: its text, and the citations its `citation` deltas gave;
    /// `placed` once their sources follow it among the blocks (for the partial message, and so
    /// that the blocks after it are numbered as the reply's).
    Cited {
        citations: Vec<Value>,
        placed: bool,
    },
    Reasoning {
        signature: String,
        redacted: String,
    },
    ToolUse,
    /// A call the provider runs itself (a Nova built-in tool), as its start carried it
    /// (`toolUseId`, `name`, `type`); it goes back with its input the deltas made.
    ServerToolUse(Box<RawValue>),
    /// A provider-executed tool's result: its start (`toolUseId`, `type`, `status`), and its
    /// content items as the deltas carried them.
    ToolResult {
        start: Box<RawValue>,
        items: Vec<Box<RawValue>>,
    },
    /// A generated image (`ImageBlockStart`, its `format`), its base64 bytes added by the
    /// `ImageBlockDelta`s that follow, as the whole reply's `image` block carries them.
    Image {
        format: String,
    },
}

/// The content blocks as Bedrock takes them back in the round in flight: text (cited text
/// as `citationsContent` with its citations), tool uses with their input (a server tool's
/// with its `type`), a server tool's `toolResult` with the content it streamed, reasoning
/// with its signature (or redacted, as it came).
pub(super) fn native(kinds: &[(usize, Kind)], blocks: &mut Blocks) -> Vec<Box<RawValue>> {
    let mut native = Vec::with_capacity(kinds.len());
    for (index, kind) in kinds {
        // Each block's keys in Bedrock's order; strings written as JSON.
        let string = |text: &str| Value::from(text).to_string();
        let json = match (kind, blocks.block_of(*index)) {
            (Kind::Text, Some(Block::Text { text })) => {
                format!(r#"{{"text":{}}}"#, string(&text))
            }
            (
                Kind::Reasoning {
                    signature,
                    redacted,
                },
                block,
            ) => {
                if redacted.is_empty() {
                    let text = block.and_then(Block::into_reasoning).unwrap_or_default();
                    let signature = match signature.is_empty() {
                        true => String::new(),
                        false => format!(r#","signature":{}"#, string(signature)),
                    };
                    format!(
                        r#"{{"reasoningContent":{{"reasoningText":{{"text":{}{signature}}}}}}}"#,
                        string(&text)
                    )
                } else {
                    format!(
                        r#"{{"reasoningContent":{{"redactedContent":{}}}}}"#,
                        string(redacted)
                    )
                }
            }
            (
                Kind::ToolUse,
                Some(Block::ToolUse {
                    id, name, input, ..
                }),
            ) => format!(
                r#"{{"toolUse":{{"toolUseId":{},"name":{},"input":{}}}}}"#,
                string(&id),
                string(&name),
                native_input(&input)
            ),
            (Kind::Cited { citations, .. }, block) => {
                let content = block.and_then(Block::into_text).map_or_else(
                    || "[]".to_owned(),
                    |text| format!(r#"[{{"text":{}}}]"#, string(&text)),
                );
                format!(
                    r#"{{"citationsContent":{{"content":{content},"citations":{}}}}}"#,
                    Value::from(citations.clone())
                )
            }
            (Kind::ServerToolUse(start), Some(Block::ToolUse { input, .. })) => {
                let input = serde_json::from_str(native_input(&input))
                    .unwrap_or_else(|_| Value::Object(serde_json::Map::new()));
                match with_field(start, "input", input) {
                    Some(call) => format!(r#"{{"toolUse":{call}}}"#),
                    None => continue,
                }
            }
            (Kind::ToolResult { start, items }, _) => match tool_result(start, items) {
                Some(result) => result,
                None => continue,
            },
            (Kind::Image { format }, Some(Block::Image { data, .. })) => format!(
                r#"{{"image":{{"format":{},"source":{{"bytes":{}}}}}}}"#,
                string(format),
                string(&data)
            ),
            (Kind::Text | Kind::ToolUse | Kind::ServerToolUse(_) | Kind::Image { .. }, _) => {
                continue
            }
        };
        if let Ok(raw) = RawValue::from_string(json) {
            native.push(raw);
        }
    }
    native
}

/// A server tool's result as the whole reply carries it: its start with the content items so
/// far; `None` when the start is no object.
pub(super) fn tool_result(start: &RawValue, items: &[Box<RawValue>]) -> Option<String> {
    let content = (items.iter())
        .filter_map(|item| serde_json::from_str(item.get()).ok())
        .collect();
    let result = with_field(start, "content", Value::Array(content))?;
    Some(format!(r#"{{"toolResult":{result}}}"#))
}

/// A start event's object with one more field, as JSON text; `None` when it is no object.
fn with_field(start: &RawValue, name: &str, value: Value) -> Option<String> {
    let mut fields: serde_json::Map<String, Value> = serde_json::from_str(start.get()).ok()?;
    fields.insert(name.to_owned(), value);
    Some(Value::Object(fields).to_string())
}
