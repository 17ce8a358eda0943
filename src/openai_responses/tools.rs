//! Tool declarations and the tool choice of a Responses request: `tools[]` and `tool_choice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::tools::{Tool, ToolChoice};

/// `[{"type": "function", "name", "description", "parameters", "strict"}]`: `strict` is
/// required by Responses' schema, so it is written always (`false` unless the tool asks).
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
        map.serialize_entry("type", "function")?;
        map.serialize_entry("name", tool.name())?;
        if !tool.description().is_empty() {
            map.serialize_entry("description", tool.description())?;
        }
        map.serialize_entry("parameters", tool.schema())?;
        map.serialize_entry("strict", &tool.is_strict().unwrap_or(false))?;
        map.end()
    }
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
