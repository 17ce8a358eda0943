//! A record that cannot be read gives an error that says where and what, never a panic.

use transcript_replay::parse_record;

/// (what is wrong, the record, the exact error message).
const CASES: &[(&str, &str, &str)] = &[
    (
        "unknown role",
        r#"[{"role":"user","blocks":[]},{"role":"robot","blocks":[]}]"#,
        r#"message 1 (line 1, column 44): unknown role "robot", expected system, user, assistant or tool"#,
    ),
    (
        "missing field of a block",
        r#"[{"role":"tool","blocks":[{"type":"tool_result","tool_use_id":"t","output":"o","is_error":false}]}]"#,
        "message 0, block 0 (line 1, column 96): missing field `tool_name` in a tool_result block",
    ),
    (
        "missing type",
        r#"[{"role":"user","blocks":[{"text":"a"}]}]"#,
        "message 0, block 0 (line 1, column 38): missing field `type`",
    ),
    (
        "missing role",
        r#"[{"blocks":[]}]"#,
        "message 0 (line 1, column 14): missing field `role`",
    ),
    (
        "missing blocks",
        r#"[{"role":"user"}]"#,
        "message 0 (line 1, column 16): missing field `blocks`",
    ),
    (
        "wrong type of a block field",
        r#"[{"role":"user","blocks":[{"type":"text","text":42}]}]"#,
        "message 0, block 0 (line 1, column 51): field `text` of a text block must be a string, found a number",
    ),
    (
        "is_error not a boolean",
        r#"[{"role":"tool","blocks":[{"type":"tool_result","tool_use_id":"t","tool_name":"n","output":"o","is_error":"no"}]}]"#,
        "message 0, block 0 (line 1, column 111): field `is_error` of a tool_result block must be a boolean, found a string",
    ),
    (
        "missing input",
        r#"[{"role":"assistant","blocks":[{"type":"tool_use","id":"t","name":"n"}]}]"#,
        "message 0, block 0 (line 1, column 70): missing field `input` in a tool_use block",
    ),
    (
        "usage that is an array, not an object",
        r#"[{"role":"user","blocks":[],"usage":[7,8,9]}]"#,
        "message 0 (line 1, column 36): invalid type: sequence, expected a usage object",
    ),
    (
        "garbage between two messages",
        r#"[{"role":"user","blocks":[]} x]"#,
        "line 1, column 30: expected `,` or `]` after message 0",
    ),
    (
        "garbage between two blocks",
        r#"[{"role":"user","blocks":[{"type":"text","text":"a"} x]}]"#,
        "message 0 (line 1, column 54): expected `,` or `]` after block 0",
    ),
    (
        "a record cut short after a message",
        r#"[{"role":"user","blocks":[]}"#,
        "line 1, column 28: unexpected end of input while parsing a list after message 0",
    ),
    (
        "garbage where the first message should be",
        "[ x ]",
        "message 0 (line 1, column 3): expected value",
    ),
    (
        "duplicate field",
        r#"[{"role":"user","role":"assistant","blocks":[]}]"#,
        "message 0 (line 1, column 34): duplicate field `role`",
    ),
    (
        "bad usage",
        r#"[{"role":"user","blocks":[],"usage":{"input_tokens":-1,"output_tokens":0}}]"#,
        "message 0 (line 1, column 54): invalid value: integer `-1`, expected u64",
    ),
    (
        "unsupported version",
        r#"{"version":2,"messages":[]}"#,
        "line 1, column 12: unsupported version 2, only version 1 exists",
    ),
    (
        "version as a string",
        r#"{"version":"1","messages":[]}"#,
        r#"line 1, column 14: unsupported version "1", only version 1 exists"#,
    ),
    (
        "missing version",
        r#"{"messages":[]}"#,
        "line 1, column 15: missing field `version` in the conversation file",
    ),
    (
        "missing messages",
        r#"{"version":1}"#,
        "line 1, column 13: missing field `messages` in the conversation file",
    ),
    (
        "malformed JSON",
        "[{\"role\":\"user\",\n \"blocks\":[}]",
        "message 0, block 0 (line 2, column 12): expected value",
    ),
    (
        "truncated JSON",
        r#"[{"role":"user","blocks":[{"type":"text","text":"a"#,
        "message 0, block 0 (line 1, column 50): unexpected end of input while parsing a string",
    ),
    (
        "empty input",
        "",
        "line 1, column 1: unexpected end of input while parsing a value",
    ),
    (
        "wrong top-level shape",
        r#""just a string""#,
        r#"line 1, column 15: invalid type: string "just a string", expected a record: an array of messages, or a conversation file object"#,
    ),
    (
        "a message that is not an object",
        "[1]",
        "message 0 (line 1, column 2): invalid type: integer `1`, expected a message object",
    ),
    (
        "blocks that are not an array",
        r#"[{"role":"user","blocks":{}}]"#,
        "message 0 (line 1, column 25): invalid type: map, expected an array of blocks",
    ),
    (
        "trailing characters",
        "[] []",
        "line 1, column 4: trailing characters",
    ),
];

#[test]
fn each_bad_record_gives_its_exact_error() {
    let mut failures = Vec::new();
    for &(name, record, expected) in CASES {
        match parse_record(record) {
            Ok(messages) => failures.push(format!("{name}: parsed as {messages:?}")),
            Err(error) if error.to_string() != expected => {
                failures.push(format!("{name}:\n  got  {error}\n  want {expected}"));
            }
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_expose_where_they_happened() {
    let error = parse_record(
        "[\n{\"role\":\"user\",\"blocks\":[]},\n{\"role\":\"user\",\"blocks\":[{\"type\":\"text\"},{}]}\n]",
    )
    .unwrap_err();
    assert_eq!(error.message_index(), Some(1));
    assert_eq!(error.block_index(), Some(0));
    assert_eq!(error.line(), 3);
}

#[test]
fn error_messages_are_lowercase_without_a_trailing_period() {
    for &(name, record, _) in CASES {
        let message = parse_record(record).unwrap_err().to_string();
        assert!(!message.ends_with('.'), "{name}: {message}");
        let what = message
            .rsplit_once("): ")
            .map_or(message.as_str(), |(_, what)| what);
        assert!(!what.starts_with(char::is_uppercase), "{name}: {message}");
    }
}

#[test]
fn a_quoted_value_in_an_error_is_cut_short() {
    let record = format!(r#"[{{"role":"{}","blocks":[]}}]"#, "r".repeat(10_000));
    let message = parse_record(&record).unwrap_err().to_string();
    assert!(message.len() < 200, "{message}");
    assert!(
        message.contains(&format!("\"{}\"...", "r".repeat(64))),
        "{message}"
    );
}

#[test]
fn nesting_10_000_deep_is_read_without_a_stack_overflow() {
    let depth = 10_000;
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    // Under a key the reader does not know, any depth is skipped.
    for record in [
        format!(r#"{{"version":1,"messages":[],"extra":{nested}}}"#),
        format!(r#"[{{"role":"user","blocks":[],"extra":{nested}}}]"#),
    ] {
        assert_eq!(
            parse_record(&record).unwrap().len(),
            usize::from(record.starts_with('['))
        );
    }
    // Where a value is expected, the depth is a clear error.
    let record = format!(r#"[{{"role":"user","blocks":[{{"type":"text","text":{nested}}}]}}]"#);
    let message = parse_record(&record).unwrap_err().to_string();
    assert!(
        message.ends_with("field `text` of a text block must be a string, found an array"),
        "{message}"
    );
    let message = parse_record(&format!("[{nested}]"))
        .unwrap_err()
        .to_string();
    assert!(message.ends_with("expected a message object"), "{message}");
    let deep_objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    let message = parse_record(&deep_objects).unwrap_err().to_string();
    assert!(
        message.ends_with("missing field `version` in the conversation file"),
        "{message}"
    );
}

#[test]
fn unknown_keys_are_ignored_anywhere() {
    let record = parse_record(
        r#"[{"id":7,"role":"user","meta":{"a":[1,2]},"blocks":[
            {"cache_control":{"type":"ephemeral"},"type":"text","text":"a","name":5}
        ]}]"#,
    )
    .unwrap();
    assert_eq!(record.len(), 1);
}

#[test]
fn the_keys_of_a_block_may_come_in_any_order() {
    let record = parse_record(
        r#"[{"blocks":[{"is_error":true,"output":"o","tool_name":"n","tool_use_id":"t","type":"tool_result"}],"role":"tool"}]"#,
    )
    .unwrap();
    assert_eq!(
        record[0].blocks[0],
        transcript_replay::Block::ToolResult {
            tool_use_id: "t".into(),
            tool_name: "n".into(),
            output: "o".into(),
            is_error: true,
        }
    );
}
