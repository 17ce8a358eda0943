//! The crate's own body writer, as ratios against baselines measured in the same run:
//! `cargo bench -p transcript-replay-conformance --bench body_bytes`.
//!
//! - `writer/N`: an OpenAI body of a record of N messages written by `to_json`, and by
//!   `write_json` into a buffer reused from request to request, against
//!   `serde_json::to_vec` of the same body.
//! - `job/N`: the whole job a runtime runs every turn, the record's JSON text in memory to the
//!   OpenAI request body's bytes: `parse_record`, `openai::body` and `to_json` (and, to show
//!   what the writer gives, the same with `serde_json::to_vec`), against the path a runtime
//!   writes by hand: serde derive for the record, async-openai's request types for the body
//!   (the same prose for tool rounds and reasoning, images as data URLs), and
//!   `serde_json::to_vec`.

#![allow(missing_docs)]

mod common;

use std::hint::black_box;

use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestMessageContentPartImage,
    ChatCompletionRequestMessageContentPartText, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionRequestUserMessageContentPart,
    CreateChatCompletionRequest, ImageUrl,
};
use criterion::Criterion;
use serde::Deserialize;
use transcript_replay::{openai, parse_record, write_record, Priced, StoredMessage, Turn};
use transcript_replay_conformance::bench::ratio;
use transcript_replay_conformance::records::agent_record;

use common::sized_group;

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// The record as a runtime reads it by hand.
#[derive(Deserialize)]
struct HandFile {
    messages: Vec<HandMessage>,
}

#[derive(Deserialize)]
struct HandMessage {
    role: String,
    blocks: Vec<HandBlock>,
}

/// A block as a runtime reads it fast by hand: one struct with the fields of every type (an
/// internally tagged enum would buffer each block before reading it).
#[derive(Deserialize)]
struct HandBlock {
    #[serde(rename = "type")]
    kind: String,
    text: Option<String>,
    name: Option<String>,
    input: Option<Box<serde_json::value::RawValue>>,
    tool_name: Option<String>,
    output: Option<String>,
    is_error: Option<bool>,
    reasoning: Option<String>,
    media_type: Option<String>,
    data: Option<String>,
}

/// The hand-written job: the record's text to the body's bytes.
fn by_hand(text: &str) -> Vec<u8> {
    let record = serde_json::from_str::<HandFile>(text).unwrap().messages;
    let mut messages = Vec::with_capacity(record.len());
    for message in record {
        let mut parts = Vec::new();
        let mut prose = String::new();
        for block in message.blocks {
            match block.kind.as_str() {
                "text" => prose.push_str(block.text.as_deref().unwrap_or_default()),
                "tool_use" => {
                    let name = block.name.unwrap_or_default();
                    let input = match block.input {
                        Some(raw) if raw.get().starts_with('"') => {
                            serde_json::from_str::<String>(raw.get()).unwrap()
                        }
                        Some(raw) => raw.get().to_owned(),
                        None => String::new(),
                    };
                    prose.push_str(&format!("Tool use: {name}({input})"))
                }
                "tool_result" => prose.push_str(&format!(
                    "Tool result ({}{}):\n{}",
                    block.tool_name.unwrap_or_default(),
                    if block.is_error == Some(true) {
                        ", error"
                    } else {
                        ""
                    },
                    block.output.unwrap_or_default()
                )),
                "reasoning" => prose.push_str(&format!(
                    "[Reasoning]: {}",
                    block.reasoning.unwrap_or_default()
                )),
                _ => {
                    if !prose.is_empty() {
                        parts.push(ChatCompletionRequestUserMessageContentPart::Text(
                            ChatCompletionRequestMessageContentPartText {
                                text: std::mem::take(&mut prose),
                                prompt_cache_breakpoint: None,
                            },
                        ));
                    }
                    parts.push(ChatCompletionRequestUserMessageContentPart::ImageUrl(
                        ChatCompletionRequestMessageContentPartImage {
                            image_url: ImageUrl {
                                url: format!(
                                    "data:{};base64,{}",
                                    block.media_type.unwrap_or_default(),
                                    block.data.unwrap_or_default()
                                ),
                                detail: None,
                            },
                            prompt_cache_breakpoint: None,
                        },
                    ));
                }
            }
            prose.push_str("\n\n");
        }
        messages.push(match message.role.as_str() {
            "system" => ChatCompletionRequestMessage::System(ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(prose),
                name: None,
            }),
            "assistant" => {
                ChatCompletionRequestMessage::Assistant(ChatCompletionRequestAssistantMessage {
                    content: Some(ChatCompletionRequestAssistantMessageContent::Text(prose)),
                    ..Default::default()
                })
            }
            _ => ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
                content: if parts.is_empty() {
                    ChatCompletionRequestUserMessageContent::Text(prose)
                } else {
                    ChatCompletionRequestUserMessageContent::Array(parts)
                },
                name: None,
            }),
        });
    }
    let request = CreateChatCompletionRequest {
        model: "gpt-4.1".into(),
        messages,
        ..Default::default()
    };
    serde_json::to_vec(&request).unwrap()
}

fn ours(text: &str, write: fn(&openai::Body<'_>) -> Vec<u8>) -> Vec<u8> {
    let record = parse_record(text).unwrap();
    let live = [StoredMessage::user("Go on.")];
    let body = openai::body(&Turn::new(&record).live(&live)).unwrap();
    write(&body)
}

fn benches(criterion: &mut Criterion) {
    for size in SIZES {
        let record = agent_record(size);
        let live = [StoredMessage::user("Go on.")];
        let body = openai::body(&Turn::new(&record).live(&live)).unwrap();
        let mut group = sized_group(criterion, format!("writer/{size}"), size);
        group.bench_function("to_vec (baseline)", |b| {
            b.iter(|| serde_json::to_vec(black_box(&body)).unwrap())
        });
        group.bench_function("to_json", |b| {
            b.iter(|| black_box(&body).to_json().unwrap())
        });
        let mut buffer = Vec::new();
        group.bench_function("write_json, reused buffer", |b| {
            b.iter(|| {
                buffer.clear();
                black_box(&body).write_json(&mut buffer).unwrap();
                buffer.len()
            })
        });
        group.finish();
        drop(body);

        if size < 1_000 {
            continue;
        }
        let text = write_record(&record);
        let mut group = sized_group(criterion, format!("job/{size}"), size);
        group.bench_function("serde + async-openai (baseline)", |b| {
            b.iter(|| by_hand(black_box(&text)))
        });
        group.bench_function("parse_record + body + to_vec", |b| {
            b.iter(|| ours(black_box(&text), |body| serde_json::to_vec(body).unwrap()))
        });
        group.bench_function("parse_record + body + to_json", |b| {
            b.iter(|| ours(black_box(&text), |body| body.to_json().unwrap()))
        });
        group.finish();
    }
}

fn print_ratios() {
    println!("\nratios to the baseline measured in the same run (higher is faster):");
    println!(
        "{:>8}  {:>10}  {:>22}",
        "messages", "to_json", "write_json, reused"
    );
    for size in SIZES {
        let group = format!("writer/{size}");
        let speedup = |bench: &str| ratio(&group, "to_vec (baseline)", bench);
        println!(
            "{size:>8}  {:>10}  {:>22}",
            speedup("to_json"),
            speedup("write_json, reused buffer")
        );
    }
    println!(
        "{:>8}  {:>22}  {:>22}",
        "messages", "job with to_vec", "job with to_json"
    );
    for size in &SIZES[1..] {
        let group = format!("job/{size}");
        let speedup = |bench: &str| ratio(&group, "serde + async-openai (baseline)", bench);
        println!(
            "{size:>8}  {:>22}  {:>22}",
            speedup("parse_record + body + to_vec"),
            speedup("parse_record + body + to_json")
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
