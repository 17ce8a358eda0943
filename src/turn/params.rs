//! The neutral request parameters of a turn (docs/design.md#request), written as each provider takes them:
//! the model, the output limit, reasoning, streaming, temperature, stop sequences and the
//! reply's JSON schema.

use std::collections::BTreeMap;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;
use serde_json::{json, Value};

use crate::errors::body::{BodyError, Kind};
use crate::provider::Provider;
use crate::render::rules::{Param, Rules};
use crate::turn::tools::ToolChoice;

/// Top-level fields, each value as its exact JSON text (the body's `Fields`).
type Fields = Vec<(String, Box<serde_json::value::RawValue>)>;

/// How much the model thinks before it answers: an effort, or a budget of tokens, written as
/// each provider takes it ([`Turn::reasoning`](crate::Turn::reasoning)).
///
/// A provider that takes an effort (OpenAI Chat's `reasoning_effort`, Responses'
/// `reasoning.effort`) gets a budget as the effort it falls in: under 4,096 tokens `low`,
/// under 16,384 `medium`, else `high`. A provider that takes a budget (Anthropic's and
/// Bedrock's `thinking.budget_tokens`, Gemini's `thinkingConfig.thinkingBudget`) gets an
/// effort as 2,048, 8,192 or 24,576 tokens.
///
/// ```
/// use transcript_replay::Reasoning;
///
/// assert_eq!(Reasoning::Budget(10_000).effort(), "medium");
/// assert_eq!(Reasoning::High.budget_tokens(), 24_576);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reasoning {
    /// A little thinking.
    Low,
    /// Some thinking.
    Medium,
    /// Much thinking.
    High,
    /// Thinking of at most this many tokens.
    Budget(u32),
}

impl Reasoning {
    /// The effort, as OpenAI spells it: `low`, `medium` or `high`.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Reasoning::Budget(1_024).effort(), "low");
    /// ```
    pub fn effort(self) -> &'static str {
        match self {
            Reasoning::Low => "low",
            Reasoning::Medium => "medium",
            Reasoning::High => "high",
            Reasoning::Budget(tokens) if tokens < 4_096 => "low",
            Reasoning::Budget(tokens) if tokens < 16_384 => "medium",
            Reasoning::Budget(_) => "high",
        }
    }

    /// The budget of thinking tokens.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Reasoning::Low.budget_tokens(), 2_048);
    /// ```
    pub fn budget_tokens(self) -> u32 {
        match self {
            Reasoning::Low => 2_048,
            Reasoning::Medium => 8_192,
            Reasoning::High => 24_576,
            Reasoning::Budget(tokens) => tokens,
        }
    }
}

/// The neutral parameters a turn was given.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Params {
    pub(crate) model: Option<String>,
    pub(crate) max_output: Option<u32>,
    pub(crate) reasoning: Option<Reasoning>,
    pub(crate) stream: bool,
    pub(crate) temperature: Option<f64>,
    pub(crate) stop: Vec<String>,
    /// The region the request goes to, where the provider's host names one; no field of the
    /// body.
    pub(crate) region: Option<String>,
    pub(crate) reply_schema: Option<ReplySchema>,
    pub(crate) compaction: Option<Compaction>,
}

/// Compaction asked of a provider that compacts a conversation on its own side
/// ([`Turn::compaction`](crate::Turn::compaction)): when the input reaches `threshold` tokens,
/// the provider replaces the history before the turn by a summary it writes, and the reply
/// carries it as a `compaction` block the runtime stores. `instructions` are added to
/// the provider's own for the summary; `pause` stops the reply after the compaction (the turn goes
/// on with the next request).
///
/// ```
/// use transcript_replay::{Compaction, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let ask = Compaction::at(150_000).instructions("Keep the file names.").pause();
/// let turn = Turn::new(&history).without_preamble().compaction(ask);
/// let body = serde_json::to_value(transcript_replay::anthropic::body(&turn)?).unwrap();
/// assert_eq!(body["context_management"]["edits"][0]["trigger"]["value"], 150_000);
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compaction {
    threshold: u64,
    instructions: Option<String>,
    pause: bool,
}

impl Compaction {
    /// Compaction once the input reaches `threshold` tokens.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Compaction::at(100_000).threshold(), 100_000);
    /// ```
    pub fn at(threshold: u64) -> Self {
        Compaction {
            threshold,
            instructions: None,
            pause: false,
        }
    }

    /// Instructions for the provider's summary, beside its own (Anthropic's "Additional
    /// instructions for summarization").
    ///
    /// ```
    /// let ask = transcript_replay::Compaction::at(100_000).instructions("Keep the paths.");
    /// assert_eq!(ask.instructions_given(), Some("Keep the paths."));
    /// ```
    #[must_use]
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Stops the reply after the compaction: it ends paused, and the runtime sends the next
    /// request (with the compaction pushed as a round) to go on.
    ///
    /// ```
    /// assert!(transcript_replay::Compaction::at(100_000).pause().pauses());
    /// ```
    #[must_use]
    pub fn pause(mut self) -> Self {
        self.pause = true;
        self
    }

    /// The threshold in input tokens.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Compaction::at(5_000).threshold(), 5_000);
    /// ```
    pub fn threshold(&self) -> u64 {
        self.threshold
    }

    /// The instructions, when given.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Compaction::at(5_000).instructions_given(), None);
    /// ```
    pub fn instructions_given(&self) -> Option<&str> {
        self.instructions.as_deref()
    }

    /// Whether the reply pauses after the compaction.
    ///
    /// ```
    /// assert!(!transcript_replay::Compaction::at(5_000).pauses());
    /// ```
    pub fn pauses(&self) -> bool {
        self.pause
    }
}

/// The JSON schema a reply is asked for in
/// ([`Turn::reply_schema`](crate::Turn::reply_schema)): its name, and the schema as the
/// caller's exact text.
#[derive(Debug, Clone)]
pub(crate) struct ReplySchema {
    pub(crate) name: String,
    pub(crate) schema: Box<RawValue>,
}

impl PartialEq for ReplySchema {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.schema.get() == other.schema.get()
    }
}

/// The longest name OpenAI takes for a reply schema: "Must be a-z, A-Z, 0-9, or contain
/// underscores and dashes, with a maximum length of 64" (the spec's
/// `ResponseFormatJsonSchema.json_schema.name`).
const NAME_MAX: usize = 64;

impl ReplySchema {
    /// The schema, checked: a name of 1 to 64 letters, digits, `_` or `-`, and one JSON
    /// object.
    pub(crate) fn new(name: &str, schema: &str) -> Result<Self, BodyError> {
        let bad = |error: Option<String>| {
            BodyError::new(Kind::ReplySchema {
                name: name.to_owned(),
                error,
            })
        };
        let named = (1..=NAME_MAX).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !named {
            return Err(bad(None));
        }
        let schema = RawValue::from_string(schema.to_owned())
            .map_err(|error| bad(Some(format!("it is not JSON: {error}"))))?;
        if !schema.get().trim_start().starts_with('{') {
            return Err(bad(Some("it is not an object".to_owned())));
        }
        Ok(ReplySchema {
            name: name.to_owned(),
            schema,
        })
    }
}

/// Top-level fields that say what a parameter says, under any provider's name for it: a
/// caller's field of one of them beside the parameter is the error that names both.
/// Each parameter: its name, whether the turn sets it, and the top-level fields that say
/// what it says under any provider's name for it.
type SameAs = (&'static str, fn(&Params) -> bool, &'static [&'static str]);
const SAME_AS: [SameAs; 6] = [
    ("model", |params| params.model.is_some(), &["model"]),
    (
        "max_output",
        |params| params.max_output.is_some(),
        &["max_tokens", "max_completion_tokens", "max_output_tokens"],
    ),
    (
        "reasoning",
        |params| params.reasoning.is_some(),
        &["reasoning_effort", "reasoning", "thinking"],
    ),
    (
        "temperature",
        |params| params.temperature.is_some(),
        &["temperature"],
    ),
    (
        "stop",
        |params| !params.stop.is_empty(),
        &["stop", "stop_sequences"],
    ),
    // Anthropic's `output_format` is the beta's name for `output_config.format`, still taken
    // (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>).
    (
        "reply_schema",
        |params| params.reply_schema.is_some(),
        &["response_format", "output_format"],
    ),
];

/// Members of objects the caller may add other members to that say what a parameter says,
/// under any provider's name for it: a caller's object with one of them beside the parameter
/// is the error that names both. Gemini takes `responseSchema` or `responseJsonSchema`, never
/// both ("If set, `response_schema` must be omitted", the spec's
/// `GenerationConfig.responseJsonSchema`).
type MembersSameAs = (
    &'static str,
    fn(&Params) -> bool,
    &'static [(&'static str, &'static str)],
);
const MEMBERS_SAME_AS: [MembersSameAs; 1] = [(
    "reply_schema",
    |params| params.reply_schema.is_some(),
    &[
        ("text", "format"),
        ("output_config", "format"),
        ("generationConfig", "responseJsonSchema"),
        ("generationConfig", "responseSchema"),
        ("generationConfig", "responseMimeType"),
        ("outputConfig", "textFormat"),
    ],
)];

/// The first caller's field that names a member of [`MEMBERS_SAME_AS`] of a parameter the
/// turn sets: the parameter and the field (`text.format`).
fn member_same_as(params: &Params, caller: &Fields) -> Option<(&'static str, String)> {
    for (param, set, members) in MEMBERS_SAME_AS {
        if !set(params) {
            continue;
        }
        for (key, raw) in caller {
            let Ok(Value::Object(object)) = serde_json::from_str::<Value>(raw.get()) else {
                continue;
            };
            if let Some((_, member)) = members
                .iter()
                .find(|(name, member)| name == key && object.contains_key(*member))
            {
                return Some((param, format!("{key}.{member}")));
            }
        }
    }
    None
}

/// Where a caller's fields say what a parameter of a rejected pair says, under any provider's
/// name for it: each parameter, and the fields (a top-level key, or an object's key and its
/// member) whose value sets it.
type SeenAs = (
    Param,
    &'static [(&'static str, Option<&'static str>, fn(&Value) -> bool)],
);
const SEEN_AS: [SeenAs; 4] = [
    (
        Param::Reasoning,
        &[
            ("reasoning_effort", None, effort_set),
            ("reasoning", Some("effort"), effort_set),
            ("thinking", None, thinking_enabled),
            (
                "additionalModelRequestFields",
                Some("thinking"),
                thinking_enabled,
            ),
        ],
    ),
    (
        Param::Temperature,
        &[
            ("temperature", None, not_one),
            ("inferenceConfig", Some("temperature"), not_one),
            ("generationConfig", Some("temperature"), not_one),
        ],
    ),
    (
        Param::Stop,
        &[
            ("stop", None, stops_given),
            ("stop_sequences", None, stops_given),
            ("inferenceConfig", Some("stopSequences"), stops_given),
            ("generationConfig", Some("stopSequences"), stops_given),
        ],
    ),
    (
        Param::ForcedToolChoice,
        &[
            ("tool_choice", None, forces_a_call),
            ("toolConfig", Some("toolChoice"), forces_a_call),
        ],
    ),
];

/// An effort other than `none` (`"high"`, or an object's `effort`).
fn effort_set(value: &Value) -> bool {
    value.as_str().is_some_and(|effort| effort != "none")
}

/// Thinking that is not `{"type": "disabled"}`.
fn thinking_enabled(value: &Value) -> bool {
    value.is_object() && value.get("type").and_then(Value::as_str) != Some("disabled")
}

/// A temperature other than the default, 1.
fn not_one(value: &Value) -> bool {
    value
        .as_f64()
        .is_some_and(|temperature| (temperature - 1.0).abs() > f64::EPSILON)
}

/// Stop sequences: a string, or an array that is not empty.
fn stops_given(value: &Value) -> bool {
    match value {
        Value::String(_) => true,
        Value::Array(stops) => !stops.is_empty(),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::Object(_) => false,
    }
}

/// A tool choice that forces a call, in any provider's shape: `"required"`, `{"type":
/// "any"}`, `{"type": "tool", ...}`, `{"type": "function", ...}`, `{"any": {}}`, `{"tool":
/// {...}}`.
fn forces_a_call(value: &Value) -> bool {
    match value {
        Value::String(choice) => choice == "required",
        Value::Object(choice) => {
            matches!(
                choice.get("type").and_then(Value::as_str),
                Some("any" | "tool" | "function")
            ) || choice.contains_key("any")
                || choice.contains_key("tool")
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::Array(_) => false,
    }
}

/// Whether the turn sets a parameter of a rejected pair itself.
fn turn_sets(param: Param, params: &Params, tool_choice: Option<&ToolChoice>) -> bool {
    match param {
        Param::Reasoning => params.reasoning.is_some(),
        Param::Temperature => params
            .temperature
            .is_some_and(|temperature| (temperature - 1.0).abs() > f64::EPSILON),
        Param::Stop => !params.stop.is_empty(),
        Param::ForcedToolChoice => match tool_choice {
            Some(ToolChoice::Required | ToolChoice::Tool(_)) => true,
            Some(ToolChoice::Auto | ToolChoice::None) | None => false,
        },
    }
}

/// Where a parameter of a rejected pair is set: `Some(None)` by the turn, `Some(Some(field))`
/// by the caller's field, `None` nowhere.
fn seen(
    param: Param,
    params: &Params,
    tool_choice: Option<&ToolChoice>,
    caller: &Fields,
) -> Option<Option<String>> {
    if turn_sets(param, params, tool_choice) {
        return Some(None);
    }
    let names = SEEN_AS
        .iter()
        .find(|(of, _)| *of == param)
        .map_or(&[][..], |(_, names)| names);
    for (key, raw) in caller {
        for &(name, member, sets) in names {
            if name != key {
                continue;
            }
            let Ok(value) = serde_json::from_str::<Value>(raw.get()) else {
                continue;
            };
            let (value, field) = match member {
                Some(member) => (value.get(member).cloned(), format!("{name}.{member}")),
                None => (Some(value), name.to_owned()),
            };
            if value.as_ref().is_some_and(sets) {
                return Some(Some(field));
            }
        }
    }
    None
}

/// The first pair of parameters the provider rejects together that the turn and the
/// caller's fields set, as the error naming both; each parameter is seen whether the turn
/// sets it or a caller's field says it under any provider's name for it.
pub(crate) fn together(
    params: &Params,
    tool_choice: Option<&ToolChoice>,
    caller: &Fields,
    rules: &Rules,
) -> Result<(), BodyError> {
    for pair in rules.pairs {
        let first = seen(pair.first, params, tool_choice, caller);
        let second = seen(pair.second, params, tool_choice, caller);
        if let (Some(first_field), Some(second_field)) = (first, second) {
            return Err(BodyError::new(Kind::ParamsTogether {
                provider: rules.provider,
                first: (pair.first.name(), first_field),
                second: (pair.second.name(), second_field),
                why: pair.why,
            }));
        }
    }
    Ok(())
}

impl Params {
    /// The error for a parameter `provider` does not take as given, saying what it takes.
    pub(crate) fn not_taken(
        provider: Provider,
        param: &'static str,
        why: &'static str,
    ) -> BodyError {
        BodyError::new(Kind::ParamNotTaken {
            provider,
            param,
            why,
        })
    }

    /// Whether `provider` writes any top-level field of the body for these parameters (a
    /// model it names in the path writes none).
    pub(crate) fn writes_fields(&self, provider: Provider) -> bool {
        *self != Params::default()
            && (provider.surface().params)(self, provider).is_ok_and(|written| !written.is_empty())
    }

    /// The stop sequences as one JSON array, when there are any.
    pub(crate) fn stops(&self) -> Option<Value> {
        (!self.stop.is_empty()).then(|| json!(self.stop))
    }

    /// The body's top-level fields: the parameters as the provider takes them, then the
    /// caller's own. A caller's field that says what a parameter says is an error naming
    /// both; an object both write (Gemini's `generationConfig`, Bedrock's `inferenceConfig`)
    /// is merged, the same key in both being that error.
    pub(crate) fn merged(&self, provider: Provider, caller: &Fields) -> Result<Fields, BodyError> {
        let written = (provider.surface().params)(self, provider)?;
        // A provider whose writer wrote no field for the compaction asked compacts on no
        // request of its own: the error, never a silent omission.
        if self.compaction.is_some() && !written.iter().any(|field| field.param == "compaction") {
            return Err(Params::not_taken(
                provider,
                "compaction",
                "no compaction of its own (the runtime summarizes the history itself)",
            ));
        }
        if written.is_empty() {
            return Ok(caller.clone());
        }
        let conflict = |param: &'static str, field: String| {
            BodyError::new(Kind::ParamConflict { param, field })
        };
        // A caller's field under any name of a parameter that is set.
        for (param, set, names) in SAME_AS {
            if let Some((key, _)) = caller
                .iter()
                .find(|(key, _)| set(self) && names.contains(&key.as_str()))
            {
                return Err(conflict(param, key.clone()));
            }
        }
        if let Some((param, field)) = member_same_as(self, caller) {
            return Err(conflict(param, field));
        }
        let mut out: Fields = Vec::with_capacity(written.len() + caller.len());
        let mut caller: Vec<(String, Box<serde_json::value::RawValue>)> = caller.clone();
        for Field {
            key,
            param,
            value,
            members,
        } in written
        {
            let value = match (
                caller.iter().position(|(known, _)| known == key),
                value.into_object(),
            ) {
                (Some(at), Ok(mut ours)) => {
                    let (_, theirs) = caller.remove(at);
                    let Ok(Value::Object(theirs)) = serde_json::from_str::<Value>(theirs.get())
                    else {
                        return Err(conflict(param, key.to_owned()));
                    };
                    for (inner, value) in theirs {
                        if ours.contains_key(&inner) {
                            let param = members
                                .iter()
                                .find(|(member, _)| *member == inner)
                                .map_or(param, |&(_, param)| param);
                            return Err(conflict(param, format!("{key}.{inner}")));
                        }
                        ours.insert(inner, Json::Value(value));
                    }
                    Json::Object(ours)
                }
                (Some(_), Err(_)) => return Err(conflict(param, key.to_owned())),
                (None, Ok(ours)) => Json::Object(ours),
                (None, Err(value)) => value,
            };
            let raw = serde_json::value::to_raw_value(&value)
                .map_err(|error| BodyError::new(Kind::NotJson(error.to_string())))?;
            out.push((key.to_owned(), raw));
        }
        out.extend(caller);
        Ok(out)
    }
}

/// A top-level field a provider writes for the neutral parameters: its key, its value, and
/// the parameter that wrote it, so that a caller's field in its place is an error naming
/// both. An object the caller may add keys to (Gemini's `generationConfig`, say) names the
/// parameter of each of its members.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    key: &'static str,
    /// The parameter named when the caller's field of the same key is not an object to
    /// merge: for an object, the parameter of its first member in key order.
    param: &'static str,
    value: Json,
    /// For an object, each member's key and the parameter that wrote it.
    members: Vec<(&'static str, &'static str)>,
}

impl Field {
    /// A field one parameter writes whole.
    pub(crate) fn new(key: &'static str, param: &'static str, value: impl Into<Json>) -> Self {
        Field {
            key,
            param,
            value: value.into(),
            members: Vec::new(),
        }
    }

    /// An object several parameters write a member of (each member: its key, the parameter,
    /// the value); `None` when no parameter wrote one.
    pub(crate) fn object<V: Into<Json>>(
        key: &'static str,
        members: Vec<(&'static str, &'static str, V)>,
    ) -> Option<Self> {
        let param = members
            .iter()
            .min_by_key(|(member, _, _)| *member)
            .map(|&(_, param, _)| param)?;
        let mut object = BTreeMap::new();
        let mut named = Vec::with_capacity(members.len());
        for (member, param, value) in members {
            object.insert(member.to_owned(), value.into());
            named.push((member, param));
        }
        Some(Field {
            key,
            param,
            value: Json::Object(object),
            members: named,
        })
    }
}

/// A value the parameters write: JSON the crate makes, the caller's own JSON kept as its
/// exact text (a reply schema), or an object of such values, its members in key order (as a
/// `serde_json::Map` orders them, so that an object of plain values is written as before).
#[derive(Debug, Clone)]
pub(crate) enum Json {
    Value(Value),
    Raw(Box<RawValue>),
    Object(BTreeMap<String, Json>),
}

impl Json {
    /// An object of these members.
    pub(crate) fn object<const N: usize>(members: [(&str, Json); N]) -> Self {
        Json::Object(
            members
                .into_iter()
                .map(|(key, value)| (key.to_owned(), value))
                .collect(),
        )
    }

    /// The members, when it is an object; itself otherwise.
    fn into_object(self) -> Result<BTreeMap<String, Json>, Json> {
        match self {
            Json::Object(members) => Ok(members),
            Json::Value(Value::Object(members)) => Ok(members
                .into_iter()
                .map(|(key, value)| (key, Json::Value(value)))
                .collect()),
            Json::Value(_) | Json::Raw(_) => Err(self),
        }
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Self {
        Json::Value(value)
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Json::Value(ours), Json::Value(theirs)) => ours == theirs,
            (Json::Raw(ours), Json::Raw(theirs)) => ours.get() == theirs.get(),
            (Json::Object(ours), Json::Object(theirs)) => ours == theirs,
            _ => false,
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Value(value) => value.serialize(serializer),
            Json::Raw(raw) => raw.serialize(serializer),
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}
