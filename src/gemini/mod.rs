//! Gemini generateContent: the `systemInstruction` and `contents` of a request, in camelCase.
//!
//! `assistant` becomes `model`. Leading system messages become `systemInstruction`, joined by
//! a blank line; a system message after the first other message stays in place as a `user`
//! turn whose text begins `[System]: `. Adjacent turns of one role are merged into one (their
//! parts in order, adjacent texts joined by a blank line). Parts are `{"text"}` and
//! `{"inlineData":{"mimeType","data"}}`, never an empty or white-space-only text, never an
//! empty `parts`. Images go in user and model turns, in the media types and size Gemini takes;
//! any other image becomes a marker that names Gemini.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`]. [`read_reply`] reads a whole response into the [`Reply`](crate::Reply),
//! [`stream()`] reads a streamed one into the same, and [`read_error`] reads an error response.
//!
//! # Sequencing, as found
//!
//! - Adjacent contents of one role are rejected: "Please ensure that multiturn requests
//!   alternate between user and model"
//!   (<https://github.com/NousResearch/hermes-agent/issues/55125>,
//!   <https://github.com/earendil-works/pi/issues/2295>). Every turn the crate renders is
//!   merged with an adjacent one of its role, across history and live turn; a caller's
//!   appended message next to a turn of its own role is an error, since it is sent as it is.
//! - A request that ends on a `model` turn is rejected ("…ends with a user role or a function
//!   response"; reports in the field notes of this crate's design, e.g.
//!   <https://github.com/NousResearch/hermes-agent/issues/55623>): [`body`] refuses it.
//! - `contents` must not be empty ("contents is not specified"): [`body`] refuses a request
//!   with no conversation turn.
//! - A first `model` turn: no documented rule; some integrations drop it
//!   (<https://github.com/AstrBotDevs/AstrBot/pull/1374>). The crate sends the history as it is.
//!
//! ```
//! use transcript_replay::{gemini, parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "system", "blocks": [{"type": "text", "text": "Be brief."}]},
//!   {"role": "user", "blocks": [{"type": "image", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}]},
//!   {"role": "assistant", "blocks": [{"type": "text", "text": "A logo."}]}
//! ]"#)?;
//! let request = gemini::render(&replay_messages(&record, Vision::Sees));
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     concat!(
//!         r#"{"systemInstruction":{"parts":[{"text":"Be brief."}]},"contents":["#,
//!         r#"{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
//!         r#"{"role":"model","parts":[{"text":"A logo."}]}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::RecordError>(())
//! ```
//!
//! # What Gemini accepts, as the crate applies it
//!
//! | rule | as applied |
//! |---|---|
//! | system messages | leading ones → `systemInstruction`; later ones → a `user` turn beginning `[System]: ` |
//! | images | in `user` and `model` turns, never in `systemInstruction` |
//! | formats | PNG, JPEG, WEBP, HEIC, HEIF: [`MEDIA_TYPES`] |
//! | per image and per request | [`MAX_INLINE_DATA_BASE64_LEN`] characters of inline data (20 MB before 2026-01-12), images and files together (one budget, the newest kept), [`MAX_IMAGES_PER_REQUEST`] images |
//! | pixels | no limit (Gemini scales images itself) |
//! | blank text | left out; `parts` is never empty |
//! | adjacent turns of one role | merged into one turn |
//! | content | parts, `{"text"}` and `{"inlineData"}` |
//!
//! Checked by `tests/spec/render_golden.rs` and `tests/spec/body_golden.rs` (byte for byte),
//! `conformance/tests/conformance/render_schemas.rs` and `conformance/tests/conformance/body_schemas.rs` (the pinned
//! `GenerateContentRequest` schema, roles, camelCase keys, one data field a part, alternation),
//! and `conformance/tests/conformance/render_images.rs`.
//!
//! # Tools and the round in flight
//!
//! | part | as written |
//! |---|---|
//! | tools | `tools: [{"functionDeclarations": [{"name", "description", "parametersJsonSchema"}]}]`, the schema as JSON Schema (not `parameters`, an OpenAPI subset that refuses `additionalProperties`, <https://github.com/zed-industries/zed/issues/44875>); `description` always, as the schema requires; names of at most 63 letters, digits, `_` or `-`; no `strict` |
//! | choice | `toolConfig: {"functionCallingConfig": {"mode": "AUTO" \| "NONE" \| "ANY", "allowedFunctionNames"}}` |
//! | the reply | a `model` content of its parts as they came, each `thoughtSignature` beside its function call (Gemini 3 answers 400 without it in the current turn, <https://discuss.ai.google.dev/t/openai-api-compatibility-broken-due-to-thought-signature-on-gemini-3-pro-preview/109823>), a server tool's `toolCall` and `toolResponse` among them, members in order ("Return all parts exactly as received", <https://ai.google.dev/gemini-api/docs/tool-combination>) |
//! | the results | a `user` content of `functionResponse` parts (`id` only when the call came with one, `name`, `response: {"output"}` or `{"error"}`), in the calls' order; the images after them as `inlineData` parts, each after `[Image from the result of {name}]` |
//!
//! Checked by `tests/spec/round_golden.rs`, `tests/spec/tool_declarations.rs` and
//! `conformance/tests/conformance/round_schemas.rs`.

mod enums;
mod error;
mod executed;
mod params;
mod partial;
mod reply;
mod request;
mod round;
mod stream;
mod tools;
mod wire;

pub use self::error::read_error;
pub use self::reply::read_reply;
pub use self::request::{Body, Content, Request, Role};
pub use self::stream::stream;

use crate::body::request::Auth;
use crate::body::{BodyError, Turn};
use crate::cost::GEMINI_2;
use crate::provider::Provider;
use crate::render;
use crate::render::rules::CacheCounting;
use crate::render::rules::NameRule;
use crate::render::rules::{FileRules, ImageLimits, Rules, ServerForm, ServerTools, TurnRole};
use crate::surface::{path_segment, RequestShape, Surface};
use crate::wire::WireMessage;

use self::request::contents_of;

/// The image media types Gemini takes.
///
/// Source: Gemini's image-understanding guide, "Supported image formats": PNG, JPEG, WEBP,
/// HEIC and HEIF, <https://ai.google.dev/gemini-api/docs/image-understanding>.
pub const MEDIA_TYPES: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
];

/// How much inline data one request may carry, its images and files together: 100 MB, counted
/// as base64 text; so also the longest base64 text of one image.
///
/// Source: Google's announcement of 2026-01-12, "Increased file size limits and expanded
/// inputs support in Gemini API": "we are increasing the maximum payload size for inline data
/// from 20MB to 100MB (base64 encoded, with varying limits based on data types)",
/// <https://blog.google/innovation-and-ai/technology/developers-tools/gemini-api-new-file-limits>.
/// Before that date the limit was 20 MB; pass a smaller one in [`ImageLimits`] to
/// [`render_with`] for a deployment that still has it.
pub const MAX_INLINE_DATA_BASE64_LEN: usize = 100_000_000;

/// How many images one request may carry: 3,600.
///
/// Source: Gemini's image-understanding guide, "a maximum of 3,600 image files per request".
pub const MAX_IMAGES_PER_REQUEST: usize = 3_600;

/// Gemini's image limits, which `render` applies. Gemini states no pixel limit: it scales
/// large images itself.
pub const LIMITS: ImageLimits = ImageLimits {
    base64_len_per_image: MAX_INLINE_DATA_BASE64_LEN,
    images_per_request: MAX_IMAGES_PER_REQUEST,
    base64_len_per_request: MAX_INLINE_DATA_BASE64_LEN,
    max_side_pixels: None,
    max_side_pixels_beyond: None,
    withholding_step: None,
};

pub(crate) static RULES: Rules = Rules {
    provider: Provider::Gemini,
    reads_compaction: None,
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    images_in: |role| match role {
        TurnRole::User | TurnRole::Assistant => true,
        TurnRole::System => false,
    },
    hoists_system: true,
    gathers_system: false,
    drops_blank_text: true,
    merges_same_role: true,
    takes_prefill: false,
    rejects_ending_on_assistant: true,
    rejects_no_turn: true,
    instructions_as_message: false,
    starts_on_user: false,
    model_role: "model",
    body_keys: &["systemInstruction", "system_instruction", "contents"],
    appended_roles: &[("user", TurnRole::User), ("model", TurnRole::Assistant)],
    // "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 63"
    // (<https://ai.google.dev/api/caching#FunctionDeclaration>).
    tool_names: NameRule { max: 63 },
    // A function declaration has no `strict`
    // (<https://ai.google.dev/api/caching#FunctionDeclaration>).
    tools_take_strict: false,
    takes_no_tool_choice: true,
    // A `functionCallingConfig` without `functionDeclarations` is refused: "Function calling
    // config is set without function_declarations"
    // (<https://github.com/pydantic/pydantic-ai/pull/5791>,
    // <https://github.com/musistudio/claude-code-router/pull/1207>).
    choice_needs_functions: true,
    rounds_need_tools: false,
    tool_keys: &["tools", "toolConfig"],
    // Named by their only key, as a native declaration is; written by `tools.rs`.
    server_tools: ServerTools {
        web_search: Some(ServerForm::Entry("googleSearch")),
        code_execution: Some(ServerForm::Entry("codeExecution")),
    },
    files: FileRules {
        media_types: &FILE_TYPES,
        files_in: |role| match role {
            TurnRole::User | TurnRole::Assistant => true,
            TurnRole::System => false,
        },
        per_file: MAX_FILE_BASE64_LEN,
        per_request: None,
        bytes_per_request: Some(MAX_FILE_BASE64_LEN_PER_REQUEST),
        // Inline data is limited a request, images and files together
        // ([`MAX_INLINE_DATA_BASE64_LEN`]): one budget.
        data_with_images: true,
        pages_per_request: None,
        text_types: &[],
        labelled: false,
    },
    refused_fields: &[],
    output_limit: None,
    pairs: &[],
};

/// The file media types Gemini takes natively as `inlineData` parts, in user and model
/// turns: documents (<https://ai.google.dev/gemini-api/docs/document-processing>, "Technical
/// details"), audio (<https://ai.google.dev/gemini-api/docs/audio>) and video
/// (<https://ai.google.dev/gemini-api/docs/video-understanding>). Office documents are refused
/// ("Unsupported MIME type:
/// application/vnd.openxmlformats-officedocument.wordprocessingml.document",
/// <https://github.com/googleapis/python-genai/issues/829>); `text/markdown` is not in the
/// documented list (`text/md` is).
///
/// ```
/// assert!(transcript_replay::gemini::FILE_TYPES.contains(&"audio/wav"));
/// ```
pub const FILE_TYPES: [&str; 27] = [
    "application/pdf",
    "application/x-javascript",
    "text/javascript",
    "application/x-python",
    "text/x-python",
    "text/plain",
    "text/html",
    "text/css",
    "text/md",
    "text/csv",
    "text/xml",
    "text/rtf",
    "audio/wav",
    "audio/mp3",
    "audio/aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
    "video/mp4",
    "video/mpeg",
    "video/mov",
    "video/avi",
    "video/x-flv",
    "video/mpg",
    "video/webm",
    "video/wmv",
    "video/3gpp",
];

/// The most base64 text one file may have: "Gemini supports PDF files up to 50MB or 1000
/// pages" (<https://ai.google.dev/gemini-api/docs/document-processing>), counted on the base64
/// text.
pub const MAX_FILE_BASE64_LEN: usize = 50 * 1024 * 1024;

/// The most base64 text the files of one request may add up to: inline data is limited to
/// 100 MB a request (<https://ai.google.dev/gemini-api/docs/file-input-methods>), shared with
/// images: the request's data limit ([`MAX_INLINE_DATA_BASE64_LEN`], or the one passed in
/// [`ImageLimits`]) is one budget for its images and files, the newest kept.
pub const MAX_FILE_BASE64_LEN_PER_REQUEST: usize = 100_000_000;

/// Renders wire messages as the `systemInstruction` and `contents` of a generateContent
/// request.
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "image", "media_type": "image/gif", "data": "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="}
/// ]}]"#)?;
/// let request = gemini::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"contents":[{"role":"user","parts":[{"text":"[Image (image/gif) not shown: Gemini does not accept image/gif]"}]}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render<'a>(messages: &[WireMessage<'a>]) -> Request<'a> {
    render_with(messages, &LIMITS)
}

/// Renders wire messages as [`render`] does, under the given image limits: for example the
/// 20 MB of inline data that applied before 2026-01-12.
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, ImageLimits, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#)?;
/// let limits = ImageLimits { base64_len_per_request: 20_000_000, base64_len_per_image: 20_000_000, ..gemini::LIMITS };
/// let request = gemini::render_with(&replay_messages(&record, Vision::Sees), &limits);
/// assert_eq!(request.contents.len(), 1);
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    let mut rendered = render::render(messages, &RULES, limits);
    Request {
        system_instruction: rendered.system.take(),
        starts: rendered.starts.clone(),
        contents: contents_of(rendered),
    }
}

/// Builds the whole body of a generateContent request from a [`Turn`]:
/// `{...fields, "systemInstruction": {"parts": [S, H]}, "contents": [history, live turn,
/// appended]}`. The model goes in the URL, not the body.
///
/// `systemInstruction` holds up to two text parts: S, the caller's instructions and
/// [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE), then H, the history's leading system
/// messages; a part is left out when it is empty, and the field when both are. Adjacent turns
/// of one role are merged across the whole request: history, live turn, and later system
/// messages rendered as user turns.
///
/// # Errors
///
/// A [`BodyError`] when the body would end on a model turn, when it would have no content,
/// when a caller's appended message would stand next to a turn of its own role, or when the
/// caller's fields or appended messages are not what a body takes.
///
/// ```
/// use transcript_replay::{gemini, parse_record, StoredMessage, Turn};
///
/// // The history ends on a user turn whose answer never came; the live turn merges with it.
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "Is a.rs empty?"}]}
/// ]"#)?;
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&record).instructions("Be brief.").without_preamble().live(&live);
/// assert_eq!(
///     serde_json::to_string(&gemini::body(&turn).unwrap()).unwrap(),
///     concat!(
///         r#"{"systemInstruction":{"parts":[{"text":"Be brief."}]},"#,
///         r#""contents":[{"role":"user","parts":[{"text":"Is a.rs empty?\n\nAnd b.rs?"}]}]}"#,
///     ),
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn body<'a>(turn: &'a Turn<'_>) -> Result<Body<'a>, BodyError> {
    tools::check_mix(turn.tools_given(), turn.model_name())?;
    crate::body::build(turn, &RULES, &LIMITS, Body::new)
}

/// generateContent as one value.
///
/// Sources: <https://ai.google.dev/api> (`x-goog-api-key`) and
/// <https://ai.google.dev/api/generate-content> (`:streamGenerateContent?alt=sse`). The model
/// goes in the path, one percent-encoded segment; a name with its resource prefix
/// (`models/gemini-2.5-pro`) loses the prefix. Usage: `promptTokenCount` counts the cached
/// tokens inside the input, and no cache writes are reported.
pub(crate) static SURFACE: Surface = Surface {
    limits: LIMITS,
    request: RequestShape {
        path: |_provider, model, stream| {
            let name = model.strip_prefix("models/").unwrap_or(model);
            let method = if stream {
                "streamGenerateContent?alt=sse"
            } else {
                "generateContent"
            };
            format!("/v1beta/models/{}:{method}", path_segment(name))
        },
        // https://ai.google.dev/api/generate-content
        base_url: |_provider, _region| "https://generativelanguage.googleapis.com".to_owned(),
        auth: Auth::XGoogApiKey,
        headers: &[],
        stream_type: "text/event-stream",
        compaction_headers: &[],
        tool_headers: crate::surface::no_tool_headers,
    },
    params: params::fields,
    cache_counting: CacheCounting::ReadsIncluded,
    // Implicit caching of a shared prefix: from 1,024 tokens, 2,048 for the Pro models
    // (https://ai.google.dev/gemini-api/docs/caching).
    cache_rule: crate::cost::CacheRule::Prefix {
        minimum: |model| if model.contains("pro") { 2_048 } else { 1_024 },
        step: 1,
    },
    image_rule: &GEMINI_2,
    read_reply: |body, _provider| read_reply(body),
    stream: |_provider| stream(),
    read_error: |_provider, status, body| read_error(status, body),
    read_error_with_headers: |_provider, status, headers, body| {
        read_error(status, body).with_headers(headers)
    },
};
