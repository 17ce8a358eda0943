//! A tool result whose output is empty replays as its label alone, `Result (name):` or
//! `Error (name):`, with no space after the colon: in replay, in every provider's body, and in
//! the piece a runtime builds by hand, because all three write the one prose form.

use transcript_replay::{
    anthropic, bedrock, gemini, openai, openai_responses, replay_messages, wire::Piece, Block,
    Role, StoredMessage, Turn, Vision,
};

/// A stored tool message with one result of the given output.
fn result(output: &str, is_error: bool) -> StoredMessage {
    let block = match is_error {
        false => Block::tool_result("t1", "touch", output),
        true => Block::tool_error("t1", "touch", output),
    };
    StoredMessage::new(Role::Tool, vec![block])
}

#[test]
fn an_empty_output_replays_as_the_label_alone() {
    // (output, is_error, the text replay writes)
    let cases = [
        ("", false, "Result (touch):"),
        ("", true, "Error (touch):"),
        (" ", false, "Result (touch):  "),
        ("done", false, "Result (touch): done"),
        ("failed", true, "Error (touch): failed"),
    ];
    for (output, is_error, expected) in cases {
        let record = [result(output, is_error)];
        let wire = replay_messages(&record, Vision::Sees);
        assert_eq!(
            serde_json::to_string(&wire).unwrap(),
            format!(
                r#"[{{"role":"assistant","content":[{{"type":"text","text":"{expected}"}}]}}]"#
            ),
            "{output:?} {is_error}"
        );
        let piece = Piece::ToolResult {
            tool_name: "touch",
            output,
            is_error,
        };
        assert_eq!(piece.to_string(), expected, "{output:?} {is_error}");
    }
}

#[test]
fn every_provider_writes_an_empty_output_as_the_label_alone() {
    let history = [
        StoredMessage::user("Touch it."),
        result("", false),
        result("", true),
    ];
    let live = [StoredMessage::user("Next.")];
    let turn = Turn::new(&history).without_preamble().live(&live);
    // (provider, the exact body)
    let cases = [
        (
            "openai",
            serde_json::to_string(&openai::body(&turn).unwrap()).unwrap(),
            concat!(
                r#"{"messages":[{"role":"user","content":"Touch it."},"#,
                r#"{"role":"assistant","content":"Result (touch):"},"#,
                r#"{"role":"assistant","content":"Error (touch):"},"#,
                r#"{"role":"user","content":"Next."}]}"#,
            ),
        ),
        (
            "openai_responses",
            serde_json::to_string(&openai_responses::body(&turn).unwrap()).unwrap(),
            concat!(
                r#"{"input":[{"role":"user","content":"Touch it."},"#,
                r#"{"role":"assistant","content":"Result (touch):"},"#,
                r#"{"role":"assistant","content":"Error (touch):"},"#,
                r#"{"role":"user","content":"Next."}]}"#,
            ),
        ),
        (
            "anthropic",
            serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap(),
            concat!(
                r#"{"messages":[{"role":"user","content":[{"type":"text","text":"Touch it."}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Result (touch):"}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Error (touch):"}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"Next."}]}]}"#,
            ),
        ),
        (
            "gemini",
            serde_json::to_string(&gemini::body(&turn).unwrap()).unwrap(),
            concat!(
                r#"{"contents":[{"role":"user","parts":[{"text":"Touch it."}]},"#,
                r#"{"role":"model","parts":[{"text":"Result (touch):\n\nError (touch):"}]},"#,
                r#"{"role":"user","parts":[{"text":"Next."}]}]}"#,
            ),
        ),
        (
            "bedrock",
            serde_json::to_string(&bedrock::body(&turn).unwrap()).unwrap(),
            concat!(
                r#"{"messages":[{"role":"user","content":[{"text":"Touch it."}]},"#,
                r#"{"role":"assistant","content":[{"text":"Result (touch):\n\nError (touch):"}]},"#,
                r#"{"role":"user","content":[{"text":"Next."}]}]}"#,
            ),
        ),
    ];
    for (provider, body, expected) in cases {
        assert_eq!(body, expected, "{provider}");
    }
}
