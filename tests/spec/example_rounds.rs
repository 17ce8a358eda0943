//! The example program with tools and the round in flight (docs/design.md#rounds): `--tools`,
//! `--tool-choice`, `--round REPLY OUTPUTS` (repeatable, in order) and `--store-turn FINAL`.

use crate::common::{run, stdout_json, temp_file};
use serde_json::json;

const RECORD: &str = r#"[{"role":"user","blocks":[{"type":"text","text":"What is in a.rs?"}]}]"#;
const TOOLS: &str = r#"[{"name":"read","description":"Reads a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}}},"strict":true}]"#;
const REPLY: &str = r#"{"role":"assistant","content":[{"type":"thinking","thinking":"Need it.","signature":"EqQB"},{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.rs"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}}"#;
const OUTPUTS: &str = r#"[{"id":"toolu_1","output":"fn main() {}","is_error":false,"images":[{"media_type":"image/png","data":"iVBORw0KGgo="}]}]"#;
const FINAL: &str = r#"{"role":"assistant","content":[{"type":"text","text":"It has a main."}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":4}}"#;

fn files(test: &str) -> [String; 5] {
    [
        ("record.json", RECORD),
        ("tools.json", TOOLS),
        ("reply.json", REPLY),
        ("outputs.json", OUTPUTS),
        ("final.json", FINAL),
    ]
    .map(|(name, text)| {
        temp_file(&format!("{test}-{name}"), text.as_bytes())
            .display()
            .to_string()
    })
}

#[test]
fn rounds_and_tools_go_in_the_body_after_the_live_turn() {
    let [record, tools, reply, outputs, _] = files("body");
    let args = [
        "--provider",
        "anthropic",
        "--model",
        "claude-x",
        "--no-preamble",
        "--tools",
        &tools,
        "--tool-choice",
        "tool:read",
        "--round",
        &reply,
        &outputs,
        "--round",
        &reply,
        &outputs,
        &record,
    ];
    let body = stdout_json(&run(&args, ""));
    assert_eq!(
        body["tools"],
        json!([{"name": "read", "description": "Reads a file.", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}, "strict": true}])
    );
    assert_eq!(body["tool_choice"], json!({"type": "tool", "name": "read"}));
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages.len(),
        5,
        "the history, then two rounds of two messages"
    );
    assert_eq!(messages[1]["content"][0]["signature"], "EqQB");
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "toolu_1");
    assert_eq!(messages[2]["content"][0]["content"][1]["type"], "image");
}

#[test]
fn store_turn_prints_the_one_stored_message_without_a_model_with_the_context_it_ended_with() {
    let [_, _, reply, outputs, last] = files("store");
    let output = run(
        &[
            "--provider",
            "anthropic",
            "--round",
            &reply,
            &outputs,
            "--store-turn",
            &last,
        ],
        "",
    );
    assert_eq!(
        stdout_json(&output),
        json!({"role": "assistant", "blocks": [
            {"type": "reasoning", "reasoning": "Need it."},
            {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}},
            {"type": "tool_result", "tool_use_id": "toolu_1", "tool_name": "read", "output": "fn main() {}", "is_error": false},
            {"type": "image", "media_type": "image/png", "data": "iVBORw0KGgo="},
            {"type": "text", "text": "It has a main."}
        ], "usage": {"input_tokens": 30, "output_tokens": 9, "context_tokens": 20}})
    );
}

#[test]
fn the_estimate_says_what_each_cost_is_of() {
    let [record, tools, reply, outputs, _] = files("estimate");
    let args = [
        "--provider",
        "anthropic",
        "--model",
        "m",
        "--tools",
        &tools,
        "--round",
        &reply,
        &outputs,
        "--estimate",
        &record,
    ];
    let estimate = stdout_json(&run(&args, ""));
    let of: Vec<&str> = estimate["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|cost| cost["of"].as_str().unwrap())
        .collect();
    assert_eq!(
        of,
        [
            "fields",
            "tools",
            "system",
            "history 0",
            "round 0",
            "round 0"
        ]
    );
    assert_eq!(
        estimate["images"], 1,
        "the round's screenshot is priced as an image"
    );
}

#[test]
fn outputs_that_do_not_answer_the_round_are_bad_input() {
    let [record, _, reply, _, last] = files("bad");
    let unknown = temp_file("bad-unknown.json", br#"[{"id":"toolu_9","output":""}]"#);
    let misspelt = temp_file("bad-misspelt.json", br#"[{"id":"toolu_1","outptu":""}]"#);
    for (outputs, expected) in [
        (
            &unknown,
            "round 0: the output for `toolu_9` answers no call of the round",
        ),
        (&misspelt, "round 0: the outputs: unknown field `outptu`"),
    ] {
        let outputs = outputs.display().to_string();
        for args in [
            &[
                "--provider",
                "anthropic",
                "--model",
                "m",
                "--round",
                &reply,
                &outputs,
                &record,
            ][..],
            &[
                "--provider",
                "anthropic",
                "--round",
                &reply,
                &outputs,
                "--store-turn",
                &last,
            ],
        ] {
            let output = run(args, "");
            assert_eq!(output.status.code(), Some(1), "{args:?}");
            let stderr = String::from_utf8(output.stderr).unwrap();
            assert!(stderr.contains(expected), "{stderr}");
        }
    }
    let one_file = run(
        &["--provider", "bedrock", "--model", "m", "--round", &reply],
        "",
    );
    assert_eq!(one_file.status.code(), Some(2), "--round needs two files");
}

#[test]
fn tool_options_out_of_place_are_bad_arguments() {
    for args in [
        &["--tools", "t.json"][..],
        &["--provider", "openai", "--tool-choice", "auto"],
        &[
            "--provider",
            "openai",
            "--model",
            "m",
            "--tool-choice",
            "any",
        ],
        &["--provider", "openai", "--round", "r.json", "o.json"],
        &["--store-turn", "f.json"],
        &[
            "--provider",
            "openai",
            "--store-turn",
            "f.json",
            "--estimate",
        ],
        &["--reply", "openai", "--round", "r.json", "o.json", "x.json"],
        &["--provider", "openai", "--model", "m", "--tools", "-", "-"],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}
