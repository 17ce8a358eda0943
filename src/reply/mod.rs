//! From a reply back to the record: what the provider readers share. Each provider module
//! reads its own response body (`read_reply`) and its own stream (`stream.rs`) into the same
//! [`Reply`]; this module holds the reply, the rules every reader keeps, and the reading of a
//! JSON value in place (`at.rs`), so that an error says where in the body it is.

mod at;
pub mod metadata;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};
use crate::stop::StopReason;

pub(crate) use self::at::{object_input, At};
pub use self::metadata::Metadata;
pub(crate) use crate::errors::reply::ReplyError;

/// A provider's reply, read: the stored message of the assistant's turn, why the model
/// stopped, and which tool calls' inputs are not complete JSON.
///
/// Every provider's `read_reply` returns it for a whole response body, and every stream
/// reader's `finish` returns the same `Reply` for the same response streamed. Every reader
/// keeps these rules:
///
/// - **No empty block**: a text or reasoning block with no text is never stored (streams end
///   on such blocks, and an empty text block poisons a session: "text content blocks must be
///   non-empty").
/// - **The stop reason** is the provider's, normalized ([`StopReason`]); a reply that calls a
///   tool stops for [`ToolUse`](StopReason::ToolUse) whenever the provider's word is its
///   ordinary end.
/// - **JSON inputs are stored compacted**: a tool input the provider sends as a JSON value
///   (Anthropic, Gemini, Bedrock) is stored without the white space between its tokens
///   ([`CompactJson`](crate::wire::CompactJson)'s rule; strings, their escapes and the spelling of
///   numbers stay as sent), so the same response stores the same bytes whether it was
///   pretty-printed, compact or streamed, and [`write_record`](crate::write_record) writes it
///   on one line (`conformance/tests/conformance/reply_bytes.rs`).
/// - **Inputs cut short are flagged**: a tool input that is not complete JSON (a reply cut off
///   by its token limit mid-call) keeps its exact text, is stored as a string, and its call's
///   id is in [`incomplete_calls`](Reply::incomplete_calls), so a runtime does not run it.
///
/// It serializes as the example program's `--outcome` prints it:
/// `{"stop":"tool_use","message":{...}}`, then `"metadata":{...}` when the reply carried any
/// ([`Reply::metadata`]). Two replies are equal when their messages, stop reasons, incomplete
/// calls, content not kept, metadata and providers are: the provider's own content, kept for the
/// round in flight, differs in its bytes between a whole body and the stream of the same
/// response, and is not compared.
///
/// ```
/// use transcript_replay::{anthropic, Block, StopReason};
///
/// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
///     {"type": "text", "text": "Reading it."},
///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}
///   ], "stop_reason": "tool_use"}"#)?;
/// assert_eq!(reply.stop, StopReason::ToolUse);
/// assert!(reply.incomplete_calls().is_empty());
/// assert_eq!(reply.message.blocks[0], Block::text("Reading it."));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reply {
    /// The stored message the reply becomes: the assistant's turn, with its blocks in the
    /// order the reply gave them, and its usage.
    pub message: StoredMessage,
    /// Why the model stopped.
    pub stop: StopReason,
    provider: Provider,
    incomplete: Vec<String>,
    not_kept: Vec<String>,
    metadata: Metadata,
    asks: Asks,
    native: Native,
}

/// What a reply's calls ask of the runtime beyond an output, by call id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Asks {
    /// The calls that ask for an approval.
    approvals: Vec<String>,
    /// The safety checks each call's action waits on.
    safety_checks: Vec<(String, Vec<SafetyCheck>)>,
}

/// The provider's own content items of a reply, each as its exact JSON text.
#[derive(Debug, Clone, Default)]
struct Native(Vec<Box<RawValue>>);

impl PartialEq for Reply {
    fn eq(&self, other: &Self) -> bool {
        self.message == other.message
            && self.stop == other.stop
            && self.incomplete == other.incomplete
            && self.not_kept == other.not_kept
            && self.metadata == other.metadata
            && self.asks == other.asks
            && self.provider == other.provider
    }
}

impl Eq for Reply {}

impl Reply {
    /// The reply of a reader: applies the rules every reader keeps (no empty block, tool use
    /// as the stop reason of a reply that calls tools, incomplete inputs flagged).
    pub(crate) fn new(
        provider: Provider,
        blocks: Vec<Block>,
        usage: Option<TokenUsage>,
        stop: StopReason,
        native: Vec<Box<RawValue>>,
    ) -> Self {
        let mut blocks: Vec<Block> = blocks
            .into_iter()
            .filter(|block| !is_empty(block))
            .collect();
        let mut incomplete = Vec::new();
        let mut calls = false;
        for block in &mut blocks {
            match block {
                Block::ToolUse {
                    id,
                    input,
                    provider_executed,
                    ..
                } => {
                    // A call the provider ran itself is no reason to stop for tool use.
                    calls |= !*provider_executed;
                    if !is_complete_json(input.as_str()) {
                        incomplete.push(id.clone());
                        // Text that is no JSON cannot stand in the record as a JSON value.
                        if input.is_json_value() {
                            *input = ToolInput::from(input.as_str());
                        }
                    } else if input.is_json_value() {
                        // Stored without the white space between its tokens, so that the
                        // same reply, pretty-printed or compact, whole or streamed, stores the
                        // same bytes, and a record is written on one line.
                        if input
                            .as_str()
                            .bytes()
                            .any(|byte| byte.is_ascii_whitespace())
                        {
                            *input = ToolInput::json_unchecked(
                                crate::wire::CompactJson(input.as_str()).to_string(),
                            );
                        }
                    }
                }
                Block::Text { .. }
                | Block::ToolResult { .. }
                | Block::Reasoning { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. } => {}
            }
        }
        let stop = match stop {
            StopReason::EndTurn if calls => StopReason::ToolUse,
            other => other,
        };
        Reply {
            message: StoredMessage {
                role: Role::Assistant,
                blocks,
                usage,
                timestamp: None,
                unknown: crate::record::kept::UnknownKeys::default(),
            },
            stop,
            provider,
            incomplete,
            not_kept: Vec::new(),
            metadata: Metadata::default(),
            asks: Asks::default(),
            native: Native(native),
        }
    }

    /// The reply, with the calls of these ids asking for an approval, and these calls'
    /// pending safety checks.
    pub(crate) fn asking(
        mut self,
        approvals: Vec<String>,
        safety_checks: Vec<(String, Vec<SafetyCheck>)>,
    ) -> Self {
        self.asks = Asks {
            approvals,
            safety_checks,
        };
        self
    }

    /// The reply, with the kinds of its content the crate does not read, each of which stands
    /// in the message as the `[Not kept: ...]` marker.
    pub(crate) fn not_keeping(mut self, kinds: Vec<String>) -> Self {
        self.not_kept = kinds;
        self
    }

    /// The reply, with what it carried beyond its message.
    pub(crate) fn with_metadata(mut self, metadata: Metadata) -> Self {
        self.metadata = metadata;
        self
    }

    /// What the reply carried beyond its message, listed ([`Metadata`]): the container the
    /// provider's code ran in, the stop's details, the model hops, a guardrail's trace, the
    /// URLs the model read or failed to read, the search suggestions. Not part of the stored
    /// message; empty when the reply carried none of it.
    ///
    /// ```
    /// use transcript_replay::bedrock;
    ///
    /// let reply = bedrock::read_reply(r#"{"output": {"message": {"role": "assistant",
    ///     "content": [{"text": "Sorry."}]}}, "stopReason": "guardrail_intervened",
    ///   "trace": {"guardrail": {"actionReason": "Guardrail blocked."}}}"#)?;
    /// assert_eq!(reply.metadata().guardrail_trace.as_deref(), Some(r#"{"actionReason":"Guardrail blocked."}"#));
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// The container the provider ran the reply's code in (Anthropic's `container`: its id,
    /// and when it expires), which a later request names to reuse it and the files in it
    /// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/code-execution-tool#retrieve-generated-files>).
    /// The same as `metadata().container`.
    ///
    /// ```
    /// use transcript_replay::anthropic;
    ///
    /// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [{"type": "text", "text": "Done."}],
    ///   "stop_reason": "end_turn", "container": {"id": "container_011", "expires_at": "2026-12-06T13:00:00Z"}}"#)?;
    /// let container = reply.container().expect("a container");
    /// assert_eq!(container.id, "container_011");
    /// assert_eq!(container.expires_at.as_deref(), Some("2026-12-06T13:00:00Z"));
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn container(&self) -> Option<&metadata::Container> {
        self.metadata.container.as_ref()
    }

    /// The search suggestions a grounded reply carries, as the provider rendered them
    /// (Gemini's `searchEntryPoint.renderedContent`, HTML and CSS), which Google's terms
    /// require the runtime to show with the answer
    /// (<https://ai.google.dev/gemini-api/docs/google-search#search-suggestions>). Not part
    /// of the stored message: display it, do not replay it.
    ///
    /// ```
    /// use transcript_replay::gemini;
    ///
    /// let reply = gemini::read_reply(r#"{"candidates": [{"content": {"parts": [{"text": "Rust 1.80."}]},
    ///   "finishReason": "STOP", "groundingMetadata": {
    ///     "searchEntryPoint": {"renderedContent": "<div>rust release</div>"},
    ///     "groundingChunks": [{"web": {"uri": "https://blog.rust-lang.org", "title": "Rust Blog"}}]}}]}"#)?;
    /// assert_eq!(reply.search_suggestions(), Some("<div>rust release</div>"));
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn search_suggestions(&self) -> Option<&str> {
        self.metadata.search_suggestions.as_deref()
    }

    /// The calls the caller must answer, in the reply's order: every `tool_use` block the
    /// provider did not run itself (a provider-executed call, docs/design.md#provider-executed-tools, owes nothing). Empty
    /// when the reply ends the turn or pauses it.
    ///
    /// ```
    /// use transcript_replay::anthropic;
    ///
    /// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}},
    ///     {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
    ///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}
    ///   ], "stop_reason": "tool_use"}"#)?;
    /// let calls = reply.calls();
    /// assert_eq!(calls.len(), 1);
    /// assert_eq!((calls[0].id, calls[0].name, calls[0].input.as_str()), ("toolu_1", "read", r#"{"path":"a.rs"}"#));
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn calls(&self) -> Vec<Call<'_>> {
        self.message
            .blocks
            .iter()
            .filter_map(|block| match block {
                Block::ToolUse {
                    id,
                    name,
                    input,
                    provider_executed: false,
                } => Some(Call {
                    id,
                    name,
                    input,
                    asks_approval: self.asks.approvals.contains(id),
                    pending_safety_checks: self
                        .asks
                        .safety_checks
                        .iter()
                        .find(|(call, _)| call == id)
                        .map_or(&[][..], |(_, checks)| checks),
                }),
                Block::ToolUse { .. }
                | Block::Text { .. }
                | Block::ToolResult { .. }
                | Block::Reasoning { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. } => None,
            })
            .collect()
    }

    /// The kinds of content the reply carried that the crate does not read, in the reply's
    /// order, as the provider named them: each stands in the stored message as the text
    /// `[Not kept: {provider} {type} content]` where it was, so the model is told, and goes
    /// back natively in the round in flight with the rest of the reply's content. A reply is
    /// never refused for what it contains; log these to find what a provider sends that the
    /// crate should read.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Block};
    ///
    /// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "text", "text": "Done."},
    ///     {"type": "mystery_block", "file_id": "file_1"}
    ///   ], "stop_reason": "end_turn"}"#)?;
    /// assert_eq!(reply.not_kept(), ["mystery_block"]);
    /// assert_eq!(reply.message.blocks[1], Block::text("[Not kept: Anthropic mystery_block content]"));
    /// assert_eq!(reply.native().count(), 2);
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn not_kept(&self) -> &[String] {
        &self.not_kept
    }

    /// The ids of the tool calls whose input is not complete JSON, in the reply's order: calls
    /// cut off by the token limit, which a runtime must not run.
    ///
    /// ```
    /// use transcript_replay::{openai, StopReason};
    ///
    /// let reply = openai::read_reply(r#"{"choices": [{"finish_reason": "length", "message": {
    ///     "role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ///     "function": {"name": "write", "arguments": "{\"path\": \"a.rs\", \"text\": \"fn ma"}}]}}]}"#)?;
    /// assert_eq!(reply.stop, StopReason::MaxTokens);
    /// assert_eq!(reply.incomplete_calls(), ["call_1"]);
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn incomplete_calls(&self) -> &[String] {
        &self.incomplete
    }

    /// The provider's own content of the reply, verbatim, each item as its exact JSON text:
    /// what a tool round in flight sends back, with the opaque state providers require there
    /// (thinking signatures, redacted thinking, Gemini's thought signatures, Responses'
    /// encrypted reasoning). For a whole body, each item exactly as the body carried it; for a
    /// stream, as its events add up to.
    ///
    /// The items, by provider: Anthropic's and Bedrock's content blocks; Gemini's parts;
    /// Responses' output items; OpenAI Chat's message object, one item. Stored history never
    /// uses them: it replays as prose.
    ///
    /// ```
    /// use transcript_replay::anthropic;
    ///
    /// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "thinking", "thinking": "Need the file.", "signature": "EqQB..."},
    ///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}
    ///   ], "stop_reason": "tool_use"}"#)?;
    /// let native: Vec<&str> = reply.native().collect();
    /// assert_eq!(native[0], r#"{"type": "thinking", "thinking": "Need the file.", "signature": "EqQB..."}"#);
    /// assert_eq!(native.len(), 2);
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn native(&self) -> impl Iterator<Item = &str> {
        self.native.0.iter().map(|item| item.get())
    }

    /// The provider's own content items, to write back.
    pub(crate) fn native_items(&self) -> &[Box<RawValue>] {
        &self.native.0
    }

    /// The provider whose reply this is.
    ///
    /// ```
    /// use transcript_replay::{gemini, Provider};
    ///
    /// let reply = gemini::read_reply(r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}"#)?;
    /// assert_eq!(reply.provider().id(), "gemini");
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The reply's answer: its text blocks, in order, one after the other as the provider
    /// split them (a text cut by a citation goes on where it was cut); empty when it has none.
    /// Reasoning, tool calls and their results are not part of it.
    ///
    /// ```
    /// use transcript_replay::anthropic;
    ///
    /// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "thinking", "thinking": "Look first.", "signature": "sig"},
    ///     {"type": "text", "text": "It is "}, {"type": "text", "text": "empty."}],
    ///     "stop_reason": "end_turn"}"#)?;
    /// assert_eq!(reply.text(), "It is empty.");
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn text(&self) -> String {
        self.message
            .blocks
            .iter()
            .filter_map(Block::as_text)
            .collect()
    }

    /// The stored message, without the rest.
    ///
    /// ```
    /// use transcript_replay::{gemini, StoredMessage};
    ///
    /// let reply = gemini::read_reply(r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}"#)?;
    /// assert_eq!(reply.into_message(), StoredMessage::assistant("Hi"));
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn into_message(self) -> StoredMessage {
        self.message
    }
}

impl Serialize for Reply {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut outcome = serializer.serialize_struct("Reply", 3)?;
        outcome.serialize_field("stop", &self.stop)?;
        outcome.serialize_field("message", &self.message)?;
        if self.metadata.is_empty() {
            outcome.skip_field("metadata")?;
        } else {
            outcome.serialize_field("metadata", &self.metadata)?;
        }
        outcome.end()
    }
}

/// Whether a block has no content at all: a text or reasoning block with no text.
fn is_empty(block: &Block) -> bool {
    match block {
        Block::Text { text } => text.is_empty(),
        Block::Reasoning { reasoning } => reasoning.is_empty(),
        Block::Compaction { summary, data, .. } => {
            summary.as_deref().map_or(true, str::is_empty)
                && data.as_deref().map_or(true, str::is_empty)
        }
        Block::ToolUse { .. }
        | Block::ToolResult { .. }
        | Block::Image { .. }
        | Block::File { .. }
        | Block::Source { .. }
        | Block::Unknown { .. } => false,
    }
}

/// The prefix of the ids the crate makes for tool calls that came without one (Gemini's, a
/// compatible server's): no provider's own id starts with it, so a made id is never sent back
/// as if the provider had given it.
pub const MADE_ID_PREFIX: &str = "made_";

/// The id the crate makes for the `call`-th call (from 0) without an id in round `round` of a
/// turn: `made_{round}_{call}`, stable for the same reply and unique within a stored turn.
pub(crate) fn made_id(round: usize, call: usize) -> String {
    format!("{MADE_ID_PREFIX}{round}_{call}")
}

/// Whether a text is one whole JSON value.
pub(crate) fn is_complete_json(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// Token counts as a reply states them, each absent until the provider gives one: a later
/// count replaces an earlier one (providers send cumulative counters), and a count sent as
/// `null` leaves the earlier one standing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub(crate) input: Option<u64>,
    pub(crate) output: Option<u64>,
    pub(crate) cache_creation: Option<u64>,
    pub(crate) cache_read: Option<u64>,
}

impl Counts {
    /// Takes every count `later` gives.
    pub(crate) fn update(&mut self, later: Counts) {
        let Counts {
            input,
            output,
            cache_creation,
            cache_read,
        } = later;
        self.input = input.or(self.input);
        self.output = output.or(self.output);
        self.cache_creation = cache_creation.or(self.cache_creation);
        self.cache_read = cache_read.or(self.cache_read);
    }

    /// The usage to store: `None` when the reply gave no count at all.
    pub(crate) fn usage(self) -> Option<TokenUsage> {
        (self != Counts::default()).then(|| TokenUsage {
            input_tokens: self.input.unwrap_or(0),
            output_tokens: self.output.unwrap_or(0),
            cache_creation_input_tokens: self.cache_creation.unwrap_or(0),
            cache_read_input_tokens: self.cache_read.unwrap_or(0),
            context_tokens: 0,
        })
    }
}

/// A search result or source as docs/design.md#provider-executed-tools writes it on one line of a provider-executed
/// tool's output: `{title} <{url}>`, or `<{url}>` without a title; none without a URL.
pub(crate) fn source_line(url: Option<&str>, title: Option<&str>) -> Option<String> {
    match (url, title) {
        (Some(url), Some(title)) => Some(format!("{title} <{url}>")),
        (Some(url), None) => Some(format!("<{url}>")),
        (None, _) => None,
    }
}

/// A file the provider made (in its container, by code it ran), as a provider-executed
/// tool's output names it on a line of its own: `file: {name} <{file_id}>`, so a later turn
/// and the runtime can fetch it by its id. A file that came without a name (Anthropic's
/// `bash_code_execution_output` carries only its `file_id`) is named by its id:
/// `file: {file_id} <{file_id}>`.
pub(crate) fn file_line(name: Option<&str>, file_id: &str) -> String {
    let name = name.filter(|name| !name.is_empty()).unwrap_or(file_id);
    format!("file: {name} <{file_id}>")
}

/// Code a provider ran, as docs/design.md#provider-executed-tools writes its output: its stdout, then `stderr: ...` when
/// there is any, then `exit code: N`, one a line; the keys name the fields of the provider's
/// result (Anthropic `stdout`, `stderr`, `return_code`; Nova `stdOut`, `stdErr`, `exitCode`).
/// `None` when the value has none of them.
pub(crate) fn code_output(
    value: &serde_json::Value,
    [stdout, stderr, code]: [&str; 3],
) -> Option<String> {
    let fields = value.as_object()?;
    if !(fields.contains_key(stdout) || fields.contains_key(code)) {
        return None;
    }
    let text = |key: &str| {
        field(value, &[key])
            .as_str()
            .filter(|text| !text.is_empty())
    };
    let mut lines = Vec::new();
    if let Some(stdout) = text(stdout) {
        lines.push(stdout.to_owned());
    }
    if let Some(stderr) = text(stderr) {
        lines.push(format!("stderr: {stderr}"));
    }
    if let Some(code) = field(value, &[code]).as_i64() {
        lines.push(format!("exit code: {code}"));
    }
    Some(lines.join("\n"))
}

/// A call the caller must answer ([`Reply::calls`]): its id, the tool's name and its input,
/// borrowed from the reply's `tool_use` block.
///
/// ```
/// use transcript_replay::{openai, ToolOutput};
///
/// let reply = openai::read_reply(r#"{"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
///     "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}}]}"#)?;
/// let outputs: Vec<ToolOutput> = reply.calls().iter().map(|call| ToolOutput::ok(call.id, "empty")).collect();
/// assert_eq!(outputs.len(), 1);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Call<'a> {
    /// The call's id, which its output names.
    pub id: &'a str,
    /// The tool's name.
    pub name: &'a str,
    /// The call's input: JSON text, or a custom tool's free-form text.
    pub input: &'a crate::record::ToolInput,
    /// Whether the call asks for an approval rather than a result (an MCP tool that OpenAI
    /// would run once the runtime approves it): answer it with
    /// [`ToolOutput::approve`](crate::ToolOutput::approve) or
    /// [`ToolOutput::deny`](crate::ToolOutput::deny).
    pub asks_approval: bool,
    /// The safety checks the call's action waits on (a computer call's
    /// `pending_safety_checks`), which its output must acknowledge
    /// ([`ToolOutput::acknowledging`](crate::ToolOutput::acknowledging)) for the turn to go on.
    pub pending_safety_checks: &'a [SafetyCheck],
}

/// A safety check a call's action waits on: the provider's id, code and message for it. A
/// runtime shows it to a person, and acknowledges it in the call's output
/// ([`ToolOutput::acknowledging`](crate::ToolOutput::acknowledging)) to go on
/// (<https://platform.openai.com/docs/guides/tools-computer-use#acknowledge-safety-checks>).
///
/// ```
/// use transcript_replay::openai_responses;
///
/// let reply = openai_responses::read_reply(r#"{"status": "completed", "output": [{"type": "computer_call",
///   "id": "cu_1", "call_id": "call_1", "action": {"type": "click", "x": 1, "y": 2},
///   "pending_safety_checks": [{"id": "cu_sc_1", "code": "malicious_instructions", "message": "Careful."}],
///   "status": "completed"}]}"#)?;
/// let check = &reply.calls()[0].pending_safety_checks[0];
/// assert_eq!((check.id.as_str(), check.code.as_deref()), ("cu_sc_1", Some("malicious_instructions")));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct SafetyCheck {
    /// The check's id, which the acknowledgement names.
    pub id: String,
    /// The kind of check, as the provider names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What the check found, for a person to read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The value at a path of keys, `null` where there is none.
pub(crate) fn field<'v>(value: &'v serde_json::Value, path: &[&str]) -> &'v serde_json::Value {
    path.iter().fold(value, |value, key| {
        value.get(key).unwrap_or(&serde_json::Value::Null)
    })
}

/// The `source` blocks of a reply's citations, one per distinct source (the same URL and
/// title), in order: each citation's first present key of `urls` as the URL, of `titles` as
/// the title, of `cited` as the cited words. A citation that names neither a URL nor a title
/// gives none.
pub(crate) fn sources(
    citations: &[serde_json::Value],
    urls: &[&str],
    titles: &[&str],
    cited: &[&str],
) -> Vec<Block> {
    let first = |citation: &serde_json::Value, keys: &[&str]| {
        keys.iter()
            .find_map(|key| field(citation, &[key]).as_str().map(str::to_owned))
    };
    let mut blocks: Vec<Block> = Vec::new();
    for citation in citations {
        let (url, title) = (first(citation, urls), first(citation, titles));
        if url.is_none() && title.is_none() {
            continue;
        }
        let seen = blocks.iter().any(|block| match block {
            Block::Source {
                url: known_url,
                title: known_title,
                ..
            } => *known_url == url && *known_title == title,
            Block::Text { .. }
            | Block::ToolUse { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => false,
        });
        if !seen {
            blocks.push(Block::Source {
                url,
                title,
                cited_text: first(citation, cited),
            });
        }
    }
    blocks
}
