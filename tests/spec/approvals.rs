//! A provider that asks the runtime before it goes on gets its answer in the round: an MCP
//! approval request is a call answered by an approval, and a computer call's pending safety
//! checks are acknowledged in its output, or the round is an error that names them.

use transcript_replay::errors::{BodyErrorKind, ToolLinkage};
use transcript_replay::{openai_responses, Block, StoredMessage, ToolOutput, Turn};

const APPROVAL: &str = r#"{"status": "completed", "output": [{"type": "mcp_approval_request", "id": "mcpr_1", "server_label": "deepwiki", "name": "ask_question", "arguments": "{\"repo\":\"a/b\"}"}]}"#;

const SAFETY: &str = r#"{"status": "completed", "output": [{"type": "computer_call", "id": "cu_1", "call_id": "call_1", "action": {"type": "click", "x": 1, "y": 2}, "pending_safety_checks": [{"id": "cu_sc_1", "code": "malicious_instructions", "message": "Careful."}], "status": "completed"}]}"#;

fn body(reply: &str, outputs: &[ToolOutput]) -> Result<String, transcript_replay::BodyError> {
    let reply = openai_responses::read_reply(reply).unwrap();
    let history = [StoredMessage::user("Go.")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, outputs);
    openai_responses::body(&turn).map(|body| serde_json::to_string(&body).unwrap())
}

#[test]
fn an_mcp_approval_request_is_a_call_that_asks_for_an_approval() {
    let reply = openai_responses::read_reply(APPROVAL).unwrap();
    let calls = reply.calls();
    assert_eq!(
        (calls[0].id, calls[0].name, calls[0].asks_approval),
        ("mcpr_1", "ask_question", true)
    );
    assert_eq!(calls[0].input.as_str(), r#"{"repo":"a/b"}"#);
}

/// (the answer, the item the round writes for it).
#[test]
fn an_approval_is_written_as_the_mcp_approval_response() {
    let cases = [
        (
            ToolOutput::approve("mcpr_1"),
            r#"{"type":"mcp_approval_response","approval_request_id":"mcpr_1","approve":true}"#,
        ),
        (
            ToolOutput::deny("mcpr_1", "not this repository"),
            r#"{"type":"mcp_approval_response","approval_request_id":"mcpr_1","approve":false,"reason":"not this repository"}"#,
        ),
    ];
    for (output, item) in cases {
        let body = body(APPROVAL, &[output]).unwrap();
        assert!(body.contains(item), "{body}");
    }
}

#[test]
fn an_approval_request_answered_without_an_approval_is_an_error() {
    let error = body(APPROVAL, &[ToolOutput::ok("mcpr_1", "yes")]).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::ToolLinkage(ToolLinkage::ApprovalNotGiven {
            round: 0,
            id: "mcpr_1"
        })
    );
    assert_eq!(
        error.to_string(),
        "round 0: the call `mcpr_1` asks for an approval: answer it with `approve` true or false"
    );
}

#[test]
fn pending_safety_checks_are_acknowledged_in_the_output_or_named_in_an_error() {
    let shot = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";
    let acknowledged = ToolOutput::ok("call_1", "clicked")
        .with_image("image/png", shot)
        .acknowledging(["cu_sc_1"]);
    let body = body(SAFETY, &[acknowledged]).unwrap();
    assert!(
        body.contains(r#""type":"computer_call_output","call_id":"call_1","acknowledged_safety_checks":[{"id":"cu_sc_1","code":"malicious_instructions","message":"Careful."}]"#),
        "{body}"
    );
    let error = body_error(SAFETY, ToolOutput::ok("call_1", "clicked"));
    assert_eq!(
        error,
        "round 0: the output for `call_1` does not acknowledge the safety checks cu_sc_1"
    );
}

fn body_error(reply: &str, output: ToolOutput) -> String {
    body(reply, &[output]).unwrap_err().to_string()
}

#[test]
fn an_approval_is_stored_as_its_result() {
    let reply = openai_responses::read_reply(APPROVAL).unwrap();
    let last = openai_responses::read_reply(
        r#"{"status": "completed", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}]}"#,
    )
    .unwrap();
    let history = [StoredMessage::user("Go.")];
    let outputs = [ToolOutput::deny("mcpr_1", "not this repository")];
    let turn = Turn::new(&history).round(&reply, &outputs);
    let stored = turn.store_turn(&last).unwrap();
    assert!(stored.blocks.contains(&Block::ToolResult {
        tool_use_id: "mcpr_1".into(),
        tool_name: "ask_question".into(),
        output: "Denied: not this repository".into(),
        is_error: false,
    }));
}

#[test]
fn outputs_read_approvals_and_acknowledgements_from_json() {
    let outputs: Vec<ToolOutput> = serde_json::from_str(
        r#"[{"id": "mcpr_1", "approve": false, "reason": "no"}, {"id": "call_1", "output": "ok", "acknowledged": ["cu_sc_1"]}]"#,
    )
    .unwrap();
    assert_eq!(outputs[0], ToolOutput::deny("mcpr_1", "no"));
    assert_eq!(
        outputs[1],
        ToolOutput::ok("call_1", "ok").acknowledging(["cu_sc_1"])
    );
}
