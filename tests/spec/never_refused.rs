//! A reply or stream is never refused for an item, a part or an event the reader does not
//! know, whatever its members: each is read where the crate reads it, or marked as not kept.

use transcript_replay::{Block, Provider};

#[test]
fn replies_with_items_and_events_the_reader_does_not_know_are_never_refused() {
    let responses = r#"{"status":"completed","output":[{"type":"tool_search_call","id":"ts_1","call_id":null,"execution":"server","arguments":{"query":"weather","paths":["a"]},"status":"completed"},{"type":"tool_search_output","id":"tso_1","call_id":null,"execution":"server","tools":[{"type":"function","name":"get_weather"}],"status":"completed"},{"type":"hologram_call","content":"not a list","arguments":{"x":1}},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}]}"#;
    let reply = Provider::OpenAiResponses.read_reply(responses).unwrap();
    let stored = serde_json::to_string(&reply.message).unwrap();
    assert!(stored.contains(r#""name":"tool_search","input":{"query":"weather","paths":["a"]},"provider_executed":true"#), "{stored}");
    assert!(
        stored.contains(r#""tool_use_id":"ts_1","tool_name":"tool_search","output":"get_weather""#),
        "{stored}"
    );
    assert!(stored.contains("hologram_call"), "{stored}");

    let events = concat!(
        "event: response.shell_call_output_content.delta\ndata: {\"type\":\"response.shell_call_output_content.delta\",\"output_index\":0,\"delta\":{\"stdout\":\"hi\"}}\n\n",
        "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"output\":[{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Done.\"}]}]}}\n\n",
    );
    let mut reader = Provider::OpenAiResponses.stream();
    reader.feed(events.as_bytes()).unwrap();
    assert_eq!(
        reader.finish().unwrap().message.blocks,
        [Block::text("Done.")]
    );
}

#[test]
fn chat_s_deprecated_function_call_is_a_call_whole_and_streamed() {
    let whole = r#"{"choices":[{"index":0,"finish_reason":"function_call","message":{"role":"assistant","content":null,"function_call":{"name":"ls","arguments":"{\"path\":\".\"}"}}}]}"#;
    let reply = Provider::OpenAi.read_reply(whole).unwrap();
    assert_eq!(
        reply.message.blocks,
        [Block::tool_use("made_0_0", "ls", r#"{"path":"."}"#)]
    );
    let events = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"function_call\":{\"name\":\"ls\",\"arguments\":\"\"}}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"function_call\":{\"arguments\":\"{\\\"path\\\":\"}}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"function_call\":{\"arguments\":\"\\\".\\\"}\"}}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"function_call\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    let mut reader = Provider::OpenAi.stream();
    reader.feed(events.as_bytes()).unwrap();
    let streamed = reader.finish().unwrap();
    assert_eq!(streamed.message.blocks, reply.message.blocks);
    assert_eq!(streamed.stop, reply.stop);
}

#[test]
fn gemini_s_streamed_function_call_arguments_make_the_whole_reply_s_call() {
    let chunk = |part: &str| {
        format!(r#"data: {{"candidates":[{{"content":{{"role":"model","parts":[{part}]}}}}]}}"#)
            + "\n\n"
    };
    let events = [
        chunk(r#"{"functionCall":{"name":"get_weather","willContinue":true},"thoughtSignature":"sig"}"#),
        chunk(r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"Bos","willContinue":true}],"willContinue":true}}"#),
        chunk(r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"ton"},{"jsonPath":"$.days[0]","numberValue":1},{"jsonPath":"$.options.metric","boolValue":true}],"willContinue":true}}"#),
        chunk(r#"{"functionCall":{}}"#),
        r#"data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}]}"#.to_owned() + "\n\n",
    ]
    .concat();
    let mut reader = Provider::Gemini.stream();
    reader.feed(events.as_bytes()).unwrap();
    let streamed = reader.finish().unwrap();
    let whole = Provider::Gemini
        .read_reply(r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"location":"Boston","days":[1],"options":{"metric":true}}},"thoughtSignature":"sig"}]},"finishReason":"STOP"}]}"#)
        .unwrap();
    assert_eq!(streamed.message.blocks, whole.message.blocks);
    assert_eq!(streamed.stop, whole.stop);
    // The round sends the call back whole, with its signature, as the whole reply carries it:
    // its members where they came, its arguments' keys in the order they came.
    let native: Vec<&str> = streamed.native().collect();
    assert_eq!(
        native,
        [
            r#"{"functionCall":{"name":"get_weather","args":{"location":"Boston","days":[1],"options":{"metric":true}}},"thoughtSignature":"sig"}"#
        ]
    );
    assert_eq!(native, whole.native().collect::<Vec<_>>());
}

#[test]
fn the_result_of_a_deprecated_function_call_goes_back_as_a_function_message() {
    use transcript_replay::{Priced, StoredMessage, Tool, ToolOutput, Turn};
    let whole = r#"{"choices":[{"index":0,"finish_reason":"function_call","message":{"role":"assistant","content":null,"function_call":{"name":"ls","arguments":"{\"path\":\".\"}"}}}]}"#;
    let reply = Provider::OpenAi.read_reply(whole).unwrap();
    let outputs: Vec<ToolOutput> = (reply.calls().iter())
        .map(|call| ToolOutput::ok(call.id, "a.rs"))
        .collect();
    let history = [StoredMessage::user("List.")];
    let tools = [Tool::new("ls", "Lists.", r#"{"type":"object"}"#).unwrap()];
    let turn = Turn::new(&history)
        .without_preamble()
        .tools(&tools)
        .round(&reply, &outputs);
    let body = String::from_utf8(Provider::OpenAi.body(&turn).unwrap().to_json().unwrap()).unwrap();
    // No `tool` message (it must answer a `tool_calls` id), and the made id is never sent.
    assert!(
        body.contains(r#"{"role":"assistant","function_call":{"name":"ls","arguments":"{\"path\":\".\"}"}},{"role":"function","name":"ls","content":"a.rs"}"#),
        "{body}"
    );
    assert!(!body.contains("made_"), "{body}");
    assert!(!body.contains(r#""role":"tool""#), "{body}");
}

#[test]
fn gemini_s_newer_parts_enums_and_empty_replies_are_read_never_refused_whole_and_streamed() {
    // (what the body is, the body, the stored blocks as JSON)
    let cases = [
        (
            // A server tool's call and response (`toolCall`, `toolResponse`: Gemini 3 with
            // `toolConfig.includeServerSideToolInvocations`,
            // <https://ai.google.dev/gemini-api/docs/tool-combination>): read, where they were
            // `[Not kept: Gemini toolCall content]`.
            "a server tool's invocation",
            r#"{"candidates":[{"content":{"role":"model","parts":[{"toolCall":{"toolType":"GOOGLE_SEARCH_IMAGE","args":{"queries":["cat"]},"id":"s1"},"thoughtSignature":"c2ln"},{"toolResponse":{"toolType":"GOOGLE_SEARCH_IMAGE","response":{"images":[]},"id":"s1"}}]},"finishReason":"STOP"}]}"#,
            r#"[{"type":"tool_use","id":"s1","name":"google_search_image","input":{"queries":["cat"]},"provider_executed":true},{"type":"tool_result","tool_use_id":"s1","tool_name":"google_search_image","output":"{\"images\":[]}","is_error":false}]"#,
        ),
        (
            // A tool type given as a number (its numbers are not published) or not at all, a
            // response that answers no call: each kept, named as no tool.
            "an unnamed server tool, and a response to no call",
            r#"{"candidates":[{"content":{"role":"model","parts":[{"toolCall":{"toolType":3,"args":{"urls":["https://a.example"]}}},{"toolResponse":{"response":{"ok":true}}},{"toolResponse":{"id":"x9","response":{"late":1}}}]},"finishReason":1}]}"#,
            r#"[{"type":"tool_use","id":"made_0_0","name":"server_tool","input":{"urls":["https://a.example"]},"provider_executed":true},{"type":"tool_result","tool_use_id":"made_0_0","tool_name":"server_tool","output":"{\"ok\":true}","is_error":false},{"type":"tool_result","tool_use_id":"x9","tool_name":"server_tool","output":"{\"late\":1}","is_error":false}]"#,
        ),
        (
            // Every enum the reader reads, as numbers (`$alt=json;enum-encoding=int`); a block
            // reason of 0 (unspecified) blocks nothing.
            "enums as numbers",
            r#"{"candidates":[{"content":{"role":"model","parts":[{"executableCode":{"language":1,"code":"1/0"}},{"codeExecutionResult":{"outcome":3}}]},"finishReason":11}],"promptFeedback":{"blockReason":0}}"#,
            r#"[{"type":"tool_use","id":"made_0_0","name":"code_execution","input":{"code":"1/0","language":"PYTHON"},"provider_executed":true},{"type":"tool_result","tool_use_id":"made_0_0","tool_name":"code_execution","output":"OUTCOME_DEADLINE_EXCEEDED","is_error":true}]"#,
        ),
        (
            // A blocked prompt: no candidate, no content, never a refusal.
            "a blocked prompt",
            r#"{"promptFeedback":{"blockReason":"OTHER"}}"#,
            "[]",
        ),
    ];
    for (what, body, blocks) in cases {
        let whole = Provider::Gemini
            .read_reply(body)
            .unwrap_or_else(|error| panic!("{what}: {error}"));
        assert_eq!(
            serde_json::to_string(&whole.message.blocks).unwrap(),
            blocks,
            "{what}"
        );
        assert!(whole.not_kept().is_empty(), "{what}");
        assert_ne!(whole.stop, transcript_replay::StopReason::Refusal, "{what}");
        assert_eq!(
            whole.metadata().prompt_blocked.is_some(),
            what == "a blocked prompt",
            "{what}"
        );
        let mut reader = Provider::Gemini.stream();
        reader
            .feed(format!("data: {body}\r\n\r\n").as_bytes())
            .unwrap_or_else(|error| panic!("{what}, streamed: {error}"));
        let streamed = reader
            .finish()
            .unwrap_or_else(|error| panic!("{what}, streamed: {error}"));
        assert_eq!(streamed, whole, "{what}, streamed");
    }
}

#[test]
fn zero_values_in_a_chat_reply_are_absence_never_a_call_a_refusal_or_a_stop() {
    use transcript_replay::{Priced, StopReason, StoredMessage, Tool, ToolOutput, Turn};
    // Some compatible servers fill what a reply leaves out with zero values
    // (<https://github.com/Wei-Shaw/sub2api/pull/5632>,
    // <https://github.com/binaricat/Netcatty/pull/1690>).
    let zeros = r#""function_call":{"name":"","arguments":""},"refusal":"","audio":{"id":""}"#;
    let whole = format!(
        r#"{{"choices":[{{"index":0,"finish_reason":"tool_calls","message":{{"role":"assistant","content":"","reasoning_content":"",{zeros},"tool_calls":[{{"id":"call_1","type":"function","function":{{"name":"ls","arguments":"{{}}"}}}},{{"id":"","type":"","function":{{"name":"","arguments":""}}}}]}}}}]}}"#
    );
    let stream = [
        format!(
            r#"{{"choices":[{{"index":0,"delta":{{"role":"assistant","content":"",{zeros},"tool_calls":[]}},"finish_reason":""}}]}}"#
        ),
        format!(
            r#"{{"choices":[{{"index":0,"delta":{{"content":"",{zeros},"tool_calls":[{{"index":0,"id":"call_1","type":"function","function":{{"name":"ls","arguments":"{{}}"}}}}]}},"finish_reason":""}}]}}"#
        ),
        format!(
            r#"{{"choices":[{{"index":0,"delta":{{{zeros},"tool_calls":[{{"index":1,"id":"","type":"","function":{{"name":"","arguments":""}}}}]}},"finish_reason":"tool_calls"}}]}}"#
        ),
        "[DONE]".to_owned(),
    ];
    let mut reader = Provider::OpenAi.stream();
    for event in &stream {
        reader
            .feed(format!("data: {event}\n\n").as_bytes())
            .unwrap();
    }
    let streamed = reader.finish().unwrap();
    let history = [StoredMessage::user("List.")];
    let tools = [Tool::new("ls", "Lists.", r#"{"type":"object"}"#).unwrap()];
    for reply in [Provider::OpenAi.read_reply(&whole).unwrap(), streamed] {
        assert_eq!(
            reply.message.blocks,
            [Block::tool_use("call_1", "ls", "{}")]
        );
        assert_eq!(reply.stop, StopReason::ToolUse);
        assert!(reply.not_kept().is_empty());
        // The round takes none of them back: no call without a name, which the next request
        // would be refused for.
        let outputs = [ToolOutput::ok("call_1", "a.rs")];
        let turn = Turn::new(&history)
            .without_preamble()
            .tools(&tools)
            .round(&reply, &outputs);
        let body = Provider::OpenAi.body(&turn).unwrap().to_json().unwrap();
        let body = String::from_utf8(body).unwrap();
        for zero in [
            "function_call",
            "refusal",
            "audio",
            r#""name":"""#,
            r#""content":"""#,
        ] {
            assert!(!body.contains(zero), "{zero}: {body}");
        }
    }
    // An empty refusal is no refusal, and an empty finish reason no stop.
    let reply = Provider::OpenAi
        .read_reply(r#"{"choices":[{"index":0,"finish_reason":"","message":{"role":"assistant","content":"Hi.","refusal":""}}]}"#)
        .unwrap();
    assert_eq!(reply.message.blocks, [Block::text("Hi.")]);
    assert_eq!(reply.stop, StopReason::Other(String::new()));
    // An empty `reasoning_content` beside the reasoning a server sends in `reasoning` is none.
    let whole = Provider::OpenAi
        .read_reply(r#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","reasoning_content":"","reasoning":"Think.","content":"Hi."}}]}"#)
        .unwrap();
    let mut reader = Provider::OpenAi.stream();
    reader
        .feed(concat!(
            r#"data: {"choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"","reasoning":"Think."}}]}"#, "\n\n",
            r#"data: {"choices":[{"index":0,"delta":{"reasoning_content":"","content":"Hi."},"finish_reason":"stop"}]}"#, "\n\n",
            "data: [DONE]\n\n",
        ).as_bytes())
        .unwrap();
    let streamed = reader.finish().unwrap();
    for reply in [whole, streamed] {
        assert_eq!(
            reply.message.blocks,
            [Block::reasoning("Think."), Block::text("Hi.")]
        );
    }
}
