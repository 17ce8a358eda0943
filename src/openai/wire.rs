//! The provider's wire shapes: the messages, parts and blocks its requests are made of, as a leaf
//! the request and the round both write with.

use crate::media::file::FileDataUrl;
use crate::wire::{DataUrl, Image, Part, WireRole};
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

/// One Chat Completions message.
///
/// ```
/// use transcript_replay::{openai, parse_record, replay_messages, Vision, wire::WireRole};
///
/// let record = parse_record(r#"[{"role": "tool", "blocks": [{"type": "text", "text": "done"}]}]"#)?;
/// let request = openai::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(request.messages[0].role, WireRole::Assistant);
/// assert_eq!(serde_json::to_string(&request.messages[0]).unwrap(), r#"{"role":"assistant","content":"done"}"#);
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message<'a> {
    /// The role, as OpenAI names it.
    pub role: WireRole,
    /// The content; never empty.
    pub content: Vec<Part<'a>>,
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut message = serializer.serialize_struct("Message", 2)?;
        message.serialize_field("role", &self.role)?;
        match self.content.as_slice() {
            [Part::Text(text)] => message.serialize_field("content", text)?,
            parts => message.serialize_field("content", &Parts(parts))?,
        }
        message.end()
    }
}

pub(super) struct Parts<'p, 'a>(pub(super) &'p [Part<'a>]);

impl Serialize for Parts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ContentPart))
    }
}

pub(super) struct ContentPart<'p, 'a>(pub(super) &'p Part<'a>);

impl Serialize for ContentPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut part = serializer.serialize_struct("ContentPart", 2)?;
        match self.0 {
            Part::Text(text) => {
                part.serialize_field("type", "text")?;
                part.serialize_field("text", text)?;
            }
            // OpenAI Chat reads a compaction as its summary's prose.
            Part::Compaction(compaction) => {
                part.serialize_field("type", "text")?;
                part.serialize_field("text", &compaction.as_text())?;
            }
            Part::Image(image) => {
                part.serialize_field("type", "image_url")?;
                part.serialize_field("image_url", &ImageUrl(image))?;
            }
            // The renderer sends only `FILE_TYPES`: PDF as a file, WAV and MP3 as audio.
            Part::File(file) => match crate::media::file::extension(file.media_type()) {
                Some(format @ ("wav" | "mp3")) => {
                    part.serialize_field("type", "input_audio")?;
                    part.serialize_field(
                        "input_audio",
                        &InputAudio {
                            data: file.data_json(),
                            format,
                        },
                    )?;
                }
                Some(_) | None => {
                    part.serialize_field("type", "file")?;
                    part.serialize_field(
                        "file",
                        &FileData {
                            filename: crate::media::file::name_or_default(
                                file.name(),
                                file.media_type(),
                            ),
                            file_data: FileDataUrl(file),
                        },
                    )?;
                }
            },
        }
        part.end()
    }
}

/// `{"data": "<base64>", "format": "wav"}`.
#[derive(serde::Serialize)]
pub(super) struct InputAudio<'a> {
    data: crate::json::Unescaped<&'a str>,
    format: &'static str,
}

/// `{"filename": "contract.pdf", "file_data": "data:application/pdf;base64,..."}`.
#[derive(serde::Serialize)]
pub(super) struct FileData<'p, 'a> {
    filename: std::borrow::Cow<'a, str>,
    file_data: FileDataUrl<'p, 'a>,
}

pub(super) struct ImageUrl<'p, 'a>(pub(super) &'p Image<'a>);

impl Serialize for ImageUrl<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("url", &DataUrl(self.0))?;
        map.end()
    }
}
