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
//! [`Turn`].
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
//! # Ok::<(), transcript_replay::Error>(())
//! ```

use serde::ser::{Serialize, SerializeStruct, Serializer};

use serde::ser::SerializeMap;

use std::sync::Arc;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::body::{self, BodyError, Turns};
use crate::cost::{self, Priced, Unit};
use crate::render::{self, Rendered, Rules};
use crate::reply::{self, At, ReplyError};
use crate::{
    Block, ImageLimits, Part, Provider, StoredMessage, Text, TokenUsage, ToolInput, Turn,
    WireMessage,
};

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

/// How much inline data one request may carry: 100 MB, counted as base64 text; so also the
/// longest base64 text of one image.
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
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    images_in: |role| match role {
        render::Role::User | render::Role::Assistant => true,
        render::Role::System => false,
    },
    image_role_rule: "Gemini does not accept images in system instructions",
    hoists_system: true,
    drops_blank_text: true,
    merges_same_role: true,
    takes_prefill: false,
    rejects_ending_on_assistant: true,
    starts_on_user: false,
    model_role: "model",
    body_keys: &["systemInstruction", "system_instruction", "contents"],
};

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
/// # Ok::<(), transcript_replay::Error>(())
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
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    let mut rendered = render::render(messages, &RULES, limits);
    Request {
        system_instruction: rendered.system.take(),
        contents: contents_of(rendered),
    }
}

fn contents_of(rendered: Rendered<'_>) -> Vec<Content<'_>> {
    rendered
        .messages
        .into_iter()
        .map(|(role, parts)| Content {
            role: match role {
                render::Role::System | render::Role::User => Role::User,
                render::Role::Assistant => Role::Model,
            },
            parts,
        })
        .collect()
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
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn body<'a>(turn: &Turn<'a>) -> Result<Body<'a>, BodyError> {
    let mut assembled = body::assemble(turn, &RULES, &LIMITS)?;
    let hoisted = assembled.rendered.system.take();
    Ok(Body {
        fields: assembled.fields,
        system: assembled.instructions.into_iter().chain(hoisted).collect(),
        contents: contents_of(assembled.rendered),
        appended: assembled.appended,
    })
}

/// The whole body of a generateContent request, built by [`body`]; serialize it as the
/// request.
///
/// ```
/// use transcript_replay::{gemini, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let body = gemini::body(&Turn::new(&history))?;
/// let json = serde_json::to_value(&body).unwrap();
/// assert!(json["systemInstruction"]["parts"][0]["text"].is_string());
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    fields: Arc<body::Fields>,
    /// S and H, each when there is one.
    system: Vec<Text<'a>>,
    contents: Vec<Content<'a>>,
    appended: Arc<body::Appended>,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.fields)?;
        if !self.system.is_empty() {
            map.serialize_entry("systemInstruction", &SystemInstruction(&self.system))?;
        }
        map.serialize_entry(
            "contents",
            &Turns {
                first: None,
                rendered: &self.contents,
                appended: &self.appended,
            },
        )?;
        map.end()
    }
}

/// The rendered fragment of a generateContent request:
/// `{"systemInstruction": ..., "contents": [...]}`, with `systemInstruction` left out when
/// there is none.
///
/// Add the turn being asked about after the contents; the model goes in the URL.
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#)?;
/// let request = gemini::render(&replay_messages(&record, Vision::Sees));
/// assert!(request.system_instruction.is_none());
/// assert_eq!(request.contents.len(), 1);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The leading system messages, joined by a blank line.
    pub system_instruction: Option<Text<'a>>,
    /// One turn per wire message after the leading system messages, in order.
    pub contents: Vec<Content<'a>>,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut request = serializer.serialize_struct("Request", 2)?;
        match &self.system_instruction {
            Some(text) => request.serialize_field(
                "systemInstruction",
                &SystemInstruction(std::slice::from_ref(text)),
            )?,
            None => request.skip_field("systemInstruction")?,
        }
        request.serialize_field("contents", &self.contents)?;
        request.end()
    }
}

/// `{"parts": [{"text": ...}, ...]}`: a Content of text parts, without a role.
struct SystemInstruction<'p, 'a>(&'p [Text<'a>]);

impl Serialize for SystemInstruction<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut content = serializer.serialize_struct("Content", 1)?;
        content.serialize_field("parts", &TextParts(self.0))?;
        content.end()
    }
}

struct TextParts<'p, 'a>(&'p [Text<'a>]);

impl Serialize for TextParts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(TextPart))
    }
}

/// The role of a Gemini turn.
///
/// ```
/// assert_eq!(serde_json::to_string(&transcript_replay::gemini::Role::Model).unwrap(), r#""model""#);
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A person's turn, or a system message kept in place.
    User,
    /// The model's turn.
    Model,
}

/// One Gemini turn (`Content`).
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "assistant", "blocks": [{"type": "text", "text": "Done."}]}]"#)?;
/// let request = gemini::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(serde_json::to_string(&request.contents[0]).unwrap(), r#"{"role":"model","parts":[{"text":"Done."}]}"#);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content<'a> {
    /// The role.
    pub role: Role,
    /// The parts; never empty.
    pub parts: Vec<Part<'a>>,
}

impl Serialize for Content<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut content = serializer.serialize_struct("Content", 2)?;
        content.serialize_field("role", &self.role)?;
        content.serialize_field("parts", &Parts(&self.parts))?;
        content.end()
    }
}

struct Parts<'p, 'a>(&'p [Part<'a>]);

impl Serialize for Parts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(GeminiPart))
    }
}

struct GeminiPart<'p, 'a>(&'p Part<'a>);

impl Serialize for GeminiPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Part::Text(text) => TextPart(text).serialize(serializer),
            Part::Image(image) => {
                let mut part = serializer.serialize_struct("Part", 1)?;
                part.serialize_field(
                    "inlineData",
                    &Blob {
                        mime_type: image.media_type(),
                        data: image.data(),
                    },
                )?;
                part.end()
            }
        }
    }
}

struct TextPart<'p, 'a>(&'p Text<'a>);

impl Serialize for TextPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut part = serializer.serialize_struct("Part", 1)?;
        part.serialize_field("text", self.0)?;
        part.end()
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Blob<'a> {
    mime_type: &'a str,
    data: &'a str,
}

/// Reads a generateContent response body (`GenerateContentResponse`, or what a streamed
/// reply accumulates to) into the stored message of the model's turn.
///
/// The first candidate's parts become blocks, in order: `text` as `text`, or as `reasoning`
/// when the part is marked `thought`; `functionCall` as `tool_use`, with the call's `id` (or,
/// on models that give none, `call_{n}` from the part's position `n`, stable for the same
/// reply), its name, and `args` stored as the exact JSON text the reply carried (`{}` when it
/// has none); `inlineData` (an image the model made) as `image`. `usageMetadata` becomes
/// [`TokenUsage`]: `promptTokenCount`, `candidatesTokenCount` plus `thoughtsTokenCount` (both
/// billed as output), and `cachedContentTokenCount` as cache reads.
///
/// What does not cross prose replay, and is left out: `thoughtSignature` (Gemini 3 asks for it
/// back with function calls; replay sends no native function calls), other candidates,
/// safety ratings and citation metadata. Any other part (`executableCode`,
/// `codeExecutionResult`, `fileData`, ...) has no block in the record: it is an error, never
/// dropped silently, and so is a reply with no candidate, or a candidate with no content.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{gemini, Block};
///
/// let reply = r#"{"candidates": [{"content": {"role": "model", "parts": [
///     {"text": "Need the file.", "thought": true},
///     {"functionCall": {"name": "read", "args": {"path": "a.rs"}}}
///   ]}, "finishReason": "STOP"}],
///   "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 9, "totalTokenCount": 29}}"#;
/// let message = gemini::read_reply(reply)?;
/// assert_eq!(message.blocks[0], Block::reasoning("Need the file."));
/// let Block::ToolUse { id, input, .. } = &message.blocks[1] else { unreachable!() };
/// assert_eq!((id.as_str(), input.as_str()), ("call_1", r#"{"path": "a.rs"}"#));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Response<'a> {
        #[serde(borrow, default)]
        candidates: Option<&'a RawValue>,
        #[serde(borrow, default)]
        usage_metadata: Option<&'a RawValue>,
        #[serde(default)]
        prompt_feedback: Option<Feedback>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Feedback {
        #[serde(default)]
        block_reason: Option<String>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Candidate<'a> {
        #[serde(borrow, default)]
        content: Option<&'a RawValue>,
        #[serde(default)]
        finish_reason: Option<String>,
    }
    #[derive(Deserialize)]
    struct Content<'a> {
        #[serde(borrow, default)]
        parts: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Usage {
        #[serde(default)]
        prompt_token_count: u64,
        #[serde(default)]
        candidates_token_count: u64,
        #[serde(default)]
        thoughts_token_count: u64,
        #[serde(default)]
        cached_content_token_count: u64,
    }

    let at = At::body(Provider::Gemini, body)?;
    let response: Response<'_> = at.read()?;
    let candidates: Vec<&RawValue> = match response.candidates {
        Some(raw) => at.child(raw, "candidates").read()?,
        None => Vec::new(),
    };
    let Some(&first) = candidates.first() else {
        let why = response
            .prompt_feedback
            .and_then(|feedback| feedback.block_reason)
            .map(|reason| format!(" (the prompt was blocked: {reason})"))
            .unwrap_or_default();
        return Err(at.error(format_args!("the reply has no candidate{why}")));
    };
    let candidate_at = at.child(first, "candidates[0]");
    let candidate: Candidate<'_> = candidate_at.read()?;
    let Some(content) = candidate.content else {
        let why = candidate
            .finish_reason
            .map(|reason| format!(" (finish reason {reason})"))
            .unwrap_or_default();
        return Err(candidate_at.error(format_args!("the candidate has no content{why}")));
    };
    let content_at = candidate_at.child(content, "content");
    let content: Content<'_> = content_at.read()?;
    let mut blocks = Vec::new();
    if let Some(parts) = content.parts {
        let parts_at = content_at.child(parts, "parts");
        let parts: Vec<&RawValue> = parts_at.read()?;
        for (index, &raw) in parts.iter().enumerate() {
            if let Some(block) = read_part(&parts_at.child(raw, format_args!("[{index}]")), index)?
            {
                blocks.push(block);
            }
        }
    }
    let usage = match at.present(response.usage_metadata, "usageMetadata") {
        Some(usage_at) => {
            let usage: Usage = usage_at.read()?;
            Some(TokenUsage {
                input_tokens: usage.prompt_token_count,
                output_tokens: usage.candidates_token_count + usage.thoughts_token_count,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: usage.cached_content_token_count,
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}

/// The keys of a part that describe it rather than carry its data.
const PART_METADATA: [&str; 5] = [
    "thought",
    "thoughtSignature",
    "partMetadata",
    "videoMetadata",
    "mediaResolution",
];

/// One part: the block it becomes, or `None` for a part with no data (only metadata).
fn read_part(at: &At<'_>, index: usize) -> Result<Option<Block>, ReplyError> {
    #[derive(Deserialize)]
    struct Call<'a> {
        #[serde(default)]
        id: Option<String>,
        name: String,
        #[serde(borrow, default)]
        args: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct InlineData {
        mime_type: String,
        data: String,
    }
    let fields: BTreeMap<String, &RawValue> = at.read()?;
    let thought = fields.get("thought").is_some_and(|raw| raw.get() == "true");
    let data: Vec<(&String, &&RawValue)> = fields
        .iter()
        .filter(|(key, _)| !PART_METADATA.contains(&key.as_str()))
        .collect();
    let [(kind, &raw)] = data.as_slice() else {
        return match data.as_slice() {
            [] => Ok(None),
            _ => Err(at.error("a part has more than one data field")),
        };
    };
    let field_at = at.child(raw, kind.as_str());
    match kind.as_str() {
        "text" => {
            let text: String = field_at.read()?;
            Ok(Some(if thought {
                Block::reasoning(text)
            } else {
                Block::text(text)
            }))
        }
        "functionCall" => {
            let call: Call<'_> = field_at.read()?;
            let input = match call.args {
                Some(args) if args.get() != "null" => args.get().to_owned(),
                Some(_) | None => "{}".to_owned(),
            };
            Ok(Some(Block::tool_use(
                call.id.unwrap_or_else(|| format!("call_{index}")),
                call.name,
                ToolInput::json_unchecked(input),
            )))
        }
        "inlineData" => {
            let image: InlineData = field_at.read()?;
            Ok(Some(Block::image(image.mime_type, image.data)))
        }
        other => Err(at.error(format_args!(
            "a part with {other:?} has no block in the record"
        ))),
    }
}

impl crate::cost::sealed::Sealed for Request<'_> {}

/// The cost of the fragment: the system instruction first, when there is one, then each
/// content.
impl Priced for Request<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            self.system_instruction
                .as_ref()
                .map(std::slice::from_ref)
                .map(Unit::texts),
            self.contents.iter().map(|content| content.parts.as_slice()),
            &[],
        )
    }
}

impl crate::cost::sealed::Sealed for Body<'_> {}

/// The cost of the body: the system instruction first, when there is one, then each content,
/// then the caller's appended contents.
impl Priced for Body<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            (!self.system.is_empty()).then(|| Unit::texts(&self.system)),
            self.contents.iter().map(|content| content.parts.as_slice()),
            &self.appended,
        )
    }
}
