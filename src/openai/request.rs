//! The serializers of a Chat Completions request: its fragment, its whole body, and what
//! each costs.

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::round::{self, Element};
use super::tools;
use super::wire::Message;
use crate::body::{self, Assembled, Turns};
use crate::body::{priced_body, Half};
use crate::cost::{self, tool_text, Of, Priced, Units};
use crate::render::rules::TurnRole;
use crate::render::Rendered;
use crate::wire::{Part, WireRole};

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

/// The whole body of a Chat Completions request, built by [`body`](super::body()); serialize it as the
/// request.
///
/// ```
/// use transcript_replay::{openai, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let turn = Turn::new(&history);
/// let body = openai::body(&turn)?;
/// let json = serde_json::to_value(&body).unwrap();
/// assert_eq!(json["messages"][0]["role"], "system");
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    half: Half<'a, Element<'a>>,
    /// The provider whose body this is: OpenAI, or a compatible server.
    provider: crate::Provider,
    system: Option<Message<'a>>,
    messages: Vec<Message<'a>>,
}

impl<'a> Body<'a> {
    /// The body of an assembled turn.
    pub(super) fn new(
        mut assembled: Assembled<'a>,
        provider: crate::Provider,
        dialect: &'static super::Dialect,
    ) -> Self {
        // A dialect that gathers system text: the caller's first, then the history's, as
        // one text by the join rule.
        let system = match (
            assembled.instructions.take(),
            assembled.rendered.system.take(),
        ) {
            (Some(mut instructions), Some(gathered)) => {
                instructions.join(gathered);
                Some(instructions)
            }
            (instructions, gathered) => instructions.or(gathered),
        };
        let rounds = round::elements(std::mem::take(&mut assembled.rounds), provider, dialect);
        Body {
            half: Half::new(&assembled, rounds),
            provider,
            system: system.map(|text| Message {
                role: WireRole::System,
                content: vec![Part::Text(text)],
            }),
            messages: messages_of(assembled.rendered),
        }
    }

    /// The provider whose body this is: OpenAI, or a compatible server.
    pub(crate) fn provider(&self) -> crate::Provider {
        self.provider
    }

    /// The tool declarations and choice, as their key and value, after `web_search_options`
    /// when the tools ask for web search and the caller's fields do not set it.
    fn write_tools<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if tools::web_search(self.half.tools)
            && !(self.half.fields)
                .iter()
                .any(|(key, _)| key == "web_search_options")
        {
            map.serialize_entry("web_search_options", &tools::Empty)?;
        }
        let declared = tools::Tools(self.half.tools);
        if declared.any() {
            map.serialize_entry("tools", &declared)?;
        }
        if let Some(choice) = &self.half.tool_choice {
            map.serialize_entry("tool_choice", &tools::Choice(choice))?;
        }
        Ok(())
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.half.fields)?;
        self.write_tools(&mut map)?;
        map.serialize_entry(
            "messages",
            &Turns {
                first: self.system.as_ref(),
                rendered: &self.messages,
                rounds: &self.half.rounds,
                appended: &self.half.appended,
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
/// # Ok::<(), transcript_replay::RecordError>(())
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

impl Priced for Request<'_> {}

/// The cost of the fragment: one unit per message, each the stored message it renders.
impl cost::sealed::Sealed for Request<'_> {
    fn units(&self) -> Units<'_> {
        let mut units = Units::new();
        units.list("messages");
        for (index, message) in self.messages.iter().enumerate() {
            units.parts(Of::History(index), &message.content);
        }
        units
    }
}

priced_body!(Body);

impl Body<'_> {
    /// The cost of the body: the top-level fields and the tools, then the system message, each
    /// message, the rounds and the caller's appended messages.
    fn units_of_body(&self) -> Units<'_> {
        let keys: &[&str] = &["web_search_options", "tools", "tool_choice"];
        let tools = (self.half.has_tools()).then(|| (keys, tool_text(|map| self.write_tools(map))));
        let mut units = self.half.head(tools);
        units.list("messages");
        if let Some(system) = &self.system {
            units.parts(Of::System, &system.content);
        }
        let turns = self.messages.iter().map(|message| &message.content[..]);
        self.half.turns(&mut units, turns);
        units
    }
}
