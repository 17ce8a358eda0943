//! The parts of a tool Gemini runs itself: code execution (`executableCode`,
//! `codeExecutionResult`) and the server-side tools whose invocations a Gemini 3 reply shows
//! when the request sets `toolConfig.includeServerSideToolInvocations` (`toolCall`,
//! `toolResponse`), each read into a provider-executed `tool_use` and its `tool_result`.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::enums::{Word, LANGUAGE, OUTCOME};
use crate::record::{Block, ToolInput};
use crate::reply::{self, At, ReplyError};

/// The name a server tool's call is stored under when neither it nor its response names the
/// tool (no `toolType`, or one given as a number, whose names Google has not published).
const UNNAMED: &str = "server_tool";

/// What a part of a tool Gemini ran says.
pub(super) enum Executed {
    /// Code Gemini runs itself (`executableCode`): its language and code, as the input.
    Code(ToolInput),
    /// What running it gave (`codeExecutionResult`).
    CodeResult { output: String, is_error: bool },
    /// A server-side tool's call (`toolCall`): its id, the tool's name, its arguments.
    Call {
        id: Option<String>,
        name: Option<String>,
        input: ToolInput,
    },
    /// A server-side tool's response (`toolResponse`), answering the call of its id.
    Response {
        id: Option<String>,
        name: Option<String>,
        output: String,
    },
}

/// The part of a tool Gemini ran, by the name of its data field; `None` for another part.
///
/// - `executableCode` (<https://ai.google.dev/gemini-api/docs/code-execution>): its `language`
///   and `code` as the input `{"language", "code"}`.
/// - `codeExecutionResult`: its `output`; an error, led by the outcome, unless `OUTCOME_OK`.
/// - `toolCall` (`{"id", "toolType", "args"}`,
///   <https://ai.google.dev/gemini-api/docs/tool-combination>, and the SDKs' `ToolCall`,
///   <https://googleapis.github.io/js-genai/release_docs/enums/types.ToolType.html>): a call
///   named by its `toolType` in lower case (`GOOGLE_SEARCH_WEB` is `google_search_web`,
///   `URL_CONTEXT` `url_context`, as `code_execution` names code execution), its `args` the
///   input, compacted (`{}` when it has none: file search sends none; `args` that are no
///   JSON object are an error, as a function call's are).
/// - `toolResponse` (`{"id", "toolType", "response"}`,
///   <https://googleapis.github.io/java-genai/javadoc/com/google/genai/types/ToolResponse.html>):
///   the result of the call of its `id`, its `response` object as compact JSON text (what the
///   tool returned: search suggestions, the URLs read with their status, the places found;
///   empty when it has none).
pub(super) fn read(kind: &str, at: &At<'_>) -> Result<Option<Executed>, ReplyError> {
    Ok(Some(match kind {
        "executableCode" => code(at)?,
        "codeExecutionResult" => code_result(at)?,
        "toolCall" => tool_call(at)?,
        "toolResponse" => tool_response(at)?,
        _ => return Ok(None),
    }))
}

fn code(at: &At<'_>) -> Result<Executed, ReplyError> {
    #[derive(Deserialize)]
    struct Code {
        #[serde(default)]
        language: Option<Word>,
        #[serde(default)]
        code: String,
    }
    let code: Code = at.read()?;
    let input = serde_json::json!({
        "language": code.language.map(|word| word.name(&LANGUAGE)).unwrap_or_default(),
        "code": code.code,
    });
    Ok(Executed::Code(ToolInput::json_unchecked(input.to_string())))
}

fn code_result(at: &At<'_>) -> Result<Executed, ReplyError> {
    #[derive(Deserialize)]
    struct Result {
        #[serde(default)]
        outcome: Option<Word>,
        #[serde(default)]
        output: Option<String>,
    }
    let result: Result = at.read()?;
    let output = result.output.unwrap_or_default();
    Ok(
        match result.outcome.map(|word| word.name(&OUTCOME)).as_deref() {
            Some("OUTCOME_OK") | None => Executed::CodeResult {
                output,
                is_error: false,
            },
            // `OUTCOME_FAILED`, `OUTCOME_DEADLINE_EXCEEDED`: said before the output.
            Some(outcome) => Executed::CodeResult {
                output: match output.is_empty() {
                    true => outcome.to_owned(),
                    false => format!("{outcome}\n{output}"),
                },
                is_error: true,
            },
        },
    )
}

/// The fields a `toolCall` and a `toolResponse` share, and their data.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Invocation<'a> {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    tool_type: Option<Word>,
    #[serde(borrow, default)]
    args: Option<&'a RawValue>,
    #[serde(borrow, default)]
    response: Option<&'a RawValue>,
}

/// A tool's name from its `toolType`: the name in lower case; none for a number.
fn tool_name(tool_type: Option<Word>) -> Option<String> {
    match tool_type? {
        Word::Name(name) => Some(name.to_ascii_lowercase()),
        Word::Number(_) => None,
    }
}

fn tool_call(at: &At<'_>) -> Result<Executed, ReplyError> {
    let call: Invocation<'_> = at.read()?;
    let input = match call.args.filter(|args| args.get() != "null") {
        Some(args) => reply::object_input(&at.child(args, "args"))?,
        None => ToolInput::json_unchecked("{}".to_owned()),
    };
    Ok(Executed::Call {
        id: call.id,
        name: tool_name(call.tool_type),
        input,
    })
}

fn tool_response(at: &At<'_>) -> Result<Executed, ReplyError> {
    let response: Invocation<'_> = at.read()?;
    let output = match response.response.filter(|value| value.get() != "null") {
        Some(value) => crate::wire::CompactJson(value.get()).to_string(),
        None => String::new(),
    };
    Ok(Executed::Response {
        id: response.id,
        name: tool_name(response.tool_type),
        output,
    })
}

/// The calls of tools Gemini ran that no result has answered yet, to link each result to its
/// call: a code result to the code before it, a tool's response to the call of its id (or,
/// when it has none, to the last call unanswered).
#[derive(Debug, Default)]
pub(super) struct Open {
    /// The id of the code run last, for the result that follows it.
    code: Option<String>,
    /// The server tools' calls not yet answered, by id, with their names.
    calls: Vec<(String, String)>,
}

impl Open {
    /// The block of a part of a tool Gemini ran. `calls` counts the reply's calls so far, for
    /// the id the crate makes for a call that came without one (`made_0_{k}` for the `k`-th:
    /// unique within the reply, the same for the same reply); every call counts.
    pub(super) fn block(&mut self, executed: Executed, calls: &mut usize) -> Block {
        let mut next = || {
            let id = reply::made_id(0, *calls);
            *calls += 1;
            id
        };
        match executed {
            Executed::Code(input) => {
                let id = next();
                self.code = Some(id.clone());
                Block::provider_tool_use(id, "code_execution", input)
            }
            Executed::CodeResult { output, is_error } => Block::ToolResult {
                // The result of the code before it; an id of its own when there was none.
                tool_use_id: self.code.take().unwrap_or_else(next),
                tool_name: "code_execution".to_owned(),
                output,
                is_error,
            },
            Executed::Call { id, name, input } => {
                let made = next();
                let id = id.unwrap_or(made);
                let name = name.unwrap_or_else(|| UNNAMED.to_owned());
                self.calls.push((id.clone(), name.clone()));
                Block::provider_tool_use(id, name, input)
            }
            Executed::Response { id, name, output } => {
                let open = match &id {
                    Some(id) => self.calls.iter().position(|(call, _)| call == id),
                    None => self.calls.len().checked_sub(1),
                };
                let call = open.map(|index| self.calls.remove(index));
                let tool_name = name
                    .or_else(|| call.as_ref().map(|(_, name)| name.clone()))
                    .unwrap_or_else(|| UNNAMED.to_owned());
                let tool_use_id = id.or_else(|| call.map(|(id, _)| id)).unwrap_or_else(next);
                Block::ToolResult {
                    tool_use_id,
                    tool_name,
                    output,
                    is_error: false,
                }
            }
        }
    }
}
