//! The runtime's own compaction, on any provider: the request that asks the model for a
//! summary of the history ([`Turn::summary_request`]), and the stored message its reply
//! becomes ([`StoredMessage::compaction`]), which every later turn honors as it honors a
//! provider's own compaction.

use std::borrow::Cow;
use std::sync::Arc;

use super::Turn;
use crate::record::{Block, Role, StoredMessage};
use crate::reply::Reply;

/// The question a summary request ends with, exactly: what the model is asked to write in
/// place of the history. [`Turn::summary_request`] sends it as the last user message, the
/// instructions of the turn's [`Compaction`](crate::Compaction) after it when it has some.
///
/// ```
/// assert!(transcript_replay::SUMMARY_REQUEST.starts_with("Write a summary of the conversation so far"));
/// ```
pub const SUMMARY_REQUEST: &str = "Write a summary of the conversation so far, to replace it: \
what the task is, what has been done and found, what was decided and why, the files, names and \
values the work depends on, and what remains to do next. Write it for yourself, continuing the \
work without the earlier messages. Answer with the summary alone.";

impl<'a> Turn<'a> {
    /// The turn that asks the same model for a summary of the history, to replace it: the
    /// history replayed as this turn replays it (any earlier compaction honored, fitted to the
    /// turn's budget when it has one, with its instructions, parameters and fields), then one
    /// user message, [`SUMMARY_REQUEST`], followed after a blank line by the instructions of
    /// the turn's [`Compaction`](crate::Compaction) when it gives some. It asks for no tools,
    /// no tool choice, no reply schema and no provider compaction; the live turn, the rounds in
    /// flight and the caller's appended messages are not part of it (the summary replaces the
    /// history the live turn follows).
    ///
    /// Its reply becomes the stored message [`StoredMessage::compaction`], which the runtime
    /// appends to the record: from the next turn on, the history before it is sent as its
    /// summary.
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn, SUMMARY_REQUEST};
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?"), StoredMessage::assistant("Yes.")];
    /// let live = [StoredMessage::user("And b.rs?")];
    /// let turn = Turn::new(&history).without_preamble().live(&live);
    /// let body = serde_json::to_value(openai::body(&turn.summary_request())?).unwrap();
    /// let messages = body["messages"].as_array().unwrap();
    /// assert_eq!(messages.len(), 3);
    /// assert_eq!(messages[2]["content"], SUMMARY_REQUEST);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn summary_request(&self) -> Turn<'a> {
        let mut question = SUMMARY_REQUEST.to_owned();
        if let Some(instructions) = self
            .params
            .compaction
            .as_ref()
            .and_then(crate::Compaction::instructions_given)
        {
            question.push_str("\n\n");
            question.push_str(instructions);
        }
        let mut turn = self.clone();
        turn.live = Cow::Owned(vec![StoredMessage::user(question)]);
        turn.rounds.clear();
        turn.appended = Arc::default();
        turn.tools = &[];
        turn.tool_choice = None;
        turn.prefill = false;
        turn.params.reply_schema = None;
        turn.params.compaction = None;
        turn
    }
}

impl StoredMessage {
    /// The stored message a summary request's reply becomes
    /// ([`Turn::summary_request`]): an assistant message holding one
    /// [`Block::Compaction`] whose summary is the reply's text ([`Reply::text`]). Appended to
    /// the record, it replaces the history before it on every provider, from the next turn on.
    /// It carries no usage: what the reply reported counted the history it replaces.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Block, Role, StoredMessage};
    ///
    /// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
    ///     {"type": "text", "text": "The user asked about a.rs; it is empty."}],
    ///     "stop_reason": "end_turn", "usage": {"input_tokens": 900, "output_tokens": 12}}"#)?;
    /// let stored = StoredMessage::compaction(&reply);
    /// assert_eq!(stored.role, Role::Assistant);
    /// assert_eq!(stored.blocks, [Block::compaction("The user asked about a.rs; it is empty.")]);
    /// assert_eq!(stored.usage, None);
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn compaction(reply: &Reply) -> StoredMessage {
        StoredMessage::new(Role::Assistant, vec![Block::compaction(reply.text())])
    }
}
