//! A budget from the turn: `Budget::window` leaves the turn's own `max_output` of the model's
//! window for the reply, whatever order the builders are called in; `Turn::refit` makes the
//! budget smaller after the provider said the request overflowed, from the error's counts
//! (else by a quarter), so that the next body fits as the provider counts; a failure that is
//! no overflow leaves the turn as it was.

use transcript_replay::{
    anthropic, Budget, Failure, Priced, Provider, ProviderError, StoredMessage, Turn,
};

fn history() -> Vec<StoredMessage> {
    (0..80)
        .flat_map(|n| {
            [
                StoredMessage::user(format!("question {n}: {}", "words ".repeat(150))),
                StoredMessage::assistant(format!("answer {n}: {}", "more ".repeat(150))),
            ]
        })
        .collect()
}

fn tokens(provider: Provider, turn: &Turn) -> u64 {
    let model = "m";
    provider
        .body(turn)
        .unwrap()
        .estimate(provider.image_tokens_for(model))
        .tokens()
}

#[test]
fn a_window_leaves_the_turns_max_output_for_the_reply_on_every_provider() {
    let history = history();
    let live = [StoredMessage::user("Sum it up.")];
    for provider in Provider::ALL {
        let images = provider.image_tokens_for("m");
        for max_output in [1_000_u32, 8_000] {
            // The window given before or after the output limit: the same body.
            let before = Turn::new(&history)
                .live(&live)
                .model("m")
                .budget(Budget::window(20_000, images))
                .max_output(max_output);
            let after = Turn::new(&history)
                .live(&live)
                .model("m")
                .max_output(max_output)
                .budget(Budget::window(20_000, images));
            let same = Turn::new(&history)
                .live(&live)
                .model("m")
                .max_output(max_output)
                .budget(Budget::new(20_000 - u64::from(max_output), images));
            let json = |turn: &Turn| provider.body(turn).unwrap().to_json().unwrap();
            assert_eq!(json(&before), json(&after), "{provider}");
            assert_eq!(json(&before), json(&same), "{provider}");
            assert!(
                tokens(provider, &before) <= 20_000 - u64::from(max_output),
                "{provider}"
            );
        }
    }
}

fn overflow(provider: Provider, used: u64, limit: u64) -> ProviderError {
    let (status, body) = match provider {
        Provider::Anthropic => (
            400,
            format!(
                r#"{{"type":"error","error":{{"type":"invalid_request_error","message":"prompt is too long: {used} tokens > {limit} maximum"}}}}"#
            ),
        ),
        Provider::Gemini => (
            400,
            format!(
                r#"{{"error":{{"code":400,"message":"The input token count ({used}) exceeds the maximum number of tokens allowed ({limit}).","status":"INVALID_ARGUMENT"}}}}"#
            ),
        ),
        Provider::Bedrock => (
            400,
            format!(
                r#"{{"message":"The model returned the following errors: Input is too long for requested model. prompt is too long: {used} tokens > {limit} maximum"}}"#
            ),
        ),
        _ => (
            400,
            format!(
                r#"{{"error":{{"message":"This model's maximum context length is {limit} tokens. However, your messages resulted in {used} tokens. Please reduce the length of the messages.","type":"invalid_request_error","code":"context_length_exceeded"}}}}"#
            ),
        ),
    };
    provider.read_error(status, [] as [(&str, &str); 0], &body)
}

#[test]
fn a_refit_scales_what_was_sent_by_how_far_over_the_provider_counted_it() {
    let history = history();
    let live = [StoredMessage::user("Sum it up.")];
    for provider in Provider::ALL {
        let images = provider.image_tokens_for("m");
        let mut turn = Turn::new(&history)
            .live(&live)
            .model("m")
            .max_output(2_000)
            .budget(Budget::window(40_000, images));
        let sent = tokens(provider, &turn);
        // The provider counted half as much again as the crate's estimate, against a window
        // of 30,000.
        let error = overflow(provider, sent * 3 / 2, 30_000);
        assert_eq!(error.used, Some(sent * 3 / 2), "{provider}: {error:?}");
        assert!(turn.refit(&Failure::from(error)), "{provider}");
        let refitted = tokens(provider, &turn);
        assert!(
            refitted <= (30_000 - 2_000) * 2 / 3,
            "{provider}: {refitted} after {sent}"
        );
        assert!(refitted < sent, "{provider}");
    }
}

#[test]
fn a_refit_without_counts_sends_at_most_three_quarters_of_what_was_sent() {
    let history = history();
    let live = [StoredMessage::user("Sum it up.")];
    let responses = Provider::OpenAiResponses;
    let mut turn = Turn::new(&history).live(&live).model("m");
    let sent = tokens(responses, &turn);
    let error = responses.read_error(
        400,
        [] as [(&str, &str); 0],
        r#"{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
    );
    assert_eq!((error.used, error.limit), (None, None));
    let failure = Failure::from(error);
    assert!(turn.refit(&failure));
    let first = tokens(responses, &turn);
    assert!(first <= sent / 4 * 3, "{first} after {sent}");
    // Each refit sends less again.
    assert!(turn.refit(&failure));
    assert!(tokens(responses, &turn) < first);
}

#[test]
fn a_failure_that_is_no_overflow_leaves_the_turn_as_it_was() {
    let history = history();
    let live = [StoredMessage::user("Sum it up.")];
    let turn = || Turn::new(&history).live(&live).model("m").max_output(1_000);
    let rate_limited = anthropic::read_error(
        429,
        r#"{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}"#,
    );
    let cut = Provider::Anthropic.stream().finish().unwrap_err();
    let claude = Provider::Anthropic.image_tokens_for("m");
    let over_budget = Provider::Anthropic
        .body(&turn().budget(Budget::new(10, claude)))
        .unwrap_err();
    for failure in [
        Failure::from(rate_limited),
        Failure::from(cut),
        Failure::from(over_budget),
    ] {
        let mut refitted = turn();
        assert!(!refitted.refit(&failure), "{failure}");
        let json = |turn: &Turn| Provider::Anthropic.body(turn).unwrap().to_json().unwrap();
        assert_eq!(json(&refitted), json(&turn()), "{failure}");
    }
}
