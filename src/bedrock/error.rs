//! Reading a Bedrock error response, or an exception frame of a stream, into a
//! [`ProviderError`].

use serde::Deserialize;

use crate::provider::Provider;
use crate::provider_error::{ErrorKind, ProviderError};

/// The exceptions Bedrock Runtime's service model names, and their kinds
/// (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html>).
const EXCEPTIONS: [(&str, ErrorKind); 11] = [
    ("ValidationException", ErrorKind::InvalidRequest),
    ("AccessDeniedException", ErrorKind::Permission),
    ("ResourceNotFoundException", ErrorKind::NotFound),
    ("ThrottlingException", ErrorKind::RateLimited),
    ("ServiceQuotaExceededException", ErrorKind::RateLimited),
    ("ServiceUnavailableException", ErrorKind::Overloaded),
    ("ModelNotReadyException", ErrorKind::Overloaded),
    ("InternalServerException", ErrorKind::Server),
    ("ModelStreamErrorException", ErrorKind::Server),
    ("ModelTimeoutException", ErrorKind::Server),
    ("ModelErrorException", ErrorKind::Server),
];

/// Reads a Bedrock error response (`{"message": ...}`) and its HTTP status into a
/// [`ProviderError`].
///
/// Bedrock names the exception in a header (`x-amzn-ErrorType`), not in the body, so the
/// kind comes from the status (400 invalid request, 403 permission, 404 not found, 429 rate
/// limited, 503 overloaded, 5xx server) and the text: Anthropic's overflow text inside a
/// `ValidationException` ("The model returned the following errors: prompt is too long:
/// 200049 tokens > 200000 maximum", <https://github.com/daisuke-awaji/moca/issues/254>) and
/// Bedrock's own `Input is too long for requested model.` are a context window overflow. A
/// body that names its exception in `__type` is read by that name.
///
/// ```
/// use transcript_replay::{bedrock, ErrorKind};
///
/// let error = bedrock::read_error(400, r#"{"message": "The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"}"#);
/// assert_eq!(error.kind, ErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.limit), (Some(200_049), Some(200_000)));
///
/// let error = bedrock::read_error(429, r#"{"message": "Too many requests, please wait before trying again."}"#);
/// assert_eq!((error.kind, error.retryable), (ErrorKind::RateLimited, true));
/// ```
pub fn read_error(status: u16, body: &str) -> ProviderError {
    #[derive(Deserialize)]
    struct Body {
        #[serde(alias = "Message", default)]
        message: Option<String>,
        #[serde(rename = "__type", default)]
        kind: Option<String>,
    }
    match serde_json::from_str::<Body>(body) {
        Ok(Body { message, kind }) => {
            // `__type` may carry a namespace: `com.amazon.bedrock#ValidationException`.
            let name = kind
                .as_deref()
                .map(|name| name.rsplit('#').next().unwrap_or(name).to_owned());
            let error_kind = name
                .as_deref()
                .and_then(kind_of)
                .unwrap_or_else(|| ErrorKind::of_status(Some(status)));
            ProviderError::new(
                Provider::Bedrock,
                Some(status),
                error_kind,
                name,
                message.unwrap_or_default(),
            )
        }
        Err(_) => ProviderError::of_status(Provider::Bedrock, Some(status), body),
    }
}

/// An exception frame of a stream (`:exception-type` `throttlingException`, ...), with its
/// payload `{"message": ...}`.
pub(super) fn read_exception(name: &str, payload: &str) -> ProviderError {
    #[derive(Deserialize)]
    struct Payload {
        #[serde(alias = "Message", default)]
        message: Option<String>,
    }
    let message = serde_json::from_str::<Payload>(payload)
        .ok()
        .and_then(|payload| payload.message)
        .unwrap_or_else(|| payload.to_owned());
    ProviderError::new(
        Provider::Bedrock,
        None,
        kind_of(name).unwrap_or(ErrorKind::Other),
        Some(name.to_owned()),
        message,
    )
}

/// The kind of an exception, by its name in either case of its first letter.
fn kind_of(name: &str) -> Option<ErrorKind> {
    EXCEPTIONS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name))
        .map(|&(_, kind)| kind)
}
