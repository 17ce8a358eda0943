//! The markers the crate writes where an image is not shown: why, said plainly, so that a
//! model told it did not look can say so; and the one way a stored media type is shown in
//! them.
//!
//! A marker is a line of the crate's own making, so stored data cannot forge one: in the media
//! type a marker shows, `[`, `]`, `(`, `)`, `\`, control characters, line breaks and non-ASCII
//! characters are written as `\u{…}` escapes, and a media type longer than 64 characters is
//! cut short with `...`.
//!
//! Every reason is the crate's exact wording: replay's own (`this model cannot view images`,
//! `its media type is not an image type`, `its stored data is not valid base64`), and a
//! provider's, each naming the provider. A marker states a limit only when that limit is why
//! the image was withheld. Why: `docs/design.md#markers` in the repository.
//!
//! # Guarantees
//!
//! - **The exact prose and markers**, byte for byte (`tests/spec/replay_golden.rs`,
//!   `tests/spec/render_golden.rs`).
//! - **No forged markers**: media types that try to forge a marker are escaped
//!   (`conformance/tests/conformance/adversarial.rs`).

use std::fmt::{self, Write as _};

use crate::media::signature::ImageFormat;
use crate::provider::Provider;

/// An output item of the round in flight that takes text only: a tool's images and files in
/// it are markers ([`Reason::NotInOutput`]).
///
/// ```
/// use transcript_replay::wire::TextOnlyOutput;
/// assert_eq!(TextOnlyOutput::Shell.as_str(), "shell_call_output");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextOnlyOutput {
    /// Responses' `shell_call_output`.
    Shell,
    /// Responses' `local_shell_call_output`.
    LocalShell,
    /// Responses' `apply_patch_call_output`.
    ApplyPatch,
}

impl TextOnlyOutput {
    /// The output item's type, as the request spells it.
    ///
    /// ```
    /// use transcript_replay::wire::TextOnlyOutput;
    /// assert_eq!(TextOnlyOutput::ApplyPatch.as_str(), "apply_patch_call_output");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            TextOnlyOutput::Shell => "shell_call_output",
            TextOnlyOutput::LocalShell => "local_shell_call_output",
            TextOnlyOutput::ApplyPatch => "apply_patch_call_output",
        }
    }
}

/// Why an image or a file is not shown. Each reason is said plainly in the marker, so a model
/// told it did not look can say so; a file's marker says `files` where an image's says
/// `images` (`this model cannot view files`).
///
/// The first three come from replay; the others from a renderer, and name its provider.
///
/// ```
/// use transcript_replay::{wire::Piece, Provider, wire::Reason};
///
/// let gemini: Provider = "gemini".parse().unwrap();
/// let reason = Reason::MediaType { provider: gemini, actual: None };
/// let marker = Piece::ImageNotShown { media_type: "image/gif", reason };
/// assert_eq!(marker.to_string(), "[Image (image/gif) not shown: Gemini does not accept image/gif]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// `this model cannot view images`: replayed with [`Vision::Blind`](crate::replay::Vision::Blind).
    Blind,
    /// `its media type is not an image type`: the media type is not `image/<subtype>`.
    NotAnImageType,
    /// `its stored data is not valid base64`: empty, or not canonical standard base64.
    InvalidBase64,
    /// `{provider} does not accept {media type}`: the media type the bytes have, or the
    /// stored one when the bytes say nothing.
    MediaType {
        /// The provider.
        provider: Provider,
        /// The format the bytes actually have, when it differs from the stored media type.
        actual: Option<ImageFormat>,
    },
    /// `{provider} accepts images only in user messages`.
    Role(Provider),
    /// `{provider} does not accept images in system instructions`: for a provider that takes
    /// images in both conversation roles (Gemini), an image of a hoisted system message.
    SystemInstructions(Provider),
    /// `{provider} accepts no images after a tool result`: a tool's image in the round in
    /// flight, for a server that takes no message after its `tool` messages but the model's
    /// ([`ToolImages::Marker`](crate::dialects::ToolImages::Marker)).
    AfterToolResults(Provider),
    /// `{provider} takes no images in a {item}`: a tool's image in an output item that takes
    /// text only (Responses' `shell_call_output`, `local_shell_call_output`,
    /// `apply_patch_call_output`).
    NotInOutput {
        /// The provider.
        provider: Provider,
        /// The output item.
        item: TextOnlyOutput,
    },
    /// `its data is not a PNG, JPEG, GIF, WEBP, HEIC or HEIF image`: the bytes have no
    /// image signature a renderer can read, or their header is cut short. (AVIF is read, and
    /// refused by name: no provider here takes it.)
    UnrecognizedData,
    /// `{provider} does not accept animated GIFs`.
    AnimatedGif(Provider),
    /// `it is larger than {provider}'s limit of {limit} per image`.
    TooLarge {
        /// The provider.
        provider: Provider,
        /// The limit on the base64 text of one image.
        limit: usize,
    },
    /// `it is {width}x{height} pixels, over {provider}'s limit of {limit}x{limit}`.
    TooManyPixels {
        /// The provider.
        provider: Provider,
        /// The image's width.
        width: u32,
        /// The image's height.
        height: u32,
        /// The most pixels on either side.
        limit: u32,
    },
    /// `{provider} takes at most {limit} images a request, and the newest are kept`: newer
    /// images fill the request (withheld in steps; see
    /// [`ImageLimits::withholding_step`](crate::render::rules::ImageLimits::withholding_step)).
    TooManyImages {
        /// The provider.
        provider: Provider,
        /// How many images one request may carry.
        limit: usize,
    },
    /// `{provider} takes at most {limit} of image data a request, and the newest images are
    /// kept`.
    RequestTooLarge {
        /// The provider.
        provider: Provider,
        /// How much base64 text the images of one request may add up to.
        limit: usize,
    },
    /// `{provider} takes at most {limit} of image and file data a request, and the newest are
    /// kept`: where the provider's limit is the whole request's (Anthropic's and Gemini's
    /// request size), its images and files are one budget, and the record had both when this
    /// one was withheld.
    MediaTooLarge {
        /// The provider.
        provider: Provider,
        /// How much base64 text the images and files of one request may add up to.
        limit: usize,
    },
    /// `{provider} takes at most {images} images a request when any is over
    /// {pixels}x{pixels} pixels, and the newest are kept`: a newer image is larger than the
    /// provider allows once a request carries more than `images` images.
    ManyImages {
        /// The provider.
        provider: Provider,
        /// How many images a request may carry before the pixel limit applies.
        images: usize,
        /// The most pixels on either side beyond that many images.
        pixels: u32,
    },
    /// `it is shown in the next user message`: an image of an assistant turn (a tool's
    /// screenshot), for a provider that takes images only in user messages, carried natively
    /// to the start of the next user message of the request.
    ShownInNextUserMessage,
    /// `withheld to fit the context window`: one of the oldest native images, withheld for a
    /// [`Budget`](crate::Budget).
    Fit,
    /// `{provider} takes at most {limit} PDF pages a request, and the newest files are kept`.
    TooManyPages {
        /// The provider.
        provider: Provider,
        /// How many PDF pages one request may carry.
        limit: usize,
    },
    /// `{provider} takes text files only as UTF-8 text`: a text file for a provider that takes
    /// text files as text (Anthropic's plain-text documents), whose bytes are not UTF-8.
    NotUtf8Text(Provider),
}

impl Reason {
    pub(crate) fn describe(self, media_type: &str) -> impl fmt::Display + '_ {
        Described {
            reason: self,
            media_type,
            kind: Kind::Image,
        }
    }

    /// The reason as a file's marker says it: the image reasons, with `images` reading
    /// `files` (`this model cannot view files`, `Bedrock takes at most 5 files a request`).
    pub(crate) fn describe_file(self, media_type: &str) -> impl fmt::Display + '_ {
        Described {
            reason: self,
            media_type,
            kind: Kind::File,
        }
    }
}

/// What a marker stands for.
#[derive(Clone, Copy)]
enum Kind {
    Image,
    File,
}

impl Kind {
    fn one(self) -> &'static str {
        match self {
            Kind::Image => "image",
            Kind::File => "file",
        }
    }

    fn many(self) -> &'static str {
        match self {
            Kind::Image => "images",
            Kind::File => "files",
        }
    }
}

struct Described<'a> {
    reason: Reason,
    media_type: &'a str,
    kind: Kind,
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            Reason::Blind => write!(f, "this model cannot view {}", self.kind.many()),
            Reason::NotAnImageType => f.write_str("its media type is not an image type"),
            Reason::InvalidBase64 => f.write_str("its stored data is not valid base64"),
            Reason::MediaType { provider, actual } => match actual {
                Some(actual) => write!(f, "{provider} does not accept {}", actual.media_type()),
                None => write!(
                    f,
                    "{provider} does not accept {}",
                    ShownMediaType(self.media_type)
                ),
            },
            Reason::Role(provider) => {
                write!(
                    f,
                    "{provider} accepts {} only in user messages",
                    self.kind.many()
                )
            }
            Reason::SystemInstructions(provider) => {
                write!(
                    f,
                    "{provider} does not accept {} in system instructions",
                    self.kind.many()
                )
            }
            Reason::AfterToolResults(provider) => write!(
                f,
                "{provider} accepts no {} after a tool result",
                self.kind.many()
            ),
            Reason::NotInOutput { provider, item } => write!(
                f,
                "{provider} takes no {} in a {}",
                self.kind.many(),
                item.as_str()
            ),
            Reason::UnrecognizedData => {
                f.write_str("its data is not a PNG, JPEG, GIF, WEBP, HEIC or HEIF image")
            }
            Reason::AnimatedGif(provider) => write!(f, "{provider} does not accept animated GIFs"),
            Reason::TooLarge { provider, limit } => write!(
                f,
                "it is larger than {provider}'s limit of {} per {}",
                Megabytes(limit),
                self.kind.one()
            ),
            Reason::TooManyPixels {
                provider,
                width,
                height,
                limit,
            } => write!(
                f,
                "it is {width}x{height} pixels, over {provider}'s limit of {limit}x{limit}"
            ),
            Reason::TooManyImages { provider, limit } => write!(
                f,
                "{provider} takes at most {limit} {} a request, and the newest are kept",
                self.kind.many()
            ),
            Reason::RequestTooLarge { provider, limit } => write!(
                f,
                "{provider} takes at most {} of {} data a request, and the newest {} are kept",
                Megabytes(limit),
                self.kind.one(),
                self.kind.many()
            ),
            Reason::MediaTooLarge { provider, limit } => write!(
                f,
                "{provider} takes at most {} of image and file data a request, and the newest \
                 are kept",
                Megabytes(limit)
            ),
            Reason::ManyImages {
                provider,
                images,
                pixels,
            } => write!(
                f,
                "{provider} takes at most {images} images a request when any is over \
                 {pixels}x{pixels} pixels, and the newest are kept"
            ),
            Reason::ShownInNextUserMessage => f.write_str("it is shown in the next user message"),
            Reason::Fit => f.write_str(WITHHELD),
            Reason::NotUtf8Text(provider) => {
                write!(f, "{provider} takes text files only as UTF-8 text")
            }
            Reason::TooManyPages { provider, limit } => write!(
                f,
                "{provider} takes at most {limit} PDF pages a request, and the newest files are \
                 kept"
            ),
        }
    }
}

/// The text block a reply's content of a kind the crate does not read becomes, where it stood:
/// `[Not kept: {provider} {type} content]`, the type shown as a media type is in a marker, so
/// that the model is told, and a runtime can find it; a finished reply is never refused for
/// what it contains.
pub(crate) fn not_kept(provider: Provider, kind: &str) -> String {
    format!("[Not kept: {provider} {} content]", ShownMediaType(kind))
}

/// What every mark of a budget's withholding says.
pub(crate) const WITHHELD: &str = "withheld to fit the context window";

/// A byte count as providers state their limits: whole megabytes (of 2^20 or 10^6 bytes,
/// whichever divides it), else bytes.
struct Megabytes(usize);

impl fmt::Display for Megabytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            bytes if bytes > 0 && bytes % (1 << 20) == 0 => write!(f, "{} MB", bytes >> 20),
            bytes if bytes > 0 && bytes % 1_000_000 == 0 => write!(f, "{} MB", bytes / 1_000_000),
            bytes => write!(f, "{bytes} bytes"),
        }
    }
}

/// At most this many characters of a stored media type are shown in a marker.
const SHOWN_CHARS: usize = 64;

/// A stored media type (or another stored value, such as a call's id) as a marker shows it.
///
/// A marker is a line of the crate's own making, so stored data must never be able to close
/// it early or forge another: characters that could (`[`, `]`, `(`, `)`, `\`, control and
/// non-ASCII characters, and line breaks) are shown as `\u{…}` escapes, and a media type
/// longer than 64 characters is cut short with `...`.
pub(crate) struct ShownMediaType<'a>(pub(crate) &'a str);

impl fmt::Display for ShownMediaType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, c) in self.0.chars().enumerate() {
            if index == SHOWN_CHARS {
                return f.write_str("...");
            }
            let plain =
                (c.is_ascii_graphic() || c == ' ') && !matches!(c, '[' | ']' | '(' | ')' | '\\');
            if plain {
                f.write_char(c)?;
            } else {
                write!(f, "\\u{{{:x}}}", u32::from(c))?;
            }
        }
        Ok(())
    }
}
