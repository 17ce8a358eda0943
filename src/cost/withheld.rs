//! What a budget withheld from a body: part of its estimate.

use serde::Serialize;

/// What a [`Budget`](crate::Budget) withheld from a body, by kind, and the tokens that freed: the `withheld`
/// of an [`Estimate`](crate::cost::Estimate).
///
/// Outputs, inputs, reasoning, images and user texts count those withheld in the messages the
/// body kept (outputs include those of the rounds in flight);
/// `messages` counts the stored messages withheld whole. `tokens` is the unbudgeted body's
/// estimate less the fitted body's, counted as the budget counts.
///
/// ```
/// let nothing = transcript_replay::cost::Withheld::default();
/// assert_eq!(
///     serde_json::to_string(&nothing).unwrap(),
///     r#"{"outputs":0,"inputs":0,"reasoning":0,"images":0,"messages":0,"tokens":0}"#,
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Withheld {
    /// Tool outputs withheld.
    pub outputs: usize,
    /// Tool inputs withheld.
    pub inputs: usize,
    /// Reasoning blocks withheld.
    pub reasoning: usize,
    /// Native images and files withheld (files are withheld with the images).
    pub images: usize,
    /// Long texts of old user messages withheld (a paste), before whole messages go; not
    /// written when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub texts: usize,
    /// Stored messages withheld whole.
    pub messages: usize,
    /// The tokens that freed.
    pub tokens: u64,
    /// How many of the outputs, inputs, reasoning, images and texts above were let go of
    /// alone, out of the order the others go in (oldest first, class by class): each freed by
    /// itself what the record needed when it grew past a step of the budget, so nothing else
    /// went with it. Not written in the JSON.
    #[serde(skip)]
    pub alone: usize,
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// Where a history's size is known rather than estimated: the newest stored assistant message
/// that carries the usage its provider reported (`message`, its index in the record), and the
/// tokens of everything up to it and of it (`tokens`: the input the request that produced it
/// read, cache reads and writes included, and the output it wrote). What follows it is what
/// an [`Estimate`](crate::cost::Estimate) estimates; [`Estimate::anchored_tokens`](crate::cost::Estimate::anchored_tokens)
/// adds the two. A message that holds a compaction is no anchor: its usage counted the
/// history it replaced.
///
/// ```
/// use transcript_replay::{openai, cost::image_tokens, Priced, StoredMessage, TokenUsage, Turn};
///
/// let usage = TokenUsage { input_tokens: 1_200, output_tokens: 40, ..TokenUsage::default() };
/// let history = [
///     StoredMessage::user("Read a.rs."),
///     StoredMessage::assistant("It is empty.").with_usage(usage),
///     StoredMessage::user("And b.rs?"),
/// ];
/// let estimate = openai::body(&Turn::new(&history))?.estimate(image_tokens("gpt-4o").unwrap());
/// let anchored = estimate.anchored.unwrap();
/// assert_eq!((anchored.message, anchored.tokens), (1, 1_240));
/// assert_eq!(
///     serde_json::to_string(&anchored).unwrap(),
///     r#"{"message":1,"tokens":1240}"#,
/// );
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Anchored {
    /// The index of the message in the record.
    pub message: usize,
    /// Its request's input tokens and its output tokens, as reported.
    pub tokens: u64,
}

/// What building a body found out beside the body: what a budget withheld, and the anchor
/// of the history's size. Not part of the crate's API: the estimate gives both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Told {
    pub(crate) withheld: Option<Withheld>,
    pub(crate) anchored: Option<Anchored>,
}
