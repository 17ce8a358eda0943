//! Each provider's documented streams finish into the exact reply, and into what `read_reply`
//! reads from the equivalent whole body, in chunks of any size.

use serde_json::{json, Value};
use transcript_replay::{Provider, Reply};
use transcript_replay_conformance::streams;

/// The shapes of Anthropic's streaming guide
/// (<https://docs.anthropic.com/en/api/messages-streaming>): a basic text reply with a
/// `ping`, a tool call whose input streams in `partial_json` pieces, and extended thinking
/// with its `signature_delta`.
const ANTHROPIC_TEXT: &str = r#"event: message_start
data: {"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}

event: content_block_start
data: {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}}

event: content_block_stop
data: {"type": "content_block_stop", "index": 0}

event: message_delta
data: {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}

event: message_stop
data: {"type": "message_stop"}

"#;

const ANTHROPIC_TOOL: &str = r#"event: message_start
data: {"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-sonnet-4-5","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2},"content":[],"stop_reason":null}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Okay"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":", let's check the weather for San Francisco, CA:"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"location\":"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"San"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" Francisc"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"o,"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" CA\""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":", "}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"unit\": \"fah"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"renheit\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}

"#;

const ANTHROPIC_THINKING: &str = r#"event: message_start
data: {"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 40, "cache_read_input_tokens": 30, "output_tokens": 1}}}

event: content_block_start
data: {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me solve this step by step:\n\n1. First break down 27 * 453"}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "\n2. 453 = 400 + 50 + 3"}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."}}

event: content_block_stop
data: {"type": "content_block_stop", "index": 0}

event: content_block_start
data: {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}

event: content_block_delta
data: {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "27 * 453 = 12,231"}}

event: content_block_stop
data: {"type": "content_block_stop", "index": 1}

event: message_delta
data: {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 230}}

event: message_stop
data: {"type": "message_stop"}

"#;

/// The shapes of OpenAI's streaming and function-calling guides
/// (<https://platform.openai.com/docs/api-reference/chat-streaming>): content deltas ending in
/// `finish_reason`, then the usage chunk with `choices: []`, then `[DONE]`; tool calls by
/// `index`, two of them in parallel.
const OPENAI_TEXT: &str = r#"data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}

data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":null}

data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{"content":" there!"},"logprobs":null,"finish_reason":null}],"usage":null}

data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}

data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini","system_fingerprint":"fp_44709d6fcb","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":0}}}

data: [DONE]

"#;

const OPENAI_TOOLS: &str = r#"data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}

data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"location\":"}}]},"finish_reason":null}]}

data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris, France\"}"}}]},"finish_reason":null}]}

data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_tGNJtUEAWyFCIl1Bex23Mi7r","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}

data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"location\":\"Bogot\u00e1, Colombia\"}"}}]},"finish_reason":null}]}

data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

"#;

/// The shape of OpenAI's Responses streaming guide
/// (<https://developers.openai.com/docs/guides/streaming-responses>): items added, their deltas,
/// items done, `response.completed` with the whole response.
const RESPONSES_TOOL: &str = r#"event: response.created
data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"in_progress","output":[],"usage":null}}

event: response.output_item.added
data: {"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}

event: response.reasoning_summary_part.added
data: {"type":"response.reasoning_summary_part.added","sequence_number":2,"item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}

event: response.reasoning_summary_text.delta
data: {"type":"response.reasoning_summary_text.delta","sequence_number":3,"item_id":"rs_1","output_index":0,"summary_index":0,"delta":"**Checking the weather**"}

event: response.output_item.done
data: {"type":"response.output_item.done","sequence_number":4,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Checking the weather**"}],"encrypted_content":"gAAAAABo..."}}

event: response.output_item.added
data: {"type":"response.output_item.added","sequence_number":5,"output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"","status":"in_progress"}}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","sequence_number":6,"item_id":"fc_1","output_index":1,"delta":"{\"location\":"}

event: response.function_call_arguments.delta
data: {"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_1","output_index":1,"delta":"\"Paris, France\"}"}

event: response.function_call_arguments.done
data: {"type":"response.function_call_arguments.done","sequence_number":8,"item_id":"fc_1","output_index":1,"arguments":"{\"location\":\"Paris, France\"}"}

event: response.output_item.done
data: {"type":"response.output_item.done","sequence_number":9,"output_index":1,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"location\":\"Paris, France\"}","status":"completed"}}

event: response.completed
data: {"type":"response.completed","sequence_number":10,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"completed","output":[{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Checking the weather**"}],"encrypted_content":"gAAAAABo..."},{"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"location\":\"Paris, France\"}","status":"completed"}],"usage":{"input_tokens":64,"input_tokens_details":{"cached_tokens":0},"output_tokens":30,"output_tokens_details":{"reasoning_tokens":12},"total_tokens":94}}}

"#;

/// The shape of Gemini's `streamGenerateContent?alt=sse`
/// (<https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent>): whole
/// responses whose parts are increments, CRLF line ends, cumulative usage.
const GEMINI_TEXT: &str = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"The\"}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 8,\"candidatesTokenCount\": 1,\"totalTokenCount\": 9},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\ndata: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" quick brown fox\"}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 8,\"candidatesTokenCount\": 5,\"totalTokenCount\": 13},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\ndata: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" jumps.\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 8,\"candidatesTokenCount\": 7,\"thoughtsTokenCount\": 20,\"totalTokenCount\": 35},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n";

const GEMINI_CALL: &str = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"I will look.\", \"thought\": true}],\"role\": \"model\"},\"index\": 0}]}\r\n\r\ndata: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"get_weather\",\"args\": {\"location\": \"Paris\"}},\"thoughtSignature\": \"CiQB0e2Kb...\"}],\"role\": \"model\"},\"index\": 0}]}\r\n\r\ndata: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 30,\"candidatesTokenCount\": 10,\"totalTokenCount\": 40}}\r\n\r\n";

/// The events of Bedrock's `ConverseStream`
/// (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html>):
/// text deltas without a start event, a tool use with its start and input pieces, the stop,
/// then the metadata with the usage.
fn bedrock_tool() -> Vec<u8> {
    let mut bytes = Vec::new();
    for (event, payload) in [
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "Let me check"}, "p": "abcdefghijklmnop"}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": " the weather."}, "p": "abcd"}),
        ),
        (
            "contentBlockStop",
            json!({"contentBlockIndex": 0, "p": "abcdefg"}),
        ),
        (
            "contentBlockStart",
            json!({"contentBlockIndex": 1, "start": {"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "get_weather"}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolUse": {"input": "{\"location\": "}}}),
        ),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"toolUse": {"input": "\"Paris\"}"}}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 1})),
        ("messageStop", json!({"stopReason": "tool_use"})),
        (
            "metadata",
            json!({"usage": {"inputTokens": 363, "outputTokens": 58, "totalTokens": 421}, "metrics": {"latencyMs": 1404}}),
        ),
    ] {
        bytes.extend(streams::event(event, &payload));
    }
    bytes
}

/// Feeds a stream in chunks of `size` bytes.
fn read(provider: Provider, bytes: &[u8], size: usize) -> Reply {
    let mut reader = provider.stream();
    for chunk in bytes.chunks(size) {
        reader.feed(chunk).unwrap();
    }
    reader.finish().unwrap()
}

#[test]
fn documented_streams_finish_into_the_reply_their_whole_body_gives() {
    // (provider, the stream, the equivalent whole body, the outcome the stream gives)
    let cases: Vec<(Provider, Vec<u8>, Value, Value)> = vec![
        (
            Provider::Anthropic,
            ANTHROPIC_TEXT.as_bytes().to_vec(),
            json!({"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": "Hello!"}], "model": "claude-sonnet-4-5",
                "stop_reason": "end_turn", "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 15}}),
            json!({"stop": "end_turn", "message": {"role": "assistant", "blocks": [{"type": "text", "text": "Hello!"}],
                "usage": {"input_tokens": 25, "output_tokens": 15}}}),
        ),
        (
            Provider::Anthropic,
            ANTHROPIC_TOOL.as_bytes().to_vec(),
            serde_json::from_str(r#"{"id": "msg_014p7gG3wDgGV9EUtLvnow3U", "type": "message", "role": "assistant", "content": [
                {"type": "text", "text": "Okay, let's check the weather for San Francisco, CA:"},
                {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "get_weather", "input": {"location": "San Francisco, CA", "unit": "fahrenheit"}}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 472, "output_tokens": 89}}"#).unwrap(),
            json!({"stop": "tool_use", "message": {"role": "assistant", "blocks": [
                {"type": "text", "text": "Okay, let's check the weather for San Francisco, CA:"},
                {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "get_weather",
                 "input": {"location": "San Francisco, CA", "unit": "fahrenheit"}}],
                "usage": {"input_tokens": 472, "output_tokens": 89}}}),
        ),
        (
            Provider::Anthropic,
            ANTHROPIC_THINKING.as_bytes().to_vec(),
            json!({"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds..."},
                {"type": "text", "text": "27 * 453 = 12,231"}],
                "stop_reason": "end_turn", "usage": {"input_tokens": 40, "cache_read_input_tokens": 30, "output_tokens": 230}}),
            json!({"stop": "end_turn", "message": {"role": "assistant", "blocks": [
                {"type": "reasoning", "reasoning": "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3"},
                {"type": "text", "text": "27 * 453 = 12,231"}],
                "usage": {"input_tokens": 40, "output_tokens": 230, "cache_read_input_tokens": 30}}}),
        ),
        (
            Provider::OpenAi,
            OPENAI_TEXT.as_bytes().to_vec(),
            json!({"id": "chatcmpl-123", "object": "chat.completion", "choices": [{"index": 0,
                "message": {"role": "assistant", "content": "Hello there!", "refusal": null}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12, "prompt_tokens_details": {"cached_tokens": 0}}}),
            json!({"stop": "end_turn", "message": {"role": "assistant", "blocks": [{"type": "text", "text": "Hello there!"}],
                "usage": {"input_tokens": 9, "output_tokens": 3}}}),
        ),
        (
            Provider::OpenAi,
            OPENAI_TOOLS.as_bytes().to_vec(),
            json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_DdmO9pD3xa9XTPNJ32zg2hcA", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}},
                {"id": "call_tGNJtUEAWyFCIl1Bex23Mi7r", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Bogot\u{e1}, Colombia\"}"}}]}}]}),
            json!({"stop": "tool_use", "message": {"role": "assistant", "blocks": [
                {"type": "tool_use", "id": "call_DdmO9pD3xa9XTPNJ32zg2hcA", "name": "get_weather", "input": "{\"location\":\"Paris, France\"}"},
                {"type": "tool_use", "id": "call_tGNJtUEAWyFCIl1Bex23Mi7r", "name": "get_weather", "input": "{\"location\":\"Bogot\u{e1}, Colombia\"}"}]}}),
        ),
        (
            Provider::OpenAiResponses,
            RESPONSES_TOOL.as_bytes().to_vec(),
            serde_json::from_str(RESPONSES_TOOL.lines().filter(|line| line.contains("response.completed\",")).map(|line| {
                let data: Value = serde_json::from_str(line.trim_start_matches("data: ")).unwrap();
                data["response"].to_string()
            }).next().unwrap().as_str()).unwrap(),
            json!({"stop": "tool_use", "message": {"role": "assistant", "blocks": [
                {"type": "reasoning", "reasoning": "**Checking the weather**"},
                {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": "{\"location\":\"Paris, France\"}"}],
                "usage": {"input_tokens": 64, "output_tokens": 30}}}),
        ),
        (
            Provider::Gemini,
            GEMINI_TEXT.as_bytes().to_vec(),
            json!({"candidates": [{"content": {"parts": [{"text": "The quick brown fox jumps."}], "role": "model"}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 7, "thoughtsTokenCount": 20, "totalTokenCount": 35}}),
            json!({"stop": "end_turn", "message": {"role": "assistant", "blocks": [{"type": "text", "text": "The quick brown fox jumps."}],
                "usage": {"input_tokens": 8, "output_tokens": 27}}}),
        ),
        (
            Provider::Gemini,
            GEMINI_CALL.as_bytes().to_vec(),
            json!({"candidates": [{"content": {"parts": [{"text": "I will look.", "thought": true},
                {"functionCall": {"name": "get_weather", "args": {"location": "Paris"}}, "thoughtSignature": "CiQB0e2Kb..."}], "role": "model"},
                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 30, "candidatesTokenCount": 10, "totalTokenCount": 40}}),
            json!({"stop": "tool_use", "message": {"role": "assistant", "blocks": [
                {"type": "reasoning", "reasoning": "I will look."},
                {"type": "tool_use", "id": "made_0_0", "name": "get_weather", "input": {"location": "Paris"}}],
                "usage": {"input_tokens": 30, "output_tokens": 10}}}),
        ),
        (
            Provider::Bedrock,
            bedrock_tool(),
            json!({"output": {"message": {"role": "assistant", "content": [{"text": "Let me check the weather."},
                {"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "get_weather", "input": {"location": "Paris"}}}]}},
                "stopReason": "tool_use", "usage": {"inputTokens": 363, "outputTokens": 58, "totalTokens": 421}, "metrics": {"latencyMs": 1404}}),
            json!({"stop": "tool_use", "message": {"role": "assistant", "blocks": [
                {"type": "text", "text": "Let me check the weather."},
                {"type": "tool_use", "id": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "get_weather", "input": {"location": "Paris"}}],
                "usage": {"input_tokens": 363, "output_tokens": 58}}}),
        ),
    ];
    for (provider, stream, body, outcome) in cases {
        let whole = provider.read_reply(&body.to_string()).unwrap();
        for size in [1, 2, 3, 5, 7, 13, 64, 4096] {
            let reply = read(provider, &stream, size);
            assert_eq!(
                serde_json::to_value(&reply).unwrap(),
                outcome,
                "{provider:?} in chunks of {size}"
            );
            // Compared as values: the body's tool inputs are written by serde_json here.
            assert_eq!(
                serde_json::to_value(&reply).unwrap(),
                serde_json::to_value(&whole).unwrap(),
                "{provider:?}: the stream and the whole body, in chunks of {size}"
            );
        }
    }
}

#[test]
fn every_generated_reply_streams_into_what_read_reply_reads() {
    // The reply of every item kind, for every provider, split small.
    let spec = streams::Spec {
        items: vec![
            streams::Item::Reasoning("Need the file.".into()),
            streams::Item::Text("Reading ✓ it.".into()),
            streams::Item::Call {
                id: "call_a".into(),
                name: "read".into(),
                args: r#"{"path":"a.rs"}"#.into(),
            },
            streams::Item::Call {
                id: "call_b".into(),
                name: "ls".into(),
                args: "{}".into(),
            },
        ],
        max_tokens: false,
        input_tokens: 120,
        output_tokens: 40,
    };
    for provider in Provider::ALL {
        let whole = provider
            .read_reply(&streams::body(provider, &spec))
            .unwrap();
        assert_eq!(whole.message.blocks.len(), 4, "{provider:?}");
        assert_eq!(
            read(provider, &streams::stream(provider, &spec, 2), 3),
            whole,
            "{provider:?}"
        );
    }
}

/// Bedrock's guardrail trace comes in the stream's `metadata` event, as the whole reply's
/// `trace.guardrail` (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamMetadataEvent.html>):
/// the streamed reply's metadata is the whole reply's, in chunks of any size.
#[test]
fn bedrock_s_stream_gives_the_whole_reply_s_guardrail_trace() {
    let trace = json!({"guardrail": {"actionReason": "Guardrail blocked.",
        "inputAssessment": {"g1": {"contentPolicy": {"filters": [{"type": "VIOLENCE", "action": "BLOCKED"}]}}}}});
    let bytes: Vec<u8> = [
        ("messageStart", json!({"role": "assistant"})),
        (
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"text": "Sorry."}}),
        ),
        ("contentBlockStop", json!({"contentBlockIndex": 0})),
        ("messageStop", json!({"stopReason": "guardrail_intervened"})),
        (
            "metadata",
            json!({"usage": {"inputTokens": 9, "outputTokens": 2, "totalTokens": 11},
            "metrics": {"latencyMs": 120}, "trace": trace}),
        ),
    ]
    .iter()
    .flat_map(|(event, payload)| streams::event(event, payload))
    .collect();
    let whole = Provider::Bedrock
        .read_reply(
            &json!({"output": {"message": {"role": "assistant", "content": [{"text": "Sorry."}]}},
                "stopReason": "guardrail_intervened", "trace": trace})
            .to_string(),
        )
        .unwrap();
    assert!(!whole.metadata().is_empty());
    for size in [1, 7, bytes.len()] {
        let mut reader = Provider::Bedrock.stream();
        for chunk in bytes.chunks(size) {
            reader.feed(chunk).unwrap();
        }
        let streamed = reader.finish().unwrap();
        assert_eq!(streamed.metadata(), whole.metadata(), "chunks of {size}");
        assert_eq!(
            streamed.message.blocks, whole.message.blocks,
            "chunks of {size}"
        );
    }
}

/// Chat streams of the rarer shapes, each beside the whole body its deltas add up to: the
/// reply (its blocks, stop and what it did not keep) is the one `read_reply` reads of that
/// body, and the round sends back only what a request's message takes.
#[test]
fn rare_chat_streams_finish_into_the_reply_their_whole_body_gives() {
    let cases: [(&str, &[Value], &str, &[&str]); 4] = [
        (
            "a content chunk of a kind the crate does not read",
            &[
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": [{"type": "text", "text": "Here"}]}}]}),
                json!({"choices": [{"index": 0, "delta": {"content": [{"type": "reference", "ids": [1]}]}, "finish_reason": "stop"}]}),
            ],
            r#"{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                "content": [{"type": "text", "text": "Here"}, {"type": "reference", "ids": [1]}]}}]}"#,
            &[r#"{"content":[{"type":"text","text":"Here"}],"role":"assistant"}"#],
        ),
        (
            "a deprecated function_call whose arguments come before any name",
            &[
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Ok.", "function_call": {"arguments": "{}"}}}]}),
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "function_call"}]}),
            ],
            r#"{"choices": [{"index": 0, "finish_reason": "function_call", "message": {"role": "assistant",
                "content": "Ok.", "function_call": {"arguments": "{}"}}}]}"#,
            &[r#"{"content":"Ok.","role":"assistant"}"#],
        ),
        (
            "a call that gets an id and nothing else",
            &[
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Done.", "tool_calls": [{"index": 0, "id": "call_1"}]}}]}),
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
            ],
            r#"{"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant",
                "content": "Done.", "tool_calls": [{"id": "call_1", "function": {"name": "", "arguments": ""}}]}}]}"#,
            &[r#"{"content":"Done.","role":"assistant"}"#],
        ),
        (
            "generated audio after a tool call",
            &[
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]}}]}),
                json!({"choices": [{"index": 0, "delta": {"audio": {"id": "audio_1", "transcript": "Hi", "data": "UklGRiQAAABXQVZF"}}, "finish_reason": "tool_calls"}]}),
            ],
            r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}],
                "audio": {"id": "audio_1", "transcript": "Hi", "data": "UklGRiQAAABXQVZF"}}}]}"#,
            &[
                r#"{"role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":"read"},"id":"call_1","type":"function"}],"audio":{"id":"audio_1"}}"#,
            ],
        ),
    ];
    // The deltas' keys come sorted (`json!`), and the round keeps each where it came.
    for (shape, events, body, native) in cases {
        let mut bytes: String = (events.iter())
            .map(|event| format!("data: {event}\n\n"))
            .collect();
        bytes.push_str("data: [DONE]\n\n");
        let whole = Provider::OpenAi.read_reply(body).unwrap();
        for size in [1, 9, 4096] {
            let reply = read(Provider::OpenAi, bytes.as_bytes(), size);
            assert_eq!(
                reply.message, whole.message,
                "{shape}, in {size}-byte chunks"
            );
            assert_eq!(reply.stop, whole.stop, "{shape}");
            assert_eq!(reply.not_kept(), whole.not_kept(), "{shape}");
            assert_eq!(reply.native().collect::<Vec<_>>(), native, "{shape}");
        }
    }
}
