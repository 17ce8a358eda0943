//! A provider's reply that could not be read: where in the body, and what.

use crate::provider::Provider;

/// A provider's reply that could not be read into a stored message, saying where and what.
///
/// Where is the path of the value in the response body (`choices[0].message.tool_calls[1]`)
/// and its line and column (both from 1); what is the value that is not what the provider
/// documents. A reply is never refused for what it contains: content of a kind the crate does
/// not read is kept as a marker ([`Reply::not_kept`](crate::Reply::not_kept)); only bytes that
/// are not the provider's documented shape are this error.
///
/// ```
/// use transcript_replay::anthropic;
///
/// let reply = r#"{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "ls"}]}"#;
/// let error = anthropic::read_reply(reply).unwrap_err();
/// assert_eq!(error.path(), "content[0]");
/// assert_eq!(
///     error.to_string(),
///     "Anthropic reply, content[0] (line 1, column 35): missing field `input` in a tool_use block",
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{provider} reply, {path} (line {line}, column {column}): {what}")]
pub struct ReplyError {
    pub(crate) provider: Provider,
    pub(crate) path: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) what: String,
}

impl ReplyError {
    /// The path of the value in the response body, such as `candidates[0].content.parts[2]`;
    /// `"the body"` for the body itself.
    ///
    /// ```
    /// let error = transcript_replay::gemini::read_reply("[]").unwrap_err();
    /// assert_eq!(error.path(), "the body");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong, without where.
    pub(crate) fn what(&self) -> &str {
        &self.what
    }

    /// The line of the response body where the value is, from 1.
    ///
    /// ```
    /// let error = transcript_replay::openai::read_reply("{\n\"choices\": []}").unwrap_err();
    /// assert_eq!((error.line(), error.column()), (2, 12));
    /// ```
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column of the response body where the value is, from 1.
    ///
    /// ```
    /// let error = transcript_replay::openai::read_reply("nope").unwrap_err();
    /// assert_eq!(error.column(), 2);
    /// ```
    pub fn column(&self) -> usize {
        self.column
    }
}
