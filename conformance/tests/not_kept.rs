//! A finished reply is never refused for what it contains: content the crate does not read
//! becomes the text `[Not kept: {provider} {type} content]` where it stood, is listed by
//! `Reply::not_kept`, goes back natively in the round, and a stream gives the same reply as the
//! whole body of the same response, in any chunking.

use serde_json::json;
use transcript_replay::{Block, Provider, Reply, StopReason, StoredMessage, ToolOutput, Turn};
use transcript_replay_conformance::streams::{self, named};

fn streamed(provider: Provider, bytes: &[u8], size: usize) -> Reply {
    let mut reader = provider.stream();
    for chunk in bytes.chunks(size.max(1)) {
        reader.feed(chunk).unwrap();
    }
    reader.end().unwrap();
    reader.finish().unwrap()
}

#[test]
fn anthropic_server_tool_blocks_stream_into_the_marker_the_whole_reply_gives() {
    // Anthropic's web search, streamed (https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool):
    // the server tool's call with its input in pieces, its result whole, then the answer.
    let bytes = named(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 30}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me search."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"rust\"}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [{"type": "web_search_result", "title": "Rust", "url": "https://www.rust-lang.org"}]}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "content_block_start", "index": 3, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 3, "delta": {"type": "text_delta", "text": "Rust is a language."}}),
        json!({"type": "content_block_stop", "index": 3}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 20}}),
        json!({"type": "message_stop"}),
    ]);
    let whole = Provider::Anthropic
        .read_reply(&json!({"content": [
            {"type": "text", "text": "Let me search."},
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [{"type": "web_search_result", "title": "Rust", "url": "https://www.rust-lang.org"}]},
            {"type": "text", "text": "Rust is a language."}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 30, "output_tokens": 20}}).to_string())
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Let me search."),
            Block::text("[Not kept: Anthropic server_tool_use content]"),
            Block::text("[Not kept: Anthropic web_search_tool_result content]"),
            Block::text("Rust is a language."),
        ]
    );
    assert_eq!(
        whole.not_kept(),
        ["server_tool_use", "web_search_tool_result"]
    );
    for size in [1, 7, 64, 4096] {
        assert_eq!(
            streamed(Provider::Anthropic, &bytes, size),
            whole,
            "chunks of {size}"
        );
    }
}

#[test]
fn bedrock_citations_stream_into_the_text_and_marker_the_whole_reply_gives() {
    let mut bytes = Vec::new();
    for (event, payload) in [
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "It is 20 C."}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"citation": {"title": "Weather", "location": {}}}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        ("messageStop", json!({"stopReason": "end_turn"})),
    ] {
        bytes.extend(streams::event(event, &payload));
    }
    let whole = Provider::Bedrock
        .read_reply(
            &json!({"output": {"message": {"role": "assistant", "content": [
                {"citationsContent": {"content": [{"text": "It is 20 C."}], "citations": [{"title": "Weather", "location": {}}]}}]}},
                "stopReason": "end_turn"})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("It is 20 C."),
            Block::text("[Not kept: Bedrock citations content]"),
        ]
    );
    for size in [1, 5, 4096] {
        assert_eq!(
            streamed(Provider::Bedrock, &bytes, size),
            whole,
            "chunks of {size}"
        );
    }
}

#[test]
fn gemini_parts_the_crate_does_not_read_stream_into_the_marker_and_no_text_joins_it() {
    let events = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Running"}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"executableCode": {"language": "PYTHON", "code": "print(1)"}}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "It printed 1."}]}, "finishReason": "STOP"}]}),
    ];
    let bytes: String = events
        .iter()
        .map(|event| format!("data: {event}\r\n\r\n"))
        .collect();
    let whole = Provider::Gemini
        .read_reply(
            &json!({"candidates": [{"content": {"role": "model", "parts": [
                {"text": "Running"},
                {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
                {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}},
                {"text": "It printed 1."}]}, "finishReason": "STOP"}]})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Running"),
            Block::text("[Not kept: Gemini executableCode content]"),
            Block::text("[Not kept: Gemini codeExecutionResult content]"),
            Block::text("It printed 1."),
        ]
    );
    for size in [1, 9, 4096] {
        assert_eq!(
            streamed(Provider::Gemini, bytes.as_bytes(), size),
            whole,
            "chunks of {size}"
        );
    }
}

#[test]
fn a_paused_turn_goes_back_as_it_came_and_the_body_ends_on_it() {
    // Anthropic pauses a long server-tool turn; the documented continuation sends the reply
    // back as it is (https://docs.claude.com/en/api/handling-stop-reasons#pause-turn).
    let paused = Provider::Anthropic
        .read_reply(
            &json!({"content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}}],
                "stop_reason": "pause_turn"})
            .to_string(),
        )
        .unwrap();
    assert_eq!(paused.stop, StopReason::Paused);
    assert_eq!(paused.stop.as_str(), "paused");
    let history = [StoredMessage::user("Search for rust.")];
    let turn = Turn::new(&history).without_preamble().round(&paused, &[]);
    let body = serde_json::to_string(&Provider::Anthropic.body(&turn).unwrap()).unwrap();
    assert!(
        // As it came (`json!` wrote its keys in order).
        body.ends_with(r#"{"role":"assistant","content":[{"id":"srvtoolu_1","input":{"query":"rust"},"name":"web_search","type":"server_tool_use"}]}]}"#),
        "{body}"
    );
    // It owes no output, and the stored turn keeps it.
    let outputs = [ToolOutput::ok("srvtoolu_1", "x")];
    assert!(Provider::Anthropic
        .body(&Turn::new(&history).round(&paused, &outputs))
        .is_err());
    let last = Provider::Anthropic
        .read_reply(
            r#"{"content": [{"type": "text", "text": "Found it."}], "stop_reason": "end_turn"}"#,
        )
        .unwrap();
    let stored = turn.store_turn(&last).unwrap();
    assert_eq!(
        stored.blocks,
        [
            Block::text("[Not kept: Anthropic server_tool_use content]"),
            Block::text("Found it."),
        ]
    );
}
