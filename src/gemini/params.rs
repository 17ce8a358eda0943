//! The neutral parameters as generateContent's `generationConfig`.

use serde_json::json;

use crate::body::BodyError;
use crate::params::{Field, Params};
use crate::provider::Provider;

/// The parameters as members of `generationConfig`: `maxOutputTokens`, `temperature`,
/// `stopSequences` and `thinkingConfig.thinkingBudget`
/// (<https://ai.google.dev/gemini-api/docs/thinking#set-budget>). The model and streaming
/// are in the path (the request), not the body.
pub(crate) fn fields(params: &Params, _provider: Provider) -> Result<Vec<Field>, BodyError> {
    let mut config = Vec::new();
    if let Some(max) = params.max_output {
        config.push(("maxOutputTokens", "max_output", json!(max)));
    }
    if let Some(value) = params.temperature {
        config.push(("temperature", "temperature", json!(value)));
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
