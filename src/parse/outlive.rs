//! Records that outlive their writer: what a newer writer (or a broken one) may have stored
//! that this version still reads rather than refuses. A lone surrogate escape reads as the
//! replacement character, and a block of a type this version does not know keeps its exact
//! text (`Block::Unknown`), so writing the record back gives it back byte for byte.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::record::kept::{self, Entries};
use crate::record::{Block, StoredMessage};

/// The text with each `\u` escape of a lone surrogate (one no string can hold) spelled as
/// `\ufffd`, the replacement character: the same length, so every byte keeps its place.
/// Borrowed when there is none.
pub(super) fn mend_lone_surrogates(json: &str) -> Cow<'_, str> {
    let bytes = json.as_bytes();
    // The surrogate a `\u` escape at `at` spells, if it spells one.
    let surrogate = |at: usize| -> Option<u16> {
        if bytes.get(at..at + 2)? != b"\\u" {
            return None;
        }
        let hex = std::str::from_utf8(bytes.get(at + 2..at + 6)?).ok()?;
        let code = u16::from_str_radix(hex, 16).ok()?;
        (0xD800..0xE000).contains(&code).then_some(code)
    };
    let mut lone = Vec::new();
    let mut from = 0;
    // Only a `\u` can spell a surrogate: found by a substring search, which is far faster
    // than stopping at every backslash (a tool's output has one a line).
    while let Some(offset) = json.get(from..).and_then(|rest| rest.find("\\u")) {
        let at = from + offset;
        // An escape only when an odd run of backslashes ends here: an escaped backslash
        // followed by a `u` is none.
        let before = bytes.get(..=at).unwrap_or_default();
        let run = before
            .iter()
            .rev()
            .take_while(|&&byte| byte == b'\\')
            .count();
        from = match surrogate(at) {
            _ if run % 2 == 0 => at + 1,
            Some(0xD800..=0xDBFF) if matches!(surrogate(at + 6), Some(0xDC00..=0xDFFF)) => at + 12,
            Some(_) => {
                lone.push(at);
                at + 6
            }
            None => at + 2,
        };
    }
    if lone.is_empty() {
        return Cow::Borrowed(json);
    }
    let mut mended = json.to_owned();
    for at in lone {
        mended.replace_range(at..at + 6, "\\ufffd");
    }
    Cow::Owned(mended)
}

/// Puts the exact text of each block of a type this version does not read into its
/// [`Block::Unknown`]: the block reader saw the block's keys one by one, so the text is read
/// here again, only when there is such a block (the whole read succeeded, so this one does).
pub(super) fn keep_unknown_blocks(json: &str, messages: &mut [StoredMessage]) {
    #[derive(Deserialize)]
    struct Blocks<'a> {
        #[serde(borrow)]
        blocks: Vec<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct File<'a> {
        #[serde(borrow)]
        messages: Vec<Blocks<'a>>,
    }
    let unknown = |block: &Block| matches!(block, Block::Unknown { .. });
    if !messages
        .iter()
        .any(|message| message.blocks.iter().any(unknown))
    {
        return;
    }
    let skeleton: Option<Vec<Blocks<'_>>> = match json.trim_start().starts_with('[') {
        true => serde_json::from_str(json).ok(),
        false => serde_json::from_str::<File<'_>>(json)
            .ok()
            .map(|file| file.messages),
    };
    for (message, raw) in messages.iter_mut().zip(skeleton.unwrap_or_default()) {
        for (block, raw) in message.blocks.iter_mut().zip(raw.blocks) {
            if let Block::Unknown { json, .. } = block {
                raw.get().clone_into(json);
            }
        }
    }
}

/// Keeps the keys this version does not read, on each message and on each block of a type it
/// knows, in the message's [`UnknownKeys`](crate::UnknownKeys), each with the known key it
/// came after: the record is read again as objects of entries in order (the whole read
/// succeeded, so this one does).
pub(super) fn keep_unknown_keys(json: &str, messages: &mut [StoredMessage]) {
    #[derive(Deserialize)]
    struct File<'a> {
        #[serde(borrow)]
        messages: Vec<Entries<'a>>,
    }
    let skeleton: Option<Vec<Entries<'_>>> = match json.trim_start().starts_with('[') {
        true => serde_json::from_str(json).ok(),
        false => serde_json::from_str::<File<'_>>(json)
            .ok()
            .map(|file| file.messages),
    };
    for (message, entries) in messages.iter_mut().zip(skeleton.unwrap_or_default()) {
        message.unknown.message = kept::unknown_of(&entries, kept::MESSAGE_KEYS);
        let Some((_, blocks)) = entries.0.iter().find(|(key, _)| key.as_ref() == "blocks") else {
            continue;
        };
        let blocks: Vec<Entries<'_>> = serde_json::from_str(blocks.get()).unwrap_or_default();
        for (index, (block, entries)) in message.blocks.iter().zip(&blocks).enumerate() {
            if let Some(order) = block.type_keys() {
                let unknown = kept::unknown_of(entries, order);
                if !unknown.is_empty() {
                    message.unknown.blocks.push((index, unknown));
                }
            }
        }
    }
}
