//! A reply's JSON schema (structured output) is asked for once, neutrally, with
//! `Turn::reply_schema`, and each provider gets it in its own form, the schema as the caller's
//! exact text and no `strict`; a compatible server that takes no `json_schema` makes the body an
//! error naming it; a bad name or schema is an error; a caller's field that says the same thing
//! beside it is the error that names both; and the schema is counted in the body's cost.

use serde_json::json;
use transcript_replay::{
    cost::estimate_tokens, cost::image_tokens, cost::Of, errors::BodyErrorKind, errors::CallerPart,
    Dialect, Priced, Provider, StoredMessage, Turn,
};

use crate::common::{run, stdout_json, temp_file};

/// A schema as a caller writes it: keys out of order and spaced, so that any rewriting shows.
const SCHEMA: &str = r#"{"type": "object", "required": ["verdict"], "properties": {"verdict": {"enum": ["yes", "no"]}, "why": {"type": "string"}}}"#;

fn history() -> [StoredMessage; 1] {
    [StoredMessage::user("Is a.rs empty?")]
}

fn body(provider: Provider, turn: &Turn<'_>) -> String {
    serde_json::to_string(&provider.body(turn).unwrap()).unwrap()
}

#[test]
fn each_provider_gets_the_schema_in_its_own_form_as_the_callers_exact_text() {
    let history = history();
    let turn = Turn::new(&history)
        .without_preamble()
        .max_output(1_000)
        .reply_schema("verdict", SCHEMA);
    let bedrock_schema = serde_json::to_string(SCHEMA).unwrap();
    let cases = [
        (
            Provider::OpenAi,
            format!(
                r#"{{"max_completion_tokens":1000,"response_format":{{"json_schema":{{"name":"verdict","schema":{SCHEMA}}},"type":"json_schema"}},"messages":[{{"role":"user","content":"Is a.rs empty?"}}]}}"#
            ),
        ),
        (
            Provider::OpenAiResponses,
            format!(
                r#"{{"max_output_tokens":1000,"text":{{"format":{{"name":"verdict","schema":{SCHEMA},"type":"json_schema"}}}},"input":[{{"role":"user","content":"Is a.rs empty?"}}]}}"#
            ),
        ),
        (
            Provider::Anthropic,
            format!(
                r#"{{"max_tokens":1000,"output_config":{{"format":{{"schema":{SCHEMA},"type":"json_schema"}}}},"messages":[{{"role":"user","content":[{{"type":"text","text":"Is a.rs empty?"}}]}}]}}"#
            ),
        ),
        (
            Provider::Gemini,
            format!(
                r#"{{"generationConfig":{{"maxOutputTokens":1000,"responseJsonSchema":{SCHEMA},"responseMimeType":"application/json"}},"contents":[{{"role":"user","parts":[{{"text":"Is a.rs empty?"}}]}}]}}"#
            ),
        ),
        (
            Provider::Bedrock,
            format!(
                r#"{{"inferenceConfig":{{"maxTokens":1000}},"outputConfig":{{"textFormat":{{"structure":{{"jsonSchema":{{"name":"verdict","schema":{bedrock_schema}}}}},"type":"json_schema"}}}},"messages":[{{"role":"user","content":[{{"text":"Is a.rs empty?"}}]}}]}}"#
            ),
        ),
    ];
    for (provider, expected) in cases {
        let written = body(provider, &turn);
        assert_eq!(written, expected, "{provider:?}");
        assert!(!written.contains("strict"), "{provider:?}: {written}");
    }
}

#[test]
fn a_compatible_server_gets_response_format_only_if_it_takes_json_schema() {
    let history = history();
    let turn = Turn::new(&history)
        .without_preamble()
        .reply_schema("verdict", SCHEMA);
    let openai = body(Provider::OpenAi, &turn);
    let takes: Vec<&str> = Dialect::NAMED
        .iter()
        .filter(|dialect| dialect.json_schema)
        .map(|dialect| dialect.id)
        .collect();
    assert_eq!(
        takes,
        [
            "mistral",
            "groq",
            "xai",
            "openrouter",
            "gemini-openai",
            "together",
            "fireworks",
            "cerebras",
            "perplexity",
            "azure",
            "vllm",
            "llama-cpp",
            "ollama",
            "lm-studio"
        ]
    );
    for dialect in Dialect::NAMED.iter().filter(|dialect| dialect.json_schema) {
        // OpenAI's form, byte for byte.
        assert_eq!(
            body(Provider::Compatible(dialect), &turn),
            openai,
            "{}",
            dialect.id
        );
    }
    let error = Provider::Compatible(&Dialect::DEEPSEEK)
        .body(&turn)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "DeepSeek takes no response_format json_schema, only json_object: the turn's reply_schema cannot be written"
    );
    assert_eq!(
        error.kind(),
        BodyErrorKind::Caller(CallerPart::ParamNotTaken {
            param: "reply_schema"
        })
    );
    // A runtime's own dialect says the same, under its own name.
    static PYTHON: Dialect = Dialect {
        id: "llama-cpp-python",
        name: "llama-cpp-python",
        json_schema: false,
        ..Dialect::LLAMA_CPP
    };
    assert!(Provider::Compatible(&PYTHON)
        .body(&turn)
        .unwrap_err()
        .to_string()
        .starts_with("llama-cpp-python takes no response_format json_schema"));
    // Without a schema, DeepSeek's body is what it was.
    assert!(Provider::Compatible(&Dialect::DEEPSEEK)
        .body(&Turn::new(&history).without_preamble())
        .is_ok());
}

#[test]
fn a_bad_name_or_schema_makes_every_providers_body_an_error() {
    let history = history();
    let long = "n".repeat(65);
    let names = [
        (
            "",
            r#"the reply schema's name "" must be 1 to 64 letters, digits, `_` or `-`"#,
        ),
        (
            "a verdict",
            r#"the reply schema's name "a verdict" must be 1 to 64 letters, digits, `_` or `-`"#,
        ),
        (
            "vérdict",
            r#"the reply schema's name "vérdict" must be 1 to 64 letters, digits, `_` or `-`"#,
        ),
        (
            "a.b",
            r#"the reply schema's name "a.b" must be 1 to 64 letters, digits, `_` or `-`"#,
        ),
    ];
    for (name, message) in names {
        let turn = Turn::new(&history).reply_schema(name, SCHEMA);
        for provider in Provider::ALL {
            let error = provider.body(&turn).unwrap_err();
            assert_eq!(error.to_string(), message, "{provider:?}");
            assert_eq!(
                error.kind(),
                BodyErrorKind::Caller(CallerPart::ReplySchema { name, part: "name" })
            );
        }
    }
    let turn = Turn::new(&history).reply_schema(&long, SCHEMA);
    assert!(Provider::OpenAi
        .body(&turn)
        .unwrap_err()
        .to_string()
        .contains(&format!("{}…", "n".repeat(64))));
    // 64 of them, and every allowed character, is a name.
    let turn = Turn::new(&history).reply_schema(&"aZ0_-".repeat(12), SCHEMA);
    assert!(Provider::OpenAi.body(&turn).is_ok());
    let schemas = [
        ("[1, 2]", "it is not an object"),
        (r#""object""#, "it is not an object"),
        (
            "{",
            "it is not JSON: EOF while parsing an object at line 1 column 1",
        ),
        (
            "",
            "it is not JSON: EOF while parsing a value at line 1 column 0",
        ),
    ];
    for (schema, why) in schemas {
        let turn = Turn::new(&history).reply_schema("verdict", schema);
        for provider in Provider::ALL {
            let error = provider.body(&turn).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(r#"the reply schema "verdict" must be one JSON object: {why}"#),
                "{provider:?}"
            );
            assert_eq!(
                error.kind(),
                BodyErrorKind::Caller(CallerPart::ReplySchema {
                    name: "verdict",
                    part: "schema"
                })
            );
        }
    }
}

#[test]
fn a_callers_field_that_says_the_same_beside_the_schema_is_the_error_naming_both() {
    let history = history();
    let cases = [
        (
            Provider::OpenAi,
            json!({"response_format": {"type": "json_object"}}),
            "response_format",
        ),
        (
            Provider::OpenAi,
            json!({"text": {"format": {"type": "text"}}}),
            "text.format",
        ),
        (
            Provider::OpenAiResponses,
            json!({"text": {"format": {"type": "json_object"}}}),
            "text.format",
        ),
        (
            Provider::Anthropic,
            json!({"output_config": {"format": {"type": "json_schema", "schema": {}}}}),
            "output_config.format",
        ),
        (
            Provider::Anthropic,
            json!({"output_format": {"type": "json_schema", "schema": {}}}),
            "output_format",
        ),
        (
            Provider::Gemini,
            json!({"generationConfig": {"responseSchema": {"type": "OBJECT"}}}),
            "generationConfig.responseSchema",
        ),
        (
            Provider::Gemini,
            json!({"generationConfig": {"responseJsonSchema": {}}}),
            "generationConfig.responseJsonSchema",
        ),
        (
            Provider::Gemini,
            json!({"generationConfig": {"responseMimeType": "text/x.enum"}}),
            "generationConfig.responseMimeType",
        ),
        (
            Provider::Bedrock,
            json!({"outputConfig": {"textFormat": {}}}),
            "outputConfig.textFormat",
        ),
    ];
    for (provider, fields, field) in cases {
        let turn = Turn::new(&history)
            .reply_schema("verdict", SCHEMA)
            .fields(&fields);
        let error = provider.body(&turn).unwrap_err();
        assert_eq!(
            error.kind(),
            BodyErrorKind::Caller(CallerPart::ParamConflict {
                param: "reply_schema",
                field
            }),
            "{provider:?} {fields}"
        );
        assert_eq!(
            error.to_string(),
            format!("the turn's reply_schema and the caller's field `{field}` say the same thing: give one")
        );
        // Without the neutral parameter, the caller's field is the caller's to give.
        assert!(
            provider.body(&Turn::new(&history).fields(&fields)).is_ok(),
            "{provider:?} {fields}"
        );
    }
}

#[test]
fn a_callers_other_members_of_the_same_object_are_merged_beside_the_schema() {
    let history = history();
    let cases = [
        (
            Provider::Anthropic,
            json!({"output_config": {"effort": "high"}}),
            "output_config",
            json!({"effort": "high", "format": {"type": "json_schema", "schema": {}}}),
        ),
        (
            Provider::OpenAiResponses,
            json!({"text": {"verbosity": "low"}}),
            "text",
            json!({"verbosity": "low", "format": {"type": "json_schema", "name": "verdict", "schema": {}}}),
        ),
        (
            Provider::Gemini,
            json!({"generationConfig": {"topK": 3}}),
            "generationConfig",
            json!({"topK": 3, "responseMimeType": "application/json", "responseJsonSchema": {}}),
        ),
        (
            Provider::Bedrock,
            json!({"outputConfig": {"effort": "low"}}),
            "outputConfig",
            json!({"effort": "low", "textFormat": {"type": "json_schema", "structure": {"jsonSchema": {"name": "verdict", "schema": "{}"}}}}),
        ),
    ];
    for (provider, fields, key, expected) in cases {
        let turn = Turn::new(&history)
            .reply_schema("verdict", "{}")
            .fields(&fields);
        let body = serde_json::to_value(provider.body(&turn).unwrap()).unwrap();
        assert_eq!(body[key], expected, "{provider:?}");
    }
}

#[test]
fn the_schema_is_counted_in_the_bodys_cost() {
    let history = history();
    let claude = image_tokens("claude").unwrap();
    for provider in Provider::ALL {
        let plain = Turn::new(&history).without_preamble();
        let asked = plain.clone().reply_schema("verdict", SCHEMA);
        let body = provider.body(&asked).unwrap();
        let estimate = body.estimate(claude);
        assert_eq!(
            estimate.bytes,
            serde_json::to_vec(&body).unwrap().len(),
            "{provider:?}"
        );
        let fields = estimate
            .messages
            .iter()
            .find(|cost| cost.of == Of::Fields)
            .unwrap_or_else(|| panic!("{provider:?}: no fields counted"));
        assert!(
            fields.text_tokens >= estimate_tokens(SCHEMA),
            "{provider:?}"
        );
        let without = provider.body(&plain).unwrap().estimate(claude);
        assert!(
            estimate.text_tokens >= without.text_tokens + estimate_tokens(SCHEMA),
            "{provider:?}"
        );
    }
}

#[test]
fn the_example_asks_for_the_schema_of_its_schema_file() {
    let schema = temp_file("reply-schema.json", SCHEMA.as_bytes());
    let schema = schema.to_str().unwrap();
    let output = run(
        &[
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5",
            "--schema",
            schema,
        ],
        "",
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let body = stdout_json(&output);
    assert_eq!(
        body["output_config"],
        json!({"format": {"type": "json_schema", "schema": serde_json::from_str::<serde_json::Value>(SCHEMA).unwrap()}})
    );
    let output = run(
        &[
            "--provider",
            "openai",
            "--model",
            "gpt-4.1",
            "--schema",
            schema,
        ],
        "",
    );
    assert_eq!(
        stdout_json(&output)["response_format"]["json_schema"]["name"],
        "reply"
    );
    // A server that takes none: the body's error.
    let output = run(
        &[
            "--provider",
            "deepseek",
            "--model",
            "deepseek-chat",
            "--schema",
            schema,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("DeepSeek takes no response_format json_schema"));
    // A file that cannot be read, or is not a JSON object: bad input, as for --tools.
    let array = temp_file("reply-schema-array.json", b"[1]");
    let broken = temp_file("reply-schema-broken.json", b"{");
    for (file, says) in [
        (
            "/no/such/schema.json",
            "replay: cannot read /no/such/schema.json",
        ),
        (
            array.to_str().unwrap(),
            "replay: the schema: not a JSON object",
        ),
        (
            broken.to_str().unwrap(),
            "replay: the schema: EOF while parsing",
        ),
    ] {
        let output = run(
            &[
                "--provider",
                "openai",
                "--model",
                "gpt-4.1",
                "--schema",
                file,
            ],
            "",
        );
        assert_eq!(output.status.code(), Some(1), "{file}");
        assert!(output.stdout.is_empty());
        assert!(
            String::from_utf8_lossy(&output.stderr).starts_with(says),
            "{file}"
        );
    }
    // Without --model there is no body to ask in.
    let output = run(&["--provider", "openai", "--schema", schema], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--schema needs --model"));
    // The usage names it.
    let output = run(&["--help"], "");
    assert!(String::from_utf8_lossy(&output.stdout).contains("--schema FILE"));
}
