//! The crate's string loops read and write a string a block of 64 bytes at a time, and the
//! blocks change nothing: every escape, at every place of two blocks and across the end of
//! one, after a clean run of every length up to 140 bytes (ASCII, or of two- or four-byte
//! characters), is read by the fast reader as the serde reader reads it, and written by the
//! writer as serde_json writes it.

use transcript_replay::{
    openai, parse_record, parse_record_by_serde, parse_record_fast_only, Priced, Turn,
};

/// The escapes, as a record's text spells them, each with whether the fast reader reads it
/// (a `\u` escape of a surrogate it leaves to the serde reader).
const ESCAPES: [(&str, bool); 10] = [
    ("\\n", true),
    ("\\\"", true),
    ("\\\\", true),
    ("\\/", true),
    ("\\t", true),
    ("\\u0001", true),
    ("\\u00e9", true),
    ("\\u2028", true),
    ("\\uffff", true),
    ("\\ud83d\\ude00", false),
];

/// A record of one text block whose text is spelled `spelled`.
fn record(spelled: &str) -> String {
    format!(r#"[{{"role":"user","blocks":[{{"type":"text","text":"{spelled}"}}]}}]"#)
}

/// The text reads the same whoever reads it; the fast reader takes it when `fast`; and its
/// body is written as serde_json writes it.
fn check(spelled: &str, fast: bool) {
    let text = record(spelled);
    let serde = parse_record_by_serde(&text).unwrap_or_else(|error| panic!("{spelled}: {error}"));
    assert_eq!(parse_record(&text).as_ref(), Ok(&serde), "{spelled}");
    match parse_record_fast_only(&text) {
        Some(read) => assert_eq!(read, serde, "{spelled}"),
        None => assert!(!fast, "the fast reader declined {spelled}"),
    }
    let turn = Turn::new(&serde).without_preamble();
    let body = openai::body(&turn).unwrap();
    assert_eq!(
        body.to_json().unwrap(),
        serde_json::to_vec(&body).unwrap(),
        "{spelled}"
    );
}

#[test]
fn an_escape_at_every_place_of_two_blocks_reads_and_writes_as_serde_does() {
    for (escape, fast) in ESCAPES {
        for lead in 0..140 {
            for clean in ["x", "é", "😀"] {
                let run = clean.repeat(lead / clean.len());
                // With an escape first, the block loop starts at once; without, the clean
                // head is copied first.
                check(&format!("{run}{escape}tail"), fast);
                check(&format!("\\n{run}{escape}"), fast);
                check(&format!("\\\"{run}{escape}{run}\\\\"), fast);
            }
        }
    }
}

#[test]
fn escapes_back_to_back_across_blocks_read_and_write_as_serde_does() {
    for (escape, fast) in ESCAPES {
        for count in [1, 2, 31, 32, 33, 63, 64, 65, 130] {
            check(&escape.repeat(count), fast);
            check(&format!("a{}", escape.repeat(count)), fast);
            check(&format!("{}b", escape.repeat(count)), fast);
        }
    }
}

#[test]
fn a_string_cut_inside_an_escape_at_the_end_of_a_block_is_left_to_the_serde_reader() {
    for lead in 56..72 {
        for cut in ["\\", "\\u", "\\u00", "\\u00e"] {
            let text = format!(
                r#"[{{"role":"user","blocks":[{{"type":"text","text":"\n{}{cut}"#,
                "x".repeat(lead)
            );
            assert!(parse_record_fast_only(&text).is_none(), "{text}");
            assert_eq!(parse_record(&text), parse_record_by_serde(&text));
            assert!(parse_record(&text).is_err(), "{text}");
        }
    }
}
