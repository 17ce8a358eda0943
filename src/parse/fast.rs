//! The fast reader: a record read straight from its bytes, for the record that is plainly
//! well formed.
//!
//! It answers `None` ("not sure") at the first thing it does not expect: any syntax error, a
//! key written with an escape, a `\u` escape of a surrogate, a known field of an unexpected
//! type, a missing or repeated field, a number it would have to think about. [`parse_record`]
//! then reads the text again with the serde reader, which gives the record or the error with
//! its location. So the fast reader never decides an error, and on what it accepts it must
//! give exactly the serde reader's record: `conformance/tests/conformance/fast_reader.rs` and the fuzz
//! target check that it does, on generated records and on any text.
//!
//! What it saves: serde's visitor machinery for each block, a copy of each string with an
//! escape (serde_json unescapes into a scratch buffer that the reader then copies), and the
//! bookkeeping of where an error would be.
//!
//! [`parse_record`]: super::parse_record

use crate::json::{copy_escaping, first_escape, AtStop, Step, Stopped};
use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};

/// The record in `json`, or `None` when the serde reader must decide.
pub(super) fn read(json: &str) -> Option<Vec<StoredMessage>> {
    let mut reader = Reader {
        text: json,
        at: 0,
        scratch: Vec::new(),
        unknown_keys: false,
    };
    let mut record = match reader.next()? {
        b'[' => reader.messages()?,
        b'{' => reader.file()?,
        _ => return None,
    };
    reader.skip_space();
    if reader.at != json.len() {
        return None;
    }
    // Keys this version does not read are kept, read again only when there are some.
    if reader.unknown_keys {
        super::outlive::keep_unknown_keys(json, &mut record);
    }
    Some(record)
}

/// The text of the JSON string `quoted` (quotes included), unescaped, or `None` when the
/// string is not plainly well formed or has a `\u` escape of a surrogate.
pub(super) fn quoted_string(quoted: &str) -> Option<String> {
    let mut reader = Reader {
        text: quoted,
        at: 0,
        scratch: Vec::new(),
        unknown_keys: false,
    };
    let text = reader.string()?;
    (reader.at == quoted.len()).then_some(text)
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
    /// Where a string with escapes is unescaped, reused from string to string.
    scratch: Vec<u8>,
    /// Whether a message or a block has a key this version does not read.
    unknown_keys: bool,
}

/// A known field of a block, as read before the block's type is known: only the two kinds
/// a block's fields can have (anything else is left to the serde reader).
enum Field {
    String(String),
    Bool(bool),
}

/// The fields of one block, as read so far.
#[derive(Default)]
struct Fields {
    kind: Option<Kind>,
    text: Option<Field>,
    id: Option<Field>,
    name: Option<Field>,
    input: Option<ToolInput>,
    tool_use_id: Option<Field>,
    tool_name: Option<Field>,
    output: Option<Field>,
    is_error: Option<Field>,
    reasoning: Option<Field>,
    media_type: Option<Field>,
    data: Option<Field>,
    provider_executed: Option<Field>,
    url: Option<Field>,
    title: Option<Field>,
    cited_text: Option<Field>,
    summary: Option<Field>,
    provider: Option<Field>,
}

impl Fields {
    /// How many keys of its own type the block has, beside `type`; none for a block of no
    /// type yet, or of one this version does not read.
    fn used(&self) -> Option<usize> {
        let count = |present: &[bool]| present.iter().filter(|present| **present).count();
        Some(match self.kind? {
            Kind::Text => count(&[self.text.is_some()]),
            Kind::ToolUse => count(&[
                self.id.is_some(),
                self.name.is_some(),
                self.input.is_some(),
                self.provider_executed.is_some(),
            ]),
            Kind::ToolResult => count(&[
                self.tool_use_id.is_some(),
                self.tool_name.is_some(),
                self.output.is_some(),
                self.is_error.is_some(),
            ]),
            Kind::Reasoning => count(&[self.reasoning.is_some()]),
            Kind::Image => count(&[self.media_type.is_some(), self.data.is_some()]),
            Kind::File => count(&[
                self.media_type.is_some(),
                self.data.is_some(),
                self.name.is_some(),
            ]),
            Kind::Source => count(&[
                self.url.is_some(),
                self.title.is_some(),
                self.cited_text.is_some(),
            ]),
            Kind::Compaction => count(&[
                self.summary.is_some(),
                self.provider.is_some(),
                self.data.is_some(),
            ]),
            Kind::Unknown => return None,
        })
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Text,
    ToolUse,
    ToolResult,
    Reasoning,
    Image,
    File,
    Source,
    Compaction,
    /// A type this version does not read: the block is kept as its text.
    Unknown,
}

/// Stores a value in an empty slot; a second value for a field is the serde reader's error.
fn put<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    match slot.replace(value) {
        Some(_) => None,
        None => Some(()),
    }
}

fn string_of(field: Option<Field>) -> Option<String> {
    match field? {
        Field::String(text) => Some(text),
        Field::Bool(_) => None,
    }
}

impl Fields {
    /// The block the fields make; `raw` is the block's text and `unknown` its type, for a
    /// type this version does not read.
    fn into_block(self, raw: &str, unknown: Option<&str>) -> Option<Block> {
        Some(match self.kind? {
            Kind::Text => Block::Text {
                text: string_of(self.text)?,
            },
            Kind::ToolUse => Block::ToolUse {
                id: string_of(self.id)?,
                name: string_of(self.name)?,
                input: self.input?,
                provider_executed: match self.provider_executed {
                    Some(Field::Bool(flag)) => flag,
                    Some(Field::String(_)) => return None,
                    None => false,
                },
            },
            Kind::ToolResult => Block::ToolResult {
                tool_use_id: string_of(self.tool_use_id)?,
                tool_name: string_of(self.tool_name)?,
                output: string_of(self.output)?,
                is_error: match self.is_error {
                    Some(Field::Bool(is_error)) => is_error,
                    Some(Field::String(_)) => return None,
                    None => false,
                },
            },
            Kind::Reasoning => Block::Reasoning {
                reasoning: string_of(self.reasoning)?,
            },
            Kind::Image => Block::Image {
                media_type: string_of(self.media_type)?,
                data: string_of(self.data)?,
            },
            Kind::Source => {
                let optional = |field: Option<Field>| match field {
                    None => Some(None),
                    Some(field) => string_of(Some(field)).map(Some),
                };
                let (url, title) = (optional(self.url)?, optional(self.title)?);
                if url.is_none() && title.is_none() {
                    return None;
                }
                Block::Source {
                    url,
                    title,
                    cited_text: optional(self.cited_text)?,
                }
            }
            Kind::File => Block::File {
                media_type: string_of(self.media_type)?,
                data: string_of(self.data)?,
                name: match self.name {
                    None => None,
                    Some(name) => Some(string_of(Some(name))?),
                },
            },
            Kind::Compaction => {
                let optional = |field: Option<Field>| match field {
                    None => Some(None),
                    Some(field) => string_of(Some(field)).map(Some),
                };
                let (summary, provider, data) = (
                    optional(self.summary)?,
                    optional(self.provider)?,
                    optional(self.data)?,
                );
                // The serde reader names what is missing.
                if (summary.is_none() && data.is_none()) || (data.is_some() && provider.is_none()) {
                    return None;
                }
                Block::Compaction {
                    summary,
                    provider,
                    data,
                }
            }
            Kind::Unknown => Block::Unknown {
                type_name: unknown?.to_owned(),
                json: raw.to_owned(),
            },
        })
    }
}

/// The reader of a string where it stops: at a quote, the string ends; at a backslash, the
/// escape is unescaped; anything else (a control character) is the serde reader's to report.
struct Unescape;

impl AtStop for Unescape {
    #[inline(always)]
    fn at_stop(out: &mut Vec<u8>, stop: &[u8]) -> Option<Step> {
        match stop {
            [b'"', ..] => Some(Step::End(1)),
            [b'\\', escaped @ ..] => Some(Step::Past(1 + unescape(out, escaped)?)),
            _ => None,
        }
    }
}

/// Unescapes the escape whose backslash `escaped` follows into `out`: the number of bytes
/// of `escaped` it takes, or `None` for one the serde reader must read (malformed, or a `\u`
/// escape of a surrogate).
#[inline(always)]
fn unescape(out: &mut Vec<u8>, escaped: &[u8]) -> Option<usize> {
    match UNESCAPED.get(usize::from(*escaped.first()?)) {
        Some(0) | None => None,
        Some(&U) => {
            let code = hex(escaped.get(1..5)?)?;
            // None for a surrogate, paired or not: the serde reader reads it.
            let unescaped = char::from_u32(code)?;
            out.extend_from_slice(unescaped.encode_utf8(&mut [0; 4]).as_bytes());
            Some(5)
        }
        Some(&byte) => {
            out.push(byte);
            Some(1)
        }
    }
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The next byte after white space, not consumed.
    fn next(&mut self) -> Option<u8> {
        self.skip_space();
        self.peek()
    }

    /// Consumes `byte`, the next after white space.
    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then(|| self.at += 1)
    }

    /// Reads an object, calling `entry` with each key, the reader at its value.
    fn object(&mut self, mut entry: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.next()? == b'}' {
            self.at += 1;
            return Some(());
        }
        loop {
            let key = self.plain()?;
            self.eat(b':')?;
            entry(self, key)?;
            match self.next()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Reads an array, calling `element` with the reader at each element.
    fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        if self.next()? == b']' {
            self.at += 1;
            return Some(());
        }
        loop {
            element(self)?;
            match self.next()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A conversation file: version 1 and the messages, any other key skipped.
    fn file(&mut self) -> Option<Vec<StoredMessage>> {
        let mut version = None;
        let mut messages = None;
        self.object(|reader, key| match key {
            "version" => {
                // The one version there is, spelled as the one number 1 is.
                reader.eat(b'1')?;
                if let Some(b'0'..=b'9' | b'.' | b'e' | b'E') = reader.peek() {
                    return None;
                }
                put(&mut version, ())
            }
            "messages" => put(&mut messages, reader.messages()?),
            _ => reader.skip_value(),
        })?;
        version?;
        messages
    }

    fn messages(&mut self) -> Option<Vec<StoredMessage>> {
        let mut messages = Vec::new();
        self.array(|reader| {
            messages.push(reader.message()?);
            Some(())
        })?;
        Some(messages)
    }

    fn message(&mut self) -> Option<StoredMessage> {
        let mut role = None;
        let mut blocks = None;
        let mut usage = None;
        let mut timestamp = None;
        self.object(|reader, key| match key {
            "role" => put(&mut role, reader.role()?),
            "blocks" => put(&mut blocks, reader.blocks()?),
            "usage" => {
                let value = match reader.next()? {
                    b'n' => reader.literal("null").map(|()| None)?,
                    _ => Some(reader.usage()?),
                };
                put(&mut usage, value)
            }
            "timestamp" => {
                let value = match reader.next()? {
                    b'n' => reader.literal("null").map(|()| None)?,
                    _ => Some(reader.string()?),
                };
                put(&mut timestamp, value)
            }
            // A key this version does not read: kept once the record is read.
            _ => {
                reader.unknown_keys = true;
                reader.skip_value()
            }
        })?;
        Some(StoredMessage {
            role: role?,
            blocks: blocks?,
            usage: usage.flatten(),
            timestamp: timestamp.flatten(),
            unknown: crate::record::kept::UnknownKeys::default(),
        })
    }

    fn role(&mut self) -> Option<Role> {
        match self.plain()? {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }

    fn usage(&mut self) -> Option<TokenUsage> {
        let mut input = None;
        let mut output = None;
        let mut creation = None;
        let mut read = None;
        let mut context = None;
        self.object(|reader, key| match key {
            "input_tokens" => put(&mut input, reader.count()?),
            "output_tokens" => put(&mut output, reader.count()?),
            "cache_creation_input_tokens" => put(&mut creation, reader.count()?),
            "cache_read_input_tokens" => put(&mut read, reader.count()?),
            "context_tokens" => put(&mut context, reader.count()?),
            _ => reader.skip_value(),
        })?;
        Some(TokenUsage {
            input_tokens: input?,
            output_tokens: output?,
            cache_creation_input_tokens: creation.unwrap_or(0),
            cache_read_input_tokens: read.unwrap_or(0),
            context_tokens: context.unwrap_or(0),
        })
    }

    /// A count of tokens: digits without a leading zero that fit a `u64`.
    fn count(&mut self) -> Option<u64> {
        let first = self.next()?;
        let mut value = u64::from(first.checked_sub(b'0').filter(|digit| *digit < 10)?);
        self.at += 1;
        while let Some(byte @ b'0'..=b'9') = self.peek() {
            if value == 0 {
                return None;
            }
            value = value.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
            self.at += 1;
        }
        // A fraction or an exponent after the digits is caught by what reads on: it is no
        // separator.
        Some(value)
    }

    fn blocks(&mut self) -> Option<Vec<Block>> {
        let mut blocks = Vec::new();
        self.array(|reader| {
            blocks.push(reader.block()?);
            Some(())
        })?;
        Some(blocks)
    }

    fn block(&mut self) -> Option<Block> {
        let mut fields = Fields::default();
        let mut unknown = None;
        let mut keys = 0usize;
        self.skip_space();
        let start = self.at;
        self.object(|reader, key| {
            keys += 1;
            let slot = match key {
                "type" => {
                    let kind = match reader.plain()? {
                        "text" => Kind::Text,
                        "tool_use" => Kind::ToolUse,
                        "tool_result" => Kind::ToolResult,
                        "reasoning" => Kind::Reasoning,
                        "image" => Kind::Image,
                        "file" => Kind::File,
                        "source" => Kind::Source,
                        "compaction" => Kind::Compaction,
                        other => {
                            unknown = Some(other);
                            Kind::Unknown
                        }
                    };
                    return put(&mut fields.kind, kind);
                }
                // A block of a type this version does not read keeps its fields as text.
                _ if matches!(fields.kind, Some(Kind::Unknown)) => return reader.skip_value(),
                "input" => {
                    let input = match reader.next()? {
                        b'"' => ToolInput::from(reader.string()?),
                        _ => ToolInput::json_unchecked(reader.raw_value()?.to_owned()),
                    };
                    return put(&mut fields.input, input);
                }
                "text" => &mut fields.text,
                "id" => &mut fields.id,
                "name" => &mut fields.name,
                "tool_use_id" => &mut fields.tool_use_id,
                "tool_name" => &mut fields.tool_name,
                "output" => &mut fields.output,
                "is_error" => &mut fields.is_error,
                "reasoning" => &mut fields.reasoning,
                "media_type" => &mut fields.media_type,
                "data" => &mut fields.data,
                "provider_executed" => &mut fields.provider_executed,
                "url" => &mut fields.url,
                "title" => &mut fields.title,
                "cited_text" => &mut fields.cited_text,
                "summary" => &mut fields.summary,
                "provider" => &mut fields.provider,
                // A key this version does not read: kept once the record is read.
                _ => {
                    reader.unknown_keys = true;
                    return reader.skip_value();
                }
            };
            let field = match reader.next()? {
                b'"' => Field::String(reader.string()?),
                b't' => reader.literal("true").map(|()| Field::Bool(true))?,
                b'f' => reader.literal("false").map(|()| Field::Bool(false))?,
                _ => return None,
            };
            put(slot, field)
        })?;
        // A key of another type's (a text block's `id`) is one this type does not read: kept.
        if fields.used().is_some_and(|used| keys != used + 1) {
            self.unknown_keys = true;
        }
        let raw = self.text.get(start..self.at)?;
        fields.into_block(raw, unknown)
    }

    /// Consumes the literal `word`, the next after white space.
    fn literal(&mut self, word: &str) -> Option<()> {
        self.skip_space();
        let end = self.at + word.len();
        (self.text.as_bytes().get(self.at..end)? == word.as_bytes()).then(|| self.at = end)
    }

    /// A string with no escape in it, borrowed from the text: a key, a role or a block's
    /// type (one spelled with an escape is left to the serde reader).
    fn plain(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let end = start + first_escape(self.text.as_bytes().get(start..)?)?;
        match self.text.as_bytes().get(end)? {
            b'"' => {
                self.at = end + 1;
                self.text.get(start..end)
            }
            _ => None,
        }
    }

    /// A string, unescaped: copied once from the text when it has no escape; else unescaped
    /// into the reader's scratch buffer (by the writer's own loop, [`copy_escaping`]) and
    /// copied from there once, at its length.
    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let text = self.text;
        let bytes = text.as_bytes();
        let start = self.at;
        let end = start + first_escape(bytes.get(start..)?)?;
        if *bytes.get(end)? == b'"' {
            self.at = end + 1;
            return text.get(start..end).map(str::to_owned);
        }
        // Taken, and given back at the end (a failure gives up the read, and the buffer with
        // it): through `&mut self`, the compiler reloads its length and pointer at every word.
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend_from_slice(bytes.get(start..end)?);
        let stopped = copy_escaping::<Unescape>(&mut scratch, bytes.get(end..)?)?;
        match stopped {
            Stopped::Ended(taken) => self.at = end + taken,
            Stopped::RanOut => return None,
        }
        // Always UTF-8 (runs of the text cut at ASCII bytes, and whole characters), checked
        // because only `unsafe` could skip the check.
        let text = String::from_utf8(scratch.clone()).ok();
        self.scratch = scratch;
        text
    }

    /// Skips a string as serde_json skips one: every escape well formed, no control
    /// character; a `\u` escape of a surrogate is left to the serde reader.
    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        loop {
            let end = self.at + first_escape(bytes.get(self.at..)?)?;
            match *bytes.get(end)? {
                b'"' => {
                    self.at = end + 1;
                    return Some(());
                }
                b'\\' => {}
                _ => return None,
            }
            let length = match UNESCAPED.get(usize::from(*bytes.get(end + 1)?)) {
                Some(0) | None => return None,
                // A pair of surrogates is skipped whole; a lone one is the serde reader's,
                // which reads it as the replacement character, in a raw value too.
                Some(&U) => match hex(bytes.get(end + 2..end + 6)?)? {
                    0xD800..=0xDBFF if bytes.get(end + 6..end + 8)? == b"\\u" => {
                        match hex(bytes.get(end + 8..end + 12)?)? {
                            0xDC00..=0xDFFF => 11,
                            _ => return None,
                        }
                    }
                    0xD800..=0xDFFF => return None,
                    _ => 5,
                },
                Some(_) => 1,
            };
            self.at = end + 1 + length;
        }
    }

    /// Skips a number as serde_json's grammar has it.
    fn skip_number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.skip_digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.digits()?;
        }
        // A digit after a leading zero is caught by what reads on: it is no separator.
        Some(())
    }

    /// At least one digit.
    fn digits(&mut self) -> Option<()> {
        self.peek()?.is_ascii_digit().then(|| self.skip_digits())
    }

    fn skip_digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    /// The raw text of the next value, white space around it excluded.
    fn raw_value(&mut self) -> Option<&'a str> {
        self.skip_space();
        let start = self.at;
        self.skip_value()?;
        self.text.get(start..self.at)
    }

    /// Skips one value of any depth, as serde_json skips a value it ignores: without
    /// recursion, the open arrays and objects kept as bits (past 128 of them, the serde
    /// reader decides).
    fn skip_value(&mut self) -> Option<()> {
        // Bit `i` of `objects` says whether the `i`th open container is an object.
        let mut objects: u128 = 0;
        let mut depth: u32 = 0;
        loop {
            match self.next()? {
                b'"' => self.skip_string()?,
                b'-' | b'0'..=b'9' => self.skip_number()?,
                b'n' => self.literal("null")?,
                b't' => self.literal("true")?,
                b'f' => self.literal("false")?,
                open @ (b'[' | b'{') => {
                    if depth == 128 {
                        return None;
                    }
                    self.at += 1;
                    let object = open == b'{';
                    objects |= u128::from(object) << depth;
                    depth += 1;
                    let close = if object { b'}' } else { b']' };
                    if self.next()? != close {
                        if object {
                            self.skip_string()?;
                            self.eat(b':')?;
                        }
                        continue;
                    }
                }
                _ => return None,
            }
            // After a value, or at the close of an empty container: close what ends here,
            // then go on after a comma.
            loop {
                let Some(top) = depth.checked_sub(1) else {
                    return Some(());
                };
                let object = objects >> top & 1 == 1;
                match self.next()? {
                    b']' if !object => {}
                    b'}' if object => {}
                    b',' => {
                        self.at += 1;
                        if object {
                            self.skip_string()?;
                            self.eat(b':')?;
                        }
                        break;
                    }
                    _ => return None,
                }
                self.at += 1;
                objects &= !(1 << top);
                depth = top;
            }
        }
    }
}

/// In [`UNESCAPED`], the mark of `u`, whose escape goes on with four hexadecimal digits.
const U: u8 = 0xff;

/// What each byte after a backslash stands for: the byte of its short escape, [`U`] for `u`,
/// 0 for a byte that makes no escape. A table rather than a match: the escapes of text
/// (quotes, line breaks) alternate unpredictably, and a match on them is a jump the
/// processor guesses wrong.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
const UNESCAPED: [u8; 256] = {
    let mut table = [0; 256];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'/' as usize] = b'/';
    table[b'b' as usize] = 0x08;
    table[b'f' as usize] = 0x0c;
    table[b'n' as usize] = b'\n';
    table[b'r' as usize] = b'\r';
    table[b't' as usize] = b'\t';
    table[b'u' as usize] = U;
    table
};

/// The value of four hexadecimal digits.
fn hex(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0, |value, &digit| {
        let digit = char::from(digit).to_digit(16)?;
        Some(value << 4 | digit)
    })
}
