//! Reading a Converse response body into the stored message of the assistant's turn.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::Block;
use crate::reply::{self, At, Counts, Metadata, Reply, ReplyError};
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
/// `citationsContent` (document citations, Nova web grounding) becomes its text, then one
/// `source` block per distinct source its `citations` name, right after it: the URL from
/// `location.web.url` (else the citation's `source`), its `title`, its `sourceContent` as the
/// cited words; a citation with neither URL nor title gives none.
///
/// Nova's built-in tools (<https://docs.aws.amazon.com/nova/latest/userguide/tool-built-in.html>):
/// a `toolUse` of `"type": "server_tool_use"` (`nova_code_interpreter`, ...) is a `tool_use`
/// with `provider_executed`, which owes no output and never makes the stop reason `tool_use`;
/// the `toolResult` the reply carries for it is a `tool_result` named after its call, its
/// content as text (`text` items as they are, `json` items as compact JSON, one a line;
/// any other item the `[Not kept: ...]` marker), `status: "error"` an error.
///
/// What does not cross prose replay, and is left out: a reasoning block's `signature` and
/// `redactedContent` (encrypted, with no words to replay). Any other block (documents, video,
/// guardrail content, ...) is not refused: it becomes the text `[Not kept: Bedrock {type}
/// content]` where it stood, is listed by [`Reply::not_kept`]. Every block, cited text and
/// server tool blocks included, goes back natively, as it came, in the round in flight.
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
        #[serde(borrow, default)]
        trace: Option<&'a RawValue>,
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
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => read_usage(&usage_at)?.usage(),
        None => None,
    };
    let said = Said {
        usage,
        stop: response.stop_reason.as_deref(),
        guardrail_trace: response.trace.and_then(guardrail_trace),
    };
    reply_of(&message_at, &message.content, said, None)
}

/// What a reply says beside its content: its usage, the word it stopped with, the guardrail's
/// trace.
pub(super) struct Said<'s> {
    pub(super) usage: Option<crate::TokenUsage>,
    pub(super) stop: Option<&'s str>,
    pub(super) guardrail_trace: Option<String>,
}

/// The reply of a message's `content` (`at` its place): the one place a Bedrock [`Reply`] is
/// made, for a whole body and for a stream, which gives the content blocks its events built
/// and the blocks it streamed, whose tool inputs stand as they came (a cut input the whole
/// body cannot carry).
pub(super) fn reply_of(
    at: &At<'_>,
    content: &[&RawValue],
    said: Said<'_>,
    streamed: Option<&[Block]>,
) -> Result<Reply, ReplyError> {
    let mut blocks = Vec::with_capacity(content.len());
    let mut reading = Reading::default();
    for (index, &raw) in content.iter().enumerate() {
        blocks.extend(read_block(
            &at.child(raw, format_args!("content[{index}]")),
            &mut reading,
        )?);
    }
    if let Some(streamed) = streamed {
        crate::stream::streamed_inputs(&mut blocks, streamed);
    }
    let stop = StopReason::from_word(said.stop, &STOP_REASONS);
    let native = content.iter().map(|&raw| raw.to_owned()).collect();
    let metadata = Metadata {
        guardrail_trace: said.guardrail_trace,
        ..Metadata::default()
    };
    Ok(
        Reply::new(Provider::Bedrock, blocks, said.usage, stop, native)
            .not_keeping(reading.not_kept)
            .with_metadata(metadata),
    )
}

/// The guardrail's trace of a reply, `trace.guardrail` (what it assessed, and why it acted:
/// `actionReason`, the input and output assessments), as compact JSON text; none when the
/// trace has no guardrail (spec `ConverseTrace`, `ConverseStreamTrace`,
/// `GuardrailTraceAssessment`;
/// <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseTrace.html>).
pub(super) fn guardrail_trace(trace: &RawValue) -> Option<String> {
    #[derive(Deserialize)]
    struct Trace<'a> {
        #[serde(borrow, default)]
        guardrail: Option<&'a RawValue>,
    }
    let trace: Trace<'_> = serde_json::from_str(trace.get()).ok()?;
    let guardrail = trace.guardrail.filter(|raw| raw.get() != "null")?;
    Some(crate::wire::CompactJson(guardrail.get()).to_string())
}

/// What reading a reply's blocks keeps from one block to the next: the kinds not kept, and the
/// provider-executed calls so far, by id (a result is named after its call).
#[derive(Debug, Default)]
pub(super) struct Reading {
    not_kept: Vec<String>,
    pub(super) calls: Vec<(String, String)>,
}

/// One content block: the blocks it becomes (none for reasoning with no words to replay,
/// redacted); `citationsContent` its text, then its sources; a `toolUse` of type
/// `server_tool_use` a provider-executed call, and a `toolResult` a `tool_result`; a block of a
/// kind the crate does not read becomes the `[Not kept: ...]` marker, its kind added to
/// `not_kept`.
pub(super) fn read_block(at: &At<'_>, reading: &mut Reading) -> Result<Vec<Block>, ReplyError> {
    #[derive(Deserialize)]
    struct Cited {
        #[serde(default)]
        content: Vec<CitedText>,
        #[serde(default)]
        citations: Vec<serde_json::Value>,
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
        #[serde(rename = "type", default)]
        kind: Option<String>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ToolResult<'a> {
        tool_use_id: String,
        #[serde(borrow, default)]
        content: Vec<&'a RawValue>,
        #[serde(default)]
        status: Option<String>,
        #[serde(rename = "type", default)]
        kind: Option<String>,
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
    let [(kind, &value)] = members(&fields)[..] else {
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
            Ok(std::iter::once(Block::text(text))
                .chain(sources(&cited.citations))
                .collect())
        }
        "toolUse" => {
            let call: ToolUse<'_> = value_at.read()?;
            let input = reply::object_input(&value_at.child(call.input, "input"))?;
            if call.kind.as_deref() == Some(SERVER_TOOL_USE) {
                reading
                    .calls
                    .push((call.tool_use_id.clone(), call.name.clone()));
                return Ok(vec![Block::provider_tool_use(
                    call.tool_use_id,
                    call.name,
                    input,
                )]);
            }
            Ok(vec![Block::tool_use(call.tool_use_id, call.name, input)])
        }
        "toolResult" => {
            let result: ToolResult<'_> = value_at.read()?;
            let mut output = Vec::with_capacity(result.content.len());
            for (index, &item) in result.content.iter().enumerate() {
                let item_at = value_at.child(item, format_args!("content[{index}]"));
                let members: BTreeMap<String, &RawValue> = item_at.read()?;
                output.extend(
                    members
                        .iter()
                        .map(|(kind, value)| result_item(kind, value, &mut reading.not_kept)),
                );
            }
            let tool_name =
                result_name(&reading.calls, &result.tool_use_id, result.kind.as_deref());
            Ok(vec![Block::ToolResult {
                tool_use_id: result.tool_use_id,
                tool_name,
                output: output.join("\n"),
                is_error: result.status.as_deref() == Some("error"),
            }])
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
            reading.not_kept.push(other.to_owned());
            Ok(vec![Block::text(crate::media::marker::not_kept(
                Provider::Bedrock,
                other,
            ))])
        }
    }
}

/// The `type` of a `toolUse` the provider runs itself (Nova's built-in tools,
/// <https://docs.aws.amazon.com/nova/latest/userguide/tool-built-in.html>; `ToolUseType` in
/// the service model).
/// The members of a content block (a union: one member is set), each a key the reader knows.
const MEMBERS: [&str; 6] = [
    "text",
    "citationsContent",
    "toolUse",
    "toolResult",
    "reasoningContent",
    "image",
];

/// A content block's member: the one key it has, or, beside keys the reader does not know (a
/// `"type": "text"` some SDKs write next to `text`), the one member it knows. A block with
/// two known members, or with several keys of which none is known, has none.
fn members<'f, 'a>(
    fields: &'f BTreeMap<String, &'a RawValue>,
) -> Vec<(&'f String, &'f &'a RawValue)> {
    let all: Vec<_> = fields.iter().collect();
    if all.len() == 1 {
        return all;
    }
    all.into_iter()
        .filter(|(key, _)| MEMBERS.contains(&key.as_str()))
        .collect()
}

pub(super) const SERVER_TOOL_USE: &str = "server_tool_use";

/// The sources a `citationsContent` block's citations name, one per distinct source: each
/// citation's `location.web.url` (Nova web grounding,
/// <https://docs.aws.amazon.com/nova/latest/userguide/grounding.html>), else its `source`, as
/// the URL; its `title` as the title; its `sourceContent` texts as the cited words (`Citation`
/// and `CitationsDelta` in the service model,
/// <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Citation.html>). A
/// citation that names neither a URL nor a title (a document location without a title) gives
/// none.
pub(super) fn sources(citations: &[serde_json::Value]) -> Vec<Block> {
    let flat: Vec<serde_json::Value> = citations
        .iter()
        .map(|citation| {
            let cited: Vec<&str> = reply::field(citation, &["sourceContent"])
                .as_array()
                .map(|parts| {
                    parts
                        .iter()
                        .filter_map(|part| reply::field(part, &["text"]).as_str())
                        .collect()
                })
                .unwrap_or_default();
            let url = reply::field(citation, &["location", "web", "url"])
                .as_str()
                .or_else(|| reply::field(citation, &["source"]).as_str());
            serde_json::json!({
                "url": url,
                "title": reply::field(citation, &["title"]).as_str(),
                "cited_text": (!cited.is_empty()).then(|| cited.join("\n")),
            })
        })
        .collect();
    reply::sources(&flat, &["url"], &["title"], &["cited_text"])
}

/// One member of a provider-executed tool's `toolResult` content, as text: the code
/// interpreter's result (`{"stdOut", "stdErr", "exitCode"}`, as JSON or as the JSON text of a
/// `text` item, <https://docs.aws.amazon.com/nova/latest/userguide/tool-built-in.html>) as
/// docs/design.md#provider-executed-tools writes code execution; other `text` as it is, other `json` as compact JSON
/// text; any other kind (an image, a document) the `[Not kept: ...]` marker, its kind added
/// to `not_kept`.
fn result_item(kind: &str, value: &RawValue, not_kept: &mut Vec<String>) -> String {
    const CODE_FIELDS: [&str; 3] = ["stdOut", "stdErr", "exitCode"];
    let code = |json: &str| {
        serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .and_then(|value| reply::code_output(&value, CODE_FIELDS))
    };
    match kind {
        "text" => {
            let text = serde_json::from_str::<String>(value.get())
                .unwrap_or_else(|_| crate::wire::CompactJson(value.get()).to_string());
            code(&text).unwrap_or(text)
        }
        "json" => {
            code(value.get()).unwrap_or_else(|| crate::wire::CompactJson(value.get()).to_string())
        }
        other => {
            not_kept.push(other.to_owned());
            crate::media::marker::not_kept(Provider::Bedrock, other)
        }
    }
}

/// The name of the tool a `toolResult` answers: its call's, else its `type` without `_result`
/// (`nova_code_interpreter_result`), else `toolResult`.
fn result_name(calls: &[(String, String)], id: &str, kind: Option<&str>) -> String {
    calls
        .iter()
        .find(|(known, _)| known == id)
        .map(|(_, name)| name.clone())
        .or_else(|| kind.map(|kind| kind.trim_end_matches("_result").to_owned()))
        .unwrap_or_else(|| "toolResult".to_owned())
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
