//! The provider's wire shapes: the messages, parts and blocks its requests are made of, as a leaf
//! the request and the round both write with.

use crate::wire::{Part, Text};
use serde::ser::{Serialize, SerializeStruct, Serializer};

pub(super) struct GeminiPart<'p, 'a>(pub(super) &'p Part<'a>);

impl Serialize for GeminiPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Part::Text(text) => TextPart(text).serialize(serializer),
            // Gemini reads a compaction as its summary's prose.
            Part::Compaction(compaction) => TextPart(&compaction.as_text()).serialize(serializer),
            Part::Image(image) => {
                let mut part = serializer.serialize_struct("Part", 1)?;
                part.serialize_field(
                    "inlineData",
                    &Blob {
                        mime_type: image.media_type(),
                        data: image.data_json(),
                    },
                )?;
                part.end()
            }
            Part::File(file) => {
                let mut part = serializer.serialize_struct("Part", 1)?;
                // In lowercase, as Gemini's list spells it.
                let media_type = crate::media::file::lowercase(file.media_type());
                part.serialize_field(
                    "inlineData",
                    &Blob {
                        mime_type: &media_type,
                        data: file.data_json(),
                    },
                )?;
                part.end()
            }
        }
    }
}

pub(super) struct TextPart<'p, 'a>(pub(super) &'p Text<'a>);

impl Serialize for TextPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut part = serializer.serialize_struct("Part", 1)?;
        part.serialize_field("text", self.0)?;
        part.end()
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Blob<'a> {
    mime_type: &'a str,
    data: crate::json::Unescaped<&'a str>,
}
