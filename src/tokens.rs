//! A dependency-free estimate of how many tokens a text is, for budgeting a history before it
//! is sent.
//!
//! Providers count with their own tokenizers, and only OpenAI publishes one (Anthropic
//! publishes no rule and offers a counting endpoint; Gemini and OpenAI state "about 4
//! characters per token" for English). A flat characters-per-token rule is far off for the
//! text an agent stores: code and JSON are dense in punctuation, logs in numbers, CJK text is
//! about a token a character, and base64 or hashes about one for every two. So the estimate
//! walks the text once, in runs of one kind of character, and prices each run by its kind,
//! with constants calibrated against OpenAI's `o200k_base` tokenizer on each kind of text
//! (the README has the table, and the conformance suite checks it).

/// Estimates the tokens of a text, as `o200k_base` would count them, within the errors the
/// README reports for each kind of text. One pass, no allocation.
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

/// The kinds of run the estimate prices.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Before the first character.
    None,
    /// Letters and digits: words, numbers, identifiers, and noise such as base64.
    Alnum,
    Space,
    Newline,
    Punct,
    Cjk,
    Other,
}

/// What a letter or digit looks like, for counting changes: the index into [`CHANGES`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Shape {
    None = 0,
    Lower = 1,
    Upper = 2,
    Digit = 3,
}

/// Whether going from one shape to the next is a change: lower to upper case (an
/// identifier's parts), or between letters and digits.
const CHANGES: [u64; 16] = [
    // from None
    0, 0, 0, 0, //
    // from Lower
    0, 0, 1, 1, //
    // from Upper
    0, 0, 0, 1, //
    // from Digit
    0, 1, 1, 0,
];

/// The kind and shape of each ASCII byte.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
const ASCII: [(Kind, Shape); 128] = {
    let mut table = [(Kind::Punct, Shape::None); 128];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = match byte as u8 {
            b'a'..=b'z' => (Kind::Alnum, Shape::Lower),
            b'A'..=b'Z' => (Kind::Alnum, Shape::Upper),
            b'0'..=b'9' => (Kind::Alnum, Shape::Digit),
            b' ' | b'\t' => (Kind::Space, Shape::None),
            b'\n' | b'\r' => (Kind::Newline, Shape::None),
            _ => (Kind::Punct, Shape::None),
        };
        byte += 1;
    }
    table
};

/// The kind and shape of a character outside ASCII.
fn classify(c: char) -> (Kind, Shape) {
    match c {
        '\u{3040}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{ac00}'..='\u{d7af}'
        | '\u{f900}'..='\u{faff}'
        | '\u{ff00}'..='\u{ffef}'
        | '\u{3000}'..='\u{303f}' => (Kind::Cjk, Shape::None),
        c if c.is_alphanumeric() && c.is_uppercase() => (Kind::Alnum, Shape::Upper),
        c if c.is_alphanumeric() => (Kind::Alnum, Shape::Lower),
        c if c.is_whitespace() => (Kind::Space, Shape::None),
        _ => (Kind::Other, Shape::None),
    }
}

/// The running estimate: the current run, the kind of the run before it, and the tokens of
/// the runs before it, in thousandths of a token. It takes text as it is written, so a text
/// part is estimated without being built as a string; an ASCII byte costs a table lookup and
/// a few additions.
pub(crate) struct Streaming {
    milli: u64,
    run: Run,
    previous: Kind,
}

impl Default for Streaming {
    fn default() -> Self {
        Streaming {
            milli: 0,
            run: Run::new(Kind::None),
            previous: Kind::None,
        }
    }
}

#[derive(Clone, Copy)]
struct Run {
    kind: Kind,
    len: u64,
    digits: u64,
    /// Changes of case or between letters and digits: the parts of an identifier, or, when
    /// there are many, noise such as base64.
    changes: u64,
    last: Shape,
}

impl Run {
    fn new(kind: Kind) -> Self {
        Run {
            kind,
            len: 0,
            digits: 0,
            changes: 0,
            last: Shape::None,
        }
    }
}

impl std::fmt::Write for Streaming {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let mut run = self.run;
        for (at, &byte) in text.as_bytes().iter().enumerate() {
            let (kind, shape) = match ASCII.get(usize::from(byte)) {
                Some(&ascii) => ascii,
                // The bytes after the first of a character.
                None if byte & 0xc0 == 0x80 => continue,
                None => classify(
                    text.get(at..)
                        .and_then(|rest| rest.chars().next())
                        .unwrap_or('\u{fffd}'),
                ),
            };
            if kind != run.kind {
                self.milli += price(run, self.previous);
                self.previous = run.kind;
                run = Run::new(kind);
            }
            run.len += 1;
            run.digits += u64::from(shape == Shape::Digit);
            run.changes += CHANGES
                .get(usize::from(run.last as u8) * 4 + usize::from(shape as u8))
                .copied()
                .unwrap_or(0);
            run.last = shape;
        }
        self.run = run;
        Ok(())
    }
}

impl Streaming {
    pub(crate) fn finish(self) -> usize {
        let milli = self.milli + price(self.run, self.previous);
        usize::try_from(milli.div_ceil(1000)).unwrap_or(usize::MAX)
    }
}

/// The price of one run, in thousandths of a token, given the kind of run before it.
fn price(run: Run, previous: Kind) -> u64 {
    let Run {
        kind,
        len,
        digits,
        changes,
        ..
    } = run;
    match kind {
        Kind::Alnum if digits == len => len.div_ceil(3) * 1000,
        // Many changes of case or between letters and digits: base64, hashes, ids.
        Kind::Alnum if len >= 8 && changes * 5 > len => len * 640,
        // A word of up to 6 letters is a token; a longer one splits about every 4 letters
        // more, and an identifier at each of its parts.
        Kind::Alnum => 1000 + len.saturating_sub(6) * 220 + changes * 500,
        // A single space joins the word after it; indentation after a line break joins the
        // break; a longer run elsewhere is a token.
        Kind::Space if len == 1 || previous == Kind::Newline => 0,
        Kind::Space => 800,
        Kind::Newline => 600 + len.saturating_sub(1) * 200,
        // Punctuation pairs up often (`":`, `{"`, `();`).
        Kind::Punct => 250 + len * 480,
        Kind::Cjk => len * 690,
        // Emoji and other symbols: often two tokens each.
        Kind::Other => len * 1700,
        Kind::None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_priced_by_their_kind() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("word"), 1);
        assert_eq!(estimate_tokens("123456"), 2);
        assert!(estimate_tokens("你好世界") >= 3);
        assert!(estimate_tokens("aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQ") > 15);
    }
}
