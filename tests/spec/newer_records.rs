//! Records that outlive their writer: a block of a type this version does not know is kept as
//! it was and written back byte for byte, replayed as a marker that says so, and sent to every
//! provider; a lone surrogate escape reads as the replacement character.

use transcript_replay::{parse_record, replay_messages, Block, Provider, Turn, Vision};

const NEWER: &str = r#"[{"role":"user","blocks":[{"type":"text","text":"Look."},{"type":"hologram","frames": [1, 2],"note":"é"}]}]"#;

#[test]
fn an_unknown_block_is_kept_and_written_back_byte_for_byte() {
    let record = parse_record(NEWER).unwrap();
    assert!(matches!(
        &record[0].blocks[1],
        Block::Unknown { type_name, .. } if type_name == "hologram"
    ));
    assert_eq!(serde_json::to_string(&record).unwrap(), NEWER);
}

#[test]
fn an_unknown_block_replays_as_a_marker_that_names_its_type() {
    let record = parse_record(NEWER).unwrap();
    let wire = serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap();
    assert_eq!(
        wire,
        r#"[{"role":"user","content":[{"type":"text","text":"Look.\n\n[Not kept: a hologram block this version does not read]"}]}]"#
    );
}

#[test]
fn every_provider_takes_a_record_with_an_unknown_block() {
    let record = parse_record(NEWER).unwrap();
    let turn = Turn::new(&record).without_preamble();
    for provider in Provider::ALL {
        let body = serde_json::to_string(&provider.body(&turn).unwrap()).unwrap();
        assert!(
            body.contains("[Not kept: a hologram block this version does not read]"),
            "{provider}: {body}"
        );
        assert!(!body.contains("frames"), "{provider}: {body}");
    }
}

/// (the string as stored, what it reads as).
const SURROGATES: &[(&str, &str)] = &[
    (r"\ud800", "\u{fffd}"),
    (r"a\udfffb", "a\u{fffd}b"),
    (r"\ud800\ud800", "\u{fffd}\u{fffd}"),
    (r"\ud83d\ude00", "\u{1f600}"),
    (r"\\ud800", r"\ud800"),
];

#[test]
fn a_lone_surrogate_reads_as_the_replacement_character() {
    for (stored, read) in SURROGATES {
        let json = format!(r#"[{{"role":"user","blocks":[{{"type":"text","text":"{stored}"}}]}}]"#);
        let record = parse_record(&json).unwrap_or_else(|error| panic!("{stored}: {error}"));
        assert_eq!(record[0].blocks, [Block::text(*read)], "{stored}");
    }
}

/// A record a newer version wrote: keys this version does not read on messages and on blocks
/// of known types, at the start, between and after known keys.
const NEWER_KEYS: &str = r#"{"version":1,"messages":[{"id":"m1","role":"user","blocks":[{"type":"text","lang":"en","text":"Read a.rs."}],"meta":{"by": [1, 2]}},{"role":"assistant","blocks":[{"type":"tool_use","id":"t1","name":"read","input":{"path":"a.rs"},"took_ms":12},{"type":"tool_result","tool_use_id":"t1","tool_name":"read","output":"","is_error":false,"exit":0},{"type":"text","text":"It is empty."}],"usage":{"input_tokens":10,"output_tokens":2},"model":"m-2"}]}"#;

#[test]
fn keys_this_version_does_not_read_are_written_back_where_they_stood() {
    let record = parse_record(NEWER_KEYS).unwrap();
    assert!(record.iter().all(|message| !message.unknown.is_empty()));
    assert_eq!(transcript_replay::write_record(&record), NEWER_KEYS);
    // And read again, the same record.
    assert_eq!(
        parse_record(&transcript_replay::write_record(&record)).unwrap(),
        record
    );
}

#[test]
fn kept_keys_are_never_replayed() {
    let record = parse_record(NEWER_KEYS).unwrap();
    let mut plain = record.clone();
    for message in &mut plain {
        message.unknown = transcript_replay::UnknownKeys::default();
    }
    assert_eq!(
        serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap(),
        serde_json::to_string(&replay_messages(&plain, Vision::Sees)).unwrap()
    );
    for provider in Provider::ALL {
        let live = [transcript_replay::StoredMessage::user("Go on.")];
        let kept = serde_json::to_string(&provider.body(&Turn::new(&record).live(&live)).unwrap());
        let stripped =
            serde_json::to_string(&provider.body(&Turn::new(&plain).live(&live)).unwrap());
        assert_eq!(kept.unwrap(), stripped.unwrap(), "{provider}");
    }
}

#[test]
fn a_changed_known_key_is_written_with_the_kept_keys_still_in_place() {
    let mut record = parse_record(NEWER_KEYS).unwrap();
    record[1].usage = None;
    let written = transcript_replay::write_record(&record);
    assert!(
        written.ends_with(r#"{"type":"text","text":"It is empty."}],"model":"m-2"}]}"#),
        "{written}"
    );
}

#[test]
fn both_record_readers_keep_the_same_keys_this_version_does_not_read() {
    // A key no block reads, a key of another block type (a text block's `id`, a source's
    // `output`), none at all.
    let cases = [
        (NEWER_KEYS, true),
        (
            r#"[{"role":"user","blocks":[{"type":"text","text":"Hi","id":"x"}]}]"#,
            true,
        ),
        (
            r#"[{"role":"user","blocks":[{"type":"source","url":"u","title":"t","output":"o"}]}]"#,
            true,
        ),
        (
            r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}],"usage":null}]"#,
            false,
        ),
    ];
    for (text, kept) in cases {
        let serde = transcript_replay::parse_record_by_serde(text).unwrap();
        assert_eq!(serde, parse_record(text).unwrap(), "{text}");
        assert_eq!(!serde[0].unknown.is_empty(), kept, "{text}");
    }
}
