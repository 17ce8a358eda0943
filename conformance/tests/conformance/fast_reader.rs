//! `parse_record` reads a record with a fast reader in front of the serde reader, and the
//! fast reader changes nothing but the time it takes:
//!
//! - whatever text the fast reader takes, it reads exactly the record the serde reader reads;
//! - any text it does not take goes to the serde reader, so `parse_record` gives the serde
//!   reader's record or its error, word for word;
//! - it takes every record spelled plainly however its writer spelled it: any white space, keys
//!   in any order, unknown keys with any values, strings with any escapes; it leaves to the
//!   serde reader only a key, role or block type spelled with an escape, a `\u` escape of a
//!   surrogate in a value it reads, and a known field of a type no block of that kind uses.
//!
//! Generated records are spelled at random and then broken at random; a table of hostile
//! cases by name is `fast_reader_hostile.rs`.

use proptest::prelude::*;
use transcript_replay::{
    parse_record, parse_record_fast_only, write_record, Block, Role, StoredMessage,
};
use transcript_replay_conformance::reading::same_reading;
use transcript_replay_conformance::records::record;

/// A writer of a record's JSON that spells it at random, and says whether it spelled it
/// plainly (so that the fast reader must take it).
struct Speller {
    state: u64,
    out: String,
    plain: bool,
}

impl Speller {
    fn new(seed: u64) -> Self {
        Speller {
            state: seed | 1,
            out: String::new(),
            plain: true,
        }
    }

    /// A number below `n`, from a xorshift generator.
    fn below(&mut self, n: u64) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state % n
    }

    fn space(&mut self) {
        let space = ["", "", "", " ", "\n", "\t", "\r\n  ", "  "][self.below(8) as usize];
        self.out.push_str(space);
    }

    /// A string, each character spelled one of the ways JSON allows. `read` says whether the
    /// fast reader reads the string's text (a `\u` escape of a surrogate there is left to the
    /// serde reader); `borrowed` whether it must be spelled without an escape to be taken.
    fn string(&mut self, text: &str, read: bool, borrowed: bool) {
        self.out.push('"');
        for c in text.chars() {
            let how = self.below(if borrowed { 24 } else { 6 });
            let escaped = matches!(c, '"' | '\\' | '\u{0}'..='\u{1f}') || how == 0;
            if !escaped {
                self.out.push(c);
                continue;
            }
            if borrowed {
                self.plain = false;
            }
            match (c, self.below(3)) {
                ('"', 0) => self.out.push_str("\\\""),
                ('\\', 0) => self.out.push_str("\\\\"),
                ('\n', 0) => self.out.push_str("\\n"),
                ('\t', 0) => self.out.push_str("\\t"),
                ('\r', 0) => self.out.push_str("\\r"),
                ('\u{8}', 0) => self.out.push_str("\\b"),
                ('\u{c}', 0) => self.out.push_str("\\f"),
                ('/', 0) => self.out.push_str("\\/"),
                (c, upper) => {
                    let mut units = [0u16; 2];
                    let units = c.encode_utf16(&mut units);
                    if units.len() == 2 && read {
                        self.plain = false;
                    }
                    for unit in units.iter() {
                        if upper == 1 {
                            self.out.push_str(&format!("\\u{unit:04X}"));
                        } else {
                            self.out.push_str(&format!("\\u{unit:04x}"));
                        }
                    }
                }
            }
        }
        self.out.push('"');
    }

    fn key(&mut self, key: &str) {
        self.space();
        self.string(key, false, true);
        self.space();
        self.out.push(':');
        self.space();
    }

    /// Any JSON value, as a record's unknown key may hold: nested, numbers in every
    /// spelling, strings with lone surrogates (which the fast reader leaves to the serde
    /// reader).
    fn unknown_value(&mut self, depth: u32) {
        self.space();
        match self.below(if depth < 3 { 9 } else { 7 }) {
            0 => self.out.push_str("null"),
            1 => {
                let literal = ["true", "false"][self.below(2) as usize];
                self.out.push_str(literal);
            }
            2 => {
                let number = ["0", "-0", "12", "-3.25", "1e9", "6.02E+23", "2e-3", "1e999"]
                    [self.below(8) as usize];
                self.out.push_str(number);
            }
            3 | 4 => {
                let text = [
                    "",
                    "plain",
                    "quote \" and \\",
                    "é 中 😀",
                    "\u{2028}\u{2029}",
                ][self.below(5) as usize];
                self.string(text, false, false);
            }
            // Read as the replacement character: the serde reader's to mend.
            5 => {
                self.plain = false;
                self.out.push_str(r#""lone \ud800 and \uDC00 surrogates""#);
            }
            6 => self.out.push_str("\"\\u0000\\/\""),
            7 => {
                self.out.push('[');
                let n = self.below(4);
                for i in 0..n {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.unknown_value(depth + 1);
                }
                self.space();
                self.out.push(']');
            }
            _ => {
                self.out.push('{');
                let n = self.below(4);
                for i in 0..n {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.key(&format!("k{i}"));
                    self.unknown_value(depth + 1);
                }
                self.space();
                self.out.push('}');
            }
        }
        self.space();
    }

    /// Writes an object of `entries` in a random order, with unknown keys among them (but in
    /// a block of a type this version does not read, whose every key is kept).
    fn object(&mut self, mut entries: Vec<(String, Value)>) {
        const KNOWN: [&str; 8] = [
            "text",
            "tool_use",
            "tool_result",
            "reasoning",
            "image",
            "file",
            "source",
            "compaction",
        ];
        let newer = entries.iter().any(|(key, value)| {
            key == "type" && matches!(value, Value::Name(name) if !KNOWN.contains(&name.as_str()))
        });
        for i in 0..if newer { 0 } else { self.below(3) } {
            entries.push((format!("x_{i}"), Value::Unknown));
        }
        for i in (1..entries.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            entries.swap(i, j);
        }
        self.space();
        self.out.push('{');
        for (i, (key, value)) in entries.into_iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.key(&key);
            match value {
                Value::Text(text) => self.string(&text, true, false),
                Value::Name(text) => self.string(&text, true, true),
                Value::Raw(raw) => self.out.push_str(&raw),
                Value::Unknown => self.unknown_value(0),
                Value::Object(entries) => self.object(entries),
                Value::Array(elements) => {
                    self.out.push('[');
                    for (i, element) in elements.into_iter().enumerate() {
                        if i > 0 {
                            self.out.push(',');
                        }
                        self.object(element);
                    }
                    self.space();
                    self.out.push(']');
                }
            }
            self.space();
        }
        self.out.push('}');
        self.space();
    }

    fn message(&mut self, message: &StoredMessage) -> Vec<(String, Value)> {
        let role = match message.role {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        };
        let mut entries = vec![
            ("role".to_owned(), Value::Name(role.to_owned())),
            (
                "blocks".to_owned(),
                Value::Array(message.blocks.iter().map(|b| self.block(b)).collect()),
            ),
        ];
        match &message.usage {
            Some(usage) => {
                let mut fields = vec![
                    ("input_tokens", usage.input_tokens),
                    ("output_tokens", usage.output_tokens),
                ];
                for (key, count) in [
                    (
                        "cache_creation_input_tokens",
                        usage.cache_creation_input_tokens,
                    ),
                    ("cache_read_input_tokens", usage.cache_read_input_tokens),
                    ("context_tokens", usage.context_tokens),
                ] {
                    if count != 0 || self.below(2) == 0 {
                        fields.push((key, count));
                    }
                }
                let fields = fields
                    .into_iter()
                    .map(|(key, count)| (key.to_owned(), Value::Raw(count.to_string())))
                    .collect();
                entries.push(("usage".to_owned(), Value::Object(fields)));
            }
            None if self.below(2) == 0 => {
                entries.push(("usage".to_owned(), Value::Raw("null".to_owned())))
            }
            None => {}
        }
        match &message.timestamp {
            Some(timestamp) => {
                entries.push(("timestamp".to_owned(), Value::Text(timestamp.clone())))
            }
            None if self.below(2) == 0 => {
                entries.push(("timestamp".to_owned(), Value::Raw("null".to_owned())))
            }
            None => {}
        }
        entries
    }

    fn block(&mut self, block: &Block) -> Vec<(String, Value)> {
        let text = |key: &str, value: &str| (key.to_owned(), Value::Text(value.to_owned()));
        let (kind, mut entries) = match block {
            Block::Text { text: body } => ("text", vec![text("text", body)]),
            Block::ToolUse {
                id,
                name,
                input,
                provider_executed,
            } => {
                let mut entries = vec![
                    text("id", id),
                    text("name", name),
                    if input.is_json_value() {
                        ("input".to_owned(), Value::Raw(input.as_str().to_owned()))
                    } else {
                        text("input", input.as_str())
                    },
                ];
                if *provider_executed || self.below(4) == 0 {
                    entries.push((
                        "provider_executed".to_owned(),
                        Value::Raw(provider_executed.to_string()),
                    ));
                }
                ("tool_use", entries)
            }
            Block::ToolResult {
                tool_use_id,
                tool_name,
                output,
                is_error,
            } => {
                let mut entries = vec![
                    text("tool_use_id", tool_use_id),
                    text("tool_name", tool_name),
                    text("output", output),
                ];
                if *is_error || self.below(2) == 0 {
                    entries.push(("is_error".to_owned(), Value::Raw(is_error.to_string())));
                }
                ("tool_result", entries)
            }
            Block::Reasoning { reasoning } => ("reasoning", vec![text("reasoning", reasoning)]),
            Block::Image { media_type, data } => (
                "image",
                vec![text("media_type", media_type), text("data", data)],
            ),
            Block::Source {
                url,
                title,
                cited_text,
            } => (
                "source",
                [("url", url), ("title", title), ("cited_text", cited_text)]
                    .into_iter()
                    .filter_map(|(key, value)| value.as_deref().map(|value| text(key, value)))
                    .collect(),
            ),
            Block::File {
                media_type,
                data,
                name,
            } => (
                "file",
                std::iter::once(text("media_type", media_type))
                    .chain([text("data", data)])
                    .chain(name.as_deref().map(|name| text("name", name)))
                    .collect(),
            ),
            Block::Compaction {
                summary,
                provider,
                data,
            } => (
                "compaction",
                [("summary", summary), ("provider", provider), ("data", data)]
                    .into_iter()
                    .filter_map(|(key, value)| value.as_deref().map(|value| text(key, value)))
                    .collect(),
            ),
            // A newer writer's block: its own fields, spelled as any other.
            Block::Unknown { type_name, json } => {
                let fields: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_str(json).unwrap();
                let entries = fields
                    .iter()
                    .filter(|(key, _)| *key != "type")
                    .map(|(key, value)| match value {
                        serde_json::Value::String(value) => text(key, value),
                        value => (key.clone(), Value::Raw(value.to_string())),
                    })
                    .collect();
                (type_name.as_str(), entries)
            }
        };
        if let Block::Unknown { .. } = block {
            // Every field of it is its own, and kept.
            entries.push(("type".to_owned(), Value::Name(kind.to_owned())));
            return entries;
        }
        entries.push(("type".to_owned(), Value::Name(kind.to_owned())));
        // A known field that this kind of block does not use: the serde reader ignores it
        // whatever it holds; the fast reader takes it when it is a string or a boolean.
        let unused = match kind {
            "text" => "name",
            _ => "text",
        };
        match self.below(6) {
            0 => entries.push((unused.to_owned(), Value::Text("unused".to_owned()))),
            1 => entries.push((unused.to_owned(), Value::Raw("false".to_owned()))),
            2 => {
                self.plain = false;
                entries.push((
                    unused.to_owned(),
                    Value::Raw("[1, {\"a\": null}]".to_owned()),
                ));
            }
            _ => {}
        }
        entries
    }

    fn record(mut self, record: &[StoredMessage]) -> (String, bool) {
        let messages: Vec<_> = record.iter().map(|m| self.message(m)).collect();
        if self.below(3) == 0 {
            self.object(vec![
                ("version".to_owned(), Value::Raw("1".to_owned())),
                ("messages".to_owned(), Value::Array(messages)),
            ]);
        } else {
            self.space();
            self.out.push('[');
            for (i, message) in messages.into_iter().enumerate() {
                if i > 0 {
                    self.out.push(',');
                }
                self.object(message);
            }
            self.space();
            self.out.push(']');
            self.space();
        }
        (self.out, self.plain)
    }
}

/// A value the speller writes.
enum Value {
    /// A string the fast reader reads.
    Text(String),
    /// A string the fast reader borrows (a role, a block type): taken only when spelled
    /// without an escape.
    Name(String),
    /// JSON text written as it is.
    Raw(String),
    /// Any value under an unknown key.
    Unknown,
    Object(Vec<(String, Value)>),
    Array(Vec<Vec<(String, Value)>>),
}

/// A text broken in one of the ways a stored file breaks: cut short, a byte lost, a byte of
/// JSON's syntax put in, a stretch repeated.
fn broken(text: &str, how: u8, at: usize, byte: u8) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let at = at % (bytes.len() + 1);
    let syntax = b"\"\\,:{}[]0-e.+ \x01unt\n";
    match how % 5 {
        0 => bytes.truncate(at),
        1 => {
            if at < bytes.len() {
                bytes.remove(at);
            }
        }
        2 => bytes.insert(at, syntax[byte as usize % syntax.len()]),
        3 => {
            if at < bytes.len() {
                bytes[at] = syntax[byte as usize % syntax.len()];
            }
        }
        _ => {
            let end = (at + 1 + byte as usize % 16).min(bytes.len());
            let stretch = bytes[at..end].to_vec();
            bytes.splice(at..at, stretch);
        }
    }
    // A broken text is still text: `parse_record` takes a `&str`.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The record with each unknown block's text as serde_json writes what it says, and without
/// the keys this version does not read (the speller adds some; both readers keep them alike,
/// which `same_reading` checks).
fn canonical(mut record: Vec<StoredMessage>) -> Vec<StoredMessage> {
    for message in &mut record {
        message.unknown = Default::default();
    }
    for block in record.iter_mut().flat_map(|message| &mut message.blocks) {
        if let Block::Unknown { json, .. } = block {
            *json = serde_json::from_str::<serde_json::Value>(json)
                .unwrap()
                .to_string();
        }
    }
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_fast_reader_takes_every_plainly_spelled_record_and_reads_what_serde_reads(
        record in record(),
        seed in any::<u64>(),
    ) {
        let (text, plain) = Speller::new(seed).record(&record);
        // A newer writer's block keeps its text as spelled: it is compared by what it says.
        prop_assert_eq!(parse_record(&text).map(canonical), Ok(canonical(record.clone())), "text: {:?}", text);
        same_reading(&text)?;
        if plain {
            prop_assert_eq!(parse_record_fast_only(&text).map(canonical), Some(canonical(record)), "text: {:?}", text);
        }
    }

    #[test]
    fn the_fast_reader_takes_every_record_the_crate_writes(record in record()) {
        let written = write_record(&record);
        prop_assert_eq!(parse_record_fast_only(&written), Some(record.clone()));
        let pretty = serde_json::to_string_pretty(&record).unwrap();
        prop_assert_eq!(parse_record_fast_only(&pretty), Some(record));
    }

    #[test]
    fn a_broken_record_reads_the_same_whoever_reads_it(
        record in record(),
        seed in any::<u64>(),
        breaks in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..4),
    ) {
        let (mut text, _) = Speller::new(seed).record(&record);
        for (how, at, byte) in breaks {
            text = broken(&text, how, at, byte);
            same_reading(&text)?;
        }
    }
}
