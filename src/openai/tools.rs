//! Tool declarations and the tool choice of a Chat Completions request: `tools[].function`, a
//! native declaration verbatim, web search as the top-level `web_search_options`, and
//! `tool_choice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::turn::tools::{Form, Function as Declared, Server, Tool, ToolChoice};

/// `[{"type": "function", "function": {"name", "description", "parameters", "strict"}}]` for
/// a function, a native declaration as given (a `{"type": "custom", ...}` tool, or a
/// compatible server's own); the server tools are not elements of Chat's `tools` (see
/// [`web_search`]).
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Tools<'_> {
    /// Whether any tool is an element of `tools`.
    pub(super) fn any(&self) -> bool {
        self.0
            .iter()
            .any(|tool| !matches!(tool.form(), Form::Server(_)))
    }
}

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().filter_map(|tool| match tool.form() {
            Form::Function(function) => Some(Element::Function(function)),
            Form::Native(declaration) => Some(Element::Native(declaration)),
            Form::Server(_) => None,
        }))
    }
}

enum Element<'b> {
    Function(Declared<'b>),
    Native(&'b serde_json::value::RawValue),
}

impl Serialize for Element<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Element::Native(declaration) => declaration.serialize(serializer),
            Element::Function(function) => {
                let mut tool = serializer.serialize_map(Some(2))?;
                tool.serialize_entry("type", "function")?;
                tool.serialize_entry("function", &Function(*function))?;
                tool.end()
            }
        }
    }
}

/// Whether the tools ask for web search, which Chat writes as the top-level field
/// `web_search_options: {}` of its search models (`gpt-4o-search-preview`, ...), not as a
/// tool: "the model will always retrieve information from the web before responding", and the
/// pinned spec's `CreateChatCompletionRequest.web_search_options`
/// (<https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat>). A model
/// without search answers the field with an error; Chat has no code execution at all
/// (<https://platform.openai.com/docs/guides/tools-code-interpreter> is a Responses tool).
pub(super) fn web_search(tools: &[Tool]) -> bool {
    tools
        .iter()
        .any(|tool| matches!(tool.form(), Form::Server(Server::WebSearch)))
}

/// `{}`: web search with the provider's defaults.
pub(super) struct Empty;

impl Serialize for Empty {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_map(Some(0))?.end()
    }
}

/// A function as Chat Completions declares it: the name, the description when there is one,
/// the schema as `parameters`, `strict` when the tool says.
pub(crate) struct Function<'b>(pub(crate) Declared<'b>);

impl Serialize for Function<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut function = serializer.serialize_map(None)?;
        function.serialize_entry("name", tool.name)?;
        if !tool.description.is_empty() {
            function.serialize_entry("description", tool.description)?;
        }
        function.serialize_entry("parameters", tool.schema)?;
        if let Some(strict) = tool.strict {
            function.serialize_entry("strict", &strict)?;
        }
        function.end()
    }
}

/// `"auto"`, `"none"`, `"required"`, or `{"type": "function", "function": {"name"}}`.
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
                choice.serialize_entry("function", &Named(name))?;
                choice.end()
            }
        }
    }
}

struct Named<'b>(&'b str);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut named = serializer.serialize_map(Some(1))?;
        named.serialize_entry("name", self.0)?;
        named.end()
    }
}
