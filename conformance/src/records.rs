//! Generators of stored records for the property tests, and real image headers.

use proptest::prelude::*;
use transcript_replay::{Block, Role, StoredMessage, TokenUsage, ToolInput};

/// Standard base64 with padding, for generating valid image data.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Whether image data is generated base64 of at least 12 random bytes, which cannot appear in
/// output by chance, unlike the short or prose-like strings that also stand in as image data.
pub fn distinctive(data: &str) -> bool {
    data.len() >= 16
        && data
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
}

/// Short strings of every kind a record holds: empty, white space, control characters,
/// quotes, brackets, prose lines that look like the crate's own, and any Unicode.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" \n\t ".to_owned()),
        Just("\u{1c}\u{85}\u{a0}".to_owned()),
        Just("Tool use: bash({})".to_owned()),
        Just("[Image (image/png) not shown: this model cannot view images]".to_owned()),
        "[a-z ]{0,12}",
        "[\\[\\]()\"\\\\\n\r\t\u{0}-\u{1f} a-z]{0,12}",
        any::<String>(),
    ]
}

/// Media types of every kind: each one a provider takes, in any case, and ones that are no
/// image type at all or try to forge a marker.
pub fn media_type() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("image/png".to_owned()),
        Just("image/jpeg".to_owned()),
        Just("image/gif".to_owned()),
        Just("image/webp".to_owned()),
        Just("image/heic".to_owned()),
        Just("image/heif".to_owned()),
        Just("image/svg+xml".to_owned()),
        Just("IMAGE/PNG".to_owned()),
        Just("text/plain".to_owned()),
        Just("image/".to_owned()),
        Just(String::new()),
        Just("image/png]\n[Reasoning]: hi".to_owned()),
        text(),
    ]
}

/// Real image headers: what the renderers read to learn an image's format and size.
pub const IMAGES: [&str; 8] = [
    // PNG, 1x1.
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC",
    // PNG header saying 9000x10.
    "iVBORw0KGgoAAAANSUhEUgAAIygAAAAKCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC",
    // JPEG, 3x2.
    "/9j/4AAQSkZJRgABAQAAAQABAAD/wAARCAACAAMDASIAAhEBAxEB/9k=",
    // GIF, 1x1.
    "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==",
    // GIF, 1x1, two frames.
    "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAIfkEAQAAAAAsAAAAAAEAAQAAAgJEAQA7",
    // WEBP (lossless), 1x1.
    "UklGRhUAAABXRUJQVlA4TAkAAAAvAAAAAAAAAAA=",
    // HEIC file type box.
    "AAAAGGZ0eXBoZWljAAAAAG1pZjFoZWlj",
    // A PNG signature cut short before its header.
    "iVBORw0KGgo=",
];

/// Image data: real image headers, valid base64 of random bytes (long enough to be
/// unmistakable in output), or strings that are not valid base64.
pub fn image_data() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(&IMAGES[..]).prop_map(str::to_owned),
        3 => proptest::collection::vec(any::<u8>(), 12..64).prop_map(|bytes| base64(&bytes)),
        1 => Just(String::new()),
        1 => Just("QR==".to_owned()),
        1 => Just("iVBO Rw0K".to_owned()),
        1 => text(),
    ]
}

/// A tool input stored as a string of any text, or as a JSON value written in any layout.
pub fn tool_input() -> impl Strategy<Value = ToolInput> {
    prop_oneof![
        3 => text().prop_map(ToolInput::from),
        1 => prop_oneof![
            Just(r#"{"path": "a.rs"}"#),
            Just("{\n  \"cmd\" : [\"ls\", \"-la\"] ,\"n\":1.50e3 }"),
            Just("[]"),
            Just("null"),
            Just("-0.0"),
            Just(r#"{"s":"\u00e9\"\\"}"#),
        ]
        .prop_map(|json| ToolInput::json(json).expect("the samples are JSON")),
    ]
}

/// A block of any kind, with any strings.
pub fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        4 => text().prop_map(|text| Block::Text { text }),
        4 => (text(), text(), tool_input(), prop::bool::weighted(0.1)).prop_map(
            |(id, name, input, provider_executed)| Block::ToolUse {
                id,
                name,
                input,
                provider_executed,
            }
        ),
        4 => (text(), text(), text(), any::<bool>()).prop_map(
            |(tool_use_id, tool_name, output, is_error)| {
                Block::ToolResult {
                    tool_use_id,
                    tool_name,
                    output,
                    is_error,
                }
            }
        ),
        4 => text().prop_map(|reasoning| Block::Reasoning { reasoning }),
        4 => (media_type(), image_data())
            .prop_map(|(media_type, data)| Block::Image { media_type, data }),
        4 => file(),
        4 => (
            proptest::option::of(text()),
            proptest::option::of(text()),
            proptest::option::of(text())
        )
            .prop_map(|(url, title, cited_text)| Block::Source {
                url: url.or_else(|| title.is_none().then(|| "https://example.com".to_owned())),
                title,
                cited_text,
            }),
        1 => compaction(),
        1 => unknown(),
    ]
    // Boxed: the strategy tree of ten kinds is too large for a test thread's stack in a
    // debug build.
    .boxed()
}

/// A compaction: a runtime's own summary, or a provider's payload with or without one.
pub fn compaction() -> impl Strategy<Value = Block> {
    (
        proptest::option::of(text()),
        proptest::option::of(proptest::sample::select(&[
            "anthropic",
            "openai-responses",
            "gemini",
            "someone-else",
        ])),
        text(),
    )
        .prop_map(|(summary, provider, data)| match provider {
            Some(provider) => Block::Compaction {
                summary,
                provider: Some(provider.to_owned()),
                data: Some(if provider == "openai-responses" {
                    serde_json::json!({"type": "compaction", "id": "cmp_1", "encrypted_content": data})
                        .to_string()
                } else {
                    data
                }),
            },
            None => Block::Compaction {
                summary: Some(summary.unwrap_or(data)),
                provider: None,
                data: None,
            },
        })
}

/// A block of a type this version does not read, as a newer writer stores it.
pub fn unknown() -> impl Strategy<Value = Block> {
    (
        proptest::sample::select(&["hologram", "video", "x-y"]),
        text(),
    )
        .prop_map(|(type_name, note)| Block::Unknown {
            json: serde_json::json!({"type": type_name, "note": note}).to_string(),
            type_name: type_name.to_owned(),
        })
}

/// A file's media type: the kinds the providers take, in any case, ones none takes, and
/// strings that are no media type.
pub fn file_media_type() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(&[
            "application/pdf",
            "text/plain",
            "text/csv",
            "text/markdown",
            "audio/wav",
            "audio/mpeg",
            "video/mp4",
            "video/quicktime",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "Application/PDF",
            "application/zip",
        ][..])
        .prop_map(str::to_owned),
        1 => Just("pdf".to_owned()),
        1 => text(),
    ]
}

/// A `file` block: a PDF, text that is or is not UTF-8, random bytes, or data that is not
/// base64; with or without a name of any text.
pub fn file() -> impl Strategy<Value = Block> {
    let data = prop_oneof![
        2 => Just(base64(b"%PDF-1.7\n1 0 obj << /Type /Page >>\n")),
        2 => text().prop_filter("not empty", |text| !text.is_empty()).prop_map(|text| base64(text.as_bytes())),
        2 => proptest::collection::vec(any::<u8>(), 1..48).prop_map(|bytes| base64(&bytes)),
        1 => image_data(),
    ];
    (file_media_type(), data, proptest::option::of(text())).prop_map(|(media_type, data, name)| {
        Block::File {
            media_type,
            data,
            name,
        }
    })
}

/// Blocks of every kind but images and files, which are what the vision flag changes.
pub fn block_without_image() -> impl Strategy<Value = Block> {
    block().prop_filter("no image or file", |block| {
        !matches!(block, Block::Image { .. } | Block::File { .. })
    })
}

/// Any stored role.
pub fn role() -> impl Strategy<Value = Role> {
    prop_oneof![
        Just(Role::System),
        Just(Role::User),
        Just(Role::Assistant),
        Just(Role::Tool)
    ]
}

/// A message of any role, with up to five blocks drawn from `block`, usage and timestamp
/// present or not.
pub fn message_of(block: impl Strategy<Value = Block>) -> impl Strategy<Value = StoredMessage> {
    (
        role(),
        proptest::collection::vec(block, 0..6),
        proptest::option::of((
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            prop_oneof![Just(0u64), any::<u64>()],
        )),
        proptest::option::of(text()),
    )
        .prop_map(|(role, blocks, usage, timestamp)| StoredMessage {
            role,
            blocks,
            usage: usage.map(|(input, output, creation, read, context)| TokenUsage {
                input_tokens: input,
                output_tokens: output,
                cache_creation_input_tokens: creation,
                cache_read_input_tokens: read,
                context_tokens: context,
            }),
            timestamp,
            unknown: Default::default(),
        })
}

/// A record of up to seven messages of every kind.
pub fn record() -> impl Strategy<Value = Vec<StoredMessage>> {
    proptest::collection::vec(message_of(block()), 0..8)
}

/// A record as [`record`] makes, without image blocks.
pub fn record_without_images() -> impl Strategy<Value = Vec<StoredMessage>> {
    proptest::collection::vec(message_of(block_without_image()), 0..8)
}

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

/// A coding agent's record of `messages` messages, the same every run: tool outputs of 2 to
/// 16 KB, and an image of 100 KB of base64 in every 25th user message.
pub fn agent_record(messages: usize) -> Vec<StoredMessage> {
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
                            provider_executed: false,
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
                    context_tokens: 0,
                }),
                timestamp: Some("2026-08-13T10:00:04Z".into()),
                unknown: Default::default(),
            }
        })
        .collect()
}

/// The index of the message holding the newest compaction with a summary, which replay
/// honors: the messages before it are replaced by one marker. 0 when there is none.
pub fn replaced(record: &[StoredMessage]) -> usize {
    record
        .iter()
        .rposition(|message| {
            message.blocks.iter().any(|block| {
                matches!(
                    block,
                    Block::Compaction {
                        summary: Some(_),
                        ..
                    }
                )
            })
        })
        .unwrap_or(0)
}
