//! Replay's cost, as ratios against baselines measured in the same run.
//!
//! For records of 100, 1,000 and 10,000 messages (large tool outputs, an image of 100 KB of
//! base64 in every 25th user message):
//! - `replay/N`: `replay_messages` with each vision flag, against a `clone()` of the record;
//! - `serialize/N`: replay followed by `serde_json::to_vec` of the wire messages, against
//!   `serde_json::to_vec` of the record itself.
//!
//! `cargo bench --bench replay` prints criterion's figures and then the ratios.

#![allow(missing_docs)]

mod common;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion};
use transcript_replay::{replay_messages, Vision};
use transcript_replay_conformance::bench::ratio;
use transcript_replay_conformance::records::agent_record;

use common::sized_group;

const SIZES: [usize; 3] = [100, 1_000, 10_000];

fn benches(c: &mut Criterion) {
    for size in SIZES {
        let record = agent_record(size);
        let mut group = sized_group(c, format!("replay/{size}"), size);
        group.bench_function("clone (baseline)", |b| {
            b.iter(|| black_box(&record).clone())
        });
        for (name, vision) in [("sees", Vision::Sees), ("blind", Vision::Blind)] {
            group.bench_with_input(BenchmarkId::new("replay", name), &vision, |b, &vision| {
                b.iter(|| replay_messages(black_box(&record), vision));
            });
        }
        group.finish();

        let mut group = sized_group(c, format!("serialize/{size}"), size);
        group.bench_function("record to_vec (baseline)", |b| {
            b.iter(|| serde_json::to_vec(black_box(&record)).unwrap());
        });
        for (name, vision) in [("sees", Vision::Sees), ("blind", Vision::Blind)] {
            group.bench_with_input(
                BenchmarkId::new("replay + to_vec", name),
                &vision,
                |b, &vision| {
                    b.iter(|| {
                        serde_json::to_vec(&replay_messages(black_box(&record), vision)).unwrap()
                    });
                },
            );
        }
        group.finish();
    }
}

fn print_ratios() {
    println!("\nratios to the baseline measured in the same run (lower is cheaper):");
    println!(
        "{:>8}  {:>12}  {:>12}  {:>20}  {:>20}",
        "messages", "replay sees", "replay blind", "replay+to_vec sees", "replay+to_vec blind"
    );
    for size in SIZES {
        let replay = format!("replay/{size}");
        let serialize = format!("serialize/{size}");
        println!(
            "{size:>8}  {:>12}  {:>12}  {:>20}  {:>20}",
            ratio(&replay, "replay/sees", "clone (baseline)"),
            ratio(&replay, "replay/blind", "clone (baseline)"),
            ratio(
                &serialize,
                "replay + to_vec/sees",
                "record to_vec (baseline)"
            ),
            ratio(
                &serialize,
                "replay + to_vec/blind",
                "record to_vec (baseline)"
            ),
        );
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
    // `cargo test --benches` runs each benchmark once, measuring nothing worth a ratio.
    if std::env::args().any(|arg| arg == "--bench") {
        print_ratios();
    }
}
