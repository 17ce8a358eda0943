//! Reading a Converse response body into the stored message of the assistant's turn.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, StoredMessage, TokenUsage};
use crate::reply::{self, At, ReplyError};

/// Reads a Converse response body (`ConverseResponse`) into the stored message of the
/// assistant's turn.
///
/// Each block of `output.message.content` becomes one block, in order: `text` as `text`;
/// `reasoningContent.reasoningText` as `reasoning`; `toolUse` as `tool_use`, with its
/// `toolUseId`, name and `input` stored as the exact JSON text the reply carried; `image` as
/// `image` (`image/{format}`, its base64 bytes). `usage` becomes [`TokenUsage`]:
/// `inputTokens`, `outputTokens`, `cacheWriteInputTokens` and `cacheReadInputTokens`.
///
/// What does not cross prose replay, and is left out: a reasoning block's `signature` and
/// `redactedContent` (encrypted, with no words to replay). Any other block (citations,
/// documents, video, guardrail content, ...) has no block in the record: it is an error, never
/// dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{bedrock, Block};
///
/// let reply = r#"{"output": {"message": {"role": "assistant", "content": [
///     {"text": "Reading it."},
///     {"toolUse": {"toolUseId": "tooluse_1", "name": "read", "input": {"path": "a.rs"}}}]}},
///   "stopReason": "tool_use",
///   "usage": {"inputTokens": 20, "outputTokens": 9, "totalTokens": 29},
///   "metrics": {"latencyMs": 300}}"#;
/// let message = bedrock::read_reply(reply)?;
/// assert_eq!(message.blocks[0], Block::text("Reading it."));
/// let Block::ToolUse { input, .. } = &message.blocks[1] else { unreachable!() };
/// assert_eq!(input.as_str(), r#"{"path": "a.rs"}"#);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        output: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Output<'a> {
        #[serde(borrow)]
        message: &'a RawValue,
    }
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow)]
        content: Vec<&'a RawValue>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ToolUse<'a> {
        tool_use_id: String,
        name: String,
        #[serde(borrow)]
        input: &'a RawValue,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Reasoning {
        #[serde(default)]
        reasoning_text: Option<ReasoningText>,
    }
    #[derive(Deserialize)]
    struct ReasoningText {
        text: String,
    }
    #[derive(Deserialize)]
    struct ImageBlock {
        format: String,
        source: ImageSource,
    }
    #[derive(Deserialize)]
    struct ImageSource {
        bytes: String,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Usage {
        #[serde(default)]
        input_tokens: u64,
        #[serde(default)]
        output_tokens: u64,
        #[serde(default)]
        cache_read_input_tokens: u64,
        #[serde(default)]
        cache_write_input_tokens: u64,
    }

    let at = At::body(Provider::Bedrock, body)?;
    let response: Response<'_> = at.read()?;
    let output_at = at.child(response.output, "output");
    let output: Output<'_> = output_at.read()?;
    let message_at = output_at.child(output.message, "message");
    let message: Message<'_> = message_at.read()?;
    let mut blocks = Vec::with_capacity(message.content.len());
    for (index, &raw) in message.content.iter().enumerate() {
        let block_at = message_at.child(raw, format_args!("content[{index}]"));
        let fields: BTreeMap<String, &RawValue> = block_at.read()?;
        let [(kind, &value)] = fields.iter().collect::<Vec<_>>()[..] else {
            return Err(block_at.error("a content block needs exactly one member"));
        };
        let value_at = block_at.child(value, kind.as_str());
        match kind.as_str() {
            "text" => blocks.push(Block::text(value_at.read::<String>()?)),
            "toolUse" => {
                let call: ToolUse<'_> = value_at.read()?;
                let input = reply::object_input(&value_at.child(call.input, "input"))?;
                blocks.push(Block::tool_use(call.tool_use_id, call.name, input));
            }
            "reasoningContent" => {
                // Redacted reasoning is encrypted, with no words to replay.
                if let Some(text) = value_at.read::<Reasoning>()?.reasoning_text {
                    blocks.push(Block::reasoning(text.text));
                }
            }
            "image" => {
                let image: ImageBlock = value_at.read()?;
                blocks.push(Block::image(
                    format!("image/{}", image.format),
                    image.source.bytes,
                ));
            }
            other => {
                return Err(block_at.error(format_args!(
                    "a content block of type {other:?} has no block in the record"
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
                cache_creation_input_tokens: usage.cache_write_input_tokens,
                cache_read_input_tokens: usage.cache_read_input_tokens,
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}
