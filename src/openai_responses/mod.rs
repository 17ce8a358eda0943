//! OpenAI Responses: the `input` items of a request, and the whole body with `instructions`.
//!
//! Each wire message becomes one input message (`EasyInputMessage`): `{"role", "content"}`,
//! roles unchanged (`system`, `user`, `assistant`); a history's system messages stay in place.
//! Content is a plain string when it is one text part, else an array of `input_text` and
//! `input_image` parts (a `data:` URL, written as it is serialized, with `"detail": "auto"`).
//! An assistant message is always text, so always a string: the `output_text` form would need
//! an `id`, a `status` and `annotations` that a replayed history does not have. Images go only
//! in user messages, in the media types and sizes OpenAI takes (its vision guide covers both
//! APIs); an assistant turn's images (a tool's screenshots) and files (a tool's PDF) are
//! carried to the next user message; any other image becomes a marker that names OpenAI.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`], with the system text S as `instructions`. [`read_reply`] reads a whole response into the [`Reply`](crate::Reply),
//! [`stream()`] reads a streamed one into the same, and [`read_error`] reads an error response.
//!
//! ```
//! use transcript_replay::{openai_responses, parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "user", "blocks": [
//!     {"type": "text", "text": "What is this?"},
//!     {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}
//!   ]},
//!   {"role": "assistant", "blocks": [{"type": "text", "text": "A dot."}]}
//! ]"#)?;
//! let request = openai_responses::render(&replay_messages(&record, Vision::Sees));
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     concat!(
//!         r#"{"input":[{"role":"user","content":[{"type":"input_text","text":"What is this?"},"#,
//!         r#"{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC","detail":"auto"}]},"#,
//!         r#"{"role":"assistant","content":"A dot."}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::RecordError>(())
//! ```
//!
//! # What OpenAI Responses accepts, as the crate applies it
//!
//! The same images, formats and limits as Chat Completions ([`LIMITS`] is
//! [`openai::LIMITS`]); S goes to `instructions`; the history's system
//! messages stay in place in `input`; blank text is kept; a body never ends on an assistant
//! turn and has a user or assistant turn; a caller's appended item without a `role` (a
//! `function_call`, a `function_call_output`) is sent as it is and counts as no turn. Checked
//! by `tests/spec/render_golden.rs`, `tests/spec/body_golden.rs`, `conformance/tests/conformance/body_schemas.rs`
//! (each `input` item against the pinned `EasyInputMessage`, the body against
//! `CreateResponse`) and `conformance/tests/conformance/render_images.rs`.
//!
//! # Tools and the round in flight
//!
//! | part | as written |
//! |---|---|
//! | tools | `tools: [{"type": "function", "name", "description", "parameters", "strict"}]`, `strict` always (the schema requires it; `false` unless the tool asks); names as Chat Completions |
//! | choice | `tool_choice: "auto" \| "none" \| "required" \| {"type": "function", "name"}` |
//! | the reply | each output item as it came: `reasoning` items with their `encrypted_content`, messages, `function_call`s. Stateless (`store: false`), ask for the reasoning with the field `"include": ["reasoning.encrypted_content"]` (<https://cookbook.openai.com/examples/responses_api/reasoning_items>) |
//! | the results | one `{"type": "function_call_output", "call_id", "output"}` per call, in the calls' order; with images, `output` is `input_text` and `input_image` parts |
//!
//! Checked by `tests/spec/round_golden.rs`, `tests/spec/tool_declarations.rs` and
//! `conformance/tests/conformance/round_schemas.rs` (each item against its own pinned schema).

mod compact;
mod error;
mod params;
mod reply;
mod request;
mod round;
mod stream;
mod tools;
mod wire;

pub use self::compact::{compact_request, read_compaction, CompactRequest};
pub use self::error::read_error;
pub use self::reply::read_reply;
pub use self::request::{Body, Message, Request};
pub use self::stream::stream;

use crate::body::request::Auth;
use crate::body::{BodyError, Turn};
use crate::cost::GPT_4O;
use crate::openai;
use crate::provider::Provider;
use crate::render;
use crate::render::rules::CacheCounting;
use crate::render::rules::NameRule;
use crate::render::rules::{FileRules, ImageLimits, Rules, ServerForm, ServerTools, TurnRole};
use crate::surface::{RequestShape, Surface};
use crate::wire::WireMessage;

use self::request::messages_of;

/// The image limits `render` and `body` apply: OpenAI's, which its vision guide states for
/// Chat Completions and Responses alike ([`openai::LIMITS`]).
pub const LIMITS: ImageLimits = openai::LIMITS;

pub(crate) static RULES: Rules = Rules {
    provider: Provider::OpenAiResponses,
    // Responses takes its `compaction` item as an item of the input, beside the messages (a
    // message holding one is split around it), and only a payload that is that item: anything
    // else goes as the summary's prose, or the marker, and the history before it is kept.
    reads_compaction: Some(crate::render::rules::NativeCompaction {
        in_role: |role| match role {
            crate::Role::System
            | crate::Role::User
            | crate::Role::Assistant
            | crate::Role::Tool => true,
        },
        payload: request::is_compaction_item,
    }),
    media_types: &openai::MEDIA_TYPES,
    refuses_animated_gifs: true,
    images_in: |role| match role {
        TurnRole::User => true,
        TurnRole::System | TurnRole::Assistant => false,
    },
    hoists_system: false,
    gathers_system: false,
    drops_blank_text: false,
    merges_same_role: false,
    takes_prefill: false,
    rejects_ending_on_assistant: false,
    rejects_no_turn: false,
    instructions_as_message: false,
    starts_on_user: false,
    model_role: "assistant",
    body_keys: &["instructions", "input"],
    appended_roles: &[
        ("system", TurnRole::System),
        ("developer", TurnRole::System),
        ("user", TurnRole::User),
        ("assistant", TurnRole::Assistant),
    ],
    // Responses takes the names Chat Completions takes
    // (<https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools>).
    tool_names: NameRule { max: 64 },
    tools_take_strict: true,
    takes_no_tool_choice: true,
    choice_needs_functions: false,
    rounds_need_tools: false,
    tool_keys: &["tools", "tool_choice"],
    // Named by their `type`, as a native declaration is; written by `tools.rs`.
    server_tools: ServerTools {
        web_search: Some(ServerForm::Entry("web_search")),
        code_execution: Some(ServerForm::Entry("code_interpreter")),
    },
    files: FileRules {
        media_types: &FILE_TYPES,
        files_in: FileRules::user_only,
        per_file: openai::MAX_FILE_BASE64_LEN,
        per_request: None,
        bytes_per_request: Some(openai::MAX_FILE_BASE64_LEN),
        // OpenAI's guides state the images' limit and the files' apart.
        data_with_images: false,
        pages_per_request: None,
        text_types: &[],
        labelled: false,
    },
    refused_fields: &[],
    output_limit: None,
    pairs: &params::PAIRS,
};

/// The file media types Responses takes natively as `input_file` parts
/// (`{"type":"input_file","filename","file_data":"data:<type>;base64,..."}`,
/// `InputFileContent`), in user messages and in a function call's output: the guide's
/// "Accepted file types" (<https://developers.openai.com/api/docs/guides/file-inputs>): PDF,
/// text and code, rich documents, presentations and spreadsheets. No audio or video: the
/// pinned spec's `InputContent` has no `input_audio`. Assistant content takes only
/// `output_text` and `refusal` ("Invalid value: 'input_text'. Supported values are:
/// 'output_text' and 'refusal'.", <https://github.com/google/adk-go/issues/1197>).
///
/// ```
/// assert!(transcript_replay::openai_responses::FILE_TYPES.contains(&"text/csv"));
/// ```
pub const FILE_TYPES: [&str; 16] = [
    "application/pdf",
    "text/plain",
    "text/markdown",
    "text/html",
    "text/xml",
    "text/csv",
    "application/json",
    "application/rtf",
    "application/msword",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.ms-powerpoint",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/xml",
];

/// Renders wire messages as the `input` of a Responses request: one input message per wire
/// message.
///
/// ```
/// use transcript_replay::{openai_responses, StoredMessage, replay_messages, Vision};
///
/// let record = [StoredMessage::system("Summary: greeting."), StoredMessage::user("Hi")];
/// let request = openai_responses::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"input":[{"role":"system","content":"Summary: greeting."},{"role":"user","content":"Hi"}]}"#,
/// );
/// ```
pub fn render<'a>(messages: &[WireMessage<'a>]) -> Request<'a> {
    render_with(messages, &LIMITS)
}

/// Renders wire messages as [`render`] does, under the given image limits.
///
/// ```
/// use transcript_replay::{openai_responses, replay_messages, ImageLimits, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let limits = ImageLimits { images_per_request: 10, ..openai_responses::LIMITS };
/// assert_eq!(openai_responses::render_with(&replay_messages(&record, Vision::Sees), &limits).input.len(), 1);
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    Request {
        input: messages_of(render::render(messages, &RULES, limits)),
    }
}

/// Builds the whole body of a Responses request from a [`Turn`]:
/// `{...fields, "instructions": S, "input": [history, live turn, appended]}`.
///
/// `instructions` is the system text S (the caller's instructions and
/// [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE)), left out when there is none; the history's
/// own system messages stay in place in `input`. Add `model` (and `store: false` if the
/// conversation is kept only in the record) as fields.
///
/// # Errors
///
/// A [`BodyError`] when the body would end on an assistant turn (there is nothing for the
/// model to answer; Responses has no prefill), when it would have no input at all, or when
/// the caller's fields or appended items are not what a body takes.
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{openai_responses, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Is a.rs empty?"), StoredMessage::assistant("Yes.")];
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&history)
///     .instructions("Be brief.")
///     .without_preamble()
///     .live(&live)
///     .fields(&json!({"model": "gpt-5", "store": false}));
/// assert_eq!(
///     serde_json::to_string(&openai_responses::body(&turn).unwrap()).unwrap(),
///     concat!(
///         r#"{"model":"gpt-5","store":false,"instructions":"Be brief.","input":["#,
///         r#"{"role":"user","content":"Is a.rs empty?"},{"role":"assistant","content":"Yes."},"#,
///         r#"{"role":"user","content":"And b.rs?"}]}"#,
///     ),
/// );
/// ```
pub fn body<'a>(turn: &'a Turn<'_>) -> Result<Body<'a>, BodyError> {
    round::check_tool_searches(turn)?;
    crate::body::build(turn, &RULES, &LIMITS, Body::new)
}

/// The Responses API as one value.
///
/// Sources: the API reference, <https://platform.openai.com/docs/api-reference/responses/create>
/// (a bearer key). Usage: `input_tokens` counts the cached tokens inside the input, and no
/// cache writes are reported.
pub(crate) static SURFACE: Surface = Surface {
    limits: LIMITS,
    request: RequestShape {
        path: |_provider, _model, _stream| "/v1/responses".to_owned(),
        // https://platform.openai.com/docs/api-reference/responses
        base_url: |_provider, _region| "https://api.openai.com".to_owned(),
        auth: Auth::Bearer,
        headers: &[],
        stream_type: "text/event-stream",
        compaction_headers: &[],
        tool_headers: crate::surface::no_tool_headers,
    },
    params: params::fields,
    cache_counting: CacheCounting::ReadsIncluded,
    // The same automatic prefix cache as Chat: from 1,024 tokens, in steps of 128
    // (https://platform.openai.com/docs/guides/prompt-caching).
    cache_rule: crate::cost::CacheRule::Prefix {
        minimum: |_model| 1_024,
        step: 128,
    },
    image_rule: &GPT_4O,
    read_reply: |body, _provider| read_reply(body),
    stream: |_provider| stream(),
    read_error: |_provider, status, body| read_error(status, body),
    read_error_with_headers: |_provider, status, headers, body| {
        read_error(status, body).with_headers(headers)
    },
};
