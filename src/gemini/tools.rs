//! Tool declarations and the tool choice of a generateContent request:
//! `tools[].functionDeclarations[].parametersJsonSchema`, the built-in tools as entries of
//! `tools`, a native declaration verbatim, and `toolConfig`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::errors::body::{BodyError, Kind};
use crate::turn::tools::{self, Form, Function, Server, Tool, ToolChoice};

/// `[{"functionDeclarations": [{"name", "description", "parametersJsonSchema"}]}, ...]`: one
/// entry holding every function declaration, first, then one entry for each server or native
/// tool in the order given: `{"googleSearch": {}}` for web search, `{"codeExecution": {}}` for
/// code execution (the pinned spec's `Tool.googleSearch` and `Tool.codeExecution`,
/// <https://ai.google.dev/gemini-api/docs/google-search>,
/// <https://ai.google.dev/gemini-api/docs/code-execution>), a native declaration as given
/// (`{"urlContext": {}}`, ...).
///
/// A function's schema goes as `parametersJsonSchema`, which takes JSON Schema as it is, not
/// as `parameters`, an OpenAPI subset that rejects `additionalProperties`, `$ref` and type
/// arrays ("Invalid JSON payload received. Unknown name \"additionalProperties\"",
/// <https://github.com/BerriAI/litellm/issues/14330>,
/// <https://ai.google.dev/api/caching#FunctionDeclaration>). `description` is required by the
/// declaration's schema, so it is written even when empty.
pub(super) struct Tools<'b>(pub(super) &'b [Tool]);

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let functions: Vec<Function<'_>> = self
            .0
            .iter()
            .filter_map(|tool| match tool.form() {
                Form::Function(function) => Some(function),
                Form::Server(_) | Form::Native(_) => None,
            })
            .collect();
        let declarations = (!functions.is_empty()).then_some(Entry::Declarations(functions));
        let others = self.0.iter().filter_map(|tool| match tool.form() {
            Form::Function(_) => None,
            Form::Server(Server::WebSearch) => Some(Entry::Empty("googleSearch")),
            Form::Server(Server::CodeExecution) => Some(Entry::Empty("codeExecution")),
            Form::Native(declaration) => Some(Entry::Native(declaration)),
        });
        serializer.collect_seq(declarations.into_iter().chain(others))
    }
}

/// One entry of `tools`.
enum Entry<'b> {
    /// `{"functionDeclarations": [...]}`.
    Declarations(Vec<Function<'b>>),
    /// `{KEY: {}}`: a built-in tool with its defaults.
    Empty(&'static str),
    /// A native declaration, verbatim.
    Native(&'b serde_json::value::RawValue),
}

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Entry::Native(declaration) => declaration.serialize(serializer),
            Entry::Empty(key) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(key, &Empty)?;
                map.end()
            }
            Entry::Declarations(functions) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("functionDeclarations", &Declared(functions))?;
                map.end()
            }
        }
    }
}

struct Empty;

impl Serialize for Empty {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_map(Some(0))?.end()
    }
}

struct Declared<'b>(&'b [Function<'b>]);

impl Serialize for Declared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|&tool| Declaration(tool)))
    }
}

struct Declaration<'b>(Function<'b>);

impl Serialize for Declaration<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tool = self.0;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("name", tool.name)?;
        map.serialize_entry("description", tool.description)?;
        map.serialize_entry("parametersJsonSchema", tool.schema)?;
        map.end()
    }
}

/// Checks built-in (server or native) tools beside function declarations against the turn's
/// model: Gemini 3 models take both in one request, with
/// `toolConfig.includeServerSideToolInvocations` (written by [`Config`]); Gemini 1 and 2
/// models answer "Built-in tools ({google_search}) and Custom tools (Function Calling) cannot
/// be combined in the same request", so a turn whose model is named `gemini-1...` or
/// `gemini-2...` is an error here. A turn without a model, or another name, is written as for
/// Gemini 3.
///
/// Sources: <https://ai.google.dev/gemini-api/docs/tool-combination>;
/// <https://github.com/lbjlaq/Antigravity-Manager/issues/2241> (the error),
/// <https://github.com/vercel/ai/issues/8258> (Gemini 2.5),
/// <https://github.com/vercel/ai/pull/13845> (combination gated to Gemini 3 models).
pub(super) fn check_mix(tools: &[Tool], model: Option<&str>) -> Result<(), BodyError> {
    let Some(model) = model else {
        return Ok(());
    };
    let name = model.strip_prefix("models/").unwrap_or(model);
    let older = ["gemini-1", "gemini-2"]
        .iter()
        .any(|prefix| name.starts_with(prefix));
    match older && tools::mixes_kinds(tools) {
        true => Err(BodyError::new(Kind::ServerToolsBesideFunctions {
            provider: crate::Provider::Gemini,
            model: model.to_owned(),
            why: "only on Gemini 3 models and later",
        })),
        false => Ok(()),
    }
}

/// `{"functionCallingConfig": {"mode"}, "includeServerSideToolInvocations": true}`: the first
/// when a choice is asked for, the second when built-in tools stand beside function
/// declarations (see [`check_mix`]).
pub(super) struct Config<'b> {
    pub(super) choice: Option<&'b ToolChoice>,
    pub(super) mixed: bool,
}

impl Config<'_> {
    /// Whether the config has anything to say.
    pub(super) fn any(&self) -> bool {
        self.choice.is_some() || self.mixed
    }
}

impl Serialize for Config<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(choice) = self.choice {
            map.serialize_entry("functionCallingConfig", &Calling(choice))?;
        }
        if self.mixed {
            map.serialize_entry("includeServerSideToolInvocations", &true)?;
        }
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
