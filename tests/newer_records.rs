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
