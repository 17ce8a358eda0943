//! Replay a conversation's stored record as the messages sent to a model.
//!
//! An agent runtime stores one record per conversation: messages made of blocks (text, tool
//! use, tool result, reasoning, image). Every surface that talks to a model replays that same
//! record through one pure function, [`replay_messages`], so no surface holds a version of
//! its own.
//!
//! - **Each block has exactly one prose form.** Text is itself; a tool call is
//!   `Tool use: name(input)`; a result is `Result (name): output`, or `Error (name): output`
//!   when the tool failed; reasoning is `[Reasoning]: ...`. What a turn learned by doing
//!   survives into the next turn.
//! - **One wire message per stored message.** An assistant turn that called several tools
//!   stays one message; providers reject a turn split into adjacent assistant messages.
//! - **Tool rounds cross as prose, never as tool roles with call ids.** A turn killed
//!   mid-round leaves a call whose result never landed; replayed as half a pair it would fail
//!   the whole request. As prose it is just a line: there is no pairing to break.
//! - **Images go natively or become a marker** that says plainly they were not seen, decided
//!   by one flag, [`Vision`]. A model told it did not look can say so.
//!
//! ```
//! use transcript_replay::{parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "user", "blocks": [{"type": "text", "text": "Is a.rs empty?"}]},
//!   {"role": "assistant", "blocks": [
//!     {"type": "reasoning", "reasoning": "Need the file first."},
//!     {"type": "tool_use", "id": "t1", "name": "read", "input": "{\"path\":\"a.rs\"}"},
//!     {"type": "tool_result", "tool_use_id": "t1", "tool_name": "read", "output": "fn main() {}", "is_error": false},
//!     {"type": "text", "text": "It is empty."}
//!   ]}
//! ]"#)?;
//!
//! let wire = replay_messages(&record, Vision::Blind);
//! assert_eq!(wire.len(), 2);
//! assert_eq!(
//!     serde_json::to_string(&wire[1]).unwrap(),
//!     concat!(
//!         r#"{"role":"assistant","content":[{"type":"text","text":"#,
//!         r#""[Reasoning]: Need the file first.\n\nTool use: read({\"path\":\"a.rs\"})"#,
//!         r#"\n\nResult (read): fn main() {}\n\nIt is empty."}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::Error>(())
//! ```
//!
//! The wire messages borrow every string from the record: replay decides structure only, and
//! the bytes of a history are copied once, into the request body, as it is serialized. The
//! five provider modules, [`openai`], [`openai_responses`], [`anthropic`], [`gemini`] and
//! [`bedrock`], render them as the request fragments and whole bodies of those APIs,
//! degrading what a provider cannot carry to a marker that names it, and read each
//! provider's reply back into a stored message; [`Provider`] reaches all five from one value.
//!
//! Replayed prose can be imitated: put [`REPLAY_PREAMBLE`] in the system prompt of every
//! request that carries a replayed history.
//!
//! # What this crate does not do
//!
//! - **No I/O.** It reads a record from a string and writes nothing; the caller loads files
//!   and sends requests.
//! - **No live tool rounds.** Inside a turn, a tool call and its result are linked by a real
//!   call id; the runtime builds those messages itself. Replay is for what is already on disk.
//! - **No tool roles.** No wire message has a tool role or a call id, by construction.
//! - **No repair.** A call whose result never landed is just a `Tool use:` line; nothing is
//!   invented to pair with it.

// Replay runs on every turn, on every history a user has stored: a panic there takes the
// product down, so the library's own code is held to no indexing, unwrap or expect.
#![warn(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

pub mod anthropic;
pub mod bedrock;
pub mod gemini;
pub mod openai;
pub mod openai_responses;

mod any_provider;
mod body;
mod cache;
mod conversation_file;
mod cost;
mod error;
mod image;
mod marker;
mod native_images;
mod parse;
mod provider;
mod record;
mod render;
mod replay;
mod reply;
mod rules;
mod signature;
mod tokens;
mod wire;

pub use crate::any_provider::AnyBody;
pub use crate::body::{BodyError, Turn};
pub use crate::cache::Cache;
pub use crate::conversation_file::{write_record, ConversationFile};
pub use crate::cost::{image_tokens, Cost, Estimate, ImageRule, ImageTokens, Priced, IMAGE_TOKENS};
pub use crate::error::Error;
pub use crate::marker::Reason;
pub use crate::parse::parse_record;
pub use crate::provider::{Provider, UnknownProvider};
pub use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};
pub use crate::replay::{replay_message, replay_messages, Vision, REPLAY_PREAMBLE};
pub use crate::reply::ReplyError;
pub use crate::rules::ImageLimits;
pub use crate::signature::ImageFormat;
pub use crate::tokens::estimate_tokens;
pub use crate::wire::{Image, Part, Piece, Text, WireMessage, WireRole};

// The README's examples run as doctests, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
