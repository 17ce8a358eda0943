//! One view of every failure a loop meets, answering the questions a loop asks of each the
//! same way: may the request be sent again, after how long, and is it an overflow, by how
//! much. And the response's headers as [`read_error`](crate::Provider::read_error) takes
//! them: any pairs of a name and a value.

use std::time::Duration;

use crate::errors::{BodyError, BodyErrorKind, ProviderError, RecordError, ReplyError};
use crate::errors::{ProviderErrorKind, StreamError, ToolError};

/// Any failure of the crate a loop meets: a record that cannot be read, a body that cannot be
/// built, a reply or a stream that cannot be read, the provider's error response, a tool that
/// cannot be declared. Each converts into it, so a loop's function can `?` them all, and
/// then asks the same three questions of any of them: [`is_retryable`](Self::is_retryable),
/// [`retry_after`](Self::retry_after), [`overflow`](Self::overflow).
///
/// ```
/// use std::time::Duration;
/// use transcript_replay::{Failure, Provider};
///
/// let anthropic: Provider = "anthropic".parse().unwrap();
/// let failure = Failure::from(anthropic.read_error(429, [("retry-after", "17")],
///     r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down"}}"#));
/// assert!(failure.is_retryable());
/// assert_eq!(failure.retry_after(), Some(Duration::from_secs(17)));
/// assert_eq!(failure.overflow(), None);
///
/// let cut = Failure::from(anthropic.stream().finish().unwrap_err());
/// assert!(cut.is_retryable());
/// assert_eq!(cut.retry_after(), None);
/// ```
///
/// It is small (two words: each error is boxed, a stream's already is), so a function that
/// returns `Result<_, Failure>` stays cheap on the happy path.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// A stored record that cannot be read.
    #[error(transparent)]
    Record(Box<RecordError>),
    /// A body that would break a provider's rule, or a budget it cannot meet.
    #[error(transparent)]
    Body(Box<BodyError>),
    /// A whole reply that cannot be read.
    #[error(transparent)]
    Reply(Box<ReplyError>),
    /// A stream that failed: cut short, an event that cannot be read, or the provider's error.
    #[error(transparent)]
    Stream(StreamError),
    /// The provider's error response.
    #[error(transparent)]
    Provider(Box<ProviderError>),
    /// A tool that cannot be declared.
    #[error(transparent)]
    Tool(Box<ToolError>),
    /// A failure of the runtime's own beside the crate's (its transport, its files, a tool
    /// runner): [`Failure::runtime`], or `?` on a `std::io::Error` or a boxed error. The crate
    /// knows nothing of it: not retryable by the crate's judgement, no wait, no overflow.
    #[error(transparent)]
    Runtime(std::sync::Arc<RuntimeError>),
}

/// A failure of the runtime's own, as a [`Failure`] holds it: the runtime's error, its
/// message and its source as they are.
///
/// ```
/// let failure = transcript_replay::Failure::runtime("the tool runner is gone");
/// let transcript_replay::Failure::Runtime(own) = failure else { unreachable!() };
/// assert_eq!(own.to_string(), "the tool runner is gone");
/// ```
#[derive(Debug)]
pub struct RuntimeError(Box<dyn std::error::Error + Send + Sync>);

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for RuntimeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl Failure {
    /// A failure of the runtime's own, so that a loop returns one error type for all.
    ///
    /// ```
    /// use transcript_replay::Failure;
    ///
    /// fn send() -> Result<(), Failure> {
    ///     std::fs::read("/no/such/file")?; // an io::Error converts too
    ///     Ok(())
    /// }
    /// assert!(matches!(send(), Err(Failure::Runtime(_))));
    /// let own = Failure::runtime("the tool runner is gone");
    /// assert_eq!(own.to_string(), "the tool runner is gone");
    /// assert!(!own.is_retryable());
    /// ```
    pub fn runtime(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Failure::Runtime(std::sync::Arc::new(RuntimeError(error.into())))
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Self {
        Failure::runtime(error)
    }
}

impl From<Box<dyn std::error::Error + Send + Sync>> for Failure {
    fn from(error: Box<dyn std::error::Error + Send + Sync>) -> Self {
        Failure::runtime(error)
    }
}

macro_rules! failure_from {
    ($($variant:ident($error:ty)),*) => {$(
        impl From<$error> for Failure {
            fn from(error: $error) -> Self {
                Failure::$variant(Box::new(error))
            }
        }
    )*};
}

failure_from!(
    Record(RecordError),
    Body(BodyError),
    Reply(ReplyError),
    Provider(ProviderError),
    Tool(ToolError)
);

impl From<StreamError> for Failure {
    fn from(error: StreamError) -> Self {
        Failure::Stream(error)
    }
}

/// A request too large for what it was sent to: the model's window (as the provider counted
/// it, [`ProviderErrorKind::ContextWindowExceeded`]) or the turn's own budget (as the crate estimated
/// it, [`BodyErrorKind::OverBudget`]), with the counts where they are known.
///
/// ```
/// use transcript_replay::{anthropic, Failure};
///
/// let error = anthropic::read_error(400, r#"{"type": "error", "error": {"type": "invalid_request_error",
///     "message": "prompt is too long: 219898 tokens > 200000 maximum"}}"#);
/// let overflow = Failure::from(error).overflow().unwrap();
/// assert_eq!((overflow.used, overflow.limit), (Some(219_898), Some(200_000)));
/// assert_eq!(overflow.over(), Some(19_898));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Overflow {
    /// The tokens of the input, as the provider counted them (or the body's estimate, for a
    /// budget), when known.
    pub used: Option<u64>,
    /// The tokens the input may use: the model's window, or the budget, when known.
    pub limit: Option<u64>,
}

impl Overflow {
    /// By how many tokens the input is over, when both counts are known.
    ///
    /// ```
    /// use transcript_replay::{cost::image_tokens, Budget, Failure, StoredMessage, Turn};
    ///
    /// let live = [StoredMessage::user("Read this. ".repeat(400))];
    /// let turn = Turn::new(&[]).live(&live).budget(Budget::new(100, image_tokens("claude").unwrap()));
    /// let error = transcript_replay::anthropic::body(&turn).unwrap_err();
    /// let overflow = Failure::from(error).overflow().unwrap();
    /// assert_eq!(overflow.limit, Some(100));
    /// assert!(overflow.over().unwrap() > 0);
    /// ```
    pub fn over(&self) -> Option<u64> {
        Some(self.used?.saturating_sub(self.limit?))
    }
}

impl Failure {
    /// Whether the same request may succeed if sent again later: the provider's word
    /// ([`ProviderError::is_retryable`]), a stream cut short or failed with a retryable error
    /// ([`StreamError::is_retryable`]); never for a record, body, reply or tool, which the same
    /// request would fail the same way.
    ///
    /// ```
    /// let failure = transcript_replay::Failure::from(transcript_replay::gemini::read_error(503, "<html>Service Unavailable</html>"));
    /// assert!(failure.is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        match self {
            Failure::Provider(error) => error.is_retryable(),
            Failure::Stream(error) => error.is_retryable(),
            Failure::Record(_)
            | Failure::Body(_)
            | Failure::Reply(_)
            | Failure::Tool(_)
            | Failure::Runtime(_) => false,
        }
    }

    /// How long the provider asked the caller to wait before sending the request again, when
    /// it said.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let failure = transcript_replay::Failure::from(transcript_replay::openai::read_error(429,
    ///     r#"{"error": {"message": "Rate limit reached. Please try again in 1.5s.", "code": "rate_limit_exceeded"}}"#));
    /// assert_eq!(failure.retry_after(), Some(Duration::from_millis(1500)));
    /// ```
    pub fn retry_after(&self) -> Option<Duration> {
        self.provider_error().and_then(ProviderError::retry_after)
    }

    /// The overflow, when the request was too large: the provider's context window error
    /// (in a response or a stream), or a body over the turn's budget.
    ///
    /// ```
    /// let failure = transcript_replay::Failure::from(transcript_replay::openai::read_error(400,
    ///     r#"{"error": {"message": "Input too long.", "code": "context_length_exceeded"}}"#));
    /// let overflow = failure.overflow().unwrap();
    /// assert_eq!((overflow.used, overflow.limit, overflow.over()), (None, None, None));
    /// ```
    pub fn overflow(&self) -> Option<Overflow> {
        if let Failure::Body(error) = self {
            return match error.kind() {
                BodyErrorKind::OverBudget { needed, budget, .. } => Some(Overflow {
                    used: Some(needed),
                    limit: Some(budget),
                }),
                _ => None,
            };
        }
        let error = self.provider_error()?;
        (error.kind == ProviderErrorKind::ContextWindowExceeded).then_some(Overflow {
            used: error.used,
            limit: error.limit,
        })
    }

    /// The provider's own error, when the failure is one: an error response, or an error
    /// event in a stream.
    ///
    /// ```
    /// let failure = transcript_replay::Failure::from(transcript_replay::gemini::read_error(503, "busy"));
    /// assert_eq!(failure.provider_error().map(|error| error.provider().id()), Some("gemini"));
    /// ```
    pub fn provider_error(&self) -> Option<&ProviderError> {
        match self {
            Failure::Provider(error) => Some(&**error),
            Failure::Stream(error) => error.provider_error(),
            Failure::Record(_)
            | Failure::Body(_)
            | Failure::Reply(_)
            | Failure::Tool(_)
            | Failure::Runtime(_) => None,
        }
    }
}

/// One header of a response, as [`Provider::read_error`](crate::Provider::read_error) takes
/// it: a pair of a name (any case) and a value, as any HTTP client holds it: `(&str, &str)`,
/// `(String, String)`, a reference to either, or the `(&HeaderName, &HeaderValue)` an
/// `http::HeaderMap` iterates over (a name that is `AsRef<str>`, a value that is
/// `AsRef<[u8]>`). A value that is not UTF-8 is not read.
///
/// ```
/// use transcript_replay::errors::Header;
///
/// let pair = ("Retry-After", "3");
/// assert_eq!((pair.name(), pair.value()), ("Retry-After", Some("3")));
/// let owned = (String::from("retry-after"), vec![0xff_u8]);
/// assert_eq!((&owned).value(), None);
/// ```
pub trait Header {
    /// The header's name, in any case.
    fn name(&self) -> &str;
    /// The header's value, when it is UTF-8.
    fn value(&self) -> Option<&str>;
}

impl<K: AsRef<str>, V: AsRef<[u8]>> Header for (K, V) {
    fn name(&self) -> &str {
        self.0.as_ref()
    }

    fn value(&self) -> Option<&str> {
        std::str::from_utf8(self.1.as_ref()).ok()
    }
}

impl<H: Header + ?Sized> Header for &H {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn value(&self) -> Option<&str> {
        (**self).value()
    }
}
