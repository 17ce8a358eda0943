//! The crate's own body writer and reader, as ratios against baselines measured in the same
//! run: `cargo bench -p transcript-replay-conformance --bench body_bytes`.
//!
//! - `writer/N`: an OpenAI body of a record of N messages written by `to_json`, and by
//!   `write_json` into a buffer reused from request to request, against
//!   `serde_json::to_vec` of the same body.
//! - `job/N`: the whole job a runtime runs every turn, the record's JSON text in memory to the
//!   OpenAI request body's bytes: `parse_record`, `openai::body` and `to_json` (and, to show
//!   what the writer gives, the same with `serde_json::to_vec`), against the path a runtime
//!   writes by hand: serde derive for the record, async-openai's message types for the body
//!   (the same preamble, the same prose for tool rounds and reasoning, images as data URLs),
//!   and `serde_json::to_vec`. Both give the same bytes, asserted before anything is timed.
//! - Then the job and its parts timed in pairs, interleaved on CPU time, 31 rounds a size:
//!   against the hand-written path, with `to_vec` instead of `to_json` (what the writer
//!   gives), with the serde reader alone instead of `parse_record` (what the fast reader
//!   gives), and `parse_record` alone against the serde reader alone.
//!
//! The record is the agent record of the other benchmarks with its images made PNGs, so that
//! both paths send every image.

#![allow(missing_docs)]

mod common;
mod paired;

use std::fmt::Write as _;
use std::hint::black_box;

use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestMessageContentPartImage,
    ChatCompletionRequestMessageContentPartText, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionRequestUserMessageContentPart, ImageUrl,
};
use criterion::Criterion;
use serde::{Deserialize, Serialize};
use serde_json::json;
use transcript_replay::{
    openai, parse_record, parse_record_by_serde, write_record, Block, Priced, StoredMessage, Turn,
    REPLAY_PREAMBLE,
};
use transcript_replay_conformance::bench::ratio;
use transcript_replay_conformance::records::agent_record;

use common::sized_group;
use paired::paired;

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
#[derive(Deserialize, Default)]
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

/// The hand-written job: the record's text to the body's bytes, written to give exactly the
/// crate's bytes on this record (checked by [`assert_same_bytes`]): the same preamble, the
/// same prose for tool rounds and reasoning, tool rounds as the assistant's, images (all of
/// them valid PNG here) as data URLs after the text before them.
fn by_hand(text: &str) -> Vec<u8> {
    let record = serde_json::from_str::<HandFile>(text).unwrap().messages;
    let mut messages = Vec::with_capacity(record.len() + 2);
    messages.push(ChatCompletionRequestMessage::System(
        ChatCompletionRequestSystemMessage {
            content: ChatCompletionRequestSystemMessageContent::Text(REPLAY_PREAMBLE.into()),
            name: None,
        },
    ));
    let live = HandMessage {
        role: "user".into(),
        blocks: vec![HandBlock {
            kind: "text".into(),
            text: Some("Go on.".into()),
            ..HandBlock::default()
        }],
    };
    for message in record.into_iter().chain([live]) {
        let mut parts = Vec::new();
        let mut prose = String::new();
        for block in message.blocks {
            if block.kind == "image" {
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
                continue;
            }
            if !prose.is_empty() {
                prose.push_str("\n\n");
            }
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
                    write!(prose, "Tool use: {name}({input})").unwrap();
                }
                "tool_result" => write!(
                    prose,
                    "{} ({}): {}",
                    if block.is_error == Some(true) {
                        "Error"
                    } else {
                        "Result"
                    },
                    block.tool_name.unwrap_or_default(),
                    block.output.unwrap_or_default()
                )
                .unwrap(),
                _ => write!(
                    prose,
                    "[Reasoning]: {}",
                    block.reasoning.unwrap_or_default()
                )
                .unwrap(),
            }
        }
        messages.push(match message.role.as_str() {
            "system" => ChatCompletionRequestMessage::System(ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(prose),
                name: None,
            }),
            "user" => ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
                content: if parts.is_empty() {
                    ChatCompletionRequestUserMessageContent::Text(prose)
                } else {
                    if !prose.is_empty() {
                        parts.push(ChatCompletionRequestUserMessageContentPart::Text(
                            ChatCompletionRequestMessageContentPartText {
                                text: prose,
                                prompt_cache_breakpoint: None,
                            },
                        ));
                    }
                    ChatCompletionRequestUserMessageContent::Array(parts)
                },
                name: None,
            }),
            // A tool round is the assistant's own work.
            _ => ChatCompletionRequestMessage::Assistant(ChatCompletionRequestAssistantMessage {
                content: Some(ChatCompletionRequestAssistantMessageContent::Text(prose)),
                ..Default::default()
            }),
        });
    }
    serde_json::to_vec(&HandRequest {
        model: MODEL,
        messages,
    })
    .unwrap()
}

const MODEL: &str = "gpt-4.1";

/// The request as a runtime writes it by hand: async-openai's message types in a request of
/// the two fields it sends, in the order the crate writes them (async-openai's own request
/// type writes `model` last and cannot give the same bytes).
#[derive(Serialize)]
struct HandRequest {
    model: &'static str,
    messages: Vec<ChatCompletionRequestMessage>,
}

/// The agent record with each image's data made a PNG's (its first bytes the PNG signature),
/// so that both paths send every image.
fn with_png_images(mut record: Vec<StoredMessage>) -> Vec<StoredMessage> {
    for message in &mut record {
        for block in &mut message.blocks {
            if let Block::Image { data, .. } = block {
                data.replace_range(..12, "iVBORw0KGgoA");
            }
        }
    }
    record
}

/// The crate's job: `parse_record`, `openai::body`, and `write`.
fn ours(text: &str, write: fn(&openai::Body<'_>) -> Vec<u8>) -> Vec<u8> {
    ours_reading(text, parse_record, write)
}

/// The crate's job with the reader given: to measure what each part gives.
fn ours_reading(
    text: &str,
    read: fn(&str) -> Result<Vec<StoredMessage>, transcript_replay::RecordError>,
    write: fn(&openai::Body<'_>) -> Vec<u8>,
) -> Vec<u8> {
    let record = read(text).unwrap();
    let live = [StoredMessage::user("Go on.")];
    let fields = json!({ "model": MODEL });
    let turn = Turn::new(&record).fields(&fields).live(&live);
    let body = openai::body(&turn).unwrap();
    write(&body)
}

/// The two paths do the same job: the same bytes, or the comparison means nothing.
fn assert_same_bytes(text: &str) {
    let hand = by_hand(text);
    let ours = ours(text, |body| body.to_json().unwrap());
    if hand != ours {
        let at = hand.iter().zip(&ours).take_while(|(a, b)| a == b).count();
        let show = |bytes: &[u8]| {
            String::from_utf8_lossy(&bytes[at.saturating_sub(80)..(at + 80).min(bytes.len())])
                .into_owned()
        };
        panic!(
            "the hand-written path writes other bytes, from byte {at}:\n hand: {}\n ours: {}",
            show(&hand),
            show(&ours)
        );
    }
}

fn benches(criterion: &mut Criterion) {
    for size in SIZES {
        let record = with_png_images(agent_record(size));
        let live = [StoredMessage::user("Go on.")];
        let turn = Turn::new(&record).live(&live);
        let body = openai::body(&turn).unwrap();
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
        assert_same_bytes(&text);
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

/// The job and the reading alone, timed in pairs (see [`paired`]): the way a held-out harness
/// times them, and steadier than criterion's figures on a shared machine.
fn print_paired() {
    println!("\npaired rounds, baseline time / ours (higher is faster):");
    for size in &SIZES[1..] {
        let text = write_record(&with_png_images(agent_record(*size)));
        assert_same_bytes(&text);
        let job = paired(
            31,
            || by_hand(&text),
            || ours(&text, |body| body.to_json().unwrap()),
        );
        println!("{size:>8}  the job against serde + async-openai: {job}");
        let to_json = |body: &openai::Body<'_>| body.to_json().unwrap();
        let to_vec = |body: &openai::Body<'_>| serde_json::to_vec(body).unwrap();
        let writer = paired(31, || ours(&text, to_vec), || ours(&text, to_json));
        println!("{size:>8}  what the writer gives the job (to_vec / to_json): {writer}");
        let reader = paired(
            31,
            || ours_reading(&text, parse_record_by_serde, to_json),
            || ours(&text, to_json),
        );
        println!("{size:>8}  what the fast reader gives the job (serde reader / fast): {reader}");
        let read = paired(31, || parse_record_by_serde(&text), || parse_record(&text));
        println!("{size:>8}  parse_record against the serde reader alone: {read}");
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion.final_summary();
    // `cargo test --benches` runs each benchmark once, measuring nothing worth a ratio.
    if std::env::args().any(|arg| arg == "--bench") {
        print_ratios();
        print_paired();
    }
}
