//! What a history costs before it is sent: the exact bytes of a body or fragment, the text
//! the model reads, and its native images, each priced by the provider's published rule for
//! the model family (`image_tokens.rs`). The bytes are counted in one pass through the body's
//! own serializer (`measure.rs`). Why: `docs/design.md#cost` in the repository.
//!
//! # Guarantees
//!
//! - **Exact costs** ([`Priced`]): an estimate's bytes equal the serialized bytes of every
//!   generated body and fragment, and each message's bytes its own JSON
//!   (`conformance/tests/conformance/estimate_bytes.rs`).
//! - Image tokens reproduce the providers' worked examples (`tests/spec/estimate.rs`).
//! - The text estimate stays within the bounds of its table on texts its fit never saw
//!   (`conformance/tests/conformance/text_estimate.rs`), and on any text is at least a token, never falls
//!   as text is added, and never exceeds two tokens a byte
//!   (`conformance/tests/conformance/text_estimate_bounds.rs`).
//!
//! How close the estimate comes to `o200k_base`, and what it costs to compute, is on the
//! repository's `BENCHMARKS.md`.

mod forecast;
mod image_tokens;
mod measure;
mod model_family;
mod units;
mod withheld;

use std::fmt;

use serde::Serialize;

use crate::media::signature;
use crate::wire::{Image, Part};

pub(crate) use self::forecast::CacheRule;
pub use self::forecast::{forecast, Forecast};
pub use self::image_tokens::{image_tokens, ImageRule, ImageTokens, IMAGE_TOKENS};
pub(crate) use self::image_tokens::{CLAUDE, GEMINI_2, GPT_4O};
use self::measure::measure;
pub(crate) use self::model_family::family_of;
pub use self::model_family::{model_image_tokens, ModelFamily, MODEL_FAMILIES};
pub(crate) use self::units::{Content, Slot, Units};
pub(crate) use self::withheld::Told;
pub use self::withheld::{Anchored, Withheld};
pub use crate::tokens::estimate_tokens;

/// The cost of a body or fragment, in total and per message, in the order the body carries
/// them (the top-level fields and the tools first, when there are any, then the system text,
/// then the turns, the rounds and the caller's appended messages).
///
/// It serializes as `{"bytes":N,"text_tokens":N,"images":N,"image_tokens":N,"messages":[...]}`,
/// each message with the same four figures after what it belongs to (`"of"`).
///
/// - `bytes`: exactly what the body serializes to (`serde_json::to_vec(&body)?.len()`);
///   a message's bytes are those of its own JSON in the body.
/// - `text_tokens`: the text parts, counted by [`estimate_tokens`] or
///   by the caller's tokenizer, called with the exact text of each part as it is sent. A
///   withheld image costs its marker's text, which is a text part.
/// - `images` and `image_tokens`: the native images, priced from their pixel size by an
///   [`ImageTokens`] rule.
/// - `files` and `file_tokens`: the native files, priced by [`file_tokens`]; both left out of
///   the JSON when no file is sent natively.
///
/// ```
/// use transcript_replay::{anthropic, cost::image_tokens, Priced, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Is a.rs empty?"), StoredMessage::assistant("Yes.")];
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&history).live(&live);
/// let body = anthropic::body(&turn)?;
/// let estimate = body.estimate(image_tokens("claude").unwrap());
/// assert_eq!(estimate.bytes, serde_json::to_vec(&body).unwrap().len());
/// assert_eq!(estimate.messages.len(), 4); // the system text, then three messages
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Estimate {
    /// The bytes of the whole body or fragment.
    pub bytes: usize,
    /// The tokens of every text part.
    pub text_tokens: usize,
    /// How many images are sent natively.
    pub images: usize,
    /// The tokens of those images.
    pub image_tokens: u64,
    /// How many files are sent natively.
    #[serde(skip_serializing_if = "is_zero")]
    pub files: usize,
    /// The tokens of those files.
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub file_tokens: u64,
    /// The same figures for each message, in order.
    pub messages: Vec<Cost>,
    /// What a [`Budget`](crate::Budget) withheld, and the tokens that freed; `None` when the
    /// turn has no budget (and left out of the JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withheld: Option<Withheld>,
    /// The newest stored assistant message that carries the provider's reported usage, and
    /// its tokens: the exact size of everything up to it ([`Anchored`]); `None` when no
    /// message carries usage (and left out of the JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchored: Option<Anchored>,
    /// What the input costs in US dollars at the model's price
    /// ([`models::Prices::input`](crate::models::Prices::input)), where the turn's model is in
    /// the catalog: [`anchored_tokens`](Estimate::anchored_tokens) where there is an anchor,
    /// else [`tokens`](Estimate::tokens), none of it read from the cache. Set by
    /// [`Provider::estimate`](crate::Provider::estimate); `None` (and left out of the JSON)
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usd: Option<f64>,
}

/// The cost of one message of a body: the same figures as [`Estimate`], for it alone, and
/// what it belongs to ([`Of`]).
///
/// ```
/// use transcript_replay::{openai, cost::image_tokens, cost::Of, Priced, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let turn = Turn::new(&history).instructions("Be brief.");
/// let body = openai::body(&turn)?;
/// let estimate = body.estimate(image_tokens("gpt-4.1").unwrap());
/// assert_eq!(estimate.messages[0].of, Of::System);
/// assert_eq!(estimate.messages[1].of, Of::History(0));
/// assert_eq!(
///     serde_json::to_string(&estimate.messages[1]).unwrap(),
///     format!(r#"{{"of":"history 0","bytes":{},"text_tokens":1,"images":0,"image_tokens":0}}"#, estimate.messages[1].bytes),
/// );
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// What the message is: the system text, the top-level fields, the tools, a turn that
    /// begins with a stored or live message, a round, or one of the caller's appended
    /// messages.
    pub of: Of,
    /// The bytes of the message's own JSON (for the fields and the tools, of their values).
    pub bytes: usize,
    /// The tokens of its text parts (for the fields, the tools and the caller's own messages,
    /// of their JSON text).
    pub text_tokens: usize,
    /// How many images it sends natively.
    pub images: usize,
    /// The tokens of those images.
    pub image_tokens: u64,
    /// How many files it sends natively.
    #[serde(skip_serializing_if = "is_zero")]
    pub files: usize,
    /// The tokens of those files.
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub file_tokens: u64,
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
fn is_zero(count: &usize) -> bool {
    *count == 0
}

fn is_zero_u64(count: &u64) -> bool {
    *count == 0
}

impl Estimate {
    /// The input tokens of the whole body: its text, its images and its files, as a
    /// [`Budget`](crate::Budget) counts them.
    ///
    /// ```
    /// use transcript_replay::{anthropic, cost::image_tokens, Priced, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?")];
    /// let turn = Turn::new(&history);
    /// let estimate = anthropic::body(&turn)?.estimate(image_tokens("claude").unwrap());
    /// assert_eq!(estimate.tokens(), estimate.text_tokens as u64 + estimate.image_tokens + estimate.file_tokens);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn tokens(&self) -> u64 {
        (self.text_tokens as u64)
            .saturating_add(self.image_tokens)
            .saturating_add(self.file_tokens)
    }

    /// The input tokens of the whole body with the reported part taken as reported: the
    /// [`anchored`](Estimate::anchored) message's tokens (everything up to it and it, as its
    /// provider counted them), and the estimate of what follows it (the later stored
    /// messages, the live turn, the rounds and the caller's appended messages). `None` when
    /// the body has no anchor.
    ///
    /// ```
    /// use transcript_replay::{anthropic, cost::image_tokens, Priced, StoredMessage, TokenUsage, Turn};
    ///
    /// let usage = TokenUsage { input_tokens: 5_000, output_tokens: 100, ..TokenUsage::default() };
    /// let history = [StoredMessage::user("Read a.rs."), StoredMessage::assistant("Done.").with_usage(usage)];
    /// let live = [StoredMessage::user("And b.rs?")];
    /// let estimate = anthropic::body(&Turn::new(&history).live(&live))?.estimate(image_tokens("claude").unwrap());
    /// let live_tokens = estimate.messages.last().map(|cost| cost.text_tokens as u64).unwrap();
    /// assert_eq!(estimate.anchored_tokens(), Some(5_100 + live_tokens));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn anchored_tokens(&self) -> Option<u64> {
        let anchored = self.anchored?;
        let after: u64 = self
            .messages
            .iter()
            .filter(|cost| match cost.of {
                Of::History(index) => index > anchored.message,
                Of::Live(_) | Of::Round(_) | Of::Appended(_) => true,
                Of::System | Of::Fields | Of::Tools => false,
            })
            .map(|cost| {
                (cost.text_tokens as u64)
                    .saturating_add(cost.image_tokens)
                    .saturating_add(cost.file_tokens)
            })
            .sum();
        Some(anchored.tokens.saturating_add(after))
    }
}

/// The tokens a file is estimated at, by what its own bytes say, never zero:
///
/// | file | tokens | source |
/// |---|---|---|
/// | PDF, its pages counted from its page objects | 258 a page for the `gemini-2` family, 560 for `gemini-3`, else 3,000 a page | Gemini: "Each document page is equivalent to 258 tokens" (<https://ai.google.dev/gemini-api/docs/document-processing>), 560 a page at Gemini 3's default resolution (<https://ai.google.dev/gemini-api/docs/media-resolution>); Anthropic: "typically 1,500-3,000 tokens per page" of text, with each page also read as an image (<https://platform.claude.com/docs/en/build-with-claude/pdf-support>); OpenAI sends text and a page image and publishes no figure: the crate's bound |
/// | PDF whose pages cannot be counted | as above, a page for every 2,000 bytes | the crate's bound |
/// | WAV, its duration from its header | 32 a second | "32 tokens per second" (<https://ai.google.dev/gemini-api/docs/tokens>) |
/// | other audio | 32 a second, at 16,000 bytes a second (128 kbit/s) | the crate's bound |
/// | video | 263 a second, at 125,000 bytes a second (1 Mbit/s) | "263 tokens per second" (<https://ai.google.dev/gemini-api/docs/tokens>); the rate is the crate's bound |
/// | text (`text/*`, JSON, XML) | its decoded text, by the text estimate | |
/// | anything else (office documents) | a token a byte | the crate's bound: compressed documents hold more text than bytes |
///
/// ```
/// use transcript_replay::{cost::file_tokens, cost::image_tokens};
///
/// // "%PDF-" and one page object.
/// let pdf = "JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+";
/// assert_eq!(file_tokens(image_tokens("gemini-2").unwrap(), "application/pdf", pdf), 258);
/// assert_eq!(file_tokens(image_tokens("claude").unwrap(), "application/pdf", pdf), 3_000);
/// ```
pub fn file_tokens(rule: &ImageTokens, media_type: &str, data: &str) -> u64 {
    // The decoded size from the base64 length: only what needs the bytes decodes them.
    let padding = data
        .bytes()
        .rev()
        .take(2)
        .filter(|byte| *byte == b'=')
        .count();
    let size = (data.len() / 4 * 3).saturating_sub(padding) as u64;
    let media_type = crate::media::file::lowercase(media_type);
    let (kind, subtype) = media_type.split_once('/').unwrap_or((&media_type, ""));
    let tokens = match (kind, subtype) {
        ("application", "pdf") => {
            let per_page = match rule.family {
                "gemini-3" => 560,
                family if family.starts_with("gemini") => 258,
                _ => 3_000,
            };
            (crate::media::file::pdf_pages_of(data) as u64).saturating_mul(per_page)
        }
        ("audio", _) => {
            // A WAV's header chunks come first: its first 3 kB say its duration.
            let head = crate::media::file::decode_base64(data.get(..4096).unwrap_or(data));
            let seconds = crate::media::file::wav_seconds(&head).unwrap_or(size.div_ceil(16_000));
            seconds.saturating_mul(32)
        }
        ("video", _) => size.div_ceil(125_000).saturating_mul(263),
        ("text", _) | ("application", "json" | "xml" | "x-javascript" | "x-python") => {
            let bytes = crate::media::file::decode_base64(data);
            TextCount::Default.count(&String::from_utf8_lossy(&bytes)) as u64
        }
        _ => size,
    };
    tokens.max(1)
}
/// What a part of a body belongs to, so that each cost can be mapped back to the record.
///
/// It serializes, and displays, as `system`, `fields`, `tools`, `history N` (the turn that
/// begins with stored message N: when a provider merges adjacent turns, one turn carries
/// several), `live N` (begins with live message N), `round N`, or `appended N`.
///
/// ```
/// assert_eq!(transcript_replay::cost::Of::History(3).to_string(), "history 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Of {
    /// The system text: the caller's instructions, the preamble, the hoisted history text.
    System,
    /// The top-level fields: the neutral parameters as the provider writes them (model,
    /// output limit, ...), then the caller's own fields.
    Fields,
    /// The tool declarations and the tool choice.
    Tools,
    /// The turn that begins with this stored message of the history.
    History(usize),
    /// The turn that begins with this message of the live turn.
    Live(usize),
    /// A message of this round of the turn in flight.
    Round(usize),
    /// This one of the caller's appended messages.
    Appended(usize),
}

impl fmt::Display for Of {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Of::System => f.write_str("system"),
            Of::Fields => f.write_str("fields"),
            Of::Tools => f.write_str("tools"),
            Of::History(index) => write!(f, "history {index}"),
            Of::Live(index) => write!(f, "live {index}"),
            Of::Round(index) => write!(f, "round {index}"),
            Of::Appended(index) => write!(f, "appended {index}"),
        }
    }
}

impl Serialize for Of {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Of {
    /// The turn that begins with wire message `start`, of a history of `history` messages.
    pub(crate) fn turn(start: usize, history: usize) -> Self {
        match start.checked_sub(history) {
            Some(live) => Of::Live(live),
            None => Of::History(start),
        }
    }
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
/// look one up with [`image_tokens`], or make your own [`ImageTokens`]). `tests/spec/estimate.rs`
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
/// [`estimate_tokens`] prices each pair of neighbouring bytes by their
/// states; its 484 prices (22 states) were fitted against OpenAI's `o200k_base` on one set of
/// texts, including half of a corpus of real agent sessions from public repositories
/// (`cargo run --release -p transcript-replay-conformance --example fit_text_estimate`), and
/// are checked on another set the fit never saw, including the other half of the sessions
/// (`cargo test --release -p transcript-replay-conformance --test text_estimate --test
/// agent_estimate -- --nocapture`, which checks the bounds):
///
/// | text (not seen by the fit) | o200k tokens | estimate | error | bound the test checks |
/// |---|---:|---:|---:|---:|
/// | 17 real agent sessions (Claude Code, SWE-agent, OpenHands, terminal agents, SkillsBench), all | 87,107 | 85,587 | -1.7% | 3% |
/// | each of those sessions | 1,439 to 8,227 | | -8.6% to +4.5% | 10% |
/// | file reads, `cat -n` with `→` (Claude Code's `Read`) | 6,878 | 6,972 | +1.4% | 10% |
/// | file reads, `cat -n` with a tab | 6,470 | 6,526 | +0.9% | 10% |
/// | short indented code lines | 2,346 | 2,330 | -0.7% | 10% |
/// | progress meters (curl, pip, tqdm, docker) | 5,104 | 5,061 | -0.8% | 10% |
/// | column-aligned tables (`ps`, `ls -l`, `docker ps`, `df`) | 3,635 | 3,645 | +0.3% | 10% |
/// | box drawing (tables, trees, rules) | 1,076 | 1,092 | +1.5% | 10% |
/// | English prose | 307 | 321 | +4.6% | 10% |
/// | code (Rust, Python) | 4,827 | 4,837 | +0.2% | 10% |
/// | JSON | 14,631 | 14,884 | +1.7% | 10% |
/// | logs | 9,556 | 9,707 | +1.6% | 10% |
/// | CJK | 166 | 167 | +0.6% | 15% |
/// | emoji | 45 | 42 | -6.7% | 25% |
/// | base64-like noise | 2,743 | 2,648 | -3.5% | 15% |
/// | a mixed agent transcript | 10,486 | 10,768 | +2.7% | 10% |
///
/// Both sets are small, so expect larger errors on text unlike them; where it matters, pass a
/// real tokenizer to `estimate_with`. Anthropic and Gemini publish no tokenizer; their counts
/// differ from `o200k_base`.
///
/// # What estimating costs
///
/// `cargo bench -p transcript-replay-conformance --bench estimate`, 10,000 messages, an
/// Anthropic body of 26 MB, on a shared 2-core machine: estimating with the default text
/// estimate takes 0.86 of `serde_json::to_vec` of the same body; with a caller's cheap counter
/// of characters, 0.61; the text estimate alone, on 16 MB of agent transcript, 0.59 of
/// writing the same text as a JSON string. The bytes are counted in one pass through the
/// same serializers, without writing the body.
///
/// ```
/// use transcript_replay::{gemini, cost::image_tokens, replay_messages, Priced, StoredMessage, Vision};
///
/// let record = [StoredMessage::user("Hi")];
/// let fragment = gemini::render(&replay_messages(&record, Vision::Sees));
/// let estimate = fragment.estimate_with(image_tokens("gemini-2").unwrap(), |text| text.split(' ').count());
/// assert_eq!((estimate.text_tokens, estimate.images), (1, 0));
/// ```
pub trait Priced: Serialize + sealed::Sealed {
    /// The cost, with the default text estimate ([`estimate_tokens`]).
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

    /// The body's JSON bytes: byte for byte what `serde_json::to_vec(&body)` gives (which
    /// stays supported), and its error when it has one, written by the crate's own writer,
    /// which finds the characters to escape in a block of 64 bytes at once. The README's
    /// benchmark reports what it gains.
    ///
    /// ```
    /// use transcript_replay::{openai, Priced, StoredMessage, Turn};
    ///
    /// let record = [StoredMessage::user("Say \"hi\"\n")];
    /// let turn = Turn::new(&record).without_preamble();
    /// let body = openai::body(&turn).unwrap();
    /// assert_eq!(body.to_json().unwrap(), serde_json::to_vec(&body).unwrap());
    /// ```
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        let mut out = Vec::new();
        self.write_json(&mut out)?;
        Ok(out)
    }

    /// Appends the body's JSON bytes to `out`, as [`to_json`](Priced::to_json) returns them,
    /// so that a runtime can reuse one buffer for every request of a connection. On an error,
    /// `out` is left as it was.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Priced, StoredMessage, Turn};
    ///
    /// let record = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&record);
    /// let body = anthropic::body(&turn).unwrap();
    /// let mut buffer = Vec::new();
    /// for _ in 0..2 {
    ///     buffer.clear();
    ///     body.write_json(&mut buffer).unwrap();
    ///     assert_eq!(buffer, serde_json::to_vec(&body).unwrap());
    /// }
    /// ```
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        crate::json::write(self, out)
    }
}

pub(crate) mod sealed {
    use super::{Told, Units};

    /// Only the crate's own bodies and fragments are [`Priced`](super::Priced): what pricing
    /// walks, which the crate keeps to itself.
    pub trait Sealed {
        /// The message-sized units of the body, in order, with what they carry, and where in
        /// the body each is.
        fn units(&self) -> Units<'_>;

        /// What the body's building found out: what a budget withheld, and where the
        /// history's reported usage anchors it.
        fn told(&self) -> Told {
            Told::default()
        }
    }
}

/// The JSON text of a body's tool entries, as the body writes them: what the estimate counts
/// of the tools.
pub(crate) fn tool_text(
    write: impl FnOnce(
        &mut serde_json::ser::Compound<'_, &mut Vec<u8>, serde_json::ser::CompactFormatter>,
    ) -> Result<(), serde_json::Error>,
) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::new(&mut out);
    let written = serde::Serializer::serialize_map(&mut serializer, None).and_then(|mut map| {
        write(&mut map)?;
        serde::ser::SerializeMap::end(map)
    });
    match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The estimate of a body with the default text estimate, or with a counter a budget was
/// given.
pub(crate) fn estimate_counted(
    body: &(impl Priced + ?Sized),
    images: &ImageTokens,
    count: Option<&(dyn Fn(&str) -> usize + Send + Sync)>,
) -> Estimate {
    match count {
        None => estimate(body, images, &mut TextCount::Default),
        Some(count) => {
            let mut count = |text: &str| count(text);
            estimate(body, images, &mut TextCount::Caller(&mut count))
        }
    }
}

/// The tokens of one text, by the default estimate or a budget's counter, as the estimate
/// counts a text part.
pub(crate) fn count_text(
    count: Option<&(dyn Fn(&str) -> usize + Send + Sync)>,
    text: &impl fmt::Display,
) -> usize {
    match count {
        None => TextCount::Default.count(text),
        Some(count) => count(&text.to_string()),
    }
}

/// The tokens an image costs by a rule: by its pixel size, or the most the rule allows when
/// its header gives none.
pub(crate) fn image_cost(rule: &ImageTokens, data: &str) -> u64 {
    match signature::read(data).and_then(|signature| signature.size) {
        Some((width, height)) => rule.tokens(width, height),
        None => rule.tokens_of_unknown_size(),
    }
}

/// Who counts a text's tokens.
enum TextCount<'f> {
    /// [`estimate_tokens`], fed as the text is written.
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
    let Units { units, slots } = body.units();
    let (bytes, unit_bytes) = measure(body, &slots, units.len());
    let mut estimate = Estimate {
        bytes,
        withheld: body.told().withheld,
        anchored: body.told().anchored,
        ..Estimate::default()
    };
    let image_cost = |image: &Image<'_>| image_cost(rule, image.data());
    let unit_bytes = unit_bytes.into_iter().chain(std::iter::repeat(0));
    for (unit, unit_bytes) in units.into_iter().zip(unit_bytes) {
        let mut cost = Cost {
            of: unit.of,
            bytes: unit_bytes,
            text_tokens: 0,
            images: 0,
            image_tokens: 0,
            files: 0,
            file_tokens: 0,
        };
        match unit.content {
            Content::Parts(parts) => price_parts(&mut cost, parts, count, &image_cost, rule),
            Content::Texts(texts) => {
                for text in texts {
                    cost.text_tokens += count.count(text);
                }
            }
            Content::Raw(raws) => {
                for raw in raws {
                    cost.text_tokens += count.count(&raw.get());
                }
            }
            Content::Json(json) => cost.text_tokens += count.count(&json),
            Content::Answers(answers, parts) => {
                for answer in answers {
                    cost.text_tokens += count.count(&answer.text);
                    cost.images += answer.images.len();
                    cost.image_tokens += answer.images.iter().map(image_cost).sum::<u64>();
                    cost.files += answer.files.len();
                    cost.file_tokens += answer
                        .files
                        .iter()
                        .map(|file| file_tokens(rule, file.media_type(), file.data()))
                        .sum::<u64>();
                }
                price_parts(&mut cost, parts, count, &image_cost, rule);
            }
        }
        estimate.text_tokens += cost.text_tokens;
        estimate.images += cost.images;
        estimate.image_tokens += cost.image_tokens;
        estimate.files += cost.files;
        estimate.file_tokens += cost.file_tokens;
        estimate.messages.push(cost);
    }
    estimate
}

/// Adds the cost of text and image parts to a unit's.
fn price_parts(
    cost: &mut Cost,
    parts: &[Part<'_>],
    count: &mut TextCount<'_>,
    image_cost: &impl Fn(&Image<'_>) -> u64,
    rule: &ImageTokens,
) {
    for part in parts {
        match part {
            Part::Text(text) => cost.text_tokens += count.count(text),
            Part::Image(image) => {
                cost.images += 1;
                cost.image_tokens += image_cost(image);
            }
            Part::File(file) => {
                cost.files += 1;
                cost.file_tokens += file_tokens(rule, file.media_type(), file.data());
            }
            // Its summary and its payload, as the text they are sent as: a payload that is
            // JSON (an item sent back as it came) by the strings it holds.
            Part::Compaction(compaction) => {
                if let Some(summary) = compaction.summary.filter(|text| !text.is_empty()) {
                    cost.text_tokens += count.count(&summary);
                }
                if let Some(data) = compaction.data.filter(|text| !text.is_empty()) {
                    match serde_json::from_str::<serde_json::Value>(data) {
                        Ok(value) => {
                            for text in strings(&value) {
                                cost.text_tokens += count.count(&text);
                            }
                        }
                        Err(_) => cost.text_tokens += count.count(&data),
                    }
                }
            }
        }
    }
}

/// The strings a JSON value holds but the empty ones, its keys left out, in order.
fn strings(value: &serde_json::Value) -> Vec<&str> {
    let mut found = Vec::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            serde_json::Value::String(text) if text.is_empty() => {}
            serde_json::Value::String(text) => found.push(text.as_str()),
            serde_json::Value::Array(items) => pending.extend(items.iter().rev()),
            serde_json::Value::Object(map) => pending.extend(map.values().rev()),
            serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {
            }
        }
    }
    found
}
