//! A provider's reply becomes the stored message of the assistant's turn: every block in the
//! order the reply gives it, tool arguments as the exact text the reply carried, usage mapped;
//! and content the record has no block for is an error that says where and what.

use transcript_replay::{
    anthropic, bedrock, gemini, openai, openai_responses, Block, ReplyError, Role, StoredMessage,
    TokenUsage, ToolInput,
};

#[derive(Clone, Copy, Debug)]
enum Provider {
    OpenAi,
    Anthropic,
    Gemini,
    OpenAiResponses,
    Bedrock,
}

fn read(provider: Provider, reply: &str) -> Result<StoredMessage, ReplyError> {
    match provider {
        Provider::OpenAi => openai::read_reply(reply),
        Provider::Anthropic => anthropic::read_reply(reply),
        Provider::Gemini => gemini::read_reply(reply),
        Provider::OpenAiResponses => openai_responses::read_reply(reply),
        Provider::Bedrock => bedrock::read_reply(reply),
    }
    .map(|reply| reply.message)
}

fn usage(input: u64, output: u64, creation: u64, read: u64) -> Option<TokenUsage> {
    Some(TokenUsage {
        input_tokens: input,
        output_tokens: output,
        cache_creation_input_tokens: creation,
        cache_read_input_tokens: read,
        context_tokens: 0,
    })
}

fn json(text: &str) -> ToolInput {
    ToolInput::json(text).unwrap()
}

#[test]
fn the_providers_documented_examples_become_these_stored_messages() {
    // (provider, the reply, the blocks, the usage)
    let cases: Vec<(Provider, &str, Vec<Block>, Option<TokenUsage>)> = vec![
        (
            Provider::OpenAi,
            r#"{"id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT", "object": "chat.completion",
                "created": 1741569952, "model": "gpt-4.1-2025-04-14",
                "choices": [{"index": 0, "message": {"role": "assistant",
                    "content": "Hello! How can I assist you today?", "refusal": null, "annotations": []},
                  "logprobs": null, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 19, "completion_tokens": 10, "total_tokens": 29,
                  "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                  "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                    "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}},
                "service_tier": "default"}"#,
            vec![Block::text("Hello! How can I assist you today?")],
            usage(19, 10, 0, 0),
        ),
        (
            Provider::OpenAi,
            r#"{"id": "chatcmpl-abc123", "object": "chat.completion", "created": 1699896916,
                "model": "gpt-4o-mini",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                    "tool_calls": [
                      {"id": "call_abc123", "type": "function",
                       "function": {"name": "get_current_weather", "arguments": "{\n\"location\": \"Boston, MA\"\n}"}},
                      {"id": "call_def456", "type": "function",
                       "function": {"name": "get_current_weather", "arguments": "{\"location\":\"Paris\"}"}}]},
                  "logprobs": null, "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99,
                  "prompt_tokens_details": {"cached_tokens": 64}}}"#,
            vec![
                Block::tool_use(
                    "call_abc123",
                    "get_current_weather",
                    "{\n\"location\": \"Boston, MA\"\n}",
                ),
                Block::tool_use(
                    "call_def456",
                    "get_current_weather",
                    r#"{"location":"Paris"}"#,
                ),
            ],
            usage(82, 17, 0, 64),
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                "refusal": "I'm sorry, I can't help with that."}, "finish_reason": "stop"}]}"#,
            vec![Block::text("I'm sorry, I can't help with that.")],
            None,
        ),
        // A tool that takes no arguments: llama.cpp's server leaves `arguments` out
        // (<https://github.com/QwenLM/qwen-code/issues/6249>); the call takes `{}`.
        (
            Provider::OpenAi,
            r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
                "content": null, "tool_calls": [{"id": "call_1", "type": "function",
                  "function": {"name": "task_list"}}, {"id": "call_2", "type": "function",
                  "function": {"name": "cron_list", "arguments": ""}}]}}]}"#,
            vec![
                Block::tool_use("call_1", "task_list", "{}"),
                Block::tool_use("call_2", "cron_list", "{}"),
            ],
            None,
        ),
        // A custom tool's free-form input (the shape of OpenAI's custom tools,
        // <https://platform.openai.com/docs/guides/function-calling#custom-tools>) is stored
        // as its JSON string, escapes and all.
        (
            Provider::OpenAi,
            r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
                "content": null, "tool_calls": [{"id": "call_1", "type": "custom",
                  "custom": {"name": "code_exec", "input": "print(\"hi\")\n"}}]}}]}"#,
            vec![Block::tool_use(
                "call_1",
                "code_exec",
                r#""print(\"hi\")\n""#,
            )],
            None,
        ),
        // Azure's content filter stopped the reply: the choice has no message, only the
        // filter's results (<https://github.com/Azure/azure-sdk-for-go/pull/21625>).
        (
            Provider::OpenAi,
            r#"{"id": "chatcmpl-9", "object": "chat.completion", "created": 1709204276, "model": "gpt-4o",
                "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": {
                  "hate": {"filtered": false, "severity": "safe"}}}],
                "choices": [{"index": 0, "finish_reason": "content_filter", "content_filter_results": {
                  "hate": {"filtered": false, "severity": "safe"},
                  "violence": {"filtered": true, "severity": "medium"}}}],
                "usage": {"prompt_tokens": 12, "completion_tokens": 14, "total_tokens": 26}}"#,
            vec![],
            usage(12, 14, 0, 0),
        ),
        // Two choices (`n: 2`): the reply is the first, of index 0, wherever it stands.
        (
            Provider::OpenAi,
            r#"{"choices": [
                {"index": 1, "message": {"role": "assistant", "content": "Hello."}, "finish_reason": "stop"},
                {"index": 0, "message": {"role": "assistant", "content": "Hi."}, "finish_reason": "stop"}]}"#,
            vec![Block::text("Hi.")],
            None,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"index": 0, "message": {"role": "assistant",
                "reasoning_content": "The user wants a greeting.", "content": "Hi!"}}]}"#,
            vec![
                Block::reasoning("The user wants a greeting."),
                Block::text("Hi!"),
            ],
            None,
        ),
        (
            Provider::Anthropic,
            r#"{"id": "msg_013Zva2CMHLNnXjNJJKqJ2EF", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": "Hi! My name is Claude."}],
                "model": "claude-sonnet-4-5", "stop_reason": "end_turn", "stop_sequence": null,
                "usage": {"input_tokens": 2095, "output_tokens": 503}}"#,
            vec![Block::text("Hi! My name is Claude.")],
            usage(2095, 503, 0, 0),
        ),
        (
            Provider::Anthropic,
            r#"{"id": "msg_01Aq9w938a90dw8q", "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
                "content": [
                  {"type": "thinking", "thinking": "The user wants the weather.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
                  {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"},
                  {"type": "text", "text": "I'll check the weather.", "citations": null},
                  {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather",
                   "input": {"location": "San Francisco, CA", "unit": "celsius"}}],
                "usage": {"input_tokens": 472, "output_tokens": 91,
                  "cache_creation_input_tokens": 1200, "cache_read_input_tokens": 3000}}"#,
            vec![
                Block::reasoning("The user wants the weather."),
                Block::text("I'll check the weather."),
                Block::tool_use(
                    "toolu_01A09q90qw90lq917835lq9",
                    "get_weather",
                    json(r#"{"location":"San Francisco, CA","unit":"celsius"}"#),
                ),
            ],
            usage(472, 91, 1200, 3000),
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"text": "AI learns patterns from data."}],
                  "role": "model"}, "finishReason": "STOP", "avgLogprobs": -0.13}],
                "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 20, "totalTokenCount": 28},
                "modelVersion": "gemini-2.0-flash"}"#,
            vec![Block::text("AI learns patterns from data.")],
            usage(8, 20, 0, 0),
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"role": "model", "parts": [
                  {"text": "**Planning** the lights.", "thought": true},
                  {"functionCall": {"name": "set_light_values", "args": {"brightness": 25, "color_temp": "warm"}},
                   "thoughtSignature": "CiQB0e2Kb2"},
                  {"functionCall": {"id": "fc_7", "name": "power_disco_ball", "args": {"power": true}}},
                  {"functionCall": {"name": "dim"}}]},
                  "finishReason": "STOP"}],
                "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 30,
                  "thoughtsTokenCount": 12, "cachedContentTokenCount": 60, "totalTokenCount": 142}}"#,
            vec![
                Block::reasoning("**Planning** the lights."),
                Block::tool_use(
                    "made_0_0",
                    "set_light_values",
                    json(r#"{"brightness":25,"color_temp":"warm"}"#),
                ),
                Block::tool_use("fc_7", "power_disco_ball", json(r#"{"power":true}"#)),
                Block::tool_use("made_0_2", "dim", json("{}")),
            ],
            usage(100, 42, 0, 60),
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"role": "model", "parts": [
                  {"text": "Here is the cat."},
                  {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}]}}]}"#,
            vec![
                Block::text("Here is the cat."),
                Block::image("image/png", "iVBORw0KGgo="),
            ],
            None,
        ),
        (
            // Google's example of a Gemini 3 reply when the request sets
            // `toolConfig.includeServerSideToolInvocations`: a server tool's call and response,
            // each with its signature, then a function call
            // (<https://ai.google.dev/gemini-api/docs/tool-combination>, "Example request
            // structure"; the signatures are stand-ins for its "...").
            Provider::Gemini,
            r#"{"candidates": [{"content": {"role": "model", "parts": [
                  {"thoughtSignature": "c2lnLWE=", "toolCall": {"toolType": "GOOGLE_SEARCH_WEB",
                    "args": {"queries": ["northernmost city in the United States"]}, "id": "a7b3k9p2"}},
                  {"thoughtSignature": "c2lnLWI=", "toolResponse": {"toolType": "GOOGLE_SEARCH_WEB",
                    "response": {"search_suggestions": "..."}, "id": "a7b3k9p2"}},
                  {"functionCall": {"name": "getWeather", "args": {"city": "Utqiaġvik, Alaska"}, "id": "m4q8z1v6"},
                   "thoughtSignature": "c2lnLWM="}]},
                  "finishReason": "STOP"}]}"#,
            vec![
                Block::provider_tool_use(
                    "a7b3k9p2",
                    "google_search_web",
                    json(r#"{"queries":["northernmost city in the United States"]}"#),
                ),
                Block::ToolResult {
                    tool_use_id: "a7b3k9p2".to_owned(),
                    tool_name: "google_search_web".to_owned(),
                    output: r#"{"search_suggestions":"..."}"#.to_owned(),
                    is_error: false,
                },
                Block::tool_use("m4q8z1v6", "getWeather", json(r#"{"city":"Utqiaġvik, Alaska"}"#)),
            ],
            None,
        ),
        (
            // The other server tools of the same page: URL context (`urls`, answered by
            // `urls_metadata`), Google Maps, file search (no arguments, no response); a call
            // without an id gets a made one, counted with the reply's other calls, and its
            // response without an id answers the last call unanswered.
            Provider::Gemini,
            r#"{"candidates": [{"content": {"role": "model", "parts": [
                  {"toolCall": {"toolType": "URL_CONTEXT", "args": {"urls": ["https://a.example"]}, "id": "u1"}},
                  {"toolCall": {"toolType": "GOOGLE_MAPS", "args": {"queries": ["cafes"]}}},
                  {"toolResponse": {"toolType": "GOOGLE_MAPS", "response": {"places": [{"name": "Cafe"}]}}},
                  {"toolResponse": {"toolType": "URL_CONTEXT", "id": "u1",
                    "response": {"urls_metadata": [{"retrieved_url": "https://a.example",
                      "url_retrieval_status": "URL_RETRIEVAL_STATUS_SUCCESS"}]}}},
                  {"toolCall": {"toolType": "FILE_SEARCH"}},
                  {"toolResponse": {"toolType": "FILE_SEARCH"}},
                  {"text": "Found."}]}, "finishReason": "STOP"}]}"#,
            vec![
                Block::provider_tool_use("u1", "url_context", json(r#"{"urls":["https://a.example"]}"#)),
                Block::provider_tool_use("made_0_1", "google_maps", json(r#"{"queries":["cafes"]}"#)),
                Block::ToolResult {
                    tool_use_id: "made_0_1".to_owned(),
                    tool_name: "google_maps".to_owned(),
                    output: r#"{"places":[{"name":"Cafe"}]}"#.to_owned(),
                    is_error: false,
                },
                Block::ToolResult {
                    tool_use_id: "u1".to_owned(),
                    tool_name: "url_context".to_owned(),
                    output: r#"{"urls_metadata":[{"retrieved_url":"https://a.example","url_retrieval_status":"URL_RETRIEVAL_STATUS_SUCCESS"}]}"#.to_owned(),
                    is_error: false,
                },
                Block::provider_tool_use("made_0_2", "file_search", json("{}")),
                Block::ToolResult {
                    tool_use_id: "made_0_2".to_owned(),
                    tool_name: "file_search".to_owned(),
                    output: String::new(),
                    is_error: false,
                },
                Block::text("Found."),
            ],
            None,
        ),
        (
            // A blocked prompt: no candidate, and no content (the API reference's
            // `PromptFeedback`, <https://ai.google.dev/api/generate-content#PromptFeedback>).
            Provider::Gemini,
            r#"{"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": [
                  {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}]},
                "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8}}"#,
            vec![],
            usage(8, 0, 0, 0),
        ),
        (
            // Two candidates (`candidateCount: 2`): the first is the message.
            Provider::Gemini,
            r#"{"candidates": [
                  {"content": {"role": "model", "parts": [{"text": "Heads."}]}, "finishReason": "STOP", "index": 0},
                  {"content": {"role": "model", "parts": [{"text": "Tails."}]}, "finishReason": "STOP", "index": 1}]}"#,
            vec![Block::text("Heads.")],
            None,
        ),
    ];
    let mut failures = Vec::new();
    for (index, (provider, reply, blocks, usage)) in cases.into_iter().enumerate() {
        let expected = StoredMessage {
            role: Role::Assistant,
            blocks,
            usage,
            timestamp: None,
            unknown: Default::default(),
        };
        match read(provider, reply) {
            Ok(message) if message == expected => {}
            Ok(message) => failures.push(format!(
                "case {index} ({provider:?}):\n  got  {message:?}\n  want {expected:?}"
            )),
            Err(error) => failures.push(format!("case {index} ({provider:?}): {error}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_chat_reply_that_leaves_fields_out_stops_as_it_says_and_counts_its_other_choices() {
    // Azure: no message, stopped by the content filter; an empty reply, never an error.
    let filtered = openai::read_reply(
        r#"{"choices": [{"index": 0, "finish_reason": "content_filter",
            "content_filter_results": {"violence": {"filtered": true, "severity": "medium"}}}]}"#,
    )
    .unwrap();
    assert_eq!(filtered.stop, transcript_replay::StopReason::ContentFilter);
    assert!(filtered.message.blocks.is_empty());
    assert_eq!(filtered.native().count(), 0);
    assert_eq!(filtered.metadata().other_choices, 0);
    // Three choices: the first is the reply, the two others are counted.
    let three = openai::read_reply(
        r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": "A"}, "finish_reason": "stop"},
            {"index": 1, "message": {"role": "assistant", "content": "B"}, "finish_reason": "stop"},
            {"index": 2, "message": {"role": "assistant", "content": "C"}, "finish_reason": "length"}]}"#,
    )
    .unwrap();
    assert_eq!(three.message.blocks, [Block::text("A")]);
    assert_eq!(three.stop, transcript_replay::StopReason::EndTurn);
    assert_eq!(three.metadata().other_choices, 2);
    assert_eq!(
        serde_json::to_string(&three).unwrap(),
        r#"{"stop":"end_turn","message":{"role":"assistant","blocks":[{"type":"text","text":"A"}]},"metadata":{"other_choices":2}}"#
    );
}

#[test]
fn a_custom_tools_free_form_input_is_stored_as_a_json_string() {
    let reply = openai::read_reply(
        r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
            "tool_calls": [{"id": "call_1", "type": "custom", "custom": {"name": "python", "input": "print(1)"}}]}}]}"#,
    )
    .unwrap();
    let [Block::ToolUse { input, .. }] = reply.message.blocks.as_slice() else {
        panic!("one tool call")
    };
    // The input is JSON text, the JSON string of the free-form text; a record holds it as
    // any string-form input, in a string.
    assert_eq!(input.as_str(), r#""print(1)""#);
    assert!(!input.is_json_value());
    assert!(reply.incomplete_calls().is_empty());
    let record = transcript_replay::write_record(std::slice::from_ref(&reply.message));
    assert!(record.contains(r#""input":"\"print(1)\"""#), "{record}");
    let read = transcript_replay::parse_record(&record).unwrap();
    assert_eq!(read[0], reply.message);
}

#[test]
fn a_responses_custom_tools_input_is_stored_as_a_json_string_whole_and_streamed_alike() {
    let item = r#"{"type":"custom_tool_call","id":"ct_1","call_id":"call_1","name":"python","input":"print(\"a\")\n"}"#;
    let whole = transcript_replay::openai_responses::read_reply(&format!(
        r#"{{"status":"completed","output":[{item}]}}"#
    ))
    .unwrap();
    let [Block::ToolUse { input, .. }] = whole.message.blocks.as_slice() else {
        panic!("one tool call: {:?}", whole.message.blocks)
    };
    assert_eq!(input.as_str(), r#""print(\"a\")\n""#);
    assert!(whole.incomplete_calls().is_empty());
    let events = [
        r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"custom_tool_call","id":"ct_1","call_id":"call_1","name":"python","input":""}}"#.to_owned(),
        r#"{"type":"response.custom_tool_call_input.delta","output_index":0,"delta":"print(\"a"}"#.to_owned(),
        r#"{"type":"response.custom_tool_call_input.delta","output_index":0,"delta":"\")\n"}"#.to_owned(),
        format!(r#"{{"type":"response.output_item.done","output_index":0,"item":{item}}}"#),
        r#"{"type":"response.completed","response":{"status":"completed","output":[]}}"#.to_owned(),
    ];
    let mut reader = transcript_replay::openai_responses::stream();
    let mut pieces = String::new();
    for event in &events {
        for delta in reader
            .feed(format!("data: {event}\n\n").as_bytes())
            .unwrap()
        {
            if let transcript_replay::Delta::ToolInput { piece, .. } = delta {
                pieces.push_str(&piece);
            }
        }
    }
    let streamed = reader.finish().unwrap();
    assert_eq!(streamed.message, whole.message);
    // The deltas add up to the input the record stores.
    assert_eq!(pieces, input.as_str());
}

#[test]
fn tool_input_keeps_the_form_each_provider_sent_a_string_as_sent_a_value_compacted() {
    let openai = openai::read_reply(
        r#"{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c", "type": "function",
            "function": {"name": "f", "arguments": "{ \"a\" : 1 }"}}]}}]}"#,
    )
    .unwrap();
    let anthropic = anthropic::read_reply(
        r#"{"content": [{"type": "tool_use", "id": "t", "name": "f", "input": { "a" : 1 }}]}"#,
    )
    .unwrap();
    // A string is the call's text as the provider wrote it; a value's text depends on how the
    // response was formatted, and is stored without the white space between its tokens.
    for (reply, form, text) in [
        (openai, false, r#"{ "a" : 1 }"#),
        (anthropic, true, r#"{"a":1}"#),
    ] {
        let [Block::ToolUse { input, .. }] = reply.message.blocks.as_slice() else {
            panic!("one tool call")
        };
        assert_eq!(input.as_str(), text);
        assert_eq!(input.is_json_value(), form);
    }
}

#[test]
fn a_reply_that_is_not_what_the_provider_documents_is_an_error_that_says_where_and_what() {
    // (provider, the reply, the exact error)
    let cases = [
        (
            Provider::OpenAi,
            r#"{"choices": []}"#,
            "OpenAI reply, choices (line 1, column 13): the reply has no choice",
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "tool_use", "id": "t", "name": "f"}]}"#,
            "Anthropic reply, content[0] (line 1, column 14): missing field `input` in a tool_use block",
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "tool_use", "id": "t", "name": "bash", "input": "{\"cmd\": \"ls\"}"}]}"#,
            "Anthropic reply, content[0].input (line 1, column 71): a tool call's input must be a JSON object, not a string",
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "ls", "args": [1]}}]}}]}"#,
            "Gemini reply, candidates[0].content.parts[0].functionCall.args (line 1, column 80): a tool call's input must be a JSON object, not an array",
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": [{"toolUse": {"toolUseId": "t", "name": "ls", "input": 7}}]}}}"#,
            "Bedrock reply, output.message.content[0].toolUse.input (line 1, column 91): a tool call's input must be a JSON object, not a number",
        ),
        (
            Provider::Anthropic,
            r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#,
            "Anthropic reply, the body (line 1, column 81): missing field `content`",
        ),
        (
            // No candidate, and no block reason to say why (a blocked prompt is a reply).
            Provider::Gemini,
            r#"{"candidates": [], "usageMetadata": {"promptTokenCount": 3}}"#,
            "Gemini reply, the body (line 1, column 1): the reply has no candidate",
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"index": 0}]}"#,
            "Gemini reply, candidates[0] (line 1, column 17): the candidate has no content",
        ),
        (
            Provider::OpenAiResponses,
            r#"{"output": [{"type": "function_call", "id": "fc_1", "name": "f", "arguments": "{}"}]}"#,
            "OpenAI reply, output[0] (line 1, column 13): missing field `call_id` in a function_call item",
        ),
        (
            Provider::Gemini,
            "{\"candidates\": [",
            "Gemini reply, the body (line 1, column 16): unexpected end of input while parsing a list",
        ),
    ];
    let mut failures = Vec::new();
    for (provider, reply, expected) in cases {
        match read(provider, reply) {
            Ok(message) => failures.push(format!("{provider:?}: read {message:?}")),
            Err(error) if error.to_string() != expected => {
                failures.push(format!("{provider:?}:\n  got  {error}\n  want {expected}"))
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn content_the_crate_does_not_read_is_the_not_kept_marker_where_it_stood_and_is_listed() {
    use transcript_replay::Provider;
    // (provider, the reply, the stored blocks, the kinds listed)
    let cases: [(Provider, &str, &[Block], &[&str]); 7] = [
        (
            Provider::OpenAi,
            "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": [\n  {\"type\": \"text\", \"text\": \"Hello.\"}, {\"type\": \"video_url\", \"video_url\": {}}]}}]}",
            &[Block::text("Hello."), Block::text("[Not kept: OpenAI video_url content]")],
            &["video_url"],
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"tool_calls": [{"id": "c", "type": "computer", "computer": {}}]}}]}"#,
            &[Block::text("[Not kept: OpenAI computer content]")],
            &["computer"],
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "text", "text": "a"}, {"type": "mystery_block", "file_id": "file_1"}, {"type": "text", "text": "b"}]}"#,
            &[
                Block::text("a"),
                Block::text("[Not kept: Anthropic mystery_block content]"),
                Block::text("b"),
            ],
            &["mystery_block"],
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"text": "Read it."}, {"fileData": {"mimeType": "application/pdf", "fileUri": "https://example.com/a.pdf"}}, {"text": "Done."}]}, "finishReason": "STOP"}]}"#,
            &[
                Block::text("Read it."),
                Block::text("[Not kept: Gemini fileData content]"),
                Block::text("Done."),
            ],
            &["fileData"],
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status": "completed", "output": [{"type": "hologram_search_call", "id": "ts_1", "status": "completed"}]}"#,
            &[Block::text("[Not kept: OpenAI hologram_search_call content]")],
            &["hologram_search_call"],
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"role": "assistant", "content": [{"citationsContent": {"content": [{"text": "It is 20 C."}], "citations": []}}, {"guardContent": {}}]}}, "stopReason": "end_turn"}"#,
            &[
                Block::text("It is 20 C."),
                Block::text("[Not kept: Bedrock guardContent content]"),
            ],
            &["guardContent"],
        ),
        (
            // A kind that tries to forge a marker is escaped as a media type is.
            Provider::Anthropic,
            r#"{"content": [{"type": "x] [Image (a) not shown: b"}]}"#,
            &[Block::text("[Not kept: Anthropic x\\u{5d} \\u{5b}Image \\u{28}a\\u{29} not shown: b content]")],
            &["x] [Image (a) not shown: b"],
        ),
    ];
    for (provider, body, blocks, kinds) in cases {
        let reply = provider.read_reply(body).unwrap();
        assert_eq!(reply.message.blocks, blocks, "{provider}");
        assert_eq!(reply.not_kept(), kinds, "{provider}");
    }
}
