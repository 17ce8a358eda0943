//! The serializers of a generateContent request: its fragment, its whole body, and what each
//! costs.

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::round::{self, Element};
use super::tools;
use super::wire::{GeminiPart, TextPart};
use crate::body::{self, Assembled, Turns};
use crate::body::{priced_body, Half};
use crate::cost::{self, tool_text, Of, Priced, Units};
use crate::render::rules::TurnRole;
use crate::render::Rendered;
use crate::wire::{Part, Text};

pub(super) fn contents_of(rendered: Rendered<'_>) -> Vec<Content<'_>> {
    rendered
        .messages
        .into_iter()
        .map(|(role, parts)| Content {
            role: match role {
                TurnRole::System | TurnRole::User => Role::User,
                TurnRole::Assistant => Role::Model,
            },
            parts,
        })
        .collect()
}

/// The whole body of a generateContent request, built by [`body`](super::body()); serialize it as the
/// request.
///
/// ```
/// use transcript_replay::{gemini, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let turn = Turn::new(&history);
/// let body = gemini::body(&turn)?;
/// let json = serde_json::to_value(&body).unwrap();
/// assert!(json["systemInstruction"]["parts"][0]["text"].is_string());
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Body<'a> {
    half: Half<'a, Element<'a>>,
    /// S and H, each when there is one.
    system: Vec<Text<'a>>,
    contents: Vec<Content<'a>>,
}

impl<'a> Body<'a> {
    /// The body of an assembled turn.
    pub(super) fn new(mut assembled: Assembled<'a>) -> Self {
        let hoisted = assembled.rendered.system.take();
        let rounds = round::elements(std::mem::take(&mut assembled.rounds));
        Body {
            half: Half::new(&assembled, rounds),
            system: assembled.instructions.into_iter().chain(hoisted).collect(),
            contents: contents_of(assembled.rendered),
        }
    }

    /// The tool declarations and config, as their key and value.
    fn write_tools<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if !self.half.tools.is_empty() {
            map.serialize_entry("tools", &tools::Tools(self.half.tools))?;
        }
        let config = tools::Config {
            choice: self.half.tool_choice.as_ref(),
            mixed: crate::turn::tools::mixes_kinds(self.half.tools),
        };
        if config.any() {
            map.serialize_entry("toolConfig", &config)?;
        }
        Ok(())
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        body::write_fields(&mut map, &self.half.fields)?;
        self.write_tools(&mut map)?;
        if !self.system.is_empty() {
            map.serialize_entry("systemInstruction", &SystemInstruction(&self.system))?;
        }
        map.serialize_entry(
            "contents",
            &Turns {
                first: None,
                rendered: &self.contents,
                rounds: &self.half.rounds,
                appended: &self.half.appended,
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
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The leading system messages, joined by a blank line.
    pub system_instruction: Option<Text<'a>>,
    /// One turn per wire message after the leading system messages, adjacent ones of one
    /// role merged, in order.
    pub contents: Vec<Content<'a>>,
    /// For each content, the first wire message it carries (for the estimate's `of`).
    pub(super) starts: Vec<usize>,
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
/// # Ok::<(), transcript_replay::RecordError>(())
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

impl Priced for Request<'_> {}

/// The cost of the fragment: the system instruction first, when there is one, then each
/// content, each the stored message it begins with.
impl cost::sealed::Sealed for Request<'_> {
    fn units(&self) -> Units<'_> {
        let mut units = Units::new();
        if let Some(system) = &self.system_instruction {
            units.system_texts("systemInstruction", std::slice::from_ref(system));
        }
        units.list("contents");
        for (content, &start) in self.contents.iter().zip(&self.starts) {
            units.parts(Of::History(start), &content.parts);
        }
        units
    }
}

priced_body!(Body);

impl Body<'_> {
    /// The cost of the body: the top-level fields and the tools, the system instruction, then each
    /// content, the rounds and the caller's appended contents.
    fn units_of_body(&self) -> Units<'_> {
        let keys: &[&str] = &["tools", "toolConfig"];
        let tools = (self.half.has_tools()).then(|| (keys, tool_text(|map| self.write_tools(map))));
        let mut units = self.half.head(tools);
        if !self.system.is_empty() {
            units.system_texts("systemInstruction", &self.system);
        }
        units.list("contents");
        let turns = self.contents.iter().map(|content| &content.parts[..]);
        self.half.turns(&mut units, turns);
        units
    }
}
