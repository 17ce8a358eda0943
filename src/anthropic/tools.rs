//! Tool declarations and the tool choice of a Messages request: `tools[].input_schema` and
//! `tool_choice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::tools::{Tool, ToolChoice};

/// `[{"name", "description", "input_schema", "strict"}]`.
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Declared))
    }
}

struct Declared<'b>(&'b Tool);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", tool.name())?;
        if !tool.description().is_empty() {
            map.serialize_entry("description", tool.description())?;
        }
        map.serialize_entry("input_schema", tool.schema())?;
        if let Some(strict) = tool.is_strict() {
            map.serialize_entry("strict", &strict)?;
        }
        map.end()
    }
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
