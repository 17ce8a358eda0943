//! The round in flight, byte for byte: each provider's reply goes back as it came (thinking
//! with its signature, redacted thinking, Gemini's `thoughtSignature`, Responses' reasoning
//! items, Bedrock's reasoning signature), then one result per call in the calls' order,
//! linked by the call's id, with the tool's images where the provider takes them, after the
//! tool declarations and the live turn; with caching, the last result carries a breakpoint.

use transcript_replay::{
    cost::image_tokens, Cache, Priced, Provider, Reply, StoredMessage, Tool, ToolChoice,
    ToolOutput, Turn, Vision,
};

/// A 1x1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";

fn tools() -> [Tool; 2] {
    [
        Tool::new(
            "read",
            "Reads a file.",
            r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}"#,
        )
        .unwrap(),
        Tool::new("ls", "", r#"{"type":"object"}"#).unwrap(),
    ]
}

/// Each provider's reply calling `read` and `ls` (no arguments) in parallel, with the state
/// the provider wants back, and the ids of its two calls.
const REPLIES: [(Provider, &str, [&str; 2]); 5] = [
    (
        Provider::OpenAi,
        concat!(
            r#"{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"refusal":null,"annotations":[],"#,
            r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}},"#,
            r#"{"id":"call_2","type":"function","function":{"name":"ls","arguments":"{}"}}]}}],"#,
            r#""usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}"#,
        ),
        ["call_1", "call_2"],
    ),
    (
        Provider::OpenAiResponses,
        concat!(
            r#"{"id":"resp_1","object":"response","status":"completed","output":["#,
            r#"{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"gAAAAB"},"#,
            r#"{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"read","arguments":"{\"path\":\"a.rs\"}"},"#,
            r#"{"id":"fc_2","type":"function_call","status":"completed","call_id":"call_2","name":"ls","arguments":"{}"}],"#,
            r#""usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}"#,
        ),
        ["call_1", "call_2"],
    ),
    (
        Provider::Anthropic,
        concat!(
            r#"{"id":"msg_1","type":"message","role":"assistant","content":["#,
            r#"{"type":"thinking","thinking":"Need both.","signature":"EqQBCkYIBxgC"},"#,
            r#"{"type":"redacted_thinking","data":"EmwKAhgB"},{"type":"text","text":""},"#,
            r#"{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.rs"}},"#,
            r#"{"type":"tool_use","id":"toolu_2","name":"ls","input":{}}],"#,
            r#""stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}"#,
        ),
        ["toolu_1", "toolu_2"],
    ),
    (
        Provider::Gemini,
        concat!(
            r#"{"candidates":[{"content":{"role":"model","parts":["#,
            r#"{"functionCall":{"name":"read","args":{"path":"a.rs"}},"thoughtSignature":"CiQB0e2K"},"#,
            r#"{"functionCall":{"name":"ls","args":{}}}]},"finishReason":"STOP"}],"#,
            r#""usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5}}"#,
        ),
        ["made_0_0", "made_0_1"],
    ),
    (
        Provider::Bedrock,
        concat!(
            r#"{"output":{"message":{"role":"assistant","content":["#,
            r#"{"reasoningContent":{"reasoningText":{"text":"Need both.","signature":"sig1"}}},"#,
            r#"{"toolUse":{"toolUseId":"tooluse_1","name":"read","input":{"path":"a.rs"}}},"#,
            r#"{"toolUse":{"toolUseId":"tooluse_2","name":"ls","input":{}}}]}},"#,
            r#""stopReason":"tool_use","usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15}}"#,
        ),
        ["tooluse_1", "tooluse_2"],
    ),
];

fn body(provider: Provider, turn: &Turn<'_>) -> String {
    serde_json::to_string(&provider.body(turn).unwrap()).unwrap()
}

#[test]
fn each_provider_writes_the_round_natively_after_the_live_turn() {
    let history = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello."),
    ];
    let live = [StoredMessage::user("What is in a.rs, and here?")];
    let tools = tools();
    let expected = [
        concat!(
            r#"{"tools":[{"type":"function","function":{"name":"read","description":"Reads a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}}},"#,
            r#"{"type":"function","function":{"name":"ls","parameters":{"type":"object"}}}],"tool_choice":"auto","messages":[{"role":"user","content":"Hi"},"#,
            r#"{"role":"assistant","content":"Hello."},"#,
            r#"{"role":"user","content":"What is in a.rs, and here?"},"#,
            r#"{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}},"#,
            r#"{"id":"call_2","type":"function","function":{"name":"ls","arguments":"{}"}}]},"#,
            r#"{"role":"tool","tool_call_id":"call_1","content":"fn main() {}"},"#,
            r#"{"role":"tool","tool_call_id":"call_2","content":"permission denied"},"#,
            r#"{"role":"user","content":[{"type":"text","text":"[Image from the result of read (call_1)]"},"#,
            r#"{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]}]}"#,
        ),
        concat!(
            r#"{"tools":[{"type":"function","name":"read","description":"Reads a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false},"strict":false},"#,
            r#"{"type":"function","name":"ls","parameters":{"type":"object"},"strict":false}],"tool_choice":"auto","input":[{"role":"user","content":"Hi"},"#,
            r#"{"role":"assistant","content":"Hello."},"#,
            r#"{"role":"user","content":"What is in a.rs, and here?"},"#,
            r#"{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"gAAAAB"},"#,
            r#"{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"read","arguments":"{\"path\":\"a.rs\"}"},"#,
            r#"{"id":"fc_2","type":"function_call","status":"completed","call_id":"call_2","name":"ls","arguments":"{}"},"#,
            r#"{"type":"function_call_output","call_id":"call_1","output":[{"type":"input_text","text":"fn main() {}"},"#,
            r#"{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC","detail":"auto"}]},"#,
            r#"{"type":"function_call_output","call_id":"call_2","output":"permission denied"}]}"#,
        ),
        concat!(
            r#"{"tools":[{"name":"read","description":"Reads a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}},{"name":"ls","input_schema":{"type":"object"}}],"#,
            r#""tool_choice":{"type":"auto"},"messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"Hello.","cache_control":{"type":"ephemeral"}}]},"#,
            r#"{"role":"user","content":[{"type":"text","text":"What is in a.rs, and here?"}]},"#,
            r#"{"role":"assistant","content":[{"type":"thinking","thinking":"Need both.","signature":"EqQBCkYIBxgC"},"#,
            r#"{"type":"redacted_thinking","data":"EmwKAhgB"},"#,
            r#"{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.rs"}},"#,
            r#"{"type":"tool_use","id":"toolu_2","name":"ls","input":{}}]},"#,
            r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"fn main() {}"},"#,
            r#"{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
            r#"{"type":"tool_result","tool_use_id":"toolu_2","content":"permission denied","is_error":true,"cache_control":{"type":"ephemeral"}}]}]}"#,
        ),
        concat!(
            r#"{"tools":[{"functionDeclarations":[{"name":"read","description":"Reads a file.","parametersJsonSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}},"#,
            r#"{"name":"ls","description":"","parametersJsonSchema":{"type":"object"}}]}],"toolConfig":{"functionCallingConfig":{"mode":"AUTO"}},"#,
            r#""contents":[{"role":"user","parts":[{"text":"Hi"}]},"#,
            r#"{"role":"model","parts":[{"text":"Hello."}]},"#,
            r#"{"role":"user","parts":[{"text":"What is in a.rs, and here?"}]},"#,
            r#"{"role":"model","parts":[{"functionCall":{"name":"read","args":{"path":"a.rs"}},"thoughtSignature":"CiQB0e2K"},{"functionCall":{"name":"ls","args":{}}}]},"#,
            r#"{"role":"user","parts":[{"functionResponse":{"name":"read","response":{"output":"fn main() {}"}}},"#,
            r#"{"functionResponse":{"name":"ls","response":{"error":"permission denied"}}},"#,
            r#"{"text":"[Image from the result of read]"},"#,
            r#"{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]}]}"#,
        ),
        concat!(
            r#"{"toolConfig":{"tools":[{"toolSpec":{"name":"read","description":"Reads a file.","inputSchema":{"json":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}}}},"#,
            r#"{"toolSpec":{"name":"ls","inputSchema":{"json":{"type":"object"}}}}],"toolChoice":{"auto":{}}},"#,
            r#""messages":[{"role":"user","content":[{"text":"Hi"}]},"#,
            r#"{"role":"assistant","content":[{"text":"Hello."},{"cachePoint":{"type":"default"}}]},"#,
            r#"{"role":"user","content":[{"text":"What is in a.rs, and here?"}]},"#,
            r#"{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"Need both.","signature":"sig1"}}},"#,
            r#"{"toolUse":{"toolUseId":"tooluse_1","name":"read","input":{"path":"a.rs"}}},{"toolUse":{"toolUseId":"tooluse_2","name":"ls","input":{}}}]},"#,
            r#"{"role":"user","content":[{"toolResult":{"toolUseId":"tooluse_1","content":[{"text":"fn main() {}"},"#,
            r#"{"image":{"format":"png","source":{"bytes":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}}]}},"#,
            r#"{"toolResult":{"toolUseId":"tooluse_2","content":[{"text":"permission denied"}],"status":"error"}},{"cachePoint":{"type":"default"}}]}]}"#,
        ),
    ];
    for ((provider, reply, [read, ls]), expected) in REPLIES.into_iter().zip(expected) {
        let reply = provider.read_reply(reply).unwrap();
        // Given out of order: the results follow the calls' order.
        let outputs = [
            ToolOutput::error(ls, "permission denied"),
            ToolOutput::ok(read, "fn main() {}").with_image("image/png", PNG),
        ];
        let turn = Turn::new(&history)
            .without_preamble()
            .live(&live)
            .tools(&tools)
            .tool_choice(ToolChoice::Auto)
            .round(&reply, &outputs)
            .cache(Cache::FiveMinutes);
        assert_eq!(body(provider, &turn), expected, "{provider}");
    }
}

#[test]
fn the_replys_own_content_goes_back_byte_for_byte_whitespace_and_all() {
    // A pretty-printed reply: each provider's opaque content keeps its bytes.
    let anthropic = r#"{"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Look.", "signature": "Sig+/=="},
        {"type": "tool_use", "id": "toolu_9", "name": "ls", "input": { }}
    ], "stop_reason": "tool_use"}"#;
    let reply = Provider::Anthropic.read_reply(anthropic).unwrap();
    let history = [StoredMessage::user("List.")];
    let tools = tools();
    let outputs = [ToolOutput::ok("toolu_9", "a.rs")];
    let turn = Turn::new(&history)
        .without_preamble()
        .tools(&tools)
        .round(&reply, &outputs);
    let body = body(Provider::Anthropic, &turn);
    assert!(body.contains(concat!(
        r#"{"role":"assistant","content":[{"type": "thinking", "thinking": "Look.", "signature": "Sig+/=="},"#,
        r#"{"type": "tool_use", "id": "toolu_9", "name": "ls", "input": { }}]}"#,
    )));
}

#[test]
fn gemini_sends_back_the_ids_a_call_came_with_and_never_a_made_one() {
    let reply = Provider::Gemini
        .read_reply(concat!(
            r#"{"candidates":[{"content":{"role":"model","parts":["#,
            r#"{"functionCall":{"id":"fc-7","name":"ls","args":{}}},{"functionCall":{"name":"ls","args":{"all":true}}}]},"#,
            r#""finishReason":"STOP"}]}"#,
        ))
        .unwrap();
    let history = [StoredMessage::user("List.")];
    let outputs = [ToolOutput::ok("made_0_1", "b"), ToolOutput::ok("fc-7", "a")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, &outputs);
    assert!(body(Provider::Gemini, &turn).ends_with(concat!(
        r#"{"role":"user","parts":[{"functionResponse":{"id":"fc-7","name":"ls","response":{"output":"a"}}},"#,
        r#"{"functionResponse":{"name":"ls","response":{"output":"b"}}}]}]}"#,
    )));
}

#[test]
fn openai_chat_leaves_out_what_only_a_response_message_has() {
    let reply = Provider::OpenAi
        .read_reply(concat!(
            r#"{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","content":"Checking.","#,
            r#""refusal":null,"annotations":[],"#,
            r#""reasoning_content":"Kept for compatible servers.","#,
            r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]}}]}"#,
        ))
        .unwrap();
    let history = [StoredMessage::user("List.")];
    let outputs = [ToolOutput::ok("call_1", "a.rs")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, &outputs);
    assert_eq!(
        body(Provider::OpenAi, &turn),
        concat!(
            r#"{"messages":[{"role":"user","content":"List."},"#,
            r#"{"role":"assistant","content":"Checking.","reasoning_content":"Kept for compatible servers.","#,
            r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]},"#,
            r#"{"role":"tool","tool_call_id":"call_1","content":"a.rs"}]}"#,
        ),
    );
}

#[test]
fn a_streamed_chat_reply_goes_back_as_the_whole_one_byte_for_byte() {
    // OpenAI's streamed tool call, in the shape of its API reference: the round message keeps
    // the members where they came (they were written sorted), and no `null`, no `index`.
    let chunk = |delta: &str, finish: &str| {
        format!(
            r#"data: {{"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{{"index":0,"delta":{delta},"logprobs":null,"finish_reason":{finish}}}]}}"#
        ) + "\n\n"
    };
    let stream = [
        chunk(
            r#"{"role":"assistant","content":"Checking.","refusal":null}"#,
            "null",
        ),
        chunk(
            r#"{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":""}}]}"#,
            "null",
        ),
        chunk(
            r#"{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"a.rs\"}"}}]}"#,
            "null",
        ),
        chunk("{}", r#""tool_calls""#),
        "data: [DONE]\n\n".to_owned(),
    ]
    .concat();
    let mut reader = Provider::OpenAi.stream();
    reader.feed(stream.as_bytes()).unwrap();
    let streamed = reader.finish().unwrap();
    let whole = Provider::OpenAi
        .read_reply(concat!(
            r#"{"id":"chatcmpl-123","object":"chat.completion","created":1694268190,"model":"gpt-4o-mini","#,
            r#""choices":[{"index":0,"message":{"role":"assistant","content":"Checking.","refusal":null,"#,
            r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}}],"#,
            r#""annotations":[]},"logprobs":null,"finish_reason":"tool_calls"}]}"#,
        ))
        .unwrap();
    assert_eq!(streamed, whole);
    let history = [StoredMessage::user("Read a.rs.")];
    let outputs = [ToolOutput::ok("call_1", "fn main() {}")];
    let expected = concat!(
        r#"{"messages":[{"role":"user","content":"Read a.rs."},"#,
        r#"{"role":"assistant","content":"Checking.","#,
        r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}}]},"#,
        r#"{"role":"tool","tool_call_id":"call_1","content":"fn main() {}"}]}"#,
    );
    for reply in [&streamed, &whole] {
        let turn = Turn::new(&history)
            .without_preamble()
            .round(reply, &outputs);
        assert_eq!(body(Provider::OpenAi, &turn), expected);
    }
}

#[test]
fn a_blank_output_is_sent_as_each_provider_takes_it() {
    let history = [StoredMessage::user("Touch it.")];
    let tools = tools();
    // (provider, how the result of a blank output is written)
    let cases = [
        (
            Provider::OpenAi,
            r#"{"role":"tool","tool_call_id":"call_1","content":" "}"#,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"type":"function_call_output","call_id":"call_1","output":" "}"#,
        ),
        (
            Provider::Anthropic,
            r#"{"type":"tool_result","tool_use_id":"toolu_1"}"#,
        ),
        (
            Provider::Gemini,
            r#"{"functionResponse":{"name":"read","response":{"output":" "}}}"#,
        ),
        (
            Provider::Bedrock,
            r#"{"toolResult":{"toolUseId":"tooluse_1","content":[{"text":"[Empty message]"}]}}"#,
        ),
    ];
    for ((provider, expected), (_, reply, [read, ls])) in cases.into_iter().zip(REPLIES) {
        let reply = provider.read_reply(reply).unwrap();
        let outputs = [ToolOutput::ok(read, " "), ToolOutput::ok(ls, "x")];
        let turn = Turn::new(&history)
            .without_preamble()
            .tools(&tools)
            .round(&reply, &outputs);
        let body = body(provider, &turn);
        assert!(body.contains(expected), "{provider}: {body}");
    }
}

#[test]
fn a_blind_model_gets_each_tool_image_as_the_marker() {
    let history = [StoredMessage::user("Look.")];
    let tools = tools();
    for (provider, reply, [read, ls]) in REPLIES {
        let reply = provider.read_reply(reply).unwrap();
        let outputs = [
            ToolOutput::ok(read, "shot").with_image("image/png", PNG),
            ToolOutput::ok(ls, "").with_image("text/plain", "aGk="),
        ];
        let turn = Turn::new(&history)
            .without_preamble()
            .tools(&tools)
            .vision(Vision::Blind)
            .round(&reply, &outputs);
        let body = body(provider, &turn);
        assert!(
            body.contains(
                r#"shot\n\n[Image (image/png) not shown: this model cannot view images]"#
            ),
            "{provider}: {body}"
        );
        assert!(
            body.contains(r#"[Image (text/plain) not shown: this model cannot view images]"#),
            "{provider}: {body}"
        );
        assert!(!body.contains(PNG), "{provider}");
    }
}

#[test]
fn gemini_parts_with_a_signature_go_back_as_they_came_whole_and_streamed() {
    // A thought in two increments, then a text part that carries a signature (Gemini sends a
    // signature on the part it belongs to, also on a text part or an empty one), then more
    // text, then a call: the signed part is never joined with the parts around it.
    let events = [
        r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Plan","thought":true}]}}]}"#,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"text":" it.","thought":true}]}}]}"#,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Reading", "thoughtSignature":"c2lnLTE="}]}}]}"#,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"text":" now."}]}}]}"#,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"","thoughtSignature":"c2lnLTI="}]}}]}"#,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"ls","args":{}}}]},"finishReason":"STOP"}]}"#,
    ];
    let stream: String = events
        .iter()
        .map(|event| format!("data: {event}\r\n\r\n"))
        .collect();
    let mut reader = Provider::Gemini.stream();
    reader.feed(stream.as_bytes()).unwrap();
    let streamed = reader.finish().unwrap();
    let whole = Provider::Gemini
        .read_reply(concat!(
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Plan it.","thought":true},"#,
            r#"{"text":"Reading", "thoughtSignature":"c2lnLTE="},{"text":" now."},"#,
            r#"{"text":"","thoughtSignature":"c2lnLTI="},{"functionCall":{"name":"ls","args":{}}}]},"finishReason":"STOP"}]}"#,
        ))
        .unwrap();
    assert_eq!(streamed, whole);
    let history = [StoredMessage::user("List.")];
    let outputs = [ToolOutput::ok("made_0_0", "a")];
    for reply in [&streamed, &whole] {
        let turn = Turn::new(&history)
            .without_preamble()
            .round(reply, &outputs);
        let body = body(Provider::Gemini, &turn);
        assert!(
            body.contains(concat!(
                r#"{"role":"model","parts":[{"text":"Plan it.","thought":true},"#,
                r#"{"text":"Reading", "thoughtSignature":"c2lnLTE="},{"text":" now."},"#,
                r#"{"text":"","thoughtSignature":"c2lnLTI="},{"functionCall":{"name":"ls","args":{}}}]}"#,
            )),
            "{body}"
        );
    }
}

#[test]
fn with_a_round_and_a_long_history_caching_uses_all_four_breakpoints_and_no_more() {
    // 30 stored messages: more than the 21 blocks after which the history takes a second
    // breakpoint; with S and the last result, that is the 4 Anthropic allows.
    let history: Vec<StoredMessage> = (0..30)
        .map(|n| match n % 2 {
            0 => StoredMessage::user(format!("Question {n}.")),
            _ => StoredMessage::assistant(format!("Answer {n}.")),
        })
        .chain([StoredMessage::user("Do two things.")])
        .collect();
    let tools = tools();
    for (provider, mark) in [
        (
            Provider::Anthropic,
            r#""cache_control":{"type":"ephemeral"}"#,
        ),
        (Provider::Bedrock, r#"{"cachePoint":{"type":"default"}}"#),
    ] {
        let (_, reply, [read, ls]) = REPLIES
            .into_iter()
            .find(|(p, _, _)| *p == provider)
            .unwrap();
        let reply = provider.read_reply(reply).unwrap();
        let outputs = [ToolOutput::ok(read, "out-a"), ToolOutput::ok(ls, "out-b")];
        let turn = Turn::new(&history)
            .instructions("Be brief.")
            .without_preamble()
            .tools(&tools)
            .round(&reply, &outputs)
            .cache(Cache::FiveMinutes);
        assert_eq!(body(provider, &turn).matches(mark).count(), 4, "{provider}");
        let without_round = Turn::new(&history)
            .instructions("Be brief.")
            .without_preamble()
            .cache(Cache::FiveMinutes);
        assert_eq!(
            body(provider, &without_round).matches(mark).count(),
            3,
            "{provider}"
        );
    }
}

#[test]
fn with_caching_only_the_last_rounds_last_result_carries_a_breakpoint() {
    let history = [StoredMessage::user("Do two things.")];
    let tools = tools();
    for (provider, mark) in [
        (
            Provider::Anthropic,
            r#""cache_control":{"type":"ephemeral"}"#,
        ),
        (Provider::Bedrock, r#"{"cachePoint":{"type":"default"}}"#),
    ] {
        let (_, reply, [read, ls]) = REPLIES
            .into_iter()
            .find(|(p, _, _)| *p == provider)
            .unwrap();
        let first = provider.read_reply(reply).unwrap();
        let second = provider.read_reply(reply).unwrap();
        let outputs = [ToolOutput::ok(read, "out-a"), ToolOutput::ok(ls, "out-b")];
        let turn = Turn::new(&history)
            .instructions("Be brief.")
            .without_preamble()
            .tools(&tools)
            .round(&first, &outputs)
            .round(&second, &outputs)
            .cache(Cache::FiveMinutes);
        let body = body(provider, &turn);
        // S, the history's last block, and the last result: never more than four.
        assert_eq!(body.matches(mark).count(), 3, "{provider}: {body}");
        let last_result = body.rfind("out-b").unwrap();
        assert!(body[last_result..].contains(mark), "{provider}");
        let first_round_end = body.find("out-b").unwrap();
        let between = &body[first_round_end..last_result];
        assert!(
            !between.contains(mark),
            "{provider}: the first round carries none"
        );
    }
}

#[test]
fn the_estimate_prices_a_rounds_images_as_images_and_says_what_each_cost_is_of() {
    let history = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello."),
    ];
    let live = [StoredMessage::user("Look.")];
    let tools = tools();
    for (provider, reply, [read, ls]) in REPLIES {
        let reply: Reply = provider.read_reply(reply).unwrap();
        let outputs = [
            ToolOutput::ok(read, "shot").with_image("image/png", PNG),
            ToolOutput::ok(ls, "x"),
        ];
        let turn = Turn::new(&history)
            .without_preamble()
            .live(&live)
            .tools(&tools)
            .round(&reply, &outputs);
        let body = provider.body(&turn).unwrap();
        let estimate = body.estimate(image_tokens("claude").unwrap());
        assert_eq!(
            estimate.bytes,
            serde_json::to_vec(&body).unwrap().len(),
            "{provider}"
        );
        assert_eq!(
            (estimate.images, estimate.image_tokens),
            (1, 1),
            "{provider}"
        );
        let of: Vec<String> = estimate
            .messages
            .iter()
            .map(|cost| cost.of.to_string())
            .collect();
        assert_eq!(
            &of[..4],
            ["tools", "history 0", "history 1", "live 0"],
            "{provider}"
        );
        assert!(
            of[4..].iter().all(|of| of == "round 0"),
            "{provider}: {of:?}"
        );
        let tools_cost = &estimate.messages[0];
        assert!(
            tools_cost.text_tokens > 20,
            "{provider}: the declarations are counted as text"
        );
    }
}

#[test]
fn gemini_server_tool_parts_go_back_in_the_round_as_they_came_whole_and_streamed() {
    // Google's example of a Gemini 3 turn that combines a server tool with a function
    // (<https://ai.google.dev/gemini-api/docs/tool-combination>, "Example request structure"):
    // "Return all parts exactly as received in subsequent requests", each with its signature.
    let parts = [
        r#"{"thoughtSignature":"c2lnLWE=","toolCall":{"toolType":"GOOGLE_SEARCH_WEB","args":{"queries":["northernmost city in the United States"]},"id":"a7b3k9p2"}}"#,
        r#"{"thoughtSignature":"c2lnLWI=","toolResponse":{"toolType":"GOOGLE_SEARCH_WEB","response":{"search_suggestions":"..."},"id":"a7b3k9p2"}}"#,
        r#"{"functionCall":{"name":"getWeather","args":{"city":"Utqiaġvik, Alaska"},"id":"m4q8z1v6"},"thoughtSignature":"c2lnLWM="}"#,
    ];
    let stream: String = parts
        .iter()
        .map(|part| {
            format!(r#"data: {{"candidates":[{{"content":{{"role":"model","parts":[{part}]}}}}]}}"#)
                + "\r\n\r\n"
        })
        .chain([
            r#"data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}]}"#.to_owned()
                + "\r\n\r\n",
        ])
        .collect();
    let mut reader = Provider::Gemini.stream();
    reader.feed(stream.as_bytes()).unwrap();
    let streamed = reader.finish().unwrap();
    let whole = Provider::Gemini
        .read_reply(&format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{}]}},"finishReason":"STOP"}}]}}"#,
            parts.join(",")
        ))
        .unwrap();
    assert_eq!(streamed, whole);
    // Only the function call is owed an output; the server tool's call was answered by Google.
    let calls: Vec<&str> = whole.calls().iter().map(|call| call.id).collect();
    assert_eq!(calls, ["m4q8z1v6"]);
    assert_eq!(whole.stop, transcript_replay::StopReason::ToolUse);
    let history = [StoredMessage::user(
        "What is the northernmost city in the United States? What's the weather like there today?",
    )];
    let outputs = [ToolOutput::ok(
        "m4q8z1v6",
        "Very cold. 22 degrees Fahrenheit.",
    )];
    for reply in [&streamed, &whole] {
        let turn = Turn::new(&history)
            .without_preamble()
            .round(reply, &outputs);
        assert!(
            body(Provider::Gemini, &turn).ends_with(&format!(
                concat!(
                    r#"{{"role":"model","parts":[{}]}},"#,
                    r#"{{"role":"user","parts":[{{"functionResponse":{{"id":"m4q8z1v6","name":"getWeather","response":{{"output":"Very cold. 22 degrees Fahrenheit."}}}}}}]}}]}}"#,
                ),
                parts.join(",")
            )),
            "{}",
            body(Provider::Gemini, &turn)
        );
    }
    // Across turns, the stored turn replays as prose, the server tool's call and result
    // among it, as every provider's server tools do; no native part of it is sent.
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&whole, &outputs);
    let last = Provider::Gemini
        .read_reply(r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Utqiaġvik: very cold."}]},"finishReason":"STOP"}]}"#)
        .unwrap();
    let stored = turn.store_turn(&last).unwrap();
    let record = [
        history[0].clone(),
        stored,
        StoredMessage::user("And tomorrow?"),
    ];
    let next = body(Provider::Gemini, &Turn::new(&record).without_preamble());
    assert!(
        next.contains(concat!(
            r#"{"role":"model","parts":[{"text":"Tool use: google_search_web({\"queries\":[\"northernmost city in the United States\"]})\n\n"#,
            r#"Result (google_search_web): {\"search_suggestions\":\"...\"}\n\n"#,
            r#"Tool use: getWeather({\"city\":\"Utqiaġvik, Alaska\"})\n\n"#,
            r#"Result (getWeather): Very cold. 22 degrees Fahrenheit.\n\nUtqiaġvik: very cold."}]}"#,
        )),
        "{next}"
    );
}
