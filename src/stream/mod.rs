//! Streamed replies: a pure reader fed a response body's bytes as they arrive, in chunks split
//! anywhere, that yields deltas for display and, at the end, the [`Reply`] that `read_reply`
//! gives for the same response.
//!
//! What every provider shares is here: the framings (server-sent events, `sse.rs`; AWS's
//! event stream, `event_stream.rs`), the reader a runtime holds ([`StreamReader`]), the
//! deltas, the errors, and the building of a reply's blocks from deltas (`blocks.rs`). Each
//! provider module reads its own events (its `stream.rs`), handed to it as frames. Why:
//! `docs/design.md#streams` in the repository.
//!
//! # Guarantees
//!
//! - **Split-independence**: however the bytes are split, the reader gives the same deltas
//!   (joined) and the same reply as `read_reply` on the whole body, and a reply that called
//!   tools makes the same round in flight, for the five providers and every dialect
//!   (`conformance/tests/conformance/stream_chunking.rs`, `conformance/tests/conformance/stream_golden.rs`).
//! - **A failed stream is never a finished turn**: error events, exception frames, CRC
//!   mismatches, frames cut short, data that is no JSON and bytes that end before the terminal
//!   event are each a [`StreamError`] that says what and where, and offers the partial message
//!   for display only (`conformance/tests/conformance/stream_failures.rs`).
//! - What providers do in their streams that hand-written readers trip over, each read right
//!   (`conformance/tests/conformance/stream_pitfalls.rs`).

mod blocks;
mod event_stream;
mod sse;

use std::fmt;

use crate::errors::stream::Failed;
pub(crate) use crate::errors::stream::Fault;
pub(crate) use crate::errors::stream::StreamError;
use crate::provider::Provider;
use crate::record::StoredMessage;
use crate::reply::Reply;

pub(crate) use self::blocks::{kind_at, native_input, read_content, streamed_inputs, Blocks};
use self::event_stream::EventStream;
use self::sse::Sse;

/// A piece of a reply as it streams, for display: concatenated, a block's text deltas are its
/// stored text, and a call's input pieces are its stored input.
///
/// `block` is the index of the block in the finished reply's
/// [`message.blocks`](crate::Reply::message): a block gets its index when its first content
/// arrives (so an empty block, which is never stored, has none), and blocks are stored in the
/// order they began (unless a provider's reader documents otherwise, for parts that come out
/// of a whole reply's order).
///
/// ```
/// use transcript_replay::{anthropic, Delta};
///
/// let mut reader = anthropic::stream();
/// let deltas = reader.feed(concat!(
///     "event: content_block_start\n",
///     r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#, "\n\n",
///     "event: content_block_delta\n",
///     r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#, "\n\n",
/// ).as_bytes())?;
/// assert_eq!(deltas, [Delta::Text { block: 0, text: "Hi".into() }]);
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Delta {
    /// Text the model wrote.
    Text {
        /// The index of the block it belongs to.
        block: usize,
        /// The text, as it came.
        text: String,
    },
    /// Reasoning the model wrote as text.
    Reasoning {
        /// The index of the block it belongs to.
        block: usize,
        /// The text, as it came.
        text: String,
    },
    /// A tool call starting.
    ToolCall {
        /// The index of its block.
        block: usize,
        /// The call's id (made by the crate, `made_...`, when the provider gave none).
        id: String,
        /// The tool's name.
        name: String,
    },
    /// A piece of a tool call's input, as it came.
    ToolInput {
        /// The index of the call's block.
        block: usize,
        /// The piece of the input's JSON text.
        piece: String,
    },
}

/// A frame of a stream, handed to the provider's reader: a server-sent event, a line that is
/// no field of the format, or an event-stream frame.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Frame<'a> {
    /// A server-sent event (`name` empty when it had no `event:` line), or an event-stream
    /// event (`name` its `:event-type`), with its data.
    Event { name: &'a str, data: &'a str },
    /// A line of server-sent events that is no field the format knows.
    Line(&'a str),
    /// An event-stream exception, named by `:exception-type`.
    Exception { name: &'a str, data: &'a str },
    /// An event-stream error.
    Error { code: &'a str, message: &'a str },
}

/// Whether an event's data is `[DONE]`: the end of OpenAI Chat's streams, which some servers
/// also send after a surface's own terminal event (OpenRouter after Responses'
/// `response.completed` and Anthropic's `message_stop`,
/// <https://openrouter.ai/docs/api-reference/streaming>). It carries nothing: a reader whose
/// surface ends on an event of its own skips it, and still ends only at that event.
pub(crate) fn is_done(data: &str) -> bool {
    data.trim() == "[DONE]"
}

/// What a provider's reader does with its stream's frames.
pub(crate) trait Events: Send + Sync + fmt::Debug {
    /// Reads one frame, adding the deltas it carries.
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault>;

    /// The reply, once the bytes have ended: an error when they ended before the provider's
    /// terminal event.
    fn finish(&mut self) -> Result<Reply, Fault>;

    /// The message so far, for display after a failure.
    fn partial(&self) -> StoredMessage;
}

/// How a provider frames its stream.
#[derive(Debug)]
enum Framing {
    Sse(Sse),
    EventStream(EventStream),
}

impl Framing {
    fn offset(&self) -> usize {
        match self {
            Framing::Sse(sse) => sse.offset(),
            Framing::EventStream(stream) => stream.offset(),
        }
    }
}

/// A reader of one streamed reply: fed the response body's bytes as they arrive, in chunks
/// split anywhere (inside a UTF-8 sequence, a line, a CRLF pair, a frame), it yields
/// [`Delta`]s for display and, at the end, the [`Reply`] that the provider's `read_reply`
/// gives for the same response, with each tool input the concatenation of the pieces the
/// stream carried (stored without the white space between its tokens when it is a JSON
/// value, as `read_reply` stores it, so the two are equal). Pure: no I/O, no clock.
///
/// Each provider module starts one (`anthropic::stream()`, ...), and so does
/// [`Provider::stream`](crate::Provider::stream). What each provider sends, and what runtimes
/// have tripped over, is in its module's documentation.
///
/// - **Split-independence**: any chunking of the same bytes gives the same deltas (joined) and
///   the same reply.
/// - **Failures are never a finished turn**: an error event, a frame whose CRC does not match,
///   data that is not the JSON the provider sends, or bytes that end before the provider's
///   terminal event are a [`StreamError`], which says what and where, carries the provider's
///   error when there is one, and offers the partial message for display only.
/// - After a failure, every call returns that failure.
///
/// ```
/// use transcript_replay::{anthropic, Block, StopReason};
///
/// let stream = concat!(
///     "event: message_start\n",
///     r#"data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"usage":{"input_tokens":12,"output_tokens":1}}}"#, "\n\n",
///     "event: content_block_start\n",
///     r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#, "\n\n",
///     "event: content_block_delta\n",
///     r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is "}}"#, "\n\n",
///     "event: content_block_delta\n",
///     r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"empty."}}"#, "\n\n",
///     "event: content_block_stop\n",
///     r#"data: {"type":"content_block_stop","index":0}"#, "\n\n",
///     "event: message_delta\n",
///     r#"data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}"#, "\n\n",
///     "event: message_stop\n",
///     r#"data: {"type":"message_stop"}"#, "\n\n",
/// );
/// let mut reader = anthropic::stream();
/// let mut shown = String::new();
/// // Bytes as the network hands them: here, 7 at a time.
/// for chunk in stream.as_bytes().chunks(7) {
///     for delta in reader.feed(chunk)? {
///         if let transcript_replay::Delta::Text { text, .. } = delta {
///             shown.push_str(&text);
///         }
///     }
/// }
/// let reply = reader.finish()?;
/// assert_eq!(shown, "It is empty.");
/// assert_eq!(reply.message.blocks, [Block::text("It is empty.")]);
/// assert_eq!(reply.stop, StopReason::EndTurn);
/// assert_eq!(reply.message.usage.map(|usage| usage.output_tokens), Some(5));
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
#[derive(Debug)]
pub struct StreamReader {
    provider: Provider,
    framing: Framing,
    events: Box<dyn Events>,
    /// How many events have been handed to the provider's reader.
    count: usize,
    /// Whether any delta has been yielded.
    started: bool,
    /// Whether the end of the bytes has been read.
    ended: bool,
    failed: Option<StreamError>,
}

impl StreamReader {
    /// A reader of server-sent events, for a provider's events.
    pub(crate) fn sse(provider: Provider, events: Box<dyn Events>) -> Self {
        StreamReader::new(provider, Framing::Sse(Sse::default()), events)
    }

    /// A reader of AWS event-stream frames, for a provider's events.
    pub(crate) fn event_stream(provider: Provider, events: Box<dyn Events>) -> Self {
        StreamReader::new(
            provider,
            Framing::EventStream(EventStream::default()),
            events,
        )
    }

    fn new(provider: Provider, framing: Framing, events: Box<dyn Events>) -> Self {
        StreamReader {
            provider,
            framing,
            events,
            count: 0,
            started: false,
            ended: false,
            failed: None,
        }
    }

    /// Reads the next bytes of the stream, and returns the deltas they completed.
    ///
    /// # Errors
    ///
    /// A [`StreamError`] when the stream failed: an error event, a broken frame, or data that
    /// is not the JSON the provider sends. Every later call returns the same error.
    ///
    /// ```
    /// use transcript_replay::openai;
    ///
    /// let mut reader = openai::stream();
    /// let deltas = reader.feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n")?;
    /// assert!(deltas.is_empty()); // the event is not closed yet
    /// let deltas = reader.feed(b"\n")?;
    /// assert_eq!(deltas.len(), 1);
    /// # Ok::<(), transcript_replay::StreamError>(())
    /// ```
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Delta>, StreamError> {
        self.read(|framing, sink| match framing {
            Framing::Sse(sse) => sse.feed(bytes, sink),
            Framing::EventStream(stream) => stream.feed(bytes, sink),
        })
    }

    /// Says that the bytes have ended, and returns the deltas of a last event the stream did
    /// not close (a server may close the connection right after its last line). Call it
    /// before [`finish`](StreamReader::finish) to show every delta; `finish` ends the bytes
    /// itself when it has not been called.
    ///
    /// # Errors
    ///
    /// As [`feed`](StreamReader::feed), and when the bytes end inside a frame.
    ///
    /// ```
    /// use transcript_replay::openai;
    ///
    /// let mut reader = openai::stream();
    /// reader.feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]")?;
    /// assert!(reader.end()?.is_empty());
    /// assert_eq!(reader.finish()?.message.blocks.len(), 1);
    /// # Ok::<(), transcript_replay::StreamError>(())
    /// ```
    pub fn end(&mut self) -> Result<Vec<Delta>, StreamError> {
        if self.ended {
            return match &self.failed {
                Some(error) => Err(error.clone()),
                None => Ok(Vec::new()),
            };
        }
        self.ended = true;
        self.read(|framing, sink| match framing {
            Framing::Sse(sse) => sse.finish(sink),
            Framing::EventStream(stream) => stream.finish(),
        })
    }

    /// The reply, once the stream has ended: the stored message, why the model stopped, and
    /// which calls' inputs are not complete JSON.
    ///
    /// # Errors
    ///
    /// A [`StreamError`] when the stream failed, or when its bytes ended before the
    /// provider's terminal event (a cut connection is no finished turn).
    ///
    /// ```
    /// use transcript_replay::anthropic;
    ///
    /// let mut reader = anthropic::stream();
    /// reader.feed(b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[],\"usage\":{\"input_tokens\":3}}}\n\n")?;
    /// let error = reader.finish().unwrap_err();
    /// assert_eq!(error.to_string(), "Anthropic stream, byte 105: the stream ended before its terminal event, message_stop");
    /// # Ok::<(), transcript_replay::StreamError>(())
    /// ```
    pub fn finish(mut self) -> Result<Reply, StreamError> {
        self.end()?;
        self.events.finish().map_err(|failure| {
            let offset = self.framing.offset();
            self.error(failure, None, offset)
        })
    }

    /// The provider whose stream this is.
    ///
    /// ```
    /// assert_eq!(transcript_replay::bedrock::stream().provider().id(), "bedrock");
    /// ```
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The message so far, for display: what the deltas yielded until now add up to.
    ///
    /// ```
    /// let reader = transcript_replay::gemini::stream();
    /// assert!(reader.partial().blocks.is_empty());
    /// ```
    pub fn partial(&self) -> StoredMessage {
        self.events.partial()
    }

    /// Runs the framing over some bytes, handing its frames to the provider's reader.
    fn read(
        &mut self,
        run: impl FnOnce(
            &mut Framing,
            &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
        ) -> Result<(), (Fault, usize)>,
    ) -> Result<Vec<Delta>, StreamError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let mut deltas = Vec::new();
        let mut failed_event = None;
        let events = &mut self.events;
        let count = &mut self.count;
        let mut sink = |frame: Frame<'_>, _offset: usize| {
            let number = match frame {
                Frame::Line(_) => None,
                Frame::Event { .. } | Frame::Exception { .. } | Frame::Error { .. } => {
                    *count += 1;
                    Some(*count - 1)
                }
            };
            let read = events.event(frame, &mut deltas);
            if read.is_err() {
                failed_event = number;
            }
            read
        };
        let result = run(&mut self.framing, &mut sink);
        self.started |= !deltas.is_empty();
        match result {
            Ok(()) => Ok(deltas),
            Err((failure, offset)) => {
                let error = self.error(failure, failed_event, offset);
                self.failed = Some(error.clone());
                Err(error)
            }
        }
    }

    fn error(&self, failure: Fault, event: Option<usize>, offset: usize) -> StreamError {
        StreamError(Box::new(Failed {
            provider: self.provider,
            event,
            offset,
            failure,
            started: self.started,
            partial: self.events.partial(),
        }))
    }
}
