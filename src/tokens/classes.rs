// The classes of bytes the text estimate prices in pairs. This file is the one place they
// are defined: the crate's estimate uses it, and the conformance suite's fitting tool
// (`conformance/examples/fit_text_estimate.rs`) includes it to count the same pairs when it
// fits the weights.

/// How many classes a byte falls in, and the class of the start of a text, which is only
/// ever a previous class.
pub(crate) const CLASSES: usize = 15;

/// The names of the classes, in order, for the fitting tool's table.
#[allow(dead_code)]
pub(crate) const CLASS_NAMES: [&str; CLASSES] = [
    "lower", "upper", "digit", "space", "newline", "punct", "quote", "cont", "lead2", "sym3",
    "cjk3", "other3", "ef3", "lead4", "start",
];

/// The class a text starts in: before its first byte.
pub(crate) const START: u8 = 14;

/// The class of each byte. ASCII by kind; for the bytes of a character outside ASCII, the
/// first byte says which block of Unicode it is from (well enough to price it), and the
/// bytes after it are all one class.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
pub(crate) const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0usize;
    while byte < 256 {
        table[byte] = match byte as u8 {
            b'a'..=b'z' => 0,
            b'A'..=b'Z' => 1,
            b'0'..=b'9' => 2,
            b' ' | b'\t' => 3,
            b'\n' | b'\r' => 4,
            b'"' => 6,
            0x00..=0x7f => 5,
            // The bytes after the first of a character.
            0x80..=0xbf => 7,
            // Two bytes: Latin with accents, Greek, Cyrillic, Hebrew, Arabic.
            0xc0..=0xdf => 8,
            // U+2000 to U+2FFF: punctuation such as quotes and dashes, arrows, symbols.
            0xe2 => 9,
            // U+3000 to U+D7FF: CJK punctuation, kana, ideographs, Hangul.
            0xe3..=0xed => 10,
            // U+F000 to U+FFFF: CJK compatibility, variation selectors, full-width forms.
            0xef => 12,
            // The rest of three bytes: scripts of South and South-East Asia, private use.
            0xe0..=0xef => 11,
            // Four bytes: emoji, and rarer ideographs.
            0xf0..=0xff => 13,
        };
        byte += 1;
    }
    table
};
