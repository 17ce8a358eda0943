//! The neutral parameters as the Responses API's top-level fields.

use serde_json::json;

use crate::body::BodyError;
use crate::provider::Provider;
use crate::render::rules::Pair;
use crate::turn::params::{Field, Json, Params};

/// What OpenAI's reasoning models reject beside a reasoning effort, the same models as Chat's
/// (its pairs): a temperature other than 1 ("Unsupported parameter: 'temperature' is not supported with this model" for
/// any other value, <https://github.com/OpenHands/software-agent-sdk/pull/992>;
/// <https://github.com/BerriAI/litellm/pull/31625>, <https://github.com/vercel/ai/pull/10942>),
/// and stop sequences (which Responses takes for no model: only a caller's field can ask for
/// them).
pub(crate) const PAIRS: [Pair; 2] = crate::openai::params::PAIRS;

/// The parameters as Responses' fields: `model`, `max_output_tokens`, `reasoning.effort`,
/// `stream`, `temperature`, and the reply schema as `text.format` (the spec's
/// `ResponseTextParam`, `TextResponseFormatJsonSchema`: `name` and `schema` beside the `type`,
/// not nested as in Chat). The API takes no stop sequences: asking for them is an error.
///
/// Stateless rounds carry the reasoning back only when it is returned encrypted, which needs
/// `include: ["reasoning.encrypted_content"]` and `store: false`
/// (<https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items>), written
/// with the effort.
pub(crate) fn fields(params: &Params, provider: Provider) -> Result<Vec<Field>, BodyError> {
    let mut fields = Vec::new();
    fields.extend(
        params
            .model
            .as_ref()
            .map(|model| Field::new("model", "model", json!(model))),
    );
    fields.extend(
        params
            .max_output
            .map(|max| Field::new("max_output_tokens", "max_output", json!(max))),
    );
    if let Some(reasoning) = params.reasoning {
        fields.extend(Field::object(
            "reasoning",
            vec![("effort", "reasoning", json!(reasoning.effort()))],
        ));
        fields.push(Field::new(
            "include",
            "reasoning",
            json!(["reasoning.encrypted_content"]),
        ));
        fields.push(Field::new("store", "reasoning", json!(false)));
    }
    if params.stream {
        fields.push(Field::new("stream", "stream", json!(true)));
    }
    fields.extend(
        params
            .temperature
            .map(|value| Field::new("temperature", "temperature", json!(value))),
    );
    if !params.stop.is_empty() {
        return Err(Params::not_taken(provider, "stop", "no stop sequences"));
    }
    if let Some(compaction) = &params.compaction {
        fields.push(context_management(compaction, provider)?);
    }
    if let Some(reply) = &params.reply_schema {
        fields.extend(Field::object(
            "text",
            vec![(
                "format",
                "reply_schema",
                Json::object([
                    ("type", json!("json_schema").into()),
                    ("name", json!(reply.name).into()),
                    ("schema", Json::Raw(reply.schema.clone())),
                ]),
            )],
        ));
    }
    Ok(fields)
}

/// The least threshold Responses compacts at: `compact_threshold` "Minimum 1000" (the pinned
/// spec's `ContextManagementParam`;
/// <https://platform.openai.com/docs/guides/conversation-state#managing-the-context-window>).
const LEAST_THRESHOLD: u64 = 1_000;

/// The compaction asked, as Responses' `context_management` entry: `[{"type": "compaction",
/// "compact_threshold": N}]`. Responses takes a threshold alone: instructions or a pause are
/// the error, never dropped unsaid.
fn context_management(
    compaction: &crate::turn::params::Compaction,
    provider: Provider,
) -> Result<Field, BodyError> {
    if compaction.threshold() < LEAST_THRESHOLD {
        return Err(Params::not_taken(
            provider,
            "compaction",
            "a compaction threshold of at least 1,000 input tokens",
        ));
    }
    if compaction.instructions_given().is_some() || compaction.pauses() {
        return Err(Params::not_taken(
            provider,
            "compaction",
            "a compaction threshold alone (no instructions, no pause)",
        ));
    }
    Ok(Field::new(
        "context_management",
        "compaction",
        json!([{"type": "compaction", "compact_threshold": compaction.threshold()}]),
    ))
}
