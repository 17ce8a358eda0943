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
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
fn is_zero(count: &usize) -> bool {
    *count == 0
}
