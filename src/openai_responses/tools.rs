//! Tool declarations and the tool choice of a Responses request: `tools[]`, the server tools
//! in Responses' own form, a native declaration verbatim, the fields a native tool needs, and
//! `tool_choice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::turn::tools::{Form, Server, Tool, ToolChoice};

/// `[{"type": "function", "name", "description", "parameters", "strict"}]` for a function:
/// `strict` is required by Responses' schema, so it is written always (`false` unless the tool
/// asks). `{"type": "web_search"}` and `{"type": "code_interpreter", "container": {"type":
/// "auto"}}` for the neutral server tools (the pinned spec's `WebSearchTool`, and
/// `CodeInterpreterTool`, whose `container` is required; `auto` makes a new container or
/// reuses an active one: <https://platform.openai.com/docs/guides/tools-web-search>,
/// <https://platform.openai.com/docs/guides/tools-code-interpreter>). A native declaration as
/// given.
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Declared))
    }
}

struct Declared<'b>(&'b Tool);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let form = self.0.form();
        if let Form::Native(declaration) = form {
            return declaration.serialize(serializer);
        }
        let mut map = serializer.serialize_map(None)?;
        match form {
            Form::Native(_) => {}
            Form::Server(Server::WebSearch) => map.serialize_entry("type", "web_search")?,
            Form::Server(Server::CodeExecution) => {
                map.serialize_entry("type", "code_interpreter")?;
                map.serialize_entry("container", &Auto)?;
            }
            Form::Function(tool) => {
                map.serialize_entry("type", "function")?;
                map.serialize_entry("name", tool.name)?;
                if !tool.description.is_empty() {
                    map.serialize_entry("description", tool.description)?;
                }
                map.serialize_entry("parameters", tool.schema)?;
                map.serialize_entry("strict", &tool.strict.unwrap_or(false))?;
            }
        }
        map.end()
    }
}

/// `{"type": "auto"}`: a container made (or an active one reused) for the request.
struct Auto;

impl Serialize for Auto {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("type", "auto")?;
        map.end()
    }
}

/// Whether the tools need `truncation: "auto"`: a native `computer_use_preview` does ("you
/// must set `truncation` to `auto`", the computer use guide,
/// <https://platform.openai.com/docs/guides/tools-computer-use>; the request fails without it,
/// <https://github.com/lzell/AIProxySwift/pull/137>). The caller's own `truncation` field,
/// when it has one, is written instead.
pub(super) fn needs_truncation(tools: &[Tool]) -> bool {
    tools
        .iter()
        .any(|tool| tool.native_member("type").as_deref() == Some("computer_use_preview"))
}

/// `"auto"`, `"none"`, `"required"`, or `{"type": "function", "name"}`.
pub(super) struct Choice<'b>(pub(super) &'b ToolChoice);

impl Serialize for Choice<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            ToolChoice::Auto => serializer.serialize_str("auto"),
            ToolChoice::None => serializer.serialize_str("none"),
            ToolChoice::Required => serializer.serialize_str("required"),
            ToolChoice::Tool(name) => {
                let mut choice = serializer.serialize_map(Some(2))?;
                choice.serialize_entry("type", "function")?;
                choice.serialize_entry("name", name)?;
                choice.end()
            }
        }
    }
}
