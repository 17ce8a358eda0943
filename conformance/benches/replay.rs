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
use transcript_replay::{replay_messages, Block, Role, StoredMessage, TokenUsage, Vision};

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// A small deterministic generator, so every run measures the same record.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> usize {
        usize::try_from(self.next() % n).unwrap()
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() / 3 * 4 + 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize])
            } else {
                '='
            });
        }
    }
    out
}

/// Tool output as tools print it: lines of code and logs, with quotes and tabs to escape.
fn tool_output(rng: &mut Lcg, bytes: usize) -> String {
    const LINES: [&str; 4] = [
        "    let session = Session::new(\"user-42\", expires_at);\n",
        "test auth::login_keeps_session ... ok\n",
        "warning: unused variable: `now`\t--> auth/src/session.rs:31:9\n",
        "{\"level\":\"info\",\"msg\":\"request served\",\"ms\":12}\n",
    ];
    let mut out = String::with_capacity(bytes + 64);
    while out.len() < bytes {
        out.push_str(LINES[rng.below(4)]);
    }
    out
}

fn record(messages: usize) -> Vec<StoredMessage> {
    let mut rng = Lcg(7);
    let image: Vec<u8> = (0..75_000).map(|_| rng.next() as u8).collect();
    let image = base64(&image); // 100,000 characters
    (0..messages)
        .map(|i| {
            let (role, blocks) = match i % 4 {
                0 => {
                    let mut blocks = vec![Block::Text {
                        text: "The login test fails again; here is what CI shows.".into(),
                    }];
                    if i % 25 == 0 {
                        blocks.push(Block::Image {
                            media_type: "image/png".into(),
                            data: image.clone(),
                        });
                    }
                    (Role::User, blocks)
                }
                1 => (
                    Role::Assistant,
                    vec![
                        Block::Reasoning {
                            reasoning: "Run the failing test to see the message.".into(),
                        },
                        Block::ToolUse {
                            id: format!("toolu_{i}"),
                            name: "bash".into(),
                            input: r#"{"command":"cargo test -p auth"}"#.into(),
                        },
                    ],
                ),
                2 => {
                    let bytes = 2_000 + rng.below(14_000);
                    (
                        Role::Tool,
                        vec![Block::ToolResult {
                            tool_use_id: format!("toolu_{}", i - 1),
                            tool_name: "bash".into(),
                            output: tool_output(&mut rng, bytes),
                            is_error: i % 3 == 0,
                        }],
                    )
                }
                _ => (
                    Role::Assistant,
                    vec![Block::Text {
                        text:
                            "Line 31 compares local time with UTC; comparing the instants fixes it."
                                .into(),
                    }],
                ),
            };
            StoredMessage {
                role,
                blocks,
                usage: Some(TokenUsage {
                    input_tokens: 1_800,
                    output_tokens: 90,
                    cache_creation_input_tokens: 0,
                    cache_read_input_tokens: 1_536,
                }),
                timestamp: Some("2026-08-13T10:00:04Z".into()),
            }
        })
        .collect()
}

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
        let record = record(size);
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
