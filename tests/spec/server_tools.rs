//! Server tools stand beside function tools in one list: the neutral web search and code
//! execution are written in each provider's own form (or are an error naming the provider
//! where it has none), a native declaration goes verbatim into the provider's tools with the
//! headers and fields it needs, names clash across kinds as they do among functions, a tool
//! choice names only a function tool, and the estimate counts what is written.

use serde_json::{json, Value};
use transcript_replay::cost::{image_tokens, Of};
use transcript_replay::errors::{BodyErrorKind, ToolDeclaration};
use transcript_replay::{Priced, Provider, StoredMessage, Tool, ToolChoice, Turn};

const SCHEMA: &str = r#"{"type":"object"}"#;

fn read() -> Tool {
    Tool::new("read", "Reads a file.", SCHEMA).unwrap()
}

fn native(declaration: &str) -> Tool {
    Tool::native(declaration).unwrap()
}

fn body(provider: Provider, turn: &Turn<'_>) -> Value {
    serde_json::to_value(provider.body(turn).unwrap()).unwrap()
}

/// The body's top-level entries that hold the tools, by key: every key but the system text
/// and the conversation (the order in the body is the golden bodies' concern).
fn tool_entries(body: &Value) -> Vec<(String, Value)> {
    let conversation = [
        "system",
        "systemInstruction",
        "instructions",
        "messages",
        "input",
        "contents",
    ];
    body.as_object()
        .unwrap()
        .iter()
        .filter(|(key, _)| !conversation.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

#[test]
fn each_provider_writes_server_and_native_tools_in_its_own_form_beside_a_function() {
    let history = [StoredMessage::user("What changed upstream?")];
    let computer = r#"{"type":"computer_20250124","name":"computer","display_width_px":1024,"display_height_px":768}"#;
    let preview = r#"{"type":"computer_use_preview","environment":"browser","display_width":1024,"display_height":768}"#;
    // (provider, tools, the body's tool entries in order, the headers beside content-type)
    type Case<'c> = (Provider, Vec<Tool>, Value, Vec<(&'c str, &'c str)>);
    let cases: Vec<Case<'_>> = vec![
        (
            Provider::Anthropic,
            vec![
                read(),
                Tool::web_search(),
                Tool::code_execution(),
                native(computer),
            ],
            json!([["tools", [
                {"name": "read", "description": "Reads a file.", "input_schema": {"type": "object"}},
                {"type": "web_search_20250305", "name": "web_search"},
                {"type": "code_execution_20250825", "name": "code_execution"},
                serde_json::from_str::<Value>(computer).unwrap(),
            ]]]),
            vec![
                ("anthropic-version", "2023-06-01"),
                ("anthropic-beta", "computer-use-2025-01-24"),
            ],
        ),
        (
            Provider::OpenAiResponses,
            vec![
                read(),
                Tool::web_search(),
                Tool::code_execution(),
                native(preview),
            ],
            json!([
                ["truncation", "auto"],
                ["tools", [
                    {"type": "function", "name": "read", "description": "Reads a file.", "parameters": {"type": "object"}, "strict": false},
                    {"type": "web_search"},
                    {"type": "code_interpreter", "container": {"type": "auto"}},
                    serde_json::from_str::<Value>(preview).unwrap(),
                ]],
            ]),
            vec![],
        ),
        (
            Provider::Gemini,
            vec![
                Tool::web_search(),
                read(),
                Tool::code_execution(),
                native(r#"{"urlContext":{}}"#),
            ],
            json!([
                ["tools", [
                    {"functionDeclarations": [{"name": "read", "description": "Reads a file.", "parametersJsonSchema": {"type": "object"}}]},
                    {"googleSearch": {}},
                    {"codeExecution": {}},
                    {"urlContext": {}},
                ]],
                ["toolConfig", {"includeServerSideToolInvocations": true}],
            ]),
            vec![],
        ),
        (
            Provider::OpenAi,
            vec![
                read(),
                Tool::web_search(),
                native(r#"{"type":"custom","custom":{"name":"sql"}}"#),
            ],
            json!([
                ["web_search_options", {}],
                ["tools", [
                    {"type": "function", "function": {"name": "read", "description": "Reads a file.", "parameters": {"type": "object"}}},
                    {"type": "custom", "custom": {"name": "sql"}},
                ]],
            ]),
            vec![],
        ),
        (
            Provider::Bedrock,
            vec![
                read(),
                native(r#"{"systemTool":{"name":"nova_grounding"}}"#),
            ],
            json!([["toolConfig", {"tools": [
                {"toolSpec": {"name": "read", "description": "Reads a file.", "inputSchema": {"json": {"type": "object"}}}},
                {"systemTool": {"name": "nova_grounding"}},
            ]}]]),
            vec![],
        ),
    ];
    for (provider, tools, expected, headers) in cases {
        let turn = Turn::new(&history).without_preamble().tools(&tools);
        let entries: Value = tool_entries(&body(provider, &turn))
            .into_iter()
            .map(|(key, value)| json!([key, value]))
            .collect();
        let mut expected = expected.as_array().unwrap().clone();
        expected.sort_by_key(|entry| entry[0].as_str().unwrap().to_owned());
        assert_eq!(entries, Value::Array(expected), "{provider:?}");
        let request = provider.request(&turn);
        let expected_headers: Vec<(&str, String)> = [("content-type", "application/json")]
            .into_iter()
            .chain(headers)
            .map(|(name, value)| (name, value.to_owned()))
            .collect();
        assert_eq!(request.headers, expected_headers, "{provider:?}");
    }
}

#[test]
fn the_crates_fields_come_before_the_tools_and_the_tools_keep_their_order() {
    let history = [StoredMessage::user("Hi")];
    let tools = [
        read(),
        Tool::web_search(),
        native(
            r#"{"type":"computer_use_preview","environment":"browser","display_width":8,"display_height":8}"#,
        ),
    ];
    let turn = Turn::new(&history).without_preamble().tools(&tools);
    let text = serde_json::to_string(&Provider::OpenAiResponses.body(&turn).unwrap()).unwrap();
    assert!(
        text.starts_with(r#"{"truncation":"auto","tools":[{"type":"function","name":"read","description":"Reads a file.","parameters":{"type":"object"},"strict":false},{"type":"web_search"},{"type":"computer_use_preview""#),
        "{text}"
    );
    let tools = [read(), Tool::web_search()];
    let turn = Turn::new(&history).without_preamble().tools(&tools);
    let text = serde_json::to_string(&Provider::OpenAi.body(&turn).unwrap()).unwrap();
    assert!(
        text.starts_with(r#"{"web_search_options":{},"tools":[{"type":"function""#),
        "{text}"
    );
}

#[test]
fn a_native_tool_is_written_as_its_exact_text() {
    let history = [StoredMessage::user("Hi")];
    let declaration =
        r#"{ "type" : "mcp", "server_label": "docs",  "server_url": "https://example.com/mcp" }"#;
    let tools = [native(declaration)];
    let turn = Turn::new(&history).without_preamble().tools(&tools);
    let text = serde_json::to_string(&Provider::OpenAiResponses.body(&turn).unwrap()).unwrap();
    assert!(
        text.starts_with(&format!(r#"{{"tools":[{declaration}],"#)),
        "{text}"
    );
}

#[test]
fn a_server_tool_a_provider_does_not_have_is_an_error_naming_the_provider_and_the_tool() {
    let history = [StoredMessage::user("Hi")];
    let groq: Provider = "groq".parse().unwrap();
    // (provider, tool, the error)
    let cases = [
        (Provider::OpenAi, Tool::code_execution(), "OpenAI (openai) has no code execution server tool: declare the provider's own with Tool::native, if it has one"),
        (Provider::Bedrock, Tool::web_search(), "Bedrock (bedrock) has no web search server tool: declare the provider's own with Tool::native, if it has one"),
        (Provider::Bedrock, Tool::code_execution(), "Bedrock (bedrock) has no code execution server tool: declare the provider's own with Tool::native, if it has one"),
        (groq, Tool::web_search(), "Groq (groq) has no web search server tool: declare the provider's own with Tool::native, if it has one"),
    ];
    for (provider, tool, expected) in cases {
        let tools = [read(), tool];
        let turn = Turn::new(&history).tools(&tools);
        let error = provider.body(&turn).unwrap_err();
        assert_eq!(error.to_string(), expected);
        assert!(matches!(
            error.kind(),
            BodyErrorKind::Tools(ToolDeclaration::ServerToolNotTaken { .. })
        ));
    }
}

#[test]
fn two_tools_of_one_name_on_the_provider_are_declared_twice_whatever_their_kinds() {
    let history = [StoredMessage::user("Hi")];
    let function = |name: &str| Tool::new(name, "", SCHEMA).unwrap();
    // (provider, tools, the name declared twice, or None when the body is built)
    let cases: Vec<(Provider, Vec<Tool>, Option<&str>)> = vec![
        (
            Provider::Anthropic,
            vec![function("web_search"), Tool::web_search()],
            Some("web_search"),
        ),
        (
            Provider::OpenAiResponses,
            vec![Tool::web_search(), function("web_search")],
            Some("web_search"),
        ),
        (
            Provider::OpenAiResponses,
            vec![function("code_execution"), Tool::code_execution()],
            None,
        ),
        (
            Provider::OpenAiResponses,
            vec![Tool::web_search(), native(r#"{"type":"web_search"}"#)],
            Some("web_search"),
        ),
        // Gemini's web search is `googleSearch`: a function named `web_search` is another.
        (
            Provider::Gemini,
            vec![function("web_search"), Tool::web_search()],
            None,
        ),
        (
            Provider::Gemini,
            vec![function("googleSearch"), Tool::web_search()],
            Some("googleSearch"),
        ),
        (
            Provider::Anthropic,
            vec![read(), native(r#"{"type":"bash_20250124","name":"read"}"#)],
            Some("read"),
        ),
        (
            Provider::Bedrock,
            vec![
                read(),
                native(r#"{"toolSpec":{"name":"read","inputSchema":{"json":{}}}}"#),
            ],
            Some("read"),
        ),
        // Two native tools named by their type: Responses takes several MCP servers.
        (
            Provider::OpenAiResponses,
            vec![
                native(r#"{"type":"mcp","server_label":"a"}"#),
                native(r#"{"type":"mcp","server_label":"b"}"#),
            ],
            None,
        ),
        (
            Provider::Anthropic,
            vec![Tool::web_search(), Tool::web_search()],
            Some("web_search"),
        ),
        // Chat's web search is the field `web_search_options`, named nothing on the wire: a
        // function named `web_search` is another; a second web search is the same field.
        (
            Provider::OpenAi,
            vec![function("web_search"), Tool::web_search()],
            None,
        ),
        (
            Provider::OpenAi,
            vec![Tool::web_search(), Tool::web_search()],
            Some("web_search"),
        ),
    ];
    for (provider, tools, twice) in cases {
        let turn = Turn::new(&history).tools(&tools);
        match (provider.body(&turn), twice) {
            (Ok(_), None) => {}
            (Err(error), Some(name)) => {
                assert_eq!(
                    error.to_string(),
                    format!("the tool `{name}` is declared twice")
                );
                assert_eq!(
                    error.kind(),
                    BodyErrorKind::Tools(ToolDeclaration::DeclaredTwice { name })
                );
            }
            (built, _) => panic!("{provider:?} {tools:?}: {:?}", built.map(|_| ())),
        }
    }
}

#[test]
fn a_tool_choice_names_only_a_function_tool_and_needs_a_tool_in_the_tools_list() {
    let history = [StoredMessage::user("Hi")];
    // (provider, tools, choice, the error, or None when the body is built)
    let cases: Vec<(Provider, Vec<Tool>, ToolChoice, Option<&str>)> = vec![
        (Provider::Anthropic, vec![read(), Tool::web_search()], ToolChoice::Tool("read".into()), None),
        (Provider::Anthropic, vec![read(), Tool::web_search()], ToolChoice::Tool("web_search".into()), Some("the tool choice names `web_search`, a server or native tool: a choice names a function tool")),
        (Provider::Gemini, vec![read(), Tool::web_search()], ToolChoice::Tool("googleSearch".into()), Some("the tool choice names `googleSearch`, a server or native tool: a choice names a function tool")),
        (Provider::OpenAiResponses, vec![native(r#"{"type":"mcp","server_label":"a"}"#)], ToolChoice::Tool("mcp".into()), Some("the tool choice names `mcp`, a server or native tool: a choice names a function tool")),
        (Provider::Anthropic, vec![Tool::web_search()], ToolChoice::Required, None),
        (Provider::Anthropic, vec![Tool::web_search()], ToolChoice::Tool("read".into()), Some("the tool choice names `read`, which is no declared tool")),
        // Chat's web search is a field, not an element of `tools`: a choice has nothing to choose.
        (Provider::OpenAi, vec![Tool::web_search()], ToolChoice::Auto, Some("a tool choice was given, and no tool")),
        (Provider::OpenAi, vec![read(), Tool::web_search()], ToolChoice::Auto, None),
        // Gemini's choice governs its function declarations only, and is refused without
        // one ("Function calling config is set without function_declarations").
        (Provider::Gemini, vec![Tool::web_search()], ToolChoice::Required, Some("a tool choice was given, and no tool")),
        (Provider::Gemini, vec![Tool::web_search()], ToolChoice::Auto, Some("a tool choice was given, and no tool")),
        (Provider::Gemini, vec![read(), Tool::web_search()], ToolChoice::Required, None),
    ];
    for (provider, tools, choice, expected) in cases {
        let turn = Turn::new(&history)
            .tools(&tools)
            .tool_choice(choice.clone());
        match (provider.body(&turn), expected) {
            (Ok(_), None) => {}
            (Err(error), Some(expected)) => assert_eq!(error.to_string(), expected),
            (built, _) => panic!("{provider:?} {choice}: {:?}", built.map(|_| ())),
        }
    }
}

#[test]
fn the_callers_own_truncation_and_web_search_options_are_written_instead_of_the_crates() {
    let history = [StoredMessage::user("Hi")];
    let preview = [native(
        r#"{"type":"computer_use_preview","environment":"browser","display_width":8,"display_height":8}"#,
    )];
    let fields = json!({"truncation": "disabled"});
    let turn = Turn::new(&history).tools(&preview).fields(&fields);
    let written = body(Provider::OpenAiResponses, &turn);
    assert_eq!(written["truncation"], "disabled");
    let search = [Tool::web_search()];
    let fields = json!({"web_search_options": {"search_context_size": "low"}});
    let turn = Turn::new(&history).tools(&search).fields(&fields);
    let written = serde_json::to_string(&Provider::OpenAi.body(&turn).unwrap()).unwrap();
    assert_eq!(
        written.matches("web_search_options").count(),
        1,
        "{written}"
    );
    assert!(written.contains(r#""web_search_options":{"search_context_size":"low"}"#));
}

#[test]
fn anthropic_native_tools_get_each_beta_once_in_one_header() {
    let history = [StoredMessage::user("Hi")];
    // (tools, the anthropic-beta header, if any)
    let cases: Vec<(Vec<Tool>, Option<&str>)> = vec![
        (vec![Tool::web_search(), Tool::code_execution()], None),
        (
            vec![native(
                r#"{"type":"computer_20251124","name":"computer","display_width_px":8,"display_height_px":8}"#,
            )],
            Some("computer-use-2025-11-24"),
        ),
        (
            vec![
                native(
                    r#"{"type":"computer_20241022","name":"computer","display_width_px":8,"display_height_px":8}"#,
                ),
                native(r#"{"type":"bash_20241022","name":"bash"}"#),
                native(r#"{"type":"mcp_toolset","mcp_server_name":"docs"}"#),
            ],
            Some("computer-use-2024-10-22,mcp-client-2025-11-20"),
        ),
        // Generally available: no beta.
        (
            vec![native(
                r#"{"type":"text_editor_20250728","name":"str_replace_based_edit_tool"}"#,
            )],
            None,
        ),
    ];
    for (tools, expected) in cases {
        let turn = Turn::new(&history).tools(&tools);
        let request = Provider::Anthropic.request(&turn);
        let betas: Vec<&str> = request
            .headers
            .iter()
            .filter(|(name, _)| *name == "anthropic-beta")
            .map(|(_, value)| value.as_str())
            .collect();
        assert_eq!(betas, expected.into_iter().collect::<Vec<_>>(), "{tools:?}");
    }
}

#[test]
fn gemini_refuses_built_in_tools_beside_functions_on_models_before_gemini_3() {
    let history = [StoredMessage::user("Hi")];
    let mixed = [read(), Tool::web_search()];
    let server_only = [Tool::web_search(), Tool::code_execution()];
    // (model, tools, built)
    let cases: [(&str, &[Tool], bool); 5] = [
        ("gemini-2.5-flash", &mixed, false),
        ("models/gemini-1.5-pro", &mixed, false),
        ("gemini-2.5-flash", &server_only, true),
        ("gemini-3-pro-preview", &mixed, true),
        ("gemini-flash-latest", &mixed, true),
    ];
    for (model, tools, built) in cases {
        let turn = Turn::new(&history).model(model).tools(tools);
        let result = Provider::Gemini.body(&turn);
        assert_eq!(result.is_ok(), built, "{model}");
        if let Err(error) = result {
            assert_eq!(
                error.to_string(),
                format!("Gemini takes server or native tools beside function tools only on Gemini 3 models and later, and the turn's model is `{model}`")
            );
            assert_eq!(
                error.kind(),
                BodyErrorKind::Tools(ToolDeclaration::ServerToolsBesideFunctions { model })
            );
        }
    }
}

#[test]
fn the_estimate_counts_the_tool_entries_as_written() {
    let history = [StoredMessage::user("Hi")];
    let cases: Vec<(Provider, Vec<Tool>)> = vec![
        (
            Provider::Anthropic,
            vec![
                read(),
                Tool::web_search(),
                native(r#"{"type":"mcp_toolset","mcp_server_name":"docs"}"#),
            ],
        ),
        (
            Provider::OpenAiResponses,
            vec![
                Tool::code_execution(),
                native(
                    r#"{"type":"computer_use_preview","environment":"browser","display_width":8,"display_height":8}"#,
                ),
            ],
        ),
        (
            Provider::Gemini,
            vec![Tool::web_search(), Tool::code_execution()],
        ),
        (Provider::OpenAi, vec![Tool::web_search()]),
        (
            Provider::Bedrock,
            vec![native(r#"{"systemTool":{"name":"nova_grounding"}}"#)],
        ),
    ];
    for (provider, tools) in cases {
        let turn = Turn::new(&history)
            .tools(&tools)
            .tool_choice(ToolChoice::Auto);
        let turn = match provider {
            // Chat's web search alone leaves no tool to choose, and Gemini's choice needs a
            // function declaration.
            Provider::OpenAi | Provider::Gemini => Turn::new(&history).tools(&tools),
            _ => turn,
        };
        let built = provider.body(&turn).unwrap();
        let estimate = built.estimate(image_tokens("claude").unwrap());
        let text = serde_json::to_string(&built).unwrap();
        assert_eq!(estimate.bytes, text.len(), "{provider:?}");
        let written: usize = tool_entries(&serde_json::from_str(&text).unwrap())
            .iter()
            .map(|(_, value)| serde_json::to_string(value).unwrap().len())
            .sum();
        let counted: usize = estimate
            .messages
            .iter()
            .filter(|cost| cost.of == Of::Tools)
            .map(|cost| cost.bytes)
            .sum();
        assert_eq!(counted, written, "{provider:?}");
    }
}

#[test]
fn server_tools_leave_the_cache_breakpoints_where_they_were() {
    let history = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello!"),
    ];
    let live = [StoredMessage::user("Search it")];
    let tools = [read(), Tool::web_search(), Tool::code_execution()];
    let turn = Turn::new(&history)
        .instructions("Be brief.")
        .live(&live)
        .tools(&tools)
        .cache(transcript_replay::Cache::FiveMinutes);
    let without = Turn::new(&history)
        .instructions("Be brief.")
        .live(&live)
        .tools(&tools[..1])
        .cache(transcript_replay::Cache::FiveMinutes);
    for provider in [Provider::Anthropic, Provider::Bedrock] {
        let tools_of = |turn: &Turn<'_>| {
            let mut written = body(provider, turn);
            let object = written.as_object_mut().unwrap();
            object.remove("tools");
            object.remove("toolConfig");
            written
        };
        // Bedrock has no server tool: its body is an error, and nothing else changes.
        match provider {
            Provider::Bedrock => assert!(provider.body(&turn).is_err()),
            _ => assert_eq!(tools_of(&turn), tools_of(&without), "{provider:?}"),
        }
    }
}

#[test]
fn the_example_file_format_reads_server_and_native_entries_beside_functions() {
    let tools: Vec<Tool> = serde_json::from_str(
        r#"[{"name": "read", "input_schema": {"type": "object"}}, {"server": "web_search"}, {"server": "code_execution"}, {"native": {"googleSearch": {}}}]"#,
    )
    .unwrap();
    assert_eq!(tools[1], Tool::web_search());
    assert_eq!(tools[2], Tool::code_execution());
    assert_eq!(tools[3].declaration(), Some(r#"{"googleSearch": {}}"#));
    for bad in [
        r#"{"server": "web_fetch"}"#,
        r#"{"server": "web_search", "name": "x"}"#,
        r#"{"native": []}"#,
        r#"{"name": "x"}"#,
    ] {
        assert!(serde_json::from_str::<Tool>(bad).is_err(), "{bad}");
    }
    // Each kind writes back as it was read.
    let text = serde_json::to_string(&tools[1..]).unwrap();
    assert_eq!(
        text,
        r#"[{"server":"web_search"},{"server":"code_execution"},{"native":{"googleSearch": {}}}]"#
    );
}

/// The example program, given a record and a `--tools` file.
fn example_with_tools(name: &str, tools: &str, args: &[&str]) -> std::process::Output {
    let record = crate::common::temp_file(
        &format!("{name}-record.json"),
        br#"[{"role":"user","blocks":[{"type":"text","text":"News?"}]}]"#,
    );
    let tools = crate::common::temp_file(&format!("{name}-tools.json"), tools.as_bytes());
    let (record, tools) = (record.to_str().unwrap(), tools.to_str().unwrap());
    let mut all = args.to_vec();
    all.extend(["--no-preamble", "--tools", tools, record]);
    crate::common::run(&all, "")
}

#[test]
fn the_example_writes_server_and_native_entries_of_its_tools_file() {
    let tools = r#"[{"name": "read", "input_schema": {"type": "object"}}, {"server": "web_search"}, {"native": {"type": "mcp_toolset", "mcp_server_name": "docs"}}]"#;
    let body = crate::common::stdout_json(&example_with_tools(
        "body",
        tools,
        &["--provider", "anthropic", "--model", "claude-x"],
    ));
    assert_eq!(
        body["tools"],
        json!([
            {"name": "read", "input_schema": {"type": "object"}},
            {"type": "web_search_20250305", "name": "web_search"},
            {"type": "mcp_toolset", "mcp_server_name": "docs"},
        ])
    );
    let request = crate::common::stdout_json(&example_with_tools(
        "request",
        tools,
        &[
            "--provider",
            "anthropic",
            "--model",
            "claude-x",
            "--request",
        ],
    ));
    assert_eq!(
        request["headers"]["anthropic-beta"],
        "mcp-client-2025-11-20"
    );
}

#[test]
fn the_example_takes_an_unknown_server_tool_as_a_usage_error_and_a_missing_one_as_a_failure() {
    let unknown = example_with_tools(
        "unknown",
        r#"[{"server": "web_fetch"}]"#,
        &["--provider", "anthropic", "--model", "m"],
    );
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8(unknown.stderr).unwrap();
    assert!(
        stderr.contains(r#"unknown server tool "web_fetch""#),
        "{stderr}"
    );
    assert!(stderr.contains("usage: replay"));
    let missing = example_with_tools(
        "missing",
        r#"[{"server": "code_execution"}]"#,
        &["--provider", "bedrock", "--model", "m"],
    );
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8(missing.stderr)
        .unwrap()
        .contains("Bedrock (bedrock) has no code execution server tool"));
}
