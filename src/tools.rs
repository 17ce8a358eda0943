//! The tools a turn declares, once and neutrally: each provider writes them in its own shape
//! (its `tools.rs`), and every one is checked against the provider's rule for names.

use std::fmt;

use serde_json::value::RawValue;

use crate::errors::body::{BodyError, Kind};
use crate::errors::tools::{ToolError, UnknownToolChoice};
use crate::rules::Rules;

/// A tool the model may call: its name, what it does, and the JSON Schema of its input,
/// kept as its exact text (so a schema with `additionalProperties`, `$ref` or `anyOf` reaches
/// every provider unchanged; Gemini gets it as `parametersJsonSchema`, which takes JSON
/// Schema, rather than `parameters`, which rejects those keywords,
/// <https://github.com/zed-industries/zed/issues/44875>).
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
    name: String,
    description: String,
    input_schema: Box<RawValue>,
    strict: Option<bool>,
}

impl PartialEq for Tool {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.description == other.description
            && self.input_schema.get() == other.input_schema.get()
            && self.strict == other.strict
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
        let schema = input_schema.into();
        let raw = RawValue::from_string(schema).map_err(|error| ToolError {
            name: name.clone(),
            what: format!("is not JSON: {error}"),
        })?;
        if !raw.get().trim_start().starts_with('{') {
            return Err(ToolError {
                name,
                what: "must be a JSON object".to_owned(),
            });
        }
        Ok(Tool {
            name,
            description: description.into(),
            input_schema: raw,
            strict: None,
        })
    }

    /// The tool, asking for strict adherence to its schema (`true`) or not (`false`); by
    /// default it says nothing, and the provider's default holds (Responses, which requires
    /// the flag, then gets `false`).
    ///
    /// ```
    /// let tool = transcript_replay::Tool::new("ls", "Lists files.", "{}")?.strict(true);
    /// assert_eq!(tool.is_strict(), Some(true));
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = Some(strict);
        self
    }

    /// The tool's name.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "", "{}")?.name(), "ls");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the tool does, as the model reads it.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "Lists files.", "{}")?.description(), "Lists files.");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the tool's input, as its exact text.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "", "{ }")?.input_schema(), "{ }");
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn input_schema(&self) -> &str {
        self.input_schema.get()
    }

    /// The schema as a raw value, to write.
    pub(crate) fn schema(&self) -> &RawValue {
        &self.input_schema
    }

    /// Whether the tool asks for strict adherence to its schema, when it says.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Tool::new("ls", "", "{}")?.is_strict(), None);
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    pub fn is_strict(&self) -> Option<bool> {
        self.strict
    }
}

/// A tool reads from, and writes as, `{"name", "description", "input_schema", "strict"}`:
/// `description` may be left out (it is then empty), `strict` too, and the schema is kept as
/// its exact text. Any other key is an error, so that a misspelt one is not lost. The example
/// program's `--tools FILE` is a JSON array of these.
///
/// ```
/// use transcript_replay::Tool;
///
/// let tools: Vec<Tool> = serde_json::from_str(r#"[{"name": "ls", "input_schema": {"type": "object"}, "strict": true}]"#)?;
/// assert_eq!((tools[0].name(), tools[0].input_schema(), tools[0].is_strict()), ("ls", r#"{"type": "object"}"#, Some(true)));
/// assert_eq!(serde_json::to_string(&tools[0])?, r#"{"name":"ls","description":"","input_schema":{"type": "object"},"strict":true}"#);
/// assert!(serde_json::from_str::<Tool>(r#"{"name": "ls", "schema": {}}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'de> serde::Deserialize<'de> for Tool {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Declared {
            name: String,
            #[serde(default)]
            description: String,
            input_schema: Box<RawValue>,
            #[serde(default)]
            strict: Option<bool>,
        }
        let declared = Declared::deserialize(deserializer)?;
        let tool = Tool::new(
            declared.name,
            declared.description,
            declared.input_schema.get(),
        )
        .map_err(serde::de::Error::custom)?;
        Ok(Tool {
            strict: declared.strict,
            ..tool
        })
    }
}

impl serde::Serialize for Tool {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("description", &self.description)?;
        map.serialize_entry("input_schema", &self.input_schema)?;
        if let Some(strict) = self.strict {
            map.serialize_entry("strict", &strict)?;
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

/// Checks a turn's tools and choice against a provider's rules: every name by the provider's
/// rule, each name once, a choice only with tools, naming one of them, and one the provider
/// can express.
pub(crate) fn check(
    tools: &[Tool],
    choice: Option<&ToolChoice>,
    rules: &Rules,
) -> Result<(), BodyError> {
    let provider = rules.provider;
    for (index, tool) in tools.iter().enumerate() {
        if !rules.tool_names.allows(&tool.name) {
            return Err(BodyError::new(Kind::ToolName {
                provider,
                name: tool.name.chars().take(80).collect(),
                max: rules.tool_names.max,
            }));
        }
        if tools
            .iter()
            .take(index)
            .any(|earlier| earlier.name == tool.name)
        {
            return Err(BodyError::new(Kind::ToolDeclaredTwice(tool.name.clone())));
        }
        if tool.strict == Some(true) && !rules.tools_take_strict {
            return Err(BodyError::new(Kind::StrictNotTaken {
                provider,
                name: tool.name.clone(),
            }));
        }
    }
    match choice {
        None => Ok(()),
        Some(_) if tools.is_empty() => Err(BodyError::new(Kind::ChoiceWithoutTools)),
        Some(ToolChoice::Tool(name)) if !tools.iter().any(|tool| tool.name == *name) => {
            Err(BodyError::new(Kind::ChoiceOfNoTool(name.clone())))
        }
        Some(ToolChoice::None) if !rules.takes_no_tool_choice => {
            Err(BodyError::new(Kind::ChoiceNotTaken {
                provider,
                choice: "none",
            }))
        }
        Some(ToolChoice::Auto | ToolChoice::None | ToolChoice::Required | ToolChoice::Tool(_)) => {
            Ok(())
        }
    }
}
