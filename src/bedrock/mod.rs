//! Amazon Bedrock Converse: the `system` and `messages` of a request.
//!
//! Roles are `user` and `assistant`. Leading system messages become `system` text blocks; a
//! system message after the first other message stays in place as a `user` turn whose text
//! begins `[System]: `. Content blocks are `{"text"}` and
//! `{"image":{"format","source":{"bytes"}}}` (the bytes as base64 on the JSON wire), never an
//! empty or white-space-only text. Images go only in user messages, in the formats, count and
//! sizes Converse takes; an assistant turn's images (a tool's screenshots) and files (a tool's
//! PDF) are carried to the next user message; any other image becomes a marker that names Bedrock. The model goes in
//! the URL (`/model/{modelId}/converse`), not the body.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`], with `cachePoint` blocks when the turn asks for prompt caching. [`read_reply`] reads a whole response into the [`Reply`](crate::Reply),
//! [`stream()`] reads a streamed one into the same, and [`read_error`] reads an error response.
//!
//! # Sequencing, as found
//!
//! Bedrock is the strictest surface:
//! - Adjacent turns of one role are rejected: "A conversation must alternate between user and
//!   assistant roles" (<https://github.com/Portkey-AI/gateway/issues/748>,
//!   <https://github.com/microsoft/semantic-kernel/issues/10281>). Every turn the crate
//!   renders is merged with an adjacent one of its role, across history and live turn.
//! - The first turn must be a user turn: "A conversation must start with a user message"
//!   (<https://github.com/elastic/kibana/pull/246393>,
//!   <https://github.com/quarkiverse/quarkus-langchain4j/issues/1764>). [`body`] refuses a
//!   record whose first turn (after its leading system messages) is the assistant's, since a
//!   user turn before it would be invented.
//! - The last message must be a user message (semantic-kernel #10281 above): [`body`] never
//!   ends on an assistant turn.
//!
//! ```
//! use transcript_replay::{bedrock, parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "system", "blocks": [{"type": "text", "text": "Summary: a.rs was read."}]},
//!   {"role": "user", "blocks": [{"type": "image", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}]},
//!   {"role": "assistant", "blocks": [{"type": "text", "text": "A dot."}]}
//! ]"#)?;
//! let request = bedrock::render(&replay_messages(&record, Vision::Sees));
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     concat!(
//!         r#"{"system":[{"text":"Summary: a.rs was read."}],"messages":["#,
//!         r#"{"role":"user","content":[{"image":{"format":"png","source":{"bytes":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}}]},"#,
//!         r#"{"role":"assistant","content":[{"text":"A dot."}]}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::RecordError>(())
//! ```
//!
//! # What Bedrock Converse accepts, as the crate applies it
//!
//! | rule | as applied |
//! |---|---|
//! | system messages | leading ones → `system` text blocks; later ones → a `user` turn beginning `[System]: ` |
//! | images | only in `user` messages; an assistant turn's images are carried to the next user message, and its files (a tool's PDF) too, as [`FILE_TYPES_AND_FORMATS`] says they go only in `user` messages |
//! | formats | PNG, JPEG, GIF, WEBP: [`MEDIA_TYPES`] |
//! | per image | [`MAX_IMAGE_BASE64_LEN`] characters of base64 (3.75 MB), [`MAX_SIDE_PIXELS`] a side |
//! | per request | [`MAX_IMAGES_PER_REQUEST`] images |
//! | blank text | left out |
//! | adjacent turns of one role | merged into one turn |
//! | content | always an array of blocks; `cachePoint` blocks with [`Turn::cache`](crate::Turn::cache) |
//!
//! Checked by `tests/spec/render_golden.rs` and `tests/spec/body_golden.rs` (byte for byte),
//! `conformance/tests/conformance/body_schemas.rs` (the pinned service model's `ConverseRequest` shapes,
//! with a small shape validator, and each rule above) and `conformance/tests/conformance/render_images.rs`.
//!
//! # Tools and the round in flight
//!
//! | part | as written |
//! |---|---|
//! | tools | `toolConfig: {"tools": [{"toolSpec": {"name", "description", "inputSchema": {"json"}, "strict"}}], "toolChoice"}`, `description` left out when empty; names of at most 64 letters, digits, `_` or `-` |
//! | choice | `{"auto": {}}`, `{"any": {}}` or `{"tool": {"name"}}`; there is no `none`, and asking for it is an error |
//! | the reply | an `assistant` turn of its content blocks as they came (`reasoningContent` with its signature, `toolUse`); a blank text block is left out |
//! | the results | a `user` turn of `toolResult` blocks (`toolUseId`, `content` of `text` and `image` blocks, `status: "error"` when the tool failed), in the calls' order; a blank output is `[Empty message]` (Bedrock refuses an empty text block, <https://github.com/NousResearch/hermes-agent/pull/55093>) |
//! | caching | with [`Turn::cache`](crate::Turn::cache), a `cachePoint` after the last result of the last round |
//! | rounds need tools | "The toolConfig field must be defined when using toolUse and toolResult content blocks" (<https://github.com/langgenius/dify/issues/16421>): rounds without declared tools are an error |
//!
//! Checked by `tests/spec/round_golden.rs`, `tests/spec/tool_declarations.rs`, `tests/spec/round_linkage.rs`
//! and `conformance/tests/conformance/round_schemas.rs` (the service model's shapes).
//!
//! # What a reply carries, kept
//!
//! | content | in the record | in the round in flight |
//! |---|---|---|
//! | `citationsContent` (document citations; Nova web grounding, <https://docs.aws.amazon.com/nova/latest/userguide/grounding.html>) | its text, then one `source` block per distinct source its citations name (`location.web.url`, else `source`; `title`; `sourceContent` as the cited words) | as it came (streamed: `citationsContent` with the citations the deltas gave) |
//! | Nova built-in tools (<https://docs.aws.amazon.com/nova/latest/userguide/tool-built-in.html>): `toolUse` of `"type": "server_tool_use"` and the `toolResult` after it | a `tool_use` with `provider_executed` (no output owed, never stop `tool_use`), then a `tool_result` named after it: `text` items as they are, `json` items as compact JSON, one a line; `status: "error"` an error | as they came, with the rest of the reply; no result is written for them |
//! | any other block (`guardContent`, `document`, ...) | `[Not kept: Bedrock {type} content]`, listed by [`Reply::not_kept`](crate::Reply::not_kept) | as it came |
//!
//! A stream gives the same [`Reply`](crate::Reply) as the whole body of the same response, in
//! any chunking. Checked by `conformance/tests/conformance/not_kept.rs`.

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
pub(crate) use self::error::read_error_with_headers;
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
use crate::render::rules::{FileRules, ImageLimits, Rules, ServerTools, TurnRole};
use crate::surface::{path_segment, RequestShape, Surface};
use crate::wire::WireMessage;

use self::request::messages_of;

/// The image media types Converse takes.
///
/// Source: the `ImageFormat` enum of Bedrock Runtime's service model (`png`, `jpeg`, `gif`,
/// `webp`), <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html>.
pub const MEDIA_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The longest base64 text Converse takes for one image: that of 3.75 MB, 5,242,880
/// characters.
///
/// Source: Bedrock Runtime's service model, `Message.content`: "Each image's size, height,
/// and width must be no more than 3.75 MB, 8000 px, and 8000 px, respectively"
/// (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html>);
/// 3.75 MiB of bytes are 5,242,880 characters of base64.
pub const MAX_IMAGE_BASE64_LEN: usize = 5_242_880;

/// How many images one request may carry: 20.
///
/// Source: the same documentation, "You can include up to 20 images"; public reports quote
/// the error, "too many images and documents: 21 + 0 > 20"
/// (<https://github.com/cline/cline/issues/1844>).
pub const MAX_IMAGES_PER_REQUEST: usize = 20;

/// The most pixels an image may have on either side: 8000.
pub const MAX_SIDE_PIXELS: u32 = 8_000;

/// Converse's image limits, which `render` and `body` apply. The service states no separate
/// limit on a request's image data: 20 images of at most 3.75 MB bound it.
pub const LIMITS: ImageLimits = ImageLimits {
    base64_len_per_image: MAX_IMAGE_BASE64_LEN,
    images_per_request: MAX_IMAGES_PER_REQUEST,
    base64_len_per_request: MAX_IMAGES_PER_REQUEST * MAX_IMAGE_BASE64_LEN,
    max_side_pixels: Some(MAX_SIDE_PIXELS),
    max_side_pixels_beyond: None,
    withholding_step: None,
};

pub(crate) static RULES: Rules = Rules {
    provider: Provider::Bedrock,
    reads_compaction: None,
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    // "You can only include images and documents if the role is user."
    images_in: |role| match role {
        TurnRole::User => true,
        TurnRole::System | TurnRole::Assistant => false,
    },
    hoists_system: true,
    gathers_system: false,
    drops_blank_text: true,
    merges_same_role: true,
    takes_prefill: false,
    rejects_ending_on_assistant: true,
    rejects_no_turn: true,
    instructions_as_message: false,
    starts_on_user: true,
    model_role: "assistant",
    body_keys: &["system", "messages"],
    appended_roles: &[("user", TurnRole::User), ("assistant", TurnRole::Assistant)],
    // `[a-zA-Z0-9_-]+`, at most 64
    // (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html>).
    tool_names: NameRule { max: 64 },
    tools_take_strict: true,
    // `toolChoice` is `auto`, `any` or `tool`: there is no `none`
    // (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolChoice.html>).
    takes_no_tool_choice: false,
    choice_needs_functions: false,
    // "The toolConfig field must be defined when using toolUse and toolResult content
    // blocks", <https://github.com/langgenius/dify/issues/16421>,
    // <https://github.com/vercel/ai/pull/7537>).
    rounds_need_tools: true,
    tool_keys: &["toolConfig"],
    // Converse's system tools are each model family's (Nova 2's `nova_grounding` and
    // `nova_code_interpreter`), not Bedrock's: see `tools.rs`.
    server_tools: ServerTools::NONE,
    files: FileRules {
        media_types: &FILE_TYPES,
        files_in: FileRules::user_only,
        per_file: MAX_FILE_BASE64_LEN,
        per_request: Some(MAX_FILES_PER_REQUEST),
        bytes_per_request: None,
        // Converse states no limit on a request's data, only its images' and documents'
        // counts and sizes.
        data_with_images: false,
        pages_per_request: None,
        text_types: &[],
        labelled: true,
    },
    refused_fields: &[],
    output_limit: None,
    // Claude's thinking rules, which Converse passes to Claude as they are.
    pairs: &crate::anthropic::PAIRS,
};

/// The file media types Bedrock takes natively, in user messages and tool results, each with
/// the `format` it is sent as: `document` blocks for the `DocumentFormat` values (pdf, csv,
/// doc, docx, xls, xlsx, html, txt, md) and `video` blocks for the `VideoFormat` ones (the
/// pinned service model; video on Amazon Nova models only). "You can only include images and
/// documents if the role is user" (`Message`,
/// <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html>). A
/// format that does not match the bytes is refused
/// (<https://github.com/maximhq/bifrost/issues/4622>). Audio is in the model, but no Converse
/// model documents taking it.
///
/// ```
/// assert!(transcript_replay::bedrock::FILE_TYPES_AND_FORMATS.iter().any(|(media_type, format)| (*media_type, *format) == ("application/pdf", "pdf")));
/// ```
pub const FILE_TYPES_AND_FORMATS: [(&str, &str); 18] = [
    ("application/pdf", "pdf"),
    ("text/csv", "csv"),
    ("application/msword", "doc"),
    (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "docx",
    ),
    ("application/vnd.ms-excel", "xls"),
    (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xlsx",
    ),
    ("text/html", "html"),
    ("text/plain", "txt"),
    ("text/markdown", "md"),
    ("video/mp4", "mp4"),
    ("video/quicktime", "mov"),
    ("video/x-matroska", "mkv"),
    ("video/webm", "webm"),
    ("video/x-flv", "flv"),
    ("video/mpeg", "mpeg"),
    ("video/x-ms-wmv", "wmv"),
    ("video/3gpp", "three_gp"),
    ("text/x-markdown", "md"),
];

/// Whether a file of this media type goes as a `video` or a `document` block, and its
/// `format`; `None` for a media type Bedrock does not take.
pub(crate) fn file_format(media_type: &str) -> Option<(&'static str, &'static str)> {
    let lowercase = crate::media::file::lowercase(media_type);
    FILE_TYPES_AND_FORMATS
        .iter()
        .find(|(known, _)| *known == lowercase.as_ref())
        .map(|&(known, format)| match known.starts_with("video/") {
            true => ("video", format),
            false => ("document", format),
        })
}

/// A document's name made to Bedrock's rule, unique in the request: the stored name with every
/// character but ASCII letters, digits, hyphens, parentheses and square brackets made a
/// space, runs of spaces made one and the ends trimmed (`DocumentBlock.name`: "The name can
/// only contain the following characters: Alphanumeric characters; Whitespace characters (no
/// more than one in a row); Hyphens; Parentheses; Square brackets"; a dot or an underscore is
/// refused: "The document file name can only contain alphanumeric characters, whitespace
/// characters, hyphens, parentheses, and square brackets",
/// <https://github.com/aws-samples/generative-ai-use-cases/issues/1677>), `document` when
/// nothing is left, cut to leave room in 200 characters for the file's place in the request,
/// `[n]`, which keeps two files of one name apart ("Messages can't contain duplicate document
/// names", <https://github.com/maximhq/bifrost/issues/7003>).
///
/// ```
/// # // The rule is private; its effect is visible in a body.
/// use transcript_replay::{bedrock, Block, Role, StoredMessage, Turn};
///
/// let history = [StoredMessage::new(Role::User, vec![
///     Block::text("Compare them."),
///     Block::named_file("q3_report.v2.pdf", "application/pdf", "JVBERi0="),
///     Block::named_file("q3_report.v2.pdf", "application/pdf", "JVBERi0="),
/// ])];
/// let body = serde_json::to_string(&bedrock::body(&Turn::new(&history)).unwrap()).unwrap();
/// assert!(body.contains(r#""name":"q3 report v2 pdf [1]""#));
/// assert!(body.contains(r#""name":"q3 report v2 pdf [2]""#));
/// ```
pub(crate) fn document_name(name: Option<&str>, ordinal: usize) -> String {
    let mut made = String::new();
    for c in name.unwrap_or_default().chars() {
        let kept = c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']');
        match (kept, made.ends_with(' ') || made.is_empty()) {
            (true, _) => made.push(c),
            (false, false) => made.push(' '),
            (false, true) => {}
        }
    }
    let suffix = format!(" [{ordinal}]");
    made.truncate(200 - suffix.len());
    let made = made.trim_end();
    let made = if made.is_empty() { "document" } else { made };
    format!("{made}{suffix}")
}

/// The media types of [`FILE_TYPES_AND_FORMATS`], for the renderer's rules.
const FILE_TYPES: [&str; 18] = [
    "application/pdf",
    "text/csv",
    "application/msword",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text/html",
    "text/plain",
    "text/markdown",
    "video/mp4",
    "video/quicktime",
    "video/x-matroska",
    "video/webm",
    "video/x-flv",
    "video/mpeg",
    "video/x-ms-wmv",
    "video/3gpp",
    "text/x-markdown",
];

/// The most base64 text one file may have: "Each document's size must be no more than 4.5
/// MB" (`Message`, <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html>),
/// counted on the base64 text: 6 MB of base64 is 4.5 MB of bytes. Video, which may be up to
/// 25 MB of base64, is held to it too.
pub const MAX_FILE_BASE64_LEN: usize = 6 * 1024 * 1024;

/// The most files one request may carry: "You can include up to five documents" (`Message`);
/// "You can't include more than 5 documents in a request"
/// (<https://github.com/aws-samples/generative-ai-use-cases/issues/1685>). The newest are kept.
pub const MAX_FILES_PER_REQUEST: usize = 5;

/// Renders wire messages as the `system` and `messages` of a Converse request.
///
/// ```
/// use transcript_replay::{bedrock, replay_messages, Block, Role, StoredMessage, Vision};
///
/// let record = [
///     StoredMessage::user("Hi"),
///     StoredMessage::new(Role::Tool, vec![Block::image("image/png", "iVBORw0KGgo=")]),
/// ];
/// let request = bedrock::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(
///     serde_json::to_string(&request.messages[1]).unwrap(),
///     r#"{"role":"assistant","content":[{"text":"[Image (image/png) not shown: Bedrock accepts images only in user messages]"}]}"#,
/// );
/// ```
pub fn render<'a>(messages: &[WireMessage<'a>]) -> Request<'a> {
    render_with(messages, &LIMITS)
}

/// Renders wire messages as [`render`] does, under the given image limits.
///
/// ```
/// use transcript_replay::{bedrock, replay_messages, ImageLimits, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let limits = ImageLimits { images_per_request: 5, ..bedrock::LIMITS };
/// assert_eq!(bedrock::render_with(&replay_messages(&record, Vision::Sees), &limits).messages.len(), 1);
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    let mut rendered = render::render(messages, &RULES, limits);
    Request {
        system: rendered.system.take(),
        starts: rendered.starts.clone(),
        messages: messages_of(rendered),
    }
}

/// Builds the whole body of a Converse request from a [`Turn`]:
/// `{...fields, "system": [S, H], "messages": [history, live turn, appended]}`. The model goes
/// in the URL; `inferenceConfig` and the like are the caller's fields.
///
/// `system` holds up to two text blocks: S, the caller's instructions and
/// [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE), then H, the history's leading system
/// messages; a block is left out when it is empty, and the field when both are. Adjacent turns
/// of one role are merged across the whole request. With [`Turn::cache`], `cachePoint` blocks
/// follow S, the history's last block and the block 21 before it, as for Anthropic.
///
/// # Errors
///
/// A [`BodyError`] when the body would start or end on an assistant turn, when it would have
/// no message, when a caller's appended message would stand next to a turn of its own role,
/// or when the caller's fields or appended messages are not what a body takes.
///
/// ```
/// use transcript_replay::{bedrock, Cache, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
/// let live = [StoredMessage::user("Bye")];
/// let turn = Turn::new(&history).instructions("Be brief.").without_preamble().live(&live).cache(Cache::FiveMinutes);
/// assert_eq!(
///     serde_json::to_string(&bedrock::body(&turn).unwrap()).unwrap(),
///     concat!(
///         r#"{"system":[{"text":"Be brief."},{"cachePoint":{"type":"default"}}],"messages":["#,
///         r#"{"role":"user","content":[{"text":"Hi"}]},"#,
///         r#"{"role":"assistant","content":[{"text":"Hello!"},{"cachePoint":{"type":"default"}}]},"#,
///         r#"{"role":"user","content":[{"text":"Bye"}]}]}"#,
///     ),
/// );
/// let starts_on_assistant = [StoredMessage::assistant("Hello!"), StoredMessage::user("Hi")];
/// assert!(bedrock::body(&Turn::new(&starts_on_assistant)).is_err());
/// ```
pub fn body<'a>(turn: &'a Turn<'_>) -> Result<Body<'a>, BodyError> {
    crate::body::build(turn, &RULES, &LIMITS, Body::new)
}

/// Converse as one value.
///
/// Sources: <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html>
/// and <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html>;
/// SigV4's encoding of the path, <https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html>.
/// The model id goes in the path as one percent-encoded segment: a literal `/` would split an
/// ARN across segments, and Bedrock then answers `UnknownOperationException` or "The provided
/// model identifier is invalid" (<https://github.com/vercel/ai/issues/17523>,
/// <https://github.com/stenolabs/stenoai/pull/361>, <https://github.com/crmne/ruby_llm/pull/803>).
/// Bedrock also takes an API key as a bearer token
/// (<https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html>); the request names
/// SigV4, which every Bedrock caller can sign with.
///
/// Usage reports `inputTokens` apart from `cacheReadInputTokens` and `cacheWriteInputTokens`
/// (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html>; a
/// runtime that read `inputTokens` as the inclusive total undercounted:
/// <https://github.com/anomalyco/opencode/pull/38427>). An image is priced as Claude's.
pub(crate) static SURFACE: Surface = Surface {
    limits: LIMITS,
    request: RequestShape {
        path: |_provider, model, stream| {
            let operation = if stream {
                "converse-stream"
            } else {
                "converse"
            };
            format!("/model/{}/{operation}", path_segment(model))
        },
        // The runtime endpoint of the region
        // (https://docs.aws.amazon.com/general/latest/gr/bedrock.html#br-rt), us-east-1 by
        // default (and for an empty region), as AWS's own examples use it. The region is one
        // host label: every byte but a letter, digit, `-`, `_` or `~` is percent-encoded, a
        // dot too, so it names no other host.
        base_url: |_provider, region| {
            let region = region.filter(|region| !region.is_empty());
            format!(
                "https://bedrock-runtime.{}.amazonaws.com",
                path_segment(region.unwrap_or("us-east-1")).replace('.', "%2E")
            )
        },
        auth: Auth::Sigv4,
        headers: &[],
        stream_type: "application/vnd.amazon.eventstream",
        compaction_headers: &[],
        tool_headers: crate::surface::no_tool_headers,
    },
    params: params::fields,
    cache_counting: CacheCounting::Apart,
    // `cachePoint` blocks, at least 1,024 tokens before one for the Claude models (their own
    // minimums apply) (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
    cache_rule: crate::cost::CacheRule::Breakpoints {
        marker: "cachePoint",
        minimum: crate::anthropic::claude_cache_minimum,
    },
    image_rule: &CLAUDE,
    read_reply: |body, _provider| read_reply(body),
    stream: |_provider| stream(),
    read_error: |_provider, status, body| read_error(status, body),
    read_error_with_headers: |_provider, status, headers, body| {
        read_error_with_headers(status, headers, body)
    },
};
