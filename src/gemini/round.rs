//! The rounds of a generateContent turn in flight: the model's content as it came (its
//! `thoughtSignature`s beside the function calls, byte for byte), then a user content of one
//! `functionResponse` part per call, the calls' images after them.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::wire::GeminiPart;
use crate::body::{Answer, AssembledRound};
use crate::cost::{Of, Units};
use crate::wire::{Part, Piece, Text};

/// One content of a round.
#[derive(Debug, Clone)]
pub(super) enum Element<'a> {
    /// The reply's parts, as they came.
    Model {
        round: usize,
        parts: &'a [Box<RawValue>],
    },
    /// The results, then each image a result returned, after a line that says whose it is
    /// (the pinned `FunctionResponse` has no field for an image).
    Results {
        round: usize,
        answers: Vec<Answer<'a>>,
        images: Vec<Part<'a>>,
    },
}

/// The contents of the rounds, in order.
pub(super) fn elements(rounds: Vec<AssembledRound<'_>>) -> Vec<Element<'_>> {
    let mut elements = Vec::new();
    for (round, assembled) in rounds.into_iter().enumerate() {
        elements.push(Element::Model {
            round,
            parts: assembled.reply.native_items(),
        });
        let mut images = Vec::new();
        let mut answers = assembled.answers;
        for answer in &mut answers {
            for image in std::mem::take(&mut answer.images) {
                images.push(Part::Text(Text::from_pieces(vec![Piece::ToolImage {
                    name: answer.name,
                    id: answer.real_id.then_some(answer.id),
                }])));
                images.push(Part::Image(image));
            }
            for file in std::mem::take(&mut answer.files) {
                images.push(Part::Text(Text::from_pieces(vec![Piece::ToolFile {
                    name: answer.name,
                    id: answer.real_id.then_some(answer.id),
                }])));
                images.push(Part::File(file));
            }
        }
        elements.push(Element::Results {
            round,
            answers,
            images,
        });
    }
    elements
}

impl Serialize for Element<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        match self {
            Element::Model { parts, .. } => {
                map.serialize_entry("role", "model")?;
                map.serialize_entry("parts", parts)?;
            }
            Element::Results {
                answers, images, ..
            } => {
                map.serialize_entry("role", "user")?;
                map.serialize_entry("parts", &ResultParts { answers, images })?;
            }
        }
        map.end()
    }
}

struct ResultParts<'b, 'a> {
    answers: &'b [Answer<'a>],
    images: &'b [Part<'a>],
}

impl Serialize for ResultParts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.answers.len() + self.images.len()))?;
        for answer in self.answers {
            seq.serialize_element(&FunctionResponsePart(answer))?;
        }
        for part in self.images {
            seq.serialize_element(&GeminiPart(part))?;
        }
        seq.end()
    }
}

/// `{"functionResponse": {"id", "name", "response": {"output": text}}}`, `"error"` in place of
/// `"output"` when the tool failed, and no `id` when the call came without one (a made id is
/// never sent back).
struct FunctionResponsePart<'b, 'a>(&'b Answer<'a>);

impl Serialize for FunctionResponsePart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("functionResponse", &FunctionResponse(self.0))?;
        map.end()
    }
}

struct FunctionResponse<'b, 'a>(&'b Answer<'a>);

impl Serialize for FunctionResponse<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        let mut map = serializer.serialize_map(None)?;
        if answer.real_id {
            map.serialize_entry("id", answer.id)?;
        }
        map.serialize_entry("name", answer.name)?;
        map.serialize_entry("response", &Response(answer))?;
        map.end()
    }
}

struct Response<'b, 'a>(&'b Answer<'a>);

impl Serialize for Response<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        let mut map = serializer.serialize_map(Some(1))?;
        let key = match answer.is_error {
            true => "error",
            false => "output",
        };
        map.serialize_entry(key, &answer.text)?;
        map.end()
    }
}

impl<'a> crate::body::RoundElement<'a> for Element<'a> {
    fn price(&'a self, units: &mut Units<'a>) {
        match self {
            Element::Model { round, parts } => units.raws(
                Of::Round(*round),
                parts.iter().map(|part| &**part).collect(),
            ),
            Element::Results {
                round,
                answers,
                images,
            } => units.answers(Of::Round(*round), answers, images),
        }
    }
}
