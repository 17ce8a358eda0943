//! The newer shapes of a reply finish into the same reply streamed as whole, however the
//! stream's bytes are split: Anthropic's compaction (`compaction_delta`) and citations
//! (`citations_delta`, a web result's `encrypted_index`), its model fallback, stop details and
//! container; Responses' compaction item, approval request, computer call with pending safety
//! checks, client tool search, hosted shell call with its output, file citation of a
//! container, and an event whose `delta` is an object; Gemini 3's streamed function-call
//! arguments (`partialArgs`), URL context metadata, server-side tool invocations (`toolCall`,
//! `toolResponse`), enums sent as numbers, a blocked prompt and a reply of two candidates;
//! Chat's deprecated `function_call`, its zero values, a choice with no delta (Azure's content
//! filter), other choices, a call without arguments, calls without ids, a custom tool's input,
//! OpenRouter's `reasoning_details` and Gemini's endpoint's `extra_content`; Bedrock's guardrail
//! trace; how a stream ends: Perplexity's `chat.completion.done`, and a `[DONE]` after
//! Responses' and Anthropic's terminal events. Each row is a stream and the whole body of the
//! same response:
//! the streamed reply's message, stop reason, metadata, calls and incomplete calls are the
//! whole reply's, and the round the reply makes in flight is the same body, byte for byte.
//!
//! `stream_chunking.rs` holds the same property over generated text, reasoning and calls.
//! The property test here runs 64 cases: every row in each, fed at up to twelve arbitrary cut
//! points.

use proptest::prelude::*;
use serde_json::json;
use transcript_replay::{
    Dialect, Priced, Provider, Reply, StopReason, StoredMessage, Tool, ToolOutput, Turn,
};
use transcript_replay_conformance::streams;

/// A row of the table: a stream, and the whole body of the same response.
struct Row {
    /// What the row covers.
    name: &'static str,
    provider: Provider,
    /// The response streamed, as its bytes come.
    stream: Vec<u8>,
    /// The same response whole.
    whole: String,
    /// Whether the round the reply makes is the same body byte for byte, streamed or whole;
    /// `false` only where a known mismatch is marked on the row, and then the two bodies are
    /// compared as JSON values.
    same_bytes: bool,
}

/// Server-sent events, each under the event name its `type` gives (Anthropic, Responses),
/// the data written as given, so that the stream carries each object's keys in the order the
/// whole body does.
fn typed(events: &[String]) -> Vec<u8> {
    let events: Vec<(Option<&str>, String)> = events
        .iter()
        .map(|data| {
            let kind = data
                .split_once(r#""type":""#)
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(kind, _)| kind);
            (kind, data.clone())
        })
        .collect();
    streams::sse(&events, "\n")
}

/// Server-sent events without names (Chat, Gemini).
fn unnamed(events: &[String]) -> Vec<u8> {
    let events: Vec<(Option<&str>, String)> =
        events.iter().map(|data| (None, data.clone())).collect();
    streams::sse(&events, "\n")
}

/// Owned strings.
fn owned(events: &[&str]) -> Vec<String> {
    events.iter().map(|event| (*event).to_owned()).collect()
}

fn anthropic_compaction() -> Row {
    let usage = r#"{"input_tokens":10,"output_tokens":2,"iterations":[{"type":"compaction","input_tokens":150000,"output_tokens":900},{"type":"message","input_tokens":10,"output_tokens":2}]}"#;
    Row {
        name: "anthropic compaction block, streamed in compaction_delta events",
        provider: Provider::Anthropic,
        stream: typed(&[
            r#"{"type":"message_start","message":{"role":"assistant","content":[],"usage":{"input_tokens":10,"output_tokens":0}}}"#.to_owned(),
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"compaction","content":null}}"#.to_owned(),
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"a.rs is ","encrypted_content":null}}"#.to_owned(),
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"empty.","encrypted_content":"sig"}}"#.to_owned(),
            r#"{"type":"content_block_stop","index":0}"#.to_owned(),
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#.to_owned(),
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Next."}}"#.to_owned(),
            r#"{"type":"content_block_stop","index":1}"#.to_owned(),
            format!(r#"{{"type":"message_delta","delta":{{"stop_reason":"compaction"}},"usage":{usage}}}"#),
            r#"{"type":"message_stop"}"#.to_owned(),
        ]),
        whole: format!(
            r#"{{"role":"assistant","content":[{{"type":"compaction","content":"a.rs is empty.","encrypted_content":"sig"}},{{"type":"text","text":"Next."}}],"stop_reason":"compaction","usage":{usage}}}"#
        ),
        same_bytes: true,
    }
}

fn responses_compaction() -> Row {
    let compaction =
        r#"{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA","created_by":"openai"}"#;
    let message = r#"{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Next.","annotations":[]}]}"#;
    let usage = r#"{"input_tokens":20,"output_tokens":3}"#;
    Row {
        name: "responses compaction item",
        provider: Provider::OpenAiResponses,
        stream: typed(&[
            format!(r#"{{"type":"response.output_item.done","output_index":0,"item":{compaction}}}"#),
            r#"{"type":"response.output_text.delta","output_index":1,"content_index":0,"delta":"Next."}"#.to_owned(),
            format!(r#"{{"type":"response.output_item.done","output_index":1,"item":{message}}}"#),
            format!(r#"{{"type":"response.completed","response":{{"status":"completed","output":[],"usage":{usage}}}}}"#),
        ]),
        whole: format!(r#"{{"status":"completed","output":[{compaction},{message}],"usage":{usage}}}"#),
        same_bytes: true,
    }
}

/// A web search result's citation, with the `encrypted_index` Anthropic says must be passed
/// back, and two document locations, in the documented key order.
const WEB: &str = r#"{"type":"web_search_result_location","url":"https://www.rust-lang.org/","title":"Rust","encrypted_index":"Eo8BCioIAhgBIiQy","cited_text":"A language empowering everyone"}"#;
const CHAR: &str = r#"{"type":"char_location","cited_text":"The grass is green.","document_index":0,"document_title":"Facts","start_char_index":0,"end_char_index":20,"file_id":null}"#;
const PAGE: &str = r#"{"type":"page_location","cited_text":"Water boils at 100 \u00b0C.","document_index":1,"document_title":null,"start_page_number":2,"end_page_number":3}"#;

fn anthropic_citations() -> Row {
    let search = r#"{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"rust"}}"#;
    let result = r#"{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://www.rust-lang.org/","title":"Rust","encrypted_content":"EqgfCioIARgB","page_age":null}]}"#;
    let delta = |index: usize, delta: String| {
        format!(r#"{{"type":"content_block_delta","index":{index},"delta":{delta}}}"#)
    };
    let cite = |index: usize, citation: &str| {
        delta(
            index,
            format!(r#"{{"type":"citations_delta","citation":{citation}}}"#),
        )
    };
    let text = |index: usize, text: &str| {
        delta(index, format!(r#"{{"type":"text_delta","text":{text}}}"#))
    };
    let start_text = |index: usize| {
        format!(
            r#"{{"type":"content_block_start","index":{index},"content_block":{{"type":"text","text":"","citations":[]}}}}"#
        )
    };
    let stop = |index: usize| format!(r#"{{"type":"content_block_stop","index":{index}}}"#);
    Row {
        name: "anthropic citations in citations_delta events, with encrypted_index",
        provider: Provider::Anthropic,
        stream: typed(&[
            r#"{"type":"message_start","message":{"content":[],"usage":{"input_tokens":30,"output_tokens":1}}}"#.to_owned(),
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#.to_owned(),
            delta(0, r#"{"type":"input_json_delta","partial_json":"{\"query\":\"rust\"}"}"#.to_owned()),
            stop(0),
            format!(r#"{{"type":"content_block_start","index":1,"content_block":{result}}}"#),
            stop(1),
            start_text(2),
            cite(2, WEB),
            text(2, r#""Rust empowers ""#),
            text(2, r#""everyone.""#),
            stop(2),
            start_text(3),
            cite(3, CHAR),
            text(3, r#"" Grass is green; ""#),
            cite(3, PAGE),
            text(3, r#""water boils at 100 \u00b0C \/ 212 \u00b0F.""#),
            stop(3),
            r#"{"type":"content_block_start","index":4,"content_block":{"type":"tool_use","id":"toolu_1","name":"read","input":{}}}"#.to_owned(),
            delta(4, r#"{"type":"input_json_delta","partial_json":"{\"path\":"}"#.to_owned()),
            delta(4, r#"{"type":"input_json_delta","partial_json":"\"a.rs\"}"}"#.to_owned()),
            stop(4),
            r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":20}}"#.to_owned(),
            r#"{"type":"message_stop"}"#.to_owned(),
        ]),
        whole: format!(
            r#"{{"content":[{search},{result},{{"type":"text","text":"Rust empowers everyone.","citations":[{WEB}]}},{{"type":"text","text":" Grass is green; water boils at 100 \u00b0C \/ 212 \u00b0F.","citations":[{CHAR},{PAGE}]}},{{"type":"tool_use","id":"toolu_1","name":"read","input":{{"path":"a.rs"}}}}],"stop_reason":"tool_use","usage":{{"input_tokens":30,"output_tokens":20}}}}"#
        ),
        same_bytes: true,
    }
}

fn anthropic_metadata() -> Row {
    let stop_details = r#"{"type":"refusal","category":"cyber","explanation":"Not that."}"#;
    let container = r#"{"id":"container_1","expires_at":"2026-12-06T13:00:00Z"}"#;
    let fallback = r#"{"type":"fallback","from":{"model":"claude-opus-4-5"},"to":{"model":"claude-sonnet-4-5"}}"#;
    Row {
        name: "anthropic model fallback, stop_details and container",
        provider: Provider::Anthropic,
        stream: typed(&[
            r#"{"type":"message_start","message":{"role":"assistant","content":[],"usage":{"input_tokens":5,"output_tokens":0}}}"#.to_owned(),
            format!(r#"{{"type":"content_block_start","index":0,"content_block":{fallback}}}"#),
            r#"{"type":"content_block_stop","index":0}"#.to_owned(),
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#.to_owned(),
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"No."}}"#.to_owned(),
            r#"{"type":"content_block_stop","index":1}"#.to_owned(),
            format!(r#"{{"type":"message_delta","delta":{{"stop_reason":"refusal","stop_details":{stop_details},"container":{container}}},"usage":{{"output_tokens":3}}}}"#),
            r#"{"type":"message_stop"}"#.to_owned(),
        ]),
        whole: format!(
            r#"{{"role":"assistant","content":[{fallback},{{"type":"text","text":"No."}}],"stop_reason":"refusal","stop_details":{stop_details},"container":{container},"usage":{{"input_tokens":5,"output_tokens":3}}}}"#
        ),
        same_bytes: true,
    }
}

fn gemini_partial_args() -> Row {
    let chunk = |part: &str| {
        format!(r#"{{"candidates":[{{"content":{{"role":"model","parts":[{part}]}}}}]}}"#)
    };
    Row {
        name: "gemini 3 function call streamed in partialArgs",
        provider: Provider::Gemini,
        stream: unnamed(&[
            chunk(r#"{"functionCall":{"name":"get_weather","willContinue":true},"thoughtSignature":"sig"}"#),
            chunk(r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"Bos","willContinue":true}],"willContinue":true}}"#),
            chunk(r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"ton"},{"jsonPath":"$.days[0]","numberValue":1},{"jsonPath":"$.options.metric","boolValue":true}],"willContinue":true}}"#),
            chunk(r#"{"functionCall":{}}"#),
            r#"{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}]}"#.to_owned(),
        ]),
        whole: r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"location":"Boston","days":[1],"options":{"metric":true}}},"thoughtSignature":"sig"}]},"finishReason":"STOP"}]}"#.to_owned(),
        same_bytes: true,
    }
}

fn gemini_url_context() -> Row {
    let urls = r#"{"urlMetadata":[{"retrievedUrl":"https://a.example","urlRetrievalStatus":"URL_RETRIEVAL_STATUS_SUCCESS"},{"retrievedUrl":"https://b.example","urlRetrievalStatus":"URL_RETRIEVAL_STATUS_ERROR"}]}"#;
    Row {
        name: "gemini url context metadata, on the last chunk",
        provider: Provider::Gemini,
        stream: unnamed(&[
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Read "}]}}]}"#
                .to_owned(),
            format!(
                r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"one."}}]}},"finishReason":"STOP","urlContextMetadata":{urls}}}],"usageMetadata":{{"promptTokenCount":8,"candidatesTokenCount":3,"totalTokenCount":11}}}}"#
            ),
        ]),
        whole: format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"Read one."}}]}},"finishReason":"STOP","urlContextMetadata":{urls}}}],"usageMetadata":{{"promptTokenCount":8,"candidatesTokenCount":3,"totalTokenCount":11}}}}"#
        ),
        same_bytes: true,
    }
}

/// A Gemini chunk of the first candidate carrying these parts (a JSON list's items).
fn gemini_chunk(parts: &str) -> String {
    format!(r#"{{"candidates":[{{"content":{{"role":"model","parts":[{parts}]}}}}]}}"#)
}

/// The parts of a server tool's invocation and a function call, each with the signature it
/// came with, as Google documents them for a request that sets
/// `toolConfig.includeServerSideToolInvocations`
/// (<https://ai.google.dev/gemini-api/docs/tool-combination>, "Example request structure").
const SEARCH_CALL: &str = r#"{"thoughtSignature":"c2lnLWE=","toolCall":{"toolType":"GOOGLE_SEARCH_WEB","args":{"queries":["northernmost city in the United States"]},"id":"a7b3k9p2"}}"#;
const SEARCH_RESPONSE: &str = r#"{"thoughtSignature":"c2lnLWI=","toolResponse":{"toolType":"GOOGLE_SEARCH_WEB","response":{"search_suggestions":"<div>northernmost city</div>"},"id":"a7b3k9p2"}}"#;
const WEATHER_CALL: &str = r#"{"functionCall":{"name":"getWeather","args":{"city":"Utqiaġvik, Alaska"},"id":"m4q8z1v6"},"thoughtSignature":"c2lnLWM="}"#;

fn gemini_server_tools() -> Row {
    // A URL context call and its response with no id, linked by order; a file search call
    // with neither arguments nor an id, and its empty response (Google documents neither
    // for file search).
    let url_call =
        r#"{"toolCall":{"toolType":"URL_CONTEXT","args":{"urls":["https://a.example"]}}}"#;
    let url_response = r#"{"toolResponse":{"toolType":"URL_CONTEXT","response":{"urls_metadata":[{"retrieved_url":"https://a.example","url_retrieval_status":"URL_RETRIEVAL_STATUS_SUCCESS"}]}}}"#;
    let file_call = r#"{"toolCall":{"toolType":"FILE_SEARCH"}}"#;
    let file_response = r#"{"toolResponse":{"toolType":"FILE_SEARCH"}}"#;
    let parts = [
        SEARCH_CALL,
        SEARCH_RESPONSE,
        url_call,
        url_response,
        file_call,
        file_response,
        WEATHER_CALL,
    ];
    let mut stream: Vec<String> = parts.iter().map(|part| gemini_chunk(part)).collect();
    stream.push(r#"{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}]}"#.to_owned());
    Row {
        name: "gemini 3 server-side tool invocations (toolCall, toolResponse), each part whole",
        provider: Provider::Gemini,
        stream: unnamed(&stream),
        whole: format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{}]}},"finishReason":"STOP"}}]}}"#,
            parts.join(",")
        ),
        same_bytes: true,
    }
}

fn gemini_integer_enums() -> Row {
    // `$alt=json;enum-encoding=int`: every enum the reader reads comes as its number.
    let code = r#"{"executableCode":{"language":1,"code":"print(1)"}}"#;
    let result = r#"{"codeExecutionResult":{"outcome":2,"output":"boom"}}"#;
    let urls = r#"{"urlMetadata":[{"retrievedUrl":"https://a.example","urlRetrievalStatus":1},{"retrievedUrl":"https://b.example","urlRetrievalStatus":3}]}"#;
    Row {
        name: "gemini enums as numbers (enum-encoding=int)",
        provider: Provider::Gemini,
        stream: unnamed(&[
            gemini_chunk(code),
            gemini_chunk(result),
            format!(
                r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"Failed."}}]}},"finishReason":2,"urlContextMetadata":{urls}}}]}}"#
            ),
        ]),
        whole: format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{code},{result},{{"text":"Failed."}}]}},"finishReason":2,"urlContextMetadata":{urls}}}]}}"#
        ),
        same_bytes: true,
    }
}

fn gemini_blocked_prompt() -> Row {
    let feedback = r#"{"blockReason":"PROHIBITED_CONTENT","safetyRatings":[{"category":"HARM_CATEGORY_DANGEROUS_CONTENT","probability":"HIGH"}]}"#;
    let usage = r#"{"promptTokenCount":9,"totalTokenCount":9}"#;
    let body = format!(r#"{{"promptFeedback":{feedback},"usageMetadata":{usage}}}"#);
    Row {
        name: "gemini blocked prompt: no candidate, the block reason",
        provider: Provider::Gemini,
        stream: unnamed(std::slice::from_ref(&body)),
        whole: body,
        same_bytes: true,
    }
}

fn gemini_two_candidates() -> Row {
    // `candidateCount: 2`: each chunk carries both candidates, numbered by `index`; a last
    // chunk carries the second alone.
    let both = |first: &str, second: &str, finish: &str| {
        format!(
            r#"{{"candidates":[{{"content":{{"role":"model","parts":[{{"text":"{first}"}}]}},"index":0{finish}}},{{"content":{{"role":"model","parts":[{{"text":"{second}"}}]}},"index":1}}]}}"#
        )
    };
    Row {
        name: "gemini two candidates: the first read, the other counted",
        provider: Provider::Gemini,
        stream: unnamed(&[
            both("Heads", "Tails", ""),
            both(".", ",", r#","finishReason":"STOP""#),
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":" then."}]},"finishReason":"STOP","index":1}]}"#.to_owned(),
        ]),
        whole: concat!(
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Heads."}]},"finishReason":"STOP","index":0},"#,
            r#"{"content":{"role":"model","parts":[{"text":"Tails, then."}]},"finishReason":"STOP","index":1}]}"#,
        )
        .to_owned(),
        same_bytes: true,
    }
}

fn chat_function_call() -> Row {
    Row {
        name: "chat's deprecated function_call, streamed",
        provider: Provider::OpenAi,
        stream: unnamed(&owned(&[
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","function_call":{"name":"ls","arguments":""}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"function_call":{"arguments":"{\"path\":"}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"function_call":{"arguments":"\".\"}"}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"function_call"}]}"#,
            "[DONE]",
        ])),
        whole: r#"{"choices":[{"index":0,"finish_reason":"function_call","message":{"role":"assistant","content":null,"function_call":{"name":"ls","arguments":"{\"path\":\".\"}"}}}]}"#.to_owned(),
        same_bytes: true,
    }
}

/// A Chat Completions reply of a provider of the Chat surface: its chunks as they come (each
/// as written), and its whole body.
fn chat(name: &'static str, provider: Provider, chunks: &[&str], whole: &str) -> Row {
    Row {
        name,
        provider,
        stream: unnamed(&owned(chunks)),
        whole: whole.to_owned(),
        same_bytes: true,
    }
}

/// Perplexity's stream sends no `[DONE]`: it ends with a `chat.completion.done` chunk that
/// carries the finish reason, the usage and the search results, in the shape of
/// <https://docs.perplexity.ai/docs/sonar/pro-search/stream-mode>.
fn perplexity_done_chunk() -> Row {
    let sources = r#""citations":["https://blog.rust-lang.org/"],"search_results":[{"title":"Rust Blog","url":"https://blog.rust-lang.org/","date":"2024-07-25"}]"#;
    let usage = r#""usage":{"prompt_tokens":7,"completion_tokens":5,"total_tokens":12}"#;
    chat(
        "perplexity stream ending in its chat.completion.done chunk, with no [DONE]",
        Provider::Compatible(&Dialect::PERPLEXITY),
        &[
            r#"{"id":"p1","model":"sonar","created":1,"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Rust 1.80 "},"finish_reason":null}]}"#,
            r#"{"id":"p1","model":"sonar","created":1,"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"is out."},"finish_reason":null}]}"#,
            &format!(
                r#"{{"id":"p1","model":"sonar","created":1,"object":"chat.completion.done","choices":[{{"index":0,"delta":{{}},"finish_reason":"stop"}}],{usage},{sources}}}"#
            ),
        ],
        &format!(
            r#"{{"id":"p1","model":"sonar","created":1,"object":"chat.completion","choices":[{{"index":0,"finish_reason":"stop","message":{{"role":"assistant","content":"Rust 1.80 is out."}}}}],{usage},{sources}}}"#
        ),
    )
}

/// A server that fills every field a reply leaves out with its zero value, in the whole
/// message and in each chunk (`"function_call": {"name": "", "arguments": ""}`,
/// `"refusal": ""`, `"tool_calls": []`, `"finish_reason": ""` until the last chunk, a call's
/// empty `id`, `type` and `name` after its first delta), as
/// <https://github.com/Wei-Shaw/sub2api/pull/5632> and
/// <https://github.com/binaricat/Netcatty/pull/1690> report it: none is a call, a refusal or
/// a stop, and none goes back in the round.
fn chat_zero_values() -> Row {
    let zeros = r#""function_call":{"name":"","arguments":""},"refusal":"""#;
    let chunk = |delta: &str, finish: &str| {
        format!(
            r#"{{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{{"index":0,"delta":{{{delta}}},"logprobs":null,"finish_reason":"{finish}"}}],"usage":null}}"#
        )
    };
    chat(
        "chat reply whose absent fields are zero values, whole and in every chunk",
        Provider::OpenAi,
        &[
            &chunk(
                &format!(
                    r#""role":"assistant","content":"","reasoning_content":"",{zeros},"tool_calls":[],"extra_fields":null"#
                ),
                "",
            ),
            &chunk(
                &format!(
                    r#""role":"assistant","content":"Reading it.","reasoning_content":"",{zeros},"tool_calls":[]"#
                ),
                "",
            ),
            &chunk(
                &format!(
                    r#""role":"","content":"",{zeros},"tool_calls":[{{"index":0,"id":"call_1","type":"function","function":{{"name":"read","arguments":""}}}}]"#
                ),
                "",
            ),
            &chunk(
                &format!(
                    r#""role":"","content":"",{zeros},"tool_calls":[{{"index":0,"id":"","type":"","function":{{"name":"","arguments":"{{\"path\":\"a.rs\"}}"}}}},{{"index":1,"id":"","type":"","function":{{"name":"","arguments":""}}}}]"#
                ),
                "",
            ),
            &chunk(
                &format!(r#""role":"","content":"",{zeros},"tool_calls":[]"#),
                "tool_calls",
            ),
            r#"{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":16,"completion_tokens":9,"total_tokens":25}}"#,
            "[DONE]",
        ],
        &format!(
            r#"{{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{{"index":0,"message":{{"role":"assistant","content":"Reading it.","reasoning_content":"",{zeros},"tool_calls":[{{"id":"call_1","type":"function","function":{{"name":"read","arguments":"{{\"path\":\"a.rs\"}}"}}}},{{"id":"","type":"function","function":{{"name":"","arguments":""}}}}],"extra_fields":null}},"logprobs":null,"finish_reason":"tool_calls"}}],"usage":{{"prompt_tokens":16,"completion_tokens":9,"total_tokens":25}}}}"#
        ),
    )
}

/// Azure's content filter stopped the reply: its stream's choice ends with no delta, after
/// a first chunk of no choices that carries the prompt's filter results
/// (<https://github.com/AbanteAI/archive-old-cli-mentat/issues/429>); the whole reply's
/// choice has no message (<https://github.com/Azure/azure-sdk-for-go/pull/21625>).
fn azure_content_filter() -> Row {
    let filter = r#""content_filter_results":{"violence":{"filtered":true,"severity":"medium"}}"#;
    chat(
        "azure choice stopped by the content filter, with no message or delta",
        Provider::Compatible(&Dialect::AZURE),
        &[
            r#"{"id":"","choices":[],"created":0,"model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}"#,
            &format!(
                r#"{{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{{"index":0,"finish_reason":"content_filter",{filter}}}]}}"#
            ),
            r#"{"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":14,"total_tokens":26}}"#,
            "[DONE]",
        ],
        &format!(
            r#"{{"id":"chatcmpl-9","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{{"index":0,"finish_reason":"content_filter",{filter}}}],"usage":{{"prompt_tokens":12,"completion_tokens":14,"total_tokens":26}}}}"#
        ),
    )
}

/// A reply of three choices (`n: 3`), streamed interleaved: the first is the reply, and the
/// others are counted in its metadata.
fn chat_other_choices() -> Row {
    let delta = |index: usize, delta: &str, finish: &str| {
        format!(
            r#"{{"object":"chat.completion.chunk","choices":[{{"index":{index},"delta":{delta},"finish_reason":{finish}}}]}}"#
        )
    };
    chat(
        "chat reply of three choices: the first kept, the others counted",
        Provider::OpenAi,
        &[
            &delta(0, r#"{"role":"assistant","content":"A"}"#, "null"),
            &delta(1, r#"{"role":"assistant","content":"B"}"#, "null"),
            &delta(2, r#"{"role":"assistant","content":"C"}"#, "null"),
            &delta(1, "{}", r#""stop""#),
            &delta(0, r#"{"content":"h."}"#, "null"),
            &delta(0, "{}", r#""stop""#),
            &delta(2, "{}", r#""length""#),
            "[DONE]",
        ],
        r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Ah."},"finish_reason":"stop"},{"index":1,"message":{"role":"assistant","content":"B"},"finish_reason":"stop"},{"index":2,"message":{"role":"assistant","content":"C"},"finish_reason":"length"}]}"#,
    )
}

/// A call to a tool that takes no arguments, whose `arguments` the server leaves out, as
/// llama.cpp's does (<https://github.com/QwenLM/qwen-code/issues/6249>): a call with input
/// `{}`, sent back as it came.
fn chat_call_without_arguments() -> Row {
    chat(
        "chat tool call without arguments",
        Provider::Compatible(&Dialect::LLAMA_CPP),
        &[
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"task_list"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            "[DONE]",
        ],
        r#"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"task_list"}}]},"finish_reason":"tool_calls"}]}"#,
    )
}

/// Calls without ids (Groq's executed tools, a compatible server's tool calls): each gets the
/// made id of its number in the reply, the same streamed as whole, and none is sent back.
fn chat_made_ids() -> Row {
    let search = |index: usize| {
        format!(
            r#"{{"index":{index},"type":"search","arguments":"{{}}","output":"result {index}"}}"#
        )
    };
    let call = |name: &str| {
        format!(r#"{{"type":"function","function":{{"name":"{name}","arguments":"{{}}"}}}}"#)
    };
    chat(
        "chat calls without ids: executed tools and tool calls",
        Provider::Compatible(&Dialect::GROQ),
        &[
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"role":"assistant","executed_tools":[{}]}}}}]}}"#,
                search(0)
            ),
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"executed_tools":[{}]}}}}]}}"#,
                search(1)
            ),
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":0,{}]}}}}]}}"#,
                &call("echo")[1..]
            ),
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":1,{}]}},"finish_reason":"tool_calls"}}]}}"#,
                &call("echo")[1..]
            ),
            "[DONE]",
        ],
        &format!(
            r#"{{"choices":[{{"index":0,"message":{{"role":"assistant","executed_tools":[{},{}],"tool_calls":[{},{}]}},"finish_reason":"tool_calls"}}]}}"#,
            search(0),
            search(1),
            call("echo"),
            call("echo")
        ),
    )
}

/// OpenRouter's `reasoning_details`, streamed in pieces that add up, which the round must
/// send back for Claude and Gemini
/// (<https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks>),
/// each detail's members where they came.
fn openrouter_reasoning_details() -> Row {
    chat(
        "openrouter reasoning_details in pieces, with a tool call",
        Provider::Compatible(&Dialect::OPENROUTER),
        &[
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Look","reasoning_details":[{"type":"reasoning.text","text":"Look","signature":null,"index":0,"format":"anthropic-claude-v1"}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"reasoning":" first.","reasoning_details":[{"type":"reasoning.text","text":" first.","signature":"sig==","index":0,"format":"anthropic-claude-v1"}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"toolu_1","type":"function","function":{"name":"echo","arguments":"{\"a\":"}}]}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]}"#,
            "[DONE]",
        ],
        r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"","reasoning":"Look first.","reasoning_details":[{"type":"reasoning.text","text":"Look first.","signature":"sig==","index":0,"format":"anthropic-claude-v1"}],"tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"echo","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]}"#,
    )
}

/// Gemini's OpenAI endpoint: each call's `extra_content.google.thought_signature`, which
/// Gemini 3 needs back (<https://ai.google.dev/gemini-api/docs/thought-signatures>).
fn gemini_openai_thought_signature() -> Row {
    let extra = r#""extra_content":{"google":{"thought_signature":"Ck0BVKhc"}}"#;
    chat(
        "gemini's openai endpoint: a call's extra_content",
        Provider::Compatible(&Dialect::GEMINI_OPENAI),
        &[
            &format!(
                r#"{{"choices":[{{"index":0,"delta":{{"role":"assistant","tool_calls":[{{{extra},"function":{{"arguments":"{{}}","name":"echo"}},"id":"function-call-1","type":"function"}}]}},"finish_reason":"tool_calls"}}]}}"#
            ),
            "[DONE]",
        ],
        &format!(
            r#"{{"choices":[{{"index":0,"message":{{"role":"assistant","tool_calls":[{{{extra},"function":{{"arguments":"{{}}","name":"echo"}},"id":"function-call-1","type":"function"}}]}},"finish_reason":"tool_calls"}}]}}"#
        ),
    )
}

/// A custom tool's call, its free-form input streamed in pieces (the shape of OpenAI's custom
/// tools, <https://platform.openai.com/docs/guides/function-calling#custom-tools>): stored as
/// the JSON string of the text, escapes and all, and sent back as the text it came as.
fn chat_custom_tool() -> Row {
    chat(
        "chat custom tool call, its free-form input in pieces",
        Provider::OpenAi,
        &[
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"custom","custom":{"name":"code_exec","input":"print(\""}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"custom":{"input":"hi\")\n"}}]},"finish_reason":null}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            "[DONE]",
        ],
        r#"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"custom","custom":{"name":"code_exec","input":"print(\"hi\")\n"}}]},"finish_reason":"tool_calls"}]}"#,
    )
}

/// OpenRouter's Responses endpoint sends `data: [DONE]` after `response.completed`.
fn responses_done_after_completed() -> Row {
    let mut row = responses_items(
        "responses stream with a [DONE] after response.completed (OpenRouter)",
        &[
            r#"{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Done.","annotations":[]}]}"#,
        ],
    );
    row.stream.extend_from_slice(b"data: [DONE]\n\n");
    row
}

/// OpenRouter's Messages endpoint sends `data: [DONE]` after `message_stop`.
fn anthropic_done_after_message_stop() -> Row {
    let mut stream = typed(&owned(&[
        r#"{"type":"message_start","message":{"role":"assistant","content":[],"usage":{"input_tokens":4,"output_tokens":0}}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}"#,
        r#"{"type":"message_stop"}"#,
    ]));
    stream.extend_from_slice(b"data: [DONE]\n\n");
    Row {
        name: "anthropic stream with a [DONE] after message_stop (OpenRouter)",
        provider: Provider::Anthropic,
        stream,
        whole: r#"{"role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":{"input_tokens":4,"output_tokens":2}}"#.to_owned(),
        same_bytes: true,
    }
}

fn responses_object_delta() -> Row {
    let message = r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}"#;
    Row {
        name: "responses event whose delta is an object",
        provider: Provider::OpenAiResponses,
        stream: typed(&[
            r#"{"type":"response.shell_call_output_content.delta","output_index":0,"delta":{"stdout":"hi"}}"#.to_owned(),
            format!(r#"{{"type":"response.completed","response":{{"status":"completed","output":[{message}]}}}}"#),
        ]),
        whole: format!(r#"{{"status":"completed","output":[{message}]}}"#),
        same_bytes: true,
    }
}

fn responses_container_file() -> Row {
    let item = r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Here is the chart.","annotations":[{"type":"container_file_citation","container_id":"cntr_1","file_id":"cfile_1","filename":"chart.png","start_index":0,"end_index":5}]}]}"#;
    Row {
        name: "responses container_file_citation",
        provider: Provider::OpenAiResponses,
        stream: typed(&[
            r#"{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Here is "}"#.to_owned(),
            r#"{"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"the chart."}"#.to_owned(),
            format!(r#"{{"type":"response.output_item.done","output_index":0,"item":{item}}}"#),
            format!(r#"{{"type":"response.completed","response":{{"status":"completed","output":[{item}]}}}}"#),
        ]),
        whole: format!(r#"{{"status":"completed","output":[{item}]}}"#),
        same_bytes: true,
    }
}

/// A Responses reply of these output items, streamed as each item's
/// `response.output_item.done` then `response.completed` without the items, as OpenAI may send
/// it.
fn responses_items(name: &'static str, items: &[&str]) -> Row {
    let usage = r#"{"input_tokens":40,"output_tokens":12}"#;
    let mut events: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            format!(
                r#"{{"type":"response.output_item.done","output_index":{index},"item":{item}}}"#
            )
        })
        .collect();
    events.push(format!(
        r#"{{"type":"response.completed","response":{{"status":"completed","output":[],"usage":{usage}}}}}"#
    ));
    Row {
        name,
        provider: Provider::OpenAiResponses,
        stream: typed(&events),
        whole: format!(
            r#"{{"status":"completed","output":[{}],"usage":{usage}}}"#,
            items.join(",")
        ),
        same_bytes: true,
    }
}

fn responses_approval() -> Row {
    responses_items(
        "responses mcp_approval_request",
        &[
            r#"{"type":"mcp_approval_request","id":"mcpr_1","server_label":"deepwiki","name":"ask_question","arguments":"{\"repo\":\"a/b\"}"}"#,
        ],
    )
}

fn responses_safety_checks() -> Row {
    responses_items(
        "responses computer call with pending_safety_checks",
        &[
            r#"{"type":"computer_call","id":"cu_1","call_id":"call_1","action":{"type":"click","x":1,"y":2},"pending_safety_checks":[{"id":"cu_sc_1","code":"malicious_instructions","message":"Careful."}],"status":"completed"}"#,
        ],
    )
}

fn responses_tool_search() -> Row {
    responses_items(
        "responses tool_search_call the client runs",
        &[
            r#"{"type":"tool_search_call","id":"tsc_1","call_id":"call_ts","execution":"client","arguments":{"goal":"weather tools"},"status":"completed"}"#,
        ],
    )
}

fn responses_hosted_shell() -> Row {
    responses_items(
        "responses hosted shell_call and its shell_call_output",
        &[
            r#"{"type":"shell_call","id":"sh_1","call_id":"call_sh","action":{"commands":["ls"]},"status":"completed","environment":{"type":"container_reference","container_id":"cntr_1"}}"#,
            r#"{"type":"shell_call_output","id":"sho_1","call_id":"call_sh","status":"completed","output":[{"stdout":"a.rs\nb.rs\n","stderr":"","outcome":{"type":"exit","exit_code":0}}],"max_output_length":null}"#,
            r#"{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Done.","annotations":[]}]}"#,
        ],
    )
}

fn bedrock_guardrail() -> Row {
    let trace = json!({"guardrail": {"actionReason": "Guardrail blocked.",
        "inputAssessment": {"g1": {"contentPolicy": {"filters": [{"type": "VIOLENCE", "action": "BLOCKED"}]}}}}});
    let usage = json!({"inputTokens": 9, "outputTokens": 2, "totalTokens": 11});
    let stream = [
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "Sorry."}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        ("messageStop", json!({"stopReason": "guardrail_intervened"})),
        (
            "metadata",
            json!({"usage": usage, "metrics": {"latencyMs": 120}, "trace": trace}),
        ),
    ]
    .iter()
    .flat_map(|(event, payload)| streams::event(event, payload))
    .collect();
    Row {
        name: "bedrock guardrail trace, in the metadata event",
        provider: Provider::Bedrock,
        stream,
        whole:
            json!({"output": {"message": {"role": "assistant", "content": [{"text": "Sorry."}]}},
            "stopReason": "guardrail_intervened", "usage": usage, "metrics": {"latencyMs": 120},
            "trace": trace})
            .to_string(),
        same_bytes: true,
    }
}

/// The table: one row per shape.
fn rows() -> Vec<Row> {
    vec![
        anthropic_compaction(),
        responses_compaction(),
        anthropic_citations(),
        anthropic_metadata(),
        gemini_partial_args(),
        gemini_url_context(),
        gemini_server_tools(),
        gemini_integer_enums(),
        gemini_blocked_prompt(),
        gemini_two_candidates(),
        chat_function_call(),
        responses_object_delta(),
        responses_container_file(),
        responses_approval(),
        responses_safety_checks(),
        responses_tool_search(),
        responses_hosted_shell(),
        bedrock_guardrail(),
        perplexity_done_chunk(),
        chat_zero_values(),
        azure_content_filter(),
        chat_other_choices(),
        chat_call_without_arguments(),
        chat_made_ids(),
        openrouter_reasoning_details(),
        gemini_openai_thought_signature(),
        chat_custom_tool(),
        responses_done_after_completed(),
        anthropic_done_after_message_stop(),
    ]
}

/// Feeds a stream in chunks at the given cut points (each taken modulo the stream's length
/// plus one, so any `usize` is a cut), and returns the reply.
fn read(provider: Provider, bytes: &[u8], cuts: &[usize]) -> Reply {
    let mut reader = provider.stream();
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut start = 0;
    for cut in cuts.into_iter().chain([bytes.len()]) {
        let chunk = bytes.get(start..cut.max(start)).unwrap_or_default();
        reader.feed(chunk).unwrap();
        start = cut.max(start);
    }
    reader.end().unwrap();
    reader.finish().unwrap()
}

/// The stream fed one byte at a time.
fn read_bytewise(provider: Provider, bytes: &[u8]) -> Reply {
    let mut reader = provider.stream();
    for byte in bytes.chunks(1) {
        reader.feed(byte).unwrap();
    }
    reader.end().unwrap();
    reader.finish().unwrap()
}

/// Tool definitions a client's tool search answers with.
const LOADED: &str = r#"[{"type":"function","name":"get_weather","parameters":{"type":"object"}}]"#;

/// The answer to each call the reply makes: an approval for a call that asks for one, the
/// loaded definitions for a tool search, an output otherwise, each acknowledging the safety
/// checks its call waits on.
fn outputs(reply: &Reply) -> Vec<ToolOutput> {
    reply
        .calls()
        .iter()
        .map(|call| {
            let output = if call.asks_approval {
                ToolOutput::approve(call.id)
            } else if call.name == "tool_search" {
                ToolOutput::ok(call.id, LOADED)
            } else {
                ToolOutput::ok(call.id, "done")
            };
            output.acknowledging(call.pending_safety_checks.iter().map(|check| &*check.id))
        })
        .collect()
}

/// The body of the next request when the reply's calls are answered in its round, as its
/// bytes, or the body's error. A reply that paused its turn makes a round without calls, which
/// sends its provider's own content back, and is compared as well; another reply without
/// calls makes no round, and both forms must say so alike.
fn round_body(provider: Provider, reply: &Reply) -> Result<String, String> {
    let outputs = outputs(reply);
    let tools: Vec<Tool> = [Tool::new("echo", "Echoes.", r#"{"type":"object"}"#).unwrap()].into();
    let history = [StoredMessage::user("Go.")];
    let turn = Turn::new(&history)
        .without_preamble()
        .tools(&tools)
        .round(reply, &outputs);
    let body = provider.body(&turn).map_err(|error| error.to_string())?;
    Ok(String::from_utf8(body.to_json().unwrap()).unwrap())
}

/// The streamed reply agrees with the whole one on everything a runtime reads of it.
fn agree(row: &Row, streamed: &Reply, whole: &Reply, how: &str) {
    let name = row.name;
    assert_eq!(
        streamed.message, whole.message,
        "{name}, {how}: the message"
    );
    assert_eq!(streamed.stop, whole.stop, "{name}, {how}: the stop");
    assert_eq!(
        streamed.metadata(),
        whole.metadata(),
        "{name}, {how}: the metadata"
    );
    assert_eq!(streamed.calls(), whole.calls(), "{name}, {how}: the calls");
    assert_eq!(
        streamed.incomplete_calls(),
        whole.incomplete_calls(),
        "{name}, {how}: the incomplete calls"
    );
    let (streamed_round, whole_round) = (
        round_body(row.provider, streamed),
        round_body(row.provider, whole),
    );
    if !whole.calls().is_empty() || whole.stop == StopReason::Paused {
        assert!(whole_round.is_ok(), "{name}: the round: {whole_round:?}");
    }
    if row.same_bytes {
        assert_eq!(
            streamed_round, whole_round,
            "{name}, {how}: the round's body"
        );
    } else {
        let value = |body: Result<String, String>| {
            body.map(|body| serde_json::from_str::<serde_json::Value>(&body).unwrap())
        };
        assert_eq!(
            value(streamed_round),
            value(whole_round),
            "{name}, {how}: the round's body, as JSON"
        );
    }
}

#[test]
fn each_shape_read_a_byte_at_a_time_is_the_whole_reply() {
    for row in rows() {
        let whole = row.provider.read_reply(&row.whole).unwrap();
        let streamed = read_bytewise(row.provider, &row.stream);
        agree(&row, &streamed, &whole, "a byte at a time");
    }
}

#[test]
fn the_table_holds_the_calls_asks_and_metadata_it_compares() {
    // The rows are not vacuous: the calls, asks and metadata the property compares are there.
    let rows = rows();
    let wholes: Vec<Reply> = rows
        .iter()
        .map(|row| row.provider.read_reply(&row.whole).unwrap())
        .collect();
    let calls = wholes.iter().filter(|reply| !reply.calls().is_empty());
    assert!(calls.count() >= 6);
    assert!(wholes
        .iter()
        .any(|reply| reply.calls().iter().any(|call| call.asks_approval)));
    assert!(wholes.iter().any(|reply| reply
        .calls()
        .iter()
        .any(|call| !call.pending_safety_checks.is_empty())));
    let metadata = wholes.iter().filter(|reply| !reply.metadata().is_empty());
    assert!(metadata.count() >= 3);
    assert!(wholes
        .iter()
        .any(|reply| reply.metadata().prompt_blocked.is_some()));
    assert!(wholes
        .iter()
        .any(|reply| reply.metadata().other_choices > 0));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_chunking_of_each_shape_finishes_into_the_whole_reply(
        cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        for row in rows() {
            let whole = row.provider.read_reply(&row.whole).unwrap();
            let streamed = read(row.provider, &row.stream, &cuts);
            agree(&row, &streamed, &whole, &format!("cut at {cuts:?}"));
        }
    }
}
