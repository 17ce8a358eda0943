//! Replay: the one projection of a stored record into wire messages.
//!
//! Why it is this way: `docs/design.md#replay` in the repository.
//!
//! # The rules
//!
//! 1. **One wire message per stored message**, in the same order: never split, never merged,
//!    never dropped, but for what a compaction replaced: the messages before the newest
//!    compaction the target can read (`crate::Block::Compaction`) are not sent, and one user
//!    turn stands first for them: `[3 earlier messages replaced by the summary below]`
//!    (`1 earlier message`).
//! 2. **Roles**: `system` → `system`, `user` → `user`, and both `assistant` and `tool` →
//!    `assistant` (a tool round is the assistant's own work). No wire message has a tool role
//!    or a call id, by construction.
//! 3. **One piece per block**, in block order:
//!
//! | block | piece |
//! |---|---|
//! | `text` | the text itself (an empty text contributes nothing) |
//! | `tool_use` | `Tool use: {name}({input})`; an input stored as a JSON value without the white space between its tokens ([`CompactJson`]), a string input exactly as stored |
//! | `tool_result`, `is_error` false | `Result ({tool_name}): {output}`, or `Result ({tool_name}):` when the output is empty |
//! | `tool_result`, `is_error` true | `Error ({tool_name}): {output}`, or `Error ({tool_name}):` when the output is empty |
//! | `reasoning` | `[Reasoning]: {reasoning}` |
//! | `image`, shown | a native image part with the stored `media_type` and `data` |
//! | `image`, not shown | `[Image ({media_type}) not shown: {reason}]` |
//! | `file`, shown | a native file part with the stored `media_type`, `data` and `name` |
//! | `file`, not shown | `[File ({media_type}) not shown: {reason}]`, or `[File {name} ({media_type}) not shown: {reason}]` |
//! | `source` | `[Source: {title} <{url}>]`, or `[Source: <{url}>]` / `[Source: {title}]` when one is missing |
//! | `compaction`, readable | `[Summary of the earlier conversation]: {summary}`, or natively on the provider whose payload it carries |
//! | `compaction`, not readable | `[Earlier conversation compacted by {provider}: not readable here]` |
//! | a type this version does not read | `[Not kept: a {type} block this version does not read]` |
//!
//! 4. **The pieces are joined** into text parts by the join rule of
//!    [`WireMessage`], and a message that yields nothing is
//!    `[Empty message]`.
//! 5. **Pure and byte-stable**: no I/O, no global state, no clock, no panic on any input; the
//!    same record and flag give the same bytes, every run.
//!
//! # The vision flag
//!
//! [`Vision::Sees`] shows an image natively when its media type has the form
//! `image/<subtype>` (matched without regard to case, the subtype an RFC 6838 name, no
//! parameters) and its data is non-empty, canonical standard base64 (no white space, padding
//! only at the end, zero trailing bits). Otherwise, or with [`Vision::Blind`], the image becomes
//! a marker with the first reason that applies: `this model cannot view images`, `its media
//! type is not an image type`, `its stored data is not valid base64`
//! ([`Reason`]). The image data never appears in any text. For a record without
//! images and files, the two settings give identical output. A provider's renderer adds its own
//! reasons, each naming the provider.
//!
//! A `file` block (a PDF, text, CSV, Markdown, HTML, an office document, audio, video) is
//! shown natively on the same terms, its media type of the form `type/subtype`, with the same
//! reasons, `this model cannot view images` reading `this model cannot view files`. Each
//! provider then writes it in its own native shape where its table takes that media type in
//! that role (`openai::FILE_TYPES`, `openai_responses::FILE_TYPES`, `anthropic::FILE_TYPES`,
//! `gemini::FILE_TYPES`, `bedrock::FILE_TYPES_AND_FORMATS`, each with its sources), within its
//! per-file and per-request limits (the newest files kept), and otherwise the marker with a
//! reason that names the provider: `[File notes.txt (text/plain) not shown: OpenAI does not
//! accept text/plain]`. A tool's files ([`ToolOutput::with_file`](crate::ToolOutput::with_file))
//! go in the result where the provider takes them there, else after the results, as its images
//! do. A file is priced by what its own bytes say ([`file_tokens`](crate::cost::file_tokens)).
//! Checked byte for byte by `tests/spec/file_golden.rs`, and against the pinned schemas with
//! generated records that carry files (`conformance/tests/conformance/render_schemas.rs`,
//! `conformance/tests/conformance/body_schemas.rs`).
//!
//! # The known risk: imitation
//!
//! Prose in a model's own past turns can be imitated: a model that sees its earlier turns say
//! `Tool use: bash(...)` may start typing that line instead of calling the tool, and may echo
//! `[Reasoning]:` in its visible output. [`REPLAY_PREAMBLE`] says these lines are a record of
//! what already happened, not a way to act; every [`Turn`](crate::Turn) puts it in the system
//! text of the request unless told not to.
//!
//! # Guarantees
//!
//! Each a property a test checks (`tests/` in the crate, `conformance/tests/` in the
//! repository's conformance suite):
//!
//! - **No failure of replay**: replay and the renderers take every record that parses (every
//!   test below).
//! - **One wire message per stored message** (and one for what a compaction replaced), in
//!   order, roles mapped, no tool role
//!   (`conformance/tests/conformance/replay_invariants.rs`, `tests/spec/replay_golden.rs`); one provider message
//!   per wire message but hoisted system messages and merged turns (`tests/spec/render_golden.rs`).
//! - **Nothing silently dropped**: every block but an empty text yields exactly one piece or
//!   one image (`conformance/tests/conformance/replay_invariants.rs`); content is never empty.
//! - **Blind means blind**: with [`Vision::Blind`] no image data appears anywhere in the output,
//!   and image data never appears in any text (`conformance/tests/conformance/replay_invariants.rs`).
//! - **Byte-stable**: the same record and flag give the same bytes; the flag changes nothing
//!   for a record without images (`conformance/tests/conformance/replay_invariants.rs`,
//!   `conformance/tests/conformance/render_images.rs`).
//!
//! Replay's cost against a clone of the record, and against serializing it, is on the
//! repository's `BENCHMARKS.md`.

use crate::media::file::is_media_type;
use crate::media::file::File;
use crate::media::image::{is_image_media_type, is_valid_base64};
use crate::media::marker::Reason;
use crate::record::compaction::{self, Form};
use crate::record::{Block, Role, StoredMessage, ToolInput};
use crate::wire::{
    CompactJson, Compaction, Content, Image, Part, Piece, Text, WireMessage, WireRole,
};

/// Whether the model that will read the replay can see images: the one thing that varies.
///
/// ```
/// use transcript_replay::{parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgo="}
/// ]}]"#)?;
/// let blind = serde_json::to_string(&replay_messages(&record, Vision::Blind)).unwrap();
/// assert_eq!(
///     blind,
///     r#"[{"role":"user","content":[{"type":"text","text":"[Image (image/png) not shown: this model cannot view images]"}]}]"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Vision {
    /// The model views images: a valid image is sent natively.
    Sees,
    /// The model cannot view images: every image becomes a marker that says so.
    Blind,
}

/// A paragraph for the caller's system prompt that keeps a model from imitating replayed
/// prose.
///
/// A model that sees its earlier turns say `Tool use: bash(...)` may start typing that line
/// instead of calling the tool, and may echo `[Reasoning]:` in visible output. This note says
/// that such lines are a record of what already happened, not a way to act. Put it in the
/// system prompt of every request that carries a replayed history.
///
/// ```
/// use transcript_replay::REPLAY_PREAMBLE;
///
/// let system_prompt = format!("You are a careful coding agent.\n\n{REPLAY_PREAMBLE}");
/// assert!(system_prompt.contains("Tool use:"));
/// ```
pub const REPLAY_PREAMBLE: &str = "Earlier turns of this conversation are replayed as plain \
text. Lines that begin with \"Tool use:\", \"Result (...):\", \"Error (...):\" or \
\"[Reasoning]:\", and markers such as \"[Image (...) not shown: ...]\", are a record of what \
already happened, written by the system that keeps this conversation, not by you. They are not \
a way to act: to use a tool, call it through the tool interface, and never write such lines \
yourself. Do not repeat reasoning lines in your replies. An image marked as not shown was not \
seen: say so rather than describe it.";

/// Replays a stored record: exactly [`replay_message`] applied to each message in turn, from
/// the message holding the newest compaction with a summary on.
///
/// One wire message per stored message, in the same order: never split, never merged, never
/// dropped. A [`compaction`](crate::Block::Compaction) with a summary replaces the messages
/// before its own: they are not replayed, and one user turn stands first for them,
/// `[{count} earlier messages replaced by the summary below]` (see [`Block::compaction`](crate::Block::compaction)).
/// Pure: no I/O, no global state, and no panic on any input. The same record and flag give
/// the same bytes, every run.
///
/// ```
/// use transcript_replay::{parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "What is in a.rs?"}]},
///   {"role": "assistant", "blocks": [
///     {"type": "tool_use", "id": "t1", "name": "read", "input": "{\"path\":\"a.rs\"}"},
///     {"type": "tool_result", "tool_use_id": "t1", "tool_name": "read", "output": "fn main() {}", "is_error": false},
///     {"type": "text", "text": "An empty main."}
///   ]}
/// ]"#)?;
/// let wire = replay_messages(&record, Vision::Sees);
/// assert_eq!(wire.len(), record.len());
/// assert_eq!(
///     serde_json::to_string(&wire[1]).unwrap(),
///     r#"{"role":"assistant","content":[{"type":"text","text":"Tool use: read({\"path\":\"a.rs\"})\n\nResult (read): fn main() {}\n\nAn empty main."}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn replay_messages(messages: &[StoredMessage], vision: Vision) -> Vec<WireMessage<'_>> {
    let replaced = compaction::honored(&[messages], None);
    let kept = messages.get(replaced..).unwrap_or_default();
    let mut wire = Vec::with_capacity(kept.len() + 1);
    if replaced > 0 {
        wire.push(replaced_marker(replaced));
    }
    wire.extend(kept.iter().map(|message| replay_message(message, vision)));
    wire
}

impl<'a> Compaction<'a> {
    /// The compaction as text, where a writer cannot send it natively (a hoisted system
    /// message, a surface that takes none): its summary as prose, or the marker that it
    /// cannot be read here.
    pub(crate) fn as_text(&self) -> Text<'a> {
        Text::from_pieces(vec![match self.summary {
            Some(summary) => Piece::Summary(summary),
            None => Piece::CompactionNotReadable {
                provider: self.provider,
            },
        }])
    }
}

/// The user turn that stands for the `count` messages a compaction replaced.
pub(crate) fn replaced_marker(count: usize) -> WireMessage<'static> {
    WireMessage {
        role: WireRole::User,
        content: vec![Part::Text(Text::from_pieces(vec![
            Piece::MessagesReplaced { count },
        ]))],
    }
}

/// Replays one stored message as one wire message.
///
/// Each block becomes one piece, in block order, in its prose form; consecutive pieces join
/// into one text part with a blank line between them; an image is shown natively when the
/// model sees and the image is valid, and otherwise becomes a marker that says why. Replay
/// decides structure only: the wire message borrows every string from `message`.
///
/// ```
/// use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "image", "media_type": "text/plain", "data": "aGk="}
/// ]}]"#)?;
/// let wire = replay_message(&record[0], Vision::Sees);
/// let [Part::Text(marker)] = wire.content.as_slice() else { unreachable!() };
/// assert_eq!(marker.to_string(), "[Image (text/plain) not shown: its media type is not an image type]");
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn replay_message(message: &StoredMessage, vision: Vision) -> WireMessage<'_> {
    replay_withholding(message, vision, None, |_| false)
}

/// Replays one stored message as [`replay_message`] does, but for the blocks `withheld` names
/// (by index): a tool result's output, a tool call's input, a reasoning block or a user's
/// text then becomes its withheld form, which says how many bytes a budget left out. Images are withheld where
/// the request's images are judged, so `withheld` is never asked about one. A compaction
/// goes natively when its provider is `reads` (the target's own), else as prose.
pub(crate) fn replay_withholding<'a>(
    message: &'a StoredMessage,
    vision: Vision,
    reads: Option<compaction::Reads>,
    withheld: impl Fn(usize) -> bool,
) -> WireMessage<'a> {
    let mut content = Content::new();
    for (index, block) in message.blocks.iter().enumerate() {
        match block {
            Block::Text { text } => content.push_piece(match withheld(index) {
                true => Piece::TextWithheld { bytes: text.len() },
                false => Piece::Text(text),
            }),
            Block::ToolUse {
                id: _,
                name,
                input,
                provider_executed: _,
            } => {
                content.push_piece(match withheld(index) {
                    true => Piece::InputWithheld {
                        name,
                        bytes: input_bytes(input),
                    },
                    false => Piece::ToolUse {
                        name,
                        input: input.as_str(),
                        json_value: input.is_json_value(),
                    },
                });
            }
            Block::ToolResult {
                tool_use_id: _,
                tool_name,
                output,
                is_error,
            } => content.push_piece(match withheld(index) {
                true => Piece::OutputWithheld {
                    tool_name,
                    is_error: *is_error,
                    bytes: output.len(),
                },
                false => Piece::ToolResult {
                    tool_name,
                    output,
                    is_error: *is_error,
                },
            }),
            Block::Reasoning { reasoning } => content.push_piece(match withheld(index) {
                true => Piece::ReasoningWithheld {
                    bytes: reasoning.len(),
                },
                false => Piece::Reasoning(reasoning),
            }),
            Block::Image { media_type, data } => match unseen(media_type, data, vision) {
                None => content.push_image(Image::new(media_type, data)),
                Some(reason) => content.push_piece(Piece::ImageNotShown { media_type, reason }),
            },
            Block::Source { url, title, .. } => content.push_piece(Piece::Source {
                url: url.as_deref(),
                title: title.as_deref(),
            }),
            Block::Compaction {
                summary,
                provider,
                data,
            } => match compaction::form(
                summary.as_deref(),
                provider.as_deref(),
                data.as_deref(),
                message.role,
                reads,
            ) {
                Form::Native {
                    summary,
                    provider,
                    data,
                } => {
                    content.push_compaction(Compaction {
                        summary,
                        provider,
                        data,
                    });
                }
                Form::Summary(summary) => content.push_piece(Piece::Summary(summary)),
                Form::NotReadable(provider) => {
                    content.push_piece(Piece::CompactionNotReadable { provider });
                }
            },
            Block::Unknown { type_name, .. } => {
                content.push_piece(Piece::UnknownBlock { type_name });
            }
            Block::File {
                media_type,
                data,
                name,
            } => match (unseen_file(media_type, data, vision), withheld(index)) {
                (None, false) => content.push_file(File::new(block)),
                (None, true) => content.push_piece(Piece::FileNotShown {
                    media_type,
                    name: name.as_deref(),
                    reason: Reason::Fit,
                }),
                (Some(reason), _) => content.push_piece(Piece::FileNotShown {
                    media_type,
                    name: name.as_deref(),
                    reason,
                }),
            },
        }
    }
    WireMessage {
        role: wire_role(message.role),
        content: content.finish(),
    }
}

/// The bytes of a tool call's input as replay writes it (a JSON value without the store's
/// white space).
pub(crate) fn input_bytes(input: &ToolInput) -> usize {
    struct Counter(usize);
    impl std::fmt::Write for Counter {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            self.0 += text.len();
            Ok(())
        }
    }
    match input.is_json_value() {
        true => {
            let mut counter = Counter(0);
            let _ = std::fmt::write(
                &mut counter,
                format_args!("{}", CompactJson(input.as_str())),
            );
            counter.0
        }
        false => input.as_str().len(),
    }
}

/// Why an image may not be shown, the first reason that applies; `None` when it is shown.
pub(crate) fn unseen(media_type: &str, data: &str, vision: Vision) -> Option<Reason> {
    match vision {
        Vision::Blind => Some(Reason::Blind),
        Vision::Sees if !is_image_media_type(media_type) => Some(Reason::NotAnImageType),
        Vision::Sees if !is_valid_base64(data) => Some(Reason::InvalidBase64),
        Vision::Sees => None,
    }
}

/// Why a file may not be shown, the first reason that applies; `None` when it is shown. The
/// image reasons, with a file's media type of the form `type/subtype`.
pub(crate) fn unseen_file(media_type: &str, data: &str, vision: Vision) -> Option<Reason> {
    match vision {
        Vision::Blind => Some(Reason::Blind),
        Vision::Sees if !is_media_type(media_type) => Some(Reason::NotAnImageType),
        Vision::Sees if !is_valid_base64(data) => Some(Reason::InvalidBase64),
        Vision::Sees => None,
    }
}

fn wire_role(role: Role) -> WireRole {
    match role {
        Role::System => WireRole::System,
        Role::User => WireRole::User,
        // A tool round is the assistant's own work.
        Role::Assistant | Role::Tool => WireRole::Assistant,
    }
}
