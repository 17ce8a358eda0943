//! Reading a Responses error response into a [`ProviderError`]: the shape Chat Completions
//! errors have.

use crate::errors::provider::ProviderError;
use crate::openai;
use crate::provider::Provider;

/// Reads a Responses error response (`{"error": {"message", "type", "param", "code"}}`) and
/// its HTTP status into a [`ProviderError`], as
/// [`openai::read_error`](crate::openai::read_error) reads Chat Completions errors: Responses
/// says a history outgrew the window with `code: "context_length_exceeded"` and "Your input
/// exceeds the context window of this model" (<https://github.com/dyad-sh/dyad/issues/1672>).
///
/// ```
/// use transcript_replay::{openai_responses, errors::ProviderErrorKind};
///
/// let error = openai_responses::read_error(400, r#"{"error": {"message": "Your input exceeds the context window of this model. Please adjust your input and try again.",
///     "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}}"#);
/// assert_eq!(error.kind, ProviderErrorKind::ContextWindowExceeded);
/// assert_eq!(error.used, None);
/// ```
pub fn read_error(status: u16, body: &str) -> ProviderError {
    openai::read_any_error(Provider::OpenAiResponses, Some(status), body)
}
