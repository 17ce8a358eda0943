//! Fitting a history to the context window: a [`Budget`] on a [`Turn`](crate::Turn), and the
//! body that withholds the oldest bulk of the history, each thing withheld named where it was,
//! until it fits. What to withhold is planned in `plan.rs`; this file builds the body and
//! checks it against the budget by the body's own estimate.

mod plan;

use std::fmt;

use serde::Serialize;

use crate::body::{assemble, Assembled, BodyError, Kind, Turn};
use crate::cost::{estimate_counted, ImageTokens, Of, Priced};
use crate::rules::{ImageLimits, Rules};

pub(crate) use self::plan::Plan;

/// The input tokens a request may use, and how they are counted: the budget a
/// [`Turn`](crate::Turn) fits its body to ([`Turn::budget`](crate::Turn::budget)).
///
/// Tokens are counted as [`Priced::estimate`] counts them: text by
/// [`estimate_tokens`](crate::estimate_tokens), or by your own counter
/// ([`counting_with`](Budget::counting_with)), and native images by the [`ImageTokens`] rule
/// of the model's family. Leave room in it for the reply: a provider's window holds the input
/// and the output.
///
/// The body moves in steps ([`step`](Budget::step), by default a tenth of the budget): as a
/// record grows past its budget, what is withheld changes once per step of growth, and each
/// time leaves a step of room, so that the prompt cache is rewritten about once per step,
/// not on every turn.
///
/// ```
/// use transcript_replay::{image_tokens, Budget};
///
/// let claude = image_tokens("claude").unwrap();
/// let budget = Budget::new(180_000, claude).step(10_000);
/// assert_eq!((budget.tokens(), budget.step_tokens()), (180_000, 10_000));
/// assert_eq!(Budget::new(180_000, claude).step_tokens(), 18_000);
/// ```
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    tokens: u64,
    images: &'a ImageTokens,
    count: Option<&'a (dyn Fn(&str) -> usize + 'a)>,
    step: Option<u64>,
}

impl fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget")
            .field("tokens", &self.tokens)
            .field("images", &self.images.family)
            .field("counter", &self.count.map(|_| "the caller's"))
            .field("step", &self.step_tokens())
            .finish()
    }
}

impl<'a> Budget<'a> {
    /// A budget of `tokens` input tokens, images priced by `images`, text by the default
    /// estimate.
    ///
    /// ```
    /// let budget = transcript_replay::Budget::new(100_000, transcript_replay::image_tokens("gpt-4.1").unwrap());
    /// assert_eq!(budget.tokens(), 100_000);
    /// ```
    pub fn new(tokens: u64, images: &'a ImageTokens) -> Self {
        Budget {
            tokens,
            images,
            count: None,
            step: None,
        }
    }

    /// The budget, with text counted by your own counter (a tokenizer), called with the exact
    /// text of each text part as it is sent.
    ///
    /// ```
    /// use transcript_replay::{image_tokens, Budget};
    ///
    /// let words = |text: &str| text.split_whitespace().count();
    /// let budget = Budget::new(50_000, image_tokens("gemini-2").unwrap()).counting_with(&words);
    /// # let _ = budget;
    /// ```
    #[must_use]
    pub fn counting_with(mut self, count: &'a (dyn Fn(&str) -> usize + 'a)) -> Self {
        self.count = Some(count);
        self
    }

    /// The budget, moving in steps of `tokens` (at least 1) instead of a tenth of it.
    ///
    /// ```
    /// let budget = transcript_replay::Budget::new(1_000, transcript_replay::image_tokens("claude").unwrap()).step(0);
    /// assert_eq!(budget.step_tokens(), 1);
    /// ```
    #[must_use]
    pub fn step(mut self, tokens: u64) -> Self {
        self.step = Some(tokens);
        self
    }

    /// The input tokens the request may use.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Budget::new(7, transcript_replay::image_tokens("claude").unwrap()).tokens(), 7);
    /// ```
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    /// The step the withholding moves in, in tokens.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Budget::new(95, transcript_replay::image_tokens("claude").unwrap()).step_tokens(), 9);
    /// ```
    pub fn step_tokens(&self) -> u64 {
        self.step.unwrap_or(self.tokens / 10).max(1)
    }
}

/// What a [`Budget`] withheld from a body, by kind, and the tokens that freed: the `withheld`
/// of an [`Estimate`](crate::Estimate).
///
/// Outputs, inputs, reasoning and images count those withheld in the messages the body kept;
/// `messages` counts the stored messages withheld whole. `tokens` is the unbudgeted body's
/// estimate less the fitted body's, counted as the budget counts.
///
/// ```
/// let nothing = transcript_replay::Withheld::default();
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
    /// Native images withheld.
    pub images: usize,
    /// Stored messages withheld whole.
    pub messages: usize,
    /// The tokens that freed.
    pub tokens: u64,
}

/// A body that can say what its budget withheld.
pub(crate) trait Report {
    fn withheld_mut(&mut self) -> &mut Option<Withheld>;
}

/// The tokens of an estimate: text and images.
fn total(estimate: &crate::cost::Estimate) -> u64 {
    estimate.text_tokens as u64 + estimate.image_tokens
}

/// Builds a provider's body for a turn: as it is, or, with a budget it does not fit, with the
/// oldest bulk of the history withheld until it fits.
pub(crate) fn build<'a, B: Priced + Report>(
    turn: &Turn<'a>,
    rules: &Rules,
    limits: &ImageLimits,
    make: impl Fn(Assembled<'a>) -> B,
) -> Result<B, BodyError> {
    let assembled = assemble(turn, rules, limits, None)?;
    let Some(budget) = turn.budget_given() else {
        return Ok(make(assembled));
    };
    let native = assembled.history_natives.clone();
    let mut body = make(assembled);
    let unbudgeted = estimate_counted(&body, budget.images, budget.count);
    let whole = total(&unbudgeted);
    if whole <= budget.tokens {
        *body.withheld_mut() = Some(Withheld::default());
        return Ok(body);
    }
    // What the history does not carry, and is never withheld: what every turn of the
    // conversation carries (the system text, fields and tools), and this turn's own (the live
    // turn, the rounds, the caller's messages).
    let (mut base, mut tail) = (0u64, 0u64);
    for cost in &unbudgeted.messages {
        let tokens = cost.text_tokens as u64 + cost.image_tokens;
        match cost.of {
            Of::System | Of::Fields | Of::Tools => base += tokens,
            Of::Live(_) | Of::Round(_) | Of::Appended(_) => tail += tokens,
            Of::History(_) => {}
        }
    }
    let mut plan = Plan::new(
        turn.history_given(),
        turn.vision_given(),
        &native,
        &budget,
        (base, tail),
    );
    loop {
        let assembled = assemble(turn, rules, limits, Some(&plan))?;
        let mut body = make(assembled);
        let fitted = total(&estimate_counted(&body, budget.images, budget.count));
        if fitted <= budget.tokens {
            *body.withheld_mut() = Some(plan.report(whole.saturating_sub(fitted)));
            return Ok(body);
        }
        if !plan.advance(fitted - budget.tokens) {
            return Err(BodyError::new(Kind::BudgetTooSmall {
                needed: fitted,
                budget: budget.tokens,
            }));
        }
    }
}
