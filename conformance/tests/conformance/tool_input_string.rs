//! A tool input stored as a JSON string is read once and unescaped from its raw text: it
//! gives exactly the text serde_json reads from the same string, however the string spells
//! its escapes (short escapes, `\u` escapes of any character, upper- or lower-case hex, `\/`,
//! surrogate pairs), and a lone surrogate is the same error, at the same place, as before.

use proptest::prelude::*;
use transcript_replay::{parse_record, Block};

/// One character of a string, spelled as a JSON string may spell it.
fn spelled() -> impl Strategy<Value = String> {
    (any::<char>(), 0..5u8).prop_map(|(c, how)| match how {
        // As serde_json writes it.
        0 | 1 => {
            let quoted = serde_json::to_string(&c.to_string()).unwrap();
            quoted[1..quoted.len() - 1].to_owned()
        }
        // As a `\u` escape (a pair of them outside the BMP), lower or upper case.
        2 | 3 => {
            let mut units = [0u16; 2];
            c.encode_utf16(&mut units)
                .iter()
                .map(|unit| {
                    if how == 2 {
                        format!("\\u{unit:04x}")
                    } else {
                        format!("\\u{unit:04X}")
                    }
                })
                .collect()
        }
        // The solidus escaped, which JSON allows and no writer needs.
        _ => "\\/".to_owned(),
    })
}

fn input_of(raw_string: &str) -> Result<String, String> {
    let record = format!(
        r#"[{{"role":"assistant","blocks":[{{"type":"tool_use","id":"t1","name":"bash","input":"{raw_string}"}}]}}]"#
    );
    let messages = parse_record(&record).map_err(|error| error.to_string())?;
    match messages[0].blocks.first() {
        Some(Block::ToolUse { input, .. }) => Ok(input.as_str().to_owned()),
        other => Err(format!("not a tool use: {other:?}")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_string_input_is_the_text_serde_json_reads(parts in proptest::collection::vec(spelled(), 0..40)) {
        let raw: String = parts.concat();
        let expected: String = serde_json::from_str(&format!("\"{raw}\"")).unwrap();
        prop_assert_eq!(input_of(&raw), Ok(expected));
    }
}

#[test]
fn a_lone_surrogate_in_a_string_input_reads_as_the_replacement_character() {
    for (raw, read) in [
        ("\\ud800", "\u{fffd}"),
        ("a\\udc00b", "a\u{fffd}b"),
        ("\\ud800\\u0041", "\u{fffd}A"),
    ] {
        assert_eq!(input_of(raw).as_deref(), Ok(read), "{raw}");
    }
}
