//! Where the origin format's intent is clear, a record reads as its runtime meant it: a tool
//! input stored as a JSON value, a tool result without `is_error`. And the constructors build
//! exactly what such a record holds.

use transcript_replay::{
    parse_record, replay_messages, Block, Role, StoredMessage, TokenUsage, ToolInput, Vision,
};

#[test]
fn a_tool_input_stored_as_a_json_value_replays_without_the_stores_white_space() {
    // (how the record stores the input, the text replay must show): white space between
    // tokens goes; strings, their escapes and the spelling of numbers stay; a string input
    // stays exactly as stored.
    let cases = [
        (r#"{"path": "a.rs"}"#, r#"{"path":"a.rs"}"#),
        ("{\n  \"cmd\" : [\"ls\"] }", r#"{"cmd":["ls"]}"#),
        ("[1, 2.50, -0, 1E+2]", "[1,2.50,-0,1E+2]"),
        ("null", "null"),
        ("true", "true"),
        (
            r#"{"q": "a  b \u2192 \" {"}"#,
            r#"{"q":"a  b \u2192 \" {"}"#,
        ),
        (r#""{\"path\": \"a.rs\"}""#, r#"{"path": "a.rs"}"#),
    ];
    for (stored, shown) in cases {
        let json = format!(
            r#"[{{"role":"assistant","blocks":[{{"type":"tool_use","id":"t","name":"read","input":{stored}}}]}}]"#
        );
        let record = parse_record(&json).unwrap();
        let wire = replay_messages(&record, Vision::Sees);
        let text = serde_json::to_value(&wire).unwrap()[0]["content"][0]["text"].clone();
        assert_eq!(text, format!("Tool use: read({shown})"), "{stored}");
    }
}

#[test]
fn the_same_input_written_compactly_or_pretty_printed_replays_the_same_bytes() {
    let forms = [
        r#"{"file_path":"a.rs","limit":20}"#,
        "{\n            \"file_path\": \"a.rs\",\n            \"limit\": 20\n        }",
        "{ \"file_path\" :\t\"a.rs\" , \"limit\" : 20 }\r\n",
    ];
    let replayed: Vec<String> = forms
        .iter()
        .map(|input| {
            let json = format!(
                r#"{{"version":1,"messages":[{{"role":"assistant","blocks":[{{"type":"tool_use","id":"t","name":"read","input":{input}}}]}}]}}"#
            );
            serde_json::to_string(&replay_messages(&parse_record(&json).unwrap(), Vision::Sees)).unwrap()
        })
        .collect();
    assert!(
        replayed.iter().all(|text| *text == replayed[0]),
        "{replayed:#?}"
    );
}

#[test]
fn a_tool_input_is_written_back_in_the_form_it_was_stored_in() {
    for stored in [
        r#"{"path": "a.rs"}"#,
        "{\n  \"cmd\" : [\"ls\"] }",
        "null",
        r#""{\"path\":\"a.rs\"}""#,
        r#""not json at all""#,
    ] {
        let json = format!(
            r#"[{{"role":"assistant","blocks":[{{"type":"tool_use","id":"t","name":"read","input":{stored}}}]}}]"#
        );
        let written = serde_json::to_string(&parse_record(&json).unwrap()).unwrap();
        assert!(
            written.ends_with(&format!(r#""input":{stored}}}]}}]"#)),
            "{stored} became {written}"
        );
        assert_eq!(
            parse_record(&written).unwrap(),
            parse_record(&json).unwrap()
        );
    }
}

#[test]
fn a_tool_result_without_is_error_is_a_success() {
    let record = parse_record(
        r#"[{"role":"tool","blocks":[{"type":"tool_result","tool_use_id":"t","tool_name":"ls","output":"a.rs"}]}]"#,
    )
    .unwrap();
    assert_eq!(record[0].blocks, [Block::tool_result("t", "ls", "a.rs")]);
    let wire = serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap();
    assert!(wire.contains(r#""text":"Result (ls): a.rs""#), "{wire}");
}

#[test]
fn the_constructors_build_what_the_record_holds() {
    let built = vec![
        StoredMessage::system("Summary: a.rs was read."),
        StoredMessage::user("Is a.rs empty?").with_timestamp("2026-08-13T10:00:00Z"),
        StoredMessage::new(
            Role::Assistant,
            vec![
                Block::reasoning("Need the file."),
                Block::tool_use("t1", "read", r#"{"path":"a.rs"}"#),
                Block::tool_use(
                    "t2",
                    "read",
                    ToolInput::json(r#"{"path": "b.rs"}"#).unwrap(),
                ),
                Block::image("image/png", "iVBORw0KGgo="),
            ],
        )
        .with_usage(TokenUsage {
            input_tokens: 10,
            output_tokens: 5,
            ..TokenUsage::default()
        }),
        StoredMessage::new(
            Role::Tool,
            vec![
                Block::tool_result("t1", "read", ""),
                Block::tool_error("t2", "read", "no such file"),
            ],
        ),
        StoredMessage::assistant("It is empty."),
    ];
    let stored = parse_record(
        r#"[
        {"role":"system","blocks":[{"type":"text","text":"Summary: a.rs was read."}]},
        {"role":"user","blocks":[{"type":"text","text":"Is a.rs empty?"}],"timestamp":"2026-08-13T10:00:00Z"},
        {"role":"assistant","blocks":[
            {"type":"reasoning","reasoning":"Need the file."},
            {"type":"tool_use","id":"t1","name":"read","input":"{\"path\":\"a.rs\"}"},
            {"type":"tool_use","id":"t2","name":"read","input":{"path": "b.rs"}},
            {"type":"image","media_type":"image/png","data":"iVBORw0KGgo="}
        ],"usage":{"input_tokens":10,"output_tokens":5}},
        {"role":"tool","blocks":[
            {"type":"tool_result","tool_use_id":"t1","tool_name":"read","output":"","is_error":false},
            {"type":"tool_result","tool_use_id":"t2","tool_name":"read","output":"no such file","is_error":true}
        ]},
        {"role":"assistant","blocks":[{"type":"text","text":"It is empty."}]}
    ]"#,
    )
    .unwrap();
    assert_eq!(built, stored);
}
