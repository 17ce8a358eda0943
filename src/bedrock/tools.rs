//! Tool declarations and the tool choice of a Converse request: `toolConfig`, with
//! `tools[].toolSpec.inputSchema.json` and `toolChoice`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::tools::{Tool, ToolChoice};

/// `{"tools": [{"toolSpec": {"name", "description", "inputSchema": {"json"}, "strict"}}],
/// "toolChoice"}`: `description` left out when empty (the service model's `NonEmptyString`),
/// `toolChoice` when none is asked for.
pub(super) struct Config<'b> {
    pub(super) tools: &'b [Tool],
    pub(super) choice: Option<&'b ToolChoice>,
}

impl Serialize for Config<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("tools", &Tools(self.tools))?;
        if let Some(choice) = self.choice {
            map.serialize_entry("toolChoice", &Choice(choice))?;
        }
        map.end()
    }
}

struct Tools<'b>(&'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Declared))
    }
}

struct Declared<'b>(&'b Tool);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("toolSpec", &Spec(self.0))?;
        map.end()
    }
}

struct Spec<'b>(&'b Tool);

impl Serialize for Spec<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", tool.name())?;
        if !tool.description().is_empty() {
            map.serialize_entry("description", tool.description())?;
        }
        map.serialize_entry("inputSchema", &InputSchema(tool))?;
        if let Some(strict) = tool.is_strict() {
            map.serialize_entry("strict", &strict)?;
        }
        map.end()
    }
}

struct InputSchema<'b>(&'b Tool);

impl Serialize for InputSchema<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("json", self.0.schema())?;
        map.end()
    }
}

/// `{"auto": {}}`, `{"any": {}}` (required), or `{"tool": {"name"}}`. `none` is refused before
/// a body is built (the rules' `takes_no_tool_choice`).
struct Choice<'b>(&'b ToolChoice);

impl Serialize for Choice<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Empty;
        impl Serialize for Empty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_map(Some(0))?.end()
            }
        }
        struct Named<'b>(&'b str);
        impl Serialize for Named<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("name", self.0)?;
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(1))?;
        match self.0 {
            ToolChoice::Auto => map.serialize_entry("auto", &Empty)?,
            // Never reached: the choice is refused first. Written as `auto` would be wrong, so
            // it is an error here too.
            ToolChoice::None => {
                return Err(serde::ser::Error::custom(
                    "Bedrock's toolChoice has no `none`",
                ))
            }
            ToolChoice::Required => map.serialize_entry("any", &Empty)?,
            ToolChoice::Tool(name) => map.serialize_entry("tool", &Named(name))?,
        }
        map.end()
    }
}
