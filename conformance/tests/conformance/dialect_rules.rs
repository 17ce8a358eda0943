//! A compatible server's bodies never break its dialect's rules, for any record: every body
//! builds with a live user turn and validates against OpenAI's pinned Chat Completions schema;
//! system text stands only first where the server takes it only there; user and assistant
//! turns alternate where the server wants them to; every native image and file is of a type
//! the server takes; no field the server refuses is written; and in a round, nothing follows
//! a `tool` message but the model's turn where the server refuses it, and no reasoning goes
//! back to a server that refuses it.

use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use serde_json::{json, Value};
use transcript_replay::{
    dialects::Roles, dialects::RoundReasoning, dialects::SystemText, dialects::ToolImages, Dialect,
    Provider, StoredMessage, Tool, ToolOutput, Turn, Vision,
};
use transcript_replay_conformance::{records, schemas};

fn validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| schemas::openai().validator("CreateChatCompletionRequest"))
}

/// The media type of a `data:` URL.
fn data_url_type(url: &str) -> &str {
    url.strip_prefix("data:")
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_default()
}

/// What in a body breaks the dialect's rules, said plainly; empty when nothing does.
fn broken_rules(dialect: &Dialect, body: &Value) -> Vec<String> {
    let mut problems: Vec<String> = schemas::errors(validator(), body);
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let roles: Vec<&str> = messages
        .iter()
        .map(|message| message["role"].as_str().unwrap_or_default())
        .collect();
    if dialect.system == SystemText::First {
        for (index, role) in roles.iter().enumerate().skip(1) {
            if *role == "system" {
                problems.push(format!("a system message at {index}"));
            }
        }
    }
    if dialect.roles == Roles::Alternate {
        for (index, pair) in roles.windows(2).enumerate() {
            if pair[0] == pair[1] && matches!(pair[0], "user" | "assistant") {
                problems.push(format!("two {} messages at {index}", pair[0]));
            }
        }
    }
    if dialect.tool_images == ToolImages::Marker {
        for (index, pair) in roles.windows(2).enumerate() {
            if pair[0] == "tool" && pair[1] == "user" {
                problems.push(format!("a user message after a tool message at {index}"));
            }
        }
    }
    for message in &messages {
        if dialect.round_reasoning == RoundReasoning::LeftOut && message["role"] == "assistant" {
            for field in ["reasoning", "reasoning_content"] {
                if message.get(field).is_some() {
                    problems.push(format!("an assistant message with `{field}`"));
                }
            }
        }
        for part in message["content"].as_array().into_iter().flatten() {
            match part["type"].as_str() {
                Some("image_url") => {
                    let media_type =
                        data_url_type(part["image_url"]["url"].as_str().unwrap_or_default());
                    if !dialect.image_types.contains(&media_type) {
                        problems.push(format!("an image of type {media_type}"));
                    }
                }
                Some("file") => {
                    let media_type =
                        data_url_type(part["file"]["file_data"].as_str().unwrap_or_default());
                    if !dialect.file_types.contains(&media_type) {
                        problems.push(format!("a file of type {media_type}"));
                    }
                }
                Some("input_audio") if dialect.file_types.is_empty() => {
                    problems.push("audio input".to_owned());
                }
                Some(_) | None => {}
            }
        }
    }
    for field in dialect.refused_fields {
        if body.get(field).is_some() {
            problems.push(format!("the refused field `{field}`"));
        }
    }
    problems
}

/// A reply of the OpenAI Chat surface that reasons and calls `look`, as the dialect reads it.
fn calling_reply(provider: Provider) -> transcript_replay::Reply {
    provider
        .read_reply(
            r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null, "reasoning_content": "Look first.",
                "tool_calls": [{"id": "call_1", "type": "function",
                                "function": {"name": "look", "arguments": "{}"}}]}}]}"#,
        )
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_dialects_body_keeps_its_rules(
        record in records::record(),
        instructions in any::<bool>(),
        sees in any::<bool>(),
    ) {
        let vision = if sees { Vision::Sees } else { Vision::Blind };
        let live = [StoredMessage::user("Go on.")];
        for dialect in Dialect::NAMED {
            let provider = Provider::Compatible(dialect);
            let mut turn = Turn::new(&record).vision(vision).live(&live);
            if instructions {
                turn = turn.instructions("Be brief.");
            }
            let body = provider.body(&turn).map_err(|error| {
                TestCaseError::fail(format!("{}: {error}", dialect.id))
            })?;
            let mut body = serde_json::to_value(&body).unwrap();
            body["model"] = json!("a-model");
            let problems = broken_rules(dialect, &body);
            prop_assert!(problems.is_empty(), "{}: {:?}\n{}", dialect.id, problems, body);
        }
    }

    #[test]
    fn every_dialects_round_keeps_its_rules(
        record in records::record_without_images(),
        image in 0..records::IMAGES.len(),
    ) {
        let live = [StoredMessage::user("Look.")];
        let tools = [Tool::new("look", "Looks.", "{}").unwrap()];
        for dialect in Dialect::NAMED {
            let provider = Provider::Compatible(dialect);
            let reply = calling_reply(provider);
            let outputs = [ToolOutput::ok("call_1", "Seen.")
                .with_image("image/png", records::IMAGES[image])];
            let turn = Turn::new(&record)
                .live(&live)
                .tools(&tools)
                .round(&reply, &outputs);
            let body = provider.body(&turn).map_err(|error| {
                TestCaseError::fail(format!("{}: {error}", dialect.id))
            })?;
            let mut body = serde_json::to_value(&body).unwrap();
            body["model"] = json!("a-model");
            let problems = broken_rules(dialect, &body);
            prop_assert!(problems.is_empty(), "{}: {:?}\n{}", dialect.id, problems, body);
        }
    }
}

/// The checks above can fail: OpenAI's own body breaks the rules of the servers that differ.
#[test]
fn the_rules_catch_an_openai_body_sent_to_a_strict_server() {
    let record = [
        StoredMessage::user("Hi."),
        StoredMessage::system("Summary so far."),
        StoredMessage::user("Still there?"),
    ];
    let turn = Turn::new(&record).instructions("Be brief.");
    let mut body = serde_json::to_value(Provider::OpenAi.body(&turn).unwrap()).unwrap();
    body["model"] = json!("a-model");
    let problems = broken_rules(&Dialect::VLLM, &body);
    assert!(
        problems
            .iter()
            .any(|problem| problem.starts_with("a system message at")),
        "{problems:?}"
    );
    let reply = calling_reply(Provider::OpenAi);
    let outputs = [ToolOutput::ok("call_1", "Seen.").with_image("image/png", records::IMAGES[0])];
    let tools = [Tool::new("look", "Looks.", "{}").unwrap()];
    let live = [StoredMessage::user("Look.")];
    let turn = Turn::new(&record)
        .live(&live)
        .tools(&tools)
        .round(&reply, &outputs);
    let mut body = serde_json::to_value(Provider::OpenAi.body(&turn).unwrap()).unwrap();
    body["model"] = json!("a-model");
    let mistral = broken_rules(&Dialect::MISTRAL, &body);
    assert!(
        mistral
            .iter()
            .any(|problem| problem.starts_with("a user message after a tool")),
        "{mistral:?}"
    );
    let groq = broken_rules(&Dialect::GROQ, &body);
    assert!(
        groq.iter()
            .any(|problem| problem.contains("reasoning_content")),
        "{groq:?}"
    );
}
