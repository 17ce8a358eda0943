//! A streamed Chat reply's tool calls: each delta matched to its call (by its `index`, else
//! its `id`, else the call before it, as the stream reader's docs say), each call's input as
//! its pieces came, and the calls as the message carries them back.

use serde_json::value::RawValue;

use super::chunk::CallDelta;
use super::native;
use crate::record::Block;
use crate::reply;
use crate::stream::{Blocks, Delta};

/// A tool call, as the deltas have matched it so far.
#[derive(Debug)]
struct Call {
    /// The `index` its deltas carry, when they carry one.
    index: Option<usize>,
    /// Whether its id is the provider's (not one the crate made).
    real_id: bool,
    named: bool,
    kind: String,
    /// The provider's id of the call, once one came.
    id: Option<String>,
    /// For a custom tool's call, whether its input's JSON string is closed (the choice ended).
    closed: bool,
    /// The call as the round sends it back: its members as they came, among them Gemini's
    /// `extra_content` (`google.thought_signature`), which the server needs back.
    native: native::Call,
}

/// The calls so far, keyed from 0 by their order among the blocks.
#[derive(Debug, Default)]
pub(super) struct Calls {
    calls: Vec<Call>,
    /// The call the last delta went to.
    current: Option<usize>,
}

impl Calls {
    /// A tool-call delta: it goes to its call, begun when it is new (the reply's call
    /// `made`, counted up, which names a call that has no id), and its piece to the call's
    /// input.
    pub(super) fn take(
        &mut self,
        delta: &CallDelta,
        raw: &RawValue,
        blocks: &mut Blocks,
        made: &mut usize,
        deltas: &mut Vec<Delta>,
    ) {
        let key = self.call_of(delta, blocks, made, deltas);
        self.current = Some(key);
        let Some(known) = self.calls.get_mut(key) else {
            return;
        };
        known.native.take(raw);
        let piece = delta.piece();
        if known.kind != "custom" {
            blocks.input(key, piece, deltas);
        } else if !known.closed {
            // A custom tool's free-form input is stored as its JSON string.
            blocks.free_input(key, piece, deltas);
        }
    }

    /// The call a delta goes to, begun when it is new.
    fn call_of(
        &mut self,
        delta: &CallDelta,
        blocks: &mut Blocks,
        made: &mut usize,
        deltas: &mut Vec<Delta>,
    ) -> usize {
        let id = delta.id.as_deref().filter(|id| !id.is_empty());
        let name = delta.name();
        let found = match (delta.index, id) {
            (Some(index), _) => {
                let key = self
                    .calls
                    .iter()
                    .rposition(|call| call.index == Some(index));
                // A new id at a taken index is a new call.
                match (key, id) {
                    (Some(key), Some(id))
                        if self.calls.get(key).is_some_and(|call| call.real_id)
                            && blocks.call_id(key) != Some(id) =>
                    {
                        None
                    }
                    (key, _) => key,
                }
            }
            (None, Some(id)) => (0..self.calls.len())
                .rev()
                .find(|&key| blocks.call_id(key) == Some(id)),
            (None, None) => match (self.current, name) {
                (Some(current), Some(_))
                    if self.calls.get(current).is_some_and(|call| call.named) =>
                {
                    None
                }
                (current, _) => current,
            },
        };
        match found {
            Some(key) => {
                blocks.name_call(key, id, name);
                if let Some(call) = self.calls.get_mut(key) {
                    call.named |= name.is_some();
                    call.real_id |= id.is_some();
                    if call.id.is_none() {
                        call.id = id.map(str::to_owned);
                    }
                }
                key
            }
            None => {
                let key = self.calls.len();
                let made_id = reply::made_id(0, *made);
                *made += 1;
                blocks.call(
                    key,
                    id.unwrap_or(&made_id),
                    name.unwrap_or_default(),
                    false,
                    deltas,
                );
                self.calls.push(Call {
                    index: delta.index,
                    real_id: id.is_some(),
                    named: name.is_some(),
                    kind: (delta.kind.clone().filter(|kind| !kind.is_empty())).unwrap_or_else(
                        || {
                            let custom = delta.custom.is_some();
                            (if custom { "custom" } else { "function" }).to_owned()
                        },
                    ),
                    id: id.map(str::to_owned),
                    closed: false,
                    native: native::Call::default(),
                });
                key
            }
        }
    }

    /// The choice has ended: the closing quote of each custom tool's input (`""` for a call
    /// that streamed none), as the whole reply stores it.
    pub(super) fn end(&mut self, blocks: &mut Blocks, deltas: &mut Vec<Delta>) {
        for (key, call) in self.calls.iter_mut().enumerate() {
            if call.kind != "custom" || call.closed || !call.named {
                continue;
            }
            call.closed = true;
            blocks.end_free_input(key, deltas);
        }
    }

    /// The calls as the message carries them, `tool_calls`'s JSON text; none when there is no
    /// call. A call that is none, as a whole reply's would be (of a kind the crate reads, it
    /// never got a name nor any input), is left out: the round does not send it back.
    pub(super) fn write(&self, blocks: &mut Blocks) -> Option<String> {
        let mut calls = Vec::new();
        for (key, call) in self.calls.iter().enumerate() {
            let read = matches!(call.kind.as_str(), "function" | "custom");
            if read && !call.named && blocks.block_of(key).is_some_and(|b| no_input(&b)) {
                continue;
            }
            calls.push(call.native.write(call.id.as_deref()));
        }
        (!calls.is_empty()).then(|| format!("[{}]", calls.join(",")))
    }
}

/// Whether a call's block has no input.
fn no_input(block: &Block) -> bool {
    block
        .tool_call()
        .is_some_and(|(_, input)| input.as_str().is_empty())
}
