//! What an image's bytes say it is: its format and pixel size, read from the header alone.
//!
//! A record that says `image/png` over JPEG bytes, or over bytes that are no image at all, is
//! the classic poison: the provider answers "Image format image/png not supported" or "Could
//! not process image" on every later turn. The renderers therefore send the media type the
//! bytes actually have. Only header bytes are decoded, straight from the base64 text, with no
//! image library and no copy of the data.

use crate::media::image::symbol_value;

/// An image format a renderer recognizes by its bytes.
///
/// A record can say `image/png` over JPEG bytes, or over bytes that are no image at all, and a
/// provider that gets such an image rejects every later request of the conversation. So the
/// renderers trust the bytes: they read the signature at the start of the data, decoding only
/// header bytes straight from the base64 text, with no image library, and
///
/// - send the media type the bytes actually have, as the provider spells it (`image/png` over
///   JPEG bytes goes out as `image/jpeg`);
/// - turn data with no such signature into `[Image (image/png) not shown: its data is not a
///   PNG, JPEG, GIF, WEBP, HEIC or HEIF image]`;
/// - name the actual format when the provider refuses it (`Anthropic does not accept
///   image/heic`; AVIF, which shares HEIF's file format, is told apart by its brands and
///   refused by name everywhere);
/// - read the pixel size from the header (PNG, JPEG, GIF, WEBP) for pixel limits (for a GIF,
///   the largest of its logical screen and its frames; a side stated as 0 is kept, and the
///   other side still meets the limit), and count a GIF's frames for OpenAI's refusal of
///   animated GIFs. A header cut short after its signature still names its format; with no
///   size, no pixel limit can apply.
///
/// The neutral replay stays faithful to the record: this is the renderers' job. Checked by
/// `conformance/tests/conformance/render_images.rs` and `conformance/tests/conformance/adversarial.rs` (crafted
/// headers).
///
/// ```
/// use transcript_replay::wire::ImageFormat;
///
/// assert_eq!(ImageFormat::Webp.media_type(), "image/webp");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    /// `image/png`
    Png,
    /// `image/jpeg`
    Jpeg,
    /// `image/gif`
    Gif,
    /// `image/webp`
    Webp,
    /// `image/heic`
    Heic,
    /// `image/heif`
    Heif,
    /// `image/avif`: AV1 in the same ISO file format as HEIF, which no provider here takes.
    Avif,
}

impl ImageFormat {
    /// The format's media type, lowercase.
    ///
    /// ```
    /// assert_eq!(transcript_replay::wire::ImageFormat::Jpeg.media_type(), "image/jpeg");
    /// ```
    pub fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Webp => "image/webp",
            ImageFormat::Heic => "image/heic",
            ImageFormat::Heif => "image/heif",
            ImageFormat::Avif => "image/avif",
        }
    }
}

/// What the header of an image says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Signature {
    /// The format the bytes actually have.
    pub(crate) format: ImageFormat,
    /// Width and height in pixels, as the header states them (a side may be 0); `None` when
    /// the header is cut short before them, and for HEIC, HEIF and AVIF, whose size is deep
    /// in the file and which no provider limits by pixels.
    pub(crate) size: Option<(u32, u32)>,
    /// Whether a GIF has more than one frame.
    pub(crate) animated: bool,
}

/// Reads the signature of base64 `data`, which must already be valid base64; `None` when the
/// bytes begin with no PNG, JPEG, GIF, WEBP, HEIC, HEIF or AVIF signature.
///
/// A recognized signature is enough: a header cut short after it still names the format,
/// but gives no pixel size.
pub(crate) fn read(data: &str) -> Option<Signature> {
    let bytes = Base64Bytes::new(data);
    let (format, size) = if bytes.array(0) == Some(*b"\x89PNG\r\n\x1a\n") {
        (ImageFormat::Png, png_size(&bytes))
    } else if bytes.array(0) == Some([0xff, 0xd8, 0xff]) {
        (ImageFormat::Jpeg, jpeg_size(&bytes))
    } else if matches!(bytes.array(0), Some(b) if &b == b"GIF87a" || &b == b"GIF89a") {
        let screen = bytes
            .u16_le(6)
            .zip(bytes.u16_le(8))
            .map(|(width, height)| (u32::from(width), u32::from(height)));
        let frames = gif_frames(&bytes);
        // A frame may reach past the logical screen; the image is as large as its largest
        // extent, and that is what a pixel limit must see.
        let size =
            screen.map(|(width, height)| (width.max(frames.extent.0), height.max(frames.extent.1)));
        return Some(Signature {
            format: ImageFormat::Gif,
            size,
            animated: frames.count > 1,
        });
    } else if bytes.array(0) == Some(*b"RIFF") && bytes.array(8) == Some(*b"WEBP") {
        (ImageFormat::Webp, webp_size(&bytes))
    } else if bytes.array(4) == Some(*b"ftyp") {
        (iso_image_format(&bytes)?, None)
    } else {
        return None;
    };
    Some(Signature {
        format,
        size,
        animated: false,
    })
}

fn png_size(bytes: &Base64Bytes<'_>) -> Option<(u32, u32)> {
    // The first chunk is IHDR: width and height, big-endian, after its length and type.
    if bytes.array::<4>(12)? != *b"IHDR" {
        return None;
    }
    Some((bytes.u32_be(16)?, bytes.u32_be(20)?))
}

fn jpeg_size(bytes: &Base64Bytes<'_>) -> Option<(u32, u32)> {
    // Walk the segments to the first start-of-frame, which holds the size. Each step moves
    // forward by at least one byte, so the walk ends.
    let mut at = 2;
    loop {
        if bytes.byte(at)? != 0xff {
            return None;
        }
        let marker = bytes.byte(at + 1)?;
        match marker {
            // Fill bytes before a marker.
            0xff => at += 1,
            // Markers that stand alone, without a length.
            0x01 | 0xd0..=0xd7 => at += 2,
            // Start of frame (not DHT, JPG or DAC, which share the range).
            0xc0..=0xcf if !matches!(marker, 0xc4 | 0xc8 | 0xcc) => {
                let height = u32::from(bytes.u16_be(at + 5)?);
                let width = u32::from(bytes.u16_be(at + 7)?);
                // A height of 0 is legal (a later DNL marker defines it); the width must
                // still meet a limit, so the size is kept as stated.
                return Some((width, height));
            }
            // The image data or its end came before any frame header.
            0xd8..=0xda => return None,
            _ => at += 2 + usize::from(bytes.u16_be(at + 2)?),
        }
    }
}

/// What a GIF's frames say: how many whole frames there are, and how far the largest
/// reaches (left + width, top + height).
#[derive(Default)]
struct GifFrames {
    count: usize,
    extent: (u32, u32),
}

/// Walks a GIF's blocks, reading only descriptors and lengths, to count its whole frames and
/// their extent; the walk stops where the stream ends, is cut short, or has its trailer.
fn gif_frames(bytes: &Base64Bytes<'_>) -> GifFrames {
    let mut frames = GifFrames::default();
    let Some(flags) = bytes.byte(10) else {
        return frames;
    };
    let mut at = Some(13 + color_table(flags));
    while let Some(block) = at {
        at = match bytes.byte(block) {
            // Extension: a label, then sub-blocks.
            Some(0x21) => skip_sub_blocks(bytes, block + 2),
            // Image descriptor: left, top, width, height (u16 each), flags, a local color
            // table, the LZW code size, sub-blocks.
            Some(0x2c) => {
                let end = bytes
                    .byte(block + 9)
                    .and_then(|flags| skip_sub_blocks(bytes, block + 10 + color_table(flags) + 1));
                let field = |offset| bytes.u16_le(block + offset).map(u32::from);
                if let (Some(_), Some(left), Some(top), Some(width), Some(height)) =
                    (end, field(1), field(3), field(5), field(7))
                {
                    frames.count += 1;
                    frames.extent.0 = frames.extent.0.max(left + width);
                    frames.extent.1 = frames.extent.1.max(top + height);
                }
                end
            }
            // The trailer, anything else, or the end of the data.
            _ => None,
        };
    }
    frames
}

fn color_table(flags: u8) -> usize {
    if flags & 0x80 == 0 {
        0
    } else {
        3 << ((flags & 0x07) + 1)
    }
}

/// The offset after a run of GIF sub-blocks that starts at `at`.
fn skip_sub_blocks(bytes: &Base64Bytes<'_>, mut at: usize) -> Option<usize> {
    loop {
        let length = usize::from(bytes.byte(at)?);
        at += 1 + length;
        if length == 0 {
            return Some(at);
        }
    }
}

fn webp_size(bytes: &Base64Bytes<'_>) -> Option<(u32, u32)> {
    match &bytes.array::<4>(12)? {
        // Lossy: a key frame's start code, then 14-bit width and height.
        b"VP8 " => {
            if bytes.array::<3>(23)? != [0x9d, 0x01, 0x2a] {
                return None;
            }
            let width = u32::from(bytes.u16_le(26)? & 0x3fff);
            let height = u32::from(bytes.u16_le(28)? & 0x3fff);
            Some((width, height))
        }
        // Lossless: a signature byte, then width - 1 and height - 1 in 14 bits each.
        b"VP8L" => {
            if bytes.byte(20)? != 0x2f {
                return None;
            }
            let bits = u32::from_le_bytes(bytes.array(21)?);
            Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1))
        }
        // Extended: the canvas width - 1 and height - 1, 24 bits each.
        b"VP8X" => {
            let [w0, w1, w2, h0, h1, h2] = bytes.array(24)?;
            let width = u32::from_le_bytes([w0, w1, w2, 0]) + 1;
            let height = u32::from_le_bytes([h0, h1, h2, 0]) + 1;
            Some((width, height))
        }
        _ => None,
    }
}

/// AVIF, HEIC or HEIF, by the brands of an ISO media file's `ftyp` box (a major brand, a
/// version, then compatible brands); `None` for other ISO media, such as MP4.
///
/// An AVIF file also lists the generic HEIF brands (`mif1`, `miaf`), so an AV1 brand decides
/// first, then an HEVC brand, and the generic brands only when neither is there.
fn iso_image_format(bytes: &Base64Bytes<'_>) -> Option<ImageFormat> {
    let box_size = usize::try_from(bytes.u32_be(0)?).ok()?;
    let brands = (8..box_size.min(64)).step_by(4).filter(|&at| at != 12);
    let (mut avif, mut heic, mut heif) = (false, false, false);
    // The brands read before the data ends decide, as a signature cut short still names
    // its format.
    for at in brands {
        let Some(brand) = bytes.array::<4>(at) else {
            break;
        };
        match &brand {
            b"avif" | b"avis" => avif = true,
            b"heic" | b"heix" | b"heim" | b"heis" | b"hevc" | b"hevx" => heic = true,
            b"mif1" | b"msf1" | b"heif" => heif = true,
            _ => {}
        }
    }
    match (avif, heic, heif) {
        (true, _, _) => Some(ImageFormat::Avif),
        (false, true, _) => Some(ImageFormat::Heic),
        (false, false, true) => Some(ImageFormat::Heif),
        (false, false, false) => None,
    }
}

/// The bytes that valid base64 text stands for, read at any offset without decoding the rest.
struct Base64Bytes<'a> {
    text: &'a [u8],
}

impl<'a> Base64Bytes<'a> {
    fn new(text: &'a str) -> Self {
        Base64Bytes {
            text: text.as_bytes(),
        }
    }

    /// The byte at `offset`, or `None` past the end.
    fn byte(&self, offset: usize) -> Option<u8> {
        let start = (offset / 3).checked_mul(4)?;
        let group = self.text.get(start..)?.get(..4)?;
        let value = |symbol: u8| symbol_value(symbol).map(u32::from);
        let [a, b, c, d] = [group.first()?, group.get(1)?, group.get(2)?, group.get(3)?];
        match offset % 3 {
            0 => Some(((value(*a)? << 2) | (value(*b)? >> 4)) as u8),
            1 => Some((((value(*b)? & 0x0f) << 4) | (value(*c)? >> 2)) as u8),
            _ => Some((((value(*c)? & 0x03) << 6) | value(*d)?) as u8),
        }
    }

    fn array<const N: usize>(&self, offset: usize) -> Option<[u8; N]> {
        let mut out = [0; N];
        for (index, byte) in out.iter_mut().enumerate() {
            *byte = self.byte(offset.checked_add(index)?)?;
        }
        Some(out)
    }

    fn u16_be(&self, offset: usize) -> Option<u16> {
        self.array(offset).map(u16::from_be_bytes)
    }

    fn u16_le(&self, offset: usize) -> Option<u16> {
        self.array(offset).map(u16::from_le_bytes)
    }

    fn u32_be(&self, offset: usize) -> Option<u32> {
        self.array(offset).map(u32::from_be_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_read_at_any_offset() {
        // "Man" "Ma" "M" in base64.
        let bytes = Base64Bytes::new("TWFuTWE=TQ==");
        assert_eq!(bytes.array::<3>(0), Some(*b"Man"));
        assert_eq!(bytes.byte(3), Some(b'M'));
        assert_eq!(bytes.byte(4), Some(b'a'));
        assert_eq!(bytes.byte(6), Some(b'M'));
        assert_eq!(bytes.byte(7), None, "padding stands for no byte");
        assert_eq!(bytes.byte(9), None);
        assert_eq!(bytes.byte(usize::MAX), None);
    }
}
