//! Reading a streamed Converse reply (`ConverseStream`): AWS event-stream frames, from
//! `messageStart` to `messageStop`, then `metadata`.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::content::{native, tool_result, Kind};
use super::error::read_exception;
use super::reply::{read_usage, reply_of, Reading, Said, SERVER_TOOL_USE};
use crate::errors::provider::{ProviderError, ProviderErrorKind};
use crate::provider::Provider;
use crate::record::{Block, StoredMessage};
use crate::reply::{At, Counts, Reply};
use crate::stream::StreamReader;
use crate::stream::{kind_at, read_content, Blocks, Delta, Events, Fault, Frame};

/// Starts a reader of a streamed Converse reply (`POST /model/{modelId}/converse-stream`):
/// AWS event-stream frames (`application/vnd.amazon.eventstream`), both CRCs checked, fed the
/// response body's bytes as they arrive.
///
/// The events build the content blocks as the whole response carries them
/// (`contentBlockStart` a tool call, a Nova built-in tool's call (`"type":
/// "server_tool_use"`) or result, or a generated image; `contentBlockDelta` its text, input
/// pieces, result items, image bytes, citations, reasoning with its `signature` or
/// `redactedContent`), and [`read_reply`](super::read_reply)'s reader makes the [`Reply`] of
/// them: one reader, whole or streamed. `messageStop` gives the stop reason, the `metadata`
/// after it the usage and the guardrail's trace. A tool call that streams no input delta has
/// `{}` (<https://github.com/microsoft/autogen/issues/6979>). An exception frame
/// (`throttlingException`, `modelStreamErrorException`, ...) is a
/// [`StreamError`](crate::StreamError) carrying the [`ProviderError`](crate::ProviderError),
/// and so are a CRC that does not match, a frame cut short, and a stream that ends before
/// `messageStop` (a truncated frame read as a short answer was a public bug,
/// <https://github.com/ankit373/hydra/issues/880>).
///
/// ```
/// use transcript_replay::{bedrock, Block};
///
/// // One frame: {"contentBlockIndex":0,"delta":{"text":"Hi"}} as a `contentBlockDelta` event,
/// // with both CRCs (the crate's tests build frames the same way).
/// fn frame(event: &str, payload: &str) -> Vec<u8> {
///     let mut headers = Vec::new();
///     for (name, value) in [(":message-type", "event"), (":event-type", event)] {
///         headers.push(name.len() as u8);
///         headers.extend_from_slice(name.as_bytes());
///         headers.push(7);
///         headers.extend_from_slice(&(value.len() as u16).to_be_bytes());
///         headers.extend_from_slice(value.as_bytes());
///     }
///     let total = 16 + headers.len() + payload.len();
///     let mut frame = Vec::new();
///     frame.extend_from_slice(&(total as u32).to_be_bytes());
///     frame.extend_from_slice(&(headers.len() as u32).to_be_bytes());
///     frame.extend_from_slice(&crc32(&frame).to_be_bytes());
///     frame.extend_from_slice(&headers);
///     frame.extend_from_slice(payload.as_bytes());
///     frame.extend_from_slice(&crc32(&frame).to_be_bytes());
///     frame
/// }
/// fn crc32(bytes: &[u8]) -> u32 {
///     !bytes.iter().fold(!0u32, |mut crc, &byte| {
///         crc ^= u32::from(byte);
///         for _ in 0..8 {
///             crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
///         }
///         crc
///     })
/// }
///
/// let mut reader = bedrock::stream();
/// reader.feed(&frame("messageStart", r#"{"role":"assistant"}"#))?;
/// reader.feed(&frame("contentBlockDelta", r#"{"contentBlockIndex":0,"delta":{"text":"Hi"},"p":"abcd"}"#))?;
/// reader.feed(&frame("contentBlockStop", r#"{"contentBlockIndex":0}"#))?;
/// reader.feed(&frame("messageStop", r#"{"stopReason":"end_turn"}"#))?;
/// reader.feed(&frame("metadata", r#"{"usage":{"inputTokens":5,"outputTokens":1,"totalTokens":6},"metrics":{"latencyMs":100}}"#))?;
/// let reply = reader.finish()?;
/// assert_eq!(reply.message.blocks, [Block::text("Hi")]);
/// assert_eq!(reply.message.usage.map(|usage| usage.input_tokens), Some(5));
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
pub fn stream() -> StreamReader {
    StreamReader::event_stream(Provider::Bedrock, Box::<Stream>::default())
}

#[derive(Debug, Default)]
struct Stream {
    blocks: Blocks,
    kinds: Vec<(usize, Kind)>,
    /// The provider-executed calls so far, for their results' names.
    reading: Reading,
    counts: Counts,
    stop: Option<String>,
    stopped: bool,
    /// The guardrail's trace, from the `metadata` event.
    guardrail: Option<String>,
}

impl Stream {
    /// The kind of the block at `index`, which `new` gives when the block is new.
    fn kind(&mut self, index: usize, new: impl FnOnce() -> Kind) -> Option<&mut Kind> {
        if !self.kinds.iter().rev().any(|(known, _)| *known == index) {
            self.kinds.push((index, new()));
        }
        kind_at(&mut self.kinds, index)
    }

    fn delta(
        &mut self,
        index: usize,
        delta: &RawValue,
        deltas: &mut Vec<Delta>,
    ) -> Result<(), Fault> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Piece<'a> {
            #[serde(default)]
            text: Option<String>,
            #[serde(default)]
            tool_use: Option<ToolUse>,
            #[serde(borrow, default)]
            tool_result: Option<Vec<&'a RawValue>>,
            #[serde(default)]
            reasoning_content: Option<Reasoning>,
            #[serde(default)]
            citation: Option<Value>,
            #[serde(default)]
            image: Option<Value>,
        }
        #[derive(Deserialize)]
        struct ToolUse {
            #[serde(default)]
            input: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Reasoning {
            #[serde(default)]
            text: Option<String>,
            #[serde(default)]
            signature: Option<String>,
            #[serde(default)]
            redacted_content: Option<String>,
        }
        let piece: Piece<'_> =
            serde_json::from_str(delta.get()).map_err(|error| Fault::json(&error))?;
        if let Some(text) = piece.text {
            self.kind(index, || Kind::Text);
            self.blocks.text(index, &text, deltas);
        }
        if let Some(tool_use) = piece.tool_use {
            self.blocks
                .input(index, tool_use.input.as_deref().unwrap_or_default(), deltas);
        }
        if let Some(reasoning) = piece.reasoning_content {
            let new = || Kind::Reasoning {
                signature: String::new(),
                redacted: String::new(),
            };
            if let Some(Kind::Reasoning {
                signature,
                redacted,
            }) = self.kind(index, new)
            {
                signature.push_str(reasoning.signature.as_deref().unwrap_or_default());
                redacted.push_str(reasoning.redacted_content.as_deref().unwrap_or_default());
            }
            if let Some(text) = reasoning.text {
                self.blocks.reasoning(index, &text, deltas);
            }
        }
        if let Some(items) = piece.tool_result {
            self.result_items(index, &items)?;
        }
        if let Some(image) = piece.image {
            let bytes = crate::reply::field(&image, &["source", "bytes"]);
            if let (Some(bytes), Some(Block::Image { data, .. })) =
                (bytes.as_str(), self.blocks.whole_mut(index))
            {
                data.push_str(bytes);
            }
        }
        if let Some(citation) = piece.citation {
            // The whole reply carries this block as `citationsContent`: its text and citations.
            let new = || Kind::Cited {
                citations: Vec::new(),
                placed: false,
            };
            match self.kind(index, new) {
                Some(Kind::Cited { citations, .. }) => citations.push(citation),
                Some(kind @ Kind::Text) => {
                    *kind = Kind::Cited {
                        citations: vec![citation],
                        placed: false,
                    };
                }
                Some(
                    Kind::Reasoning { .. }
                    | Kind::ToolUse
                    | Kind::ServerToolUse(_)
                    | Kind::ToolResult { .. }
                    | Kind::Image { .. },
                )
                | None => {}
            }
        }
        Ok(())
    }

    /// Content items of the provider-executed tool's result at `index`, kept as they came; the
    /// result so far shows their text (the whole reader's, at the end).
    fn result_items(&mut self, index: usize, items: &[&RawValue]) -> Result<(), Fault> {
        let Some(Kind::ToolResult {
            start,
            items: known,
        }) = kind_at(&mut self.kinds, index)
        else {
            // A result that never started: nothing to add it to.
            return Ok(());
        };
        known.extend(items.iter().map(|&item| item.to_owned()));
        let read = tool_result(start, known).map(|json| read_block(&json, &mut self.reading));
        if let (Some(block), Some(whole)) = (
            read.transpose()?.and_then(|mut read| read.pop()),
            self.blocks.whole_mut(index),
        ) {
            *whole = block;
        }
        Ok(())
    }

    /// The sources of the cited block at `index`, right after it, once.
    fn place_sources(&mut self, index: usize) {
        let Some(Kind::Cited { citations, placed }) = kind_at(&mut self.kinds, index) else {
            return;
        };
        if std::mem::replace(placed, true) {
            return;
        }
        let sources = super::reply::sources(citations);
        self.blocks.sources_after(index, sources);
    }

    /// A `contentBlockStart` event's `start`: a tool call (the provider's own, for Nova's
    /// built-in tools), a generated image, or a server tool's result, whose content the deltas
    /// that follow carry.
    fn start(
        &mut self,
        index: usize,
        start: &RawValue,
        deltas: &mut Vec<Delta>,
    ) -> Result<(), Fault> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Start<'a> {
            #[serde(borrow, default)]
            tool_use: Option<&'a RawValue>,
            #[serde(borrow, default)]
            tool_result: Option<&'a RawValue>,
            #[serde(default)]
            image: Option<Value>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct ToolStart {
            tool_use_id: String,
            name: String,
            #[serde(rename = "type", default)]
            kind: Option<String>,
        }
        let start: Start<'_> =
            serde_json::from_str(start.get()).map_err(|error| Fault::json(&error))?;
        if let Some(raw) = start.tool_use {
            let tool: ToolStart =
                serde_json::from_str(raw.get()).map_err(|error| Fault::json(&error))?;
            self.blocks
                .call(index, &tool.tool_use_id, &tool.name, true, deltas);
            if tool.kind.as_deref() == Some(SERVER_TOOL_USE) {
                // Nova's built-in tools: the provider runs the call.
                self.blocks.provider_executed(index);
                self.reading.calls.push((tool.tool_use_id, tool.name));
                self.kinds
                    .push((index, Kind::ServerToolUse(raw.to_owned())));
            } else {
                self.kinds.push((index, Kind::ToolUse));
            }
        }
        if let Some(format) = start
            .image
            .as_ref()
            .and_then(|image| image.get("format"))
            .and_then(Value::as_str)
        {
            // A generated image: its bytes come in the deltas that follow.
            let media_type = format!("image/{format}");
            self.blocks.whole(index, Block::image(media_type, ""));
            self.kinds.push((
                index,
                Kind::Image {
                    format: format.to_owned(),
                },
            ));
        }
        if let Some(raw) = start.tool_result {
            // Its content comes in the deltas that follow.
            let json = tool_result(raw, &[]).ok_or(Fault::Content(
                "contentBlockStart: a toolResult must be an object".to_owned(),
            ))?;
            for block in read_block(&json, &mut self.reading)? {
                self.blocks.whole(index, block);
            }
            let (start, items) = (raw.to_owned(), Vec::new());
            self.kinds.push((index, Kind::ToolResult { start, items }));
        }
        Ok(())
    }
}

/// The blocks the whole reply's reader makes of a content block's JSON text.
fn read_block(json: &str, reading: &mut Reading) -> Result<Vec<Block>, Fault> {
    let at = At::body(Provider::Bedrock, json).map_err(|error| Fault::content(&error))?;
    super::reply::read_block(&at, reading).map_err(|error| Fault::content(&error))
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Event<'a> {
            #[serde(default)]
            content_block_index: Option<usize>,
            #[serde(borrow, default)]
            start: Option<&'a RawValue>,
            #[serde(borrow, default)]
            delta: Option<&'a RawValue>,
            #[serde(default)]
            stop_reason: Option<String>,
            #[serde(borrow, default)]
            usage: Option<&'a RawValue>,
            #[serde(borrow, default)]
            trace: Option<&'a RawValue>,
        }
        let (name, data) = match frame {
            Frame::Event { name, data } => (name, data),
            Frame::Exception { name, data } => {
                return Err(Fault::provider(read_exception(name, data)))
            }
            Frame::Error { code, message } => {
                return Err(Fault::provider(ProviderError::new(
                    Provider::Bedrock,
                    None,
                    ProviderErrorKind::Other,
                    Some(code.to_owned()),
                    message.to_owned(),
                )))
            }
            Frame::Line(_) => return Ok(()),
        };
        let event: Event<'_> = serde_json::from_str(data).map_err(|error| Fault::json(&error))?;
        let index = event.content_block_index.unwrap_or_default();
        match name {
            "contentBlockStart" => {
                if let Some(start) = event.start {
                    self.start(index, start, deltas)?;
                }
            }
            "contentBlockDelta" => {
                if let Some(delta) = event.delta {
                    self.delta(index, delta, deltas)?;
                }
            }
            "messageStop" => {
                self.stopped = true;
                self.stop = event.stop_reason;
            }
            "metadata" => {
                if let Some(trace) = event.trace.and_then(super::reply::guardrail_trace) {
                    self.guardrail = Some(trace);
                }
                if let Some(usage) = event.usage.filter(|usage| usage.get() != "null") {
                    let at = At::body(Provider::Bedrock, usage.get())
                        .map_err(|error| Fault::content(&error))?;
                    self.counts
                        .update(read_usage(&at).map_err(|error| Fault::content(&error))?);
                }
            }
            "contentBlockStop" => self.place_sources(index),
            // `messageStart`, and event types added later.
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Reply, Fault> {
        if !self.stopped {
            return Err(Fault::Cut("messageStop"));
        }
        let native = native(&self.kinds, &mut self.blocks);
        let said = Said {
            usage: self.counts.usage(),
            stop: self.stop.as_deref(),
            guardrail_trace: self.guardrail.clone(),
        };
        let streamed = self.blocks.blocks();
        // The content the events built, read as the whole reply's.
        read_content(Provider::Bedrock, &native, |at, items| {
            reply_of(at, items, said, Some(&streamed))
        })
    }

    fn partial(&self) -> StoredMessage {
        self.blocks.partial()
    }
}
