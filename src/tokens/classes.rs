// The states the text estimate prices in pairs. This file is the one place they are defined:
// the crate's estimate uses it, and the conformance suite's fitting tool
// (`conformance/examples/fit_text_estimate.rs`) includes it to count the same pairs when it
// fits the weights.

/// How many states a byte can leave the estimate in, and the state of the start of a text,
/// which is only ever a previous state.
pub(crate) const STATES: usize = 22;

/// The names of the states, in order, for the fitting tool's table.
#[allow(dead_code)]
pub(crate) const STATE_NAMES: [&str; STATES] = [
    "lower", "upper", "digit1", "digit2", "digit3", "space", "spaces", "newline", "punct", "quote",
    "cont-lo", "cont-mid", "cont-hi", "lead2", "sym3", "cjk3", "other3", "ef3", "lead4", "return",
    "cjk-cont", "start",
];

/// The state a text starts in: before its first byte.
pub(crate) const START: u8 = 21;

const DIGIT1: u8 = 2;
const DIGIT2: u8 = 3;
const DIGIT3: u8 = 4;
const SPACE: u8 = 5;
const SPACES: u8 = 6;
const CONT_LO: u8 = 10;
const CONT_HI: u8 = 12;
const CJK3: u8 = 15;
const CJK_CONT: u8 = 20;

/// The class of a byte on its own. ASCII by kind; for the bytes of a character outside
/// ASCII, the first byte says which block of Unicode it is from (well enough to price it),
/// and the bytes after it which part of the block (so that box drawing, `U+2500` on, is told
/// from arrows and dashes).
const fn class(byte: u8) -> u8 {
    match byte {
        b'a'..=b'z' => 0,
        b'A'..=b'Z' => 1,
        b'0'..=b'9' => DIGIT1,
        b' ' | b'\t' => SPACE,
        b'\n' => 7,
        // A carriage return on its own: progress meters redraw their line with it.
        b'\r' => 19,
        b'"' => 9,
        0x00..=0x7f => 8,
        // The bytes after the first of a character, by range.
        0x80..=0x8f => 10,
        0x90..=0x9f => 11,
        0xa0..=0xbf => 12,
        // Two bytes: Latin with accents, Greek, Cyrillic, Hebrew, Arabic.
        0xc0..=0xdf => 13,
        // U+2000 to U+2FFF: punctuation such as quotes and dashes, arrows, box drawing, symbols.
        0xe2 => 14,
        // U+3000 to U+D7FF: CJK punctuation, kana, ideographs, Hangul.
        0xe3..=0xed => 15,
        // U+F000 to U+FFFF: CJK compatibility, variation selectors, full-width forms.
        0xef => 17,
        // The rest of three bytes: scripts of South and South-East Asia, private use.
        0xe0..=0xef => 16,
        // Four bytes: emoji, and rarer ideographs.
        0xf0..=0xff => 18,
    }
}

/// The state after each byte, from each state: the byte's class, except that digits count
/// their place in a group of three (the tokenizer cuts numbers in groups of up to three
/// digits) and a space after a space is a run.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
pub(crate) const NEXT: [[u8; 256]; STATES] = {
    let mut table = [[0u8; 256]; STATES];
    let mut state = 0usize;
    while state < STATES {
        let mut byte = 0usize;
        while byte < 256 {
            let class = class(byte as u8);
            table[state][byte] = match (class, state as u8) {
                (DIGIT1, DIGIT1) => DIGIT2,
                (DIGIT1, DIGIT2) => DIGIT3,
                (SPACE, SPACE | SPACES) => SPACES,
                // The rest of a CJK character is one state, whatever its bytes: its price
                // is the character's, apart from the symbols that share the other states.
                (CONT_LO..=CONT_HI, CJK3 | CJK_CONT) => CJK_CONT,
                (class, _) => class,
            };
            byte += 1;
        }
        state += 1;
    }
    table
};
