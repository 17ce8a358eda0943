//! Compaction: what a `compaction` block lets go of, and how each target reads it.
//!
//! A compaction is a deliberate rewrite of the conversation's prefix: a summary (the
//! provider's or the runtime's own) and, from a provider, an opaque payload only it can read.
//! Replay honors the newest compaction the target can read: the stored messages before the
//! message holding it are not sent, one user turn says how many
//! (`[3 earlier messages replaced by the summary below]`, where fitting's marker would
//! stand), and the block goes back natively on the provider that made it or as
//! `[Summary of the earlier conversation]: {summary}`. A compaction the target cannot read
//! is a marker where it stood, and the history before it is sent as it is.
//!
//! Why a rewrite and not a withholding: the summary stands for the history, so sending both
//! would pay twice for the same context and let the model act on what the summary corrected.
//! The prefix changes once, where the compaction lands; from there on the request grows by
//! appending, and the prompt cache holds as before. Fitting and the estimate see only what is
//! sent.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::record::{Block, StoredMessage};

/// How a target writes a `compaction` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form<'a> {
    /// As the provider takes it: its summary and its payload, as stored.
    Native {
        summary: Option<&'a str>,
        provider: &'a str,
        data: Option<&'a str>,
    },
    /// As prose: its summary.
    Summary(&'a str),
    /// As the marker that says it cannot be read here, naming whose payload it is.
    NotReadable(&'a str),
}

/// How a target whose native compaction is `reads` (a provider's id; `None` for a target
/// that reads only summaries) writes a compaction block.
pub(crate) fn form<'a>(
    summary: Option<&'a str>,
    provider: Option<&'a str>,
    data: Option<&'a str>,
    reads: Option<&str>,
) -> Form<'a> {
    match (summary, provider, data) {
        (_, Some(provider), _) if Some(provider) == reads => Form::Native {
            summary,
            provider,
            data,
        },
        (Some(summary), _, _) => Form::Summary(summary),
        (None, provider, _) => Form::NotReadable(provider.unwrap_or("another provider")),
    }
}

/// Whether a block is a compaction the target can read.
fn readable(block: &Block, reads: Option<&str>) -> bool {
    match block {
        Block::Compaction {
            summary,
            provider,
            data,
        } => !matches!(
            form(
                summary.as_deref(),
                provider.as_deref(),
                data.as_deref(),
                reads
            ),
            Form::NotReadable(_)
        ),
        Block::Text { .. }
        | Block::ToolUse { .. }
        | Block::ToolResult { .. }
        | Block::Reasoning { .. }
        | Block::Image { .. }
        | Block::File { .. }
        | Block::Source { .. }
        | Block::Unknown { .. } => false,
    }
}

/// The index of the message holding the newest compaction the target can read, over the
/// history and the live turn as one sequence; 0 when there is none (nothing is replaced).
pub(crate) fn honored(messages: &[&[StoredMessage]], reads: Option<&str>) -> usize {
    let mut index = 0;
    let mut newest = 0;
    for part in messages {
        for message in *part {
            if message.blocks.iter().any(|block| readable(block, reads)) {
                newest = index;
            }
            index += 1;
        }
    }
    newest
}

/// Whether any of the messages holds a compaction made by the provider `id`.
pub(crate) fn made_by(messages: &[&[StoredMessage]], id: &str) -> bool {
    messages
        .iter()
        .flat_map(|part| part.iter())
        .flat_map(|message| &message.blocks)
        .any(|block| match block {
            Block::Compaction { provider, .. } => provider.as_deref() == Some(id),
            Block::Text { .. }
            | Block::ToolUse { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Unknown { .. } => false,
        })
}

/// What a turn sends of its history and live turn once the newest compaction the target
/// can read is honored.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sent<'a> {
    /// The stored history from the message holding the compaction on (all of it when none).
    pub(crate) history: &'a [StoredMessage],
    /// The live turn, from the message holding the compaction on when it holds one.
    pub(crate) live: &'a [StoredMessage],
    /// How many messages the compaction replaced: the history's and live turn's before it.
    pub(crate) replaced: usize,
    /// The provider whose compaction payloads the target reads natively, if any.
    pub(crate) reads: Option<&'static str>,
}

impl<'a> Sent<'a> {
    /// The history and live turn a target whose native compaction is `reads` is sent.
    pub(crate) fn new(
        history: &'a [StoredMessage],
        live: &'a [StoredMessage],
        reads: Option<&'static str>,
    ) -> Self {
        let replaced = honored(&[history, live], reads);
        let from_history = replaced.min(history.len());
        Sent {
            history: history.get(from_history..).unwrap_or_default(),
            live: live
                .get(replaced.saturating_sub(history.len())..)
                .unwrap_or_default(),
            replaced,
            reads,
        }
    }
}

/// A `compaction` block sent as the provider that made it takes it: its summary and its
/// opaque payload, as stored. Replay makes one only for a provider's own compaction; any
/// other target is sent its summary as prose.
///
/// ```
/// use transcript_replay::wire::{Compaction, Part};
///
/// let part = Part::Compaction(Box::new(Compaction {
///     summary: Some("The user asked about a.rs."),
///     provider: "anthropic",
///     data: None,
/// }));
/// assert_eq!(
///     serde_json::to_string(&part).unwrap(),
///     r#"{"type":"compaction","summary":"The user asked about a.rs.","provider":"anthropic"}"#,
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Compaction<'a> {
    /// The readable summary, when it has one.
    pub summary: Option<&'a str>,
    /// The provider that made it (its id), the one it is sent to.
    pub provider: &'a str,
    /// The provider's opaque payload, when it has one.
    pub data: Option<&'a str>,
}

impl Serialize for Compaction<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut part = serializer.serialize_struct("Part", 4)?;
        part.serialize_field("type", "compaction")?;
        if let Some(summary) = self.summary {
            part.serialize_field("summary", summary)?;
        }
        part.serialize_field("provider", self.provider)?;
        if let Some(data) = self.data {
            part.serialize_field("data", data)?;
        }
        part.end()
    }
}
