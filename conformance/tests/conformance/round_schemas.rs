//! Every body with generated tools and rounds in flight validates against its provider's full
//! pinned request schema, keeps every opaque part of each reply (signatures, encrypted and
//! redacted reasoning, thinking text with its escapes, the reply's own whitespace) byte for
//! byte, links every call to exactly one result in the calls' order, sends back no id the
//! crate made, and sends each tool image natively or as its marker, priced as an image.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use transcript_replay::{
    cost::image_tokens, Priced, Provider, StoredMessage, Tool, ToolChoice, ToolOutput, Turn, Vision,
};
use transcript_replay_conformance::json::is_blank;
use transcript_replay_conformance::{records, schemas};

/// The tools every case declares; calls name them.
const NAMES: [&str; 4] = ["read", "ls", "run_cmd", "A-b_9"];

struct Validators {
    openai: Validator,
    anthropic: Validator,
    gemini: Validator,
    responses: Validator,
    responses_items: BTreeMap<&'static str, Validator>,
}

fn validators() -> &'static Validators {
    static VALIDATORS: OnceLock<Validators> = OnceLock::new();
    VALIDATORS.get_or_init(|| Validators {
        openai: schemas::openai().validator("CreateChatCompletionRequest"),
        anthropic: schemas::anthropic().validator("CreateMessageParams"),
        gemini: schemas::gemini().validator("GenerateContentRequest"),
        responses: schemas::openai().validator("CreateResponse"),
        // `InputItem` is a oneOf whose branches overlap (SOURCES.md): each item is checked
        // against the branch it is.
        responses_items: [
            ("message", "EasyInputMessage"),
            ("output message", "OutputMessage"),
            ("reasoning", "ReasoningItem"),
            ("function_call", "FunctionToolCall"),
            ("function_call_output", "FunctionCallOutputItemParam"),
        ]
        .into_iter()
        .map(|(kind, schema)| (kind, schemas::openai().validator(schema)))
        .collect(),
    })
}

#[derive(Debug, Clone)]
struct Call {
    name: &'static str,
    /// The arguments, as the compact JSON text of an object.
    args: String,
    /// Whether a Gemini call carries its own id.
    has_id: bool,
}

#[derive(Debug, Clone)]
struct Output {
    text: String,
    is_error: bool,
    images: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
struct Round {
    thinking: Option<(String, String)>,
    redacted: Option<String>,
    text: String,
    calls: Vec<(Call, Output)>,
    /// The outputs are given in the calls' order reversed.
    reversed: bool,
    /// The reply is pretty-printed, so its own whitespace must survive.
    pretty: bool,
}

#[derive(Debug, Clone)]
struct Case {
    descriptions: Vec<(String, Option<bool>)>,
    choice: Option<ToolChoice>,
    rounds: Vec<Round>,
    vision: Vision,
    cache: bool,
}

/// Output and reply text of every kind, but none that forges the crate's image marker, which
/// the test counts.
fn text() -> impl Strategy<Value = String> {
    records::text().prop_filter("no forged marker", |text| !text.contains("[Image ("))
}

fn opaque() -> impl Strategy<Value = String> {
    "[A-Za-z0-9+/=_-]{1,40}"
}

fn image() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        4 => proptest::sample::select(records::IMAGES.to_vec()).prop_map(|data| ("image/png".to_owned(), data.to_owned())),
        // Not one that forges the marker, which the test counts.
        1 => (records::media_type().prop_filter("no forged marker", |media_type| !media_type.contains("not shown")), "[A-Za-z0-9+/]{0,8}={0,2}"),
    ]
}

fn call() -> impl Strategy<Value = (Call, Output)> {
    (
        proptest::sample::select(NAMES.to_vec()),
        prop_oneof![
            Just("{}".to_owned()),
            text().prop_map(|path| json!({ "path": path }).to_string())
        ],
        any::<bool>(),
        text(),
        any::<bool>(),
        proptest::collection::vec(image(), 0..3),
    )
        .prop_map(|(name, args, has_id, text, is_error, images)| {
            (
                Call { name, args, has_id },
                Output {
                    text,
                    is_error,
                    images,
                },
            )
        })
}

fn round() -> impl Strategy<Value = Round> {
    (
        proptest::option::of((text(), opaque())),
        proptest::option::of(opaque()),
        text(),
        proptest::collection::vec(call(), 1..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(thinking, redacted, text, calls, reversed, pretty)| Round {
                thinking,
                redacted,
                text,
                calls,
                reversed,
                pretty,
            },
        )
}

fn case() -> impl Strategy<Value = Case> {
    (
        proptest::collection::vec((text(), proptest::option::of(any::<bool>())), NAMES.len()),
        proptest::option::of(prop_oneof![
            Just(ToolChoice::Auto),
            Just(ToolChoice::None),
            Just(ToolChoice::Required),
            proptest::sample::select(NAMES.to_vec())
                .prop_map(|name| ToolChoice::Tool(name.to_owned())),
        ]),
        proptest::collection::vec(round(), 1..4),
        prop_oneof![Just(Vision::Sees), Just(Vision::Blind)],
        any::<bool>(),
    )
        .prop_map(|(descriptions, choice, rounds, vision, cache)| Case {
            descriptions,
            choice,
            rounds,
            vision,
            cache,
        })
}

/// The id of call `k` of round `r`, as the provider gives it; Gemini's calls without one get
/// the crate's.
fn id(provider: Provider, r: usize, k: usize, call: &Call) -> String {
    match provider {
        Provider::Gemini if !call.has_id => format!("made_0_{k}"),
        _ => format!("call-{r}-{k}"),
    }
}

/// A reply body of the provider that calls the round's tools, with its opaque state.
fn reply(provider: Provider, r: usize, round: &Round) -> String {
    let args = |call: &Call| -> Value { serde_json::from_str(&call.args).unwrap() };
    let calls = || round.calls.iter().map(|(call, _)| call).enumerate();
    let value = match provider {
        Provider::OpenAi => {
            let mut message = json!({"role": "assistant", "refusal": null, "annotations": []});
            message["content"] = match round.text.is_empty() {
                true => Value::Null,
                false => Value::from(round.text.clone()),
            };
            if let Some((thinking, _)) = &round.thinking {
                message["reasoning_content"] = Value::from(thinking.clone());
            }
            message["tool_calls"] = calls()
                .map(|(k, call)| {
                    json!({"id": id(provider, r, k, call), "type": "function",
                    "function": {"name": call.name, "arguments": call.args}})
                })
                .collect();
            json!({"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]})
        }
        Provider::OpenAiResponses => {
            let mut output = Vec::new();
            if let Some((thinking, signature)) = &round.thinking {
                output.push(json!({"type": "reasoning", "id": format!("rs_{r}"),
                    "summary": [{"type": "summary_text", "text": thinking}], "encrypted_content": signature}));
            }
            if !round.text.is_empty() {
                output.push(json!({"type": "message", "id": format!("msg_{r}"), "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": round.text, "annotations": [], "logprobs": []}]}));
            }
            for (k, call) in calls() {
                output.push(json!({"type": "function_call", "id": format!("fc_{r}_{k}"), "status": "completed",
                    "call_id": id(provider, r, k, call), "name": call.name, "arguments": call.args}));
            }
            json!({"id": "resp_1", "object": "response", "status": "completed", "output": output})
        }
        Provider::Anthropic => {
            let mut content = Vec::new();
            if let Some((thinking, signature)) = &round.thinking {
                content.push(
                    json!({"type": "thinking", "thinking": thinking, "signature": signature}),
                );
            }
            if let Some(data) = &round.redacted {
                content.push(json!({"type": "redacted_thinking", "data": data}));
            }
            content.push(json!({"type": "text", "text": round.text}));
            for (k, call) in calls() {
                content.push(json!({"type": "tool_use", "id": id(provider, r, k, call), "name": call.name, "input": args(call)}));
            }
            json!({"role": "assistant", "content": content, "stop_reason": "tool_use"})
        }
        Provider::Gemini => {
            let mut parts = Vec::new();
            if let Some((thinking, _)) = &round.thinking {
                parts.push(json!({"text": thinking, "thought": true}));
            }
            if !round.text.is_empty() {
                parts.push(json!({"text": round.text}));
            }
            for (k, call) in calls() {
                let mut function = json!({"name": call.name, "args": args(call)});
                if call.has_id {
                    function["id"] = Value::from(id(provider, r, k, call));
                }
                let mut part = json!({ "functionCall": function });
                // Gemini 3 signs the first call of a step.
                if let (0, Some((_, signature))) = (k, &round.thinking) {
                    part["thoughtSignature"] = Value::from(signature.clone());
                }
                parts.push(part);
            }
            json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]})
        }
        Provider::Bedrock => {
            let mut content = Vec::new();
            if let Some((thinking, signature)) = &round.thinking {
                content.push(json!({"reasoningContent": {"reasoningText": {"text": thinking, "signature": signature}}}));
            }
            if let Some(data) = &round.redacted {
                content.push(json!({"reasoningContent": {"redactedContent": data}}));
            }
            content.push(json!({"text": round.text}));
            for (k, call) in calls() {
                content.push(json!({"toolUse": {"toolUseId": id(provider, r, k, call), "name": call.name, "input": args(call)}}));
            }
            json!({"output": {"message": {"role": "assistant", "content": content}}, "stopReason": "tool_use"})
        }
        other => panic!("no reply for {other}"),
    };
    match round.pretty {
        true => serde_json::to_string_pretty(&value).unwrap(),
        false => value.to_string(),
    }
}

/// Whether the provider can take the case at all: Bedrock has no `none` choice, Gemini no
/// strict flag.
fn refused(case: &Case, provider: Provider) -> Option<&'static str> {
    match provider {
        Provider::Bedrock if case.choice == Some(ToolChoice::None) => {
            Some("Bedrock cannot express the tool choice `none`")
        }
        Provider::Gemini
            if case
                .descriptions
                .iter()
                .any(|(_, strict)| *strict == Some(true)) =>
        {
            Some("asks for strict input, and Gemini has no such flag")
        }
        _ => None,
    }
}

/// The ids the body's results carry, in order, with the name where the provider writes it.
fn results(body: &Value, provider: Provider) -> Vec<(Option<String>, Option<String>)> {
    let text = |value: &Value| value.as_str().map(str::to_owned);
    let mut found = Vec::new();
    match provider {
        Provider::OpenAi => {
            for message in body["messages"].as_array().unwrap() {
                if message["role"] == "tool" {
                    found.push((text(&message["tool_call_id"]), None));
                }
            }
        }
        Provider::OpenAiResponses => {
            for item in body["input"].as_array().unwrap() {
                if item["type"] == "function_call_output" {
                    found.push((text(&item["call_id"]), None));
                }
            }
        }
        Provider::Anthropic => {
            for message in body["messages"].as_array().unwrap() {
                for block in message["content"].as_array().unwrap() {
                    if block["type"] == "tool_result" {
                        found.push((text(&block["tool_use_id"]), None));
                    }
                }
            }
        }
        Provider::Gemini => {
            for content in body["contents"].as_array().unwrap() {
                for part in content["parts"].as_array().unwrap() {
                    let response = &part["functionResponse"];
                    if response.is_object() {
                        found.push((text(&response["id"]), text(&response["name"])));
                    }
                }
            }
        }
        Provider::Bedrock => {
            for message in body["messages"].as_array().unwrap() {
                for block in message["content"].as_array().unwrap() {
                    if block["toolResult"].is_object() {
                        found.push((text(&block["toolResult"]["toolUseId"]), None));
                    }
                }
            }
        }
        other => panic!("no body for {other}"),
    }
    found
}

/// The native images of a body, wherever they are.
fn native_images(value: &Value) -> usize {
    match value {
        Value::Object(map) => {
            let here = usize::from(
                map.contains_key("image_url")
                    || map.contains_key("inlineData")
                    || map.get("type") == Some(&json!("image"))
                    || map
                        .get("image")
                        .is_some_and(|image| image.get("format").is_some()),
            );
            here + map.values().map(native_images).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(native_images).sum(),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => 0,
    }
}

fn problems(case: &Case, provider: Provider) -> Vec<String> {
    let mut problems = Vec::new();
    let tools: Vec<Tool> = NAMES
        .iter()
        .zip(&case.descriptions)
        .map(|(name, (description, strict))| {
            let tool = Tool::new(
                *name,
                description.clone(),
                r#"{"type":"object","additionalProperties":true}"#,
            )
            .unwrap();
            match strict {
                Some(strict) => tool.strict(*strict),
                None => tool,
            }
        })
        .collect();
    let replies: Vec<String> = case
        .rounds
        .iter()
        .enumerate()
        .map(|(r, round)| reply(provider, r, round))
        .collect();
    let read: Vec<_> = replies
        .iter()
        .map(|text| provider.read_reply(text).unwrap())
        .collect();
    let outputs: Vec<Vec<ToolOutput>> = case
        .rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            let mut outputs: Vec<ToolOutput> = round
                .calls
                .iter()
                .enumerate()
                .map(|(k, (call, output))| {
                    let mut given = match output.is_error {
                        true => ToolOutput::error(id(provider, r, k, call), output.text.clone()),
                        false => ToolOutput::ok(id(provider, r, k, call), output.text.clone()),
                    };
                    for (media_type, data) in &output.images {
                        given = given.with_image(media_type.clone(), data.clone());
                    }
                    given
                })
                .collect();
            if round.reversed {
                outputs.reverse();
            }
            outputs
        })
        .collect();
    let fields = match provider {
        Provider::OpenAi | Provider::OpenAiResponses => json!({"model": "test-model"}),
        Provider::Anthropic => json!({"model": "test-model", "max_tokens": 1024}),
        Provider::Gemini | Provider::Bedrock => json!({}),
        other => panic!("no fields for {other}"),
    };
    let history = [StoredMessage::user("Do the work.")];
    let mut turn = Turn::new(&history)
        .without_preamble()
        .vision(case.vision)
        .tools(&tools)
        .fields(&fields);
    if let Some(choice) = &case.choice {
        turn = turn.tool_choice(choice.clone());
    }
    if case.cache {
        turn = turn.cache(transcript_replay::Cache::FiveMinutes);
    }
    for (reply, outputs) in read.iter().zip(&outputs) {
        turn = turn.round(reply, outputs);
    }
    let built = provider.body(&turn);
    let body = match (built, refused(case, provider)) {
        (Ok(body), None) => body,
        (Err(error), Some(reason)) if error.to_string().contains(reason) => return problems,
        (built, reason) => {
            return vec![format!(
                "built {:?}, expected a refusal {reason:?}",
                built.map(|_| "a body")
            )]
        }
    };
    let text = serde_json::to_string(&body).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();

    // The full schema.
    let validators = validators();
    match provider {
        Provider::OpenAi => problems.extend(schemas::errors(&validators.openai, &value)),
        Provider::Anthropic => problems.extend(schemas::errors(&validators.anthropic, &value)),
        Provider::Gemini => {
            // The export wrongly requires `model` in the body (SOURCES.md).
            let mut instance = value.clone();
            instance["model"] = json!("models/test-model");
            problems.extend(schemas::errors(&validators.gemini, &instance));
        }
        Provider::OpenAiResponses => {
            let mut instance = value.clone();
            let items = instance.as_object_mut().unwrap().remove("input").unwrap();
            problems.extend(schemas::errors(&validators.responses, &instance));
            for item in items.as_array().unwrap() {
                // A reply's own message item has its id; the crate's turns have none.
                let kind = match (item["type"].as_str(), item.get("id")) {
                    (Some("message") | None, Some(_)) => "output message",
                    (Some(kind), _) => kind,
                    (None, None) => "message",
                };
                match validators.responses_items.get(kind) {
                    Some(validator) => problems.extend(schemas::errors(validator, item)),
                    None => problems.push(format!("an input item of type {kind}")),
                }
            }
        }
        Provider::Bedrock => problems.extend(schemas::bedrock_errors("ConverseRequest", &value)),
        other => panic!("no schema for {other}"),
    }

    // The reply's own content, byte for byte.
    for (reply, round) in read.iter().zip(&case.rounds) {
        for item in reply.native() {
            let kept: Vec<String> = match provider {
                // The message is written field by field, less its nulls, its other zero
                // values (an empty string, array or object) and its annotations.
                Provider::OpenAi => serde_json::from_str::<BTreeMap<String, Box<RawValue>>>(item)
                    .unwrap()
                    .into_iter()
                    .filter(|(key, value)| {
                        !["null", "\"\"", "[]", "{}"].contains(&value.get()) && key != "annotations"
                    })
                    .map(|(_, value)| value.get().to_owned())
                    .collect(),
                // A blank text block is left out.
                Provider::Anthropic | Provider::Bedrock
                    if serde_json::from_str::<Value>(item).unwrap()["text"]
                        .as_str()
                        .is_some_and(is_blank) =>
                {
                    Vec::new()
                }
                _ => vec![item.to_owned()],
            };
            for kept in kept {
                if !text.contains(&kept) {
                    problems.push(format!(
                        "the reply's {kept:?} is not in the body byte for byte"
                    ));
                }
            }
        }
        for opaque in round
            .thinking
            .iter()
            .map(|(_, signature)| signature)
            .chain(&round.redacted)
        {
            let carried = match provider {
                // Chat Completions carries no signature; Gemini no redacted reasoning.
                Provider::OpenAi => false,
                Provider::Gemini => round
                    .thinking
                    .as_ref()
                    .is_some_and(|(_, signature)| signature == opaque),
                Provider::OpenAiResponses => round
                    .thinking
                    .as_ref()
                    .is_some_and(|(_, signature)| signature == opaque),
                _ => true,
            };
            if carried && !text.contains(&format!("\"{opaque}\"")) {
                problems.push(format!("the opaque {opaque:?} is not in the body"));
            }
        }
    }

    // Linkage: one result per call, in the calls' order, and no made id sent back.
    let expected: Vec<(Option<String>, Option<String>)> = case
        .rounds
        .iter()
        .enumerate()
        .flat_map(|(r, round)| {
            round
                .calls
                .iter()
                .enumerate()
                .map(move |(k, (call, _))| match provider {
                    Provider::Gemini => (
                        call.has_id.then(|| id(provider, r, k, call)),
                        Some(call.name.to_owned()),
                    ),
                    _ => (Some(id(provider, r, k, call)), None),
                })
        })
        .collect();
    let found = results(&value, provider);
    if found != expected {
        problems.push(format!("results {found:?}, expected {expected:?}"));
    }
    if text.contains("made_") {
        problems.push("a made id is sent back".to_owned());
    }

    // Images: natively (priced as images) or as their marker, never their data as text.
    let estimate = body.estimate(image_tokens("claude").unwrap());
    let natives = native_images(&value);
    if estimate.images != natives {
        problems.push(format!("{} images priced, {natives} sent", estimate.images));
    }
    let given: usize = case
        .rounds
        .iter()
        .flat_map(|round| &round.calls)
        .map(|(_, output)| output.images.len())
        .sum();
    let markers = text.matches("not shown: ").count();
    if natives + markers != given {
        problems.push(format!(
            "{given} images given, {natives} sent and {markers} markers"
        ));
    }
    if case.vision == Vision::Blind && natives != 0 {
        problems.push("an image sent to a blind model".to_owned());
    }
    if estimate.bytes != text.len() {
        problems.push(format!(
            "the estimate's {} bytes, the body's {}",
            estimate.bytes,
            text.len()
        ));
    }
    problems
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_body_with_rounds_is_valid_keeps_the_replies_and_links_every_call(case in case()) {
        for provider in Provider::ALL {
            let problems = problems(&case, provider);
            prop_assert!(problems.is_empty(), "{}: {:#?}", provider, problems);
        }
    }
}

#[test]
fn the_checks_catch_a_body_that_breaks_linkage() {
    let body = json!({"messages": [{"role": "tool", "tool_call_id": "x", "content": "a"}]});
    assert_eq!(
        results(&body, Provider::OpenAi),
        [(Some("x".to_owned()), None)]
    );
    assert_eq!(
        native_images(&json!({"a": [{"inlineData": {}}, {"type": "image"}]})),
        2
    );
}
