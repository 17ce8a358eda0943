//! The neutral parameters as Converse's `inferenceConfig` and, for Claude's thinking,
//! `additionalModelRequestFields`.

use serde_json::json;

use crate::anthropic::thinking_checks;
use crate::body::BodyError;
use crate::provider::Provider;
use crate::turn::params::{Field, Params};

/// The parameters as Converse's fields: `inferenceConfig` (`maxTokens`, `temperature`,
/// `stopSequences`), then Claude's extended thinking through Converse as
/// `additionalModelRequestFields.thinking`
/// (<https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html>),
/// under Claude's own rules; and the reply schema as `outputConfig.textFormat` (the service
/// model's `OutputConfig`, `OutputFormat`, `OutputFormatStructure`, `JsonSchemaDefinition`,
/// whose `schema` is a string: the schema's exact text;
/// <https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html>; the string,
/// <https://github.com/microsoft/agent-framework/issues/5966>). The model and streaming are
/// in the path (the request).
pub(crate) fn fields(params: &Params, provider: Provider) -> Result<Vec<Field>, BodyError> {
    let mut config = Vec::new();
    if let Some(max) = params.max_output {
        config.push(("maxTokens", "max_output", json!(max)));
    }
    if let Some(value) = params.temperature {
        config.push(("temperature", "temperature", json!(value)));
    }
    if let Some(stops) = params.stops() {
        config.push(("stopSequences", "stop", stops));
    }
    let mut fields: Vec<Field> = Field::object("inferenceConfig", config)
        .into_iter()
        .collect();
    if let Some(reasoning) = params.reasoning {
        thinking_checks(params, provider, reasoning)?;
        fields.extend(Field::object(
            "additionalModelRequestFields",
            vec![(
                "thinking",
                "reasoning",
                json!({"type": "enabled", "budget_tokens": reasoning.budget_tokens()}),
            )],
        ));
    }
    if let Some(reply) = &params.reply_schema {
        fields.extend(Field::object(
            "outputConfig",
            vec![(
                "textFormat",
                "reply_schema",
                json!({
                    "type": "json_schema",
                    "structure": {"jsonSchema": {"schema": reply.schema.get(), "name": reply.name}},
                }),
            )],
        ));
    }
    Ok(fields)
}
