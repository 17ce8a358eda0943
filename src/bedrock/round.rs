//! The rounds of a Converse turn in flight: the assistant turn as it came (its
//! `reasoningContent` with the signature, its `toolUse` blocks), then a user turn of one
//! `toolResult` block per call, its images in it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::wire::{CachePoint, DocumentBlock, ImageBlock, VideoBlock};
use crate::body::{Answer, AssembledRound};
use crate::cost::{Of, Units};
use crate::media::file::File;
use crate::turn::cache::Cache;
use crate::wire::{is_blank_char, Image, Piece, Text};

/// One message of a round.
#[derive(Debug, Clone)]
pub(super) enum Element<'a> {
    /// The reply's content blocks, as they came; a text block that is blank, which Bedrock
    /// rejects ("The text field in the ContentBlock object is blank"), is left out.
    Assistant {
        round: usize,
        blocks: Vec<&'a RawValue>,
    },
    /// The results, with a `cachePoint` after the last one when asked (the last round's, so
    /// that each request in the turn reads the one before it from the cache).
    Results {
        round: usize,
        answers: Vec<Answer<'a>>,
        cache: Option<Cache>,
    },
}

/// The messages of the rounds, in order.
pub(super) fn elements(rounds: Vec<AssembledRound<'_>>, cache: Option<Cache>) -> Vec<Element<'_>> {
    let last = rounds.len().checked_sub(1);
    let mut elements = Vec::new();
    for (round, assembled) in rounds.into_iter().enumerate() {
        let blocks = assembled
            .reply
            .native_items()
            .iter()
            .map(|block| &**block)
            .filter(|block| !is_blank_text(block))
            .collect();
        elements.push(Element::Assistant { round, blocks });
        let mut answers = assembled.answers;
        for answer in &mut answers {
            if answer.is_blank() && !answer.has_media() {
                answer.text = Text::from_pieces(vec![Piece::EmptyMessage]);
            }
        }
        elements.push(Element::Results {
            round,
            answers,
            cache: cache.filter(|_| Some(round) == last),
        });
    }
    elements
}

/// Whether a content block is `{"text": ...}` with no text but white space.
fn is_blank_text(block: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Block<'a> {
        #[serde(borrow, default)]
        text: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_str::<Block<'_>>(block.get()).is_ok_and(|block| {
        block
            .text
            .is_some_and(|text| text.chars().all(is_blank_char))
    })
}

impl Serialize for Element<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        match self {
            Element::Assistant { blocks, .. } => {
                map.serialize_entry("role", "assistant")?;
                map.serialize_entry("content", blocks)?;
            }
            Element::Results { answers, cache, .. } => {
                map.serialize_entry("role", "user")?;
                map.serialize_entry(
                    "content",
                    &Results {
                        answers,
                        cache: *cache,
                    },
                )?;
            }
        }
        map.end()
    }
}

struct Results<'b, 'a> {
    answers: &'b [Answer<'a>],
    cache: Option<Cache>,
}

impl Serialize for Results<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        for answer in self.answers {
            seq.serialize_element(&ResultBlock(answer))?;
        }
        if let Some(cache) = self.cache {
            seq.serialize_element(&CachePointBlock(cache))?;
        }
        seq.end()
    }
}

struct CachePointBlock(Cache);

impl Serialize for CachePointBlock {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("cachePoint", &CachePoint(self.0))?;
        map.end()
    }
}

/// `{"toolResult": {"toolUseId", "content": [{"text"}, {"image"}...], "status": "error"}}`,
/// `status` only when the tool failed.
///
/// A blank output with no image is sent as `[Empty message]`: `content` is required, and
/// Bedrock refuses an empty text block in a result as it does in a message
/// (<https://github.com/NousResearch/hermes-agent/pull/55093>).
struct ResultBlock<'b, 'a>(&'b Answer<'a>);

impl Serialize for ResultBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("toolResult", &ToolResult(self.0))?;
        map.end()
    }
}

struct ToolResult<'b, 'a>(&'b Answer<'a>);

impl Serialize for ToolResult<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("toolUseId", answer.id)?;
        map.serialize_entry("content", &Content(answer))?;
        if answer.is_error {
            map.serialize_entry("status", "error")?;
        }
        map.end()
    }
}

struct Content<'b, 'a>(&'b Answer<'a>);

impl Serialize for Content<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        // A blank output with no image already says `[Empty message]`.
        let text = (!answer.is_blank()).then_some(&answer.text);
        serializer.collect_seq(
            text.into_iter()
                .map(ContentBlock::Text)
                .chain(answer.images.iter().map(ContentBlock::Image))
                .chain(answer.files.iter().map(ContentBlock::File)),
        )
    }
}

enum ContentBlock<'b, 'a> {
    Text(&'b Text<'a>),
    Image(&'b Image<'a>),
    /// A `document` or `video` (a `toolResult` takes both).
    File(&'b File<'a>),
}

impl Serialize for ContentBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        match self {
            ContentBlock::Text(text) => map.serialize_entry("text", text)?,
            ContentBlock::Image(image) => map.serialize_entry("image", &ImageBlock(image))?,
            ContentBlock::File(file) => match super::file_format(file.media_type()) {
                Some(("video", format)) => {
                    map.serialize_entry("video", &VideoBlock(file, format))?;
                }
                Some(_) | None => map.serialize_entry("document", &DocumentBlock(file))?,
            },
        }
        map.end()
    }
}

impl<'a> crate::body::RoundElement<'a> for Element<'a> {
    fn price(&'a self, units: &mut Units<'a>) {
        match self {
            Element::Assistant { round, blocks } => units.raws(Of::Round(*round), blocks.clone()),
            Element::Results { round, answers, .. } => {
                units.answers(Of::Round(*round), answers, &[])
            }
        }
    }
}
