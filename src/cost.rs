//! What a history costs before it is sent: the exact bytes of a body or fragment, the text
//! the model reads, and its native images, each priced by the provider's published rule for
//! the model family.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::io;
use std::rc::Rc;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::{signature, Part, Text};

/// The cost of a body or fragment, in total and per message, in the order the body carries
/// them (its system text first, when it has one).
///
/// It serializes as `{"bytes":N,"text_tokens":N,"images":N,"image_tokens":N,"messages":[...]}`,
/// each message with the same four figures.
///
/// - `bytes`: exactly what the body serializes to (`serde_json::to_vec(&body)?.len()`);
///   a message's bytes are those of its own JSON in the body.
/// - `text_tokens`: the text parts, counted by [`estimate_tokens`](crate::estimate_tokens) or
///   by the caller's tokenizer, called with the exact text of each part as it is sent. A
///   withheld image costs its marker's text, which is a text part.
/// - `images` and `image_tokens`: the native images, priced from their pixel size by an
///   [`ImageTokens`] rule.
///
/// ```
/// use transcript_replay::{anthropic, image_tokens, Priced, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Is a.rs empty?"), StoredMessage::assistant("Yes.")];
/// let live = [StoredMessage::user("And b.rs?")];
/// let body = anthropic::body(&Turn::new(&history).live(&live))?;
/// let estimate = body.estimate(image_tokens("claude").unwrap());
/// assert_eq!(estimate.bytes, serde_json::to_vec(&body).unwrap().len());
/// assert_eq!(estimate.messages.len(), 4); // the system text, then three messages
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Estimate {
    /// The bytes of the whole body or fragment.
    pub bytes: usize,
    /// The tokens of every text part.
    pub text_tokens: usize,
    /// How many images are sent natively.
    pub images: usize,
    /// The tokens of those images.
    pub image_tokens: u64,
    /// The same figures for each message, in order.
    pub messages: Vec<Cost>,
}

/// The cost of one message of a body: the same figures as [`Estimate`], for it alone.
///
/// ```
/// let cost = transcript_replay::Cost::default();
/// assert_eq!(serde_json::to_string(&cost).unwrap(), r#"{"bytes":0,"text_tokens":0,"images":0,"image_tokens":0}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Cost {
    /// The bytes of the message's own JSON.
    pub bytes: usize,
    /// The tokens of its text parts.
    pub text_tokens: usize,
    /// How many images it sends natively.
    pub images: usize,
    /// The tokens of those images.
    pub image_tokens: u64,
}

/// A body or fragment whose cost can be estimated before it is sent: every provider's
/// `Body` and `Request`.
///
/// ```
/// use transcript_replay::{gemini, image_tokens, replay_messages, Priced, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let fragment = gemini::render(&replay_messages(&record, Vision::Sees));
/// let estimate = fragment.estimate_with(image_tokens("gemini-2").unwrap(), |text| text.split(' ').count());
/// assert_eq!((estimate.text_tokens, estimate.images), (1, 0));
/// ```
pub trait Priced: Serialize + sealed::Sealed {
    /// The message-sized units of the body, in order, with their bytes and content.
    #[doc(hidden)]
    fn units(&self) -> Vec<Unit<'_>>;

    /// The cost, with the default text estimate ([`estimate_tokens`](crate::estimate_tokens)).
    fn estimate(&self, images: &ImageTokens) -> Estimate {
        estimate(self, images, &mut TextCount::Default)
    }

    /// The cost, with the caller's own counter of a text's tokens (a tokenizer), called with
    /// the exact text of each text part.
    fn estimate_with(&self, images: &ImageTokens, mut count: impl FnMut(&str) -> usize) -> Estimate
    where
        Self: Sized,
    {
        estimate(self, images, &mut TextCount::Caller(&mut count))
    }
}

pub(crate) mod sealed {
    /// Only the crate's own bodies and fragments are [`Priced`](super::Priced).
    pub trait Sealed {}
}

/// One message-sized unit of a body, as [`Priced`] walks it: what it carries. Its bytes are
/// measured in the one pass that measures the whole body.
#[doc(hidden)]
pub struct Unit<'a> {
    content: Content<'a>,
}

enum Content<'a> {
    Parts(&'a [Part<'a>]),
    Texts(&'a [Text<'a>]),
    Raw(&'a RawValue),
}

impl<'a> Unit<'a> {
    /// A message of parts.
    pub(crate) fn parts(parts: &'a [Part<'a>]) -> Self {
        Unit {
            content: Content::Parts(parts),
        }
    }

    /// System text blocks.
    pub(crate) fn texts(texts: &'a [Text<'a>]) -> Self {
        Unit {
            content: Content::Texts(texts),
        }
    }

    /// A caller's own message, sent as it is: its text is estimated as a whole.
    pub(crate) fn raw(raw: &'a RawValue) -> Self {
        Unit {
            content: Content::Raw(raw),
        }
    }
}

/// A body's units, in the order every body writes them: its system text, when it has one,
/// then its turns, then the caller's appended messages.
pub(crate) fn units<'a>(
    system: Option<Unit<'a>>,
    turns: impl Iterator<Item = &'a [Part<'a>]>,
    appended: &'a [Box<RawValue>],
) -> Vec<Unit<'a>> {
    system
        .into_iter()
        .chain(turns.map(Unit::parts))
        .chain(appended.iter().map(|raw| Unit::raw(raw)))
        .collect()
}

/// The keys of a body's system text, whose value is one unit.
const SYSTEM_KEYS: [&str; 3] = ["system", "systemInstruction", "instructions"];

/// The keys of a body's list of turns, each element of which is one unit.
const TURN_KEYS: [&str; 3] = ["messages", "contents", "input"];

/// Measures a body in one pass through its own serializer, counting bytes as they are
/// written and never keeping them: the total, and the bytes of each unit (the system text's
/// value, then each element of the list of turns).
fn measure(value: &(impl Serialize + ?Sized)) -> (usize, Vec<usize>) {
    let position = Rc::new(Cell::new(0));
    let units = Rc::new(RefCell::new(Vec::new()));
    let writer = Counter(Rc::clone(&position));
    let formatter = Measuring {
        position: Rc::clone(&position),
        depth: 0,
        key: String::new(),
        in_key: false,
        list: false,
        start: 0,
        units: Rc::clone(&units),
    };
    let mut serializer = serde_json::Serializer::with_formatter(writer, formatter);
    // A counter never fails to write, and the crate's values always serialize.
    let _ = value.serialize(&mut serializer);
    drop(serializer);
    let units = units.take();
    (position.get(), units)
}

/// A writer that only counts, into a position the formatter reads.
struct Counter(Rc<Cell<usize>>);

impl io::Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.set(self.0.get() + bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact format, byte for byte, that notes where each unit starts and ends.
struct Measuring {
    position: Rc<Cell<usize>>,
    /// How deep in objects and arrays the writer is: 1 inside the body's own object.
    depth: usize,
    /// The key of the body's field being written, and whether it is being written.
    key: String,
    in_key: bool,
    /// Whether the body's list of turns is being written.
    list: bool,
    start: usize,
    units: Rc<RefCell<Vec<usize>>>,
}

impl serde_json::ser::Formatter for Measuring {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"]")
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        if self.list && self.depth == 2 {
            self.start = self.position.get();
        }
        Ok(())
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.list && self.depth == 2 {
            self.units
                .borrow_mut()
                .push(self.position.get() - self.start);
        }
        Ok(())
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if self.depth == 1 {
            self.key.clear();
            self.in_key = true;
        }
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        writer.write_all(fragment.as_bytes())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b":")?;
        if self.depth == 1 {
            self.list = TURN_KEYS.contains(&self.key.as_str());
            self.start = self.position.get();
        }
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.depth == 1 {
            if SYSTEM_KEYS.contains(&self.key.as_str()) {
                self.units
                    .borrow_mut()
                    .push(self.position.get() - self.start);
            }
            self.list = false;
        }
        Ok(())
    }
}

/// Who counts a text's tokens.
enum TextCount<'f> {
    /// [`estimate_tokens`](crate::estimate_tokens), fed as the text is written.
    Default,
    /// The caller's counter, with the text built once.
    Caller(&'f mut dyn FnMut(&str) -> usize),
}

impl TextCount<'_> {
    fn count(&mut self, text: &impl fmt::Display) -> usize {
        match self {
            TextCount::Default => {
                let mut estimate = crate::tokens::Streaming::default();
                let _ = fmt::write(&mut estimate, format_args!("{text}"));
                estimate.finish()
            }
            TextCount::Caller(count) => count(&text.to_string()),
        }
    }
}

fn estimate(
    body: &(impl Priced + ?Sized),
    rule: &ImageTokens,
    count: &mut TextCount<'_>,
) -> Estimate {
    let (bytes, unit_bytes) = measure(body);
    let mut estimate = Estimate {
        bytes,
        ..Estimate::default()
    };
    // The units are the body's system text and turns, in the order it writes them.
    let units = body.units();
    debug_assert_eq!(unit_bytes.len(), units.len());
    let unit_bytes = unit_bytes.into_iter().chain(std::iter::repeat(0));
    for (unit, unit_bytes) in units.into_iter().zip(unit_bytes) {
        let mut cost = Cost {
            bytes: unit_bytes,
            ..Cost::default()
        };
        match unit.content {
            Content::Parts(parts) => {
                for part in parts {
                    match part {
                        Part::Text(text) => cost.text_tokens += count.count(text),
                        Part::Image(image) => {
                            cost.images += 1;
                            cost.image_tokens +=
                                match signature::read(image.data()).and_then(|s| s.size) {
                                    Some((width, height)) => rule.tokens(width, height),
                                    None => rule.tokens_of_unknown_size(),
                                };
                        }
                    }
                }
            }
            Content::Texts(texts) => {
                for text in texts {
                    cost.text_tokens += count.count(text);
                }
            }
            Content::Raw(raw) => cost.text_tokens += count.count(&raw.get()),
        }
        estimate.text_tokens += cost.text_tokens;
        estimate.images += cost.images;
        estimate.image_tokens += cost.image_tokens;
        estimate.messages.push(cost);
    }
    estimate
}

/// How a model family prices an image, from its pixel size: the provider's published rule,
/// as data, with its source and the date it was read.
///
/// The crate's rules are in [`IMAGE_TOKENS`] (look one up with [`image_tokens`]); a caller may
/// make its own for a family the crate does not list.
///
/// ```
/// use transcript_replay::{image_tokens, ImageRule, ImageTokens};
///
/// // OpenAI's worked example: a 1024x1024 image at high detail on GPT-4o is 765 tokens.
/// assert_eq!(image_tokens("gpt-4o").unwrap().tokens(1024, 1024), 765);
/// let mine = ImageTokens { family: "my-model", rule: ImageRule::Flat(500), source: "my notes", date: "2026-11-30" };
/// assert_eq!(mine.tokens(4000, 3000), 500);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageTokens {
    /// The family's name, as `image_tokens` and the example's `--family` take it.
    pub family: &'static str,
    /// How the family prices an image.
    pub rule: ImageRule,
    /// Where the rule is published.
    pub source: &'static str,
    /// When the rule was read there.
    pub date: &'static str,
}

/// The shapes the providers' published image-token rules take.
///
/// ```
/// use transcript_replay::ImageRule;
///
/// let anthropic = ImageRule::Patches28 { max_long_edge: 1568, max_tokens: 1568 };
/// assert_eq!(anthropic.tokens(200, 200), 64);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ImageRule {
    /// Anthropic: `ceil(w/28) * ceil(h/28)` tokens, after the largest aspect-preserving
    /// resize that keeps the long edge within `max_long_edge` and the tokens within
    /// `max_tokens`.
    Patches28 {
        /// The longest side, in pixels.
        max_long_edge: u32,
        /// The most tokens an image may cost.
        max_tokens: u32,
    },
    /// Anthropic's older rule: `w * h / 750` tokens, after scaling the long edge to at most
    /// `max_long_edge`.
    Area {
        /// The pixels that make one token.
        divisor: u32,
        /// The longest side, in pixels.
        max_long_edge: u32,
    },
    /// OpenAI tile models at high (or auto) detail: scale to fit 2048x2048, then the
    /// shortest side to 768; `base + per_tile * tiles` of 512x512.
    Tiles {
        /// The tokens of any image.
        base: u32,
        /// The tokens of each 512x512 tile.
        per_tile: u32,
    },
    /// OpenAI patch models: `ceil(w/32) * ceil(h/32)` patches, scaled down to at most
    /// `max_patches`, times a multiplier (in thousandths).
    Patches32 {
        /// The most patches an image may have.
        max_patches: u32,
        /// Tokens per patch, in thousandths.
        multiplier_milli: u32,
    },
    /// Gemini 2.x: 258 tokens when both sides are at most 384 pixels, else 258 for each
    /// 768x768 tile.
    GeminiTiles,
    /// A flat count for any image (Gemini 3's `media_resolution` levels).
    Flat(u32),
}

impl ImageTokens {
    /// The tokens of an image of the given size.
    ///
    /// ```
    /// let claude = transcript_replay::image_tokens("claude").unwrap();
    /// assert_eq!(claude.tokens(1920, 1080), 1560);
    /// ```
    pub fn tokens(&self, width: u32, height: u32) -> u64 {
        self.rule.tokens(width, height)
    }

    /// The tokens of an image whose size its header does not give: the most an image can
    /// cost under the rule, or, for a rule without a most, the cost of a 2048x2048 image.
    ///
    /// ```
    /// let claude = transcript_replay::image_tokens("claude").unwrap();
    /// assert_eq!(claude.tokens_of_unknown_size(), 1568);
    /// ```
    pub fn tokens_of_unknown_size(&self) -> u64 {
        self.rule.tokens_of_unknown_size()
    }
}

impl ImageRule {
    /// The tokens of an image of the given size under this rule.
    ///
    /// ```
    /// use transcript_replay::ImageRule;
    ///
    /// assert_eq!(ImageRule::Tiles { base: 85, per_tile: 170 }.tokens(2048, 4096), 1105);
    /// ```
    pub fn tokens(self, width: u32, height: u32) -> u64 {
        let (width, height) = (u64::from(width.max(1)), u64::from(height.max(1)));
        match self {
            ImageRule::Patches28 {
                max_long_edge,
                max_tokens,
            } => patches28(
                width,
                height,
                u64::from(max_long_edge),
                u64::from(max_tokens),
            ),
            ImageRule::Area {
                divisor,
                max_long_edge,
            } => {
                let (width, height) = fit(width as f64, height as f64, f64::from(max_long_edge));
                (width * height / f64::from(divisor.max(1))).ceil() as u64
            }
            ImageRule::Tiles { base, per_tile } => {
                let (width, height) = fit(width as f64, height as f64, 2048.0);
                let short = width.min(height);
                let scale = if short > 768.0 { 768.0 / short } else { 1.0 };
                let tiles = ceil_div(width * scale, 512.0) * ceil_div(height * scale, 512.0);
                u64::from(base) + u64::from(per_tile) * tiles
            }
            ImageRule::Patches32 {
                max_patches,
                multiplier_milli,
            } => {
                let patches = patches32(width as f64, height as f64, f64::from(max_patches));
                (patches * u64::from(multiplier_milli)).div_ceil(1000)
            }
            ImageRule::GeminiTiles => {
                if width <= 384 && height <= 384 {
                    258
                } else {
                    258 * width.div_ceil(768) * height.div_ceil(768)
                }
            }
            ImageRule::Flat(tokens) => u64::from(tokens),
        }
    }

    fn tokens_of_unknown_size(self) -> u64 {
        match self {
            ImageRule::Patches28 { max_tokens, .. } => u64::from(max_tokens),
            // A 768x2048 image has the most tiles once scaled: 2 by 4.
            ImageRule::Tiles { base, per_tile } => u64::from(base) + u64::from(per_tile) * 8,
            ImageRule::Patches32 {
                max_patches,
                multiplier_milli,
            } => (u64::from(max_patches) * u64::from(multiplier_milli)).div_ceil(1000),
            ImageRule::Flat(tokens) => u64::from(tokens),
            ImageRule::Area { .. } | ImageRule::GeminiTiles => self.tokens(2048, 2048),
        }
    }
}

/// Scales a size down, keeping its aspect, so that its long side is at most `edge`.
fn fit(width: f64, height: f64, edge: f64) -> (f64, f64) {
    let long = width.max(height);
    if long > edge {
        (width * edge / long, height * edge / long)
    } else {
        (width, height)
    }
}

/// `ceil(value / unit)`, tolerant of the rounding of a value that should be whole.
fn ceil_div(value: f64, unit: f64) -> u64 {
    ((value / unit) - 1e-9).ceil().max(1.0) as u64
}

/// Anthropic's rule: the largest aspect-preserving size within both caps, found by walking
/// the long side down from the largest it may be.
fn patches28(width: u64, height: u64, max_long_edge: u64, max_tokens: u64) -> u64 {
    let (long, short) = (width.max(height), width.min(height));
    let tokens = |long_side: u64| {
        let short_side = ((long_side * short) as f64 / long as f64).round().max(1.0) as u64;
        long_side.div_ceil(28) * short_side.div_ceil(28)
    };
    // The area bound gives a start at most a few patches above the answer.
    let by_area = ((max_tokens * 784 * long) as f64 / short as f64).sqrt() as u64 + 56;
    let mut long_side = long.min(max_long_edge).min(by_area).max(1);
    while long_side > 1 && tokens(long_side) > max_tokens {
        long_side -= 1;
    }
    tokens(long_side)
}

/// OpenAI's patch models: patches of 32 pixels, scaled down to at most `max` of them.
fn patches32(width: f64, height: f64, max: f64) -> u64 {
    let patches = ceil_div(width, 32.0) * ceil_div(height, 32.0);
    if patches as f64 <= max {
        return patches;
    }
    let mut scale = (32.0 * 32.0 * max / (width * height)).sqrt();
    let (columns, rows) = (width * scale / 32.0, height * scale / 32.0);
    scale *= (columns.floor() / columns).min(rows.floor() / rows);
    (ceil_div(width * scale, 32.0) * ceil_div(height * scale, 32.0)).min(max as u64)
}

/// The rules the crate knows, one per model family.
///
/// Sources: Anthropic's vision guide,
/// <https://platform.claude.com/docs/en/build-with-claude/vision> (read 2026-07-30: 28-pixel
/// patches, 1568 pixels and 1568 tokens; 2576 and 4784 for "Claude 4.7 and later"; its older
/// text gave `w*h/750`, which overestimates large images, kept as `claude-legacy`). OpenAI's
/// "Images and vision" guide, <https://platform.openai.com/docs/guides/images-vision> (tile
/// models' base and per-tile tokens; patch models' 1536-patch budget and multipliers;
/// `auto` detail priced as high, which overestimates). Gemini's token guide,
/// <https://ai.google.dev/gemini-api/docs/tokens> (258 tokens up to 384 pixels, else per
/// 768x768 tile), and its media-resolution guide,
/// <https://ai.google.dev/gemini-api/docs/media-resolution> (Gemini 3: 280, 560, 1120 and
/// 2240 tokens; 1120 is the default for images).
pub const IMAGE_TOKENS: &[ImageTokens] = &[
    claude("claude", 1568, 1568),
    claude("claude-high-res", 2576, 4784),
    ImageTokens {
        family: "claude-legacy",
        rule: ImageRule::Area {
            divisor: 750,
            max_long_edge: 1568,
        },
        source: ANTHROPIC,
        date: "2025-06-01",
    },
    tiles("gpt-4o", 85, 170),
    tiles("gpt-4.1", 85, 170),
    tiles("gpt-4.5", 85, 170),
    tiles("gpt-5", 70, 140),
    tiles("o1", 75, 150),
    tiles("o3", 75, 150),
    tiles("gpt-4o-mini", 2833, 5667),
    tiles("computer-use-preview", 65, 129),
    patches("gpt-4.1-mini", 1620),
    patches("gpt-5-mini", 1620),
    patches("gpt-4.1-nano", 2460),
    patches("gpt-5-nano", 2460),
    patches("o4-mini", 1720),
    ImageTokens {
        family: "gemini-2",
        rule: ImageRule::GeminiTiles,
        source: "https://ai.google.dev/gemini-api/docs/tokens",
        date: "2026-11-30",
    },
    gemini3("gemini-3", 1120),
    gemini3("gemini-3-low", 280),
    gemini3("gemini-3-medium", 560),
    gemini3("gemini-3-ultra-high", 2240),
];

const ANTHROPIC: &str = "https://platform.claude.com/docs/en/build-with-claude/vision";
const OPENAI: &str = "https://platform.openai.com/docs/guides/images-vision";

const fn claude(family: &'static str, max_long_edge: u32, max_tokens: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Patches28 {
            max_long_edge,
            max_tokens,
        },
        source: ANTHROPIC,
        date: "2026-07-30",
    }
}

const fn tiles(family: &'static str, base: u32, per_tile: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Tiles { base, per_tile },
        source: OPENAI,
        date: "2026-03-05",
    }
}

const fn patches(family: &'static str, multiplier_milli: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Patches32 {
            max_patches: 1536,
            multiplier_milli,
        },
        source: OPENAI,
        date: "2026-03-05",
    }
}

const fn gemini3(family: &'static str, tokens: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Flat(tokens),
        source: "https://ai.google.dev/gemini-api/docs/media-resolution",
        date: "2026-11-30",
    }
}

/// The crate's rule for a model family, by name (see [`IMAGE_TOKENS`]).
///
/// ```
/// use transcript_replay::image_tokens;
///
/// assert_eq!(image_tokens("gpt-4.1-mini").unwrap().tokens(1024, 1024), 1659);
/// assert!(image_tokens("no-such-family").is_none());
/// ```
pub fn image_tokens(family: &str) -> Option<&'static ImageTokens> {
    IMAGE_TOKENS.iter().find(|rule| rule.family == family)
}
