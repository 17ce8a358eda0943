//! A provider's error as data: what kind it is, whether a retry can help, and, for a history
//! that outgrew the model's context window, the token counts the provider named. Each
//! provider module reads its own error bodies (`read_error`) and stream errors into it; the
//! texts all providers share are recognized here, once.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::provider::Provider;

/// What kind of error a provider answered with.
///
/// It serializes, and [`as_str`](ErrorKind::as_str) spells it, as `context_window_exceeded`,
/// `request_too_large`, `rate_limited`, `overloaded`, `invalid_request`, `authentication`,
/// `permission`, `not_found`, `server` or `other`.
///
/// ```
/// use transcript_replay::ErrorKind;
///
/// assert_eq!(ErrorKind::ContextWindowExceeded.as_str(), "context_window_exceeded");
/// assert!(ErrorKind::Overloaded.is_retryable());
/// assert!(!ErrorKind::InvalidRequest.is_retryable());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
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

impl ErrorKind {
    /// The kind's name.
    ///
    /// ```
    /// assert_eq!(transcript_replay::ErrorKind::RateLimited.as_str(), "rate_limited");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::ContextWindowExceeded => "context_window_exceeded",
            ErrorKind::RequestTooLarge => "request_too_large",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Overloaded => "overloaded",
            ErrorKind::InvalidRequest => "invalid_request",
            ErrorKind::Authentication => "authentication",
            ErrorKind::Permission => "permission",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Server => "server",
            ErrorKind::Other => "other",
        }
    }

    /// Whether the same request may succeed if sent again later: for rate limits, overload and
    /// server errors, never for the others.
    ///
    /// ```
    /// assert!(transcript_replay::ErrorKind::Server.is_retryable());
    /// ```
    pub fn is_retryable(self) -> bool {
        match self {
            ErrorKind::RateLimited | ErrorKind::Overloaded | ErrorKind::Server => true,
            ErrorKind::ContextWindowExceeded
            | ErrorKind::RequestTooLarge
            | ErrorKind::InvalidRequest
            | ErrorKind::Authentication
            | ErrorKind::Permission
            | ErrorKind::NotFound
            | ErrorKind::Other => false,
        }
    }

    /// The kind an HTTP status alone says, for a body that says nothing more (a proxy's HTML
    /// page).
    pub(crate) fn of_status(status: Option<u16>) -> Self {
        match status {
            Some(400 | 422) => ErrorKind::InvalidRequest,
            Some(401) => ErrorKind::Authentication,
            Some(403) => ErrorKind::Permission,
            Some(404) => ErrorKind::NotFound,
            Some(413) => ErrorKind::RequestTooLarge,
            Some(429) => ErrorKind::RateLimited,
            Some(503 | 529) => ErrorKind::Overloaded,
            Some(500..=599) => ErrorKind::Server,
            Some(_) | None => ErrorKind::Other,
        }
    }
}

impl fmt::Display for ErrorKind {
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
/// `{"kind":"...","retryable":bool,"message":"...","used":N,"limit":N,"max_tokens":N}`, the
/// counts left out when the provider did not name them.
///
/// ```
/// use transcript_replay::{anthropic, ErrorKind};
///
/// let error = anthropic::read_error(400, r#"{"type": "error", "error": {"type": "invalid_request_error",
///     "message": "prompt is too long: 219898 tokens > 200000 maximum"}}"#);
/// assert_eq!(error.kind, ErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.limit), (Some(219_898), Some(200_000)));
/// assert!(!error.retryable);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderError {
    /// What kind of error it is.
    pub kind: ErrorKind,
    /// Whether the same request may succeed if sent again later.
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
    provider: Provider,
    status: Option<u16>,
    code: Option<String>,
}

impl ProviderError {
    /// An error of this kind, with the counts an overflow's text names.
    pub(crate) fn new(
        provider: Provider,
        status: Option<u16>,
        kind: ErrorKind,
        code: Option<String>,
        message: String,
    ) -> Self {
        let overflow = Overflow::read(&message);
        let kind = match (kind, overflow.found) {
            (ErrorKind::InvalidRequest | ErrorKind::Other, true) => {
                ErrorKind::ContextWindowExceeded
            }
            (kind, _) => kind,
        };
        let counts = (kind == ErrorKind::ContextWindowExceeded).then_some(overflow);
        ProviderError {
            kind,
            retryable: kind.is_retryable(),
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
            ErrorKind::of_status(status),
            None,
            message,
        )
    }

    /// The provider that answered.
    ///
    /// ```
    /// let error = transcript_replay::gemini::read_error(503, "<html>Service Unavailable</html>");
    /// assert_eq!(error.provider(), transcript_replay::Provider::Gemini);
    /// ```
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The HTTP status the error came with; `None` for an error event in a stream.
    ///
    /// ```
    /// let error = transcript_replay::gemini::read_error(503, "<html>Service Unavailable</html>");
    /// assert_eq!(error.status(), Some(503));
    /// assert_eq!(error.kind, transcript_replay::ErrorKind::Overloaded);
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
        map.end()
    }
}

/// What an error's text says of a context window overflow: whether it is one, and the counts
/// it names. The texts, exact, as the providers send them:
///
/// - Anthropic: `prompt is too long: 219898 tokens > 200000 maximum`, and the older
///   ``input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798``
///   (<https://github.com/anthropics/claude-code/issues/42>); through Bedrock too, inside
///   "The model returned the following errors: ...".
/// - OpenAI: `This model's maximum context length is 4097 tokens. However, your messages
///   resulted in 4294 tokens`, and `... However, you requested 5000 tokens (4000 in the
///   messages, 1000 in the completion)`; compatible servers (OpenRouter) `... you requested
///   about 42832 tokens`; Responses `Your input exceeds the context window of this model`.
/// - Gemini: `The input token count (1200293) exceeds the maximum number of tokens allowed
///   (1048576).` (<https://github.com/google-gemini/gemini-cli/issues/6678>).
/// - Bedrock: `Input is too long for requested model.`
///   (<https://github.com/aws-samples/bedrock-chat/issues/95>).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Overflow {
    found: bool,
    used: Option<u64>,
    limit: Option<u64>,
    max_tokens: Option<u64>,
}

impl Overflow {
    fn read(text: &str) -> Self {
        let mut overflow = Overflow::default();
        if let Some(rest) = after(text, "prompt is too long: ") {
            overflow.found = true;
            overflow.used = number(rest);
            overflow.limit = after(rest, "tokens > ").and_then(number);
        } else if let Some(rest) = after(text, "exceed context limit: ") {
            overflow.found = true;
            overflow.used = number(rest);
            overflow.max_tokens = after(rest, "+ ").and_then(number);
            overflow.limit = after(rest, "> ").and_then(number);
        } else if let Some(rest) = after(text, "maximum context length is ") {
            overflow.found = true;
            overflow.limit = number(rest);
            if let Some(used) = after(rest, "resulted in ") {
                overflow.used = number(used);
            } else if let Some(requested) = after(rest, "you requested ") {
                let requested = requested.strip_prefix("about ").unwrap_or(requested);
                overflow.used = number(requested);
                if let Some(messages) = after(requested, "(") {
                    if let (Some(input), Some(output)) = (
                        number(messages),
                        after(messages, "in the messages, ").and_then(number),
                    ) {
                        overflow.used = Some(input);
                        overflow.max_tokens = Some(output);
                    }
                }
            }
        } else if let Some(rest) = after(text, "The input token count (") {
            overflow.found = true;
            overflow.used = number(rest);
            overflow.limit = after(rest, "tokens allowed (").and_then(number);
        } else {
            overflow.found = [
                "Input is too long for requested model",
                "exceeds the context window",
                "context_length_exceeded",
                "prompt is too long",
            ]
            .iter()
            .any(|phrase| text.contains(phrase));
        }
        overflow
    }
}

/// The text after the first `marker` in `text`.
fn after<'t>(text: &'t str, marker: &str) -> Option<&'t str> {
    text.find(marker)
        .and_then(|start| text.get(start + marker.len()..))
}

/// The whole number at the start of `text` (digits, with `,` between thousands allowed).
fn number(text: &str) -> Option<u64> {
    let digits: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_overflow_text_gives_its_counts() {
        // (the text, used, limit, max_tokens)
        type Case = (&'static str, Option<u64>, Option<u64>, Option<u64>);
        let cases: [Case; 8] = [
            ("prompt is too long: 219898 tokens > 200000 maximum", Some(219_898), Some(200_000), None),
            ("input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798, decrease input length or `max_tokens` and try again", Some(187_254), Some(204_798), Some(20_000)),
            ("This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.", Some(4294), Some(4097), None),
            ("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", Some(8000), Some(8192), Some(1000)),
            ("This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one.", Some(42_832), Some(32_768), None),
            ("The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).", Some(1_200_293), Some(1_048_576), None),
            ("Input is too long for requested model.", None, None, None),
            ("Your input exceeds the context window of this model. Please adjust your input and try again.", None, None, None),
        ];
        for (text, used, limit, max_tokens) in cases {
            let overflow = Overflow::read(text);
            assert!(overflow.found, "{text}");
            assert_eq!(
                (overflow.used, overflow.limit, overflow.max_tokens),
                (used, limit, max_tokens),
                "{text}"
            );
        }
        assert!(!Overflow::read("Overloaded").found);
    }
}
