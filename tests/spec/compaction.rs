//! Compaction: the newest compaction a target can read replaces the history before it. Replay
//! and every body send one user turn that says how many messages were replaced, then the
//! message holding the compaction on: natively on the provider that made it, as its summary's
//! prose elsewhere, and as a marker where it cannot be read (the history before it then sent
//! as it is).

use transcript_replay::{
    parse_record, replay_messages, Block, Provider, Role, StoredMessage, Turn, Vision,
};

/// The history and live turn as each provider is sent them, as JSON text, without the
/// preamble.
fn sent(provider: &str, record: &[StoredMessage]) -> String {
    let provider: Provider = provider.parse().unwrap();
    let live = [StoredMessage::user("Go on.")];
    let turn = Turn::new(record).live(&live).without_preamble();
    let body = serde_json::to_value(provider.body(&turn).unwrap()).unwrap();
    let key = match provider.id() {
        "openai-responses" => "input",
        "gemini" => "contents",
        _ => "messages",
    };
    body[key].to_string()
}

fn anthropic_compacted() -> Vec<StoredMessage> {
    parse_record(
        r#"[
  {"role": "user", "blocks": [{"type": "text", "text": "Read a.rs."}]},
  {"role": "assistant", "blocks": [{"type": "text", "text": "It is empty."}]},
  {"role": "user", "blocks": [{"type": "text", "text": "And b.rs?"}]},
  {"role": "assistant", "blocks": [
    {"type": "compaction", "summary": "a.rs is empty.", "provider": "anthropic", "data": "sig"},
    {"type": "text", "text": "b.rs has one line."}
  ]}
]"#,
    )
    .unwrap()
}

fn responses_compacted() -> Vec<StoredMessage> {
    parse_record(
        r#"[
  {"role": "user", "blocks": [{"type": "text", "text": "Read a.rs."}]},
  {"role": "assistant", "blocks": [
    {"type": "compaction", "provider": "openai-responses",
     "data": "{\"type\":\"compaction\",\"id\":\"cmp_1\",\"encrypted_content\":\"gAAA\"}"},
    {"type": "text", "text": "Done."}
  ]}
]"#,
    )
    .unwrap()
}

/// A Responses compaction whose payload is not a compaction item: not readable, so the
/// history before it is kept and the marker says so.
fn responses_not_an_item() -> Vec<StoredMessage> {
    parse_record(
        r#"[
  {"role": "user", "blocks": [{"type": "text", "text": "Read a.rs."}]},
  {"role": "assistant", "blocks": [
    {"type": "text", "text": "Before."},
    {"type": "compaction", "provider": "openai-responses", "data": "gAAAA-not-an-item"},
    {"type": "text", "text": "After."}
  ]}
]"#,
    )
    .unwrap()
}

/// An Anthropic compaction stored in a user message and one in a later system message:
/// Anthropic takes the block only in an assistant turn, so both go as their summary's prose.
fn anthropic_outside_assistant() -> Vec<StoredMessage> {
    parse_record(
        r#"[
  {"role": "user", "blocks": [{"type": "text", "text": "Read a.rs."}]},
  {"role": "user", "blocks": [
    {"type": "compaction", "summary": "a.rs is empty.", "provider": "anthropic", "data": "sig"}
  ]},
  {"role": "assistant", "blocks": [{"type": "text", "text": "Noted."}]},
  {"role": "system", "blocks": [
    {"type": "compaction", "summary": "Still empty.", "provider": "anthropic", "data": "sig2"},
    {"type": "text", "text": "Be brief."}
  ]}
]"#,
    )
    .unwrap()
}

/// A Responses compaction with a summary and no item, between two texts: one text, joined.
fn responses_summary_between_texts() -> Vec<StoredMessage> {
    parse_record(
        r#"[
  {"role": "assistant", "blocks": [
    {"type": "text", "text": "Before."},
    {"type": "compaction", "summary": "a.rs is empty.", "provider": "openai-responses", "data": "not an item"},
    {"type": "text", "text": "After."}
  ]}
]"#,
    )
    .unwrap()
}

/// A record, made afresh for each case.
type Record = fn() -> Vec<StoredMessage>;

/// (provider, the record, what is sent of it and the live turn).
#[test]
fn each_provider_is_sent_the_newest_compaction_it_reads_and_what_follows() {
    let cases: &[(&str, Record, &str)] = &[
        (
            "anthropic",
            anthropic_compacted,
            r#"[{"content":[{"text":"[3 earlier messages replaced by the summary below]","type":"text"}],"role":"user"},{"content":[{"content":"a.rs is empty.","encrypted_content":"sig","type":"compaction"},{"text":"b.rs has one line.","type":"text"}],"role":"assistant"},{"content":[{"text":"Go on.","type":"text"}],"role":"user"}]"#,
        ),
        (
            "openai",
            anthropic_compacted,
            r#"[{"content":"[3 earlier messages replaced by the summary below]","role":"user"},{"content":"[Summary of the earlier conversation]: a.rs is empty.\n\nb.rs has one line.","role":"assistant"},{"content":"Go on.","role":"user"}]"#,
        ),
        (
            "gemini",
            anthropic_compacted,
            r#"[{"parts":[{"text":"[3 earlier messages replaced by the summary below]"}],"role":"user"},{"parts":[{"text":"[Summary of the earlier conversation]: a.rs is empty.\n\nb.rs has one line."}],"role":"model"},{"parts":[{"text":"Go on."}],"role":"user"}]"#,
        ),
        (
            "bedrock",
            anthropic_compacted,
            r#"[{"content":[{"text":"[3 earlier messages replaced by the summary below]"}],"role":"user"},{"content":[{"text":"[Summary of the earlier conversation]: a.rs is empty.\n\nb.rs has one line."}],"role":"assistant"},{"content":[{"text":"Go on."}],"role":"user"}]"#,
        ),
        (
            "openai-responses",
            responses_compacted,
            r#"[{"content":"[1 earlier message replaced by the summary below]","role":"user"},{"encrypted_content":"gAAA","id":"cmp_1","type":"compaction"},{"content":"Done.","role":"assistant"},{"content":"Go on.","role":"user"}]"#,
        ),
        (
            "anthropic",
            responses_compacted,
            r#"[{"content":[{"text":"Read a.rs.","type":"text"}],"role":"user"},{"content":[{"text":"[Earlier conversation compacted by openai-responses: not readable here]\n\nDone.","type":"text"}],"role":"assistant"},{"content":[{"text":"Go on.","type":"text"}],"role":"user"}]"#,
        ),
        (
            "openai-responses",
            responses_not_an_item,
            r#"[{"content":"Read a.rs.","role":"user"},{"content":"Before.\n\n[Earlier conversation compacted by openai-responses: not readable here]\n\nAfter.","role":"assistant"},{"content":"Go on.","role":"user"}]"#,
        ),
        (
            "anthropic",
            anthropic_outside_assistant,
            r#"[{"content":[{"text":"[3 earlier messages replaced by the summary below]","type":"text"}],"role":"user"},{"content":[{"text":"[System]: [Summary of the earlier conversation]: Still empty.\n\nBe brief.","type":"text"}],"role":"user"},{"content":[{"text":"Go on.","type":"text"}],"role":"user"}]"#,
        ),
        (
            "anthropic",
            || anthropic_outside_assistant()[..3].to_vec(),
            r#"[{"content":[{"text":"[1 earlier message replaced by the summary below]","type":"text"}],"role":"user"},{"content":[{"text":"[Summary of the earlier conversation]: a.rs is empty.","type":"text"}],"role":"user"},{"content":[{"text":"Noted.","type":"text"}],"role":"assistant"},{"content":[{"text":"Go on.","type":"text"}],"role":"user"}]"#,
        ),
        (
            "openai-responses",
            responses_summary_between_texts,
            r#"[{"content":"Before.\n\n[Summary of the earlier conversation]: a.rs is empty.\n\nAfter.","role":"assistant"},{"content":"Go on.","role":"user"}]"#,
        ),
    ];
    let mut failures = Vec::new();
    for (provider, record, expected) in cases {
        let got = sent(provider, &record());
        if got != *expected {
            failures.push(format!(
                "{provider}:\n  got      {got}\n  expected {expected}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn replay_honors_the_newest_summary_and_marks_a_payload_it_cannot_read() {
    let record = [
        StoredMessage::user("one"),
        StoredMessage::new(Role::User, vec![Block::compaction("first summary")]),
        StoredMessage::user("two"),
        StoredMessage::new(
            Role::Assistant,
            vec![Block::compaction("second summary"), Block::text("three")],
        ),
        StoredMessage::new(
            Role::Assistant,
            vec![Block::provider_compaction(Provider::Anthropic, "sig", None)],
        ),
    ];
    let wire = serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap();
    assert_eq!(
        wire,
        concat!(
            r#"[{"role":"user","content":[{"type":"text","text":"[3 earlier messages replaced by the summary below]"}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"[Summary of the earlier conversation]: second summary\n\nthree"}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"[Earlier conversation compacted by anthropic: not readable here]"}]}]"#,
        )
    );
}

#[test]
fn a_body_that_sends_anthropic_its_own_compaction_names_the_beta() {
    let record = anthropic_compacted();
    let turn = Turn::new(&record);
    let beta = ("anthropic-beta", "compact-2026-01-12".to_owned());
    assert!(Provider::Anthropic.request(&turn).headers.contains(&beta));
    let plain = [StoredMessage::user("Hi")];
    let turn = Turn::new(&plain);
    assert!(!Provider::Anthropic.request(&turn).headers.contains(&beta));
}

#[test]
fn a_compaction_written_back_reads_the_same() {
    let record = anthropic_compacted();
    let written = serde_json::to_string(&record).unwrap();
    assert!(written.contains(
        r#"{"type":"compaction","summary":"a.rs is empty.","provider":"anthropic","data":"sig"}"#
    ));
    assert_eq!(parse_record(&written).unwrap(), record);
}

#[test]
fn a_compaction_with_neither_summary_nor_payload_is_an_error() {
    let error = parse_record(r#"[{"role": "user", "blocks": [{"type": "compaction"}]}]"#)
        .unwrap_err()
        .to_string();
    assert!(
        error.ends_with("missing field `summary` in a compaction block"),
        "{error}"
    );
}

/// (provider, a reply that compacted, the compaction block it stores).
#[test]
fn a_provider_s_compaction_is_read_whole_and_streamed_alike() {
    let anthropic = r#"{"role":"assistant","content":[{"type":"compaction","content":"a.rs is empty.","encrypted_content":"sig"},{"type":"text","text":"Next."}],"stop_reason":"compaction","usage":{"input_tokens":10,"output_tokens":2,"iterations":[{"type":"compaction","input_tokens":150000,"output_tokens":900},{"type":"message","input_tokens":10,"output_tokens":2}]}}"#;
    let reply = Provider::Anthropic.read_reply(anthropic).unwrap();
    assert_eq!(
        reply.message.blocks,
        [
            Block::Compaction {
                summary: Some("a.rs is empty.".into()),
                provider: Some("anthropic".into()),
                data: Some("sig".into()),
            },
            Block::text("Next."),
        ]
    );
    // The turn goes on after the pause.
    assert_eq!(reply.stop, transcript_replay::StopReason::Paused);
    // What the turn cost: every sampling step.
    let usage = reply.message.usage.unwrap();
    assert_eq!((usage.input_tokens, usage.output_tokens), (150_010, 902));

    let events = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":10,\"output_tokens\":0}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"compaction\",\"content\":null}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"compaction_delta\",\"content\":\"a.rs is \",\"encrypted_content\":null}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"compaction_delta\",\"content\":\"empty.\",\"encrypted_content\":\"sig\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Next.\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"compaction\"},\"usage\":{\"output_tokens\":2}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );
    let mut reader = Provider::Anthropic.stream();
    reader.feed(events.as_bytes()).unwrap();
    let streamed = reader.finish().unwrap();
    assert_eq!(streamed.message.blocks, reply.message.blocks);
    assert_eq!(streamed.stop, reply.stop);
    let native: Vec<&str> = streamed.native().collect();
    let native = native.join(",");
    assert!(
        native.contains(
            r#"{"type":"compaction","content":"a.rs is empty.","encrypted_content":"sig"}"#
        ),
        "{native}"
    );

    let responses = r#"{"status":"completed","output":[{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA","created_by":"openai"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Next."}]}]}"#;
    let reply = Provider::OpenAiResponses.read_reply(responses).unwrap();
    assert_eq!(
        reply.message.blocks[0],
        Block::Compaction {
            summary: None,
            provider: Some("openai-responses".into()),
            data: Some(
                r#"{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA","created_by":"openai"}"#
                    .into()
            ),
        }
    );
    // Sent back with the fields the request takes.
    let record = [StoredMessage::user("Go."), reply.message];
    let live = [StoredMessage::user("And then?")];
    let turn = Turn::new(&record).live(&live).without_preamble();
    let body = serde_json::to_string(&Provider::OpenAiResponses.body(&turn).unwrap()).unwrap();
    assert!(
        body.contains(r#"{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA"}"#),
        "{body}"
    );
}

/// (provider, the compaction asked, the body's `context_management`, or the error's start).
#[test]
fn compaction_is_asked_where_the_provider_compacts_and_refused_by_name_elsewhere() {
    use transcript_replay::Compaction;
    let record = [StoredMessage::user("Hi")];
    let full = || {
        Compaction::at(150_000)
            .instructions("Keep the paths.")
            .pause()
    };
    let cases: Vec<(Provider, Compaction, Result<&str, &str>)> = vec![
        (
            Provider::Anthropic,
            full(),
            Ok(
                r#"{"edits":[{"instructions":"Keep the paths.","pause_after_compaction":true,"trigger":{"type":"input_tokens","value":150000},"type":"compact_20260112"}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            Compaction::at(50_000),
            Ok(
                r#"{"edits":[{"trigger":{"type":"input_tokens","value":50000},"type":"compact_20260112"}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            Compaction::at(1_000),
            Ok(r#"[{"compact_threshold":1000,"type":"compaction"}]"#),
        ),
        (
            Provider::OpenAiResponses,
            Compaction::at(999),
            Err("OpenAI takes a compaction threshold of at least 1,000 input tokens"),
        ),
        (
            Provider::OpenAiResponses,
            full(),
            Err("OpenAI takes a compaction threshold alone"),
        ),
        (
            Provider::OpenAi,
            Compaction::at(50_000),
            Err("OpenAI takes no compaction of its own"),
        ),
        (
            Provider::Gemini,
            Compaction::at(50_000),
            Err("Gemini takes no compaction of its own"),
        ),
        (
            Provider::Bedrock,
            Compaction::at(50_000),
            Err("Bedrock takes no compaction of its own"),
        ),
    ];
    for (provider, ask, expected) in cases {
        let turn = Turn::new(&record)
            .without_preamble()
            .model("m")
            .max_output(1024)
            .compaction(ask);
        let got = provider
            .body(&turn)
            .map(|body| serde_json::to_value(&body).unwrap()["context_management"].to_string())
            .map_err(|error| error.to_string());
        match (&got, expected) {
            (Ok(got), Ok(expected)) => assert_eq!(got, expected, "{provider:?}"),
            (Err(got), Err(expected)) => assert!(got.starts_with(expected), "{provider:?}: {got}"),
            (got, expected) => panic!("{provider:?}: got {got:?}, expected {expected:?}"),
        }
    }
}

#[test]
fn the_compaction_beta_is_named_on_the_ask_and_on_a_paused_compaction_in_the_round() {
    use transcript_replay::{Compaction, ToolOutput};
    let beta = ("anthropic-beta", "compact-2026-01-12".to_owned());
    let record = [StoredMessage::user("Hi")];
    let asked = Turn::new(&record).compaction(Compaction::at(50_000));
    assert!(Provider::Anthropic.request(&asked).headers.contains(&beta));
    // A reply paused after compacting goes back as a round: its compaction block is sent
    // natively, so the request names the beta though the record holds none.
    let paused = Provider::Anthropic
        .read_reply(r#"{"role":"assistant","content":[{"type":"compaction","content":"Said hi.","encrypted_content":"sig"}],"stop_reason":"compaction"}"#)
        .unwrap();
    let outputs: [ToolOutput; 0] = [];
    let round = Turn::new(&record).round(&paused, &outputs);
    assert!(Provider::Anthropic.request(&round).headers.contains(&beta));
}

#[test]
fn the_summary_request_is_the_history_then_the_question_with_no_tools() {
    let history = [
        StoredMessage::user("Read a.rs."),
        StoredMessage::assistant("It is empty."),
    ];
    let live = [StoredMessage::user("And b.rs?")];
    let tools =
        [transcript_replay::Tool::new("read", "Reads a file.", r#"{"type":"object"}"#).unwrap()];
    let question = format!("{}\n\nKeep the paths.", transcript_replay::SUMMARY_REQUEST);
    let expected = [
        (
            "openai",
            format!(
                r#"{{"model":"m","messages":[{{"role":"user","content":"Read a.rs."}},{{"role":"assistant","content":"It is empty."}},{{"role":"user","content":{}}}]}}"#,
                serde_json::to_string(&question).unwrap()
            ),
        ),
        (
            "anthropic",
            format!(
                r#"{{"model":"m","max_tokens":1000,"messages":[{{"role":"user","content":[{{"type":"text","text":"Read a.rs."}}]}},{{"role":"assistant","content":[{{"type":"text","text":"It is empty."}}]}},{{"role":"user","content":[{{"type":"text","text":{}}}]}}]}}"#,
                serde_json::to_string(&question).unwrap()
            ),
        ),
    ];
    for (provider, expected) in expected {
        let provider: Provider = provider.parse().unwrap();
        let ask = transcript_replay::Compaction::at(100_000).instructions("Keep the paths.");
        let turn = Turn::new(&history)
            .live(&live)
            .tools(&tools)
            .without_preamble()
            .model("m")
            .max_output(1000)
            .compaction(ask);
        let summary = turn.summary_request();
        let body = provider.body(&summary).unwrap();
        let body = serde_json::to_string(&body).unwrap();
        let body = match provider.id() {
            // Chat's limit is its own field; compare the rest.
            "openai" => body.replace(r#","max_completion_tokens":1000"#, ""),
            _ => body,
        };
        assert_eq!(body, expected, "{provider}");
    }
}

#[test]
fn a_summary_reply_becomes_a_compaction_every_provider_honors() {
    let reply = transcript_replay::anthropic::read_reply(
        r#"{"role": "assistant", "content": [{"type": "text", "text": "a.rs is empty."}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 50, "output_tokens": 5}}"#,
    )
    .unwrap();
    let mut record = vec![
        StoredMessage::user("Read a.rs."),
        StoredMessage::assistant("It is empty."),
    ];
    record.push(StoredMessage::compaction(&reply));
    assert_eq!(record[2].blocks, [Block::compaction("a.rs is empty.")]);
    for provider in [
        "openai",
        "anthropic",
        "gemini",
        "bedrock",
        "openai-responses",
    ] {
        let sent = sent(provider, &record);
        assert!(
            sent.contains("[2 earlier messages replaced by the summary below]")
                && sent.contains("[Summary of the earlier conversation]: a.rs is empty.")
                && !sent.contains("Read a.rs."),
            "{provider}: {sent}"
        );
    }
}

/// A Responses compact reply, as the pinned spec's example has it.
const COMPACT_REPLY: &str = r#"{"id":"resp_001","object":"response.compaction","created_at":1764967971,"output":[{"id":"msg_000","type":"message","status":"completed","content":[{"type":"input_text","text":"Read a.rs."}],"role":"user"},{"id":"cmp_001","type":"compaction","encrypted_content":"gAAA"}],"usage":{"input_tokens":139,"output_tokens":438}}"#;

#[test]
fn the_compact_request_is_the_model_and_the_input_and_only_responses_takes_one() {
    let history = [
        StoredMessage::user("Read a.rs."),
        StoredMessage::assistant("It is empty."),
    ];
    let turn = Turn::new(&history)
        .model("gpt-5.1-codex-max")
        .instructions("Be brief.");
    let responses: Provider = "openai-responses".parse().unwrap();
    let request = responses.compact_request(&turn).unwrap();
    assert_eq!(
        serde_json::to_string(&request).unwrap(),
        r#"{"method":"POST","path":"/v1/responses/compact","headers":{"content-type":"application/json"},"auth":"bearer","base_url":"https://api.openai.com","body":{"model":"gpt-5.1-codex-max","input":[{"role":"user","content":"Read a.rs."},{"role":"assistant","content":"It is empty."}]}}"#
    );
    for provider in ["openai", "anthropic", "gemini", "bedrock", "deepseek"] {
        let provider: Provider = provider.parse().unwrap();
        let error = provider.compact_request(&turn).unwrap_err().to_string();
        assert!(
            error.contains("takes no compact request"),
            "{provider}: {error}"
        );
    }
}

#[test]
fn a_compact_reply_is_sent_back_on_responses_in_place_of_the_history_and_unreadable_elsewhere() {
    let reply = transcript_replay::openai_responses::read_compaction(COMPACT_REPLY).unwrap();
    let mut record = vec![
        StoredMessage::user("Read a.rs."),
        StoredMessage::assistant("It is empty."),
    ];
    record.push(reply.message.clone());
    let [Block::Compaction {
        provider,
        data,
        summary: None,
    }] = reply.message.blocks.as_slice()
    else {
        panic!("one compaction: {:?}", reply.message.blocks)
    };
    assert_eq!(provider.as_deref(), Some("openai-responses"));
    let output = &COMPACT_REPLY[COMPACT_REPLY.find(r#"[{"id":"msg_000""#).unwrap()
        ..COMPACT_REPLY.find(r#","usage""#).unwrap()];
    assert_eq!(data.as_deref(), Some(output));
    assert_eq!(
        sent("openai-responses", &record),
        r#"[{"content":"[2 earlier messages replaced by the summary below]","role":"user"},{"content":[{"text":"Read a.rs.","type":"input_text"}],"id":"msg_000","role":"user","status":"completed","type":"message"},{"encrypted_content":"gAAA","id":"cmp_001","type":"compaction"},{"content":"Go on.","role":"user"}]"#
    );
    let elsewhere = sent("anthropic", &record);
    assert!(
        elsewhere.contains("Read a.rs.")
            && elsewhere.contains(
                "[Earlier conversation compacted by openai-responses: not readable here]"
            ),
        "{elsewhere}"
    );
    // Not a compacted response: an error that says so.
    let error = transcript_replay::openai_responses::read_compaction(
        r#"{"object":"response","output":[]}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("not a compacted response"), "{error}");
}
