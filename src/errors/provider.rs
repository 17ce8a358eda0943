//! A provider's error as data: what kind it is, whether a retry can help, and, for a history
//! that outgrew the model's context window, the token counts the provider named. Each
//! provider module reads its own error bodies (`read_error`) and stream errors into it; the
//! texts all providers share are recognized here, once.

use std::fmt;
use std::time::Duration;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::errors::overflow::OverflowText;
use crate::errors::retry_after::{self, Hints};
use crate::provider::Provider;

/// What kind of error a provider answered with.
///
/// It serializes, and [`as_str`](ProviderErrorKind::as_str) spells it, as `context_window_exceeded`,
/// `request_too_large`, `rate_limited`, `overloaded`, `invalid_request`, `authentication`,
/// `permission`, `not_found`, `server` or `other`.
///
/// ```
/// use transcript_replay::errors::ProviderErrorKind;
///
/// assert_eq!(ProviderErrorKind::ContextWindowExceeded.as_str(), "context_window_exceeded");
/// assert!(ProviderErrorKind::Overloaded.is_retryable());
/// assert!(!ProviderErrorKind::InvalidRequest.is_retryable());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProviderErrorKind {
    /// The request is longer than the model's context window: fit the history
    /// ([`ProviderError::used`] and [`ProviderError::limit`] say by how much, when the
    /// provider said).
    ContextWindowExceeded,
    /// The request's bytes are more than the provider takes.
    RequestTooLarge,
    /// Too many requests or tokens for the caller's rate limit, for now.
    RateLimited,
    /// The provider is overloaded or unavailable for now (Anthropic's 529, Gemini's 503
    /// `UNAVAILABLE`).
    Overloaded,
    /// The request is not one the provider takes.
    InvalidRequest,
    /// The credentials are missing or wrong.
    Authentication,
    /// The credentials may not do this.
    Permission,
    /// The model or endpoint does not exist.
    NotFound,
    /// The provider failed.
    Server,
    /// Anything else (billing and quota among them: no retry helps).
    Other,
}

impl ProviderErrorKind {
    /// The kind's name.
    ///
    /// ```
    /// assert_eq!(transcript_replay::errors::ProviderErrorKind::RateLimited.as_str(), "rate_limited");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderErrorKind::ContextWindowExceeded => "context_window_exceeded",
            ProviderErrorKind::RequestTooLarge => "request_too_large",
            ProviderErrorKind::RateLimited => "rate_limited",
            ProviderErrorKind::Overloaded => "overloaded",
            ProviderErrorKind::InvalidRequest => "invalid_request",
            ProviderErrorKind::Authentication => "authentication",
            ProviderErrorKind::Permission => "permission",
            ProviderErrorKind::NotFound => "not_found",
            ProviderErrorKind::Server => "server",
            ProviderErrorKind::Other => "other",
        }
    }

    /// Whether the same request may succeed if sent again later: for rate limits, overload and
    /// server errors, never for the others.
    ///
    /// ```
    /// assert!(transcript_replay::errors::ProviderErrorKind::Server.is_retryable());
    /// ```
    pub fn is_retryable(self) -> bool {
        match self {
            ProviderErrorKind::RateLimited
            | ProviderErrorKind::Overloaded
            | ProviderErrorKind::Server => true,
            ProviderErrorKind::ContextWindowExceeded
            | ProviderErrorKind::RequestTooLarge
            | ProviderErrorKind::InvalidRequest
            | ProviderErrorKind::Authentication
            | ProviderErrorKind::Permission
            | ProviderErrorKind::NotFound
            | ProviderErrorKind::Other => false,
        }
    }

    /// The kind an HTTP status alone says, for a body that says nothing more (a proxy's HTML
    /// page).
    pub(crate) fn of_status(status: Option<u16>) -> Self {
        match status {
            Some(400 | 422) => ProviderErrorKind::InvalidRequest,
            Some(401) => ProviderErrorKind::Authentication,
            Some(403) => ProviderErrorKind::Permission,
            Some(404) => ProviderErrorKind::NotFound,
            Some(413) => ProviderErrorKind::RequestTooLarge,
            Some(429) => ProviderErrorKind::RateLimited,
            Some(503 | 529) => ProviderErrorKind::Overloaded,
            Some(500..=599) => ProviderErrorKind::Server,
            Some(_) | None => ProviderErrorKind::Other,
        }
    }
}

impl fmt::Display for ProviderErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A provider's error response, read: its kind, the provider's message, whether a retry can
/// help, and, for a context window overflow, the token counts the provider named.
///
/// Each provider module reads its error bodies with `read_error(status, body)` (and
/// [`Provider::read_error`](crate::Provider::read_error) for any of them); a stream that fails
/// with an error event carries one too ([`StreamError::provider_error`](crate::StreamError::provider_error)).
/// A body that is not JSON, such as a proxy's HTML page, is read by its status alone.
///
/// It serializes as the example program's `--error` prints it:
/// `{"kind":"...","retryable":bool,"message":"...","used":N,"limit":N,"max_tokens":N,
/// "retry_after":SECONDS}`, the counts left out when the provider did not name them and
/// `retry_after` (seconds, exact in decimal: `1.574`) when it did not say how long to wait.
///
/// ```
/// use transcript_replay::{anthropic, errors::ProviderErrorKind};
///
/// let error = anthropic::read_error(400, r#"{"type": "error", "error": {"type": "invalid_request_error",
///     "message": "prompt is too long: 219898 tokens > 200000 maximum"}}"#);
/// assert_eq!(error.kind, ProviderErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.limit), (Some(219_898), Some(200_000)));
/// assert!(!error.retryable);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderError {
    /// What kind of error it is.
    pub kind: ProviderErrorKind,
    /// Whether the same request may succeed if sent again later: the kind's
    /// [`is_retryable`](ProviderErrorKind::is_retryable), except for a rate limit that says the one
    /// request is more than the limit allows (OpenAI's `Request too large for gpt-4o ... on
    /// tokens per min (TPM): Limit 30000, Requested 31538. The input or output tokens must be
    /// reduced`, <https://github.com/TheR1D/shell_gpt/issues/653>), which no wait helps,
    /// except for a code the server's dialect lists as one a retry may cure
    /// ([`Dialect::retryable_codes`](crate::Dialect::retryable_codes)), and except where the
    /// response's `x-should-retry` header says otherwise
    /// ([`Provider::read_error`](crate::Provider::read_error)).
    pub retryable: bool,
    /// The provider's message, as it sent it (for a body that is not JSON, its first 256
    /// characters).
    pub message: String,
    /// For a context window overflow: the input's tokens, as the provider counted them.
    pub used: Option<u64>,
    /// For a context window overflow: the model's window.
    pub limit: Option<u64>,
    /// For a context window overflow: the output the request asked for, when the provider's
    /// text names it.
    pub max_tokens: Option<u64>,
    /// How long the provider asks the caller to wait before sending the request again, when
    /// it said: from the response's headers (`retry-after-ms`, `retry-after` in seconds, and
    /// for a rate limit OpenAI's `x-ratelimit-reset-*`; an HTTP date is not read), which
    /// [`Provider::read_error`](crate::Provider::read_error) reads,
    /// else from the body: Gemini's `RetryInfo.retryDelay` (`"30s"`), or the text's `Please
    /// try again in 1.5s` (OpenAI, also `in 20ms`) or `Please retry in 58.9s` (Gemini).
    /// It is kept whatever [`retryable`](Self::retryable) says; a loop retries only when that
    /// is true.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let error = transcript_replay::openai::read_error(429, r#"{"error": {"message": "Rate limit reached for o4-mini in organization org-x on tokens per min (TPM): Limit 200000, Used 162960, Requested 42288. Please try again in 1.574s.",
    ///     "type": "tokens", "code": "rate_limit_exceeded"}}"#);
    /// assert_eq!(error.retry_after, Some(Duration::from_millis(1574)));
    /// assert!(error.retryable);
    /// ```
    pub retry_after: Option<Duration>,
    provider: Provider,
    status: Option<u16>,
    code: Option<String>,
}

/// Words that say a wrong or missing key, whatever the status a provider sends them with
/// (Gemini's wrong key is a 400 `INVALID_ARGUMENT`, Bedrock's a 403): each as sent, with its
/// source.
///
/// - Gemini: `API key not valid. Please pass a valid API key.`, reason `API_KEY_INVALID`
///   (<https://github.com/google-gemini/gemini-cli/issues/1425>,
///   <https://ai.google.dev/gemini-api/docs/troubleshooting>).
/// - OpenAI: `Incorrect API key provided: sk-...` (<https://platform.openai.com/docs/guides/error-codes>).
/// - Anthropic: `invalid x-api-key` (<https://docs.anthropic.com/en/api/errors>).
/// - Bedrock: `The security token included in the request is invalid.`
///   (`UnrecognizedClientException`,
///   <https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html>).
const WRONG_KEY: [&str; 6] = [
    "API key not valid",
    "API_KEY_INVALID",
    "Incorrect API key provided",
    "invalid x-api-key",
    "invalid_api_key",
    "The security token included in the request is invalid",
];

/// Words of a server that is not set up to take this request: a 500 no retry helps, since the
/// same request meets the same configuration.
///
/// - llama.cpp's server without `--jinja`: `tools param requires --jinja flag`
///   (<https://github.com/containers/ramalama/issues/988>,
///   <https://github.com/defilantech/LLMKube/issues/126>), and before it `Unsupported param:
///   tools` (<https://github.com/ggml-org/llama.cpp/issues/10920>).
const MISCONFIGURED: [&str; 2] = ["requires --jinja flag", "Unsupported param: "];

/// The kind an error's words say, over the kind its status and codes said: a wrong key is
/// `authentication` at any status, and a server misconfigured for the request is an invalid
/// request, never a retryable server error.
fn kind_by_wording(kind: ProviderErrorKind, message: &str) -> ProviderErrorKind {
    if WRONG_KEY.iter().any(|words| message.contains(words)) {
        return ProviderErrorKind::Authentication;
    }
    match kind {
        ProviderErrorKind::Server if MISCONFIGURED.iter().any(|words| message.contains(words)) => {
            ProviderErrorKind::InvalidRequest
        }
        ProviderErrorKind::ContextWindowExceeded
        | ProviderErrorKind::RequestTooLarge
        | ProviderErrorKind::RateLimited
        | ProviderErrorKind::Overloaded
        | ProviderErrorKind::InvalidRequest
        | ProviderErrorKind::Authentication
        | ProviderErrorKind::Permission
        | ProviderErrorKind::NotFound
        | ProviderErrorKind::Server
        | ProviderErrorKind::Other => kind,
    }
}

impl ProviderError {
    /// An error of this kind, with the counts an overflow's text names.
    pub(crate) fn new(
        provider: Provider,
        status: Option<u16>,
        kind: ProviderErrorKind,
        code: Option<String>,
        message: String,
    ) -> Self {
        let overflow = OverflowText::read(&message);
        let kind = match (kind, overflow.found) {
            // llama.cpp says `Context size has been exceeded.` with a 500.
            (
                ProviderErrorKind::InvalidRequest
                | ProviderErrorKind::Other
                | ProviderErrorKind::Server,
                true,
            ) => ProviderErrorKind::ContextWindowExceeded,
            (kind, _) => kind,
        };
        let kind = kind_by_wording(kind, &message);
        let counts = (kind == ProviderErrorKind::ContextWindowExceeded).then_some(overflow);
        // A rate limit the one request is larger than: waiting does not help.
        let too_large = kind == ProviderErrorKind::RateLimited
            && message.contains("The input or output tokens must be reduced");
        ProviderError {
            kind,
            retryable: kind.is_retryable() && !too_large,
            retry_after: retry_after::in_text(&message),
            used: counts.and_then(|counts| counts.used),
            limit: counts.and_then(|counts| counts.limit),
            max_tokens: counts.and_then(|counts| counts.max_tokens),
            message,
            provider,
            status,
            code,
        }
    }

    /// The error of a body that is no JSON the provider's errors have: its kind by the status
    /// alone, its text (cut to 256 characters) as the message.
    pub(crate) fn of_status(provider: Provider, status: Option<u16>, body: &str) -> Self {
        let text = body.trim();
        let message = match text.char_indices().nth(256) {
            Some((end, _)) => format!("{}...", text.get(..end).unwrap_or(text)),
            None => text.to_owned(),
        };
        ProviderError::new(
            provider,
            status,
            ProviderErrorKind::of_status(status),
            None,
            message,
        )
    }

    /// What the response's headers add: how long to wait (`retry-after-ms`, `retry-after`,
    /// and for a rate limit `x-ratelimit-reset-*` when nothing else says), and
    /// `x-should-retry`.
    pub(crate) fn with_headers(mut self, headers: &[(&str, &str)]) -> Self {
        let hints = Hints::read(headers);
        let reset = hints
            .reset
            .filter(|_| self.kind == ProviderErrorKind::RateLimited);
        self.retry_after = hints.wait.or(self.retry_after).or(reset);
        if let Some(should_retry) = hints.should_retry {
            self.retryable = should_retry;
        }
        self
    }

    /// Whether the same request may succeed if sent again later: [`retryable`](Self::retryable),
    /// spelled as every error of the crate that can be retried spells it.
    ///
    /// ```
    /// let error = transcript_replay::gemini::read_error(503, "<html>Service Unavailable</html>");
    /// assert!(error.is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }

    /// How long the provider asks the caller to wait before sending the request again, when it
    /// said: [`retry_after`](Self::retry_after), spelled as every error of the crate that can be
    /// retried spells it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use transcript_replay::Provider;
    ///
    /// let anthropic: Provider = "anthropic".parse().unwrap();
    /// let error = anthropic.read_error(429, &[("retry-after", "17")],
    ///     r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down"}}"#);
    /// assert_eq!(error.retry_after(), Some(Duration::from_secs(17)));
    /// ```
    pub fn retry_after(&self) -> Option<Duration> {
        self.retry_after
    }

    /// The provider that answered.
    ///
    /// ```
    /// let error = transcript_replay::gemini::read_error(503, "<html>Service Unavailable</html>");
    /// assert_eq!(error.provider().id(), "gemini");
    /// ```
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The HTTP status the error came with; `None` for an error event in a stream.
    ///
    /// ```
    /// let error = transcript_replay::gemini::read_error(503, "<html>Service Unavailable</html>");
    /// assert_eq!(error.status(), Some(503));
    /// assert_eq!(error.kind, transcript_replay::errors::ProviderErrorKind::Overloaded);
    /// ```
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The provider's own name for the error (`overloaded_error`, `context_length_exceeded`,
    /// `RESOURCE_EXHAUSTED`, `throttlingException`, ...), when it gave one.
    ///
    /// ```
    /// let error = transcript_replay::openai::read_error(429, r#"{"error": {"message": "Rate limit reached",
    ///     "type": "requests", "code": "rate_limit_exceeded"}}"#);
    /// assert_eq!(error.code(), Some("rate_limit_exceeded"));
    /// ```
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error", self.provider)?;
        if let Some(status) = self.status {
            write!(f, " {status}")?;
        }
        write!(f, " ({})", self.kind)?;
        if let Some(code) = &self.code {
            write!(f, " {code}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ProviderError {}

impl Serialize for ProviderError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", self.kind.as_str())?;
        map.serialize_entry("retryable", &self.retryable)?;
        map.serialize_entry("message", &self.message)?;
        for (key, count) in [
            ("used", self.used),
            ("limit", self.limit),
            ("max_tokens", self.max_tokens),
        ] {
            if let Some(count) = count {
                map.serialize_entry(key, &count)?;
            }
        }
        if let Some(wait) = self.retry_after {
            // Seconds, exact: `1.574`, not the nearest binary fraction.
            let seconds = serde_json::value::RawValue::from_string(retry_after::seconds_text(wait))
                .map_err(serde::ser::Error::custom)?;
            map.serialize_entry("retry_after", &seconds)?;
        }
        map.end()
    }
}
