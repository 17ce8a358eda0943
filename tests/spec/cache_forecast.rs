//! The prompt cache forecast, on every provider, by its own rule: a body forecast against
//! itself is read whole (the rule's minimum and steps allowing), a body that shares no prefix
//! with the earlier one reads nothing, an appended turn reads the old prefix, and the dollars
//! follow the model's prices; a model the catalog does not hold has no forecast.

use transcript_replay::{
    cost::estimate_tokens, cost::forecast, Cache, Priced, Provider, StoredMessage, Turn,
};

/// A conversation long enough for every provider's minimum.
fn history(turns: usize, topic: &str) -> Vec<StoredMessage> {
    (0..turns)
        .flat_map(|n| {
            [
                StoredMessage::user(format!(
                    "{topic} {n}: {}",
                    "the build log says ok and the tests pass. ".repeat(15)
                )),
                StoredMessage::assistant(format!("Done {n}.")),
            ]
        })
        .collect()
}

fn body(provider: Provider, model: &str, history: &[StoredMessage]) -> String {
    let live = [StoredMessage::user("Go on.")];
    let turn = Turn::new(history)
        .live(&live)
        .model(model)
        .max_output(1_000)
        .cache(Cache::FiveMinutes);
    String::from_utf8(provider.body(&turn).unwrap().to_json().unwrap()).unwrap()
}

const MODELS: [(&str, &str); 5] = [
    ("openai", "gpt-4o"),
    ("openai-responses", "gpt-5"),
    ("anthropic", "claude-sonnet-4-5"),
    ("gemini", "gemini-2.5-pro"),
    ("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
];

#[test]
fn a_body_against_itself_is_read_whole_and_a_stranger_reads_nothing() {
    for (provider, model) in MODELS {
        let provider: Provider = provider.parse().unwrap();
        let one = body(provider, model, &history(40, "Step"));
        let same = forecast(&one, &one, model).unwrap();
        let total = estimate_tokens(&one) as u64;
        assert_eq!(
            same.cache_read_tokens + same.cache_write_tokens + same.uncached_tokens,
            total,
            "{provider}"
        );
        // Whole but for a step's rest, or, with breakpoints, what follows the last one.
        assert!(
            same.uncached_tokens < 200 && same.cache_write_tokens == 0,
            "{provider}: {same:?}"
        );
        let stranger = format!("{{\"x\":{one}}}");
        let none = forecast(&stranger, &one, model).unwrap();
        assert_eq!(none.cache_read_tokens, 0, "{provider}");
    }
}

#[test]
fn an_appended_turn_reads_the_old_prefix_and_a_diverging_one_reads_less() {
    for (provider, model) in MODELS {
        let provider: Provider = provider.parse().unwrap();
        let grown = history(41, "Step");
        let before = body(provider, model, &grown[..80]);
        let after = body(provider, model, &grown);
        let appended = forecast(&before, &after, model).unwrap();
        assert!(
            appended.cache_read_tokens * 10 >= estimate_tokens(&before) as u64 * 9,
            "{provider}: {appended:?}"
        );
        assert!(
            appended.uncached_tokens + appended.cache_write_tokens > 0,
            "{provider}"
        );
        let mut diverged = grown.clone();
        diverged[40] = StoredMessage::user("A different turn in the middle.");
        let changed = body(provider, model, &diverged);
        let less = forecast(&before, &changed, model).unwrap();
        assert!(
            less.cache_read_tokens < appended.cache_read_tokens,
            "{provider}: {less:?}"
        );
    }
}

#[test]
fn the_dollars_follow_the_models_prices_and_an_unknown_model_has_no_forecast() {
    let provider: Provider = "anthropic".parse().unwrap();
    let grown = history(41, "Step");
    let before = body(provider, "claude-sonnet-4-5", &grown[..80]);
    let after = body(provider, "claude-sonnet-4-5", &grown);
    let cache = forecast(&before, &after, "claude-sonnet-4-5").unwrap();
    // $3 input, $0.30 cache read, $3.75 cache write, per million tokens.
    let usd = (cache.cache_read_tokens as f64 * 0.3
        + cache.cache_write_tokens as f64 * 3.75
        + cache.uncached_tokens as f64 * 3.0)
        / 1_000_000.0;
    assert!((cache.usd.unwrap() - usd).abs() < 1e-12);
    assert!(cache.cache_write_tokens > 0);
    let json = serde_json::to_value(cache).unwrap();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "cache_read_tokens",
            "cache_write_tokens",
            "uncached_tokens",
            "usd"
        ]
    );
    assert!(forecast(&before, &after, "no-such-model").is_none());
}
