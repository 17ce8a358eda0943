//! What a history costs before it is sent: the exact bytes of a body or fragment, the text
//! the model reads, and its native images, each priced by the provider's published rule for
//! the model family (`image_tokens.rs`). The bytes are counted in one pass through the body's
//! own serializer (`measure.rs`).

mod image_tokens;
mod measure;

use std::fmt;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::signature;
use crate::wire::{Part, Text};

pub use self::image_tokens::{image_tokens, ImageRule, ImageTokens, IMAGE_TOKENS};
use self::measure::measure;

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
/// `Body` and `Request`, and [`AnyBody`](crate::AnyBody).
///
/// [`estimate`](Priced::estimate) returns, without writing the body anywhere, the exact number
/// of bytes it serializes to and, in total and per message (in the order the body carries
/// them, its system text first), the tokens of its text parts, its native images, and their
/// tokens from their pixel size. [`estimate_with`](Priced::estimate_with) takes your own
/// tokenizer instead, called with the exact text of each text part as it is sent. A withheld
/// image costs its marker's text, not image tokens. The example program prints the figures
/// with `--estimate [--family NAME]`.
///
/// # Image tokens
///
/// Priced by a rule per model family, as data with its source and date ([`IMAGE_TOKENS`];
/// look one up with [`image_tokens`], or make your own [`ImageTokens`]). `tests/estimate.rs`
/// reproduces each provider's worked examples.
///
/// | family | rule | source |
/// |---|---|---|
/// | `claude`, `claude-high-res` | `ceil(w/28) * ceil(h/28)` after the largest resize within 1568 px and 1568 tokens (2576 px and 4784 tokens for the high-resolution tier) | Anthropic's vision guide, read 2026-07-30 |
/// | `claude-legacy` | `w * h / 750` after scaling the long edge to 1568 px (older docs; it overestimates large images) | Anthropic's vision guide, before 2026 |
/// | `gpt-4o`, `gpt-4.1`, `gpt-4.5`, `gpt-5`, `o1`, `o3`, `gpt-4o-mini`, `computer-use-preview` | fit 2048x2048, shortest side to 768, base + per tile of 512x512 (85/170, 70/140, 75/150, 2833/5667, 65/129); `auto` detail priced as high | OpenAI's "Images and vision" guide |
/// | `gpt-4.1-mini`, `gpt-5-mini`, `gpt-4.1-nano`, `gpt-5-nano`, `o4-mini` | 32 px patches scaled down to at most 1536, times 1.62, 2.46 or 1.72 | the same guide |
/// | `gemini-2` | 258 when both sides are at most 384 px, else 258 per 768x768 tile | Gemini's token guide |
/// | `gemini-3`, `-low`, `-medium`, `-ultra-high` | 1120 (the default for images), 280, 560, 2240 an image | Gemini's media-resolution guide |
///
/// An image whose header gives no size costs the most the rule allows (for Gemini 2, a
/// 2048x2048 image).
///
/// # Text tokens
///
/// [`estimate_tokens`](crate::estimate_tokens) prices each pair of neighbouring bytes by their
/// classes; its 210 prices were fitted against OpenAI's `o200k_base` on one set of texts
/// (`cargo run --release -p transcript-replay-conformance --example fit_text_estimate`) and
/// are checked on another set the fit never saw (`cargo test -p
/// transcript-replay-conformance --test text_estimate -- --nocapture`, which checks the
/// bounds):
///
/// | text (not seen by the fit) | o200k tokens | estimate | error | bound the test checks |
/// |---|---:|---:|---:|---:|
/// | English prose | 307 | 312 | +1.6% | 10% |
/// | code (Rust, Python) | 3,765 | 3,783 | +0.5% | 10% |
/// | JSON | 14,631 | 14,745 | +0.8% | 10% |
/// | logs | 9,556 | 9,992 | +4.6% | 10% |
/// | CJK | 166 | 161 | -3.0% | 15% |
/// | emoji | 45 | 46 | +2.2% | 25% |
/// | base64-like noise | 2,743 | 2,743 | +0.0% | 15% |
/// | a mixed agent transcript | 10,486 | 10,894 | +3.9% | 10% |
///
/// Both sets are small, so expect larger errors on text unlike them; where it matters, pass a
/// real tokenizer to `estimate_with`. Anthropic and Gemini publish no tokenizer; their counts
/// differ from `o200k_base`.
///
/// # What estimating costs
///
/// `cargo bench -p transcript-replay-conformance --bench estimate`, 10,000 messages, an
/// Anthropic body of 26 MB, three runs on a shared 2-core machine: estimating with the default
/// text estimate takes 0.81 to 0.83 of `serde_json::to_vec` of the same body; with a caller's
/// cheap counter of characters, 0.58 to 0.59. The bytes are counted in one pass through the
/// same serializers, without writing the body.
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
