//! Bodies with server and native tools beside a function tool validate against each
//! provider's pinned request schema (the trimmed subsets in `specs/`, which already reach
//! every tool type of the request roots).

use serde_json::{json, Value};
use transcript_replay::{Provider, StoredMessage, Tool, Turn};
use transcript_replay_conformance::schemas;

fn read() -> Tool {
    Tool::new("read", "Reads a file.", r#"{"type":"object"}"#).unwrap()
}

fn body(provider: Provider, tools: &[Tool], fields: &Value) -> Value {
    let history = [StoredMessage::user("News?")];
    let turn = Turn::new(&history).tools(tools).fields(fields);
    serde_json::to_value(provider.body(&turn).unwrap()).unwrap()
}

#[test]
fn server_and_native_tools_beside_a_function_make_valid_bodies() {
    let model = json!({"model": "m"});
    let anthropic = json!({"model": "m", "max_tokens": 1024});
    let none = json!({});
    // (provider, tools, fields, schema)
    let cases: Vec<(Provider, Vec<Tool>, &Value, &str)> = vec![
        (
            Provider::OpenAi,
            vec![read(), Tool::web_search(), Tool::native(r#"{"type":"custom","custom":{"name":"sql"}}"#).unwrap()],
            &model,
            "CreateChatCompletionRequest",
        ),
        (
            Provider::OpenAiResponses,
            vec![
                read(),
                Tool::web_search(),
                Tool::code_execution(),
                Tool::native(r#"{"type":"computer_use_preview","environment":"browser","display_width":1024,"display_height":768}"#).unwrap(),
            ],
            &model,
            "CreateResponse",
        ),
        (
            Provider::Anthropic,
            vec![
                read(),
                Tool::web_search(),
                Tool::code_execution(),
                Tool::native(r#"{"type":"web_fetch_20250910","name":"web_fetch"}"#).unwrap(),
            ],
            &anthropic,
            "CreateMessageParams",
        ),
        (
            Provider::Gemini,
            vec![read(), Tool::web_search(), Tool::code_execution(), Tool::native(r#"{"urlContext":{}}"#).unwrap()],
            &none,
            "GenerateContentRequest",
        ),
    ];
    for (provider, tools, fields, schema) in cases {
        let spec = match provider {
            Provider::Anthropic => schemas::anthropic(),
            Provider::Gemini => schemas::gemini(),
            _ => schemas::openai(),
        };
        let mut body = body(provider, &tools, fields);
        if provider == Provider::Gemini {
            // The model goes in the URL; the schema has it in the body too.
            body["model"] = json!("models/m");
        }
        let errors = schemas::errors(&spec.validator(schema), &body);
        assert!(errors.is_empty(), "{provider:?}: {errors:#?}\n{body}");
    }
    let tools = [
        read(),
        Tool::native(r#"{"systemTool":{"name":"nova_grounding"}}"#).unwrap(),
    ];
    let body = body(Provider::Bedrock, &tools, &none);
    let errors = schemas::bedrock_errors("ConverseRequest", &body);
    assert!(errors.is_empty(), "{errors:#?}\n{body}");
}

#[test]
fn the_schemas_catch_a_server_tool_in_another_providers_form() {
    let body = body(
        Provider::Anthropic,
        &[read(), Tool::native(r#"{"type":"web_search"}"#).unwrap()],
        &json!({"model": "m", "max_tokens": 1024}),
    );
    let errors = schemas::errors(
        &schemas::anthropic().validator("CreateMessageParams"),
        &body,
    );
    assert!(!errors.is_empty());
}
