//! The checks an image must pass to be shown, each in one place, shared by replay and the
//! renderers.

/// Whether a media type has the form `image/<subtype>`.
///
/// The type is matched without regard to case, as RFC 2045 says media types are; the subtype
/// is a restricted name of RFC 6838 section 4.2 (1 to 127 characters: a letter or digit, then
/// letters, digits and `!#$&-^_.+`). Parameters such as `; charset=...` are not part of the
/// form.
pub(crate) fn is_image_media_type(media_type: &str) -> bool {
    media_type.split_once('/').is_some_and(|(kind, subtype)| {
        kind.eq_ignore_ascii_case("image") && is_restricted_name(subtype)
    })
}

/// Whether a name is a restricted name of RFC 6838 section 4.2: 1 to 127 characters, a
/// letter or digit, then letters, digits and `!#$&-^_.+`.
pub(crate) fn is_restricted_name(name: &str) -> bool {
    let mut rest = name.bytes();
    name.len() <= 127
        && rest
            .next()
            .is_some_and(|first| first.is_ascii_alphanumeric())
        && rest.all(|byte| byte.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&byte))
}

/// Whether `data` is non-empty, canonical base64: the standard alphabet, a length that is a
/// multiple of four, `=` padding only at the end, and zero bits in the unused part of the last
/// symbol. Whitespace, the URL-safe alphabet and padding in the middle are not base64 here,
/// since providers that receive them answer with an error.
///
/// One read-only pass, no allocation: it runs on every image of every replayed history.
pub(crate) fn is_valid_base64(data: &str) -> bool {
    let bytes = data.as_bytes();
    if bytes.is_empty() || bytes.len() % 4 != 0 {
        return false;
    }
    let padding = bytes
        .iter()
        .rev()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    let (body, _) = bytes.split_at(bytes.len() - padding);
    // The mask of the bits of the last symbol that padding leaves unused.
    let unused = match padding {
        0 => 0,
        1 => 0b11,
        _ => 0b1111,
    };
    // Whole chunks of 64 are folded without short-circuiting, so that the compiler
    // vectorizes the check (a last chunk of any length in the same loop kept it from that);
    // the few bytes after them are checked one by one.
    let mut chunks = body.chunks_exact(64);
    chunks
        .by_ref()
        .all(|chunk| chunk.iter().fold(true, |valid, &b| valid & is_symbol(b)))
        && chunks.remainder().iter().all(|&b| is_symbol(b))
        && body
            .last()
            .and_then(|&last| symbol_value(last))
            .is_some_and(|last| last & unused == 0)
}

fn is_symbol(b: u8) -> bool {
    (b.wrapping_sub(b'A') < 26)
        | (b.wrapping_sub(b'a') < 26)
        | (b.wrapping_sub(b'0') < 10)
        | (b == b'+')
        | (b == b'/')
}

/// The six bits a base64 symbol stands for; `None` for anything else, padding included.
pub(crate) fn symbol_value(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_values_cover_the_alphabet_in_order() {
        let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (value, &symbol) in alphabet.iter().enumerate() {
            assert!(is_symbol(symbol));
            assert_eq!(symbol_value(symbol).map(usize::from), Some(value));
        }
        assert_eq!((0..=255u8).filter(|&b| is_symbol(b)).count(), 64);
        assert!((0..=255u8).all(|b| is_symbol(b) == symbol_value(b).is_some()));
    }

    #[test]
    fn a_byte_outside_the_alphabet_is_found_at_every_position_in_and_after_whole_chunks() {
        for length in (4..=200).step_by(4) {
            let clean = "QUJD".repeat(length / 4);
            assert!(is_valid_base64(&clean), "length {length}");
            for at in 0..length {
                for bad in ["-", "_", " ", "\n", "=", "\u{7f}"] {
                    let mut data = clean.clone();
                    data.replace_range(at..at + 1, bad);
                    assert!(!is_valid_base64(&data), "length {length}, {bad:?} at {at}");
                }
            }
        }
    }
}
