//! The round trip of a turn: for generated replies that validate against each provider's
//! response schema, reading the reply, appending it to the record, and building the next body
//! gives a body in which every text, every tool call (as `Tool use: name(args)` with the exact
//! arguments text) and every reasoning text of the reply appears.

use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use serde_json::{json, Value};
use transcript_replay::{anthropic, gemini, openai, StoredMessage, Turn};
use transcript_replay_conformance::json::{is_blank, strings};
use transcript_replay_conformance::{records, schemas};

/// One item of a reply's content, as the test generates it.
#[derive(Debug, Clone)]
enum Item {
    Text(String),
    Reasoning(String),
    Call {
        id: String,
        name: String,
        args: Value,
    },
}

fn item() -> impl Strategy<Value = Item> {
    let name = "[a-z_]{1,12}";
    let args = prop_oneof![
        Just(json!({})),
        records::text().prop_map(|path| json!({"path": path})),
        (any::<i32>(), any::<bool>())
            .prop_map(|(n, flag)| json!({"n": n, "flags": [flag], "nested": {"x": null}})),
    ];
    prop_oneof![
        records::text().prop_map(Item::Text),
        records::text().prop_map(Item::Reasoning),
        ("[a-zA-Z0-9_]{1,20}", name, args).prop_map(|(id, name, args)| Item::Call {
            id,
            name,
            args
        }),
    ]
}

struct Validators {
    openai: Validator,
    anthropic: Validator,
    gemini: Validator,
}

fn validators() -> &'static Validators {
    static VALIDATORS: OnceLock<Validators> = OnceLock::new();
    VALIDATORS.get_or_init(|| Validators {
        openai: schemas::openai().validator("CreateChatCompletionResponse"),
        anthropic: schemas::anthropic().validator("Message"),
        gemini: schemas::gemini().validator("GenerateContentResponse"),
    })
}

/// An OpenAI reply: the texts joined as the content (Chat Completions has one), the calls as
/// tool calls. OpenAI's schema has no reasoning text; those items are left out.
fn openai_reply(items: &[Item]) -> Value {
    let texts: Vec<&str> = items
        .iter()
        .filter_map(|item| match item {
            Item::Text(text) => Some(text.as_str()),
            Item::Reasoning(_) | Item::Call { .. } => None,
        })
        .collect();
    let calls: Vec<Value> = items
        .iter()
        .filter_map(|item| match item {
            Item::Call { id, name, args } => Some(json!({"id": id, "type": "function",
                "function": {"name": name, "arguments": args.to_string()}})),
            Item::Text(_) | Item::Reasoning(_) => None,
        })
        .collect();
    let mut message = json!({"role": "assistant", "content": texts.concat(), "refusal": null});
    if !calls.is_empty() {
        message["tool_calls"] = json!(calls);
    }
    json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
}

fn anthropic_reply(items: &[Item]) -> Value {
    let content: Vec<Value> = items
        .iter()
        .map(|item| match item {
            Item::Text(text) => json!({"type": "text", "text": text, "citations": null}),
            Item::Reasoning(text) => {
                json!({"type": "thinking", "thinking": text, "signature": "c2ln"})
            }
            Item::Call { id, name, args } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": args, "caller": {"type": "direct"}})
            }
        })
        .collect();
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": content, "stop_reason": "end_turn", "stop_sequence": null,
        "stop_details": null, "container": null,
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 2,
          "cache_read_input_tokens": 3, "cache_creation": null, "server_tool_use": null,
          "service_tier": "standard", "inference_geo": null}})
}

fn gemini_reply(items: &[Item]) -> Value {
    let parts: Vec<Value> = items
        .iter()
        .map(|item| match item {
            Item::Text(text) => json!({"text": text}),
            Item::Reasoning(text) => json!({"text": text, "thought": true}),
            Item::Call { name, args, .. } => json!({"functionCall": {"name": name, "args": args}}),
        })
        .collect();
    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}})
}

/// The items as a reply reader stores them: for Gemini, adjacent texts of one kind join into
/// one block (a text split across parts is one text).
fn stored(items: &[Item], gemini: bool) -> Vec<Item> {
    let mut stored: Vec<Item> = Vec::new();
    for item in items {
        match (stored.last_mut(), item) {
            (Some(Item::Text(joined)), Item::Text(text)) if gemini && !text.is_empty() => {
                joined.push_str(text)
            }
            (Some(Item::Reasoning(joined)), Item::Reasoning(text))
                if gemini && !text.is_empty() =>
            {
                joined.push_str(text)
            }
            (_, Item::Text(text) | Item::Reasoning(text)) if gemini && text.is_empty() => {}
            (_, item) => stored.push(item.clone()),
        }
    }
    stored
}

/// What the next body must show of the reply, as exact strings.
fn expected(items: &[Item], reply: &Value, openai: bool, gemini: bool) -> Vec<String> {
    let mut wanted = Vec::new();
    for item in &stored(items, gemini) {
        match item {
            Item::Text(text) if !openai && !is_blank(text) => wanted.push(text.clone()),
            // No reply stores an empty reasoning block.
            Item::Reasoning(text) if !openai && !text.is_empty() => {
                wanted.push(format!("[Reasoning]: {text}"))
            }
            Item::Call { name, args, .. } => {
                // The arguments as the reply's own text carried them.
                let text = if openai {
                    args.to_string()
                } else {
                    serde_json::to_string(args).unwrap()
                };
                wanted.push(format!("Tool use: {name}({text})"));
            }
            Item::Text(_) | Item::Reasoning(_) => {}
        }
    }
    if openai {
        let content = reply["choices"][0]["message"]["content"].as_str().unwrap();
        if !content.is_empty() {
            wanted.push(content.to_owned());
        }
    }
    wanted
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_text_call_and_reasoning_of_a_reply_reaches_the_next_body(
        record in records::record(),
        items in proptest::collection::vec(item(), 0..6),
    ) {
        let validators = validators();
        let live = [StoredMessage::user("Go on.")];
        for provider in ["openai", "anthropic", "gemini"] {
            let (reply, validator) = match provider {
                "openai" => (openai_reply(&items), &validators.openai),
                "anthropic" => (anthropic_reply(&items), &validators.anthropic),
                _ => (gemini_reply(&items), &validators.gemini),
            };
            let errors = schemas::errors(validator, &reply);
            prop_assert!(errors.is_empty(), "{} reply invalid: {:?}", provider, errors);
            let text = reply.to_string();
            let message = match provider {
                "openai" => openai::read_reply(&text),
                "anthropic" => anthropic::read_reply(&text),
                _ => gemini::read_reply(&text),
            };
            let message = message.map_err(|error| TestCaseError::fail(error.to_string()))?.message;
            let mut next = record.clone();
            next.push(message);
            let turn = Turn::new(&next).live(&live);
            let body = match provider {
                "openai" => serde_json::to_value(openai::body(&turn).unwrap()).unwrap(),
                "anthropic" => serde_json::to_value(anthropic::body(&turn).unwrap()).unwrap(),
                _ => serde_json::to_value(gemini::body(&turn).unwrap()).unwrap(),
            };
            let all = strings(&body);
            for wanted in expected(&items, &reply, provider == "openai", provider == "gemini") {
                prop_assert!(
                    all.iter().any(|text| text.contains(&wanted)),
                    "{}: {:?} is not in the body", provider, wanted
                );
            }
        }
    }
}
