//! Why a reply stopped, one word for every provider's.

use std::fmt;

use serde::ser::{Serialize, Serializer};

/// Why the model stopped, normalized across providers, so that a loop can tell a finished
/// answer from a tool call, a truncated answer or a refusal without parsing the reply again.
///
/// Each provider module documents how its own words map. Two rules hold for all of them:
/// a reply that calls a tool stops for [`ToolUse`](StopReason::ToolUse) whenever the
/// provider's word is its ordinary end (Gemini says `STOP` for a tool call, Responses
/// `completed`), and a reply whose content is a refusal stops for
/// [`Refusal`](StopReason::Refusal). A word the crate does not know is kept verbatim in
/// [`Other`](StopReason::Other); a reply that names no reason at all is `Other("")`.
///
/// It serializes, and [`as_str`](StopReason::as_str) spells it, as `end_turn`, `tool_use`,
/// `max_tokens`, `stop_sequence`, `refusal`, `paused`, `context_window_exceeded`,
/// `content_filter`, or the provider's own word.
///
/// ```
/// use transcript_replay::{openai, StopReason};
///
/// let reply = openai::read_reply(r#"{"choices": [{"message": {"role": "assistant", "content": null},
///     "finish_reason": "length"}]}"#)?;
/// assert_eq!(reply.stop, StopReason::MaxTokens);
/// assert!(reply.message.blocks.is_empty());
/// assert_eq!(serde_json::to_string(&reply.stop).unwrap(), r#""max_tokens""#);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The model finished its turn.
    EndTurn,
    /// The model called tools: run them and send the results.
    ToolUse,
    /// The reply reached its token limit; a tool input it cut off is flagged
    /// ([`Reply::incomplete_calls`](crate::Reply::incomplete_calls)).
    MaxTokens,
    /// The model wrote one of the request's stop sequences.
    StopSequence,
    /// The model refused.
    Refusal,
    /// The provider paused a long turn (Anthropic's `pause_turn`, spelled `paused`): the
    /// reply is a round with no outputs, and `Turn::round(&reply, &[])` continues it, the
    /// body then ending on the paused content as Anthropic documents ("You may provide the
    /// response back as-is in a subsequent request to let the model continue").
    Paused,
    /// The reply reached the end of the model's context window.
    ContextWindowExceeded,
    /// A content filter or guardrail stopped the reply.
    ContentFilter,
    /// Any other reason, in the provider's own word.
    Other(String),
}

impl StopReason {
    /// The reason's name: `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, `refusal`,
    /// `paused`, `context_window_exceeded`, `content_filter`, or the provider's word.
    ///
    /// ```
    /// use transcript_replay::StopReason;
    ///
    /// assert_eq!(StopReason::ToolUse.as_str(), "tool_use");
    /// assert_eq!(StopReason::Other("MALFORMED_FUNCTION_CALL".into()).as_str(), "MALFORMED_FUNCTION_CALL");
    /// ```
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::ToolUse => "tool_use",
            StopReason::MaxTokens => "max_tokens",
            StopReason::StopSequence => "stop_sequence",
            StopReason::Refusal => "refusal",
            StopReason::Paused => "paused",
            StopReason::ContextWindowExceeded => "context_window_exceeded",
            StopReason::ContentFilter => "content_filter",
            StopReason::Other(word) => word,
        }
    }

    /// The reason for a provider's word: `known` maps the words the provider documents, and
    /// any other word (or none) is kept as [`Other`](StopReason::Other).
    pub(crate) fn from_word(word: Option<&str>, known: &[(&str, StopReason)]) -> Self {
        let word = word.unwrap_or_default();
        known.iter().find(|(name, _)| *name == word).map_or_else(
            || StopReason::Other(word.to_owned()),
            |(_, reason)| reason.clone(),
        )
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for StopReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
