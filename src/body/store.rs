//! The turn stored: the one message a turn becomes once it ends (`store_turn`), or once the
//! runtime stops it (`store_interrupted`), and what it adds to the record.

use super::{BodyError, Turn};
use crate::record::StoredMessage;
use crate::reply::Reply;
use crate::turn::rounds;

impl Turn<'_> {
    /// The one stored message the turn becomes, once `last` (the reply that called no more
    /// tools) has come: every block of every round's reply and of `last`, in order, each tool
    /// call followed by its result (its name from the call, whether it failed from the
    /// output, the output's images after it as `image` blocks), and the usage summed (what
    /// the turn cost) with [`context_tokens`](crate::TokenUsage::context_tokens) set to the
    /// context the turn ended with: `last`'s input, cache reads and writes included. No
    /// signature or encrypted reasoning is stored: from the next turn on, the turn replays as
    /// prose. Ids the crate made for calls that came without one are made again with each
    /// round's number (`made_{round}_{k}`), so that they are unique in the stored turn.
    ///
    /// # Errors
    ///
    /// The [`BodyError`] of a round whose outputs do not answer its calls, or of a reply of
    /// another provider; and [`ToolLinkage::LastReplyCallsTools`](crate::errors::ToolLinkage)
    /// when `last` still calls tools (it does not end the turn: send its round, or store the
    /// turn cut short with [`store_interrupted`](Turn::store_interrupted)).
    ///
    /// ```
    /// use transcript_replay::{anthropic, Block, StoredMessage, ToolOutput, Turn};
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?")];
    /// let call = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}],
    ///     "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}"#).unwrap();
    /// let outputs = [ToolOutput::ok("toolu_1", "")];
    /// let last = anthropic::read_reply(r#"{"role": "assistant", "content": [{"type": "text", "text": "Yes."}],
    ///     "stop_reason": "end_turn", "usage": {"input_tokens": 20, "output_tokens": 2}}"#).unwrap();
    /// let stored = Turn::new(&history).round(&call, &outputs).store_turn(&last)?;
    /// assert_eq!(stored.blocks, [
    ///     Block::tool_use("toolu_1", "read", transcript_replay::ToolInput::json(r#"{"path":"a.rs"}"#).unwrap()),
    ///     Block::tool_result("toolu_1", "read", ""),
    ///     Block::text("Yes."),
    /// ]);
    /// let usage = stored.usage.unwrap();
    /// assert_eq!((usage.input_tokens, usage.output_tokens, usage.context_tokens), (30, 7, 20));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn store_turn(&self, last: &Reply) -> Result<StoredMessage, BodyError> {
        // The turn is the first round's provider's; a reply of another is the error.
        let provider = self
            .rounds
            .first()
            .map_or(last.provider(), |round| round.reply.provider());
        rounds::stored(&self.rounds, last, provider)
    }

    /// The one stored message of a turn the runtime stopped before it ended (the user
    /// cancelled, a deadline passed): every round that ran, each call followed by its result
    /// where one came and alone where none did, then `partial`, the reply as far as it came
    /// (the text a stream had given, as a stored message), when there is one. A call alone
    /// replays as prose like any other, so the next turn's request owes it nothing. The usage
    /// is summed as [`store_turn`](Turn::store_turn) sums it.
    ///
    /// # Errors
    ///
    /// The [`BodyError`] of a round whose outputs answer no call of it, answer one twice, or
    /// whose reply is another provider's.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Block, Role, StoredMessage, ToolInput, ToolOutput, Turn};
    ///
    /// let history = [StoredMessage::user("Read a.rs and b.rs.")];
    /// let call = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}},
    ///     {"type": "tool_use", "id": "toolu_2", "name": "read", "input": {"path": "b.rs"}}],
    ///     "stop_reason": "tool_use"}"#).unwrap();
    /// // The runtime was stopped after the first tool ran, while the model began to answer.
    /// let outputs = [ToolOutput::ok("toolu_1", "")];
    /// let partial = StoredMessage::assistant("a.rs is");
    /// let stored = Turn::new(&history).round(&call, &outputs).store_interrupted(Some(&partial))?;
    /// assert_eq!(stored.blocks, [
    ///     Block::tool_use("toolu_1", "read", ToolInput::json(r#"{"path":"a.rs"}"#).unwrap()),
    ///     Block::tool_result("toolu_1", "read", ""),
    ///     Block::tool_use("toolu_2", "read", ToolInput::json(r#"{"path":"b.rs"}"#).unwrap()),
    ///     Block::text("a.rs is"),
    /// ]);
    /// assert_eq!(stored.role, Role::Assistant);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn store_interrupted(
        &self,
        partial: Option<&StoredMessage>,
    ) -> Result<StoredMessage, BodyError> {
        rounds::stored_interrupted(&self.rounds, partial)
    }

    /// What the turn adds to the record, in one call: the live turn's messages, then the one
    /// stored message [`store_turn`](Turn::store_turn) makes of the rounds and the last reply.
    /// Append them to the stored history and the next turn replays them.
    ///
    /// # Errors
    ///
    /// The [`BodyError`] of [`store_turn`](Turn::store_turn).
    ///
    /// ```
    /// use transcript_replay::{anthropic, Role, StoredMessage, Turn};
    ///
    /// let mut history = vec![StoredMessage::user("Hi.")];
    /// let live = [StoredMessage::user("Is a.rs empty?")];
    /// let reply = anthropic::read_reply(r#"{"content": [{"type": "text", "text": "Yes."}], "stop_reason": "end_turn"}"#).unwrap();
    /// let append = Turn::new(&history).live(&live).messages_to_append(&reply)?;
    /// history.extend(append);
    /// let roles: Vec<Role> = history.iter().map(|message| message.role).collect();
    /// assert_eq!(roles, [Role::User, Role::User, Role::Assistant]);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn messages_to_append(&self, last: &Reply) -> Result<Vec<StoredMessage>, BodyError> {
        let stored = self.store_turn(last)?;
        Ok(self.live.iter().cloned().chain([stored]).collect())
    }
}
