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

use std::hint::black_box;
use std::path::Path;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use transcript_replay::{replay_messages, Vision};
use transcript_replay_conformance::records::agent_record;

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// A benchmark group; large records take fewer, longer samples.
fn benchmark_group(c: &mut Criterion, name: String, size: usize) -> BenchmarkGroup<'_, WallTime> {
    let mut group = c.benchmark_group(name);
    if size >= 1_000 {
        group
            .sample_size(20)
            .measurement_time(std::time::Duration::from_secs(10));
    }
    group
}

fn benches(c: &mut Criterion) {
    for size in SIZES {
        let record = agent_record(size);
        let mut group = benchmark_group(c, format!("replay/{size}"), size);
        group.bench_function("clone (baseline)", |b| {
            b.iter(|| black_box(&record).clone())
        });
        for (name, vision) in [("sees", Vision::Sees), ("blind", Vision::Blind)] {
            group.bench_with_input(BenchmarkId::new("replay", name), &vision, |b, &vision| {
                b.iter(|| replay_messages(black_box(&record), vision));
            });
        }
        group.finish();

        let mut group = benchmark_group(c, format!("serialize/{size}"), size);
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

/// The time criterion reports for one benchmark in this run, in nanoseconds: its slope
/// estimate where it has one (the figure it prints), else its mean.
fn typical(group: &str, bench: &str) -> Option<f64> {
    let target = std::env::var_os("CARGO_TARGET_DIR").unwrap_or_else(|| "target".into());
    let path = Path::new(&target)
        .join("criterion")
        .join(group.replace('/', "_"))
        .join(bench)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let estimates: serde_json::Value = serde_json::from_str(&text).ok()?;
    estimates["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| estimates["mean"]["point_estimate"].as_f64())
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
        let ratio = |group: &str, bench: &str, baseline: &str| match (
            typical(group, bench),
            typical(group, baseline),
        ) {
            (Some(time), Some(base)) => format!("{:.3}", time / base),
            _ => "-".to_owned(),
        };
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
