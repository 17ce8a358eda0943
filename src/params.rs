//! The neutral request parameters of a turn (DESIGN §18), written as each provider takes them:
//! the model, the output limit, reasoning, streaming, temperature and stop sequences.

use serde_json::{json, Map, Value};

use crate::body_error::{BodyError, Kind};
use crate::provider::Provider;

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
}

/// Top-level fields that say what a parameter says, under any provider's name for it: a
/// caller's field of one of them beside the parameter is the error that names both.
/// Each parameter: its name, whether the turn sets it, and the top-level fields that say
/// what it says under any provider's name for it.
type SameAs = (&'static str, fn(&Params) -> bool, &'static [&'static str]);
const SAME_AS: [SameAs; 5] = [
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
];

/// Stop sequences OpenAI Chat takes: "Up to 4 sequences"
/// (<https://platform.openai.com/docs/api-reference/chat/create#chat-create-stop>).
const OPENAI_STOPS: usize = 4;

impl Params {
    fn not_taken(provider: Provider, param: &'static str, why: &'static str) -> BodyError {
        BodyError::new(Kind::ParamNotTaken {
            provider,
            param,
            why,
        })
    }

    /// Claude's thinking rules (Anthropic's API, and Claude through Bedrock): "budget_tokens
    /// must be less than max_tokens", at least 1,024
    /// (<https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking>), and
    /// "Thinking isn't compatible with temperature or top_k modifications". The budget.
    fn thinking_checks(&self, provider: Provider, reasoning: Reasoning) -> Result<u32, BodyError> {
        let budget = reasoning.budget_tokens();
        if budget < 1_024 || self.max_output.is_some_and(|max| budget >= max) {
            return Err(Self::not_taken(
                provider,
                "reasoning",
                "a thinking budget of at least 1024 tokens and less than max_tokens",
            ));
        }
        if self.temperature.is_some() {
            return Err(Self::not_taken(
                provider,
                "temperature",
                "no temperature with thinking",
            ));
        }
        Ok(budget)
    }

    /// The parameters as the provider's top-level fields, in order.
    fn provider_fields(&self, provider: Provider) -> Result<Vec<(&'static str, Value)>, BodyError> {
        let mut fields: Vec<(&'static str, Value)> = Vec::new();
        let stops = (!self.stop.is_empty()).then(|| json!(self.stop));
        match provider {
            Provider::OpenAi | Provider::Compatible(_) => {
                let output_limit = provider
                    .dialect()
                    .map_or("max_completion_tokens", |dialect| dialect.output_limit);
                fields.extend(self.model.as_ref().map(|model| ("model", json!(model))));
                fields.extend(self.max_output.map(|max| (output_limit, json!(max))));
                fields.extend(
                    self.reasoning
                        .map(|reasoning| ("reasoning_effort", json!(reasoning.effort()))),
                );
                if self.stream {
                    fields.push(("stream", json!(true)));
                    // Usage comes in a stream only when asked for
                    // (<https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options>),
                    // from a server known to take the field.
                    if provider
                        .dialect()
                        .is_some_and(|dialect| dialect.stream_usage)
                    {
                        fields.push(("stream_options", json!({"include_usage": true})));
                    }
                }
                fields.extend(self.temperature.map(|value| ("temperature", json!(value))));
                if self.stop.len() > OPENAI_STOPS {
                    return Err(Self::not_taken(
                        provider,
                        "stop",
                        "at most 4 stop sequences",
                    ));
                }
                fields.extend(stops.map(|stops| ("stop", stops)));
            }
            Provider::OpenAiResponses => {
                fields.extend(self.model.as_ref().map(|model| ("model", json!(model))));
                fields.extend(self.max_output.map(|max| ("max_output_tokens", json!(max))));
                if let Some(reasoning) = self.reasoning {
                    // Stateless rounds carry the reasoning back only when it is returned
                    // encrypted, which needs `store: false`
                    // (<https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items>).
                    fields.push(("reasoning", json!({"effort": reasoning.effort()})));
                    fields.push(("include", json!(["reasoning.encrypted_content"])));
                    fields.push(("store", json!(false)));
                }
                if self.stream {
                    fields.push(("stream", json!(true)));
                }
                fields.extend(self.temperature.map(|value| ("temperature", json!(value))));
                if !self.stop.is_empty() {
                    return Err(Self::not_taken(provider, "stop", "no stop sequences"));
                }
            }
            Provider::Anthropic => {
                fields.extend(self.model.as_ref().map(|model| ("model", json!(model))));
                fields.extend(self.max_output.map(|max| ("max_tokens", json!(max))));
                if let Some(reasoning) = self.reasoning {
                    let budget = self.thinking_checks(provider, reasoning)?;
                    fields.push((
                        "thinking",
                        json!({"type": "enabled", "budget_tokens": budget}),
                    ));
                }
                if self.stream {
                    fields.push(("stream", json!(true)));
                }
                fields.extend(self.temperature.map(|value| ("temperature", json!(value))));
                fields.extend(stops.map(|stops| ("stop_sequences", stops)));
            }
            Provider::Gemini => {
                // The model and streaming are in the path (`Provider::request`).
                let mut config = Map::new();
                if let Some(max) = self.max_output {
                    config.insert("maxOutputTokens".to_owned(), json!(max));
                }
                if let Some(value) = self.temperature {
                    config.insert("temperature".to_owned(), json!(value));
                }
                if let Some(stops) = stops {
                    config.insert("stopSequences".to_owned(), stops);
                }
                if let Some(reasoning) = self.reasoning {
                    // <https://ai.google.dev/gemini-api/docs/thinking#set-budget>
                    config.insert(
                        "thinkingConfig".to_owned(),
                        json!({"thinkingBudget": reasoning.budget_tokens()}),
                    );
                }
                if !config.is_empty() {
                    fields.push(("generationConfig", Value::Object(config)));
                }
            }
            Provider::Bedrock => {
                // The model and streaming are in the path (`Provider::request`).
                let mut config = Map::new();
                if let Some(max) = self.max_output {
                    config.insert("maxTokens".to_owned(), json!(max));
                }
                if let Some(value) = self.temperature {
                    config.insert("temperature".to_owned(), json!(value));
                }
                if let Some(stops) = stops {
                    config.insert("stopSequences".to_owned(), stops);
                }
                if !config.is_empty() {
                    fields.push(("inferenceConfig", Value::Object(config)));
                }
                if let Some(reasoning) = self.reasoning {
                    // Claude's rules, as Anthropic's own API has them.
                    self.thinking_checks(provider, reasoning)?;
                    // Claude's extended thinking through Converse
                    // (<https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html>).
                    fields.push((
                        "additionalModelRequestFields",
                        json!({"thinking": {"type": "enabled", "budget_tokens": reasoning.budget_tokens()}}),
                    ));
                }
            }
        }
        Ok(fields)
    }

    /// The body's top-level fields: the parameters as the provider takes them, then the
    /// caller's own. A caller's field that says what a parameter says is an error naming
    /// both; an object both write (Gemini's `generationConfig`, Bedrock's `inferenceConfig`)
    /// is merged, the same key in both being that error.
    pub(crate) fn merged(&self, provider: Provider, caller: &Fields) -> Result<Fields, BodyError> {
        let written = self.provider_fields(provider)?;
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
        let mut out: Fields = Vec::with_capacity(written.len() + caller.len());
        let mut caller: Vec<(String, Box<serde_json::value::RawValue>)> = caller.clone();
        for (key, value) in written {
            let value = match (caller.iter().position(|(known, _)| known == key), value) {
                (Some(at), Value::Object(mut ours)) => {
                    let (_, theirs) = caller.remove(at);
                    let Ok(Value::Object(theirs)) = serde_json::from_str::<Value>(theirs.get())
                    else {
                        return Err(conflict(param_of(&ours), key.to_owned()));
                    };
                    for (inner, value) in theirs {
                        if ours.contains_key(&inner) {
                            return Err(conflict(inner_param(&inner), format!("{key}.{inner}")));
                        }
                        ours.insert(inner, value);
                    }
                    Value::Object(ours)
                }
                (Some(_), _) => return Err(conflict(key_param(key), key.to_owned())),
                (None, value) => value,
            };
            let raw = serde_json::value::to_raw_value(&value)
                .map_err(|error| BodyError::new(Kind::NotJson(error.to_string())))?;
            out.push((key.to_owned(), raw));
        }
        out.extend(caller);
        Ok(out)
    }
}

/// The parameter an object of the provider's configuration carries first, for an error.
fn param_of(config: &Map<String, Value>) -> &'static str {
    config
        .keys()
        .next()
        .map_or("reasoning", |key| inner_param(key))
}

/// The parameter a key inside a provider's configuration object is written for.
fn inner_param(key: &str) -> &'static str {
    match key {
        "maxOutputTokens" | "maxTokens" => "max_output",
        "temperature" => "temperature",
        "stopSequences" => "stop",
        "include_usage" => "stream",
        _ => "reasoning",
    }
}

/// The parameter a top-level field is written for, for an error.
fn key_param(key: &str) -> &'static str {
    match key {
        // Responses keeps its reasoning for the round with these.
        "include" | "store" | "additionalModelRequestFields" => "reasoning",
        "stream" | "stream_options" => "stream",
        key => SAME_AS
            .iter()
            .find(|(_, _, names)| names.contains(&key))
            .map_or("stream", |(param, _, _)| param),
    }
}
