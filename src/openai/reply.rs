//! Reading a Chat Completions response body into the stored message of the assistant's turn.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::marker;
use crate::provider::Provider;
use crate::record::{Block, ToolInput};
use crate::reply::{At, Counts, Reply, ReplyError};
use crate::stop::StopReason;

/// The words of `finish_reason`, normalized. OpenAI says `stop` for an ordinary end and for a
/// stop sequence alike.
pub(super) const FINISH_REASONS: [(&str, StopReason); 5] = [
    ("stop", StopReason::EndTurn),
    ("length", StopReason::MaxTokens),
    ("tool_calls", StopReason::ToolUse),
    ("function_call", StopReason::ToolUse),
    ("content_filter", StopReason::ContentFilter),
];

/// Reads a Chat Completions response body (`CreateChatCompletionResponse`, or what a streamed
/// reply accumulates to) into the [`Reply`]: the stored message of the assistant's turn and
/// why it stopped.
///
/// The first choice's message becomes one stored message of the `assistant` role, its blocks
/// in this order: `reasoning_content` or `reasoning` (which compatible servers return) as
/// `reasoning`;
/// `content` as `text`; a `refusal` as `text` (its words are what the model said); each of
/// `tool_calls` as `tool_use`, with the call's id, name and its `arguments` string stored as it
/// is. `usage` becomes [`TokenUsage`](crate::TokenUsage): `prompt_tokens` (which include
/// cached tokens), `completion_tokens`, and `prompt_tokens_details.cached_tokens` as cache
/// reads; a count sent as `null` is no count.
///
/// `finish_reason` becomes the [`StopReason`]: `stop` → `end_turn` (or `tool_use` when the
/// message calls tools), `length` → `max_tokens`, `tool_calls` and `function_call` →
/// `tool_use`, `content_filter` → `content_filter`, any other word kept; a message with a
/// `refusal` stops for `refusal`.
///
/// What does not cross: other choices (`n` > 1), `logprobs`, and `annotations` (citations'
/// metadata) are not content and are left out. Audio output, the deprecated `function_call`,
/// a content part or a tool call of a kind the crate does not read are not refused: each
/// becomes the text `[Not kept: OpenAI {type} content]` (audio and `function_call` after the
/// content), is listed by [`Reply::not_kept`], and goes back natively in the round in flight
/// with the rest of the message.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{openai, Block};
///
/// let reply = r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
///     "role": "assistant", "content": "Reading it.",
///     "tool_calls": [{"id": "call_1", "type": "function",
///                     "function": {"name": "read", "arguments": "{\"path\":\"a.rs\"}"}}]}}],
///   "usage": {"prompt_tokens": 20, "completion_tokens": 9, "total_tokens": 29}}"#;
/// let reply = openai::read_reply(reply)?;
/// assert_eq!(reply.message.blocks, [
///     Block::text("Reading it."),
///     Block::tool_use("call_1", "read", r#"{"path":"a.rs"}"#),
/// ]);
/// assert_eq!(reply.message.usage.map(|usage| usage.input_tokens), Some(20));
/// assert_eq!(reply.stop, transcript_replay::StopReason::ToolUse);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<Reply, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        choices: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Choice<'a> {
        #[serde(borrow)]
        message: &'a RawValue,
        #[serde(default)]
        finish_reason: Option<String>,
    }
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(default)]
        content: Option<&'a RawValue>,
        #[serde(default)]
        refusal: Option<String>,
        #[serde(default)]
        reasoning_content: Option<String>,
        #[serde(default)]
        reasoning: Option<String>,
        #[serde(borrow, default)]
        tool_calls: Option<&'a RawValue>,
        #[serde(borrow, default)]
        audio: Option<&'a RawValue>,
        #[serde(borrow, default)]
        function_call: Option<&'a RawValue>,
    }

    let at = At::body(Provider::OpenAi, body)?;
    let response: Response<'_> = at.read()?;
    let choices_at = at.child(response.choices, "choices");
    let choices: Vec<&RawValue> = choices_at.read()?;
    let Some(&first) = choices.first() else {
        return Err(choices_at.error("the reply has no choice"));
    };
    let choice_at = choices_at.child(first, "[0]");
    let choice: Choice<'_> = choice_at.read()?;
    let message_at = choice_at.child(choice.message, "message");
    let message: Message<'_> = message_at.read()?;
    let mut blocks = Vec::new();
    let mut not_kept = Vec::new();
    if let Some(reasoning) = message.reasoning_content.or(message.reasoning) {
        blocks.push(Block::reasoning(reasoning));
    }
    let mut refused = false;
    if let Some(content) = message.content {
        refused |= read_content(
            &message_at.child(content, "content"),
            &mut blocks,
            &mut not_kept,
        )?;
    }
    // What the record has no block for yet: the marker, where the message has it.
    for (field, value) in [
        ("audio", message.audio),
        ("function_call", message.function_call),
    ] {
        if value.is_some_and(|value| value.get() != "null") {
            not_kept.push(field.to_owned());
            blocks.push(Block::text(marker::not_kept(Provider::OpenAi, field)));
        }
    }
    if let Some(refusal) = message.refusal {
        refused = true;
        blocks.push(Block::text(refusal));
    }
    let mut free_form = Vec::new();
    if let Some(calls) = message.tool_calls {
        let calls_at = message_at.child(calls, "tool_calls");
        let calls: Option<Vec<&RawValue>> = calls_at.read()?;
        for (index, &call) in calls.iter().flatten().enumerate() {
            let (block, free) = read_tool_call(
                &calls_at.child(call, format_args!("[{index}]")),
                &mut not_kept,
            )?;
            if let (true, Block::ToolUse { id, .. }) = (free, &block) {
                free_form.push(id.clone());
            }
            blocks.push(block);
        }
    }
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => read_usage(&usage_at)?.usage(),
        None => None,
    };
    let stop = if refused {
        StopReason::Refusal
    } else {
        StopReason::from_word(choice.finish_reason.as_deref(), &FINISH_REASONS)
    };
    let native = vec![choice.message.to_owned()];
    Ok(Reply::new(Provider::OpenAi, blocks, usage, stop, native)
        .free_form(&free_form)
        .not_keeping(not_kept))
}

/// `content`: a string, null, or (from some compatible servers) an array of text parts;
/// whether any of them is a refusal.
fn read_content(
    at: &At<'_>,
    blocks: &mut Vec<Block>,
    not_kept: &mut Vec<String>,
) -> Result<bool, ReplyError> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Content<'a> {
        Text(String),
        Parts(#[serde(borrow)] Vec<&'a RawValue>),
        Null(()),
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
    let mut refused = false;
    match at.read::<Content<'_>>()? {
        Content::Text(text) => blocks.push(Block::text(text)),
        Content::Parts(parts) => {
            for (index, &raw) in parts.iter().enumerate() {
                let part_at = at.child(raw, format_args!("[{index}]"));
                let part: ContentPart = part_at.read()?;
                match (part.kind.as_str(), part.text, part.refusal) {
                    ("text", Some(text), _) => blocks.push(Block::text(text)),
                    ("refusal", _, Some(refusal)) => {
                        refused = true;
                        blocks.push(Block::text(refusal));
                    }
                    (kind, _, _) => {
                        not_kept.push(kind.to_owned());
                        blocks.push(Block::text(marker::not_kept(Provider::OpenAi, kind)));
                    }
                }
            }
        }
        Content::Null(()) => {}
    }
    Ok(refused)
}

/// One of `tool_calls`: a function call (or a custom tool's free-form input), its arguments
/// stored as the exact text the reply carried, and whether the input is free-form text rather
/// than JSON.
fn read_tool_call(at: &At<'_>, not_kept: &mut Vec<String>) -> Result<(Block, bool), ReplyError> {
    #[derive(Deserialize)]
    struct Call {
        id: String,
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        function: Option<Function>,
        #[serde(default)]
        custom: Option<Custom>,
    }
    #[derive(Deserialize)]
    struct Function {
        name: String,
        arguments: String,
    }
    #[derive(Deserialize)]
    struct Custom {
        name: String,
        input: String,
    }
    let call: Call = at.read()?;
    match (call.kind.as_str(), call.function, call.custom) {
        ("function", Some(function), _) => Ok((
            Block::tool_use(call.id, function.name, ToolInput::from(function.arguments)),
            false,
        )),
        ("custom", _, Some(custom)) => {
            Ok((Block::tool_use(call.id, custom.name, custom.input), true))
        }
        (kind, _, _) => {
            not_kept.push(kind.to_owned());
            Ok((Block::text(marker::not_kept(Provider::OpenAi, kind)), false))
        }
    }
}

/// `usage`, as the record counts it; a count sent as `null` is no count.
pub(super) fn read_usage(at: &At<'_>) -> Result<Counts, ReplyError> {
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        prompt_tokens: Option<u64>,
        #[serde(default)]
        completion_tokens: Option<u64>,
        #[serde(default)]
        prompt_tokens_details: Option<Details>,
    }
    #[derive(Deserialize)]
    struct Details {
        #[serde(default)]
        cached_tokens: Option<u64>,
    }
    let usage: Usage = at.read()?;
    Ok(Counts {
        input: usage.prompt_tokens,
        output: usage.completion_tokens,
        cache_creation: None,
        cache_read: usage
            .prompt_tokens_details
            .and_then(|details| details.cached_tokens),
    })
}
