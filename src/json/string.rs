//! A JSON string's bytes, the one place both directions meet: which bytes a string cannot
//! hold as themselves, tested a word of eight bytes at a time and found a block of 64 bytes at
//! once; how each is escaped; and the loop that copies the clean runs between them
//! ([`copy_escaping`]), run by the writer (which escapes each byte it stops at) and by the
//! fast record reader (which unescapes each escape it stops at).

/// The digits of a `\u00XX` escape, in lower case as serde_json writes them.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Writes `text` between quotes, escaped as serde_json escapes it.
pub(super) fn string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    escaped(out, text.as_bytes());
    out.push(b'"');
}

/// The bytes of `word` that serde_json escapes (a quote, a backslash, or below a space), as
/// the high bit of each: exact for each byte, with no carry from one byte to the next. Each
/// test runs on the byte's low seven bits, where adding to a byte cannot carry out of it,
/// and a byte with its high bit set is none of them. Two tests, not three: flipping bit 1
/// takes a quote (0x22) to a space (0x20) and keeps every control character below one, so
/// that "a quote or below a space" is one comparison, "below 0x21 once bit 1 is flipped"
/// (the bytes it takes above a space, 0x20, 0x21 and 0x23, land on 0x22, 0x23 and 0x21).
#[inline(always)]
fn escapes(word: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let low = word & LOW;
    // The high bit of each byte set where the byte is not a quote and not below a space.
    let not_quote_or_control = (low ^ (ONES * 0x02)) + ONES * (0x80 - 0x21);
    // The high bit of each byte set where the byte is not a backslash.
    let not_backslash = (low ^ (ONES * u64::from(b'\\'))) + LOW;
    !(not_quote_or_control & not_backslash) & !word & !LOW
}

/// Whether serde_json escapes a byte: a quote, a backslash, or a control character.
#[inline(always)]
fn needs(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// The index of the first byte in `bytes` that a JSON string cannot hold as itself (a quote,
/// a backslash, or a control character): where a reader of a string must stop. `None` when
/// there is none. Two words a test: a string without escapes (base64 image data, a plain
/// line) is scanned sixteen bytes at a time.
#[inline]
pub(crate) fn first_escape(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    let mut rest = bytes;
    while let Some((pair, tail)) = rest.split_first_chunk::<16>() {
        let (low, high) = pair.split_at(8);
        let low = escapes(u64::from_le_bytes(low.try_into().unwrap_or_default()));
        let high = escapes(u64::from_le_bytes(high.try_into().unwrap_or_default()));
        if low | high != 0 {
            let within = match low {
                0 => 8 + high.trailing_zeros() / 8,
                low => low.trailing_zeros() / 8,
            };
            return Some(at + within as usize);
        }
        at += 16;
        rest = tail;
    }
    if let Some((word, tail)) = rest.split_first_chunk::<8>() {
        let mask = escapes(u64::from_le_bytes(*word));
        if mask != 0 {
            return Some(at + (mask.trailing_zeros() / 8) as usize);
        }
        at += 8;
        rest = tail;
    }
    rest.iter()
        .position(|&byte| needs(byte))
        .map(|tail| at + tail)
}

/// Writes a byte's escape (a byte that needs none, as it is): the only place the escapes are
/// spelled. A table rather than a match: the bytes escaped in text (quotes, line breaks)
/// alternate unpredictably, and a match on them is a jump the processor guesses wrong.
#[inline(always)]
fn escape(out: &mut Vec<u8>, byte: u8) {
    match SHORT.get(usize::from(byte)).copied().unwrap_or(0) {
        0 => out.push(byte),
        b'u' => {
            let high = HEX.get(usize::from(byte >> 4)).copied().unwrap_or(b'0');
            let low = HEX.get(usize::from(byte & 0xf)).copied().unwrap_or(b'0');
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', high, low]);
        }
        short => out.extend_from_slice(&[b'\\', short]),
    }
}

/// The second byte of each byte's escape as serde_json writes it: the short escapes, `u` for
/// the other control characters (written `\u00XX`), 0 for a byte written as it is.
// Built at compile time: an index out of range would fail the build, never a run.
#[allow(clippy::indexing_slicing)]
const SHORT: [u8; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x0c] = b'f';
    table[b'\n' as usize] = b'n';
    table[b'\r' as usize] = b'r';
    table[b'\t' as usize] = b't';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Copies `bytes` to `out` up to the first byte a JSON string cannot hold as itself (a quote,
/// a backslash, or a control character), a word of eight bytes at a time: each word is copied
/// whole, and where its mask finds such a byte, the copy is cut there. Returns that byte's
/// index, or `bytes.len()` when there is none. The last bytes of [`copy_escaping`], fewer
/// than a block.
#[inline(always)]
fn copy_clean(out: &mut Vec<u8>, bytes: &[u8]) -> usize {
    let mut rest = bytes;
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        let mask = escapes(u64::from_le_bytes(*word));
        out.extend_from_slice(word);
        if mask != 0 {
            let clean = (mask.trailing_zeros() / 8) as usize;
            out.truncate(out.len() - 8 + clean);
            return bytes.len() - rest.len() + clean;
        }
        rest = tail;
    }
    let clean = rest
        .iter()
        .position(|&byte| needs(byte))
        .unwrap_or(rest.len());
    out.extend_from_slice(rest.get(..clean).unwrap_or_default());
    bytes.len() - rest.len() + clean
}

/// The bytes of a block of 64 that serde_json escapes, one bit each (bit `i` for byte `i`).
///
/// Each word's flags (the high bit of its bytes) are shifted down to bit `w` of each byte for
/// word `w`, so that the eight words fill one word with no overlap: byte `b` of it holds, in
/// bit `w`, the flag of byte `b` of word `w`. That is the block's mask as an 8 by 8 matrix
/// of bits the wrong way round, and three swaps of its corners (Hacker's Delight, 7-3,
/// "transpose8") turn it round: bit `8 w + b` for byte `b` of word `w`. Shifts, ands and
/// xors only, where gathering each word's flags with a multiplication made the compiler
/// emulate 64-bit multiplications in vector registers.
#[inline(always)]
fn block_escapes(block: &[u8; 64]) -> u64 {
    let mut rows = 0;
    let mut words = block.chunks_exact(8);
    for column in 0..8 {
        let word = words
            .next()
            .and_then(|word| word.try_into().ok())
            .map_or(0, u64::from_le_bytes);
        rows |= escapes(word) >> (7 - column);
    }
    let swap = (rows ^ (rows >> 7)) & 0x00aa_00aa_00aa_00aa;
    let rows = rows ^ swap ^ (swap << 7);
    let swap = (rows ^ (rows >> 14)) & 0x0000_cccc_0000_cccc;
    let rows = rows ^ swap ^ (swap << 14);
    let swap = (rows ^ (rows >> 28)) & 0x0000_0000_f0f0_f0f0;
    rows ^ swap ^ (swap << 28)
}

/// Copies `block[from..to]` to `out`, thirty-two bytes at a time: each thirty-two written
/// whole (the block is padded past its end) and the copy cut back to the run. Most runs
/// between escapes in text are shorter than that, so that the loop seldom goes round.
#[inline(always)]
fn copy_run(out: &mut Vec<u8>, padded: &[u8; PADDED], from: usize, to: usize) {
    let mut at = from;
    loop {
        let Some(chunk) = padded.get(at..at + 32) else {
            return;
        };
        out.extend_from_slice(chunk);
        at += 32;
        if at >= to {
            break;
        }
    }
    out.truncate(out.len() + to - at);
}

/// A block of 64 bytes and room after it for one copy of a run from its last byte.
const PADDED: usize = 64 + 32;

/// What a string loop does at a byte it stops at, as its caller says.
pub(crate) enum Step {
    /// Go on after this many bytes from the byte stopped at (its escape, written or read).
    Past(usize),
    /// The string ends after this many bytes from the byte stopped at (a closing quote).
    End(usize),
}

/// What a string loop does at each byte it stops at: given the bytes from that byte on, it
/// writes what it must to `out` and says how to go on, or `None` to give up. A trait rather
/// than a closure, so that its method is inlined into both places the loop calls it.
pub(crate) trait AtStop {
    /// The step at the byte `stop` starts with.
    fn at_stop(out: &mut Vec<u8>, stop: &[u8]) -> Option<Step>;
}

/// How a string loop ended.
pub(crate) enum Stopped {
    /// At a [`Step::End`], this many bytes from the start.
    Ended(usize),
    /// At the end of the bytes.
    RanOut,
}

/// The one loop over a string's bytes, run by the writer (which escapes each byte it stops
/// at) and by the fast record reader (which unescapes each escape it stops at, and stops at
/// the closing quote): copies `bytes` to `out`, calling `Stop` with the bytes from each byte a
/// JSON string cannot hold as itself (a quote, a backslash, or a control character) on.
/// `None` when `Stop` gives up.
///
/// A block of 64 bytes at a time while one is left: the block's bytes to stop at found at once,
/// one bit each, so that the processor guesses wrong once a block, where the loop of bits ends,
/// rather than once a stop; the runs between them copied thirty-two bytes at a time. The last
/// bytes a word at a time, by [`copy_clean`].
#[inline(always)]
pub(crate) fn copy_escaping<Stop: AtStop>(out: &mut Vec<u8>, bytes: &[u8]) -> Option<Stopped> {
    let mut rest = bytes;
    let mut padded = [0; PADDED];
    while let Some((block, tail)) = rest.split_first_chunk::<64>() {
        let mut bits = block_escapes(block);
        if bits == 0 {
            out.extend_from_slice(block);
            rest = tail;
            continue;
        }
        if let Some(head) = padded.get_mut(..64) {
            head.copy_from_slice(block);
        }
        let mut last = 0;
        while bits != 0 {
            let at = bits.trailing_zeros() as usize;
            copy_run(out, &padded, last, at);
            let taken = match Stop::at_stop(out, rest.get(at..)?)? {
                Step::Past(taken) => taken,
                Step::End(taken) => {
                    return Some(Stopped::Ended(bytes.len() - rest.len() + at + taken));
                }
            };
            last = at + taken;
            // The bytes it took are not bytes to stop at: the one stopped at, and the rest of
            // an escape read.
            bits &= bits - 1;
            if taken > 1 {
                bits &= u64::MAX.checked_shl(last as u32).unwrap_or(0);
            }
        }
        if last < 64 {
            copy_run(out, &padded, last, 64);
            last = 64;
        }
        rest = rest.get(last..)?;
    }
    loop {
        let clean = copy_clean(out, rest);
        let Some(stop) = rest.get(clean..).filter(|stop| !stop.is_empty()) else {
            return Some(Stopped::RanOut);
        };
        match Stop::at_stop(out, stop)? {
            Step::Past(taken) => rest = stop.get(taken..)?,
            Step::End(taken) => {
                return Some(Stopped::Ended(bytes.len() - stop.len() + taken));
            }
        }
    }
}

/// Writes `bytes` escaped, without quotes, by [`copy_escaping`].
pub(super) fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    // Written through a vector of its own, given back at the end: through `&mut`, the
    // compiler reloads the vector's length and pointer from memory at every word.
    let mut own = std::mem::take(out);
    own.reserve(bytes.len() + 16);
    copy_escaping::<Escape>(&mut own, bytes);
    *out = own;
}

/// The writer at a byte it stops at: writes its escape.
struct Escape;

impl AtStop for Escape {
    #[inline(always)]
    fn at_stop(out: &mut Vec<u8>, stop: &[u8]) -> Option<Step> {
        escape(out, *stop.first()?);
        Some(Step::Past(1))
    }
}

#[cfg(test)]
// A test may panic: that is how it fails.
#[allow(clippy::indexing_slicing, clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_first_escape_is_found_at_every_position_of_every_length() {
        for length in 0..48 {
            let clean = vec![b'a'; length];
            assert_eq!(first_escape(&clean), None, "length {length}");
            for at in 0..length {
                for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                    let mut bytes = clean.clone();
                    bytes[at] = special;
                    // A second one after it must not be the one found.
                    if at + 1 < length {
                        bytes[length - 1] = b'"';
                    }
                    assert_eq!(first_escape(&bytes), Some(at), "length {length}, at {at}");
                    let mut copied = Vec::new();
                    assert_eq!(copy_clean(&mut copied, &bytes), at);
                    assert_eq!(copied, &bytes[..at]);
                }
            }
        }
    }

    #[test]
    fn each_byte_of_a_word_is_found_exactly_whatever_its_neighbours() {
        for byte in 0..=0xffu8 {
            for lane in 0..8 {
                for neighbour in [0x00, 0x1f, 0x20, b'"', b'\\', 0x7f, 0x80, 0xff] {
                    let mut word = [neighbour; 8];
                    word[lane] = byte;
                    let mask = escapes(u64::from_le_bytes(word));
                    for (at, &each) in word.iter().enumerate() {
                        let found = mask >> (8 * at + 7) & 1 == 1;
                        assert_eq!(found, needs(each), "{word:?} at {at}");
                    }
                    assert_eq!(mask & !0x8080_8080_8080_8080, 0, "{word:?}");
                }
            }
        }
    }

    #[test]
    fn each_byte_of_a_block_is_found_at_its_own_bit() {
        // Every byte value at every position, among clean bytes and among bytes to escape.
        for background in [b'a', b'"', 0x00, 0xff] {
            for at in 0..64 {
                for byte in 0..=0xffu8 {
                    let mut block = [background; 64];
                    block[at] = byte;
                    let bits = block_escapes(&block);
                    for (index, &each) in block.iter().enumerate() {
                        let found = bits >> index & 1 == 1;
                        assert_eq!(found, needs(each), "byte {byte:#04x} at {at}, bit {index}");
                    }
                }
            }
        }
    }

    #[test]
    fn bytes_above_a_space_need_no_escape_but_quote_and_backslash() {
        for byte in 0x20..=0xffu8 {
            let bytes = [b'x', byte, b'y', b'z', b'x', b'x', b'x', b'x', b'x', b'x'];
            let expected = (byte == b'"' || byte == b'\\').then_some(1);
            assert_eq!(first_escape(&bytes), expected, "byte {byte:#04x}");
        }
    }
}
