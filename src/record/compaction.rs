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

use crate::record::{Block, Role, StoredMessage};

/// How a target takes its own compaction back natively: which provider's payloads it reads,
/// in which messages, and which payloads are its items. Each provider folder that reads its
/// own compaction states it in its `Rules`; this module decides with it, once, both whether a
/// compaction is honored (the history before it not sent) and how it is written, so that a
/// compaction is never honored and then written as unreadable.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reads {
    /// The provider's id, as a block's `provider` names it.
    pub(crate) provider: &'static str,
    /// Whether the target takes the block natively in a stored message of this role
    /// (elsewhere it goes as its summary's prose).
    pub(crate) in_role: fn(Role) -> bool,
    /// Whether a stored payload (`data`) is one the target takes as its own item.
    pub(crate) payload: fn(Option<&str>) -> bool,
}

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

/// How a target that reads its own compaction as `reads` says (`None` for a target that
/// reads only summaries) writes a compaction block stored in a message of `role`: natively
/// where it takes it there and the payload is its item, else as the summary's prose, else as
/// the marker that it cannot be read here. The one decision: [`honored`] asks it too.
pub(crate) fn form<'a>(
    summary: Option<&'a str>,
    provider: Option<&'a str>,
    data: Option<&'a str>,
    role: Role,
    reads: Option<Reads>,
) -> Form<'a> {
    let native = reads.filter(|reads| {
        provider == Some(reads.provider) && (reads.in_role)(role) && (reads.payload)(data)
    });
    match (summary, provider, native) {
        (_, Some(provider), Some(_)) => Form::Native {
            summary,
            provider,
            data,
        },
        (Some(summary), _, _) => Form::Summary(summary),
        (None, provider, _) => Form::NotReadable(provider.unwrap_or("another provider")),
    }
}

/// Whether a block of a message of `role` is a compaction the target can read.
fn readable(block: &Block, role: Role, reads: Option<Reads>) -> bool {
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
                role,
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
pub(crate) fn honored(messages: &[&[StoredMessage]], reads: Option<Reads>) -> usize {
    let mut index = 0;
    let mut newest = 0;
    for part in messages {
        for message in *part {
            if message
                .blocks
                .iter()
                .any(|block| readable(block, message.role, reads))
            {
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
    /// How the target reads its own compaction natively, if it does.
    pub(crate) reads: Option<Reads>,
}

impl<'a> Sent<'a> {
    /// The history and live turn a target whose native compaction is `reads` is sent.
    pub(crate) fn new(
        history: &'a [StoredMessage],
        live: &'a [StoredMessage],
        reads: Option<Reads>,
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
