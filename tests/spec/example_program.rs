//! The example program `replay` (docs/design.md#example-program), run as a user runs it.

use std::io::Write;
use std::process::Stdio;

use transcript_replay::{parse_record, Block, Role};

use crate::common::{example, run, stdout_json, temp_file};

const SAMPLE: &str = include_str!("../../examples/sample-conversation.json");
const RECORD: &str = r#"[{"role":"user","blocks":[{"type":"text","text":"hi"},{"type":"image","media_type":"image/png","data":"iVBORw0KGgo="}]}]"#;

#[test]
fn with_no_arguments_it_replays_the_bundled_conversation_for_a_model_that_sees() {
    let wire = stdout_json(&run(&[], ""));
    let record = parse_record(SAMPLE).unwrap();
    assert_eq!(wire.as_array().unwrap().len(), record.len());
    assert!(wire.to_string().contains(r#""type":"image""#));
}

#[test]
fn the_bundled_conversation_is_a_real_coding_session() {
    let record = parse_record(SAMPLE).unwrap();
    let blocks = || record.iter().flat_map(|message| &message.blocks);
    assert_eq!(
        record[0].role,
        Role::System,
        "starts with a compaction summary"
    );
    assert!(
        record
            .iter()
            .any(|m| m.role == Role::User
                && m.blocks.iter().any(|b| matches!(b, Block::Image { .. })))
    );
    assert!(blocks().any(|b| matches!(b, Block::Reasoning { .. })));
    assert!(
        blocks()
            .filter(|b| matches!(b, Block::ToolUse { .. }))
            .count()
            >= 3
    );
    assert!(blocks().any(|b| matches!(b, Block::ToolResult { is_error: true, .. })));
    let answered: Vec<&str> = blocks()
        .filter_map(|b| match b {
            Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
            Block::Text { .. }
            | Block::ToolUse { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        })
        .collect();
    assert!(
        blocks()
            .any(|b| matches!(b, Block::ToolUse { id, .. } if !answered.contains(&id.as_str()))),
        "a turn killed mid-round leaves a call with no result"
    );
}

#[test]
fn it_reads_a_file_and_standard_input_alike() {
    let dir = std::env::temp_dir().join(format!("transcript-replay-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("record.json");
    std::fs::write(&file, RECORD).unwrap();
    let from_file = run(&[file.to_str().unwrap()], "");
    let from_stdin = run(&["-"], RECORD);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(stdout_json(&from_file), stdout_json(&from_stdin));
    assert_eq!(
        String::from_utf8(from_stdin.stdout).unwrap(),
        concat!(
            r#"[{"role":"user","content":[{"type":"text","text":"hi"},"#,
            r#"{"type":"image","media_type":"image/png","data":"iVBORw0KGgo="}]}]"#,
            "\n"
        )
    );
}

#[test]
fn vision_blind_replaces_every_image_with_its_marker() {
    for args in [
        &["--vision", "blind", "-"][..],
        &["--vision=blind", "-"][..],
    ] {
        let wire = stdout_json(&run(args, RECORD));
        assert_eq!(
            wire.to_string(),
            r#"[{"content":[{"text":"hi\n\n[Image (image/png) not shown: this model cannot view images]","type":"text"}],"role":"user"}]"#
        );
    }
}

#[test]
fn each_provider_prints_its_request_fragment() {
    for (provider, key) in [
        ("openai", "messages"),
        ("anthropic", "messages"),
        ("gemini", "contents"),
    ] {
        let fragment = stdout_json(&run(&["--provider", provider], ""));
        assert!(fragment.get(key).is_some(), "{provider}: {fragment}");
    }
    let neutral = stdout_json(&run(&["--provider", "neutral"], ""));
    assert!(neutral.is_array());
}

#[test]
fn provider_takes_every_compatible_servers_dialect_with_its_rules() {
    for dialect in transcript_replay::Dialect::NAMED {
        let args = [
            "--provider",
            dialect.id,
            "--model",
            "m",
            "--max-tokens",
            "100",
        ];
        let body = stdout_json(&run(&args, ""));
        // The dialect's own output-limit field, and the bundled summary in the first system
        // message where the server takes system text only first.
        assert_eq!(body[dialect.output_limit], 100, "{}: {body}", dialect.id);
        let roles: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|message| message["role"].as_str().unwrap())
            .collect();
        let systems = roles.iter().filter(|role| **role == "system").count();
        match dialect.system {
            transcript_replay::dialects::SystemText::First => {
                assert_eq!(systems, 1, "{}", dialect.id)
            }
            transcript_replay::dialects::SystemText::InPlace => {
                assert_eq!(systems, 2, "{}", dialect.id)
            }
        }
        let fragment = stdout_json(&run(&["--provider", dialect.id], ""));
        assert!(fragment.get("messages").is_some(), "{}", dialect.id);
    }
}

#[test]
fn bad_input_prints_the_error_and_exits_1() {
    for input in ["[{\"role\":\"robot\",\"blocks\":[]}]", "not json", "\u{0}"] {
        let output = run(&["-"], input);
        assert_eq!(output.status.code(), Some(1), "{input:?}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("replay: "), "{stderr}");
    }
    let output = run(&["/no/such/record.json"], "");
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn a_record_that_is_not_utf8_is_bad_input() {
    let mut child = example()
        .arg("-")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"[\xff]").unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not UTF-8"));
}

#[test]
fn bad_arguments_print_the_usage_and_exit_2() {
    for args in [
        &["--vision"][..],
        &["--vision", "squint"],
        &["--provider", "cohere"],
        &["--frobnicate"],
        &["a.json", "b.json"],
        &["--vision", "sees", "--vision", "blind"],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        assert!(String::from_utf8(output.stderr)
            .unwrap()
            .contains("usage: replay"));
    }
}

#[test]
fn help_prints_the_usage_and_exits_0() {
    let output = run(&["--help"], "");
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout)
        .unwrap()
        .starts_with("usage: replay"));
}

#[cfg(unix)]
#[test]
fn a_file_name_or_option_that_is_not_utf8_never_panics() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    // A record under a name that is not UTF-8 is read like any other.
    let dir = std::env::temp_dir().join(format!("replay-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(OsStr::from_bytes(b"record-\xff.json"));
    std::fs::write(
        &path,
        r#"[{"role":"user","blocks":[{"type":"text","text":"hi"}]}]"#,
    )
    .unwrap();
    let output = example().arg(&path).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        stdout_json(&output),
        serde_json::json!([{"role": "user", "content": [{"type": "text", "text": "hi"}]}])
    );

    // A missing one is bad input; an option that is not UTF-8 is a bad argument.
    let missing = example()
        .arg(OsStr::from_bytes(b"/no/such/\xff"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    for args in [
        vec![OsStr::from_bytes(b"--\xff")],
        vec![OsStr::new("--vision"), OsStr::from_bytes(b"\xff")],
    ] {
        let output = example().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("usage: replay"));
    }
}

#[test]
fn with_model_it_prints_the_whole_body_for_the_provider() {
    let record = r#"[{"role":"system","blocks":[{"type":"text","text":"Summary."}]},
        {"role":"user","blocks":[{"type":"text","text":"Hi"}]},
        {"role":"assistant","blocks":[{"type":"text","text":"Hello!"}]}]"#;
    let dir = std::env::temp_dir().join(format!("replay-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let live = dir.join("live.json");
    std::fs::write(
        &live,
        r#"[{"role":"user","blocks":[{"type":"text","text":"Bye"}]}]"#,
    )
    .unwrap();
    let live = live.to_str().unwrap();
    let args = |provider: &'static str| {
        vec![
            "--provider",
            provider,
            "--model",
            "m1",
            "--system",
            "Be brief.",
            "--no-preamble",
            "--live",
            live,
            "-",
        ]
    };
    let openai = stdout_json(&run(&args("openai"), record));
    assert_eq!(
        openai,
        serde_json::json!({"model": "m1", "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "system", "content": "Summary."},
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": "Bye"}]})
    );
    let anthropic = stdout_json(&run(&args("anthropic"), record));
    assert_eq!(anthropic["model"], "m1");
    assert_eq!(anthropic["max_tokens"], 4096);
    assert_eq!(
        anthropic["system"],
        serde_json::json!([{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Summary."}])
    );
    assert_eq!(anthropic["messages"].as_array().unwrap().len(), 3);
    let gemini = stdout_json(&run(&args("gemini"), record));
    assert!(
        gemini.get("model").is_none(),
        "Gemini takes the model in the URL"
    );
    assert_eq!(
        gemini["systemInstruction"],
        serde_json::json!({"parts": [{"text": "Be brief."}, {"text": "Summary."}]})
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn with_model_the_preamble_is_in_the_system_text_unless_left_out() {
    let output = run(&["--provider", "anthropic", "--model", "m"], "");
    let body = stdout_json(&output);
    let system = body["system"][0]["text"].as_str().unwrap();
    assert_eq!(system, transcript_replay::REPLAY_PREAMBLE);
}

#[test]
fn max_tokens_goes_under_each_providers_name_for_it() {
    let record = r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}]}]"#;
    for (provider, path, value) in [
        ("openai", "/max_completion_tokens", 77),
        ("anthropic", "/max_tokens", 77),
        ("gemini", "/generationConfig/maxOutputTokens", 77),
    ] {
        let body = stdout_json(&run(
            &[
                "--provider",
                provider,
                "--model",
                "m",
                "--max-tokens",
                "77",
                "-",
            ],
            record,
        ));
        assert_eq!(
            body.pointer(path),
            Some(&serde_json::json!(value)),
            "{provider}"
        );
    }
}

#[test]
fn pretty_indents_the_same_json() {
    let compact = run(&["--provider", "gemini"], "");
    let pretty = run(&["--provider", "gemini", "--pretty"], "");
    assert!(String::from_utf8_lossy(&pretty.stdout).contains("\n  \""));
    assert_eq!(stdout_json(&compact), stdout_json(&pretty));
}

#[test]
fn a_body_the_provider_would_reject_is_bad_input() {
    let record = r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}]},
        {"role":"assistant","blocks":[{"type":"text","text":"Hello!"}]}]"#;
    for provider in ["openai", "anthropic", "gemini"] {
        let output = run(&["--provider", provider, "--model", "m", "-"], record);
        assert_eq!(output.status.code(), Some(1), "{provider}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("the request would end on"), "{stderr}");
    }
}

#[test]
fn body_options_without_model_and_options_not_supported_yet_are_bad_arguments() {
    for args in [
        &["--system", "x"][..],
        &["--no-preamble"],
        &["--live", "x.json"],
        &["--max-tokens", "10"],
        &["--model", "m"],
        &["--provider", "openai", "--model", "m", "--max-tokens", "0"],
        &["--provider", "openai", "--model", "m", "--live", "-", "-"],
        &["--provider", "anthropic", "--model", "m", "--cache", "2h"],
        &["--provider", "anthropic", "--cache", "5m"],
        &["--reply", "cohere", "x.json"],
        &["--reply", "openai"],
        &["--reply", "openai", "--provider", "gemini", "x.json"],
        &["--provider", "cohere"],
        &["--pretty=yes"],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8(output.stderr)
            .unwrap()
            .contains("usage: replay"));
    }
}

#[test]
fn cache_puts_breakpoints_in_an_anthropic_body() {
    let record = r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}]}]"#;
    for (ttl, control) in [
        ("5m", serde_json::json!({"type": "ephemeral"})),
        ("1h", serde_json::json!({"type": "ephemeral", "ttl": "1h"})),
    ] {
        let body = stdout_json(&run(
            &[
                "--provider",
                "anthropic",
                "--model",
                "m",
                "--cache",
                ttl,
                "-",
            ],
            record,
        ));
        assert_eq!(body["system"][0]["cache_control"], control);
        assert_eq!(body["messages"][0]["content"][0]["cache_control"], control);
    }
}

#[test]
fn reply_prints_the_stored_message_a_reply_becomes() {
    let reply = r#"{"content": [{"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}],
        "usage": {"input_tokens": 5, "output_tokens": 3}}"#;
    let stored = stdout_json(&run(&["--reply", "anthropic", "-"], reply));
    assert_eq!(
        stored,
        serde_json::json!({"role": "assistant", "blocks": [
            {"type": "text", "text": "Reading."},
            {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}],
            "usage": {"input_tokens": 5, "output_tokens": 3}})
    );
    let bad = run(&["--reply", "gemini", "-"], r#"{"candidates": []}"#);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("the reply has no candidate"));
}

#[test]
fn the_responses_and_bedrock_surfaces_print_their_bodies_and_read_their_replies() {
    let record = r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}]}]"#;
    let responses = stdout_json(&run(
        &[
            "--provider",
            "openai-responses",
            "--model",
            "m1",
            "--no-preamble",
            "--system",
            "Be brief.",
            "-",
        ],
        record,
    ));
    assert_eq!(
        responses,
        serde_json::json!({"model": "m1", "instructions": "Be brief.",
            "input": [{"role": "user", "content": "Hi"}]})
    );
    let bedrock = stdout_json(&run(
        &[
            "--provider",
            "bedrock",
            "--model",
            "m1",
            "--no-preamble",
            "--max-tokens",
            "5",
            "-",
        ],
        record,
    ));
    assert_eq!(
        bedrock,
        serde_json::json!({"inferenceConfig": {"maxTokens": 5},
            "messages": [{"role": "user", "content": [{"text": "Hi"}]}]})
    );
    let reply = r#"{"output": {"message": {"role": "assistant", "content": [{"text": "Hello!"}]}},
        "usage": {"inputTokens": 3, "outputTokens": 2, "totalTokens": 5}}"#;
    assert_eq!(
        stdout_json(&run(&["--reply", "bedrock", "-"], reply)),
        serde_json::json!({"role": "assistant", "blocks": [{"type": "text", "text": "Hello!"}],
            "usage": {"input_tokens": 3, "output_tokens": 2}})
    );
}

#[test]
fn estimate_prints_the_cost_of_exactly_the_body_the_same_flags_print() {
    for (provider, model) in [
        ("openai", true),
        ("anthropic", true),
        ("gemini", false),
        ("openai-responses", true),
        ("bedrock", true),
    ] {
        let mut args = vec!["--provider", provider];
        if model {
            args.extend(["--model", "m"]);
        }
        let body = run(&args, "");
        assert!(body.status.success(), "{provider}");
        args.push("--estimate");
        let estimate = stdout_json(&run(&args, ""));
        // The body as sent, without the line break the program prints after it.
        assert_eq!(estimate["bytes"], body.stdout.len() - 1, "{provider}");
        let keys: Vec<&String> = estimate.as_object().unwrap().keys().collect();
        // A body is anchored on the sample's reported usage; a fragment has no turn.
        let expected: &[&str] = match model {
            true => &[
                "anchored",
                "bytes",
                "image_tokens",
                "images",
                "messages",
                "text_tokens",
            ],
            false => &["bytes", "image_tokens", "images", "messages", "text_tokens"],
        };
        assert_eq!(keys, expected, "{provider}");
        assert!(estimate["messages"].as_array().unwrap().len() > 1);
    }
    // The bundled screenshot is 16x16: 258 tokens on Gemini 2, 1120 on Gemini 3.
    let gemini2 = stdout_json(&run(&["--provider", "gemini", "--estimate"], ""));
    let gemini3 = stdout_json(&run(
        &["--provider", "gemini", "--estimate", "--family", "gemini-3"],
        "",
    ));
    assert_eq!(gemini2["images"], 1);
    assert_eq!(gemini2["image_tokens"], 258);
    assert_eq!(gemini3["image_tokens"], 1120);
    for args in [
        &["--estimate"][..],
        &["--provider", "openai", "--family", "gpt-4o"],
        &["--provider", "openai", "--estimate", "--family", "gpt-0"],
    ] {
        assert_eq!(run(args, "").status.code(), Some(2), "{args:?}");
    }
}

const STREAM: &str = concat!(
    "event: message_start\n",
    r#"data: {"type":"message_start","message":{"content":[],"usage":{"input_tokens":9,"output_tokens":1}}}"#,
    "\n\n",
    "event: content_block_start\n",
    r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
    "\n\n",
    "event: content_block_delta\n",
    r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Reading ✓."}}"#,
    "\n\n",
    "event: content_block_start\n",
    r#"data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"read","input":{}}}"#,
    "\n\n",
    "event: content_block_delta\n",
    r#"data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\": "}}"#,
    "\n\n",
    "event: content_block_delta\n",
    r#"data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"a.rs\"}"}}"#,
    "\n\n",
    "event: message_delta\n",
    r#"data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":12}}"#,
    "\n\n",
    "event: message_stop\n",
    r#"data: {"type":"message_stop"}"#,
    "\n\n",
);

const STREAMED_BODY: &str = r#"{"content": [{"type": "text", "text": "Reading ✓."},
    {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}],
    "stop_reason": "tool_use", "usage": {"input_tokens": 9, "output_tokens": 12}}"#;

#[test]
fn stream_prints_what_reply_prints_for_the_equivalent_body_in_any_chunk_size() {
    let stream = temp_file("stream.sse", STREAM.as_bytes());
    let stream = stream.to_str().unwrap();
    let whole = stdout_json(&run(&["--reply", "anthropic", "-"], STREAMED_BODY));
    for chunk in [None, Some("1"), Some("7"), Some("100000")] {
        let mut args = vec!["--stream", "anthropic", stream];
        if let Some(chunk) = chunk {
            args.extend(["--chunk", chunk]);
        }
        assert_eq!(stdout_json(&run(&args, "")), whole, "{chunk:?}");
    }
    let outcome = stdout_json(&run(&["--stream", "anthropic", "--outcome", stream], ""));
    assert_eq!(outcome["stop"], "tool_use");
    assert_eq!(outcome["message"], whole);
    assert_eq!(
        stdout_json(&run(
            &["--reply", "anthropic", "--outcome", "-"],
            STREAMED_BODY
        )),
        outcome
    );
}

#[test]
fn a_stream_that_fails_prints_the_error_and_exits_1() {
    let cut = &STREAM[..STREAM.find("event: message_stop").unwrap()];
    let overloaded = format!(
        "{}event: error\ndata: {}\n\n",
        &STREAM[..STREAM.find("event: content_block_start").unwrap()],
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
    );
    for (name, stream, said) in [
        (
            "cut.sse",
            cut.to_owned(),
            "the stream ended before its terminal event, message_stop",
        ),
        (
            "error.sse",
            overloaded,
            "the provider sent an error: Anthropic error (overloaded) overloaded_error: Overloaded",
        ),
    ] {
        let path = temp_file(name, stream.as_bytes());
        let output = run(
            &[
                "--stream",
                "anthropic",
                "--chunk",
                "3",
                path.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(output.status.code(), Some(1), "{name}");
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("replay: Anthropic stream, "), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
    }
}

#[test]
fn error_prints_the_kind_the_retry_and_the_counts() {
    let body = r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}"#;
    let output = run(&["--error", "anthropic", "400", "-"], body);
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        concat!(
            r#"{"kind":"context_window_exceeded","retryable":false,"message":"prompt is too long: 219898 tokens > 200000 maximum","used":219898,"limit":200000}"#,
            "\n"
        )
    );
    let page = stdout_json(&run(
        &["--error", "gemini", "503", "-"],
        "<html>Service Unavailable</html>",
    ));
    assert_eq!(
        page,
        serde_json::json!({"kind": "overloaded", "retryable": true, "message": "<html>Service Unavailable</html>"})
    );
    for args in [
        &["--error", "anthropic", "-"][..],
        &["--error", "anthropic", "abc", "-"],
        &["--error", "anthropic", "400"],
        &["--stream", "anthropic", "--reply", "anthropic", "-"],
        &["--outcome", "-"],
        &["--chunk", "5", "-"],
        &["--stream", "anthropic", "--chunk", "0", "-"],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_live_turn_under_a_name_that_is_not_utf8_is_read_like_any_file() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = std::env::temp_dir().join(format!("replay-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let live = dir.join(OsStr::from_bytes(b"live-\xff.json"));
    std::fs::write(
        &live,
        r#"[{"role":"user","blocks":[{"type":"text","text":"Go on."}]}]"#,
    )
    .unwrap();
    let output = example()
        .args([
            "--provider",
            "openai",
            "--model",
            "m",
            "--no-preamble",
            "--live",
        ])
        .arg(&live)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(RECORD.as_bytes())
                .unwrap();
            child.wait_with_output()
        })
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let body = stdout_json(&output);
    assert_eq!(body["messages"][1]["content"], "Go on.");
}

/// A stream whose reader is gone: writing to it fails with a broken pipe, as it does when
/// the program's output is piped into `head` and `head` has exited.
#[cfg(unix)]
fn closed_pipe() -> Stdio {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;

    let (reader, writer) = UnixStream::pair().unwrap();
    drop(reader);
    Stdio::from(OwnedFd::from(writer))
}

/// The example run with `arg`, its standard output a [`closed_pipe`]: its exit status, and
/// what it said on standard error.
#[cfg(unix)]
fn on_a_closed_output(arg: &std::ffi::OsStr) -> (Option<i32>, String) {
    let output = example().arg(arg).stdout(closed_pipe()).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[cfg(unix)]
#[test]
fn a_closed_output_never_panics() {
    // The usage asked for, and a replayed record: neither can be written, which is an error
    // (exit 1) that says so, not a panic.
    let record = temp_file(
        "closed-output.json",
        br#"[{"role":"user","blocks":[{"type":"text","text":"hi"}]}]"#,
    );
    for arg in ["--help".as_ref(), record.as_os_str()] {
        let (code, said) = on_a_closed_output(arg);
        assert_eq!(code, Some(1), "{arg:?}: {said}");
        assert!(said.contains("cannot write the output"), "{arg:?}: {said}");
        assert!(!said.contains("panicked"), "{arg:?}: {said}");
    }

    // The usage after bad arguments, on a closed standard error: still exit 2.
    let bad = example()
        .arg("--frobnicate")
        .stderr(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn outcome_spells_a_paused_turn_paused_and_prints_server_tools_as_calls_and_results() {
    let body = r#"{"content": [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
            {"type": "web_search_result", "title": "Rust", "url": "https://www.rust-lang.org"}]}],
        "stop_reason": "pause_turn"}"#;
    let outcome = stdout_json(&run(&["--reply", "anthropic", "--outcome", "-"], body));
    assert_eq!(
        outcome,
        serde_json::json!({"stop": "paused", "message": {"role": "assistant", "blocks": [
            {"type": "tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}, "provider_executed": true},
            {"type": "tool_result", "tool_use_id": "srvtoolu_1", "tool_name": "web_search", "output": "Rust <https://www.rust-lang.org>", "is_error": false}]}})
    );
}

#[test]
fn outcome_prints_a_gemini_blocked_prompt_and_the_other_candidates_as_metadata() {
    let blocked = r#"{"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 4}}"#;
    for mode in ["--reply", "--stream"] {
        let input = match mode {
            "--stream" => format!("data: {blocked}\n\n"),
            _ => blocked.to_owned(),
        };
        let outcome = stdout_json(&run(&[mode, "gemini", "--outcome", "-"], &input));
        assert_eq!(
            outcome,
            serde_json::json!({"stop": "content_filter",
                "message": {"role": "assistant", "blocks": [], "usage": {"input_tokens": 4, "output_tokens": 0}},
                "metadata": {"prompt_blocked": "SAFETY"}}),
            "{mode}"
        );
    }
    let two = r#"{"candidates": [{"content": {"parts": [{"text": "A"}]}, "finishReason": 1, "index": 0},
        {"content": {"parts": [{"text": "B"}]}, "finishReason": 1, "index": 1}]}"#;
    let outcome = stdout_json(&run(&["--reply", "gemini", "--outcome", "-"], two));
    assert_eq!(outcome["stop"], "end_turn");
    assert_eq!(outcome["metadata"], serde_json::json!({"other_choices": 1}));
}

#[test]
fn request_prints_the_request_around_the_body_for_the_same_provider_model_and_streaming() {
    for (args, expected) in [
        (
            &[
                "--provider",
                "anthropic",
                "--model",
                "claude-sonnet-4-5",
                "--request",
            ][..],
            serde_json::json!({"method": "POST", "path": "/v1/messages",
                "headers": {"content-type": "application/json", "anthropic-version": "2023-06-01"},
                "auth": "x-api-key", "base_url": "https://api.anthropic.com"}),
        ),
        (
            &[
                "--provider",
                "gemini",
                "--model",
                "gemini-2.5-pro",
                "--streaming",
                "--request",
            ],
            serde_json::json!({"method": "POST",
                "path": "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
                "headers": {"content-type": "application/json", "accept": "text/event-stream"},
                "auth": "x-goog-api-key", "base_url": "https://generativelanguage.googleapis.com"}),
        ),
        (
            &[
                "--request",
                "--streaming",
                "--provider",
                "bedrock",
                "--model",
                "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc",
            ],
            serde_json::json!({"method": "POST",
                "path": "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc/converse-stream",
                "headers": {"content-type": "application/json",
                    "accept": "application/vnd.amazon.eventstream"},
                "auth": "sigv4", "base_url": "https://bedrock-runtime.us-east-1.amazonaws.com"}),
        ),
        (
            &[
                "--provider",
                "bedrock",
                "--model",
                "eu.anthropic.claude-sonnet-4-5-20250929-v1:0",
                "--region",
                "eu-west-1",
                "--request",
            ],
            serde_json::json!({"method": "POST",
                "path": "/model/eu.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
                "headers": {"content-type": "application/json"},
                "auth": "sigv4", "base_url": "https://bedrock-runtime.eu-west-1.amazonaws.com"}),
        ),
        (
            &[
                "--provider",
                "mistral",
                "--model",
                "mistral-large-latest",
                "--request",
            ],
            serde_json::json!({"method": "POST", "path": "/v1/chat/completions",
                "headers": {"content-type": "application/json"}, "auth": "bearer",
                "base_url": "https://api.mistral.ai"}),
        ),
    ] {
        let output = run(args, "");
        assert_eq!(stdout_json(&output), expected, "{args:?}");
        // The headers print in the order to send them.
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(
            text.contains(r#""headers":{"content-type":"application/json""#),
            "{text}"
        );
    }
    // No input is read: a record that does not exist changes nothing.
    let output = run(
        &[
            "--provider",
            "openai",
            "--model",
            "gpt-4.1",
            "--request",
            "/no/such/record.json",
        ],
        "",
    );
    assert_eq!(
        stdout_json(&output),
        serde_json::json!({"method": "POST", "path": "/v1/chat/completions",
            "headers": {"content-type": "application/json"}, "auth": "bearer",
            "base_url": "https://api.openai.com"})
    );
}

#[test]
fn streaming_asks_for_a_stream_in_the_body_where_the_provider_takes_it_there() {
    let record = r#"[{"role":"user","blocks":[{"type":"text","text":"Hi"}]}]"#;
    let body = |provider: &str| {
        stdout_json(&run(
            &["--provider", provider, "--model", "m", "--streaming", "-"],
            record,
        ))
    };
    let openai = body("openai");
    assert_eq!(openai["stream"], true);
    assert_eq!(
        openai["stream_options"],
        serde_json::json!({"include_usage": true})
    );
    assert_eq!(body("anthropic")["stream"], true);
    assert_eq!(body("openai-responses")["stream"], true);
    let mistral = body("mistral");
    assert_eq!(
        (mistral["model"].as_str(), &mistral["stream"]),
        (Some("m"), &serde_json::json!(true))
    );
    for provider in ["gemini", "bedrock"] {
        let body = body(provider);
        assert!(body.get("stream").is_none(), "{provider}: {body}");
        assert!(body.get("model").is_none(), "{provider}: {body}");
    }
    // Without it, no body asks for a stream.
    let whole = stdout_json(&run(&["--provider", "openai", "--model", "m", "-"], record));
    assert!(whole.get("stream").is_none() && whole.get("stream_options").is_none());
}

#[test]
fn request_and_streaming_need_a_body_and_fit_no_other_output() {
    for args in [
        &["--request"][..],
        &["--streaming"],
        &["--provider", "openai", "--request"],
        &["--provider", "neutral", "--model", "m", "--request"],
        &[
            "--provider",
            "openai",
            "--model",
            "m",
            "--request",
            "--estimate",
        ],
        &["--provider", "openai", "--model", "m", "--request=yes"],
        &["--provider", "openai", "--model", "m", "--streaming=1"],
        &["--reply", "openai", "--request", "x.json"],
        &["--stream", "openai", "--streaming", "x.json"],
        &[
            "--provider",
            "openai",
            "--store-turn",
            "x.json",
            "--request",
        ],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(String::from_utf8(output.stderr)
            .unwrap()
            .contains("usage: replay"));
    }
}
