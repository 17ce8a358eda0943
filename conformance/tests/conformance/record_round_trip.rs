//! Reading a record and writing it back loses nothing that the record defines.

use transcript_replay_conformance::records as common;

use proptest::prelude::*;
use transcript_replay::{parse_record, write_record, Block, Role, StoredMessage, TokenUsage};

proptest! {
    #[test]
    fn a_written_record_reads_back_equal(record in common::record()) {
        let json = serde_json::to_string(&record).unwrap();
        prop_assert_eq!(parse_record(&json).unwrap(), record);
    }

    #[test]
    fn a_record_written_as_a_conversation_file_reads_back_equal(record in common::record()) {
        prop_assert_eq!(parse_record(&write_record(&record)).unwrap(), record);
    }
}

#[test]
fn every_field_survives_a_round_trip_and_absent_ones_stay_absent() {
    let json = r#"[
        {"role":"assistant","blocks":[
            {"type":"reasoning","reasoning":"r"},
            {"type":"tool_use","id":"t1","name":"read","input":"{\"path\":\"a.rs\"}"},
            {"type":"tool_result","tool_use_id":"t1","tool_name":"read","output":"o","is_error":true},
            {"type":"text","text":"x"},
            {"type":"image","media_type":"image/png","data":"iVBORw0KGgo="}
        ],"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":3},"timestamp":"2026-08-13T10:00:00+02:00"},
        {"role":"tool","blocks":[]}
    ]"#;
    let record = parse_record(json).unwrap();
    assert_eq!(
        record,
        [
            StoredMessage {
                role: Role::Assistant,
                blocks: vec![
                    Block::Reasoning {
                        reasoning: "r".into()
                    },
                    Block::ToolUse {
                        id: "t1".into(),
                        name: "read".into(),
                        input: r#"{"path":"a.rs"}"#.into(),
                        provider_executed: false,
                    },
                    Block::ToolResult {
                        tool_use_id: "t1".into(),
                        tool_name: "read".into(),
                        output: "o".into(),
                        is_error: true,
                    },
                    Block::Text { text: "x".into() },
                    Block::Image {
                        media_type: "image/png".into(),
                        data: "iVBORw0KGgo=".into(),
                    },
                ],
                usage: Some(TokenUsage {
                    input_tokens: 10,
                    output_tokens: 5,
                    cache_creation_input_tokens: 0,
                    cache_read_input_tokens: 3,
                    context_tokens: 0,
                }),
                timestamp: Some("2026-08-13T10:00:00+02:00".into()),
                unknown: Default::default(),
            },
            StoredMessage {
                role: Role::Tool,
                blocks: vec![],
                usage: None,
                timestamp: None,
                unknown: Default::default(),
            },
        ]
    );
    assert_eq!(
        serde_json::to_string(&record).unwrap(),
        concat!(
            r#"[{"role":"assistant","blocks":["#,
            r#"{"type":"reasoning","reasoning":"r"},"#,
            r#"{"type":"tool_use","id":"t1","name":"read","input":"{\"path\":\"a.rs\"}"},"#,
            r#"{"type":"tool_result","tool_use_id":"t1","tool_name":"read","output":"o","is_error":true},"#,
            r#"{"type":"text","text":"x"},"#,
            r#"{"type":"image","media_type":"image/png","data":"iVBORw0KGgo="}],"#,
            r#""usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":3},"#,
            r#""timestamp":"2026-08-13T10:00:00+02:00"},"#,
            r#"{"role":"tool","blocks":[]}]"#,
        )
    );
}

#[test]
fn null_usage_and_timestamp_read_as_absent() {
    let record =
        parse_record(r#"[{"role":"user","blocks":[],"usage":null,"timestamp":null}]"#).unwrap();
    assert_eq!(
        (record[0].usage, record[0].timestamp.as_deref()),
        (None, None)
    );
}

#[test]
fn a_single_message_reads_through_serde_too() {
    let message: StoredMessage =
        serde_json::from_str(r#"{"blocks":[{"text":"hi","type":"text"}],"role":"user"}"#).unwrap();
    assert_eq!(message.blocks, [Block::Text { text: "hi".into() }]);
    let message =
        serde_json::from_str::<StoredMessage>(r#"{"role":"user","blocks":[{"type":"audio"}]}"#)
            .unwrap();
    assert!(
        matches!(&message.blocks[..], [Block::Unknown { type_name, .. }] if type_name == "audio"),
        "{message:?}"
    );
}
