//! Arbitrary bytes, in arbitrary chunks, through every provider's stream reader and error
//! reader: never a panic, every later call after a failure says the same failure, and a
//! finished reply only from a stream that reached its provider's terminal event.

#![no_main]

use libfuzzer_sys::fuzz_target;
use transcript_replay::{Dialect, Provider};

/// Bytes that a stream must hold somewhere to have reached its terminal event.
fn terminal(provider: Provider) -> &'static [u8] {
    match provider {
        Provider::OpenAi | Provider::Compatible(_) => b"[DONE]",
        Provider::Anthropic => b"message_stop",
        Provider::OpenAiResponses => b"response.",
        Provider::Gemini => b"finishReason",
        Provider::Bedrock => b"messageStop",
        _ => b"",
    }
}

fuzz_target!(|data: &[u8]| {
    // The first bytes choose the chunk sizes; the rest is the stream.
    let (sizes, bytes) = data.split_at(data.len().min(4));
    let sizes: Vec<usize> = sizes.iter().map(|&size| usize::from(size) + 1).collect();
    // The five, and the dialects whose readers differ: `<think>` tags (Together).
    let dialects = [Provider::Compatible(&Dialect::TOGETHER)];
    for provider in Provider::ALL.into_iter().chain(dialects) {
        let mut reader = provider.stream();
        let mut rest = bytes;
        let mut failed = None;
        let mut turn = 0;
        while !rest.is_empty() {
            let size = sizes
                .get(turn % sizes.len().max(1))
                .copied()
                .unwrap_or(rest.len());
            let (chunk, after) = rest.split_at(size.min(rest.len()));
            rest = after;
            turn += 1;
            match reader.feed(chunk) {
                Ok(_) => assert!(failed.is_none(), "a chunk read after a failure"),
                Err(error) => {
                    if let Some(earlier) = &failed {
                        assert_eq!(&error, earlier, "every later call says the same failure");
                    }
                    failed = Some(error);
                }
            }
        }
        match reader.finish() {
            Ok(reply) => {
                assert!(failed.is_none(), "a reply after a failure");
                let marker = terminal(provider);
                assert!(
                    bytes.windows(marker.len()).any(|window| window == marker),
                    "{provider:?}: a reply from a stream that never reached its terminal event"
                );
                // The stored message always writes as a record.
                serde_json::to_string(&reply.message).unwrap();
                serde_json::to_string(&reply).unwrap();
            }
            Err(error) => {
                let _ = error.to_string();
                serde_json::to_string(error.partial()).unwrap();
            }
        }
        let status = u16::from(data.first().copied().unwrap_or(0)) + 300;
        let error = provider.read_error(
            status,
            [] as [(&str, &str); 0],
            &String::from_utf8_lossy(bytes),
        );
        assert_eq!(error.retryable, error.kind.is_retryable());
        serde_json::to_string(&error).unwrap();
    }
});
