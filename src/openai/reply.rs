//! Reading a Chat Completions response body into the stored message of the assistant's turn.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::content::{self, Split, ThinkSplit};
use crate::media::marker;
use crate::provider::Provider;
use crate::record::{Block, ToolInput};
use crate::reply::{At, Counts, Metadata, Reply, ReplyError};
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
/// The content docs/design.md#content-kept keeps: `annotations` (`url_citation`) become one `source` block per
/// distinct source right after the content; generated `audio` its `transcript` as text, then
/// the audio as a `file` block (its media type read from its header: WAV, MP3, FLAC, Ogg, or
/// `audio/pcm` for `pcm16`), after the content; a compatible server's top-level `citations`
/// and `search_results` (Perplexity) sources at the end of the message; Groq's
/// `executed_tools` provider-executed calls and their results, after the reasoning;
/// OpenRouter's generated `images` (data URLs) `image` blocks after the sources. What
/// compatible servers send otherwise is read too: a tool call without `type` (Mistral) is a
/// function call, a content part of `type: "thinking"` (Magistral, `{"thinking": [{"type":
/// "text", "text"}]}`) is reasoning, DeepSeek's `prompt_cache_hit_tokens` are cache reads.
/// [`Provider::read_reply`](crate::Provider::read_reply) of a [`Dialect`](crate::Dialect)
/// with `think_tags` reads `<think>…</think>` at the start of `content` as reasoning, and
/// content up to a `</think>` that no `<think>` opened (the chat template opened it); or the
/// dialect's own tags ([`ThinkTag`](crate::dialects::ThinkTag)).
///
/// Zero values stand for absence, as some compatible servers fill what a reply leaves out
/// (<https://github.com/Wei-Shaw/sub2api/pull/5632>): `"refusal": ""` is no refusal,
/// `"finish_reason": ""` no stop, `"function_call": {"name": "", "arguments": ""}` (or `{}`)
/// and a tool call with no name and no input no call, and an empty `type` is a function's.
///
/// Fields a reply may leave out: a tool call without `arguments` (or with empty ones) is a
/// call with input `{}`; a choice without a `message`, as Azure sends one its content filter
/// stopped (`"finish_reason": "content_filter"` and the filter's results alone,
/// <https://github.com/Azure/azure-sdk-for-go/pull/21625>,
/// <https://github.com/langchain-ai/langchain/pull/3861>), is an empty reply that stops for
/// `content_filter`.
///
/// What does not cross: other choices (`n` > 1) and `logprobs` are not content and are left
/// out; the reply is the choice of `index` 0 (else the first), and
/// [`Metadata::other_choices`](crate::Metadata::other_choices) counts the others. The deprecated `function_call`, a content part or a tool call of a kind the crate
/// does not read are not refused: each becomes the text `[Not kept: OpenAI {type} content]`
/// (`function_call` after the content), is listed by [`Reply::not_kept`], and goes back
/// natively in the round in flight with the rest of the message.
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
    read_reply_of(body, Provider::OpenAi)
}

/// Reads a reply of a provider of the OpenAI Chat surface, under its dialect.
pub(crate) fn read_reply_of(body: &str, provider: Provider) -> Result<Reply, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        choices: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
        #[serde(default)]
        citations: serde_json::Value,
        #[serde(default)]
        search_results: serde_json::Value,
    }
    #[derive(Deserialize)]
    struct Choice<'a> {
        #[serde(default)]
        index: Option<usize>,
        #[serde(borrow, default)]
        message: Option<&'a RawValue>,
        #[serde(default)]
        finish_reason: Option<String>,
    }

    let at = At::body(provider, body)?;
    let response: Response<'_> = at.read()?;
    let choices_at = at.child(response.choices, "choices");
    let choices: Vec<&RawValue> = choices_at.read()?;
    // The first choice, the one of index 0 (the others, `n` > 1, are counted).
    let mut first = None;
    for (position, &raw) in choices.iter().enumerate() {
        let choice_at = choices_at.child(raw, format_args!("[{position}]"));
        let choice: Choice<'_> = choice_at.read()?;
        if first.is_none() || choice.index == Some(0) {
            first = Some((choice_at, choice));
        }
        if first
            .as_ref()
            .is_some_and(|(_, choice)| choice.index == Some(0))
        {
            break;
        }
    }
    let Some((choice_at, choice)) = first else {
        return Err(choices_at.error("the reply has no choice"));
    };
    // A choice with no message (Azure's, stopped by its content filter) is an empty reply.
    let message = choice.message.filter(|message| message.get() != "null");
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => read_usage(&usage_at)?,
        None => Counts::default(),
    };
    let native = message.map(|message| message.to_owned());
    let whole = Whole {
        provider,
        message: message.map(|message| choice_at.child(message, "message")),
        finish: choice.finish_reason,
        usage,
        citations: &response.citations,
        search_results: &response.search_results,
        other_choices: choices.len().saturating_sub(1),
    };
    whole.reply(native.into_iter().collect())
}

/// A whole reply, as a body carries it and as a stream adds up to: the first choice's
/// message, why it finished, the usage, a compatible server's top-level sources and how many
/// other choices came. The one place a Chat [`Reply`] is made, for a body and a stream alike.
pub(super) struct Whole<'a> {
    pub(super) provider: Provider,
    pub(super) message: Option<At<'a>>,
    pub(super) finish: Option<String>,
    pub(super) usage: Counts,
    pub(super) citations: &'a serde_json::Value,
    pub(super) search_results: &'a serde_json::Value,
    pub(super) other_choices: usize,
}

impl Whole<'_> {
    /// The reply, with the message the round in flight sends back.
    pub(super) fn reply(self, native: Vec<Box<RawValue>>) -> Result<Reply, ReplyError> {
        let mut read = Read::default();
        if let Some(message_at) = &self.message {
            read_message(message_at, &mut read)?;
        }
        let stop = if read.refused {
            StopReason::Refusal
        } else {
            let finish = self.finish.filter(|word| !word.is_empty());
            StopReason::from_word(finish.as_deref(), &FINISH_REASONS)
        };
        let top = content::top_level_sources(self.citations, self.search_results);
        read.blocks.extend(top);
        let metadata = Metadata {
            other_choices: self.other_choices,
            ..Metadata::default()
        };
        Ok(
            Reply::new(self.provider, read.blocks, self.usage.usage(), stop, native)
                .not_keeping(read.not_kept)
                .with_metadata(metadata),
        )
    }
}

/// What a reply's message gives: its blocks, the kinds of its content not kept, whether it
/// refused, and how many calls it made (each call, in the
/// order of its blocks, is the reply's call `k`, which names the id made for it when it came
/// without one: `made_0_{k}`, as the stream reader makes it).
#[derive(Debug, Default)]
struct Read {
    blocks: Vec<Block>,
    not_kept: Vec<String>,
    refused: bool,
    calls: usize,
}

/// The first choice's `message`, into its blocks.
fn read_message(message_at: &At<'_>, read: &mut Read) -> Result<(), ReplyError> {
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
        #[serde(default)]
        annotations: Option<Vec<serde_json::Value>>,
        #[serde(default)]
        executed_tools: Option<Vec<serde_json::Value>>,
        #[serde(default)]
        images: Option<Vec<serde_json::Value>>,
    }
    #[derive(Deserialize)]
    struct Audio {
        #[serde(default)]
        transcript: Option<String>,
        #[serde(default)]
        data: Option<String>,
    }
    let provider = message_at.provider();
    let message: Message<'_> = message_at.read()?;
    let Read {
        blocks,
        not_kept,
        refused,
        calls,
    } = read;
    // The reasoning, in whichever field is not empty (a zero `reasoning_content` beside it
    // is none).
    let not_empty = |text: Option<String>| text.filter(|text| !text.is_empty());
    if let Some(reasoning) = not_empty(message.reasoning_content).or(not_empty(message.reasoning)) {
        blocks.push(Block::reasoning(reasoning));
    }
    let executed = message.executed_tools.as_deref().unwrap_or_default();
    blocks.extend(content::executed_tool_blocks(executed, *calls));
    *calls += executed.len();
    if let Some(content) = message.content {
        *refused |= read_content(
            &message_at.child(content, "content"),
            content::tags_of(provider),
            blocks,
            not_kept,
        )?;
    }
    blocks.extend(content::annotation_sources(
        message.annotations.as_deref().unwrap_or_default(),
    ));
    blocks.extend(content::generated_images(
        provider,
        message.images.as_deref().unwrap_or_default(),
        not_kept,
    ));
    if let Some(audio_at) = message_at.present(message.audio, "audio") {
        let audio: Audio = audio_at.read()?;
        blocks.extend(content::audio_blocks(
            audio.transcript.as_deref().unwrap_or_default(),
            audio.data.as_deref().unwrap_or_default(),
        ));
    }
    if let Some(call) = (message.function_call).filter(|call| !content::is_zero_text(call.get())) {
        let block = function_call(call, *calls, provider, not_kept);
        *calls += usize::from(matches!(block, Block::ToolUse { .. }));
        blocks.push(block);
    }
    if let Some(refusal) = message.refusal.filter(|refusal| !refusal.is_empty()) {
        *refused = true;
        blocks.push(Block::text(refusal));
    }
    if let Some(tool_calls) = message.tool_calls {
        let calls_at = message_at.child(tool_calls, "tool_calls");
        let tool_calls: Option<Vec<&RawValue>> = calls_at.read()?;
        for (index, &call) in tool_calls.iter().flatten().enumerate() {
            let call_at = calls_at.child(call, format_args!("[{index}]"));
            let Some(block) = read_tool_call(&call_at, *calls, provider, not_kept)? else {
                continue;
            };
            *calls += 1;
            blocks.push(block);
        }
    }
    Ok(())
}

/// `content`: a string (split at reasoning tags for a dialect that has them), null, or (from
/// some compatible servers) an array of text and thinking parts; whether any of them is a
/// refusal.
fn read_content(
    at: &At<'_>,
    think_tags: Option<content::Tags>,
    blocks: &mut Vec<Block>,
    not_kept: &mut Vec<String>,
) -> Result<bool, ReplyError> {
    #[derive(Deserialize)]
    struct ContentPart {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        refusal: Option<String>,
        #[serde(default)]
        thinking: serde_json::Value,
    }
    // A string, an array or null, by its first character (an untagged enum cannot borrow
    // the parts in place, which their errors' places need).
    enum Content<'a> {
        Text(String),
        Parts(Vec<&'a RawValue>),
        Null(()),
    }
    let content = match at.raw().get().trim_start().as_bytes().first() {
        Some(b'[') => Content::Parts(at.read()?),
        Some(b'n') => Content::Null(at.read()?),
        Some(_) | None => Content::Text(at.read()?),
    };
    let mut refused = false;
    match content {
        Content::Text(text) => match think_tags {
            Some(tags) => {
                for split in ThinkSplit::whole(tags, &text) {
                    blocks.push(match split {
                        Split::Reasoning(reasoning) => Block::reasoning(reasoning),
                        Split::Text(text) => Block::text(text),
                    });
                }
            }
            None => blocks.push(Block::text(text)),
        },
        Content::Parts(parts) => {
            for (index, &raw) in parts.iter().enumerate() {
                let part_at = at.child(raw, format_args!("[{index}]"));
                let part: ContentPart = part_at.read()?;
                match (part.kind.as_str(), part.text, part.refusal) {
                    ("text", Some(text), _) => blocks.push(Block::text(text)),
                    ("refusal", _, refusal) => {
                        // An empty refusal is none.
                        if let Some(refusal) = refusal.filter(|refusal| !refusal.is_empty()) {
                            refused = true;
                            blocks.push(Block::text(refusal));
                        }
                    }
                    ("thinking", _, _) => {
                        blocks.push(Block::reasoning(thinking_text(&part.thinking)));
                    }
                    (kind, _, _) => {
                        not_kept.push(kind.to_owned());
                        blocks.push(Block::text(marker::not_kept(at.provider(), kind)));
                    }
                }
            }
        }
        Content::Null(()) => {}
    }
    Ok(refused)
}

/// The words of a Magistral `thinking` chunk: its `thinking` is a string, or an array of
/// `{"type": "text", "text"}` chunks, joined as they are.
pub(super) fn thinking_text(thinking: &serde_json::Value) -> String {
    match thinking {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(chunks) => chunks
            .iter()
            .filter_map(|chunk| crate::reply::field(chunk, &["text"]).as_str())
            .collect(),
        serde_json::Value::Null
        | serde_json::Value::Bool(_)
        | serde_json::Value::Number(_)
        | serde_json::Value::Object(_) => String::new(),
    }
}

/// One of `tool_calls`: a function call, its arguments stored as the exact text the reply
/// carried, or a custom tool's call, its free-form input (`custom.input`, raw text) stored as
/// the JSON string of it: a stored input is JSON text, so the text `print(1)` is the input
/// `"print(1)"` (<https://platform.openai.com/docs/guides/function-calling#custom-tools>). A call without `type` (Mistral's, <https://github.com/graniet/llm/issues/67>),
/// or with an empty one, is a function call; one without an `id` (or with an empty one) gets
/// the id the stream reader makes, `made_0_{k}` for the reply's call `k`
/// ([`MADE_ID_PREFIX`](crate::MADE_ID_PREFIX)). A call of zero
/// values, no name and no input ([`content::is_zero`]), is none: `None`. A function call
/// without `arguments`, or with empty ones, is a call with input `{}`: some servers leave
/// them out for a tool that takes none (llama.cpp's omits them,
/// <https://github.com/QwenLM/qwen-code/issues/6249>).
fn read_tool_call(
    at: &At<'_>,
    k: usize,
    provider: Provider,
    not_kept: &mut Vec<String>,
) -> Result<Option<Block>, ReplyError> {
    #[derive(Deserialize)]
    struct Call {
        #[serde(default)]
        id: Option<String>,
        #[serde(rename = "type", default)]
        kind: Option<String>,
        #[serde(default)]
        function: Option<Function>,
        #[serde(default)]
        custom: Option<Custom>,
    }
    #[derive(Deserialize)]
    struct Function {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        arguments: Option<String>,
    }
    #[derive(Deserialize)]
    struct Custom {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        input: Option<String>,
    }
    let call: Call = at.read()?;
    let kind = call.kind.filter(|kind| !kind.is_empty());
    let kind = kind.as_deref().unwrap_or("function");
    // The name and the input of a call of a kind the crate reads.
    let named = match (kind, call.function, call.custom) {
        ("function", Some(function), _) => Some((function.name, function.arguments, false)),
        ("custom", _, Some(custom)) => Some((custom.name, custom.input, true)),
        ("function" | "custom", _, _) => Some((None, None, false)),
        (_, _, _) => None,
    };
    let Some((name, input, free)) = named else {
        not_kept.push(kind.to_owned());
        return Ok(Some(Block::text(marker::not_kept(provider, kind))));
    };
    let (name, mut input) = (name.unwrap_or_default(), input.unwrap_or_default());
    if name.is_empty() && input.is_empty() {
        return Ok(None);
    }
    if free {
        // Free-form text, as the JSON string of it.
        input = serde_json::Value::from(input).to_string();
    } else if input.is_empty() {
        // A function call with no arguments (left out, or empty) takes none: `{}`.
        "{}".clone_into(&mut input);
    }
    // A call without an id (or an empty one) gets the one the stream reader makes for it.
    let id = call
        .id
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| crate::reply::made_id(0, k));
    Ok(Some(Block::tool_use(id, name, ToolInput::from(input))))
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
        /// DeepSeek's cache reads (<https://api-docs.deepseek.com/api/create-chat-completion>,
        /// <https://github.com/prism-php/prism/issues/1021>).
        #[serde(default)]
        prompt_cache_hit_tokens: Option<u64>,
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
            .and_then(|details| details.cached_tokens)
            .or(usage.prompt_cache_hit_tokens),
    })
}

/// The deprecated single call, `{"name", "arguments"}` with no id: a call like one of
/// `tool_calls`, with a made id, the reply's call `k` (the spec's `ChatCompletionResponseMessage.function_call`,
/// "Deprecated and replaced by `tool_calls`"), still sent by older compatible servers. One
/// that is no such object, or names no function, is the marker, where the message has it
/// (one of zero values, `{"name": "", "arguments": ""}`, is none: the reader never gets it).
fn function_call(
    call: &RawValue,
    k: usize,
    provider: Provider,
    not_kept: &mut Vec<String>,
) -> Block {
    #[derive(Deserialize)]
    struct FunctionCall {
        name: String,
        #[serde(default)]
        arguments: Option<String>,
    }
    match serde_json::from_str::<FunctionCall>(call.get()) {
        Ok(call) if !call.name.is_empty() => Block::tool_use(
            crate::reply::made_id(0, k),
            call.name,
            ToolInput::from(call.arguments.unwrap_or_else(|| "{}".to_owned())),
        ),
        Ok(_) | Err(_) => {
            not_kept.push("function_call".to_owned());
            Block::text(marker::not_kept(provider, "function_call"))
        }
    }
}
