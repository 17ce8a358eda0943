//! A stream reader finishes into what `read_reply` reads from the same response whole, for
//! every provider, however the bytes are split: any chunking gives the same deltas (joined)
//! and the same reply, the deltas add up to the reply's blocks, and a reply that called tools
//! makes the same round in flight, streamed or whole; for the five providers and for every
//! compatible server's dialect.

use proptest::prelude::*;
use serde_json::Value;
use transcript_replay::{
    Block, Delta, Dialect, Provider, Reply, StoredMessage, Tool, ToolOutput, Turn,
};
use transcript_replay_conformance::records;
use transcript_replay_conformance::streams::{self, Item, Spec};

/// A JSON object of arguments, as its compact text (the key order serde_json writes).
fn args() -> impl Strategy<Value = String> {
    prop::collection::btree_map("[a-z_]{1,8}", records::text(), 0..3).prop_map(|map| {
        let object: serde_json::Map<String, Value> = map
            .into_iter()
            .map(|(key, text)| (key, Value::from(text)))
            .collect();
        Value::Object(object).to_string()
    })
}

/// Text with a reasoning tag somewhere, opening or closing, as the dialects with `think_tags`
/// read it out of `content`.
fn tagged_text() -> impl Strategy<Value = String> {
    let tag = prop_oneof![
        Just("<think>"),
        Just("</think>"),
        Just(" \n</think>\n"),
        Just("<thought>"),
        Just("</thought>"),
    ];
    (records::text(), tag, records::text())
        .prop_map(|(before, tag, after)| format!("{before}{tag}{after}"))
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        records::text().prop_map(Item::Text),
        tagged_text().prop_map(Item::Text),
        records::text().prop_map(Item::Reasoning),
        ("[a-z]{1,6}", "[a-z_]{1,10}", args()).prop_map(|(id, name, args)| Item::Call {
            id: format!("call_{id}"),
            name,
            args,
        }),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::collection::vec(item(), 0..6),
        any::<bool>(),
        0..100_000u64,
        0..10_000u64,
    )
        .prop_map(|(items, max_tokens, input_tokens, output_tokens)| Spec {
            items,
            max_tokens,
            input_tokens,
            output_tokens,
        })
}

/// Feeds a stream in chunks at the given cut points, and returns every delta and the reply.
fn read(provider: Provider, bytes: &[u8], cuts: &[usize]) -> (Vec<Delta>, Reply) {
    let mut reader = provider.stream();
    let mut deltas = Vec::new();
    let mut start = 0;
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    for cut in cuts.into_iter().chain([bytes.len()]) {
        deltas.extend(reader.feed(&bytes[start..cut.max(start)]).unwrap());
        start = cut.max(start);
    }
    deltas.extend(reader.end().unwrap());
    (deltas, reader.finish().unwrap())
}

/// The body of a turn whose round is this reply, each call answered, as JSON.
fn round_body(provider: Provider, reply: &Reply) -> Option<Value> {
    let outputs: Vec<ToolOutput> = reply
        .message
        .blocks
        .iter()
        .filter_map(|block| match block {
            Block::ToolUse { id, .. } => Some(ToolOutput::ok(id.clone(), "done")),
            Block::Text { .. }
            | Block::ToolResult { .. }
            | Block::Reasoning { .. }
            | Block::Image { .. }
            | Block::File { .. }
            | Block::Source { .. }
            | Block::Compaction { .. }
            | Block::Unknown { .. } => None,
        })
        .collect();
    let mut names: Vec<Tool> = Vec::new();
    for block in &reply.message.blocks {
        if let Block::ToolUse { name, .. } = block {
            if !names.iter().any(|tool| tool.name() == name) {
                names.push(Tool::new(name.clone(), "", "{}").unwrap());
            }
        }
    }
    let history = [StoredMessage::user("Go.")];
    let turn = Turn::new(&history).tools(&names).round(reply, &outputs);
    provider
        .body(&turn)
        .ok()
        .map(|body| normalized(serde_json::to_value(body).unwrap()))
}

/// A body as both forms of a reply carry it: without the empty text parts a whole reply may
/// carry and a stream leaves out, and with adjacent plain text parts joined, as a stream's
/// pieces are (they say nothing else, and carry no signature).
fn normalized(value: Value) -> Value {
    let plain = |item: &Value| {
        item.as_object()
            .filter(|map| {
                map.keys()
                    .all(|key| ["text", "thought", "type"].contains(&key.as_str()))
            })
            .and_then(|map| {
                Some((
                    map.get("text")?.as_str()?.to_owned(),
                    map.get("thought").cloned(),
                ))
            })
    };
    match value {
        Value::Array(items) => {
            let mut out: Vec<Value> = Vec::new();
            for item in items {
                match (plain(&item), out.last().and_then(plain)) {
                    (Some((text, _)), _) if text.is_empty() => {}
                    (Some((text, thought)), Some((before, thought_before)))
                        if thought == thought_before =>
                    {
                        let last = out.last_mut().unwrap();
                        last["text"] = Value::from(before + &text);
                    }
                    _ => out.push(normalized(item)),
                }
            }
            Value::Array(out)
        }
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, item)| (key, normalized(item)))
                .collect(),
        ),
        other => other,
    }
}

/// The deltas of a reply, joined per block: its text, or its input, as the deltas carry it.
fn joined(deltas: &[Delta]) -> Vec<(usize, String)> {
    let mut blocks: Vec<(usize, String)> = Vec::new();
    for delta in deltas {
        let (block, text) = match delta {
            Delta::Text { block, text } | Delta::Reasoning { block, text } => {
                (*block, text.as_str())
            }
            Delta::ToolInput { block, piece } => (*block, piece.as_str()),
            Delta::ToolCall { block, .. } => (*block, ""),
            other => panic!("a delta this test does not know: {other:?}"),
        };
        match blocks.iter_mut().find(|(known, _)| *known == block) {
            Some((_, joined)) => joined.push_str(text),
            None => blocks.push((block, text.to_owned())),
        }
    }
    blocks
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_chunking_gives_the_same_deltas_and_the_reply_read_reply_gives(
        spec in spec(),
        size in 1..8usize,
        cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        // The five, and every compatible server's dialect through the Chat shapes.
        let dialects = Dialect::NAMED.map(Provider::Compatible);
        for provider in Provider::ALL.into_iter().chain(dialects) {
            let whole = provider.read_reply(&streams::body(provider, &spec)).unwrap();
            let bytes = streams::stream(provider, &spec, size);
            let (at_once, reply) = read(provider, &bytes, &[]);
            prop_assert_eq!(&reply, &whole, "{:?}", provider);
            prop_assert_eq!(
                serde_json::to_string(&reply).unwrap(),
                serde_json::to_string(&whole).unwrap()
            );
            let (chunked, chunked_reply) = read(provider, &bytes, &cuts);
            prop_assert_eq!(&chunked_reply, &whole, "{:?} in chunks", provider);
            prop_assert_eq!(joined(&chunked), joined(&at_once), "{:?}", provider);
            let mut byte_at_a_time = provider.stream();
            let mut single = Vec::new();
            if bytes.len() < 4096 {
                for byte in &bytes {
                    single.extend(byte_at_a_time.feed(std::slice::from_ref(byte)).unwrap());
                }
                prop_assert_eq!(&byte_at_a_time.finish().unwrap(), &whole);
                prop_assert_eq!(joined(&single), joined(&at_once), "{:?} byte by byte", provider);
            }
            // The same round in flight, streamed or whole.
            prop_assert_eq!(round_body(provider, &reply), round_body(provider, &whole), "{:?}: the round", provider);
            // The deltas add up to the blocks: each text and each input, at its block's index.
            for (block, text) in joined(&at_once) {
                let stored = match reply.message.blocks.get(block) {
                    Some(Block::Text { text }) => text.clone(),
                    Some(Block::Reasoning { reasoning }) => reasoning.clone(),
                    Some(Block::ToolUse { input, .. }) => {
                        if input.as_str() == "{}" && text.is_empty() { String::new() } else { input.as_str().to_owned() }
                    }
                    other => panic!("{provider:?}: block {block} is {other:?}"),
                };
                prop_assert_eq!(stored, text, "{:?}, block {}", provider, block);
            }
        }
    }
}
