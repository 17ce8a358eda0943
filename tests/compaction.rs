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
