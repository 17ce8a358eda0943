//! OpenAI Responses: the `input` items of a request, and the whole body with `instructions`.
//!
//! Each wire message becomes one input message (`EasyInputMessage`): `{"role", "content"}`,
//! roles unchanged (`system`, `user`, `assistant`); a history's system messages stay in place.
//! Content is a plain string when it is one text part, else an array of `input_text` and
//! `input_image` parts (a `data:` URL, written as it is serialized, with `"detail": "auto"`).
//! An assistant message is always text, so always a string: the `output_text` form would need
//! an `id`, a `status` and `annotations` that a replayed history does not have. Images go only
//! in user messages, in the media types and sizes OpenAI takes (its vision guide covers both
//! APIs); an assistant turn's images (a tool's screenshots) are carried to the next user
//! message; any other image becomes a marker that names OpenAI.
//!
//! [`render`] gives the history as a fragment; [`body`] builds the whole request from a
//! [`Turn`], with the system text S as `instructions`.
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
//! # Ok::<(), transcript_replay::Error>(())
//! ```

use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::body::{self, BodyError, Turns};
use crate::cost::{self, Priced, Unit};
use crate::openai::DataUrl;
use crate::render::{self, Rendered, Role, Rules};
use crate::reply::{self, At, ReplyError};
use crate::{
    openai, Block, ImageLimits, Part, Provider, StoredMessage, Text, TokenUsage, ToolInput, Turn,
    WireMessage, WireRole,
};

/// The image limits `render` and `body` apply: OpenAI's, which its vision guide states for
/// Chat Completions and Responses alike ([`openai::LIMITS`]).
pub const LIMITS: ImageLimits = openai::LIMITS;

pub(crate) static RULES: Rules = Rules {
    provider: Provider::OpenAiResponses,
    media_types: &openai::MEDIA_TYPES,
    refuses_animated_gifs: true,
    images_in: |role| match role {
        Role::User => true,
        Role::System | Role::Assistant => false,
    },
    image_role_rule: "OpenAI accepts images only in user messages",
    hoists_system: false,
    drops_blank_text: false,
    merges_same_role: false,
    takes_prefill: false,
    rejects_ending_on_assistant: false,
    starts_on_user: false,
    model_role: "assistant",
    body_keys: &["instructions", "input"],
};

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

/// The rendered fragment of a Responses request: `{"input": [...]}`.
///
/// ```
/// use transcript_replay::{openai_responses, replay_messages, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let request = openai_responses::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.input[0].role, transcript_replay::WireRole::User);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// One input message per wire message, in order.
    pub input: Vec<Message<'a>>,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut request = serializer.serialize_struct("Request", 1)?;
        request.serialize_field("input", &self.input)?;
        request.end()
    }
}

/// One input message (`EasyInputMessage`).
///
/// ```
/// use transcript_replay::{openai_responses, replay_messages, StoredMessage, Vision};
///
/// let record = [StoredMessage::assistant("Done.")];
/// let request = openai_responses::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(serde_json::to_string(&request.input[0]).unwrap(), r#"{"role":"assistant","content":"Done."}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message<'a> {
    /// The role.
    pub role: WireRole,
    /// The content; never empty.
    pub content: Vec<Part<'a>>,
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut message = serializer.serialize_struct("EasyInputMessage", 2)?;
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
        serializer.collect_seq(self.0.iter().map(InputPart))
    }
}

struct InputPart<'p, 'a>(&'p Part<'a>);

impl Serialize for InputPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Part::Text(text) => {
                let mut part = serializer.serialize_struct("InputText", 2)?;
                part.serialize_field("type", "input_text")?;
                part.serialize_field("text", text)?;
                part.end()
            }
            Part::Image(image) => {
                let mut part = serializer.serialize_struct("InputImage", 3)?;
                part.serialize_field("type", "input_image")?;
                part.serialize_field("image_url", &DataUrl(image))?;
                part.serialize_field("detail", "auto")?;
                part.end()
            }
        }
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
pub fn body<'a>(turn: &Turn<'a>) -> Result<Body<'a>, BodyError> {
    let assembled = body::assemble(turn, &RULES, &LIMITS)?;
    Ok(Body {
        fields: assembled.fields,
        instructions: assembled.instructions,
        input: messages_of(assembled.rendered),
        appended: assembled.appended,
    })
}

/// The whole body of a Responses request, built by [`body`]; serialize it as the request.
///
/// ```
/// use transcript_replay::{openai_responses, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let json = serde_json::to_value(openai_responses::body(&Turn::new(&history))?).unwrap();
/// assert!(json["instructions"].as_str().unwrap().starts_with("Earlier turns"));
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    fields: Arc<body::Fields>,
    instructions: Option<Text<'a>>,
    input: Vec<Message<'a>>,
    appended: Arc<body::Appended>,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.fields)?;
        if let Some(text) = &self.instructions {
            map.serialize_entry("instructions", text)?;
        }
        map.serialize_entry(
            "input",
            &Turns {
                first: None,
                rendered: &self.input,
                appended: &self.appended,
            },
        )?;
        map.end()
    }
}

/// Reads a Responses response body (`Response`, or what a streamed reply accumulates to)
/// into the stored message of the assistant's turn.
///
/// Each item of `output` becomes blocks, in order: a `message`'s `output_text` parts as
/// `text`, and its `refusal`s as `text` (their words are what the model said); a `reasoning`
/// item's `summary` texts as `reasoning`; a `function_call` as `tool_use`, with its `call_id`,
/// name and `arguments` string stored as it is (a `custom_tool_call` likewise, with its
/// `input`); an `image_generation_call`'s `result` as `image`. `usage` becomes [`TokenUsage`]:
/// `input_tokens` (which include cached tokens), `output_tokens`, and
/// `input_tokens_details.cached_tokens` as cache reads.
///
/// What does not cross prose replay, and is left out: a reasoning item's
/// `encrypted_content`, and `annotations` (citations' metadata). Any other item (web search,
/// file search, computer use, code interpreter and MCP calls) has no block in the record: it
/// is an error, never dropped silently.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{openai_responses, Block};
///
/// let reply = r#"{"id": "resp_1", "object": "response", "status": "completed", "output": [
///     {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Need the file."}]},
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read",
///      "arguments": "{\"path\":\"a.rs\"}", "status": "completed"}],
///   "usage": {"input_tokens": 20, "output_tokens": 9, "total_tokens": 29,
///             "input_tokens_details": {"cached_tokens": 4}}}"#;
/// let message = openai_responses::read_reply(reply)?;
/// assert_eq!(message.blocks, [
///     Block::reasoning("Need the file."),
///     Block::tool_use("call_1", "read", r#"{"path":"a.rs"}"#),
/// ]);
/// assert_eq!(message.usage.map(|usage| usage.cache_read_input_tokens), Some(4));
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
    struct Item<'a> {
        #[serde(rename = "type")]
        kind: String,
        #[serde(borrow, default)]
        content: Option<Vec<&'a RawValue>>,
        #[serde(default)]
        summary: Option<Vec<Summary>>,
        #[serde(default)]
        call_id: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        arguments: Option<String>,
        #[serde(default)]
        input: Option<String>,
        #[serde(default)]
        result: Option<String>,
        #[serde(default)]
        output_format: Option<String>,
    }
    #[derive(Deserialize)]
    struct Summary {
        text: String,
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
    #[derive(Deserialize)]
    struct Usage {
        #[serde(default)]
        input_tokens: u64,
        #[serde(default)]
        output_tokens: u64,
        #[serde(default)]
        input_tokens_details: Option<Details>,
    }
    #[derive(Deserialize)]
    struct Details {
        #[serde(default)]
        cached_tokens: u64,
    }

    let at = At::body(Provider::OpenAiResponses, body)?;
    let response: Response<'_> = at.read()?;
    let output_at = at.child(response.output, "output");
    let output: Vec<&RawValue> = output_at.read()?;
    let mut blocks = Vec::new();
    for (index, &raw) in output.iter().enumerate() {
        let item_at = output_at.child(raw, format_args!("[{index}]"));
        let item: Item<'_> = item_at.read()?;
        let missing = |field: &str| {
            item_at.error(format_args!(
                "missing field `{field}` in a {} item",
                item.kind
            ))
        };
        match item.kind.as_str() {
            "message" => {
                for (part, &raw) in item.content.iter().flatten().enumerate() {
                    let part_at = item_at.child(raw, format_args!("content[{part}]"));
                    let content: ContentPart = part_at.read()?;
                    match (content.kind.as_str(), content.text, content.refusal) {
                        ("output_text", Some(text), _) => blocks.push(Block::text(text)),
                        ("refusal", _, Some(refusal)) => blocks.push(Block::text(refusal)),
                        (kind, _, _) => {
                            return Err(part_at.error(format_args!(
                                "content of type {kind:?} has no block in the record"
                            )))
                        }
                    }
                }
            }
            "reasoning" => {
                for summary in item.summary.into_iter().flatten() {
                    blocks.push(Block::reasoning(summary.text));
                }
            }
            "function_call" => {
                let call_id = item.call_id.clone().ok_or_else(|| missing("call_id"))?;
                let name = item.name.clone().ok_or_else(|| missing("name"))?;
                let arguments = item.arguments.clone().ok_or_else(|| missing("arguments"))?;
                blocks.push(Block::tool_use(call_id, name, ToolInput::from(arguments)));
            }
            "custom_tool_call" => {
                let call_id = item.call_id.clone().ok_or_else(|| missing("call_id"))?;
                let name = item.name.clone().ok_or_else(|| missing("name"))?;
                let input = item.input.clone().ok_or_else(|| missing("input"))?;
                blocks.push(Block::tool_use(call_id, name, input));
            }
            "image_generation_call" => {
                let data = item.result.clone().ok_or_else(|| missing("result"))?;
                let format = item.output_format.as_deref().unwrap_or("png");
                blocks.push(Block::image(format!("image/{format}"), data));
            }
            kind => {
                return Err(item_at.error(format_args!(
                    "an output item of type {kind:?} has no block in the record"
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
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: usage
                    .input_tokens_details
                    .map_or(0, |details| details.cached_tokens),
            })
        }
        None => None,
    };
    Ok(reply::assistant(blocks, usage))
}

impl crate::cost::sealed::Sealed for Request<'_> {}

/// The cost of the fragment: one unit per input message.
impl Priced for Request<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            None,
            self.input.iter().map(|message| message.content.as_slice()),
            &[],
        )
    }
}

impl crate::cost::sealed::Sealed for Body<'_> {}

/// The cost of the body: the instructions first, when there are any, then each input
/// message, then the caller's appended items.
impl Priced for Body<'_> {
    fn units(&self) -> Vec<Unit<'_>> {
        cost::units(
            self.instructions
                .as_ref()
                .map(std::slice::from_ref)
                .map(Unit::texts),
            self.input.iter().map(|message| message.content.as_slice()),
            &self.appended,
        )
    }
}
