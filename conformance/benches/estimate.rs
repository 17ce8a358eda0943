//! What estimating a history costs, as a ratio against serializing the same body in the same
//! run, and what the text estimate alone costs, against writing the same text as a JSON
//! string: `cargo bench -p transcript-replay-conformance --bench estimate`.

#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use transcript_replay::{
    anthropic, cost::estimate_tokens, cost::image_tokens, Priced, StoredMessage, Turn,
};
use transcript_replay_conformance::corpus;
use transcript_replay_conformance::records::agent_record;

fn main() {
    let mut criterion = Criterion::default()
        .configure_from_args()
        .sample_size(20)
        .measurement_time(std::time::Duration::from_secs(10));
    let record = agent_record(10_000);
    let live = [StoredMessage::user("Go on.")];
    let turn = Turn::new(&record).live(&live);
    let body = anthropic::body(&turn).unwrap();
    let rule = image_tokens("claude").unwrap();
    let mut group = criterion.benchmark_group("estimate/10000");
    group.bench_function("body to_vec (baseline)", |b| {
        b.iter(|| serde_json::to_vec(black_box(&body)).unwrap())
    });
    group.bench_function("estimate", |b| b.iter(|| black_box(&body).estimate(rule)));
    group.bench_function("estimate, bytes and a caller's counter of chars", |b| {
        b.iter(|| black_box(&body).estimate_with(rule, |text| text.len() / 4))
    });
    group.finish();

    let mut text = String::new();
    while text.len() < 16_000_000 {
        text.push_str(&corpus::transcript());
    }
    let mut group = criterion.benchmark_group("estimate_tokens/16MB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("text to_vec as a JSON string (baseline)", |b| {
        b.iter(|| serde_json::to_vec(black_box(&text)).unwrap())
    });
    group.bench_function("estimate_tokens", |b| {
        b.iter(|| estimate_tokens(black_box(&text)))
    });
    group.finish();
    criterion.final_summary();
}
