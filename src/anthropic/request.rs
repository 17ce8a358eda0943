//! The serializers of a Messages request: its fragment, its whole body with the prompt-cache
//! breakpoints, and what each costs.

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::round::{self, Element};
use super::tools;
use super::wire::ContentBlock;
use crate::body::{self, priced_body, Assembled, Half, Turns};
use crate::cost::{self, tool_text, Of, Priced, Units};
use crate::render::rules::TurnRole;
use crate::render::Rendered;
use crate::turn::cache::Cache;
use crate::wire::{Part, Text};

pub(super) fn messages_of(rendered: Rendered<'_>) -> Vec<Message<'_>> {
    rendered
        .messages
        .into_iter()
        .map(|(role, content)| Message {
            role: match role {
                TurnRole::System | TurnRole::User => Role::User,
                TurnRole::Assistant => Role::Assistant,
            },
            content,
        })
        .collect()
}

/// The whole body of a Messages request, built by [`body`](super::body()); serialize it as the request.
///
/// ```
/// use transcript_replay::{anthropic, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let turn = Turn::new(&history);
/// let body = anthropic::body(&turn)?;
/// let json = serde_json::to_value(&body).unwrap();
/// assert_eq!(json["system"][0]["type"], "text");
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    half: Half<'a, Element<'a>>,
    /// S and H as text blocks, each when there is one.
    system: Vec<Part<'a>>,
    /// Whether the first system block is S.
    has_instructions: bool,
    /// The breakpoints asked for, if any.
    cache: Option<Cache>,
    /// Where the history's breakpoints go, as (message, block), when asked for.
    breakpoints: Vec<(usize, usize)>,
    messages: Vec<Message<'a>>,
}

impl<'a> Body<'a> {
    /// The body of an assembled turn.
    pub(super) fn new(mut assembled: Assembled<'a>) -> Self {
        let hoisted = assembled.rendered.system.take();
        let rounds = round::elements(std::mem::take(&mut assembled.rounds), assembled.cache);
        Body {
            half: Half::new(&assembled, rounds),
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
        }
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.half.fields)?;
        self.write_tools(&mut map)?;
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
                rounds: &self.half.rounds,
                appended: &self.half.appended,
            },
        )?;
        map.end()
    }
}

impl Body<'_> {
    /// The tool declarations and choice, as their key and value.
    fn write_tools<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if !self.half.tools.is_empty() {
            map.serialize_entry("tools", &tools::Tools(self.half.tools))?;
        }
        if let Some(choice) = &self.half.tool_choice {
            map.serialize_entry("tool_choice", &tools::Choice(choice))?;
        }
        Ok(())
    }

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
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The leading system messages, joined by a blank line.
    pub system: Option<Text<'a>>,
    /// One message per wire message after the leading system messages, in order.
    pub messages: Vec<Message<'a>>,
    /// For each message, the wire message it renders (for the estimate's `of`).
    pub(super) starts: Vec<usize>,
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
/// # Ok::<(), transcript_replay::RecordError>(())
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

impl Priced for Request<'_> {}

/// The cost of the fragment: the system text first, when there is one, then each message,
/// each the stored message it begins with.
impl cost::sealed::Sealed for Request<'_> {
    fn units(&self) -> Units<'_> {
        let mut units = Units::new();
        if let Some(system) = &self.system {
            units.system_texts("system", std::slice::from_ref(system));
        }
        units.list("messages");
        for (message, &start) in self.messages.iter().zip(&self.starts) {
            units.parts(Of::History(start), &message.content);
        }
        units
    }
}

priced_body!(Body);

impl Body<'_> {
    /// The cost of the body: the top-level fields and the tools, the system blocks, then each
    /// message, the rounds and the caller's appended messages.
    fn units_of_body(&self) -> Units<'_> {
        let keys: &[&str] = &["tools", "tool_choice"];
        let tools = (self.half.has_tools()).then(|| (keys, tool_text(|map| self.write_tools(map))));
        let mut units = self.half.head(tools);
        if !self.system.is_empty() {
            units.system_parts("system", &self.system);
        }
        units.list("messages");
        let turns = self.messages.iter().map(|message| &message.content[..]);
        self.half.turns(&mut units, turns);
        units
    }
}
