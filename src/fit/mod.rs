//! Fitting a history to the context window: a [`Budget`] on a [`Turn`](crate::Turn), and the
//! body that withholds the oldest bulk of the history, each thing withheld named where it was,
//! until it fits. What to withhold is planned in `plan.rs`; this file builds the body and
//! checks it against the budget by the body's own estimate.
//!
//! A history that outgrows the model's window is rejected on every later turn. With a
//! [`Budget`] ([`Turn::budget`](crate::Turn::budget)), the body withholds the oldest bulk first
//! (tool outputs, then tool inputs, then reasoning, then native images, then whole messages),
//! each named where it was with the bytes it stood for, and fits: a pure function of the
//! record, the live turn and the budget, in steps (a tenth of the budget by default), so that
//! the prompt cache survives. The fitted body is rewritten once per step of growth, where a
//! newest-first sliding window rewrites it on most turns (`conformance/tests/conformance/fit_stability.rs`;
//! its figures, and what fitting costs, on the repository's `BENCHMARKS.md`). Why:
//! `docs/design.md#fitting` in the repository.
//!
//! # Guarantees
//!
//! - **Bodies that fit**: for generated agent conversations and budgets, every fitted body is
//!   within its budget or refused only when the system text and live turn alone are over; it
//!   withholds the oldest first, each class whole before the next, with markers whose byte
//!   counts are the stored ones, never splits a message, keeps the leading system messages and
//!   the live turn, validates against the pinned schemas, reports exactly what it withheld,
//!   and is the unbudgeted body byte for byte when the record fits; as a record grows, what
//!   is withheld only grows, on all five providers, with stored system messages mid-record
//!   (`conformance/tests/conformance/fit_budget.rs`).
//! - Golden fitted bodies for all five providers, a round's output withheld when it does not
//!   fit, an old paste withheld before whole messages go (`tests/spec/fit_golden.rs`).

mod plan;

use std::fmt;

use crate::cost::ImageTokens;

pub(crate) use self::plan::{cost_alone, Plan, RoundOutput, FLOOR};

/// The input tokens a request may use, and how they are counted: the budget a
/// [`Turn`](crate::Turn) fits its body to ([`Turn::budget`](crate::Turn::budget)).
///
/// Tokens are counted as [`Priced::estimate`](crate::Priced::estimate) counts them: text by
/// [`estimate_tokens`](crate::cost::estimate_tokens), or by your own counter
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
/// use transcript_replay::{cost::image_tokens, Budget};
///
/// let claude = image_tokens("claude").unwrap();
/// let budget = Budget::new(180_000, claude).step(10_000);
/// assert_eq!((budget.tokens(), budget.step_tokens()), (180_000, 10_000));
/// assert_eq!(Budget::new(180_000, claude).step_tokens(), 18_000);
/// ```
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    pub(crate) tokens: u64,
    pub(crate) images: &'a ImageTokens,
    pub(crate) count: Option<&'a (dyn Fn(&str) -> usize + Send + Sync + 'a)>,
    step: Option<u64>,
    /// Whether `tokens` is the model's window, of which the turn's `max_output` is left for
    /// the reply.
    pub(crate) window: bool,
}

impl fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget")
            .field("tokens", &self.tokens)
            .field("images", &self.images.family)
            .field("counter", &self.count.map(|_| "the caller's"))
            .field("step", &self.step_tokens())
            .field("window", &self.window)
            .finish()
    }
}

impl<'a> Budget<'a> {
    /// A budget of `tokens` input tokens, images priced by `images`, text by the default
    /// estimate.
    ///
    /// ```
    /// let budget = transcript_replay::Budget::new(100_000, transcript_replay::cost::image_tokens("gpt-4.1").unwrap());
    /// assert_eq!(budget.tokens(), 100_000);
    /// ```
    pub fn new(tokens: u64, images: &'a ImageTokens) -> Self {
        Budget {
            tokens,
            images,
            count: None,
            step: None,
            window: false,
        }
    }

    /// A budget for a model's context window of `tokens`, which holds the input and the
    /// reply: the turn it is given to leaves its own
    /// [`max_output`](crate::Turn::max_output) of it for the reply, and fits its input to the
    /// rest, whatever order the turn's builders are called in. A turn without a `max_output`
    /// fits its input to the whole window.
    ///
    /// ```
    /// use transcript_replay::{anthropic, cost::image_tokens, Budget, Priced, StoredMessage, Turn};
    ///
    /// let claude = image_tokens("claude").unwrap();
    /// let history: Vec<StoredMessage> =
    ///     (0..40).map(|n| StoredMessage::user(format!("note {n}: {}", "words ".repeat(200)))).collect();
    /// let live = [StoredMessage::user("Sum it up.")];
    /// let turn = Turn::new(&history).live(&live).budget(Budget::window(8_000, claude)).max_output(4_000);
    /// let estimate = anthropic::body(&turn)?.estimate(claude);
    /// assert!(estimate.tokens() <= 4_000);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn window(tokens: u64, images: &'a ImageTokens) -> Self {
        Budget {
            window: true,
            ..Budget::new(tokens, images)
        }
    }

    /// The budget a turn fits its input to: the tokens, less `max_output` for a
    /// [`window`](Budget::window).
    pub(crate) fn for_output(mut self, max_output: Option<u32>) -> Self {
        if self.window {
            self.tokens = self.tokens.saturating_sub(max_output.map_or(0, u64::from));
            self.window = false;
        }
        self
    }

    /// The budget refitted after the provider said the request overflowed its window: `sent`
    /// tokens (as this budget counts them) were counted `used` against a window of `limit`
    /// with `max_output` left for the reply; the new budget is what was sent, scaled by how
    /// far over the provider counted it, and at least one token less than what was sent.
    /// Without the counts, three quarters of what was sent. `None` when nothing smaller is
    /// left.
    pub(crate) fn refitted(
        self,
        sent: u64,
        used: Option<u64>,
        limit: Option<u64>,
        max_output: Option<u32>,
    ) -> Option<Self> {
        let room = |limit: u64| limit.saturating_sub(max_output.map_or(0, u64::from));
        let scaled = match (used, limit) {
            (Some(used), Some(limit)) if used > 0 => {
                u64::try_from(u128::from(room(limit)) * u128::from(sent) / u128::from(used))
                    .unwrap_or(u64::MAX)
            }
            _ => sent / 4 * 3,
        };
        let tokens = scaled.min(sent.saturating_sub(1));
        (tokens > 0).then_some(Budget {
            tokens,
            window: false,
            ..self
        })
    }

    /// The budget, with text counted by your own counter (a tokenizer), called with the exact
    /// text of each text part as it is sent.
    ///
    /// ```
    /// use transcript_replay::{cost::image_tokens, Budget};
    ///
    /// let words = |text: &str| text.split_whitespace().count();
    /// let budget = Budget::new(50_000, image_tokens("gemini-2").unwrap()).counting_with(&words);
    /// # let _ = budget;
    /// ```
    #[must_use]
    pub fn counting_with(mut self, count: &'a (dyn Fn(&str) -> usize + Send + Sync + 'a)) -> Self {
        self.count = Some(count);
        self
    }

    /// The budget, moving in steps of `tokens` (at least 1) instead of a tenth of it.
    ///
    /// ```
    /// let budget = transcript_replay::Budget::new(1_000, transcript_replay::cost::image_tokens("claude").unwrap()).step(0);
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
    /// assert_eq!(transcript_replay::Budget::new(7, transcript_replay::cost::image_tokens("claude").unwrap()).tokens(), 7);
    /// ```
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    /// The step the withholding moves in, in tokens.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Budget::new(95, transcript_replay::cost::image_tokens("claude").unwrap()).step_tokens(), 9);
    /// ```
    pub fn step_tokens(&self) -> u64 {
        self.step.unwrap_or(self.tokens / 10).max(1)
    }
}

impl Budget<'static> {
    /// The budget of a model in the catalog: its input limit where it has one, else its
    /// context window, from which the turn leaves its own
    /// [`max_output`](crate::Turn::max_output) for the reply ([`Budget::window`](crate::Budget::window)); images priced by
    /// the rule of the model's family. `None` for a model the catalog does not hold.
    ///
    /// ```
    /// use transcript_replay::{Budget, Priced, StoredMessage, Turn};
    ///
    /// let budget = Budget::for_model("claude-sonnet-4-5").unwrap();
    /// assert_eq!(budget.tokens(), 200_000);
    /// assert!(Budget::for_model("no-such-model").is_none());
    /// ```
    pub fn for_model(id: &str) -> Option<Self> {
        let model = crate::models::find(id)?;
        let images = model.provider().image_tokens_for(id);
        Some(match model.input_limit {
            Some(limit) => Budget::new(limit, images),
            None => Budget::window(model.context_window, images),
        })
    }
}
