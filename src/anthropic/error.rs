//! Reading an Anthropic error response, or an `error` event of a stream, into a
//! [`ProviderError`].

use serde::Deserialize;

use crate::errors::provider::{ProviderError, ProviderErrorKind};
use crate::provider::Provider;

/// The error types Anthropic documents, and their kinds
/// (<https://docs.anthropic.com/en/api/errors>). `request_too_large` is 413; `overloaded_error`
/// is 529; billing is no kind a retry helps.
const ERROR_TYPES: [(&str, ProviderErrorKind); 10] = [
    ("invalid_request_error", ProviderErrorKind::InvalidRequest),
    ("authentication_error", ProviderErrorKind::Authentication),
    ("permission_error", ProviderErrorKind::Permission),
    ("not_found_error", ProviderErrorKind::NotFound),
    ("request_too_large", ProviderErrorKind::RequestTooLarge),
    ("rate_limit_error", ProviderErrorKind::RateLimited),
    ("api_error", ProviderErrorKind::Server),
    ("timeout_error", ProviderErrorKind::Server),
    ("overloaded_error", ProviderErrorKind::Overloaded),
    ("billing_error", ProviderErrorKind::Other),
];

/// Reads an Anthropic error response (`{"type": "error", "error": {"type": ..., "message":
/// ...}}`) and its HTTP status into a [`ProviderError`].
///
/// The kind comes from the error's `type` (`invalid_request_error`, `rate_limit_error`,
/// `overloaded_error`, ...), or from the status when the body is not Anthropic's JSON (a
/// proxy's page). A text that says the prompt is too long is a context window overflow, with
/// its counts: `prompt is too long: 219898 tokens > 200000 maximum` (used 219898, limit
/// 200000), and the older ``input length and `max_tokens` exceed context limit: 187254 + 20000
/// > 204798`` (used 187254, max_tokens 20000, limit 204798).
///
/// ```
/// use transcript_replay::{anthropic, errors::ProviderErrorKind};
///
/// let error = anthropic::read_error(529, r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#);
/// assert_eq!((error.kind, error.retryable), (ProviderErrorKind::Overloaded, true));
///
/// let error = anthropic::read_error(400, r#"{"type": "error", "error": {"type": "invalid_request_error",
///     "message": "input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798, decrease input length or `max_tokens` and try again"}}"#);
/// assert_eq!(error.kind, ProviderErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.max_tokens, error.limit), (Some(187_254), Some(20_000), Some(204_798)));
/// ```
pub fn read_error(status: u16, body: &str) -> ProviderError {
    read(Some(status), body)
}

/// An error event of a stream, or an error body.
pub(super) fn read(status: Option<u16>, body: &str) -> ProviderError {
    #[derive(Deserialize)]
    struct Body {
        error: Object,
    }
    #[derive(Deserialize)]
    struct Object {
        #[serde(rename = "type", default)]
        kind: Option<String>,
        #[serde(default)]
        message: Option<String>,
    }
    match serde_json::from_str::<Body>(body) {
        Ok(Body { error }) => {
            let kind = error
                .kind
                .as_deref()
                .and_then(|name| {
                    ERROR_TYPES
                        .iter()
                        .find(|(known, _)| *known == name)
                        .map(|&(_, kind)| kind)
                })
                .unwrap_or_else(|| ProviderErrorKind::of_status(status));
            ProviderError::new(
                Provider::Anthropic,
                status,
                kind,
                error.kind,
                error.message.unwrap_or_default(),
            )
        }
        Err(_) => ProviderError::of_status(Provider::Anthropic, status, body),
    }
}
