//! Replay a conversation's stored record as the messages sent to a model.
//!
//! An agent runtime stores one record per conversation: messages made of blocks (text, tool
//! use, tool result, reasoning, image, file, source, compaction). Every surface that talks to
//! a model replays that same record through one pure function, [`replay_messages`], so no
//! surface holds a version of its own.
//!
//! - **Each block has exactly one prose form**, so what a turn learned by doing survives into
//!   the next turn: `Tool use: name(input)`, `Result (name): output`, `[Reasoning]: ...`.
//! - **One wire message per stored message**: providers reject a turn split into adjacent
//!   assistant messages.
//! - **Tool rounds cross as prose, never as tool roles with call ids**: a turn killed
//!   mid-round leaves a call whose result never landed, and half a pair fails the request.
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
//! # Ok::<(), transcript_replay::RecordError>(())
//! ```
//!
//! # The map: conversions and the types between them
//!
//! Everything is pure: bytes or values in, values out, no I/O, no clock. A request goes one
//! way and a reply comes back the other:
//!
//! ```text
//! record text ─ parse_record ─> [StoredMessage] ─ replay_messages ─> [WireMessage]
//!   ─ render (per provider) ─> request fragment
//!   ─ Turn + Provider::body ─> body (AnyBody) ─ Priced::to_json ─> bytes
//!                                             └ Priced::estimate ─> Estimate
//! reply bytes  ─ Provider::read_reply ─> Reply ─ Turn::store_turn ─> StoredMessage
//! stream bytes ─ StreamReader::feed ─> Delta ... ─ StreamReader::finish ─> Reply
//! error body   ─ Provider::read_error ─> ProviderError
//! [StoredMessage] ─ write_record ─> record text
//! ```
//!
//! | from | through | to |
//! |---|---|---|
//! | record text (a bare array, or a conversation file) | [`parse_record`] | [`StoredMessage`]s of [`Block`]s |
//! | stored messages | [`replay_messages`], [`replay_message`] with a [`Vision`] | [`WireMessage`]s of [`Part`](wire::Part)s ([`Text`](wire::Text) of [`Piece`](wire::Piece)s, [`Image`](wire::Image), [`File`](wire::File)) |
//! | wire messages | a provider module's `render` | that provider's request fragment |
//! | history, live turn, instructions, parameters, tools, rounds | [`Turn`], then [`Provider::body`] or a provider module's `body` | a body ([`AnyBody`]), or a [`BodyError`] naming the rule it would break |
//! | a body | [`Priced::to_json`], [`Priced::write_json`], or serde | the request's bytes |
//! | a body | [`Priced::estimate`] | an [`Estimate`](cost::Estimate): exact bytes, text and image tokens, per [`Cost`](cost::Cost) |
//! | a turn | [`Provider::request`] | a [`Request`]: method, path, headers, [`Auth`] |
//! | a reply's bytes | [`Provider::read_reply`] | a [`Reply`] (the stored message, a [`StopReason`], the native content), or a [`ReplyError`] |
//! | a stream's bytes, split anywhere | [`Provider::stream`] gives a [`StreamReader`] | [`Delta`]s, then the same [`Reply`]; or a [`StreamError`] |
//! | an error response's status, headers and body | [`Provider::read_error`] | a [`ProviderError`] ([`ProviderErrorKind`](errors::ProviderErrorKind), retryable, the overflow's counts) |
//! | a reply that called tools, and the caller's [`ToolOutput`]s | [`Turn::round`], [`Turn::push_round`] | the round in flight, written natively in the next body |
//! | the rounds and the final reply | [`Turn::store_turn`] | the one stored message the turn becomes |
//! | stored messages | [`write_record`] ([`ConversationFile`]) | record text |
//!
//! The five provider modules, [`openai`], [`openai_responses`], [`anthropic`], [`gemini`] and
//! [`bedrock`], each render, build bodies, and read replies, streams and errors for their API,
//! degrading what the provider cannot carry to a marker that names it ([`Reason`](wire::Reason)).
//! [`Provider`] reaches all five from one value, and OpenAI-compatible servers (Mistral,
//! DeepSeek, Groq, vLLM, Ollama, ...) as the OpenAI Chat surface under their [`Dialect`].
//!
//! A [`Turn`] also carries what shapes the body beyond the history: the neutral parameters
//! (model, output limit, [`Reasoning`], streaming, temperature, stop, a reply's JSON schema),
//! the tools ([`Tool`], [`ToolChoice`]), prompt-cache breakpoints ([`Cache`]), and a
//! [`Budget`] that fits the history to the context window.
//!
//! # Where the rules are
//!
//! Each rule is documented beside the code that keeps it, with the tests that check it:
//!
//! - the record, its JSON shape and its errors: [`StoredMessage`], [`Block`],
//!   [`parse_record`];
//! - replay's rules, the prose forms and the vision flag: [`replay_messages`], [`Vision`],
//!   [`REPLAY_PREAMBLE`] (the imitation risk);
//! - the join rule and the wire JSON: [`WireMessage`], [`Text`](wire::Text), [`Piece`](wire::Piece);
//! - the markers and their reasons: [`Reason`](wire::Reason);
//! - each provider's rules, limits and sources: its module ([`openai`], ...), [`Dialect`];
//! - bodies, sequencing and caching: [`Turn`], [`Cache`], [`ImageLimits`];
//! - cost: [`Priced`], [`Estimate`](cost::Estimate), [`estimate_tokens`](cost::estimate_tokens), [`ImageTokens`](cost::ImageTokens);
//! - the round in flight and the stored turn: [`Turn::round`], [`ToolOutput`];
//! - fitting: [`Budget`] (of a model's window: [`Budget::window`]);
//! - replies and streams: [`Reply`], [`StopReason`], [`StreamReader`];
//! - provider errors: [`ProviderError`]; every failure a loop meets, asked the same way:
//!   [`Failure`], and the refit after an overflow: [`Turn::refit`].
//!
//! # What this crate does not do
//!
//! - **No I/O.** It reads a record from a string and writes nothing; the caller loads files
//!   and sends requests.
//! - **No tool roles in replay, and no repair.** No wire message has a tool role or a call id;
//!   a call whose result never landed is just a `Tool use:` line. The round in flight goes
//!   natively, after the live turn ([`Turn::round`]), and never into the record.
//! - **No decoding of images.** Replay checks base64 and media types; the renderers read
//!   header bytes only, never pixels, and never resize or convert an image.
//!
//! # Further reading, in the repository
//!
//! - [`docs/design.md`](https://github.com/transcript-replay/transcript-replay/blob/main/docs/design.md):
//!   the reasons behind the rules.
//! - [`ARCHITECTURE.md`](https://github.com/transcript-replay/transcript-replay/blob/main/ARCHITECTURE.md):
//!   the layout, the floors and the rules between them, checklists, the glossary.
//! - [`docs/testing.md`](https://github.com/transcript-replay/transcript-replay/blob/main/docs/testing.md):
//!   how the crate is tested and fuzzed, and which test checks each guarantee.
//! - [`BENCHMARKS.md`](https://github.com/transcript-replay/transcript-replay/blob/main/BENCHMARKS.md):
//!   every measurement, with its command and date.
//! - [`CHANGELOG.md`](https://github.com/transcript-replay/transcript-replay/blob/main/CHANGELOG.md).

// Replay runs on every turn, on every history a user has stored: a panic there takes the
// product down, so the library's own code is held to no indexing, unwrap or expect.
#![warn(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]
// Every type a caller can hold prints with `{:?}`, and a `pub` item is reachable from outside or
// says `pub(crate)`: what the crate offers is what its visibility says.
#![warn(missing_debug_implementations, unreachable_pub)]

pub mod anthropic;
pub mod bedrock;
pub mod gemini;
pub mod openai;
pub mod openai_responses;

pub mod cost;
pub mod dialects;
pub mod errors;
pub mod models;
pub mod wire;

mod any_provider;
mod body;
mod fit;
mod json;
mod media;
mod parse;
mod provider;
mod record;
mod render;
mod replay;
mod reply;
mod stop;
mod stream;
mod surface;
mod tokens;
mod turn;

// The record.
pub use crate::parse::parse_record;
pub use crate::record::conversation_file::{write_record, ConversationFile};
pub use crate::record::kept::UnknownKeys;
pub use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};
// Replay.
pub use crate::replay::{replay_message, replay_messages, Vision, REPLAY_PREAMBLE};
pub use crate::wire::WireMessage;
// A provider, a turn and its body.
pub use crate::any_provider::AnyBody;
pub use crate::body::request::{Auth, Request};
pub use crate::body::{Turn, SUMMARY_REQUEST};
pub use crate::cost::Priced;
pub use crate::dialects::Dialect;
pub use crate::fit::Budget;
pub use crate::media::file::ToolFile;
pub use crate::provider::Provider;
pub use crate::render::rules::ImageLimits;
pub use crate::turn::cache::Cache;
pub use crate::turn::params::{Compaction, Reasoning};
pub use crate::turn::rounds::{ToolImage, ToolOutput};
pub use crate::turn::tools::{Tool, ToolChoice};
// The reply.
pub use crate::reply::{metadata, Call, Metadata, Reply, SafetyCheck, MADE_ID_PREFIX};
pub use crate::stop::StopReason;
pub use crate::stream::{Delta, StreamReader};
// The failures a runtime meets on every turn; the rest are in `errors`.
pub use crate::errors::{BodyError, Failure, ProviderError, RecordError, ReplyError, StreamError};

// The two readers behind `parse_record`, each alone, for checking one against the other.
pub use crate::parse::{parse_record_by_serde, parse_record_fast_only};

// The README's examples run as doctests, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
