//! The tools a turn declares, once and neutrally: each provider writes them in its own shape
//! (its `tools.rs`), and every one is checked against the provider's rule for names.

use std::fmt;

use serde_json::value::RawValue;

use crate::errors::body::{BodyError, Kind as Error};
use crate::errors::tools::{ToolError, UnknownToolChoice};
use crate::render::rules::{Rules, ServerForm};

/// A tool the model may call: a function of the caller's (its name, what it does, and the
/// JSON Schema of its input), a neutral server tool the provider runs itself
/// ([`web_search`](Tool::web_search), [`code_execution`](Tool::code_execution)), or a
/// provider's own declaration kept as its exact text ([`native`](Tool::native)). All three go
/// in the same `&[Tool]` of [`Turn::tools`](crate::Turn::tools), and each provider writes them
/// in its own shape, in the order given.
///
/// A function's schema is kept as its exact text (so a schema with `additionalProperties`,
/// `$ref` or `anyOf` reaches every provider unchanged; Gemini gets it as
/// `parametersJsonSchema`, which takes JSON Schema, rather than `parameters`, which rejects
/// those keywords, <https://github.com/zed-industries/zed/issues/44875>).
///
/// `strict` asks the provider to hold the model's input to the schema, where it can: OpenAI
/// Chat, Responses, Anthropic and Bedrock take it; Gemini has no such flag, and a tool that
/// asks for it is an error there.
///
/// ```
/// use transcript_replay::Tool;
///
/// let read = Tool::new("read", "Reads a file.", r#"{"type": "object", "properties": {"path": {"type": "string"}}}"#)?;
/// assert_eq!(read.name(), "read");
/// assert_eq!(read.input_schema(), r#"{"type": "object", "properties": {"path": {"type": "string"}}}"#);
/// assert!(Tool::new("read", "", "[]").is_err());
/// # Ok::<(), transcript_replay::errors::ToolError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Tool {
    /// The function's name, the server tool's neutral name, or the native declaration's.
    name: String,
    kind: Kind,
}

/// What kind of tool a [`Tool`] is.
#[derive(Debug, Clone)]
enum Kind {
    /// The caller's own function: the model calls it, the caller runs it.
    Function {
        description: String,
        input_schema: Box<RawValue>,
        strict: Option<bool>,
    },
    /// A neutral server tool, written in each provider's own form.
    Server(Server),
    /// A provider's own declaration, written verbatim; `by_type` when its name is its `type`
    /// or its only key rather than a `name` of its own.
    Native {
        declaration: Box<RawValue>,
        by_type: bool,
    },
}

/// A neutral server tool: one the provider runs itself, which three or more providers share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Server {
    /// Searching the web.
    WebSearch,
    /// Running code in the provider's sandbox.
    CodeExecution,
}

impl Server {
    /// The neutral name: the tool's [`Tool::name`].
    pub(crate) fn name(self) -> &'static str {
        match self {
            Server::WebSearch => "web_search",
            Server::CodeExecution => "code_execution",
        }
    }
}

/// A tool as a provider's writer sees it.
pub(crate) enum Form<'t> {
    /// A function of the caller's.
    Function(Function<'t>),
    /// A neutral server tool.
    Server(Server),
    /// A provider's own declaration, to write verbatim.
    Native(&'t RawValue),
}

/// A function tool's parts, to write.
#[derive(Clone, Copy)]
pub(crate) struct Function<'t> {
    pub(crate) name: &'t str,
    /// What it does; empty when not given.
    pub(crate) description: &'t str,
    /// The JSON Schema of its input.
    pub(crate) schema: &'t RawValue,
    /// Whether it asks for strict input, when it says.
    pub(crate) strict: Option<bool>,
}

impl PartialEq for Tool {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && match (&self.kind, &other.kind) {
                (
                    Kind::Function {
                        description,
                        input_schema,
                        strict,
                    },
                    Kind::Function {
                        description: other_description,
                        input_schema: other_schema,
                        strict: other_strict,
                    },
                ) => {
                    description == other_description
                        && input_schema.get() == other_schema.get()
                        && strict == other_strict
                }
                (Kind::Server(server), Kind::Server(other)) => server == other,
                (
                    Kind::Native { declaration, .. },
                    Kind::Native {
                        declaration: other, ..
                    },
                ) => declaration.get() == other.get(),
                (Kind::Function { .. } | Kind::Server(_) | Kind::Native { .. }, _) => false,
            }
    }
}

impl Eq for Tool {}

impl Tool {
    /// A tool of this name and description whose input is described by the JSON Schema
    /// `input_schema`, an object, kept as its exact text.
    ///
    /// # Errors
    ///
    /// A [`ToolError`] when `input_schema` is not one JSON object.
    ///
    /// ```
    /// let tool = transcript_replay::Tool::new("ls", "Lists files.", r#"{"type": "object"}"#)?;
    /// assert_eq!(tool.description(), "Lists files.");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: impl Into<String>,
    ) -> Result<Self, ToolError> {
        let name = name.into();
        let raw = object(input_schema.into(), || ToolError::schema(&name))?;
        Ok(Tool {
            name,
            kind: Kind::Function {
                description: description.into(),
                input_schema: raw,
                strict: None,
            },
        })
    }

    /// Web search, run by the provider, written in each provider's own form:
    ///
    /// | provider | written |
    /// |---|---|
    /// | Anthropic | `{"type": "web_search_20250305", "name": "web_search"}` in `tools` |
    /// | OpenAI Responses | `{"type": "web_search"}` in `tools` |
    /// | Gemini | `{"googleSearch": {}}`, an entry of `tools` |
    /// | OpenAI Chat | the top-level field `web_search_options: {}` (search models), no tool |
    /// | Bedrock, compatible servers | none: the body is an error naming the provider |
    ///
    /// Its [`name`](Tool::name) is `web_search`. On a provider where the written tool has a
    /// name (Anthropic `web_search`, Responses by its `type` `web_search`, Gemini by its key
    /// `googleSearch`), a function or native tool of that name beside it is declared twice.
    /// Sources are in each provider's module docs (`tools.rs`).
    ///
    /// ```
    /// use transcript_replay::{openai_responses, StoredMessage, Tool, Turn};
    ///
    /// let tools = [Tool::web_search()];
    /// let history = [StoredMessage::user("News?")];
    /// let turn = Turn::new(&history).without_preamble().tools(&tools);
    /// let body = openai_responses::body(&turn)?;
    /// assert!(serde_json::to_string(&body).unwrap().starts_with(r#"{"tools":[{"type":"web_search"}],"#));
    /// assert_eq!((tools[0].name(), tools[0].description(), tools[0].input_schema()), ("web_search", "", "{}"));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn web_search() -> Tool {
        Tool::server(Server::WebSearch)
    }

    /// Code execution in the provider's sandbox, written in each provider's own form:
    ///
    /// | provider | written |
    /// |---|---|
    /// | Anthropic | `{"type": "code_execution_20250825", "name": "code_execution"}` in `tools` |
    /// | OpenAI Responses | `{"type": "code_interpreter", "container": {"type": "auto"}}` in `tools` |
    /// | Gemini | `{"codeExecution": {}}`, an entry of `tools` |
    /// | OpenAI Chat, Bedrock, compatible servers | none: the body is an error naming the provider |
    ///
    /// Its [`name`](Tool::name) is `code_execution`; the name checks are as for
    /// [`web_search`](Tool::web_search) (Responses `code_interpreter`, Gemini
    /// `codeExecution`).
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Tool, Turn};
    ///
    /// let tools = [Tool::code_execution()];
    /// let history = [StoredMessage::user("2**100?")];
    /// let error = openai::body(&Turn::new(&history).tools(&tools)).unwrap_err();
    /// assert_eq!(error.to_string(), "OpenAI (openai) has no code execution server tool: declare the provider's own with Tool::native, if it has one");
    /// ```
    pub fn code_execution() -> Tool {
        Tool::server(Server::CodeExecution)
    }

    fn server(server: Server) -> Tool {
        Tool {
            name: server.name().to_owned(),
            kind: Kind::Server(server),
        }
    }

    /// A provider's own tool declaration, one JSON object kept as its exact text and written
    /// verbatim into that provider's tools beside the function tools: for Anthropic,
    /// Responses and OpenAI Chat one element of `tools` (`{"type": "computer_20250124",
    /// "name": "computer", ...}`, `{"type": "mcp", ...}`); for Gemini one entry of `tools`
    /// (`{"urlContext": {}}`); for Bedrock one `Tool` union member of `toolConfig.tools`
    /// (`{"systemTool": {"name": "nova_grounding"}}`). It is never checked against the
    /// provider: a declaration meant for one provider sent to another is the provider's error.
    ///
    /// With the headers and fields it needs: an Anthropic tool whose `type` is still a beta
    /// (computer use, MCP) gets its `anthropic-beta` header in
    /// [`Provider::request`](crate::Provider::request); a Responses `computer_use_preview`
    /// gets `truncation: "auto"` unless the caller's fields set `truncation`.
    ///
    /// Its [`name`](Tool::name), for the name checks: its `name` member when it has one, else
    /// its `type`, else its only key (Gemini's `{"googleSearch": {}}` is `googleSearch`), or
    /// that key's own `name` when the key's value has one (Bedrock's `{"systemTool": {"name":
    /// "nova_grounding"}}` is `nova_grounding`). Two native tools named by their `type` may
    /// share it (Responses takes several `mcp` servers); any other two tools of one name are
    /// declared twice. [`description`](Tool::description) is empty and
    /// [`input_schema`](Tool::input_schema) is `{}` (the provider knows its tool's input);
    /// the text written is [`declaration`](Tool::declaration).
    ///
    /// # Errors
    ///
    /// A [`ToolError`] when `declaration` is not one JSON object, or has no `name`, no `type`
    /// and more than one key, so that nothing names it.
    ///
    /// ```
    /// use transcript_replay::Tool;
    ///
    /// let computer = Tool::native(r#"{"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768}"#)?;
    /// assert_eq!(computer.name(), "computer");
    /// assert_eq!(Tool::native(r#"{"type": "mcp", "server_label": "docs", "server_url": "https://example.com/mcp"}"#)?.name(), "mcp");
    /// assert_eq!(Tool::native(r#"{"googleSearch": {}}"#)?.name(), "googleSearch");
    /// assert_eq!(Tool::native(r#"{"systemTool": {"name": "nova_grounding"}}"#)?.name(), "nova_grounding");
    /// assert!(Tool::native("[]").is_err());
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn native(declaration: &str) -> Result<Tool, ToolError> {
        let raw = object(declaration.to_owned(), ToolError::native)?;
        let (name, by_type) = native_name(raw.get()).ok_or_else(|| ToolError {
            what: "has no `name`, no `type` and more than one key: nothing names it".to_owned(),
            ..ToolError::native()
        })?;
        Ok(Tool {
            name,
            kind: Kind::Native {
                declaration: raw,
                by_type,
            },
        })
    }

    /// The tool, asking for strict adherence to its schema (`true`) or not (`false`); by
    /// default it says nothing, and the provider's default holds (Responses, which requires
    /// the flag, then gets `false`). A server or native tool has no schema of the crate's,
    /// and is returned unchanged.
    ///
    /// ```
    /// let tool = transcript_replay::Tool::new("ls", "Lists files.", "{}")?.strict(true);
    /// assert_eq!(tool.is_strict(), Some(true));
    /// assert_eq!(transcript_replay::Tool::web_search().strict(true).is_strict(), None);
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        if let Kind::Function { strict: flag, .. } = &mut self.kind {
            *flag = Some(strict);
        }
        self
    }

    /// The tool's name: a function's own, a server tool's neutral name (`web_search`,
    /// `code_execution`), or a native declaration's (see [`native`](Tool::native)).
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "", "{}")?.name(), "ls");
    /// assert_eq!(transcript_replay::Tool::code_execution().name(), "code_execution");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the tool does, as the model reads it; empty for a server or native tool, which
    /// the provider describes itself.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "Lists files.", "{}")?.description(), "Lists files.");
    /// assert_eq!(transcript_replay::Tool::web_search().description(), "");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn description(&self) -> &str {
        match &self.kind {
            Kind::Function { description, .. } => description,
            Kind::Server(_) | Kind::Native { .. } => "",
        }
    }

    /// The JSON Schema of the tool's input, as its exact text; `{}` for a server or native
    /// tool, whose input the provider defines.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "", "{ }")?.input_schema(), "{ }");
    /// assert_eq!(transcript_replay::Tool::native(r#"{"type": "web_search"}"#)?.input_schema(), "{}");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn input_schema(&self) -> &str {
        match &self.kind {
            Kind::Function { input_schema, .. } => input_schema.get(),
            Kind::Server(_) | Kind::Native { .. } => "{}",
        }
    }

    /// A native tool's declaration, as its exact text: what is written into the provider's
    /// tools. `None` for a function or a server tool.
    ///
    /// ```
    /// use transcript_replay::Tool;
    ///
    /// assert_eq!(Tool::native(r#"{"urlContext": {}}"#)?.declaration(), Some(r#"{"urlContext": {}}"#));
    /// assert_eq!(Tool::web_search().declaration(), None);
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn declaration(&self) -> Option<&str> {
        match &self.kind {
            Kind::Native { declaration, .. } => Some(declaration.get()),
            Kind::Function { .. } | Kind::Server(_) => None,
        }
    }

    /// A native declaration's top-level member `key`, when it is a string (its `type`, say).
    pub(crate) fn native_member(&self, key: &str) -> Option<String> {
        let Kind::Native { declaration, .. } = &self.kind else {
            return None;
        };
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(declaration.get()).ok()?;
        object.get(key)?.as_str().map(str::to_owned)
    }

    /// The tool as a provider's writer sees it.
    pub(crate) fn form(&self) -> Form<'_> {
        match &self.kind {
            Kind::Function {
                description,
                input_schema,
                strict,
            } => Form::Function(Function {
                name: &self.name,
                description,
                schema: input_schema,
                strict: *strict,
            }),
            Kind::Server(server) => Form::Server(*server),
            Kind::Native { declaration, .. } => Form::Native(declaration),
        }
    }

    /// Whether the tool asks for strict adherence to its schema, when it says; `None` for a
    /// server or native tool.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "", "{}")?.is_strict(), None);
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn is_strict(&self) -> Option<bool> {
        match &self.kind {
            Kind::Function { strict, .. } => *strict,
            Kind::Server(_) | Kind::Native { .. } => None,
        }
    }
}

/// `text` as one JSON object, kept as it is, or the error `error` makes.
fn object(text: String, error: impl Fn() -> ToolError) -> Result<Box<RawValue>, ToolError> {
    let raw = RawValue::from_string(text).map_err(|json| ToolError {
        what: format!("is not JSON: {json}"),
        ..error()
    })?;
    if !raw.get().trim_start().starts_with('{') {
        return Err(ToolError {
            what: "must be a JSON object".to_owned(),
            ..error()
        });
    }
    Ok(raw)
}

/// A native declaration's name, and whether it is its `type` or only key (`true`) rather than
/// a `name` of its own (`false`).
fn native_name(declaration: &str) -> Option<(String, bool)> {
    let object: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(declaration).ok()?;
    let text = |value: Option<&serde_json::Value>| {
        value
            .and_then(serde_json::Value::as_str)
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
    };
    if let Some(name) = text(object.get("name")) {
        return Some((name, false));
    }
    if let Some(kind) = text(object.get("type")) {
        return Some((kind, true));
    }
    let mut keys = object.iter();
    match (keys.next(), keys.next()) {
        (Some((key, value)), None) => match text(value.get("name")) {
            Some(name) => Some((name, false)),
            None => Some((key.clone(), true)),
        },
        (Some(_), Some(_)) | (None, _) => None,
    }
}

/// A tool reads from, and writes as, one JSON object: a function is `{"name", "description",
/// "input_schema", "strict"}` (`description` may be left out, it is then empty, `strict` too,
/// and the schema is kept as its exact text); a neutral server tool is `{"server":
/// "web_search"}` or `{"server": "code_execution"}`; a native tool is `{"native": {...}}`,
/// the declaration kept as its exact text. Any other key, or another server name, is an
/// error, so that a misspelt one is not lost. The example program's `--tools FILE` is a JSON
/// array of these.
///
/// ```
/// use transcript_replay::Tool;
///
/// let tools: Vec<Tool> = serde_json::from_str(r#"[{"name": "ls", "input_schema": {"type": "object"}, "strict": true}, {"server": "web_search"}, {"native": {"googleSearch": {}}}]"#)?;
/// assert_eq!((tools[0].name(), tools[0].input_schema(), tools[0].is_strict()), ("ls", r#"{"type": "object"}"#, Some(true)));
/// assert_eq!(serde_json::to_string(&tools[0])?, r#"{"name":"ls","description":"","input_schema":{"type": "object"},"strict":true}"#);
/// assert_eq!(tools[1], Tool::web_search());
/// assert_eq!(serde_json::to_string(&tools[2])?, r#"{"native":{"googleSearch": {}}}"#);
/// assert!(serde_json::from_str::<Tool>(r#"{"name": "ls", "schema": {}}"#).is_err());
/// assert!(serde_json::from_str::<Tool>(r#"{"server": "web_fetch"}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'de> serde::Deserialize<'de> for Tool {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Declared {
            #[serde(default)]
            name: Option<String>,
            #[serde(default)]
            description: Option<String>,
            #[serde(default)]
            input_schema: Option<Box<RawValue>>,
            #[serde(default)]
            strict: Option<bool>,
            #[serde(default)]
            server: Option<String>,
            #[serde(default)]
            native: Option<Box<RawValue>>,
        }
        use serde::de::Error;
        let declared = Declared::deserialize(deserializer)?;
        let function = declared.name.is_some()
            || declared.description.is_some()
            || declared.input_schema.is_some()
            || declared.strict.is_some();
        match (function, declared.server, declared.native) {
            (false, Some(server), None) => match server.as_str() {
                "web_search" => Ok(Tool::web_search()),
                "code_execution" => Ok(Tool::code_execution()),
                other => Err(D::Error::custom(format!(
                    "unknown server tool {other:?}, expected web_search or code_execution"
                ))),
            },
            (false, None, Some(native)) => Tool::native(native.get()).map_err(D::Error::custom),
            (true, None, None) => {
                let name = declared.name.ok_or_else(|| D::Error::missing_field("name"))?;
                let schema = declared
                    .input_schema
                    .ok_or_else(|| D::Error::missing_field("input_schema"))?;
                let tool = Tool::new(name, declared.description.unwrap_or_default(), schema.get())
                    .map_err(D::Error::custom)?;
                Ok(match declared.strict {
                    Some(strict) => tool.strict(strict),
                    None => tool,
                })
            }
            (_, _, _) => Err(D::Error::custom(
                "a tool is a function ({\"name\", \"input_schema\", ...}), {\"server\": NAME} or {\"native\": {...}}, one of the three",
            )),
        }
    }
}

impl serde::Serialize for Tool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        match self.form() {
            Form::Function(function) => {
                map.serialize_entry("name", function.name)?;
                map.serialize_entry("description", function.description)?;
                map.serialize_entry("input_schema", function.schema)?;
                if let Some(strict) = function.strict {
                    map.serialize_entry("strict", &strict)?;
                }
            }
            Form::Server(server) => map.serialize_entry("server", server.name())?,
            Form::Native(declaration) => map.serialize_entry("native", declaration)?,
        }
        map.end()
    }
}

/// Which tools the model may or must call.
///
/// Each provider spells it in its own words: OpenAI `auto`, `none`, `required` or the named
/// function; Anthropic `auto`, `none`, `any` or `tool`; Gemini's `functionCallingConfig` mode
/// `AUTO`, `NONE` or `ANY` (with `allowedFunctionNames` for one tool); Bedrock `auto`, `any` or
/// `tool`, and no `none`: asking Bedrock for [`None`](ToolChoice::None) is an error.
///
/// ```
/// use transcript_replay::ToolChoice;
///
/// assert_eq!("tool:read".parse::<ToolChoice>(), Ok(ToolChoice::Tool("read".into())));
/// assert_eq!(ToolChoice::Required.to_string(), "required");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ToolChoice {
    /// The model decides whether to call a tool.
    Auto,
    /// The model calls no tool.
    None,
    /// The model calls at least one tool.
    Required,
    /// The model calls this tool.
    Tool(String),
}

impl fmt::Display for ToolChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolChoice::Auto => f.write_str("auto"),
            ToolChoice::None => f.write_str("none"),
            ToolChoice::Required => f.write_str("required"),
            ToolChoice::Tool(name) => write!(f, "tool:{name}"),
        }
    }
}

impl std::str::FromStr for ToolChoice {
    type Err = UnknownToolChoice;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "auto" => Ok(ToolChoice::Auto),
            "none" => Ok(ToolChoice::None),
            "required" => Ok(ToolChoice::Required),
            other => match other.strip_prefix("tool:") {
                Some(name) if !name.is_empty() => Ok(ToolChoice::Tool(name.to_owned())),
                Some(_) | None => Err(UnknownToolChoice(other.to_owned())),
            },
        }
    }
}

/// Checks a turn's tools and choice against a provider's rules: every function's name by the
/// provider's rule, every server tool one the provider has, each name once (a server tool
/// by the name its written form has on the provider; two native tools named by their `type`
/// may share it), a choice only with tools in the provider's tools list, naming one of its
/// function tools, and one the provider can express.
pub(crate) fn check(
    tools: &[Tool],
    choice: Option<&ToolChoice>,
    rules: &Rules,
) -> Result<(), BodyError> {
    let provider = rules.provider;
    // Each tool's name on this provider, whether it is named by its type, and whether it is
    // an element of the provider's tools list.
    let mut named: Vec<(&str, bool, bool)> = Vec::with_capacity(tools.len());
    for tool in tools {
        let (name, by_type, listed) = match &tool.kind {
            Kind::Function { strict, .. } => {
                if !rules.tool_names.allows(&tool.name) {
                    return Err(BodyError::new(Error::ToolName {
                        provider,
                        name: tool.name.chars().take(80).collect(),
                        max: rules.tool_names.max,
                    }));
                }
                if *strict == Some(true) && !rules.tools_take_strict {
                    return Err(BodyError::new(Error::StrictNotTaken {
                        provider,
                        name: tool.name.clone(),
                    }));
                }
                (tool.name.as_str(), false, true)
            }
            Kind::Server(server) => match form_of(*server, rules) {
                None => {
                    return Err(BodyError::new(Error::ServerToolNotTaken {
                        provider,
                        tool: server.name(),
                    }))
                }
                Some(ServerForm::Entry(name)) => (name, false, true),
                Some(ServerForm::Field) => (server.name(), false, false),
            },
            Kind::Native { by_type, .. } => (tool.name.as_str(), *by_type, true),
        };
        // A tool written as a top-level field (Chat's web search) has no name on the wire: it
        // clashes only with another written the same way.
        if named
            .iter()
            .any(|&(earlier, earlier_by_type, earlier_listed)| {
                earlier == name && earlier_listed == listed && !(by_type && earlier_by_type)
            })
        {
            return Err(BodyError::new(Error::ToolDeclaredTwice(name.to_owned())));
        }
        named.push((name, by_type, listed));
    }
    match choice {
        None => Ok(()),
        Some(_) if !named.iter().any(|&(_, _, listed)| listed) => {
            Err(BodyError::new(Error::ChoiceWithoutTools))
        }
        Some(_)
            if rules.choice_needs_functions
                && !tools
                    .iter()
                    .any(|tool| matches!(tool.kind, Kind::Function { .. })) =>
        {
            Err(BodyError::new(Error::ChoiceWithoutTools))
        }
        Some(ToolChoice::Tool(name)) if !tools.iter().any(|tool| is_function(tool, name)) => {
            match tools.iter().zip(&named).any(|(tool, &(written, _, _))| {
                !matches!(tool.kind, Kind::Function { .. })
                    && (tool.name == *name || written == name)
            }) {
                true => Err(BodyError::new(Error::ChoiceOfServerTool(name.clone()))),
                false => Err(BodyError::new(Error::ChoiceOfNoTool(name.clone()))),
            }
        }
        Some(ToolChoice::None) if !rules.takes_no_tool_choice => {
            Err(BodyError::new(Error::ChoiceNotTaken {
                provider,
                choice: "none",
            }))
        }
        Some(ToolChoice::Auto | ToolChoice::None | ToolChoice::Required | ToolChoice::Tool(_)) => {
            Ok(())
        }
    }
}

/// Whether `tool` is a function tool named `name`.
fn is_function(tool: &Tool, name: &str) -> bool {
    matches!(tool.kind, Kind::Function { .. }) && tool.name == name
}

/// How the provider writes a neutral server tool, where it has it.
fn form_of(server: Server, rules: &Rules) -> Option<ServerForm> {
    match server {
        Server::WebSearch => rules.server_tools.web_search,
        Server::CodeExecution => rules.server_tools.code_execution,
    }
}

/// Whether the tools mix function tools with server or native ones: some providers take
/// only one kind in a request, on some models.
pub(crate) fn mixes_kinds(tools: &[Tool]) -> bool {
    let functions = tools
        .iter()
        .filter(|tool| matches!(tool.kind, Kind::Function { .. }))
        .count();
    functions > 0 && functions < tools.len()
}
