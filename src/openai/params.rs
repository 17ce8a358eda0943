//! The neutral parameters as OpenAI Chat's top-level fields, and a compatible server's under
//! its dialect's names.

use serde_json::json;

use crate::body::BodyError;
use crate::params::{Field, Params};
use crate::provider::Provider;

/// Stop sequences OpenAI Chat takes: "Up to 4 sequences"
/// (<https://platform.openai.com/docs/api-reference/chat/create#chat-create-stop>).
const STOPS: usize = 4;

/// The parameters as Chat's fields: `model`, the dialect's output limit
/// (`max_completion_tokens`, or `max_tokens` for the servers that take that), the
/// `reasoning_effort`, `stream` with `stream_options.include_usage` for the servers known to
/// take it, `temperature` and `stop`.
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
    fields.extend(
        params.reasoning.map(|reasoning| {
            Field::new("reasoning_effort", "reasoning", json!(reasoning.effort()))
        }),
    );
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
    Ok(fields)
}
