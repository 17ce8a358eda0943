//! Reading a streamed Chat Completions reply: server-sent events of
//! `chat.completion.chunk`s, ending in `data: [DONE]`.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::error;
use super::reply::{read_usage, FINISH_REASONS};
use crate::provider::Provider;
use crate::record::{Block, StoredMessage};
use crate::reply::{self, At, Counts, Reply};
use crate::stop::StopReason;
use crate::stream::{Blocks, Delta, Events, Failure, Frame, StreamReader};

/// Starts a reader of a streamed Chat Completions reply (`"stream": true`): server-sent
/// events, each a `chat.completion.chunk`, fed the response body's bytes as they arrive.
///
/// The first choice's `delta`s add up to the message [`read_reply`](super::read_reply) reads:
/// `reasoning_content` or `reasoning` (compatible servers), `content`, `refusal`, and each of
/// `tool_calls`, whose `function.arguments` pieces concatenate to the call's input. The
/// stream ends at `data: [DONE]`; usage comes, when the request asked for it with
/// `stream_options.include_usage`, in a last chunk with `choices: []`, and is read whenever it
/// comes. A chunk with `error` (and no `choices`) is a
/// [`StreamError`](crate::StreamError) carrying the [`ProviderError`](crate::ProviderError),
/// and so is a stream that ends before `[DONE]`.
///
/// Tool-call deltas are matched by their `index`, as OpenAI sends it. Servers compatible with
/// OpenAI's API send deltas without one (<https://github.com/ollama/ollama/issues/7881>,
/// <https://github.com/64bit/async-openai/issues/432>): those are matched by `id`, and a delta
/// with neither continues the last call unless it brings a new name. A new `id` at an index
/// already taken starts a new call, for servers that give every parallel call index 0
/// (<https://github.com/diegosouzapw/OmniRoute/issues/11044>). A call that never gets an id
/// gets one the crate makes (`made_0_{k}`, the prefix [`MADE_ID_PREFIX`](crate::MADE_ID_PREFIX)).
///
/// ```
/// use transcript_replay::{openai, Block, StopReason};
///
/// let stream = concat!(
///     r#"data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":""}}]},"finish_reason":null}]}"#, "\n\n",
///     r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]},"finish_reason":null}]}"#, "\n\n",
///     r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a.rs\"}"}}]},"finish_reason":null}]}"#, "\n\n",
///     r#"data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#, "\n\n",
///     r#"data: {"choices":[],"usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29}}"#, "\n\n",
///     "data: [DONE]\n\n",
/// );
/// let mut reader = openai::stream();
/// reader.feed(stream.as_bytes())?;
/// let reply = reader.finish()?;
/// assert_eq!(reply.message.blocks, [Block::tool_use("call_1", "read", r#"{"path":"a.rs"}"#)]);
/// assert_eq!(reply.stop, StopReason::ToolUse);
/// assert_eq!(reply.message.usage.map(|usage| usage.input_tokens), Some(20));
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
pub fn stream() -> StreamReader {
    StreamReader::sse(Provider::OpenAi, Box::<Stream>::default())
}

/// The keys of the message's text blocks, apart from its tool calls (keyed from 0 by their
/// order).
const REASONING: usize = usize::MAX;
const CONTENT: usize = usize::MAX - 1;
const REFUSAL: usize = usize::MAX - 2;
/// The keys of the markers of what the record has no block for yet, as `read_reply` writes
/// them: audio, and the deprecated `function_call`.
const AUDIO: usize = usize::MAX - 3;
const FUNCTION_CALL: usize = usize::MAX - 4;

/// A tool call, as the deltas have matched it so far.
#[derive(Debug)]
struct Call {
    /// The `index` its deltas carry, when they carry one.
    index: Option<usize>,
    /// Whether its id is the provider's (not one the crate made).
    real_id: bool,
    named: bool,
    kind: String,
}

#[derive(Debug, Default)]
struct Stream {
    blocks: Blocks,
    calls: Vec<Call>,
    /// The call the last delta went to.
    current: Option<usize>,
    reasoning_field: Option<&'static str>,
    refused: bool,
    finish: Option<String>,
    counts: Counts,
    done: bool,
    not_kept: Vec<String>,
}

#[derive(Deserialize)]
struct CallDelta {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    id: Option<String>,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    function: Option<FunctionDelta>,
}

#[derive(Deserialize)]
struct FunctionDelta {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}

impl Stream {
    /// The call a delta goes to, begun when it is new.
    fn call_of(&mut self, delta: &CallDelta, deltas: &mut Vec<Delta>) -> usize {
        let id = delta.id.as_deref().filter(|id| !id.is_empty());
        let name = delta
            .function
            .as_ref()
            .and_then(|function| function.name.as_deref())
            .filter(|name| !name.is_empty());
        let found = match (delta.index, id) {
            (Some(index), _) => {
                let key = self
                    .calls
                    .iter()
                    .rposition(|call| call.index == Some(index));
                // A new id at a taken index is a new call.
                match (key, id) {
                    (Some(key), Some(id))
                        if self.calls.get(key).is_some_and(|call| call.real_id)
                            && self.blocks.call_id(key) != Some(id) =>
                    {
                        None
                    }
                    (key, _) => key,
                }
            }
            (None, Some(id)) => (0..self.calls.len())
                .rev()
                .find(|&key| self.blocks.call_id(key) == Some(id)),
            (None, None) => match (self.current, name) {
                (Some(current), Some(_))
                    if self.calls.get(current).is_some_and(|call| call.named) =>
                {
                    None
                }
                (current, _) => current,
            },
        };
        match found {
            Some(key) => {
                self.blocks.name_call(key, id, name);
                if let Some(call) = self.calls.get_mut(key) {
                    call.named |= name.is_some();
                    call.real_id |= id.is_some();
                }
                key
            }
            None => {
                let key = self.calls.len();
                let made = reply::made_id(0, key);
                self.blocks.call(
                    key,
                    id.unwrap_or(&made),
                    name.unwrap_or_default(),
                    false,
                    deltas,
                );
                self.calls.push(Call {
                    index: delta.index,
                    real_id: id.is_some(),
                    named: name.is_some(),
                    kind: delta.kind.clone().unwrap_or_else(|| "function".to_owned()),
                });
                key
            }
        }
    }

    /// The message as OpenAI takes it back in the round in flight: what the deltas carried,
    /// in the fields they carried it in.
    fn native(&mut self) -> Vec<Box<RawValue>> {
        let mut message = Map::new();
        message.insert("role".to_owned(), Value::from("assistant"));
        let mut calls = Vec::new();
        for (key, block) in [(REASONING, "r"), (CONTENT, "c"), (REFUSAL, "f")] {
            let text = match self.blocks.block_of(key) {
                Some(Block::Text { text }) => text,
                Some(Block::Reasoning { reasoning }) => reasoning,
                Some(_) | None => continue,
            };
            let field = match block {
                "r" => self.reasoning_field.unwrap_or("reasoning_content"),
                "c" => "content",
                _ => "refusal",
            };
            message.insert(field.to_owned(), Value::from(text));
        }
        for (key, call) in self.calls.iter().enumerate() {
            if let Some(Block::ToolUse {
                id, name, input, ..
            }) = self.blocks.block_of(key)
            {
                let mut function = Map::new();
                function.insert("name".to_owned(), Value::from(name));
                function.insert("arguments".to_owned(), Value::from(input.as_str()));
                let mut entry = Map::new();
                entry.insert("id".to_owned(), Value::from(id));
                entry.insert("type".to_owned(), Value::from(call.kind.as_str()));
                entry.insert("function".to_owned(), Value::Object(function));
                calls.push(Value::Object(entry));
            }
        }
        if !calls.is_empty() {
            message.insert("tool_calls".to_owned(), Value::Array(calls));
        }
        serde_json::value::to_raw_value(&message)
            .map(|raw| vec![raw])
            .unwrap_or_default()
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Failure> {
        #[derive(Deserialize)]
        struct Chunk<'a> {
            #[serde(default)]
            choices: Option<Vec<Choice>>,
            #[serde(borrow, default)]
            usage: Option<&'a RawValue>,
            #[serde(borrow, default)]
            error: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct Choice {
            #[serde(default)]
            index: Option<usize>,
            #[serde(default)]
            delta: Option<ChoiceDelta>,
            #[serde(default)]
            finish_reason: Option<String>,
        }
        #[derive(Deserialize)]
        struct ChoiceDelta {
            #[serde(default)]
            content: Option<String>,
            #[serde(default)]
            refusal: Option<String>,
            #[serde(default)]
            reasoning_content: Option<String>,
            #[serde(default)]
            reasoning: Option<String>,
            #[serde(default)]
            tool_calls: Option<Vec<CallDelta>>,
            #[serde(default)]
            audio: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            function_call: Option<serde::de::IgnoredAny>,
        }
        let Frame::Event { data, .. } = frame else {
            return Ok(());
        };
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|error| Failure::json(&error))?;
        if chunk.error.is_some_and(|error| error.get() != "null") {
            return Err(Failure::Provider(error::read(Provider::OpenAi, None, data)));
        }
        for choice in chunk.choices.into_iter().flatten() {
            // Other choices (`n` > 1) are no part of the reply, as in `read_reply`.
            if choice.index.unwrap_or_default() != 0 {
                continue;
            }
            if let Some(delta) = choice.delta {
                if let Some(text) = delta.reasoning_content.as_deref() {
                    self.reasoning_field.get_or_insert("reasoning_content");
                    self.blocks.reasoning(REASONING, text, deltas);
                } else if let Some(text) = delta.reasoning.as_deref() {
                    self.reasoning_field.get_or_insert("reasoning");
                    self.blocks.reasoning(REASONING, text, deltas);
                }
                if let Some(text) = delta.content.as_deref() {
                    self.blocks.text(CONTENT, text, deltas);
                }
                // What the record has no block for yet: the marker `read_reply` writes, once.
                for (key, field, value) in [
                    (AUDIO, "audio", delta.audio),
                    (FUNCTION_CALL, "function_call", delta.function_call),
                ] {
                    // `null` is `None`: no value.
                    if value.is_some() && self.blocks.block_of(key).is_none() {
                        let marker = crate::marker::not_kept(Provider::OpenAi, field);
                        self.blocks.text(key, &marker, deltas);
                        self.not_kept.push(field.to_owned());
                    }
                }
                if let Some(text) = delta.refusal.as_deref() {
                    self.refused = true;
                    self.blocks.text(REFUSAL, text, deltas);
                }
                for call in delta.tool_calls.iter().flatten() {
                    let key = self.call_of(call, deltas);
                    self.current = Some(key);
                    let piece = call
                        .function
                        .as_ref()
                        .and_then(|function| function.arguments.as_deref())
                        .unwrap_or_default();
                    self.blocks.input(key, piece, deltas);
                }
            }
            if choice.finish_reason.is_some() {
                self.finish = choice.finish_reason;
            }
        }
        if let Some(usage) = chunk.usage.filter(|usage| usage.get() != "null") {
            let at = At::body(Provider::OpenAi, usage.get()).map_err(|e| Failure::content(&e))?;
            self.counts
                .update(read_usage(&at).map_err(|error| Failure::content(&error))?);
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Reply, Failure> {
        if !self.done {
            return Err(Failure::Cut("data: [DONE]"));
        }
        let stop = if self.refused {
            StopReason::Refusal
        } else {
            StopReason::from_word(self.finish.as_deref(), &FINISH_REASONS)
        };
        let native = self.native();
        Ok(Reply::new(
            Provider::OpenAi,
            self.blocks.blocks(),
            self.counts.usage(),
            stop,
            native,
        )
        .not_keeping(self.not_kept.clone()))
    }

    fn partial(&self) -> StoredMessage {
        self.blocks.partial()
    }
}
