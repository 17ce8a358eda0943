//! The stored record: what an agent runtime writes to disk for one conversation.
//!
//! The record's JSON shape, and the errors of a record that cannot be read, are on
//! [`parse_record`](crate::parse_record) and [`StoredMessage`]. Why the version rule and the
//! unknown block type are as they are: `docs/design.md#record` in the repository.
//!
//! # Guarantees
//!
//! Each a property a test checks (`tests/` in the crate, `conformance/tests/` in the
//! repository's conformance suite):
//!
//! - **No panic.** [`parse_record`](crate::parse_record) returns a value or an
//!   [`Error`](crate::RecordError) for any text, including arbitrary strings and records damaged at
//!   any byte (`conformance/tests/conformance/replay_invariants.rs`; the fuzz target, `fuzz/`).
//! - **The store's formatting does not reach the model**: a tool input stored as a JSON value
//!   replays the same bytes whether it was written compactly or pretty-printed, and reads
//!   back as the same value (`conformance/tests/conformance/compact_input.rs`, `tests/spec/lenient_reading.rs`).
//! - **Lossless records**: a record written back, with serde or as a conversation file
//!   ([`write_record`](crate::write_record)), reads back equal, and a tool input keeps the form
//!   it was stored in (`conformance/tests/conformance/record_round_trip.rs`, `tests/spec/conversation_file.rs`,
//!   `tests/spec/lenient_reading.rs`).
//! - **Errors that say where and what**, lowercase and without a trailing period, for every
//!   kind of bad record, including nesting 10,000 levels deep (`tests/spec/parse_errors.rs`,
//!   `conformance/tests/conformance/adversarial.rs`).
//! - **Hostile records**: NUL and control characters in every string, media types that try to
//!   forge a marker, lone surrogates, wrong types, a 100 MB tool output, a record of 1,000,000
//!   messages, crafted image headers, and base64 with white space, inner padding or non-zero
//!   trailing bits (`conformance/tests/conformance/adversarial.rs`).

pub(crate) mod compaction;
pub(crate) mod conversation_file;
pub(crate) mod kept;

use std::fmt;

use serde::ser::{Serialize, SerializeSeq, Serializer};

use self::kept::UnknownKeys;

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    /// Who produced the message.
    pub role: Role,
    /// The message's content, in order.
    pub blocks: Vec<Block>,
    /// Token counts reported for the turn that produced the message, when they were stored.
    pub usage: Option<TokenUsage>,
    /// When the message was stored, kept as the exact string it was stored as.
    pub timestamp: Option<String>,
    /// The keys of the message and of its blocks that this version does not read, as a
    /// newer version stored them: written back where they stood, never replayed. Empty for a
    /// message the runtime builds.
    pub unknown: UnknownKeys,
}

/// The message as the record writes it: its keys in order, and, when it holds keys this
/// version does not read, each put back where it stood.
impl Serialize for StoredMessage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Known<'m> {
            role: Role,
            blocks: Blocks<'m>,
            #[serde(skip_serializing_if = "Option::is_none")]
            usage: Option<TokenUsage>,
            #[serde(skip_serializing_if = "Option::is_none")]
            timestamp: &'m Option<String>,
        }
        struct Blocks<'m>(&'m StoredMessage);
        impl Serialize for Blocks<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let message = self.0;
                if message.unknown.blocks.is_empty() {
                    return message.blocks.serialize(serializer);
                }
                let mut seq = serializer.serialize_seq(Some(message.blocks.len()))?;
                for (index, block) in message.blocks.iter().enumerate() {
                    let kept = message.unknown.of_block(index);
                    match block.type_keys() {
                        Some(order) if !kept.is_empty() => {
                            seq.serialize_element(&kept::With(block, order, kept))?;
                        }
                        Some(_) | None => seq.serialize_element(block)?,
                    }
                }
                seq.end()
            }
        }
        let known = Known {
            role: self.role,
            blocks: Blocks(self),
            usage: self.usage,
            timestamp: &self.timestamp,
        };
        if self.unknown.message.is_empty() {
            known.serialize(serializer)
        } else {
            kept::serialize_with(
                &known,
                kept::MESSAGE_KEYS,
                &self.unknown.message,
                serializer,
            )
        }
    }
}

/// The role of a stored message.
///
/// `Tool` exists in the record because runtimes store tool rounds on their own; on the wire it
/// becomes [`WireRole::Assistant`](crate::wire::WireRole::Assistant), since a tool round is the
/// assistant's own work.
///
/// ```
/// use transcript_replay::Role;
///
/// assert_eq!(serde_json::to_string(&Role::Tool)?, r#""tool""#);
/// assert_eq!(serde_json::from_str::<Role>(r#""assistant""#)?, Role::Assistant);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
/// assert_eq!(block, Block::tool_use("t1", "read", r#"{"path":"a.rs"}"#));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq, Hash)]
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
        /// The tool's input, as the exact JSON text it was stored as; replayed verbatim when
        /// it is stored as a string, without the white space between its tokens when it is
        /// stored as a JSON value ([`ToolInput`]).
        input: ToolInput,
        /// Whether the provider ran the tool itself (Anthropic's web search, code execution,
        /// MCP connector): such a call never waits for the caller's output, and its result is
        /// the next `tool_result` of the same message. `"provider_executed": true` in the
        /// record; absent means false, and false is not written.
        #[serde(skip_serializing_if = "is_false")]
        provider_executed: bool,
    },
    /// What a tool call returned.
    ToolResult {
        /// The id of the call this answers. Replay does not use it.
        tool_use_id: String,
        /// The name of the tool that ran.
        tool_name: String,
        /// What the tool returned.
        output: String,
        /// Whether the tool failed; an error stays an error on replay. Absent in the record
        /// means `false`.
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
    /// A file that is not an image, stored inline: a PDF, plain text, CSV, Markdown, HTML, an
    /// office document, audio or video. Replayed natively where the model sees and the
    /// provider takes its media type in that place, else as a marker that names why:
    /// `[File contract.pdf (application/pdf) not shown: this model cannot view files]`.
    File {
        /// The stored media type, such as `application/pdf`.
        media_type: String,
        /// The file's bytes in base64 (standard alphabet, `=` padding).
        data: String,
        /// The file's name, such as `contract.pdf`, when it has one; not written when absent.
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// A source the text before it cites (a search result, a page, a document), as a reply's
    /// citations name it: `[Source: {title} <{url}>]` on replay, or `[Source: <{url}>]` /
    /// `[Source: {title}]` when one is missing. At least one of `url` and `title` is present;
    /// `cited_text` is kept in the record and not replayed. Absent fields are not written.
    Source {
        /// Where the source is.
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        /// The source's title.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The words of the source the text cites.
        #[serde(skip_serializing_if = "Option::is_none")]
        cited_text: Option<String>,
    },
    /// What replaced the conversation before it: a summary the provider or the runtime wrote
    /// when it compacted the history, and the provider's own opaque payload when it made one.
    ///
    /// Replay honors the newest compaction the target can read (its `summary`, or its `data`
    /// on the provider that made it): the stored messages before the one holding it are not
    /// sent, one marker says how many (`[3 earlier messages replaced by the summary below]`),
    /// and the block itself goes back as the provider takes it or as
    /// `[Summary of the earlier conversation]: {summary}`. One that the target cannot read
    /// (another provider's `data` and no `summary`) is
    /// `[Earlier conversation compacted by {provider}: not readable here]` where it stood,
    /// and the history before it is sent as it is. At least one of `summary` and `data` is
    /// present, and `provider` with `data`; absent fields are not written.
    Compaction {
        /// The readable summary that replaces the history before it.
        #[serde(skip_serializing_if = "Option::is_none")]
        summary: Option<String>,
        /// The provider whose payload `data` is, by its [`Provider::id`](crate::Provider::id)
        /// (`anthropic`, `openai-responses`).
        #[serde(skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        /// An opaque payload only `provider` can read: Anthropic's `encrypted_content`, or
        /// OpenAI Responses' `compaction` item as it came, as JSON text.
        #[serde(skip_serializing_if = "Option::is_none")]
        data: Option<String>,
    },
    /// A block of a type this version does not read, kept as it was stored (a record written
    /// by a newer version of the crate): written back byte for byte, and replayed as
    /// `[Not kept: a {type} block this version does not read]`.
    ///
    /// Reading a record makes one; its `json` is then the block's exact text. One built by
    /// hand whose `json` is no JSON object is written as `{"type": type_name}`.
    ///
    /// ```
    /// use transcript_replay::{parse_record, write_record, Block};
    ///
    /// let file = r#"{"version":1,"messages":[{"role":"user","blocks":[{"type":"hologram","frames":[1, 2]}]}]}"#;
    /// let record = parse_record(file)?;
    /// let Block::Unknown { type_name, json } = &record[0].blocks[0] else { unreachable!() };
    /// assert_eq!((type_name.as_str(), json.as_str()), ("hologram", r#"{"type":"hologram","frames":[1, 2]}"#));
    /// assert_eq!(write_record(&record), file);
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    #[serde(untagged, serialize_with = "unknown_block")]
    Unknown {
        /// The block's `type`, as stored.
        type_name: String,
        /// The block's exact JSON text, as stored.
        json: String,
    },
}

/// Writes a block of a type this version does not read as its stored text; a text that is
/// no JSON object (a block built by hand) as `{"type": type_name}`.
// serde hands a variant's `serialize_with` its fields as they are typed.
#[allow(clippy::ptr_arg)]
fn unknown_block<S: Serializer>(
    type_name: &String,
    json: &String,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let object = json.trim_start().starts_with('{');
    match serde_json::value::RawValue::from_string(json.clone()) {
        Ok(raw) if object => raw.serialize(serializer),
        Ok(_) | Err(_) => {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry("type", type_name)?;
            map.end()
        }
    }
}

/// Token counts stored with a message.
///
/// The two cache counts and `context_tokens` are optional in the record and default to 0; a
/// count of 0 is not written back.
///
/// A stored turn ([`Turn::store_turn`](crate::Turn::store_turn)) made of several requests
/// (a tool round each) keeps the sums of their counts, which is what the turn cost, and
/// `context_tokens`, the context the turn ended with: the input of its last request with the
/// cache reads and writes included, whichever way the provider counts them. A runtime that
/// shows "context used", or decides when to compact, reads `context_tokens`, not the sums.
///
/// ```
/// use transcript_replay::TokenUsage;
///
/// let usage: TokenUsage = serde_json::from_str(r#"{"input_tokens": 10, "output_tokens": 5}"#)?;
/// assert_eq!((usage.cache_read_input_tokens, usage.context_tokens), (0, 0));
/// let turn: TokenUsage = serde_json::from_str(
///     r#"{"input_tokens": 210, "output_tokens": 40, "context_tokens": 120}"#,
/// )?;
/// assert_eq!(turn.context_tokens, 120);
/// assert_eq!(serde_json::to_string(&turn)?, r#"{"input_tokens":210,"output_tokens":40,"context_tokens":120}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
    /// The context the turn ended with: the input tokens of the turn's last request, cache
    /// reads and writes included. Set by [`Turn::store_turn`](crate::Turn::store_turn); 0
    /// (and not written) when unknown.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub context_tokens: u64,
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
fn is_zero(count: &u64) -> bool {
    *count == 0
}

fn is_false(flag: &bool) -> bool {
    !*flag
}

impl StoredMessage {
    /// A message of the given role and blocks, with no usage and no timestamp.
    ///
    /// ```
    /// use transcript_replay::{Block, Role, StoredMessage};
    ///
    /// let message = StoredMessage::new(Role::Tool, vec![Block::tool_result("t1", "ls", "a.rs")]);
    /// assert_eq!((message.usage, message.timestamp), (None, None));
    /// ```
    pub fn new(role: Role, blocks: Vec<Block>) -> Self {
        StoredMessage {
            role,
            blocks,
            usage: None,
            timestamp: None,
            unknown: UnknownKeys::default(),
        }
    }

    /// A user message of one text block: the usual live turn.
    ///
    /// ```
    /// use transcript_replay::{Block, Role, StoredMessage};
    ///
    /// let turn = StoredMessage::user("Is a.rs empty?");
    /// assert_eq!(turn.role, Role::User);
    /// assert_eq!(turn.blocks, [Block::text("Is a.rs empty?")]);
    /// ```
    pub fn user(text: impl Into<String>) -> Self {
        StoredMessage::new(Role::User, vec![Block::text(text)])
    }

    /// An assistant message of one text block.
    ///
    /// ```
    /// let reply = transcript_replay::StoredMessage::assistant("It is empty.");
    /// assert_eq!(reply.role, transcript_replay::Role::Assistant);
    /// ```
    pub fn assistant(text: impl Into<String>) -> Self {
        StoredMessage::new(Role::Assistant, vec![Block::text(text)])
    }

    /// A system message of one text block, such as a compaction summary.
    ///
    /// ```
    /// let summary = transcript_replay::StoredMessage::system("Summary: a.rs was read.");
    /// assert_eq!(summary.role, transcript_replay::Role::System);
    /// ```
    pub fn system(text: impl Into<String>) -> Self {
        StoredMessage::new(Role::System, vec![Block::text(text)])
    }

    /// The message with the given token counts.
    ///
    /// ```
    /// use transcript_replay::{StoredMessage, TokenUsage};
    ///
    /// let usage = TokenUsage { input_tokens: 10, output_tokens: 5, ..TokenUsage::default() };
    /// let reply = StoredMessage::assistant("Done.").with_usage(usage);
    /// assert_eq!(reply.usage, Some(usage));
    /// ```
    #[must_use]
    pub fn with_usage(mut self, usage: TokenUsage) -> Self {
        self.usage = Some(usage);
        self
    }

    /// The message with the given timestamp, kept as the exact string given.
    ///
    /// ```
    /// let reply = transcript_replay::StoredMessage::assistant("Done.").with_timestamp("2026-08-13T10:00:00Z");
    /// assert_eq!(reply.timestamp.as_deref(), Some("2026-08-13T10:00:00Z"));
    /// ```
    #[must_use]
    pub fn with_timestamp(mut self, timestamp: impl Into<String>) -> Self {
        self.timestamp = Some(timestamp.into());
        self
    }
}

impl Block {
    /// A `text` block.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// assert_eq!(Block::text("Hi"), Block::Text { text: "Hi".into() });
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Block::Text { text: text.into() }
    }

    /// A `tool_use` block. The input is the call's arguments as JSON text: a `&str` or
    /// `String` is stored as a JSON string (`"input": "{...}"`), a [`ToolInput::json`] as the
    /// JSON value itself.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let call = Block::tool_use("t1", "read", r#"{"path":"a.rs"}"#);
    /// assert_eq!(
    ///     serde_json::to_string(&call).unwrap(),
    ///     r#"{"type":"tool_use","id":"t1","name":"read","input":"{\"path\":\"a.rs\"}"}"#,
    /// );
    /// ```
    pub fn tool_use(
        id: impl Into<String>,
        name: impl Into<String>,
        input: impl Into<ToolInput>,
    ) -> Self {
        Block::ToolUse {
            id: id.into(),
            name: name.into(),
            input: input.into(),
            provider_executed: false,
        }
    }

    /// A `tool_use` block of a tool the provider ran itself (a server-side web search): it
    /// owes no output, and is written with `"provider_executed": true`.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let call = Block::provider_tool_use("srvtoolu_1", "web_search", r#"{"query":"rust"}"#);
    /// assert_eq!(
    ///     serde_json::to_string(&call).unwrap(),
    ///     r#"{"type":"tool_use","id":"srvtoolu_1","name":"web_search","input":"{\"query\":\"rust\"}","provider_executed":true}"#,
    /// );
    /// ```
    pub fn provider_tool_use(
        id: impl Into<String>,
        name: impl Into<String>,
        input: impl Into<ToolInput>,
    ) -> Self {
        let mut call = Block::tool_use(id, name, input);
        if let Block::ToolUse {
            provider_executed, ..
        } = &mut call
        {
            *provider_executed = true;
        }
        call
    }

    /// A `tool_result` block of a call that succeeded.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let Block::ToolResult { is_error, .. } = Block::tool_result("t1", "read", "fn main() {}") else { unreachable!() };
    /// assert!(!is_error);
    /// ```
    pub fn tool_result(
        tool_use_id: impl Into<String>,
        tool_name: impl Into<String>,
        output: impl Into<String>,
    ) -> Self {
        Block::ToolResult {
            tool_use_id: tool_use_id.into(),
            tool_name: tool_name.into(),
            output: output.into(),
            is_error: false,
        }
    }

    /// A `tool_result` block of a call that failed: it replays as `Error (name): output`.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let Block::ToolResult { is_error, .. } = Block::tool_error("t1", "bash", "exit 1") else { unreachable!() };
    /// assert!(is_error);
    /// ```
    pub fn tool_error(
        tool_use_id: impl Into<String>,
        tool_name: impl Into<String>,
        output: impl Into<String>,
    ) -> Self {
        let mut result = Block::tool_result(tool_use_id, tool_name, output);
        if let Block::ToolResult { is_error, .. } = &mut result {
            *is_error = true;
        }
        result
    }

    /// A `reasoning` block.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// assert_eq!(Block::reasoning("Need the file."), Block::Reasoning { reasoning: "Need the file.".into() });
    /// ```
    pub fn reasoning(reasoning: impl Into<String>) -> Self {
        Block::Reasoning {
            reasoning: reasoning.into(),
        }
    }

    /// An `image` block: its media type and its bytes in base64.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let image = Block::image("image/png", "iVBORw0KGgo=");
    /// assert!(matches!(image, Block::Image { .. }));
    /// ```
    pub fn image(media_type: impl Into<String>, data: impl Into<String>) -> Self {
        Block::Image {
            media_type: media_type.into(),
            data: data.into(),
        }
    }

    /// A `file` block without a name: its media type and its bytes in base64.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let file = Block::file("application/pdf", "JVBERi0xLjcK");
    /// assert_eq!(
    ///     serde_json::to_string(&file).unwrap(),
    ///     r#"{"type":"file","media_type":"application/pdf","data":"JVBERi0xLjcK"}"#,
    /// );
    /// ```
    pub fn file(media_type: impl Into<String>, data: impl Into<String>) -> Self {
        Block::File {
            media_type: media_type.into(),
            data: data.into(),
            name: None,
        }
    }

    /// A `file` block with a name, such as `contract.pdf`.
    ///
    /// ```
    /// use transcript_replay::Block;
    ///
    /// let file = Block::named_file("notes.txt", "text/plain", "aGk=");
    /// assert_eq!(
    ///     serde_json::to_string(&file).unwrap(),
    ///     r#"{"type":"file","media_type":"text/plain","data":"aGk=","name":"notes.txt"}"#,
    /// );
    /// ```
    pub fn named_file(
        name: impl Into<String>,
        media_type: impl Into<String>,
        data: impl Into<String>,
    ) -> Self {
        Block::File {
            media_type: media_type.into(),
            data: data.into(),
            name: Some(name.into()),
        }
    }

    /// A runtime's own compaction: the summary that replaces the conversation before it.
    /// Store it at the start of the message that follows the history it replaces; from then
    /// on replay sends the summary instead of that history.
    ///
    /// ```
    /// use transcript_replay::{replay_messages, Block, Role, StoredMessage, Vision};
    ///
    /// let record = [
    ///     StoredMessage::user("Read a.rs."),
    ///     StoredMessage::assistant("It is empty."),
    ///     StoredMessage::new(Role::User, vec![
    ///         Block::compaction("The user asked about a.rs; it is empty."),
    ///         Block::text("And b.rs?"),
    ///     ]),
    /// ];
    /// let wire = serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap();
    /// assert_eq!(wire, concat!(
    ///     r#"[{"role":"user","content":[{"type":"text","text":"[2 earlier messages replaced by the summary below]"}]},"#,
    ///     r#"{"role":"user","content":[{"type":"text","text":"[Summary of the earlier conversation]: The user asked about a.rs; it is empty.\n\nAnd b.rs?"}]}]"#,
    /// ));
    /// ```
    pub fn compaction(summary: impl Into<String>) -> Self {
        Block::Compaction {
            summary: Some(summary.into()),
            provider: None,
            data: None,
        }
    }

    /// A provider's compaction: its opaque payload `data`, which only `provider` reads, and
    /// its readable summary when it gave one.
    ///
    /// ```
    /// use transcript_replay::{Block, Provider};
    ///
    /// let item = r#"{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA"}"#;
    /// let provider: Provider = "openai-responses".parse().unwrap();
    /// let block = Block::provider_compaction(provider, item, None);
    /// assert_eq!(
    ///     serde_json::to_string(&block).unwrap(),
    ///     r#"{"type":"compaction","provider":"openai-responses","data":"{\"type\":\"compaction\",\"id\":\"cmp_1\",\"encrypted_content\":\"gAAA\"}"}"#,
    /// );
    /// ```
    pub fn provider_compaction(
        provider: crate::Provider,
        data: impl Into<String>,
        summary: Option<String>,
    ) -> Self {
        Block::Compaction {
            summary,
            provider: Some(provider.id().to_owned()),
            data: Some(data.into()),
        }
    }
}

/// A tool call's input: the exact JSON text it was stored as, and the form it was stored in.
///
/// Runtimes store a call's arguments either as a JSON string holding JSON text
/// (`"input": "{\"path\":\"a.rs\"}"`, what OpenAI returns) or as the JSON value itself
/// (`"input": {"path": "a.rs"}`, what Anthropic and Gemini return). Both read, and writing
/// the record back keeps the form and the text as stored. Replay writes a string input byte
/// for byte, and a value's text without the white space between its tokens
/// ([`CompactJson`](crate::wire::CompactJson)), so the bytes the model reads do not depend on how
/// the store was formatted. A reply's JSON input is stored compacted already
/// ([`Reply`](crate::Reply)).
///
/// ```
/// use transcript_replay::{parse_record, Block};
///
/// let record = parse_record(r#"[{"role": "assistant", "blocks": [
///     {"type": "tool_use", "id": "t1", "name": "read", "input": {"path": "a.rs"}},
///     {"type": "tool_use", "id": "t2", "name": "read", "input": "{\"path\":\"b.rs\"}"}
/// ]}]"#)?;
/// let [Block::ToolUse { input: first, .. }, Block::ToolUse { input: second, .. }] = record[0].blocks.as_slice() else { unreachable!() };
/// assert_eq!((first.as_str(), first.is_json_value()), (r#"{"path": "a.rs"}"#, true));
/// assert_eq!((second.as_str(), second.is_json_value()), (r#"{"path":"b.rs"}"#, false));
/// assert!(serde_json::to_string(&record).unwrap().contains(r#""input":{"path": "a.rs"}"#));
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ToolInput {
    text: String,
    json_value: bool,
}

impl ToolInput {
    /// An input stored as the JSON value whose text is given, such as an object. The text
    /// must be JSON.
    ///
    /// # Errors
    ///
    /// serde_json's error, when `text` is not one JSON value.
    ///
    /// ```
    /// use transcript_replay::ToolInput;
    ///
    /// let input = ToolInput::json(r#"{"path": "a.rs"}"#)?;
    /// assert!(input.is_json_value());
    /// assert!(ToolInput::json("{").is_err());
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn json(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        let text = text.into();
        serde_json::from_str::<&serde_json::value::RawValue>(&text)?;
        Ok(ToolInput {
            text,
            json_value: true,
        })
    }

    /// The input as a JSON value of the record, its text already checked.
    pub(crate) fn json_unchecked(text: String) -> Self {
        ToolInput {
            text,
            json_value: true,
        }
    }

    /// The input's text, exactly as stored.
    ///
    /// ```
    /// assert_eq!(transcript_replay::ToolInput::from("{}").as_str(), "{}");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the record stores the input as a JSON value rather than as a string.
    ///
    /// ```
    /// assert!(!transcript_replay::ToolInput::from("{}").is_json_value());
    /// ```
    pub fn is_json_value(&self) -> bool {
        self.json_value
    }
}

/// An input stored as a JSON string, the record's own form.
impl From<String> for ToolInput {
    fn from(text: String) -> Self {
        ToolInput {
            text,
            json_value: false,
        }
    }
}

/// An input stored as a JSON string, the record's own form.
impl From<&str> for ToolInput {
    fn from(text: &str) -> Self {
        ToolInput::from(text.to_owned())
    }
}

impl PartialEq<str> for ToolInput {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for ToolInput {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

impl fmt::Display for ToolInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for ToolInput {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.json_value {
            // Borrowed, not copied: the raw value is the stored text itself.
            let raw: &serde_json::value::RawValue =
                serde_json::from_str(&self.text).map_err(serde::ser::Error::custom)?;
            raw.serialize(serializer)
        } else {
            serializer.serialize_str(&self.text)
        }
    }
}

impl Block {
    /// A tool call's id and input, or none.
    pub(crate) fn tool_call(&self) -> Option<(&str, &ToolInput)> {
        match self {
            Block::ToolUse { id, input, .. } => Some((id, input)),
            Block::Text { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        }
    }

    /// A text block's words, or none.
    pub(crate) fn into_text(self) -> Option<String> {
        match self {
            Block::Text { text } => Some(text),
            Block::ToolUse { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        }
    }

    /// The keys a block of this type is written with, in order; none for a block of a type
    /// this version does not read.
    pub(crate) fn type_keys(&self) -> Option<&'static [&'static str]> {
        kept::block_keys(self.type_name()?)
    }

    /// The block's `type`, as the record writes it; none for a block of a type this version
    /// does not read.
    fn type_name(&self) -> Option<&'static str> {
        Some(match self {
            Block::Text { .. } => "text",
            Block::ToolUse { .. } => "tool_use",
            Block::ToolResult { .. } => "tool_result",
            Block::Reasoning { .. } => "reasoning",
            Block::Image { .. } => "image",
            Block::File { .. } => "file",
            Block::Source { .. } => "source",
            Block::Compaction { .. } => "compaction",
            Block::Unknown { .. } => return None,
        })
    }

    /// Whether the block is a compaction.
    pub(crate) fn is_compaction(&self) -> bool {
        self.type_name() == Some("compaction")
    }

    /// A text block's words, borrowed, or none.
    pub(crate) fn as_text(&self) -> Option<&str> {
        match self {
            Block::Text { text } => Some(text),
            Block::ToolUse { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        }
    }

    /// A reasoning block's words, or none.
    pub(crate) fn into_reasoning(self) -> Option<String> {
        match self {
            Block::Reasoning { reasoning } => Some(reasoning),
            Block::Text { .. }
            | Block::ToolUse { .. }
            | Block::ToolResult { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        }
    }
}
