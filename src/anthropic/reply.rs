//! Reading a Messages response body into the stored message of the assistant's turn.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, StoredMessage, TokenUsage};
use crate::reply::{self, At, ReplyError};

/// Reads a Messages response body (`Message`, or what a streamed reply accumulates to) into
/// the stored message of the assistant's turn.
///
/// Each block of `content` becomes one block, in order: `text` as `text`; `thinking` as
/// `reasoning`; `tool_use` as `tool_use`, with its id, name and `input` stored as the exact
/// JSON text the reply carried. `usage` becomes [`TokenUsage`] field for field
/// (`input_tokens`, `output_tokens`, `cache_creation_input_tokens`,
/// `cache_read_input_tokens`).
///
/// What does not cross prose replay, and is left out: a thinking block's `signature`,
/// `redacted_thinking` (encrypted, with no words to replay), and a text block's `citations`
/// (metadata about its words). Any other block type (server tool use, search results, ...)
/// has no block in the record: it is an error, never dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{anthropic, Block};
///
/// let reply = r#"{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
///   "content": [
///     {"type": "thinking", "thinking": "Need the file.", "signature": "EqQB..."},
///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}
///   ],
///   "stop_reason": "tool_use",
///   "usage": {"input_tokens": 20, "output_tokens": 9, "cache_read_input_tokens": 12}}"#;
/// let message = anthropic::read_reply(reply)?;
/// assert_eq!(message.blocks[0], Block::reasoning("Need the file."));
/// let Block::ToolUse { input, .. } = &message.blocks[1] else { unreachable!() };
/// assert_eq!(input.as_str(), r#"{"path": "a.rs"}"#);
/// assert_eq!(message.usage.map(|usage| usage.cache_read_input_tokens), Some(12));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        content: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct ContentBlock<'a> {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        thinking: Option<String>,
        #[serde(default)]
        id: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(borrow, default)]
        input: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        input_tokens: u64,
        #[serde(default)]
        output_tokens: u64,
        #[serde(default)]
        cache_creation_input_tokens: Option<u64>,
        #[serde(default)]
        cache_read_input_tokens: Option<u64>,
    }

    let at = At::body(Provider::Anthropic, body)?;
    let response: Response<'_> = at.read()?;
    let content_at = at.child(response.content, "content");
    let content: Vec<&RawValue> = content_at.read()?;
    let mut blocks = Vec::with_capacity(content.len());
    for (index, &raw) in content.iter().enumerate() {
        let block_at = content_at.child(raw, format_args!("[{index}]"));
        let block: ContentBlock<'_> = block_at.read()?;
        let missing = |field: &str| {
            block_at.error(format_args!(
                "missing field `{field}` in a {} block",
                block.kind
            ))
        };
        match block.kind.as_str() {
            "text" => blocks.push(Block::text(block.text.ok_or_else(|| missing("text"))?)),
            "thinking" => blocks.push(Block::reasoning(
                block.thinking.ok_or_else(|| missing("thinking"))?,
            )),
            // Encrypted reasoning has no words to replay.
            "redacted_thinking" => {}
            "tool_use" => {
                let id = block.id.clone().ok_or_else(|| missing("id"))?;
                let name = block.name.clone().ok_or_else(|| missing("name"))?;
                let input = block.input.ok_or_else(|| missing("input"))?;
                let input = reply::object_input(&block_at.child(input, "input"))?;
                blocks.push(Block::tool_use(id, name, input));
            }
            kind => {
                return Err(block_at.error(format_args!(
                    "content of type {kind:?} has no block in the record"
                )))
            }
        }
    }
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => {
            let usage: Usage = usage_at.read()?;
            Some(TokenUsage {
                input_tokens: usage.input_tokens,
                output_tokens: usage.output_tokens,
                cache_creation_input_tokens: usage.cache_creation_input_tokens.unwrap_or(0),
                cache_read_input_tokens: usage.cache_read_input_tokens.unwrap_or(0),
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}
