//! Every rendered request validates against its provider's official, pinned schema, and
//! passes a check for each rule the schema cannot catch (`specs/SOURCES.md` in this package).

use transcript_replay_conformance::json::{is_blank, strings};
use transcript_replay_conformance::{records as common, schemas};

use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use serde_json::{json, Value};
use transcript_replay::{
    anthropic, gemini, openai, parse_record, replay_messages, StoredMessage, Vision,
};

struct Specs {
    openai: Validator,
    anthropic: Validator,
    gemini: Validator,
}

/// The validators of the three whole requests, built once.
fn specs() -> &'static Specs {
    static SPECS: OnceLock<Specs> = OnceLock::new();
    SPECS.get_or_init(|| Specs {
        openai: schemas::openai().validator("CreateChatCompletionRequest"),
        anthropic: schemas::anthropic().validator("CreateMessageParams"),
        gemini: schemas::gemini().validator("GenerateContentRequest"),
    })
}

fn has_null(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.iter().any(has_null),
        Value::Object(map) => map.values().any(has_null),
        Value::Bool(_) | Value::Number(_) | Value::String(_) => false,
    }
}

/// The checks the OpenAI schema cannot make.
fn openai_rules(fragment: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    for (index, message) in fragment["messages"].as_array().unwrap().iter().enumerate() {
        match &message["content"] {
            Value::String(text) if text.is_empty() => {
                broken.push(format!("message {index}: empty content"))
            }
            Value::Array(parts) => {
                if parts.is_empty() {
                    broken.push(format!("message {index}: no parts"));
                }
                for part in parts {
                    if part["type"] == "image_url" {
                        if message["role"] != "user" {
                            broken.push(format!("message {index}: image outside a user message"));
                        }
                        let url = part["image_url"]["url"].as_str().unwrap();
                        let media_type = url
                            .strip_prefix("data:")
                            .and_then(|url| url.split_once(";base64,"));
                        match media_type {
                            Some((media_type, data)) => {
                                if !openai::MEDIA_TYPES.contains(&media_type) {
                                    broken
                                        .push(format!("message {index}: media type {media_type}"));
                                }
                                if data.len() > openai::MAX_IMAGE_BASE64_LEN {
                                    broken.push(format!("message {index}: image too large"));
                                }
                            }
                            None => broken.push(format!("message {index}: not a base64 data URL")),
                        }
                    } else if part["text"].as_str().is_some_and(str::is_empty) {
                        broken.push(format!("message {index}: empty text part"));
                    }
                }
            }
            _ => {}
        }
    }
    broken
}

/// The checks the Anthropic schema cannot make.
fn anthropic_rules(fragment: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    if let Some(system) = fragment.get("system") {
        if is_blank(system.as_str().unwrap()) {
            broken.push("blank system".to_owned());
        }
    }
    let messages = fragment["messages"].as_array().unwrap();
    for (index, message) in messages.iter().enumerate() {
        let blocks = message["content"].as_array().unwrap();
        if blocks.is_empty() {
            broken.push(format!("message {index}: no blocks"));
        }
        for block in blocks {
            match block["type"].as_str().unwrap() {
                "text" if is_blank(block["text"].as_str().unwrap()) => {
                    broken.push(format!("message {index}: blank text block"));
                }
                "image" => {
                    if message["role"] != "user" {
                        broken.push(format!("message {index}: image outside a user message"));
                    }
                    if block["source"]["data"].as_str().unwrap().len()
                        > anthropic::MAX_IMAGE_BASE64_LEN
                    {
                        broken.push(format!("message {index}: image over 5 MB"));
                    }
                }
                _ => {}
            }
        }
    }
    if let Some(last) = messages.last().filter(|last| last["role"] == "assistant") {
        let text = last["content"]
            .as_array()
            .unwrap()
            .last()
            .and_then(|block| block["text"].as_str());
        if text.is_some_and(|text| text.ends_with(|c: char| is_blank(&c.to_string()))) {
            broken.push("the final assistant message ends in white space".to_owned());
        }
    }
    broken
}

/// The checks the loose Gemini export cannot make.
fn gemini_rules(fragment: &Value) -> Vec<String> {
    let mut broken = Vec::new();
    let mut contents: Vec<(String, &Value)> = fragment["contents"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(index, content)| (format!("content {index}"), content))
        .collect();
    if let Some(system) = fragment.get("systemInstruction") {
        contents.push(("systemInstruction".to_owned(), system));
    }
    let roles: Vec<&Value> = fragment["contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|content| &content["role"])
        .collect();
    for (index, pair) in roles.windows(2).enumerate() {
        if pair[0] == pair[1] {
            broken.push(format!(
                "contents {index} and {}: two {} turns in a row",
                index + 1,
                pair[0]
            ));
        }
    }
    for (name, content) in contents {
        let role = content.get("role").and_then(Value::as_str);
        if name != "systemInstruction" && !matches!(role, Some("user" | "model")) {
            broken.push(format!("{name}: role {role:?}"));
        }
        let parts = content["parts"].as_array().unwrap();
        if parts.is_empty() {
            broken.push(format!("{name}: empty parts"));
        }
        for part in parts {
            let object = part.as_object().unwrap();
            if object.len() != 1 {
                broken.push(format!("{name}: a part with {} data fields", object.len()));
            }
            if let Some(text) = part.get("text") {
                if is_blank(text.as_str().unwrap()) {
                    broken.push(format!("{name}: blank text part"));
                }
            }
            if let Some(blob) = part.get("inlineData") {
                let keys: Vec<&String> = blob.as_object().unwrap().keys().collect();
                if keys != ["data", "mimeType"] {
                    broken.push(format!("{name}: blob keys {keys:?}"));
                }
                if !blob["mimeType"].as_str().is_some_and(|media_type| {
                    gemini::MEDIA_TYPES.contains(&media_type)
                        || gemini::FILE_TYPES.contains(&media_type)
                }) {
                    broken.push(format!("{name}: media type {}", blob["mimeType"]));
                }
            }
        }
    }
    broken
}

/// Renders a record for every provider and vision, and returns what is wrong with each
/// request: schema errors, broken rules, `null`s, and image data inside text.
fn problems(specs: &Specs, record: &[StoredMessage]) -> Vec<String> {
    let mut problems = Vec::new();
    let image_data: Vec<&str> = record
        .iter()
        .flat_map(|message| &message.blocks)
        .filter_map(|block| match block {
            transcript_replay::Block::Image { data, .. } => {
                common::distinctive(data).then_some(data.as_str())
            }
            transcript_replay::Block::Text { .. }
            | transcript_replay::Block::ToolUse { .. }
            | transcript_replay::Block::ToolResult { .. }
            | transcript_replay::Block::Reasoning { .. }
            | transcript_replay::Block::File { .. }
            | transcript_replay::Block::Source { .. }
            | transcript_replay::Block::Compaction { .. }
            | transcript_replay::Block::Unknown { .. } => None,
        })
        .collect();
    for vision in [Vision::Sees, Vision::Blind] {
        let wire = replay_messages(record, vision);
        // The fragment carries the history; a request adds the turn being asked about.
        let next_turn = json!({"role": "user", "content": "Go on."});
        let fragments = [
            (
                "openai",
                serde_json::to_value(openai::render(&wire)).unwrap(),
            ),
            (
                "anthropic",
                serde_json::to_value(anthropic::render(&wire)).unwrap(),
            ),
            (
                "gemini",
                serde_json::to_value(gemini::render(&wire)).unwrap(),
            ),
        ];
        for (provider, fragment) in fragments {
            let mut request = fragment.clone();
            let (validator, broken) = match provider {
                "openai" => {
                    request["model"] = json!("gpt-4o");
                    request["messages"]
                        .as_array_mut()
                        .unwrap()
                        .push(next_turn.clone());
                    (&specs.openai, openai_rules(&fragment))
                }
                "anthropic" => {
                    request["model"] = json!("claude-sonnet-4-5");
                    request["max_tokens"] = json!(1024);
                    request["messages"].as_array_mut().unwrap().push(
                        json!({"role": "user", "content": [{"type": "text", "text": "Go on."}]}),
                    );
                    // A fragment's last assistant message is not final: the live turn follows.
                    (&specs.anthropic, anthropic_rules(&request))
                }
                _ => {
                    request["model"] = json!("models/gemini-2.5-flash");
                    request["contents"]
                        .as_array_mut()
                        .unwrap()
                        .push(json!({"role": "user", "parts": [{"text": "Go on."}]}));
                    (&specs.gemini, gemini_rules(&fragment))
                }
            };
            let mut found = schemas::errors(validator, &request);
            found.extend(broken);
            if has_null(&fragment) {
                found.push("a null".to_owned());
            }
            for text in strings(&fragment) {
                for data in &image_data {
                    if text.contains(data)
                        && text != *data
                        && !text.ends_with(&format!(";base64,{data}"))
                    {
                        found.push("image data inside a text".to_owned());
                    }
                }
            }
            problems.extend(
                found
                    .into_iter()
                    .map(|problem| format!("{provider} ({vision:?}): {problem}")),
            );
        }
    }
    problems
}

#[test]
fn the_bundled_conversation_renders_to_valid_requests() {
    let specs = specs();
    let record = parse_record(include_str!("../../../examples/sample-conversation.json")).unwrap();
    let problems = problems(specs, &record);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_schemas_reject_what_the_renderers_must_never_emit() {
    let specs = specs();
    // A guard on the guard: each validator refuses a request its provider rejects.
    let openai = json!({"model": "m", "messages": [{"role": "assistant", "content": [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]});
    assert!(!specs.openai.is_valid(&openai));
    let anthropic =
        json!({"model": "m", "max_tokens": 1, "messages": [{"role": "system", "content": "x"}]});
    assert!(!specs.anthropic.is_valid(&anthropic));
    let anthropic = json!({"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/heic", "data": "AAAA"}}]}]});
    assert!(!specs.anthropic.is_valid(&anthropic));
    let gemini = json!({"model": "m", "contents": [{"role": "user", "parts": [{"text": 5}]}]});
    assert!(!specs.gemini.is_valid(&gemini));
    // And the rule checks catch what the schemas let through.
    assert!(!anthropic_rules(
        &json!({"messages": [{"role": "assistant", "content": [{"type": "text", "text": "a "}]}]})
    )
    .is_empty());
    assert!(!anthropic_rules(
        &json!({"messages": [{"role": "user", "content": [{"type": "text", "text": " "}]}]})
    )
    .is_empty());
    assert!(!gemini_rules(&json!({"contents": [{"role": "assistant", "parts": []}]})).is_empty());
    assert!(!gemini_rules(&json!({"contents": [
        {"role": "user", "parts": [{"text": "a"}]},
        {"role": "user", "parts": [{"text": "b"}]}
    ]}))
    .is_empty());
    assert!(!gemini_rules(
        &json!({"contents": [{"role": "user", "parts": [{"text": "a", "inlineData": {}}]}]})
    )
    .is_empty());
    assert!(!openai_rules(&json!({"messages": [{"role": "user", "content": ""}]})).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_generated_record_renders_to_requests_each_provider_accepts(record in common::record()) {
        let specs = specs();
        let problems = problems(specs, &record);
        prop_assert!(problems.is_empty(), "{:#?}", problems);
    }
}
