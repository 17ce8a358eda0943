//! Writing a record as the conversation file that [`parse_record`](crate::parse_record)
//! reads: `{"version":1,"messages":[...]}`.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::record::StoredMessage;

/// The version of the conversation file that the crate writes and reads: the only one.
const VERSION: u32 = 1;

/// A record as a conversation file, `{"version":1,"messages":[...]}`, for serializing with
/// any serde writer (to a file, a buffer, a socket) without building the text first.
///
/// ```
/// use transcript_replay::{parse_record, ConversationFile, StoredMessage};
///
/// let record = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
/// let mut file = Vec::new();
/// serde_json::to_writer(&mut file, &ConversationFile(&record))?;
/// assert_eq!(parse_record(std::str::from_utf8(&file).unwrap()).unwrap(), record);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ConversationFile<'a>(pub &'a [StoredMessage]);

impl Serialize for ConversationFile<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut file = serializer.serialize_struct("ConversationFile", 2)?;
        file.serialize_field("version", &VERSION)?;
        file.serialize_field("messages", self.0)?;
        file.end()
    }
}

/// Writes a record as a conversation file, `{"version":1,"messages":[...]}`: what
/// [`parse_record`](crate::parse_record) reads back into the same record, so a runtime never
/// writes the wrapper by hand. Compact JSON, one line.
///
/// ```
/// use transcript_replay::{parse_record, write_record, Block, Role, StoredMessage};
///
/// let record = vec![
///     StoredMessage::user("Is a.rs empty?"),
///     StoredMessage::new(Role::Assistant, vec![
///         Block::tool_use("t1", "read", r#"{"path":"a.rs"}"#),
///         Block::tool_result("t1", "read", ""),
///         Block::text("Yes."),
///     ]),
/// ];
/// let file = write_record(&record);
/// assert!(file.starts_with(r#"{"version":1,"messages":[{"role":"user","blocks":"#));
/// assert_eq!(parse_record(&file)?, record);
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn write_record(messages: &[StoredMessage]) -> String {
    let mut file = Vec::new();
    // Writing to a vector cannot fail, and a record always serializes: a tool input stored as
    // a JSON value was checked to be JSON when it was read or made.
    if serde_json::to_writer(&mut file, &ConversationFile(messages)).is_err() {
        file.clear();
    }
    String::from_utf8(file).unwrap_or_default()
}
