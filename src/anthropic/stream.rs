//! Reading a streamed Messages reply: server-sent events, from `message_start` to
//! `message_stop`.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::content::{native, text_of, Kind};
use super::error;
use super::reply::{read_usage, reply_of, Said};
use crate::provider::Provider;
use crate::record::{Block, StoredMessage};
use crate::reply::{At, Counts, Reply};
use crate::stream::StreamReader;
use crate::stream::{kind_at, read_content, Blocks, Delta, Events, Fault, Frame};

/// Starts a reader of a streamed Messages reply (`"stream": true`): server-sent events, fed
/// the response body's bytes as they arrive.
///
/// The events build the content blocks as the whole response carries them (a text block's
/// text with its escapes as sent and its citations as they came, thinking with its
/// `signature_delta`s, a call's input from its `input_json_delta` pieces, `{}` when a tool
/// without arguments streams `partial_json: ""`), and [`read_reply`](super::read_reply)'s
/// reader makes the [`Reply`] of them: one reader, whole or streamed. Usage: `message_start`
/// gives the input and cache counts, `message_delta` the stop reason and the output count,
/// which is cumulative (the last stands). Every kind of citation goes back whole: a web search
/// result's `encrypted_index` must be passed back
/// (<https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool>).
///
/// `ping` and event types added later are ignored
/// (<https://docs.anthropic.com/en/api/messages-streaming>: "we may occasionally add new
/// event types"); a `data: [DONE]` after `message_stop` (OpenRouter's,
/// <https://openrouter.ai/docs/api-reference/streaming>) is the end. An `error` event
/// (`overloaded_error` after HTTP 200) is a [`StreamError`](crate::StreamError) carrying the
/// [`ProviderError`](crate::ProviderError), and so is a stream that ends before
/// `message_stop`, which hand-written readers committed as a finished turn
/// (<https://github.com/anthropics/anthropic-sdk-python/issues/688>).
///
/// ```
/// use transcript_replay::{anthropic, Block, Delta};
///
/// let stream = concat!(
///     "event: message_start\n",
///     r#"data: {"type":"message_start","message":{"content":[],"usage":{"input_tokens":9,"output_tokens":1}}}"#, "\n\n",
///     "event: content_block_start\n",
///     r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"ls","input":{}}}"#, "\n\n",
///     "event: content_block_delta\n",
///     r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}"#, "\n\n",
///     "event: content_block_stop\n",
///     r#"data: {"type":"content_block_stop","index":0}"#, "\n\n",
///     "event: message_delta\n",
///     r#"data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}}"#, "\n\n",
///     "event: message_stop\n",
///     r#"data: {"type":"message_stop"}"#, "\n\n",
/// );
/// let mut reader = anthropic::stream();
/// let deltas = reader.feed(stream.as_bytes())?;
/// assert_eq!(deltas, [Delta::ToolCall { block: 0, id: "toolu_1".into(), name: "ls".into() }]);
/// let reply = reader.finish()?;
/// assert_eq!(reply.message.blocks, [Block::tool_use("toolu_1", "ls", transcript_replay::ToolInput::json("{}").unwrap())]);
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
pub fn stream() -> StreamReader {
    StreamReader::sse(Provider::Anthropic, Box::<Stream>::default())
}

#[derive(Debug, Default)]
struct Stream {
    blocks: Blocks,
    kinds: Vec<(usize, Kind)>,
    /// The server tools' calls so far, for their results' names.
    reading: super::reply::Reading,
    counts: Counts,
    stop: Option<String>,
    stopped: bool,
    /// The reply's `container` and `stop_details`, the last sent.
    container: serde_json::Value,
    stop_details: serde_json::Value,
}

impl Stream {
    fn kind(&mut self, index: usize) -> Option<&mut Kind> {
        kind_at(&mut self.kinds, index)
    }

    /// `content_block_start`.
    fn start(
        &mut self,
        index: usize,
        block: &RawValue,
        deltas: &mut Vec<Delta>,
    ) -> Result<(), Fault> {
        #[derive(Deserialize)]
        struct Start<'a> {
            #[serde(rename = "type")]
            kind: &'a str,
            #[serde(borrow, default)]
            text: Option<&'a RawValue>,
            #[serde(default)]
            thinking: Option<String>,
            #[serde(default)]
            signature: Option<String>,
            #[serde(default)]
            id: Option<String>,
            #[serde(default)]
            name: Option<String>,
        }
        let start: Start<'_> =
            serde_json::from_str(block.get()).map_err(|error| Fault::json(&error))?;
        let missing = |field: &str| {
            Fault::Content(format!(
                "content_block: missing field `{field}` in a {} block",
                start.kind
            ))
        };
        let kind = match start.kind {
            "text" => {
                let (text, escaped) = text_of(start.text)?;
                self.blocks.text(index, &text, deltas);
                Kind::Text {
                    escaped: escaped.to_owned(),
                    citations: Vec::new(),
                }
            }
            "thinking" => {
                self.blocks
                    .reasoning(index, start.thinking.as_deref().unwrap_or_default(), deltas);
                Kind::Thinking {
                    signature: start.signature.clone().unwrap_or_default(),
                }
            }
            "redacted_thinking" => Kind::Kept(block.to_owned()),
            "tool_use" => {
                let id = start.id.as_deref().ok_or_else(|| missing("id"))?;
                let name = start.name.as_deref().ok_or_else(|| missing("name"))?;
                self.blocks.call(index, id, name, true, deltas);
                Kind::ToolUse
            }
            // A server tool's call: its input streams as a client tool's does.
            "server_tool_use" | "mcp_tool_use" => {
                let id = start.id.as_deref().ok_or_else(|| missing("id"))?;
                let name = start.name.as_deref().ok_or_else(|| missing("name"))?;
                self.blocks.call(index, id, name, true, deltas);
                self.blocks.provider_executed(index);
                self.reading.calls.push((id.to_owned(), name.to_owned()));
                Kind::ServerToolUse(block.to_owned())
            }
            // A server tool's result, a file put in the container: whole in the start event,
            // read as the whole reply's reader reads them.
            kind if kind.ends_with("_tool_result") || kind == "container_upload" => {
                let at = At::body(Provider::Anthropic, block.get())
                    .map_err(|error| Fault::content(&error))?;
                let read = super::reply::read_block(&at, &mut self.reading)
                    .map_err(|error| Fault::content(&error))?;
                for read in read {
                    self.blocks.whole(index, read);
                }
                Kind::Kept(block.to_owned())
            }
            // The summary that replaces the conversation before it, as the whole reply's
            // reader keeps it; its deltas complete it.
            "compaction" => {
                let value: serde_json::Value =
                    serde_json::from_str(block.get()).map_err(|error| Fault::json(&error))?;
                let empty = || Block::Compaction {
                    summary: None,
                    provider: Some(Provider::Anthropic.id().to_owned()),
                    data: None,
                };
                let block = super::reply::compaction(&value).unwrap_or_else(empty);
                self.blocks.whole(index, block);
                Kind::Compaction
            }
            // The request answered by another model: metadata, no block.
            "fallback" => Kind::Kept(block.to_owned()),
            other => {
                let marker = crate::media::marker::not_kept(Provider::Anthropic, other);
                self.blocks.text(index, &marker, deltas);
                Kind::Kept(block.to_owned())
            }
        };
        self.kinds.push((index, kind));
        Ok(())
    }

    /// `content_block_delta`.
    fn delta(
        &mut self,
        index: usize,
        delta: &RawValue,
        deltas: &mut Vec<Delta>,
    ) -> Result<(), Fault> {
        #[derive(Deserialize)]
        struct Piece<'a> {
            #[serde(rename = "type")]
            kind: &'a str,
            #[serde(borrow, default)]
            text: Option<&'a RawValue>,
            #[serde(default)]
            thinking: Option<String>,
            #[serde(default)]
            partial_json: Option<String>,
            #[serde(default)]
            signature: Option<String>,
            #[serde(borrow, default)]
            citation: Option<&'a RawValue>,
            #[serde(default)]
            content: Option<String>,
            #[serde(default)]
            encrypted_content: Option<String>,
        }
        let piece: Piece<'_> =
            serde_json::from_str(delta.get()).map_err(|error| Fault::json(&error))?;
        if let Some(Kind::Kept(_)) = self.kind(index) {
            // Content the crate does not read: its marker is already its text.
            return Ok(());
        }
        match piece.kind {
            "text_delta" => {
                let (text, escaped) = text_of(piece.text)?;
                self.blocks.text(index, &text, deltas);
                if let Some(Kind::Text {
                    escaped: written, ..
                }) = self.kind(index)
                {
                    written.push_str(escaped);
                }
            }
            "thinking_delta" => {
                self.blocks
                    .reasoning(index, piece.thinking.as_deref().unwrap_or_default(), deltas);
            }
            "input_json_delta" => {
                self.blocks.input(
                    index,
                    piece.partial_json.as_deref().unwrap_or_default(),
                    deltas,
                );
            }
            "signature_delta" => {
                if let Some(Kind::Thinking { signature }) = self.kind(index) {
                    signature.push_str(piece.signature.as_deref().unwrap_or_default());
                }
            }
            // The compaction's summary, in parts, and its opaque payload
            // (spec `BetaCompactionContentBlockDelta`).
            "compaction_delta" => {
                if let Some(Block::Compaction { summary, data, .. }) = self.blocks.whole_mut(index)
                {
                    if let Some(text) = piece.content.filter(|text| !text.is_empty()) {
                        summary.get_or_insert_with(String::new).push_str(&text);
                    }
                    if let Some(payload) = piece.encrypted_content.filter(|text| !text.is_empty()) {
                        *data = Some(payload);
                    }
                }
            }
            // A source of the text: it goes back on the text block, as it came, and its block
            // follows the text's, at the text's stop.
            "citations_delta" => {
                if let (Some(raw), Some(Kind::Text { citations, .. })) =
                    (piece.citation, self.kind(index))
                {
                    citations.push(raw.to_owned());
                }
            }
            // Anything newer is not content yet.
            _ => {}
        }
        Ok(())
    }

    /// The reply's `container` and `stop_details`, where an event sends them: the last that
    /// is not `null` stands.
    fn metadata(&mut self, container: serde_json::Value, stop_details: serde_json::Value) {
        if !container.is_null() {
            self.container = container;
        }
        if !stop_details.is_null() {
            self.stop_details = stop_details;
        }
    }

    /// The sources of the text block at `index`, right after it, at its stop (for the partial
    /// message, and so that the blocks after it are numbered as the reply's).
    fn place_sources(&mut self, index: usize) {
        let Some(Kind::Text { citations, .. }) = self.kind(index) else {
            return;
        };
        let cited: Vec<serde_json::Value> = citations
            .iter()
            .filter_map(|raw| serde_json::from_str(raw.get()).ok())
            .collect();
        self.blocks
            .sources_after(index, super::reply::sources(&cited));
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        #[derive(Deserialize)]
        struct Event<'a> {
            #[serde(rename = "type")]
            kind: &'a str,
            #[serde(default)]
            index: Option<usize>,
            #[serde(borrow, default)]
            content_block: Option<&'a RawValue>,
            #[serde(borrow, default)]
            delta: Option<&'a RawValue>,
            #[serde(borrow, default)]
            message: Option<&'a RawValue>,
            #[serde(borrow, default)]
            usage: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct MessageStart<'a> {
            #[serde(borrow, default)]
            usage: Option<&'a RawValue>,
            #[serde(default)]
            container: serde_json::Value,
            #[serde(default)]
            stop_details: serde_json::Value,
        }
        #[derive(Deserialize)]
        struct MessageDelta {
            #[serde(default)]
            stop_reason: Option<String>,
            #[serde(default)]
            container: serde_json::Value,
            #[serde(default)]
            stop_details: serde_json::Value,
        }
        let Frame::Event { data, .. } = frame else {
            return Ok(());
        };
        // A `[DONE]` some servers send after the terminal event (OpenRouter's) is no event.
        if crate::stream::is_done(data) {
            return Ok(());
        }
        let event: Event<'_> = serde_json::from_str(data).map_err(|error| Fault::json(&error))?;
        let usage = |raw: Option<&RawValue>| -> Result<Counts, Fault> {
            match raw.filter(|raw| raw.get() != "null") {
                Some(raw) => {
                    let at =
                        At::body(Provider::Anthropic, raw.get()).map_err(|e| Fault::content(&e))?;
                    read_usage(&at).map_err(|error| Fault::content(&error))
                }
                None => Ok(Counts::default()),
            }
        };
        let index = event.index.unwrap_or_default();
        match event.kind {
            "message_start" => {
                if let Some(message) = event.message {
                    let start: MessageStart<'_> =
                        serde_json::from_str(message.get()).map_err(|error| Fault::json(&error))?;
                    self.counts.update(usage(start.usage)?);
                    self.metadata(start.container, start.stop_details);
                }
            }
            "content_block_start" => {
                if let Some(block) = event.content_block {
                    self.start(index, block, deltas)?;
                }
            }
            "content_block_delta" => {
                if let Some(delta) = event.delta {
                    self.delta(index, delta, deltas)?;
                }
            }
            "message_delta" => {
                if let Some(delta) = event.delta {
                    let delta: MessageDelta =
                        serde_json::from_str(delta.get()).map_err(|error| Fault::json(&error))?;
                    if delta.stop_reason.is_some() {
                        self.stop = delta.stop_reason;
                    }
                    self.metadata(delta.container, delta.stop_details);
                }
                self.counts.update(usage(event.usage)?);
            }
            "content_block_stop" => self.place_sources(index),
            "message_stop" => self.stopped = true,
            "error" => return Err(Fault::provider(error::read(None, data))),
            // `ping`, and event types added later.
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Reply, Fault> {
        if !self.stopped {
            return Err(Fault::Cut("message_stop"));
        }
        let native = native(&self.kinds, &mut self.blocks);
        let said = Said {
            usage: self.counts.usage(),
            stop: self.stop.as_deref(),
            container: &self.container,
            stop_details: &self.stop_details,
        };
        let streamed = self.blocks.blocks();
        // The content the events built, read as the whole reply's.
        read_content(Provider::Anthropic, &native, |at, items| {
            reply_of(at, items, said, Some(&streamed))
        })
    }

    fn partial(&self) -> StoredMessage {
        self.blocks.partial()
    }
}
