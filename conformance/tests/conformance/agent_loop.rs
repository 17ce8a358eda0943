//! The agent loop of `examples/agent_loop.rs`, run for the five providers and one dialect
//! against its canned server: each turn ends with the live turn and the stored turn appended,
//! the stored turn holding every round's calls and results; the context window overflow is
//! refitted with a smaller budget (`Turn::refit`, from the error's counts where it names them);
//! the rate limit is waited out as its `retry-after` says; the cut stream is sent again after
//! the loop's own backoff; each request goes to the provider's default base URL. It also
//! counts the loop's hand-written lines (run with `-- --nocapture` to see the count): at most
//! 150.

#[path = "../../examples/agent_loop.rs"]
mod example;

use std::time::Duration;

use example::{agent_turn, canned, Log};
use transcript_replay::{errors::ProviderErrorKind, Block, Failure, Provider, Role, StoredMessage};
use transcript_replay_conformance::streams::{self, Item, Spec};

/// The providers the loop runs for: the five and Groq's dialect.
fn providers() -> Vec<Provider> {
    let groq: Provider = "groq".parse().expect("a known dialect");
    Provider::ALL.into_iter().chain([groq]).collect()
}

#[test]
fn each_provider_loop_stores_the_turn_with_its_rounds() {
    for provider in providers() {
        let mut server = canned::Server::new(provider);
        let mut history = canned::history();
        let before = history.len();
        let mut log = Log::default();
        agent_turn(
            provider,
            &mut history,
            "Which of a.rs and b.rs is empty?",
            &mut |url, headers, body| server.send(url, headers, body),
            &mut canned::run_tool,
            &mut log,
        )
        .unwrap_or_else(|error| panic!("{provider}: {error}"));

        // The live turn, then the stored turn: every round's calls, each with its result.
        assert_eq!(history.len(), before + 2, "{provider}");
        assert_eq!(
            history[before],
            StoredMessage::user("Which of a.rs and b.rs is empty?")
        );
        let stored = &history[before + 1];
        assert_eq!(stored.role, Role::Assistant, "{provider}");
        let kinds: Vec<&str> = (stored.blocks.iter())
            .map(|block| match block {
                Block::Text { .. } => "text",
                Block::ToolUse { .. } => "tool_use",
                Block::ToolResult { .. } => "tool_result",
                Block::Reasoning { .. } => "reasoning",
                Block::Image { .. } => "image",
                Block::File { .. } => "file",
                Block::Source { .. } => "source",
                Block::Compaction { .. } => "compaction",
                Block::Unknown { .. } => "unknown",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "reasoning",
                "tool_use",
                "tool_result",
                "tool_use",
                "tool_result",
                "tool_use",
                "tool_result",
                "text"
            ],
            "{provider}"
        );
        let results: Vec<(&str, &str, &str)> = (stored.blocks.iter())
            .filter_map(|block| match block {
                Block::ToolResult {
                    tool_use_id,
                    tool_name,
                    output,
                    ..
                } => Some((tool_use_id.as_str(), tool_name.as_str(), output.as_str())),
                Block::Text { .. }
                | Block::ToolUse { .. }
                | Block::Reasoning { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. } => None,
            })
            .collect();
        let outputs: Vec<(&str, &str)> = results.iter().map(|r| (r.1, r.2)).collect();
        assert_eq!(
            outputs,
            [
                ("list", "a.rs\nb.rs"),
                ("read", "fn main() {}"),
                ("read", "")
            ],
            "{provider}"
        );
        for (index, (id, _, _)) in results.iter().enumerate() {
            // Each result follows the call it answers.
            let at = stored
                .blocks
                .iter()
                .position(|block| matches!(block, Block::ToolResult { tool_use_id, .. } if tool_use_id == id))
                .expect("the result is there");
            assert!(
                matches!(&stored.blocks[at - 1], Block::ToolUse { id: call, .. } if call == id),
                "{provider}: result {index} does not follow its call"
            );
        }
        assert_eq!(
            stored.blocks.last(),
            Some(&Block::text("b.rs is empty; a.rs holds an empty main.")),
            "{provider}"
        );
        assert_eq!(log.rounds, 2, "{provider}");

        // The overflow, read with its counts where the provider names them, and refitted once:
        // what was sent, scaled by how far over the provider counted it (three quarters of it
        // where the provider names no counts).
        let overflow = log.failures[0]
            .provider_error()
            .expect("the provider's error");
        assert_eq!(
            overflow.kind,
            ProviderErrorKind::ContextWindowExceeded,
            "{provider}"
        );
        let counted = !matches!(
            provider,
            Provider::OpenAiResponses | Provider::Compatible(_)
        );
        assert_eq!(overflow.limit.is_some(), counted, "{provider}");
        assert_eq!(overflow.used.is_some(), counted, "{provider}");
        if counted {
            assert_eq!(overflow.limit, Some(canned::LIMIT), "{provider}");
        }
        assert_eq!(log.refits, 1, "{provider}");
        // The body after the refit fits the window, the history withheld to fit, and is
        // smaller than the one that overflowed.
        let (_, _, overflowed) = &server.requests[0];
        let (_, _, body) = &server.requests[1];
        assert!(body.len() < overflowed.len(), "{provider}");
        assert!(body.len() as u64 / 3 <= canned::LIMIT, "{provider}");
        let body = String::from_utf8_lossy(body);
        assert!(
            body.contains("withheld to fit the context window"),
            "{provider}"
        );

        // The rate limit, waited out as the provider said (Bedrock says nothing: the loop's
        // own backoff), then the cut stream, sent again after the loop's backoff.
        let limited = log.failures[1]
            .provider_error()
            .expect("the provider's error");
        assert!(limited.retryable, "{provider}");
        let wait = match provider {
            Provider::Bedrock => {
                assert_eq!(limited.kind, ProviderErrorKind::RateLimited);
                assert_eq!(limited.retry_after, None);
                Duration::from_secs(1)
            }
            _ => {
                assert_eq!(
                    limited.retry_after,
                    Some(Duration::from_secs(canned::RETRY_AFTER)),
                    "{provider}"
                );
                Duration::from_secs(canned::RETRY_AFTER)
            }
        };
        assert!(
            matches!(&log.failures[2], Failure::Stream(cut) if cut.is_retryable() && cut.provider_error().is_none()),
            "{provider}: {:?}",
            log.failures[2]
        );
        assert_eq!(log.failures.len(), 3, "{provider}");
        assert_eq!(log.sleeps, [wait, Duration::from_secs(2)], "{provider}");
        assert_eq!(log.shown, "b.rs is empty; a.rs holds an empty main.");

        // Web search, run by the provider, declared beside the function tools where the
        // provider has it.
        let web_search = match provider {
            Provider::Anthropic => Some(r#"{"type":"web_search_20250305","name":"web_search"}"#),
            Provider::OpenAiResponses => Some(r#"{"type":"web_search"}"#),
            _ => None,
        };
        for (_, _, body) in &server.requests {
            let body = String::from_utf8_lossy(body);
            match web_search {
                Some(tool) => assert!(body.contains(tool), "{provider}"),
                None => assert!(!body.contains("web_search"), "{provider}"),
            }
        }

        // Each request went where the provider takes it, with the key where it goes.
        let path = match provider {
            Provider::OpenAiResponses => "/v1/responses".to_owned(),
            Provider::Anthropic => "/v1/messages".to_owned(),
            Provider::Gemini => {
                "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse".to_owned()
            }
            Provider::Bedrock => {
                "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream".to_owned()
            }
            _ => "/v1/chat/completions".to_owned(),
        };
        assert_eq!(log.requests.len(), server.requests.len(), "{provider}");
        for (request, (url, headers, _)) in log.requests.iter().zip(&server.requests) {
            assert_eq!(request, &format!("POST {path}"), "{provider}");
            let base_url = provider.request_for("m", true).base_url;
            assert_eq!(url, &format!("{base_url}{path}"), "{provider}");
            let key = match provider {
                Provider::Anthropic => Some("x-api-key"),
                Provider::Gemini => Some("x-goog-api-key"),
                Provider::Bedrock => None,
                _ => Some("authorization"),
            };
            if let Some(key) = key {
                assert!(headers.iter().any(|(name, _)| name == key), "{provider}");
            }
        }
    }
}

#[test]
fn the_example_runs() {
    example::main().expect("the example's loop runs for every provider");
}

/// The hand-written lines of the loop: those between `// loop: begin` and `// loop: end` in
/// the example, as rustfmt writes them, that are neither blank nor a comment.
#[test]
fn the_loop_is_at_most_150_hand_written_lines() {
    let source = include_str!("../../examples/agent_loop.rs");
    let lines: Vec<&str> = source.lines().map(str::trim).collect();
    let begin = lines.iter().position(|line| *line == "// loop: begin");
    let end = lines.iter().position(|line| *line == "// loop: end");
    let (begin, end) = (begin.expect("a begin marker"), end.expect("an end marker"));
    let counted = lines[begin + 1..end]
        .iter()
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .count();
    println!("agent loop: {counted} hand-written lines (the first trial: 378, then 270)");
    assert!(counted <= 150, "{counted} lines");
}

/// A connection cut in the middle of an event or frame (not at an event's end) reads as a
/// cut, which a retry may cure, on every provider: the last event the bytes did not end is
/// read if it can be, and is a cut if it cannot (it was a JSON, content or frame error).
#[test]
fn a_stream_cut_mid_event_is_retryable() {
    let spec = Spec {
        items: vec![
            Item::Reasoning("List the files first.".into()),
            Item::Call {
                id: "call_1".into(),
                name: "list".into(),
                args: r#"{"dir":"."}"#.into(),
            },
        ],
        max_tokens: false,
        input_tokens: 10,
        output_tokens: 10,
    };
    let mut failures = Vec::new();
    for provider in providers() {
        let bytes = streams::stream(provider, &spec, 5);
        for cut in [bytes.len() / 3, bytes.len() / 2, bytes.len() * 2 / 3] {
            let mut reader = provider.stream();
            let error = match reader.feed(&bytes[..cut]) {
                Ok(_) => reader.finish().expect_err("a cut stream is no reply"),
                Err(error) => error,
            };
            if !error.is_retryable() {
                failures.push(format!(
                    "{provider} cut at {cut}: {:?}: {error}",
                    error.kind()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
