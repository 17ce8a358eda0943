//! Why a stream failed: the provider's error, bytes cut short, JSON or content that is not
//! what the provider sends, a broken frame; with where (event and byte) and the message so far.

use std::fmt;

use crate::errors::provider::ProviderError;
use crate::errors::reply::ReplyError;
use crate::provider::Provider;
use crate::record::StoredMessage;

/// Why a stream failed, as a provider's reader or a framing says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The provider sent an error.
    Provider(Box<ProviderError>),
    /// An event's data is not the JSON the provider sends.
    Json(String),
    /// A value of the reply's content that is not the shape the provider documents (a
    /// tool input that is no JSON, a count that is no number): content of a kind the crate
    /// does not read is never this, but the `[Not kept: ...]` marker.
    Content(String),
    /// The bytes ended before the provider's terminal event, named here.
    Cut(&'static str),
    /// The bytes ended inside an event (or an event-stream frame), said here: the connection
    /// dropped mid-event, as it most often does.
    CutInEvent(String),
    /// The framing is broken: a CRC that does not match, bytes that are no UTF-8.
    Frame(String),
}

impl Fault {
    /// The provider sent an error.
    pub(crate) fn provider(error: ProviderError) -> Self {
        Fault::Provider(Box::new(error))
    }

    /// The failure of a reply's content, read in place in an event's data.
    pub(crate) fn content(error: &ReplyError) -> Self {
        Fault::Content(match error.path() {
            "the body" => error.what().to_owned(),
            path => format!("{path}: {}", error.what()),
        })
    }

    /// The failure of data that is not the JSON an event carries.
    pub(crate) fn json(error: &serde_json::Error) -> Self {
        Fault::Json(crate::errors::record::json_what(error))
    }
}

/// What kind of failure ended a stream.
///
/// ```
/// use transcript_replay::{errors::StreamErrorKind, gemini};
///
/// let mut reader = gemini::stream();
/// let error = reader.feed(b"data: {\"error\": {\"code\": 503, \"message\": \"The model is overloaded.\", \"status\": \"UNAVAILABLE\"}}\n\n").unwrap_err();
/// assert_eq!(error.kind(), StreamErrorKind::ProviderError);
/// assert!(error.provider_error().unwrap().retryable);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StreamErrorKind {
    /// The provider sent an error ([`StreamError::provider_error`]).
    ProviderError,
    /// The bytes ended before the provider's terminal event: the connection was cut.
    Cut,
    /// An event's data is not the JSON the provider sends.
    Json,
    /// The framing is broken: a CRC that does not match, bytes that are not UTF-8, a frame cut
    /// short.
    Frame,
    /// A value of the reply's content that is not the shape the provider documents (content
    /// of a kind the crate does not read is the `[Not kept: ...]` marker, never this).
    Content,
}

/// A stream that did not end in a finished turn, saying what and where.
///
/// Where is the event's number (counted from 0, in the order the stream sent them) when an
/// event was at fault, and always a byte offset into the stream (where that event starts, or
/// where the framing broke, or the end). It carries the provider's error when the provider
/// sent one, and the message so far, which is for display only: it is not a [`Reply`](crate::Reply), so it
/// cannot be stored by mistake.
///
/// ```
/// use transcript_replay::{anthropic, errors::ProviderErrorKind, errors::StreamErrorKind};
///
/// let mut reader = anthropic::stream();
/// reader.feed(b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[],\"usage\":{\"input_tokens\":3}}}\n\n")?;
/// reader.feed(b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")?;
/// reader.feed(b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Half an\"}}\n\n")?;
/// let error = reader
///     .feed(b"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")
///     .unwrap_err();
/// assert_eq!(error.kind(), StreamErrorKind::ProviderError);
/// assert_eq!(error.event(), Some(3));
/// assert_eq!(error.provider_error().map(|error| error.kind), Some(ProviderErrorKind::Overloaded));
/// assert!(error.output_started());
/// assert_eq!(error.partial().blocks, [transcript_replay::Block::text("Half an")]);
/// assert_eq!(
///     error.to_string(),
///     "Anthropic stream, event 3 (byte 344): the provider sent an error: Anthropic error (overloaded) overloaded_error: Overloaded",
/// );
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamError(pub(crate) Box<Failed>);

/// What a [`StreamError`] says, boxed so that a reader's results stay small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failed {
    pub(crate) provider: Provider,
    pub(crate) event: Option<usize>,
    pub(crate) offset: usize,
    pub(crate) failure: Fault,
    pub(crate) started: bool,
    pub(crate) partial: StoredMessage,
}

impl StreamError {
    /// What kind of failure it is.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert_eq!(error.kind(), transcript_replay::errors::StreamErrorKind::Cut);
    /// ```
    pub fn kind(&self) -> StreamErrorKind {
        match self.0.failure {
            Fault::Provider(_) => StreamErrorKind::ProviderError,
            Fault::Json(_) => StreamErrorKind::Json,
            Fault::Content(_) => StreamErrorKind::Content,
            Fault::Cut(_) | Fault::CutInEvent(_) => StreamErrorKind::Cut,
            Fault::Frame(_) => StreamErrorKind::Frame,
        }
    }

    /// Whether sending the same request again may succeed:
    ///
    /// - a provider's error: when the provider's error says so
    ///   ([`ProviderError::retryable`]: overload, rate limit, server error);
    /// - a cut stream: yes, the connection dropped before the provider's terminal event (a
    ///   proxy's timeout, a network fault) and the request itself was not refused;
    /// - JSON that is not what the provider sends, a broken framing (a CRC that does not
    ///   match, bytes that are not UTF-8) or content not of the documented shape: no, the
    ///   same request would most likely bring the same bytes back (the transport already
    ///   checks its own integrity, so a bad frame is the sender's, not the wire's).
    ///
    /// A request sent again after [`output_started`](Self::output_started) repeats what the
    /// caller has shown: retry then only if the caller can take back what it showed.
    ///
    /// ```
    /// use transcript_replay::{anthropic, openai};
    ///
    /// // The bytes ended before `[DONE]`.
    /// assert!(openai::stream().finish().unwrap_err().is_retryable());
    ///
    /// let mut reader = anthropic::stream();
    /// let error = reader
    ///     .feed(b"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")
    ///     .unwrap_err();
    /// assert!(error.is_retryable());
    ///
    /// let error = openai::stream().feed(b"data: {not json}\n\n").unwrap_err();
    /// assert!(!error.is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        match &self.0.failure {
            Fault::Provider(error) => error.retryable,
            Fault::Cut(_) | Fault::CutInEvent(_) => true,
            Fault::Json(_) | Fault::Content(_) | Fault::Frame(_) => false,
        }
    }

    /// How long the provider asked the caller to wait before sending the request again, when
    /// the stream failed with the provider's error and it said
    /// ([`ProviderError::retry_after`]); `None` for a stream cut short, which may be sent again
    /// at once.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert_eq!(error.retry_after(), None);
    /// assert!(error.is_retryable());
    /// ```
    pub fn retry_after(&self) -> Option<std::time::Duration> {
        self.provider_error().and_then(ProviderError::retry_after)
    }

    /// The provider's error, when it sent one: its kind, its message, whether a retry can
    /// help.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert!(error.provider_error().is_none());
    /// ```
    pub fn provider_error(&self) -> Option<&ProviderError> {
        match &self.0.failure {
            Fault::Provider(error) => Some(error),
            Fault::Json(_)
            | Fault::Content(_)
            | Fault::Cut(_)
            | Fault::CutInEvent(_)
            | Fault::Frame(_) => None,
        }
    }

    /// The number of the event at fault, counted from 0, when an event was.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert_eq!(error.event(), None);
    /// ```
    pub fn event(&self) -> Option<usize> {
        self.0.event
    }

    /// The byte offset into the stream: where the event at fault starts, where the framing
    /// broke, or where the bytes ended.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert_eq!(error.offset(), 0);
    /// ```
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// Whether any delta had been yielded before the failure. A request may be sent again
    /// safely only before the first: after it, the caller has shown part of an answer.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert!(!error.output_started());
    /// ```
    pub fn output_started(&self) -> bool {
        self.0.started
    }

    /// The message so far, for display only: never store it as the turn.
    ///
    /// ```
    /// let error = transcript_replay::openai::stream().finish().unwrap_err();
    /// assert!(error.partial().blocks.is_empty());
    /// ```
    pub fn partial(&self) -> &StoredMessage {
        &self.0.partial
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failed = &self.0;
        write!(f, "{} stream, ", failed.provider)?;
        match failed.event {
            Some(event) => write!(f, "event {event} (byte {}): ", failed.offset)?,
            None => write!(f, "byte {}: ", failed.offset)?,
        }
        match &self.0.failure {
            Fault::Provider(error) => write!(f, "the provider sent an error: {error}"),
            Fault::Json(what) => write!(
                f,
                "the event is not the JSON {} sends: {what}",
                failed.provider
            ),
            Fault::Content(what) | Fault::Frame(what) => f.write_str(what),
            Fault::Cut(terminal) => {
                write!(f, "the stream ended before its terminal event, {terminal}")
            }
            Fault::CutInEvent(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for StreamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.provider_error()
            .map(|error| error as &(dyn std::error::Error + 'static))
    }
}
