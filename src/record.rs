//! The stored record: what an agent runtime writes to disk for one conversation.

use serde::Serialize;

/// One stored message of a conversation: who spoke, and the blocks it is made of.
///
/// Its JSON shape is the one an existing agent runtime already writes, so conversation files
/// load unchanged. `usage` and `timestamp` may be absent; when they are, they are not written
/// back. Unknown keys are ignored when reading.
///
/// ```
/// use transcript_replay::{Block, Role, StoredMessage};
///
/// let message: StoredMessage = serde_json::from_str(
///     r#"{"role": "user", "blocks": [{"type": "text", "text": "Hi"}], "client": "tui"}"#,
/// )?;
/// assert_eq!(message.role, Role::User);
/// assert_eq!(message.blocks, [Block::Text { text: "Hi".into() }]);
/// assert_eq!(
///     serde_json::to_string(&message)?,
///     r#"{"role":"user","blocks":[{"type":"text","text":"Hi"}]}"#,
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    /// Who produced the message.
    pub role: Role,
    /// The message's content, in order.
    pub blocks: Vec<Block>,
    /// Token counts reported for the turn that produced the message, when they were stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    /// When the message was stored, kept as the exact string it was stored as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// The role of a stored message.
///
/// `Tool` exists in the record because runtimes store tool rounds on their own; on the wire it
/// becomes [`WireRole::Assistant`](crate::WireRole::Assistant), since a tool round is the
/// assistant's own work.
///
/// ```
/// use transcript_replay::Role;
///
/// assert_eq!(serde_json::to_string(&Role::Tool)?, r#""tool""#);
/// assert_eq!(serde_json::from_str::<Role>(r#""assistant""#)?, Role::Assistant);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions or a compaction summary written by the runtime.
    System,
    /// A person's turn.
    User,
    /// The model's turn.
    Assistant,
    /// A tool round stored on its own.
    Tool,
}

/// One block of a stored message. Each kind has exactly one prose form on replay.
///
/// This enum is deliberately not `#[non_exhaustive]`: a new kind of block must break every
/// exhaustive `match`, downstream too, rather than quietly go missing from replay.
///
/// ```
/// use transcript_replay::Block;
///
/// let block: Block = serde_json::from_str(
///     r#"{"type": "tool_use", "id": "t1", "name": "read", "input": "{\"path\":\"a.rs\"}"}"#,
/// )?;
/// assert_eq!(
///     block,
///     Block::ToolUse { id: "t1".into(), name: "read".into(), input: r#"{"path":"a.rs"}"#.into() },
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Serialize, Debug, Clone, PartialEq, Eq, Hash)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// A tool call the assistant made.
    ToolUse {
        /// The call's id, as the provider gave it. Replay does not use it: ids create wire
        /// obligations that a persisted history cannot always keep.
        id: String,
        /// The tool's name.
        name: String,
        /// The tool's input, as the JSON text it was stored as; replayed verbatim.
        input: String,
    },
    /// What a tool call returned.
    ToolResult {
        /// The id of the call this answers. Replay does not use it.
        tool_use_id: String,
        /// The name of the tool that ran.
        tool_name: String,
        /// What the tool returned.
        output: String,
        /// Whether the tool failed; an error stays an error on replay.
        is_error: bool,
    },
    /// The model's visible reasoning.
    Reasoning {
        /// The reasoning text.
        reasoning: String,
    },
    /// An image, stored inline.
    Image {
        /// The stored media type, such as `image/png`.
        media_type: String,
        /// The image bytes in base64 (standard alphabet, `=` padding).
        data: String,
    },
}

/// Token counts stored with a message.
///
/// The two cache counts are optional in the record and default to 0; a count of 0 is not
/// written back.
///
/// ```
/// use transcript_replay::TokenUsage;
///
/// let usage: TokenUsage = serde_json::from_str(r#"{"input_tokens": 10, "output_tokens": 5}"#)?;
/// assert_eq!(usage.cache_read_input_tokens, 0);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TokenUsage {
    /// Tokens read by the model.
    pub input_tokens: u64,
    /// Tokens the model wrote.
    pub output_tokens: u64,
    /// Tokens written to the provider's prompt cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_creation_input_tokens: u64,
    /// Tokens read from the provider's prompt cache.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_read_input_tokens: u64,
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
fn is_zero(count: &u64) -> bool {
    *count == 0
}
