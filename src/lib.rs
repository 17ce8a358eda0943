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
//! provider's reply back into a stored message; [`Provider`] reaches all five from one value,
//! and OpenAI-compatible servers (Mistral, DeepSeek, Groq, vLLM, Ollama, ...) as the OpenAI
//! Chat surface under their [`Dialect`]. A [`Turn`] carries the request's neutral parameters
//! and owns the rounds of a turn in flight; [`Provider::request`] gives the request around
//! its body.
//!
//! # What crosses
//!
//! | block | piece |
//! |---|---|
//! | `text` | the text itself (an empty text contributes nothing) |
//! | `tool_use` | `Tool use: {name}({input})`; an input stored as a JSON value without the white space between its tokens ([`CompactJson`]), a string input exactly as stored |
//! | `tool_result`, `is_error` false | `Result ({tool_name}): {output}` |
//! | `tool_result`, `is_error` true | `Error ({tool_name}): {output}` |
//! | `reasoning` | `[Reasoning]: {reasoning}` |
//! | `image`, shown | a native image part with the stored `media_type` and `data` |
//! | `image`, not shown | `[Image ({media_type}) not shown: {reason}]` |
//! | `file`, shown | a native file part with the stored `media_type`, `data` and `name` |
//! | `file`, not shown | `[File ({media_type}) not shown: {reason}]`, or `[File {name} ({media_type}) not shown: {reason}]` |
//! | `source` | `[Source: {title} <{url}>]`, or `[Source: <{url}>]` / `[Source: {title}]` when one is missing |
//!
//! Roles: `system` → `system`, `user` → `user`, and both `assistant` and `tool` →
//! `assistant` (a tool round is the assistant's own work). Consecutive pieces are joined into
//! one text part with a blank line between them; an image part ends the text part before it.
//! A message that yields nothing is `[Empty message]`. A wire message serializes as
//! `{"role":"assistant","content":[{"type":"text","text":"..."},{"type":"image","media_type":"image/png","data":"..."}]}`.
//! The record's JSON shape, and the errors of a record that cannot be read, are on
//! [`parse_record`] and [`StoredMessage`].
//!
//! # The vision flag and the markers
//!
//! [`Vision::Sees`] shows an image natively when its media type has the form
//! `image/<subtype>` (matched without regard to case, the subtype an RFC 6838 name, no
//! parameters) and its data is non-empty, canonical standard base64 (no white space, padding
//! only at the end, zero trailing bits). Otherwise, or with [`Vision::Blind`], the image becomes
//! a marker with the first reason that applies: `this model cannot view images`, `its media
//! type is not an image type`, `its stored data is not valid base64`. The image data never
//! appears in any text. For a record without images and files, the two settings give
//! identical output. A provider's renderer adds its own reasons, each naming the provider
//! ([`Reason`]).
//!
//! A `file` block (a PDF, text, CSV, Markdown, HTML, an office document, audio, video) is
//! shown natively on the same terms, its media type of the form `type/subtype`, with the same
//! reasons, `this model cannot view images` reading `this model cannot view files`. Each
//! provider then writes it in its own native shape where its table takes that media type in
//! that role (`openai::FILE_TYPES`, `openai_responses::FILE_TYPES`, `anthropic::FILE_TYPES`,
//! `gemini::FILE_TYPES`, `bedrock::FILE_TYPES_AND_FORMATS`, each with its sources), within its
//! per-file and per-request limits (the newest files kept), and otherwise the marker with a
//! reason that names the provider: `[File notes.txt (text/plain) not shown: OpenAI does not
//! accept text/plain]`. A tool's files ([`ToolOutput::with_file`]) go in the result where the
//! provider takes them there, else after the results, as its images do. A file is priced by
//! what its own bytes say ([`file_tokens`]). Checked byte for byte by `tests/file_golden.rs`,
//! and against the pinned schemas with generated records that carry files
//! (`conformance/tests/render_schemas.rs`, `conformance/tests/body_schemas.rs`).
//!
//! A marker is a line of the crate's own making, so stored data cannot forge one: in the media
//! type a marker shows, `[`, `]`, `(`, `)`, `\`, control characters, line breaks and non-ASCII
//! characters are written as `\u{…}` escapes, and a media type longer than 64 characters is
//! cut short with `...`.
//!
//! # The known risk: imitation
//!
//! Prose in a model's own past turns can be imitated: a model that sees its earlier turns say
//! `Tool use: bash(...)` may start typing that line instead of calling the tool, and may echo
//! `[Reasoning]:` in its visible output. [`REPLAY_PREAMBLE`] says these lines are a record of
//! what already happened, not a way to act; every [`Turn`] puts it in the system text of the
//! request unless told not to.
//!
//! # The round in flight, and the seam between turns
//!
//! Replay is for what is stored. Inside a turn, the model calls tools and the runtime sends
//! the results back before anything is stored: [`Turn::round`] takes each reply that called
//! tools, with the caller's [`ToolOutput`]s, and the body writes it natively after the live
//! turn, the reply's own content byte for byte (Anthropic's thinking blocks with their
//! signatures, Gemini's `thoughtSignature`, Responses' reasoning items with their
//! `encrypted_content`, Bedrock's reasoning signatures: the state providers require back in
//! the current turn), then one result per call, linked by its id. [`Turn::tools`] declares the
//! tools once, neutrally ([`Tool`], [`ToolChoice`]). When the model answers,
//! [`Turn::store_turn`] makes the one stored message the turn becomes, and from the next turn
//! on it replays as prose like any other: no id, no signature, nothing a provider could
//! refuse.
//!
//! The seam costs the cache one turn. The next turn's first body begins with every byte of the
//! turn's last body up to its first round, and writes the rounds again as prose. Measured by
//! `cargo test -p transcript-replay-conformance --test turn_seam -- --nocapture` (the bundled
//! sample conversation, then a turn of three rounds, each with reasoning, two calls and 1.5 KB
//! of output):
//!
//! | provider | last in-turn body | its rounds, native | carried into the next turn | the next body's new bytes |
//! |---|---:|---:|---:|---:|
//! | `openai` | 8,439 | 5,315 | 3,127 | 4,773 |
//! | `openai-responses` | 9,187 | 6,059 | 3,131 | 4,773 |
//! | `anthropic` | 8,744 | 5,489 | 3,289 | 4,792 |
//! | `gemini` | 8,191 | 5,177 | 3,049 | 4,755 |
//! | `bedrock` | 8,525 | 5,501 | 3,058 | 4,764 |
//!
//! Everything before the turn's rounds is carried; the rounds, about the same size as prose,
//! are written to the cache once more (on Anthropic, at 1.25 times the input price instead of
//! 0.1 for a read): at most the one turn just finished, whatever the history's length. The
//! trade is deliberate: a stored turn that kept native ids and signatures would be carried
//! whole, and would fail the next request whenever the turn was cut short or the model
//! changed.
//!
//! # Fitting a history to the context window
//!
//! A history that outgrows the model's window is rejected on every later turn. With a
//! [`Budget`] ([`Turn::budget`]), the body withholds the oldest bulk first (tool outputs, then
//! tool inputs, then reasoning, then native images, then whole messages), each named where it
//! was with the bytes it stood for, and fits: a pure function of the record, the live turn and
//! the budget, in steps, so that the prompt cache survives. Over 300 turns of a generated
//! agent conversation growing to over six times a budget of 20,000 tokens
//! (`cargo test -p transcript-replay-conformance --test fit_stability -- --nocapture`), every
//! body fits, and against a newest-first sliding window on the same conversation, in the same
//! run:
//!
//! | provider | bytes each body shares with the one before, fitted | sliding window | bodies rewritten over half, fitted | sliding window |
//! |---|---:|---:|---:|---:|
//! | `anthropic` | 0.827 | 0.260 | 47 | 207 |
//! | `openai` | 0.828 | 0.267 | 47 | 205 |
//!
//! The fitted body is rewritten once per step of growth (a tenth of the budget), the window
//! on most turns. Fitting costs a few builds of the body: `cargo bench -p
//! transcript-replay-conformance --bench fit`, an Anthropic body of 1,000 and 10,000 messages,
//! against building and serializing it without a budget (one run on a shared 2-core machine):
//! a budget it fits, 2.01 and 1.57; half its tokens, 2.99 and 2.08; a tenth, 2.44 and 1.49.
//!
//! # Guarantees
//!
//! Each line is a property that a test checks, with the file that checks it (`tests/` in the
//! crate, `conformance/tests/` in the repository's conformance suite). Nothing here is
//! promised beyond what those tests show; the rules of each provider, and the tests that check
//! them, are in its module's documentation.
//!
//! - **No panic, no failure of replay.** [`parse_record`] returns a value or an [`Error`] for
//!   any text, including arbitrary strings and records damaged at any byte
//!   (`conformance/tests/replay_invariants.rs`; the fuzz target, `fuzz/`); replay and the
//!   renderers take every record that parses (all tests below).
//! - **One wire message per stored message**, in order, roles mapped, no tool role
//!   (`conformance/tests/replay_invariants.rs`, `tests/replay_golden.rs`); one provider message
//!   per wire message but hoisted system messages and merged turns (`tests/render_golden.rs`).
//! - **Nothing silently dropped**: every block but an empty text yields exactly one piece or
//!   one image (`conformance/tests/replay_invariants.rs`); content is never empty.
//! - **The exact prose and markers**, byte for byte (`tests/replay_golden.rs`,
//!   `tests/render_golden.rs`).
//! - **Blind means blind**: with [`Vision::Blind`] no image data appears anywhere in the output,
//!   and image data never appears in any text (`conformance/tests/replay_invariants.rs`).
//! - **Byte-stable**: the same record and flag give the same bytes; the flag changes nothing
//!   for a record without images (`conformance/tests/replay_invariants.rs`,
//!   `conformance/tests/render_images.rs`).
//! - **The store's formatting does not reach the model**: a tool input stored as a JSON value
//!   replays the same bytes whether it was written compactly or pretty-printed, and reads
//!   back as the same value (`conformance/tests/compact_input.rs`, `tests/lenient_reading.rs`).
//! - **Lossless records**: a record written back, with serde or as a conversation file
//!   ([`write_record`]), reads back equal, and a tool input keeps the form it was stored in
//!   (`conformance/tests/record_round_trip.rs`, `tests/conversation_file.rs`,
//!   `tests/lenient_reading.rs`).
//! - **Errors that say where and what**, lowercase and without a trailing period, for every
//!   kind of bad record, including nesting 10,000 levels deep (`tests/parse_errors.rs`,
//!   `conformance/tests/adversarial.rs`).
//! - **Whole bodies the providers accept, or a reason** ([`Turn`]): for generated histories
//!   and live turns and both vision settings, every body validates against its provider's full
//!   pinned schema and its sequencing rules, and is refused exactly when the record leaves no
//!   valid one (`conformance/tests/body_schemas.rs`); golden bodies and every error, byte for
//!   byte (`tests/body_golden.rs`).
//! - **One entry point**: [`Provider::body`] and [`Provider::read_reply`] give what each
//!   provider's module gives, and one body serves the estimate and the bytes
//!   (`tests/one_entry_point.rs`).
//! - **Every turn reuses the last**: a longer record's body keeps every byte of the shorter
//!   one's before its last turn (`conformance/tests/append_stability.rs`); the withheld images
//!   are always the newest that fit, only grow, and change once per step
//!   (`conformance/tests/image_withholding.rs`); breakpoints are at most 3 (4 with a round in flight) and let a simulated
//!   Anthropic cache serve at least 95% of the history (`conformance/tests/prompt_cache.rs`).
//! - **Replies become records**: each provider's documented example responses read into the
//!   exact stored message; content of a kind the crate does not read is kept as the
//!   `[Not kept: {provider} {type} content]` marker where it stood, whole and streamed alike,
//!   and listed (`tests/reply_golden.rs`, `conformance/tests/not_kept.rs`); bytes that are not
//!   the provider's shape are an error that says where; for generated replies valid against the response schemas,
//!   every text, tool call and reasoning of the reply reaches the next body
//!   (`conformance/tests/reply_round_trip.rs`).
//! - **Exact costs** ([`Priced`]): an estimate's bytes equal the serialized bytes of every
//!   generated body and fragment, and each message's bytes its own JSON
//!   (`conformance/tests/estimate_bytes.rs`); image tokens reproduce the providers' worked
//!   examples (`tests/estimate.rs`); the text estimate stays within the bounds of its table on
//!   texts its fit never saw (`conformance/tests/text_estimate.rs`), and on any text is at
//!   least a token, never falls as text is added, and never exceeds two tokens a byte
//!   (`conformance/tests/text_estimate_bounds.rs`).
//! - **Requests the providers accept**: for generated records (every block kind and role,
//!   valid and invalid images of every format and media type in every role, empty and blank
//!   texts) and both vision settings, every rendered request validates against its provider's
//!   pinned official schema and passes a check for each rule the schema cannot make, with no
//!   `null` anywhere (`conformance/tests/render_schemas.rs`).
//! - **Images only where they are taken**, in the formats, sizes and pixel limits each provider
//!   takes, with the media type the bytes have, and never more images or image data than a
//!   request's limits, the newest kept (`conformance/tests/render_images.rs`).
//! - **Rounds the providers accept**: for generated tools and rounds (thinking, redacted and
//!   encrypted reasoning, signatures, pretty-printed replies, parallel and no-argument calls,
//!   valid and invalid tool images, both vision settings), every body validates against its
//!   provider's full pinned schema, keeps each reply's own content byte for byte, links every
//!   call to exactly one result in the calls' order, sends back no made id, and sends every
//!   tool image natively, priced as an image, or as its marker
//!   (`conformance/tests/round_schemas.rs`); golden rounds and tool declarations for all five
//!   providers, byte for byte, and an error for every output that answers no call, is missing
//!   or given twice (`tests/round_golden.rs`, `tests/tool_declarations.rs`,
//!   `tests/round_linkage.rs`); the stored turn, and its prose in the next turn
//!   (`tests/stored_turn.rs`, `conformance/tests/turn_seam.rs`).
//! - **Bodies that fit**: for generated agent conversations and budgets, every fitted body is
//!   within its budget or refused only when the system text and live turn alone are over; it
//!   withholds the oldest first, each class whole before the next, with markers whose byte
//!   counts are the stored ones, never splits a message, keeps the leading system messages and
//!   the live turn, validates against the pinned schemas, reports exactly what it withheld,
//!   and is the unbudgeted body byte for byte when the record fits; as a record grows, what
//!   is withheld only grows, on all five providers, with stored system messages mid-record
//!   (`conformance/tests/fit_budget.rs`); golden fitted bodies for all five providers, a
//!   round's output withheld when it does not fit, an old paste withheld before whole
//!   messages go (`tests/fit_golden.rs`).
//! - **Hostile records**: NUL and control characters in every string, media types that try to
//!   forge a marker, lone surrogates, wrong types, a 100 MB tool output, a record of 1,000,000
//!   messages, crafted image headers, and base64 with white space, inner padding or non-zero
//!   trailing bits (`conformance/tests/adversarial.rs`).
//!
//! What no test here can show: that a provider accepts what its schema and its documented and
//! reported rules allow. The renderers follow those, not the live services.
//!
//! # Testing
//!
//! `cargo test --workspace` runs everything, with nothing to set: the crate's own tests and
//! doctests, and the unpublished workspace member `conformance`, which holds the property
//! tests, the adversarial suite and the schema tests. The schema tests validate every rendered
//! request against the providers' official schemas, trimmed to the request types and committed
//! under `conformance/specs/` (with their provenance, licence and the sha256 of each original
//! in `SOURCES.md`, and `trim.py`, the script that made them). The heavy test dependencies
//! (jsonschema, proptest, criterion) are that member's, so building the crate or its example
//! never compiles them.
//!
//! # Performance
//!
//! Replay decides structure only, so its cost is a small fraction of what the caller does with
//! the history anyway. `conformance/benches/replay.rs` (criterion; `cargo bench -p
//! transcript-replay-conformance --bench replay`) measures records of 100, 1,000 and 10,000
//! messages (tool outputs of 2 to 16 KB, an image of 100 KB of base64 in every 25th user
//! message) against baselines measured in the same run (2 cores, shared; one run, 2026-11-30;
//! lower is cheaper):
//!
//! | messages | replay, sees / clone | replay, blind / clone | replay + `to_vec`, sees / record `to_vec` | replay + `to_vec`, blind / record `to_vec` |
//! |---:|---:|---:|---:|---:|
//! | 100 | 0.775 | 0.317 | 1.021 | 0.975 |
//! | 1,000 | 0.124 | 0.056 | 0.986 | 0.908 |
//! | 10,000 | 0.098 | 0.047 | 0.945 | 0.804 |
//!
//! *clone* is `record.clone()`. With [`Vision::Sees`], replay reads every image once to check
//! its base64; with [`Vision::Blind`] it never touches image data. *replay + `to_vec`* is
//! replay followed by `serde_json::to_vec` of the wire messages, against `serde_json::to_vec`
//! of the record itself: the bytes of a history are escaped and written once. Separate runs on
//! the shared machine moved these ratios by up to 0.36: read them to the first decimal.
//!
//! The bytes of a body are written by the crate's own writer ([`Priced::to_json`],
//! [`Priced::write_json`]), byte for byte what `serde_json::to_vec` writes: it finds the
//! quotes, backslashes and control characters of a block of 64 bytes at once (one bit a
//! byte, so that the processor guesses wrong once a block rather than once an escape), copies
//! the runs between them 32 bytes at a time, looks each escape up in a table, and copies an
//! image's checked base64 without a scan. A record is read by a fast reader in front of the
//! serde reader ([`parse_record`]), which unescapes each string once, through the writer's
//! own loop. `conformance/benches/body_bytes.rs` (`cargo bench -p
//! transcript-replay-conformance --bench body_bytes`; one run, 2026-12-02, on a 2-core AMD
//! EPYC virtual machine; higher is faster):
//!
//! | messages | `to_json` / `to_vec` | `write_json`, reused buffer / `to_vec` |
//! |---:|---:|---:|
//! | 100 | 2.069 | 2.115 |
//! | 1,000 | 1.630 | 1.612 |
//! | 10,000 | 1.249 | 3.020 |
//!
//! At 10,000 messages the body is 36 MB: a fresh buffer's pages (a page fault each 4 KB,
//! which serde_json's own buffer pays too) cost `to_json` more than writing them, and a
//! reused one does not.
//!
//! *The job* is a record's JSON text in memory to an OpenAI body's bytes: [`parse_record`],
//! [`openai::body`] and `to_json`, against the path a runtime writes by hand (serde derive
//! for the record, async-openai's message types, `serde_json::to_vec`), which writes the same
//! bytes (the bench asserts it). Timed in pairs, interleaved, on CPU time, 31 rounds a size
//! (the median, and the range):
//!
//! | messages | the job / by hand | what the writer gives | what the fast reader gives | the reader alone / the serde reader |
//! |---:|---:|---:|---:|---:|
//! | 1,000 | 1.403 (1.325 to 1.485) | 1.194 | 1.203 | 1.362 |
//! | 10,000 | 1.296 (1.076 to 1.388) | 1.127 | 1.153 | 1.378 |
//!
//! *What the writer gives* is the job with `serde_json::to_vec` over the job with `to_json`;
//! *what the fast reader gives*, the job with the serde reader alone over the job with
//! [`parse_record`]. At 10,000 messages the crate's job spends 30% of its time in the kernel
//! (by `perf`), mostly on the 9,100 page faults of its body's fresh pages, and the
//! hand-written path takes as many (9,100 to 9,600): the same cost on both sides, so the
//! ratio is lower there. Other runs of the same code gave 1.28 to 1.31 for the job at 10,000
//! messages, and builds that differ only in code layout move it by a few hundredths: read it
//! as 1.3.
//!
//! The conformance suite checks the writer's bytes against serde_json's on every provider's
//! bodies and fragments (`conformance/tests/json_writer.rs`); the fast reader's records
//! against the serde reader's on randomly spelled and randomly broken records
//! (`conformance/tests/fast_reader.rs`) and a table of hostile texts
//! (`fast_reader_hostile.rs`); both directions of the string loop with every escape at every
//! place of two blocks of 64 bytes (`string_blocks.rs`); and the fuzz target both, on every
//! fuzzed text.
//!
//! `examples/scale.rs` (`cargo run --release --example scale -- 10 100 300 1000`) measures a
//! whole record file through reading, [`parse_record`], replay and the Anthropic renderer
//! writing its request to a sink:
//!
//! | file | messages | read | parse | replay | render + write | total | peak memory |
//! |---:|---:|---:|---:|---:|---:|---:|---:|
//! | 10 MB | 2,101 | 0.008 s | 0.013 s | 0.001 s | 0.006 s | 0.028 s | 2.25x the file |
//! | 100 MB | 21,101 | 0.075 s | 0.137 s | 0.013 s | 0.053 s | 0.278 s | 2.05x the file |
//! | 300 MB | 63,211 | 0.251 s | 0.449 s | 0.035 s | 0.155 s | 0.890 s | 2.03x the file |
//! | 1 GB | 210,631 | 1.216 s | 2.131 s | 0.106 s | 0.480 s | 3.933 s | 2.03x the file |
//!
//! Peak memory is the file's text plus the parsed record, which owns its strings; replay and
//! rendering add only their small structures, and the request is written as it is
//! serialized.
//!
//! # Fuzzing
//!
//! `fuzz/` holds a cargo-fuzz target that feeds arbitrary bytes through [`parse_record`],
//! replay, three renderers and all five providers' whole bodies, and checks the invariants that
//! hold for every record: one wire message per stored message, content never empty, no image
//! data when blind, each provider's rules, that with a live user turn every whole body can be
//! built, and that its estimate counts exactly its bytes and each text part whole. Run it with
//! `bash fuzz/run.sh 600` (it installs cargo-fuzz if it is missing); CI checks that the target
//! compiles. The last runs: 56.2 M executions in 901 s, then 17.3 M in 421 s with the estimate
//! checks, then 17.7 M in 421 s with the string loop that reads and writes a block of 64
//! bytes at a time; no crash.
//!
//! # What this crate does not do
//!
//! - **No I/O.** It reads a record from a string and writes nothing; the caller loads files
//!   and sends requests.
//! - **No live tool rounds in replay.** Inside a turn, a tool call and its result are linked by
//!   a real call id; replay is for what is already on disk. The round in flight goes natively,
//!   after the live turn ([`Turn::round`]), and never into the record.
//! - **No tool roles.** No wire message has a tool role or a call id, by construction.
//! - **No repair.** A call whose result never landed is just a `Tool use:` line; nothing is
//!   invented to pair with it.
//! - **No decoding of images.** Replay checks base64 and media types; the renderers read
//!   header bytes only, never pixels, and never resize or convert an image.

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
mod body_error;
mod body_error_kind;
mod cache;
mod conversation_file;
mod cost;
mod dialect;
mod error;
mod file;
mod fit;
mod image;
mod json;
mod marker;
mod native_images;
mod overflow;
mod params;
mod parse;
mod provider;
mod provider_error;
mod record;
mod render;
mod replay;
mod reply;
mod request;
mod retry_after;
mod rounds;
mod rules;
mod signature;
mod stop;
mod stream;
mod surface;
mod tokens;
mod tools;
mod wire;

pub use crate::any_provider::AnyBody;
pub use crate::body::{BodyError, Turn};
pub use crate::body_error_kind::{
    BodyErrorKind, CallerPart, Sequencing, ToolDeclaration, ToolLinkage,
};
pub use crate::cache::Cache;
pub use crate::conversation_file::{write_record, ConversationFile};
pub use crate::cost::Withheld;
pub use crate::cost::{
    file_tokens, image_tokens, Cost, Estimate, ImageRule, ImageTokens, ModelFamily, Of, Priced,
    IMAGE_TOKENS, MODEL_FAMILIES,
};
pub use crate::dialect::{Dialect, Roles, RoundReasoning, SystemText, ToolImages};
pub use crate::error::Error;
pub use crate::file::{File, ToolFile};
pub use crate::fit::Budget;
pub use crate::marker::{Reason, TextOnlyOutput};
pub use crate::params::Reasoning;
pub use crate::parse::parse_record;
#[doc(hidden)]
pub use crate::parse::{parse_record_by_serde, parse_record_fast_only};
pub use crate::provider::{Provider, UnknownProvider};
pub use crate::provider_error::{ErrorKind, ProviderError};
pub use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};
pub use crate::replay::{replay_message, replay_messages, Vision, REPLAY_PREAMBLE};
pub use crate::reply::{Call, Reply, ReplyError, MADE_ID_PREFIX};
pub use crate::request::{Auth, Request};
pub use crate::rounds::{ToolImage, ToolOutput};
pub use crate::rules::ImageLimits;
pub use crate::signature::ImageFormat;
pub use crate::stop::StopReason;
pub use crate::stream::{Delta, StreamError, StreamErrorKind, StreamReader};
pub use crate::tokens::estimate_tokens;
pub use crate::tools::{Tool, ToolChoice, ToolError, UnknownToolChoice};
pub use crate::wire::{CompactJson, Image, Part, Piece, Text, WireMessage, WireRole};

// The README's examples run as doctests, so it cannot drift from the crate.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
