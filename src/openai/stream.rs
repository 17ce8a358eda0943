//! Reading a streamed Chat Completions reply: server-sent events of
//! `chat.completion.chunk`s, ending in `data: [DONE]` (or a dialect's own last chunk).

use serde_json::value::RawValue;
use serde_json::Value;

use super::calls::Calls;
use super::chunk::{AudioDelta, CallDelta, ChoiceDelta, Chunk, Content};
use super::content::{self, Split, ThinkSplit};
use super::error;
use super::native;
use super::reply::{read_usage, Whole};
use crate::dialects::StreamEnd;
use crate::provider::Provider;
use crate::record::{Block, StoredMessage};
use crate::reply::{self, At, Counts, Reply};
use crate::stream::{Blocks, Delta, Events, Fault, Frame, StreamReader};

/// Starts a reader of a streamed Chat Completions reply (`"stream": true`): server-sent
/// events, each a `chat.completion.chunk`, fed the response body's bytes as they arrive.
///
/// The first choice's `delta`s add up to the message [`read_reply`](super::read_reply) reads,
/// and the reply is what it reads of that message, the same rules for a stream and a body:
/// `reasoning_content` or `reasoning` (compatible servers), `content`, `refusal`, and each of
/// `tool_calls`, whose `function.arguments` pieces concatenate to the call's input. The
/// stream ends at `data: [DONE]`, or at the last chunk of its own that the dialect names
/// ([`StreamEnd`](crate::dialects::StreamEnd): Perplexity's `chat.completion.done`); usage comes, when the request asked for it with
/// `stream_options.include_usage`, in a last chunk with `choices: []`, and is read whenever it
/// comes. A chunk with `error` (and no `choices`) is a
/// [`StreamError`](crate::StreamError) carrying the [`ProviderError`](crate::ProviderError),
/// and so is a choice that ends with `finish_reason: "error"` (OpenRouter's, when the upstream
/// provider failed mid-stream, <https://openrouter.ai/docs/api-reference/streaming>: the error
/// beside it or in it, or a server error when it carries none), and so is a stream that ends
/// before its end (`[DONE]`, or the dialect's last chunk): never a short answer.
///
/// Tool-call deltas are matched by their `index`, as OpenAI sends it. Servers compatible with
/// OpenAI's API send deltas without one (<https://github.com/ollama/ollama/issues/7881>,
/// <https://github.com/64bit/async-openai/issues/432>): those are matched by `id`, and a delta
/// with neither continues the last call unless it brings a new name. A new `id` at an index
/// already taken starts a new call, for servers that give every parallel call index 0
/// (<https://github.com/diegosouzapw/OmniRoute/issues/11044>). A call that never gets an id
/// gets one the crate makes, `made_0_{k}` for the reply's call `k` (its number among the
/// executed tools, the deprecated `function_call` and the tool calls, in the order they
/// begin), as [`read_reply`](super::read_reply) makes it (the prefix
/// [`MADE_ID_PREFIX`](crate::MADE_ID_PREFIX)).
/// A custom tool's free-form input (`custom.input`) is stored as its JSON string, as the whole
/// reply's is: its input deltas are the opening quote, each piece escaped, and the closing
/// quote when the choice ends, so that they add up to the stored input.
/// A function call that streams no arguments takes none (`{}`); a choice that ends with no
/// delta (Azure's, stopped by its content filter) ends the reply all the same; the chunks of
/// other choices (`n` > 1) are counted in [`Metadata::other_choices`](crate::Metadata::other_choices).
/// Zero values are absence, as [`read_reply`](super::read_reply) takes them, in every chunk:
/// an empty `refusal` or `finish_reason`, a `function_call` of empty members, a tool-call
/// delta with no id, name or arguments, an empty `type`.
///
/// The reply's blocks are in the whole message's order, as a body's are, while each
/// [`Delta`](crate::Delta)'s block index is its part's place in the order the parts came: the
/// two differ only for a stream whose parts come out of that order (generated audio after the
/// tool calls).
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
    stream_of(Provider::OpenAi)
}

/// A reader of a streamed reply of a provider of the OpenAI Chat surface, under its dialect.
pub(crate) fn stream_of(provider: Provider) -> StreamReader {
    StreamReader::sse(
        provider,
        Box::new(Stream {
            provider: Of(provider),
            think: content::tags_of(provider).map(ThinkSplit::new),
            end: End(provider
                .dialect()
                .map_or(StreamEnd::Done, |dialect| dialect.stream_end)),
            ..Stream::default()
        }),
    )
}

/// The keys of the message's text blocks, apart from its tool calls (keyed from 0 by their
/// order).
const REASONING: usize = usize::MAX;
const CONTENT: usize = usize::MAX - 1;
const REFUSAL: usize = usize::MAX - 2;
/// The key of the transcript of generated audio.
const AUDIO: usize = usize::MAX - 3;
/// The key of the deprecated `function_call`: the call, or its marker, as `read_reply` writes
/// it.
const FUNCTION_CALL: usize = usize::MAX - 4;
/// The key of reasoning in the content: `<think>` tags, or Magistral's `thinking` chunks.
const THINK: usize = usize::MAX - 5;
/// The keys of the sources of annotations, counted down from here.
const ANNOTATIONS: usize = usize::MAX - 1_000;
/// The keys of the executed tools' calls and results, two each, counted down from here.
const EXECUTED: usize = usize::MAX - 2_000;
/// The keys of generated images, counted down from here.
const IMAGES: usize = usize::MAX - 4_000;
/// The keys of the markers of content chunks of a kind the crate does not read, counted down
/// from here.
const UNKNOWN_CHUNKS: usize = usize::MAX - 5_000;

/// The provider a stream is of: OpenAI unless a dialect's reader says otherwise.
#[derive(Debug, Clone, Copy)]
struct Of(Provider);

impl Default for Of {
    fn default() -> Self {
        Of(Provider::OpenAi)
    }
}

/// How the stream ends, by its dialect: `data: [DONE]` unless it says otherwise.
#[derive(Debug, Clone, Copy)]
struct End(StreamEnd);

impl Default for End {
    fn default() -> Self {
        End(StreamEnd::Done)
    }
}

#[derive(Debug, Default)]
struct Stream {
    provider: Of,
    blocks: Blocks,
    calls: Calls,
    finish: Option<String>,
    counts: Counts,
    /// The indexes of the other choices (`n` > 1), which the reply counts.
    other_choices: Vec<usize>,
    end: End,
    done: bool,
    /// The splitter of reasoning in tags, for a dialect whose models write them.
    think: Option<ThinkSplit>,
    /// What the message carries besides its blocks' words, as it came.
    parts: native::Message,
    /// How many calls have begun (executed tools, the deprecated `function_call`, tool
    /// calls): each is the reply's call `k`, in the order it began, as in the whole reply's
    /// blocks, and a call without an id gets `made_0_{k}`.
    made: usize,
    /// A compatible server's top-level `citations` and `search_results`, the last sent.
    citations: Value,
    search_results: Value,
}

/// A text that is not empty.
fn not_empty(text: Option<&str>) -> Option<&str> {
    text.filter(|text| !text.is_empty())
}

impl Stream {
    /// The message the deltas add up to (`native.rs`): with `whole`, all of it, as a body
    /// would carry it, for the whole reply's reader; else as the round sends it back.
    fn message(&mut self, whole: bool) -> String {
        let words = native::Words {
            reasoning: self
                .blocks
                .block_of(REASONING)
                .and_then(Block::into_reasoning),
            content: self.blocks.block_of(CONTENT).and_then(Block::into_text),
            think: self.blocks.block_of(THINK).and_then(Block::into_reasoning),
            refusal: self.blocks.block_of(REFUSAL).and_then(Block::into_text),
            function_call: (self.blocks.block_of(FUNCTION_CALL))
                .is_some_and(|block| block.tool_call().is_some()),
        };
        let calls = self.calls.write(&mut self.blocks);
        self.parts.write(&words, self.think.is_some(), calls, whole)
    }

    /// A piece of `content`: the text, or, for a dialect whose models write `<think>` tags,
    /// what the splitter has decided.
    fn content(&mut self, text: &str, deltas: &mut Vec<Delta>) {
        self.parts.raw_content.push_str(text);
        match self.think.as_mut().map(|think| think.push(text)) {
            Some(splits) => self.splits(splits, deltas),
            None => self.blocks.text(CONTENT, text, deltas),
        }
    }

    /// The content has ended: what the splitter held back.
    fn end_content(&mut self, deltas: &mut Vec<Delta>) {
        if let Some(splits) = self.think.as_mut().map(ThinkSplit::finish) {
            self.splits(splits, deltas);
        }
    }

    fn splits(&mut self, splits: Vec<Split>, deltas: &mut Vec<Delta>) {
        for split in splits {
            match split {
                Split::Reasoning(text) => self.blocks.reasoning(THINK, &text, deltas),
                Split::Text(text) => self.blocks.text(CONTENT, &text, deltas),
            }
        }
    }

    /// One of Groq's `executed_tools`, merged into the one of its `index`: its call and result
    /// blocks, as they stand.
    fn executed_tool(&mut self, tool: Value) {
        let Value::Object(tool) = tool else {
            return;
        };
        let index = tool.get("index").cloned();
        let position = index.as_ref().and_then(|index| {
            (self.parts.executed.iter()).position(|(known, _)| known.get("index") == Some(index))
        });
        let position = match position {
            Some(position) => {
                if let Some((Value::Object(known), _)) = self.parts.executed.get_mut(position) {
                    for (key, value) in tool {
                        if !value.is_null() {
                            known.insert(key, value);
                        }
                    }
                }
                position
            }
            None => {
                // A new call: the reply's next.
                self.parts.executed.push((Value::Object(tool), self.made));
                self.made += 1;
                self.parts.executed.len() - 1
            }
        };
        if let Some((tool, k)) = self.parts.executed.get(position) {
            let pair = super::content::executed_tool(tool, *k);
            for (offset, block) in pair.into_iter().enumerate() {
                self.blocks
                    .set_whole(EXECUTED - 2 * position - offset, block);
            }
        }
    }
}

impl Stream {
    /// The first choice's delta, part by part, in the order the blocks are begun: reasoning,
    /// executed tools, content, annotations, images, audio, then what the record has no block
    /// for, a refusal and the tool calls.
    fn delta(&mut self, raw: &RawValue, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        self.parts.keys.saw_object(raw.get());
        let delta: ChoiceDelta<'_> =
            serde_json::from_str(raw.get()).map_err(|error| Fault::json(&error))?;
        // The reasoning, in whichever field came not empty.
        let reasoning = match (
            not_empty(delta.reasoning_content.as_deref()),
            not_empty(delta.reasoning.as_deref()),
        ) {
            (Some(text), _) => Some(("reasoning_content", text)),
            (None, Some(text)) => Some(("reasoning", text)),
            (None, None) => None,
        };
        if let Some((field, text)) = reasoning {
            self.parts.reasoning_field.get_or_insert(field);
            self.blocks.reasoning(REASONING, text, deltas);
        }
        for tool in delta.executed_tools.into_iter().flatten() {
            self.executed_tool(tool);
        }
        match delta.content {
            Some(Content::Text(text)) => self.content(&text, deltas),
            Some(Content::Chunks(chunks)) => self.content_chunks(chunks, deltas),
            None => {}
        }
        for annotation in delta.annotations.into_iter().flatten() {
            let found = super::content::annotation_sources(std::slice::from_ref(&annotation));
            self.parts.annotations.push(annotation);
            for source in found {
                if !self.blocks.blocks().contains(&source) {
                    self.blocks
                        .whole(ANNOTATIONS - self.parts.annotations.len(), source);
                }
            }
        }
        let images = delta.images.unwrap_or_default();
        let provider = self.provider.0;
        for image in super::content::generated_images(provider, &images, &mut Vec::new()) {
            self.blocks.whole(IMAGES - self.parts.images.len(), image);
        }
        self.parts.images.extend(images);
        if let Some(audio) = delta.audio {
            self.audio_delta(audio, deltas);
        }
        for detail in delta.reasoning_details.into_iter().flatten() {
            self.parts.details.merge(detail);
        }
        // The deprecated single call, as `read_reply` reads it: its name begins it, its
        // arguments come in parts; one that is no object is the marker, once. `null` is
        // `None`: no value.
        let function_call = delta
            .function_call
            .filter(|call| !content::is_zero_text(call.get()));
        if let Some(raw) = function_call {
            let call: Value =
                serde_json::from_str(raw.get()).map_err(|error| Fault::json(&error))?;
            let begun = self.blocks.block_of(FUNCTION_CALL).is_some();
            let name = reply::field(&call, &["name"]).as_str();
            let arguments = reply::field(&call, &["arguments"]).as_str();
            // Its name begins it (an empty one is none); arguments before a name are the
            // marker, as a whole call without one is.
            match (
                call.as_object(),
                begun,
                name.filter(|name| !name.is_empty()),
            ) {
                (Some(_), false, Some(name)) => {
                    let id = reply::made_id(0, self.made);
                    self.made += 1;
                    self.blocks.call(FUNCTION_CALL, &id, name, false, deltas);
                    self.blocks
                        .input(FUNCTION_CALL, arguments.unwrap_or_default(), deltas);
                    self.parts.function_call.take(raw);
                }
                (Some(_), true, _) => {
                    self.blocks
                        .input(FUNCTION_CALL, arguments.unwrap_or_default(), deltas);
                    self.parts.function_call.take(raw);
                }
                (Some(_) | None, false, _) => {
                    let marker = crate::media::marker::not_kept(self.provider.0, "function_call");
                    self.blocks.text(FUNCTION_CALL, &marker, deltas);
                    self.parts.marked_call = Some(raw.to_owned());
                }
                (None, true, _) => {}
            }
        }
        // An empty refusal is none.
        if let Some(text) = delta.refusal.as_deref().filter(|text| !text.is_empty()) {
            self.blocks.text(REFUSAL, text, deltas);
        }
        if let Some(calls) = delta.tool_calls.as_deref() {
            self.call_deltas(calls, deltas)?;
        }
        Ok(())
    }

    /// A `content` that came as an array of chunks (Magistral): thinking, text, and a marker
    /// for a chunk of an unknown type.
    fn content_chunks(&mut self, chunks: Vec<Value>, deltas: &mut Vec<Delta>) {
        self.parts.content_array = true;
        for chunk in chunks {
            match reply::field(&chunk, &["type"]).as_str() {
                Some("thinking") => {
                    let thinking = reply::field(&chunk, &["thinking"]);
                    let text = super::reply::thinking_text(thinking);
                    self.blocks.reasoning(THINK, &text, deltas);
                }
                Some("text") => {
                    let text = reply::field(&chunk, &["text"]);
                    self.content(text.as_str().unwrap_or_default(), deltas);
                }
                kind => {
                    // As `read_reply` marks an unknown part.
                    let marker =
                        crate::media::marker::not_kept(self.provider.0, kind.unwrap_or_default());
                    self.blocks
                        .text(UNKNOWN_CHUNKS - self.parts.chunks.len(), &marker, deltas);
                    self.parts.chunks.push(chunk.clone());
                }
            }
        }
    }

    /// A piece of generated audio: its id, the last sent; its transcript, a text block; its
    /// data, kept for the round.
    fn audio_delta(&mut self, audio: AudioDelta, deltas: &mut Vec<Delta>) {
        let acc = self.parts.audio.get_or_insert_with(native::Audio::default);
        if audio.id.is_some() {
            acc.id = audio.id;
        }
        if let Some(transcript) = audio.transcript.as_deref() {
            acc.transcript.push_str(transcript);
            self.blocks.text(AUDIO, transcript, deltas);
        }
        if let Some(data) = audio.data.as_deref() {
            acc.data.push_str(data);
        }
    }

    /// The pieces of the tool calls: each goes to its call, begun when it is new, with the
    /// call's `extra_content` when it carries one.
    fn call_deltas(&mut self, raw: &[&RawValue], deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        let mut calls = Vec::new();
        for &raw in raw {
            let call: CallDelta =
                serde_json::from_str(raw.get()).map_err(|error| Fault::json(&error))?;
            // A delta of zero values (an empty id, name and arguments, which some servers
            // send in every chunk) is none.
            if call.carries() {
                calls.push((call, raw));
            }
        }
        if !calls.is_empty() {
            // The content is over when the calls begin: what the splitter held back
            // (white space that might have opened `<think>`) takes its place first.
            self.end_content(deltas);
        }
        for (call, raw) in calls {
            self.calls
                .take(&call, raw, &mut self.blocks, &mut self.made, deltas);
        }
        Ok(())
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        let Frame::Event { data, .. } = frame else {
            return Ok(());
        };
        if crate::stream::is_done(data) {
            self.done = true;
            self.end_content(deltas);
            self.calls.end(&mut self.blocks, deltas);
            return Ok(());
        }
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|error| Fault::json(&error))?;
        if chunk.error.is_some_and(|error| error.get() != "null") {
            return Err(Fault::provider(error::read(self.provider.0, None, data)));
        }
        if let Some(citations) = chunk.citations {
            self.citations = citations;
        }
        if let Some(search_results) = chunk.search_results {
            self.search_results = search_results;
        }
        for choice in chunk.choices.into_iter().flatten() {
            // Other choices (`n` > 1) are no part of the reply, as in `read_reply`: counted.
            let index = choice.index.unwrap_or_default();
            if index != 0 {
                if !self.other_choices.contains(&index) {
                    self.other_choices.push(index);
                }
                continue;
            }
            if let Some(delta) = choice.delta.filter(|delta| delta.get() != "null") {
                self.delta(delta, deltas)?;
            }
            if choice.finish_reason.as_deref() == Some("error") {
                let error = error::finished_in_error(self.provider.0, choice.error.as_ref());
                return Err(Fault::provider(error));
            }
            // An empty finish reason is none: some servers send it on every chunk until the
            // last.
            if let Some(finish) = choice.finish_reason.filter(|word| !word.is_empty()) {
                self.finish = Some(finish);
                self.end_content(deltas);
                self.calls.end(&mut self.blocks, deltas);
            }
        }
        let groq_usage = chunk.x_groq.and_then(|x_groq| x_groq.usage);
        for usage in [chunk.usage, groq_usage].into_iter().flatten() {
            if usage.get() == "null" {
                continue;
            }
            let at = At::body(self.provider.0, usage.get()).map_err(|e| Fault::content(&e))?;
            self.counts
                .update(read_usage(&at).map_err(|error| Fault::content(&error))?);
        }
        // A server that sends no `[DONE]` ends with a chunk of its own (Perplexity's).
        if let (StreamEnd::Chunk(last), Some(object)) = (self.end.0, chunk.object.as_deref()) {
            if object == last {
                self.done = true;
                self.end_content(deltas);
                self.calls.end(&mut self.blocks, deltas);
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Reply, Fault> {
        if !self.done {
            return Err(Fault::Cut(match self.end.0 {
                StreamEnd::Done => "data: [DONE]",
                StreamEnd::Chunk(last) => last,
            }));
        }
        self.end_content(&mut Vec::new());
        self.calls.end(&mut self.blocks, &mut Vec::new());
        let message = self.message(true);
        let native = RawValue::from_string(self.message(false)).map_err(|e| Fault::json(&e))?;
        let whole = Whole {
            provider: self.provider.0,
            message: Some(At::body(self.provider.0, &message).map_err(|e| Fault::content(&e))?),
            finish: self.finish.take(),
            usage: self.counts,
            citations: &self.citations,
            search_results: &self.search_results,
            other_choices: self.other_choices.len(),
        };
        whole
            .reply(vec![native])
            .map_err(|error| Fault::content(&error))
    }

    fn partial(&self) -> StoredMessage {
        self.blocks.partial()
    }
}
