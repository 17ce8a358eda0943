//! Reading a Bedrock error response, or an exception frame of a stream, into a
//! [`ProviderError`].

use serde::Deserialize;

use crate::errors::provider::{ProviderError, ProviderErrorKind};
use crate::errors::retry_after::header;
use crate::provider::Provider;

/// The exceptions Bedrock Runtime's service model names, and their kinds
/// (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html>):
/// `ModelTimeoutException` (408, "Processing time exceeded the model timeout length",
/// <https://docs.aws.amazon.com/botocore/latest/reference/services/bedrock-runtime/client/exceptions/ModelTimeoutException.html>)
/// is a server error a retry may help; `ModelNotReadyException` and
/// `ServiceUnavailableException` an overload; `ThrottlingException` a rate limit.
const EXCEPTIONS: [(&str, ProviderErrorKind); 11] = [
    ("ValidationException", ProviderErrorKind::InvalidRequest),
    ("AccessDeniedException", ProviderErrorKind::Permission),
    ("ResourceNotFoundException", ProviderErrorKind::NotFound),
    ("ThrottlingException", ProviderErrorKind::RateLimited),
    (
        "ServiceQuotaExceededException",
        ProviderErrorKind::RateLimited,
    ),
    ("ServiceUnavailableException", ProviderErrorKind::Overloaded),
    ("ModelNotReadyException", ProviderErrorKind::Overloaded),
    ("InternalServerException", ProviderErrorKind::Server),
    ("ModelStreamErrorException", ProviderErrorKind::Server),
    ("ModelTimeoutException", ProviderErrorKind::Server),
    ("ModelErrorException", ProviderErrorKind::Server),
];

/// Reads a Bedrock error response (`{"message": ...}`) and its HTTP status into a
/// [`ProviderError`].
///
/// Bedrock names the exception in a header (`x-amzn-ErrorType`), not in the body, so without
/// the headers (which [`Provider::read_error`](crate::Provider::read_error)
/// takes) the kind comes from the status (400 invalid request, 403 permission, 404 not found, 429 rate
/// limited, 503 overloaded, 5xx server) and the text: Anthropic's overflow text inside a
/// `ValidationException` ("The model returned the following errors: prompt is too long:
/// 200049 tokens > 200000 maximum", <https://github.com/daisuke-awaji/moca/issues/254>) and
/// Bedrock's own `Input is too long for requested model.` are a context window overflow. A
/// body that names its exception in `__type` is read by that name.
///
/// ```
/// use transcript_replay::{bedrock, errors::ProviderErrorKind};
///
/// let error = bedrock::read_error(400, r#"{"message": "The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"}"#);
/// assert_eq!(error.kind, ProviderErrorKind::ContextWindowExceeded);
/// assert_eq!((error.used, error.limit), (Some(200_049), Some(200_000)));
///
/// let error = bedrock::read_error(429, r#"{"message": "Too many requests, please wait before trying again."}"#);
/// assert_eq!((error.kind, error.retryable), (ProviderErrorKind::RateLimited, true));
/// ```
pub fn read_error(status: u16, body: &str) -> ProviderError {
    read_named(status, None, body)
}

/// Reads a Bedrock error response with the response's headers: the exception's name comes
/// from `x-amzn-ErrorType` (`ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/`,
/// the name before the first `:`) when the body does not name it in `__type`, and the wait
/// from `retry-after` as for every provider.
pub(crate) fn read_error_with_headers(
    status: u16,
    headers: &[(&str, &str)],
    body: &str,
) -> ProviderError {
    let named = header(headers, "x-amzn-ErrorType")
        .map(|value| value.split(':').next().unwrap_or(value).trim())
        .filter(|name| !name.is_empty());
    read_named(status, named, body).with_headers(headers)
}

/// An error body, with the exception's name when a header gave it.
fn read_named(status: u16, header_name: Option<&str>, body: &str) -> ProviderError {
    #[derive(Deserialize)]
    struct Body {
        #[serde(alias = "Message", default)]
        message: Option<String>,
        #[serde(rename = "__type", default)]
        kind: Option<String>,
        #[serde(rename = "originalStatusCode", default)]
        original_status: Option<u16>,
    }
    match serde_json::from_str::<Body>(body) {
        Ok(Body {
            message,
            kind,
            original_status,
        }) => {
            // `__type` may carry a namespace: `com.amazon.bedrock#ValidationException`.
            let name = kind
                .as_deref()
                .map(|name| name.rsplit('#').next().unwrap_or(name).to_owned())
                .or_else(|| header_name.map(str::to_owned));
            let error_kind = name
                .as_deref()
                .and_then(|name| kind_of(name, original_status))
                .unwrap_or_else(|| ProviderErrorKind::of_status(Some(status)));
            ProviderError::new(
                Provider::Bedrock,
                Some(status),
                error_kind,
                name,
                message.unwrap_or_default(),
            )
        }
        Err(_) => {
            let mut error = ProviderError::of_status(Provider::Bedrock, Some(status), body);
            if let Some(kind) = header_name.and_then(|name| kind_of(name, None)) {
                error = ProviderError::new(
                    Provider::Bedrock,
                    Some(status),
                    kind,
                    header_name.map(str::to_owned),
                    error.message,
                );
            }
            error
        }
    }
}

/// An exception frame of a stream (`:exception-type` `throttlingException`, ...), with its
/// payload `{"message": ...}`.
pub(super) fn read_exception(name: &str, payload: &str) -> ProviderError {
    #[derive(Deserialize)]
    struct Payload {
        #[serde(alias = "Message", default)]
        message: Option<String>,
        #[serde(rename = "originalStatusCode", default)]
        original_status: Option<u16>,
    }
    let read = serde_json::from_str::<Payload>(payload).ok();
    let original_status = read.as_ref().and_then(|read| read.original_status);
    let message = read
        .and_then(|payload| payload.message)
        .unwrap_or_else(|| payload.to_owned());
    ProviderError::new(
        Provider::Bedrock,
        None,
        kind_of(name, original_status).unwrap_or(ProviderErrorKind::Other),
        Some(name.to_owned()),
        message,
    )
}

/// The kind of an exception, by its name in either case of its first letter. A model's own
/// failure (`ModelErrorException`, 424, and `ModelStreamErrorException`) carries the model's
/// status in `originalStatusCode`
/// (<https://docs.aws.amazon.com/botocore/latest/reference/services/bedrock-runtime/client/exceptions/ModelErrorException.html>):
/// its kind is that status's (a 400 is the request's fault and no retry helps, a 429 a rate
/// limit), and a server error, which a retry may help, when it has none.
fn kind_of(name: &str, original_status: Option<u16>) -> Option<ProviderErrorKind> {
    let kind = EXCEPTIONS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name))
        .map(|&(_, kind)| kind)?;
    let of_model = ["ModelErrorException", "ModelStreamErrorException"]
        .iter()
        .any(|model| model.eq_ignore_ascii_case(name));
    Some(match (of_model, original_status) {
        (true, Some(status)) => match ProviderErrorKind::of_status(Some(status)) {
            ProviderErrorKind::Other => kind,
            by_status => by_status,
        },
        (true, None) | (false, _) => kind,
    })
}
