//! Reading a Messages response body into the stored message of the assistant's turn.

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::media::marker;
use crate::provider::Provider;
use crate::record::Block;
use crate::reply::metadata::{Container, ModelHop, StopDetails};
use crate::reply::{self, At, Counts, Metadata, Reply, ReplyError};
use crate::stop::StopReason;

/// The words of `stop_reason`, normalized.
pub(super) const STOP_REASONS: [(&str, StopReason); 8] = [
    ("end_turn", StopReason::EndTurn),
    ("max_tokens", StopReason::MaxTokens),
    ("stop_sequence", StopReason::StopSequence),
    ("tool_use", StopReason::ToolUse),
    ("pause_turn", StopReason::Paused),
    // The request asked to pause after compacting: the turn goes on
    // (<https://platform.claude.com/docs/en/build-with-claude/compaction>).
    ("compaction", StopReason::Paused),
    ("refusal", StopReason::Refusal),
    (
        "model_context_window_exceeded",
        StopReason::ContextWindowExceeded,
    ),
];

/// Reads a Messages response body (`Message`, or what a streamed reply accumulates to) into
/// the [`Reply`]: the stored message of the assistant's turn and why it stopped.
///
/// Each block of `content` becomes one block, in order: `text` as `text`; `thinking` as
/// `reasoning`; `tool_use` as `tool_use`, with its id, name and `input` stored as the JSON
/// text the reply carried without the white space between its tokens (an `input` that is no JSON object is an error). `usage`
/// becomes [`TokenUsage`](crate::TokenUsage) field for field (`input_tokens`,
/// `output_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens`); a count sent
/// as `null` is no count. `stop_reason` becomes the [`StopReason`] of the same name
/// (`model_context_window_exceeded` → `context_window_exceeded`), any other word kept.
///
/// What does not cross prose replay, and is left out: a thinking block's `signature`,
/// and `redacted_thinking` (encrypted, with no words to replay). A text block's `citations`
/// become one `source` block per distinct source right after it. A server tool's call (`server_tool_use`, `mcp_tool_use`: web
/// search, web fetch, code execution, the MCP connector) is a `tool_use` with
/// `provider_executed`, which owes no output and never makes the stop reason `tool_use`; its
/// result (`web_search_tool_result`, `code_execution_tool_result`, ... any `*_tool_result`)
/// a `tool_result` named after the call, its text rendered for the model to read (search
/// results one a line as `{title} <{url}>`, code execution its output and exit code, an
/// error its code). Any other block type is not refused: it becomes the text `[Not kept:
/// Anthropic {type} content]` where it stood, is listed by [`Reply::not_kept`], and goes
/// back natively in the round in flight.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{anthropic, Block};
///
/// let reply = r#"{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
///   "content": [
///     {"type": "thinking", "thinking": "Need the file.", "signature": "EqQB..."},
///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}
///   ],
///   "stop_reason": "tool_use",
///   "usage": {"input_tokens": 20, "output_tokens": 9, "cache_read_input_tokens": 12}}"#;
/// let reply = anthropic::read_reply(reply)?;
/// assert_eq!(reply.message.blocks[0], Block::reasoning("Need the file."));
/// let Block::ToolUse { input, .. } = &reply.message.blocks[1] else { unreachable!() };
/// assert_eq!(input.as_str(), r#"{"path":"a.rs"}"#);
/// assert_eq!(reply.message.usage.map(|usage| usage.cache_read_input_tokens), Some(12));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<Reply, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        content: &'a RawValue,
        #[serde(default)]
        stop_reason: Option<String>,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
        #[serde(default)]
        stop_details: serde_json::Value,
        #[serde(default)]
        container: serde_json::Value,
    }

    let at = At::body(Provider::Anthropic, body)?;
    let response: Response<'_> = at.read()?;
    let content_at = at.child(response.content, "content");
    let content: Vec<&RawValue> = content_at.read()?;
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => read_usage(&usage_at)?.usage(),
        None => None,
    };
    let said = Said {
        usage,
        stop: response.stop_reason.as_deref(),
        container: &response.container,
        stop_details: &response.stop_details,
    };
    reply_of(&content_at, &content, said, None)
}

/// What a reply says beside its content: its usage, the word it stopped with, its `container`
/// and `stop_details`.
pub(super) struct Said<'s> {
    pub(super) usage: Option<crate::TokenUsage>,
    pub(super) stop: Option<&'s str>,
    pub(super) container: &'s serde_json::Value,
    pub(super) stop_details: &'s serde_json::Value,
}

/// The reply of a message's `content` (`at` its place): the one place an Anthropic [`Reply`]
/// is made, for a whole body and for a stream, which gives the content blocks its events built
/// and the blocks it streamed, whose tool inputs stand as they came (a cut input the whole
/// body cannot carry).
pub(super) fn reply_of(
    at: &At<'_>,
    content: &[&RawValue],
    said: Said<'_>,
    streamed: Option<&[Block]>,
) -> Result<Reply, ReplyError> {
    let mut blocks = Vec::with_capacity(content.len());
    let mut reading = Reading::default();
    for (index, &raw) in content.iter().enumerate() {
        blocks.extend(read_block(
            &at.child(raw, format_args!("[{index}]")),
            &mut reading,
        )?);
    }
    if let Some(streamed) = streamed {
        crate::stream::streamed_inputs(&mut blocks, streamed);
    }
    let stop = StopReason::from_word(said.stop, &STOP_REASONS);
    let native = content.iter().map(|&raw| raw.to_owned()).collect();
    let metadata = Metadata {
        container: container(said.container),
        stop_details: stop_details(said.stop_details),
        model_hops: reading.hops,
        ..Metadata::default()
    };
    Ok(
        Reply::new(Provider::Anthropic, blocks, said.usage, stop, native)
            .not_keeping(reading.not_kept)
            .with_metadata(metadata),
    )
}

/// A `compaction` block (`content`, the summary; `encrypted_content`, opaque) as the record's
/// block, when it carries either (spec `BetaResponseCompactionBlock`: "When content is None,
/// it indicates the compaction failed"; an empty `content` is none).
pub(super) fn compaction(value: &serde_json::Value) -> Option<Block> {
    let text = |key: &str| {
        reply::field(value, &[key])
            .as_str()
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    let (summary, data) = (text("content"), text("encrypted_content"));
    (summary.is_some() || data.is_some()).then(|| Block::Compaction {
        summary,
        provider: Some(Provider::Anthropic.id().to_owned()),
        data,
    })
}

/// The reply's `container` (`id`, `expires_at`), when it names one
/// (<https://platform.claude.com/docs/en/agents-and-tools/tool-use/code-execution-tool#retrieve-generated-files>;
/// spec `Container`, `MessageDelta.container`).
pub(super) fn container(value: &serde_json::Value) -> Option<Container> {
    let id = reply::field(value, &["id"]).as_str()?;
    let expires_at = reply::field(value, &["expires_at"]).as_str();
    Some(Container::new(id.to_owned(), expires_at.map(str::to_owned)))
}

/// The reply's `stop_details` (`type`, `category`, `explanation`), when it has any (spec
/// `RefusalStopDetails`, with `stop_reason: "refusal"`;
/// <https://rubydoc.info/github/anthropics/anthropic-sdk-ruby/Anthropic/Models/RefusalStopDetails>).
pub(super) fn stop_details(value: &serde_json::Value) -> Option<StopDetails> {
    value.as_object()?;
    let text = |key: &str| reply::field(value, &[key]).as_str().map(str::to_owned);
    Some(StopDetails::new(
        text("type"),
        text("category"),
        text("explanation"),
    ))
}

/// A `fallback` block, `{"type":"fallback","from":{"model"},"to":{"model"}}`: the request was
/// answered by another model than it named (SDK type `BetaFallbackBlock`, which also carries a
/// `trigger`:
/// <https://rubydoc.info/github/anthropics/anthropic-sdk-ruby/Anthropic/Models/Beta/BetaFallbackBlock>).
/// Metadata, not content: no block of the message.
pub(super) fn model_hop(value: &serde_json::Value) -> ModelHop {
    let model = |end: &str| {
        reply::field(value, &[end, "model"])
            .as_str()
            .map(str::to_owned)
    };
    ModelHop::new(model("from"), model("to"))
}

/// What reading a reply's blocks keeps from one block to the next: the kinds not kept, and the
/// provider-executed calls so far (a result is named after its call).
#[derive(Debug, Default)]
pub(super) struct Reading {
    pub(super) not_kept: Vec<String>,
    pub(super) calls: Vec<(String, String)>,
    /// The model hops (`fallback` blocks) so far.
    pub(super) hops: Vec<ModelHop>,
}

/// One content block: the blocks it becomes (none for one with no words to replay,
/// `redacted_thinking`; a text block, then the sources its `citations` name); a server tool's call (`server_tool_use`, `mcp_tool_use`) a
/// provider-executed `tool_use`, and its result (`web_search_tool_result`,
/// `code_execution_tool_result`, `mcp_tool_result`, ... any `*_tool_result`) a `tool_result`
/// rendered as text (`server_result`); a block of any other kind the crate does not read
/// becomes the `[Not kept: ...]` marker, its kind added to `not_kept`.
pub(super) fn read_block(at: &At<'_>, reading: &mut Reading) -> Result<Vec<Block>, ReplyError> {
    #[derive(Deserialize)]
    struct ContentBlock<'a> {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        thinking: Option<String>,
        #[serde(default)]
        id: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(borrow, default)]
        input: Option<&'a RawValue>,
        #[serde(default)]
        citations: Option<Vec<serde_json::Value>>,
    }
    let block: ContentBlock<'_> = at.read()?;
    let missing = |field: &str| {
        at.error(format_args!(
            "missing field `{field}` in a {} block",
            block.kind
        ))
    };
    match block.kind.as_str() {
        "text" => {
            let text = block.text.clone().ok_or_else(|| missing("text"))?;
            let cited = sources(block.citations.as_deref().unwrap_or_default());
            Ok(std::iter::once(Block::text(text)).chain(cited).collect())
        }
        "thinking" => Ok(vec![Block::reasoning(
            block.thinking.clone().ok_or_else(|| missing("thinking"))?,
        )]),
        // Encrypted reasoning has no words to replay.
        "redacted_thinking" => Ok(Vec::new()),
        "tool_use" => {
            let id = block.id.clone().ok_or_else(|| missing("id"))?;
            let name = block.name.clone().ok_or_else(|| missing("name"))?;
            let input = block.input.ok_or_else(|| missing("input"))?;
            let input = reply::object_input(&at.child(input, "input"))?;
            Ok(vec![Block::tool_use(id, name, input)])
        }
        "server_tool_use" | "mcp_tool_use" => {
            let id = block.id.clone().ok_or_else(|| missing("id"))?;
            let name = block.name.clone().ok_or_else(|| missing("name"))?;
            let input = block.input.ok_or_else(|| missing("input"))?;
            let input = reply::object_input(&at.child(input, "input"))?;
            reading.calls.push((id.clone(), name.clone()));
            Ok(vec![Block::provider_tool_use(id, name, input)])
        }
        kind if kind.ends_with("_tool_result") => {
            let value: serde_json::Value = at.read()?;
            let tool_use_id = reply::field(&value, &["tool_use_id"])
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let tool_name = reading
                .calls
                .iter()
                .find(|(id, _)| *id == tool_use_id)
                .map(|(_, name)| name.clone())
                .unwrap_or_else(|| kind.trim_end_matches("_tool_result").to_owned());
            let (output, is_error) = server_result(&value);
            Ok(vec![Block::ToolResult {
                tool_use_id,
                tool_name,
                output,
                is_error,
            }])
        }
        // The request answered by another model: metadata, no block.
        "fallback" => {
            let value: serde_json::Value = at.read()?;
            reading.hops.push(model_hop(&value));
            Ok(Vec::new())
        }
        // The summary that replaces the conversation before it (beta `compact-2026-01-12`):
        // kept, and sent back natively to Anthropic; a failed one (`content` null, nothing
        // else) is a no-op, and no block.
        "compaction" => {
            let value: serde_json::Value = at.read()?;
            Ok(compaction(&value).into_iter().collect())
        }
        // A file put in the container: named by its id, so a later turn can use it.
        "container_upload" => {
            let value: serde_json::Value = at.read()?;
            let file_id = reply::field(&value, &["file_id"])
                .as_str()
                .unwrap_or_default();
            Ok(vec![Block::text(reply::file_line(None, file_id))])
        }
        kind => {
            reading.not_kept.push(kind.to_owned());
            Ok(vec![Block::text(marker::not_kept(
                Provider::Anthropic,
                kind,
            ))])
        }
    }
}

/// The sources a text block's `citations` name
/// (<https://docs.claude.com/en/docs/build-with-claude/citations>): a web search result's
/// URL and title, a search result's `source` and title, a document's title; the cited words
/// kept as `cited_text`.
pub(super) fn sources(citations: &[serde_json::Value]) -> Vec<Block> {
    reply::sources(
        citations,
        &["url", "source"],
        &["title", "document_title"],
        &["cited_text"],
    )
}

/// The text of a server tool's result, and whether it is an error, as docs/design.md#provider-executed-tools renders
/// them (<https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool>,
/// `.../web-fetch-tool`, `.../code-execution-tool`, `.../mcp-connector`): search results one a
/// line as `{title} <{url}>`; code execution its stdout, then `stderr: ...` when there is any,
/// then `exit code: N`; a fetched page its text, or its title and URL; an MCP result its text
/// content; an error (`*_error`, or `is_error`) its `error_code`; anything else its content as
/// compact JSON.
/// The fields of a code execution result.
const CODE_FIELDS: [&str; 3] = ["stdout", "stderr", "return_code"];

pub(super) fn server_result(block: &serde_json::Value) -> (String, bool) {
    use serde_json::Value;
    let content = reply::field(block, &["content"]);
    if let Some(code) = reply::field(content, &["error_code"]).as_str() {
        return (code.to_owned(), true);
    }
    let is_error = reply::field(block, &["is_error"])
        .as_bool()
        .unwrap_or(false);
    let item = |item: &Value| -> String {
        let url = reply::field(item, &["url"]).as_str();
        let title = reply::field(item, &["title"]).as_str();
        match (
            reply::source_line(url, title),
            reply::field(item, &["text"]).as_str(),
        ) {
            (Some(line), _) => line,
            (None, Some(text)) => text.to_owned(),
            (None, None) => item.to_string(),
        }
    };
    let output = match content {
        Value::Array(items) => items.iter().map(item).collect::<Vec<_>>().join("\n"),
        Value::String(text) => text.clone(),
        Value::Object(_) if reply::code_output(content, CODE_FIELDS).is_some() => {
            let output = reply::code_output(content, CODE_FIELDS).unwrap_or_default();
            let files = made_files(content);
            match (output.is_empty(), files.is_empty()) {
                (_, true) => output,
                (true, false) => files.join("\n"),
                (false, false) => format!("{output}\n{}", files.join("\n")),
            }
        }
        Value::Object(_) => {
            // A fetched page: its text when it came as text, else its title and URL.
            let document = reply::field(content, &["content"]);
            match (
                reply::field(document, &["source", "type"]).as_str(),
                reply::field(document, &["source", "data"]).as_str(),
            ) {
                (Some("text"), Some(text)) => text.to_owned(),
                _ => reply::source_line(
                    reply::field(content, &["url"]).as_str(),
                    reply::field(document, &["title"]).as_str(),
                )
                .unwrap_or_else(|| content.to_string()),
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => content.to_string(),
    };
    (output, is_error)
}

/// The files the code made, one line each as `file: {name} <{file_id}>`: each item of a
/// code execution result's `content` that carries a `file_id` (`bash_code_execution_output`,
/// `code_execution_output`, and the files skills write the same way; spec
/// `ResponseBashCodeExecutionResultBlock`,
/// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/code-execution-tool#retrieve-generated-files>).
/// They come with no name, so each is named by its id.
fn made_files(result: &serde_json::Value) -> Vec<String> {
    reply::field(result, &["content"])
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| {
            let file_id = reply::field(item, &["file_id"]).as_str()?;
            let name = ["filename", "name"]
                .iter()
                .find_map(|key| reply::field(item, &[key]).as_str());
            Some(reply::file_line(name, file_id))
        })
        .collect()
}

/// `usage`, field for field; a count sent as `null` is no count.
///
/// A reply that compacted carries `iterations`, one usage per sampling step (the summarizing
/// step, then the answer), and its top-level counts are the last step's only: the counts are
/// then summed over the iterations, what the turn cost
/// (<https://platform.claude.com/docs/en/build-with-claude/compaction>; spec
/// `BetaCompactionIterationUsage`).
pub(super) fn read_usage(at: &At<'_>) -> Result<Counts, ReplyError> {
    #[derive(Deserialize, Default)]
    struct Usage {
        #[serde(default)]
        input_tokens: Option<u64>,
        #[serde(default)]
        output_tokens: Option<u64>,
        #[serde(default)]
        cache_creation_input_tokens: Option<u64>,
        #[serde(default)]
        cache_read_input_tokens: Option<u64>,
        #[serde(default)]
        iterations: Option<Vec<Usage>>,
    }
    let usage: Usage = at.read()?;
    let counts = |usage: &Usage| Counts {
        input: usage.input_tokens,
        output: usage.output_tokens,
        cache_creation: usage.cache_creation_input_tokens,
        cache_read: usage.cache_read_input_tokens,
    };
    match usage.iterations.as_deref() {
        Some(steps @ [_, ..]) => {
            let sum = |count: fn(&Usage) -> Option<u64>| {
                steps
                    .iter()
                    .filter_map(count)
                    .fold(None, |sum: Option<u64>, n| {
                        Some(sum.unwrap_or(0).saturating_add(n))
                    })
            };
            Ok(Counts {
                input: sum(|step| step.input_tokens),
                output: sum(|step| step.output_tokens),
                cache_creation: sum(|step| step.cache_creation_input_tokens),
                cache_read: sum(|step| step.cache_read_input_tokens),
            })
        }
        Some([]) | None => Ok(counts(&usage)),
    }
}
