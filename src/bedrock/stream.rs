//! Reading a streamed Converse reply (`ConverseStream`): AWS event-stream frames, from
//! `messageStart` to `messageStop`, then `metadata`.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::error::read_exception;
use super::reply::{read_usage, STOP_REASONS};
use crate::provider::Provider;
use crate::provider_error::{ErrorKind, ProviderError};
use crate::record::{Block, StoredMessage};
use crate::reply::{At, Counts, Reply};
use crate::stop::StopReason;
use crate::stream::{native_input, Blocks, Delta, Events, Failure, Frame, StreamReader};

/// Starts a reader of a streamed Converse reply (`POST /model/{modelId}/converse-stream`):
/// AWS event-stream frames (`application/vnd.amazon.eventstream`), both CRCs checked, fed the
/// response body's bytes as they arrive.
///
/// Each frame's `:event-type` says what it is: `contentBlockStart` begins a tool call
/// (`start.toolUse`, its `toolUseId` and name); `contentBlockDelta` adds to the block at its
/// `contentBlockIndex` (`delta.text`, `delta.toolUse.input` pieces, `delta.reasoningContent`
/// text; its `signature` and `redactedContent` are kept for the round in flight, never
/// stored); `messageStop` ends the reply with its `stopReason`; `metadata`, which comes after
/// it, gives the usage. A tool call that streams no input delta has `{}`
/// (<https://github.com/microsoft/autogen/issues/6979>). An exception frame
/// (`throttlingException`, `modelStreamErrorException`, ...) is a
/// [`StreamError`](crate::StreamError) carrying the [`ProviderError`](crate::ProviderError),
/// and so are a CRC that does not match, a frame cut short, and a stream that ends before
/// `messageStop` (a truncated frame read as a short answer was a public bug,
/// <https://github.com/ankit373/hydra/issues/880>). `citation` deltas have no block in the
/// record, as in [`read_reply`](super::read_reply), and are an error.
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

/// What a content block is, by its index, for the round in flight.
#[derive(Debug)]
enum Kind {
    Text,
    Reasoning { signature: String, redacted: String },
    ToolUse,
}

#[derive(Debug, Default)]
struct Stream {
    blocks: Blocks,
    kinds: Vec<(usize, Kind)>,
    counts: Counts,
    stop: Option<String>,
    stopped: bool,
    /// The blocks that carried citations, whose marker follows them.
    cited: Vec<usize>,
    not_kept: Vec<String>,
}

impl Stream {
    /// The kind of the block at `index`, which `new` gives when the block is new.
    fn kind(&mut self, index: usize, new: impl FnOnce() -> Kind) -> Option<&mut Kind> {
        // Searched from the end: deltas go to the newest blocks.
        if !self.kinds.iter().rev().any(|(known, _)| *known == index) {
            self.kinds.push((index, new()));
        }
        self.kinds
            .iter_mut()
            .rev()
            .find(|(known, _)| *known == index)
            .map(|(_, kind)| kind)
    }

    fn delta(
        &mut self,
        index: usize,
        delta: &RawValue,
        deltas: &mut Vec<Delta>,
    ) -> Result<(), Failure> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Piece {
            #[serde(default)]
            text: Option<String>,
            #[serde(default)]
            tool_use: Option<ToolUse>,
            #[serde(default)]
            reasoning_content: Option<Reasoning>,
            #[serde(default)]
            citation: Option<serde::de::IgnoredAny>,
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
        let piece: Piece =
            serde_json::from_str(delta.get()).map_err(|error| Failure::json(&error))?;
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
        if piece.citation.is_some() && !self.cited.contains(&index) {
            // The whole reply carries this block as `citationsContent`: its text, then the
            // marker for the citations, which `contentBlockStop` adds.
            self.cited.push(index);
        }
        Ok(())
    }

    /// The content blocks as Bedrock takes them back in the round in flight: text, tool uses
    /// with their input, reasoning with its signature (or redacted, as it came).
    fn native(&mut self) -> Vec<Box<RawValue>> {
        let kinds = std::mem::take(&mut self.kinds);
        let mut native = Vec::with_capacity(kinds.len());
        for (index, kind) in &kinds {
            // Each block's keys in Bedrock's order; strings written as JSON.
            let string = |text: &str| Value::from(text).to_string();
            let json = match (kind, self.blocks.block_of(*index)) {
                (Kind::Text, Some(Block::Text { text })) => {
                    format!(r#"{{"text":{}}}"#, string(&text))
                }
                (
                    Kind::Reasoning {
                        signature,
                        redacted,
                    },
                    block,
                ) => {
                    if redacted.is_empty() {
                        let text = match block {
                            Some(Block::Reasoning { reasoning }) => reasoning,
                            Some(_) | None => String::new(),
                        };
                        let signature = match signature.is_empty() {
                            true => String::new(),
                            false => format!(r#","signature":{}"#, string(signature)),
                        };
                        format!(
                            r#"{{"reasoningContent":{{"reasoningText":{{"text":{}{signature}}}}}}}"#,
                            string(&text)
                        )
                    } else {
                        format!(
                            r#"{{"reasoningContent":{{"redactedContent":{}}}}}"#,
                            string(redacted)
                        )
                    }
                }
                (
                    Kind::ToolUse,
                    Some(Block::ToolUse {
                        id, name, input, ..
                    }),
                ) => format!(
                    r#"{{"toolUse":{{"toolUseId":{},"name":{},"input":{}}}}}"#,
                    string(&id),
                    string(&name),
                    native_input(&input)
                ),
                (Kind::Text | Kind::ToolUse, _) => continue,
            };
            if let Ok(raw) = RawValue::from_string(json) {
                native.push(raw);
            }
        }
        self.kinds = kinds;
        native
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Failure> {
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
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Start {
            #[serde(default)]
            tool_use: Option<ToolStart>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct ToolStart {
            tool_use_id: String,
            name: String,
        }
        let (name, data) = match frame {
            Frame::Event { name, data } => (name, data),
            Frame::Exception { name, data } => {
                return Err(Failure::provider(read_exception(name, data)))
            }
            Frame::Error { code, message } => {
                return Err(Failure::provider(ProviderError::new(
                    Provider::Bedrock,
                    None,
                    ErrorKind::Other,
                    Some(code.to_owned()),
                    message.to_owned(),
                )))
            }
            Frame::Line(_) => return Ok(()),
        };
        let event: Event<'_> = serde_json::from_str(data).map_err(|error| Failure::json(&error))?;
        let index = event.content_block_index.unwrap_or_default();
        match name {
            "contentBlockStart" => {
                if let Some(start) = event.start {
                    let start: Start =
                        serde_json::from_str(start.get()).map_err(|error| Failure::json(&error))?;
                    if let Some(tool) = start.tool_use {
                        self.kinds.push((index, Kind::ToolUse));
                        self.blocks
                            .call(index, &tool.tool_use_id, &tool.name, true, deltas);
                    }
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
                if let Some(usage) = event.usage.filter(|usage| usage.get() != "null") {
                    let at = At::body(Provider::Bedrock, usage.get())
                        .map_err(|error| Failure::content(&error))?;
                    self.counts
                        .update(read_usage(&at).map_err(|error| Failure::content(&error))?);
                }
            }
            "contentBlockStop" if self.cited.contains(&index) => {
                // A key of its own, after every block index, so it follows the text.
                let key = usize::MAX - index;
                let marker = crate::marker::not_kept(Provider::Bedrock, "citations");
                self.blocks.text(key, &marker, deltas);
                self.not_kept.push("citations".to_owned());
            }
            // `messageStart`, `contentBlockStop`, and event types added later.
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Reply, Failure> {
        if !self.stopped {
            return Err(Failure::Cut("messageStop"));
        }
        let stop = StopReason::from_word(self.stop.as_deref(), &STOP_REASONS);
        let native = self.native();
        Ok(Reply::new(
            Provider::Bedrock,
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
