//! The provider's wire shapes: the messages, parts and blocks its requests are made of, as a leaf
//! the request and the round both write with.

use crate::media::file::FileDataUrl;
use crate::wire::{DataUrl, Part};
use serde::ser::{Serialize, SerializeStruct, Serializer};

pub(super) struct InputPart<'p, 'a>(pub(super) &'p Part<'a>);

impl Serialize for InputPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Part::Text(text) => {
                let mut part = serializer.serialize_struct("InputText", 2)?;
                part.serialize_field("type", "input_text")?;
                part.serialize_field("text", text)?;
                part.end()
            }
            // A compaction is an item of its own (the request splits a message around one);
            // inside a message's parts it is its summary's prose.
            Part::Compaction(compaction) => {
                let mut part = serializer.serialize_struct("InputText", 2)?;
                part.serialize_field("type", "input_text")?;
                part.serialize_field("text", &compaction.as_text())?;
                part.end()
            }
            Part::Image(image) => {
                let mut part = serializer.serialize_struct("InputImage", 3)?;
                part.serialize_field("type", "input_image")?;
                part.serialize_field("image_url", &DataUrl(image))?;
                part.serialize_field("detail", "auto")?;
                part.end()
            }
            Part::File(file) => {
                let mut part = serializer.serialize_struct("InputFile", 3)?;
                part.serialize_field("type", "input_file")?;
                part.serialize_field(
                    "filename",
                    &crate::media::file::name_or_default(file.name(), file.media_type()),
                )?;
                part.serialize_field("file_data", &FileDataUrl(file))?;
                part.end()
            }
        }
    }
}
