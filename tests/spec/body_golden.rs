//! Whole request bodies, byte for byte: the system text S (instructions and preamble) and the
//! hoisted history system text H where each provider takes them, the live turn after the
//! history, tool screenshots carried to the next user message, Gemini's merged turns, the
//! caller's fields first and its own messages last, and an error for every body a provider
//! would reject.

use serde_json::json;
use transcript_replay::{
    anthropic, bedrock, gemini, openai, openai_responses, Block, BodyError, Role, StoredMessage,
    Turn, Vision, REPLAY_PREAMBLE,
};

/// A 1x1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";

#[derive(Clone, Copy, Debug)]
enum Provider {
    OpenAi,
    Anthropic,
    Gemini,
    OpenAiResponses,
    Bedrock,
}

const PROVIDERS: [Provider; 5] = [
    Provider::OpenAi,
    Provider::Anthropic,
    Provider::Gemini,
    Provider::OpenAiResponses,
    Provider::Bedrock,
];

fn body(provider: Provider, turn: &Turn<'_>) -> Result<String, BodyError> {
    Ok(match provider {
        Provider::OpenAi => serde_json::to_string(&openai::body(turn)?).unwrap(),
        Provider::Anthropic => serde_json::to_string(&anthropic::body(turn)?).unwrap(),
        Provider::Gemini => serde_json::to_string(&gemini::body(turn)?).unwrap(),
        Provider::OpenAiResponses => serde_json::to_string(&openai_responses::body(turn)?).unwrap(),
        Provider::Bedrock => serde_json::to_string(&bedrock::body(turn)?).unwrap(),
    })
}

/// A computer-use round: the user asks, the assistant calls a tool, the tool's result comes
/// back with a screenshot.
fn screenshot_round() -> Vec<StoredMessage> {
    vec![
        StoredMessage::system("Summary: the app was opened."),
        StoredMessage::user("Is the button blue?"),
        StoredMessage::new(
            Role::Assistant,
            vec![Block::tool_use("t1", "screenshot", "{}")],
        ),
        StoredMessage::new(
            Role::Tool,
            vec![
                Block::tool_result("t1", "screenshot", "captured"),
                Block::image("image/png", PNG),
            ],
        ),
    ]
}

#[test]
fn each_provider_places_the_system_text_and_the_live_turn_as_its_api_says() {
    let history = screenshot_round();
    let live = [StoredMessage::user("Well?")];
    let turn = Turn::new(&history)
        .instructions("Be brief.")
        .without_preamble()
        .live(&live);
    // (provider, the exact body)
    let cases = [
        (
            Provider::OpenAi,
            concat!(
                r#"{"messages":[{"role":"system","content":"Be brief."},"#,
                r#"{"role":"system","content":"Summary: the app was opened."},"#,
                r#"{"role":"user","content":"Is the button blue?"},"#,
                r#"{"role":"assistant","content":"Tool use: screenshot({})"},"#,
                r#"{"role":"assistant","content":"Result (screenshot): captured\n\n[Image (image/png) not shown: it is shown in the next user message]"},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[Image (image/png) from an earlier turn]"},"#,
                r#"{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}},"#,
                r#"{"type":"text","text":"Well?"}]}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            concat!(
                r#"{"system":[{"type":"text","text":"Be brief."},{"type":"text","text":"Summary: the app was opened."}],"#,
                r#""messages":[{"role":"user","content":[{"type":"text","text":"Is the button blue?"}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Tool use: screenshot({})"}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Result (screenshot): captured\n\n[Image (image/png) not shown: it is shown in the next user message]"}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[Image (image/png) from an earlier turn]"},"#,
                r#"{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}},"#,
                r#"{"type":"text","text":"Well?"}]}]}"#,
            ),
        ),
        (
            Provider::Gemini,
            concat!(
                r#"{"systemInstruction":{"parts":[{"text":"Be brief."},{"text":"Summary: the app was opened."}]},"#,
                r#""contents":[{"role":"user","parts":[{"text":"Is the button blue?"}]},"#,
                r#"{"role":"model","parts":[{"text":"Tool use: screenshot({})\n\nResult (screenshot): captured"},"#,
                r#"{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
                r#"{"role":"user","parts":[{"text":"Well?"}]}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            concat!(
                r#"{"instructions":"Be brief.","input":[{"role":"system","content":"Summary: the app was opened."},"#,
                r#"{"role":"user","content":"Is the button blue?"},"#,
                r#"{"role":"assistant","content":"Tool use: screenshot({})"},"#,
                r#"{"role":"assistant","content":"Result (screenshot): captured\n\n[Image (image/png) not shown: it is shown in the next user message]"},"#,
                r#"{"role":"user","content":[{"type":"input_text","text":"[Image (image/png) from an earlier turn]"},"#,
                r#"{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC","detail":"auto"},"#,
                r#"{"type":"input_text","text":"Well?"}]}]}"#,
            ),
        ),
        (
            Provider::Bedrock,
            concat!(
                r#"{"system":[{"text":"Be brief."},{"text":"Summary: the app was opened."}],"#,
                r#""messages":[{"role":"user","content":[{"text":"Is the button blue?"}]},"#,
                r#"{"role":"assistant","content":[{"text":"Tool use: screenshot({})\n\nResult (screenshot): captured\n\n[Image (image/png) not shown: it is shown in the next user message]"}]},"#,
                r#"{"role":"user","content":[{"text":"[Image (image/png) from an earlier turn]"},"#,
                r#"{"image":{"format":"png","source":{"bytes":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}},"#,
                r#"{"text":"Well?"}]}]}"#,
            ),
        ),
    ];
    for (provider, expected) in cases {
        assert_eq!(body(provider, &turn).unwrap(), expected, "{provider:?}");
    }
}

#[test]
fn the_system_text_is_the_instructions_a_blank_line_and_the_preamble() {
    let history = [StoredMessage::user("Hi")];
    // (instructions, preamble, the system text S, or none)
    let cases = [
        (
            "Be brief.",
            true,
            Some(format!("Be brief.\n\n{REPLAY_PREAMBLE}")),
        ),
        ("", true, Some(REPLAY_PREAMBLE.to_owned())),
        (" \n\t", true, Some(REPLAY_PREAMBLE.to_owned())),
        ("Be brief.", false, Some("Be brief.".to_owned())),
        ("", false, None),
        (" \n", false, None),
    ];
    for (instructions, preamble, expected) in cases {
        let mut turn = Turn::new(&history).instructions(instructions);
        if !preamble {
            turn = turn.without_preamble();
        }
        let openai: serde_json::Value = serde_json::to_value(openai::body(&turn).unwrap()).unwrap();
        let anthropic: serde_json::Value =
            serde_json::to_value(anthropic::body(&turn).unwrap()).unwrap();
        let gemini: serde_json::Value = serde_json::to_value(gemini::body(&turn).unwrap()).unwrap();
        match &expected {
            Some(system) => {
                assert_eq!(
                    openai["messages"][0],
                    json!({"role": "system", "content": system})
                );
                assert_eq!(
                    anthropic["system"],
                    json!([{"type": "text", "text": system}])
                );
                assert_eq!(
                    gemini["systemInstruction"],
                    json!({"parts": [{"text": system}]})
                );
            }
            None => {
                assert_eq!(
                    openai["messages"][0],
                    json!({"role": "user", "content": "Hi"})
                );
                assert!(anthropic.get("system").is_none());
                assert!(gemini.get("systemInstruction").is_none());
            }
        }
    }
}

#[test]
fn the_callers_fields_come_first_in_their_order_and_appended_messages_last_verbatim() {
    #[derive(serde::Serialize)]
    struct Fields {
        model: &'static str,
        max_tokens: u32,
        stream: bool,
    }
    let history = [StoredMessage::user("List the files.")];
    let turn = Turn::new(&history)
        .without_preamble()
        .fields(&Fields {
            model: "claude-sonnet-4-5",
            max_tokens: 1024,
            stream: true,
        })
        .append(&json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]}))
        .append(&json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.rs"}]}));
    assert_eq!(
        body(Provider::Anthropic, &turn).unwrap(),
        concat!(
            r#"{"model":"claude-sonnet-4-5","max_tokens":1024,"stream":true,"#,
            r#""messages":[{"role":"user","content":[{"type":"text","text":"List the files."}]},"#,
            r#"{"content":[{"id":"toolu_1","input":{},"name":"ls","type":"tool_use"}],"role":"assistant"},"#,
            r#"{"content":[{"content":"a.rs","tool_use_id":"toolu_1","type":"tool_result"}],"role":"user"}]}"#,
        )
    );
}

#[test]
fn a_prefill_is_trimmed_for_anthropic_and_nothing_else_is() {
    let history = [
        StoredMessage::user("Name a colour. "),
        StoredMessage::assistant("Blue.\n"),
        StoredMessage::user("Another? "),
        StoredMessage::assistant("The colour is \n"),
    ];
    let turn = Turn::new(&history).without_preamble().prefill();
    assert_eq!(
        body(Provider::Anthropic, &turn).unwrap(),
        concat!(
            r#"{"messages":[{"role":"user","content":[{"type":"text","text":"Name a colour. "}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"Blue.\n"}]},"#,
            r#"{"role":"user","content":[{"type":"text","text":"Another? "}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"The colour is"}]}]}"#,
        )
    );
}

#[test]
fn a_screenshot_with_no_user_message_after_it_stays_a_marker() {
    let history = screenshot_round();
    let fragment = serde_json::to_string(&anthropic::render(&transcript_replay::replay_messages(
        &history,
        Vision::Sees,
    )))
    .unwrap();
    assert!(fragment
        .contains("[Image (image/png) not shown: Anthropic accepts images only in user messages]"));
    assert!(!fragment.contains(PNG));
}

#[test]
fn a_blind_model_gets_the_screenshot_as_a_marker_where_it_was_taken() {
    let history = screenshot_round();
    let live = [StoredMessage::user("Well?")];
    let turn = Turn::new(&history)
        .without_preamble()
        .vision(Vision::Blind)
        .live(&live);
    for provider in PROVIDERS {
        let json = body(provider, &turn).unwrap();
        assert!(
            json.contains("[Image (image/png) not shown: this model cannot view images]"),
            "{provider:?}: {json}"
        );
        assert!(!json.contains(PNG), "{provider:?}");
        assert!(!json.contains("from an earlier turn"), "{provider:?}");
    }
}

#[test]
fn gemini_merges_adjacent_turns_of_one_role_across_history_and_live_turn() {
    let history = [
        StoredMessage::user("Hi"),
        StoredMessage::system("Summary: greeting."),
        StoredMessage::assistant("Hello!"),
        StoredMessage::new(Role::Tool, vec![Block::tool_result("t", "ls", "a.rs")]),
        StoredMessage::user("Thanks."),
    ];
    let live = [StoredMessage::user("Bye.")];
    let turn = Turn::new(&history).without_preamble().live(&live);
    assert_eq!(
        body(Provider::Gemini, &turn).unwrap(),
        concat!(
            r#"{"contents":[{"role":"user","parts":[{"text":"Hi\n\n[System]: Summary: greeting."}]},"#,
            r#"{"role":"model","parts":[{"text":"Hello!\n\nResult (ls): a.rs"}]},"#,
            r#"{"role":"user","parts":[{"text":"Thanks.\n\nBye."}]}]}"#,
        )
    );
}

#[test]
fn a_body_a_provider_would_reject_is_an_error_that_names_the_rule() {
    let ends_on_assistant = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello!"),
    ];
    let only_system = [StoredMessage::system("Summary: nothing yet.")];
    let starts_on_assistant = [
        StoredMessage::system("Summary: nothing yet."),
        StoredMessage::assistant("Hello!"),
        StoredMessage::user("Hi"),
    ];
    let history = [StoredMessage::user("Hi")];
    // (provider, the turn, the exact error)
    let cases: Vec<(Provider, Turn<'_>, &str)> = vec![
        (
            Provider::OpenAi,
            Turn::new(&ends_on_assistant),
            "the request would end on an assistant turn: add the live turn",
        ),
        (
            Provider::Anthropic,
            Turn::new(&ends_on_assistant),
            "the request would end on an assistant turn: add the live turn (or ask for a prefill)",
        ),
        (
            Provider::Gemini,
            Turn::new(&ends_on_assistant),
            "the request would end on a model turn: add the live turn (Gemini rejects a request that ends on a model turn)",
        ),
        (
            Provider::Bedrock,
            Turn::new(&ends_on_assistant),
            "the request would end on an assistant turn: add the live turn (Bedrock rejects a request that ends on an assistant turn)",
        ),
        (
            Provider::Bedrock,
            Turn::new(&starts_on_assistant),
            "the request would start on an assistant turn, which Bedrock rejects (\"A conversation must start with a user message\"): the record has no user turn before it",
        ),
        (
            Provider::OpenAiResponses,
            Turn::new(&ends_on_assistant).prefill(),
            "a prefill was asked for, and OpenAI takes none",
        ),
        (
            Provider::OpenAiResponses,
            Turn::new(&history).fields(&json!({"input": "x"})),
            "the caller's field `input` is one the crate writes in a request to OpenAI",
        ),
        (
            Provider::Anthropic,
            Turn::new(&only_system),
            "the request has no conversation turn, which Anthropic rejects: add the live turn",
        ),
        (
            Provider::Gemini,
            Turn::new(&[]),
            "the request has no conversation turn, which Gemini rejects: add the live turn",
        ),
        (
            Provider::OpenAi,
            Turn::new(&[]).without_preamble(),
            "the request has no conversation turn, which OpenAI rejects: add the live turn",
        ),
        (
            Provider::Gemini,
            Turn::new(&ends_on_assistant).prefill(),
            "a prefill was asked for, and Gemini takes none",
        ),
        (
            Provider::OpenAi,
            Turn::new(&only_system),
            "the request has no conversation turn, which servers compatible with OpenAI's API reject: add the live turn",
        ),
        (
            Provider::OpenAiResponses,
            Turn::new(&[]),
            "the request has no conversation turn, which OpenAI rejects: add the live turn",
        ),
        (
            Provider::OpenAiResponses,
            Turn::new(&only_system),
            "the request has no conversation turn, which servers compatible with OpenAI's API reject: add the live turn",
        ),
        (
            Provider::Bedrock,
            Turn::new(&only_system),
            "the request has no conversation turn, which Bedrock rejects: add the live turn",
        ),
        (
            Provider::OpenAi,
            Turn::new(&history).append(&serde_json::Value::Null),
            "appended message 0 must be a JSON object, not null",
        ),
        (
            Provider::OpenAi,
            Turn::new(&history).append(&json!({"role": "tool", "tool_call_id": "c", "content": "x"})).append(&"text"),
            "appended message 1 must be a JSON object, not a string",
        ),
        (
            Provider::Anthropic,
            Turn::new(&history).append(&7),
            "appended message 0 must be a JSON object, not a number",
        ),
        (
            Provider::Bedrock,
            Turn::new(&history).append(&[1, 2]),
            "appended message 0 must be a JSON object, not an array",
        ),
        (
            Provider::OpenAi,
            Turn::new(&history).append(&json!({"role": 7})),
            r#"appended message 0 has the role 7, which is none of OpenAI's: expected "system", "developer", "user", "assistant", "tool" or "function""#,
        ),
        (
            Provider::Gemini,
            Turn::new(&history).append(&json!({"role": "assistant", "parts": [{"text": "x"}]})),
            r#"appended message 0 has the role "assistant", which is none of Gemini's: expected "user" or "model""#,
        ),
        (
            Provider::OpenAiResponses,
            Turn::new(&history).append(&json!({"role": "tool", "content": "x"})),
            r#"appended message 0 has the role "tool", which is none of OpenAI's: expected "system", "developer", "user" or "assistant""#,
        ),
        (
            Provider::Gemini,
            Turn::new(&history).append(&json!({"role": "user", "parts": [{"text": "more"}]})),
            "appended message 0 would follow a user turn with another, which Gemini rejects, and an appended message is sent as it is",
        ),
        (
            Provider::OpenAi,
            Turn::new(&history).append(&json!({"role": "assistant", "content": "I will"})),
            "the request would end on an assistant turn: add the live turn",
        ),
        (
            Provider::Anthropic,
            Turn::new(&history).fields(&json!({"system": "x"})),
            "the caller's field `system` is one the crate writes in a request to Anthropic",
        ),
        (
            Provider::Gemini,
            Turn::new(&history).fields(&json!({"contents": []})),
            "the caller's field `contents` is one the crate writes in a request to Gemini",
        ),
        (
            Provider::OpenAi,
            Turn::new(&history)
                .fields(&json!({"model": "a"}))
                .fields(&json!({"model": "b"})),
            "the caller's field `model` is given twice",
        ),
        (
            Provider::OpenAi,
            Turn::new(&history).fields(&["model"]),
            "the caller's fields must be a JSON object, not an array",
        ),
    ];
    let mut failures = Vec::new();
    for (provider, turn, expected) in &cases {
        match body(*provider, turn) {
            Ok(json) => failures.push(format!("{provider:?}: built {json}")),
            Err(error) if error.to_string() != *expected => {
                failures.push(format!("{provider:?}:\n  got  {error}\n  want {expected}"));
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_body_serializes_the_same_bytes_every_time() {
    let history = screenshot_round();
    let live = [StoredMessage::user("Well?")];
    let turn = Turn::new(&history).instructions("Be brief.").live(&live);
    for provider in [Provider::OpenAi, Provider::Anthropic, Provider::Gemini] {
        assert_eq!(
            body(provider, &turn).unwrap(),
            body(provider, &turn).unwrap()
        );
    }
}
