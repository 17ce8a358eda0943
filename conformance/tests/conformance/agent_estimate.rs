//! The default text estimate holds on agent transcripts: on real sessions of public
//! repositories that the fit never saw (`agent-corpus/`, the files with an even number), it is
//! within 3% of OpenAI's `o200k_base` over all of them and within 10% on each; and on each
//! kind of tool output that real sessions are full of (file reads with line-number prefixes,
//! short indented code, progress meters, column-aligned tables, box drawing), generated from
//! other sources and numbers than the fit's, within 10%.

use transcript_replay::cost::estimate_tokens;
use transcript_replay_conformance::agent::{self, Half};
use transcript_replay_conformance::corpus;

fn reference(text: &str) -> usize {
    use std::sync::OnceLock;
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("o200k_base loads"))
        .encode_ordinary(text)
        .len()
}

/// The estimate's error against the reference, as a fraction (positive: over), printed.
fn error(name: &str, text: &str) -> f64 {
    let reference = reference(text);
    let estimate = estimate_tokens(text);
    let error = (estimate as f64 - reference as f64) / reference as f64;
    println!(
        "{name}: o200k {reference}, estimate {estimate}, error {:+.1}%",
        error * 100.0
    );
    error
}

#[test]
fn held_out_agent_sessions_are_estimated_within_3_percent_overall() {
    let sessions = agent::sessions(Half::Check);
    assert!(sessions.len() >= 15, "{} held-out sessions", sessions.len());
    let all: String = sessions.iter().map(|(_, text)| text.as_str()).collect();
    let error = error("all held-out sessions", &all);
    assert!(error.abs() <= 0.03, "{:+.1}%", error * 100.0);
}

#[test]
fn each_held_out_agent_session_is_estimated_within_10_percent() {
    let failures: Vec<String> = agent::sessions(Half::Check)
        .iter()
        .filter_map(|(name, text)| {
            let error = error(name, text);
            (error.abs() > 0.10).then(|| format!("{name}: {:+.1}%", error * 100.0))
        })
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn each_kind_of_agent_tool_output_is_estimated_within_10_percent() {
    // The file reads show code the fit never saw: the check's own code.
    let code = corpus::checked_code();
    let failures: Vec<String> = agent::kinds(Half::Check, &code)
        .iter()
        .filter_map(|(kind, text)| {
            let error = error(kind, text);
            (error.abs() > 0.10).then(|| format!("{kind}: {:+.1}%", error * 100.0))
        })
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn the_training_and_check_halves_share_no_session() {
    let training = agent::sessions(Half::Training);
    let check = agent::sessions(Half::Check);
    for (name, text) in &check {
        assert!(
            training
                .iter()
                .all(|(other, other_text)| other != name && other_text != text),
            "{name} is in both halves"
        );
    }
}
