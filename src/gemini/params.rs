//! The neutral parameters as generateContent's `generationConfig`.

use serde_json::json;

use crate::body::BodyError;
use crate::params::{Field, Params};
use crate::provider::Provider;

/// Stop sequences Gemini takes: "The set of character sequences (up to 5) that will stop
/// output generation" (the spec's `GenerationConfig.stopSequences`;
/// <https://ai.google.dev/api/generate-content#generationconfig>).
const STOPS: usize = 5;

/// The parameters as members of `generationConfig`: `maxOutputTokens`, `temperature`,
/// `stopSequences` (at most 5) and `thinkingConfig.thinkingBudget`
/// (<https://ai.google.dev/gemini-api/docs/thinking#set-budget>). The model and streaming
/// are in the path (the request), not the body.
pub(crate) fn fields(params: &Params, provider: Provider) -> Result<Vec<Field>, BodyError> {
    let mut config = Vec::new();
    if let Some(max) = params.max_output {
        config.push(("maxOutputTokens", "max_output", json!(max)));
    }
    if let Some(value) = params.temperature {
        config.push(("temperature", "temperature", json!(value)));
    }
    if params.stop.len() > STOPS {
        return Err(Params::not_taken(
            provider,
            "stop",
            "at most 5 stop sequences",
        ));
    }
    if let Some(stops) = params.stops() {
        config.push(("stopSequences", "stop", stops));
    }
    if let Some(reasoning) = params.reasoning {
        config.push((
            "thinkingConfig",
            "reasoning",
            json!({"thinkingBudget": reasoning.budget_tokens()}),
        ));
    }
    Ok(Field::object("generationConfig", config)
        .into_iter()
        .collect())
}
