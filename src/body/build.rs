//! Building a provider's body for a turn: as it is, or fitted to the turn's budget by the
//! plan of [`fit`](crate::fit), assembling it again until it fits.

use crate::body::{assemble, Assembled, BodyError, Kind, Turn};
use crate::cost::{count_text, estimate_counted, Estimate, Of, Priced};
use crate::cost::{Anchored, Withheld};
use crate::fit::{cost_alone, Plan, RoundOutput, FLOOR};
use crate::record::{Block, Role};
use crate::render::rules::{ImageLimits, Rules};
use crate::turn::rounds;
use crate::wire::Piece;

/// A body that can say what its budget withheld.
pub(crate) trait Report {
    fn told_mut(&mut self) -> &mut crate::cost::Told;
}

/// The tokens of an estimate: text, images and files.
fn total(estimate: &crate::cost::Estimate) -> u64 {
    estimate.tokens()
}

/// Builds a provider's body for a turn: as it is, or, with a budget it does not fit, with the
/// oldest bulk of the history withheld until it fits.
pub(crate) fn build<'a, B: Priced + Report>(
    turn: &'a Turn<'_>,
    rules: &Rules,
    limits: &ImageLimits,
    make: impl Fn(Assembled<'a>) -> B,
) -> Result<B, BodyError> {
    let assembled = assemble(turn, rules, limits, None)?;
    let Some(budget) = turn.budget_given() else {
        let mut body = make(assembled);
        body.told_mut().anchored = anchor(turn, rules);
        return Ok(body);
    };
    let native = assembled.history_natives.clone();
    let mut body = make(assembled);
    let unbudgeted = estimate_counted(&body, budget.images, budget.count);
    let whole = total(&unbudgeted);
    if whole <= budget.tokens {
        body.told_mut().withheld = Some(Withheld::default());
        body.told_mut().anchored = anchor(turn, rules);
        return Ok(body);
    }
    // What the history does not carry, and is never withheld: what every turn of the
    // conversation carries (the system text, fields and tools), and this turn's own (the
    // rounds, the caller's messages; the live turn the plan prices itself, as it prices the
    // history, since a provider that merges turns of one role may carry it inside the
    // history's last turn).
    let (mut base, mut tail) = (0u64, 0u64);
    for cost in &unbudgeted.messages {
        let tokens = cost.text_tokens as u64 + cost.image_tokens + cost.file_tokens;
        match cost.of {
            Of::System | Of::Fields | Of::Tools => base += tokens,
            Of::Round(_) | Of::Appended(_) => tail += tokens,
            Of::Live(_) | Of::History(_) => {}
        }
    }
    // The outputs of the rounds in flight that a budget may withhold, oldest first.
    let mut outputs = Vec::new();
    for (index, round) in turn.rounds.iter().enumerate() {
        for (answer, answered) in rounds::answered(index, round, rules.provider)?
            .iter()
            .enumerate()
        {
            let output = &answered.output.output;
            if output.len() <= FLOOR {
                continue;
            }
            let marker = Piece::OutputWithheld {
                tool_name: answered.name,
                is_error: answered.output.is_error,
                bytes: output.len(),
            };
            let savings =
                (count_text(budget.count, output) as u64)
                    .saturating_sub(count_text(budget.count, &marker) as u64);
            outputs.push(RoundOutput {
                round: index,
                answer,
                savings,
            });
        }
    }
    // The plan sees only what is sent: a compaction's replaced messages are not.
    let sent = turn.sent(rules);
    let mut plan = Plan::new(
        sent.history,
        sent.live,
        turn.vision_given(),
        &native,
        &budget,
        (base, tail),
        outputs,
        sent.replaced > 0 && !sent.history.is_empty(),
    );
    loop {
        let assembled = assemble(turn, rules, limits, Some(&plan))?;
        let mut body = make(assembled);
        let estimate = estimate_counted(&body, budget.images, budget.count);
        let fitted = total(&estimate);
        if fitted <= budget.tokens {
            body.told_mut().withheld = Some(plan.report(whole.saturating_sub(fitted)));
            return Ok(body);
        }
        if !plan.advance(fitted - budget.tokens) {
            let names = Names {
                fields: fields_name(turn, rules),
                merged_live: merged_live(&estimate, rules, sent.live, turn, &budget),
            };
            return Err(BodyError::new(Kind::BudgetTooSmall {
                needed: fitted,
                budget: budget.tokens,
                parts: parts(&estimate, &names),
            }));
        }
    }
}

/// The anchor of the history's size: the newest message of the history as it is sent (from
/// any compaction it honors on) that the assistant wrote with its provider's reported usage,
/// and holds no compaction (whose usage counted what it replaced); by its index in the
/// record, with the input its request read (cache reads and writes included, whichever way
/// the provider counts them) and the output it wrote. A body a budget withheld from has none:
/// it no longer sends what the usage counted.
fn anchor(turn: &Turn<'_>, rules: &Rules) -> Option<Anchored> {
    let sent = turn.sent(rules);
    let first = turn
        .history_given()
        .len()
        .saturating_sub(sent.history.len());
    sent.history
        .iter()
        .enumerate()
        .rev()
        .find_map(|(index, message)| {
            let usage = message.usage.filter(|_| message.role == Role::Assistant)?;
            if message.blocks.iter().any(Block::is_compaction) {
                return None;
            }
            let input = match usage.context_tokens {
                0 => rounds::context_tokens(rules.provider, &usage),
                context => context,
            };
            Some(Anchored {
                message: first + index,
                tokens: input.saturating_add(usage.output_tokens),
            })
        })
}

/// What the parts of a body that cannot be fitted are called, beyond what each cost says.
struct Names {
    /// The name of the top-level fields, for what they hold.
    fields: &'static str,
    /// The tokens of the live turn's messages that a provider merging adjacent turns of one
    /// role carries inside the history's last turn.
    merged_live: u64,
}

/// The top-level fields named for what they hold: the neutral parameters the crate wrote
/// (model, output limit, ...), the caller's own fields, or both.
fn fields_name(turn: &Turn<'_>, rules: &Rules) -> &'static str {
    match (
        turn.params.writes_fields(rules.provider),
        turn.fields.is_empty(),
    ) {
        (true, true) => "the parameters",
        (true, false) => "the parameters and the caller's fields",
        (false, true | false) => "the caller's fields",
    }
}

/// The tokens of the live turn's leading messages that the provider merged into the
/// history's last turn (a provider that rejects adjacent turns of one role carries a live
/// user message in the user turn before it, such as the marker of the withheld history), each
/// priced as replayed on its own, as the plan prices the live turn; 0 when none merged.
fn merged_live(
    estimate: &Estimate,
    rules: &Rules,
    live: &[crate::record::StoredMessage],
    turn: &Turn<'_>,
    budget: &crate::fit::Budget<'_>,
) -> u64 {
    if !rules.merges_same_role {
        return 0;
    }
    // The live messages before the first turn that begins with one are carried by the
    // turn before it.
    let merged = estimate
        .messages
        .iter()
        .find_map(|cost| match cost.of {
            Of::Live(index) => Some(index),
            Of::System
            | Of::Fields
            | Of::Tools
            | Of::History(_)
            | Of::Round(_)
            | Of::Appended(_) => None,
        })
        .unwrap_or(live.len());
    live.iter()
        .take(merged)
        .map(|message| cost_alone(message, turn.vision_given(), budget))
        .fold(0, u64::saturating_add)
}

/// What a body that cannot be fitted carries, by part, largest first: the parts a budget
/// never withholds (the system text, the parameters and the caller's fields, the tools, the
/// live turn, each round in flight with its outputs withheld, the caller's messages) and what
/// is left of the history. The live turn is named so wherever the provider places it: what
/// of it a merged turn of the history carries counts as the live turn.
fn parts(estimate: &Estimate, names: &Names) -> Vec<(String, u64)> {
    let mut parts: Vec<(String, u64)> = Vec::new();
    let mut add =
        |name: String, tokens: u64| match parts.iter_mut().find(|(known, _)| *known == name) {
            Some((_, sum)) => *sum += tokens,
            None => parts.push((name, tokens)),
        };
    // The history's last turn, which carries the live turn's merged messages.
    let carrier = estimate
        .messages
        .iter()
        .rposition(|cost| matches!(cost.of, Of::History(_)));
    for (index, cost) in estimate.messages.iter().enumerate() {
        let name = match cost.of {
            Of::System => "the system text".to_owned(),
            Of::Fields => names.fields.to_owned(),
            Of::Tools => "the tool declarations".to_owned(),
            Of::History(_) => "what is left of the history".to_owned(),
            Of::Live(_) => "the live turn".to_owned(),
            Of::Round(round) => format!("round {} in flight", round + 1),
            Of::Appended(_) => "the caller's appended messages".to_owned(),
        };
        let tokens = cost.text_tokens as u64 + cost.image_tokens + cost.file_tokens;
        match carrier == Some(index) {
            true => {
                let live = names.merged_live.min(tokens);
                add(name, tokens - live);
                add("the live turn".to_owned(), live);
            }
            false => add(name, tokens),
        }
    }
    parts.retain(|(_, tokens)| *tokens > 0);
    // Stable: parts of one size stay in the body's order.
    parts.sort_by_key(|(_, tokens)| std::cmp::Reverse(*tokens));
    parts
}
