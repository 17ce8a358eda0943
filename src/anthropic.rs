//! Anthropic Messages: the `system` and `messages` of a request.
//!
//! Leading system messages become the `system` string, joined by a blank line; a system
//! message after the first other message stays in place as a `user` message whose text begins
//! `[System]: `. Content is always an array of `text` and `image` blocks. No text block is
//! empty or white space only. Images go only in user messages, in the media types and size
//! Anthropic takes; an assistant turn's images (a tool's screenshots) are carried to the next
//! user message; any other image becomes a marker that names Anthropic.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`].
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
//! # Ok::<(), transcript_replay::Error>(())
//! ```

use serde::ser::{Serialize, SerializeStruct, Serializer};

use serde::ser::SerializeMap;

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::body::{self, BodyError, Turns};
use crate::cost::{self, Priced, Unit};
use crate::render::{self, Rendered, Rules};
use crate::reply::{self, At, ReplyError};
use crate::{
    Block, Cache, ImageLimits, Part, Provider, StoredMessage, Text, TokenUsage, ToolInput, Turn,
    WireMessage,
};

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

/// How much image data one request may carry: 32 MB, counted as base64 text.
///
/// Source: Anthropic's API overview, "32 MB" maximum request size for the Messages API,
/// <https://platform.claude.com/docs/en/api/overview>. The
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
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    images_in: |role| match role {
        render::Role::User => true,
        render::Role::System | render::Role::Assistant => false,
    },
    image_role_rule: "Anthropic accepts images only in user messages",
    hoists_system: true,
    drops_blank_text: true,
    // The server merges adjacent turns of one role itself (see the module docs).
    merges_same_role: false,
    takes_prefill: true,
    rejects_ending_on_assistant: false,
    starts_on_user: false,
    model_role: "assistant",
    body_keys: &["system", "messages"],
};

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
/// # Ok::<(), transcript_replay::Error>(())
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
/// # Ok::<(), transcript_replay::Error>(())
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

/// Builds the whole body of a Messages request from a [`Turn`]:
/// `{...fields, "system": [S, H], "messages": [history, live turn, appended]}`.
///
/// `system` holds up to two text blocks: S, the caller's instructions and
/// [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE), then H, the history's leading system
/// messages; a block is left out when it is empty, and the field when both are. Add `model`
/// and `max_tokens` as fields. Images of an assistant turn (a tool's screenshots) are carried
/// to the next user message, history or live turn.
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
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn body<'a>(turn: &Turn<'a>) -> Result<Body<'a>, BodyError> {
    let mut assembled = body::assemble(turn, &RULES, &LIMITS)?;
    let hoisted = assembled.rendered.system.take();
    Ok(Body {
        fields: assembled.fields,
        cache: assembled.cache,
        has_instructions: assembled.instructions.is_some(),
        breakpoints: assembled.breakpoints,
        system: assembled
            .instructions
            .into_iter()
            .chain(hoisted)
            .map(Part::Text)
            .collect(),
        messages: messages_of(assembled.rendered),
        appended: assembled.appended,
    })
}

/// The whole body of a Messages request, built by [`body`]; serialize it as the request.
///
/// ```
/// use transcript_replay::{anthropic, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let body = anthropic::body(&Turn::new(&history))?;
/// let json = serde_json::to_value(&body).unwrap();
/// assert_eq!(json["system"][0]["type"], "text");
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    fields: Arc<body::Fields>,
    /// S and H as text blocks, each when there is one.
    system: Vec<Part<'a>>,
    /// Whether the first system block is S.
    has_instructions: bool,
    /// The breakpoints asked for, if any.
    cache: Option<Cache>,
    /// Where the history's breakpoints go, as (message, block), when asked for.
    breakpoints: Vec<(usize, usize)>,
    messages: Vec<Message<'a>>,
    appended: Arc<body::Appended>,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.fields)?;
        if !self.system.is_empty() {
            let marks = self.system_marks();
            map.serialize_entry(
                "system",
                &Blocks {
                    parts: &self.system,
                    message: 0,
                    marks: &marks,
                },
            )?;
        }
        let marks = self.marks();
        let messages: Vec<Marked<'_, '_>> = self
            .messages
            .iter()
            .enumerate()
            .map(|(index, message)| Marked {
                message,
                index,
                marks: &marks,
            })
            .collect();
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
    /// The breakpoint on S, the first system block, which every conversation shares.
    fn system_marks(&self) -> Vec<(usize, usize, Cache)> {
        match (self.cache, self.has_instructions) {
            (Some(cache), true) => vec![(0, 0, cache)],
            (Some(_) | None, _) => Vec::new(),
        }
    }

    /// The history's breakpoints, when asked for.
    fn marks(&self) -> Vec<(usize, usize, Cache)> {
        match self.cache {
            Some(cache) => self
                .breakpoints
                .iter()
                .map(|&(message, block)| (message, block, cache))
                .collect(),
            None => Vec::new(),
        }
    }
}

/// A message of a body, with the breakpoints among its blocks.
struct Marked<'p, 'a> {
    message: &'p Message<'a>,
    index: usize,
    marks: &'p [(usize, usize, Cache)],
}

impl Serialize for Marked<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut message = serializer.serialize_struct("Message", 2)?;
        message.serialize_field("role", &self.message.role)?;
        message.serialize_field(
            "content",
            &Blocks {
                parts: &self.message.content,
                message: self.index,
                marks: self.marks,
            },
        )?;
        message.end()
    }
}

/// The rendered fragment of a Messages request: `{"system": ..., "messages": [...]}`, with
/// `system` left out when there is none.
///
/// Add `model` and `max_tokens` beside it, and the turn being asked about after the messages.
///
/// ```
/// use transcript_replay::{anthropic, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "system", "blocks": [{"type": "text", "text": "Be brief."}]}]"#)?;
/// let request = anthropic::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.system.map(|system| system.to_string()).as_deref(), Some("Be brief."));
/// assert!(request.messages.is_empty());
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The leading system messages, joined by a blank line.
    pub system: Option<Text<'a>>,
    /// One message per wire message after the leading system messages, in order.
    pub messages: Vec<Message<'a>>,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut request = serializer.serialize_struct("Request", 2)?;
        match &self.system {
            Some(system) => request.serialize_field("system", system)?,
            None => request.skip_field("system")?,
        }
        request.serialize_field("messages", &self.messages)?;
        request.end()
    }
}

/// The role of an Anthropic message: there is no other.
///
/// ```
/// assert_eq!(serde_json::to_string(&transcript_replay::anthropic::Role::User).unwrap(), r#""user""#);
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A person's turn, or a system message kept in place.
    User,
    /// The model's turn.
    Assistant,
}

/// One Messages message.
///
/// ```
/// use transcript_replay::{anthropic, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "tool", "blocks": [{"type": "text", "text": "done"}]}]"#)?;
/// let request = anthropic::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.messages[0].role, anthropic::Role::Assistant);
/// # Ok::<(), transcript_replay::Error>(())
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
        }
        .serialize(serializer)
    }
}

/// The blocks of one message (or of `system`), each with `cache_control` where a mark says.
struct Blocks<'p, 'a> {
    parts: &'p [Part<'a>],
    message: usize,
    marks: &'p [(usize, usize, Cache)],
}

impl Serialize for Blocks<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.parts.iter().enumerate().map(|(block, part)| {
            let cache = self
                .marks
                .iter()
                .find(|&&(message, at, _)| message == self.message && at == block)
                .map(|&(_, _, cache)| cache);
            ContentBlock { part, cache }
        }))
    }
}

struct ContentBlock<'p, 'a> {
    part: &'p Part<'a>,
    cache: Option<Cache>,
}

impl Serialize for ContentBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut block = serializer.serialize_struct("ContentBlock", 3)?;
        match self.part {
            Part::Text(text) => {
                block.serialize_field("type", "text")?;
                block.serialize_field("text", text)?;
            }
            Part::Image(image) => {
                block.serialize_field("type", "image")?;
                block.serialize_field(
                    "source",
                    &Base64Source {
                        kind: "base64",
                        media_type: image.media_type(),
                        data: image.data(),
                    },
                )?;
            }
        }
        match self.cache {
            Some(cache) => block.serialize_field("cache_control", &cache)?,
            None => block.skip_field("cache_control")?,
        }
        block.end()
    }
}

#[derive(serde::Serialize)]
struct Base64Source<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    media_type: &'a str,
    data: &'a str,
}

/// Reads a Messages response body (`Message`, or what a streamed reply accumulates to) into
/// the stored message of the assistant's turn.
///
/// Each block of `content` becomes one block, in order: `text` as `text`; `thinking` as
/// `reasoning`; `tool_use` as `tool_use`, with its id, name and `input` stored as the exact
/// JSON text the reply carried. `usage` becomes [`TokenUsage`] field for field
/// (`input_tokens`, `output_tokens`, `cache_creation_input_tokens`,
/// `cache_read_input_tokens`).
///
/// What does not cross prose replay, and is left out: a thinking block's `signature`,
/// `redacted_thinking` (encrypted, with no words to replay), and a text block's `citations`
/// (metadata about its words). Any other block type (server tool use, search results, ...)
/// has no block in the record: it is an error, never dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{anthropic, Block};
///
/// let reply = r#"{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
///   "content": [
///     {"type": "thinking", "thinking": "Need the file.", "signature": "EqQB..."},
///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}
///   ],
///   "stop_reason": "tool_use",
///   "usage": {"input_tokens": 20, "output_tokens": 9, "cache_read_input_tokens": 12}}"#;
/// let message = anthropic::read_reply(reply)?;
/// assert_eq!(message.blocks[0], Block::reasoning("Need the file."));
/// let Block::ToolUse { input, .. } = &message.blocks[1] else { unreachable!() };
/// assert_eq!(input.as_str(), r#"{"path": "a.rs"}"#);
/// assert_eq!(message.usage.map(|usage| usage.cache_read_input_tokens), Some(12));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        content: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct ContentBlock<'a> {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        thinking: Option<String>,
        #[serde(default)]
        id: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(borrow, default)]
        input: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        input_tokens: u64,
        #[serde(default)]
        output_tokens: u64,
        #[serde(default)]
        cache_creation_input_tokens: Option<u64>,
        #[serde(default)]
        cache_read_input_tokens: Option<u64>,
    }

    let at = At::body(Provider::Anthropic, body)?;
    let response: Response<'_> = at.read()?;
    let content_at = at.child(response.content, "content");
    let content: Vec<&RawValue> = content_at.read()?;
    let mut blocks = Vec::with_capacity(content.len());
    for (index, &raw) in content.iter().enumerate() {
        let block_at = content_at.child(raw, format_args!("[{index}]"));
        let block: ContentBlock<'_> = block_at.read()?;
        let missing = |field: &str| {
            block_at.error(format_args!(
                "missing field `{field}` in a {} block",
                block.kind
            ))
        };
        match block.kind.as_str() {
            "text" => blocks.push(Block::text(block.text.ok_or_else(|| missing("text"))?)),
            "thinking" => blocks.push(Block::reasoning(
                block.thinking.ok_or_else(|| missing("thinking"))?,
            )),
            // Encrypted reasoning has no words to replay.
            "redacted_thinking" => {}
            "tool_use" => {
                let id = block.id.clone().ok_or_else(|| missing("id"))?;
                let name = block.name.clone().ok_or_else(|| missing("name"))?;
                let input = block.input.ok_or_else(|| missing("input"))?;
                blocks.push(Block::tool_use(
                    id,
                    name,
                    ToolInput::json_unchecked(input.get().to_owned()),
                ));
            }
            kind => {
                return Err(block_at.error(format_args!(
                    "content of type {kind:?} has no block in the record"
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
                cache_creation_input_tokens: usage.cache_creation_input_tokens.unwrap_or(0),
                cache_read_input_tokens: usage.cache_read_input_tokens.unwrap_or(0),
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}

impl crate::cost::sealed::Sealed for Request<'_> {}

/// The cost of the fragment: the system text first, when there is one, then each message.
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
            (!self.system.is_empty()).then(|| Unit::parts(&self.system)),
            self.messages
                .iter()
                .map(|message| message.content.as_slice()),
            &self.appended,
        )
    }
}
