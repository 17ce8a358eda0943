//! Reading a Gemini error response, or an error object in a stream, into a
//! [`ProviderError`].

use serde::Deserialize;

use crate::errors::provider::{ProviderError, ProviderErrorKind};
use crate::errors::retry_after::go_duration;
use crate::provider::Provider;

/// The canonical statuses Google's APIs answer with, and their kinds
/// (<https://ai.google.dev/gemini-api/docs/troubleshooting>): `RESOURCE_EXHAUSTED` is 429,
/// `UNAVAILABLE` 503 ("The model is overloaded").
const STATUSES: [(&str, ProviderErrorKind); 11] = [
    ("INVALID_ARGUMENT", ProviderErrorKind::InvalidRequest),
    ("FAILED_PRECONDITION", ProviderErrorKind::InvalidRequest),
    ("OUT_OF_RANGE", ProviderErrorKind::InvalidRequest),
    ("UNAUTHENTICATED", ProviderErrorKind::Authentication),
    ("PERMISSION_DENIED", ProviderErrorKind::Permission),
    ("NOT_FOUND", ProviderErrorKind::NotFound),
    ("RESOURCE_EXHAUSTED", ProviderErrorKind::RateLimited),
    ("UNAVAILABLE", ProviderErrorKind::Overloaded),
    ("INTERNAL", ProviderErrorKind::Server),
    ("DEADLINE_EXCEEDED", ProviderErrorKind::Server),
    ("ABORTED", ProviderErrorKind::Server),
];

/// Reads a Gemini error response (`{"error": {"code", "message", "status"}}`, or that object
/// in an array, as the streaming endpoint sends it without `alt=sse`) and its HTTP status
/// into a [`ProviderError`].
///
/// The kind comes from the error's `status` (`INVALID_ARGUMENT`, `RESOURCE_EXHAUSTED`,
/// `UNAVAILABLE`, ...), else from its `code` or the HTTP status. A text that says the input is
/// too long is a context window overflow, with its counts: `The input token count (1200293)
/// exceeds the maximum number of tokens allowed (1048576).` (used 1200293, limit 1048576).
/// A `google.rpc.RetryInfo` among the error's `details` says how long to wait
/// (`"retryDelay": "38s"`, <https://github.com/letterstory/lettertrace/pull/34>): it is the
/// error's [`retry_after`](ProviderError::retry_after), before the text's `Please retry in
/// 58.9s`.
///
/// ```
/// use transcript_replay::{gemini, errors::ProviderErrorKind};
///
/// let error = gemini::read_error(400, r#"{"error": {"code": 400, "message": "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).", "status": "INVALID_ARGUMENT"}}"#);
/// assert_eq!(error.kind, ProviderErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.limit), (Some(1_200_293), Some(1_048_576)));
///
/// let quota = gemini::read_error(429, r#"{"error": {"code": 429, "message": "You exceeded your current quota. Please retry in 38.2s.",
///     "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "38s"}]}}"#);
/// assert_eq!(quota.retry_after, Some(std::time::Duration::from_secs(38)));
///
/// let busy = gemini::read_error(503, r#"[{"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}]"#);
/// assert_eq!((busy.kind, busy.retryable), (ProviderErrorKind::Overloaded, true));
/// ```
pub fn read_error(status: u16, body: &str) -> ProviderError {
    read(Some(status), body)
        .unwrap_or_else(|| ProviderError::of_status(Provider::Gemini, Some(status), body))
}

/// The error object a body or a stream carries, when it is one.
pub(super) fn read(status: Option<u16>, body: &str) -> Option<ProviderError> {
    // An array first: serde reads a struct from an array too, by position.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Body {
        Many(Vec<Wrapped>),
        One(Wrapped),
    }
    #[derive(Deserialize)]
    struct Wrapped {
        error: Object,
    }
    #[derive(Deserialize)]
    struct Object {
        #[serde(default)]
        code: Option<u16>,
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        status: Option<String>,
        #[serde(default)]
        details: Vec<serde_json::Value>,
    }
    let error = match serde_json::from_str::<Body>(body).ok()? {
        Body::One(wrapped) => wrapped.error,
        Body::Many(many) => many.into_iter().next()?.error,
    };
    let kind = error
        .status
        .as_deref()
        .and_then(|name| {
            STATUSES
                .iter()
                .find(|(known, _)| *known == name)
                .map(|&(_, kind)| kind)
        })
        .unwrap_or_else(|| ProviderErrorKind::of_status(error.code.or(status)));
    let retry_delay = error.details.iter().find_map(|detail| {
        let kind = detail.get("@type")?.as_str()?;
        if !kind.ends_with("google.rpc.RetryInfo") {
            return None;
        }
        go_duration(detail.get("retryDelay")?.as_str()?)
    });
    let mut read = ProviderError::new(
        Provider::Gemini,
        status.or(error.code),
        kind,
        error.status,
        error.message.unwrap_or_default(),
    );
    read.retry_after = retry_delay.or(read.retry_after);
    Some(read)
}
