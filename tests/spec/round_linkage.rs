//! Every call of a round is linked to exactly one output: a call without an output, an output
//! for no call, an output given twice, a round of another provider's reply, a reply that
//! calls nothing, and rounds a provider cannot take are errors that name the round and the
//! id, before anything is sent.

use transcript_replay::{Provider, StoredMessage, Tool, ToolOutput, Turn};

const ANTHROPIC: &str = concat!(
    r#"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.rs"}},"#,
    r#"{"type":"tool_use","id":"toolu_2","name":"ls","input":{}}],"stop_reason":"tool_use"}"#,
);

const BEDROCK: &str = concat!(
    r#"{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"ls","input":{}}}]}},"#,
    r#""stopReason":"tool_use"}"#,
);

#[test]
fn outputs_that_do_not_answer_the_calls_are_errors_naming_the_id() {
    let reply = Provider::Anthropic.read_reply(ANTHROPIC).unwrap();
    let history = [StoredMessage::user("Read it.")];
    let ok = |id: &str| ToolOutput::ok(id, "x");
    // (the outputs, the error)
    let cases = [
        (
            vec![ok("toolu_1")],
            "round 0: the call `toolu_2` has no output",
        ),
        (vec![], "round 0: the call `toolu_1` has no output"),
        (
            vec![ok("toolu_1"), ok("toolu_2"), ok("toolu_3")],
            "round 0: the output for `toolu_3` answers no call of the round",
        ),
        (
            vec![ok("toolu_1"), ok("toolu_2"), ok("toolu_1")],
            "round 0: the output for `toolu_1` is given twice",
        ),
    ];
    for (outputs, expected) in cases {
        let turn = Turn::new(&history).round(&reply, &outputs);
        let error = Provider::Anthropic.body(&turn).unwrap_err();
        assert_eq!(error.to_string(), expected);
        let stored = turn.store_turn(&reply).unwrap_err();
        assert_eq!(
            stored.to_string(),
            expected,
            "the stored turn checks the same"
        );
    }
}

#[test]
fn the_second_round_is_named_by_its_number() {
    let reply = Provider::Anthropic.read_reply(ANTHROPIC).unwrap();
    let history = [StoredMessage::user("Read it.")];
    let both = [
        ToolOutput::ok("toolu_1", "a"),
        ToolOutput::ok("toolu_2", "b"),
    ];
    let one = [ToolOutput::ok("toolu_2", "b")];
    let turn = Turn::new(&history).round(&reply, &both).round(&reply, &one);
    assert_eq!(
        Provider::Anthropic.body(&turn).unwrap_err().to_string(),
        "round 1: the call `toolu_1` has no output"
    );
}

#[test]
fn a_round_goes_only_to_the_provider_whose_reply_it_is() {
    let reply = Provider::Anthropic.read_reply(ANTHROPIC).unwrap();
    let history = [StoredMessage::user("Read it.")];
    let outputs = [
        ToolOutput::ok("toolu_1", "a"),
        ToolOutput::ok("toolu_2", "b"),
    ];
    let turn = Turn::new(&history).round(&reply, &outputs);
    for provider in Provider::ALL {
        let result = provider.body(&turn);
        if provider == Provider::Anthropic {
            assert!(result.is_ok());
        } else {
            assert_eq!(
                result.unwrap_err().to_string(),
                format!(
                    "round 0 is a reply of Anthropic, and the request goes to {provider}: a \
                     reply's own content goes back only to its provider"
                )
            );
        }
    }
}

#[test]
fn a_reply_that_calls_no_tool_is_no_round() {
    let reply = Provider::Anthropic
        .read_reply(r#"{"role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}"#)
        .unwrap();
    let history = [StoredMessage::user("Read it.")];
    let turn = Turn::new(&history).round(&reply, &[]);
    assert_eq!(
        Provider::Anthropic.body(&turn).unwrap_err().to_string(),
        "round 0 calls no tool: a reply without tool calls ends the turn (store it with store_turn)"
    );
}

#[test]
fn bedrock_takes_rounds_only_with_the_tools_declared() {
    let reply = Provider::Bedrock.read_reply(BEDROCK).unwrap();
    let history = [StoredMessage::user("List.")];
    let outputs = [ToolOutput::ok("t1", "a.rs")];
    let turn = Turn::new(&history).round(&reply, &outputs);
    assert_eq!(
        Provider::Bedrock.body(&turn).unwrap_err().to_string(),
        "the request carries tool rounds and declares no tool, which Bedrock rejects: declare the tools"
    );
    let tools = [Tool::new("ls", "Lists files.", r#"{"type":"object"}"#).unwrap()];
    assert!(Provider::Bedrock.body(&turn.tools(&tools)).is_ok());
}

#[test]
fn rounds_answer_a_user_turn_and_take_no_prefill() {
    let reply = Provider::Anthropic.read_reply(ANTHROPIC).unwrap();
    let outputs = [
        ToolOutput::ok("toolu_1", "a"),
        ToolOutput::ok("toolu_2", "b"),
    ];
    let ends_on_assistant = [
        StoredMessage::user("Read it."),
        StoredMessage::assistant("On it."),
    ];
    let turn = Turn::new(&ends_on_assistant).round(&reply, &outputs);
    assert_eq!(
        Provider::Anthropic.body(&turn).unwrap_err().to_string(),
        "the rounds would follow an assistant turn, and Anthropic takes them only after the user's: add the live turn"
    );
    let history = [StoredMessage::user("Read it.")];
    let turn = Turn::new(&history).round(&reply, &outputs).prefill();
    assert_eq!(
        Provider::Anthropic.body(&turn).unwrap_err().to_string(),
        "a prefill was asked for, and the turn has rounds in flight"
    );
}
