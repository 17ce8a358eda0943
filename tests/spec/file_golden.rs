//! Files in the record, byte for byte: a `file` block reads and writes back, replays as a
//! native file part or as the marker with its exact words, and each provider writes it in its
//! own native shape where its table takes the media type in that role (Anthropic `document`,
//! OpenAI Chat `file` and `input_audio`, Responses `input_file`, Gemini `inlineData`, Bedrock
//! `document` and `video` with a name made to its rule), else the marker naming the provider.

use transcript_replay::{
    cost::file_tokens, cost::image_tokens, parse_record, replay_messages, write_record, Block,
    Priced, Provider, Role, StoredMessage, Turn, Vision,
};

/// `%PDF-1.7` and two page objects.
const PDF: &str = "JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg==";
/// `hello`.
const TEXT: &str = "aGVsbG8=";
/// The header of a WAV of 2 seconds (32,000 bytes a second).
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAgD4AAAB9AAACABAAZGF0YQD6AAA=";
const MP4: &str = "AAAAGGZ0eXBtcDQy";
const DOCX: &str = "UEsDBBQABgAI";
const DOCX_TYPE: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

fn history() -> Vec<StoredMessage> {
    vec![StoredMessage::new(
        Role::User,
        vec![
            Block::text("Read these."),
            Block::named_file("contract.pdf", "application/pdf", PDF),
            Block::named_file("notes.txt", "text/plain", TEXT),
            Block::file("audio/wav", WAV),
            Block::file("video/mp4", MP4),
            Block::named_file("r.docx", DOCX_TYPE, DOCX),
        ],
    )]
}

fn body(provider: Provider, history: &[StoredMessage], vision: Vision) -> String {
    let live = [StoredMessage::user("Go.")];
    let turn = Turn::new(history)
        .live(&live)
        .without_preamble()
        .vision(vision);
    serde_json::to_string(&provider.body(&turn).unwrap()).unwrap()
}

#[test]
fn a_file_block_reads_and_writes_back_with_and_without_a_name() {
    let record = parse_record(concat!(
        r#"[{"role": "user", "blocks": ["#,
        r#"{"type": "file", "media_type": "application/pdf", "data": "JVBERi0=", "name": "a.pdf"},"#,
        r#"{"type": "file", "media_type": "text/plain", "data": "aGk="},"#,
        r#"{"type": "file", "media_type": "text/plain", "data": "aGk=", "name": null}]}]"#,
    ))
    .unwrap();
    assert_eq!(
        record[0].blocks,
        [
            Block::named_file("a.pdf", "application/pdf", "JVBERi0="),
            Block::file("text/plain", "aGk="),
            Block::file("text/plain", "aGk="),
        ]
    );
    let written = write_record(&record);
    assert!(written.contains(r#"{"type":"file","media_type":"text/plain","data":"aGk="}"#));
    assert_eq!(parse_record(&written).unwrap(), record);
}

#[test]
fn replay_shows_a_file_natively_or_names_why_not() {
    // (block, vision, the neutral part)
    let cases = [
        (
            Block::named_file("a.pdf", "application/pdf", "JVBERi0="),
            Vision::Sees,
            r#"{"type":"file","media_type":"application/pdf","data":"JVBERi0=","name":"a.pdf"}"#,
        ),
        (
            Block::named_file("a.pdf", "application/pdf", "JVBERi0="),
            Vision::Blind,
            r#"{"type":"text","text":"[File a.pdf (application/pdf) not shown: this model cannot view files]"}"#,
        ),
        (
            Block::file("application/pdf", "JVBERi0"),
            Vision::Sees,
            r#"{"type":"text","text":"[File (application/pdf) not shown: its stored data is not valid base64]"}"#,
        ),
        (
            Block::file("pdf", "JVBERi0="),
            Vision::Sees,
            r#"{"type":"text","text":"[File (pdf) not shown: its media type is not an image type]"}"#,
        ),
        (
            Block::named_file("x] [File y.pdf", "text/plain", "aGk="),
            Vision::Blind,
            r#"{"type":"text","text":"[File x\\u{5d} \\u{5b}File y.pdf (text/plain) not shown: this model cannot view files]"}"#,
        ),
    ];
    for (block, vision, part) in cases {
        let record = [StoredMessage::new(Role::User, vec![block.clone()])];
        let wire = serde_json::to_string(&replay_messages(&record, vision)).unwrap();
        assert_eq!(
            wire,
            format!(r#"[{{"role":"user","content":[{part}]}}]"#),
            "{block:?}"
        );
    }
}

#[test]
fn each_provider_writes_the_files_it_takes_natively_and_names_the_rest() {
    // (provider, the user message of the body, as written)
    let cases = [
        (
            Provider::OpenAi,
            concat!(
                r#"{"role":"user","content":[{"type":"text","text":"Read these."},"#,
                r#"{"type":"file","file":{"filename":"contract.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}},"#,
                r#"{"type":"text","text":"[File notes.txt (text/plain) not shown: OpenAI does not accept text/plain]"},"#,
                r#"{"type":"input_audio","input_audio":{"data":"UklGRiQAAABXQVZFZm10IBAAAAABAAEAgD4AAAB9AAACABAAZGF0YQD6AAA=","format":"wav"}},"#,
                r#"{"type":"text","text":"[File (video/mp4) not shown: OpenAI does not accept video/mp4]\n\n"#,
                r#"[File r.docx (application/vnd.openxmlformats-officedocument.wordprocessingml.d...) not shown: OpenAI does not accept application/vnd.openxmlformats-officedocument.wordprocessingml.d...]"}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            concat!(
                r#"{"role":"user","content":[{"type":"input_text","text":"Read these."},"#,
                r#"{"type":"input_file","filename":"contract.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="},"#,
                r#"{"type":"input_file","filename":"notes.txt","file_data":"data:text/plain;base64,aGVsbG8="},"#,
                r#"{"type":"input_text","text":"[File (audio/wav) not shown: OpenAI does not accept audio/wav]\n\n[File (video/mp4) not shown: OpenAI does not accept video/mp4]"},"#,
                r#"{"type":"input_file","filename":"r.docx","file_data":"data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,UEsDBBQABgAI"}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            concat!(
                r#"{"role":"user","content":[{"type":"text","text":"Read these."},"#,
                r#"{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="},"title":"contract.pdf"},"#,
                r#"{"type":"document","source":{"type":"text","media_type":"text/plain","data":"hello"},"title":"notes.txt"},"#,
                r#"{"type":"text","text":"[File (audio/wav) not shown: Anthropic does not accept audio/wav]\n\n[File (video/mp4) not shown: Anthropic does not accept video/mp4]\n\n"#,
                r#"[File r.docx (application/vnd.openxmlformats-officedocument.wordprocessingml.d...) not shown: Anthropic does not accept application/vnd.openxmlformats-officedocument.wordprocessingml.d...]"}]}"#,
            ),
        ),
        (
            Provider::Gemini,
            concat!(
                r#"{"role":"user","parts":[{"text":"Read these."},"#,
                r#"{"inlineData":{"mimeType":"application/pdf","data":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}},"#,
                r#"{"inlineData":{"mimeType":"text/plain","data":"aGVsbG8="}},"#,
                r#"{"inlineData":{"mimeType":"audio/wav","data":"UklGRiQAAABXQVZFZm10IBAAAAABAAEAgD4AAAB9AAACABAAZGF0YQD6AAA="}},"#,
                r#"{"inlineData":{"mimeType":"video/mp4","data":"AAAAGGZ0eXBtcDQy"}},"#,
                r#"{"text":"[File r.docx (application/vnd.openxmlformats-officedocument.wordprocessingml.d...) not shown: Gemini does not accept application/vnd.openxmlformats-officedocument.wordprocessingml.d...]\n\nGo."}]}"#,
            ),
        ),
        (
            Provider::Bedrock,
            concat!(
                r#"{"role":"user","content":[{"text":"Read these.\n\n[File contract.pdf (application/pdf)]"},"#,
                r#"{"document":{"format":"pdf","name":"contract pdf [1]","source":{"bytes":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}}},"#,
                r#"{"text":"[File notes.txt (text/plain)]"},"#,
                r#"{"document":{"format":"txt","name":"notes txt [2]","source":{"bytes":"aGVsbG8="}}},"#,
                r#"{"text":"[File (audio/wav) not shown: Bedrock does not accept audio/wav]\n\n[File (video/mp4)]"},"#,
                r#"{"video":{"format":"mp4","source":{"bytes":"AAAAGGZ0eXBtcDQy"}}},"#,
                r#"{"text":"[File r.docx (application/vnd.openxmlformats-officedocument.wordprocessingml.d...)]"},"#,
                r#"{"document":{"format":"docx","name":"r docx [4]","source":{"bytes":"UEsDBBQABgAI"}}},"#,
                r#"{"text":"Go."}]}"#,
            ),
        ),
    ];
    let history = history();
    for (provider, message) in cases {
        let body = body(provider, &history, Vision::Sees);
        assert!(body.contains(message), "{provider}: {body}");
    }
}

#[test]
fn a_blind_model_gets_every_file_as_the_marker_on_every_provider() {
    let history = history();
    for provider in Provider::ALL {
        let body = body(provider, &history, Vision::Blind);
        for (name, data) in [
            ("contract.pdf ", PDF),
            ("notes.txt ", TEXT),
            ("", WAV),
            ("", MP4),
            ("r.docx ", DOCX),
        ] {
            assert!(!body.contains(data), "{provider}: {body}");
            assert!(
                body.contains(&format!("[File {name}(")),
                "{provider}: {body}"
            );
        }
        assert_eq!(
            body.matches("not shown: this model cannot view files]")
                .count(),
            5,
            "{provider}: {body}"
        );
    }
}

#[test]
fn an_assistant_turns_file_goes_to_the_next_user_message_where_the_provider_takes_files_only_there()
{
    let history = [
        StoredMessage::system("Keep the contract in mind."),
        StoredMessage::user("Here."),
        StoredMessage::new(
            Role::Assistant,
            vec![Block::text("Made it."), Block::file("application/pdf", PDF)],
        ),
    ];
    // (provider, whether it takes files only in user messages)
    let cases = [
        (Provider::OpenAi, true),
        (Provider::OpenAiResponses, true),
        (Provider::Anthropic, true),
        (Provider::Bedrock, true),
        (Provider::Gemini, false),
    ];
    for (provider, user_only) in cases {
        let body = body(provider, &history, Vision::Sees);
        match user_only {
            true => {
                assert!(
                    body.contains("[File (application/pdf) not shown: it is shown in the next user message]"),
                    "{provider}: {body}"
                );
                assert!(
                    body.contains("[File (application/pdf) from an earlier turn]"),
                    "{provider}: {body}"
                );
            }
            false => assert!(
                body.contains(r#"{"role":"model","parts":[{"text":"Made it."},{"inlineData":{"mimeType":"application/pdf""#),
                "{provider}: {body}"
            ),
        }
    }
}

#[test]
fn each_providers_limits_keep_the_newest_files_and_say_which_limit() {
    // Bedrock takes at most five documents a request: of seven, the two oldest are markers.
    let blocks: Vec<Block> = (0..7)
        .map(|n| Block::named_file(format!("f{n}.pdf"), "application/pdf", PDF))
        .chain([Block::text("Compare.")])
        .collect();
    let history = [StoredMessage::new(Role::User, blocks)];
    let body = body(Provider::Bedrock, &history, Vision::Sees);
    assert_eq!(body.matches(r#""document":"#).count(), 5, "{body}");
    for n in 0..2 {
        assert!(body.contains(&format!(
            "[File f{n}.pdf (application/pdf) not shown: Bedrock takes at most 5 files a request, and the newest are kept]"
        )), "{body}");
    }
    assert!(body.contains(r#""name":"f6 pdf [5]""#), "{body}");
    // A file over a provider's size limit is the marker that says so.
    let big = "QUJD".repeat(6 * 1024 * 1024 / 4 + 1);
    let history = [StoredMessage::new(
        Role::User,
        vec![Block::text("Read."), Block::file("application/pdf", big)],
    )];
    assert!(body_of(Provider::Bedrock, &history).contains(
        "[File (application/pdf) not shown: it is larger than Bedrock's limit of 6 MB per file]"
    ));
    // Anthropic reads a text file as text: bytes that are not UTF-8 are the marker.
    let history = [StoredMessage::new(
        Role::User,
        vec![Block::text("Read."), Block::file("text/plain", "/w==")],
    )];
    assert!(body_of(Provider::Anthropic, &history)
        .contains("[File (text/plain) not shown: Anthropic takes text files only as UTF-8 text]"));
}

fn body_of(provider: Provider, history: &[StoredMessage]) -> String {
    body(provider, history, Vision::Sees)
}

#[test]
fn bedrock_document_names_keep_only_the_characters_bedrock_takes_and_are_unique() {
    // (stored name, the name sent)
    let cases = [
        ("q3_report.v2.pdf", "q3 report v2 pdf [1]"),
        ("  résumé  (final)  .pdf", "r sum (final) pdf [1]"),
        ("[draft]-1", "[draft]-1 [1]"),
        ("...", "document [1]"),
        ("", "document [1]"),
    ];
    for (name, sent) in cases {
        let history = [StoredMessage::new(
            Role::User,
            vec![
                Block::text("Read."),
                Block::named_file(name, "application/pdf", PDF),
            ],
        )];
        let body = body_of(Provider::Bedrock, &history);
        assert!(
            body.contains(&format!(r#""name":"{sent}""#)),
            "{name:?}: {body}"
        );
    }
    let long = "a".repeat(300);
    let history = [StoredMessage::new(
        Role::User,
        vec![
            Block::text("Read."),
            Block::named_file(long, "application/pdf", PDF),
        ],
    )];
    let body = body_of(Provider::Bedrock, &history);
    assert!(
        body.contains(&format!(r#""name":"{} [1]""#, "a".repeat(196))),
        "{body}"
    );
}

#[test]
fn files_are_priced_by_what_their_own_bytes_say() {
    let gemini = image_tokens("gemini-2").unwrap();
    let claude = image_tokens("claude").unwrap();
    // (rule, media type, data, tokens)
    let cases = [
        (gemini, "application/pdf", PDF, 2 * 258),
        (claude, "application/pdf", PDF, 2 * 3_000),
        (gemini, "audio/wav", WAV, 2 * 32),
        // No page to count: a page for every 2,000 bytes, at least one.
        (gemini, "application/pdf", "JVBERi0=", 258),
        (gemini, "video/mp4", MP4, 263),
        (gemini, "text/plain", TEXT, 1),
        (gemini, DOCX_TYPE, DOCX, 9),
    ];
    for (rule, media_type, data, tokens) in cases {
        assert_eq!(file_tokens(rule, media_type, data), tokens, "{media_type}");
    }
    // The estimate prices the native files by the same rule.
    let history = history();
    let live = [StoredMessage::user("Go.")];
    let turn = Turn::new(&history).live(&live);
    let body = Provider::Gemini.body(&turn).unwrap();
    let estimate = body.estimate(gemini);
    assert_eq!(estimate.files, 4);
    assert_eq!(
        estimate.file_tokens,
        2 * 258 + file_tokens(gemini, "text/plain", TEXT) + 2 * 32 + 263
    );
}

/// Each provider's reply calling `report` once, with the id of its call.
const CALLS: [(Provider, &str, &str); 5] = [
    (
        Provider::OpenAi,
        r#"{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"report","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#,
        "call_1",
    ),
    (
        Provider::OpenAiResponses,
        r#"{"status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"report","arguments":"{}","status":"completed"}]}"#,
        "call_1",
    ),
    (
        Provider::Anthropic,
        r#"{"content":[{"type":"tool_use","id":"toolu_1","name":"report","input":{}}],"stop_reason":"tool_use"}"#,
        "toolu_1",
    ),
    (
        Provider::Gemini,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc-1","name":"report","args":{}}}]},"finishReason":"STOP"}]}"#,
        "fc-1",
    ),
    (
        Provider::Bedrock,
        r#"{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_1","name":"report","input":{}}}]}},"stopReason":"tool_use"}"#,
        "tooluse_1",
    ),
];

#[test]
fn a_tools_file_goes_in_the_result_where_the_provider_takes_it_else_after_the_results() {
    // (provider, the results as written, to the end of the body)
    let cases = [
        (
            Provider::OpenAi,
            concat!(
                r#"{"role":"tool","tool_call_id":"call_1","content":"Made it."},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[File from the result of report (call_1)]"},"#,
                r#"{"type":"file","file":{"filename":"r.pdf","file_data":"data:application/pdf;base64,JVBERi0="}}]}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            concat!(
                r#"{"type":"function_call_output","call_id":"call_1","output":[{"type":"input_text","text":"Made it."},"#,
                r#"{"type":"input_file","filename":"r.pdf","file_data":"data:application/pdf;base64,JVBERi0="}]}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            concat!(
                r#"{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"Made it."},"#,
                r#"{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0="},"title":"r.pdf"}]}]}]}"#,
            ),
        ),
        (
            Provider::Gemini,
            concat!(
                r#"{"functionResponse":{"id":"fc-1","name":"report","response":{"output":"Made it."}}},"#,
                r#"{"text":"[File from the result of report (fc-1)]"},{"inlineData":{"mimeType":"application/pdf","data":"JVBERi0="}}]}]}"#,
            ),
        ),
        (
            Provider::Bedrock,
            concat!(
                r#"{"toolResult":{"toolUseId":"tooluse_1","content":[{"text":"Made it."},"#,
                r#"{"document":{"format":"pdf","name":"r pdf [1]","source":{"bytes":"JVBERi0="}}}]}}]}]}"#,
            ),
        ),
    ];
    let history = [StoredMessage::user("Make a report.")];
    let tools = [transcript_replay::Tool::new("report", "", r#"{"type":"object"}"#).unwrap()];
    for ((provider, results), (_, reply, id)) in cases.into_iter().zip(CALLS) {
        let reply = provider.read_reply(reply).unwrap();
        let outputs = [
            transcript_replay::ToolOutput::ok(id, "Made it.").with_named_file(
                "r.pdf",
                "application/pdf",
                "JVBERi0=",
            ),
        ];
        let turn = Turn::new(&history)
            .without_preamble()
            .tools(&tools)
            .round(&reply, &outputs);
        let body = serde_json::to_string(&provider.body(&turn).unwrap()).unwrap();
        assert!(body.ends_with(results), "{provider}: {body}");
        // A blind model gets the marker in the result, and the turn stores the file.
        let blind =
            serde_json::to_string(&provider.body(&turn.clone().vision(Vision::Blind)).unwrap())
                .unwrap();
        assert!(
            blind.contains("Made it.\\n\\n[File r.pdf (application/pdf) not shown: this model cannot view files]"),
            "{provider}: {blind}"
        );
        let stored = turn.store_interrupted(None).unwrap();
        assert_eq!(
            stored.blocks[2],
            Block::named_file("r.pdf", "application/pdf", "JVBERi0=")
        );
    }
}

#[test]
fn a_requests_file_data_and_pdf_pages_keep_the_newest_files_within_the_limits() {
    // Anthropic takes at most 100 PDF pages a request: of three PDFs of 40 pages, the oldest
    // is the marker.
    let pdf = |pages: usize| {
        let mut bytes = b"%PDF-1.7\n".to_vec();
        for _ in 0..pages {
            bytes.extend_from_slice(b"<</Type /Page>>\n");
        }
        base64(&bytes)
    };
    let blocks: Vec<Block> = (0..3)
        .map(|n| Block::named_file(format!("p{n}.pdf"), "application/pdf", pdf(40)))
        .chain([Block::text("Compare.")])
        .collect();
    let history = [StoredMessage::new(Role::User, blocks)];
    let body = body_of(Provider::Anthropic, &history);
    assert_eq!(body.matches(r#""type":"document""#).count(), 2, "{body}");
    assert!(body.contains(
        "[File p0.pdf (application/pdf) not shown: Anthropic takes at most 100 PDF pages a request, and the newest files are kept]"
    ));
    // OpenAI takes at most 50 MB of file data a request: of three files of 20 MB, the oldest
    // is the marker.
    let big = "QUJD".repeat(20 * 1024 * 1024 / 4);
    let blocks: Vec<Block> = (0..3)
        .map(|n| Block::named_file(format!("b{n}.pdf"), "application/pdf", big.clone()))
        .chain([Block::text("Compare.")])
        .collect();
    let history = [StoredMessage::new(Role::User, blocks)];
    let body = body_of(Provider::OpenAi, &history);
    assert_eq!(body.matches(r#""type":"file""#).count(), 2);
    assert!(body.contains(
        "[File b0.pdf (application/pdf) not shown: OpenAI takes at most 50 MB of file data a request, and the newest files are kept]"
    ));
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (at, &byte)| {
            word | u32::from(byte) << (16 - 8 * at)
        });
        for at in 0..4 {
            match at <= chunk.len() {
                true => out.push(char::from(ALPHABET[(word >> (18 - 6 * at)) as usize & 63])),
                false => out.push('='),
            }
        }
    }
    out
}

#[test]
fn a_tools_files_count_against_the_requests_limits_with_the_historys() {
    // 90 pages in the history and a tool's PDF of 20: Anthropic takes 100 pages a request.
    let pdf = |pages: usize| {
        let mut bytes = b"%PDF-1.7\n".to_vec();
        for _ in 0..pages {
            bytes.extend_from_slice(b"<</Type /Page>>\n");
        }
        base64(&bytes)
    };
    let history = [StoredMessage::new(
        Role::User,
        vec![
            Block::text("Compare with the report you make."),
            Block::named_file("old.pdf", "application/pdf", pdf(90)),
        ],
    )];
    let (_, reply, id) = CALLS[2];
    let reply = Provider::Anthropic.read_reply(reply).unwrap();
    let outputs = [
        transcript_replay::ToolOutput::ok(id, "Made it.").with_named_file(
            "new.pdf",
            "application/pdf",
            pdf(20),
        ),
    ];
    let tools = [transcript_replay::Tool::new("report", "", r#"{"type":"object"}"#).unwrap()];
    let turn = Turn::new(&history)
        .without_preamble()
        .tools(&tools)
        .round(&reply, &outputs);
    let body = serde_json::to_string(&Provider::Anthropic.body(&turn).unwrap()).unwrap();
    // The tool's file is the newest: the history's is the one withheld.
    assert_eq!(body.matches(r#""type":"document""#).count(), 1, "{body}");
    assert!(body.contains(r#""title":"new.pdf""#), "{body}");
    assert!(body.contains(
        "[File old.pdf (application/pdf) not shown: Anthropic takes at most 100 PDF pages a request, and the newest files are kept]"
    ), "{body}");
}
