//! A finished reply is never refused for what it contains: content the crate does not read
//! becomes the text `[Not kept: {provider} {type} content]` where it stood, is listed by
//! `Reply::not_kept`, goes back natively in the round, and a stream gives the same reply as the
//! whole body of the same response, in any chunking. Anthropic's server tools and Nova's
//! built-in tools are calls the provider ran, with their results rendered as text, owing no
//! output; citations are sources after the text they support.

use serde_json::json;
use transcript_replay::{
    Block, Provider, Reply, StopReason, StoredMessage, ToolInput, ToolOutput, Turn,
};
use transcript_replay_conformance::schemas;
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
fn anthropic_server_tools_are_provider_executed_calls_and_results_whole_and_streamed() {
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
            Block::provider_tool_use(
                "srvtoolu_1",
                "web_search",
                ToolInput::json(r#"{"query":"rust"}"#).unwrap()
            ),
            Block::tool_result(
                "srvtoolu_1",
                "web_search",
                "Rust <https://www.rust-lang.org>"
            ),
            Block::text("Rust is a language."),
        ]
    );
    // Nothing is owed: the turn ends, and no round needs an output for the server's call.
    assert_eq!(whole.stop, StopReason::EndTurn);
    assert!(whole.not_kept().is_empty());
    for size in [1, 7, 64, 4096] {
        assert_eq!(
            streamed(Provider::Anthropic, &bytes, size),
            whole,
            "chunks of {size}"
        );
    }
}

/// A Bedrock stream of these `(event type, payload)` frames.
fn bedrock_stream(events: &[(&str, serde_json::Value)]) -> Vec<u8> {
    events
        .iter()
        .flat_map(|(event, payload)| streams::event(event, payload))
        .collect()
}

/// The provider's own content of a reply, each item checked against the service model's
/// `ContentBlock`, as the round in flight sends it back.
fn bedrock_native(reply: &Reply) -> Vec<serde_json::Value> {
    reply
        .native()
        .map(|item| {
            let item: serde_json::Value = serde_json::from_str(item).unwrap();
            assert_eq!(
                schemas::bedrock_errors("ContentBlock", &item),
                Vec::<String>::new(),
                "{item}"
            );
            item
        })
        .collect()
}

#[test]
fn bedrock_citations_are_source_blocks_after_the_text_they_support_whole_and_streamed() {
    // Nova web grounding (https://docs.aws.amazon.com/nova/latest/userguide/grounding.html):
    // cited text comes as `citationsContent`, each citation's `location.web` naming the page;
    // a document citation (`documentChar`) names its title and the words it cites
    // (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Citation.html).
    let iea = json!({"location": {"web": {"url": "https://www.iea.org/reports/renewables-2024", "domain": "iea.org"}}});
    let irena = json!({"location": {"web": {"url": "https://www.irena.org/Publications", "domain": "irena.org"}}});
    let document = json!({"title": "Q3 report", "sourceContent": [{"text": "Solar output rose 30%."}],
        "location": {"documentChar": {"documentIndex": 0, "start": 10, "end": 32}}});
    // Names neither a URL nor a title: no source.
    let untitled =
        json!({"location": {"documentPage": {"documentIndex": 0, "start": 1, "end": 2}}});
    let whole = Provider::Bedrock
        .read_reply(
            &json!({"output": {"message": {"role": "assistant", "content": [
                {"text": "Here is what is new. "},
                {"citationsContent": {"content": [{"text": "Renewables grew fastest in 2024."}],
                    "citations": [iea, iea, irena]}},
                {"citationsContent": {"content": [{"text": " Solar led."}],
                    "citations": [document, untitled]}},
                {"text": " Done."}]}},
                "stopReason": "end_turn",
                "usage": {"inputTokens": 12, "outputTokens": 30, "totalTokens": 42}})
            .to_string(),
        )
        .unwrap();
    let web = |url: &str| Block::Source {
        url: Some(url.into()),
        title: None,
        cited_text: None,
    };
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Here is what is new. "),
            Block::text("Renewables grew fastest in 2024."),
            web("https://www.iea.org/reports/renewables-2024"),
            web("https://www.irena.org/Publications"),
            Block::text(" Solar led."),
            Block::Source {
                url: None,
                title: Some("Q3 report".into()),
                cited_text: Some("Solar output rose 30%.".into()),
            },
            Block::text(" Done."),
        ]
    );
    assert_eq!(whole.stop, StopReason::EndTurn);
    assert!(whole.not_kept().is_empty(), "{:?}", whole.not_kept());
    // The stream: text deltas, then each citation as a `citation` delta of the same block.
    let bytes = bedrock_stream(&[
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "Here is what is new. "}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"text": "Renewables grew "}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"text": "fastest in 2024."}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"citation": iea}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"citation": iea}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"citation": irena}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 1})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"text": " Solar led."}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"citation": document}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"citation": untitled}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 2})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 3, "delta": {"text": " Done."}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 3})),
        ("messageStop", json!({"stopReason": "end_turn"})),
        (
            "metadata",
            json!({"usage": {"inputTokens": 12, "outputTokens": 30, "totalTokens": 42}, "metrics": {"latencyMs": 900}}),
        ),
    ]);
    for size in [1, 7, 64, 4096] {
        let streamed = streamed(Provider::Bedrock, &bytes, size);
        assert_eq!(streamed, whole, "chunks of {size}");
        assert_eq!(
            serde_json::to_string(&streamed).unwrap(),
            serde_json::to_string(&whole).unwrap(),
            "chunks of {size}"
        );
    }
    // Replayed: the sources after the text they support.
    let wire = transcript_replay::replay_message(&whole.message, transcript_replay::Vision::Sees);
    let replayed = serde_json::to_value(&wire).unwrap()["content"][0]["text"].clone();
    assert!(
        replayed.as_str().unwrap().contains(
            "Renewables grew fastest in 2024.\n\n[Source: <https://www.iea.org/reports/renewables-2024>]"
        ),
        "{replayed}"
    );
    // In the round in flight, the cited text goes back as `citationsContent`, whole as it
    // came, streamed with the citations the deltas gave.
    for reply in [&whole, &streamed(Provider::Bedrock, &bytes, 4096)] {
        let native = bedrock_native(reply);
        assert_eq!(native.len(), 4);
        assert_eq!(
            native[1],
            json!({"citationsContent": {"content": [{"text": "Renewables grew fastest in 2024."}], "citations": [iea, iea, irena]}})
        );
        assert_eq!(
            native[2],
            json!({"citationsContent": {"content": [{"text": " Solar led."}], "citations": [document, untitled]}})
        );
    }
}

#[test]
fn bedrock_nova_built_in_tools_are_provider_executed_calls_and_results_whole_and_streamed() {
    // Nova's code interpreter (https://docs.aws.amazon.com/nova/latest/userguide/tool-built-in.html):
    // a `toolUse` of type `server_tool_use`, then the `toolResult` the provider made, in the
    // assistant's own content, then the answer.
    let call = json!({"toolUse": {
        "input": {"code": "numbers = [10, 24, 2]\nsum(numbers) / len(numbers)"},
        "name": "nova_code_interpreter", "toolUseId": "tooluse_WytfF0g1S5qUeEPm0ptOdQ", "type": "server_tool_use"}});
    let result = json!({"toolResult": {
        "content": [{"text": "{\"stdOut\":\"12.0\",\"stdErr\":\"\",\"exitCode\":0,\"isError\":false}"}],
        "status": "success", "toolUseId": "tooluse_WytfF0g1S5qUeEPm0ptOdQ", "type": "nova_code_interpreter_result"}});
    let whole = Provider::Bedrock
        .read_reply(
            &json!({"output": {"message": {"role": "assistant", "content": [
                {"text": "Let me compute that."}, call, result, {"text": "The average is 12."}]}},
                "stopReason": "end_turn",
                "usage": {"inputTokens": 40, "outputTokens": 25, "totalTokens": 65}})
            .to_string(),
        )
        .unwrap();
    let expected = [
        Block::text("Let me compute that."),
        Block::provider_tool_use(
            "tooluse_WytfF0g1S5qUeEPm0ptOdQ",
            "nova_code_interpreter",
            ToolInput::json(r#"{"code":"numbers = [10, 24, 2]\nsum(numbers) / len(numbers)"}"#)
                .unwrap(),
        ),
        Block::tool_result(
            "tooluse_WytfF0g1S5qUeEPm0ptOdQ",
            "nova_code_interpreter",
            // Code execution as docs/design.md#provider-executed-tools writes it: stdout, stderr, exit code.
            "12.0\nexit code: 0",
        ),
        Block::text("The average is 12."),
    ];
    assert_eq!(whole.message.blocks, expected);
    // Nothing is owed: the turn ends.
    assert_eq!(whole.stop, StopReason::EndTurn);
    assert!(whole.not_kept().is_empty(), "{:?}", whole.not_kept());
    let bytes = bedrock_stream(&[
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "Let me compute that."}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 1, "start": {"toolUse": {
            "toolUseId": "tooluse_WytfF0g1S5qUeEPm0ptOdQ", "name": "nova_code_interpreter", "type": "server_tool_use"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"code\": \"numbers = [10, 24, 2]\\n"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolUse": {"input": "sum(numbers) / len(numbers)\"}"}}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 1})),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 2, "start": {"toolResult": {
            "toolUseId": "tooluse_WytfF0g1S5qUeEPm0ptOdQ", "type": "nova_code_interpreter_result", "status": "success"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"toolResult": [
            {"text": "{\"stdOut\":\"12.0\",\"stdErr\":\"\",\"exitCode\":0,\"isError\":false}"}]}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 2})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 3, "delta": {"text": "The average is 12."}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 3})),
        ("messageStop", json!({"stopReason": "end_turn"})),
        (
            "metadata",
            json!({"usage": {"inputTokens": 40, "outputTokens": 25, "totalTokens": 65}, "metrics": {"latencyMs": 1200}}),
        ),
    ]);
    for size in [1, 7, 64, 4096] {
        let streamed = streamed(Provider::Bedrock, &bytes, size);
        assert_eq!(streamed, whole, "chunks of {size}");
        assert_eq!(
            serde_json::to_string(&streamed).unwrap(),
            serde_json::to_string(&whole).unwrap(),
            "chunks of {size}"
        );
    }
    // They go back natively, as they came, whole and streamed.
    for reply in [&whole, &streamed(Provider::Bedrock, &bytes, 13)] {
        let native = bedrock_native(reply);
        assert_eq!(native.len(), 4);
        assert_eq!(native[1], call);
        assert_eq!(native[2], result);
    }
}

#[test]
fn a_nova_tool_error_and_json_content_are_read_alike_whole_and_streamed() {
    // `status: "error"` is an error; `json` content is compact JSON text, each item a line
    // (`ToolResultContentBlock`, `ToolResultBlockDelta` in the service model). Next to the
    // provider's call, a client's call still stops the reply for tool use.
    let whole = Provider::Bedrock
        .read_reply(
            &json!({"output": {"message": {"role": "assistant", "content": [
                {"toolUse": {"toolUseId": "tooluse_1", "name": "nova_code_interpreter", "type": "server_tool_use", "input": {"code": "1/0"}}},
                {"toolResult": {"toolUseId": "tooluse_1", "type": "nova_code_interpreter_result", "status": "error", "content": [
                    {"text": "ZeroDivisionError"},
                    {"json": {"stdOut": "", "stdErr": "division by zero", "exitCode": 1, "isError": true}}]}},
                {"toolUse": {"toolUseId": "tooluse_2", "name": "read", "input": {"path": "a.py"}}}]}},
                "stopReason": "tool_use"})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks[1],
        Block::tool_error(
            "tooluse_1",
            "nova_code_interpreter",
            "ZeroDivisionError\nstderr: division by zero\nexit code: 1"
        )
    );
    assert_eq!(whole.stop, StopReason::ToolUse);
    let bytes = bedrock_stream(&[
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 0, "start": {"toolUse": {
            "toolUseId": "tooluse_1", "name": "nova_code_interpreter", "type": "server_tool_use"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{\"code\": \"1/0\"}"}}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 1, "start": {"toolResult": {
            "toolUseId": "tooluse_1", "type": "nova_code_interpreter_result", "status": "error"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolResult": [{"text": "ZeroDivisionError"}]}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolResult": [
            {"json": {"stdOut": "", "stdErr": "division by zero", "exitCode": 1, "isError": true}}]}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 1})),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 2, "start": {"toolUse": {"toolUseId": "tooluse_2", "name": "read"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"toolUse": {"input": "{\"path\": \"a.py\"}"}}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 2})),
        ("messageStop", json!({"stopReason": "tool_use"})),
    ]);
    for size in [1, 9, 4096] {
        assert_eq!(
            streamed(Provider::Bedrock, &bytes, size),
            whole,
            "chunks of {size}"
        );
    }
    // The round owes an output for the client's call only, and sends the provider's call and
    // result back in the assistant's content; an output for the provider's call is one for no
    // call.
    let history = [StoredMessage::user("Divide, then read.")];
    let tools = [transcript_replay::Tool::new("read", "", r#"{"type":"object"}"#).unwrap()];
    for reply in [whole.clone(), streamed(Provider::Bedrock, &bytes, 13)] {
        let answered = [ToolOutput::ok("tooluse_2", "print(1)")];
        let turn = Turn::new(&history).tools(&tools).round(&reply, &answered);
        let body = serde_json::to_value(Provider::Bedrock.body(&turn).unwrap()).unwrap();
        assert_eq!(
            schemas::bedrock_errors("ConverseRequest", &body),
            Vec::<String>::new(),
            "{body}"
        );
        let messages = body["messages"].as_array().unwrap();
        let content = |at: usize| messages[at]["content"].as_array().unwrap().clone();
        assert_eq!(content(1).len(), 3, "{body}");
        assert_eq!(content(1)[1]["toolResult"]["toolUseId"], "tooluse_1");
        assert_eq!(content(2).len(), 1, "{body}");
        assert_eq!(content(2)[0]["toolResult"]["toolUseId"], "tooluse_2");
        let extra = [
            ToolOutput::ok("tooluse_2", "print(1)"),
            ToolOutput::ok("tooluse_1", "x"),
        ];
        assert!(Provider::Bedrock
            .body(&Turn::new(&history).tools(&tools).round(&reply, &extra))
            .is_err());
    }
}

#[test]
fn gemini_code_execution_is_a_provider_executed_call_and_its_result_whole_and_streamed() {
    let events = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Running"}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"executableCode": {"language": "PYTHON", "code": "print(1)"}}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"fileData": {"mimeType": "image/png", "fileUri": "gs://b/p.png"}}]}}]}),
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
                {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/p.png"}},
                {"text": "It printed 1."}]}, "finishReason": "STOP"}]})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Running"),
            Block::provider_tool_use(
                "made_0_0",
                "code_execution",
                ToolInput::json(r#"{"code":"print(1)","language":"PYTHON"}"#).unwrap()
            ),
            Block::tool_result("made_0_0", "code_execution", "1"),
            Block::text("[Not kept: Gemini fileData content]"),
            Block::text("It printed 1."),
        ]
    );
    // No output is owed: the turn ends.
    assert_eq!(whole.stop, StopReason::EndTurn);
    for size in [1, 9, 4096] {
        assert_eq!(
            streamed(Provider::Gemini, bytes.as_bytes(), size),
            whole,
            "chunks of {size}"
        );
    }
    // A failed run is an error result that says how it failed.
    let failed = Provider::Gemini
        .read_reply(r#"{"candidates": [{"content": {"parts": [{"executableCode": {"language": "PYTHON", "code": "1/0"}}, {"codeExecutionResult": {"outcome": "OUTCOME_FAILED", "output": "ZeroDivisionError"}}]}, "finishReason": "STOP"}]}"#)
        .unwrap();
    assert_eq!(
        failed.message.blocks[1],
        Block::tool_error(
            "made_0_0",
            "code_execution",
            "OUTCOME_FAILED\nZeroDivisionError"
        )
    );
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
            Block::provider_tool_use(
                "srvtoolu_1",
                "web_search",
                ToolInput::json(r#"{"query":"rust"}"#).unwrap()
            ),
            Block::text("Found it."),
        ]
    );
}

#[test]
fn each_server_tool_result_is_rendered_as_the_model_should_read_it() {
    // (the result block, its output, whether it is an error)
    let cases = [
        (
            json!({"type": "web_search_tool_result", "tool_use_id": "s1", "content": [
                {"type": "web_search_result", "title": "Rust", "url": "https://www.rust-lang.org", "encrypted_content": "EqA"},
                {"type": "web_search_result", "title": "Docs", "url": "https://doc.rust-lang.org"}]}),
            "Rust <https://www.rust-lang.org>\nDocs <https://doc.rust-lang.org>",
            false,
        ),
        (
            json!({"type": "web_search_tool_result", "tool_use_id": "s1", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}}),
            "max_uses_exceeded",
            true,
        ),
        (
            json!({"type": "code_execution_tool_result", "tool_use_id": "s1", "content": {"type": "code_execution_result", "stdout": "4\n", "stderr": "", "return_code": 0}}),
            "4\n\nexit code: 0",
            false,
        ),
        (
            json!({"type": "bash_code_execution_tool_result", "tool_use_id": "s1", "content": {"type": "bash_code_execution_result", "stdout": "", "stderr": "no such file", "return_code": 2}}),
            "stderr: no such file\nexit code: 2",
            false,
        ),
        (
            json!({"type": "web_fetch_tool_result", "tool_use_id": "s1", "content": {"type": "web_fetch_result", "url": "https://example.com",
                "content": {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "Example Domain"}, "title": "Example"}}}),
            "Example Domain",
            false,
        ),
        (
            json!({"type": "mcp_tool_result", "tool_use_id": "s1", "is_error": true, "content": [{"type": "text", "text": "denied"}]}),
            "denied",
            true,
        ),
    ];
    for (block, output, is_error) in cases {
        let body = json!({"content": [
            {"type": "server_tool_use", "id": "s1", "name": "the_tool", "input": {}}, block],
            "stop_reason": "end_turn"});
        let reply = Provider::Anthropic.read_reply(&body.to_string()).unwrap();
        let expected = Block::ToolResult {
            tool_use_id: "s1".into(),
            tool_name: "the_tool".into(),
            output: output.into(),
            is_error,
        };
        assert_eq!(reply.message.blocks[1], expected, "{block}");
    }
}

#[test]
fn a_streamed_mcp_call_goes_back_in_the_round_with_every_field_it_came_with() {
    // `mcp_tool_use` carries `server_name`, which Anthropic requires back.
    let bytes = named(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "echo", "server_name": "tools", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"text\": \"hi\"}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "is_error": false, "content": [{"type": "text", "text": "hi"}]}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "pause_turn"}, "usage": {"output_tokens": 5}}),
        json!({"type": "message_stop"}),
    ]);
    let reply = streamed(Provider::Anthropic, &bytes, 11);
    assert_eq!(
        reply.message.blocks[1],
        Block::tool_result("mcptoolu_1", "echo", "hi")
    );
    let history = [StoredMessage::user("Echo hi.")];
    let turn = Turn::new(&history).without_preamble().round(&reply, &[]);
    let body = serde_json::to_string(&Provider::Anthropic.body(&turn).unwrap()).unwrap();
    assert!(
        body.contains(r#"{"id":"mcptoolu_1","input":{"text":"hi"},"name":"echo","server_name":"tools","type":"mcp_tool_use"}"#),
        "{body}"
    );
}

#[test]
fn openai_audio_is_its_transcript_then_a_file_streamed_as_whole_and_goes_back_by_id() {
    // A WAV header: "RIFF", a size, "WAVE".
    let whole = Provider::OpenAi
        .read_reply(r#"{"choices": [{"message": {"role": "assistant", "content": null, "audio": {"id": "audio_1", "data": "UklGRiQAAABXQVZF", "expires_at": 1729018505, "transcript": "Hi"}}, "finish_reason": "stop"}]}"#)
        .unwrap();
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "audio": {"id": "audio_1", "transcript": "H"}}}]}),
        json!({"choices": [{"index": 0, "delta": {"audio": {"transcript": "i", "data": "UklGRiQA"}}}]}),
        json!({"choices": [{"index": 0, "delta": {"audio": {"data": "AABXQVZF", "expires_at": 1729018505}}}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ];
    let mut bytes: String = events
        .iter()
        .map(|event| format!("data: {event}\n\n"))
        .collect();
    bytes.push_str("data: [DONE]\n\n");
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Hi"),
            Block::file("audio/wav", "UklGRiQAAABXQVZF")
        ]
    );
    assert!(whole.not_kept().is_empty());
    let stream = streamed(Provider::OpenAi, bytes.as_bytes(), 13);
    assert_eq!(stream.message, whole.message);
    // The round sends the audio back by its id, the request's form of it.
    let history = [StoredMessage::user("Say hi.")];
    let round = r#"{"choices": [{"message": {"role": "assistant", "content": null, "audio": {"id": "audio_1", "data": "UklGRiQAAABXQVZF", "transcript": "Hi"}, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}"#;
    let reply = Provider::OpenAi.read_reply(round).unwrap();
    let outputs = [ToolOutput::ok("call_1", "")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, &outputs);
    let body = serde_json::to_value(Provider::OpenAi.body(&turn).unwrap()).unwrap();
    assert_eq!(body["messages"][1]["audio"], json!({"id": "audio_1"}));
}

#[test]
fn gemini_generated_audio_is_a_file_block_whole_and_streamed() {
    let whole = Provider::Gemini
        .read_reply(r#"{"candidates": [{"content": {"role": "model", "parts": [{"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}}]}, "finishReason": "STOP"}]}"#)
        .unwrap();
    assert_eq!(whole.message.blocks, [Block::file("audio/wav", "UklGRg==")]);
    let bytes = "data: {\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"inlineData\": {\"mimeType\": \"audio/wav\", \"data\": \"UklGRg==\"}}]}, \"finishReason\": \"STOP\"}]}\r\n\r\n";
    assert_eq!(streamed(Provider::Gemini, bytes.as_bytes(), 5), whole);
}

#[test]
fn responses_client_items_are_tool_calls_answered_by_their_own_output_items() {
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";
    // (the output item, the stored call's name and input, the output item the round writes
    // for the output "done" (with a screenshot for the computer), its schema in the pinned spec)
    let cases = [
        (
            r#"{"type":"computer_call","id":"cu_1","call_id":"call_1","action":{"type":"click","x":10,"y":20,"button":"left"},"pending_safety_checks":[],"status":"completed"}"#,
            (
                "computer",
                r#"{"type":"click","x":10,"y":20,"button":"left"}"#,
            ),
            json!({"type": "computer_call_output", "call_id": "call_1", "output": {"type": "computer_screenshot", "image_url": format!("data:image/png;base64,{PNG}")}}),
            "ComputerCallOutputItemParam",
        ),
        (
            r#"{"type":"shell_call","id":"sh_1","call_id":"call_1","action":{"commands":["ls"],"timeout_ms":1000,"max_output_length":100},"status":"completed"}"#,
            (
                "shell",
                r#"{"commands":["ls"],"timeout_ms":1000,"max_output_length":100}"#,
            ),
            json!({"type": "shell_call_output", "call_id": "call_1", "output": [{"stdout": "done", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}]}),
            "FunctionShellCallOutputItemParam",
        ),
        (
            r#"{"type":"local_shell_call","id":"ls_1","call_id":"call_1","action":{"type":"exec","command":["ls"],"env":{}},"status":"completed"}"#,
            (
                "local_shell",
                r#"{"type":"exec","command":["ls"],"env":{}}"#,
            ),
            json!({"type": "local_shell_call_output", "id": "call_1", "call_id": "call_1", "output": "done"}),
            "LocalShellToolCallOutput",
        ),
        (
            r#"{"type":"apply_patch_call","id":"ap_1","call_id":"call_1","operation":{"type":"delete_file","path":"a.rs"},"status":"completed"}"#,
            ("apply_patch", r#"{"type":"delete_file","path":"a.rs"}"#),
            json!({"type": "apply_patch_call_output", "call_id": "call_1", "status": "completed", "output": "done"}),
            "ApplyPatchToolCallOutputItemParam",
        ),
        (
            r#"{"type":"custom_tool_call","id":"ct_1","call_id":"call_1","name":"grammar","input":"a+b"}"#,
            // Free-form input, stored as its JSON string.
            ("grammar", r#""a+b""#),
            json!({"type": "custom_tool_call_output", "call_id": "call_1", "output": "done"}),
            "CustomToolCallOutput",
        ),
    ];
    let history = [StoredMessage::user("Do it.")];
    for (item, (name, input), expected, schema) in cases {
        let reply = Provider::OpenAiResponses
            .read_reply(&format!(r#"{{"status":"completed","output":[{item}]}}"#))
            .unwrap();
        let [Block::ToolUse {
            id,
            name: called,
            input: stored,
            provider_executed: false,
        }] = reply.message.blocks.as_slice()
        else {
            panic!("one client call: {:?}", reply.message.blocks)
        };
        assert_eq!(
            (id.as_str(), called.as_str(), stored.as_str()),
            ("call_1", name, input)
        );
        assert_eq!(reply.stop, StopReason::ToolUse);
        let output = match name {
            // A screenshot alone: the output item carries all of it.
            "computer" => ToolOutput::ok("call_1", "").with_image("image/png", PNG),
            _ => ToolOutput::ok("call_1", "done"),
        };
        let outputs = [output];
        let turn = Turn::new(&history)
            .without_preamble()
            .round(&reply, &outputs);
        let body = serde_json::to_value(Provider::OpenAiResponses.body(&turn).unwrap()).unwrap();
        let written = body["input"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(written, expected, "{name}");
        let errors = schemas::errors(&schemas::openai().validator(schema), &written);
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

#[test]
fn responses_server_items_are_provider_executed_calls_with_their_results() {
    // (the output item, the call's name and input, the result's output and whether it failed)
    let cases = [
        (
            json!({"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "rust",
                "sources": [{"type": "url", "url": "https://www.rust-lang.org"}, {"type": "url", "url": "https://doc.rust-lang.org"}]}}),
            (
                "web_search",
                r#"{"query":"rust","sources":[{"type":"url","url":"https://www.rust-lang.org"},{"type":"url","url":"https://doc.rust-lang.org"}],"type":"search"}"#,
            ),
            (
                "<https://www.rust-lang.org>\n<https://doc.rust-lang.org>",
                false,
            ),
        ),
        (
            json!({"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "rust"}}),
            ("web_search", r#"{"query":"rust","type":"search"}"#),
            ("searched: rust", false),
        ),
        (
            json!({"type": "file_search_call", "id": "fs_1", "status": "completed", "queries": ["auth"],
                "results": [{"file_id": "f1", "filename": "auth.md", "score": 0.9, "text": "Tokens expire."}]}),
            ("file_search", r#"{"queries":["auth"]}"#),
            ("auth.md: Tokens expire.", false),
        ),
        (
            json!({"type": "code_interpreter_call", "id": "ci_1", "status": "completed", "container_id": "c1", "code": "print(2+2)",
                "outputs": [{"type": "logs", "logs": "4"}]}),
            ("code_interpreter", r#"{"code":"print(2+2)"}"#),
            ("4", false),
        ),
        (
            json!({"type": "mcp_call", "id": "mcp_1", "server_label": "docs", "name": "lookup", "arguments": "{\"q\": \"x\"}", "error": "denied"}),
            ("lookup", r#"{"q":"x"}"#),
            ("denied", true),
        ),
        (
            json!({"type": "mcp_list_tools", "id": "ml_1", "server_label": "docs", "tools": [{"name": "lookup", "input_schema": {}}]}),
            ("mcp_list_tools", r#"{"server_label":"docs"}"#),
            ("lookup", false),
        ),
    ];
    for (item, (name, input), (output, is_error)) in cases {
        let id = item["id"].as_str().unwrap().to_owned();
        let reply = Provider::OpenAiResponses
            .read_reply(&json!({"status": "completed", "output": [item, {"type": "message", "id": "m", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}]}).to_string())
            .unwrap();
        assert_eq!(
            reply.message.blocks,
            [
                Block::provider_tool_use(id.clone(), name, ToolInput::json(input).unwrap()),
                Block::ToolResult {
                    tool_use_id: id,
                    tool_name: name.into(),
                    output: output.into(),
                    is_error,
                },
                Block::text("Done."),
            ],
            "{name}"
        );
        // Nothing is owed: the turn ends.
        assert_eq!(reply.stop, StopReason::EndTurn, "{name}");
    }
}

#[test]
fn anthropic_citations_are_source_blocks_after_the_text_they_support_whole_and_streamed() {
    // https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool: a cited text
    // block, its citations streamed as `citations_delta` before its text.
    let citation = json!({"type": "web_search_result_location", "url": "https://www.rust-lang.org", "title": "Rust",
        "encrypted_index": "Eo8B", "cited_text": "A language empowering everyone"});
    let bytes = named(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "", "citations": []}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta", "citation": citation}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Rust empowers everyone."}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta", "citation": citation}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": " Done."}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}}),
        json!({"type": "message_stop"}),
    ]);
    let whole = Provider::Anthropic
        .read_reply(
            &json!({"content": [
                {"type": "text", "text": "Rust empowers everyone.", "citations": [citation, citation]},
                {"type": "text", "text": " Done."}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 3, "output_tokens": 5}})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Rust empowers everyone."),
            Block::Source {
                url: Some("https://www.rust-lang.org".into()),
                title: Some("Rust".into()),
                cited_text: Some("A language empowering everyone".into()),
            },
            Block::text(" Done."),
        ]
    );
    for size in [1, 17, 4096] {
        assert_eq!(
            streamed(Provider::Anthropic, &bytes, size),
            whole,
            "chunks of {size}"
        );
    }
    // Replayed: `[Source: {title} <{url}>]`, the cited words kept in the record only.
    let wire = transcript_replay::replay_message(&whole.message, transcript_replay::Vision::Sees);
    assert_eq!(
        serde_json::to_value(&wire).unwrap()["content"][0]["text"],
        "Rust empowers everyone.\n\n[Source: Rust <https://www.rust-lang.org>]\n\n Done."
    );
    let written = transcript_replay::write_record(std::slice::from_ref(&whole.message));
    assert!(written.contains(r#"{"type":"source","url":"https://www.rust-lang.org","title":"Rust","cited_text":"A language empowering everyone"}"#), "{written}");
    assert_eq!(
        transcript_replay::parse_record(&written).unwrap(),
        [whole.message]
    );
}

#[test]
fn gemini_grounding_and_responses_annotations_are_sources_whole_and_streamed() {
    // Gemini: grounding cites no span the record keeps, so its sources end the message; the
    // search suggestions are kept on the reply, for display.
    let grounding = json!({
        "searchEntryPoint": {"renderedContent": "<div>rust release</div>"},
        "groundingChunks": [
            {"web": {"uri": "https://blog.rust-lang.org", "title": "Rust Blog"}},
            {"web": {"uri": "https://blog.rust-lang.org", "title": "Rust Blog"}},
            {"web": {"uri": "https://doc.rust-lang.org", "title": "Docs"}}]});
    let whole = Provider::Gemini
        .read_reply(
            &json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Rust 1.80 is out."}]},
                "finishReason": "STOP", "groundingMetadata": grounding}]})
            .to_string(),
        )
        .unwrap();
    let source = |url: &str, title: &str| Block::Source {
        url: Some(url.into()),
        title: Some(title.into()),
        cited_text: None,
    };
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Rust 1.80 is out."),
            source("https://blog.rust-lang.org", "Rust Blog"),
            source("https://doc.rust-lang.org", "Docs"),
        ]
    );
    assert_eq!(whole.search_suggestions(), Some("<div>rust release</div>"));
    let events = [
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Rust 1.80 "}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "is out."}]}, "finishReason": "STOP", "groundingMetadata": grounding}]}),
    ];
    let bytes: String = events
        .iter()
        .map(|event| format!("data: {event}\r\n\r\n"))
        .collect();
    for size in [1, 23, 4096] {
        assert_eq!(
            streamed(Provider::Gemini, bytes.as_bytes(), size),
            whole,
            "chunks of {size}"
        );
    }
    // Responses: the sources an output text's annotations name follow it.
    let reply = Provider::OpenAiResponses
        .read_reply(
            &json!({"status": "completed", "output": [{"type": "message", "id": "m", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "Rust 1.80 is out.", "annotations": [
                    {"type": "url_citation", "url": "https://blog.rust-lang.org", "title": "Rust Blog", "start_index": 0, "end_index": 9},
                    {"type": "file_citation", "file_id": "file_1", "filename": "notes.md", "index": 3}]}]}]})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        reply.message.blocks,
        [
            Block::text("Rust 1.80 is out."),
            source("https://blog.rust-lang.org", "Rust Blog"),
            Block::Source {
                url: None,
                title: Some("notes.md".into()),
                cited_text: None,
            },
        ]
    );
}

#[test]
fn a_round_owes_outputs_for_the_clients_calls_only_never_for_the_providers() {
    let reply = Provider::Anthropic
        .read_reply(
            &json!({"content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}},
                {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
                {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}],
                "stop_reason": "tool_use"})
            .to_string(),
        )
        .unwrap();
    let history = [StoredMessage::user("Search, then read.")];
    let tools = [transcript_replay::Tool::new("read", "", r#"{"type":"object"}"#).unwrap()];
    // The client's call answered: the body is whole; an output for the server's call is one
    // for no call the caller owes.
    let answered = [ToolOutput::ok("toolu_1", "fn main() {}")];
    let body = serde_json::to_string(
        &Provider::Anthropic
            .body(&Turn::new(&history).tools(&tools).round(&reply, &answered))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(body.matches(r#""type":"tool_result""#).count(), 1, "{body}");
    let extra = [
        ToolOutput::ok("toolu_1", "fn main() {}"),
        ToolOutput::ok("srvtoolu_1", "x"),
    ];
    assert!(Provider::Anthropic
        .body(&Turn::new(&history).tools(&tools).round(&reply, &extra))
        .is_err());
}

#[test]
fn a_shell_outputs_image_is_the_marker_in_its_text_not_lost() {
    let reply = Provider::OpenAiResponses
        .read_reply(r#"{"status": "completed", "output": [{"type":"shell_call","id":"sh_1","call_id":"call_1","action":{"commands":["screenshot"]},"status":"completed"}]}"#)
        .unwrap();
    let history = [StoredMessage::user("Show me.")];
    let outputs = [ToolOutput::ok("call_1", "saved")
        .with_image(
            "image/png",
            transcript_replay_conformance::records::IMAGES[0],
        )
        .with_named_file("log.txt", "text/plain", "aGk=")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, &outputs);
    let body = serde_json::to_value(Provider::OpenAiResponses.body(&turn).unwrap()).unwrap();
    let input = body["input"].as_array().unwrap();
    assert_eq!(
        input.last().unwrap()["output"][0]["stdout"],
        "saved\n\n[Image (image/png) not shown: OpenAI takes no images in a shell_call_output]\n\n[File log.txt (text/plain) not shown: OpenAI takes no files in a shell_call_output]"
    );
}

#[test]
fn a_bedrock_generated_image_is_an_image_block_streamed_as_whole_and_goes_back_as_it_came() {
    let png = transcript_replay_conformance::records::IMAGES[0];
    let whole = Provider::Bedrock
        .read_reply(
            &json!({"output": {"message": {"role": "assistant", "content": [
                {"text": "Here it is."},
                {"image": {"format": "png", "source": {"bytes": png}}}]}},
                "stopReason": "end_turn"})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [Block::text("Here it is."), Block::image("image/png", png)]
    );
    let (head, tail) = png.split_at(16);
    let bytes = bedrock_stream(&[
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "Here it is."}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 1, "start": {"image": {"format": "png"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"image": {"source": {"bytes": head}}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"image": {"source": {"bytes": tail}}}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 1})),
        ("messageStop", json!({"stopReason": "end_turn"})),
    ]);
    for size in [5, 64, 4096] {
        let reply = streamed(Provider::Bedrock, &bytes, size);
        assert_eq!(reply.message, whole.message, "{size}");
        assert_eq!(
            reply.native().last().map(str::to_owned),
            Some(format!(
                r#"{{"image":{{"format":"png","source":{{"bytes":"{png}"}}}}}}"#
            )),
        );
    }
}

#[test]
fn a_responses_generated_image_is_a_provider_call_then_an_image_and_a_failed_one_no_refusal() {
    let png = transcript_replay_conformance::records::IMAGES[0];
    let item = json!({"type": "image_generation_call", "id": "ig_1", "status": "completed",
        "revised_prompt": "A red dot", "result": png});
    let failed =
        json!({"type": "image_generation_call", "id": "ig_2", "status": "failed", "result": null});
    let whole = Provider::OpenAiResponses
        .read_reply(&json!({"status": "completed", "output": [item, failed]}).to_string())
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::provider_tool_use(
                "ig_1",
                "image_generation",
                ToolInput::json(r#"{"prompt":"A red dot"}"#).unwrap(),
            ),
            Block::tool_result("ig_1", "image_generation", ""),
            Block::image("image/png", png),
            Block::provider_tool_use("ig_2", "image_generation", ToolInput::json("{}").unwrap()),
            Block::tool_error("ig_2", "image_generation", "failed"),
        ]
    );
    assert!(whole.calls().is_empty());
    assert_eq!(whole.stop, StopReason::EndTurn);
    let events = [
        json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": failed}),
        json!({"type": "response.completed", "response": {"status": "completed", "output": []}}),
    ];
    let bytes: String = events
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap()
            )
        })
        .collect();
    for size in [7, 4096] {
        assert_eq!(
            streamed(Provider::OpenAiResponses, bytes.as_bytes(), size).message,
            whole.message
        );
    }
}

#[test]
fn what_a_computer_output_item_cannot_carry_follows_it_in_a_user_message() {
    let reply = Provider::OpenAiResponses
        .read_reply(r#"{"status": "completed", "output": [{"type":"computer_call","id":"cu_1","call_id":"call_1","action":{"type":"screenshot"},"pending_safety_checks":[],"status":"completed"}]}"#)
        .unwrap();
    use transcript_replay::Priced;
    const PNG: &str = transcript_replay_conformance::records::IMAGES[0];
    let second = transcript_replay_conformance::records::IMAGES[1];
    let outputs = [ToolOutput::ok("call_1", "Clicked.")
        .with_image("image/png", PNG)
        .with_image("image/png", second)
        .with_named_file("log.txt", "text/plain", "aGk=")];
    let history = [StoredMessage::user("Look.")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, &outputs);
    let body = Provider::OpenAiResponses.body(&turn).unwrap();
    let bytes = serde_json::to_vec(&body).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let input = json["input"].as_array().unwrap();
    let output = &input[input.len() - 2];
    assert_eq!(
        output["output"],
        json!({"type": "computer_screenshot", "image_url": format!("data:image/png;base64,{PNG}")})
    );
    let rest = input.last().unwrap();
    assert_eq!(rest["role"], "user");
    let texts: Vec<&str> = rest["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|part| part["text"].as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "Result (computer): Clicked.",
            "[Image from the result of computer (call_1)]",
            "[File from the result of computer (call_1)]"
        ]
    );
    let errors = schemas::errors(&schemas::openai().validator("EasyInputMessage"), rest);
    assert!(errors.is_empty(), "{errors:?}");
    // The estimate counts the bytes the body writes.
    let image_rule = transcript_replay::cost::image_tokens("gpt-4o").unwrap();
    assert_eq!(body.estimate(image_rule).bytes, bytes.len());
}
