//! Reading an OpenAI error response, or an error in a stream, into a [`ProviderError`]: Chat
//! Completions and Responses share the shape.

use serde_json::Value;

use crate::errors::provider::{ProviderError, ProviderErrorKind};
use crate::provider::Provider;

/// The error codes whose kind the status does not say
/// (<https://platform.openai.com/docs/guides/error-codes>): a quota that is used up is a 429
/// no retry helps.
const CODES: [(&str, ProviderErrorKind); 6] = [
    (
        "context_length_exceeded",
        ProviderErrorKind::ContextWindowExceeded,
    ),
    (
        "string_above_max_length",
        ProviderErrorKind::RequestTooLarge,
    ),
    ("rate_limit_exceeded", ProviderErrorKind::RateLimited),
    ("insufficient_quota", ProviderErrorKind::Other),
    ("invalid_api_key", ProviderErrorKind::Authentication),
    ("server_error", ProviderErrorKind::Server),
];

/// The error types, where neither the code nor the status says more.
const TYPES: [(&str, ProviderErrorKind); 5] = [
    (
        "exceed_context_size_error",
        ProviderErrorKind::ContextWindowExceeded,
    ),
    ("invalid_request_error", ProviderErrorKind::InvalidRequest),
    ("authentication_error", ProviderErrorKind::Authentication),
    ("server_error", ProviderErrorKind::Server),
    ("insufficient_quota", ProviderErrorKind::Other),
];

/// Reads an OpenAI Chat Completions error response (`{"error": {"message", "type", "param",
/// "code"}}`) and its HTTP status into a [`ProviderError`].
///
/// The kind comes from the error's `code` where it says one (`context_length_exceeded`,
/// `rate_limit_exceeded`; `insufficient_quota`, a 429 that no retry helps, is `other`), then
/// from the status (429 rate limited, 503 overloaded, 5xx server, 401, 403, 404, 413), then
/// from the `type`. A text that names the context window is an overflow, with its counts:
/// `This model's maximum context length is 4097 tokens. However, your messages resulted in
/// 4294 tokens` (limit 4097, used 4294). A body that is not OpenAI's JSON is read by its
/// status alone.
///
/// ```
/// use transcript_replay::{openai, errors::ProviderErrorKind};
///
/// let error = openai::read_error(400, r#"{"error": {"message": "This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.",
///     "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}"#);
/// assert_eq!(error.kind, ProviderErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.limit), (Some(4294), Some(4097)));
///
/// let quota = openai::read_error(429, r#"{"error": {"message": "You exceeded your current quota.", "type": "insufficient_quota", "code": "insufficient_quota"}}"#);
/// assert_eq!((quota.kind, quota.retryable), (ProviderErrorKind::Other, false));
/// ```
pub fn read_error(status: u16, body: &str) -> ProviderError {
    read(Provider::OpenAi, Some(status), body)
}

/// An error of either OpenAI surface: a response body, or an error in a stream.
pub(crate) fn read(provider: Provider, status: Option<u16>, body: &str) -> ProviderError {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return ProviderError::of_status(provider, status, body);
    };
    let text = |value: &Value| value.as_str().map(str::to_owned);
    match (
        value.get("error"),
        value.get("message"),
        value.get("detail"),
    ) {
        // OpenAI's `{"error": {"message", "type", "code"}}`.
        (Some(error @ Value::Object(_)), _, _) => of_object(provider, status, error),
        // Ollama's `{"error": "model \"x\" not found"}`.
        (Some(Value::String(message)), _, _) => {
            from_parts(provider, status, None, None, Some(message.clone()))
        }
        // Mistral's and vLLM's `{"object": "error", "message", "type", "code"}`.
        (_, Some(Value::String(_)), _) => of_object(provider, status, &value),
        // A validation error of FastAPI servers (Mistral's 422 `extra_forbidden`):
        // `{"detail": [{"type", "loc", "msg"}]}`, or `{"detail": "..."}`.
        (_, _, Some(detail)) => {
            let (kind, message) = match detail {
                Value::String(message) => (None, Some(message.clone())),
                Value::Array(items) => (
                    items
                        .first()
                        .and_then(|item| item.get("type"))
                        .and_then(text),
                    Some(
                        items
                            .iter()
                            .map(|item| {
                                let field = crate::reply::field;
                                let place = field(item, &["loc"])
                                    .as_array()
                                    .map(|loc| {
                                        loc.iter()
                                            .map(|part| match part {
                                                Value::String(part) => part.clone(),
                                                other => other.to_string(),
                                            })
                                            .collect::<Vec<_>>()
                                            .join(".")
                                    })
                                    .unwrap_or_default();
                                let message = field(item, &["msg"]).as_str().unwrap_or_default();
                                match place.is_empty() {
                                    true => message.to_owned(),
                                    false => format!("{place}: {message}"),
                                }
                            })
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                ),
                other => (None, Some(other.to_string())),
            };
            from_parts(provider, status, None, kind, message)
        }
        (_, _, None) => ProviderError::of_status(provider, status, body),
    }
}

/// An error object (`{"message", "type", "code"}`), with the status when there is one. A
/// numeric `code` where no status came (an error in a stream) says the kind as a status
/// would: OpenRouter's codes are HTTP statuses
/// (<https://openrouter.ai/docs/api-reference/errors>). A code the dialect lists in
/// [`retryable_codes`](crate::Dialect::retryable_codes) is retryable, whatever its kind.
fn of_object(provider: Provider, status: Option<u16>, object: &Value) -> ProviderError {
    let text = |value: &Value| value.as_str().map(str::to_owned);
    let code = match object.get("code") {
        Some(Value::String(code)) => Some(code.clone()),
        Some(Value::Number(code)) => Some(code.to_string()),
        Some(_) | None => None,
    };
    let numeric = object
        .get("code")
        .and_then(Value::as_u64)
        .and_then(|code| u16::try_from(code).ok())
        .filter(|code| (400..=599).contains(code));
    let mut error = error_of(
        provider,
        status,
        status.or(numeric),
        code,
        object.get("type").and_then(text),
        object.get("message").and_then(text),
    );
    // llama.cpp's server gives the counts beside its text: `"type":
    // "exceed_context_size_error", "n_prompt_tokens": 14429, "n_ctx": 8192`
    // (<https://github.com/ggml-org/llama.cpp/pull/15780>).
    if error.kind == ProviderErrorKind::ContextWindowExceeded {
        let count = |name: &str| object.get(name).and_then(Value::as_u64);
        error.used = error.used.or_else(|| count("n_prompt_tokens"));
        error.limit = error.limit.or_else(|| count("n_ctx"));
    }
    // A code the server's dialect says a retry may cure.
    let cured = provider.dialect().is_some_and(|dialect| {
        error
            .code()
            .is_some_and(|code| dialect.retryable_codes.contains(&code))
    });
    error.retryable |= cured;
    error
}

/// A stream whose choice ended with `finish_reason: "error"`, as OpenRouter ends one when the
/// upstream provider fails after the stream began (the HTTP status is already 200,
/// <https://openrouter.ai/docs/api-reference/streaming>,
/// <https://openrouter.ai/docs/api-reference/errors>): the error the choice carries, or,
/// when it carries none, a server error (the upstream provider failed; a retry may succeed).
pub(super) fn finished_in_error(provider: Provider, error: Option<&Value>) -> ProviderError {
    match error {
        Some(object @ Value::Object(_)) => of_object(provider, None, object),
        Some(_) | None => ProviderError::new(
            provider,
            None,
            ProviderErrorKind::Server,
            None,
            "the stream ended with finish_reason \"error\"".to_owned(),
        ),
    }
}

/// The error of a code, a type and a message, with the status when there is one.
pub(crate) fn from_parts(
    provider: Provider,
    status: Option<u16>,
    code: Option<String>,
    kind: Option<String>,
    message: Option<String>,
) -> ProviderError {
    error_of(provider, status, status, code, kind, message)
}

/// The error of a code, a type and a message, with the status when there is one, and the kind
/// found as [`from_parts`] finds it, by the status `kind_status` where the code says none.
fn error_of(
    provider: Provider,
    status: Option<u16>,
    kind_status: Option<u16>,
    code: Option<String>,
    kind: Option<String>,
    message: Option<String>,
) -> ProviderError {
    let find = |table: &[(&str, ProviderErrorKind)], name: Option<&str>| {
        name.and_then(|name| {
            table
                .iter()
                .find(|(known, _)| *known == name)
                .map(|&(_, kind)| kind)
        })
    };
    let by_status = ProviderErrorKind::of_status(kind_status);
    let error_kind = find(&CODES, code.as_deref())
        .or((by_status != ProviderErrorKind::Other).then_some(by_status))
        .or_else(|| find(&TYPES, kind.as_deref()))
        .unwrap_or(ProviderErrorKind::Other);
    ProviderError::new(
        provider,
        status,
        error_kind,
        code.or(kind),
        message.unwrap_or_default(),
    )
}
