//! The rounds of a Responses turn in flight: the reply's output items as they came (its
//! reasoning items with their `encrypted_content` among them), then one `function_call_output`
//! item per call, its images in it.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::request::InputPart;
use crate::body::{Answer, AssembledRound};
use crate::cost::{Of, Units};
use crate::file::File;
use crate::wire::{DataUrl, Image, Part, Text};

/// One input item of a round.
#[derive(Debug, Clone)]
pub(super) enum Element<'a> {
    /// One of the reply's output items, as it came.
    Item { round: usize, item: &'a RawValue },
    /// A call's result: `{"type": "function_call_output", "call_id", "output"}`, the output a
    /// string, or, with images, `input_text` and `input_image` parts.
    Output {
        round: usize,
        answer: [Answer<'a>; 1],
    },
}

/// The items of the rounds, in order.
pub(super) fn elements(rounds: Vec<AssembledRound<'_>>) -> Vec<Element<'_>> {
    let mut elements = Vec::new();
    for (round, assembled) in rounds.into_iter().enumerate() {
        for item in assembled.reply.native_items() {
            elements.push(Element::Item { round, item });
        }
        for answer in assembled.answers {
            elements.push(Element::Output {
                round,
                answer: [answer],
            });
        }
    }
    elements
}

impl Serialize for Element<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Element::Item { item, .. } => item.serialize(serializer),
            Element::Output { answer, .. } => {
                let mut map = serializer.serialize_map(Some(3))?;
                map.serialize_entry("type", "function_call_output")?;
                let [answer] = answer;
                map.serialize_entry("call_id", answer.id)?;
                if !answer.has_media() {
                    map.serialize_entry("output", &answer.text)?;
                } else {
                    map.serialize_entry("output", &Content(answer))?;
                }
                map.end()
            }
        }
    }
}

/// An output with images: its text (when there is any), then each image.
struct Content<'b, 'a>(&'b Answer<'a>);

impl Serialize for Content<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        let text = (!answer.is_blank()).then_some(&answer.text);
        serializer.collect_seq(
            text.into_iter()
                .map(ContentPart::Text)
                .chain(answer.images.iter().map(ContentPart::Image))
                .chain(answer.files.iter().map(ContentPart::File)),
        )
    }
}

enum ContentPart<'b, 'a> {
    Text(&'b Text<'a>),
    Image(&'b Image<'a>),
    /// An `input_file` (`InputFileContentParam`, which a function call's output takes).
    File(&'b File<'a>),
}

impl Serialize for ContentPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ContentPart::Text(text) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "input_text")?;
                map.serialize_entry("text", text)?;
                map.end()
            }
            ContentPart::Image(image) => {
                let mut map = serializer.serialize_map(Some(3))?;
                map.serialize_entry("type", "input_image")?;
                map.serialize_entry("image_url", &DataUrl(image))?;
                map.serialize_entry("detail", "auto")?;
                map.end()
            }
            // As a user message carries it.
            ContentPart::File(file) => InputPart(&Part::File(**file)).serialize(serializer),
        }
    }
}

impl<'a> Element<'a> {
    /// Its unit in the estimate.
    pub(super) fn price(&'a self, units: &mut Units<'a>) {
        match self {
            Element::Item { round, item } => units.raw(Of::Round(*round), item),
            Element::Output { round, answer } => units.answers(Of::Round(*round), answer, &[]),
        }
    }
}
