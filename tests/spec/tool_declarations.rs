//! Tools are declared once, neutrally, and each provider writes them in its own shape, before
//! the conversation, with the tool choice in its own words; a name a provider refuses, a
//! choice it cannot express or that names no tool, and a caller's field that would clash are
//! errors that name the rule.

use serde_json::json;
use transcript_replay::{Provider, StoredMessage, Tool, ToolChoice, Turn};

const SCHEMA: &str = r#"{"type":"object","properties":{"path":{"type":"string"}},"$defs":{"p":{"type":"string"}},"additionalProperties":false}"#;

fn body(provider: Provider, turn: &Turn<'_>) -> String {
    serde_json::to_string(&provider.body(turn).unwrap()).unwrap()
}

#[test]
fn each_provider_writes_the_declarations_in_its_shape_before_the_conversation() {
    let strict = [Tool::new("read", "Reads a file.", SCHEMA)
        .unwrap()
        .strict(true)];
    let plain = [Tool::new("read", "Reads a file.", SCHEMA).unwrap()];
    let history = [StoredMessage::user("Hi")];
    // (provider, tools, how the body begins)
    let cases = [
        (
            Provider::OpenAi,
            &strict,
            format!(
                r#"{{"tools":[{{"type":"function","function":{{"name":"read","description":"Reads a file.","parameters":{SCHEMA},"strict":true}}}}],"messages":"#
            ),
        ),
        (
            Provider::OpenAiResponses,
            &strict,
            format!(
                r#"{{"tools":[{{"type":"function","name":"read","description":"Reads a file.","parameters":{SCHEMA},"strict":true}}],"instructions":"#
            ),
        ),
        (
            Provider::Anthropic,
            &strict,
            format!(
                r#"{{"tools":[{{"name":"read","description":"Reads a file.","input_schema":{SCHEMA},"strict":true}}],"system":"#
            ),
        ),
        (
            Provider::Gemini,
            &plain,
            format!(
                r#"{{"tools":[{{"functionDeclarations":[{{"name":"read","description":"Reads a file.","parametersJsonSchema":{SCHEMA}}}]}}],"systemInstruction":"#
            ),
        ),
        (
            Provider::Bedrock,
            &strict,
            format!(
                r#"{{"toolConfig":{{"tools":[{{"toolSpec":{{"name":"read","description":"Reads a file.","inputSchema":{{"json":{SCHEMA}}},"strict":true}}}}]}},"system":"#
            ),
        ),
    ];
    for (provider, tools, expected) in cases {
        let turn = Turn::new(&history).tools(tools);
        let body = body(provider, &turn);
        assert!(body.starts_with(&expected), "{provider}: {body}");
    }
}

#[test]
fn each_provider_says_the_tool_choice_in_its_own_words() {
    let tools = [Tool::new("read", "Reads a file.", SCHEMA).unwrap()];
    let history = [StoredMessage::user("Hi")];
    let read = || ToolChoice::Tool("read".into());
    // (provider, choice, the choice as the body writes it: key and value)
    let cases = [
        (
            Provider::OpenAi,
            ToolChoice::Auto,
            ("tool_choice", json!("auto")),
        ),
        (
            Provider::OpenAi,
            ToolChoice::None,
            ("tool_choice", json!("none")),
        ),
        (
            Provider::OpenAi,
            ToolChoice::Required,
            ("tool_choice", json!("required")),
        ),
        (
            Provider::OpenAi,
            read(),
            (
                "tool_choice",
                json!({"type": "function", "function": {"name": "read"}}),
            ),
        ),
        (
            Provider::OpenAiResponses,
            ToolChoice::Auto,
            ("tool_choice", json!("auto")),
        ),
        (
            Provider::OpenAiResponses,
            ToolChoice::None,
            ("tool_choice", json!("none")),
        ),
        (
            Provider::OpenAiResponses,
            ToolChoice::Required,
            ("tool_choice", json!("required")),
        ),
        (
            Provider::OpenAiResponses,
            read(),
            ("tool_choice", json!({"type": "function", "name": "read"})),
        ),
        (
            Provider::Anthropic,
            ToolChoice::Auto,
            ("tool_choice", json!({"type": "auto"})),
        ),
        (
            Provider::Anthropic,
            ToolChoice::None,
            ("tool_choice", json!({"type": "none"})),
        ),
        (
            Provider::Anthropic,
            ToolChoice::Required,
            ("tool_choice", json!({"type": "any"})),
        ),
        (
            Provider::Anthropic,
            read(),
            ("tool_choice", json!({"type": "tool", "name": "read"})),
        ),
        (
            Provider::Gemini,
            ToolChoice::Auto,
            (
                "toolConfig",
                json!({"functionCallingConfig": {"mode": "AUTO"}}),
            ),
        ),
        (
            Provider::Gemini,
            ToolChoice::None,
            (
                "toolConfig",
                json!({"functionCallingConfig": {"mode": "NONE"}}),
            ),
        ),
        (
            Provider::Gemini,
            ToolChoice::Required,
            (
                "toolConfig",
                json!({"functionCallingConfig": {"mode": "ANY"}}),
            ),
        ),
        (
            Provider::Gemini,
            read(),
            (
                "toolConfig",
                json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["read"]}}),
            ),
        ),
    ];
    for (provider, choice, (key, expected)) in cases {
        let turn = Turn::new(&history)
            .tools(&tools)
            .tool_choice(choice.clone());
        let json = serde_json::to_value(provider.body(&turn).unwrap()).unwrap();
        assert_eq!(json[key], expected, "{provider} {choice}");
    }
    // Bedrock's choice goes inside its toolConfig.
    for (choice, expected) in [
        (ToolChoice::Auto, json!({"auto": {}})),
        (ToolChoice::Required, json!({"any": {}})),
        (read(), json!({"tool": {"name": "read"}})),
    ] {
        let turn = Turn::new(&history)
            .tools(&tools)
            .tool_choice(choice.clone());
        let json = serde_json::to_value(Provider::Bedrock.body(&turn).unwrap()).unwrap();
        assert_eq!(
            json["toolConfig"]["toolChoice"], expected,
            "Bedrock {choice}"
        );
    }
}

#[test]
fn a_declaration_a_provider_would_refuse_is_an_error_that_names_the_rule() {
    let history = [StoredMessage::user("Hi")];
    let tool = |name: &str| Tool::new(name, "", "{}").unwrap();
    let long = |n: usize| "a".repeat(n);
    // (provider, tools, choice, the error)
    let cases: Vec<(Provider, Vec<Tool>, Option<ToolChoice>, String)> = vec![
        (
            Provider::OpenAi,
            vec![tool("read file")],
            None,
            r#"the tool name "read file" is not one OpenAI takes: 1 to 64 ASCII letters, digits, `_` or `-`"#.into(),
        ),
        (
            Provider::OpenAi,
            vec![tool(&long(65))],
            None,
            format!(r#"the tool name "{}" is not one OpenAI takes: 1 to 64 ASCII letters, digits, `_` or `-`"#, long(65)),
        ),
        (
            Provider::Gemini,
            vec![tool(&long(64))],
            None,
            format!(r#"the tool name "{}" is not one Gemini takes: 1 to 63 ASCII letters, digits, `_` or `-`"#, long(64)),
        ),
        (
            Provider::Anthropic,
            vec![tool("")],
            None,
            r#"the tool name "" is not one Anthropic takes: 1 to 128 ASCII letters, digits, `_` or `-`"#.into(),
        ),
        (Provider::Anthropic, vec![tool("ls"), tool("ls")], None, "the tool `ls` is declared twice".into()),
        (
            Provider::Gemini,
            vec![tool("ls").strict(true)],
            None,
            "the tool `ls` asks for strict input, and Gemini has no such flag".into(),
        ),
        (Provider::OpenAi, vec![], Some(ToolChoice::Auto), "a tool choice was given, and no tool".into()),
        (
            Provider::Anthropic,
            vec![tool("ls")],
            Some(ToolChoice::Tool("read".into())),
            "the tool choice names `read`, which is no declared tool".into(),
        ),
        (
            Provider::Bedrock,
            vec![tool("ls")],
            Some(ToolChoice::None),
            "Bedrock cannot express the tool choice `none`".into(),
        ),
    ];
    for (provider, tools, choice, expected) in cases {
        let mut turn = Turn::new(&history).tools(&tools);
        if let Some(choice) = choice {
            turn = turn.tool_choice(choice);
        }
        assert_eq!(
            provider.body(&turn).unwrap_err().to_string(),
            expected,
            "{provider}"
        );
    }
    // The longest name each takes is taken.
    for (provider, max) in [
        (Provider::OpenAi, 64),
        (Provider::OpenAiResponses, 64),
        (Provider::Anthropic, 128),
        (Provider::Gemini, 63),
        (Provider::Bedrock, 64),
    ] {
        let tools = [tool(&format!("A-_{}", "9".repeat(max - 3)))];
        assert!(
            provider.body(&Turn::new(&history).tools(&tools)).is_ok(),
            "{provider}"
        );
    }
}

#[test]
fn a_callers_field_that_the_tools_would_write_is_refused() {
    let history = [StoredMessage::user("Hi")];
    let tools = [Tool::new("ls", "", "{}").unwrap()];
    for (provider, key) in [
        (Provider::OpenAi, "tools"),
        (Provider::OpenAiResponses, "tool_choice"),
        (Provider::Anthropic, "tools"),
        (Provider::Gemini, "toolConfig"),
        (Provider::Bedrock, "toolConfig"),
    ] {
        let turn = Turn::new(&history)
            .tools(&tools)
            .fields(&json!({ key: [] }));
        let error = provider.body(&turn).unwrap_err().to_string();
        assert!(error.contains(&format!("`{key}`")), "{provider}: {error}");
        // Without declared tools, the field is the caller's own.
        assert!(
            provider
                .body(&Turn::new(&history).fields(&json!({ key: [] })))
                .is_ok(),
            "{provider}"
        );
    }
}
