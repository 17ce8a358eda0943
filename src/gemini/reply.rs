//! Reading a generateContent response body into the stored message of the model's turn.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, StoredMessage, TokenUsage, ToolInput};
use crate::reply::{self, At, ReplyError};

/// Reads a generateContent response body (`GenerateContentResponse`, or what a streamed
/// reply accumulates to) into the stored message of the model's turn.
///
/// The first candidate's parts become blocks, in order: `text` as `text`, or as `reasoning`
/// when the part is marked `thought`; `functionCall` as `tool_use`, with the call's `id` (or,
/// on models that give none, `call_{n}` from the part's position `n`, stable for the same
/// reply), its name, and `args` stored as the exact JSON text the reply carried (`{}` when it
/// has none); `inlineData` (an image the model made) as `image`. `usageMetadata` becomes
/// [`TokenUsage`]: `promptTokenCount`, `candidatesTokenCount` plus `thoughtsTokenCount` (both
/// billed as output), and `cachedContentTokenCount` as cache reads.
///
/// What does not cross prose replay, and is left out: `thoughtSignature` (Gemini 3 asks for it
/// back with function calls; replay sends no native function calls), other candidates,
/// safety ratings and citation metadata. Any other part (`executableCode`,
/// `codeExecutionResult`, `fileData`, ...) has no block in the record: it is an error, never
/// dropped silently, and so is a reply with no candidate, or a candidate with no content.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{gemini, Block};
///
/// let reply = r#"{"candidates": [{"content": {"role": "model", "parts": [
///     {"text": "Need the file.", "thought": true},
///     {"functionCall": {"name": "read", "args": {"path": "a.rs"}}}
///   ]}, "finishReason": "STOP"}],
///   "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 9, "totalTokenCount": 29}}"#;
/// let message = gemini::read_reply(reply)?;
/// assert_eq!(message.blocks[0], Block::reasoning("Need the file."));
/// let Block::ToolUse { id, input, .. } = &message.blocks[1] else { unreachable!() };
/// assert_eq!((id.as_str(), input.as_str()), ("call_1", r#"{"path": "a.rs"}"#));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Response<'a> {
        #[serde(borrow, default)]
        candidates: Option<&'a RawValue>,
        #[serde(borrow, default)]
        usage_metadata: Option<&'a RawValue>,
        #[serde(default)]
        prompt_feedback: Option<Feedback>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Feedback {
        #[serde(default)]
        block_reason: Option<String>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Candidate<'a> {
        #[serde(borrow, default)]
        content: Option<&'a RawValue>,
        #[serde(default)]
        finish_reason: Option<String>,
    }
    #[derive(Deserialize)]
    struct Content<'a> {
        #[serde(borrow, default)]
        parts: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Usage {
        #[serde(default)]
        prompt_token_count: u64,
        #[serde(default)]
        candidates_token_count: u64,
        #[serde(default)]
        thoughts_token_count: u64,
        #[serde(default)]
        cached_content_token_count: u64,
    }

    let at = At::body(Provider::Gemini, body)?;
    let response: Response<'_> = at.read()?;
    let candidates: Vec<&RawValue> = match response.candidates {
        Some(raw) => at.child(raw, "candidates").read()?,
        None => Vec::new(),
    };
    let Some(&first) = candidates.first() else {
        let why = response
            .prompt_feedback
            .and_then(|feedback| feedback.block_reason)
            .map(|reason| format!(" (the prompt was blocked: {reason})"))
            .unwrap_or_default();
        return Err(at.error(format_args!("the reply has no candidate{why}")));
    };
    let candidate_at = at.child(first, "candidates[0]");
    let candidate: Candidate<'_> = candidate_at.read()?;
    let Some(content) = candidate.content else {
        let why = candidate
            .finish_reason
            .map(|reason| format!(" (finish reason {reason})"))
            .unwrap_or_default();
        return Err(candidate_at.error(format_args!("the candidate has no content{why}")));
    };
    let content_at = candidate_at.child(content, "content");
    let content: Content<'_> = content_at.read()?;
    let mut blocks = Vec::new();
    if let Some(parts) = content.parts {
        let parts_at = content_at.child(parts, "parts");
        let parts: Vec<&RawValue> = parts_at.read()?;
        for (index, &raw) in parts.iter().enumerate() {
            if let Some(block) = read_part(&parts_at.child(raw, format_args!("[{index}]")), index)?
            {
                blocks.push(block);
            }
        }
    }
    let usage = match at.present(response.usage_metadata, "usageMetadata") {
        Some(usage_at) => {
            let usage: Usage = usage_at.read()?;
            Some(TokenUsage {
                input_tokens: usage.prompt_token_count,
                output_tokens: usage.candidates_token_count + usage.thoughts_token_count,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: usage.cached_content_token_count,
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}

/// The keys of a part that describe it rather than carry its data.
const PART_METADATA: [&str; 5] = [
    "thought",
    "thoughtSignature",
    "partMetadata",
    "videoMetadata",
    "mediaResolution",
];

/// One part: the block it becomes, or `None` for a part with no data (only metadata).
fn read_part(at: &At<'_>, index: usize) -> Result<Option<Block>, ReplyError> {
    #[derive(Deserialize)]
    struct Call<'a> {
        #[serde(default)]
        id: Option<String>,
        name: String,
        #[serde(borrow, default)]
        args: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct InlineData {
        mime_type: String,
        data: String,
    }
    let fields: BTreeMap<String, &RawValue> = at.read()?;
    let thought = fields.get("thought").is_some_and(|raw| raw.get() == "true");
    let data: Vec<(&String, &&RawValue)> = fields
        .iter()
        .filter(|(key, _)| !PART_METADATA.contains(&key.as_str()))
        .collect();
    let [(kind, &raw)] = data.as_slice() else {
        return match data.as_slice() {
            [] => Ok(None),
            _ => Err(at.error("a part has more than one data field")),
        };
    };
    let field_at = at.child(raw, kind.as_str());
    match kind.as_str() {
        "text" => {
            let text: String = field_at.read()?;
            Ok(Some(if thought {
                Block::reasoning(text)
            } else {
                Block::text(text)
            }))
        }
        "functionCall" => {
            let call: Call<'_> = field_at.read()?;
            let input = match call.args {
                Some(args) if args.get() != "null" => {
                    reply::object_input(&field_at.child(args, "args"))?
                }
                Some(_) | None => ToolInput::json_unchecked("{}".to_owned()),
            };
            Ok(Some(Block::tool_use(
                call.id.unwrap_or_else(|| format!("call_{index}")),
                call.name,
                input,
            )))
        }
        "inlineData" => {
            let image: InlineData = field_at.read()?;
            Ok(Some(Block::image(image.mime_type, image.data)))
        }
        other => Err(at.error(format_args!(
            "a part with {other:?} has no block in the record"
        ))),
    }
}
