//! `Provider` is the one entry point: a runtime that talks to several providers builds bodies
//! and reads replies from a `Provider` value, with no `match` of its own, and gets what each
//! provider's module gives.

use serde_json::json;
use transcript_replay::{
    anthropic, bedrock, cost::image_tokens, gemini, openai, openai_responses, parse_record, Priced,
    Provider, StoredMessage, Turn,
};

const SAMPLE: &str = include_str!("../../examples/sample-conversation.json");

/// The module's own body, serialized, for comparison.
fn module_body(provider: Provider, turn: &Turn<'_>) -> String {
    match provider {
        Provider::OpenAi => serde_json::to_string(&openai::body(turn).unwrap()),
        Provider::OpenAiResponses => serde_json::to_string(&openai_responses::body(turn).unwrap()),
        Provider::Anthropic => serde_json::to_string(&anthropic::body(turn).unwrap()),
        Provider::Gemini => serde_json::to_string(&gemini::body(turn).unwrap()),
        Provider::Bedrock => serde_json::to_string(&bedrock::body(turn).unwrap()),
        other => panic!("a provider this test does not know: {other:?}"),
    }
    .unwrap()
}

#[test]
fn a_provider_builds_the_body_its_module_builds() {
    let record = parse_record(SAMPLE).unwrap();
    let live = [StoredMessage::user("Go on.")];
    let turn = Turn::new(&record)
        .instructions("Be brief.")
        .live(&live)
        .fields(&json!({"temperature": 0}));
    for provider in Provider::ALL {
        let body = provider.body(&turn).unwrap();
        assert_eq!(body.provider(), provider);
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            module_body(provider, &turn),
            "{provider:?}"
        );
    }
}

#[test]
fn one_body_serves_the_estimate_and_the_bytes() {
    let record = parse_record(SAMPLE).unwrap();
    let live = [StoredMessage::user("Go on.")];
    let turn = Turn::new(&record).live(&live);
    let rule = image_tokens("claude").unwrap();
    for provider in Provider::ALL {
        let body = provider.body(&turn).unwrap();
        let estimate = body.estimate(rule);
        assert_eq!(
            estimate.bytes,
            serde_json::to_vec(&body).unwrap().len(),
            "{provider:?}"
        );
        assert!(estimate.text_tokens > 0, "{provider:?}");
    }
}

#[test]
fn a_provider_refuses_the_body_its_module_refuses() {
    let ends_on_assistant = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello!"),
    ];
    let turn = Turn::new(&ends_on_assistant);
    for provider in Provider::ALL {
        let error = provider.body(&turn).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the request would end on an assistant turn")
                || error
                    .to_string()
                    .starts_with("the request would end on a model turn"),
            "{provider:?}: {error}"
        );
    }
}

#[test]
fn a_provider_reads_a_reply_as_its_module_does() {
    // (provider, a documented reply of its shape)
    let replies = [
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"role": "assistant", "content": "Yes."}, "finish_reason": "stop"}]}"#,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Yes."}]}]}"#,
        ),
        (
            Provider::Anthropic,
            r#"{"role": "assistant", "content": [{"type": "text", "text": "Yes."}], "stop_reason": "end_turn"}"#,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"role": "model", "parts": [{"text": "Yes."}]}, "finishReason": "STOP"}]}"#,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"role": "assistant", "content": [{"text": "Yes."}]}}, "stopReason": "end_turn"}"#,
        ),
    ];
    for (provider, reply) in replies {
        let module = match provider {
            Provider::OpenAi => openai::read_reply(reply),
            Provider::OpenAiResponses => openai_responses::read_reply(reply),
            Provider::Anthropic => anthropic::read_reply(reply),
            Provider::Gemini => gemini::read_reply(reply),
            Provider::Bedrock => bedrock::read_reply(reply),
            other => panic!("a provider this test does not know: {other:?}"),
        };
        assert_eq!(provider.read_reply(reply), module, "{provider:?}");
        assert_eq!(
            provider.read_reply(reply).unwrap().message,
            StoredMessage::assistant("Yes."),
            "{provider:?}"
        );
    }
}

#[test]
fn a_provider_is_named_by_its_id_and_read_back_from_it() {
    for provider in Provider::ALL {
        assert_eq!(provider.id().parse::<Provider>(), Ok(provider));
    }
    assert!("OpenAI".parse::<Provider>().is_err());
    assert_eq!(
        Provider::ALL.map(|provider| provider.to_string()),
        ["OpenAI", "OpenAI", "Anthropic", "Gemini", "Bedrock"]
    );
}

#[test]
fn a_provider_gives_the_limits_its_module_states() {
    let limits = Provider::ALL.map(Provider::limits);
    assert_eq!(
        limits,
        [
            openai::LIMITS,
            openai_responses::LIMITS,
            anthropic::LIMITS,
            gemini::LIMITS,
            bedrock::LIMITS
        ]
    );
}
