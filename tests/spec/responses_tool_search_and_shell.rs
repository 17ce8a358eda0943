//! Who runs a Responses tool decides who answers it. A tool search the runtime runs
//! (`"execution": "client"`) is a call the runtime answers with the tool definitions it loaded,
//! written back as `tool_search_output`; an answer that is no JSON array of definitions is an
//! error naming the call. A tool search OpenAI runs, and a shell command its hosted container
//! ran (a `shell_call` followed by its `shell_call_output` in the same reply), are
//! provider-executed: the runtime owes them nothing, and the result is stored beside the call.

use transcript_replay::{
    errors::{BodyErrorKind, ToolLinkage},
    Block, Priced, Provider, StoredMessage, Tool, ToolOutput, Turn,
};

const CLIENT_SEARCH: &str = r#"{"status":"completed","output":[{"type":"tool_search_call","id":"tsc_1","call_id":"call_ts","execution":"client","arguments":{"goal":"weather tools"},"status":"completed"}]}"#;

fn body_with(output: &str) -> Result<String, transcript_replay::BodyError> {
    let history = [StoredMessage::user("What is the weather in Paris?")];
    let tools = [Tool::new("echo", "Echoes.", r#"{"type":"object"}"#).unwrap()];
    let reply = Provider::OpenAiResponses.read_reply(CLIENT_SEARCH).unwrap();
    let outputs = [ToolOutput::ok("call_ts", output)];
    let turn = Turn::new(&history)
        .model("gpt-5")
        .tools(&tools)
        .round(&reply, &outputs);
    Ok(Provider::OpenAiResponses
        .body(&turn)?
        .to_json()
        .map(|bytes| String::from_utf8(bytes).unwrap())
        .unwrap())
}

#[test]
fn a_tool_search_the_runtime_runs_is_a_call_it_answers() {
    let reply = Provider::OpenAiResponses.read_reply(CLIENT_SEARCH).unwrap();
    let calls: Vec<(&str, &str, &str)> = (reply.calls().iter())
        .map(|call| (call.id, call.name, call.input.as_str()))
        .collect();
    assert_eq!(
        calls,
        [("call_ts", "tool_search", r#"{"goal":"weather tools"}"#)]
    );
    // Stored as the JSON value it came as, and not as the provider's.
    assert_eq!(
        serde_json::to_string(&reply.message.blocks).unwrap(),
        r#"[{"type":"tool_use","id":"call_ts","name":"tool_search","input":{"goal":"weather tools"}}]"#
    );
}

#[test]
fn its_answer_goes_back_as_the_tools_it_loaded() {
    let body =
        body_with(r#"[{"type":"function","name":"get_weather","parameters":{"type":"object"}}]"#)
            .unwrap();
    assert!(
        body.contains(r#"{"type":"tool_search_output","call_id":"call_ts","execution":"client","tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}]}"#),
        "{body}"
    );
}

#[test]
fn an_answer_that_is_no_list_of_tool_definitions_is_an_error_naming_the_call() {
    for output in ["get_weather", r#"{"type":"function"}"#, ""] {
        let error = body_with(output).unwrap_err();
        assert_eq!(
            error.kind(),
            BodyErrorKind::ToolLinkage(ToolLinkage::OutputNotToolDefinitions {
                round: 0,
                id: "call_ts"
            }),
            "{output:?}"
        );
        assert_eq!(
            error.to_string(),
            "round 0: the call `call_ts` searches for tools: its output must be a JSON array of tool definitions"
        );
    }
}

#[test]
fn a_tool_search_openai_runs_owes_no_answer() {
    let server = CLIENT_SEARCH.replace(r#""execution":"client""#, r#""execution":"server""#);
    let reply = Provider::OpenAiResponses.read_reply(&server).unwrap();
    assert!(reply.calls().is_empty());
}

#[test]
fn a_shell_command_the_hosted_container_ran_owes_no_answer_and_keeps_its_output() {
    let rows: [(&str, &str, bool); 3] = [
        (
            r#"[{"stdout":"a.rs\nb.rs\n","stderr":"","outcome":{"type":"exit","exit_code":0}}]"#,
            "a.rs\nb.rs",
            false,
        ),
        (
            r#"[{"stdout":"","stderr":"ls: x: No such file\n","outcome":{"type":"exit","exit_code":2}}]"#,
            "ls: x: No such file",
            true,
        ),
        (
            r#"[{"stdout":"partial","stderr":"","outcome":{"type":"timeout"}}]"#,
            "partial",
            true,
        ),
    ];
    for (output, text, is_error) in rows {
        let reply = format!(
            r#"{{"status":"completed","output":[{{"type":"shell_call","id":"sh_1","call_id":"call_sh","action":{{"commands":["ls"]}},"status":"completed","environment":{{"type":"container_reference","container_id":"cntr_1"}}}},{{"type":"shell_call_output","id":"sho_1","call_id":"call_sh","status":"completed","output":{output},"max_output_length":null}},{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"Done."}}]}}]}}"#
        );
        let reply = Provider::OpenAiResponses.read_reply(&reply).unwrap();
        assert!(reply.calls().is_empty(), "{output}");
        let [Block::ToolUse {
            id,
            provider_executed,
            ..
        }, Block::ToolResult {
            tool_use_id,
            output: stored,
            is_error: error,
            ..
        }, Block::Text { .. }] = reply.message.blocks.as_slice()
        else {
            panic!("{:?}", reply.message.blocks);
        };
        assert_eq!((id.as_str(), *provider_executed), ("call_sh", true));
        assert_eq!(tool_use_id, "call_sh");
        assert_eq!((stored.as_str(), *error), (text, is_error), "{output}");
    }
}

#[test]
fn a_shell_call_the_runtime_runs_is_still_its_call() {
    let reply = r#"{"status":"completed","output":[{"type":"shell_call","id":"sh_1","call_id":"call_sh","action":{"commands":["ls"]},"status":"completed","environment":{"type":"local"}}]}"#;
    let reply = Provider::OpenAiResponses.read_reply(reply).unwrap();
    assert_eq!(reply.calls().len(), 1);
    assert_eq!(reply.calls()[0].name, "shell");
}
