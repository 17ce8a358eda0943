//! Tool declarations and the tool choice of a Messages request: `tools[].input_schema` for a
//! function, the server tools in Anthropic's own form, a native declaration verbatim, the
//! betas a native tool needs, and `tool_choice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::turn::tools::{Form, Server, Tool, ToolChoice};

/// `[{"name", "description", "input_schema", "strict"}]` for a function, `{"type":
/// "web_search_20250305", "name": "web_search"}` and `{"type": "code_execution_20250825",
/// "name": "code_execution"}` for the neutral server tools, a native declaration as given.
///
/// Both server tools are in the generally available `CreateMessageParams.tools` of the pinned
/// spec (`WebSearchTool_20250305`, `CodeExecutionTool_20250825`, each `name` a constant), so
/// neither needs an `anthropic-beta` header: <https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool>,
/// <https://docs.claude.com/en/docs/agents-and-tools/tool-use/code-execution-tool>.
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Declared))
    }
}

struct Declared<'b>(&'b Tool);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (kind, name) = match self.0.form() {
            Form::Native(declaration) => return declaration.serialize(serializer),
            Form::Server(Server::WebSearch) => ("web_search_20250305", "web_search"),
            Form::Server(Server::CodeExecution) => ("code_execution_20250825", "code_execution"),
            Form::Function(tool) => {
                let mut map = serializer.serialize_map(None)?;
                map.serialize_entry("name", tool.name)?;
                if !tool.description.is_empty() {
                    map.serialize_entry("description", tool.description)?;
                }
                map.serialize_entry("input_schema", tool.schema)?;
                if let Some(strict) = tool.strict {
                    map.serialize_entry("strict", &strict)?;
                }
                return map.end();
            }
        };
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("type", kind)?;
        map.serialize_entry("name", name)?;
        map.end()
    }
}

/// The tool `type`s that are still a beta, each with the `anthropic-beta` value it needs: the
/// tools of the pinned spec's `BetaCreateMessageParams.tools` that its generally available
/// `CreateMessageParams.tools` does not have. A native tool of one of these types gets its
/// header from [`Provider::request`](crate::Provider::request).
///
/// Sources: the computer use tool guide, "computer-use-2025-11-24" for `computer_20251124`,
/// "computer-use-2025-01-24" for `computer_20250124`, "computer-use-2024-10-22" for the
/// 2024-10-22 computer, text editor and bash tools
/// (<https://docs.claude.com/en/docs/agents-and-tools/tool-use/computer-use-tool>); the MCP
/// connector, "mcp-client-2025-11-20" (<https://docs.claude.com/en/docs/agents-and-tools/mcp-connector>);
/// the advisor tool, "advisor-tool-2026-03-01" (the pinned spec's `AnthropicBeta` values).
/// Anthropic's own computer-use demo keys each tool version to the same betas
/// (<https://github.com/anthropics/anthropic-quickstarts/blob/main/computer-use-demo/computer_use_demo/tools/groups.py>).
pub(crate) const BETA_TOOLS: [(&str, &str); 7] = [
    ("computer_20251124", "computer-use-2025-11-24"),
    ("computer_20250124", "computer-use-2025-01-24"),
    ("computer_20241022", "computer-use-2024-10-22"),
    ("text_editor_20241022", "computer-use-2024-10-22"),
    ("bash_20241022", "computer-use-2024-10-22"),
    ("mcp_toolset", "mcp-client-2025-11-20"),
    ("advisor_20260301", "advisor-tool-2026-03-01"),
];

/// The `anthropic-beta` headers the native tools need, each value once, in the tools' order.
pub(super) fn beta_headers(tools: &[Tool]) -> Vec<(&'static str, &'static str)> {
    let mut headers: Vec<(&'static str, &'static str)> = Vec::new();
    for tool in tools {
        let Some(kind) = tool.native_member("type") else {
            continue;
        };
        for &(_, beta) in BETA_TOOLS
            .iter()
            .filter(|(beta_type, _)| *beta_type == kind)
        {
            if !headers.iter().any(|&(_, value)| value == beta) {
                headers.push(("anthropic-beta", beta));
            }
        }
    }
    headers
}

/// `{"type": "auto"}`, `{"type": "none"}`, `{"type": "any"}` (required), or
/// `{"type": "tool", "name"}`.
pub(super) struct Choice<'b>(pub(super) &'b ToolChoice);

impl Serialize for Choice<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self.0 {
            ToolChoice::Auto => map.serialize_entry("type", "auto")?,
            ToolChoice::None => map.serialize_entry("type", "none")?,
            ToolChoice::Required => map.serialize_entry("type", "any")?,
            ToolChoice::Tool(name) => {
                map.serialize_entry("type", "tool")?;
                map.serialize_entry("name", name)?;
            }
        }
        map.end()
    }
}
