//! OpenAI Chat Completions: the `messages` of a request.
//!
//! Roles stay as they are (`system`, `user`, `assistant`). A message whose content is one
//! text part carries it as a plain string, which every OpenAI-compatible server accepts;
//! otherwise content is an array of `text` and `image_url` parts, an image as a `data:` URL
//! written as it is serialized. Images go only in user messages, in the media types and size
//! OpenAI takes; any other image becomes a marker that names OpenAI.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`]. [`read_reply`] reads a whole response into the [`Reply`](crate::Reply),
//! [`stream()`] reads a streamed one into the same, and [`read_error`] reads an error response.
//!
//! ```
//! use transcript_replay::{openai, parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "system", "blocks": [{"type": "text", "text": "Be brief."}]},
//!   {"role": "user", "blocks": [
//!     {"type": "text", "text": "What is this?"},
//!     {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}
//!   ]}
//! ]"#)?;
//! let wire = replay_messages(&record, Vision::Sees);
//! let request = openai::render(&wire);
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     concat!(
//!         r#"{"messages":[{"role":"system","content":"Be brief."},"#,
//!         r#"{"role":"user","content":[{"type":"text","text":"What is this?"},"#,
//!         r#"{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::RecordError>(())
//! ```
//!
//! # What OpenAI Chat accepts, as the crate applies it
//!
//! | rule | as applied |
//! |---|---|
//! | system messages | stay in place, role `system`; S is a first `system` message |
//! | images | only in `user` messages ("Image URLs are only allowed for messages with role 'user'"); an assistant turn's images are carried to the next user message, and its files (a tool's PDF) too, as [`FILE_TYPES`] says they go only in `user` messages |
//! | formats | PNG, JPEG, WEBP, GIF (not animated): [`MEDIA_TYPES`] |
//! | per image | [`MAX_IMAGE_BASE64_LEN`] characters of base64 |
//! | per request | [`MAX_IMAGES_PER_REQUEST`] images, [`MAX_IMAGE_BASE64_LEN_PER_REQUEST`] characters of image data |
//! | pixels | no limit (OpenAI scales images itself) |
//! | blank text | kept (accepted) |
//! | adjacent turns of one role | kept (OpenAI takes them) |
//! | sequencing | a body never ends on an assistant turn (there is no prefill), and has a user or assistant turn |
//! | content | a string when it is one text part, else parts |
//!
//! Checked by `tests/spec/render_golden.rs` and `tests/spec/body_golden.rs` (byte for byte),
//! `conformance/tests/conformance/render_schemas.rs` and `conformance/tests/conformance/body_schemas.rs` (the pinned
//! `CreateChatCompletionRequest` schema and each rule above), and
//! `conformance/tests/conformance/render_images.rs` (roles, formats, sizes, limits).
//!
//! # Tools and the round in flight
//!
//! | part | as written |
//! |---|---|
//! | tools | `tools: [{"type": "function", "function": {"name", "description", "parameters", "strict"}}]`, before `messages`; names `^[a-zA-Z0-9_-]{1,64}$` |
//! | choice | `tool_choice: "auto" \| "none" \| "required" \| {"type": "function", "function": {"name"}}` |
//! | the reply | its `message` as it came, less its `null` fields and other zero values (`""`, `[]`, `{}`, a call with no name and no input) and `annotations`, which only a response has (OpenAI refuses a message field it does not know; a compatible server's own, such as `reasoning_content`, is kept); a streamed reply's message as the whole one's, byte for byte: its members where they came |
//! | the results | one `{"role": "tool", "tool_call_id", "content"}` per call, in the calls' order; an error's output is the content too (the API has no flag) |
//! | tool images | a `tool` message takes text only: the round's images follow its results in one `user` message, each after `[Image from the result of {name} ({id})]` |
//!
//! Checked by `tests/spec/round_golden.rs`, `tests/spec/tool_declarations.rs` and
//! `conformance/tests/conformance/round_schemas.rs`.
//!
//! # OpenAI-compatible servers
//!
//! A server that speaks this API with rules of its own is a [`Dialect`]:
//! [`Provider::Compatible`] builds bodies, reads replies,
//! streams and errors under its rules ([`render_for`] renders a fragment), and
//! [`Dialect::NAMED`] lists the servers the crate knows, each rule with its source. What
//! differs from the table above, when the dialect says so: system text gathered into the
//! first message, adjacent turns of one role merged, a tool's images as markers inside its
//! result, the reply's reasoning left out of the round, its own image and file types, and
//! fields refused. Checked by `tests/spec/dialect_golden.rs` and
//! `conformance/tests/conformance/dialect_rules.rs` (every dialect's bodies against the pinned schema and
//! its rules), `conformance/tests/conformance/stream_chunking.rs` (every dialect's streams).

mod calls;
mod chunk;
mod content;
mod dialect;
mod error;
mod native;
pub(crate) mod params;
mod reply;
mod request;
mod round;
mod stream;
mod tools;
mod wire;

pub use self::error::read_error;
pub(crate) use self::error::{from_parts as error_from_parts, read as read_any_error};
pub use self::reply::read_reply;
pub(crate) use self::reply::read_reply_of;
pub use self::request::{Body, Request};
pub use self::stream::stream;
pub(crate) use self::stream::stream_of;
pub use self::wire::Message;
pub use crate::dialects::{Dialect, Roles, RoundReasoning, SystemText, ToolImages};

use crate::body::request::Auth;
use crate::body::{BodyError, Turn};
use crate::cost::GPT_4O;
use crate::provider::Provider;
use crate::render;
use crate::render::rules::CacheCounting;
use crate::render::rules::NameRule;
use crate::render::rules::{FileRules, ImageLimits, Rules, ServerForm, ServerTools, TurnRole};
use crate::surface::{RequestShape, Surface};
use crate::wire::WireMessage;

use self::request::messages_of;

/// The image media types OpenAI takes.
///
/// Source: OpenAI's vision guide, "Image input requirements": PNG, JPEG, WEBP and
/// non-animated GIF, <https://platform.openai.com/docs/guides/images-vision>.
pub const MEDIA_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// The longest base64 text this renderer sends for one image: 20 MB.
///
/// Source: OpenAI's vision guide, "up to 20 MB per image". The limit is applied to the base64
/// text rather than the decoded bytes, so that it holds however the server counts.
pub const MAX_IMAGE_BASE64_LEN: usize = 20_000_000;

/// How many images one request may carry: 500.
///
/// Source: OpenAI's vision guide, "up to 500 individual image inputs per request".
pub const MAX_IMAGES_PER_REQUEST: usize = 500;

/// How much image data one request may carry: 50 MB, counted as base64 text.
///
/// Source: OpenAI's vision guide, "up to 50 MB total payload size per request".
pub const MAX_IMAGE_BASE64_LEN_PER_REQUEST: usize = 50_000_000;

/// OpenAI's image limits, which `render` applies. OpenAI states no pixel limit: it scales
/// large images down itself.
pub const LIMITS: ImageLimits = ImageLimits {
    base64_len_per_image: MAX_IMAGE_BASE64_LEN,
    images_per_request: MAX_IMAGES_PER_REQUEST,
    base64_len_per_request: MAX_IMAGE_BASE64_LEN_PER_REQUEST,
    max_side_pixels: None,
    max_side_pixels_beyond: None,
    withholding_step: None,
};

pub(crate) static RULES: Rules = Rules {
    provider: Provider::OpenAi,
    reads_compaction: None,
    media_types: &MEDIA_TYPES,
    // "non-animated GIF" only, says the vision guide.
    refuses_animated_gifs: true,
    images_in: |role| match role {
        TurnRole::User => true,
        TurnRole::System | TurnRole::Assistant => false,
    },
    hoists_system: false,
    gathers_system: false,
    drops_blank_text: false,
    // OpenAI takes adjacent messages of one role.
    merges_same_role: false,
    takes_prefill: false,
    rejects_ending_on_assistant: false,
    rejects_no_turn: false,
    instructions_as_message: true,
    starts_on_user: false,
    model_role: "assistant",
    body_keys: &["messages"],
    appended_roles: &[
        ("system", TurnRole::System),
        ("developer", TurnRole::System),
        ("user", TurnRole::User),
        ("assistant", TurnRole::Assistant),
        ("tool", TurnRole::User),
        ("function", TurnRole::User),
    ],
    // "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"
    // (<https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools>).
    tool_names: NameRule { max: 64 },
    tools_take_strict: true,
    takes_no_tool_choice: true,
    choice_needs_functions: false,
    rounds_need_tools: false,
    tool_keys: &["tools", "tool_choice"],
    // Web search is the top-level `web_search_options` of the search models, not a tool;
    // Chat has no code execution. See `tools.rs`.
    server_tools: ServerTools {
        web_search: Some(ServerForm::Field),
        code_execution: None,
    },
    files: FileRules {
        media_types: &FILE_TYPES,
        files_in: FileRules::user_only,
        per_file: MAX_FILE_BASE64_LEN,
        per_request: None,
        bytes_per_request: Some(MAX_FILE_BASE64_LEN),
        // The vision guide and the file guide each state their own limit.
        data_with_images: false,
        pages_per_request: None,
        text_types: &[],
        labelled: false,
    },
    refused_fields: &[],
    output_limit: Some("max_completion_tokens"),
    pairs: &params::PAIRS,
};

/// The file media types OpenAI Chat takes natively, in user messages only: PDF as a `file`
/// part (`{"type":"file","file":{"filename","file_data":"data:application/pdf;base64,..."}}`,
/// `ChatCompletionRequestMessageContentPartFile`), WAV and MP3 as `input_audio`
/// (`ChatCompletionRequestMessageContentPartAudio`, `format` `wav` or `mp3`; audio-input
/// models only). "Chat Completions accepts only PDF files as `file` content parts"
/// (<https://developers.openai.com/api/docs/guides/file-inputs>); any other type is refused:
/// "Expected a base64-encoded data URL with an application/pdf MIME type ..., but got
/// unsupported MIME type 'text/markdown'"
/// (<https://github.com/trpc-group/trpc-agent-go/issues/1816>). Assistant and tool messages
/// take text only (the pinned spec's `ChatCompletionRequestAssistantMessageContentPart` and
/// `ChatCompletionRequestToolMessageContentPart`).
///
/// ```
/// assert!(transcript_replay::openai::FILE_TYPES.contains(&"application/pdf"));
/// ```
pub const FILE_TYPES: [&str; 6] = [
    "application/pdf",
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
    "audio/mpeg",
    "audio/mp3",
];

/// The most base64 text one file may have: "Each file must be under 50 MB. The combined limit
/// across all files in the request is 50 MB"
/// (<https://developers.openai.com/api/docs/guides/pdf-files>), counted on the base64 text, as
/// image limits are, so that the check holds however the server counts.
pub const MAX_FILE_BASE64_LEN: usize = 50 * 1024 * 1024;

/// Renders wire messages as the `messages` of a Chat Completions request: one OpenAI message
/// per wire message.
///
/// ```
/// use transcript_replay::{openai, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "assistant", "blocks": [
///     {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}
/// ]}]"#)?;
/// let request = openai::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"messages":[{"role":"assistant","content":"[Image (image/png) not shown: OpenAI accepts images only in user messages]"}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render<'a>(messages: &[WireMessage<'a>]) -> Request<'a> {
    render_with(messages, &LIMITS)
}

/// Renders wire messages as [`render`] does, under the given image limits.
///
/// ```
/// use transcript_replay::{openai, parse_record, replay_messages, ImageLimits, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "image", "media_type": "image/gif", "data": "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="}
/// ]}]"#)?;
/// let wire = replay_messages(&record, Vision::Sees);
/// let tiny = ImageLimits { base64_len_per_request: 10, ..openai::LIMITS };
/// assert_eq!(
///     serde_json::to_string(&openai::render_with(&wire, &tiny)).unwrap(),
///     r#"{"messages":[{"role":"user","content":"[Image (image/gif) not shown: OpenAI takes at most 10 bytes of image data a request, and the newest images are kept]"}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    Request {
        messages: messages_of(render::render(messages, &RULES, limits)),
    }
}

/// Renders wire messages as [`render`] does, under a compatible server's [`Dialect`]: its
/// image and file types, its tool rules, and, for a server that takes system text only at
/// the beginning, every system message joined into the first.
///
/// ```
/// use transcript_replay::{openai, parse_record, replay_messages, Dialect, Vision};
///
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "Hi"}]},
///   {"role": "system", "blocks": [{"type": "text", "text": "Be brief."}]},
///   {"role": "user", "blocks": [{"type": "text", "text": "Still there?"}]}
/// ]"#)?;
/// let request = openai::render_for(&replay_messages(&record, Vision::Sees), &Dialect::VLLM);
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi\n\nStill there?"}]}"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn render_for<'a>(messages: &[WireMessage<'a>], dialect: &'static Dialect) -> Request<'a> {
    let rules = rules_of(Provider::Compatible(dialect), dialect);
    let mut rendered = render::render(messages, &rules, &LIMITS);
    let system = rendered.system.take().map(|text| Message {
        role: crate::wire::WireRole::System,
        content: vec![crate::wire::Part::Text(text)],
    });
    Request {
        messages: system.into_iter().chain(messages_of(rendered)).collect(),
    }
}

/// Builds the whole body of a Chat Completions request from a [`Turn`]:
/// `{...fields, "messages": [S, history, live turn, appended]}`.
///
/// The system text S (the caller's instructions and [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE))
/// is a first `system` message; the history's own system messages stay in place. Images and
/// files of an assistant turn (a tool's screenshots, a tool's PDF) are carried to the next
/// user message, which is the only place OpenAI takes them. Adjacent messages of one role are left as they are: OpenAI
/// takes them.
///
/// # Errors
///
/// A [`BodyError`] when the body would end on an assistant turn (there is nothing for the
/// model to answer; OpenAI has no prefill), when it would have no message at all, or when the
/// caller's fields or appended messages are not what a body takes.
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{openai, parse_record, StoredMessage, Turn};
///
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "Is a.rs empty?"}]},
///   {"role": "assistant", "blocks": [{"type": "text", "text": "Yes."}]}
/// ]"#)?;
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&record)
///     .instructions("Be brief.")
///     .without_preamble()
///     .live(&live)
///     .fields(&json!({"model": "gpt-4.1"}));
/// assert_eq!(
///     serde_json::to_string(&openai::body(&turn).unwrap()).unwrap(),
///     concat!(
///         r#"{"model":"gpt-4.1","messages":[{"role":"system","content":"Be brief."},"#,
///         r#"{"role":"user","content":"Is a.rs empty?"},{"role":"assistant","content":"Yes."},"#,
///         r#"{"role":"user","content":"And b.rs?"}]}"#,
///     ),
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
pub fn body<'a>(turn: &'a Turn<'_>) -> Result<Body<'a>, BodyError> {
    body_of(turn, Provider::OpenAi)
}

/// The whole body of a Chat Completions request to a provider of the OpenAI Chat surface
/// (OpenAI, or a compatible server), under its dialect's rules.
pub(crate) fn body_of<'a>(turn: &'a Turn<'_>, provider: Provider) -> Result<Body<'a>, BodyError> {
    let dialect = provider.dialect().unwrap_or(&Dialect::OPENAI);
    let rules = rules_of(provider, dialect);
    crate::body::build(turn, &rules, &LIMITS, |assembled| {
        Body::new(assembled, provider, dialect)
    })
}

/// The rules of a provider of the OpenAI Chat surface: OpenAI's, with the dialect's.
pub(crate) fn rules_of(provider: Provider, dialect: &'static Dialect) -> Rules {
    if provider == Provider::OpenAi {
        return RULES;
    }
    Rules {
        provider,
        media_types: dialect.image_types,
        gathers_system: match dialect.system {
            SystemText::InPlace => false,
            SystemText::First => true,
        },
        merges_same_role: match dialect.roles {
            Roles::Kept => false,
            Roles::Alternate => true,
        },
        files: FileRules {
            media_types: dialect.file_types,
            ..RULES.files
        },
        refused_fields: dialect.refused_fields,
        output_limit: Some(dialect.output_limit),
        // `web_search_options` is OpenAI's own search models' field; a compatible server's
        // search (Perplexity's always-on search, OpenRouter's `plugins`, xAI's
        // `search_parameters`) is its own, declared by the caller's fields.
        server_tools: ServerTools::NONE,
        // OpenAI's reasoning models' pairs are OpenAI's own: a compatible server takes a
        // temperature or stop beside its effort unless its dialect says otherwise (Azure
        // OpenAI serves the same models and is not followed here).
        pairs: if *dialect == Dialect::OPENAI {
            RULES.pairs
        } else {
            &[]
        },
        ..RULES
    }
}

/// OpenAI Chat, and every compatible server under its dialect, as one value.
///
/// Sources: the API reference, <https://platform.openai.com/docs/api-reference/chat/create>
/// (a bearer key). Each compatible server documents a base URL that ends before `/v1` (Groq
/// `https://api.groq.com/openai`, OpenRouter `https://openrouter.ai/api`, Fireworks
/// `https://api.fireworks.ai/inference`, local servers `http://localhost:PORT`); a dialect's
/// [`chat_path`](crate::Dialect::chat_path) is the path: Gemini's OpenAI endpoint
/// `/v1beta/openai/chat/completions` (<https://ai.google.dev/gemini-api/docs/openai>),
/// Perplexity `/chat/completions`. Not followed: Azure OpenAI takes its key in an `api-key`
/// header (a bearer token is Microsoft Entra ID's), and a classic deployment's path names
/// the deployment and an `api-version`.
///
/// Usage: `prompt_tokens` counts the cached tokens inside the input, and no cache writes are
/// reported.
pub(crate) static SURFACE: Surface = Surface {
    limits: LIMITS,
    request: RequestShape {
        path: |provider, _model, _stream| {
            provider
                .dialect()
                .map_or("/v1/chat/completions", |dialect| dialect.chat_path)
                .to_owned()
        },
        base_url: |provider, _region| {
            provider
                .dialect()
                .map_or(Dialect::OPENAI.base_url, |dialect| dialect.base_url)
                .to_owned()
        },
        auth: Auth::Bearer,
        headers: &[],
        stream_type: "text/event-stream",
        compaction_headers: &[],
        tool_headers: crate::surface::no_tool_headers,
    },
    params: params::fields,
    cache_counting: CacheCounting::ReadsIncluded,
    // Automatic prefix caching from 1,024 tokens, "in increments of 128 tokens"
    // (https://platform.openai.com/docs/guides/prompt-caching).
    cache_rule: crate::cost::CacheRule::Prefix {
        minimum: |_model| 1_024,
        step: 128,
    },
    image_rule: &GPT_4O,
    read_reply: |body, provider| read_reply_of(body, provider),
    stream: stream_of,
    read_error: |provider, status, body| read_any_error(provider, Some(status), body),
    read_error_with_headers: |provider, status, headers, body| {
        read_any_error(provider, Some(status), body).with_headers(headers)
    },
};
