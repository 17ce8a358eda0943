//! Prompt caching: the breakpoints a body carries, where a provider takes them.
//!
//! Anthropic caches a request's prefix at each `cache_control` breakpoint, and a breakpoint
//! reads an entry that an earlier request wrote only if it ends at most 20 content blocks
//! before it. A request may carry 4 breakpoints. The body uses 3: the system text S, the
//! last block of the history, and the block 21 before that, so that the prefix the previous
//! turn cached is found even when the turn since then added up to 40 blocks. The breakpoints
//! of the history move with it each turn; the cache is keyed on the content, not on where
//! the markers sit (the sliding breakpoint is the documented pattern for conversations, and
//! the one gateways converge on, e.g. <https://github.com/microsoft/vscode/pull/315505>).

use serde::ser::{Serialize, SerializeMap, Serializer};

/// How long a prompt-cache entry written at a breakpoint lives: Anthropic's two TTLs.
///
/// Source: Anthropic's prompt-caching guide: 5 minutes by default, refreshed at each read,
/// and 1 hour with `"ttl": "1h"`, written at 2x the input price rather than 1.25x
/// (<https://platform.claude.com/docs/en/build-with-claude/prompt-caching>).
///
/// ```
/// use transcript_replay::Cache;
///
/// assert_eq!(serde_json::to_string(&Cache::FiveMinutes).unwrap(), r#"{"type":"ephemeral"}"#);
/// assert_eq!(serde_json::to_string(&Cache::OneHour).unwrap(), r#"{"type":"ephemeral","ttl":"1h"}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cache {
    /// Five minutes, refreshed each time the entry is read.
    FiveMinutes,
    /// One hour.
    OneHour,
}

impl Serialize for Cache {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "ephemeral")?;
        match self {
            Cache::FiveMinutes => {}
            Cache::OneHour => map.serialize_entry("ttl", "1h")?,
        }
        map.end()
    }
}

/// How many blocks before a breakpoint Anthropic looks for an entry an earlier request wrote.
///
/// Source: Anthropic's prompt-caching guide, "the system automatically checks for cache hits
/// at all previous content block boundaries (up to approximately 20 blocks before your
/// explicit breakpoint)"
/// (<https://platform.claude.com/docs/en/build-with-claude/prompt-caching>).
pub(crate) const LOOKBACK_BLOCKS: usize = 20;

/// The history's breakpoints, as (message, block) positions: its last block, and, when the
/// history is long enough, the block `LOOKBACK_BLOCKS + 1` before it, so that the two look
/// back over 41 positions between them. `blocks` gives each history message's block count.
pub(crate) fn history_breakpoints(blocks: &[usize]) -> Vec<(usize, usize)> {
    let total: usize = blocks.iter().sum();
    let Some(last) = total.checked_sub(1) else {
        return Vec::new();
    };
    let wanted: Vec<usize> = last
        .checked_sub(LOOKBACK_BLOCKS + 1)
        .into_iter()
        .chain([last])
        .collect();
    let mut positions = Vec::with_capacity(wanted.len());
    let mut start = 0;
    for (message, &count) in blocks.iter().enumerate() {
        for &at in &wanted {
            if (start..start + count).contains(&at) {
                positions.push((message, at - start));
            }
        }
        start += count;
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_breakpoint_is_21_blocks_before_the_last() {
        // (blocks per message, the breakpoints as (message, block))
        type Case<'c> = (&'c [usize], &'c [(usize, usize)]);
        let cases: [Case<'_>; 6] = [
            (&[], &[]),
            (&[1], &[(0, 0)]),
            (&[21], &[(0, 20)]),
            (&[22], &[(0, 0), (0, 21)]),
            (&[1; 22], &[(0, 0), (21, 0)]),
            (&[3, 30, 1], &[(1, 9), (2, 0)]),
        ];
        for (blocks, expected) in cases {
            assert_eq!(history_breakpoints(blocks), expected, "{blocks:?}");
        }
    }
}
