//! A dependency-free estimate of how many tokens a text is, for budgeting a history before it
//! is sent.
//!
//! Providers count with their own tokenizers, and only OpenAI publishes one (Anthropic
//! publishes no rule and offers a counting endpoint; Gemini and OpenAI state "about 4
//! characters per token" for English). A flat characters-per-token rule is far off for the
//! text an agent stores: code and JSON are dense in punctuation, logs in numbers, CJK text is
//! about a token a character, and base64 or hashes about one for every two. A tokenizer
//! splits where the kind of character changes (a word after a space, digits after letters, a
//! capital inside an identifier, punctuation after a word), so the estimate prices each pair
//! of neighbouring bytes by their classes (lower case, upper case, digit, space, line break,
//! punctuation, quote, and the first byte of a character outside ASCII by its block): a table
//! lookup and an addition a byte, with no branch on the text, so that estimating a body costs
//! less than serializing it (the README reports the benchmark). The prices were fitted
//! against OpenAI's `o200k_base` tokenizer on texts of every kind, and checked on other texts
//! (the README has the table, and the conformance suite checks it).

mod classes;
mod weights;

use classes::{CLASS, START};
use weights::WEIGHTS;

/// Estimates the tokens of a text, as `o200k_base` would count them, within the errors the
/// README reports for each kind of text. One pass, no allocation, no branch on the text.
///
/// ```
/// use transcript_replay::estimate_tokens;
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

/// The running estimate: the class of the last byte, and the price of the pairs so far, in
/// thousandths of a token. It takes text as it is written, so a text part is estimated
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

impl std::fmt::Write for Streaming {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let mut previous = self.previous;
        let mut milli = 0u64;
        for &byte in text.as_bytes() {
            // Both lookups are in range: a `u8` indexes 256 entries, and a class is below 16.
            let class = CLASS.get(usize::from(byte)).copied().unwrap_or(START);
            let pair = usize::from(previous << 4 | class);
            milli += u64::from(WEIGHTS.get(pair).copied().unwrap_or(0));
            previous = class;
        }
        self.milli += milli;
        self.previous = previous;
        Ok(())
    }
}

impl Streaming {
    pub(crate) fn finish(self) -> usize {
        usize::try_from(self.milli.div_ceil(1000)).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_priced_by_their_classes() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("word"), 1);
        assert_eq!(estimate_tokens("123456"), 2);
        assert!(estimate_tokens("你好世界") >= 3);
        assert!(estimate_tokens("aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQ") > 15);
    }
}
