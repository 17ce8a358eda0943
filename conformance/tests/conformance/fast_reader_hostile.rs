//! Hostile texts, by name, read the same whoever reads them, and the fast reader takes only
//! the plain ones: the table of cases beside the generated ones of `fast_reader.rs`.

use transcript_replay::{parse_record, parse_record_fast_only};
use transcript_replay_conformance::reading::same_reading;

/// Wraps one block's JSON in a record of one user message.
fn with_block(block: &str) -> String {
    format!(r#"[{{"role":"user","blocks":[{block}]}}]"#)
}

/// Wraps a usage object's JSON in a record of one assistant message.
fn with_usage(usage: &str) -> String {
    format!(r#"[{{"role":"assistant","blocks":[],"usage":{usage}}}]"#)
}

fn nested(depth: usize) -> String {
    format!(
        r#"[{{"role":"user","blocks":[],"deep":{}{}}}]"#,
        "[".repeat(depth),
        "]".repeat(depth)
    )
}

#[test]
fn hostile_texts_read_the_same_and_the_fast_reader_takes_only_the_plain_ones() {
    // (what, text, whether the record is read, whether the fast reader takes it)
    let mut cases: Vec<(String, String, bool, bool)> = vec![
        ("empty".into(), String::new(), false, false),
        ("white space only".into(), " \n\t".into(), false, false),
        (
            "a byte order mark".into(),
            "\u{feff}[]".into(),
            false,
            false,
        ),
        ("an empty record".into(), "[]".into(), true, true),
        ("trailing garbage".into(), "[] x".into(), false, false),
        ("trailing white space".into(), "[] \r\n".into(), true, true),
        (
            "a trailing comma in the record".into(),
            r#"[{"role":"user","blocks":[]},]"#.into(),
            false,
            false,
        ),
        (
            "a trailing comma in a message".into(),
            r#"[{"role":"user","blocks":[],}]"#.into(),
            false,
            false,
        ),
        (
            "a missing role".into(),
            r#"[{"blocks":[]}]"#.into(),
            false,
            false,
        ),
        (
            "a role twice".into(),
            r#"[{"role":"user","role":"user","blocks":[]}]"#.into(),
            false,
            false,
        ),
        (
            "an unknown key twice".into(),
            r#"[{"x":1,"x":2,"role":"user","blocks":[]}]"#.into(),
            true,
            true,
        ),
        (
            "a role spelled with an escape".into(),
            r#"[{"role":"us\u0065r","blocks":[]}]"#.into(),
            true,
            false,
        ),
        (
            "a key spelled with an escape".into(),
            r#"[{"\u0072ole":"user","blocks":[]}]"#.into(),
            true,
            false,
        ),
        (
            "an unknown role".into(),
            r#"[{"role":"bot","blocks":[]}]"#.into(),
            false,
            false,
        ),
        (
            "blocks that are no array".into(),
            r#"[{"role":"user","blocks":{}}]"#.into(),
            false,
            false,
        ),
        (
            "a timestamp that is a number".into(),
            r#"[{"role":"user","blocks":[],"timestamp":5}]"#.into(),
            false,
            false,
        ),
        (
            "a null timestamp".into(),
            r#"[{"role":"user","blocks":[],"timestamp":null}]"#.into(),
            true,
            true,
        ),
        (
            "a conversation file".into(),
            r#"{"title":"t","messages":[],"version":1}"#.into(),
            true,
            true,
        ),
        (
            "version 1.0".into(),
            r#"{"version":1.0,"messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "version 1e0".into(),
            r#"{"version":1e0,"messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "version 01".into(),
            r#"{"version":01,"messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "version 10".into(),
            r#"{"version":10,"messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "version \"1\"".into(),
            r#"{"version":"1","messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "version twice".into(),
            r#"{"version":1,"version":1,"messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "no version".into(),
            r#"{"messages":[]}"#.into(),
            false,
            false,
        ),
        (
            "no messages".into(),
            r#"{"version":1}"#.into(),
            false,
            false,
        ),
        (
            "usage of zero".into(),
            with_usage(r#"{"input_tokens":0,"output_tokens":0}"#),
            true,
            true,
        ),
        (
            "usage of u64::MAX".into(),
            with_usage(r#"{"input_tokens":18446744073709551615,"output_tokens":1}"#),
            true,
            true,
        ),
        (
            "usage past u64::MAX".into(),
            with_usage(r#"{"input_tokens":18446744073709551616,"output_tokens":1}"#),
            false,
            false,
        ),
        (
            "usage with a leading zero".into(),
            with_usage(r#"{"input_tokens":01,"output_tokens":1}"#),
            false,
            false,
        ),
        (
            "usage of minus zero".into(),
            with_usage(r#"{"input_tokens":-0,"output_tokens":1}"#),
            false,
            false,
        ),
        (
            "usage of 1.0".into(),
            with_usage(r#"{"input_tokens":1.0,"output_tokens":1}"#),
            false,
            false,
        ),
        (
            "usage of 1e2".into(),
            with_usage(r#"{"input_tokens":1e2,"output_tokens":1}"#),
            false,
            false,
        ),
        (
            "usage without output".into(),
            with_usage(r#"{"input_tokens":1}"#),
            false,
            false,
        ),
        (
            "usage with an unknown key".into(),
            with_usage(r#"{"input_tokens":1,"output_tokens":2,"total":[3]}"#),
            true,
            true,
        ),
        ("usage null".into(), with_usage("null"), true, true),
        ("usage an array".into(), with_usage("[1,2]"), false, false),
        (
            "a block without a type".into(),
            with_block(r#"{"text":"a"}"#),
            false,
            false,
        ),
        (
            "an unknown block type".into(),
            with_block(r#"{"type":"video","text":"a"}"#),
            true,
            true,
        ),
        (
            "a block type twice".into(),
            with_block(r#"{"type":"text","type":"text","text":"a"}"#),
            false,
            false,
        ),
        (
            "a text twice".into(),
            with_block(r#"{"type":"text","text":"a","text":"b"}"#),
            false,
            false,
        ),
        (
            "a text that is a number".into(),
            with_block(r#"{"type":"text","text":1}"#),
            false,
            false,
        ),
        (
            "an unused known field that is a number".into(),
            with_block(r#"{"type":"text","text":"a","id":1e999}"#),
            false,
            false,
        ),
        (
            "an unused known field that is null".into(),
            with_block(r#"{"type":"text","text":"a","id":null}"#),
            true,
            false,
        ),
        (
            "an unused known field that is a string".into(),
            with_block(r#"{"type":"text","text":"a","id":"x"}"#),
            true,
            true,
        ),
        (
            "is_error a string".into(),
            with_block(
                r#"{"type":"tool_result","tool_use_id":"t","tool_name":"n","output":"","is_error":"yes"}"#,
            ),
            false,
            false,
        ),
        (
            "is_error left out".into(),
            with_block(r#"{"type":"tool_result","tool_use_id":"t","tool_name":"n","output":""}"#),
            true,
            true,
        ),
        (
            "an input that is a huge number".into(),
            with_block(r#"{"type":"tool_use","id":"t","name":"n","input":1e999}"#),
            true,
            true,
        ),
        (
            "an input missing".into(),
            with_block(r#"{"type":"tool_use","id":"t","name":"n"}"#),
            false,
            false,
        ),
        (
            "an input that is a string".into(),
            with_block(r#"{"type":"tool_use","id":"t","name":"n","input":"{\"a\":1}"}"#),
            true,
            true,
        ),
        (
            "an input with a lone surrogate inside a value".into(),
            with_block(r#"{"type":"tool_use","id":"t","name":"n","input":{"a":"\ud800"}}"#),
            true,
            false,
        ),
        (
            "an input string with a lone surrogate".into(),
            with_block(r#"{"type":"tool_use","id":"t","name":"n","input":"\ud800"}"#),
            true,
            false,
        ),
        (
            "an input string with a surrogate pair".into(),
            with_block(r#"{"type":"tool_use","id":"t","name":"n","input":"\ud83d\ude00"}"#),
            true,
            false,
        ),
        (
            "a text with a lone surrogate".into(),
            with_block(r#"{"type":"text","text":"a\udc00"}"#),
            true,
            false,
        ),
        (
            "a text with a surrogate pair".into(),
            with_block(r#"{"type":"text","text":"\uD83D\uDE00"}"#),
            true,
            false,
        ),
        (
            "a lone surrogate under an unknown key".into(),
            with_block(r#"{"type":"text","text":"a","x":"\ud800"}"#),
            true,
            false,
        ),
        (
            "a lone surrogate in an unknown key".into(),
            with_block(r#"{"type":"text","text":"a","\ud800":1}"#),
            true,
            false,
        ),
        (
            "U+2028 and U+2029 as they are".into(),
            with_block("{\"type\":\"text\",\"text\":\"\u{2028}\u{2029}\"}"),
            true,
            true,
        ),
        (
            "every short escape".into(),
            with_block(r#"{"type":"text","text":"\"\\\/\b\f\n\r\t"}"#),
            true,
            true,
        ),
        (
            "an escape of nothing under an unknown key".into(),
            with_block(r#"{"type":"text","text":"a","x":"\x"}"#),
            false,
            false,
        ),
        (
            "a \\u escape of three digits under an unknown key".into(),
            with_block(r#"{"type":"text","text":"a","x":"\u12"}"#),
            false,
            false,
        ),
        (
            "a \\u escape of no hex digits under an unknown key".into(),
            with_block(r#"{"type":"text","text":"a","x":"\u00zz"}"#),
            false,
            false,
        ),
        (
            "an escape of nothing".into(),
            with_block(r#"{"type":"text","text":"\x"}"#),
            false,
            false,
        ),
        (
            "a \\u escape of three digits".into(),
            with_block(r#"{"type":"text","text":"\u123"}"#),
            false,
            false,
        ),
        (
            "a \\u escape with a sign".into(),
            with_block(r#"{"type":"text","text":"\u+123"}"#),
            false,
            false,
        ),
        (
            "a string cut at its escape".into(),
            r#"[{"role":"user","blocks":[{"type":"text","text":"\"#.into(),
            false,
            false,
        ),
        (
            "a number cut at its exponent".into(),
            r#"[{"role":"user","blocks":[],"x":1e}]"#.into(),
            false,
            false,
        ),
        (
            "a number with a leading zero".into(),
            r#"[{"role":"user","blocks":[],"x":012}]"#.into(),
            false,
            false,
        ),
        (
            "a fraction without digits".into(),
            r#"[{"role":"user","blocks":[],"x":1.}]"#.into(),
            false,
            false,
        ),
        (
            "true misspelled".into(),
            r#"[{"role":"user","blocks":[],"x":tru}]"#.into(),
            false,
            false,
        ),
        (
            "a trailing comma in an unknown array".into(),
            r#"[{"role":"user","blocks":[],"x":[1,]}]"#.into(),
            false,
            false,
        ),
        (
            "a trailing comma in an unknown object".into(),
            r#"[{"role":"user","blocks":[],"x":{"a":1,}}]"#.into(),
            false,
            false,
        ),
        (
            "a bracket that closes a brace".into(),
            r#"[{"role":"user","blocks":[],"x":{"a":1]}]"#.into(),
            false,
            false,
        ),
        (
            "an unknown value nested 128 deep".into(),
            nested(128),
            true,
            true,
        ),
        (
            "an unknown value nested 129 deep".into(),
            nested(129),
            true,
            false,
        ),
        (
            "an unknown value nested 10,000 deep".into(),
            nested(10_000),
            true,
            false,
        ),
    ];
    for byte in 0u8..0x20 {
        let c = char::from(byte);
        cases.push((
            format!("control character {byte:#04x} as it is"),
            with_block(&format!("{{\"type\":\"text\",\"text\":\"a{c}b\"}}")),
            false,
            false,
        ));
        cases.push((
            format!("control character {byte:#04x} escaped"),
            with_block(&format!(
                "{{\"type\":\"text\",\"text\":\"a\\u{byte:04x}b\"}}"
            )),
            true,
            true,
        ));
    }
    for (what, text, read, fast) in cases {
        same_reading(&text).unwrap_or_else(|failure| panic!("{what}: {failure}"));
        assert_eq!(
            parse_record(&text).is_ok(),
            read,
            "{what}: {:?}",
            parse_record(&text)
        );
        assert_eq!(parse_record_fast_only(&text).is_some(), fast, "{what}");
    }
}
