//! Reading a Responses response body into the stored message of the assistant's turn.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, ToolInput};
use crate::reply::{self, At, Counts, Reply, ReplyError};
use crate::stop::StopReason;

/// The words of `incomplete_details.reason`, normalized.
pub(super) const INCOMPLETE_REASONS: [(&str, StopReason); 2] = [
    ("max_output_tokens", StopReason::MaxTokens),
    ("content_filter", StopReason::ContentFilter),
];

/// Reads a Responses response body (`Response`, or what a streamed reply accumulates to)
/// into the [`Reply`]: the stored message of the assistant's turn and why it stopped.
///
/// Each item of `output` becomes blocks, in order: a `message`'s `output_text` parts as
/// `text`, and its `refusal`s as `text` (their words are what the model said); a `reasoning`
/// item's `summary` texts (and its `reasoning_text` content, which open-weight models return)
/// as `reasoning`; a `function_call` as `tool_use`, with its `call_id`,
/// name and `arguments` string stored as it is (a `custom_tool_call` likewise, its free-form
/// `input` stored as the JSON string of it,
/// <https://platform.openai.com/docs/guides/function-calling#custom-tools>); an `image_generation_call` as a provider-executed `image_generation` call and its
/// result (an error with its status when it has no `result`), then its `result` as `image`.
/// `usage` becomes
/// [`TokenUsage`](crate::TokenUsage): `input_tokens` (which include cached tokens),
/// `output_tokens`, and `input_tokens_details.cached_tokens` as cache reads; a count sent as
/// `null` is no count.
///
/// `status` becomes the [`StopReason`]: `completed` → `end_turn`, or `tool_use` when the
/// reply calls a tool, or `refusal` when it refuses; `incomplete` by its
/// `incomplete_details.reason` (`max_output_tokens` → `max_tokens`, `content_filter` →
/// `content_filter`, any other word kept); any other status kept. A `failed` response is
/// no turn: an error that carries the response's `error`.
///
/// What does not cross prose replay, and is left out: a reasoning item's
/// `encrypted_content`. An output text's `annotations` become one `source` block per distinct
/// source after it (a URL citation's URL and title, a file citation's file name). The calls
/// the client runs are
/// tool calls: `computer_call` (`computer`, its `action` as the input), `shell_call`
/// (`shell`), `local_shell_call` (`local_shell`), `apply_patch_call` (`apply_patch`, its
/// `operation`), each answered in the round by its own output item. The tools OpenAI runs
/// itself (`web_search_call`, `file_search_call`, `code_interpreter_call`, `mcp_call`,
/// `mcp_list_tools`) are each a provider-executed `tool_use` and its `tool_result`, rendered
/// as text, owing no output. Any other item or content part is not refused:
/// it becomes the text `[Not kept: OpenAI {type} content]` where it stood, is listed by
/// [`Reply::not_kept`], and goes back natively in the round in flight.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{openai_responses, Block};
///
/// let reply = r#"{"id": "resp_1", "object": "response", "status": "completed", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Need the file."}]},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read",
///      "arguments": "{\"path\":\"a.rs\"}", "status": "completed"}],
///   "usage": {"input_tokens": 20, "output_tokens": 9, "total_tokens": 29,
///             "input_tokens_details": {"cached_tokens": 4}}}"#;
/// let reply = openai_responses::read_reply(reply)?;
/// assert_eq!(reply.message.blocks, [
///     Block::reasoning("Need the file."),
///     Block::tool_use("call_1", "read", r#"{"path":"a.rs"}"#),
/// ]);
/// assert_eq!(reply.message.usage.map(|usage| usage.cache_read_input_tokens), Some(4));
/// assert_eq!(reply.stop, transcript_replay::StopReason::ToolUse);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<Reply, ReplyError> {
    let at = At::body(Provider::OpenAiResponses, body)?;
    let response = read_response(&at)?;
    let mut items = Items::default();
    for item_at in &response.output {
        items.read(item_at)?;
    }
    Ok(items.reply(response.stop, response.usage))
}

/// A `Response` object, read: its output items in place, why it stopped, and its usage.
pub(super) struct Response<'a> {
    pub(super) output: Vec<At<'a>>,
    pub(super) stop: StopReason,
    pub(super) usage: Option<Counts>,
}

pub(super) fn read_response<'a>(at: &At<'a>) -> Result<Response<'a>, ReplyError> {
    #[derive(Deserialize)]
    struct Fields<'a> {
        #[serde(borrow)]
        output: &'a RawValue,
        #[serde(default)]
        status: Option<String>,
        #[serde(default)]
        incomplete_details: Option<Incomplete>,
        #[serde(borrow, default)]
        error: Option<&'a RawValue>,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Incomplete {
        #[serde(default)]
        reason: Option<String>,
    }
    #[derive(Deserialize)]
    struct Failure {
        #[serde(default)]
        code: Option<String>,
        #[serde(default)]
        message: Option<String>,
    }
    let fields: Fields<'a> = at.read()?;
    let status = fields.status.as_deref();
    if status == Some("failed") {
        let failure: Option<Failure> = match at.present(fields.error, "error") {
            Some(error_at) => Some(error_at.read()?),
            None => None,
        };
        let (code, message) = failure
            .map(|failure| (failure.code, failure.message))
            .unwrap_or_default();
        return Err(at.error(format_args!(
            "the response failed ({}): {}",
            code.as_deref().unwrap_or("no code"),
            message.as_deref().unwrap_or("no message")
        )));
    }
    let stop = match status {
        Some("completed") => StopReason::EndTurn,
        Some("incomplete") => StopReason::from_word(
            fields
                .incomplete_details
                .and_then(|details| details.reason)
                .as_deref(),
            &INCOMPLETE_REASONS,
        ),
        other => StopReason::from_word(other, &[]),
    };
    let output_at = at.child(fields.output, "output");
    let output: Vec<&RawValue> = output_at.read()?;
    let usage = match at.present(fields.usage, "usage") {
        Some(usage_at) => Some(read_usage(&usage_at)?),
        None => None,
    };
    Ok(Response {
        output: output
            .into_iter()
            .enumerate()
            .map(|(index, raw)| output_at.child(raw, format_args!("[{index}]")))
            .collect(),
        stop,
        usage,
    })
}

/// `usage`, as the record counts it; a count sent as `null` is no count.
pub(super) fn read_usage(at: &At<'_>) -> Result<Counts, ReplyError> {
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        input_tokens: Option<u64>,
        #[serde(default)]
        output_tokens: Option<u64>,
        #[serde(default)]
        input_tokens_details: Option<Details>,
    }
    #[derive(Deserialize)]
    struct Details {
        #[serde(default)]
        cached_tokens: Option<u64>,
    }
    let usage: Usage = at.read()?;
    Ok(Counts {
        input: usage.input_tokens,
        output: usage.output_tokens,
        cache_creation: None,
        cache_read: usage
            .input_tokens_details
            .and_then(|details| details.cached_tokens),
    })
}

/// The output items of a reply, whole or streamed, as blocks: each item read once, and kept
/// verbatim for the round in flight.
#[derive(Default)]
pub(super) struct Items {
    blocks: Vec<Block>,
    native: Vec<Box<RawValue>>,
    refused: bool,
    not_kept: Vec<String>,
    /// The provider-executed calls so far, by id, for an output that names none.
    provider_calls: Vec<String>,
    /// The MCP approval requests, by id: calls the runtime answers with an approval.
    approvals: Vec<String>,
    /// Each computer call's pending safety checks, by call id.
    safety_checks: Vec<(String, Vec<crate::reply::SafetyCheck>)>,
}

/// The kinds of item the reader reads; any other is marked as not kept, whatever its members.
const READ: [&str; 21] = [
    "message",
    "reasoning",
    "function_call",
    "custom_tool_call",
    "computer_call",
    "shell_call",
    "shell_call_output",
    "local_shell_call",
    "apply_patch_call",
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "mcp_call",
    "mcp_list_tools",
    "image_generation_call",
    "tool_search_call",
    "tool_search_output",
    "program",
    "program_output",
    "compaction",
    "mcp_approval_request",
];

/// One output item, with the members any kind of item the crate reads may carry.
#[derive(Deserialize)]
struct Item<'a> {
    #[serde(rename = "type")]
    kind: String,
    #[serde(borrow, default)]
    content: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    summary: Option<Vec<Summary>>,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    // Any JSON: a function call's is a string, a tool search's an object.
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    output_format: Option<String>,
    #[serde(borrow, default)]
    action: Option<&'a RawValue>,
    #[serde(borrow, default)]
    actions: Option<&'a RawValue>,
    #[serde(borrow, default)]
    operation: Option<&'a RawValue>,
    #[serde(default)]
    pending_safety_checks: Option<Vec<crate::reply::SafetyCheck>>,
}

/// One text of a `reasoning` item's `summary`.
#[derive(Deserialize)]
struct Summary {
    text: String,
}

/// One part of a `message` or `reasoning` item's `content`.
#[derive(Deserialize)]
struct ContentPart {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    refusal: Option<String>,
    #[serde(default)]
    annotations: Option<Vec<serde_json::Value>>,
}

/// The error for an item of `kind` that lacks a member its kind must have.
fn missing(at: &At<'_>, kind: &str, field: &str) -> ReplyError {
    at.error(format_args!("missing field `{field}` in a {kind} item"))
}

impl Items {
    /// Reads one output item into its blocks.
    pub(super) fn read(&mut self, at: &At<'_>) -> Result<(), ReplyError> {
        #[derive(Deserialize)]
        struct Kind<'a> {
            #[serde(rename = "type", borrow)]
            kind: std::borrow::Cow<'a, str>,
        }
        // An item of a kind the reader does not read is never refused for its members.
        let kind: Kind<'_> = at.read()?;
        if !READ.contains(&kind.kind.as_ref()) {
            self.not_keeping(&kind.kind);
            self.native.push(at.raw().to_owned());
            return Ok(());
        }
        let item: Item<'_> = at.read()?;
        match item.kind.as_str() {
            "message" => self.message(at, &item)?,
            "reasoning" => self.reasoning(at, item.summary.unwrap_or_default(), &item.content)?,
            "function_call" => {
                let call_id = item
                    .call_id
                    .clone()
                    .ok_or_else(|| missing(at, &item.kind, "call_id"))?;
                let name = item
                    .name
                    .clone()
                    .ok_or_else(|| missing(at, &item.kind, "name"))?;
                let arguments = item
                    .arguments
                    .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
                    .ok_or_else(|| missing(at, &item.kind, "arguments"))?;
                self.blocks
                    .push(Block::tool_use(call_id, name, ToolInput::from(arguments)));
            }
            "custom_tool_call" => {
                let call_id = item
                    .call_id
                    .clone()
                    .ok_or_else(|| missing(at, &item.kind, "call_id"))?;
                let name = item
                    .name
                    .clone()
                    .ok_or_else(|| missing(at, &item.kind, "name"))?;
                // Free-form text, stored as the JSON string of it.
                let input = item
                    .input
                    .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
                    .ok_or_else(|| missing(at, &item.kind, "input"))?;
                let input = serde_json::Value::from(input).to_string();
                self.blocks
                    .push(Block::tool_use(call_id, name, ToolInput::from(input)));
            }
            "computer_call" | "shell_call" | "local_shell_call" | "apply_patch_call" => {
                self.client_call(at, &item)?;
            }
            // An MCP tool OpenAI runs once the runtime approves it: a call the runtime
            // answers with an approval, written as `mcp_approval_response`
            // (<https://platform.openai.com/docs/guides/tools-connectors-mcp#approvals>; spec
            // `MCPApprovalRequest`). Its id is the one the response names.
            "mcp_approval_request" => {
                let id = reply::field(&at.read::<serde_json::Value>()?, &["id"])
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| missing(at, &item.kind, "id"))?;
                let name = item
                    .name
                    .clone()
                    .ok_or_else(|| missing(at, &item.kind, "name"))?;
                let arguments = item
                    .arguments
                    .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
                    .unwrap_or_else(|| "{}".to_owned());
                self.approvals.push(id.clone());
                self.blocks
                    .push(Block::tool_use(id, name, ToolInput::from(arguments)));
            }
            "web_search_call"
            | "file_search_call"
            | "code_interpreter_call"
            | "mcp_call"
            | "mcp_list_tools" => self.server_call(at, &item.kind)?,
            "image_generation_call" => self.image_generation(at, &item)?,
            "tool_search_call" | "tool_search_output" | "program" | "program_output" => {
                self.provider_item(at, &item.kind)?;
            }
            "shell_call_output" => self.hosted_shell_output(at)?,
            // The compaction that replaces the conversation before it, as it came (only
            // OpenAI reads it): kept, and sent back natively to Responses
            // (<https://platform.openai.com/docs/guides/conversation-state#managing-the-context-window>;
            // spec `CompactionBody`).
            "compaction" => self.blocks.push(Block::Compaction {
                summary: None,
                provider: Some(Provider::OpenAiResponses.id().to_owned()),
                data: Some(crate::wire::CompactJson(at.raw().get()).to_string()),
            }),
            kind => self.not_keeping(kind),
        }
        self.native.push(at.raw().to_owned());
        Ok(())
    }

    /// A `message` item: its `output_text` parts as text, each followed by the sources its
    /// annotations name, and its refusals as text.
    fn message(&mut self, at: &At<'_>, item: &Item<'_>) -> Result<(), ReplyError> {
        for (part, &raw) in item.content.iter().flatten().enumerate() {
            let part_at = at.child(raw, format_args!("content[{part}]"));
            let content: ContentPart = part_at.read()?;
            match (content.kind.as_str(), content.text, content.refusal) {
                // The text, then the sources its annotations name (a URL citation's
                // URL and title, a file citation's file name).
                ("output_text", Some(text), _) => {
                    self.blocks.push(Block::text(text));
                    // A file the code interpreter made, cited: named by its id, one line a
                    // file, so a later turn and the runtime can fetch it (spec
                    // `ContainerFileCitationBody`); every other annotation a source.
                    let annotations = content.annotations.unwrap_or_default();
                    let (made, cited): (Vec<_>, Vec<_>) =
                        annotations.into_iter().partition(|annotation| {
                            reply::field(annotation, &["type"]).as_str()
                                == Some("container_file_citation")
                        });
                    self.blocks.extend(reply::sources(
                        &cited,
                        &["url"],
                        &["title", "filename"],
                        &[],
                    ));
                    let mut files: Vec<String> = Vec::new();
                    for annotation in &made {
                        if let Some(file_id) = reply::field(annotation, &["file_id"]).as_str() {
                            let name = reply::field(annotation, &["filename"]).as_str();
                            let line = reply::file_line(name, file_id);
                            if !files.contains(&line) {
                                files.push(line);
                            }
                        }
                    }
                    if !files.is_empty() {
                        self.blocks.push(Block::text(files.join("\n")));
                    }
                }
                ("refusal", _, Some(refusal)) => {
                    self.refused = true;
                    self.blocks.push(Block::text(refusal));
                }
                (kind, _, _) => self.not_keeping(kind),
            }
        }
        Ok(())
    }

    /// A `reasoning` item: its summary's texts, then its `reasoning_text` content.
    fn reasoning(
        &mut self,
        at: &At<'_>,
        summary: Vec<Summary>,
        content: &Option<Vec<&RawValue>>,
    ) -> Result<(), ReplyError> {
        for summary in summary {
            self.blocks.push(Block::reasoning(summary.text));
        }
        // The reasoning itself, which open-weight models return beside the summary.
        for (part, &raw) in content.iter().flatten().enumerate() {
            let part_at = at.child(raw, format_args!("content[{part}]"));
            let content: ContentPart = part_at.read()?;
            match (content.kind.as_str(), content.text) {
                ("reasoning_text", Some(text)) => self.blocks.push(Block::reasoning(text)),
                (kind, _) => self.not_keeping(kind),
            }
        }
        Ok(())
    }

    /// The calls the client runs (computer use, the shell, patches): a tool call named after
    /// the tool, its action (or operation) as the input; the round answers each with its own
    /// output item.
    fn client_call(&mut self, at: &At<'_>, item: &Item<'_>) -> Result<(), ReplyError> {
        let call_id = item
            .call_id
            .clone()
            .ok_or_else(|| missing(at, &item.kind, "call_id"))?;
        // The safety checks a computer call's action waits on, which its output must
        // acknowledge (<https://platform.openai.com/docs/guides/tools-computer-use#acknowledge-safety-checks>).
        if let Some(checks) = item
            .pending_safety_checks
            .as_ref()
            .filter(|checks| !checks.is_empty())
        {
            self.safety_checks.push((call_id.clone(), checks.clone()));
        }
        let (name, payload) = match item.kind.as_str() {
            "computer_call" => ("computer", item.action.or(item.actions)),
            "shell_call" => ("shell", item.action),
            "local_shell_call" => ("local_shell", item.action),
            _ => ("apply_patch", item.operation),
        };
        // Read already as part of the body, so it is JSON.
        let input = payload.map_or_else(
            || ToolInput::json_unchecked("{}".to_owned()),
            |raw| ToolInput::json_unchecked(raw.get().to_owned()),
        );
        self.blocks.push(Block::tool_use(call_id, name, input));
        Ok(())
    }

    /// The tools OpenAI runs itself: a provider-executed call and its result, each item
    /// holding both (`WebSearchToolCall`, `FileSearchToolCall`, `CodeInterpreterToolCall`,
    /// `MCPToolCall`, `MCPListTools` in the pinned spec).
    fn server_call(&mut self, at: &At<'_>, kind: &str) -> Result<(), ReplyError> {
        let value: serde_json::Value = at.read()?;
        let (name, input, output, is_error) = server_item(kind, &value);
        let id = reply::field(&value, &["id"])
            .as_str()
            .unwrap_or_default()
            .to_owned();
        self.blocks.push(Block::provider_tool_use(
            id.clone(),
            name.clone(),
            ToolInput::json_unchecked(input.to_string()),
        ));
        self.blocks.push(Block::ToolResult {
            tool_use_id: id,
            tool_name: name,
            output,
            is_error,
        });
        Ok(())
    }

    /// An item OpenAI runs itself and answers in an item of its own: a tool search
    /// (`tool_search_call`, its `arguments` any JSON value, then `tool_search_output` listing
    /// the tools found; spec `ToolSearchCall`, `ToolSearchOutput`) and a program
    /// (`program` with its `code`, then `program_output` with its `result`; spec `Program`,
    /// `ProgramOutput`). The call is a provider-executed call, the output its result, linked
    /// by `call_id` (a tool search's may be null: then by the item before).
    ///
    /// A tool search the runtime runs (`"execution": "client"`, the tool declared with
    /// `execution: client`, <https://platform.openai.com/docs/guides/tools-tool-search>) is a
    /// call like a function's, named `tool_search`: the runtime answers it with the tool
    /// definitions it loaded, a JSON array, written back as `tool_search_output`.
    fn provider_item(&mut self, at: &At<'_>, kind: &str) -> Result<(), ReplyError> {
        #[derive(Deserialize)]
        struct Arguments<'a> {
            #[serde(borrow, default)]
            arguments: Option<&'a RawValue>,
        }
        let value: serde_json::Value = at.read()?;
        let arguments: Arguments<'_> = at.read()?;
        let text = |key: &str| reply::field(&value, &[key]).as_str().map(str::to_owned);
        let name = match kind {
            "program" | "program_output" => "program",
            _ => "tool_search",
        };
        match kind {
            "tool_search_call" | "program" => {
                let id = text("call_id").or_else(|| text("id")).unwrap_or_default();
                let client = text("execution").as_deref() == Some("client");
                // The arguments as they came, without the white space between their tokens.
                let input = match (kind, arguments.arguments) {
                    ("program", _) => {
                        serde_json::json!({ "code": text("code").unwrap_or_default() }).to_string()
                    }
                    (_, Some(raw)) => crate::wire::CompactJson(raw.get()).to_string(),
                    (_, None) => "{}".to_owned(),
                };
                if client {
                    self.blocks
                        .push(Block::tool_use(id, name, ToolInput::json_unchecked(input)));
                } else {
                    self.provider_calls.push(id.clone());
                    self.blocks.push(Block::provider_tool_use(
                        id,
                        name,
                        ToolInput::json_unchecked(input),
                    ));
                }
            }
            _ => {
                let id = text("call_id")
                    .or_else(|| self.provider_calls.last().cloned())
                    .unwrap_or_default();
                let output = match kind {
                    "program_output" => text("result").unwrap_or_default(),
                    _ => reply::field(&value, &["tools"])
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|tool| {
                            reply::field(tool, &["name"])
                                .as_str()
                                .or_else(|| reply::field(tool, &["type"]).as_str())
                                .map(str::to_owned)
                        })
                        .collect::<Vec<_>>()
                        .join("\n"),
                };
                let failed = matches!(text("status").as_deref(), Some("failed" | "incomplete"));
                self.blocks.push(Block::ToolResult {
                    tool_use_id: id,
                    tool_name: name.to_owned(),
                    output,
                    is_error: failed,
                });
            }
        }
        Ok(())
    }

    /// The output of a shell command OpenAI ran itself, in its hosted container, in the same
    /// reply as its `shell_call` (spec `FunctionShellCallOutput`; the hosted shell,
    /// <https://platform.openai.com/docs/guides/tools-shell>): the call becomes
    /// provider-executed, owing the runtime no output, and this is its result: each chunk's
    /// `stdout`, then its `stderr` when there is any, one line apart; an error when a
    /// command exited other than 0 or timed out.
    fn hosted_shell_output(&mut self, at: &At<'_>) -> Result<(), ReplyError> {
        let value: serde_json::Value = at.read()?;
        let call_id = reply::field(&value, &["call_id"])
            .as_str()
            .ok_or_else(|| missing(at, "shell_call_output", "call_id"))?
            .to_owned();
        let mut texts = Vec::new();
        let mut failed = false;
        for chunk in reply::field(&value, &["output"])
            .as_array()
            .into_iter()
            .flatten()
        {
            for stream in ["stdout", "stderr"] {
                if let Some(text) = reply::field(chunk, &[stream])
                    .as_str()
                    .filter(|text| !text.is_empty())
                {
                    texts.push(text.trim_end_matches('\n').to_owned());
                }
            }
            let outcome = reply::field(chunk, &["outcome"]);
            failed |= match reply::field(outcome, &["type"]).as_str() {
                Some("timeout") => true,
                _ => reply::field(outcome, &["exit_code"])
                    .as_i64()
                    .is_some_and(|code| code != 0),
            };
        }
        for block in &mut self.blocks {
            if let Block::ToolUse {
                id,
                provider_executed,
                ..
            } = block
            {
                if *id == call_id {
                    *provider_executed = true;
                }
            }
        }
        self.provider_calls.push(call_id.clone());
        self.blocks.push(Block::ToolResult {
            tool_use_id: call_id,
            tool_name: "shell".to_owned(),
            output: texts.join("\n"),
            is_error: failed,
        });
        Ok(())
    }

    /// A generated image: the provider's call and its result (`revised_prompt` when it says
    /// one, a failure's status as an error), then the image itself, as an `image` block of
    /// the assistant message, as the crate stores every generated image. A call without a
    /// result (failed, or cut short) is no refusal.
    fn image_generation(&mut self, at: &At<'_>, item: &Item<'_>) -> Result<(), ReplyError> {
        let value: serde_json::Value = at.read()?;
        let id = reply::field(&value, &["id"])
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let status = reply::field(&value, &["status"])
            .as_str()
            .unwrap_or_default();
        let prompt = reply::field(&value, &["revised_prompt"]).as_str();
        let input = match prompt {
            Some(prompt) => serde_json::json!({ "prompt": prompt }),
            None => serde_json::json!({}),
        };
        self.blocks.push(Block::provider_tool_use(
            id.clone(),
            "image_generation",
            ToolInput::json_unchecked(input.to_string()),
        ));
        let data = item.result.clone();
        self.blocks.push(Block::ToolResult {
            tool_use_id: id,
            tool_name: "image_generation".to_owned(),
            output: match &data {
                Some(_) => String::new(),
                None => status.to_owned(),
            },
            is_error: data.is_none(),
        });
        if let Some(data) = data {
            let format = item.output_format.as_deref().unwrap_or("png");
            self.blocks
                .push(Block::image(format!("image/{format}"), data));
        }
        Ok(())
    }

    /// Content of a kind the crate does not read: the `[Not kept: ...]` marker where it
    /// stood.
    fn not_keeping(&mut self, kind: &str) {
        self.not_kept.push(kind.to_owned());
        self.blocks.push(Block::text(crate::media::marker::not_kept(
            Provider::OpenAiResponses,
            kind,
        )));
    }

    /// The reply these items make, with why it stopped and its usage.
    pub(super) fn reply(self, stop: StopReason, usage: Option<Counts>) -> Reply {
        let stop = match stop {
            StopReason::EndTurn if self.refused => StopReason::Refusal,
            other => other,
        };
        Reply::new(
            Provider::OpenAiResponses,
            self.blocks,
            usage.and_then(Counts::usage),
            stop,
            self.native,
        )
        .not_keeping(self.not_kept)
        .asking(self.approvals, self.safety_checks)
    }
}

/// A server tool's item as a call and its result: the tool's name, the call's input, the
/// result's text and whether it failed, as docs/design.md#provider-executed-tools renders them: a web search its sources
/// one a line as `<{url}>` (or what it did, when it lists none); a file search each result as
/// `{filename}: {text}`; the code interpreter its logs; an MCP call its output or error; an
/// MCP tool list the tools' names.
fn server_item(kind: &str, item: &serde_json::Value) -> (String, serde_json::Value, String, bool) {
    use serde_json::{json, Value};
    let lines = |items: &Value, line: &dyn Fn(&Value) -> Option<String>| -> String {
        items
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(line)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let failed = reply::field(item, &["status"]).as_str() == Some("failed");
    match kind {
        "web_search_call" => {
            let action = reply::field(item, &["action"]).clone();
            let sources = lines(reply::field(&action, &["sources"]), &|source| {
                reply::field(source, &["url"])
                    .as_str()
                    .map(|url| format!("<{url}>"))
            });
            let output = match sources.is_empty() {
                false => sources,
                true => match (
                    reply::field(&action, &["query"]).as_str(),
                    reply::field(&action, &["url"]).as_str(),
                ) {
                    (Some(query), _) => format!("searched: {query}"),
                    (None, Some(url)) => format!("<{url}>"),
                    (None, None) => reply::field(item, &["status"])
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                },
            };
            ("web_search".to_owned(), action, output, failed)
        }
        "file_search_call" => {
            let input = json!({"queries": reply::field(item, &["queries"])});
            let output = lines(reply::field(item, &["results"]), &|result| {
                let text = reply::field(result, &["text"]).as_str().unwrap_or_default();
                Some(match reply::field(result, &["filename"]).as_str() {
                    Some(filename) => format!("{filename}: {text}"),
                    None => text.to_owned(),
                })
            });
            ("file_search".to_owned(), input, output, failed)
        }
        "code_interpreter_call" => {
            let input = json!({"code": reply::field(item, &["code"])});
            let output = lines(
                reply::field(item, &["outputs"]),
                &|output| match reply::field(output, &["type"]).as_str() {
                    Some("logs") => reply::field(output, &["logs"]).as_str().map(str::to_owned),
                    Some("image") => reply::field(output, &["url"])
                        .as_str()
                        .map(|url| format!("<{url}>")),
                    Some(_) | None => None,
                },
            );
            ("code_interpreter".to_owned(), input, output, failed)
        }
        "mcp_call" => {
            let name = reply::field(item, &["name"])
                .as_str()
                .unwrap_or("mcp")
                .to_owned();
            // The arguments as the call made them: JSON text.
            let input = reply::field(item, &["arguments"])
                .as_str()
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_else(|| json!({}));
            match reply::field(item, &["error"]).as_str() {
                Some(error) => (name, input, error.to_owned(), true),
                None => {
                    let output = reply::field(item, &["output"]).as_str().unwrap_or_default();
                    (name, input, output.to_owned(), failed)
                }
            }
        }
        _ => {
            // `mcp_list_tools`.
            let input = json!({"server_label": reply::field(item, &["server_label"])});
            match reply::field(item, &["error"]).as_str() {
                Some(error) => ("mcp_list_tools".to_owned(), input, error.to_owned(), true),
                None => {
                    let output = lines(reply::field(item, &["tools"]), &|tool| {
                        reply::field(tool, &["name"]).as_str().map(str::to_owned)
                    });
                    ("mcp_list_tools".to_owned(), input, output, false)
                }
            }
        }
    }
}
