//! A dependency-free estimate of how many tokens a text is, for budgeting a history before it
//! is sent.
//!
//! Providers count with their own tokenizers, and only OpenAI publishes one (Anthropic
//! publishes no rule and offers a counting endpoint; Gemini and OpenAI state "about 4
//! characters per token" for English). A flat characters-per-token rule is far off for the
//! text an agent stores: code and JSON are dense in punctuation, logs in numbers, CJK text is
//! about a token a character, and base64 or hashes about one for every two. A tokenizer
//! splits where the kind of character changes (a word after a space, digits after letters, a
//! capital inside an identifier, punctuation after a word), and cuts numbers in groups of up
//! to three digits, so the estimate prices each pair of neighbouring bytes by their states
//! (lower case, upper case, a digit's place in its group of three, a first space or one of a
//! run, line break, carriage return, punctuation, quote, and a character outside ASCII by its
//! block and the part of it, with the rest of a CJK character as one state): one lookup in a
//! table of prices and next states and an addition a byte, with no branch on the byte, and a
//! long text cut in four parts priced side by side, so that estimating a body costs less than
//! serializing it (the benchmark is in [`Priced`](crate::Priced)'s docs). The prices were
//! fitted against OpenAI's `o200k_base` tokenizer on texts of every kind and on real agent
//! sessions, and are checked on other texts and other sessions ([`Priced`](crate::Priced) has
//! the table; the conformance suite checks it).

mod classes;
mod weights;

use classes::{NEXT, START, STATES};
use weights::WEIGHTS;

/// Estimates the tokens of a text, as `o200k_base` would count them, within the errors the
/// README reports for each kind of text. No allocation, and no branch on the bytes it prices.
///
/// ```
/// use transcript_replay::cost::estimate_tokens;
///
/// assert_eq!(estimate_tokens(""), 0);
/// let prose = estimate_tokens("The quick brown fox jumps over the lazy dog.");
/// assert!((9..=12).contains(&prose), "{prose}");
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    let mut estimate = Streaming::default();
    // Writing to the estimate never fails.
    let _ = std::fmt::Write::write_str(&mut estimate, text);
    estimate.finish()
}

/// The running estimate: the state after the last byte, and the price of the pairs so far,
/// in thousandths of a token. It takes text as it is written, so a text part is estimated
/// without being built as a string.
pub(crate) struct Streaming {
    milli: u64,
    previous: u8,
}

impl Default for Streaming {
    fn default() -> Self {
        Streaming {
            milli: 0,
            previous: START,
        }
    }
}

/// Room for every state in the fused table: a power of two, so that a masked state indexes it
/// without a bound to check.
const ROWS: usize = 32;
const _: () = assert!(STATES <= ROWS);

/// The transition and the price of each (previous state, byte), fused in one entry so that a
/// byte costs one lookup: the price of the pair in thousandths of a token above the low eight
/// bits, the next state in them. Built at compile time from `NEXT` and `WEIGHTS`.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
static FUSED: [u32; ROWS * 256] = {
    let mut table = [0u32; ROWS * 256];
    let mut previous = 0usize;
    while previous < STATES {
        let mut byte = 0usize;
        while byte < 256 {
            let next = NEXT[previous][byte];
            let weight = WEIGHTS[previous * STATES + next as usize];
            table[previous * 256 + byte] = (weight as u32) << 8 | next as u32;
            byte += 1;
        }
        previous += 1;
    }
    table
};

/// Whether a byte leaves the same state whatever the state before it: from such a byte on,
/// the states of a text do not depend on what came before it.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
static RESETS: [bool; 256] = {
    let mut table = [true; 256];
    let mut byte = 0usize;
    while byte < 256 {
        let mut previous = 1usize;
        while previous < STATES {
            if NEXT[previous][byte] != NEXT[0][byte] {
                table[byte] = false;
            }
            previous += 1;
        }
        byte += 1;
    }
    table
};

/// Texts shorter than this are priced in one chain; longer ones in four.
const LANES_FROM: usize = 256;

/// The price of one byte after a state, and the state it leaves.
#[inline(always)]
fn step(previous: u32, byte: u8) -> (u64, u32) {
    // The mask keeps the index below the table's length, so the lookup cannot fail.
    let at = (previous as usize & (ROWS - 1)) << 8 | usize::from(byte);
    let entry = FUSED.get(at).copied().unwrap_or(0);
    (u64::from(entry >> 8), entry & 0xff)
}

/// Prices `bytes` after `previous`, one byte after another: the price and the last state.
fn chain(mut previous: u32, bytes: &[u8]) -> (u64, u32) {
    let mut milli = 0u64;
    for &byte in bytes {
        let (price, next) = step(previous, byte);
        milli += price;
        previous = next;
    }
    (milli, previous)
}

/// The state after `bytes`, which follow `previous`: found from the last byte that resets
/// the state, so only the bytes after it are stepped through.
fn state_after(previous: u32, bytes: &[u8]) -> u32 {
    let reset = bytes
        .iter()
        .rposition(|&byte| RESETS.get(usize::from(byte)).copied().unwrap_or(false));
    match reset {
        Some(at) => {
            let (_, state) = step(0, bytes.get(at).copied().unwrap_or(0));
            chain(state, bytes.get(at + 1..).unwrap_or(&[])).1
        }
        None => chain(previous, bytes).1,
    }
}

impl std::fmt::Write for Streaming {
    /// Prices the text's bytes. A long text is cut in four parts priced side by side (the
    /// processor overlaps their lookups); each part starts in the state the bytes before it
    /// leave, found from the last byte before it that resets the state, so the price is
    /// exactly that of one chain through the whole text.
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let bytes = text.as_bytes();
        let previous = u32::from(self.previous);
        let (milli, last) = if bytes.len() < LANES_FROM {
            chain(previous, bytes)
        } else {
            let quarter = bytes.len() / 4;
            let (first, rest) = bytes.split_at(quarter);
            let (second, rest) = rest.split_at(quarter);
            let (third, fourth) = rest.split_at(quarter);
            let mut states = [
                previous,
                state_after(previous, first),
                state_after(previous, bytes.get(..2 * quarter).unwrap_or(&[])),
                state_after(previous, bytes.get(..3 * quarter).unwrap_or(&[])),
            ];
            let mut milli = [0u64; 4];
            for (((&a, &b), &c), &d) in first.iter().zip(second).zip(third).zip(fourth) {
                for (lane, byte) in [a, b, c, d].into_iter().enumerate() {
                    if let (Some(state), Some(sum)) = (states.get_mut(lane), milli.get_mut(lane)) {
                        let (price, next) = step(*state, byte);
                        *sum += price;
                        *state = next;
                    }
                }
            }
            let (tail, last) = chain(states[3], fourth.get(quarter..).unwrap_or(&[]));
            (milli.iter().sum::<u64>() + tail, last)
        };
        self.milli += milli;
        self.previous = u8::try_from(last).unwrap_or(START);
        Ok(())
    }
}

impl Streaming {
    pub(crate) fn finish(self) -> usize {
        usize::try_from(self.milli.div_ceil(1000)).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
// A test may panic: that is how it fails.
#[allow(clippy::indexing_slicing, clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_priced_by_their_classes() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("word"), 1);
        assert!((2..=3).contains(&estimate_tokens("123456")));
        assert!(estimate_tokens("你好世界") >= 3);
        assert!(estimate_tokens("aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQ") > 15);
    }

    /// Texts of every length around the lanes' threshold and the parts' edges, made of the
    /// bytes whose state depends on the bytes before them (digits, spaces, CJK) and of bytes
    /// that reset it, with long runs of each so a part can start inside a run.
    fn texts() -> Vec<String> {
        let pieces = [
            "1", "22", "333", " ", "   ", "\t", "你好", "│", "a", "Z", "\n", "\r", "→", "😀", "ü",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut out = Vec::new();
        for length in (0..40)
            .chain(240..300)
            .chain([1000, 1001, 1002, 1003, 4099])
        {
            let mut text = String::new();
            while text.len() < length {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let piece = pieces[(seed >> 11) as usize % pieces.len()];
                let repeat = 1 + (seed >> 40) as usize % 90;
                for _ in 0..repeat {
                    text.push_str(piece);
                }
            }
            out.push(text);
        }
        out.push("7".repeat(5000));
        out.push(" ".repeat(5000));
        out.push("你".repeat(2000));
        out
    }

    #[test]
    fn four_parts_side_by_side_price_a_text_exactly_as_one_chain() {
        for text in texts() {
            let (milli, last) = chain(u32::from(START), text.as_bytes());
            let mut streaming = Streaming::default();
            std::fmt::Write::write_str(&mut streaming, &text).unwrap();
            assert_eq!(
                (streaming.milli, u32::from(streaming.previous)),
                (milli, last),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_text_written_in_pieces_is_priced_as_the_whole() {
        for text in texts() {
            let mut pieces = Streaming::default();
            for piece in text.split_inclusive(' ') {
                std::fmt::Write::write_str(&mut pieces, piece).unwrap();
            }
            assert_eq!(pieces.finish(), estimate_tokens(&text), "{text:?}");
        }
    }
}
