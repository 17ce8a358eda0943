//! OpenAI Chat Completions: the `messages` of a request.
//!
//! Roles stay as they are (`system`, `user`, `assistant`). A message whose content is one
//! text part carries it as a plain string, which every OpenAI-compatible server accepts;
//! otherwise content is an array of `text` and `image_url` parts, an image as a `data:` URL
//! written as it is serialized. Images go only in user messages, in the media types and size
//! OpenAI takes; any other image becomes a marker that names OpenAI.
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
//! # Ok::<(), transcript_replay::Error>(())
//! ```

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::body::{self, BodyError, Turns};
use crate::cost::{self, Priced, Unit};
use crate::render::{self, Rendered, Role, Rules};
use crate::reply::{self, At, ReplyError};
use crate::{
    Block, Image, ImageLimits, Part, Provider, StoredMessage, TokenUsage, ToolInput, Turn,
    WireMessage, WireRole,
};

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
    media_types: &MEDIA_TYPES,
    // "non-animated GIF" only, says the vision guide.
    refuses_animated_gifs: true,
    images_in: |role| match role {
        Role::User => true,
        Role::System | Role::Assistant => false,
    },
    image_role_rule: "OpenAI accepts images only in user messages",
    hoists_system: false,
    drops_blank_text: false,
    // OpenAI takes adjacent messages of one role.
    merges_same_role: false,
    takes_prefill: false,
    rejects_ending_on_assistant: false,
    starts_on_user: false,
    model_role: "assistant",
    body_keys: &["messages"],
};

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
/// # Ok::<(), transcript_replay::Error>(())
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
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    Request {
        messages: messages_of(render::render(messages, &RULES, limits)),
    }
}

fn messages_of(rendered: Rendered<'_>) -> Vec<Message<'_>> {
    rendered
        .messages
        .into_iter()
        .map(|(role, content)| Message {
            role: match role {
                Role::System => WireRole::System,
                Role::User => WireRole::User,
                Role::Assistant => WireRole::Assistant,
            },
            content,
        })
        .collect()
}

/// Builds the whole body of a Chat Completions request from a [`Turn`]:
/// `{...fields, "messages": [S, history, live turn, appended]}`.
///
/// The system text S (the caller's instructions and [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE))
/// is a first `system` message; the history's own system messages stay in place. Images of an
/// assistant turn (a tool's screenshots) are carried to the next user message, which is the
/// only place OpenAI takes them. Adjacent messages of one role are left as they are: OpenAI
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
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn body<'a>(turn: &Turn<'a>) -> Result<Body<'a>, BodyError> {
    let assembled = body::assemble(turn, &RULES, &LIMITS)?;
    Ok(Body {
        fields: assembled.fields,
        system: assembled.instructions.map(|text| Message {
            role: WireRole::System,
            content: vec![Part::Text(text)],
        }),
        messages: messages_of(assembled.rendered),
        appended: assembled.appended,
    })
}

/// The whole body of a Chat Completions request, built by [`body`]; serialize it as the
/// request.
///
/// ```
/// use transcript_replay::{openai, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let body = openai::body(&Turn::new(&history))?;
/// let json = serde_json::to_value(&body).unwrap();
/// assert_eq!(json["messages"][0]["role"], "system");
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    fields: Arc<body::Fields>,
    system: Option<Message<'a>>,
    messages: Vec<Message<'a>>,
    appended: Arc<body::Appended>,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.fields)?;
        map.serialize_entry(
            "messages",
            &Turns {
                first: self.system.as_ref(),
                rendered: &self.messages,
                appended: &self.appended,
            },
        )?;
        map.end()
    }
}

/// The rendered fragment of a Chat Completions request: `{"messages": [...]}`.
///
/// Add `model` (and whatever else the call needs) beside it, and the turn being asked about
/// after the messages.
///
/// ```
/// use transcript_replay::{openai, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#)?;
/// let request = openai::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.messages.len(), 1);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// One message per wire message, in order.
    pub messages: Vec<Message<'a>>,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut request = serializer.serialize_struct("Request", 1)?;
        request.serialize_field("messages", &self.messages)?;
        request.end()
    }
}

/// One Chat Completions message.
///
/// ```
/// use transcript_replay::{openai, parse_record, replay_messages, Vision, WireRole};
///
/// let record = parse_record(r#"[{"role": "tool", "blocks": [{"type": "text", "text": "done"}]}]"#)?;
/// let request = openai::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.messages[0].role, WireRole::Assistant);
/// assert_eq!(serde_json::to_string(&request.messages[0]).unwrap(), r#"{"role":"assistant","content":"done"}"#);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message<'a> {
    /// The role, as OpenAI names it.
    pub role: WireRole,
    /// The content; never empty.
    pub content: Vec<Part<'a>>,
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut message = serializer.serialize_struct("Message", 2)?;
        message.serialize_field("role", &self.role)?;
        match self.content.as_slice() {
            [Part::Text(text)] => message.serialize_field("content", text)?,
            parts => message.serialize_field("content", &Parts(parts))?,
        }
        message.end()
    }
}

struct Parts<'p, 'a>(&'p [Part<'a>]);

impl Serialize for Parts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ContentPart))
    }
}

struct ContentPart<'p, 'a>(&'p Part<'a>);

impl Serialize for ContentPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut part = serializer.serialize_struct("ContentPart", 2)?;
        match self.0 {
            Part::Text(text) => {
                part.serialize_field("type", "text")?;
                part.serialize_field("text", text)?;
            }
            Part::Image(image) => {
                part.serialize_field("type", "image_url")?;
                part.serialize_field("image_url", &ImageUrl(image))?;
            }
        }
        part.end()
    }
}

struct ImageUrl<'p, 'a>(&'p Image<'a>);

impl Serialize for ImageUrl<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("url", &DataUrl(self.0))?;
        map.end()
    }
}

/// `data:<media type>;base64,<data>`, written straight into the request as it is serialized.
pub(crate) struct DataUrl<'p, 'a>(pub(crate) &'p Image<'a>);

impl fmt::Display for DataUrl<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "data:{};base64,{}", self.0.media_type(), self.0.data())
    }
}

impl Serialize for DataUrl<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Reads a Chat Completions response body (`CreateChatCompletionResponse`, or what a streamed
/// reply accumulates to) into the stored message of the assistant's turn.
///
/// The first choice's message becomes one [`StoredMessage`] of the `assistant` role, its blocks
/// in this order: `reasoning_content` (which compatible servers return) as `reasoning`;
/// `content` as `text`; a `refusal` as `text` (its words are what the model said); each of
/// `tool_calls` as `tool_use`, with the call's id, name and its `arguments` string stored as it
/// is. `usage` becomes [`TokenUsage`]: `prompt_tokens` (which include cached tokens),
/// `completion_tokens`, and `prompt_tokens_details.cached_tokens` as cache reads.
///
/// What does not cross: other choices (`n` > 1), `logprobs`, and `annotations` (citations'
/// metadata) are not content and are left out. Audio output and the deprecated
/// `function_call` have no block in the record: they are an error, never dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{openai, Block};
///
/// let reply = r#"{"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
///     "role": "assistant", "content": "Reading it.",
///     "tool_calls": [{"id": "call_1", "type": "function",
///                     "function": {"name": "read", "arguments": "{\"path\":\"a.rs\"}"}}]}}],
///   "usage": {"prompt_tokens": 20, "completion_tokens": 9, "total_tokens": 29}}"#;
/// let message = openai::read_reply(reply)?;
/// assert_eq!(message.blocks, [
///     Block::text("Reading it."),
///     Block::tool_use("call_1", "read", r#"{"path":"a.rs"}"#),
/// ]);
/// assert_eq!(message.usage.map(|usage| usage.input_tokens), Some(20));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<StoredMessage, ReplyError> {
    #[derive(Deserialize)]
    struct Response<'a> {
        #[serde(borrow)]
        choices: &'a RawValue,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Choice<'a> {
        #[serde(borrow)]
        message: &'a RawValue,
    }
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(default)]
        content: Option<&'a RawValue>,
        #[serde(default)]
        refusal: Option<String>,
        #[serde(default)]
        reasoning_content: Option<String>,
        #[serde(borrow, default)]
        tool_calls: Option<&'a RawValue>,
        #[serde(borrow, default)]
        audio: Option<&'a RawValue>,
        #[serde(borrow, default)]
        function_call: Option<&'a RawValue>,
    }

    let at = At::body(Provider::OpenAi, body)?;
    let response: Response<'_> = at.read()?;
    let choices_at = at.child(response.choices, "choices");
    let choices: Vec<&RawValue> = choices_at.read()?;
    let Some(&first) = choices.first() else {
        return Err(choices_at.error("the reply has no choice"));
    };
    let choice_at = choices_at.child(first, "[0]");
    let choice: Choice<'_> = choice_at.read()?;
    let message_at = choice_at.child(choice.message, "message");
    let message: Message<'_> = message_at.read()?;
    for (field, value) in [
        ("audio", message.audio),
        ("function_call", message.function_call),
    ] {
        if let Some(value) = value.filter(|value| value.get() != "null") {
            return Err(message_at
                .child(value, field)
                .error(format_args!("`{field}` has no block in the record")));
        }
    }
    let mut blocks = Vec::new();
    if let Some(reasoning) = message.reasoning_content.filter(|text| !text.is_empty()) {
        blocks.push(Block::reasoning(reasoning));
    }
    if let Some(content) = message.content {
        read_content(&message_at.child(content, "content"), &mut blocks)?;
    }
    if let Some(refusal) = message.refusal {
        blocks.push(Block::text(refusal));
    }
    if let Some(calls) = message.tool_calls {
        let calls_at = message_at.child(calls, "tool_calls");
        let calls: Option<Vec<&RawValue>> = calls_at.read()?;
        for (index, &call) in calls.iter().flatten().enumerate() {
            blocks.push(read_tool_call(
                &calls_at.child(call, format_args!("[{index}]")),
            )?);
        }
    }
    let usage = match at.present(response.usage, "usage") {
        Some(usage_at) => Some(read_usage(&usage_at)?),
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}

/// `content`: a string, null, or (from some compatible servers) an array of text parts.
fn read_content(at: &At<'_>, blocks: &mut Vec<Block>) -> Result<(), ReplyError> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Content<'a> {
        Text(String),
        Parts(#[serde(borrow)] Vec<&'a RawValue>),
        Null(()),
    }
    #[derive(Deserialize)]
    struct ContentPart {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        refusal: Option<String>,
    }
    match at.read::<Content<'_>>()? {
        Content::Text(text) => {
            if !text.is_empty() {
                blocks.push(Block::text(text));
            }
        }
        Content::Parts(parts) => {
            for (index, &raw) in parts.iter().enumerate() {
                let part_at = at.child(raw, format_args!("[{index}]"));
                let part: ContentPart = part_at.read()?;
                match (part.kind.as_str(), part.text, part.refusal) {
                    ("text", Some(text), _) => blocks.push(Block::text(text)),
                    ("refusal", _, Some(refusal)) => blocks.push(Block::text(refusal)),
                    (kind, _, _) => {
                        return Err(part_at.error(format_args!(
                            "content of type {kind:?} has no block in the record"
                        )))
                    }
                }
            }
        }
        Content::Null(()) => {}
    }
    Ok(())
}

/// One of `tool_calls`: a function call (or a custom tool's free-form input), its arguments
/// stored as the exact text the reply carried.
fn read_tool_call(at: &At<'_>) -> Result<Block, ReplyError> {
    #[derive(Deserialize)]
    struct Call {
        id: String,
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        function: Option<Function>,
        #[serde(default)]
        custom: Option<Custom>,
    }
    #[derive(Deserialize)]
    struct Function {
        name: String,
        arguments: String,
    }
    #[derive(Deserialize)]
    struct Custom {
        name: String,
        input: String,
    }
    let call: Call = at.read()?;
    match (call.kind.as_str(), call.function, call.custom) {
        ("function", Some(function), _) => Ok(Block::tool_use(
            call.id,
            function.name,
            ToolInput::from(function.arguments),
        )),
        ("custom", _, Some(custom)) => Ok(Block::tool_use(call.id, custom.name, custom.input)),
        (kind, _, _) => Err(at.error(format_args!(
            "a tool call of type {kind:?} has no block in the record"
        ))),
    }
}

/// `usage`, as the record counts it.
fn read_usage(at: &At<'_>) -> Result<TokenUsage, ReplyError> {
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        prompt_tokens: u64,
        #[serde(default)]
        completion_tokens: u64,
        #[serde(default)]
        prompt_tokens_details: Option<Details>,
    }
    #[derive(Deserialize)]
    struct Details {
        #[serde(default)]
        cached_tokens: Option<u64>,
    }
    let usage: Usage = at.read()?;
    Ok(TokenUsage {
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage
            .prompt_tokens_details
            .and_then(|details| details.cached_tokens)
            .unwrap_or(0),
    })
}

impl crate::cost::sealed::Sealed for Request<'_> {}

/// The cost of the fragment: one unit per message.
impl Priced for Request<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            None,
            self.messages
                .iter()
                .map(|message| message.content.as_slice()),
            &[],
        )
    }
}

impl crate::cost::sealed::Sealed for Body<'_> {}

/// The cost of the body: the system message first, when there is one, then each message,
/// then the caller's appended messages.
impl Priced for Body<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            None,
            self.system
                .iter()
                .chain(&self.messages)
                .map(|message| message.content.as_slice()),
            &self.appended,
        )
    }
}
