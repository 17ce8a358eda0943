//! A stream that fails is never a finished turn: error events, exception frames, CRC
//! mismatches, frames cut short, data that is no JSON and bytes that end before the terminal
//! event are each a `StreamError` that says what and where, carries the provider's error when
//! there is one, and offers the partial message for display only.

use serde_json::json;
use transcript_replay::{
    errors::ProviderErrorKind, errors::StreamErrorKind, Block, Dialect, Provider, StreamError,
};
use transcript_replay_conformance::streams::{self, named};

/// Feeds the bytes in chunks of `size`, and returns the first failure.
fn fail(provider: Provider, bytes: &[u8], size: usize) -> StreamError {
    let mut reader = provider.stream();
    for chunk in bytes.chunks(size.max(1)) {
        if let Err(error) = reader.feed(chunk) {
            // Every later call says the same.
            assert_eq!(reader.feed(b"more").unwrap_err(), error);
            assert_eq!(reader.end().unwrap_err(), error);
            return error;
        }
    }
    reader.finish().unwrap_err()
}

#[test]
fn an_anthropic_error_event_after_http_200_is_a_failure_with_the_partial_message() {
    let bytes = named(&[
        json!({"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 3}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Half"}}),
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ]);
    for size in [1, 5, 4096] {
        let error = fail(Provider::Anthropic, &bytes, size);
        assert_eq!(error.kind(), StreamErrorKind::ProviderError);
        let provider_error = error.provider_error().unwrap();
        assert_eq!(
            (provider_error.kind, provider_error.retryable),
            (ProviderErrorKind::Overloaded, true)
        );
        assert_eq!(provider_error.message, "Overloaded");
        assert_eq!(error.event(), Some(3));
        assert!(error.output_started());
        assert_eq!(error.partial().blocks, [Block::text("Half")]);
    }
}

#[test]
fn an_error_in_any_providers_stream_carries_the_providers_error() {
    // (provider, the stream, the kind, the message)
    let cases: Vec<(Provider, Vec<u8>, ProviderErrorKind, &str)> = vec![
        (
            Provider::OpenAi,
            b"data: {\"error\": {\"message\": \"The server had an error while processing your request.\", \"type\": \"server_error\", \"code\": null}}\n\n".to_vec(),
            ProviderErrorKind::Server,
            "The server had an error while processing your request.",
        ),
        (
            Provider::OpenAiResponses,
            named(&[json!({"type": "error", "code": "context_length_exceeded",
                "message": "Your input exceeds the context window of this model. Please adjust your input and try again.", "param": "input"})]),
            ProviderErrorKind::ContextWindowExceeded,
            "Your input exceeds the context window of this model. Please adjust your input and try again.",
        ),
        (
            Provider::OpenAiResponses,
            named(&[json!({"type": "response.failed", "response": {"status": "failed",
                "error": {"code": "server_error", "message": "The model failed."}, "output": []}})]),
            ProviderErrorKind::Server,
            "The model failed.",
        ),
        (
            Provider::Gemini,
            b"data: {\"error\": {\"code\": 503, \"message\": \"The model is overloaded. Please try again later.\", \"status\": \"UNAVAILABLE\"}}\r\n\r\n".to_vec(),
            ProviderErrorKind::Overloaded,
            "The model is overloaded. Please try again later.",
        ),
        (
            // Outside `data:`, as a pretty-printed object.
            Provider::Gemini,
            b"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\"}]}}]}\r\n\r\n{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The model is overloaded.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n".to_vec(),
            ProviderErrorKind::Overloaded,
            "The model is overloaded.",
        ),
        (
            Provider::Bedrock,
            [
                streams::event("contentBlockDelta", &json!({"contentBlockIndex": 0, "delta": {"text": "Hi"}})),
                streams::exception("throttlingException", "Too many tokens, please wait before trying again."),
            ]
            .concat(),
            ProviderErrorKind::RateLimited,
            "Too many tokens, please wait before trying again.",
        ),
        (
            Provider::Bedrock,
            streams::exception("modelStreamErrorException", "The model stream failed."),
            ProviderErrorKind::Server,
            "The model stream failed.",
        ),
    ];
    for (provider, bytes, kind, message) in cases {
        for size in [1, 3, 4096] {
            let error = fail(provider, &bytes, size);
            let provider_error = error
                .provider_error()
                .unwrap_or_else(|| panic!("{provider:?}: {error}"));
            assert_eq!(provider_error.kind, kind, "{provider:?}");
            assert_eq!(provider_error.message, message, "{provider:?}");
        }
    }
}

#[test]
fn a_stream_that_ends_before_its_terminal_event_is_cut() {
    let spec = streams::Spec {
        items: vec![streams::Item::Text("Half an answer".into())],
        max_tokens: false,
        input_tokens: 1,
        output_tokens: 1,
    };
    // Perplexity's stream ends with a chunk of its own, `chat.completion.done`, not `[DONE]`.
    let perplexity = Provider::Compatible(&Dialect::PERPLEXITY);
    for provider in Provider::ALL.into_iter().chain([perplexity]) {
        let whole = streams::stream(provider, &spec, 4);
        // Cut just before the terminal event: every byte but the last event's.
        let terminal = match provider {
            Provider::OpenAi => "data: [DONE]".as_bytes().to_vec(),
            Provider::Compatible(_) => b"chat.completion.done".to_vec(),
            Provider::Anthropic => b"event: message_stop".to_vec(),
            Provider::OpenAiResponses => b"event: response.completed".to_vec(),
            Provider::Gemini => b"\"finishReason\"".to_vec(),
            Provider::Bedrock => b"messageStop".to_vec(),
            other => panic!("{other:?}"),
        };
        let at = whole
            .windows(terminal.len())
            .position(|window| window == terminal.as_slice())
            .unwrap_or_else(|| panic!("{provider:?} has its terminal event"));
        // For Gemini and Perplexity, the terminal chunk begins at its `data:`; for Bedrock,
        // at its frame.
        let start = match provider {
            Provider::Gemini | Provider::Compatible(_) => whole[..at]
                .windows(6)
                .rposition(|window| window == b"data: ")
                .unwrap(),
            Provider::Bedrock => bedrock_frame_start(&whole, at),
            _ => at,
        };
        let error = fail(provider, &whole[..start], 5);
        assert_eq!(error.kind(), StreamErrorKind::Cut, "{provider:?}: {error}");
        assert_eq!(error.offset(), start, "{provider:?}");
        assert!(
            error
                .partial()
                .blocks
                .iter()
                .any(|block| matches!(block, Block::Text { .. })),
            "{provider:?}"
        );
    }
}

/// Where the event-stream frame that holds byte `at` starts.
fn bedrock_frame_start(bytes: &[u8], at: usize) -> usize {
    let mut start = 0;
    loop {
        let length = u32::from_be_bytes(bytes[start..start + 4].try_into().unwrap()) as usize;
        if start + length > at {
            return start;
        }
        start += length;
    }
}

#[test]
fn a_bedrock_frame_whose_crc_does_not_match_or_that_is_cut_short_is_a_failure() {
    let good = streams::event(
        "contentBlockDelta",
        &json!({"contentBlockIndex": 0, "delta": {"text": "Hi"}}),
    );
    // A flipped payload byte: the message CRC no longer matches.
    let mut flipped = good.clone();
    let last = flipped.len() - 8;
    flipped[last] ^= 0x20;
    let error = fail(Provider::Bedrock, &flipped, 7);
    assert_eq!(error.kind(), StreamErrorKind::Frame);
    assert!(
        error
            .to_string()
            .starts_with("Bedrock stream, byte 0: the frame's CRC is"),
        "{error}"
    );
    // A damaged length: the prelude CRC catches it before the length is trusted.
    let mut length = good.clone();
    length[2] ^= 0x01;
    let error = fail(Provider::Bedrock, &length, 100);
    assert!(error.to_string().contains("the prelude's CRC"), "{error}");
    // A frame cut short: the connection dropped, a cut a retry can mend.
    let mut cut = good.clone();
    cut.extend_from_slice(&good[..good.len() / 2]);
    let error = fail(Provider::Bedrock, &cut, 4096);
    assert_eq!(error.kind(), StreamErrorKind::Cut);
    assert!(error.is_retryable());
    assert!(
        error.to_string().contains("the stream ends inside a frame"),
        "{error}"
    );
    assert_eq!(error.offset(), good.len());
}

#[test]
fn data_that_is_no_json_or_no_utf8_is_a_failure_that_says_where() {
    let error = fail(Provider::OpenAi, b"data: {\"choices\": [}\n\n", 3);
    assert_eq!(error.kind(), StreamErrorKind::Json);
    assert_eq!(error.event(), Some(0));
    assert!(
        error
            .to_string()
            .starts_with("OpenAI stream, event 0 (byte 0): the event is not the JSON OpenAI sends"),
        "{error}"
    );
    let error = fail(
        Provider::Anthropic,
        b"event: ping\ndata: {\"type\": \"ping\"}\n\ndata: \xff\n\n",
        2,
    );
    assert_eq!(error.kind(), StreamErrorKind::Frame);
    assert_eq!(error.offset(), 42);
    assert_eq!(
        error.to_string(),
        "Anthropic stream, byte 42: the stream is not UTF-8"
    );
}
