//! The provider's wire shapes: the messages, parts and blocks its requests are made of, as a leaf
//! the request and the round both write with.

use crate::turn::cache::Cache;
use crate::wire::Part;
use serde::ser::{Serialize, SerializeStruct, Serializer};

pub(super) struct ContentBlock<'p, 'a> {
    pub(super) part: &'p Part<'a>,
    pub(super) cache: Option<Cache>,
}

impl Serialize for ContentBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut block = serializer.serialize_struct("ContentBlock", 3)?;
        match self.part {
            Part::Text(text) => {
                block.serialize_field("type", "text")?;
                block.serialize_field("text", text)?;
            }
            // Its own compaction block, as the reply gave it: the summary (`null` for one
            // that failed) and the opaque payload when there is one. Beta
            // `compact-2026-01-12`; the request carries the header
            // (https://platform.claude.com/docs/en/build-with-claude/compaction).
            // An empty summary is no summary ("Empty string content is not allowed"), and an
            // empty payload none.
            Part::Compaction(compaction) => {
                block.serialize_field("type", "compaction")?;
                let summary = compaction.summary.filter(|summary| !summary.is_empty());
                block.serialize_field("content", &summary)?;
                if let Some(data) = compaction.data.filter(|data| !data.is_empty()) {
                    block.serialize_field("encrypted_content", data)?;
                }
            }
            Part::Image(image) => {
                block.serialize_field("type", "image")?;
                block.serialize_field(
                    "source",
                    &Base64Source {
                        kind: "base64",
                        media_type: image.media_type(),
                        data: image.data_json(),
                    },
                )?;
            }
            Part::File(file) => {
                block.serialize_field("type", "document")?;
                match crate::media::file::lowercase(file.media_type()).as_ref() {
                    "application/pdf" => block.serialize_field(
                        "source",
                        &Base64Source {
                            kind: "base64",
                            media_type: "application/pdf",
                            data: file.data_json(),
                        },
                    )?,
                    // The renderer sends only `FILE_TYPES`; the others are text, checked to be
                    // UTF-8, sent as the text itself.
                    _ => block.serialize_field(
                        "source",
                        &TextSource {
                            kind: "text",
                            media_type: "text/plain",
                            data: String::from_utf8_lossy(&crate::media::file::decode_base64(
                                file.data(),
                            )),
                        },
                    )?,
                }
                match file.name().filter(|name| !name.is_empty()) {
                    // The title is at most 500 characters.
                    Some(name) => block.serialize_field("title", &Cut(name, 500))?,
                    None => block.skip_field("title")?,
                }
            }
        }
        match self.cache {
            Some(cache) => block.serialize_field("cache_control", &cache)?,
            None => block.skip_field("cache_control")?,
        }
        block.end()
    }
}

#[derive(serde::Serialize)]
pub(super) struct Base64Source<'a> {
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) media_type: &'a str,
    pub(super) data: crate::json::Unescaped<&'a str>,
}

/// A plain-text document's source: `{"type":"text","media_type":"text/plain","data":"..."}`.
#[derive(serde::Serialize)]
pub(super) struct TextSource<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    media_type: &'static str,
    data: std::borrow::Cow<'a, str>,
}

/// A string cut to at most this many characters.
pub(super) struct Cut<'a>(pub(super) &'a str, usize);

impl Serialize for Cut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let end = self
            .0
            .char_indices()
            .nth(self.1)
            .map_or(self.0.len(), |(at, _)| at);
        serializer.serialize_str(&self.0[..end])
    }
}
