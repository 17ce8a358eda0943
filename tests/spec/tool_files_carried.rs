//! A tool's file in the history (a `file` block after the tool's result, in the assistant's
//! turn) is carried, on a provider that takes files natively only in user messages, to the
//! start of the next user message, after the text `[File {name} ({media_type}) from an earlier
//! turn]`, and leaves `[File {name} ({media_type}) not shown: it is shown in the next user
//! message]` where it was: as a tool's screenshot is. Gemini takes it where it stands.

use transcript_replay::{
    anthropic, replay_messages, wire::Piece, Block, Provider, Role, StoredMessage, Turn, Vision,
};

/// `%PDF-1.7` and two page objects.
const PDF: &str = "JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg==";
/// `hello`.
const TEXT: &str = "aGVsbG8=";

/// The user asks, the assistant calls a tool, the tool returns a PDF, the assistant says so.
fn history() -> Vec<StoredMessage> {
    vec![
        StoredMessage::user("Fetch the report."),
        StoredMessage::new(
            Role::Assistant,
            vec![
                Block::tool_use("t1", "fetch", "{}"),
                Block::tool_result("t1", "fetch", "saved"),
                Block::named_file("r.pdf", "application/pdf", PDF),
                Block::text("Fetched."),
            ],
        ),
    ]
}

fn body(provider: Provider, history: &[StoredMessage], live: &[StoredMessage]) -> String {
    let turn = Turn::new(history).live(live).without_preamble();
    serde_json::to_string(&provider.body(&turn).unwrap()).unwrap()
}

#[test]
fn a_tools_file_is_carried_to_the_next_user_message_where_files_go_only_there() {
    let live = [StoredMessage::user("Summarize it.")];
    // (provider, the exact body)
    let cases = [
        (
            Provider::OpenAi,
            concat!(
                r#"{"messages":[{"role":"user","content":"Fetch the report."},"#,
                r#"{"role":"assistant","content":"Tool use: fetch({})\n\nResult (fetch): saved\n\n[File r.pdf (application/pdf) not shown: it is shown in the next user message]\n\nFetched."},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[File r.pdf (application/pdf) from an earlier turn]"},"#,
                r#"{"type":"file","file":{"filename":"r.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}},"#,
                r#"{"type":"text","text":"Summarize it."}]}]}"#,
            ),
        ),
        (
            Provider::OpenAiResponses,
            concat!(
                r#"{"input":[{"role":"user","content":"Fetch the report."},"#,
                r#"{"role":"assistant","content":"Tool use: fetch({})\n\nResult (fetch): saved\n\n[File r.pdf (application/pdf) not shown: it is shown in the next user message]\n\nFetched."},"#,
                r#"{"role":"user","content":[{"type":"input_text","text":"[File r.pdf (application/pdf) from an earlier turn]"},"#,
                r#"{"type":"input_file","filename":"r.pdf","file_data":"data:application/pdf;base64,JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="},"#,
                r#"{"type":"input_text","text":"Summarize it."}]}]}"#,
            ),
        ),
        (
            Provider::Anthropic,
            concat!(
                r#"{"messages":[{"role":"user","content":[{"type":"text","text":"Fetch the report."}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Tool use: fetch({})\n\nResult (fetch): saved\n\n[File r.pdf (application/pdf) not shown: it is shown in the next user message]\n\nFetched."}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[File r.pdf (application/pdf) from an earlier turn]"},"#,
                r#"{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="},"title":"r.pdf"},"#,
                r#"{"type":"text","text":"Summarize it."}]}]}"#,
            ),
        ),
        // Gemini takes files in model turns: the file stays where it is.
        (
            Provider::Gemini,
            concat!(
                r#"{"contents":[{"role":"user","parts":[{"text":"Fetch the report."}]},"#,
                r#"{"role":"model","parts":[{"text":"Tool use: fetch({})\n\nResult (fetch): saved"},"#,
                r#"{"inlineData":{"mimeType":"application/pdf","data":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}},"#,
                r#"{"text":"Fetched."}]},"#,
                r#"{"role":"user","parts":[{"text":"Summarize it."}]}]}"#,
            ),
        ),
        // Bedrock takes a document only beside text: the text that names the carried file is
        // that text.
        (
            Provider::Bedrock,
            concat!(
                r#"{"messages":[{"role":"user","content":[{"text":"Fetch the report."}]},"#,
                r#"{"role":"assistant","content":[{"text":"Tool use: fetch({})\n\nResult (fetch): saved\n\n[File r.pdf (application/pdf) not shown: it is shown in the next user message]\n\nFetched."}]},"#,
                r#"{"role":"user","content":[{"text":"[File r.pdf (application/pdf) from an earlier turn]"},"#,
                r#"{"document":{"format":"pdf","name":"r pdf [1]","source":{"bytes":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}}},"#,
                r#"{"text":"Summarize it."}]}]}"#,
            ),
        ),
    ];
    for (provider, expected) in cases {
        assert_eq!(body(provider, &history(), &live), expected, "{provider}");
    }
}

#[test]
fn a_carried_file_comes_before_the_user_messages_own_and_is_numbered_first() {
    let live = [StoredMessage::new(
        Role::User,
        vec![
            Block::text("And this one."),
            Block::named_file("n.txt", "text/plain", TEXT),
        ],
    )];
    // (provider, the user message the file is carried to, as written)
    let cases = [
        (
            Provider::Anthropic,
            concat!(
                r#"{"role":"user","content":[{"type":"text","text":"[File r.pdf (application/pdf) from an earlier turn]"},"#,
                r#"{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="},"title":"r.pdf"},"#,
                r#"{"type":"text","text":"And this one."},"#,
                r#"{"type":"document","source":{"type":"text","media_type":"text/plain","data":"hello"},"title":"n.txt"}]}]}"#,
            ),
        ),
        (
            Provider::Bedrock,
            concat!(
                r#"{"role":"user","content":[{"text":"[File r.pdf (application/pdf) from an earlier turn]"},"#,
                r#"{"document":{"format":"pdf","name":"r pdf [1]","source":{"bytes":"JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+Cjw8L1R5cGUgL1BhZ2U+Pg=="}}},"#,
                r#"{"text":"And this one.\n\n[File n.txt (text/plain)]"},"#,
                r#"{"document":{"format":"txt","name":"n txt [2]","source":{"bytes":"aGVsbG8="}}}]}]}"#,
            ),
        ),
    ];
    for (provider, expected) in cases {
        let body = body(provider, &history(), &live);
        assert!(body.ends_with(expected), "{provider}: {body}");
    }
}

#[test]
fn a_carried_file_the_user_side_does_not_take_says_why() {
    // OpenAI Chat takes no text/plain file anywhere: the marker says that, not the role.
    let mut history = history();
    history[1].blocks[2] = Block::named_file("n.txt", "text/plain", TEXT);
    let live = [StoredMessage::user("Summarize it.")];
    let body = body(Provider::OpenAi, &history, &live);
    assert!(
        body.contains("[File n.txt (text/plain) not shown: OpenAI does not accept text/plain]"),
        "{body}"
    );
    assert!(!body.contains("from an earlier turn"), "{body}");
}

#[test]
fn a_tools_file_no_user_message_follows_is_named_as_not_shown() {
    let history = history();
    let wire = replay_messages(&history, Vision::Sees);
    let fragment = serde_json::to_string(&anthropic::render(&wire)).unwrap();
    assert!(
        fragment.contains(
            "[File r.pdf (application/pdf) not shown: Anthropic accepts files only in user messages]"
        ),
        "{fragment}"
    );
}

#[test]
fn the_text_before_a_carried_file_shows_its_name_as_every_marker_does() {
    // (media type, name, the text)
    let cases = [
        (
            "application/pdf",
            Some("r.pdf"),
            "[File r.pdf (application/pdf) from an earlier turn]",
        ),
        (
            "application/pdf",
            None,
            "[File (application/pdf) from an earlier turn]",
        ),
        (
            "text/plain",
            Some("x] [File y.pdf"),
            "[File x\\u{5d} \\u{5b}File y.pdf (text/plain) from an earlier turn]",
        ),
    ];
    for (media_type, name, expected) in cases {
        let piece = Piece::FileFromEarlierTurn { media_type, name };
        assert_eq!(piece.to_string(), expected, "{name:?}");
    }
}
