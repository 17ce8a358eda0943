//! The seam between turns: inside a turn the rounds go natively; from the next turn on the
//! stored turn replays as prose. The next turn's first body begins with every byte of the
//! turn's last body up to its first round (append-stability across the seam), for every
//! provider; what follows, the rounds, is written once more in prose.
//!
//! `cargo test -p transcript-replay-conformance --test turn_seam -- --nocapture` prints the
//! carry-over per provider: the bytes of the last in-turn body the next body begins with.

use transcript_replay::{parse_record, Provider, StoredMessage, Tool, ToolOutput, Turn};
use transcript_replay_conformance::corpus;
use transcript_replay_conformance::streams::{body, Item, Spec};

const SAMPLE: &str = include_str!("../../../examples/sample-conversation.json");

/// A reply that reasons, says what it does, and calls two tools; or, last, that answers.
fn reply(provider: Provider, round: usize, last: bool) -> String {
    let mut items = vec![
        Item::Reasoning(format!("Step {round}: read the test, then run it.")),
        Item::Text(format!("Checking step {round}.")),
    ];
    if !last {
        for (k, name) in ["read", "run_cmd"].into_iter().enumerate() {
            items.push(Item::Call {
                id: format!("call_{round}_{k}"),
                name: name.to_owned(),
                args: format!(r#"{{"path":"src/session_{round}.rs"}}"#),
            });
        }
    }
    body(
        provider,
        &Spec {
            items,
            max_tokens: false,
            input_tokens: 1000,
            output_tokens: 100,
        },
    )
}

/// The ids the provider's reply gives its calls: Gemini's come without one.
fn ids(provider: Provider, round: usize) -> [String; 2] {
    match provider {
        Provider::Gemini => ["made_0_0".to_owned(), "made_0_1".to_owned()],
        _ => [format!("call_{round}_0"), format!("call_{round}_1")],
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[test]
fn the_next_turn_begins_with_the_last_in_turn_body_up_to_its_first_round() {
    let history = parse_record(SAMPLE).unwrap();
    let live = [StoredMessage::user("Now make the session test pass.")];
    let next_live = [StoredMessage::user(
        "Thanks. Is anything else comparing times?",
    )];
    let tools = [
        Tool::new(
            "read",
            "Reads a file.",
            r#"{"type":"object","properties":{"path":{"type":"string"}}}"#,
        )
        .unwrap(),
        Tool::new(
            "run_cmd",
            "Runs a command.",
            r#"{"type":"object","properties":{"path":{"type":"string"}}}"#,
        )
        .unwrap(),
    ];
    const ROUNDS: usize = 3;
    println!("| provider | last in-turn body | its rounds, native | carried into the next turn | the next body's new bytes |");
    println!("|---|---:|---:|---:|---:|");
    for provider in Provider::ALL {
        let replies: Vec<_> = (0..ROUNDS)
            .map(|round| provider.read_reply(&reply(provider, round, false)).unwrap())
            .collect();
        let outputs: Vec<Vec<ToolOutput>> = (0..ROUNDS)
            .map(|round| {
                let [read, run] = ids(provider, round);
                vec![
                    ToolOutput::ok(read, corpus::CODE),
                    ToolOutput::error(run, "test session::expiry ... FAILED"),
                ]
            })
            .collect();
        let turn = |rounds: usize| {
            let mut turn = Turn::new(&history).live(&live).tools(&tools);
            for (reply, outputs) in replies.iter().zip(&outputs).take(rounds) {
                turn = turn.round(reply, outputs);
            }
            turn
        };
        let bytes = |turn: &Turn<'_>| serde_json::to_vec(&provider.body(turn).unwrap()).unwrap();
        let before_rounds = bytes(&turn(0));
        let last_in_turn = bytes(&turn(ROUNDS));
        let last = provider.read_reply(&reply(provider, ROUNDS, true)).unwrap();
        let stored = turn(ROUNDS).store_turn(&last).unwrap();
        let mut record = history.clone();
        record.extend(live.iter().cloned());
        record.push(stored);
        let next_first = bytes(&Turn::new(&record).live(&next_live).tools(&tools));

        // The body before its rounds ends with the list's `]}`.
        let up_to_rounds = before_rounds.len() - 2;
        let carried = common_prefix(&last_in_turn, &next_first);
        assert!(
            carried >= up_to_rounds,
            "{provider}: the next turn shares {carried} bytes, the body before the rounds has {up_to_rounds}"
        );
        assert!(
            carried < last_in_turn.len(),
            "{provider}: the rounds become prose, so the bodies part at them"
        );
        println!(
            "| {} | {} | {} | {} ({:.1}%) | {} |",
            provider.id(),
            last_in_turn.len(),
            last_in_turn.len() - up_to_rounds,
            carried,
            100.0 * carried as f64 / last_in_turn.len() as f64,
            next_first.len() - carried,
        );
    }
}
