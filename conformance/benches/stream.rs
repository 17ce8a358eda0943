//! What reading a stream costs, as a ratio against what a hand-written reader does in the
//! same run: split the bytes into events and parse each event's data into a
//! `serde_json::Value`. About 10 MB of recorded stream for each provider (text and tool-call
//! inputs in deltas of 8 characters): `cargo bench -p transcript-replay-conformance --bench
//! stream`.

#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use serde_json::Value;
use transcript_replay::Provider;
use transcript_replay_conformance::bench::ratio;
use transcript_replay_conformance::streams::{self, Item, Spec};

/// A reply of about `bytes` bytes once streamed: prose, code and tool calls.
fn spec(provider: Provider, bytes: usize) -> Spec {
    let prose = "The failing test is not flaky: it fails whenever the session store returns an \
                 entry whose expiry is in the past and the request carries a return address. ";
    let code = "fn redirect_for(session: &Session, now: Instant) -> Option<Url> {\n    \
                session.expires_at.filter(|at| *at > now).map(|_| session.return_to.clone())\n}\n";
    let mut items = Vec::new();
    let mut spec = Spec {
        items: Vec::new(),
        max_tokens: false,
        input_tokens: 12_000,
        output_tokens: 4_000,
    };
    let mut round = 0;
    while streams::stream(provider, &spec, 8).len() < bytes {
        for _ in 0..20 {
            items.push(Item::Text(format!("{prose}{code}")));
            items.push(Item::Call {
                id: format!("call_{round}"),
                name: "write".into(),
                args: serde_json::json!({"path": format!("src/{round}.rs"), "text": code})
                    .to_string(),
            });
            round += 1;
        }
        spec.items.clone_from(&items);
    }
    spec
}

/// What a hand-written reader does with server-sent events: each `data:` line parsed into a
/// `Value`.
fn by_hand_sse(bytes: &[u8]) -> usize {
    let text = std::str::from_utf8(bytes).unwrap();
    let mut parsed = 0;
    for line in text.lines() {
        if let Some(data) = line.strip_prefix("data: ") {
            if data != "[DONE]" {
                let value: Value = serde_json::from_str(data).unwrap();
                parsed += usize::from(value.is_object());
            }
        }
    }
    parsed
}

/// What a hand-written reader does with event-stream frames: each payload, found by the
/// frame's lengths, parsed into a `Value` (no CRC checked).
fn by_hand_frames(bytes: &[u8]) -> usize {
    let mut parsed = 0;
    let mut at = 0;
    while at + 12 <= bytes.len() {
        let word = |offset: usize| {
            u32::from_be_bytes(bytes[at + offset..at + offset + 4].try_into().unwrap()) as usize
        };
        let (total, headers) = (word(0), word(4));
        let payload = &bytes[at + 12 + headers..at + total - 4];
        let value: Value = serde_json::from_slice(payload).unwrap();
        parsed += usize::from(value.is_object());
        at += total;
    }
    parsed
}

fn main() {
    let mut criterion = Criterion::default()
        .configure_from_args()
        .sample_size(20)
        .measurement_time(std::time::Duration::from_secs(5));
    for provider in Provider::ALL {
        let bytes = streams::stream(provider, &spec(provider, 10_000_000), 8);
        let mut group = criterion.benchmark_group(format!("stream/{}", provider.id()));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("each event into a Value (baseline)", |b| {
            b.iter(|| match provider {
                Provider::Bedrock => by_hand_frames(black_box(&bytes)),
                _ => by_hand_sse(black_box(&bytes)),
            })
        });
        group.bench_function("stream reader", |b| {
            b.iter(|| {
                let mut reader = provider.stream();
                reader.feed(black_box(&bytes)).unwrap();
                reader.finish().unwrap()
            })
        });
        group.finish();
    }
    criterion.final_summary();
    // `cargo test --benches` runs each benchmark once, measuring nothing worth a ratio.
    if std::env::args().any(|arg| arg == "--bench") {
        println!("\nratios to the baseline measured in the same run (lower is cheaper):");
        for provider in Provider::ALL {
            let group = format!("stream/{}", provider.id());
            println!(
                "{:>18}  {}",
                provider.id(),
                ratio(
                    &group,
                    "stream reader",
                    "each event into a Value (baseline)"
                )
            );
        }
    }
}
