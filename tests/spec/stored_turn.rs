//! At the end of a turn, its rounds and final reply become one stored assistant message:
//! every block in order, each result right after its call with the call's name, the output's
//! images after it, usage summed with the context the turn ended with, no signature or encrypted state; ids the crate made are
//! unique in the turn and marked as made; and from the next turn on, the turn replays as
//! prose.

use transcript_replay::{
    replay_messages, wire::Part, Block, Provider, StoredMessage, TokenUsage, Tool, ToolInput,
    ToolOutput, Turn, Vision, MADE_ID_PREFIX,
};

const PNG: &str = "iVBORw0KGgo=";

#[test]
fn the_turn_becomes_one_message_each_result_after_its_call() {
    let first = Provider::Anthropic
        .read_reply(concat!(
            r#"{"role":"assistant","content":[{"type":"thinking","thinking":"Look first.","signature":"SIG"},"#,
            r#"{"type":"tool_use","id":"toolu_1","name":"shot","input":{}},"#,
            r#"{"type":"tool_use","id":"toolu_2","name":"ls","input":{"dir":"."}}],"#,
            r#""stop_reason":"tool_use","usage":{"input_tokens":100,"output_tokens":10,"cache_creation_input_tokens":80}}"#,
        ))
        .unwrap();
    let second = Provider::Anthropic
        .read_reply(concat!(
            r#"{"role":"assistant","content":[{"type":"redacted_thinking","data":"ENC"},"#,
            r#"{"type":"tool_use","id":"toolu_3","name":"read","input":{"path":"a.rs"}}],"#,
            r#""stop_reason":"tool_use","usage":{"input_tokens":150,"output_tokens":5,"cache_read_input_tokens":80}}"#,
        ))
        .unwrap();
    let last = Provider::Anthropic
        .read_reply(concat!(
            r#"{"role":"assistant","content":[{"type":"text","text":"It is blue."}],"#,
            r#""stop_reason":"end_turn","usage":{"input_tokens":170,"output_tokens":4,"cache_read_input_tokens":150}}"#,
        ))
        .unwrap();
    let first_outputs = [
        ToolOutput::error("toolu_2", "no such dir"),
        ToolOutput::ok("toolu_1", "captured").with_image("image/png", PNG),
    ];
    let second_outputs = [ToolOutput::ok("toolu_3", "fn main() {}")];
    let history = [StoredMessage::user("Is the button blue?")];
    let stored = Turn::new(&history)
        .round(&first, &first_outputs)
        .round(&second, &second_outputs)
        .store_turn(&last)
        .unwrap();
    let json = |text: &str| ToolInput::json(text).unwrap();
    assert_eq!(
        stored.blocks,
        [
            Block::reasoning("Look first."),
            Block::tool_use("toolu_1", "shot", json("{}")),
            Block::tool_result("toolu_1", "shot", "captured"),
            Block::image("image/png", PNG),
            Block::tool_use("toolu_2", "ls", json(r#"{"dir":"."}"#)),
            Block::tool_error("toolu_2", "ls", "no such dir"),
            Block::tool_use("toolu_3", "read", json(r#"{"path":"a.rs"}"#)),
            Block::tool_result("toolu_3", "read", "fn main() {}"),
            Block::text("It is blue."),
        ]
    );
    assert_eq!(
        stored.usage,
        Some(TokenUsage {
            input_tokens: 420,
            output_tokens: 19,
            cache_creation_input_tokens: 80,
            cache_read_input_tokens: 230,
            // The last request's input, with its cache reads: the context the turn ended with.
            context_tokens: 320,
        })
    );
    let text = serde_json::to_string(&stored).unwrap();
    assert!(
        !text.contains("SIG") && !text.contains("ENC"),
        "no signature, no encrypted state"
    );
}

#[test]
fn made_ids_are_unique_in_the_turn_and_marked_as_made() {
    // Gemini gives no ids: each reply's calls are made_0_0, made_0_1, ...
    let call = Provider::Gemini
        .read_reply(r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"ls","args":{}}}]},"finishReason":"STOP"}]}"#)
        .unwrap();
    let last = Provider::Gemini
        .read_reply(r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Done."},{"functionCall":{"name":"ls","args":{}}}]},"finishReason":"STOP"}]}"#)
        .unwrap();
    let outputs = [ToolOutput::ok(format!("{MADE_ID_PREFIX}0_0"), "a.rs")];
    let history = [StoredMessage::user("List twice.")];
    let stored = Turn::new(&history)
        .round(&call, &outputs)
        .round(&call, &outputs)
        // A reply that still calls ends no turn: the turn is cut short after it.
        .store_interrupted(Some(&last.message))
        .unwrap();
    let ids: Vec<&str> = stored
        .blocks
        .iter()
        .filter_map(|block| match block {
            Block::ToolUse { id, .. } => Some(id.as_str()),
            Block::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
            Block::Text { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        })
        .collect();
    assert_eq!(
        ids,
        ["made_0_0", "made_0_0", "made_1_0", "made_1_0", "made_2_0"]
    );
}

#[test]
fn the_stored_turn_replays_as_prose_from_the_next_turn_on() {
    let call = Provider::OpenAi
        .read_reply(concat!(
            r#"{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"#,
            r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}}]}}]}"#,
        ))
        .unwrap();
    let last = Provider::OpenAi
        .read_reply(r#"{"choices":[{"finish_reason":"stop","message":{"role":"assistant","content":"It is empty."}}]}"#)
        .unwrap();
    let outputs = [ToolOutput::ok("call_1", "")];
    let tools = [Tool::new("read", "Reads a file.", r#"{"type":"object"}"#).unwrap()];
    let mut record = vec![StoredMessage::user("Is a.rs empty?")];
    let stored = Turn::new(&record)
        .tools(&tools)
        .round(&call, &outputs)
        .store_turn(&last)
        .unwrap();
    record.push(stored);
    // The next turn: the stored turn is prose, with no call id and no tool role.
    let wire = replay_messages(&record, Vision::Sees);
    let Part::Text(prose) = &wire[1].content[0] else {
        panic!("the stored turn is one text part");
    };
    assert_eq!(
        prose.to_string(),
        "Tool use: read({\"path\":\"a.rs\"})\n\nResult (read):\n\nIt is empty."
    );
    let live = [StoredMessage::user("And b.rs?")];
    for provider in Provider::ALL {
        let body = serde_json::to_string(&provider.body(&Turn::new(&record).live(&live)).unwrap())
            .unwrap();
        assert!(
            body.contains(r#"Tool use: read({\"path\":\"a.rs\"})"#),
            "{provider}"
        );
        assert!(
            !body.contains("call_1"),
            "{provider}: no call id crosses the seam"
        );
    }
}

#[test]
fn the_final_reply_must_be_the_rounds_provider() {
    let call = Provider::Anthropic
        .read_reply(r#"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"ls","input":{}}],"stop_reason":"tool_use"}"#)
        .unwrap();
    let last = Provider::Bedrock
        .read_reply(r#"{"output":{"message":{"role":"assistant","content":[{"text":"Done."}]}},"stopReason":"end_turn"}"#)
        .unwrap();
    let outputs = [ToolOutput::ok("toolu_1", "a.rs")];
    let history = [StoredMessage::user("List.")];
    let error = Turn::new(&history)
        .round(&call, &outputs)
        .store_turn(&last)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "round 1 is a reply of Bedrock, and the request goes to Anthropic: a reply's own content goes back only to its provider"
    );
}

#[test]
fn context_tokens_is_the_last_requests_input_with_its_cache_however_the_provider_counts_it() {
    // (provider, a reply calling a tool, the last reply, the context the turn ended with):
    // Anthropic and Bedrock count cache reads and writes apart from the input; OpenAI and
    // Gemini count cached tokens inside it.
    let cases = [
        (
            Provider::Anthropic,
            r#"{"content":[{"type":"tool_use","id":"c1","name":"ls","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":900,"output_tokens":10}}"#,
            r#"{"content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":3,"cache_creation_input_tokens":30,"cache_read_input_tokens":950}}"#,
            1000,
        ),
        (
            Provider::Bedrock,
            r#"{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"c1","name":"ls","input":{}}}]}},"stopReason":"tool_use","usage":{"inputTokens":900,"outputTokens":10,"totalTokens":910}}"#,
            r#"{"output":{"message":{"role":"assistant","content":[{"text":"Done."}]}},"stopReason":"end_turn","usage":{"inputTokens":20,"outputTokens":3,"totalTokens":1003,"cacheReadInputTokens":950,"cacheWriteInputTokens":30}}"#,
            1000,
        ),
        (
            Provider::OpenAi,
            r#"{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":900,"completion_tokens":10}}"#,
            r#"{"choices":[{"message":{"role":"assistant","content":"Done."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1000,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":950}}}"#,
            1000,
        ),
        (
            Provider::OpenAiResponses,
            r#"{"status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"c1","name":"ls","arguments":"{}","status":"completed"}],"usage":{"input_tokens":900,"output_tokens":10,"total_tokens":910}}"#,
            r#"{"status":"completed","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Done.","annotations":[]}]}],"usage":{"input_tokens":1000,"output_tokens":3,"total_tokens":1003,"input_tokens_details":{"cached_tokens":950}}}"#,
            1000,
        ),
        (
            Provider::Gemini,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"ls","args":{}}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":900,"candidatesTokenCount":10}}"#,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1000,"candidatesTokenCount":3,"cachedContentTokenCount":950}}"#,
            1000,
        ),
    ];
    let history = [StoredMessage::user("List.")];
    let tools = [Tool::new("ls", "", r#"{"type":"object"}"#).unwrap()];
    for (provider, call, last, context) in cases {
        let call = provider.read_reply(call).unwrap();
        let last = provider.read_reply(last).unwrap();
        let outputs = [ToolOutput::ok("c1", "a.rs")];
        let stored = Turn::new(&history)
            .tools(&tools)
            .round(&call, &outputs)
            .store_turn(&last)
            .unwrap();
        let usage = stored.usage.unwrap();
        assert_eq!(usage.context_tokens, context, "{provider}");
        // The sums stay: what the turn cost.
        assert!(usage.input_tokens >= 920, "{provider}: {usage:?}");
        // In the record: written, and read back.
        let file = transcript_replay::write_record(std::slice::from_ref(&stored));
        assert!(
            file.contains(&format!(r#""context_tokens":{context}}}"#)),
            "{file}"
        );
        assert_eq!(transcript_replay::parse_record(&file).unwrap(), [stored]);
    }
}

#[test]
fn store_turn_refuses_a_last_reply_that_still_calls_tools_naming_the_calls() {
    let history = [StoredMessage::user("Read a.rs and b.rs.")];
    let calling = transcript_replay::anthropic::read_reply(
        r#"{"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}},
        {"type": "tool_use", "id": "toolu_2", "name": "read", "input": {"path": "b.rs"}}],
        "stop_reason": "tool_use"}"#,
    )
    .unwrap();
    let error = Turn::new(&history).store_turn(&calling).unwrap_err();
    assert_eq!(
        error.kind(),
        transcript_replay::errors::BodyErrorKind::ToolLinkage(
            transcript_replay::errors::ToolLinkage::LastReplyCallsTools {
                calls: &["toolu_1".to_owned(), "toolu_2".to_owned()],
            }
        )
    );
    assert!(error
        .to_string()
        .starts_with("the last reply still calls `toolu_1`, `toolu_2`: it does not end the turn"));
}

#[test]
fn a_turn_cut_short_stores_each_call_with_its_result_or_alone_then_the_partial_reply() {
    use transcript_replay::{Block, ToolInput, ToolOutput};
    let history = [StoredMessage::user("Read a.rs and b.rs.")];
    let call = transcript_replay::anthropic::read_reply(
        r#"{"role": "assistant", "content": [
        {"type": "text", "text": "Reading both."},
        {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}},
        {"type": "tool_use", "id": "toolu_2", "name": "read", "input": {"path": "b.rs"}}],
        "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}"#,
    )
    .unwrap();
    let read = |path: &str| ToolInput::json(format!(r#"{{"path":"{path}"}}"#)).unwrap();
    let one = [ToolOutput::ok("toolu_1", "fn a() {}")];
    let both = [
        ToolOutput::ok("toolu_1", "fn a() {}"),
        ToolOutput::error("toolu_2", "no such file"),
    ];
    let partial = StoredMessage::assistant("a.rs defines");
    // (outputs given, partial reply, the blocks stored)
    let cases: Vec<(&[ToolOutput], Option<&StoredMessage>, Vec<Block>)> = vec![
        (
            &[],
            None,
            vec![
                Block::text("Reading both."),
                Block::tool_use("toolu_1", "read", read("a.rs")),
                Block::tool_use("toolu_2", "read", read("b.rs")),
            ],
        ),
        (
            &one,
            Some(&partial),
            vec![
                Block::text("Reading both."),
                Block::tool_use("toolu_1", "read", read("a.rs")),
                Block::tool_result("toolu_1", "read", "fn a() {}"),
                Block::tool_use("toolu_2", "read", read("b.rs")),
                Block::text("a.rs defines"),
            ],
        ),
        (
            &both,
            None,
            vec![
                Block::text("Reading both."),
                Block::tool_use("toolu_1", "read", read("a.rs")),
                Block::tool_result("toolu_1", "read", "fn a() {}"),
                Block::tool_use("toolu_2", "read", read("b.rs")),
                Block::tool_error("toolu_2", "read", "no such file"),
            ],
        ),
    ];
    for (outputs, partial, blocks) in cases {
        let stored = Turn::new(&history)
            .round(&call, outputs)
            .store_interrupted(partial)
            .unwrap();
        assert_eq!(stored.blocks, blocks);
        assert_eq!(stored.role, transcript_replay::Role::Assistant);
    }
    // With no round and no partial reply, the turn stores an empty assistant message.
    let nothing = Turn::new(&history).store_interrupted(None).unwrap();
    assert!(nothing.blocks.is_empty());
}
