//! A conversation's life through the example program, as a user runs it: the summary request
//! printed instead of the turn's body, Responses' compact request and its reply read into the
//! stored message to append, the estimate of a history with no live turn anchored on the
//! newest reported usage, and a record written back with the keys a newer version wrote.

use crate::common::{run, stdout_json, temp_file};

const RECORD: &str = r#"[{"role":"user","blocks":[{"type":"text","text":"Read a.rs."}]},{"role":"assistant","blocks":[{"type":"text","text":"It is empty."}],"usage":{"input_tokens":120,"output_tokens":8}}]"#;

#[test]
fn summary_request_prints_the_history_then_the_question_and_the_instructions() {
    let record = temp_file("summary.json", RECORD.as_bytes());
    let record = record.to_str().unwrap();
    let body = stdout_json(&run(
        &[
            "--provider",
            "openai",
            "--model",
            "m",
            "--no-preamble",
            "--summary-request",
            "--compact-instructions",
            "Keep the paths.",
            record,
        ],
        "",
    ));
    let question = format!("{}\n\nKeep the paths.", transcript_replay::SUMMARY_REQUEST);
    assert_eq!(
        body,
        serde_json::json!({"model": "m", "messages": [
            {"role": "user", "content": "Read a.rs."},
            {"role": "assistant", "content": "It is empty."},
            {"role": "user", "content": question},
        ]})
    );
    // The same flags without --summary-request: the instructions need a threshold.
    let plain = run(
        &[
            "--provider",
            "openai",
            "--model",
            "m",
            "--compact-instructions",
            "Keep the paths.",
            record,
        ],
        "",
    );
    assert_eq!(plain.status.code(), Some(2));
}

#[test]
fn compact_request_prints_responses_request_and_an_error_elsewhere() {
    let record = temp_file("compact.json", RECORD.as_bytes());
    let record = record.to_str().unwrap();
    let request = stdout_json(&run(
        &[
            "--provider",
            "openai-responses",
            "--model",
            "gpt-5.1",
            "--compact-request",
            record,
        ],
        "",
    ));
    assert_eq!(
        request,
        serde_json::json!({
            "method": "POST", "path": "/v1/responses/compact",
            "headers": {"content-type": "application/json"}, "auth": "bearer",
            "base_url": "https://api.openai.com",
            "body": {"model": "gpt-5.1", "input": [
                {"role": "user", "content": "Read a.rs."},
                {"role": "assistant", "content": "It is empty."},
            ]},
        })
    );
    let elsewhere = run(
        &[
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--compact-request",
            record,
        ],
        "",
    );
    assert_eq!(elsewhere.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&elsewhere.stderr).contains("takes no compact request"));
}

#[test]
fn a_compact_reply_is_the_stored_message_to_append() {
    let reply = r#"{"id":"resp_1","object":"response.compaction","output":[{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA"}],"usage":{"input_tokens":139,"output_tokens":438}}"#;
    let message = stdout_json(&run(&["--reply", "openai-responses-compact", "-"], reply));
    assert_eq!(
        message,
        serde_json::json!({"role": "assistant", "blocks": [{"type": "compaction",
            "provider": "openai-responses",
            "data": r#"[{"type":"compaction","id":"cmp_1","encrypted_content":"gAAA"}]"#}],
            "usage": {"input_tokens": 139, "output_tokens": 438}})
    );
    let not_one = run(
        &["--reply", "openai-responses-compact", "-"],
        r#"{"output":[]}"#,
    );
    assert_eq!(not_one.status.code(), Some(1));
}

#[test]
fn estimate_without_a_live_turn_is_anchored_on_the_newest_reported_usage() {
    let record = temp_file("anchored.json", RECORD.as_bytes());
    let record = record.to_str().unwrap();
    for provider in [
        "openai",
        "openai-responses",
        "anthropic",
        "gemini",
        "bedrock",
    ] {
        let estimate = stdout_json(&run(
            &["--provider", provider, "--model", "m", "--estimate", record],
            "",
        ));
        assert_eq!(
            estimate["anchored"],
            serde_json::json!({"message": 1, "tokens": 128}),
            "{provider}"
        );
    }
    let unreported = r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}]}]"#;
    let estimate = stdout_json(&run(
        &["--provider", "openai", "--model", "m", "--estimate", "-"],
        unreported,
    ));
    assert!(estimate.get("anchored").is_none());
}

#[test]
fn rewrite_prints_the_record_with_every_key_it_does_not_read_in_place() {
    let newer = r#"{"version":1,"messages":[{"role":"user","id":"m1","blocks":[{"type":"text","text":"Hi","lang":"en"}],"meta":{"by": "x"}}]}"#;
    let written = run(&["--rewrite", "-"], newer);
    assert!(written.status.success());
    assert_eq!(
        String::from_utf8(written.stdout).unwrap(),
        format!("{newer}\n")
    );
    let bare = run(&["--rewrite", "-"], RECORD);
    assert_eq!(
        String::from_utf8(bare.stdout).unwrap(),
        format!("{{\"version\":1,\"messages\":{RECORD}}}\n")
    );
}
