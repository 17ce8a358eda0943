//! Fitted bodies, byte for byte, for every provider: the oldest outputs and reasoning
//! withheld with their exact markers and byte counts, then the oldest whole messages replaced
//! by one user turn after the leading system message; the unbudgeted body when it fits; and
//! an error that says by how much when the live turn alone is over.

use transcript_replay::{
    image_tokens, Block, Budget, Priced, Provider, Role, StoredMessage, ToolInput, Turn, Withheld,
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
fn a_live_turn_over_the_budget_alone_is_an_error_that_says_by_how_much() {
    // (provider, what the least body needs, by the default estimate)
    let cases = [
        (Provider::OpenAi, 23),
        (Provider::OpenAiResponses, 23),
        (Provider::Anthropic, 23),
        (Provider::Gemini, 22),
        (Provider::Bedrock, 22),
    ];
    for (provider, needed) in cases {
        assert_eq!(
            fitted(provider, 20).unwrap_err(),
            format!(
                "the system text, tools and live turn need {needed} tokens with the whole history withheld, {} over the budget of 20",
                needed - 20
            ),
            "{provider}"
        );
    }
}

#[test]
fn one_message_withheld_is_said_in_the_singular() {
    let history = [
        StoredMessage::user("x ".repeat(400)),
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
