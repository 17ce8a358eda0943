//! Tool declarations and the tool choice of a Chat Completions request:
//! `tools[].function` and `tool_choice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::tools::{Tool, ToolChoice};

/// `[{"type": "function", "function": {"name", "description", "parameters", "strict"}}]`.
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Declared))
    }
}

struct Declared<'b>(&'b Tool);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tool = serializer.serialize_map(Some(2))?;
        tool.serialize_entry("type", "function")?;
        tool.serialize_entry("function", &Function(self.0))?;
        tool.end()
    }
}

/// A function as Chat Completions and Responses declare it: the name, the description when
/// there is one, the schema as `parameters`, `strict` when the tool says.
pub(crate) struct Function<'b>(pub(crate) &'b Tool);

impl Serialize for Function<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut function = serializer.serialize_map(None)?;
        function.serialize_entry("name", tool.name())?;
        if !tool.description().is_empty() {
            function.serialize_entry("description", tool.description())?;
        }
        function.serialize_entry("parameters", tool.schema())?;
        if let Some(strict) = tool.is_strict() {
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
