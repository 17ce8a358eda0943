//! The provider-neutral wire messages that replay produces, and the join rule that builds
//! their content.
//!
//! # The join rule
//!
//! Consecutive pieces are joined into one text part with a blank line (`"\n\n"`) between
//! them; an image or file part ends the text part before it, and text after it starts a new
//! one. An empty `text` block contributes nothing (no piece, no separator). A message that
//! yields nothing gets one text part, `[Empty message]`. The rule lives here once, used by
//! replay and by every renderer, so text re-joined around a degraded image is joined the same
//! way everywhere. Why: `docs/design.md#join-rule` in the repository.
//!
//! # The wire JSON
//!
//! A wire message serializes as
//! `{"role":"assistant","content":[{"type":"text","text":"..."},{"type":"image","media_type":"image/png","data":"..."}]}`.
//!
//! # Copied once
//!
//! The wire messages borrow every string from the record: replay decides structure only. A
//! [`Text`] is the run of pieces that make one text part, each borrowing its block; it
//! implements `Display` and serializes as one JSON string, joined and escaped as it is
//! written. So the bytes of a history are copied once, into the request body, as it is
//! serialized, and never before.

pub use crate::json::CompactJson;
pub use crate::media::file::File;
pub use crate::media::marker::{Reason, TextOnlyOutput};
pub use crate::media::signature::ImageFormat;
pub use crate::record::compaction::Compaction;

use std::fmt;
use std::mem;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::media::marker::{ShownMediaType, WITHHELD};

/// One message on the wire: a role and its content, borrowed from the stored record.
///
/// It serializes as `{"role":"assistant","content":[...]}`. Replay never leaves `content`
/// empty.
///
/// ```
/// use transcript_replay::{parse_record, replay_message, Vision, wire::WireRole};
///
/// let record = parse_record(r#"[{"role": "tool", "blocks": [
///     {"type": "tool_result", "tool_use_id": "t1", "tool_name": "ls", "output": "a.rs", "is_error": false}
/// ]}]"#)?;
/// let wire = replay_message(&record[0], Vision::Sees);
/// assert_eq!(wire.role, WireRole::Assistant);
/// assert_eq!(
///     serde_json::to_string(&wire).unwrap(),
///     r#"{"role":"assistant","content":[{"type":"text","text":"Result (ls): a.rs"}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq, Hash)]
pub struct WireMessage<'a> {
    /// Who the message is from.
    pub role: WireRole,
    /// The message's parts, in order.
    pub content: Vec<Part<'a>>,
}

/// The role of a wire message. There is no tool role, by construction: tool rounds cross as
/// the assistant's prose.
///
/// ```
/// use transcript_replay::wire::WireRole;
///
/// assert_eq!(serde_json::to_string(&WireRole::Assistant)?, r#""assistant""#);
/// assert_eq!(WireRole::User.as_str(), "user");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum WireRole {
    /// Instructions for the model.
    System,
    /// A person's turn.
    User,
    /// The model's own turn, tool rounds included.
    Assistant,
}

impl WireRole {
    /// The role's name as it is written on the wire.
    ///
    /// ```
    /// assert_eq!(transcript_replay::wire::WireRole::System.as_str(), "system");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            WireRole::System => "system",
            WireRole::User => "user",
            WireRole::Assistant => "assistant",
        }
    }
}

/// One part of a wire message's content: a run of text, a native image, or a native file.
///
/// A text part serializes as `{"type":"text","text":"..."}`, an image part as
/// `{"type":"image","media_type":"image/png","data":"..."}`, a file part as
/// `{"type":"file","media_type":"application/pdf","data":"...","name":"contract.pdf"}`
/// (`name` when it has one).
///
/// ```
/// use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "text", "text": "What is this?"},
///     {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgo="}
/// ]}]"#)?;
/// let wire = replay_message(&record[0], Vision::Sees);
/// match wire.content.as_slice() {
///     [Part::Text(text), Part::Image(image)] => {
///         assert_eq!(text.to_string(), "What is this?");
///         assert_eq!(image.media_type(), "image/png");
///     }
///     other => panic!("unexpected parts: {other:?}"),
/// }
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part<'a> {
    /// A run of text pieces, joined by a blank line.
    Text(Text<'a>),
    /// An image sent natively.
    Image(Image<'a>),
    /// A file sent natively: a PDF, a text document, audio or video.
    File(File<'a>),
    /// A compaction sent natively, to the provider that made it (boxed: it is rare, and the
    /// other parts stay small).
    Compaction(Box<Compaction<'a>>),
}

impl Serialize for Part<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Part::Text(text) => {
                let mut part = serializer.serialize_struct("Part", 2)?;
                part.serialize_field("type", "text")?;
                part.serialize_field("text", text)?;
                part.end()
            }
            Part::Image(image) => {
                let mut part = serializer.serialize_struct("Part", 3)?;
                part.serialize_field("type", "image")?;
                part.serialize_field("media_type", image.media_type)?;
                part.serialize_field("data", image.data)?;
                part.end()
            }
            Part::Compaction(compaction) => compaction.serialize(serializer),
            Part::File(file) => {
                let mut part = serializer.serialize_struct("Part", 4)?;
                part.serialize_field("type", "file")?;
                part.serialize_field("media_type", file.media_type())?;
                part.serialize_field("data", file.data())?;
                if let Some(name) = file.name() {
                    part.serialize_field("name", name)?;
                }
                part.end()
            }
        }
    }
}

/// The text of one part: the pieces it is made of, each borrowing its stored block.
///
/// No string is built for it: [`Display`](fmt::Display) writes the pieces joined by a blank
/// line, and serialization writes them as one JSON string, escaped as it is written. So the
/// bytes of a history are copied once, into the request body. `to_string()` builds the string
/// for a caller that wants one.
///
/// ```
/// use transcript_replay::{parse_record, replay_message, wire::Part, wire::Piece, Vision};
///
/// let record = parse_record(r#"[{"role": "assistant", "blocks": [
///     {"type": "reasoning", "reasoning": "Check the file."},
///     {"type": "tool_use", "id": "t1", "name": "read", "input": "{\"path\":\"a.rs\"}"}
/// ]}]"#)?;
/// let wire = replay_message(&record[0], Vision::Sees);
/// let Part::Text(text) = &wire.content[0] else { unreachable!() };
/// assert_eq!(text.to_string(), "[Reasoning]: Check the file.\n\nTool use: read({\"path\":\"a.rs\"})");
/// assert_eq!(text.pieces()[1], Piece::ToolUse { name: "read", input: r#"{"path":"a.rs"}"#, json_value: false });
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Text<'a> {
    pieces: Vec<Piece<'a>>,
    /// Leaves out trailing white space, for a provider that rejects it.
    trim_end: bool,
}

/// The separator of the join rule: consecutive text pieces are joined by a blank line.
const SEPARATOR: &str = "\n\n";

/// A caller's own text as a text part, such as the live turn's question or a system prompt:
/// one [`Piece::Text`], borrowed.
///
/// ```
/// use transcript_replay::{wire::Part, wire::Piece, wire::Text};
///
/// let text = Text::from("Is a.rs empty?");
/// assert_eq!(text.pieces(), [Piece::Text("Is a.rs empty?")]);
/// assert_eq!(serde_json::to_string(&Part::Text(text)).unwrap(), r#"{"type":"text","text":"Is a.rs empty?"}"#);
/// ```
impl<'a> From<&'a str> for Text<'a> {
    fn from(text: &'a str) -> Self {
        Text::from_pieces(vec![Piece::Text(text)])
    }
}

/// A caller's own text as a part.
///
/// ```
/// use transcript_replay::wire::Part;
///
/// assert!(matches!(Part::from("Go on."), Part::Text(_)));
/// ```
impl<'a> From<&'a str> for Part<'a> {
    fn from(text: &'a str) -> Self {
        Part::Text(Text::from(text))
    }
}

impl<'a> Text<'a> {
    /// The pieces this text is made of, in order.
    ///
    /// ```
    /// use transcript_replay::{parse_record, replay_messages, wire::Part, wire::Piece, Vision};
    ///
    /// let record = parse_record(r#"[{"role": "user", "blocks": []}]"#)?;
    /// let wire = replay_messages(&record, Vision::Sees);
    /// let Part::Text(text) = &wire[0].content[0] else { unreachable!() };
    /// assert_eq!(text.pieces(), [Piece::EmptyMessage]);
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    pub fn pieces(&self) -> &[Piece<'a>] {
        &self.pieces
    }

    /// A text of the given pieces, joined by the join rule.
    ///
    /// ```
    /// use transcript_replay::{wire::Piece, wire::Text};
    ///
    /// let text = Text::from_pieces(vec![Piece::Text("Be brief."), Piece::Text("Be kind.")]);
    /// assert_eq!(text.to_string(), "Be brief.\n\nBe kind.");
    /// ```
    pub fn from_pieces(pieces: Vec<Piece<'a>>) -> Self {
        Text {
            pieces,
            trim_end: false,
        }
    }

    /// Begins the text with `[System]: `: a system message that a provider takes only as a
    /// user turn says what it was.
    pub(crate) fn label_as_system(&mut self) {
        self.pieces.insert(0, Piece::SystemLabel);
    }

    /// Joins another text after this one, by the join rule: one text part, as if their
    /// pieces had come in one message.
    pub(crate) fn join(&mut self, other: Text<'a>) {
        self.pieces.extend(other.pieces);
        self.trim_end |= other.trim_end;
    }

    pub(crate) fn trim_end(&mut self) {
        self.trim_end = true;
    }

    /// Whether the text is white space only, and so no content a provider will take.
    pub(crate) fn is_blank(&self) -> bool {
        self.pieces.iter().all(Piece::is_blank)
    }

    /// The join rule, the one place it lives: pieces joined by a blank line, except that the
    /// system label runs straight into the piece it labels.
    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let mut previous: Option<&Piece<'_>> = None;
        for piece in &self.pieces {
            match previous {
                None | Some(Piece::SystemLabel) => {}
                Some(_) => out.write_str(SEPARATOR)?,
            }
            write!(out, "{piece}")?;
            previous = Some(piece);
        }
        Ok(())
    }
}

impl fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.trim_end {
            let mut out = TrimEnd {
                out: f,
                pending: String::new(),
            };
            self.write_to(&mut out)
        } else {
            self.write_to(f)
        }
    }
}

impl Serialize for Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Writes through to `out`, holding back white space until something follows it, so that
/// trailing white space is never written.
struct TrimEnd<'f, W> {
    out: &'f mut W,
    pending: String,
}

impl<W: fmt::Write> fmt::Write for TrimEnd<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let kept = s.trim_end_matches(is_blank_char);
        if !kept.is_empty() {
            self.out.write_str(&self.pending)?;
            self.pending.clear();
            self.out.write_str(kept)?;
        }
        self.pending
            .push_str(s.get(kept.len()..).unwrap_or_default());
        Ok(())
    }
}

/// White space, as the strictest provider counts it: Unicode white space, and the four ASCII
/// separators (U+001C to U+001F) that Python's `str.isspace` also counts.
pub(crate) fn is_blank_char(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// One prose form: what one stored block (or the replay itself) contributes to a text part.
///
/// Each borrows the strings of its block; its [`Display`](fmt::Display) is the exact prose of
/// the crate's table of prose forms (see the crate documentation and the README).
///
/// ```
/// use transcript_replay::{wire::Piece, wire::Reason};
///
/// let pieces = [
///     Piece::Text("It is empty."),
///     Piece::ToolUse { name: "read", input: r#"{"path": "a.rs"}"#, json_value: true },
///     Piece::ToolResult { tool_name: "read", output: "fn main() {}", is_error: false },
///     Piece::ToolResult { tool_name: "bash", output: "exit 1", is_error: true },
///     Piece::ToolResult { tool_name: "touch", output: "", is_error: false },
///     Piece::Reasoning("Need the file first."),
///     Piece::ImageNotShown { media_type: "image/png", reason: Reason::Blind },
///     Piece::FileFromEarlierTurn { media_type: "application/pdf", name: Some("r.pdf") },
///     Piece::EmptyMessage,
/// ];
/// let prose: Vec<String> = pieces.iter().map(ToString::to_string).collect();
/// assert_eq!(prose, [
///     "It is empty.",
///     r#"Tool use: read({"path":"a.rs"})"#,
///     "Result (read): fn main() {}",
///     "Error (bash): exit 1",
///     "Result (touch):",
///     "[Reasoning]: Need the file first.",
///     "[Image (image/png) not shown: this model cannot view images]",
///     "[File r.pdf (application/pdf) from an earlier turn]",
///     "[Empty message]",
/// ]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece<'a> {
    /// A `text` block: the text itself.
    Text(&'a str),
    /// A `tool_use` block: `Tool use: {name}({input})`.
    ToolUse {
        /// The tool's name.
        name: &'a str,
        /// The tool's input as stored.
        input: &'a str,
        /// Whether the input is stored as a JSON value: it is then written with the white
        /// space between its tokens removed, so that the bytes do not depend on how the store
        /// was formatted ([`CompactJson`]). A string input is written exactly as stored.
        json_value: bool,
    },
    /// A `tool_result` block: `Result ({tool_name}): {output}`, or `Error (...)` when the
    /// tool failed; `Result ({tool_name}):` when the output is empty (no space after the
    /// colon).
    ToolResult {
        /// The tool's name.
        tool_name: &'a str,
        /// What the tool returned.
        output: &'a str,
        /// Whether the tool failed.
        is_error: bool,
    },
    /// A `reasoning` block: `[Reasoning]: {reasoning}`.
    Reasoning(&'a str),
    /// An `image` block that is not shown: `[Image ({media_type}) not shown: {reason}]`.
    ImageNotShown {
        /// The stored media type.
        media_type: &'a str,
        /// Why the image is not shown.
        reason: Reason,
    },
    /// A `file` block that is not shown: `[File ({media_type}) not shown: {reason}]`, or
    /// `[File {name} ({media_type}) not shown: {reason}]` when it has a name (the name shown as
    /// a media type is, escaped and cut).
    FileNotShown {
        /// The stored media type.
        media_type: &'a str,
        /// The stored name, when the file has one.
        name: Option<&'a str>,
        /// Why the file is not shown.
        reason: Reason,
    },
    /// `[File {name} ({media_type})]`, or `[File ({media_type})]`: stands before a native
    /// file for a provider that takes files only beside text (Bedrock: "A text block must be
    /// included when using documents"), and says which file follows.
    FileLabel {
        /// The stored media type.
        media_type: &'a str,
        /// The stored name, when the file has one.
        name: Option<&'a str>,
    },
    /// A `source` block: `[Source: {title} <{url}>]`, `[Source: <{url}>]` without a title,
    /// `[Source: {title}]` without a URL.
    Source {
        /// Where the source is.
        url: Option<&'a str>,
        /// The source's title.
        title: Option<&'a str>,
    },
    /// A message that yields nothing else: `[Empty message]`.
    EmptyMessage,
    /// `[System]: `, which begins a system message that a provider takes only as a user
    /// turn; it runs straight into the piece after it, with no separator.
    SystemLabel,
    /// `[Image ({media_type}) from an earlier turn]`: stands before an image that a provider
    /// takes only in user messages, carried from an assistant turn (a tool's screenshot) to
    /// the next user message.
    ImageFromEarlierTurn {
        /// The stored media type.
        media_type: &'a str,
    },
    /// `[File {name} ({media_type}) from an earlier turn]`, or `[File ({media_type}) from an
    /// earlier turn]` without a name: stands before a file that a provider takes only in user
    /// messages, carried from an assistant turn (a tool's PDF) to the next user message.
    FileFromEarlierTurn {
        /// The stored media type.
        media_type: &'a str,
        /// The stored name, when the file has one.
        name: Option<&'a str>,
    },
    /// `[Image from the result of {name} ({id})]`, or without the id when the
    /// call came without one (a made id is never sent): stands before an image a tool of the
    /// round in flight returned, for a provider whose tool results take no image (OpenAI Chat,
    /// Gemini), after the results.
    ToolImage {
        /// The name of the tool whose result it is.
        name: &'a str,
        /// The id of the call, when the provider gave it.
        id: Option<&'a str>,
    },
    /// `[File from the result of {name} ({id})]`, or without the id when the call came
    /// without one: stands before a file a tool of the round in flight returned, for a
    /// provider whose tool results take no file (OpenAI Chat, Gemini), after the results.
    ToolFile {
        /// The name of the tool whose result it is.
        name: &'a str,
        /// The id of the call, when the provider gave it.
        id: Option<&'a str>,
    },
    /// A tool result whose output a [`Budget`](crate::Budget) withheld:
    /// `Result ({tool_name}): [output withheld to fit the context window: {bytes} bytes]`, or
    /// `Error (...)` when the tool failed.
    OutputWithheld {
        /// The tool's name.
        tool_name: &'a str,
        /// Whether the tool failed.
        is_error: bool,
        /// The bytes of the output withheld.
        bytes: usize,
    },
    /// A tool call whose input a budget withheld:
    /// `Tool use: {name}([input withheld to fit the context window: {bytes} bytes])`.
    InputWithheld {
        /// The tool's name.
        name: &'a str,
        /// The bytes of the input withheld, as replay writes it.
        bytes: usize,
    },
    /// Reasoning a budget withheld: `[Reasoning]: [withheld to fit the context window: {bytes}
    /// bytes]`.
    ReasoningWithheld {
        /// The bytes of the reasoning withheld.
        bytes: usize,
    },
    /// The text of an old user message that a budget withheld (a long paste, before whole
    /// messages go): `[text withheld to fit the context window: {bytes} bytes]`.
    TextWithheld {
        /// The bytes of the text withheld.
        bytes: usize,
    },
    /// The oldest stored messages, withheld whole by a budget, in the user turn that stands
    /// for them: `[{count} earlier messages withheld to fit the context window]` (`1 earlier
    /// message`).
    MessagesWithheld {
        /// How many stored messages it stands for.
        count: usize,
    },
    /// A `compaction` block whose summary is sent as prose:
    /// `[Summary of the earlier conversation]: {summary}`.
    Summary(&'a str),
    /// A `compaction` block the target cannot read (another provider's payload, and no
    /// summary): `[Earlier conversation compacted by {provider}: not readable here]`.
    CompactionNotReadable {
        /// The provider whose payload it is, as stored.
        provider: &'a str,
    },
    /// The stored messages a compaction replaced, in the user turn that stands for them:
    /// `[{count} earlier messages replaced by the summary below]` (`1 earlier message`).
    MessagesReplaced {
        /// How many stored messages it stands for.
        count: usize,
    },
    /// A block of a type this version does not read:
    /// `[Not kept: a {type} block this version does not read]`.
    UnknownBlock {
        /// The block's type, as stored.
        type_name: &'a str,
    },
}

impl Piece<'_> {
    /// Whether the piece is white space only, and so is no content a provider will take.
    pub(crate) fn is_blank(&self) -> bool {
        match self {
            Piece::Text(text) => text.chars().all(is_blank_char),
            Piece::ToolUse { .. }
            | Piece::ToolResult { .. }
            | Piece::Reasoning(_)
            | Piece::ImageNotShown { .. }
            | Piece::FileNotShown { .. }
            | Piece::FileLabel { .. }
            | Piece::Source { .. }
            | Piece::ToolFile { .. }
            | Piece::EmptyMessage
            | Piece::SystemLabel
            | Piece::ImageFromEarlierTurn { .. }
            | Piece::FileFromEarlierTurn { .. }
            | Piece::ToolImage { .. }
            | Piece::OutputWithheld { .. }
            | Piece::InputWithheld { .. }
            | Piece::ReasoningWithheld { .. }
            | Piece::TextWithheld { .. }
            | Piece::MessagesWithheld { .. }
            | Piece::Summary(_)
            | Piece::CompactionNotReadable { .. }
            | Piece::MessagesReplaced { .. }
            | Piece::UnknownBlock { .. } => false,
        }
    }
}

impl fmt::Display for Piece<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Piece::Text(text) => f.write_str(text),
            Piece::ToolUse {
                name,
                input,
                json_value,
            } => match json_value {
                true => write!(f, "Tool use: {name}({})", CompactJson(input)),
                false => write!(f, "Tool use: {name}({input})"),
            },
            Piece::ToolResult {
                tool_name,
                output,
                is_error,
            } => {
                let label = if is_error { "Error" } else { "Result" };
                // An empty output leaves the label alone: no space after the colon.
                match output.is_empty() {
                    true => write!(f, "{label} ({tool_name}):"),
                    false => write!(f, "{label} ({tool_name}): {output}"),
                }
            }
            Piece::Reasoning(reasoning) => write!(f, "[Reasoning]: {reasoning}"),
            Piece::ImageNotShown { media_type, reason } => write!(
                f,
                "[Image ({}) not shown: {}]",
                ShownMediaType(media_type),
                reason.describe(media_type)
            ),
            Piece::FileNotShown {
                media_type,
                name,
                reason,
            } => {
                f.write_str("[File ")?;
                if let Some(name) = name {
                    write!(f, "{} ", ShownMediaType(name))?;
                }
                write!(
                    f,
                    "({}) not shown: {}]",
                    ShownMediaType(media_type),
                    reason.describe_file(media_type)
                )
            }
            Piece::FileLabel { media_type, name } => {
                f.write_str("[File ")?;
                if let Some(name) = name {
                    write!(f, "{} ", ShownMediaType(name))?;
                }
                write!(f, "({})]", ShownMediaType(media_type))
            }
            Piece::Source { url, title } => match (title, url) {
                (Some(title), Some(url)) => write!(f, "[Source: {title} <{url}>]"),
                (None, Some(url)) => write!(f, "[Source: <{url}>]"),
                (Some(title), None) => write!(f, "[Source: {title}]"),
                (None, None) => f.write_str("[Source]"),
            },
            Piece::EmptyMessage => f.write_str("[Empty message]"),
            Piece::SystemLabel => f.write_str("[System]: "),
            Piece::ImageFromEarlierTurn { media_type } => write!(
                f,
                "[Image ({}) from an earlier turn]",
                ShownMediaType(media_type)
            ),
            Piece::FileFromEarlierTurn { media_type, name } => {
                f.write_str("[File ")?;
                if let Some(name) = name {
                    write!(f, "{} ", ShownMediaType(name))?;
                }
                write!(f, "({}) from an earlier turn]", ShownMediaType(media_type))
            }
            Piece::ToolImage { name, id } => {
                write!(f, "[Image from the result of {}", ShownMediaType(name))?;
                match id {
                    Some(id) => write!(f, " ({})]", ShownMediaType(id)),
                    None => f.write_str("]"),
                }
            }
            Piece::ToolFile { name, id } => {
                write!(f, "[File from the result of {}", ShownMediaType(name))?;
                match id {
                    Some(id) => write!(f, " ({})]", ShownMediaType(id)),
                    None => f.write_str("]"),
                }
            }
            Piece::OutputWithheld {
                tool_name,
                is_error,
                bytes,
            } => {
                let label = if is_error { "Error" } else { "Result" };
                write!(
                    f,
                    "{label} ({tool_name}): [output {WITHHELD}: {bytes} bytes]"
                )
            }
            Piece::InputWithheld { name, bytes } => {
                write!(f, "Tool use: {name}([input {WITHHELD}: {bytes} bytes])")
            }
            Piece::ReasoningWithheld { bytes } => {
                write!(f, "[Reasoning]: [{WITHHELD}: {bytes} bytes]")
            }
            Piece::TextWithheld { bytes } => {
                write!(f, "[text {WITHHELD}: {bytes} bytes]")
            }
            Piece::MessagesWithheld { count } => {
                let noun = if count == 1 { "message" } else { "messages" };
                write!(f, "[{count} earlier {noun} {WITHHELD}]")
            }
            Piece::Summary(summary) => {
                write!(f, "[Summary of the earlier conversation]: {summary}")
            }
            Piece::CompactionNotReadable { provider } => write!(
                f,
                "[Earlier conversation compacted by {}: not readable here]",
                ShownMediaType(provider)
            ),
            Piece::MessagesReplaced { count } => {
                let noun = if count == 1 { "message" } else { "messages" };
                write!(f, "[{count} earlier {noun} replaced by the summary below]")
            }
            Piece::UnknownBlock { type_name } => write!(
                f,
                "[Not kept: a {} block this version does not read]",
                ShownMediaType(type_name)
            ),
        }
    }
}

/// An image sent natively: the stored media type and base64 data, borrowed.
///
/// ```
/// use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "image", "media_type": "image/jpeg", "data": "/9j/4A=="}
/// ]}]"#)?;
/// let wire = replay_message(&record[0], Vision::Sees);
/// let Part::Image(image) = &wire.content[0] else { unreachable!() };
/// assert_eq!((image.media_type(), image.data()), ("image/jpeg", "/9j/4A=="));
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Image<'a> {
    media_type: &'a str,
    data: &'a str,
}

impl<'a> Image<'a> {
    /// An image of this media type and base64 data, which must have been checked
    /// ([`unseen`](crate::replay::unseen) said nothing against it): the request writers copy
    /// both without looking for characters to escape.
    pub(crate) fn new(media_type: &'a str, data: &'a str) -> Self {
        Image { media_type, data }
    }

    /// The media type, such as `image/png`.
    ///
    /// ```
    /// # use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
    /// # let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "image", "media_type": "image/png", "data": "AAAA"}]}]"#)?;
    /// # let wire = replay_message(&record[0], Vision::Sees);
    /// # let Part::Image(image) = &wire.content[0] else { unreachable!() };
    /// assert_eq!(image.media_type(), "image/png");
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    pub fn media_type(&self) -> &'a str {
        self.media_type
    }

    /// The image bytes, in base64.
    ///
    /// ```
    /// # use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
    /// # let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "image", "media_type": "image/png", "data": "AAAA"}]}]"#)?;
    /// # let wire = replay_message(&record[0], Vision::Sees);
    /// # let Part::Image(image) = &wire.content[0] else { unreachable!() };
    /// assert_eq!(image.data(), "AAAA");
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    pub fn data(&self) -> &'a str {
        self.data
    }

    /// The data as a request writes it: checked base64, with nothing to escape.
    pub(crate) fn data_json(&self) -> crate::json::Unescaped<&'a str> {
        crate::json::Unescaped(self.data)
    }
}

/// `data:<media type>;base64,<data>`, the URL form of an image (OpenAI Chat's `image_url`,
/// Responses' `input_image`), written straight into the request as it is serialized.
pub(crate) struct DataUrl<'p, 'a>(pub(crate) &'p Image<'a>);

impl fmt::Display for DataUrl<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "data:{};base64,{}", self.0.media_type(), self.0.data())
    }
}

impl Serialize for DataUrl<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A checked media type and checked base64: nothing in it to escape.
        crate::json::Unescaped(self).serialize(serializer)
    }
}

/// Builds a message's content by the join rule, the one place it lives: consecutive pieces
/// join into one text part; an image part ends the text part before it; an empty text
/// contributes nothing; content that ends up empty is `[Empty message]`.
///
/// Removing a blank text part never leaves two text parts side by side: a text part stands
/// only between images.
pub(crate) struct Content<'a> {
    parts: Vec<Part<'a>>,
    run: Vec<Piece<'a>>,
}

impl<'a> Content<'a> {
    pub(crate) fn new() -> Self {
        Content {
            parts: Vec::new(),
            run: Vec::new(),
        }
    }

    /// Whether a piece goes into the text: an empty text contributes nothing.
    fn contributes(piece: &Piece<'_>) -> bool {
        !matches!(piece, Piece::Text(""))
    }

    /// Whether `parts` are already what pushing their pieces and images and finishing would
    /// build: one text part, not trimmed, of pieces that all contribute, and not blank where
    /// blank text is dropped. A renderer then keeps them rather than building them again.
    pub(crate) fn built(parts: &[Part<'_>], drop_blank: bool) -> bool {
        match parts {
            [Part::Text(text)] => {
                let rebuilt = text.trim_end
                    || text.pieces.is_empty()
                    || !text.pieces.iter().all(Self::contributes)
                    || (drop_blank && text.is_blank());
                !rebuilt
            }
            []
            | [Part::Image(_) | Part::File(_) | Part::Compaction(_), ..]
            | [Part::Text(_), _, ..] => false,
        }
    }

    pub(crate) fn push_piece(&mut self, piece: Piece<'a>) {
        if Self::contributes(&piece) {
            self.run.push(piece);
        }
    }

    pub(crate) fn push_image(&mut self, image: Image<'a>) {
        self.end_text();
        self.parts.push(Part::Image(image));
    }

    pub(crate) fn push_file(&mut self, file: File<'a>) {
        self.end_text();
        self.parts.push(Part::File(file));
    }

    pub(crate) fn push_compaction(&mut self, compaction: Compaction<'a>) {
        self.end_text();
        self.parts.push(Part::Compaction(Box::new(compaction)));
    }

    fn end_text(&mut self) {
        if !self.run.is_empty() {
            self.parts
                .push(Part::Text(Text::from_pieces(mem::take(&mut self.run))));
        }
    }

    pub(crate) fn finish(self) -> Vec<Part<'a>> {
        self.finish_dropping_blank_text(false)
    }

    /// Finishes the content, leaving out text parts that are white space only when
    /// `drop_blank` is set, for a provider that rejects them.
    pub(crate) fn finish_dropping_blank_text(mut self, drop_blank: bool) -> Vec<Part<'a>> {
        self.end_text();
        if drop_blank {
            self.parts.retain(|part| match part {
                Part::Text(text) => !text.is_blank(),
                Part::Image(_) | Part::File(_) | Part::Compaction(_) => true,
            });
        }
        if self.parts.is_empty() {
            self.run.push(Piece::EmptyMessage);
            self.end_text();
        }
        self.parts
    }
}
