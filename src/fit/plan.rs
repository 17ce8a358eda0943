//! What a budget withholds: the oldest bulk of the history, class by class (tool outputs,
//! then tool inputs, then reasoning, then native images, then the long texts of user
//! messages, then whole messages), and how far, as a pure function of the record, the live
//! turn and the budget that moves in steps; and, when what the body carries besides the
//! history does not fit, the outputs of the rounds in flight, oldest first.
//!
//! Everything that can be withheld is an item with a key, `(class, message, block)`, and the
//! plan withholds every item whose key is at most its level, and the items it lets go of
//! alone. Both are found on the record as it grew: each time the record's growth crossed a step
//! of the budget, what was still missing was freed by the items of the record as it was then:
//! by one item alone when one frees it all (the first in order that does: one large paste goes,
//! and every tool output stays); else by taking them oldest first, class by class, which moves
//! the level. A record that grows
//! keeps every earlier crossing, so what is withheld only grows, and it changes only when a new
//! step is crossed.

use super::Budget;
use crate::cost::Withheld;
use crate::cost::{count_text, file_tokens, image_cost};
use crate::media::marker::Reason;
use crate::record::{Block, StoredMessage};
use crate::render::native_images::stepped;
use crate::replay::{input_bytes, replay_message, unseen, unseen_file, Vision};
use crate::wire::{Part, Piece};

/// Outputs, inputs, reasoning and user texts of at most this many bytes are never withheld.
pub(crate) const FLOOR: usize = 256;

/// What an item is, in the order the classes are withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Output,
    Input,
    Reasoning,
    /// Native images and files, withheld together, oldest first.
    Image,
    Text,
    Message,
}

/// An item's place in the order of withholding.
type Key = (Class, usize, usize);

#[derive(Debug, Clone)]
struct Item {
    key: Key,
    /// The tokens withholding it frees.
    savings: u64,
}

/// An output of a round in flight that a budget may withhold: its round, its place among
/// the round's answers (in the calls' order), and the tokens withholding it frees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RoundOutput {
    pub(crate) round: usize,
    pub(crate) answer: usize,
    pub(crate) savings: u64,
}

/// How far a budget withholds, and what it can withhold.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// The leading messages never withheld whole: the one holding the honored compaction,
    /// then the system messages that follow it (or, with no compaction, that begin it).
    lead: usize,
    /// Every item, in key order.
    items: Vec<Item>,
    /// The key of the last item withheld in order.
    level: Option<Key>,
    /// The items past the level withheld alone, in key order: never a whole message (those go
    /// oldest first, after the lead).
    alone: Vec<Key>,
    /// The outputs of the rounds in flight above the floor, oldest first, and how many of
    /// them are withheld.
    rounds: Vec<RoundOutput>,
    rounds_withheld: usize,
    step: u64,
}

impl Plan {
    /// The plan for a history under a budget: `fixed` is what the body carries besides the
    /// history (never withheld), split into what every turn of the conversation carries
    /// (system text, fields, tools) and this turn's own (the live turn, rounds, appended
    /// messages), which is counted in whole steps so that its size from turn to turn moves
    /// nothing. `native` says which of the history's images the unbudgeted body sends.
    /// `rounds` are the outputs of the rounds in flight that may be withheld: when the fixed
    /// part alone exceeds the budget, the oldest are withheld until it fits, before anything
    /// of the history (the history can only free what it costs).
    ///
    /// `compacted` says that the history's first message holds the compaction the body
    /// honors: it is never withheld whole, since the marker of the messages it replaced
    /// stands before it and announces its summary (the two are sent together or not at all).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        history: &[StoredMessage],
        live: &[StoredMessage],
        vision: Vision,
        native: &[bool],
        budget: &Budget<'_>,
        (base, tail): (u64, u64),
        rounds: Vec<RoundOutput>,
        compacted: bool,
    ) -> Self {
        let step = budget.step_tokens();
        let kept = usize::from(compacted).min(history.len());
        let lead = kept
            + history
                .iter()
                .skip(kept)
                .take_while(|message| message.role == crate::record::Role::System)
                .count();
        let tail = live
            .iter()
            .map(|message| cost_alone(message, vision, budget))
            .fold(tail, u64::saturating_add);
        let (items, growth) = items(history, vision, native, budget, lead);
        // The rounds' outputs that must go for the fixed part to fit at all.
        let (tail, rounds_withheld) = rounds_to_fit(&rounds, base, tail, budget.tokens);
        let mut plan = Plan {
            lead,
            items,
            level: None,
            alone: Vec::new(),
            rounds,
            rounds_withheld,
            step,
        };
        plan.withhold_as_grown(&growth, base, tail, budget.tokens);
        plan
    }

    /// Sets the level the record asks for as it grew (`growth` is what each message of the
    /// history added): at each crossing of a step of the budget, the items of the record as it
    /// was then, taken oldest first until they free the steps it is over; the furthest of
    /// those.
    fn withhold_as_grown(&mut self, growth: &[u64], base: u64, tail: u64, budget: u64) {
        let step = self.step;
        // The record as it grew: each crossing of a step, and the level it asked for.
        let tail = tail.div_ceil(step).saturating_mul(step);
        let mut grown = base.saturating_add(tail);
        let mut target_before = 0;
        for length in 0..=growth.len() {
            if let Some(cost) = length.checked_sub(1).and_then(|last| growth.get(last)) {
                grown = grown.saturating_add(*cost);
            }
            let over = grown.saturating_sub(budget);
            let target = stepped(
                usize::try_from(over).unwrap_or(usize::MAX),
                usize::try_from(step).unwrap_or(usize::MAX),
            ) as u64;
            if target > target_before {
                self.free(length, target);
                target_before = target;
            }
        }
    }

    /// Withholds what the first `length` messages must free for `target` tokens to be freed
    /// among them: nothing more when what is withheld frees it; else one item alone, the
    /// first in order that frees what is missing by itself (so that one large paste goes and
    /// every tool output stays: the level would take every item of the classes before it);
    /// else the items in order, past the level, until it is freed.
    fn free(&mut self, length: usize, target: u64) {
        let among = |item: &&Item| item.key.1 < length;
        let freed: u64 = self
            .items
            .iter()
            .filter(among)
            .filter(|item| self.withholds(item.key))
            .map(|item| item.savings)
            .sum();
        let Some(missing) = target.checked_sub(freed).filter(|missing| *missing > 0) else {
            return;
        };
        let alone = self.items.iter().filter(among).find(|item| {
            item.key.0 != Class::Message && !self.withholds(item.key) && item.savings >= missing
        });
        if let Some(item) = alone {
            let at = self.alone.partition_point(|key| *key < item.key);
            self.alone.insert(at, item.key);
            return;
        }
        let mut in_order = (0u64, None);
        for item in self
            .items
            .iter()
            .filter(among)
            .filter(|item| !self.withholds(item.key))
        {
            in_order = (in_order.0.saturating_add(item.savings), Some(item.key));
            if in_order.0 >= missing {
                break;
            }
        }
        self.level = self.level.max(in_order.1);
    }

    /// Withholds further, past the level, until `more` tokens are freed (at least a step, so
    /// that an estimate of the savings that runs low costs few rebuilds); when the history
    /// has nothing left, the next output of the rounds in flight; false when nothing is left
    /// to withhold.
    pub(crate) fn advance(&mut self, more: u64) -> bool {
        if self.advance_history(more) {
            return true;
        }
        if self.rounds_withheld < self.rounds.len() {
            self.rounds_withheld += 1;
            return true;
        }
        false
    }

    fn advance_history(&mut self, more: u64) -> bool {
        let target = more.max(self.step);
        let level = self.level;
        let mut freed = 0u64;
        let mut last = None;
        for item in self
            .items
            .iter()
            .filter(|item| Some(item.key) > level && self.alone.binary_search(&item.key).is_err())
        {
            freed = freed.saturating_add(item.savings);
            last = Some(item.key);
            if freed >= target {
                break;
            }
        }
        match last {
            Some(key) => {
                self.level = Some(key);
                true
            }
            None => false,
        }
    }

    fn withholds(&self, key: Key) -> bool {
        Some(key) <= self.level || self.alone.binary_search(&key).is_ok()
    }

    /// Whether the output, input, reasoning or user text of this block is withheld (in a
    /// message kept).
    pub(crate) fn block(&self, message: usize, block: usize) -> bool {
        // A file is withheld with the images; an image block is never asked about here.
        [
            Class::Output,
            Class::Input,
            Class::Reasoning,
            Class::Image,
            Class::Text,
        ]
        .into_iter()
        .any(|class| self.is_item(class, message, block))
    }

    /// Whether the output of this answer of this round in flight is withheld.
    pub(crate) fn round_output(&self, round: usize, answer: usize) -> bool {
        self.rounds
            .iter()
            .take(self.rounds_withheld)
            .any(|output| (output.round, output.answer) == (round, answer))
    }

    fn is_item(&self, class: Class, message: usize, block: usize) -> bool {
        self.withholds((class, message, block))
            && self
                .items
                .binary_search_by_key(&(class, message, block), |item| item.key)
                .is_ok()
    }

    /// Whether the image of this block is withheld.
    pub(crate) fn image(&self, message: usize, block: usize) -> bool {
        self.is_item(Class::Image, message, block)
    }

    /// The stored messages withheld whole: those from `lead` on, `count` of them.
    pub(crate) fn messages(&self) -> (usize, usize) {
        let count = self
            .items
            .iter()
            .filter(|item| item.key.0 == Class::Message && self.withholds(item.key))
            .count();
        (self.lead, count)
    }

    /// What the plan withholds, with the tokens that freed.
    pub(crate) fn report(&self, tokens: u64) -> Withheld {
        let (lead, count) = self.messages();
        let kept = |message: usize| message < lead || message >= lead + count;
        let mut withheld = Withheld {
            outputs: self.rounds_withheld,
            messages: count,
            tokens,
            ..Withheld::default()
        };
        for item in &self.items {
            let (class, message, _) = item.key;
            if !self.withholds(item.key) || !kept(message) {
                continue;
            }
            if self.alone.binary_search(&item.key).is_ok() && Some(item.key) > self.level {
                withheld.alone += 1;
            }
            match class {
                Class::Output => withheld.outputs += 1,
                Class::Input => withheld.inputs += 1,
                Class::Reasoning => withheld.reasoning += 1,
                Class::Image => withheld.images += 1,
                Class::Text => withheld.texts += 1,
                Class::Message => {}
            }
        }
        withheld
    }
}

/// The tokens a text costs under the budget's count.
fn tokens(budget: &Budget<'_>, text: &dyn std::fmt::Display) -> u64 {
    count_text(budget.count, &text) as u64
}

/// What a message costs as replayed on its own, whatever turn it is merged into.
pub(crate) fn cost_alone(message: &StoredMessage, vision: Vision, budget: &Budget<'_>) -> u64 {
    replay_message(message, vision)
        .content
        .iter()
        .map(|part| match part {
            Part::Text(text) => tokens(budget, text),
            Part::Image(image) => image_cost(budget.images, image.data()),
            Part::File(file) => file_tokens(budget.images, file.media_type(), file.data()),
            Part::Compaction(compaction) => {
                compaction
                    .summary
                    .map_or(0, |summary| tokens(budget, &summary))
                    + compaction.data.map_or(0, |data| tokens(budget, &data))
            }
        })
        .sum()
}

/// Every item of the history a budget may withhold, in key order, and what each message
/// costs as replayed on its own (its growth). A message after the leading system ones is
/// an item too, which frees what its blocks' items do not.
fn items(
    history: &[StoredMessage],
    vision: Vision,
    native: &[bool],
    budget: &Budget<'_>,
    lead: usize,
) -> (Vec<Item>, Vec<u64>) {
    let mut items = Vec::new();
    let mut growth = Vec::with_capacity(history.len());
    let mut image = 0;
    for (index, message) in history.iter().enumerate() {
        // What the message costs as replayed on its own: its growth.
        let cost = cost_alone(message, vision, budget);
        growth.push(cost);
        let mut freed = 0;
        for (block_index, block) in message.blocks.iter().enumerate() {
            let Some((class, savings)) =
                withholdable(message, block, vision, native, &mut image, budget)
            else {
                continue;
            };
            freed += savings;
            items.push(Item {
                key: (class, index, block_index),
                savings,
            });
        }
        if index >= lead {
            items.push(Item {
                key: (Class::Message, index, 0),
                savings: cost.saturating_sub(freed),
            });
        }
    }
    items.sort_by_key(|item| item.key);
    (items, growth)
}

/// A block's class, and the tokens withholding it frees, when a budget may withhold it: an
/// output, input, reasoning or user text over [`FLOOR`] bytes, an image the body sends
/// natively, or a file replay shows. `image` numbers the images replay shows, as `native`
/// does, and counts this one when it is one.
fn withholdable(
    message: &StoredMessage,
    block: &Block,
    vision: Vision,
    native: &[bool],
    image: &mut usize,
    budget: &Budget<'_>,
) -> Option<(Class, u64)> {
    let count = |text: &dyn std::fmt::Display| tokens(budget, text);
    let found = match block {
        Block::ToolResult {
            tool_name,
            output,
            is_error,
            ..
        } if output.len() > FLOOR => {
            let kept = Piece::ToolResult {
                tool_name,
                output,
                is_error: *is_error,
            };
            let withheld = Piece::OutputWithheld {
                tool_name,
                is_error: *is_error,
                bytes: output.len(),
            };
            (Class::Output, count(&kept).saturating_sub(count(&withheld)))
        }
        Block::ToolUse { name, input, .. } if input_bytes(input) > FLOOR => {
            let kept = Piece::ToolUse {
                name,
                input: input.as_str(),
                json_value: input.is_json_value(),
            };
            let withheld = Piece::InputWithheld {
                name,
                bytes: input_bytes(input),
            };
            (Class::Input, count(&kept).saturating_sub(count(&withheld)))
        }
        Block::Reasoning { reasoning } if reasoning.len() > FLOOR => {
            let kept = Piece::Reasoning(reasoning);
            let withheld = Piece::ReasoningWithheld {
                bytes: reasoning.len(),
            };
            (
                Class::Reasoning,
                count(&kept).saturating_sub(count(&withheld)),
            )
        }
        Block::Text { text } if message.role == crate::record::Role::User && text.len() > FLOOR => {
            let withheld = Piece::TextWithheld { bytes: text.len() };
            (
                Class::Text,
                count(&Piece::Text(text)).saturating_sub(count(&withheld)),
            )
        }
        Block::Image { media_type, data } => {
            if unseen(media_type, data, vision).is_some() {
                return None;
            }
            let ordinal = *image;
            *image += 1;
            if !native.get(ordinal).copied().unwrap_or(false) {
                return None;
            }
            let marker = Piece::ImageNotShown {
                media_type,
                reason: Reason::Fit,
            };
            (
                Class::Image,
                image_cost(budget.images, data).saturating_sub(count(&marker)),
            )
        }
        // A file replay shows, withheld with the images: by the tokens it costs where
        // the provider takes it (where it does not, it is a marker already, and
        // withholding it frees nothing the estimate will not find).
        Block::File {
            media_type,
            data,
            name,
        } if unseen_file(media_type, data, vision).is_none() => {
            let marker = Piece::FileNotShown {
                media_type,
                name: name.as_deref(),
                reason: Reason::Fit,
            };
            (
                Class::Image,
                file_tokens(budget.images, media_type, data).saturating_sub(count(&marker)),
            )
        }
        Block::Text { .. }
        | Block::ToolResult { .. }
        | Block::ToolUse { .. }
        | Block::Reasoning { .. }
        | Block::File { .. }
        | Block::Source { .. }
        | Block::Compaction { .. }
        | Block::Unknown { .. } => return None,
    };
    Some(found)
}

/// The oldest outputs of the rounds in flight withheld until the fixed part (`base` and
/// `tail`) fits the budget, or none is left: the tail that leaves, and how many they are.
fn rounds_to_fit(rounds: &[RoundOutput], base: u64, tail: u64, budget: u64) -> (u64, usize) {
    let mut tail = tail;
    let mut rounds_withheld = 0;
    for output in rounds {
        if base.saturating_add(tail) <= budget {
            break;
        }
        tail = tail.saturating_sub(output.savings);
        rounds_withheld += 1;
    }
    (tail, rounds_withheld)
}
