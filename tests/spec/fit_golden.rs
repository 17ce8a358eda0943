//! Fitted bodies, byte for byte, for every provider: the oldest outputs and reasoning
//! withheld with their exact markers and byte counts, then the oldest whole messages replaced
//! by one user turn after the leading system message; an old user message's long text
//! withheld before whole messages go; a round's output that does not fit withheld with the
//! output marker, the round kept; the unbudgeted body when it fits; and an error that says
//! by how much, and which parts it is made of, when nothing left to withhold makes it fit.

use transcript_replay::{
    cost::image_tokens, cost::Withheld, Block, Budget, Priced, Provider, Role, StoredMessage,
    ToolInput, Turn,
};

fn history() -> Vec<StoredMessage> {
    vec![
        StoredMessage::system("Summary: two files to compare."),
        StoredMessage::user("Read a.rs."),
        StoredMessage::new(
            Role::Assistant,
            vec![
                Block::tool_use(
                    "t1",
                    "read",
                    ToolInput::json(r#"{"path": "a.rs"}"#).unwrap(),
                ),
                Block::tool_result("t1", "read", "// a\n".repeat(60)),
                Block::text("Read."),
            ],
        ),
        StoredMessage::user("Read b.rs."),
        StoredMessage::new(
            Role::Assistant,
            vec![
                Block::reasoning("b.rs may be long; ".repeat(16)),
                Block::tool_use(
                    "t2",
                    "read",
                    ToolInput::json(r#"{"path": "b.rs"}"#).unwrap(),
                ),
                Block::tool_error("t2", "read", "permission denied: b.rs\n".repeat(12)),
                Block::text("Could not read it."),
            ],
        ),
    ]
}

fn fitted(provider: Provider, budget: u64) -> Result<(String, Withheld), String> {
    let history = history();
    let live = [StoredMessage::user("Which is longer?")];
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history)
        .live(&live)
        .without_preamble()
        .budget(Budget::new(budget, claude));
    let body = provider.body(&turn).map_err(|error| error.to_string())?;
    let withheld = body.estimate(claude).withheld.unwrap();
    Ok((serde_json::to_string(&body).unwrap(), withheld))
}

#[test]
fn the_oldest_outputs_then_the_oldest_reasoning_are_withheld_with_their_byte_counts() {
    let cases = [
        (
            Provider::OpenAi,
            concat!(
                r#"{"messages":[{"role":"system","content":"Summary: two files to compare."},"#,
                r#"{"role":"user","content":"Read a.rs."},"#,
                r#"{"role":"assistant","content":"Tool use: read({\"path\":\"a.rs\"})\n\nResult (read): [output withheld to fit the context window: 300 bytes]\n\nRead."},"#,
                r#"{"role":"user","content":"Read b.rs."},"#,
                r#"{"role":"assistant","content":"[Reasoning]: [withheld to fit the context window: 288 bytes]\n\nTool use: read({\"path\":\"b.rs\"})\n\nError (read): [output withheld to fit the context window: 288 bytes]\n\nCould not read it."},"#,
                r#"{"role":"user","content":"Which is longer?"}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            concat!(
                r#"{"input":[{"role":"system","content":"Summary: two files to compare."},"#,
                r#"{"role":"user","content":"Read a.rs."},"#,
                r#"{"role":"assistant","content":"Tool use: read({\"path\":\"a.rs\"})\n\nResult (read): [output withheld to fit the context window: 300 bytes]\n\nRead."},"#,
                r#"{"role":"user","content":"Read b.rs."},"#,
                r#"{"role":"assistant","content":"[Reasoning]: [withheld to fit the context window: 288 bytes]\n\nTool use: read({\"path\":\"b.rs\"})\n\nError (read): [output withheld to fit the context window: 288 bytes]\n\nCould not read it."},"#,
                r#"{"role":"user","content":"Which is longer?"}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            concat!(
                r#"{"system":[{"type":"text","text":"Summary: two files to compare."}],"messages":[{"role":"user","content":[{"type":"text","text":"Read a.rs."}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Tool use: read({\"path\":\"a.rs\"})\n\nResult (read): [output withheld to fit the context window: 300 bytes]\n\nRead."}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"Read b.rs."}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"[Reasoning]: [withheld to fit the context window: 288 bytes]\n\nTool use: read({\"path\":\"b.rs\"})\n\nError (read): [output withheld to fit the context window: 288 bytes]\n\nCould not read it."}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"Which is longer?"}]}]}"#,
            ),
        ),
        (
            Provider::Gemini,
            concat!(
                r#"{"systemInstruction":{"parts":[{"text":"Summary: two files to compare."}]},"contents":[{"role":"user","parts":[{"text":"Read a.rs."}]},"#,
                r#"{"role":"model","parts":[{"text":"Tool use: read({\"path\":\"a.rs\"})\n\nResult (read): [output withheld to fit the context window: 300 bytes]\n\nRead."}]},"#,
                r#"{"role":"user","parts":[{"text":"Read b.rs."}]},"#,
                r#"{"role":"model","parts":[{"text":"[Reasoning]: [withheld to fit the context window: 288 bytes]\n\nTool use: read({\"path\":\"b.rs\"})\n\nError (read): [output withheld to fit the context window: 288 bytes]\n\nCould not read it."}]},"#,
                r#"{"role":"user","parts":[{"text":"Which is longer?"}]}]}"#,
            ),
        ),
        (
            Provider::Bedrock,
            concat!(
                r#"{"system":[{"text":"Summary: two files to compare."}],"messages":[{"role":"user","content":[{"text":"Read a.rs."}]},"#,
                r#"{"role":"assistant","content":[{"text":"Tool use: read({\"path\":\"a.rs\"})\n\nResult (read): [output withheld to fit the context window: 300 bytes]\n\nRead."}]},"#,
                r#"{"role":"user","content":[{"text":"Read b.rs."}]},"#,
                r#"{"role":"assistant","content":[{"text":"[Reasoning]: [withheld to fit the context window: 288 bytes]\n\nTool use: read({\"path\":\"b.rs\"})\n\nError (read): [output withheld to fit the context window: 288 bytes]\n\nCould not read it."}]},"#,
                r#"{"role":"user","content":[{"text":"Which is longer?"}]}]}"#,
            ),
        ),
    ];
    for (provider, expected) in cases {
        let (body, withheld) = fitted(provider, 200).unwrap();
        assert_eq!(body, expected, "{provider}");
        assert_eq!(
            (
                withheld.outputs,
                withheld.inputs,
                withheld.reasoning,
                withheld.images,
                withheld.messages
            ),
            (2, 0, 1, 0, 0),
            "{provider}"
        );
    }
}

#[test]
fn the_oldest_whole_messages_become_one_user_turn_after_the_leading_system_message() {
    let cases = [
        (
            Provider::OpenAi,
            concat!(
                r#"{"messages":[{"role":"system","content":"Summary: two files to compare."},"#,
                r#"{"role":"user","content":"[4 earlier messages withheld to fit the context window]"},"#,
                r#"{"role":"user","content":"Which is longer?"}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            concat!(
                r#"{"input":[{"role":"system","content":"Summary: two files to compare."},"#,
                r#"{"role":"user","content":"[4 earlier messages withheld to fit the context window]"},"#,
                r#"{"role":"user","content":"Which is longer?"}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            concat!(
                r#"{"system":[{"type":"text","text":"Summary: two files to compare."}],"messages":[{"role":"user","content":[{"type":"text","text":"[4 earlier messages withheld to fit the context window]"}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"Which is longer?"}]}]}"#,
            ),
        ),
        (
            Provider::Gemini,
            r#"{"systemInstruction":{"parts":[{"text":"Summary: two files to compare."}]},"contents":[{"role":"user","parts":[{"text":"[4 earlier messages withheld to fit the context window]\n\nWhich is longer?"}]}]}"#,
        ),
        (
            Provider::Bedrock,
            r#"{"system":[{"text":"Summary: two files to compare."}],"messages":[{"role":"user","content":[{"text":"[4 earlier messages withheld to fit the context window]\n\nWhich is longer?"}]}]}"#,
        ),
    ];
    for (provider, expected) in cases {
        let (body, withheld) = fitted(provider, 60).unwrap();
        assert_eq!(body, expected, "{provider}");
        assert_eq!(withheld.messages, 4, "{provider}");
    }
}

#[test]
fn a_record_that_fits_gives_the_unbudgeted_body_byte_for_byte() {
    let history = history();
    let live = [StoredMessage::user("Which is longer?")];
    for provider in Provider::ALL {
        let turn = Turn::new(&history).live(&live).without_preamble();
        let whole = serde_json::to_string(&provider.body(&turn).unwrap()).unwrap();
        let (body, withheld) = fitted(provider, 100_000).unwrap();
        assert_eq!(body, whole, "{provider}");
        assert_eq!(withheld, Withheld::default(), "{provider}");
    }
}

#[test]
fn a_live_turn_over_the_budget_alone_is_an_error_that_says_by_how_much_and_of_what() {
    // (provider, what the least body needs, by the default estimate, and its parts)
    let cases = [
        (
            Provider::OpenAi,
            23,
            "what is left of the history 19, the live turn 4",
        ),
        (
            Provider::OpenAiResponses,
            23,
            "what is left of the history 19, the live turn 4",
        ),
        (
            Provider::Anthropic,
            23,
            "what is left of the history 12, the system text 7, the live turn 4",
        ),
        // Gemini and Bedrock merge the live turn into the user turn that stands for the
        // history; it is still named the live turn.
        (
            Provider::Gemini,
            22,
            "what is left of the history 11, the system text 7, the live turn 4",
        ),
        (
            Provider::Bedrock,
            22,
            "what is left of the history 11, the system text 7, the live turn 4",
        ),
    ];
    for (provider, needed, parts) in cases {
        assert_eq!(
            fitted(provider, 20).unwrap_err(),
            format!(
                "the body needs {needed} tokens with everything a budget may withhold withheld, {} over the budget of 20: {parts}",
                needed - 20
            ),
            "{provider}"
        );
    }
}

#[test]
fn one_message_withheld_is_said_in_the_singular() {
    // At the floor: the text is never withheld on its own, so the message goes whole.
    let history = [
        StoredMessage::user("x ".repeat(128)),
        StoredMessage::assistant("Noted."),
        StoredMessage::user("Go on."),
        StoredMessage::assistant("Done."),
    ];
    let live = [StoredMessage::user("Next?")];
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history)
        .live(&live)
        .without_preamble()
        .budget(Budget::new(100, claude).step(1));
    let body = serde_json::to_string(&Provider::OpenAi.body(&turn).unwrap()).unwrap();
    assert!(body.starts_with(r#"{"messages":[{"role":"user","content":"[1 earlier message withheld to fit the context window]"},{"role":"assistant","content":"Noted."}"#), "{body}");
}

#[test]
fn the_oldest_native_images_are_withheld_after_outputs_inputs_and_reasoning() {
    // The header of a 1000x1000 PNG: 1,296 tokens by Claude's rule.
    const SCREENSHOT: &str = "iVBORw0KGgoAAAANSUhEUgAAA+gAAAPoCAIAAAAAAAAAAAAA";
    let history: Vec<StoredMessage> = (0..3)
        .flat_map(|n| {
            [
                StoredMessage::new(
                    Role::User,
                    vec![
                        Block::text(format!("Screen {n}:")),
                        Block::image("image/png", SCREENSHOT),
                    ],
                ),
                StoredMessage::assistant(format!("Seen {n}.")),
            ]
        })
        .collect();
    let live = [StoredMessage::user("What changed?")];
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history)
        .live(&live)
        .without_preamble()
        .budget(Budget::new(3_500, claude));
    let body = Provider::Anthropic.body(&turn).unwrap();
    let estimate = body.estimate(claude);
    assert_eq!((estimate.images, estimate.withheld.unwrap().images), (2, 1));
    assert_eq!(
        serde_json::to_string(&body).unwrap(),
        concat!(
            r#"{"messages":[{"role":"user","content":[{"type":"text","text":"Screen 0:\n\n[Image (image/png) not shown: withheld to fit the context window]"}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"Seen 0."}]},"#,
            r#"{"role":"user","content":[{"type":"text","text":"Screen 1:"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAA+gAAAPoCAIAAAAAAAAAAAAA"}}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"Seen 1."}]},"#,
            r#"{"role":"user","content":[{"type":"text","text":"Screen 2:"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAA+gAAAPoCAIAAAAAAAAAAAAA"}}]},"#,
            r#"{"role":"assistant","content":[{"type":"text","text":"Seen 2."}]},"#,
            r#"{"role":"user","content":[{"type":"text","text":"What changed?"}]}]}"#,
        )
    );
}

/// Each provider's reply calling `read` once, with the id of its call.
const CALLS: [(Provider, &str, &str); 5] = [
    (
        Provider::OpenAi,
        r#"{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"big.log\"}"}}]}}]}"#,
        "call_1",
    ),
    (
        Provider::OpenAiResponses,
        r#"{"status":"completed","output":[{"id":"fc_1","type":"function_call","status":"completed","call_id":"call_1","name":"read","arguments":"{\"path\":\"big.log\"}"}]}"#,
        "call_1",
    ),
    (
        Provider::Anthropic,
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"big.log"}}],"stop_reason":"tool_use"}"#,
        "toolu_1",
    ),
    (
        Provider::Gemini,
        r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc-1","name":"read","args":{"path":"big.log"}}}]},"finishReason":"STOP"}]}"#,
        "fc-1",
    ),
    (
        Provider::Bedrock,
        r#"{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_1","name":"read","input":{"path":"big.log"}}}]}},"stopReason":"tool_use"}"#,
        "tooluse_1",
    ),
];

#[test]
fn a_rounds_output_that_does_not_fit_is_withheld_with_the_output_marker_and_the_round_stays() {
    let history = history();
    let live = [StoredMessage::user("How long is big.log?")];
    let tools =
        [transcript_replay::Tool::new("read", "Reads a file.", r#"{"type":"object"}"#).unwrap()];
    let claude = image_tokens("claude").unwrap();
    let output = "2026-12-04 INFO request served in 12 ms\n".repeat(2_000);
    for (provider, reply, id) in CALLS {
        let reply = provider.read_reply(reply).unwrap();
        let outputs = [transcript_replay::ToolOutput::ok(id, output.clone())];
        let turn = Turn::new(&history)
            .live(&live)
            .without_preamble()
            .tools(&tools)
            .round(&reply, &outputs)
            .budget(Budget::new(2_000, claude));
        let body = provider.body(&turn).unwrap();
        let estimate = body.estimate(claude);
        let text = serde_json::to_string(&body).unwrap();
        assert!(
            text.contains(&format!(
                "Result (read): [output withheld to fit the context window: {} bytes]",
                output.len()
            )),
            "{provider}: {text}"
        );
        // The round is whole: the call, and its result linked to it.
        assert_eq!(text.matches(id).count(), 2, "{provider}: {text}");
        assert!(!text.contains("request served"), "{provider}");
        // Only what had to go: the history fits beside the withheld output, and stays.
        assert!(text.contains("Could not read it."), "{provider}: {text}");
        let withheld = estimate.withheld.unwrap();
        assert_eq!((withheld.outputs, withheld.messages), (1, 0), "{provider}");
        assert!(
            estimate.text_tokens as u64 + estimate.image_tokens <= 2_000,
            "{provider}"
        );
    }
}

#[test]
fn a_refusal_names_the_round_that_does_not_fit_and_by_how_much() {
    // The reply's own content goes back as it came and is never withheld: a round whose reply
    // alone is over the budget cannot be fitted, and the error says so.
    let history = [StoredMessage::user("Read big.log.")];
    let words = "The log is long, so I will read it in full. ".repeat(400);
    let reply = Provider::Anthropic
        .read_reply(&format!(
            r#"{{"role":"assistant","content":[{{"type":"text","text":"{words}"}},{{"type":"tool_use","id":"toolu_1","name":"read","input":{{}}}}],"stop_reason":"tool_use"}}"#
        ))
        .unwrap();
    let outputs = [transcript_replay::ToolOutput::ok(
        "toolu_1",
        "x".repeat(10_000),
    )];
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history)
        .without_preamble()
        .round(&reply, &outputs)
        .budget(Budget::new(1_000, claude));
    let error = Provider::Anthropic.body(&turn).unwrap_err().to_string();
    let (head, parts) = error.split_once(": ").unwrap();
    assert!(
        head.starts_with("the body needs ") && head.contains(" over the budget of 1000"),
        "{error}"
    );
    assert!(parts.starts_with("round 1 in flight "), "{error}");
}

#[test]
fn an_old_user_messages_long_text_is_withheld_before_whole_messages_go() {
    // A long paste early on, then small turns that carry what the conversation learned.
    let paste = "E0425: cannot find value `x` in this scope\n".repeat(2_000);
    let mut history = vec![
        StoredMessage::system("Summary: fixing the build."),
        StoredMessage::user(paste.clone()),
        StoredMessage::assistant("That is one error, repeated."),
    ];
    for n in 0..6 {
        history.push(StoredMessage::user(format!("Run test {n}.")));
        history.push(StoredMessage::assistant(format!("test result {n}: ok")));
    }
    let live = [StoredMessage::user("Which tests passed?")];
    let claude = image_tokens("claude").unwrap();
    for provider in Provider::ALL {
        let turn = Turn::new(&history)
            .live(&live)
            .without_preamble()
            .budget(Budget::new(1_000, claude));
        let body = provider.body(&turn).unwrap();
        let text = serde_json::to_string(&body).unwrap();
        assert!(
            text.contains(&format!(
                "[text withheld to fit the context window: {} bytes]",
                paste.len()
            )),
            "{provider}: {text}"
        );
        for n in 0..6 {
            assert!(
                text.contains(&format!("test result {n}: ok")),
                "{provider}: {text}"
            );
        }
        assert!(text.contains("That is one error, repeated."), "{provider}");
        assert!(!text.contains("earlier message"), "{provider}: {text}");
        let withheld = body.estimate(claude).withheld.unwrap();
        assert_eq!((withheld.texts, withheld.messages), (1, 0), "{provider}");
    }
}

#[test]
fn one_large_paste_that_frees_enough_alone_is_withheld_alone_and_every_tool_output_stays() {
    let paste = "thread 'main' panicked at src/lib.rs:1:1\n".repeat(750);
    let mut history = vec![
        StoredMessage::system("Summary: fixing the build."),
        StoredMessage::user(paste.clone()),
        StoredMessage::assistant("One panic, repeated."),
    ];
    for n in 0..4 {
        history.push(StoredMessage::user(format!("Read file {n}.")));
        history.push(StoredMessage::new(
            Role::Assistant,
            vec![
                Block::tool_use(format!("t{n}"), "read", r#"{"path":"a.rs"}"#),
                Block::tool_result(format!("t{n}"), "read", format!("// line {n}\n").repeat(40)),
                Block::text(format!("Read file {n}.")),
            ],
        ));
    }
    let live = [StoredMessage::user("What failed?")];
    let claude = image_tokens("claude").unwrap();
    for provider in Provider::ALL {
        let unbudgeted = Turn::new(&history).live(&live).without_preamble();
        let whole = provider
            .body(&unbudgeted)
            .unwrap()
            .estimate(claude)
            .tokens();
        // A budget the paste alone, withheld, makes room for.
        let turn = unbudgeted
            .clone()
            .budget(Budget::new(whole - 2_000, claude));
        let body = provider.body(&turn).unwrap();
        let text = serde_json::to_string(&body).unwrap();
        assert!(
            text.contains(&format!(
                "[text withheld to fit the context window: {} bytes]",
                paste.len()
            )),
            "{provider}: {text}"
        );
        assert!(!text.contains("[output withheld"), "{provider}: {text}");
        for n in 0..4 {
            assert!(text.contains(&format!("// line {n}")), "{provider}");
        }
        let withheld = body.estimate(claude).withheld.unwrap();
        assert_eq!(
            (withheld.outputs, withheld.texts, withheld.messages),
            (0, 1, 0),
            "{provider}"
        );
    }
}

#[test]
fn the_message_holding_the_honored_compaction_is_kept_with_the_marker_that_announces_it() {
    // A compaction's summary stands for what it replaced: the marker saying so and the
    // summary are sent together, and the budget withholds what follows the summary instead.
    let history = [
        StoredMessage::user("Read a.rs."),
        StoredMessage::new(
            Role::Assistant,
            vec![Block::compaction("a.rs is empty; b.rs is next.")],
        ),
        StoredMessage::user("y ".repeat(128)),
        StoredMessage::assistant("Noted."),
        StoredMessage::user("Go on."),
        StoredMessage::assistant("Done."),
    ];
    let live = [StoredMessage::user("Next?")];
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history)
        .live(&live)
        .without_preamble()
        .budget(Budget::new(100, claude).step(1));
    let body = serde_json::to_string(&Provider::OpenAi.body(&turn).unwrap()).unwrap();
    assert!(
        body.starts_with(concat!(
            r#"{"messages":[{"role":"user","content":"[1 earlier message replaced by the summary below]"},"#,
            r#"{"role":"assistant","content":"[Summary of the earlier conversation]: a.rs is empty; b.rs is next."},"#,
            r#"{"role":"user","content":"[1 earlier message withheld to fit the context window]"},"#,
            r#"{"role":"assistant","content":"Noted."}"#,
        )),
        "{body}"
    );
}
