//! Tool declarations and the tool choice of a generateContent request:
//! `tools[].functionDeclarations[].parametersJsonSchema` and
//! `toolConfig.functionCallingConfig`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::tools::{Tool, ToolChoice};

/// `[{"functionDeclarations": [{"name", "description", "parametersJsonSchema"}]}]`: one tool
/// holding every declaration.
///
/// The schema goes as `parametersJsonSchema`, which takes JSON Schema as it is, not as
/// `parameters`, an OpenAPI subset that rejects `additionalProperties`, `$ref` and type
/// arrays ("Invalid JSON payload received. Unknown name \"additionalProperties\"",
/// <https://github.com/BerriAI/litellm/issues/14330>,
/// <https://ai.google.dev/api/caching#FunctionDeclaration>). `description` is required by the
/// declaration's schema, so it is written even when empty.
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(std::iter::once(Declarations(self.0)))
    }
}

struct Declarations<'b>(&'b [Tool]);

impl Serialize for Declarations<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("functionDeclarations", &Declared(self.0))?;
        map.end()
    }
}

struct Declared<'b>(&'b [Tool]);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Declaration))
    }
}

struct Declaration<'b>(&'b Tool);

impl Serialize for Declaration<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("name", tool.name())?;
        map.serialize_entry("description", tool.description())?;
        map.serialize_entry("parametersJsonSchema", tool.schema())?;
        map.end()
    }
}

/// `{"functionCallingConfig": {"mode"}}`: `AUTO`, `NONE`, `ANY` (required), or `ANY` with
/// `allowedFunctionNames` of the one tool.
pub(super) struct Config<'b>(pub(super) &'b ToolChoice);

impl Serialize for Config<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("functionCallingConfig", &Calling(self.0))?;
        map.end()
    }
}

struct Calling<'b>(&'b ToolChoice);

impl Serialize for Calling<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self.0 {
            ToolChoice::Auto => map.serialize_entry("mode", "AUTO")?,
            ToolChoice::None => map.serialize_entry("mode", "NONE")?,
            ToolChoice::Required => map.serialize_entry("mode", "ANY")?,
            ToolChoice::Tool(name) => {
                map.serialize_entry("mode", "ANY")?;
                map.serialize_entry("allowedFunctionNames", &[name])?;
            }
        }
        map.end()
    }
}
