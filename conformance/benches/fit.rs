//! What fitting a history to a budget costs, as a ratio against building and serializing the
//! same turn's body without one, in the same run:
//! `cargo bench -p transcript-replay-conformance --bench fit`.
//!
//! Fitting builds the body, estimates it, plans what to withhold, and builds and estimates
//! the fitted body, so it costs a few builds; the ratio says how many.

#![allow(missing_docs)]

use std::hint::black_box;

use criterion::Criterion;
use transcript_replay::{anthropic, cost::image_tokens, Budget, Priced, StoredMessage, Turn};
use transcript_replay_conformance::bench::ratio;
use transcript_replay_conformance::records::agent_record;

fn main() {
    let mut criterion = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .measurement_time(std::time::Duration::from_secs(10));
    let rule = image_tokens("claude").unwrap();
    let live = [StoredMessage::user("Go on.")];
    let mut rows = Vec::new();
    for messages in [1_000, 10_000] {
        let record = agent_record(messages);
        let turn = Turn::new(&record).live(&live);
        let whole = anthropic::body(&turn).unwrap().estimate(rule);
        let tokens = whole.text_tokens as u64 + whole.image_tokens;
        let group = format!("fit/{messages}");
        let mut benches = criterion.benchmark_group(&group);
        benches.bench_function("body to_vec, no budget (baseline)", |b| {
            b.iter(|| serde_json::to_vec(&anthropic::body(black_box(&turn)).unwrap()).unwrap())
        });
        for (name, share) in [("fits", 2.0), ("half", 0.5), ("a tenth", 0.1)] {
            let budget = Budget::new((tokens as f64 * share) as u64, rule);
            let fitted = turn.clone().budget(budget);
            benches.bench_function(format!("body to_vec, budget {name}"), |b| {
                b.iter(|| {
                    serde_json::to_vec(&anthropic::body(black_box(&fitted)).unwrap()).unwrap()
                })
            });
        }
        benches.finish();
        rows.push((messages, group));
    }
    criterion.final_summary();
    println!("\n| messages | fits / baseline | half / baseline | a tenth / baseline |\n|---:|---:|---:|---:|");
    for (messages, group) in rows {
        let baseline = "body to_vec, no budget (baseline)";
        println!(
            "| {messages} | {} | {} | {} |",
            ratio(&group, "body to_vec, budget fits", baseline),
            ratio(&group, "body to_vec, budget half", baseline),
            ratio(&group, "body to_vec, budget a tenth", baseline),
        );
    }
}
