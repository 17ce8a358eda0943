//! The neutral parameters as OpenAI Chat's top-level fields, and a compatible server's under
//! its dialect's names.

use serde_json::json;

use crate::body::BodyError;
use crate::dialects::ReasoningParam;
use crate::provider::Provider;
use crate::render::rules::{Pair, Param};
use crate::turn::params::{Field, Json, Params, Reasoning};

/// What OpenAI's reasoning models reject beside a reasoning effort, in Chat and in Responses:
/// a temperature other than 1 ("Unsupported value: 'temperature' does not support 0.1 with
/// this model. Only the default (1) value is supported",
/// <https://github.com/NVlabs/cvdp_benchmark/issues/29>; the fixes that drop it,
/// <https://github.com/BerriAI/litellm/pull/31625>, and that keep it only for the effort
/// `none`, which the crate never writes, <https://github.com/vercel/ai/pull/10942>), and stop
/// sequences (the spec's `stop`, `StopConfiguration`: "Not supported with latest reasoning
/// models `o3` and `o4-mini`").
pub(crate) const PAIRS: [Pair; 2] = [
    Pair {
        first: Param::Reasoning,
        second: Param::Temperature,
        why: "a reasoning model takes only the default temperature, 1",
    },
    Pair {
        first: Param::Reasoning,
        second: Param::Stop,
        why: "a reasoning model takes no stop sequences",
    },
];

/// Stop sequences OpenAI Chat takes: "Up to 4 sequences where the API will stop generating
/// further tokens" (the spec's `StopConfiguration`;
/// <https://platform.openai.com/docs/api-reference/chat/create#chat-create-stop>).
const STOPS: usize = 4;

/// The parameters as Chat's fields: `model`, the dialect's output limit
/// (`max_completion_tokens`, or `max_tokens` for the servers that take that), the
/// `reasoning_effort` (or the dialect's `reasoning` object, OpenRouter's), `stream` with `stream_options.include_usage` for the servers known to
/// take it, `temperature`, `stop`, and the reply schema as `response_format` for the servers
/// that take `json_schema` (the spec's `ResponseFormatJsonSchema`; an error naming any other).
pub(crate) fn fields(params: &Params, provider: Provider) -> Result<Vec<Field>, BodyError> {
    let dialect = provider.dialect();
    let output_limit = dialect.map_or("max_completion_tokens", |dialect| dialect.output_limit);
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
            .map(|max| Field::new(output_limit, "max_output", json!(max))),
    );
    fields.extend(params.reasoning.and_then(|reasoning| {
        match (dialect.map(|dialect| dialect.reasoning_param), reasoning) {
            (Some(ReasoningParam::Effort) | None, _) => Some(Field::new(
                "reasoning_effort",
                "reasoning",
                json!(reasoning.effort()),
            )),
            (Some(ReasoningParam::Object), Reasoning::Budget(tokens)) => Field::object(
                "reasoning",
                vec![("max_tokens", "reasoning", json!(tokens))],
            ),
            (
                Some(ReasoningParam::Object),
                Reasoning::Low | Reasoning::Medium | Reasoning::High,
            ) => Field::object(
                "reasoning",
                vec![("effort", "reasoning", json!(reasoning.effort()))],
            ),
        }
    }));
    if params.stream {
        fields.push(Field::new("stream", "stream", json!(true)));
        // Usage comes in a stream only when asked for
        // (<https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options>),
        // from a server known to take the field.
        if dialect.is_some_and(|dialect| dialect.stream_usage) {
            fields.extend(Field::object(
                "stream_options",
                vec![("include_usage", "stream", json!(true))],
            ));
        }
    }
    fields.extend(
        params
            .temperature
            .map(|value| Field::new("temperature", "temperature", json!(value))),
    );
    if params.stop.len() > STOPS {
        return Err(Params::not_taken(
            provider,
            "stop",
            "at most 4 stop sequences",
        ));
    }
    fields.extend(
        params
            .stops()
            .map(|stops| Field::new("stop", "stop", stops)),
    );
    if let Some(reply) = &params.reply_schema {
        if !dialect.map_or(true, |dialect| dialect.json_schema) {
            return Err(Params::not_taken(
                provider,
                "reply_schema",
                "no response_format json_schema, only json_object",
            ));
        }
        fields.push(Field::new(
            "response_format",
            "reply_schema",
            Json::object([
                ("type", json!("json_schema").into()),
                (
                    "json_schema",
                    Json::object([
                        ("name", json!(reply.name).into()),
                        ("schema", Json::Raw(reply.schema.clone())),
                    ]),
                ),
            ]),
        ));
    }
    Ok(fields)
}
