//! A body that no budget can fit names what it still carries, by part, in the same words on
//! every provider: an oversized live turn is "the live turn" wherever the provider places it
//! (merged into the history's last turn or not), and the top-level fields are named for what
//! they hold: the neutral parameters the crate wrote, the caller's own fields, or both.

use serde_json::json;
use transcript_replay::{
    anthropic, bedrock, cost::image_tokens, errors::BodyErrorKind, gemini, openai,
    openai_responses, BodyError, Budget, StoredMessage, Turn,
};

const PROVIDERS: [&str; 5] = [
    "openai",
    "openai_responses",
    "anthropic",
    "gemini",
    "bedrock",
];

fn body_error(provider: &str, turn: &Turn<'_>) -> BodyError {
    match provider {
        "openai" => openai::body(turn).map(drop),
        "openai_responses" => openai_responses::body(turn).map(drop),
        "anthropic" => anthropic::body(turn).map(drop),
        "gemini" => gemini::body(turn).map(drop),
        "bedrock" => bedrock::body(turn).map(drop),
        other => panic!("no provider {other}"),
    }
    .unwrap_err()
}

/// The parts an over-budget error names, with their tokens, largest first.
fn parts(provider: &str, turn: &Turn<'_>) -> (u64, Vec<(String, u64)>) {
    let error = body_error(provider, turn);
    let BodyErrorKind::OverBudget { needed, parts, .. } = error.kind() else {
        panic!("{provider}: {error}");
    };
    (needed, parts.to_vec())
}

fn names(parts: &[(String, u64)]) -> Vec<&str> {
    parts.iter().map(|(name, _)| name.as_str()).collect()
}

#[test]
fn an_oversized_live_turn_is_named_the_live_turn_on_every_provider() {
    let claude = image_tokens("claude").unwrap();
    let history = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello! ".repeat(50)),
    ];
    let live = [StoredMessage::user("Read this. ".repeat(400))];
    // (what the history is, the history, the parts named, in order)
    let cases: [(&str, &[StoredMessage], [&str; 3]); 2] = [
        (
            "a history withheld down to its marker",
            &history,
            [
                "the live turn",
                "the system text",
                "what is left of the history",
            ],
        ),
        (
            "a history whose last turn is the user's",
            &history[..1],
            [
                "the live turn",
                "the system text",
                "what is left of the history",
            ],
        ),
    ];
    for (what, history, expected) in cases {
        let turn = Turn::new(history)
            .live(&live)
            .budget(Budget::new(100, claude));
        let mut live_tokens = Vec::new();
        for provider in PROVIDERS {
            let (needed, parts) = parts(provider, &turn);
            assert_eq!(names(&parts), expected, "{provider}, {what}");
            assert_eq!(
                parts.iter().map(|(_, tokens)| tokens).sum::<u64>(),
                needed,
                "{provider}, {what}: the parts add up to what the body needs"
            );
            live_tokens.push(parts[0].1);
        }
        // The live turn's own tokens, whichever turn carries it.
        assert!(
            live_tokens.iter().all(|&tokens| tokens == live_tokens[0]),
            "{what}: {live_tokens:?}"
        );
    }
}

#[test]
fn the_fields_part_says_whether_it_holds_parameters_or_the_callers_fields() {
    let claude = image_tokens("claude").unwrap();
    let live = [StoredMessage::user("Read this. ".repeat(400))];
    let caller = json!({"metadata": {"note": "x"}});
    let none = Turn::new(&[]).live(&live).budget(Budget::new(100, claude));
    // (what the turn gives, the turn, the name of its fields on each provider in
    // `PROVIDERS`' order; None where the body writes no top-level field)
    let cases: [(&str, Turn<'_>, [Option<&str>; 5]); 5] = [
        ("nothing", none.clone(), [None; 5]),
        (
            "a neutral parameter",
            none.clone().max_output(100),
            [Some("the parameters"); 5],
        ),
        (
            "the caller's fields",
            none.clone().fields(&caller),
            [Some("the caller's fields"); 5],
        ),
        (
            "both",
            none.clone().max_output(100).fields(&caller),
            [Some("the parameters and the caller's fields"); 5],
        ),
        (
            // Gemini and Bedrock name the model in the path, not the body.
            "the model, which some providers write in the path, and the caller's fields",
            none.clone().model("m").fields(&caller),
            [
                Some("the parameters and the caller's fields"),
                Some("the parameters and the caller's fields"),
                Some("the parameters and the caller's fields"),
                Some("the caller's fields"),
                Some("the caller's fields"),
            ],
        ),
    ];
    let fields = [
        "the parameters",
        "the caller's fields",
        "the parameters and the caller's fields",
    ];
    for (what, turn, expected) in cases {
        for (provider, expected) in PROVIDERS.into_iter().zip(expected) {
            let (_, parts) = parts(provider, &turn);
            let named: Vec<&str> = names(&parts)
                .into_iter()
                .filter(|name| fields.contains(name))
                .collect();
            assert_eq!(
                named,
                Vec::from_iter(expected),
                "{provider}, {what}: {parts:?}"
            );
        }
    }
}
