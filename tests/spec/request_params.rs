//! The neutral request parameters of a turn are written as each provider takes them, before
//! the caller's fields; a caller's field that says the same thing is an error naming both,
//! and what a provider cannot take is an error that says why.

use serde_json::{json, Value};
use transcript_replay::{
    errors::BodyErrorKind, errors::CallerPart, Dialect, Provider, Reasoning, StoredMessage, Turn,
};

fn top_level(provider: Provider, turn: &Turn<'_>) -> Value {
    let mut body = serde_json::to_value(provider.body(turn).unwrap()).unwrap();
    let object = body.as_object_mut().unwrap();
    for key in ["messages", "input", "system", "contents", "instructions"] {
        object.remove(key);
    }
    body
}

#[test]
fn each_provider_gets_the_parameters_under_its_own_names() {
    let history = [StoredMessage::user("Hi.")];
    let turn = Turn::new(&history)
        .without_preamble()
        .model("a-model")
        .max_output(8_192)
        .reasoning(Reasoning::Medium)
        .stream(true)
        .stop(&["END"]);
    let cases = [
        (
            Provider::Compatible(&Dialect::DEEPSEEK),
            json!({"model": "a-model", "max_tokens": 8192, "reasoning_effort": "medium",
                   "stream": true, "stop": ["END"]}),
        ),
        (
            Provider::Gemini,
            json!({"generationConfig": {"maxOutputTokens": 8192, "stopSequences": ["END"],
                   "thinkingConfig": {"thinkingBudget": 8192}}}),
        ),
    ];
    for (provider, expected) in cases {
        assert_eq!(top_level(provider, &turn), expected, "{provider}");
    }
    // OpenAI's reasoning models take no stop sequences beside an effort.
    let openai = Turn::new(&history)
        .without_preamble()
        .model("a-model")
        .max_output(8_192)
        .reasoning(Reasoning::Medium)
        .stream(true);
    assert_eq!(
        top_level(Provider::OpenAi, &openai),
        json!({"model": "a-model", "max_completion_tokens": 8192, "reasoning_effort": "medium",
               "stream": true, "stream_options": {"include_usage": true}})
    );
    assert_eq!(
        Provider::OpenAi.body(&turn).unwrap_err().kind(),
        BodyErrorKind::Caller(CallerPart::ParamsTogether {
            first: "reasoning",
            second: "stop"
        })
    );
    // Anthropic's budget must be under max_tokens: 8192 is not.
    let error = Provider::Anthropic.body(&turn).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Anthropic takes a thinking budget of at least 1024 tokens and less than max_tokens: the turn's reasoning cannot be written"
    );
    assert_eq!(
        error.kind(),
        BodyErrorKind::Caller(CallerPart::ParamNotTaken { param: "reasoning" })
    );
    // Claude through Bedrock has the same rule.
    assert_eq!(
        Provider::Bedrock.body(&turn).unwrap_err().kind(),
        BodyErrorKind::Caller(CallerPart::ParamNotTaken { param: "reasoning" })
    );
    let claude = turn.clone().reasoning(Reasoning::Budget(4_000));
    assert_eq!(
        top_level(Provider::Anthropic, &claude),
        json!({"model": "a-model", "max_tokens": 8192,
               "thinking": {"type": "enabled", "budget_tokens": 4000},
               "stream": true, "stop_sequences": ["END"]})
    );
    assert_eq!(
        top_level(Provider::Bedrock, &claude),
        json!({"inferenceConfig": {"maxTokens": 8192, "stopSequences": ["END"]},
               "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 4000}}})
    );
    // Responses keeps the encrypted reasoning for stateless rounds, and takes no stop.
    let responses = Turn::new(&history)
        .model("gpt-5")
        .max_output(8_192)
        .reasoning(Reasoning::Budget(20_000))
        .stream(true);
    assert_eq!(
        top_level(Provider::OpenAiResponses, &responses),
        json!({"model": "gpt-5", "max_output_tokens": 8192, "reasoning": {"effort": "high"},
               "include": ["reasoning.encrypted_content"], "store": false, "stream": true})
    );
    assert_eq!(
        Provider::OpenAiResponses
            .body(&turn)
            .unwrap_err()
            .to_string(),
        "OpenAI takes no stop sequences: the turn's stop cannot be written"
    );
}

#[test]
fn openrouter_takes_the_reasoning_in_its_documented_object() {
    // <https://openrouter.ai/docs/use-cases/reasoning-tokens#controlling-reasoning-tokens>:
    // `"reasoning": {"effort": ...}`, or `{"max_tokens": N}`, one of them.
    let history = [StoredMessage::user("Hi.")];
    let openrouter = Provider::Compatible(&Dialect::OPENROUTER);
    let turn = Turn::new(&history)
        .without_preamble()
        .model("anthropic/claude-sonnet-4.5")
        .reasoning(Reasoning::High);
    assert_eq!(
        top_level(openrouter, &turn),
        json!({"model": "anthropic/claude-sonnet-4.5", "reasoning": {"effort": "high"}})
    );
    let budget = turn.clone().reasoning(Reasoning::Budget(3_000));
    assert_eq!(
        top_level(openrouter, &budget),
        json!({"model": "anthropic/claude-sonnet-4.5", "reasoning": {"max_tokens": 3000}})
    );
    let body = serde_json::to_string(&openrouter.body(&turn).unwrap()).unwrap();
    assert!(body.contains(r#""reasoning":{"effort":"high"}"#), "{body}");
    assert!(!body.contains("reasoning_effort"), "{body}");
    // A caller's field that says the same is the error naming both, under either name.
    for (fields, field) in [
        (json!({"reasoning": {"exclude": true}}), "reasoning"),
        (json!({"reasoning_effort": "low"}), "reasoning_effort"),
    ] {
        let with_fields = turn.clone().fields(&fields);
        assert_eq!(
            openrouter.body(&with_fields).unwrap_err().kind(),
            BodyErrorKind::Caller(CallerPart::ParamConflict {
                param: "reasoning",
                field
            })
        );
    }
    // Every other dialect keeps OpenAI's `reasoning_effort`.
    for dialect in Dialect::NAMED
        .iter()
        .filter(|dialect| dialect.id != "openrouter")
    {
        let written = top_level(Provider::Compatible(dialect), &turn);
        assert_eq!(written["reasoning_effort"], "high", "{}", dialect.id);
    }
}

#[test]
fn a_turn_without_parameters_builds_the_same_bytes_as_before() {
    let history = [StoredMessage::user("Hi.")];
    let fields = json!({"model": "m", "max_tokens": 10});
    let turn = Turn::new(&history).fields(&fields);
    let body = serde_json::to_string(&Provider::Anthropic.body(&turn).unwrap()).unwrap();
    assert!(
        // (`json!` orders its keys.)
        body.starts_with(r#"{"max_tokens":10,"model":"m","system":"#),
        "{body}"
    );
}

#[test]
fn a_caller_field_that_says_the_same_thing_is_an_error_naming_both() {
    let history = [StoredMessage::user("Hi.")];
    for (provider, fields, field) in [
        (Provider::OpenAi, json!({"max_tokens": 10}), "max_tokens"),
        (Provider::Anthropic, json!({"max_tokens": 10}), "max_tokens"),
        (
            Provider::Gemini,
            json!({"generationConfig": {"maxOutputTokens": 10}}),
            "generationConfig.maxOutputTokens",
        ),
    ] {
        let turn = Turn::new(&history).max_output(100).fields(&fields);
        let error = provider.body(&turn).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("the turn's max_output and the caller's field `{field}` say the same thing: give one"),
            "{provider}"
        );
        assert_eq!(
            error.kind(),
            BodyErrorKind::Caller(CallerPart::ParamConflict {
                param: "max_output",
                field
            })
        );
    }
}

#[test]
fn an_object_both_write_is_merged() {
    let history = [StoredMessage::user("Hi.")];
    let fields = json!({"generationConfig": {"topK": 40}, "safetySettings": []});
    let turn = Turn::new(&history)
        .without_preamble()
        .temperature(0.5)
        .fields(&fields);
    assert_eq!(
        top_level(Provider::Gemini, &turn),
        json!({"generationConfig": {"temperature": 0.5, "topK": 40}, "safetySettings": []})
    );
}

#[test]
fn the_request_follows_the_turns_model_and_stream() {
    let history = [StoredMessage::user("Hi.")];
    let turn = Turn::new(&history).model("gemini-2.5-pro").stream(true);
    assert_eq!(
        Provider::Gemini.request(&turn).path,
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    );
    assert_eq!(
        Provider::Gemini
            .request(&Turn::new(&history).model("gemini-2.5-pro"))
            .path,
        "/v1beta/models/gemini-2.5-pro:generateContent"
    );
    assert_eq!(
        "gemini-openai"
            .parse::<Provider>()
            .unwrap()
            .request(&turn)
            .path,
        "/v1beta/openai/chat/completions"
    );
}

#[test]
fn a_field_the_parameters_write_beside_them_names_the_parameter_that_writes_it() {
    let history = [StoredMessage::user("Hi.")];
    for (provider, fields, param, field) in [
        (
            Provider::OpenAiResponses,
            json!({"store": true}),
            "reasoning",
            "store",
        ),
        (
            Provider::OpenAi,
            json!({"stream_options": {"include_usage": false}}),
            "stream",
            "stream_options.include_usage",
        ),
    ] {
        let turn = Turn::new(&history)
            .reasoning(Reasoning::Low)
            .stream(true)
            .fields(&fields);
        assert_eq!(
            provider.body(&turn).unwrap_err().kind(),
            BodyErrorKind::Caller(CallerPart::ParamConflict { param, field }),
            "{provider}"
        );
    }
}
