//! Tool declarations and the tool choice of a Converse request: `toolConfig`, with
//! `tools[].toolSpec.inputSchema.json`, a native `Tool` union member verbatim, and
//! `toolChoice`.
//!
//! Converse has no neutral server tool: its `Tool` union's `systemTool` (botocore's
//! `SystemTool`, `{"name"}`) names a tool of one model family, Nova 2's `nova_grounding` (web
//! search) and `nova_code_interpreter`
//! (<https://docs.aws.amazon.com/nova/latest/nova2-userguide/web-grounding.html>,
//! <https://docs.aws.amazon.com/nova/latest/nova2-userguide/code-interpreter.html>), which
//! Claude and the other models on Bedrock do not take. [`Tool::web_search`] and
//! [`Tool::code_execution`] are therefore errors here, and a runtime on Nova 2 declares
//! `Tool::native(r#"{"systemTool": {"name": "nova_grounding"}}"#)`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::turn::tools::{Form, Function, Tool, ToolChoice};

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
        match self.0.form() {
            Form::Native(declaration) => declaration.serialize(serializer),
            Form::Function(function) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("toolSpec", &Spec(function))?;
                map.end()
            }
            // Never reached: a server tool is refused before a body is built.
            Form::Server(server) => Err(serde::ser::Error::custom(format!(
                "Bedrock has no {} server tool",
                server.name()
            ))),
        }
    }
}

struct Spec<'b>(Function<'b>);

impl Serialize for Spec<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", tool.name)?;
        if !tool.description.is_empty() {
            map.serialize_entry("description", tool.description)?;
        }
        map.serialize_entry("inputSchema", &InputSchema(tool))?;
        if let Some(strict) = tool.strict {
            map.serialize_entry("strict", &strict)?;
        }
        map.end()
    }
}

struct InputSchema<'b>(Function<'b>);

impl Serialize for InputSchema<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("json", self.0.schema)?;
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
