//! The serializers of a Responses request: its fragment, its whole body, and what each costs.

use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::round::{self, Element};
use super::tools;
use super::wire::InputPart;
use crate::body::Report;
use crate::body::{self, Assembled, Turns};
use crate::cost::Withheld;
use crate::cost::{self, tool_text, Of, Priced, Units};
use crate::render::Rendered;
use crate::rules::TurnRole;
use crate::tools::{Tool, ToolChoice};
use crate::wire::{Part, Text, WireRole};

pub(super) fn messages_of(rendered: Rendered<'_>) -> Vec<Message<'_>> {
    rendered
        .messages
        .into_iter()
        .map(|(role, content)| Message {
            role: match role {
                TurnRole::System => WireRole::System,
                TurnRole::User => WireRole::User,
                TurnRole::Assistant => WireRole::Assistant,
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
    /// What a budget withheld, when the turn had one.
    withheld: Option<Withheld>,
    fields: Arc<body::Fields>,
    tools: &'a [Tool],
    tool_choice: Option<ToolChoice>,
    instructions: Option<Text<'a>>,
    input: Vec<Message<'a>>,
    /// For each input message, the wire message it begins with, and how many the history has.
    starts: Vec<usize>,
    history_len: usize,
    rounds: Vec<Element<'a>>,
    appended: Arc<body::Appended>,
}

impl<'a> Body<'a> {
    /// The body of an assembled turn.
    pub(super) fn new(assembled: Assembled<'a>) -> Self {
        Body {
            withheld: None,
            fields: assembled.fields,
            tools: assembled.tools,
            tool_choice: assembled.tool_choice,
            instructions: assembled.instructions,
            starts: assembled.rendered.starts.clone(),
            history_len: assembled.history_len,
            input: messages_of(assembled.rendered),
            rounds: round::elements(assembled.rounds),
            appended: assembled.appended,
        }
    }

    /// The tool declarations and choice, as their key and value.
    fn write_tools<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if !self.tools.is_empty() {
            map.serialize_entry("tools", &tools::Tools(self.tools))?;
        }
        if let Some(choice) = &self.tool_choice {
            map.serialize_entry("tool_choice", &tools::Choice(choice))?;
        }
        Ok(())
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.fields)?;
        self.write_tools(&mut map)?;
        if let Some(text) = &self.instructions {
            map.serialize_entry("instructions", text)?;
        }
        map.serialize_entry(
            "input",
            &Turns {
                first: None,
                rendered: &self.input,
                rounds: &self.rounds,
                appended: &self.appended,
            },
        )?;
        map.end()
    }
}

impl cost::sealed::Sealed for Request<'_> {}

/// The cost of the fragment: one unit per input message, each the stored message it renders.
impl Priced for Request<'_> {
    fn units(&self) -> Units<'_> {
        let mut units = Units::new();
        units.list("input");
        for (index, message) in self.input.iter().enumerate() {
            units.parts(Of::History(index), &message.content);
        }
        units
    }
}

impl cost::sealed::Sealed for Body<'_> {}

/// The cost of the body: the caller's fields and the tools, the instructions, then each input
/// message, the rounds and the caller's appended items.
impl Report for Body<'_> {
    fn withheld_mut(&mut self) -> &mut Option<Withheld> {
        &mut self.withheld
    }
}

impl Priced for Body<'_> {
    fn withheld(&self) -> Option<Withheld> {
        self.withheld
    }

    fn units(&self) -> Units<'_> {
        let mut units = Units::new();
        units.fields(&self.fields);
        if !self.tools.is_empty() || self.tool_choice.is_some() {
            units.tools(
                &["tools", "tool_choice"],
                tool_text(|map| self.write_tools(map)),
            );
        }
        if let Some(text) = &self.instructions {
            units.system_texts("instructions", std::slice::from_ref(text));
        }
        units.list("input");
        for (message, &start) in self.input.iter().zip(&self.starts) {
            units.parts(Of::turn(start, self.history_len), &message.content);
        }
        for element in &self.rounds {
            element.price(&mut units);
        }
        units.appended(&self.appended);
        units
    }
}
