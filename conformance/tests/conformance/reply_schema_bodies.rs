//! A body that asks for a reply schema validates against its provider's full official request
//! schema: OpenAI's `response_format` (`ResponseFormatJsonSchema`), Responses' `text.format`
//! (`TextResponseFormatJsonSchema`), Anthropic's `output_config` (`OutputConfig`,
//! `JsonOutputFormat`), Gemini's `generationConfig.responseJsonSchema`, and Bedrock's
//! `outputConfig.textFormat` (`OutputConfig`, `JsonSchemaDefinition`, the schema a string),
//! whether or not the caller's own fields share the object.

use serde_json::{json, Value};
use transcript_replay::{Dialect, Provider, StoredMessage, Turn};
use transcript_replay_conformance::schemas;

/// Schemas as callers write them: a plain object, one with `$defs` and `$ref`, the empty one.
const SCHEMAS: [&str; 3] = [
    r#"{"type": "object", "properties": {"verdict": {"enum": ["yes", "no"]}}, "required": ["verdict"], "additionalProperties": false}"#,
    r##"{"$defs": {"step": {"type": "string"}}, "type": "object", "properties": {"steps": {"type": "array", "items": {"$ref": "#/$defs/step"}}}}"##,
    "{}",
];

/// Each provider's required fields, and a member of the object the schema goes in that the
/// caller may write beside it.
fn fields(provider: Provider, beside: bool) -> Value {
    match (provider, beside) {
        (Provider::Anthropic, false) => json!({"model": "m", "max_tokens": 1024}),
        (Provider::Anthropic, true) => {
            json!({"model": "m", "max_tokens": 1024, "output_config": {"effort": "high"}})
        }
        (Provider::OpenAiResponses, true) => json!({"model": "m", "text": {"verbosity": "low"}}),
        (Provider::Gemini, true) => json!({"generationConfig": {"temperature": 0.5}}),
        (Provider::Bedrock, true) => json!({"outputConfig": {"effort": "low"}}),
        (Provider::Gemini | Provider::Bedrock, _) => json!({}),
        _ => json!({"model": "m"}),
    }
}

fn errors(provider: Provider, body: &Value) -> Vec<String> {
    match provider {
        Provider::OpenAi | Provider::Compatible(_) => schemas::errors(
            &schemas::openai().validator("CreateChatCompletionRequest"),
            body,
        ),
        Provider::OpenAiResponses => {
            // `InputItem`'s branches overlap (SOURCES.md): the items apart.
            let mut instance = body.clone();
            let items = instance.as_object_mut().unwrap().remove("input").unwrap();
            let mut errors =
                schemas::errors(&schemas::openai().validator("CreateResponse"), &instance);
            let item = schemas::openai().validator("EasyInputMessage");
            for one in items.as_array().unwrap() {
                errors.extend(schemas::errors(&item, one));
            }
            errors
        }
        Provider::Anthropic => {
            schemas::errors(&schemas::anthropic().validator("CreateMessageParams"), body)
        }
        Provider::Gemini => {
            // The export wrongly requires `model` in the body (SOURCES.md).
            let mut instance = body.clone();
            instance["model"] = json!("models/m");
            schemas::errors(
                &schemas::gemini().validator("GenerateContentRequest"),
                &instance,
            )
        }
        Provider::Bedrock => schemas::bedrock_errors("ConverseRequest", body),
        other => vec![format!("no schema for {other:?}")],
    }
}

#[test]
fn every_body_with_a_reply_schema_validates_against_its_providers_schema() {
    let history = [StoredMessage::user("Is a.rs empty?")];
    let providers = Provider::ALL
        .into_iter()
        .chain([Provider::Compatible(&Dialect::MISTRAL)]);
    for provider in providers {
        for schema in SCHEMAS {
            for beside in [false, true] {
                let turn = Turn::new(&history)
                    .reply_schema("verdict", schema)
                    .fields(&fields(provider, beside));
                let body = serde_json::to_value(provider.body(&turn).unwrap()).unwrap();
                let errors = errors(provider, &body);
                assert!(
                    errors.is_empty(),
                    "{provider:?} {schema} {beside}: {errors:#?}\n{body:#}"
                );
            }
        }
    }
}

#[test]
fn the_validators_refuse_a_reply_schema_in_another_providers_form() {
    // Each provider's form is checked, not waved through: OpenAI's in Anthropic's place, the
    // schema as an object where Bedrock takes a string, Chat's nesting in Responses' `text`.
    let anthropic = json!({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "Hi"}],
        "output_config": {"format": {"type": "json_schema", "json_schema": {"name": "n", "schema": {}}}}});
    assert!(!errors(Provider::Anthropic, &anthropic).is_empty());
    let bedrock = json!({"messages": [{"role": "user", "content": [{"text": "Hi"}]}],
        "outputConfig": {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": {"schema": {}}}}}});
    assert!(!errors(Provider::Bedrock, &bedrock).is_empty());
    let responses = json!({"model": "m", "input": [],
        "text": {"format": {"type": "json_schema", "json_schema": {"name": "n", "schema": {}}}}});
    assert!(!errors(Provider::OpenAiResponses, &responses).is_empty());
    let openai = json!({"model": "m", "messages": [{"role": "user", "content": "Hi"}],
        "response_format": {"type": "json_schema", "schema": {}}});
    assert!(!errors(Provider::OpenAi, &openai).is_empty());
}
