//! Every provider's word for why a reply stopped becomes one normalized reason: tool use
//! whenever the reply calls a tool and the word is the ordinary end, refusal whenever the
//! content is a refusal, content filter for the filters' words, and any other word kept.

use transcript_replay::{Provider, StopReason};

#[test]
fn each_providers_stop_word_becomes_its_reason() {
    use StopReason::*;
    let other = |word: &str| Other(word.to_owned());
    // (provider, the reply, the reason)
    let cases: Vec<(Provider, &str, StopReason)> = vec![
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"content": "Hi"}, "finish_reason": "stop"}]}"#,
            EndTurn,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"content": null}, "finish_reason": "length"}]}"#,
            MaxTokens,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}"#,
            ToolUse,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "stop"}]}"#,
            ToolUse,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"content": null}, "finish_reason": "content_filter"}]}"#,
            ContentFilter,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]}"#,
            Refusal,
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"content": "Hi"}, "finish_reason": "eos"}]}"#,
            other("eos"),
        ),
        (
            Provider::OpenAi,
            r#"{"choices": [{"message": {"content": "Hi"}}]}"#,
            other(""),
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "text", "text": "Hi"}], "stop_reason": "end_turn"}"#,
            EndTurn,
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "text", "text": "Hi"}], "stop_reason": "max_tokens"}"#,
            MaxTokens,
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "text", "text": "Hi"}], "stop_reason": "stop_sequence"}"#,
            StopSequence,
        ),
        (
            Provider::Anthropic,
            r#"{"content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}], "stop_reason": "tool_use"}"#,
            ToolUse,
        ),
        (
            Provider::Anthropic,
            r#"{"content": [], "stop_reason": "pause_turn"}"#,
            Paused,
        ),
        (
            Provider::Anthropic,
            r#"{"content": [], "stop_reason": "refusal"}"#,
            Refusal,
        ),
        (
            Provider::Anthropic,
            r#"{"content": [], "stop_reason": "model_context_window_exceeded"}"#,
            ContextWindowExceeded,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}"#,
            EndTurn,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}, "finishReason": "STOP"}]}"#,
            ToolUse,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "MAX_TOKENS"}]}"#,
            MaxTokens,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": "SAFETY"}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": "RECITATION"}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": "PROHIBITED_CONTENT"}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": "BLOCKLIST"}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": "SPII"}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]}"#,
            other("MALFORMED_FUNCTION_CALL"),
        ),
        // Gemini's enums as numbers (`$alt=json;enum-encoding=int`), by the numbering of the
        // Gemini API's proto (`Candidate.FinishReason`, in googleapis/googleapis
        // `google/ai/generativelanguage/v1beta/generative_service.proto`): not the order the
        // OpenAPI export lists the names in (`LANGUAGE` is 6, `OTHER` 5), nor Vertex AI's.
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": 1}]}"#,
            EndTurn,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {}}}]}, "finishReason": 1}]}"#,
            ToolUse,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": 2}]}"#,
            MaxTokens,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 3}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 4}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 5}]}"#,
            other("OTHER"),
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 6}]}"#,
            other("LANGUAGE"),
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 7}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 8}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 9}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 10}]}"#,
            other("MALFORMED_FUNCTION_CALL"),
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 11}]}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 13}]}"#,
            other("TOO_MANY_TOOL_CALLS"),
        ),
        (
            // A number newer than the crate's table is kept as its digits.
            Provider::Gemini,
            r#"{"candidates": [{"finishReason": 40}]}"#,
            other("40"),
        ),
        // A blocked prompt (no candidate, `promptFeedback.blockReason`, by name or number) is
        // stopped by the content filter: never a refusal.
        (
            Provider::Gemini,
            r#"{"promptFeedback": {"blockReason": "SAFETY"}}"#,
            ContentFilter,
        ),
        (
            Provider::Gemini,
            r#"{"promptFeedback": {"blockReason": 4}}"#,
            ContentFilter,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status": "completed", "output": [{"type": "message", "content": [{"type": "output_text", "text": "Hi"}]}]}"#,
            EndTurn,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status": "completed", "output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}"#,
            ToolUse,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status": "completed", "output": [{"type": "message", "content": [{"type": "refusal", "refusal": "No."}]}]}"#,
            Refusal,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []}"#,
            MaxTokens,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status": "incomplete", "incomplete_details": {"reason": "content_filter"}, "output": []}"#,
            ContentFilter,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": [{"text": "Hi"}]}}, "stopReason": "end_turn"}"#,
            EndTurn,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": [{"toolUse": {"toolUseId": "t", "name": "f", "input": {}}}]}}, "stopReason": "tool_use"}"#,
            ToolUse,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": []}}, "stopReason": "guardrail_intervened"}"#,
            ContentFilter,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": []}}, "stopReason": "content_filtered"}"#,
            ContentFilter,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": []}}, "stopReason": "model_context_window_exceeded"}"#,
            ContextWindowExceeded,
        ),
        (
            Provider::Bedrock,
            r#"{"output": {"message": {"content": []}}, "stopReason": "malformed_tool_use"}"#,
            other("malformed_tool_use"),
        ),
    ];
    let mut failures = Vec::new();
    for (index, (provider, reply, reason)) in cases.iter().enumerate() {
        match provider.read_reply(reply) {
            Ok(read) if read.stop == *reason => {}
            Ok(read) => failures.push(format!(
                "case {index} ({provider:?}): {:?}, want {reason:?}",
                read.stop
            )),
            Err(error) => failures.push(format!("case {index} ({provider:?}): {error}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_reasons_are_spelled_as_the_example_program_prints_them() {
    let spelled: Vec<&str> = [
        StopReason::EndTurn,
        StopReason::ToolUse,
        StopReason::MaxTokens,
        StopReason::StopSequence,
        StopReason::Refusal,
        StopReason::Paused,
        StopReason::ContextWindowExceeded,
        StopReason::ContentFilter,
    ]
    .iter()
    .map(StopReason::as_str)
    .collect();
    assert_eq!(
        spelled,
        [
            "end_turn",
            "tool_use",
            "max_tokens",
            "stop_sequence",
            "refusal",
            "paused",
            "context_window_exceeded",
            "content_filter"
        ]
    );
}

#[test]
fn a_failed_responses_response_is_no_turn() {
    let error = Provider::OpenAiResponses
        .read_reply(r#"{"status": "failed", "error": {"code": "server_error", "message": "The model failed."}, "output": []}"#)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "OpenAI reply, the body (line 1, column 1): the response failed (server_error): The model failed."
    );
}
