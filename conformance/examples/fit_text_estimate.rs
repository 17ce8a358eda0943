//! Fits the weights of the default text estimate against OpenAI's `o200k_base` tokenizer, and
//! writes them to `src/tokens/weights.rs`:
//!
//! ```text
//! cargo run --release -p transcript-replay-conformance --example fit_text_estimate -- --write
//! ```
//!
//! Without `--write` it only prints what it would write and the errors. Run it deliberately,
//! when the model or the training texts change; no test runs it.
//!
//! The model: a text's tokens are the sum, over each pair of neighbouring bytes, of a weight
//! for the pair of their states (`src/tokens/classes.rs`, included here so that the fit and
//! the crate count the same pairs). The fit cuts each kind of training text
//! ([`training`](transcript_replay_conformance::training), the generated agent tool output of
//! [`agent::kinds`](transcript_replay_conformance::agent::kinds) and each agent's real sessions
//! of the training half of [`agent::sessions`](transcript_replay_conformance::agent::sessions))
//! in pieces of about 1,500 bytes,
//! counts each piece's pairs and its o200k tokens, and finds the weights, none negative, that
//! make the smallest sum of squared *relative* errors, each kind of text weighing the same,
//! with a light pull of every weight towards a quarter of a token (so a pair the texts seldom
//! show gets a plain price, not an accident of the fit). It then reports the error per kind on
//! the training texts and on the check's texts ([`corpus`](transcript_replay_conformance::corpus),
//! the check half of the agent kinds and each held-out session), which the fit never saw.

#![allow(missing_docs)]

use transcript_replay_conformance::agent::{self, Half};
use transcript_replay_conformance::{corpus, training};

mod classes {
    include!("../../src/tokens/classes.rs");
}
use classes::{NEXT, START, STATES, STATE_NAMES};

/// The pull towards the prior, against a kind's whole weight of 1.
const PULL: f64 = 1e-4;
/// The prior: a quarter of a token a pair.
const PRIOR: f64 = 0.25;
const FEATURES: usize = STATES * STATES;

fn pairs(text: &str) -> [f64; FEATURES] {
    let mut counts = [0.0; FEATURES];
    let mut previous = START;
    for &byte in text.as_bytes() {
        let next = NEXT[usize::from(previous)][usize::from(byte)];
        counts[usize::from(previous) * STATES + usize::from(next)] += 1.0;
        previous = next;
    }
    counts
}

/// Cuts a text in pieces of about `size` bytes, at a line's end where there is one near.
fn pieces(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > size * 3 / 2 {
        let mut cut = size;
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        if let Some(newline) = rest[cut..].find('\n').filter(|&at| at < size / 2) {
            cut += newline + 1;
        }
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

fn o200k(text: &str) -> f64 {
    use std::sync::OnceLock;
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("o200k_base loads"))
        .encode_ordinary(text)
        .len() as f64
}

fn estimate(weights: &[u16; FEATURES], text: &str) -> f64 {
    let counts = pairs(text);
    let milli: f64 = counts
        .iter()
        .zip(weights)
        .map(|(count, &weight)| count * f64::from(weight))
        .sum();
    (milli / 1000.0).ceil()
}

fn main() {
    let write = std::env::args().any(|arg| arg == "--write");
    let mut kinds: Vec<(String, String)> = training::texts()
        .into_iter()
        .map(|(kind, text)| (kind.to_owned(), text))
        .collect();
    let code = training::code();
    let mut end = 40_000;
    while !code.is_char_boundary(end) {
        end += 1;
    }
    for (kind, text) in agent::kinds(Half::Training, &code[..end]) {
        kinds.push((kind.to_owned(), text));
    }
    for (agent, text) in agent::agents(Half::Training) {
        kinds.push((format!("{agent} sessions"), text));
    }

    // The normal equations of the weighted least squares, with the pull to the prior.
    let mut gram = vec![[0.0f64; FEATURES]; FEATURES];
    let mut target = [0.0f64; FEATURES];
    for (_, text) in &kinds {
        let pieces = pieces(text, 1500);
        let weight = 1.0 / pieces.len() as f64;
        for piece in pieces {
            let tokens = o200k(piece);
            // Relative errors: divide the row by the piece's tokens.
            let x = pairs(piece).map(|count| count / tokens);
            for j in 0..FEATURES {
                if x[j] == 0.0 {
                    continue;
                }
                target[j] += weight * x[j];
                for k in 0..FEATURES {
                    gram[j][k] += weight * x[j] * x[k];
                }
            }
        }
    }
    for j in 0..FEATURES {
        gram[j][j] += PULL;
        target[j] += PULL * PRIOR;
    }

    // Non-negative least squares by coordinate descent.
    let mut theta = [PRIOR; FEATURES];
    for _ in 0..20_000 {
        let mut moved = 0.0f64;
        for j in 0..FEATURES {
            let others: f64 = (0..FEATURES)
                .filter(|&k| k != j)
                .map(|k| gram[j][k] * theta[k])
                .sum();
            let next = ((target[j] - others) / gram[j][j]).max(0.0);
            moved = moved.max((next - theta[j]).abs());
            theta[j] = next;
        }
        if moved < 1e-9 {
            break;
        }
    }
    let weights: [u16; FEATURES] = theta.map(|t| (t * 1000.0).round().min(2_000.0) as u16);

    println!("error per kind (estimate against o200k):");
    for (kind, text) in &kinds {
        report(&format!("training {kind}"), &weights, text);
    }
    let code = corpus::checked_code();
    let json = include_str!("../specs/gemini-generativelanguage-v1beta-openapi.json")[..60_000]
        .to_owned()
        + corpus::JSON;
    let mut checked = vec![
        ("English prose", corpus::PROSE.to_owned()),
        ("code", code),
        ("JSON", json),
        ("logs", corpus::logs()),
        ("CJK", corpus::CJK.to_owned()),
        ("emoji", corpus::EMOJI.to_owned()),
        ("base64-like noise", corpus::noise(3000)),
        ("mixed agent transcript", corpus::transcript()),
    ];
    for (kind, text) in agent::kinds(Half::Check, &corpus::checked_code()) {
        checked.push((kind, text));
    }
    let sessions = agent::sessions(Half::Check);
    let all: String = sessions.iter().map(|(_, text)| text.as_str()).collect();
    for (kind, text) in &checked {
        report(&format!("checked  {kind}"), &weights, text);
    }
    for (name, text) in &sessions {
        report(&format!("held out {name}"), &weights, text);
    }
    report("held out sessions, all", &weights, &all);

    let source = table(&weights);
    if write {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/tokens/weights.rs");
        std::fs::write(path, source).expect("writes the weights");
        println!("wrote {path}");
    } else {
        print!("{source}");
    }
}

fn report(name: &str, weights: &[u16; FEATURES], text: &str) {
    let reference = o200k(text);
    let estimate = estimate(weights, text);
    println!(
        "  {name:32} o200k {reference:7} estimate {estimate:7} error {:+.1}%",
        (estimate - reference) / reference * 100.0
    );
}

/// The weights as the crate's source: a row for each previous state.
fn table(weights: &[u16; FEATURES]) -> String {
    let mut out = format!(
        "// Written by `cargo run --release -p transcript-replay-conformance --example \
         fit_text_estimate -- --write`;\n// do not edit by hand. Thousandths of a token for \
         each pair of states, at `previous * STATES + next`.\n\n\
         /// The price of each pair of neighbouring bytes' states, in thousandths of a token.\n\
         pub(crate) const WEIGHTS: [u16; {FEATURES}] = [\n",
    );
    for previous in 0..STATES {
        out.push_str(&format!("    // after {}\n   ", STATE_NAMES[previous]));
        for next in 0..STATES {
            let weight = if next != usize::from(START) {
                weights[previous * STATES + next]
            } else {
                0
            };
            out.push_str(&format!(" {weight},"));
        }
        out.push('\n');
    }
    out.push_str("];\n");
    out
}
