//! A file sent natively ([`File`]), the checks a file must pass to be shown, and what its own
//! bytes say about it (a PDF's page count, a WAV's duration), each in one place, shared by
//! replay, the renderers and the estimate.

use std::fmt;

use serde::ser::{Serialize, Serializer};

use crate::media::image::{is_restricted_name, symbol_value};
use crate::record::Block;

/// A file sent natively: the stored media type, base64 data and name, borrowed.
///
/// ```
/// use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
///
/// let record = parse_record(r#"[{"role": "user", "blocks": [
///     {"type": "file", "media_type": "application/pdf", "data": "JVBERi0=", "name": "a.pdf"}
/// ]}]"#)?;
/// let wire = replay_message(&record[0], Vision::Sees);
/// let Part::File(file) = &wire.content[0] else { unreachable!() };
/// assert_eq!((file.media_type(), file.data(), file.name()), ("application/pdf", "JVBERi0=", Some("a.pdf")));
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct File<'a> {
    /// The stored `file` block or the tool's file, borrowed whole so that a part stays small.
    source: Source<'a>,
    /// Its place among the native files of a rendered request, from 1 (0 before a render),
    /// which makes the names a provider requires unique (Bedrock).
    ordinal: u32,
}

impl<'a> File<'a> {
    /// The file of a stored `file` block, which must have been checked
    /// ([`unseen_file`](crate::replay::unseen_file) said nothing against it).
    pub(crate) fn new(block: &'a Block) -> Self {
        File {
            source: Source::Block(block),
            ordinal: 0,
        }
    }

    /// The file a tool returned in a round in flight, which must have been checked.
    pub(crate) fn of_tool(file: &'a ToolFile) -> Self {
        File {
            source: Source::Tool(file),
            ordinal: 0,
        }
    }

    /// The file as the `ordinal`-th native file of a request.
    pub(crate) fn numbered(self, ordinal: usize) -> Self {
        File {
            ordinal: u32::try_from(ordinal).unwrap_or(u32::MAX),
            ..self
        }
    }

    /// Its place among the native files of the rendered request, from 1.
    pub(crate) fn ordinal(&self) -> usize {
        self.ordinal as usize
    }

    /// The stored media type, data and name.
    fn fields(&self) -> (&'a str, &'a str, Option<&'a str>) {
        let block = match self.source {
            Source::Block(block) => block,
            Source::Tool(file) => {
                return (&file.media_type, &file.data, file.name.as_deref());
            }
        };
        match block {
            Block::File {
                media_type,
                data,
                name,
            } => (media_type, data, name.as_deref()),
            // Only a `file` block makes a `File`.
            Block::Text { .. }
            | Block::ToolUse { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => ("", "", None),
        }
    }

    /// The media type, such as `application/pdf`.
    ///
    /// ```
    /// # use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
    /// # let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "file", "media_type": "text/plain", "data": "aGk="}]}]"#)?;
    /// # let wire = replay_message(&record[0], Vision::Sees);
    /// # let Part::File(file) = &wire.content[0] else { unreachable!() };
    /// assert_eq!(file.media_type(), "text/plain");
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    pub fn media_type(&self) -> &'a str {
        self.fields().0
    }

    /// The file's bytes, in base64.
    ///
    /// ```
    /// # use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
    /// # let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "file", "media_type": "text/plain", "data": "aGk="}]}]"#)?;
    /// # let wire = replay_message(&record[0], Vision::Sees);
    /// # let Part::File(file) = &wire.content[0] else { unreachable!() };
    /// assert_eq!(file.data(), "aGk=");
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    pub fn data(&self) -> &'a str {
        self.fields().1
    }

    /// The file's stored name, when it has one.
    ///
    /// ```
    /// # use transcript_replay::{parse_record, replay_message, wire::Part, Vision};
    /// # let record = parse_record(r#"[{"role": "user", "blocks": [{"type": "file", "media_type": "text/plain", "data": "aGk="}]}]"#)?;
    /// # let wire = replay_message(&record[0], Vision::Sees);
    /// # let Part::File(file) = &wire.content[0] else { unreachable!() };
    /// assert_eq!(file.name(), None);
    /// # Ok::<(), transcript_replay::RecordError>(())
    /// ```
    pub fn name(&self) -> Option<&'a str> {
        self.fields().2
    }

    /// The data as a request writes it: checked base64, with nothing to escape.
    pub(crate) fn data_json(&self) -> crate::json::Unescaped<&'a str> {
        crate::json::Unescaped(self.data())
    }
}

/// Where a [`File`]'s media type, data and name are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Source<'a> {
    Block(&'a Block),
    Tool(&'a ToolFile),
}

/// A file a tool returned (a PDF it made, a recording): its media type, its bytes in base64,
/// and its name when it has one. Sent natively in the result where the provider takes it
/// there, else in the user message after the results, as a tool's images are; stored as a
/// `file` block after the result.
///
/// It reads from, and writes as, `{"media_type", "data", "name"}`, `name` optional.
///
/// ```
/// use transcript_replay::{ToolFile, ToolOutput};
///
/// let output = ToolOutput::ok("call_1", "Saved.").with_named_file("r.pdf", "application/pdf", "JVBERi0=");
/// assert_eq!(output.files, [ToolFile { media_type: "application/pdf".into(), data: "JVBERi0=".into(), name: Some("r.pdf".into()) }]);
/// assert_eq!(
///     serde_json::to_string(&output.files[0]).unwrap(),
///     r#"{"media_type":"application/pdf","data":"JVBERi0=","name":"r.pdf"}"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolFile {
    /// The media type, such as `application/pdf`.
    pub media_type: String,
    /// The file's bytes in base64 (standard alphabet, `=` padding).
    pub data: String,
    /// The file's name, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `data:<media type>;base64,<data>`, the URL form of a file (OpenAI Chat's `file_data`,
/// Responses' `input_file`), written straight into the request as it is serialized; the
/// media type in lowercase, as OpenAI's checks spell it.
pub(crate) struct FileDataUrl<'p, 'a>(pub(crate) &'p File<'a>);

impl fmt::Display for FileDataUrl<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "data:{};base64,{}",
            lowercase(self.0.media_type()),
            self.0.data()
        )
    }
}

impl Serialize for FileDataUrl<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A checked media type and checked base64: nothing in it to escape.
        crate::json::Unescaped(self).serialize(serializer)
    }
}

/// Whether a media type has the form `type/subtype`, both restricted names of RFC 6838
/// section 4.2 (a letter or digit, then letters, digits and `!#$&-^_.+`, at most 127
/// characters). Parameters such as `; charset=...` are not part of the form.
///
/// A stored media type that fails it becomes the marker, since every provider that takes a
/// file checks its media type against a list.
pub(crate) fn is_media_type(media_type: &str) -> bool {
    media_type
        .split_once('/')
        .is_some_and(|(kind, subtype)| is_restricted_name(kind) && is_restricted_name(subtype))
}

/// The media type in lowercase, as the providers' lists spell it.
pub(crate) fn lowercase(media_type: &str) -> std::borrow::Cow<'_, str> {
    match media_type.bytes().any(|byte| byte.is_ascii_uppercase()) {
        true => std::borrow::Cow::Owned(media_type.to_ascii_lowercase()),
        false => std::borrow::Cow::Borrowed(media_type),
    }
}

/// The bytes of checked base64 (canonical, standard alphabet), decoded; symbols outside the
/// alphabet are skipped, so that no input makes it fail.
pub(crate) fn decode_base64(data: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4 * 3);
    let mut bits = 0u32;
    let mut count = 0;
    for value in data.bytes().filter_map(symbol_value) {
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}

/// A PDF's page count, read from its bytes: the number of page objects (`/Type /Page`, not
/// `/Pages`), which every PDF writer emits once per page. `None` when the bytes are not a PDF
/// (no `%PDF-` header) or name no page (a PDF whose page objects sit in compressed object
/// streams), so that the estimate falls back to its bound from the size.
pub(crate) fn pdf_pages(bytes: &[u8]) -> Option<usize> {
    if !bytes.starts_with(b"%PDF-") {
        return None;
    }
    let mut pages = 0;
    let mut rest = bytes;
    while let Some(found) = find(rest, b"/Type") {
        rest = rest.get(found + b"/Type".len()..).unwrap_or_default();
        let skipped = rest
            .iter()
            .take_while(|byte| matches!(byte, b' ' | b'\n' | b'\r' | b'\t'))
            .count();
        let value = rest.get(skipped..).unwrap_or_default();
        if value.starts_with(b"/Page") && !value.starts_with(b"/Pages") {
            pages += 1;
        }
    }
    (pages > 0).then_some(pages)
}

/// The pages a PDF in base64 counts for: its page objects, or, when they cannot be counted,
/// one a 2,000 bytes (at least one).
pub(crate) fn pdf_pages_of(data: &str) -> usize {
    let bytes = decode_base64(data);
    pdf_pages(&bytes).unwrap_or_else(|| bytes.len().div_ceil(2_000).max(1))
}

/// A WAV file's duration in whole seconds, rounded up: its `data` chunk's size over the byte
/// rate of its `fmt ` chunk. `None` when the bytes are not a RIFF WAVE file with both.
pub(crate) fn wav_seconds(bytes: &[u8]) -> Option<u64> {
    if bytes.get(..4)? != b"RIFF" || bytes.get(8..12)? != b"WAVE" {
        return None;
    }
    let mut at: usize = 12;
    let mut byte_rate = None;
    let word = |at: usize| -> Option<u32> {
        let four: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
        Some(u32::from_le_bytes(four))
    };
    while let Some(id) = bytes.get(at..at.checked_add(4)?) {
        let size = word(at.checked_add(4)?)? as usize;
        match id {
            b"fmt " => byte_rate = Some(word(at.checked_add(16)?)?),
            b"data" => {
                let rate = u64::from(byte_rate.filter(|rate| *rate > 0)?);
                return Some((size as u64).div_ceil(rate));
            }
            _ => {}
        }
        // Chunks are padded to an even size.
        at = at
            .checked_add(8)?
            .checked_add(size)?
            .checked_add(size % 2)?;
    }
    None
}

/// The name a file is sent under when the record gives it none (OpenAI requires a `filename`
/// with base64 data): `file` with the extension of its media type, where one is known.
pub(crate) fn name_or_default<'a>(
    name: Option<&'a str>,
    media_type: &str,
) -> std::borrow::Cow<'a, str> {
    match name {
        Some(name) => std::borrow::Cow::Borrowed(name),
        None => match extension(media_type) {
            Some(extension) => std::borrow::Cow::Owned(format!("file.{extension}")),
            None => std::borrow::Cow::Borrowed("file"),
        },
    }
}

/// The usual extension of a media type the providers take as a file.
pub(crate) fn extension(media_type: &str) -> Option<&'static str> {
    const EXTENSIONS: [(&str, &str); 24] = [
        ("application/pdf", "pdf"),
        ("text/plain", "txt"),
        ("text/markdown", "md"),
        ("text/x-markdown", "md"),
        ("text/md", "md"),
        ("text/html", "html"),
        ("text/xml", "xml"),
        ("application/xml", "xml"),
        ("text/csv", "csv"),
        ("application/json", "json"),
        ("application/rtf", "rtf"),
        ("application/msword", "doc"),
        (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "docx",
        ),
        ("application/vnd.oasis.opendocument.text", "odt"),
        ("application/vnd.ms-powerpoint", "ppt"),
        (
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "pptx",
        ),
        ("application/vnd.ms-excel", "xls"),
        (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "xlsx",
        ),
        ("audio/wav", "wav"),
        ("audio/x-wav", "wav"),
        ("audio/wave", "wav"),
        ("audio/mpeg", "mp3"),
        ("audio/mp3", "mp3"),
        ("video/mp4", "mp4"),
    ];
    let media_type = lowercase(media_type);
    EXTENSIONS
        .iter()
        .find(|(known, _)| *known == media_type.as_ref())
        .map(|&(_, extension)| extension)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_of_the_form_type_subtype_pass_and_others_do_not() {
        // (media type, has the form)
        let cases = [
            ("application/pdf", true),
            ("text/plain", true),
            (
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                true,
            ),
            ("audio/x-wav", true),
            ("Application/PDF", true),
            ("pdf", false),
            ("/pdf", false),
            ("application/", false),
            ("application/pdf; charset=utf-8", false),
            ("text/[plain]", false),
            ("", false),
        ];
        for (media_type, form) in cases {
            assert_eq!(is_media_type(media_type), form, "{media_type:?}");
        }
    }

    #[test]
    fn base64_decodes_to_its_bytes() {
        let cases: [(&str, &[u8]); 5] = [
            ("", b""),
            ("aGk=", b"hi"),
            ("aGVsbG8=", b"hello"),
            ("AAEC", &[0, 1, 2]),
            ("/w==", &[255]),
        ];
        for (data, bytes) in cases {
            assert_eq!(decode_base64(data), bytes, "{data}");
        }
    }

    #[test]
    fn a_pdf_counts_its_page_objects_and_not_its_page_tree() {
        let pdf = b"%PDF-1.7\n1 0 obj << /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>\n\
            2 0 obj << /Type /Page /Parent 1 0 R >>\n3 0 obj <</Type/Page>>\n";
        assert_eq!(pdf_pages(pdf), Some(2));
        assert_eq!(pdf_pages(b"%PDF-1.7\n1 0 obj << /Type /Pages >>"), None);
        assert_eq!(pdf_pages(b"not a pdf /Type /Page"), None);
    }

    #[test]
    fn a_wav_lasts_its_data_over_its_byte_rate() {
        let wav = |data: u32, rate: u32| {
            let mut bytes = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
            bytes.extend(16u32.to_le_bytes());
            bytes.extend([1, 0, 1, 0]);
            bytes.extend(16_000u32.to_le_bytes());
            bytes.extend(rate.to_le_bytes());
            bytes.extend([2, 0, 16, 0]);
            bytes.extend(b"data");
            bytes.extend(data.to_le_bytes());
            bytes
        };
        assert_eq!(wav_seconds(&wav(320_000, 32_000)), Some(10));
        assert_eq!(wav_seconds(&wav(320_001, 32_000)), Some(11));
        assert_eq!(wav_seconds(&wav(100, 0)), None);
        assert_eq!(wav_seconds(b"RIFF\0\0\0\0WAVE"), None);
        assert_eq!(wav_seconds(b"ID3"), None);
    }
}
