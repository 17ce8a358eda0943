//! The serializers of a Converse request: its fragment, its whole body with `cachePoint`
//! blocks, and what each costs.

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::round::{self, Element};
use super::tools;
use super::wire::{CachePoint, DocumentBlock, ImageBlock, VideoBlock};
use crate::body::{self, Assembled, Turns};
use crate::body::{priced_body, Half};
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
    /// For each message, the first wire message it carries (for the estimate's `of`).
    pub(super) starts: Vec<usize>,
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
            // Bedrock reads a compaction as its summary's prose.
            ContentBlock::Part(Part::Compaction(compaction)) => {
                block.serialize_entry("text", &compaction.as_text())?;
            }
            ContentBlock::Part(Part::Image(image)) => {
                block.serialize_entry("image", &ImageBlock(image))?;
            }
            ContentBlock::Part(Part::File(file)) => match super::file_format(file.media_type()) {
                Some(("video", format)) => {
                    block.serialize_entry("video", &VideoBlock(file, format))?;
                }
                // The renderer sends only `FILE_TYPES_AND_FORMATS`: the rest are documents.
                Some(_) | None => block.serialize_entry("document", &DocumentBlock(file))?,
            },
            ContentBlock::CachePoint(cache) => {
                block.serialize_entry("cachePoint", &CachePoint(*cache))?
            }
        }
        block.end()
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

/// The whole body of a Converse request, built by [`body`](super::body()); serialize it as the request.
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
    half: Half<'a, Element<'a>>,
    /// S and H, each when there is one.
    system: Vec<Text<'a>>,
    /// Whether the first system block is S.
    has_instructions: bool,
    cache: Option<Cache>,
    /// Where the history's cache points go, after these (message, block) positions.
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
            system: assembled.instructions.into_iter().chain(hoisted).collect(),
            messages: messages_of(assembled.rendered),
        }
    }

    /// The tool declarations and choice, as `toolConfig`.
    fn write_tools<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        if !self.half.tools.is_empty() {
            map.serialize_entry(
                "toolConfig",
                &tools::Config {
                    tools: self.half.tools,
                    choice: self.half.tool_choice.as_ref(),
                },
            )?;
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
                rounds: &self.half.rounds,
                appended: &self.half.appended,
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

impl Priced for Request<'_> {}

/// The cost of the fragment: the system blocks first, when there are any, then each message,
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
        let keys: &[&str] = &["toolConfig"];
        let tools =
            (!self.half.tools.is_empty()).then(|| (keys, tool_text(|map| self.write_tools(map))));
        let mut units = self.half.head(tools);
        if !self.system.is_empty() {
            units.system_texts("system", &self.system);
        }
        units.list("messages");
        let turns = self.messages.iter().map(|message| &message.content[..]);
        self.half.turns(&mut units, turns);
        units
    }
}
