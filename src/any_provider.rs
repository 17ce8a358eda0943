//! One entry point for any provider: from a [`Provider`] value, the body of a turn (one value
//! that serializes and prices itself), the reader of a reply, of a stream and of an error, so
//! that a runtime that talks to several providers writes no `match` of its own.
//!
//! This is the one module that reaches every provider's module; nothing the providers share
//! imports it.

use serde::ser::{Serialize, Serializer};

use crate::body::{BodyError, Turn};
use crate::cost::Withheld;
use crate::cost::{self, Priced, Units};
use std::str::FromStr;

use crate::dialect::Dialect;
use crate::provider::{Provider, UnknownProvider};
use crate::provider_error::ProviderError;
use crate::reply::{Reply, ReplyError};
use crate::rules::ImageLimits;
use crate::stream::StreamReader;
use crate::{anthropic, bedrock, gemini, openai, openai_responses};

/// The whole request body of a turn for whichever provider built it
/// ([`Provider::body`]): it serializes as that provider's body and prices itself
/// ([`Priced`]), so one build serves both the estimate and the bytes.
///
/// ```
/// use transcript_replay::{image_tokens, Priced, Provider, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Is a.rs empty?")];
/// let turn = Turn::new(&history);
/// for provider in Provider::ALL {
///     let body = provider.body(&turn)?;
///     let estimate = body.estimate(image_tokens("claude").unwrap());
///     let bytes = serde_json::to_vec(&body).unwrap();
///     assert_eq!(estimate.bytes, bytes.len());
///     assert_eq!(body.provider(), provider);
/// }
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum AnyBody<'a> {
    /// An OpenAI Chat Completions body.
    OpenAi(openai::Body<'a>),
    /// An OpenAI Responses body.
    OpenAiResponses(openai_responses::Body<'a>),
    /// An Anthropic Messages body.
    Anthropic(anthropic::Body<'a>),
    /// A Gemini generateContent body.
    Gemini(gemini::Body<'a>),
    /// A Bedrock Converse body.
    Bedrock(bedrock::Body<'a>),
}

impl AnyBody<'_> {
    /// The provider whose body this is.
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// assert_eq!(Provider::Gemini.body(&Turn::new(&history))?.provider(), Provider::Gemini);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn provider(&self) -> Provider {
        match self {
            AnyBody::OpenAi(body) => body.provider(),
            AnyBody::OpenAiResponses(_) => Provider::OpenAiResponses,
            AnyBody::Anthropic(_) => Provider::Anthropic,
            AnyBody::Gemini(_) => Provider::Gemini,
            AnyBody::Bedrock(_) => Provider::Bedrock,
        }
    }
}

impl Serialize for AnyBody<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyBody::OpenAi(body) => body.serialize(serializer),
            AnyBody::OpenAiResponses(body) => body.serialize(serializer),
            AnyBody::Anthropic(body) => body.serialize(serializer),
            AnyBody::Gemini(body) => body.serialize(serializer),
            AnyBody::Bedrock(body) => body.serialize(serializer),
        }
    }
}

impl cost::sealed::Sealed for AnyBody<'_> {}

/// The cost of the provider's body, as that body prices itself.
impl Priced for AnyBody<'_> {
    fn units(&self) -> Units<'_> {
        match self {
            AnyBody::OpenAi(body) => body.units(),
            AnyBody::OpenAiResponses(body) => body.units(),
            AnyBody::Anthropic(body) => body.units(),
            AnyBody::Gemini(body) => body.units(),
            AnyBody::Bedrock(body) => body.units(),
        }
    }

    fn withheld(&self) -> Option<Withheld> {
        match self {
            AnyBody::OpenAi(body) => body.withheld(),
            AnyBody::OpenAiResponses(body) => body.withheld(),
            AnyBody::Anthropic(body) => body.withheld(),
            AnyBody::Gemini(body) => body.withheld(),
            AnyBody::Bedrock(body) => body.withheld(),
        }
    }
}

impl Provider {
    /// The dialect of the OpenAI Chat surface this provider speaks: [`Dialect::OPENAI`] for
    /// [`Provider::OpenAi`], the server's for [`Provider::Compatible`], none for the other
    /// surfaces.
    ///
    /// ```
    /// use transcript_replay::{Dialect, Provider};
    ///
    /// assert_eq!(Provider::OpenAi.dialect(), Some(&Dialect::OPENAI));
    /// assert_eq!("groq".parse::<Provider>().unwrap().dialect(), Some(&Dialect::GROQ));
    /// assert_eq!(Provider::Gemini.dialect(), None);
    /// ```
    pub fn dialect(self) -> Option<&'static Dialect> {
        match self {
            Provider::OpenAi => Some(&Dialect::OPENAI),
            Provider::Compatible(dialect) => Some(dialect),
            Provider::OpenAiResponses
            | Provider::Anthropic
            | Provider::Gemini
            | Provider::Bedrock => None,
        }
    }

    /// Whether two providers speak the same API (the OpenAI Chat surface, whatever the
    /// dialect), so that a reply of one can be a round in the other's body.
    pub(crate) fn same_surface(self, other: Provider) -> bool {
        match (self.dialect(), other.dialect()) {
            (Some(_), Some(_)) => true,
            (None, None) | (Some(_), None) | (None, Some(_)) => self == other,
        }
    }

    /// Builds the whole request body of a turn for this provider: what its module's `body`
    /// builds (`openai::body`, `anthropic::body`, ...), as one type for all of them.
    ///
    /// # Errors
    ///
    /// The [`BodyError`] of the provider's own `body`.
    ///
    /// ```
    /// use serde_json::json;
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?")];
    /// let provider: Provider = "anthropic".parse().unwrap();
    /// let turn = Turn::new(&history).fields(&json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}));
    /// let bytes = serde_json::to_vec(&provider.body(&turn)?).unwrap();
    /// assert!(bytes.starts_with(br#"{"max_tokens":1024,"model":"claude-sonnet-4-5","system":"#));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn body<'a>(self, turn: &'a Turn<'_>) -> Result<AnyBody<'a>, BodyError> {
        Ok(match self {
            Provider::OpenAi | Provider::Compatible(_) => {
                AnyBody::OpenAi(openai::body_of(turn, self)?)
            }
            Provider::OpenAiResponses => AnyBody::OpenAiResponses(openai_responses::body(turn)?),
            Provider::Anthropic => AnyBody::Anthropic(anthropic::body(turn)?),
            Provider::Gemini => AnyBody::Gemini(gemini::body(turn)?),
            Provider::Bedrock => AnyBody::Bedrock(bedrock::body(turn)?),
        })
    }

    /// Reads this provider's response body into the [`Reply`]: the stored message of the
    /// assistant's turn and why it stopped, as its module's `read_reply` reads it.
    ///
    /// # Errors
    ///
    /// The [`ReplyError`] of the provider's own `read_reply`.
    ///
    /// ```
    /// use transcript_replay::{Block, Provider};
    ///
    /// let reply = r#"{"output": {"message": {"role": "assistant", "content": [{"text": "Yes."}]}},
    ///   "stopReason": "end_turn"}"#;
    /// let reply = Provider::Bedrock.read_reply(reply)?;
    /// assert_eq!(reply.message.blocks, [Block::text("Yes.")]);
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn read_reply(self, body: &str) -> Result<Reply, ReplyError> {
        match self {
            Provider::OpenAi | Provider::Compatible(_) => openai::read_reply_of(body, self),
            Provider::OpenAiResponses => openai_responses::read_reply(body),
            Provider::Anthropic => anthropic::read_reply(body),
            Provider::Gemini => gemini::read_reply(body),
            Provider::Bedrock => bedrock::read_reply(body),
        }
    }

    /// Starts a reader of this provider's streamed reply: what its module's `stream` starts.
    ///
    /// ```
    /// use transcript_replay::{Block, Provider};
    ///
    /// let mut reader = Provider::OpenAi.stream();
    /// reader.feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Yes.\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")?;
    /// assert_eq!(reader.finish()?.message.blocks, [Block::text("Yes.")]);
    /// # Ok::<(), transcript_replay::StreamError>(())
    /// ```
    pub fn stream(self) -> StreamReader {
        match self {
            Provider::OpenAi | Provider::Compatible(_) => openai::stream_of(self),
            Provider::OpenAiResponses => openai_responses::stream(),
            Provider::Anthropic => anthropic::stream(),
            Provider::Gemini => gemini::stream(),
            Provider::Bedrock => bedrock::stream(),
        }
    }

    /// Reads this provider's error response and its HTTP status: what its module's
    /// `read_error` reads.
    ///
    /// ```
    /// use transcript_replay::{ErrorKind, Provider};
    ///
    /// let error = Provider::Anthropic.read_error(529, r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#);
    /// assert_eq!((error.kind, error.retryable), (ErrorKind::Overloaded, true));
    /// ```
    pub fn read_error(self, status: u16, body: &str) -> ProviderError {
        match self {
            Provider::OpenAi | Provider::Compatible(_) => {
                openai::read_any_error(self, Some(status), body)
            }
            Provider::OpenAiResponses => openai_responses::read_error(status, body),
            Provider::Anthropic => anthropic::read_error(status, body),
            Provider::Gemini => gemini::read_error(status, body),
            Provider::Bedrock => bedrock::read_error(status, body),
        }
    }

    /// Reads this provider's error response with its HTTP status and the response's headers
    /// (name and value pairs, names in any case): what [`read_error`](Self::read_error) reads,
    /// and what the headers add.
    ///
    /// - How long to wait, [`ProviderError::retry_after`]: `retry-after-ms`, else
    ///   `retry-after` in seconds (its HTTP-date form is not read), else the body's word
    ///   (Gemini's `RetryInfo`, OpenAI's `Please try again in 1.5s`), else, for a rate limit,
    ///   the longer of OpenAI's `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens`
    ///   (`6m0s`).
    /// - `x-should-retry: true|false`, the provider's own word, sets
    ///   [`ProviderError::retryable`].
    /// - Bedrock's `x-amzn-ErrorType` names the exception the body does not
    ///   (`ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/`):
    ///   `ThrottlingException` is a rate limit, `ServiceUnavailableException` and
    ///   `ModelNotReadyException` an overload, `ModelTimeoutException` a server error a retry
    ///   may help, `ModelErrorException` the model's own failure, read by the model's status
    ///   (`originalStatusCode`) when the body gives it, a server error otherwise.
    ///
    /// ```
    /// use std::time::Duration;
    /// use transcript_replay::{ErrorKind, Provider};
    ///
    /// let headers = [("X-Amzn-ErrorType", "ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/")];
    /// let error = Provider::Bedrock.read_error_with_headers(408, &headers, r#"{"message": "Model has timed out in processing the request."}"#);
    /// assert_eq!((error.kind, error.retryable), (ErrorKind::Server, true));
    /// assert_eq!(error.code(), Some("ModelTimeoutException"));
    ///
    /// let error = Provider::Anthropic.read_error_with_headers(429, &[("retry-after", "17")],
    ///     r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}"#);
    /// assert_eq!(error.retry_after, Some(Duration::from_secs(17)));
    /// ```
    pub fn read_error_with_headers(
        self,
        status: u16,
        headers: &[(&str, &str)],
        body: &str,
    ) -> ProviderError {
        match self {
            Provider::Bedrock => bedrock::read_error_with_headers(status, headers, body),
            Provider::OpenAi
            | Provider::Compatible(_)
            | Provider::OpenAiResponses
            | Provider::Anthropic
            | Provider::Gemini => self.read_error(status, body).with_headers(headers),
        }
    }

    /// The provider's documented image limits, which its `render` and `body` apply unless
    /// a [`Turn`] gives its own ([`Turn::limits`]).
    ///
    /// ```
    /// use transcript_replay::{anthropic, Provider};
    ///
    /// assert_eq!(Provider::Anthropic.limits(), anthropic::LIMITS);
    /// assert_eq!(Provider::Bedrock.limits().images_per_request, 20);
    /// ```
    pub fn limits(self) -> ImageLimits {
        match self {
            Provider::OpenAi | Provider::Compatible(_) => openai::LIMITS,
            Provider::OpenAiResponses => openai_responses::LIMITS,
            Provider::Anthropic => anthropic::LIMITS,
            Provider::Gemini => gemini::LIMITS,
            Provider::Bedrock => bedrock::LIMITS,
        }
    }
}

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .chain(Dialect::NAMED.map(Provider::Compatible))
            .find(|provider| provider.id() == name)
            .ok_or_else(|| UnknownProvider(name.to_owned()))
    }
}
