//! The default text estimate, against OpenAI's `o200k_base` tokenizer, on every kind of text
//! an agent stores: the error per kind stays within the bounds the README reports, and the
//! total on a mixed agent transcript within 10%.

use transcript_replay::cost::estimate_tokens;
use transcript_replay_conformance::corpus;

fn reference(text: &str) -> usize {
    use std::sync::OnceLock;
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("o200k_base loads"))
        .encode_ordinary(text)
        .len()
}

/// The estimate's error against the reference, as a fraction (positive: over).
fn error(text: &str) -> f64 {
    let reference = reference(text) as f64;
    (estimate_tokens(text) as f64 - reference) / reference
}

#[test]
fn each_kind_of_text_is_estimated_within_its_reported_error() {
    let code = corpus::checked_code();
    let json = include_str!("../../specs/gemini-generativelanguage-v1beta-openapi.json")[..60_000]
        .to_owned()
        + corpus::JSON;
    let logs = corpus::logs();
    let noise = corpus::noise(3000);
    // (kind, text, the largest error allowed, as the README reports it)
    let cases: [(&str, &str, f64); 7] = [
        ("English prose", corpus::PROSE, 0.10),
        ("code", &code, 0.10),
        ("JSON", &json, 0.10),
        ("logs", &logs, 0.10),
        ("CJK", corpus::CJK, 0.15),
        ("emoji", corpus::EMOJI, 0.25),
        ("base64-like noise", &noise, 0.15),
    ];
    let mut failures = Vec::new();
    for (kind, text, bound) in cases {
        let error = error(text);
        println!(
            "{kind}: o200k {} tokens, estimate {}, error {:+.1}%",
            reference(text),
            estimate_tokens(text),
            error * 100.0
        );
        if error.abs() > bound {
            failures.push(format!(
                "{kind}: {:+.1}% (bound {:.0}%)",
                error * 100.0,
                bound * 100.0
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn a_mixed_agent_transcript_is_estimated_within_10_percent() {
    let transcript = corpus::transcript();
    let error = error(&transcript);
    println!(
        "transcript: o200k {} tokens, estimate {}, error {:+.1}%",
        reference(&transcript),
        estimate_tokens(&transcript),
        error * 100.0
    );
    assert!(error.abs() <= 0.10, "{:+.1}%", error * 100.0);
}
