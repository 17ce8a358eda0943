//! The serializers of a Responses request: its fragment, its whole body, and what each costs.

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::value::RawValue;

use super::round::{self, Element};
use super::tools;
use super::wire::InputPart;
use crate::body::{self, Assembled, Turns};
use crate::body::{priced_body, Half};
use crate::cost::{self, tool_text, Of, Priced, Units};
use crate::render::rules::TurnRole;
use crate::render::Rendered;
use crate::wire::{Compaction, Part, Text, WireRole};

pub(super) fn messages_of(rendered: Rendered<'_>) -> Vec<Message<'_>> {
    messages_and_starts(rendered).0
}

/// The input messages, and for each the wire message it begins with: a message that holds a
/// compaction is split around it, since Responses takes its `compaction` item beside the
/// messages, not inside one.
fn messages_and_starts(rendered: Rendered<'_>) -> (Vec<Message<'_>>, Vec<usize>) {
    let mut messages = Vec::with_capacity(rendered.messages.len());
    let mut starts = Vec::with_capacity(rendered.messages.len());
    for ((role, content), start) in rendered.messages.into_iter().zip(rendered.starts) {
        let role = match role {
            TurnRole::System => WireRole::System,
            TurnRole::User => WireRole::User,
            TurnRole::Assistant => WireRole::Assistant,
        };
        let mut run = Vec::new();
        for part in content {
            match part {
                // Only the items are sent, so only the items are priced: the compaction
                // item, or each item of a compacted window.
                Part::Compaction(compaction)
                    if compaction.data.and_then(native_items).is_some() =>
                {
                    if !run.is_empty() {
                        messages.push(Message {
                            role,
                            content: std::mem::take(&mut run),
                        });
                        starts.push(start);
                    }
                    for item in compaction.data.and_then(native_items).unwrap_or_default() {
                        messages.push(Message {
                            role,
                            content: vec![Part::Compaction(Box::new(Compaction {
                                summary: None,
                                provider: compaction.provider,
                                data: Some(item),
                            }))],
                        });
                        starts.push(start);
                    }
                }
                // A payload that is no item goes as its summary's prose, in its place, joined
                // with the text around it by the join rule.
                Part::Compaction(compaction) => push_joined(&mut run, compaction.as_text()),
                Part::Text(text) => push_joined(&mut run, text),
                Part::Image(_) | Part::File(_) => run.push(part),
            }
        }
        if !run.is_empty() {
            messages.push(Message { role, content: run });
            starts.push(start);
        }
    }
    (messages, starts)
}

/// Pushes a text onto a message's parts: joined into the text part before it, if the last
/// part is one, so that text on both sides of a compaction written as prose is one part.
fn push_joined<'a>(run: &mut Vec<Part<'a>>, text: Text<'a>) {
    match run.last_mut() {
        Some(Part::Text(last)) => last.join(text),
        Some(Part::Image(_) | Part::File(_) | Part::Compaction(_)) | None => {
            run.push(Part::Text(text))
        }
    }
}

/// The rendered fragment of a Responses request: `{"input": [...]}`.
///
/// ```
/// use transcript_replay::{openai_responses, replay_messages, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let request = openai_responses::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.input[0].role, transcript_replay::wire::WireRole::User);
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
        // Its own compaction item, as the reply gave it, is an item of the input: "pass the
        // compaction item back in the next request's input"
        // (https://platform.openai.com/docs/guides/conversation-state#managing-the-context-window).
        // An item of a compacted window (`/responses/compact`'s output) goes back as it came:
        // "Pass the compactedResponse.output as input to the next request"
        // (https://platform.openai.com/docs/api-reference/responses/compact).
        if let [Part::Compaction(compaction)] = self.content.as_slice() {
            if let Some(data) = compaction.data {
                if let Some(item) = compaction_item(data) {
                    return item.serialize(serializer);
                }
                if let Some(item) = window_item(data) {
                    return item.serialize(serializer);
                }
            }
        }
        let mut message = serializer.serialize_struct("EasyInputMessage", 2)?;
        message.serialize_field("role", &self.role)?;
        match self.content.as_slice() {
            [Part::Text(text)] => message.serialize_field("content", text)?,
            parts => message.serialize_field("content", &Parts(parts))?,
        }
        message.end()
    }
}

/// Whether a stored payload is what Responses takes back: its `compaction` item, or a
/// compacted window (the `output` of `/responses/compact`) that holds one.
pub(super) fn is_compaction_item(data: Option<&str>) -> bool {
    data.and_then(native_items).is_some()
}

/// The input items a stored payload goes back as: the `compaction` item alone, or each item
/// of a compacted window, in order (an array of objects, one of them a `compaction` item);
/// none for any other payload.
fn native_items(data: &str) -> Option<Vec<&str>> {
    if compaction_item(data).is_some() {
        return Some(vec![data]);
    }
    let window: Vec<&RawValue> = serde_json::from_str(data).ok()?;
    let items: Option<Vec<&str>> = window
        .iter()
        .map(|item| window_item(item.get()).map(|_| item.get()))
        .collect();
    let items = items?;
    items
        .iter()
        .any(|item| compaction_item(item).is_some())
        .then_some(items)
}

/// An item of a compacted window, as it came: a JSON object with a `type`.
fn window_item(data: &str) -> Option<&RawValue> {
    #[derive(serde::Deserialize)]
    struct Typed<'a> {
        #[serde(rename = "type", borrow)]
        _kind: std::borrow::Cow<'a, str>,
    }
    serde_json::from_str::<Typed<'_>>(data).ok()?;
    serde_json::from_str(data).ok()
}

/// A stored `compaction` item, when it is one: a JSON object of type `compaction`.
fn compaction_item(data: &str) -> Option<CompactionItem<'_>> {
    let item: CompactionItem<'_> = serde_json::from_str(data).ok()?;
    (item.kind == "compaction").then_some(item)
}

/// A `compaction` input item: the fields the request takes of the item the reply gave (which
/// also carries `created_by`, a field of the output only). Spec `CompactionSummaryItemParam`.
#[derive(serde::Deserialize, serde::Serialize)]
struct CompactionItem<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    id: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    encrypted_content: std::borrow::Cow<'a, str>,
}

struct Parts<'p, 'a>(&'p [Part<'a>]);

impl Serialize for Parts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(InputPart))
    }
}

/// The whole body of a Responses request, built by [`body`](super::body()); serialize it as the request.
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
    half: Half<'a, Element<'a>>,
    instructions: Option<Text<'a>>,
    input: Vec<Message<'a>>,
}

impl<'a> Body<'a> {
    /// The body of an assembled turn.
    pub(super) fn new(mut assembled: Assembled<'a>) -> Self {
        let rounds = round::elements(std::mem::take(&mut assembled.rounds));
        Body {
            half: Half::new(&assembled, rounds),
            instructions: assembled.instructions,
            input: Vec::new(),
        }
        .with_input(assembled.rendered)
    }

    fn with_input(mut self, rendered: Rendered<'a>) -> Self {
        (self.input, self.half.starts) = messages_and_starts(rendered);
        self
    }

    /// The tool declarations and choice, as their key and value, after the `truncation` a
    /// native tool needs when the caller's fields do not set it.
    fn write_tools<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if tools::needs_truncation(self.half.tools)
            && !self.half.fields.iter().any(|(key, _)| key == "truncation")
        {
            map.serialize_entry("truncation", "auto")?;
        }
        if !self.half.tools.is_empty() {
            map.serialize_entry("tools", &tools::Tools(self.half.tools))?;
        }
        if let Some(choice) = &self.half.tool_choice {
            map.serialize_entry("tool_choice", &tools::Choice(choice))?;
        }
        Ok(())
    }
}

impl Body<'_> {
    /// The `input` entry: the input messages, the rounds and the caller's appended items.
    pub(super) fn write_input<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry(
            "input",
            &Turns {
                first: None,
                rendered: &self.input,
                rounds: &self.half.rounds,
                appended: &self.half.appended,
            },
        )
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.half.fields)?;
        self.write_tools(&mut map)?;
        if let Some(text) = &self.instructions {
            map.serialize_entry("instructions", text)?;
        }
        self.write_input(&mut map)?;
        map.end()
    }
}

impl Priced for Request<'_> {}

/// The cost of the fragment: one unit per input message, each the stored message it renders.
impl cost::sealed::Sealed for Request<'_> {
    fn units(&self) -> Units<'_> {
        let mut units = Units::new();
        units.list("input");
        for (index, message) in self.input.iter().enumerate() {
            units.parts(Of::History(index), &message.content);
        }
        units
    }
}

priced_body!(Body);

impl Body<'_> {
    /// The cost of the body: the top-level fields and the tools, the instructions, then each input
    /// message, the rounds and the caller's appended items.
    fn units_of_body(&self) -> Units<'_> {
        let keys: &[&str] = &["truncation", "tools", "tool_choice"];
        let tools = (self.half.has_tools()).then(|| (keys, tool_text(|map| self.write_tools(map))));
        let mut units = self.half.head(tools);
        if let Some(text) = &self.instructions {
            units.system_texts("instructions", std::slice::from_ref(text));
        }
        units.list("input");
        let turns = self.input.iter().map(|message| &message.content[..]);
        self.half.turns(&mut units, turns);
        units
    }
}
