//! Reasoning a model writes inside `content`, between tags, is a `reasoning` block for the
//! dialects whose models write it (`Dialect::think_tags`): read whole, and streamed with the
//! content cut into deltas anywhere, tags and all, the blocks are the same. Any other content
//! is the answer, as it came.

use serde_json::{json, Value};
use transcript_replay::{Block, Delta, Provider, Reply};

fn provider(id: &str) -> Provider {
    id.parse().unwrap()
}

/// The content cut into pieces of at most `size` bytes, each ending on a character boundary.
fn pieces(content: &str, size: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = content;
    while !rest.is_empty() {
        let at = (1..=size.min(rest.len()))
            .rev()
            .find(|&at| rest.is_char_boundary(at))
            .unwrap_or(rest.len());
        let (piece, tail) = rest.split_at(at);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

/// Reads a stream whose content comes as these deltas, fed in pieces of `size` bytes: the
/// deltas the reader gave, and the reply.
fn streamed(provider: Provider, deltas: &[&str], size: usize) -> (Vec<Delta>, Reply) {
    let mut events: Vec<Value> = vec![json!({"choices": [{"index": 0,
        "delta": {"role": "assistant", "content": ""}}]})];
    events.extend(
        deltas
            .iter()
            .map(|piece| json!({"choices": [{"index": 0, "delta": {"content": piece}}]})),
    );
    events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
    let mut bytes: String = events
        .iter()
        .map(|event| format!("data: {event}\n\n"))
        .collect();
    bytes.push_str("data: [DONE]\n\n");
    let mut reader = provider.stream();
    let mut given = Vec::new();
    for chunk in bytes.as_bytes().chunks(size) {
        given.extend(reader.feed(chunk).unwrap());
    }
    given.extend(reader.end().unwrap());
    (given, reader.finish().unwrap())
}

/// The blocks the deltas add up to, each by its index.
fn added_up(deltas: &[Delta]) -> Vec<Block> {
    // (index, whether reasoning, the text so far)
    let mut blocks: Vec<(usize, bool, String)> = Vec::new();
    for delta in deltas {
        let (index, reasoning, text) = match delta {
            Delta::Text { block, text } => (*block, false, text),
            Delta::Reasoning { block, text } => (*block, true, text),
            other => panic!("a delta of content in tags is text or reasoning: {other:?}"),
        };
        match blocks.iter_mut().find(|(known, ..)| *known == index) {
            Some((_, known, so_far)) if *known == reasoning => so_far.push_str(text),
            Some(_) => panic!("block {index} changed its kind"),
            None => blocks.push((index, reasoning, text.clone())),
        }
    }
    blocks.sort_by_key(|(index, ..)| *index);
    blocks
        .into_iter()
        .map(|(_, reasoning, text)| match reasoning {
            true => Block::reasoning(text),
            false => Block::text(text),
        })
        .collect()
}

/// Checks that the content reads as these blocks whole, and streamed in deltas of every size
/// from one byte up; and that the round sends the content back as it came.
fn reads_as(provider: Provider, content: &str, blocks: &[Block]) {
    let body = json!({"choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": content}}]})
    .to_string();
    let whole = provider.read_reply(&body).unwrap();
    assert_eq!(
        whole.message.blocks, blocks,
        "{provider:?} whole: {content:?}"
    );
    for size in 1..=content.len().max(1) {
        let (deltas, reply) = streamed(provider, &pieces(content, size), 7);
        assert_eq!(
            reply.message, whole.message,
            "{provider:?} in deltas of {size}: {content:?}"
        );
        assert_eq!(
            added_up(&deltas),
            blocks,
            "{provider:?}: the deltas, {size}"
        );
    }
    let (_, reply) = streamed(provider, &pieces(content, 3), 4096);
    let native: Vec<Value> = reply
        .native()
        .map(|raw| serde_json::from_str(raw).unwrap())
        .collect();
    assert_eq!(native[0]["content"], content, "{provider:?}: the round");
}

#[test]
fn content_a_template_opened_is_reasoning_up_to_the_first_closing_tag() {
    // (content, blocks): the chat template wrote `<think>`, so only `</think>` arrives.
    let cases: Vec<(&str, Vec<Block>)> = vec![
        (
            "The user wants a number.\n</think>\n\nFour.",
            vec![
                Block::reasoning("The user wants a number."),
                Block::text("Four."),
            ],
        ),
        ("</think>\n\nFour.", vec![Block::text("Four.")]),
        (
            "  Weighing it.\n</think>",
            vec![Block::reasoning("Weighing it.")],
        ),
        (
            "First </think> then </think> again.",
            vec![
                Block::reasoning("First"),
                Block::text("then </think> again."),
            ],
        ),
        (
            "a </thi nk> b</think> c",
            vec![Block::reasoning("a </thi nk> b"), Block::text("c")],
        ),
        (
            "Ünïcödé — 思考 </think> 答え",
            vec![Block::reasoning("Ünïcödé — 思考"), Block::text("答え")],
        ),
        // The opened form is read as before.
        (
            "<think>Opened here.</think>Four.",
            vec![Block::reasoning("Opened here."), Block::text("Four.")],
        ),
        // A `<think>` before the first `</think>`: the content is the answer.
        (
            "Write <think> to open, </think> to close.",
            vec![Block::text("Write <think> to open, </think> to close.")],
        ),
        // No closing tag: the answer, as it came.
        (
            "Four. No tags at all.",
            vec![Block::text("Four. No tags at all.")],
        ),
        ("Four </thin", vec![Block::text("Four </thin")]),
        ("  \n", vec![Block::text("  \n")]),
    ];
    for id in ["vllm", "together", "fireworks"] {
        for (content, blocks) in &cases {
            reads_as(provider(id), content, blocks);
        }
    }
}

#[test]
fn a_closing_tag_is_text_for_a_server_without_think_tags() {
    let content = "The user wants a number.\n</think>\n\nFour.";
    for provider in [Provider::OpenAi, provider("groq"), provider("ollama")] {
        reads_as(provider, content, &[Block::text(content)]);
    }
}

#[test]
fn geminis_endpoint_reads_thought_tags_at_the_start_of_content_as_reasoning() {
    // (content, blocks): Gemini's OpenAI endpoint asked for thought summaries.
    let cases: Vec<(&str, Vec<Block>)> = vec![
        (
            "<thought>The user wants a number.</thought>Four.",
            vec![
                Block::reasoning("The user wants a number."),
                Block::text("Four."),
            ],
        ),
        (
            "  <thought>\n**Adding up**\n\nTwo and two.\n</thought>\n\nFour.",
            vec![
                Block::reasoning("**Adding up**\n\nTwo and two."),
                Block::text("Four."),
            ],
        ),
        (
            "<thought>Cut off before the answer",
            vec![Block::reasoning("Cut off before the answer")],
        ),
        ("Four.", vec![Block::text("Four.")]),
        // Only the opened form: no template opens Gemini's tags.
        ("Four. </thought>", vec![Block::text("Four. </thought>")]),
        (
            "Say <thought>x</thought> to think.",
            vec![Block::text("Say <thought>x</thought> to think.")],
        ),
        // `<think>` is another dialect's tag.
        (
            "<think>x</think>Four.",
            vec![Block::text("<think>x</think>Four.")],
        ),
    ];
    for (content, blocks) in &cases {
        reads_as(provider("gemini-openai"), content, blocks);
    }
    // The `<think>` dialects keep `<thought>` as text.
    let content = "<thought>x</thought>Four.";
    reads_as(provider("vllm"), content, &[Block::text(content)]);
}
