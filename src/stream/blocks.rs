//! The blocks of a streamed reply, built as its deltas come: each keyed by the provider's own
//! index of it, each given its place in the reply when its first content arrives.

use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, Role, StoredMessage, ToolInput};
use crate::reply::{is_complete_json, At, Reply, ReplyError};

use super::{Delta, Fault};

/// A block being built.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Slot {
    Text(String),
    Reasoning(String),
    Call {
        id: String,
        name: String,
        input: String,
        /// Whether the whole reply carries the input as a JSON value (Anthropic, Bedrock),
        /// rather than as a string of JSON text (OpenAI).
        as_value: bool,
        /// Whether the provider runs the tool itself.
        provider_executed: bool,
    },
    /// A block that came whole (a server tool's result).
    Whole(Block),
}

/// The blocks of a streamed reply, in the order they began, each found by the key the
/// provider gives it (Anthropic's and Bedrock's block index, OpenAI's tool-call index).
#[derive(Debug, Default)]
pub(crate) struct Blocks {
    slots: Vec<Slot>,
    keys: Vec<(usize, usize)>,
}

impl Blocks {
    /// The block of a key, when it has begun.
    fn slot(&mut self, key: usize) -> Option<(usize, &mut Slot)> {
        let &(_, index) = self.keys.iter().rev().find(|(known, _)| *known == key)?;
        self.slots.get_mut(index).map(|slot| (index, slot))
    }

    fn begin(&mut self, key: usize, slot: Slot) -> usize {
        let index = self.slots.len();
        self.slots.push(slot);
        self.keys.push((key, index));
        index
    }

    /// Adds text to the text block of `key`, beginning it at its first text.
    pub(crate) fn text(&mut self, key: usize, text: &str, deltas: &mut Vec<Delta>) {
        self.append(key, text, false, deltas);
    }

    /// Adds reasoning to the reasoning block of `key`, beginning it at its first text.
    pub(crate) fn reasoning(&mut self, key: usize, text: &str, deltas: &mut Vec<Delta>) {
        self.append(key, text, true, deltas);
    }

    fn append(&mut self, key: usize, text: &str, reasoning: bool, deltas: &mut Vec<Delta>) {
        if text.is_empty() {
            return;
        }
        let index = match self.slot(key) {
            Some((index, Slot::Text(joined))) if !reasoning => {
                joined.push_str(text);
                index
            }
            Some((index, Slot::Reasoning(joined))) if reasoning => {
                joined.push_str(text);
                index
            }
            Some(_) | None => {
                let slot = if reasoning {
                    Slot::Reasoning(text.to_owned())
                } else {
                    Slot::Text(text.to_owned())
                };
                self.begin(key, slot)
            }
        };
        let text = text.to_owned();
        deltas.push(if reasoning {
            Delta::Reasoning { block: index, text }
        } else {
            Delta::Text { block: index, text }
        });
    }

    /// Begins a tool call at `key`; `as_value` says whether the whole reply carries its input
    /// as a JSON value rather than as a string.
    pub(crate) fn call(
        &mut self,
        key: usize,
        id: &str,
        name: &str,
        as_value: bool,
        deltas: &mut Vec<Delta>,
    ) {
        let slot = Slot::Call {
            id: id.to_owned(),
            name: name.to_owned(),
            input: String::new(),
            as_value,
            provider_executed: false,
        };
        let block = self.begin(key, slot);
        deltas.push(Delta::ToolCall {
            block,
            id: id.to_owned(),
            name: name.to_owned(),
        });
    }

    /// Names the call at `key`, when its name comes after it began; gives it its id, when a
    /// real one comes after the crate made one.
    pub(crate) fn name_call(&mut self, key: usize, new_id: Option<&str>, new_name: Option<&str>) {
        if let Some((_, Slot::Call { id, name, .. })) = self.slot(key) {
            if let Some(new_name) = new_name.filter(|new_name| !new_name.is_empty()) {
                if name.is_empty() {
                    new_name.clone_into(name);
                }
            }
            if let Some(new_id) = new_id.filter(|new_id| !new_id.is_empty()) {
                if id.starts_with(crate::reply::MADE_ID_PREFIX) {
                    new_id.clone_into(id);
                }
            }
        }
    }

    /// The id of the call at `key`.
    pub(crate) fn call_id(&mut self, key: usize) -> Option<&str> {
        match self.slot(key) {
            Some((_, Slot::Call { id, .. })) => Some(id.as_str()),
            Some(_) | None => None,
        }
    }

    /// Adds a piece of a free-form input (a custom tool's raw text) of the call at `key`,
    /// which the record stores as its JSON string: the opening quote before the first piece,
    /// each piece escaped, so that the deltas add up to the stored input.
    pub(crate) fn free_input(&mut self, key: usize, piece: &str, deltas: &mut Vec<Delta>) {
        if piece.is_empty() {
            return;
        }
        self.open_free_input(key, deltas);
        let escaped = serde_json::Value::from(piece).to_string();
        let escaped = escaped.get(1..escaped.len() - 1).unwrap_or_default();
        self.input(key, escaped, deltas);
    }

    /// Ends the free-form input of the call at `key` with its closing quote (`""` for a call
    /// that streamed none).
    pub(crate) fn end_free_input(&mut self, key: usize, deltas: &mut Vec<Delta>) {
        self.open_free_input(key, deltas);
        self.input(key, "\"", deltas);
    }

    /// The opening quote of a free-form input, when none came yet.
    fn open_free_input(&mut self, key: usize, deltas: &mut Vec<Delta>) {
        if let Some((_, Slot::Call { input, .. })) = self.slot(key) {
            if input.is_empty() {
                self.input(key, "\"", deltas);
            }
        }
    }

    /// Adds a piece of the input of the call at `key`.
    pub(crate) fn input(&mut self, key: usize, piece: &str, deltas: &mut Vec<Delta>) {
        if piece.is_empty() {
            return;
        }
        if let Some((block, Slot::Call { input, .. })) = self.slot(key) {
            input.push_str(piece);
            deltas.push(Delta::ToolInput {
                block,
                piece: piece.to_owned(),
            });
        }
    }

    /// Marks the call at `key` as one the provider runs itself.
    pub(crate) fn provider_executed(&mut self, key: usize) {
        if let Some((
            _,
            Slot::Call {
                provider_executed, ..
            },
        )) = self.slot(key)
        {
            *provider_executed = true;
        }
    }

    /// A block that came whole, at `key`.
    pub(crate) fn whole(&mut self, key: usize, block: Block) {
        self.begin(key, Slot::Whole(block));
    }

    /// A block that came whole, at `key`, in place of the one there (a block whose parts come
    /// in several events, each time whole so far).
    pub(crate) fn set_whole(&mut self, key: usize, block: Block) {
        match self.slot(key) {
            Some((_, slot)) => *slot = Slot::Whole(block),
            None => {
                self.begin(key, Slot::Whole(block));
            }
        }
    }

    /// The block that came whole at `key`, to complete as the rest of it comes (a result
    /// whose content streams after its start).
    pub(crate) fn whole_mut(&mut self, key: usize) -> Option<&mut Block> {
        match self.slot(key) {
            Some((_, Slot::Whole(block))) => Some(block),
            Some(_) | None => None,
        }
    }

    /// The blocks, built.
    pub(crate) fn blocks(&self) -> Vec<Block> {
        self.slots.iter().map(build).collect()
    }

    /// The message so far, for display.
    pub(crate) fn partial(&self) -> StoredMessage {
        StoredMessage::new(Role::Assistant, self.blocks())
    }

    /// The block of `key`, built, when it has begun.
    pub(crate) fn block_of(&mut self, key: usize) -> Option<Block> {
        self.slot(key).map(|(_, slot)| build(slot))
    }
}

/// A streamed call's input as the round in flight sends it back: the accumulated JSON as it
/// came, or `{}` when it is no complete JSON value (a call cut off, which no provider takes).
pub(crate) fn native_input(input: &ToolInput) -> &str {
    match input.is_json_value() {
        true => input.as_str(),
        false => "{}",
    }
}

/// A block, built: a call that streamed no input has `{}` (Anthropic sends `partial_json: ""`
/// for a tool without arguments, Bedrock no input delta at all).
fn build(slot: &Slot) -> Block {
    match slot {
        Slot::Text(text) => Block::text(text.clone()),
        Slot::Reasoning(text) => Block::reasoning(text.clone()),
        Slot::Whole(block) => block.clone(),
        Slot::Call {
            id,
            name,
            input,
            as_value,
            provider_executed,
        } => {
            // Text that is no complete JSON cannot stand as a JSON value.
            let input = match (input.is_empty(), as_value) {
                (true, true) => ToolInput::json_unchecked("{}".to_owned()),
                (false, true) if is_complete_json(input) => {
                    ToolInput::json_unchecked(input.clone())
                }
                (_, true | false) => ToolInput::from(input.as_str()),
            };
            Block::ToolUse {
                id: id.clone(),
                name: name.clone(),
                input,
                provider_executed: *provider_executed,
            }
        }
    }
}

/// The tool calls of a reply read from the content a stream built, each given its input as
/// the stream carried it. The content carries a call whose input came cut `{}`, which is what
/// the round in flight sends back; the stored call keeps what came, which the reply flags as
/// incomplete, as a whole body (whose inputs are always whole) never needs. The calls are
/// paired in order (the content has one for each the stream began, in the same order), each
/// pair of the same id.
pub(crate) fn streamed_inputs(read: &mut [Block], streamed: &[Block]) {
    let mut came = streamed.iter().filter_map(Block::tool_call);
    for block in read {
        if let Block::ToolUse { id, input, .. } = block {
            match came.next() {
                Some((streamed_id, streamed_input)) if streamed_id == id => {
                    streamed_input.clone_into(input);
                }
                Some(_) | None => {}
            }
        }
    }
}

/// The content a stream built (its items, each JSON text), read by the whole reply's reader
/// as the one JSON array a body carries: `read` gets the array's place and its items.
pub(crate) fn read_content(
    provider: Provider,
    items: &[Box<RawValue>],
    read: impl FnOnce(&At<'_>, &[&RawValue]) -> Result<Reply, ReplyError>,
) -> Result<Reply, Fault> {
    let mut content = String::from("[");
    for (n, item) in items.iter().enumerate() {
        if n > 0 {
            content.push(',');
        }
        content.push_str(item.get());
    }
    content.push(']');
    let at = At::body(provider, &content).map_err(|error| Fault::content(&error))?;
    let items: Vec<&RawValue> = at.read().map_err(|error| Fault::content(&error))?;
    read(&at, &items).map_err(|error| Fault::content(&error))
}

/// A stream's state of the block at `index`: the last of `kinds` under it.
pub(crate) fn kind_at<K>(kinds: &mut [(usize, K)], index: usize) -> Option<&mut K> {
    (kinds.iter_mut().rev())
        .find(|(known, _)| *known == index)
        .map(|(_, kind)| kind)
}

/// Where the keys of a cited block's sources begin, above any index a provider gives a block.
const SOURCES: usize = usize::MAX / 2;

impl Blocks {
    /// The sources of the cited block at `index`, placed right after it: each under a key of
    /// its own, after every block index.
    pub(crate) fn sources_after(&mut self, index: usize, sources: Vec<Block>) {
        for (n, source) in sources.into_iter().enumerate() {
            let key = SOURCES
                .saturating_add(index.saturating_mul(4096))
                .saturating_add(n);
            self.whole(key, source);
        }
    }
}
