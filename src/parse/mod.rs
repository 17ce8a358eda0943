//! Reading a stored record, with errors that say where and what.
//!
//! Two readers, one reading. The fast reader ([`fast`]) reads a record that is plainly well
//! formed straight from its bytes, and gives up at the first thing it does not expect; the
//! serde reader below then reads the text, and gives the record or the error with where it
//! is. So every error is the serde reader's, and the fast reader is checked to read whatever
//! it takes as the serde reader does (`conformance/tests/conformance/fast_reader.rs`, and the fuzz
//! target on any text).
//!
//! The serde readers are written by hand rather than derived: a derived reader for an internally
//! tagged enum buffers every block before it knows the block's type, and cannot say which
//! message or block failed. These read each string once, accept the keys of a block in any
//! order, ignore keys they do not know, and record how far they got in a [`Trace`], so that
//! [`parse_record`] can name the message and block of any failure.

use std::cell::Cell;
use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::errors::record::{Between, RecordError as Error};
use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};

use self::keys::{BlockKey, FileKey, MessageKey};

mod fast;
mod keys;
mod outlive;

/// Reads a stored record: a JSON array of messages, or a conversation file that wraps one.
///
/// A conversation file is `{"version": 1, "messages": [...], ...}`; its other keys are
/// ignored, and 1 is the only version there is. Unknown keys inside a message or a block are
/// ignored. A block of a `type` this version does not read (one a newer version wrote) is
/// kept as it was ([`Block::Unknown`], written back byte for byte); an unknown `role` is an
/// error. A lone surrogate escape in a string (`"\ud800"`, which no string can hold) reads
/// as U+FFFD, never an error.
///
/// # Errors
///
/// Returns an [`Error`] that says where (the message index, the block index where it
/// applies, and the line and column) and what: the unknown role, the missing field,
/// the value of the wrong type, the unsupported version, or the JSON syntax error. JSON
/// nested deeper than 128 levels is an error too, never a stack overflow.
///
/// ```
/// use transcript_replay::{parse_record, Role};
///
/// let bare = r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#;
/// let file = r#"{"version": 1, "title": "greeting", "messages": [
///     {"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}
/// ]}"#;
/// assert_eq!(parse_record(bare)?, parse_record(file)?);
/// assert_eq!(parse_record(bare)?[0].role, Role::User);
///
/// let error = parse_record(r#"{"version": 2, "messages": []}"#).unwrap_err();
/// assert_eq!(error.to_string(), "line 1, column 13: unsupported version 2, only version 1 exists");
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn parse_record(json: &str) -> Result<Vec<StoredMessage>, Error> {
    // The fast reader takes the record that is plainly well formed; the serde reader reads
    // anything else, and so gives every error.
    match fast::read(json) {
        Some(record) => Ok(record),
        None => parse_record_by_serde(json),
    }
}

/// What the fast reader in front of [`parse_record`] makes of `json` alone: the record, or
/// `None` where it leaves the text to the serde reader. For checking the two readers against
/// each other (the conformance suite and the fuzz target do: whatever the fast reader takes,
/// it reads exactly as [`parse_record_by_serde`] does); a runtime calls [`parse_record`].
///
/// ```
/// use transcript_replay::{parse_record_by_serde, parse_record_fast_only};
///
/// let plain = r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#;
/// assert_eq!(parse_record_fast_only(plain).map(Ok), Some(parse_record_by_serde(plain)));
/// // A key spelled with an escape is left to the serde reader, which reads it.
/// let escaped = r#"[{"r\u006fle": "user", "blocks": []}]"#;
/// assert_eq!(parse_record_fast_only(escaped), None);
/// assert!(parse_record_by_serde(escaped).is_ok());
/// ```
pub fn parse_record_fast_only(json: &str) -> Option<Vec<StoredMessage>> {
    fast::read(json)
}

/// [`parse_record`] by the serde reader alone, the reader that gives every error: the same
/// record or error as `parse_record`, more slowly. For checking the readers against each
/// other (see [`parse_record_fast_only`]).
///
/// ```
/// let error = transcript_replay::parse_record_by_serde("[{}]").unwrap_err();
/// assert_eq!(error.to_string(), "message 0 (line 1, column 3): missing field `role`");
/// ```
pub fn parse_record_by_serde(json: &str) -> Result<Vec<StoredMessage>, Error> {
    let trace = Trace::default();
    // Mending keeps every byte's place, so an error's line and column stay the text's.
    let mended = outlive::mend_lone_surrogates(json);
    let mut reader = serde_json::Deserializer::from_str(&mended);
    let read = RecordSeed { trace: &trace }
        .deserialize(&mut reader)
        .and_then(|messages| reader.end().map(|()| messages))
        .map(|mut messages| {
            outlive::keep_unknown_blocks(&mended, &mut messages);
            // Keys this version does not read are kept, read again only when there are some.
            if trace.unknown_keys.get() {
                outlive::keep_unknown_keys(&mended, &mut messages);
            }
            messages
        });
    read.map_err(|error| {
        // A failure before the reader entered the element it was about to read happened
        // between elements: it is about the separator after the previous one.
        match (trace.message.get(), trace.block.get()) {
            (Some(message), Some(block)) if !trace.in_block.get() => match block.checked_sub(1) {
                Some(previous) => Error::between(&error, Some(message), Between::Blocks(previous)),
                None => Error::from_json(&error, Some(message), None),
            },
            (Some(message), _) if !trace.in_message.get() => match message.checked_sub(1) {
                Some(previous) => Error::between(&error, None, Between::Messages(previous)),
                None => Error::from_json(&error, None, None),
            },
            (message, block) => Error::from_json(&error, message, block),
        }
    })
}

/// How far reading got: the message and block being read when a failure happened, and
/// whether the reader had entered them or was still at the separator before them.
#[derive(Default)]
struct Trace {
    message: Cell<Option<usize>>,
    in_message: Cell<bool>,
    block: Cell<Option<usize>>,
    in_block: Cell<bool>,
    /// Whether a message or a block has a key this version does not read.
    unknown_keys: Cell<bool>,
}

/// At most this many characters of a stored value are quoted in an error.
const QUOTED_CHARS: usize = 64;

/// A stored value quoted in an error message: escaped and in quotes, and cut short when it
/// is long, so that an error never carries a stored payload.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (head, cut) = cut(self.0);
        write!(f, "{head:?}{}", if cut { "..." } else { "" })
    }
}

/// The value's first [`QUOTED_CHARS`] characters, and whether anything was cut off.
fn cut(value: &str) -> (&str, bool) {
    match value.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => (value.get(..end).unwrap_or(value), true),
        None => (value, false),
    }
}

struct RecordSeed<'t> {
    trace: &'t Trace,
}

impl<'de> DeserializeSeed<'de> for RecordSeed<'_> {
    type Value = Vec<StoredMessage>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RecordSeed<'_> {
    type Value = Vec<StoredMessage>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a record: an array of messages, or a conversation file object")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        MessagesSeed { trace: self.trace }.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut version = false;
        let mut messages = None;
        while let Some(key) = map.next_key::<FileKey>()? {
            match key {
                FileKey::Version => {
                    if version {
                        return Err(de::Error::duplicate_field("version"));
                    }
                    let value: serde_json::Value = map.next_value()?;
                    if value != 1 {
                        let json = value.to_string();
                        let (head, cut) = cut(&json);
                        return Err(de::Error::custom(format_args!(
                            "unsupported version {head}{}, only version 1 exists",
                            if cut { "..." } else { "" }
                        )));
                    }
                    version = true;
                }
                FileKey::Messages => {
                    if messages.is_some() {
                        return Err(de::Error::duplicate_field("messages"));
                    }
                    messages = Some(map.next_value_seed(MessagesSeed { trace: self.trace })?);
                }
                FileKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !version {
            return Err(de::Error::custom(
                "missing field `version` in the conversation file",
            ));
        }
        messages
            .ok_or_else(|| de::Error::custom("missing field `messages` in the conversation file"))
    }
}

struct MessagesSeed<'t> {
    trace: &'t Trace,
}

impl<'de> DeserializeSeed<'de> for MessagesSeed<'_> {
    type Value = Vec<StoredMessage>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for MessagesSeed<'_> {
    type Value = Vec<StoredMessage>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of messages")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut messages = Vec::new();
        loop {
            self.trace.message.set(Some(messages.len()));
            self.trace.in_message.set(false);
            self.trace.block.set(None);
            match seq.next_element_seed(MessageSeed { trace: self.trace })? {
                Some(message) => messages.push(message),
                None => break,
            }
        }
        self.trace.message.set(None);
        Ok(messages)
    }
}

struct MessageSeed<'t> {
    trace: &'t Trace,
}

impl<'de> DeserializeSeed<'de> for MessageSeed<'_> {
    type Value = StoredMessage;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.trace.in_message.set(true);
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for MessageSeed<'_> {
    type Value = StoredMessage;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a message object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut role = None;
        let mut blocks = None;
        let mut usage = None;
        let mut timestamp = None;
        while let Some(key) = map.next_key::<MessageKey>()? {
            match key {
                MessageKey::Role => put(&mut role, "role", map.next_value()?)?,
                MessageKey::Blocks => put(
                    &mut blocks,
                    "blocks",
                    map.next_value_seed(BlocksSeed { trace: self.trace })?,
                )?,
                MessageKey::Usage => {
                    put(&mut usage, "usage", map.next_value::<Option<TokenUsage>>()?)?
                }
                MessageKey::Timestamp => {
                    put(
                        &mut timestamp,
                        "timestamp",
                        map.next_value::<Option<String>>()?,
                    )?;
                }
                MessageKey::Other => {
                    self.trace.unknown_keys.set(true);
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(StoredMessage {
            role: role.ok_or_else(|| de::Error::missing_field("role"))?,
            blocks: blocks.ok_or_else(|| de::Error::missing_field("blocks"))?,
            usage: usage.flatten(),
            timestamp: timestamp.flatten(),
            unknown: crate::record::kept::UnknownKeys::default(),
        })
    }
}

/// Stores a field's value, refusing a second one: a record that says two things is not
/// guessed at.
fn put<T, E: de::Error>(slot: &mut Option<T>, field: &'static str, value: T) -> Result<(), E> {
    match slot.replace(value) {
        Some(_) => Err(E::duplicate_field(field)),
        None => Ok(()),
    }
}

struct BlocksSeed<'t> {
    trace: &'t Trace,
}

impl<'de> DeserializeSeed<'de> for BlocksSeed<'_> {
    type Value = Vec<Block>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for BlocksSeed<'_> {
    type Value = Vec<Block>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of blocks")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut blocks = Vec::new();
        loop {
            self.trace.block.set(Some(blocks.len()));
            self.trace.in_block.set(false);
            match seq.next_element_seed(BlockSeed { trace: self.trace })? {
                Some(block) => blocks.push(block),
                None => break,
            }
        }
        self.trace.block.set(None);
        Ok(blocks)
    }
}

struct BlockSeed<'t> {
    trace: &'t Trace,
}

impl<'de> DeserializeSeed<'de> for BlockSeed<'_> {
    type Value = Block;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.trace.in_block.set(true);
        deserializer.deserialize_map(BlockVisitor {
            unknown_keys: &self.trace.unknown_keys,
        })
    }
}

impl<'de> Deserialize<'de> for StoredMessage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        MessageSeed {
            trace: &Trace::default(),
        }
        .deserialize(deserializer)
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(RoleVisitor)
    }
}

struct RoleVisitor;

impl Visitor<'_> for RoleVisitor {
    type Value = Role;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a role: system, user, assistant or tool")
    }

    fn visit_str<E: de::Error>(self, role: &str) -> Result<Role, E> {
        match role {
            "system" => Ok(Role::System),
            "user" => Ok(Role::User),
            "assistant" => Ok(Role::Assistant),
            "tool" => Ok(Role::Tool),
            unknown => Err(E::custom(format_args!(
                "unknown role {}, expected system, user, assistant or tool",
                Quoted(unknown)
            ))),
        }
    }
}

/// The fields of `usage`, read by serde's derive once the value is known to be an object.
#[derive(Deserialize)]
struct UsageFields {
    input_tokens: u64,
    output_tokens: u64,
    #[serde(default)]
    cache_creation_input_tokens: u64,
    #[serde(default)]
    cache_read_input_tokens: u64,
    #[serde(default)]
    context_tokens: u64,
}

impl<'de> Deserialize<'de> for TokenUsage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Not `deserialize_struct`: serde's derive then also takes an array of four numbers,
        // which no record means.
        deserializer.deserialize_map(UsageVisitor)
    }
}

struct UsageVisitor;

impl<'de> Visitor<'de> for UsageVisitor {
    type Value = TokenUsage;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a usage object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TokenUsage, A::Error> {
        let fields = UsageFields::deserialize(MapAccessDeserializer::new(map))?;
        Ok(TokenUsage {
            input_tokens: fields.input_tokens,
            output_tokens: fields.output_tokens,
            cache_creation_input_tokens: fields.cache_creation_input_tokens,
            cache_read_input_tokens: fields.cache_read_input_tokens,
            context_tokens: fields.context_tokens,
        })
    }
}

/// The kinds of block, named as the record names them.
#[derive(Clone, Copy)]
enum BlockType {
    Text,
    ToolUse,
    ToolResult,
    Reasoning,
    Image,
    File,
    Source,
    Compaction,
    /// A type this version does not read.
    Unknown,
}

impl BlockType {
    fn name(self) -> &'static str {
        match self {
            BlockType::Text => "text",
            BlockType::ToolUse => "tool_use",
            BlockType::ToolResult => "tool_result",
            BlockType::Reasoning => "reasoning",
            BlockType::Image => "image",
            BlockType::File => "file",
            BlockType::Source => "source",
            BlockType::Compaction => "compaction",
            BlockType::Unknown => "unknown",
        }
    }
}

/// A field of a block, whatever its type: kept until the block's type is known, so that the
/// keys of a block may come in any order.
enum Loose {
    String(String),
    Bool(bool),
    Other(&'static str),
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Loose, E> {
        Ok(Loose::String(value.to_owned()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Loose, E> {
        Ok(Loose::String(value))
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Loose, E> {
        Ok(Loose::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Loose, E> {
        Ok(Loose::Other("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Loose, E> {
        Ok(Loose::Other("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Loose, E> {
        Ok(Loose::Other("a number"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Other("null"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Loose::Other("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Loose::Other("an object"))
    }
}

impl Loose {
    fn describe(&self) -> &'static str {
        match self {
            Loose::String(_) => "a string",
            Loose::Bool(_) => "a boolean",
            Loose::Other(what) => what,
        }
    }
}

/// The fields of one block, as read so far.
#[derive(Default)]
struct BlockFields {
    kind: Option<BlockType>,
    text: Option<Loose>,
    id: Option<Loose>,
    name: Option<Loose>,
    input: Option<ToolInput>,
    tool_use_id: Option<Loose>,
    tool_name: Option<Loose>,
    output: Option<Loose>,
    is_error: Option<Loose>,
    reasoning: Option<Loose>,
    media_type: Option<Loose>,
    data: Option<Loose>,
    provider_executed: Option<Loose>,
    url: Option<Loose>,
    title: Option<Loose>,
    cited_text: Option<Loose>,
    summary: Option<Loose>,
    provider: Option<Loose>,
    /// The type of a block this version does not read.
    unknown: Option<String>,
}

impl BlockFields {
    fn string<E: de::Error>(
        kind: BlockType,
        field: &'static str,
        value: Option<Loose>,
    ) -> Result<String, E> {
        match value {
            Some(Loose::String(value)) => Ok(value),
            Some(other) => Err(E::custom(format_args!(
                "field `{field}` of a {} block must be a string, found {}",
                kind.name(),
                other.describe()
            ))),
            None => Err(missing(kind, field)),
        }
    }

    fn into_block<E: de::Error>(self) -> Result<Block, E> {
        let kind = self.kind.ok_or_else(|| E::missing_field("type"))?;
        let string = |field, value| Self::string::<E>(kind, field, value);
        Ok(match kind {
            BlockType::Text => Block::Text {
                text: string("text", self.text)?,
            },
            BlockType::ToolUse => Block::ToolUse {
                id: string("id", self.id)?,
                name: string("name", self.name)?,
                input: self.input.ok_or_else(|| missing(kind, "input"))?,
                provider_executed: match self.provider_executed {
                    Some(Loose::Bool(flag)) => flag,
                    None | Some(Loose::Other("null")) => false,
                    Some(other) => {
                        return Err(E::custom(format_args!(
                        "field `provider_executed` of a tool_use block must be a boolean, found {}",
                        other.describe()
                    )))
                    }
                },
            },
            BlockType::ToolResult => Block::ToolResult {
                tool_use_id: string("tool_use_id", self.tool_use_id)?,
                tool_name: string("tool_name", self.tool_name)?,
                output: string("output", self.output)?,
                is_error: match self.is_error {
                    Some(Loose::Bool(is_error)) => is_error,
                    Some(other) => {
                        return Err(E::custom(format_args!(
                            "field `is_error` of a tool_result block must be a boolean, found {}",
                            other.describe()
                        )))
                    }
                    // Runtimes that store only failures leave it out.
                    None => false,
                },
            },
            BlockType::Reasoning => Block::Reasoning {
                reasoning: string("reasoning", self.reasoning)?,
            },
            BlockType::Image => Block::Image {
                media_type: string("media_type", self.media_type)?,
                data: string("data", self.data)?,
            },
            BlockType::Source => {
                let optional = |field, value: Option<Loose>| match value {
                    None | Some(Loose::Other("null")) => Ok(None),
                    Some(value) => string(field, Some(value)).map(Some),
                };
                let (url, title) = (optional("url", self.url)?, optional("title", self.title)?);
                if url.is_none() && title.is_none() {
                    return Err(missing(kind, "url"));
                }
                Block::Source {
                    url,
                    title,
                    cited_text: optional("cited_text", self.cited_text)?,
                }
            }
            BlockType::File => Block::File {
                media_type: string("media_type", self.media_type)?,
                data: string("data", self.data)?,
                // Optional: a file without a name is written without one.
                name: match self.name {
                    None | Some(Loose::Other("null")) => None,
                    Some(name) => Some(string("name", Some(name))?),
                },
            },
            BlockType::Compaction => {
                let optional = |field, value: Option<Loose>| match value {
                    None | Some(Loose::Other("null")) => Ok(None),
                    Some(value) => string(field, Some(value)).map(Some),
                };
                let summary = optional("summary", self.summary)?;
                let provider = optional("provider", self.provider)?;
                let data = optional("data", self.data)?;
                match (&summary, &provider, &data) {
                    (None, _, None) => return Err(missing(kind, "summary")),
                    (_, None, Some(_)) => return Err(missing(kind, "provider")),
                    _ => {}
                }
                Block::Compaction {
                    summary,
                    provider,
                    data,
                }
            }
            // Its text is put back by the record's reader (`keep_unknown_blocks`); a block
            // read alone keeps its type.
            BlockType::Unknown => {
                let name = self.unknown.unwrap_or_default();
                let json = serde_json::json!({ "type": name }).to_string();
                Block::Unknown {
                    type_name: name,
                    json,
                }
            }
        })
    }
}

fn missing<E: de::Error>(kind: BlockType, field: &'static str) -> E {
    E::custom(format_args!(
        "missing field `{field}` in a {} block",
        kind.name()
    ))
}

impl<'de> Deserialize<'de> for Block {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(BlockVisitor {
            unknown_keys: &Cell::new(false),
        })
    }
}

/// A block's reader; `unknown_keys` is set when the block has a key its type does not read.
struct BlockVisitor<'t> {
    unknown_keys: &'t Cell<bool>,
}

impl<'de> Visitor<'de> for BlockVisitor<'_> {
    type Value = Block;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a block object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Block, A::Error> {
        let mut fields = BlockFields::default();
        // The known keys the block has, one bit each.
        let mut seen = 0u32;
        while let Some(key) = map.next_key::<BlockKey>()? {
            // A block of a type this version does not read keeps its fields as text.
            if matches!(fields.kind, Some(BlockType::Unknown)) && !matches!(key, BlockKey::Type) {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            seen |= 1 << key as u32;
            let slot = match key {
                BlockKey::Type => {
                    let kind = match map.next_value::<Loose>()? {
                        Loose::String(name) => {
                            let kind = block_type(&name);
                            if let BlockType::Unknown = kind {
                                fields.unknown = Some(name);
                            }
                            kind
                        }
                        other => {
                            return Err(de::Error::custom(format_args!(
                                "field `type` of a block must be a string, found {}",
                                other.describe()
                            )))
                        }
                    };
                    put(&mut fields.kind, "type", kind)?;
                    continue;
                }
                BlockKey::Text => &mut fields.text,
                BlockKey::Id => &mut fields.id,
                BlockKey::Name => &mut fields.name,
                BlockKey::Input => {
                    let input = tool_input(&map.next_value::<Box<RawValue>>()?)?;
                    put(&mut fields.input, "input", input)?;
                    continue;
                }
                BlockKey::ToolUseId => &mut fields.tool_use_id,
                BlockKey::ToolName => &mut fields.tool_name,
                BlockKey::Output => &mut fields.output,
                BlockKey::IsError => &mut fields.is_error,
                BlockKey::Reasoning => &mut fields.reasoning,
                BlockKey::MediaType => &mut fields.media_type,
                BlockKey::Data => &mut fields.data,
                BlockKey::ProviderExecuted => &mut fields.provider_executed,
                BlockKey::Url => &mut fields.url,
                BlockKey::Title => &mut fields.title,
                BlockKey::CitedText => &mut fields.cited_text,
                BlockKey::Summary => &mut fields.summary,
                BlockKey::Provider => &mut fields.provider,
                BlockKey::Other => {
                    self.unknown_keys.set(true);
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            if slot.is_some() {
                return Err(de::Error::duplicate_field(key.name()));
            }
            *slot = Some(map.next_value()?);
        }
        let block = fields.into_block()?;
        // A key of another type's (a text block's `id`) is one this type does not read: kept.
        if let Some(own) = block.type_keys() {
            let foreign = (BlockKey::ALL.iter())
                .any(|&key| seen & (1 << key as u32) != 0 && !own.contains(&key.name()));
            if foreign {
                self.unknown_keys.set(true);
            }
        }
        Ok(block)
    }
}

/// A tool input as stored: a JSON string holds the text, any other value is the text.
///
/// The value is read once, as raw JSON text; a string's text is then unescaped from it
/// directly (by the fast reader's string reader), not parsed a second time, except for a
/// `\u` escape of a surrogate, which serde_json reads (and refuses when it stands alone), so
/// that its errors are serde_json's.
fn tool_input<E: de::Error>(raw: &RawValue) -> Result<ToolInput, E> {
    let text = raw.get();
    if text.starts_with('"') {
        match fast::quoted_string(text) {
            Some(unescaped) => Ok(ToolInput::from(unescaped)),
            None => serde_json::from_str::<String>(text)
                .map(ToolInput::from)
                .map_err(E::custom),
        }
    } else {
        Ok(ToolInput::json_unchecked(text.to_owned()))
    }
}

fn block_type(name: &str) -> BlockType {
    match name {
        "text" => BlockType::Text,
        "tool_use" => BlockType::ToolUse,
        "tool_result" => BlockType::ToolResult,
        "reasoning" => BlockType::Reasoning,
        "image" => BlockType::Image,
        "file" => BlockType::File,
        "source" => BlockType::Source,
        "compaction" => BlockType::Compaction,
        _ => BlockType::Unknown,
    }
}
