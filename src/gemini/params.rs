//! The neutral parameters as generateContent's `generationConfig`.

use serde_json::json;

use crate::body::BodyError;
use crate::provider::Provider;
use crate::turn::params::{Field, Json, Params};

/// Stop sequences Gemini takes: "The set of character sequences (up to 5) that will stop
/// output generation" (the spec's `GenerationConfig.stopSequences`;
/// <https://ai.google.dev/api/generate-content#generationconfig>).
const STOPS: usize = 5;

/// The parameters as members of `generationConfig`: `maxOutputTokens`, `temperature`,
/// `stopSequences` (at most 5), `thinkingConfig.thinkingBudget`
/// (<https://ai.google.dev/gemini-api/docs/thinking#set-budget>), and the reply schema as
/// `responseMimeType: "application/json"` with `responseJsonSchema` (the spec's
/// `GenerationConfig.responseJsonSchema`, "an alternative to `response_schema` that accepts
/// JSON Schema", for which "`response_mime_type` is required";
/// <https://ai.google.dev/gemini-api/docs/structured-output>). `responseSchema` takes only an
/// OpenAPI subset and refuses what JSON Schema writers put in ("Unknown name \"$schema\" at
/// 'generation_config.response_schema'", <https://github.com/QuantumNous/new-api/pull/1037>;
/// `additionalProperties`, <https://github.com/ArcReel/ArcReel/pull/2392>). The model and
/// streaming are in the path (the request), not the body.
pub(crate) fn fields(params: &Params, provider: Provider) -> Result<Vec<Field>, BodyError> {
    let mut config: Vec<(&str, &str, Json)> = Vec::new();
    if let Some(max) = params.max_output {
        config.push(("maxOutputTokens", "max_output", json!(max).into()));
    }
    if let Some(value) = params.temperature {
        config.push(("temperature", "temperature", json!(value).into()));
    }
    if params.stop.len() > STOPS {
        return Err(Params::not_taken(
            provider,
            "stop",
            "at most 5 stop sequences",
        ));
    }
    if let Some(stops) = params.stops() {
        config.push(("stopSequences", "stop", stops.into()));
    }
    if let Some(reasoning) = params.reasoning {
        config.push((
            "thinkingConfig",
            "reasoning",
            json!({"thinkingBudget": reasoning.budget_tokens()}).into(),
        ));
    }
    if let Some(reply) = &params.reply_schema {
        config.push((
            "responseMimeType",
            "reply_schema",
            json!("application/json").into(),
        ));
        config.push((
            "responseJsonSchema",
            "reply_schema",
            Json::Raw(reply.schema.clone()),
        ));
    }
    Ok(Field::object("generationConfig", config)
        .into_iter()
        .collect())
}
