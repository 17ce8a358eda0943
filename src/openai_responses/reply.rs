//! Reading a Responses response body into the stored message of the assistant's turn.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, StoredMessage, TokenUsage, ToolInput};
use crate::reply::{self, At, ReplyError};

/// Reads a Responses response body (`Response`, or what a streamed reply accumulates to)
/// into the stored message of the assistant's turn.
///
/// Each item of `output` becomes blocks, in order: a `message`'s `output_text` parts as
/// `text`, and its `refusal`s as `text` (their words are what the model said); a `reasoning`
/// item's `summary` texts as `reasoning`; a `function_call` as `tool_use`, with its `call_id`,
/// name and `arguments` string stored as it is (a `custom_tool_call` likewise, with its
/// `input`); an `image_generation_call`'s `result` as `image`. `usage` becomes [`TokenUsage`]:
/// `input_tokens` (which include cached tokens), `output_tokens`, and
/// `input_tokens_details.cached_tokens` as cache reads.
///
/// What does not cross prose replay, and is left out: a reasoning item's
/// `encrypted_content`, and `annotations` (citations' metadata). Any other item (web search,
/// file search, computer use, code interpreter and MCP calls) has no block in the record: it
/// is an error, never dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{openai_responses, Block};
///
/// let reply = r#"{"id": "resp_1", "object": "response", "status": "completed", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Need the file."}]},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read",
///      "arguments": "{\"path\":\"a.rs\"}", "status": "completed"}],
///   "usage": {"input_tokens": 20, "output_tokens": 9, "total_tokens": 29,
///             "input_tokens_details": {"cached_tokens": 4}}}"#;
/// let message = openai_responses::read_reply(reply)?;
/// assert_eq!(message.blocks, [
///     Block::reasoning("Need the file."),
///     Block::tool_use("call_1", "read", r#"{"path":"a.rs"}"#),
/// ]);
/// assert_eq!(message.usage.map(|usage| usage.cache_read_input_tokens), Some(4));
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
    struct Item<'a> {
        #[serde(rename = "type")]
        kind: String,
        #[serde(borrow, default)]
        content: Option<Vec<&'a RawValue>>,
        #[serde(default)]
        summary: Option<Vec<Summary>>,
        #[serde(default)]
        call_id: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        arguments: Option<String>,
        #[serde(default)]
        input: Option<String>,
        #[serde(default)]
        result: Option<String>,
        #[serde(default)]
        output_format: Option<String>,
    }
    #[derive(Deserialize)]
    struct Summary {
        text: String,
    }
    #[derive(Deserialize)]
    struct ContentPart {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        refusal: Option<String>,
    }
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        input_tokens: u64,
        #[serde(default)]
        output_tokens: u64,
        #[serde(default)]
        input_tokens_details: Option<Details>,
    }
    #[derive(Deserialize)]
    struct Details {
        #[serde(default)]
        cached_tokens: u64,
    }

    let at = At::body(Provider::OpenAiResponses, body)?;
    let response: Response<'_> = at.read()?;
    let output_at = at.child(response.output, "output");
    let output: Vec<&RawValue> = output_at.read()?;
    let mut blocks = Vec::new();
    for (index, &raw) in output.iter().enumerate() {
        let item_at = output_at.child(raw, format_args!("[{index}]"));
        let item: Item<'_> = item_at.read()?;
        let missing = |field: &str| {
            item_at.error(format_args!(
                "missing field `{field}` in a {} item",
                item.kind
            ))
        };
        match item.kind.as_str() {
            "message" => {
                for (part, &raw) in item.content.iter().flatten().enumerate() {
                    let part_at = item_at.child(raw, format_args!("content[{part}]"));
                    let content: ContentPart = part_at.read()?;
                    match (content.kind.as_str(), content.text, content.refusal) {
                        ("output_text", Some(text), _) => blocks.push(Block::text(text)),
                        ("refusal", _, Some(refusal)) => blocks.push(Block::text(refusal)),
                        (kind, _, _) => {
                            return Err(part_at.error(format_args!(
                                "content of type {kind:?} has no block in the record"
                            )))
                        }
                    }
                }
            }
            "reasoning" => {
                for summary in item.summary.into_iter().flatten() {
                    blocks.push(Block::reasoning(summary.text));
                }
            }
            "function_call" => {
                let call_id = item.call_id.clone().ok_or_else(|| missing("call_id"))?;
                let name = item.name.clone().ok_or_else(|| missing("name"))?;
                let arguments = item.arguments.clone().ok_or_else(|| missing("arguments"))?;
                blocks.push(Block::tool_use(call_id, name, ToolInput::from(arguments)));
            }
            "custom_tool_call" => {
                let call_id = item.call_id.clone().ok_or_else(|| missing("call_id"))?;
                let name = item.name.clone().ok_or_else(|| missing("name"))?;
                let input = item.input.clone().ok_or_else(|| missing("input"))?;
                blocks.push(Block::tool_use(call_id, name, input));
            }
            "image_generation_call" => {
                let data = item.result.clone().ok_or_else(|| missing("result"))?;
                let format = item.output_format.as_deref().unwrap_or("png");
                blocks.push(Block::image(format!("image/{format}"), data));
            }
            kind => {
                return Err(item_at.error(format_args!(
                    "an output item of type {kind:?} has no block in the record"
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
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: usage
                    .input_tokens_details
                    .map_or(0, |details| details.cached_tokens),
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}
