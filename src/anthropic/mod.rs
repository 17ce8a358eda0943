//! Anthropic Messages: the `system` and `messages` of a request.
//!
//! Leading system messages become the `system` string, joined by a blank line; a system
//! message after the first other message stays in place as a `user` message whose text begins
//! `[System]: `. Content is always an array of `text` and `image` blocks. No text block is
//! empty or white space only. Images go only in user messages, in the media types and size
//! Anthropic takes; an assistant turn's images (a tool's screenshots) and files (a tool's PDF)
//! are carried to the next user message; any other image becomes a marker that names Anthropic.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`]. [`read_reply`] reads a whole response into the [`Reply`](crate::Reply),
//! [`stream()`] reads a streamed one into the same, and [`read_error`] reads an error response.
//!
//! # Sequencing, as found
//!
//! - Adjacent turns of one role are accepted and merged by the server: "Consecutive `user`
//!   or `assistant` turns in your request will be combined into a single turn"
//!   (<https://platform.claude.com/docs/en/api/messages>). The crate keeps one message per
//!   wire message.
//! - A first message of the `assistant` role: the first-party API accepts it, Bedrock answers
//!   "messages: first message must use the \"user\" role"
//!   (<https://github.com/anthropics/anthropic-sdk-typescript/issues/622>). The crate sends
//!   the history as it is, since making it start on a user turn would invent or drop content.
//! - A request that ends on an assistant turn is a prefill: the model continues it. Newer
//!   models refuse it ("This model does not support assistant message prefill",
//!   <https://github.com/cortexkit/magic-context/issues/511>), and its text must not end in
//!   white space ("final assistant content cannot end with trailing whitespace",
//!   <https://github.com/tailcallhq/forgecode/issues/1872>). [`body`] ends on an assistant
//!   turn only when the turn asks for a prefill, and then trims that text alone.
//! - `messages` must not be empty: [`body`] refuses a request with no conversation turn.
//!
//! ```
//! use transcript_replay::{anthropic, parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "system", "blocks": [{"type": "text", "text": "Be brief."}]},
//!   {"role": "user", "blocks": [{"type": "text", "text": "Hi"}]},
//!   {"role": "assistant", "blocks": [{"type": "text", "text": "Hello!\n"}]}
//! ]"#)?;
//! let request = anthropic::render(&replay_messages(&record, Vision::Sees));
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     concat!(
//!         r#"{"system":"Be brief.","messages":["#,
//!         r#"{"role":"user","content":[{"type":"text","text":"Hi"}]},"#,
//!         r#"{"role":"assistant","content":[{"type":"text","text":"Hello!\n"}]}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::RecordError>(())
//! ```
//!
//! # What Anthropic accepts, as the crate applies it
//!
//! | rule | as applied |
//! |---|---|
//! | system messages | leading ones → `system`; later ones → a `user` turn beginning `[System]: ` |
//! | images | only in `user` messages; an assistant turn's images are carried to the next user message, and its files (a tool's PDF) too, as [`FILE_TYPES`] says they go only in `user` messages |
//! | formats | JPEG, PNG, GIF, WEBP: [`MEDIA_TYPES`] |
//! | per image | [`MAX_IMAGE_BASE64_LEN`] characters of base64; [`MAX_SIDE_PIXELS`] a side |
//! | per request | [`MAX_IMAGES_PER_REQUEST`] images (200k-context models), [`MAX_IMAGE_BASE64_LEN_PER_REQUEST`] characters of image and document data together (one budget, the newest kept), [`MANY_IMAGES_MAX_SIDE_PIXELS`] a side beyond [`MANY_IMAGES`] images, [`MAX_PDF_PAGES_PER_REQUEST`] PDF pages |
//! | blank text | left out (a text block must not be empty or white space only) |
//! | adjacent turns of one role | kept (the server merges them) |
//! | content | always an array of blocks |
//!
//! Checked by `tests/spec/render_golden.rs` and `tests/spec/body_golden.rs` (byte for byte),
//! `conformance/tests/conformance/render_schemas.rs` and `conformance/tests/conformance/body_schemas.rs` (the pinned
//! `CreateMessageParams` schema and each rule above), `conformance/tests/conformance/render_images.rs`
//! (roles, formats, sizes, limits) and `conformance/tests/conformance/prompt_cache.rs` (breakpoints).
//!
//! # Tools and the round in flight
//!
//! | part | as written |
//! |---|---|
//! | tools | `tools: [{"name", "description", "input_schema", "strict"}]`, before `system`; names `^[a-zA-Z0-9_-]{1,128}$` |
//! | choice | `tool_choice: {"type": "auto" \| "none" \| "any" \| "tool", "name"}` |
//! | the reply | an `assistant` turn of its content blocks as they came: `thinking` with its `signature`, `redacted_thinking`, `tool_use` ("the only case where you must return thinking blocks", <https://docs.anthropic.com/en/docs/build-with-claude/context-windows>); a blank text block is left out |
//! | the results | a `user` turn of `tool_result` blocks (`tool_use_id`, `content`, `is_error` when the tool failed), in the calls' order; images as `image` blocks in the result; a blank output has no `content` |
//! | caching | with [`Turn::cache`](crate::Turn::cache), `cache_control` on the last result of the last round (at most four breakpoints with S and the history's) |
//!
//! Checked by `tests/spec/round_golden.rs`, `tests/spec/tool_declarations.rs` and
//! `conformance/tests/conformance/round_schemas.rs`.

mod content;
mod error;
mod params;
mod reply;
mod request;
mod round;
mod stream;
mod tools;
mod wire;

pub use self::error::read_error;
pub use self::reply::read_reply;
pub use self::request::{Body, Message, Request, Role};
pub use self::stream::stream;

use crate::body::request::Auth;
use crate::body::{BodyError, Turn};
use crate::cost::CLAUDE;
use crate::provider::Provider;
use crate::render;
use crate::render::rules::CacheCounting;
use crate::render::rules::NameRule;
use crate::render::rules::{FileRules, ImageLimits, Rules, ServerForm, ServerTools, TurnRole};
use crate::surface::{RequestShape, Surface};
use crate::wire::WireMessage;

pub(crate) use self::params::{thinking_checks, PAIRS};

use self::request::messages_of;

/// The image media types Anthropic takes.
///
/// Source: Anthropic's vision guide,
/// <https://platform.claude.com/docs/en/build-with-claude/vision>, and the `media_type` enum of
/// `Base64ImageSource` in Anthropic's OpenAPI description of the Messages API.
pub const MEDIA_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// The longest base64 text Anthropic takes for one image: 5 MB, 5,242,880 characters.
///
/// Source: Anthropic's error text, "image exceeds 5 MB maximum: N bytes > 5242880 bytes",
/// which counts the base64 text, not the decoded bytes, as quoted in public reports such as
/// <https://github.com/anthropics/claude-code/issues/10612>.
pub const MAX_IMAGE_BASE64_LEN: usize = 5_242_880;

/// How many images one request may carry on models with a 200k-token context: 100. Other
/// models take 600; pass that in [`ImageLimits`] to [`render_with`].
///
/// Source: Anthropic's vision guide, "up to 100 images per request" on 200k-context models
/// (600 otherwise), <https://platform.claude.com/docs/en/build-with-claude/vision>.
pub const MAX_IMAGES_PER_REQUEST: usize = 100;

/// How much image data one request may carry: 32 MB, counted as base64 text, with the
/// request's documents (one budget for both, the newest kept).
///
/// Source: Anthropic's API overview, "32 MB" maximum request size for the Messages API,
/// <https://platform.claude.com/docs/en/api/overview>: a limit of the whole request, so its
/// images and documents share it. The
/// text of a request counts towards that limit too; keeping a history's text within it is
/// compaction's job, not replay's.
pub const MAX_IMAGE_BASE64_LEN_PER_REQUEST: usize = 32_000_000;

/// The most pixels an image may have on either side: 8000.
///
/// Source: Anthropic's vision guide, "images larger than 8000x8000 px will be rejected".
pub const MAX_SIDE_PIXELS: u32 = 8_000;

/// The most pixels an image may have on either side once a request carries more than
/// [`MANY_IMAGES`] images: 2000.
///
/// Source: Anthropic's vision guide, "if you submit more than 20 images in one API request,
/// this limit is 2000x2000 px".
pub const MANY_IMAGES_MAX_SIDE_PIXELS: u32 = 2_000;

/// How many images a request may carry before [`MANY_IMAGES_MAX_SIDE_PIXELS`] applies: 20.
pub const MANY_IMAGES: usize = 20;

/// Anthropic's image limits for models with a 200k-token context, which `render` applies.
pub const LIMITS: ImageLimits = ImageLimits {
    base64_len_per_image: MAX_IMAGE_BASE64_LEN,
    images_per_request: MAX_IMAGES_PER_REQUEST,
    base64_len_per_request: MAX_IMAGE_BASE64_LEN_PER_REQUEST,
    max_side_pixels: Some(MAX_SIDE_PIXELS),
    max_side_pixels_beyond: Some((MANY_IMAGES, MANY_IMAGES_MAX_SIDE_PIXELS)),
    withholding_step: None,
};

pub(crate) static RULES: Rules = Rules {
    provider: Provider::Anthropic,
    // Anthropic takes its `compaction` block only in an assistant turn ("the compaction block
    // ... in the assistant message", https://platform.claude.com/docs/en/build-with-claude/compaction);
    // one stored in a user or system message goes there as its summary's prose. Its payload is
    // an opaque string: any is its own.
    reads_compaction: Some(crate::render::rules::NativeCompaction {
        in_role: |role| match role {
            crate::Role::Assistant => true,
            crate::Role::System | crate::Role::User | crate::Role::Tool => false,
        },
        payload: |_| true,
    }),
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    images_in: |role| match role {
        TurnRole::User => true,
        TurnRole::System | TurnRole::Assistant => false,
    },
    hoists_system: true,
    gathers_system: false,
    drops_blank_text: true,
    // The server merges adjacent turns of one role itself (see the module docs).
    merges_same_role: false,
    takes_prefill: true,
    rejects_ending_on_assistant: false,
    rejects_no_turn: true,
    instructions_as_message: false,
    starts_on_user: false,
    model_role: "assistant",
    body_keys: &["system", "messages"],
    appended_roles: &[("user", TurnRole::User), ("assistant", TurnRole::Assistant)],
    // `^[a-zA-Z0-9_-]{1,128}$`
    // (<https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use>).
    tool_names: NameRule { max: 128 },
    tools_take_strict: true,
    takes_no_tool_choice: true,
    choice_needs_functions: false,
    rounds_need_tools: false,
    tool_keys: &["tools", "tool_choice"],
    // Each named by its constant `name` (the pinned spec's `WebSearchTool_20250305` and
    // `CodeExecutionTool_20250825`); written by `tools.rs`.
    server_tools: ServerTools {
        web_search: Some(ServerForm::Entry("web_search")),
        code_execution: Some(ServerForm::Entry("code_execution")),
    },
    files: FileRules {
        media_types: &FILE_TYPES,
        files_in: FileRules::user_only,
        per_file: MAX_FILE_BASE64_LEN,
        per_request: None,
        bytes_per_request: Some(MAX_FILE_BASE64_LEN),
        // "Maximum request size: 32 MB" is the whole request's
        // (<https://platform.claude.com/docs/en/api/overview>): its images and documents are
        // one budget, [`MAX_IMAGE_BASE64_LEN_PER_REQUEST`].
        data_with_images: true,
        pages_per_request: Some(MAX_PDF_PAGES_PER_REQUEST),
        text_types: &FILE_TYPES_AS_TEXT,
        labelled: false,
    },
    refused_fields: &[],
    output_limit: None,
    pairs: &PAIRS,
};

/// The file media types Anthropic takes natively, as `document` blocks in user messages and
/// tool results: PDF as a base64 source (`Base64PDFSource`, whose `media_type` is
/// `application/pdf` and nothing else), and plain text as a text source (`PlainTextSource`,
/// `media_type` `text/plain`, the text itself): "Plain text files such as .txt, .csv, or .md
/// can be used directly in document blocks ... with MIME type `text/plain`"
/// (<https://platform.claude.com/docs/en/build-with-claude/pdf-support>), so CSV and Markdown
/// go as `text/plain` too. Any other type is refused ("document.source.base64.media_type:
/// Input should be 'application/pdf'", <https://github.com/danny-avila/LibreChat/issues/14535>).
/// Documents in assistant turns are not documented, and are treated as images are: user
/// messages only.
///
/// ```
/// assert!(transcript_replay::anthropic::FILE_TYPES.contains(&"application/pdf"));
/// ```
pub const FILE_TYPES: [&str; 4] = ["application/pdf", "text/plain", "text/csv", "text/markdown"];

/// The file types Anthropic takes as a text source: their bytes must be UTF-8.
const FILE_TYPES_AS_TEXT: [&str; 3] = ["text/plain", "text/csv", "text/markdown"];

/// The most base64 text one file may have: the whole request may be at most 32 MB ("Maximum
/// request size: 32 MB", <https://platform.claude.com/docs/en/build-with-claude/pdf-support>).
pub const MAX_FILE_BASE64_LEN: usize = 32 * 1024 * 1024;

/// The most PDF pages one request may carry: "Maximum pages per request: 100" on models with a
/// 200k-token window (600 on larger ones;
/// <https://platform.claude.com/docs/en/build-with-claude/pdf-support>). The newest files are
/// kept.
pub const MAX_PDF_PAGES_PER_REQUEST: usize = 100;

/// Renders wire messages as the `system` and `messages` of a Messages request.
///
/// ```
/// use transcript_replay::{anthropic, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "Hi"}]},
///   {"role": "system", "blocks": [{"type": "text", "text": "Summary so far: greeting."}]}
/// ]"#)?;
/// let request = anthropic::render(&replay_messages(&record, Vision::Sees));
/// assert!(request.system.is_none());
/// assert_eq!(
///     serde_json::to_string(&request.messages[1]).unwrap(),
///     r#"{"role":"user","content":[{"type":"text","text":"[System]: Summary so far: greeting."}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render<'a>(messages: &[WireMessage<'a>]) -> Request<'a> {
    render_with(messages, &LIMITS)
}

/// Renders wire messages as [`render`] does, under the given image limits: for example
/// 600 images a request, for models with less than a 200k-token context.
///
/// ```
/// use transcript_replay::{anthropic, parse_record, replay_messages, ImageLimits, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#)?;
/// let limits = ImageLimits { images_per_request: 600, ..anthropic::LIMITS };
/// let request = anthropic::render_with(&replay_messages(&record, Vision::Sees), &limits);
/// assert_eq!(request.messages.len(), 1);
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    let mut rendered = render::render(messages, &RULES, limits);
    Request {
        system: rendered.system.take(),
        starts: rendered.starts.clone(),
        messages: messages_of(rendered),
    }
}

/// Builds the whole body of a Messages request from a [`Turn`]:
/// `{...fields, "system": [S, H], "messages": [history, live turn, appended]}`.
///
/// `system` holds up to two text blocks: S, the caller's instructions and
/// [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE), then H, the history's leading system
/// messages; a block is left out when it is empty, and the field when both are. Add `model`
/// and `max_tokens` as fields. Images and files of an assistant turn (a tool's screenshots, a
/// tool's PDF) are carried to the next user message, history or live turn.
///
/// # Errors
///
/// A [`BodyError`] when the body would end on an assistant turn and the turn asks for no
/// prefill, when it would have no message, or when the caller's fields or appended messages
/// are not what a body takes.
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{anthropic, parse_record, StoredMessage, Turn};
///
/// let record = parse_record(r#"[
///   {"role": "system", "blocks": [{"type": "text", "text": "Summary: a.rs was read."}]},
///   {"role": "user", "blocks": [{"type": "text", "text": "Is a.rs empty?"}]},
///   {"role": "assistant", "blocks": [{"type": "text", "text": "Yes."}]}
/// ]"#)?;
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&record)
///     .instructions("Be brief.")
///     .without_preamble()
///     .live(&live)
///     .fields(&json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}));
/// assert_eq!(
///     serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap(),
///     concat!(
///         r#"{"max_tokens":1024,"model":"claude-sonnet-4-5","#,
///         r#""system":[{"type":"text","text":"Be brief."},{"type":"text","text":"Summary: a.rs was read."}],"#,
///         r#""messages":[{"role":"user","content":[{"type":"text","text":"Is a.rs empty?"}]},"#,
///         r#"{"role":"assistant","content":[{"type":"text","text":"Yes."}]},"#,
///         r#"{"role":"user","content":[{"type":"text","text":"And b.rs?"}]}]}"#,
///     ),
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn body<'a>(turn: &'a Turn<'_>) -> Result<Body<'a>, BodyError> {
    crate::body::build(turn, &RULES, &LIMITS, Body::new)
}

/// The version of the Messages API the crate writes bodies for
/// (<https://docs.anthropic.com/en/api/versioning>).
const VERSION: &str = "2023-06-01";

/// The Messages API as one value.
///
/// Sources: <https://docs.anthropic.com/en/api/getting-started> (`x-api-key`, `content-type`)
/// and <https://docs.anthropic.com/en/api/versioning> (`anthropic-version`). Usage counts
/// `input_tokens` apart from `cache_creation_input_tokens` and `cache_read_input_tokens`
/// ("the total input tokens is the sum of the three",
/// <https://docs.claude.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance>).
pub(crate) static SURFACE: Surface = Surface {
    limits: LIMITS,
    request: RequestShape {
        path: |_provider, _model, _stream| "/v1/messages".to_owned(),
        // https://docs.anthropic.com/en/api/overview
        base_url: |_provider, _region| "https://api.anthropic.com".to_owned(),
        auth: Auth::XApiKey,
        headers: &[("anthropic-version", VERSION)],
        stream_type: "text/event-stream",
        // Compaction is a beta of the Messages API: a request that sends a `compaction`
        // block back names it
        // (https://platform.claude.com/docs/en/build-with-claude/compaction).
        compaction_headers: &[("anthropic-beta", "compact-2026-01-12")],
        tool_headers: tools::beta_headers,
    },
    params: params::fields,
    cache_counting: CacheCounting::Apart,
    // `cache_control` breakpoints; the least cacheable prompt is 1,024 tokens, 2,048 for the
    // Claude 3 Haiku models, 4,096 for Opus 4.5 and Haiku 4.5
    // (https://docs.claude.com/en/docs/build-with-claude/prompt-caching).
    cache_rule: crate::cost::CacheRule::Breakpoints {
        marker: "cache_control",
        minimum: claude_cache_minimum,
    },
    image_rule: &CLAUDE,
    read_reply: |body, _provider| read_reply(body),
    stream: |_provider| stream(),
    read_error: |_provider, status, body| read_error(status, body),
    read_error_with_headers: |_provider, status, headers, body| {
        read_error(status, body).with_headers(headers)
    },
};

/// The least prompt a Claude model caches, in tokens: 4,096 for Opus 4.5 and Haiku 4.5, 2,048
/// for the Claude 3 Haiku models, 1,024 for the others
/// (<https://docs.claude.com/en/docs/build-with-claude/prompt-caching>), by the model's name as
/// Anthropic or Bedrock writes it.
pub(crate) fn claude_cache_minimum(model: &str) -> u64 {
    let model = model.to_ascii_lowercase();
    if model.contains("opus-4-5") || model.contains("haiku-4-5") {
        4_096
    } else if model.contains("3-haiku") || model.contains("3-5-haiku") {
        2_048
    } else {
        1_024
    }
}
