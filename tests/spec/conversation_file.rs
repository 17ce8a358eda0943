//! A record written with `write_record` is the conversation file `parse_record` reads: the
//! same record comes back, whatever it holds.

use transcript_replay::{parse_record, write_record, ConversationFile, StoredMessage};

const SAMPLE: &str = include_str!("../../examples/sample-conversation.json");

#[test]
fn a_written_record_reads_back_equal() {
    let record = parse_record(SAMPLE).unwrap();
    let file = write_record(&record);
    assert_eq!(parse_record(&file).unwrap(), record);
}

#[test]
fn the_file_is_version_1_with_the_messages() {
    let record = [StoredMessage::user("Hi")];
    assert_eq!(
        write_record(&record),
        r#"{"version":1,"messages":[{"role":"user","blocks":[{"type":"text","text":"Hi"}]}]}"#
    );
    assert_eq!(write_record(&[]), r#"{"version":1,"messages":[]}"#);
}

#[test]
fn the_file_serializes_the_same_through_any_serde_writer() {
    let record = parse_record(SAMPLE).unwrap();
    let pretty = serde_json::to_string_pretty(&ConversationFile(&record)).unwrap();
    assert_eq!(parse_record(&pretty).unwrap(), record);
    assert_eq!(
        serde_json::to_string(&ConversationFile(&record)).unwrap(),
        write_record(&record)
    );
}
