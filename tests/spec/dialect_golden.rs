//! Each compatible server's dialect, golden: the bodies its rules shape, and its documented
//! replies and streams read with nothing lost, whole and streamed alike, with what its round
//! needs back.

use serde_json::{json, Value};
use transcript_replay::{
    errors::ProviderErrorKind, errors::StreamErrorKind, Block, Dialect, Provider, Reply,
    StopReason, StoredMessage, Tool, ToolOutput, Turn,
};

/// A 1x1 WEBP (lossless).
const WEBP: &str = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";
/// A 1x1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";

/// A source block with a URL, and a title when there is one.
fn source(url: &str, title: Option<&str>) -> Block {
    Block::Source {
        url: Some(url.to_owned()),
        title: title.map(str::to_owned),
        cited_text: None,
    }
}

fn provider(id: &str) -> Provider {
    id.parse().unwrap()
}

fn body(provider: Provider, turn: &Turn<'_>) -> Value {
    serde_json::to_value(provider.body(turn).unwrap()).unwrap()
}

/// Reads a stream given as the `data:` of its events, then `[DONE]`, fed in pieces of `size`
/// bytes.
fn streamed(provider: Provider, events: &[Value], size: usize) -> Reply {
    let mut bytes: String = events
        .iter()
        .map(|event| format!("data: {event}\n\n"))
        .collect();
    bytes.push_str("data: [DONE]\n\n");
    let mut reader = provider.stream();
    for chunk in bytes.as_bytes().chunks(size) {
        reader.feed(chunk).unwrap();
    }
    reader.finish().unwrap()
}

#[test]
fn every_named_dialect_is_reached_by_its_id_and_named_by_its_server() {
    let ids: Vec<&str> = Dialect::NAMED.iter().map(|dialect| dialect.id).collect();
    assert_eq!(
        ids,
        [
            "deepseek",
            "mistral",
            "groq",
            "xai",
            "openrouter",
            "gemini-openai",
            "together",
            "fireworks",
            "cerebras",
            "perplexity",
            "azure",
            "vllm",
            "llama-cpp",
            "ollama",
            "lm-studio"
        ]
    );
    assert_eq!(provider("mistral").to_string(), "Mistral");
    assert_eq!(provider("gemini-openai").to_string(), "Gemini");
    assert_eq!(provider("openai"), Provider::OpenAi);
}

#[test]
fn openai_and_its_dialect_build_the_same_bytes() {
    let record = [
        StoredMessage::user("Hi."),
        StoredMessage::system("Summary so far."),
        StoredMessage::user("Still there?"),
    ];
    let turn = Turn::new(&record).instructions("Be brief.");
    assert_eq!(
        body(Provider::OpenAi, &turn),
        body(Provider::Compatible(&Dialect::OPENAI), &turn)
    );
}

#[test]
fn a_template_server_gets_one_system_message_first_and_alternating_turns() {
    let record = [
        StoredMessage::user("Is a.rs empty?"),
        StoredMessage::assistant("Yes."),
        StoredMessage::system("Summary: a.rs is empty."),
        StoredMessage::user("And b.rs?"),
    ];
    let live = [StoredMessage::user("Answer briefly.")];
    let turn = Turn::new(&record)
        .instructions("Be brief.")
        .without_preamble()
        .live(&live);
    let expected = json!({"messages": [
        {"role": "system", "content": "Be brief.\n\nSummary: a.rs is empty."},
        {"role": "user", "content": "Is a.rs empty?"},
        {"role": "assistant", "content": "Yes."},
        {"role": "user", "content": "And b.rs?\n\nAnswer briefly."},
    ]});
    for id in ["vllm", "llama-cpp", "ollama", "lm-studio", "perplexity"] {
        assert_eq!(body(provider(id), &turn), expected, "{id}");
    }
    // OpenAI keeps both where they stand.
    let openai = body(Provider::OpenAi, &turn);
    assert_eq!(openai["messages"][3]["role"], "system");
    assert_eq!(openai["messages"].as_array().unwrap().len(), 6);
}

#[test]
fn a_field_the_server_refuses_is_an_error_that_names_its_own() {
    let record = [StoredMessage::user("Hi.")];
    let fields = json!({"model": "m", "max_completion_tokens": 100});
    let turn = Turn::new(&record).fields(&fields);
    for (id, error) in [
        (
            "mistral",
            "the caller's field `max_completion_tokens` is one Mistral refuses; its output limit is `max_tokens`",
        ),
        (
            "deepseek",
            "the caller's field `max_completion_tokens` is one DeepSeek refuses; its output limit is `max_tokens`",
        ),
        (
            "ollama",
            "the caller's field `max_completion_tokens` is one Ollama refuses; its output limit is `max_tokens`",
        ),
    ] {
        assert_eq!(provider(id).body(&turn).unwrap_err().to_string(), error);
    }
    assert!(provider("groq").body(&turn).is_ok());
}

#[test]
fn images_a_server_does_not_take_are_markers_that_name_it() {
    let record = [StoredMessage::new(
        transcript_replay::Role::User,
        vec![
            Block::image("image/webp", WEBP),
            Block::image("image/png", PNG),
        ],
    )];
    let turn = Turn::new(&record).without_preamble();
    let xai = body(provider("xai"), &turn);
    assert_eq!(
        xai["messages"][0]["content"][0],
        json!({"type": "text", "text": "[Image (image/webp) not shown: xAI does not accept image/webp]"})
    );
    assert_eq!(xai["messages"][0]["content"][1]["type"], "image_url");
    let deepseek = body(provider("deepseek"), &turn);
    assert_eq!(
        deepseek["messages"][0]["content"],
        "[Image (image/webp) not shown: DeepSeek does not accept image/webp]\n\n[Image (image/png) not shown: DeepSeek does not accept image/png]"
    );
}

/// A reply that reasons and calls `look`, and the round that answers it with a screenshot.
fn round_body(provider: Provider, reply: &str) -> Value {
    let reply = provider.read_reply(reply).unwrap();
    let record = [StoredMessage::user("Look.")];
    let tools = [Tool::new("look", "Looks.", "{}").unwrap()];
    let outputs = [ToolOutput::ok("call_1", "Seen.").with_image("image/png", PNG)];
    let turn = Turn::new(&record)
        .without_preamble()
        .tools(&tools)
        .round(&reply, &outputs);
    body(provider, &turn)
}

const REASONING_CALL: &str = r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": null, "reasoning": "Look first.",
    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "look", "arguments": "{}"}}]}}]}"#;

#[test]
fn mistral_gets_a_tools_image_as_a_marker_in_its_result_and_nothing_after_it() {
    let mistral = round_body(provider("mistral"), REASONING_CALL);
    let messages = mistral["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{mistral}");
    assert_eq!(
        messages[2],
        json!({"role": "tool", "tool_call_id": "call_1",
               "content": "Seen.\n\n[Image (image/png) not shown: Mistral accepts no images after a tool result]"})
    );
    // OpenAI: the image in a user message after the results.
    let openai = round_body(Provider::OpenAi, REASONING_CALL);
    assert_eq!(openai["messages"][3]["role"], "user");
}

#[test]
fn groq_and_cerebras_get_the_round_without_reasoning_and_deepseek_with_it() {
    for id in ["groq", "cerebras"] {
        let round = round_body(provider(id), REASONING_CALL);
        assert_eq!(
            round["messages"][1],
            json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
                   "function": {"name": "look", "arguments": "{}"}}]}),
            "{id}"
        );
    }
    let deepseek = round_body(provider("deepseek"), REASONING_CALL);
    assert_eq!(deepseek["messages"][1]["reasoning"], "Look first.");
}

#[test]
fn mistral_tool_calls_without_type_and_magistral_thinking_chunks_are_read_whole_and_streamed() {
    let mistral = provider("mistral");
    // graniet/llm#67: the raw response, tool calls without `type`.
    let reply = mistral
        .read_reply(
            r#"{"id": "a", "object": "chat.completion", "model": "mistral-large-latest",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
            "content": "", "tool_calls": [{"id": "D681PevKs", "function": {"name": "get_weather",
            "arguments": "{\"city\": \"Paris\"}"}, "index": 0}]}}],
            "usage": {"prompt_tokens": 80, "total_tokens": 100, "completion_tokens": 20}}"#,
        )
        .unwrap();
    assert_eq!(
        reply.message.blocks,
        [Block::tool_use(
            "D681PevKs",
            "get_weather",
            r#"{"city": "Paris"}"#
        )]
    );
    assert_eq!(reply.stop, StopReason::ToolUse);
    // Magistral: content as thinking and text chunks.
    let whole = mistral
        .read_reply(r#"{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
            "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "Two and two."}]},
                        {"type": "text", "text": "Four."}]}}]}"#)
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [Block::reasoning("Two and two."), Block::text("Four.")]
    );
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "Two and"}]}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"content": [{"type": "thinking", "thinking": [{"type": "text", "text": " two."}]}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"content": "Four."}, "finish_reason": "stop"}]}),
    ];
    for size in [1, 7, 64, 4096] {
        assert_eq!(
            streamed(mistral, &events, size).message,
            whole.message,
            "{size}"
        );
    }
}

#[test]
fn think_tags_are_reasoning_for_a_dialect_that_has_them_whole_and_streamed() {
    let content = "<think>\nThe user wants a number.\n</think>\n\nFour.";
    let body = json!({"choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": content}}]})
    .to_string();
    for id in ["together", "fireworks", "vllm"] {
        let whole = provider(id).read_reply(&body).unwrap();
        assert_eq!(
            whole.message.blocks,
            [
                Block::reasoning("The user wants a number."),
                Block::text("Four.")
            ],
            "{id}"
        );
        let pieces = [
            "<th",
            "ink>\nThe user ",
            "wants a number.\n</th",
            "ink>\n",
            "\nFour",
            ".",
        ];
        let events: Vec<Value> = pieces
            .iter()
            .map(|piece| json!({"choices": [{"index": 0, "delta": {"content": piece}}]}))
            .chain([json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})])
            .collect();
        for size in [1, 5, 4096] {
            assert_eq!(
                streamed(provider(id), &events, size).message,
                whole.message,
                "{id} {size}"
            );
        }
    }
    // OpenAI's own reader keeps the words as they came.
    let openai = Provider::OpenAi.read_reply(&body).unwrap();
    assert_eq!(openai.message.blocks, [Block::text(content)]);
}

#[test]
fn usage_variants_are_read_deepseek_cache_hits_and_groq_streamed_usage() {
    let deepseek = provider("deepseek")
        .read_reply(r#"{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Hi."}}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 3, "total_tokens": 123,
                      "prompt_cache_hit_tokens": 100, "prompt_cache_miss_tokens": 20}}"#)
        .unwrap();
    assert_eq!(deepseek.message.usage.unwrap().cache_read_input_tokens, 100);
    // Portkey-AI/gateway#1072: Groq's usage in `x_groq` on the last chunk.
    let events = [
        json!({"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi."}}], "x_groq": {"id": "req_1"}}),
        json!({"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
               "x_groq": {"id": "req_1", "usage": {"prompt_tokens": 12, "completion_tokens": 2, "total_tokens": 14}}}),
    ];
    let groq = streamed(provider("groq"), &events, 9);
    let usage = groq.message.usage.unwrap();
    assert_eq!((usage.input_tokens, usage.output_tokens), (12, 2));
}

#[test]
fn perplexity_citations_and_search_results_are_sources_at_the_end() {
    let reply = provider("perplexity")
        .read_reply(r#"{"id": "p", "model": "sonar", "citations": ["https://a.example/1", "https://b.example/2"],
            "search_results": [{"title": "A page", "url": "https://a.example/1", "date": "2025-01-01"}],
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "It is so [1][2]."}}]}"#)
        .unwrap();
    assert_eq!(
        reply.message.blocks,
        [
            Block::text("It is so [1][2]."),
            source("https://a.example/1", Some("A page")),
            source("https://b.example/2", None),
        ]
    );
    // Streamed: every chunk repeats them; they are kept once.
    let events = [
        json!({"citations": ["https://a.example/1", "https://b.example/2"], "choices": [{"index": 0, "delta": {"role": "assistant", "content": "It is so "}}]}),
        json!({"citations": ["https://a.example/1", "https://b.example/2"],
               "search_results": [{"title": "A page", "url": "https://a.example/1", "date": "2025-01-01"}],
               "choices": [{"index": 0, "delta": {"content": "[1][2]."}, "finish_reason": "stop"}]}),
    ];
    assert_eq!(
        streamed(provider("perplexity"), &events, 11).message,
        reply.message
    );
}

#[test]
fn openai_annotations_are_sources_after_the_text_whole_and_streamed() {
    let reply = Provider::OpenAi
        .read_reply(r#"{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
            "content": "Rust 1.90 is out.", "annotations": [{"type": "url_citation", "url_citation": {
            "end_index": 17, "start_index": 0, "title": "Announcing Rust 1.90", "url": "https://blog.rust-lang.org/"}}]}}]}"#)
        .unwrap();
    assert_eq!(
        reply.message.blocks,
        [
            Block::text("Rust 1.90 is out."),
            source("https://blog.rust-lang.org/", Some("Announcing Rust 1.90")),
        ]
    );
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Rust 1.90 is out."}}]}),
        json!({"choices": [{"index": 0, "delta": {"annotations": [{"type": "url_citation", "url_citation": {
            "end_index": 17, "start_index": 0, "title": "Announcing Rust 1.90", "url": "https://blog.rust-lang.org/"}}]}, "finish_reason": "stop"}]}),
    ];
    assert_eq!(
        streamed(Provider::OpenAi, &events, 13).message,
        reply.message
    );
}

#[test]
fn groq_executed_tools_are_provider_executed_calls_that_owe_nothing() {
    let reply = provider("groq")
        .read_reply(r#"{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
            "content": "It is sunny.", "reasoning": "Searching.",
            "executed_tools": [{"index": 0, "type": "search", "arguments": "{\"query\": \"weather\"}",
              "output": "Title: Weather\nURL: https://w.example",
              "search_results": {"results": [{"title": "Weather", "url": "https://w.example", "content": "Sunny", "score": 0.9}]}}]}}]}"#)
        .unwrap();
    let id = match &reply.message.blocks[1] {
        Block::ToolUse { id, .. } => id.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        reply.message.blocks,
        [
            Block::reasoning("Searching."),
            Block::provider_tool_use(id.clone(), "search", r#"{"query": "weather"}"#),
            Block::tool_result(id, "search", "Weather <https://w.example>"),
            Block::text("It is sunny."),
        ]
    );
    assert_eq!(reply.stop, StopReason::EndTurn);
}

#[test]
fn a_made_id_is_the_calls_number_in_its_reply_unique_and_the_same_whole_and_streamed() {
    // Groq's executed tools come without ids, and so do a compatible server's tool calls.
    let groq = provider("groq");
    let search = |index: usize| json!({"index": index, "type": "search", "arguments": "{}", "output": format!("result {index}")});
    let whole = groq
        .read_reply(
            &json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "executed_tools": [search(0), search(1)],
                "tool_calls": [
                    {"type": "function", "function": {"name": "read", "arguments": "{}"}},
                    {"id": "call_b", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
                    {"type": "function", "function": {"name": "read", "arguments": "{}"}}]}}]})
            .to_string(),
        )
        .unwrap();
    let ids: Vec<&str> = (whole.message.blocks.iter())
        .filter_map(|block| match block {
            Block::ToolUse { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        ids,
        ["made_0_0", "made_0_1", "made_0_2", "call_b", "made_0_4"]
    );
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "executed_tools": [search(0)]}}]}),
        json!({"choices": [{"index": 0, "delta": {"executed_tools": [search(1)]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "type": "function", "function": {"name": "read", "arguments": "{}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "call_b", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 2, "type": "function", "function": {"name": "read", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}),
    ];
    for size in [5, 4096] {
        assert_eq!(
            streamed(groq, &events, size).message,
            whole.message,
            "{size}"
        );
    }
    // The deprecated `function_call`, the reply's only call.
    let legacy = Provider::OpenAi
        .read_reply(r#"{"choices": [{"index": 0, "finish_reason": "function_call", "message": {"role": "assistant", "function_call": {"name": "ls", "arguments": "{}"}}}]}"#)
        .unwrap();
    assert_eq!(
        legacy.message.blocks,
        [Block::tool_use("made_0_0", "ls", "{}")]
    );
}

#[test]
fn the_round_needs_back_what_openrouter_and_geminis_endpoint_sent_streamed_as_whole() {
    // OpenRouter: `reasoning_details`, streamed in pieces.
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning": "Look",
            "reasoning_details": [{"type": "reasoning.text", "text": "Look", "index": 0, "format": "anthropic-claude-v1"}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"reasoning": " first.",
            "reasoning_details": [{"type": "reasoning.text", "text": " first.", "signature": "sig==", "index": 0, "format": "anthropic-claude-v1"}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "look", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}),
    ];
    let openrouter = provider("openrouter");
    let reply = streamed(openrouter, &events, 17);
    let record = [StoredMessage::user("Look.")];
    let tools = [Tool::new("look", "Looks.", "{}").unwrap()];
    let outputs = [ToolOutput::ok("call_1", "Seen.")];
    let turn = Turn::new(&record).tools(&tools).round(&reply, &outputs);
    let round = body(openrouter, &turn);
    assert_eq!(
        round["messages"][2]["reasoning_details"],
        json!([{"type": "reasoning.text", "text": "Look first.", "index": 0, "format": "anthropic-claude-v1", "signature": "sig=="}])
    );
    // Gemini's OpenAI endpoint: each call's `extra_content.google.thought_signature`.
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "function-call-1",
            "type": "function", "function": {"name": "look", "arguments": "{}"},
            "extra_content": {"google": {"thought_signature": "Ck0BVKhc"}}}]}, "finish_reason": "tool_calls"}]}),
    ];
    let gemini = provider("gemini-openai");
    let reply = streamed(gemini, &events, 23);
    let outputs = [ToolOutput::ok("function-call-1", "Seen.")];
    let turn = Turn::new(&record).tools(&tools).round(&reply, &outputs);
    let round = body(gemini, &turn);
    assert_eq!(
        round["messages"][2]["tool_calls"][0]["extra_content"],
        json!({"google": {"thought_signature": "Ck0BVKhc"}})
    );
}

#[test]
fn compatible_servers_errors_are_read_with_the_servers_name() {
    for (id, status, body, message) in [
        (
            "mistral",
            400,
            r#"{"object": "error", "message": "Unexpected role 'user' after role 'tool'", "type": "invalid_request_message_error", "param": null, "code": "3230"}"#,
            "Unexpected role 'user' after role 'tool'",
        ),
        (
            "mistral",
            422,
            r#"{"detail": [{"type": "extra_forbidden", "loc": ["body", "max_completion_tokens"], "msg": "Extra inputs are not permitted", "input": 100}]}"#,
            "body.max_completion_tokens: Extra inputs are not permitted",
        ),
        (
            "ollama",
            404,
            r#"{"error": "model \"qwen3\" not found, try pulling it first"}"#,
            "model \"qwen3\" not found, try pulling it first",
        ),
        (
            "vllm",
            400,
            r#"{"object": "error", "message": "System message must be at the beginning.", "type": "BadRequestError", "param": null, "code": 400}"#,
            "System message must be at the beginning.",
        ),
    ] {
        let error = provider(id).read_error(status, [] as [(&str, &str); 0], body);
        assert_eq!(error.message, message, "{id}");
        assert_eq!(error.provider(), provider(id), "{id}");
    }
}

#[test]
fn custom_and_unknown_tool_calls_and_calls_without_ids_stream_as_whole() {
    let whole = Provider::OpenAi
        .read_reply(
            &json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
                "tool_calls": [
                    {"id": "call_1", "type": "custom", "custom": {"name": "shell", "input": "ls -la"}},
                    {"id": "call_2", "type": "computer", "computer": {}},
                    {"type": "function", "function": {"name": "read", "arguments": "{}"}}]}}]})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            // Free-form input, stored as its JSON string.
            Block::tool_use("call_1", "shell", r#""ls -la""#),
            Block::text("[Not kept: OpenAI computer content]"),
            Block::tool_use("made_0_2", "read", "{}"),
        ]
    );
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [
            {"index": 0, "id": "call_1", "type": "custom", "custom": {"name": "shell", "input": "ls "}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "custom": {"input": "-la"}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "call_2", "type": "computer", "computer": {}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 2, "type": "function", "function": {"name": "read", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}),
    ];
    for size in [3, 4096] {
        let streamed = streamed(Provider::OpenAi, &events, size);
        assert_eq!(streamed.message, whole.message, "{size}");
        assert_eq!(streamed.not_kept(), whole.not_kept());
        // The custom call owes an output; its input is free-form, not cut-off JSON.
        assert_eq!(streamed.calls().len(), 2);
        assert!(
            streamed.incomplete_calls().is_empty(),
            "{:?}",
            streamed.incomplete_calls()
        );
    }
}

#[test]
fn openrouter_generated_images_are_image_blocks_whole_and_streamed() {
    let url = format!("data:image/png;base64,{PNG}");
    let openrouter = provider("openrouter");
    let whole = openrouter
        .read_reply(
            &json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                "content": "Here is a dot.", "images": [
                    {"type": "image_url", "image_url": {"url": url}},
                    {"type": "image_url", "image_url": {"url": "https://cdn.example/a.png"}}]}}]})
            .to_string(),
        )
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            Block::text("Here is a dot."),
            Block::image("image/png", PNG),
            Block::text("[Not kept: OpenRouter image_url content]"),
        ]
    );
    assert_eq!(whole.not_kept(), ["image_url"]);
    let events = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Here is a dot."}}]}),
        json!({"choices": [{"index": 0, "delta": {"images": [{"type": "image_url", "image_url": {"url": url}}]}}]}),
        json!({"choices": [{"index": 0, "delta": {"images": [{"type": "image_url", "image_url": {"url": "https://cdn.example/a.png"}}]}, "finish_reason": "stop"}]}),
    ];
    for size in [9, 4096] {
        let reply = streamed(openrouter, &events, size);
        assert_eq!(reply.message, whole.message, "{size}");
        assert_eq!(reply.not_kept(), whole.not_kept());
    }
}

#[test]
fn the_round_leaves_out_what_only_a_groq_response_carries() {
    let reply = r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "reasoning": "Search, then look.",
        "executed_tools": [{"index": 0, "type": "search", "arguments": "{}", "output": "none"}],
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "look", "arguments": "{}"}}]}}]}"#;
    let round = round_body(provider("groq"), reply);
    assert_eq!(
        round["messages"][1],
        json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
               "function": {"name": "look", "arguments": "{}"}}]})
    );
}

#[test]
fn openrouters_finish_reason_error_ends_the_stream_in_a_provider_error_not_a_stop() {
    let begun = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Half"}}]}),
        json!({"choices": [{"index": 0, "delta": {"content": " an"}}]}),
    ];
    // (the last chunk, the error's kind, its code, its message)
    let cases = [
        // As OpenRouter's streaming docs show it: the error beside the choices.
        (
            json!({"id": "gen-1", "object": "chat.completion.chunk", "provider": "openai",
                "error": {"code": "server_error", "message": "Provider disconnected unexpectedly"},
                "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}]}),
            ProviderErrorKind::Server,
            Some("server_error"),
            "Provider disconnected unexpectedly",
        ),
        // The error in the choice, its code an HTTP status.
        (
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "error",
                "error": {"code": 502, "message": "Upstream error"}}]}),
            ProviderErrorKind::Server,
            Some("502"),
            "Upstream error",
        ),
        // No error at all: the upstream provider failed, and said nothing more.
        (
            json!({"choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}]}),
            ProviderErrorKind::Server,
            None,
            "the stream ended with finish_reason \"error\"",
        ),
    ];
    for (last, kind, code, message) in cases {
        let mut bytes: String = begun
            .iter()
            .chain([&last])
            .map(|event| format!("data: {event}\n\n"))
            .collect();
        bytes.push_str("data: [DONE]\n\n");
        for size in [1, 7, 4096] {
            let mut reader = provider("openrouter").stream();
            let error = bytes
                .as_bytes()
                .chunks(size)
                .find_map(|chunk| reader.feed(chunk).err())
                .unwrap_or_else(|| panic!("{last}: the stream ended normally"));
            assert_eq!(error.kind(), StreamErrorKind::ProviderError, "{last}");
            assert_eq!(error.event(), Some(2), "{last}");
            assert_eq!(error.partial().blocks, [Block::text("Half an")], "{last}");
            let provider_error = error.provider_error().unwrap();
            assert_eq!(provider_error.kind, kind, "{last}");
            assert_eq!(provider_error.code(), code, "{last}");
            assert_eq!(provider_error.message, message, "{last}");
            assert!(error.is_retryable(), "{last}");
            assert_eq!(reader.finish().unwrap_err(), error);
        }
    }
}

#[test]
fn groqs_tool_use_failed_keeps_its_code_and_may_be_retried_whole_and_streamed() {
    // The model wrote a malformed call; asked again, it usually writes a good one.
    let body = r#"{"error": {"message": "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", "type": "invalid_request_error", "code": "tool_use_failed", "failed_generation": "web_search{\"query\": \"weather\"}</function>"}}"#;
    let error = provider("groq").read_error(400, [] as [(&str, &str); 0], body);
    assert_eq!(error.kind, ProviderErrorKind::InvalidRequest);
    assert_eq!(error.code(), Some("tool_use_failed"));
    assert_eq!(error.status(), Some(400));
    assert!(error.is_retryable());
    // Streamed, as an error event.
    let stream = format!("event: error\ndata: {body}\n\n");
    let streamed = provider("groq")
        .stream()
        .feed(stream.as_bytes())
        .unwrap_err();
    let streamed_error = streamed.provider_error().unwrap();
    assert_eq!(streamed_error.code(), Some("tool_use_failed"));
    assert!(streamed_error.is_retryable());
    assert!(streamed.is_retryable());
    // The rule is Groq's dialect's: another server's code of that name keeps its kind's
    // answer.
    for other in [Provider::OpenAi, provider("openrouter")] {
        let error = other.read_error(400, [] as [(&str, &str); 0], body);
        assert_eq!(error.code(), Some("tool_use_failed"), "{other:?}");
        assert!(!error.is_retryable(), "{other:?}");
    }
}

#[test]
fn each_dialects_stream_ends_where_its_server_ends_it() {
    use transcript_replay::dialects::StreamEnd;
    let chunk = |object: &str, delta: Value, finish: Value| json!({"object": object, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    let text = chunk(
        "chat.completion.chunk",
        json!({"content": "Hi."}),
        Value::Null,
    );
    let stop = chunk("chat.completion.chunk", json!({}), json!("stop"));
    let read = |provider: Provider, events: &[&Value], done: bool| {
        let mut bytes: String = events
            .iter()
            .map(|event| format!("data: {event}\n\n"))
            .collect();
        if done {
            bytes.push_str("data: [DONE]\n\n");
        }
        let mut reader = provider.stream();
        reader.feed(bytes.as_bytes()).unwrap();
        reader.finish()
    };
    for dialect in Dialect::NAMED {
        let provider = Provider::Compatible(dialect);
        // `[DONE]` ends every stream.
        let reply = read(provider, &[&text, &stop], true).unwrap();
        assert_eq!(reply.message.blocks, [Block::text("Hi.")], "{provider}");
        match dialect.stream_end {
            // Without it, a stream that ends on `[DONE]` is cut, even after its finish reason.
            StreamEnd::Done => {
                let error = read(provider, &[&text, &stop], false).unwrap_err();
                assert_eq!(error.kind(), StreamErrorKind::Cut, "{provider}");
            }
            // Perplexity's ends with its own last chunk (its finish reason, usage and sources),
            // and a stream cut before it is an error, never a short answer.
            StreamEnd::Chunk(last) => {
                let done = chunk(last, json!({}), json!("stop"));
                let reply = read(provider, &[&text, &done], false).unwrap();
                assert_eq!(reply.message.blocks, [Block::text("Hi.")], "{provider}");
                assert_eq!(reply.stop, StopReason::EndTurn);
                let error = read(provider, &[&text, &stop], false).unwrap_err();
                assert_eq!(error.kind(), StreamErrorKind::Cut, "{provider}");
                assert!(error.to_string().ends_with(last), "{error}");
            }
        }
    }
    assert_eq!(
        Dialect::NAMED
            .iter()
            .filter(|dialect| dialect.stream_end != StreamEnd::Done)
            .count(),
        1
    );
}
