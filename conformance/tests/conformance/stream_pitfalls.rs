//! What providers do in their streams that hand-written readers trip over, each read right:
//! deltas without an index, usage chunks, tools without arguments, events to ignore,
//! signatures that are no text, Gemini's trailing chunk and `STOP` after a call, Responses'
//! empty snapshot, cumulative and `null` counters, and the framing's variants.

use serde_json::{json, Value};
use transcript_replay::{Block, Delta, Provider, Reply, StopReason, ToolInput};
use transcript_replay_conformance::streams;

fn sse(events: &[Value]) -> Vec<u8> {
    let events: Vec<(Option<&str>, String)> =
        events.iter().map(|data| (None, data.to_string())).collect();
    streams::sse(&events, "\n")
}

/// Events named by their data's type, as Anthropic and Responses name them.
fn anthropic(events: &[Value]) -> Vec<u8> {
    let events: Vec<(Option<&str>, String)> = events
        .iter()
        .map(|data| (data["type"].as_str(), data.to_string()))
        .collect();
    streams::sse(&events, "\n")
}

fn read(provider: Provider, bytes: &[u8]) -> (Vec<Delta>, Reply) {
    let mut reader = provider.stream();
    let mut deltas = reader.feed(bytes).unwrap();
    deltas.extend(reader.end().unwrap());
    (deltas, reader.finish().unwrap())
}

fn chunk(delta: Value) -> Value {
    json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": null}]})
}

fn done() -> Vec<u8> {
    b"data: [DONE]\n\n".to_vec()
}

fn openai(chunks: &[Value], finish: &str) -> Vec<u8> {
    let mut bytes = sse(chunks);
    bytes.extend(sse(&[
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}),
    ]));
    bytes.extend(done());
    bytes
}

#[test]
fn openai_tool_call_deltas_without_an_index_are_matched_by_their_id() {
    // As Ollama and other compatible servers send them: no `index`, ids on every delta.
    let bytes = openai(
        &[
            chunk(
                json!({"tool_calls": [{"id": "call_a", "type": "function", "function": {"name": "read", "arguments": "{\"path\":"}}]}),
            ),
            chunk(
                json!({"tool_calls": [{"id": "call_b", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}),
            ),
            chunk(
                json!({"tool_calls": [{"id": "call_a", "function": {"arguments": "\"a.rs\"}"}}]}),
            ),
        ],
        "tool_calls",
    );
    let (_, reply) = read(Provider::OpenAi, &bytes);
    assert_eq!(
        reply.message.blocks,
        [
            Block::tool_use("call_a", "read", r#"{"path":"a.rs"}"#),
            Block::tool_use("call_b", "ls", "{}"),
        ]
    );
}

#[test]
fn openai_deltas_with_neither_index_nor_id_continue_the_call_until_a_new_name() {
    let bytes = openai(
        &[
            chunk(json!({"tool_calls": [{"function": {"name": "read", "arguments": "{\"pa"}}]})),
            chunk(json!({"tool_calls": [{"function": {"arguments": "th\":\"a.rs\"}"}}]})),
            chunk(json!({"tool_calls": [{"function": {"name": "ls", "arguments": "{}"}}]})),
        ],
        "tool_calls",
    );
    let (deltas, reply) = read(Provider::OpenAi, &bytes);
    assert_eq!(
        reply.message.blocks,
        [
            Block::tool_use("made_0_0", "read", r#"{"path":"a.rs"}"#),
            Block::tool_use("made_0_1", "ls", "{}"),
        ]
    );
    assert!(deltas.contains(&Delta::ToolCall {
        block: 1,
        id: "made_0_1".into(),
        name: "ls".into()
    }));
}

#[test]
fn openai_a_new_id_at_a_taken_index_is_a_new_call() {
    // Servers that give every parallel call index 0.
    let bytes = openai(
        &[
            chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}),
            ),
            chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_b", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}),
            ),
        ],
        "tool_calls",
    );
    let (_, reply) = read(Provider::OpenAi, &bytes);
    assert_eq!(
        reply.message.blocks,
        [
            Block::tool_use("call_a", "read", "{}"),
            Block::tool_use("call_b", "read", "{}")
        ]
    );
}

#[test]
fn openai_usage_comes_in_a_chunk_without_choices_and_null_usage_is_no_usage() {
    let mut bytes = sse(&[
        json!({"choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": null}], "usage": null}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": {}}),
        json!({"choices": [], "usage": {"prompt_tokens": 4, "completion_tokens": 1, "total_tokens": 5}}),
    ]);
    bytes.extend(done());
    let (_, reply) = read(Provider::OpenAi, &bytes);
    assert_eq!(
        reply
            .message
            .usage
            .map(|usage| (usage.input_tokens, usage.output_tokens)),
        Some((4, 1))
    );
    assert_eq!(reply.stop, StopReason::EndTurn);
}

#[test]
fn openai_compatible_reasoning_deltas_are_reasoning_and_unknown_fields_are_ignored() {
    let bytes = openai(
        &[
            json!({"choices": [{"index": 0, "delta": {"reasoning_content": "Think"}, "finish_reason": null}], "obfuscation": "x"}),
            json!({"choices": [{"index": 0, "delta": {"content": "Done"}, "finish_reason": null}]}),
        ],
        "stop",
    );
    let (_, reply) = read(Provider::OpenAi, &bytes);
    assert_eq!(
        reply.message.blocks,
        [Block::reasoning("Think"), Block::text("Done")]
    );
}

#[test]
fn a_tool_without_arguments_stores_an_empty_object() {
    // Anthropic streams `partial_json: ""`.
    let bytes = anthropic(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}}),
        json!({"type": "message_stop"}),
    ]);
    let (_, reply) = read(Provider::Anthropic, &bytes);
    assert_eq!(
        reply.message.blocks,
        [Block::tool_use(
            "toolu_1",
            "ls",
            ToolInput::json("{}").unwrap()
        )]
    );
    assert!(reply.incomplete_calls().is_empty());
    // Bedrock sends no input delta at all.
    let mut bytes = streams::event(
        "contentBlockStart",
        &json!({"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "t1", "name": "ls"}}}),
    );
    bytes.extend(streams::event(
        "contentBlockStop",
        &json!({"contentBlockIndex": 0}),
    ));
    bytes.extend(streams::event(
        "messageStop",
        &json!({"stopReason": "tool_use"}),
    ));
    let (_, reply) = read(Provider::Bedrock, &bytes);
    assert_eq!(
        reply.message.blocks,
        [Block::tool_use("t1", "ls", ToolInput::json("{}").unwrap())]
    );
}

#[test]
fn ping_and_event_types_the_crate_does_not_know_are_ignored() {
    let bytes = anthropic(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta", "citation": {"type": "char_location"}}}),
        json!({"type": "some_future_event", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
        json!({"type": "message_stop"}),
    ]);
    let (_, reply) = read(Provider::Anthropic, &bytes);
    assert_eq!(reply.message.blocks, [Block::text("Hi")]);
    let mut bytes = streams::event("someFutureEvent", &json!({"x": 1}));
    bytes.extend(streams::event(
        "contentBlockDelta",
        &json!({"contentBlockIndex": 0, "delta": {"text": "Hi"}}),
    ));
    bytes.extend(streams::event(
        "messageStop",
        &json!({"stopReason": "end_turn"}),
    ));
    assert_eq!(
        read(Provider::Bedrock, &bytes).1.message.blocks,
        [Block::text("Hi")]
    );
}

#[test]
fn a_signature_delta_is_no_text_and_is_kept_for_the_round_in_flight() {
    let bytes = anthropic(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Hmm."}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBsig"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Yes."}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}),
        json!({"type": "message_stop"}),
    ]);
    let (deltas, reply) = read(Provider::Anthropic, &bytes);
    assert_eq!(
        deltas,
        [
            Delta::Reasoning {
                block: 0,
                text: "Hmm.".into()
            },
            Delta::Text {
                block: 1,
                text: "Yes.".into()
            },
        ]
    );
    assert_eq!(
        reply.message.blocks,
        [Block::reasoning("Hmm."), Block::text("Yes.")]
    );
    let native: Vec<Value> = reply
        .native()
        .map(|item| serde_json::from_str(item).unwrap())
        .collect();
    assert_eq!(
        native[0],
        json!({"type": "thinking", "thinking": "Hmm.", "signature": "EqQBsig"})
    );
    assert!(!serde_json::to_string(&reply).unwrap().contains("EqQBsig"));
}

#[test]
fn gemini_a_whole_function_call_then_the_trailing_empty_chunk_is_tool_use_with_no_empty_block() {
    let bytes = sse(&[
        json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "ls", "args": {}}}]}, "index": 0}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP", "index": 0}]}),
    ]);
    let (deltas, reply) = read(Provider::Gemini, &bytes);
    assert_eq!(reply.stop, StopReason::ToolUse);
    assert_eq!(
        reply.message.blocks,
        [Block::tool_use(
            "made_0_0",
            "ls",
            ToolInput::json("{}").unwrap()
        )]
    );
    assert_eq!(
        deltas,
        [
            Delta::ToolCall {
                block: 0,
                id: "made_0_0".into(),
                name: "ls".into()
            },
            Delta::ToolInput {
                block: 0,
                piece: "{}".into()
            },
        ]
    );
}

#[test]
fn gemini_cumulative_usage_takes_its_last_value_and_a_usage_only_chunk_is_read() {
    let bytes = sse(&[
        json!({"candidates": [{"content": {"parts": [{"text": "a"}]}}], "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1}}),
        json!({"candidates": [{"content": {"parts": [{"text": "b"}]}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2}}),
        json!({"usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2, "thoughtsTokenCount": 7}}),
    ]);
    let (_, reply) = read(Provider::Gemini, &bytes);
    assert_eq!(reply.message.blocks, [Block::text("ab")]);
    assert_eq!(
        reply
            .message
            .usage
            .map(|usage| (usage.input_tokens, usage.output_tokens)),
        Some((10, 9))
    );
}

#[test]
fn anthropic_output_tokens_are_cumulative_and_a_null_counter_leaves_the_earlier_one() {
    let bytes = anthropic(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 50, "cache_creation_input_tokens": 20, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}),
        json!({"type": "message_delta", "delta": {"stop_reason": null}, "usage": {"output_tokens": 7}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 12, "input_tokens": null}}),
        json!({"type": "message_stop"}),
    ]);
    let usage = read(Provider::Anthropic, &bytes).1.message.usage.unwrap();
    assert_eq!(
        (
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_creation_input_tokens
        ),
        (50, 12, 20)
    );
}

#[test]
fn responses_completed_with_an_empty_output_is_built_from_the_items_done() {
    let events = [
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "m", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "Hel"}),
        json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "lo"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "message", "id": "m", "role": "assistant",
            "content": [{"type": "output_text", "text": "Hello", "annotations": []}]}}),
        json!({"type": "response.completed", "response": {"status": "completed", "output": [], "usage": {"input_tokens": 3, "output_tokens": 1}}}),
    ];
    let (_, reply) = read(Provider::OpenAiResponses, &anthropic(&events));
    assert_eq!(reply.message.blocks, [Block::text("Hello")]);
}

#[test]
fn a_tool_input_cut_by_max_tokens_keeps_its_text_and_is_flagged() {
    let bytes = anthropic(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"path\": \"a.rs\", \"text\": \"fn ma"}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}, "usage": {"output_tokens": 4096}}),
        json!({"type": "message_stop"}),
    ]);
    let (_, reply) = read(Provider::Anthropic, &bytes);
    assert_eq!(reply.stop, StopReason::MaxTokens);
    assert_eq!(reply.incomplete_calls(), ["toolu_1"]);
    let Block::ToolUse { input, .. } = &reply.message.blocks[0] else {
        panic!("a call")
    };
    assert_eq!(input.as_str(), r#"{"path": "a.rs", "text": "fn ma"#);
    assert!(
        !input.is_json_value(),
        "text that is no JSON is stored as a string"
    );
    // The stored message still writes as a record.
    serde_json::to_string(&reply.message).unwrap();
}

#[test]
fn a_bedrock_tool_input_cut_by_max_tokens_keeps_its_text_and_is_flagged() {
    let bytes = [
        streams::event("messageStart", &json!({"role": "assistant"})),
        streams::event("contentBlockStart", &json!({"contentBlockIndex": 0, "start": {"toolUse": {"toolUseId": "tooluse_1", "name": "write"}}})),
        streams::event("contentBlockDelta", &json!({"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{\"path\": \"a.rs\", \"text\": \"fn ma"}}})),
        streams::event("messageStop", &json!({"stopReason": "max_tokens"})),
    ]
    .concat();
    let (_, reply) = read(Provider::Bedrock, &bytes);
    assert_eq!(reply.stop, StopReason::MaxTokens);
    assert_eq!(reply.incomplete_calls(), ["tooluse_1"]);
    let Block::ToolUse { input, .. } = &reply.message.blocks[0] else {
        panic!("a call")
    };
    assert_eq!(input.as_str(), r#"{"path": "a.rs", "text": "fn ma"#);
    // What goes back natively is an input Bedrock takes.
    assert!(reply.native().all(|item| !item.contains("fn ma")));
}

#[test]
fn no_empty_text_block_is_ever_stored() {
    let bytes = anthropic(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t", "name": "ls", "input": {}}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 4}}),
        json!({"type": "message_stop"}),
    ]);
    let (_, reply) = read(Provider::Anthropic, &bytes);
    assert_eq!(reply.message.blocks.len(), 1);
    assert!(reply.native().all(|item| !item.contains(r#""text":"""#)));
}

#[test]
fn server_sent_events_end_lines_in_crlf_lf_or_cr_and_skip_comments_and_a_bom() {
    let data = r#"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}"#;
    let streams = [
        format!("data: {data}\n\ndata: [DONE]\n\n"),
        format!("data: {data}\r\n\r\ndata: [DONE]\r\n\r\n"),
        format!("data: {data}\r\rdata: [DONE]\r\r"),
        format!("\u{feff}: keep-alive\nretry: 100\nid: 7\ndata: {data}\n\ndata: [DONE]"),
        // One event's data over two lines, joined by a line break (JSON white space).
        "data: {\"choices\":[{\"index\":0,\ndata:\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n".to_owned(),
    ];
    for stream in streams {
        for size in [1, 2, 3, 1024] {
            let mut reader = Provider::OpenAi.stream();
            for chunk in stream.as_bytes().chunks(size) {
                reader.feed(chunk).unwrap();
            }
            let reply = reader.finish().unwrap();
            assert_eq!(
                reply.message.blocks,
                [Block::text("Hi")],
                "{stream:?} in chunks of {size}"
            );
        }
    }
}
