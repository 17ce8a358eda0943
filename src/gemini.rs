//! Gemini generateContent: the `systemInstruction` and `contents` of a request, in camelCase.
//!
//! `assistant` becomes `model`. Leading system messages become `systemInstruction`, joined by
//! a blank line; a system message after the first other message stays in place as a `user`
//! turn whose text begins `[System]: `. Parts are `{"text"}` and
//! `{"inlineData":{"mimeType","data"}}`, never an empty or white-space-only text, never an
//! empty `parts`. Images go in user and model turns, in the media types and size Gemini takes;
//! any other image becomes a marker that names Gemini.
//!
//! ```
//! use transcript_replay::{gemini, parse_record, replay_messages, Vision};
//!
//! let record = parse_record(r#"[
//!   {"role": "system", "blocks": [{"type": "text", "text": "Be brief."}]},
//!   {"role": "user", "blocks": [{"type": "image", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}]},
//!   {"role": "assistant", "blocks": [{"type": "text", "text": "A logo."}]}
//! ]"#)?;
//! let request = gemini::render(&replay_messages(&record, Vision::Sees));
//! assert_eq!(
//!     serde_json::to_string(&request).unwrap(),
//!     concat!(
//!         r#"{"systemInstruction":{"parts":[{"text":"Be brief."}]},"contents":["#,
//!         r#"{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
//!         r#"{"role":"model","parts":[{"text":"A logo."}]}]}"#,
//!     ),
//! );
//! # Ok::<(), transcript_replay::Error>(())
//! ```

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::render::{self, Rules};
use crate::{ImageLimits, Part, Provider, Text, WireMessage};

/// The image media types Gemini takes.
///
/// Source: Gemini's image-understanding guide, "Supported image formats": PNG, JPEG, WEBP,
/// HEIC and HEIF, <https://ai.google.dev/gemini-api/docs/image-understanding>.
pub const MEDIA_TYPES: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
];

/// How much inline data one request may carry: 100 MB, counted as base64 text; so also the
/// longest base64 text of one image.
///
/// Source: Google's announcement of 2026-01-12, "Increased file size limits and expanded
/// inputs support in Gemini API": "we are increasing the maximum payload size for inline data
/// from 20MB to 100MB (base64 encoded, with varying limits based on data types)",
/// <https://blog.google/innovation-and-ai/technology/developers-tools/gemini-api-new-file-limits>.
/// Before that date the limit was 20 MB; pass a smaller one in [`ImageLimits`] to
/// [`render_with`] for a deployment that still has it.
pub const MAX_INLINE_DATA_BASE64_LEN: usize = 100_000_000;

/// How many images one request may carry: 3,600.
///
/// Source: Gemini's image-understanding guide, "a maximum of 3,600 image files per request".
pub const MAX_IMAGES_PER_REQUEST: usize = 3_600;

/// Gemini's image limits, which `render` applies. Gemini states no pixel limit: it scales
/// large images itself.
pub const LIMITS: ImageLimits = ImageLimits {
    base64_len_per_image: MAX_INLINE_DATA_BASE64_LEN,
    images_per_request: MAX_IMAGES_PER_REQUEST,
    base64_len_per_request: MAX_INLINE_DATA_BASE64_LEN,
    max_side_pixels: None,
    max_side_pixels_beyond: None,
};

pub(crate) static RULES: Rules = Rules {
    provider: Provider::Gemini,
    media_types: &MEDIA_TYPES,
    refuses_animated_gifs: false,
    images_in: |role| match role {
        render::Role::User | render::Role::Assistant => true,
        render::Role::System => false,
    },
    image_role_rule: "Gemini does not accept images in system instructions",
    hoists_system: true,
    drops_blank_text: true,
    trims_final_assistant: false,
};

/// Renders wire messages as the `systemInstruction` and `contents` of a generateContent
/// request.
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "image", "media_type": "image/gif", "data": "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="}
/// ]}]"#)?;
/// let request = gemini::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"contents":[{"role":"user","parts":[{"text":"[Image (image/gif) not shown: Gemini does not accept image/gif]"}]}]}"#,
/// );
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn render<'a>(messages: &[WireMessage<'a>]) -> Request<'a> {
    render_with(messages, &LIMITS)
}

/// Renders wire messages as [`render`] does, under the given image limits: for example the
/// 20 MB of inline data that applied before 2026-01-12.
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, ImageLimits, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#)?;
/// let limits = ImageLimits { base64_len_per_request: 20_000_000, base64_len_per_image: 20_000_000, ..gemini::LIMITS };
/// let request = gemini::render_with(&replay_messages(&record, Vision::Sees), &limits);
/// assert_eq!(request.contents.len(), 1);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
pub fn render_with<'a>(messages: &[WireMessage<'a>], limits: &ImageLimits) -> Request<'a> {
    let rendered = render::render(messages, &RULES, limits);
    Request {
        system_instruction: rendered.system,
        contents: rendered
            .messages
            .into_iter()
            .map(|(role, parts)| Content {
                role: match role {
                    render::Role::System | render::Role::User => Role::User,
                    render::Role::Assistant => Role::Model,
                },
                parts,
            })
            .collect(),
    }
}

/// The rendered fragment of a generateContent request:
/// `{"systemInstruction": ..., "contents": [...]}`, with `systemInstruction` left out when
/// there is none.
///
/// Add the turn being asked about after the contents; the model goes in the URL.
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "text", "text": "Hi"}]}]"#)?;
/// let request = gemini::render(&replay_messages(&record, Vision::Sees));
/// assert!(request.system_instruction.is_none());
/// assert_eq!(request.contents.len(), 1);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The leading system messages, joined by a blank line.
    pub system_instruction: Option<Text<'a>>,
    /// One turn per wire message after the leading system messages, in order.
    pub contents: Vec<Content<'a>>,
}

impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut request = serializer.serialize_struct("Request", 2)?;
        match &self.system_instruction {
            Some(text) => request.serialize_field("systemInstruction", &SystemInstruction(text))?,
            None => request.skip_field("systemInstruction")?,
        }
        request.serialize_field("contents", &self.contents)?;
        request.end()
    }
}

struct SystemInstruction<'p, 'a>(&'p Text<'a>);

impl Serialize for SystemInstruction<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut content = serializer.serialize_struct("Content", 1)?;
        content.serialize_field("parts", &[TextPart(self.0)])?;
        content.end()
    }
}

/// The role of a Gemini turn.
///
/// ```
/// assert_eq!(serde_json::to_string(&transcript_replay::gemini::Role::Model).unwrap(), r#""model""#);
/// ```
#[derive(serde::Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A person's turn, or a system message kept in place.
    User,
    /// The model's turn.
    Model,
}

/// One Gemini turn (`Content`).
///
/// ```
/// use transcript_replay::{gemini, parse_record, replay_messages, Vision};
///
/// let record = parse_record(r#"[{"role": "assistant", "blocks": [{"type": "text", "text": "Done."}]}]"#)?;
/// let request = gemini::render(&replay_messages(&record, Vision::Sees));
/// assert_eq!(serde_json::to_string(&request.contents[0]).unwrap(), r#"{"role":"model","parts":[{"text":"Done."}]}"#);
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content<'a> {
    /// The role.
    pub role: Role,
    /// The parts; never empty.
    pub parts: Vec<Part<'a>>,
}

impl Serialize for Content<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut content = serializer.serialize_struct("Content", 2)?;
        content.serialize_field("role", &self.role)?;
        content.serialize_field("parts", &Parts(&self.parts))?;
        content.end()
    }
}

struct Parts<'p, 'a>(&'p [Part<'a>]);

impl Serialize for Parts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(GeminiPart))
    }
}

struct GeminiPart<'p, 'a>(&'p Part<'a>);

impl Serialize for GeminiPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Part::Text(text) => TextPart(text).serialize(serializer),
            Part::Image(image) => {
                let mut part = serializer.serialize_struct("Part", 1)?;
                part.serialize_field(
                    "inlineData",
                    &Blob {
                        mime_type: image.media_type(),
                        data: image.data(),
                    },
                )?;
                part.end()
            }
        }
    }
}

struct TextPart<'p, 'a>(&'p Text<'a>);

impl Serialize for TextPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut part = serializer.serialize_struct("Part", 1)?;
        part.serialize_field("text", self.0)?;
        part.end()
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Blob<'a> {
    mime_type: &'a str,
    data: &'a str,
}
