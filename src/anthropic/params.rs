//! The neutral parameters as the Messages API's top-level fields, and Claude's thinking rules
//! (which Bedrock's Claude follows too).

use serde_json::json;

use crate::body::BodyError;
use crate::provider::Provider;
use crate::render::rules::{Pair, Param};
use crate::turn::params::{Field, Json, Params, Reasoning};

/// What Claude's thinking is rejected beside (Anthropic's API, and Claude through Bedrock):
/// "Thinking isn't compatible with temperature or top_k modifications as well as forced tool
/// use", and "Using tool_choice: {"type": "any"} or tool_choice: {"type": "tool", "name":
/// "..."} will result in an error because these options force tool use, which is
/// incompatible with extended thinking"
/// (<https://platform.claude.com/docs/en/build-with-claude/extended-thinking>; the API's
/// words: "Thinking may not be enabled when tool_choice forces tool use",
/// <https://github.com/run-llama/llama_index/issues/19641>). A temperature of 1, the
/// default, is no modification.
pub(crate) const PAIRS: [Pair; 2] = [
    Pair {
        first: Param::Reasoning,
        second: Param::ForcedToolChoice,
        why: "thinking takes only tool_choice auto or none: a forced tool call cannot think first",
    },
    Pair {
        first: Param::Reasoning,
        second: Param::Temperature,
        why: "thinking takes no temperature other than 1",
    },
];

/// The compaction asked, as the Messages API's `context_management` edit `compact_20260112`:
/// its trigger in input tokens, the caller's instructions, whether to pause after it
/// (<https://platform.claude.com/docs/en/build-with-claude/compaction>; beta
/// `compact-2026-01-12`, whose header the request carries).
fn context_management(compaction: &crate::turn::params::Compaction) -> serde_json::Value {
    let mut edit = serde_json::Map::new();
    edit.insert("type".into(), json!("compact_20260112"));
    edit.insert(
        "trigger".into(),
        json!({"type": "input_tokens", "value": compaction.threshold()}),
    );
    if let Some(instructions) = compaction.instructions_given() {
        edit.insert("instructions".into(), json!(instructions));
    }
    if compaction.pauses() {
        edit.insert("pause_after_compaction".into(), json!(true));
    }
    json!({"edits": [edit]})
}

/// The parameters as the Messages API's fields: `model`, `max_tokens`, `thinking` with its
/// budget, `stream`, `temperature`, `stop_sequences`, and the reply schema as
/// `output_config.format` (the spec's `OutputConfig`, `JsonOutputFormat`: a `schema` and no
/// name). Structured output is generally available: no beta header, and the beta's
/// `output_format` has "moved to `output_config.format`"
/// (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>; the move,
/// <https://github.com/vercel/ai/pull/12319>, <https://github.com/prism-php/prism/pull/929>).
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
            .map(|max| Field::new("max_tokens", "max_output", json!(max))),
    );
    if let Some(reasoning) = params.reasoning {
        let budget = thinking_checks(params, provider, reasoning)?;
        fields.extend(Field::object(
            "thinking",
            vec![
                ("type", "reasoning", json!("enabled")),
                ("budget_tokens", "reasoning", json!(budget)),
            ],
        ));
    }
    if params.stream {
        fields.push(Field::new("stream", "stream", json!(true)));
    }
    fields.extend(
        params
            .temperature
            .map(|value| Field::new("temperature", "temperature", json!(value))),
    );
    fields.extend(
        params
            .stops()
            .map(|stops| Field::new("stop_sequences", "stop", stops)),
    );
    if let Some(compaction) = &params.compaction {
        fields.push(Field::new(
            "context_management",
            "compaction",
            context_management(compaction),
        ));
    }
    if let Some(reply) = &params.reply_schema {
        fields.extend(Field::object(
            "output_config",
            vec![(
                "format",
                "reply_schema",
                Json::object([
                    ("type", json!("json_schema").into()),
                    ("schema", Json::Raw(reply.schema.clone())),
                ]),
            )],
        ));
    }
    Ok(fields)
}

/// Claude's thinking rules (Anthropic's API, and Claude through Bedrock): "budget_tokens
/// must be less than max_tokens", at least 1,024
/// (<https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking>), and
/// "Thinking isn't compatible with temperature or top_k modifications". The budget.
pub(crate) fn thinking_checks(
    params: &Params,
    provider: Provider,
    reasoning: Reasoning,
) -> Result<u32, BodyError> {
    let budget = reasoning.budget_tokens();
    if budget < 1_024 || params.max_output.is_some_and(|max| budget >= max) {
        return Err(Params::not_taken(
            provider,
            "reasoning",
            "a thinking budget of at least 1024 tokens and less than max_tokens",
        ));
    }
    if params.temperature.is_some() {
        return Err(Params::not_taken(
            provider,
            "temperature",
            "no temperature with thinking",
        ));
    }
    Ok(budget)
}
