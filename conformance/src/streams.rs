//! Streams as the providers send them, for tests: server-sent events and AWS event-stream
//! frames (with both CRCs, computed here bit by bit, apart from the crate's table), and the
//! streamed form of a reply built from the same items as its whole body, so that a test can
//! check that a stream reader finishes into what `read_reply` reads.

use serde_json::{json, Value};
use transcript_replay::dialects::StreamEnd;
use transcript_replay::Provider;

/// Server-sent events: each `(event name, data)` as `event:` and `data:` lines, then a blank
/// line, with the line ending given.
pub fn sse(events: &[(Option<&str>, String)], newline: &str) -> Vec<u8> {
    let mut out = String::new();
    for (name, data) in events {
        if let Some(name) = name {
            out.push_str(&format!("event: {name}{newline}"));
        }
        for line in data.split('\n') {
            out.push_str(&format!("data: {line}{newline}"));
        }
        out.push_str(newline);
    }
    out.into_bytes()
}

/// Anthropic's server-sent events: each JSON event under the event name its `type` gives,
/// lines ending in LF.
pub fn named(events: &[Value]) -> Vec<u8> {
    let events: Vec<(Option<&str>, String)> = events
        .iter()
        .map(|data| (data["type"].as_str(), data.to_string()))
        .collect();
    sse(&events, "\n")
}

/// One AWS event-stream frame: string headers, then the payload, with its prelude CRC and its
/// message CRC.
pub fn frame(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    let mut encoded = Vec::new();
    for (name, value) in headers {
        encoded.push(name.len() as u8);
        encoded.extend_from_slice(name.as_bytes());
        encoded.push(7);
        encoded.extend_from_slice(&(value.len() as u16).to_be_bytes());
        encoded.extend_from_slice(value.as_bytes());
    }
    let total = 16 + encoded.len() + payload.len();
    let mut frame = Vec::with_capacity(total);
    frame.extend_from_slice(&(total as u32).to_be_bytes());
    frame.extend_from_slice(&(encoded.len() as u32).to_be_bytes());
    let prelude = crc32(&frame);
    frame.extend_from_slice(&prelude.to_be_bytes());
    frame.extend_from_slice(&encoded);
    frame.extend_from_slice(payload);
    let message = crc32(&frame);
    frame.extend_from_slice(&message.to_be_bytes());
    frame
}

/// A Bedrock event frame.
pub fn event(event_type: &str, payload: &Value) -> Vec<u8> {
    frame(
        &[
            (":message-type", "event"),
            (":event-type", event_type),
            (":content-type", "application/json"),
        ],
        payload.to_string().as_bytes(),
    )
}

/// A Bedrock exception frame.
pub fn exception(exception_type: &str, message: &str) -> Vec<u8> {
    frame(
        &[
            (":message-type", "exception"),
            (":exception-type", exception_type),
            (":content-type", "application/json"),
        ],
        json!({ "message": message }).to_string().as_bytes(),
    )
}

/// CRC-32/ISO-HDLC, bit by bit.
pub fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |mut crc, &byte| {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
        crc
    })
}

/// One item of a reply, as every provider can carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// Text the model wrote.
    Text(String),
    /// Reasoning the model wrote as text (with a signature where the provider gives one).
    Reasoning(String),
    /// A tool call (Gemini's carry no id, and get the crate's).
    Call {
        /// The call's id.
        id: String,
        /// The tool's name.
        name: String,
        /// Its arguments, as the compact JSON text of an object.
        args: String,
    },
}

/// A reply: its items, whether it stopped at its token limit, and its usage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The reply's items, in order.
    pub items: Vec<Item>,
    /// Whether the reply stopped at its token limit.
    pub max_tokens: bool,
    /// The input tokens the provider counts.
    pub input_tokens: u64,
    /// The output tokens the provider counts.
    pub output_tokens: u64,
}

impl Spec {
    fn calls(&self) -> bool {
        self.items
            .iter()
            .any(|item| matches!(item, Item::Call { .. }))
    }
}

/// Splits a text into pieces of at most `size` characters (at least one piece).
pub fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars
        .chunks(size.max(1))
        .map(|chunk| chunk.iter().collect())
        .collect()
}

/// The whole response body of a reply.
pub fn body(provider: Provider, spec: &Spec) -> String {
    let raw = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    match provider {
        Provider::OpenAi | Provider::Compatible(_) => {
            let mut message = json!({"role": "assistant"});
            let reasoning: String = spec
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Reasoning(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            let text: String = spec
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Text(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            if !reasoning.is_empty() {
                message["reasoning_content"] = Value::from(reasoning);
            }
            message["content"] = if text.is_empty() {
                Value::Null
            } else {
                Value::from(text)
            };
            let calls: Vec<Value> = spec
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Call { id, name, args } => Some(json!({
                        "id": id, "type": "function",
                        "function": {"name": name, "arguments": args}
                    })),
                    _ => None,
                })
                .collect();
            if !calls.is_empty() {
                message["tool_calls"] = Value::Array(calls);
            }
            let finish = match (spec.max_tokens, spec.calls()) {
                (true, _) => "length",
                (false, true) => "tool_calls",
                (false, false) => "stop",
            };
            json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
                "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": null}],
                "usage": {"prompt_tokens": spec.input_tokens, "completion_tokens": spec.output_tokens,
                          "total_tokens": spec.input_tokens + spec.output_tokens}})
            .to_string()
        }
        Provider::Anthropic => {
            let content: Vec<Value> = spec
                .items
                .iter()
                .map(|item| match item {
                    Item::Text(text) => json!({"type": "text", "text": text}),
                    Item::Reasoning(text) => {
                        json!({"type": "thinking", "thinking": text, "signature": "c2lnbmF0dXJl"})
                    }
                    Item::Call { id, name, args } => {
                        json!({"type": "tool_use", "id": id, "name": name, "input": raw(args)})
                    }
                })
                .collect();
            let stop = match (spec.max_tokens, spec.calls()) {
                (true, _) => "max_tokens",
                (false, true) => "tool_use",
                (false, false) => "end_turn",
            };
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": content, "stop_reason": stop, "stop_sequence": null,
                "usage": {"input_tokens": spec.input_tokens, "output_tokens": spec.output_tokens}})
            .to_string()
        }
        Provider::Gemini => {
            let parts: Vec<Value> = spec
                .items
                .iter()
                .map(|item| match item {
                    Item::Text(text) => json!({"text": text}),
                    Item::Reasoning(text) => json!({"text": text, "thought": true}),
                    Item::Call { name, args, .. } => {
                        json!({"functionCall": {"name": name, "args": raw(args)}})
                    }
                })
                .collect();
            let finish = if spec.max_tokens {
                "MAX_TOKENS"
            } else {
                "STOP"
            };
            json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish, "index": 0}],
                "usageMetadata": {"promptTokenCount": spec.input_tokens, "candidatesTokenCount": spec.output_tokens,
                                  "totalTokenCount": spec.input_tokens + spec.output_tokens},
                "modelVersion": "gemini-2.5-flash"})
            .to_string()
        }
        Provider::OpenAiResponses => {
            let output = responses_items(spec);
            let (status, incomplete) = if spec.max_tokens {
                ("incomplete", json!({"reason": "max_output_tokens"}))
            } else {
                ("completed", Value::Null)
            };
            json!({"id": "resp_1", "object": "response", "status": status,
                "incomplete_details": incomplete, "output": output,
                "usage": {"input_tokens": spec.input_tokens, "output_tokens": spec.output_tokens,
                          "total_tokens": spec.input_tokens + spec.output_tokens}})
            .to_string()
        }
        Provider::Bedrock => {
            let content: Vec<Value> = spec
                .items
                .iter()
                .map(|item| match item {
                    Item::Text(text) => json!({"text": text}),
                    Item::Reasoning(text) => {
                        json!({"reasoningContent": {"reasoningText": {"text": text, "signature": "c2ln"}}})
                    }
                    Item::Call { id, name, args } => {
                        json!({"toolUse": {"toolUseId": id, "name": name, "input": raw(args)}})
                    }
                })
                .collect();
            let stop = match (spec.max_tokens, spec.calls()) {
                (true, _) => "max_tokens",
                (false, true) => "tool_use",
                (false, false) => "end_turn",
            };
            json!({"output": {"message": {"role": "assistant", "content": content}}, "stopReason": stop,
                "usage": {"inputTokens": spec.input_tokens, "outputTokens": spec.output_tokens,
                          "totalTokens": spec.input_tokens + spec.output_tokens},
                "metrics": {"latencyMs": 100}})
            .to_string()
        }
        other => panic!("no body for {other:?}"),
    }
}

/// The output items of a Responses reply.
fn responses_items(spec: &Spec) -> Vec<Value> {
    spec.items
        .iter()
        .enumerate()
        .map(|(index, item)| match item {
            Item::Text(text) => json!({"type": "message", "id": format!("msg_{index}"), "status": "completed",
                "role": "assistant", "content": [{"type": "output_text", "text": text, "annotations": []}]}),
            Item::Reasoning(text) => json!({"type": "reasoning", "id": format!("rs_{index}"),
                "summary": [{"type": "summary_text", "text": text}], "encrypted_content": "ZW5j"}),
            Item::Call { id, name, args } => json!({"type": "function_call", "id": format!("fc_{index}"),
                "call_id": id, "name": name, "arguments": args, "status": "completed"}),
        })
        .collect()
}

/// The streamed form of the same reply: texts and inputs split in pieces of `size`
/// characters, as each provider streams them.
pub fn stream(provider: Provider, spec: &Spec, size: usize) -> Vec<u8> {
    let raw = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
    match provider {
        Provider::OpenAi | Provider::Compatible(_) => {
            let chunk = |delta: Value, finish: Value| {
                (None, json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1",
                    "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]})
                .to_string())
            };
            let mut events = vec![chunk(
                json!({"role": "assistant", "content": ""}),
                Value::Null,
            )];
            for item in &spec.items {
                if let Item::Reasoning(text) = item {
                    for piece in pieces(text, size) {
                        events.push(chunk(json!({"reasoning_content": piece}), Value::Null));
                    }
                }
            }
            for item in &spec.items {
                if let Item::Text(text) = item {
                    for piece in pieces(text, size) {
                        events.push(chunk(json!({"content": piece}), Value::Null));
                    }
                }
            }
            let mut call = 0;
            for item in &spec.items {
                if let Item::Call { id, name, args } = item {
                    events.push(chunk(
                        json!({"tool_calls": [{"index": call, "id": id, "type": "function",
                        "function": {"name": name, "arguments": ""}}]}),
                        Value::Null,
                    ));
                    for piece in pieces(args, size) {
                        events.push(chunk(json!({"tool_calls": [{"index": call, "function": {"arguments": piece}}]}), Value::Null));
                    }
                    call += 1;
                }
            }
            let finish = match (spec.max_tokens, spec.calls()) {
                (true, _) => "length",
                (false, true) => "tool_calls",
                (false, false) => "stop",
            };
            let usage = json!({"prompt_tokens": spec.input_tokens, "completion_tokens": spec.output_tokens,
                "total_tokens": spec.input_tokens + spec.output_tokens});
            match provider.dialect().map(|dialect| dialect.stream_end) {
                // A server's own last chunk carries the finish reason and the usage, and no
                // `[DONE]` follows it (Perplexity's `chat.completion.done`).
                Some(StreamEnd::Chunk(last)) => {
                    events.push((None, json!({"id": "chatcmpl-1", "object": last, "created": 1, "model": "gpt-4.1",
                        "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage}).to_string()));
                }
                Some(StreamEnd::Done) | None => {
                    events.push(chunk(json!({}), Value::from(finish)));
                    events.push((
                        None,
                        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1,
                        "model": "gpt-4.1", "choices": [], "usage": usage})
                        .to_string(),
                    ));
                    events.push((None, "[DONE]".to_owned()));
                }
            }
            sse(&events, "\n")
        }
        Provider::Anthropic => {
            let event = |name: &'static str, data: Value| (Some(name), data.to_string());
            let mut events = vec![event(
                "message_start",
                json!({"type": "message_start", "message": {
                "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": spec.input_tokens, "output_tokens": 1}}}),
            )];
            events.push(event("ping", json!({"type": "ping"})));
            for (index, item) in spec.items.iter().enumerate() {
                let (start, deltas): (Value, Vec<Value>) = match item {
                    Item::Text(text) => (
                        json!({"type": "text", "text": ""}),
                        pieces(text, size)
                            .into_iter()
                            .map(|piece| json!({"type": "text_delta", "text": piece}))
                            .collect(),
                    ),
                    Item::Reasoning(text) => {
                        let mut deltas: Vec<Value> = pieces(text, size)
                            .into_iter()
                            .map(|piece| json!({"type": "thinking_delta", "thinking": piece}))
                            .collect();
                        deltas
                            .push(json!({"type": "signature_delta", "signature": "c2lnbmF0dXJl"}));
                        (json!({"type": "thinking", "thinking": ""}), deltas)
                    }
                    Item::Call { id, name, args } => {
                        // A tool without arguments streams one empty piece.
                        let text = if raw(args) == json!({}) {
                            String::new()
                        } else {
                            args.clone()
                        };
                        (
                            json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                            pieces(&text, size).into_iter().map(|piece| json!({"type": "input_json_delta", "partial_json": piece})).collect(),
                        )
                    }
                };
                events.push(event(
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index, "content_block": start}),
                ));
                for delta in deltas {
                    events.push(event(
                        "content_block_delta",
                        json!({"type": "content_block_delta", "index": index, "delta": delta}),
                    ));
                }
                events.push(event(
                    "content_block_stop",
                    json!({"type": "content_block_stop", "index": index}),
                ));
            }
            let stop = match (spec.max_tokens, spec.calls()) {
                (true, _) => "max_tokens",
                (false, true) => "tool_use",
                (false, false) => "end_turn",
            };
            events.push(event(
                "message_delta",
                json!({"type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": spec.output_tokens}}),
            ));
            events.push(event("message_stop", json!({"type": "message_stop"})));
            sse(&events, "\n")
        }
        Provider::Gemini => {
            let chunk = |parts: Vec<Value>, finish: Option<&str>, usage: bool| {
                let mut candidate =
                    json!({"content": {"role": "model", "parts": parts}, "index": 0});
                if let Some(finish) = finish {
                    candidate["finishReason"] = Value::from(finish);
                }
                let mut chunk =
                    json!({"candidates": [candidate], "modelVersion": "gemini-2.5-flash"});
                if usage {
                    chunk["usageMetadata"] = json!({"promptTokenCount": spec.input_tokens,
                        "candidatesTokenCount": spec.output_tokens,
                        "totalTokenCount": spec.input_tokens + spec.output_tokens});
                }
                (None, chunk.to_string())
            };
            let mut events = Vec::new();
            for item in &spec.items {
                match item {
                    Item::Text(text) => {
                        for piece in pieces(text, size) {
                            events.push(chunk(vec![json!({"text": piece})], None, false));
                        }
                    }
                    Item::Reasoning(text) => {
                        for piece in pieces(text, size) {
                            events.push(chunk(
                                vec![json!({"text": piece, "thought": true})],
                                None,
                                false,
                            ));
                        }
                    }
                    Item::Call { name, args, .. } => {
                        events.push(chunk(
                            vec![json!({"functionCall": {"name": name, "args": raw(args)}})],
                            None,
                            false,
                        ));
                    }
                }
            }
            let finish = if spec.max_tokens {
                "MAX_TOKENS"
            } else {
                "STOP"
            };
            events.push(chunk(vec![json!({"text": ""})], Some(finish), true));
            sse(&events, "\r\n")
        }
        Provider::OpenAiResponses => {
            let event = |name: &'static str, mut data: Value| {
                data["type"] = Value::from(name);
                (Some(name), data.to_string())
            };
            let mut events = vec![event(
                "response.created",
                json!({"response": {"id": "resp_1", "object": "response",
                "status": "in_progress", "output": []}}),
            )];
            let items = responses_items(spec);
            for (index, (item, done)) in spec.items.iter().zip(&items).enumerate() {
                let mut added = done.clone();
                match item {
                    Item::Text(text) => {
                        added["content"] = json!([]);
                        added["status"] = Value::from("in_progress");
                        events.push(event(
                            "response.output_item.added",
                            json!({"output_index": index, "item": added}),
                        ));
                        events.push(event("response.content_part.added", json!({"output_index": index, "content_index": 0,
                            "item_id": format!("msg_{index}"), "part": {"type": "output_text", "text": "", "annotations": []}})));
                        for piece in pieces(text, size) {
                            events.push(event(
                                "response.output_text.delta",
                                json!({"output_index": index, "content_index": 0,
                                "item_id": format!("msg_{index}"), "delta": piece}),
                            ));
                        }
                        events.push(event(
                            "response.output_text.done",
                            json!({"output_index": index, "content_index": 0,
                            "item_id": format!("msg_{index}"), "text": text}),
                        ));
                    }
                    Item::Reasoning(text) => {
                        added["summary"] = json!([]);
                        events.push(event(
                            "response.output_item.added",
                            json!({"output_index": index, "item": added}),
                        ));
                        for piece in pieces(text, size) {
                            events.push(event("response.reasoning_summary_text.delta", json!({"output_index": index,
                                "summary_index": 0, "item_id": format!("rs_{index}"), "delta": piece})));
                        }
                    }
                    Item::Call { args, .. } => {
                        added["arguments"] = Value::from("");
                        added["status"] = Value::from("in_progress");
                        events.push(event(
                            "response.output_item.added",
                            json!({"output_index": index, "item": added}),
                        ));
                        for piece in pieces(args, size) {
                            events.push(event(
                                "response.function_call_arguments.delta",
                                json!({"output_index": index,
                                "item_id": format!("fc_{index}"), "delta": piece}),
                            ));
                        }
                        events.push(event(
                            "response.function_call_arguments.done",
                            json!({"output_index": index,
                            "item_id": format!("fc_{index}"), "arguments": args}),
                        ));
                    }
                }
                events.push(event(
                    "response.output_item.done",
                    json!({"output_index": index, "item": done}),
                ));
            }
            let whole: Value =
                serde_json::from_str(&body(Provider::OpenAiResponses, spec)).unwrap();
            let terminal = if spec.max_tokens {
                "response.incomplete"
            } else {
                "response.completed"
            };
            events.push(event(terminal, json!({"response": whole})));
            sse(&events, "\n")
        }
        Provider::Bedrock => {
            let mut frames = event("messageStart", &json!({"role": "assistant"}));
            for (index, item) in spec.items.iter().enumerate() {
                match item {
                    Item::Text(text) => {
                        for piece in pieces(text, size) {
                            frames.extend(event(
                                "contentBlockDelta",
                                &json!({"contentBlockIndex": index,
                                "delta": {"text": piece}, "p": "abcdefgh"}),
                            ));
                        }
                    }
                    Item::Reasoning(text) => {
                        for piece in pieces(text, size) {
                            frames.extend(event(
                                "contentBlockDelta",
                                &json!({"contentBlockIndex": index,
                                "delta": {"reasoningContent": {"text": piece}}}),
                            ));
                        }
                        frames.extend(event(
                            "contentBlockDelta",
                            &json!({"contentBlockIndex": index,
                            "delta": {"reasoningContent": {"signature": "c2ln"}}}),
                        ));
                    }
                    Item::Call { id, name, args } => {
                        frames.extend(event(
                            "contentBlockStart",
                            &json!({"contentBlockIndex": index,
                            "start": {"toolUse": {"toolUseId": id, "name": name}}}),
                        ));
                        // A tool without arguments streams no input delta at all.
                        if raw(args) != json!({}) {
                            for piece in pieces(args, size) {
                                frames.extend(event(
                                    "contentBlockDelta",
                                    &json!({"contentBlockIndex": index,
                                    "delta": {"toolUse": {"input": piece}}}),
                                ));
                            }
                        }
                    }
                }
                frames.extend(event(
                    "contentBlockStop",
                    &json!({"contentBlockIndex": index}),
                ));
            }
            let stop = match (spec.max_tokens, spec.calls()) {
                (true, _) => "max_tokens",
                (false, true) => "tool_use",
                (false, false) => "end_turn",
            };
            frames.extend(event("messageStop", &json!({"stopReason": stop})));
            frames.extend(event("metadata", &json!({"usage": {"inputTokens": spec.input_tokens,
                "outputTokens": spec.output_tokens, "totalTokens": spec.input_tokens + spec.output_tokens},
                "metrics": {"latencyMs": 100}})));
            frames
        }
        other => panic!("no stream for {other:?}"),
    }
}
