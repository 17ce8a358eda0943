//! Amazon Bedrock Converse: the `system` and `messages` of a request.
//!
//! Roles are `user` and `assistant`. Leading system messages become `system` text blocks; a
//! system message after the first other message stays in place as a `user` turn whose text
//! begins `[System]: `. Content blocks are `{"text"}` and
//! `{"image":{"format","source":{"bytes"}}}` (the bytes as base64 on the JSON wire), never an
//! empty or white-space-only text. Images go only in user messages, in the formats, count and
//! sizes Converse takes; an assistant turn's images (a tool's screenshots) are carried to the
//! next user message; any other image becomes a marker that names Bedrock. The model goes in
//! the URL (`/model/{modelId}/converse`), not the body.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`], with `cachePoint` blocks when the turn asks for prompt caching.
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
//! # Ok::<(), transcript_replay::Error>(())
//! ```

use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::body::{self, BodyError, Turns};
use crate::cost::{self, Priced, Unit};
use crate::render::{self, Rendered, Rules};
use crate::reply::{self, At, ReplyError};
use crate::{
    Block, Cache, Image, ImageLimits, Part, Provider, StoredMessage, Text, TokenUsage, ToolInput,
    Turn, WireMessage,
};

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
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    // "You can only include images and documents if the role is user."
    images_in: |role| match role {
        render::Role::User => true,
        render::Role::System | render::Role::Assistant => false,
    },
    image_role_rule: "Bedrock accepts images only in user messages",
    hoists_system: true,
    drops_blank_text: true,
    merges_same_role: true,
    takes_prefill: false,
    rejects_ending_on_assistant: true,
    starts_on_user: true,
    model_role: "assistant",
    body_keys: &["system", "messages"],
};

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
        messages: messages_of(rendered),
    }
}

fn messages_of(rendered: Rendered<'_>) -> Vec<Message<'_>> {
    rendered
        .messages
        .into_iter()
        .map(|(role, content)| Message {
            role: match role {
                render::Role::System | render::Role::User => Role::User,
                render::Role::Assistant => Role::Assistant,
            },
            content,
        })
        .collect()
}

/// The rendered fragment of a Converse request: `{"system": [...], "messages": [...]}`, with
/// `system` left out when there is none.
///
/// ```
/// use transcript_replay::{bedrock, replay_messages, StoredMessage, Vision};
///
/// let record = [StoredMessage::system("Be brief."), StoredMessage::user("Hi")];
/// let request = bedrock::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.system.map(|text| text.to_string()).as_deref(), Some("Be brief."));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The leading system messages, joined by a blank line.
    pub system: Option<Text<'a>>,
    /// The turns after them, adjacent ones of one role merged.
    pub messages: Vec<Message<'a>>,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut request = serializer.serialize_struct("Request", 2)?;
        match &self.system {
            Some(system) => request.serialize_field(
                "system",
                &SystemBlocks {
                    texts: std::slice::from_ref(system),
                    cache: None,
                },
            )?,
            None => request.skip_field("system")?,
        }
        request.serialize_field("messages", &self.messages)?;
        request.end()
    }
}

/// The role of a Converse message.
///
/// ```
/// assert_eq!(serde_json::to_string(&transcript_replay::bedrock::Role::User).unwrap(), r#""user""#);
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A person's turn, or a system message kept in place.
    User,
    /// The model's turn.
    Assistant,
}

/// One Converse message.
///
/// ```
/// use transcript_replay::{bedrock, replay_messages, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let request = bedrock::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(serde_json::to_string(&request.messages[0]).unwrap(), r#"{"role":"user","content":[{"text":"Hi"}]}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message<'a> {
    /// The role.
    pub role: Role,
    /// The content blocks; never empty.
    pub content: Vec<Part<'a>>,
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Marked {
            message: self,
            index: 0,
            marks: &[],
            cache: None,
        }
        .serialize(serializer)
    }
}

/// A message with the `cachePoint` blocks that follow the blocks marked in it.
struct Marked<'p, 'a> {
    message: &'p Message<'a>,
    index: usize,
    marks: &'p [(usize, usize)],
    cache: Option<Cache>,
}

impl Serialize for Marked<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut message = serializer.serialize_struct("Message", 2)?;
        message.serialize_field("role", &self.message.role)?;
        message.serialize_field("content", &Blocks(self))?;
        message.end()
    }
}

struct Blocks<'m, 'p, 'a>(&'m Marked<'p, 'a>);

impl Serialize for Blocks<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let marked = self.0;
        let blocks = marked
            .message
            .content
            .iter()
            .enumerate()
            .flat_map(|(block, part)| {
                let point = marked
                    .cache
                    .filter(|_| marked.marks.contains(&(marked.index, block)));
                std::iter::once(ContentBlock::Part(part)).chain(point.map(ContentBlock::CachePoint))
            });
        serializer.collect_seq(blocks)
    }
}

enum ContentBlock<'p, 'a> {
    Part(&'p Part<'a>),
    CachePoint(Cache),
}

impl Serialize for ContentBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut block = serializer.serialize_map(Some(1))?;
        match self {
            ContentBlock::Part(Part::Text(text)) => block.serialize_entry("text", text)?,
            ContentBlock::Part(Part::Image(image)) => {
                block.serialize_entry("image", &ImageBlock(image))?;
            }
            ContentBlock::CachePoint(cache) => {
                block.serialize_entry("cachePoint", &CachePoint(*cache))?
            }
        }
        block.end()
    }
}

/// `{"format": "png", "source": {"bytes": "<base64>"}}`.
struct ImageBlock<'p, 'a>(&'p Image<'a>);

impl Serialize for ImageBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Source<'a> {
            bytes: &'a str,
        }
        let media_type = self.0.media_type();
        // The renderer sends only the media types above, so the subtype is the format.
        let format = media_type.strip_prefix("image/").unwrap_or(media_type);
        let mut block = serializer.serialize_struct("ImageBlock", 2)?;
        block.serialize_field("format", format)?;
        block.serialize_field(
            "source",
            &Source {
                bytes: self.0.data(),
            },
        )?;
        block.end()
    }
}

/// `{"type": "default"}`, with `"ttl": "1h"` for an hour.
struct CachePoint(Cache);

impl Serialize for CachePoint {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut point = serializer.serialize_map(None)?;
        point.serialize_entry("type", "default")?;
        match self.0 {
            Cache::FiveMinutes => {}
            Cache::OneHour => point.serialize_entry("ttl", "1h")?,
        }
        point.end()
    }
}

/// System text blocks, `{"text": ...}` each, with a `cachePoint` after the first when asked.
struct SystemBlocks<'p, 'a> {
    texts: &'p [Text<'a>],
    cache: Option<Cache>,
}

impl Serialize for SystemBlocks<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut blocks = Vec::with_capacity(self.texts.len() + 1);
        for (index, text) in self.texts.iter().enumerate() {
            blocks.push(SystemBlock::Text(text));
            if let (0, Some(cache)) = (index, self.cache) {
                blocks.push(SystemBlock::CachePoint(cache));
            }
        }
        serializer.collect_seq(blocks)
    }
}

enum SystemBlock<'p, 'a> {
    Text(&'p Text<'a>),
    CachePoint(Cache),
}

impl Serialize for SystemBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut block = serializer.serialize_map(Some(1))?;
        match self {
            SystemBlock::Text(text) => block.serialize_entry("text", text)?,
            SystemBlock::CachePoint(cache) => {
                block.serialize_entry("cachePoint", &CachePoint(*cache))?
            }
        }
        block.end()
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
pub fn body<'a>(turn: &Turn<'a>) -> Result<Body<'a>, BodyError> {
    let mut assembled = body::assemble(turn, &RULES, &LIMITS)?;
    let hoisted = assembled.rendered.system.take();
    Ok(Body {
        fields: assembled.fields,
        cache: assembled.cache,
        has_instructions: assembled.instructions.is_some(),
        breakpoints: assembled.breakpoints,
        system: assembled.instructions.into_iter().chain(hoisted).collect(),
        messages: messages_of(assembled.rendered),
        appended: assembled.appended,
    })
}

/// The whole body of a Converse request, built by [`body`]; serialize it as the request.
///
/// ```
/// use transcript_replay::{bedrock, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let json = serde_json::to_value(bedrock::body(&Turn::new(&history))?).unwrap();
/// assert!(json["system"][0]["text"].is_string());
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    fields: Arc<body::Fields>,
    /// S and H, each when there is one.
    system: Vec<Text<'a>>,
    /// Whether the first system block is S.
    has_instructions: bool,
    cache: Option<Cache>,
    /// Where the history's cache points go, after these (message, block) positions.
    breakpoints: Vec<(usize, usize)>,
    messages: Vec<Message<'a>>,
    appended: Arc<body::Appended>,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.fields)?;
        if !self.system.is_empty() {
            map.serialize_entry(
                "system",
                &SystemBlocks {
                    texts: &self.system,
                    cache: self.system_cache(),
                },
            )?;
        }
        let messages = self.marked();
        map.serialize_entry(
            "messages",
            &Turns {
                first: None,
                rendered: &messages,
                appended: &self.appended,
            },
        )?;
        map.end()
    }
}

impl Body<'_> {
    /// The cache point after S, the first system block, when asked for.
    fn system_cache(&self) -> Option<Cache> {
        self.cache.filter(|_| self.has_instructions)
    }

    /// The messages with the cache points among their blocks.
    fn marked(&self) -> Vec<Marked<'_, '_>> {
        self.messages
            .iter()
            .enumerate()
            .map(|(index, message)| Marked {
                message,
                index,
                marks: &self.breakpoints,
                cache: self.cache,
            })
            .collect()
    }
}

/// Reads a Converse response body (`ConverseResponse`) into the stored message of the
/// assistant's turn.
///
/// Each block of `output.message.content` becomes one block, in order: `text` as `text`;
/// `reasoningContent.reasoningText` as `reasoning`; `toolUse` as `tool_use`, with its
/// `toolUseId`, name and `input` stored as the exact JSON text the reply carried; `image` as
/// `image` (`image/{format}`, its base64 bytes). `usage` becomes [`TokenUsage`]:
/// `inputTokens`, `outputTokens`, `cacheWriteInputTokens` and `cacheReadInputTokens`.
///
/// What does not cross prose replay, and is left out: a reasoning block's `signature` and
/// `redactedContent` (encrypted, with no words to replay). Any other block (citations,
/// documents, video, guardrail content, ...) has no block in the record: it is an error, never
/// dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{bedrock, Block};
///
/// let reply = r#"{"output": {"message": {"role": "assistant", "content": [
///     {"text": "Reading it."},
///     {"toolUse": {"toolUseId": "tooluse_1", "name": "read", "input": {"path": "a.rs"}}}]}},
///   "stopReason": "tool_use",
///   "usage": {"inputTokens": 20, "outputTokens": 9, "totalTokens": 29},
///   "metrics": {"latencyMs": 300}}"#;
/// let message = bedrock::read_reply(reply)?;
/// assert_eq!(message.blocks[0], Block::text("Reading it."));
/// let Block::ToolUse { input, .. } = &message.blocks[1] else { unreachable!() };
/// assert_eq!(input.as_str(), r#"{"path": "a.rs"}"#);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        output: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Output<'a> {
        #[serde(borrow)]
        message: &'a RawValue,
    }
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow)]
        content: Vec<&'a RawValue>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ToolUse<'a> {
        tool_use_id: String,
        name: String,
        #[serde(borrow)]
        input: &'a RawValue,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Reasoning {
        #[serde(default)]
        reasoning_text: Option<ReasoningText>,
    }
    #[derive(Deserialize)]
    struct ReasoningText {
        text: String,
    }
    #[derive(Deserialize)]
    struct ImageBlock {
        format: String,
        source: ImageSource,
    }
    #[derive(Deserialize)]
    struct ImageSource {
        bytes: String,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Usage {
        #[serde(default)]
        input_tokens: u64,
        #[serde(default)]
        output_tokens: u64,
        #[serde(default)]
        cache_read_input_tokens: u64,
        #[serde(default)]
        cache_write_input_tokens: u64,
    }

    let at = At::body(Provider::Bedrock, body)?;
    let response: Response<'_> = at.read()?;
    let output_at = at.child(response.output, "output");
    let output: Output<'_> = output_at.read()?;
    let message_at = output_at.child(output.message, "message");
    let message: Message<'_> = message_at.read()?;
    let mut blocks = Vec::with_capacity(message.content.len());
    for (index, &raw) in message.content.iter().enumerate() {
        let block_at = message_at.child(raw, format_args!("content[{index}]"));
        let fields: std::collections::BTreeMap<String, &RawValue> = block_at.read()?;
        let [(kind, &value)] = fields.iter().collect::<Vec<_>>()[..] else {
            return Err(block_at.error("a content block needs exactly one member"));
        };
        let value_at = block_at.child(value, kind.as_str());
        match kind.as_str() {
            "text" => blocks.push(Block::text(value_at.read::<String>()?)),
            "toolUse" => {
                let call: ToolUse<'_> = value_at.read()?;
                blocks.push(Block::tool_use(
                    call.tool_use_id,
                    call.name,
                    ToolInput::json_unchecked(call.input.get().to_owned()),
                ));
            }
            "reasoningContent" => {
                // Redacted reasoning is encrypted, with no words to replay.
                if let Some(text) = value_at.read::<Reasoning>()?.reasoning_text {
                    blocks.push(Block::reasoning(text.text));
                }
            }
            "image" => {
                let image: ImageBlock = value_at.read()?;
                blocks.push(Block::image(
                    format!("image/{}", image.format),
                    image.source.bytes,
                ));
            }
            other => {
                return Err(block_at.error(format_args!(
                    "a content block of type {other:?} has no block in the record"
                )))
            }
        }
    }
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => {
            let usage: Usage = usage_at.read()?;
            Some(TokenUsage {
                input_tokens: usage.input_tokens,
                output_tokens: usage.output_tokens,
                cache_creation_input_tokens: usage.cache_write_input_tokens,
                cache_read_input_tokens: usage.cache_read_input_tokens,
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}

impl crate::cost::sealed::Sealed for Request<'_> {}

/// The cost of the fragment: the system blocks first, when there are any, then each message.
impl Priced for Request<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            self.system
                .as_ref()
                .map(std::slice::from_ref)
                .map(Unit::texts),
            self.messages
                .iter()
                .map(|message| message.content.as_slice()),
            &[],
        )
    }
}

impl crate::cost::sealed::Sealed for Body<'_> {}

/// The cost of the body: the system blocks first, when there are any, then each message,
/// then the caller's appended messages.
impl Priced for Body<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            (!self.system.is_empty()).then(|| Unit::texts(&self.system)),
            self.messages
                .iter()
                .map(|message| message.content.as_slice()),
            &self.appended,
        )
    }
}
