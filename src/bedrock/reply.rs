//! Reading a Converse response body into the stored message of the assistant's turn.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::Block;
use crate::reply::{self, At, Counts, Reply, ReplyError};
use crate::stop::StopReason;

/// The words of `stopReason`, normalized.
pub(super) const STOP_REASONS: [(&str, StopReason); 7] = [
    ("end_turn", StopReason::EndTurn),
    ("tool_use", StopReason::ToolUse),
    ("max_tokens", StopReason::MaxTokens),
    ("stop_sequence", StopReason::StopSequence),
    ("guardrail_intervened", StopReason::ContentFilter),
    ("content_filtered", StopReason::ContentFilter),
    (
        "model_context_window_exceeded",
        StopReason::ContextWindowExceeded,
    ),
];

/// Reads a Converse response body (`ConverseResponse`) into the [`Reply`]: the stored message
/// of the assistant's turn and why it stopped.
///
/// Each block of `output.message.content` becomes one block, in order: `text` as `text`;
/// `reasoningContent.reasoningText` as `reasoning`; `toolUse` as `tool_use`, with its
/// `toolUseId`, name and `input` stored as the JSON text the reply carried, compacted; `image` as
/// `image` (`image/{format}`, its base64 bytes). `usage` becomes
/// [`TokenUsage`](crate::TokenUsage): `inputTokens`, `outputTokens`, `cacheWriteInputTokens`
/// and `cacheReadInputTokens`; a count sent as `null` is no count. `stopReason` becomes the
/// [`StopReason`] of the same name, with `guardrail_intervened` and `content_filtered` →
/// `content_filter` and `model_context_window_exceeded` → `context_window_exceeded`; any
/// other word (`malformed_model_output`, `malformed_tool_use`) kept.
///
/// What does not cross prose replay, and is left out: a reasoning block's `signature` and
/// `redactedContent` (encrypted, with no words to replay). Any other block (citations,
/// documents, video, guardrail content, ...) is not refused: it becomes the text
/// `[Not kept: Bedrock {type} content]` where it stood, is listed by
/// [`Reply::not_kept`], and goes back natively in the round in flight.
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
/// let reply = bedrock::read_reply(reply)?;
/// assert_eq!(reply.message.blocks[0], Block::text("Reading it."));
/// assert_eq!(reply.stop, transcript_replay::StopReason::ToolUse);
/// let Block::ToolUse { input, .. } = &reply.message.blocks[1] else { unreachable!() };
/// assert_eq!(input.as_str(), r#"{"path":"a.rs"}"#);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<Reply, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Response<'a> {
        #[serde(borrow)]
        output: &'a RawValue,
        #[serde(default)]
        stop_reason: Option<String>,
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

    let at = At::body(Provider::Bedrock, body)?;
    let response: Response<'_> = at.read()?;
    let output_at = at.child(response.output, "output");
    let output: Output<'_> = output_at.read()?;
    let message_at = output_at.child(output.message, "message");
    let message: Message<'_> = message_at.read()?;
    let mut blocks = Vec::with_capacity(message.content.len());
    let mut not_kept = Vec::new();
    for (index, &raw) in message.content.iter().enumerate() {
        blocks.extend(read_block(
            &message_at.child(raw, format_args!("content[{index}]")),
            &mut not_kept,
        )?);
    }
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => read_usage(&usage_at)?.usage(),
        None => None,
    };
    let stop = StopReason::from_word(response.stop_reason.as_deref(), &STOP_REASONS);
    let native = message.content.iter().map(|&raw| raw.to_owned()).collect();
    Ok(Reply::new(Provider::Bedrock, blocks, usage, stop, native).not_keeping(not_kept))
}

/// One content block: the blocks it becomes (none for reasoning with no words to replay,
/// redacted); a block of a kind the crate does not read becomes the `[Not kept: ...]`
/// marker, its kind added to `not_kept`; `citationsContent` its text, then the marker of its
/// citations (as a stream of it gives them).
fn read_block(at: &At<'_>, not_kept: &mut Vec<String>) -> Result<Vec<Block>, ReplyError> {
    #[derive(Deserialize)]
    struct Cited {
        #[serde(default)]
        content: Vec<CitedText>,
    }
    #[derive(Deserialize)]
    struct CitedText {
        #[serde(default)]
        text: Option<String>,
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
    let fields: BTreeMap<String, &RawValue> = at.read()?;
    let [(kind, &value)] = fields.iter().collect::<Vec<_>>()[..] else {
        return Err(at.error("a content block needs exactly one member"));
    };
    let value_at = at.child(value, kind.as_str());
    match kind.as_str() {
        "text" => Ok(vec![Block::text(value_at.read::<String>()?)]),
        "citationsContent" => {
            let cited: Cited = value_at.read()?;
            let text: String = cited
                .content
                .into_iter()
                .filter_map(|part| part.text)
                .collect();
            not_kept.push("citations".to_owned());
            Ok(vec![
                Block::text(text),
                Block::text(crate::marker::not_kept(Provider::Bedrock, "citations")),
            ])
        }
        "toolUse" => {
            let call: ToolUse<'_> = value_at.read()?;
            let input = reply::object_input(&value_at.child(call.input, "input"))?;
            Ok(vec![Block::tool_use(call.tool_use_id, call.name, input)])
        }
        // Redacted reasoning is encrypted, with no words to replay.
        "reasoningContent" => Ok(value_at
            .read::<Reasoning>()?
            .reasoning_text
            .map(|text| Block::reasoning(text.text))
            .into_iter()
            .collect()),
        "image" => {
            let image: ImageBlock = value_at.read()?;
            Ok(vec![Block::image(
                format!("image/{}", image.format),
                image.source.bytes,
            )])
        }
        other => {
            not_kept.push(other.to_owned());
            Ok(vec![Block::text(crate::marker::not_kept(
                Provider::Bedrock,
                other,
            ))])
        }
    }
}

/// `usage`, as the record counts it; a count sent as `null` is no count.
pub(super) fn read_usage(at: &At<'_>) -> Result<Counts, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Usage {
        #[serde(default)]
        input_tokens: Option<u64>,
        #[serde(default)]
        output_tokens: Option<u64>,
        #[serde(default)]
        cache_read_input_tokens: Option<u64>,
        #[serde(default)]
        cache_write_input_tokens: Option<u64>,
    }
    let usage: Usage = at.read()?;
    Ok(Counts {
        input: usage.input_tokens,
        output: usage.output_tokens,
        cache_creation: usage.cache_write_input_tokens,
        cache_read: usage.cache_read_input_tokens,
    })
}
