//! A JSON string's bytes, the one place both directions meet: which bytes a string cannot
//! hold as themselves, found a word of eight bytes at a time; how each is escaped; and the loop
//! that copies the clean runs between them, run by the writer (which escapes the byte it stops
//! at) and by the fast record reader (which unescapes the escape it stops at).

/// The digits of a `\u00XX` escape, in lower case as serde_json writes them.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Writes `text` between quotes, escaped as serde_json escapes it.
pub(super) fn string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    escaped(out, text.as_bytes());
    out.push(b'"');
}

/// The bytes of `word` that serde_json escapes (a quote, a backslash, or below a space), as
/// the high bit of each: exact for each byte, with no carry from one byte to the next.
#[inline(always)]
fn escapes(word: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte of `value` that is zero.
    let zero = |value: u64| !(((value & LOW) + LOW) | value | LOW);
    zero(word ^ (ONES * u64::from(b'"')))
        | zero(word ^ (ONES * u64::from(b'\\')))
        | zero(word & (ONES * 0xe0))
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
/// whole, and where its mask finds such a byte, the copy is cut there. No call to copy a short
/// run, and one test for a word with nothing in it. Returns that byte's index, or
/// `bytes.len()` when there is none.
///
/// The one loop over a string's bytes, run by the writer (which escapes the byte it stops at)
/// and by the fast record reader (which unescapes the escape it stops at).
#[inline(always)]
pub(crate) fn copy_clean(out: &mut Vec<u8>, bytes: &[u8]) -> usize {
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

/// Writes `bytes` escaped, without quotes: the clean runs copied by [`copy_clean`], each byte
/// it stops at escaped.
pub(super) fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    // Written through a vector of its own, given back at the end: through `&mut`, the
    // compiler reloads the vector's length and pointer from memory at every word.
    let mut own = std::mem::take(out);
    own.reserve(bytes.len());
    let mut rest = bytes;
    loop {
        let clean = copy_clean(&mut own, rest);
        let Some(&byte) = rest.get(clean) else {
            break;
        };
        escape(&mut own, byte);
        rest = rest.get(clean + 1..).unwrap_or_default();
    }
    *out = own;
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
    fn bytes_above_a_space_need_no_escape_but_quote_and_backslash() {
        for byte in 0x20..=0xffu8 {
            let bytes = [b'x', byte, b'y', b'z', b'x', b'x', b'x', b'x', b'x', b'x'];
            let expected = (byte == b'"' || byte == b'\\').then_some(1);
            assert_eq!(first_escape(&bytes), expected, "byte {byte:#04x}");
        }
    }
}
