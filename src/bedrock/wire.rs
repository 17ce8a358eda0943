//! The provider's wire shapes: the messages, parts and blocks its requests are made of, as a leaf
//! the request and the round both write with.

use crate::media::file::File;
use crate::turn::cache::Cache;
use crate::wire::Image;
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

/// `{"format": "png", "source": {"bytes": "<base64>"}}`.
pub(super) struct ImageBlock<'p, 'a>(pub(super) &'p Image<'a>);

impl Serialize for ImageBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Source<'a> {
            bytes: crate::json::Unescaped<&'a str>,
        }
        let media_type = self.0.media_type();
        // The renderer sends only the media types above, so the subtype is the format.
        let format = media_type.strip_prefix("image/").unwrap_or(media_type);
        let mut block = serializer.serialize_struct("ImageBlock", 2)?;
        block.serialize_field("format", format)?;
        block.serialize_field(
            "source",
            &Source {
                bytes: self.0.data_json(),
            },
        )?;
        block.end()
    }
}

/// `{"format": "pdf", "name": "contract pdf [1]", "source": {"bytes": "<base64>"}}`: the
/// name made to Bedrock's rule ([`document_name`](super::document_name)).
pub(super) struct DocumentBlock<'p, 'a>(pub(super) &'p File<'a>);

impl Serialize for DocumentBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let format = super::file_format(self.0.media_type()).map_or("txt", |(_, format)| format);
        let mut block = serializer.serialize_struct("DocumentBlock", 3)?;
        block.serialize_field("format", format)?;
        block.serialize_field(
            "name",
            &super::document_name(self.0.name(), self.0.ordinal()),
        )?;
        block.serialize_field(
            "source",
            &BytesSource {
                bytes: self.0.data_json(),
            },
        )?;
        block.end()
    }
}

/// `{"format": "mp4", "source": {"bytes": "<base64>"}}`.
pub(super) struct VideoBlock<'p, 'a>(pub(super) &'p File<'a>, pub(super) &'static str);

impl Serialize for VideoBlock<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut block = serializer.serialize_struct("VideoBlock", 2)?;
        block.serialize_field("format", self.1)?;
        block.serialize_field(
            "source",
            &BytesSource {
                bytes: self.0.data_json(),
            },
        )?;
        block.end()
    }
}

/// `{"type": "default"}`, with `"ttl": "1h"` for an hour.
pub(super) struct CachePoint(pub(super) Cache);

impl Serialize for CachePoint {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut point = serializer.serialize_map(None)?;
        point.serialize_entry("type", "default")?;
        match self.0 {
            Cache::FiveMinutes => {}
            Cache::OneHour => point.serialize_entry("ttl", "1h")?,
        }
        point.end()
    }
}

#[derive(serde::Serialize)]
pub(super) struct BytesSource<'a> {
    bytes: crate::json::Unescaped<&'a str>,
}
