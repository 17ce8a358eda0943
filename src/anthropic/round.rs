//! The rounds of a Messages turn in flight: the assistant turn as it came (thinking blocks
//! with their signatures, redacted thinking, tool uses), then a user turn of one
//! `tool_result` block per call, its images in it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::wire::{Base64Source, ContentBlock};
use crate::body::{Answer, AssembledRound};
use crate::cost::{Of, Units};
use crate::media::file::File;
use crate::turn::cache::Cache;
use crate::wire::{is_blank_char, Image, Part, Text};

/// One message of a round.
#[derive(Debug, Clone)]
pub(super) enum Element<'a> {
    /// The reply's content blocks, as they came; a text block that is empty or white space
    /// only, which Anthropic rejects ("text content blocks must be non-empty", "must contain
    /// non-whitespace text"), is left out.
    Assistant {
        round: usize,
        blocks: Vec<&'a RawValue>,
    },
    /// The results, with a breakpoint on the last one when asked (the last round's, so that
    /// each request in the turn reads the one before it from the cache).
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
        // A paused turn owes no results: the body ends on its content, for the model to go on.
        if !assembled.answers.is_empty() {
            elements.push(Element::Results {
                round,
                answers: assembled.answers,
                cache: cache.filter(|_| Some(round) == last),
            });
        }
    }
    elements
}

/// Whether a content block is a text block with no text but white space.
fn is_blank_text(block: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Block<'a> {
        #[serde(rename = "type")]
        kind: &'a str,
        #[serde(default)]
        text: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_str::<Block<'_>>(block.get()).is_ok_and(|block| {
        block.kind == "text"
            && block
                .text
                .as_deref()
                .unwrap_or_default()
                .chars()
                .all(is_blank_char)
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
                let last = answers.len().checked_sub(1);
                let results: Vec<ToolResult<'_, '_>> = answers
                    .iter()
                    .enumerate()
                    .map(|(index, answer)| ToolResult {
                        answer,
                        cache: cache.filter(|_| Some(index) == last),
                    })
                    .collect();
                map.serialize_entry("content", &results)?;
            }
        }
        map.end()
    }
}

/// `{"type": "tool_result", "tool_use_id", "content", "is_error"}`: the content a string, or,
/// with images, text and image blocks; no content for a blank output (Anthropic takes a
/// result without content, and refuses a blank text block); `is_error` only when the tool
/// failed.
struct ToolResult<'b, 'a> {
    answer: &'b Answer<'a>,
    cache: Option<Cache>,
}

impl Serialize for ToolResult<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.answer;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "tool_result")?;
        map.serialize_entry("tool_use_id", answer.id)?;
        match (!answer.has_media(), answer.is_blank()) {
            (true, true) => {}
            (true, false) => map.serialize_entry("content", &answer.text)?,
            (false, _) => map.serialize_entry("content", &Content(answer))?,
        }
        if answer.is_error {
            map.serialize_entry("is_error", &true)?;
        }
        if let Some(cache) = self.cache {
            map.serialize_entry("cache_control", &cache)?;
        }
        map.end()
    }
}

/// A result's text block (when there is text), then its image blocks.
struct Content<'b, 'a>(&'b Answer<'a>);

impl Serialize for Content<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        let text = (!answer.is_blank()).then_some(&answer.text);
        serializer.collect_seq(
            text.into_iter()
                .map(ResultBlock::Text)
                .chain(answer.images.iter().map(ResultBlock::Image))
                .chain(answer.files.iter().map(|file| ResultBlock::File(*file))),
        )
    }
}

enum ResultBlock<'b, 'a> {
    Text(&'b Text<'a>),
    Image(&'b Image<'a>),
    /// A `document`, as a user message carries it (a `tool_result` takes documents).
    File(File<'a>),
}

impl Serialize for ResultBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ResultBlock::Text(text) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
                map.end()
            }
            ResultBlock::Image(image) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "image")?;
                map.serialize_entry(
                    "source",
                    &Base64Source {
                        kind: "base64",
                        media_type: image.media_type(),
                        data: image.data_json(),
                    },
                )?;
                map.end()
            }
            ResultBlock::File(file) => ContentBlock {
                part: &Part::File(*file),
                cache: None,
            }
            .serialize(serializer),
        }
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
