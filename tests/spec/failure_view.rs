//! One view of a failure: every error a loop meets converts into `Failure`, which answers the
//! same three questions the same way whatever the error was: may the same request be sent
//! again, after how long, and is it an overflow, by how much.

use std::time::Duration;

use transcript_replay::{
    anthropic, cost::image_tokens, gemini, openai, parse_record, Budget, Failure, Provider,
    StoredMessage, Tool, Turn,
};

/// One failure of each kind, with what the loop must read from it: retryable, the wait, and
/// the overflow's counts (used, limit) when it is one.
type Row = (
    &'static str,
    Failure,
    bool,
    Option<Duration>,
    Option<(Option<u64>, Option<u64>)>,
);

fn rows() -> Vec<Row> {
    let live = [StoredMessage::user("Read this. ".repeat(400))];
    let claude = image_tokens("claude").unwrap();
    let over_budget =
        anthropic::body(&Turn::new(&[]).live(&live).budget(Budget::new(100, claude))).unwrap_err();
    let needed = match Failure::from(over_budget.clone()).overflow() {
        Some(overflow) => overflow.used,
        None => None,
    };
    let anthropic: Provider = "anthropic".parse().unwrap();
    vec![
        (
            "rate limit with retry-after",
            anthropic
                .read_error(
                    429,
                    [("retry-after", "7")],
                    r#"{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}"#,
                )
                .into(),
            true,
            Some(Duration::from_secs(7)),
            None,
        ),
        (
            "overload",
            gemini::read_error(503, "busy").into(),
            true,
            None,
            None,
        ),
        (
            "overflow with counts",
            anthropic::read_error(
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}"#,
            )
            .into(),
            false,
            None,
            Some((Some(219_898), Some(200_000))),
        ),
        (
            "overflow without counts",
            openai::read_error(
                400,
                r#"{"error":{"message":"Input too long.","code":"context_length_exceeded"}}"#,
            )
            .into(),
            false,
            None,
            Some((None, None)),
        ),
        (
            "stream cut short",
            Provider::OpenAi.stream().finish().unwrap_err().into(),
            true,
            None,
            None,
        ),
        (
            "stream error event, retryable",
            anthropic::stream()
                .feed(b"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")
                .unwrap_err()
                .into(),
            true,
            None,
            None,
        ),
        (
            "stream that is not the provider's",
            openai::stream().feed(b"data: {not json}\n\n").unwrap_err().into(),
            false,
            None,
            None,
        ),
        (
            "body over its budget",
            over_budget.into(),
            false,
            None,
            Some((needed, Some(100))),
        ),
        (
            "reply that is not JSON",
            openai::read_reply("not json").unwrap_err().into(),
            false,
            None,
            None,
        ),
        (
            "record that cannot be read",
            parse_record("[{").unwrap_err().into(),
            false,
            None,
            None,
        ),
        (
            "tool that cannot be declared",
            Tool::new("read", "", "[]").unwrap_err().into(),
            false,
            None,
            None,
        ),
    ]
}

#[test]
fn every_failure_answers_retryable_wait_and_overflow_the_same_way() {
    for (name, failure, retryable, wait, overflow) in rows() {
        assert_eq!(failure.is_retryable(), retryable, "{name}");
        assert_eq!(failure.retry_after(), wait, "{name}");
        assert_eq!(
            failure
                .overflow()
                .map(|overflow| (overflow.used, overflow.limit)),
            overflow,
            "{name}"
        );
    }
}

#[test]
fn an_overflow_says_by_how_much_only_when_both_counts_are_known() {
    for (name, failure, _, _, counts) in rows() {
        let by = failure.overflow().and_then(|overflow| overflow.over());
        let expected = counts.and_then(|(used, limit)| Some(used?.saturating_sub(limit?)));
        assert_eq!(by, expected, "{name}");
    }
}

#[test]
fn a_failure_displays_as_the_error_it_holds() {
    let error = gemini::read_error(503, "busy");
    assert_eq!(Failure::from(error.clone()).to_string(), error.to_string());
    let failure = Failure::from(error.clone());
    assert_eq!(failure.provider_error(), Some(&error));
}

/// A loop's function returns `Result<_, Failure>` and `?`s every error the crate gives.
fn one_request(provider: Provider, history: &[StoredMessage]) -> Result<usize, Failure> {
    let turn = Turn::new(history).model("m");
    provider.body(&turn)?;
    let reply = openai::read_reply(
        r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"Hi."},"finish_reason":"stop"}]}"#,
    )?;
    Ok(turn.store_turn(&reply)?.blocks.len())
}

#[test]
fn a_loop_can_question_mark_every_error_into_one_failure() {
    assert_eq!(
        one_request(Provider::OpenAi, &[StoredMessage::user("Hi")]).unwrap(),
        1
    );
    // Gemini rejects a request that ends on a model turn: the body's error, through `?`.
    let failure = one_request(
        Provider::Gemini,
        &[StoredMessage::assistant("No user turn")],
    );
    assert!(matches!(failure, Err(Failure::Body(_))), "{failure:?}");
}
