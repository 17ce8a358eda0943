//! Building a provider's body for a turn: as it is, or fitted to the turn's budget by the
//! plan of [`fit`](crate::fit), assembling it again until it fits.

use crate::body::{assemble, Assembled, BodyError, Kind, Turn};
use crate::cost::Withheld;
use crate::cost::{estimate_counted, Of, Priced};
use crate::fit::Plan;
use crate::rules::{ImageLimits, Rules};

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
