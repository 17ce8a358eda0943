//! The same response stores the same bytes: read whole, compact or pretty-printed (as Google
//! sends it), or streamed in any chunking with its tool inputs spaced as a model may write
//! them, every provider's reply becomes the same stored message, byte for byte once written
//! with `write_record`, and that record is one line.

use proptest::prelude::*;
use serde_json::Value;
use transcript_replay::{write_record, Block, Provider, Reply};
use transcript_replay_conformance::records;
use transcript_replay_conformance::streams::{self, Item, Spec};

/// A JSON object of arguments, as text with white space between its tokens: pretty-printed,
/// or with a space after each separator, as models and servers write it.
fn spaced_args() -> impl Strategy<Value = String> {
    (
        prop::collection::btree_map("[a-z_]{1,8}", records::text(), 0..3),
        prop::collection::btree_map("[a-z]{1,4}", -1000i64..1000, 0..2),
        any::<bool>(),
    )
        .prop_map(|(texts, numbers, pretty)| {
            let mut object: serde_json::Map<String, Value> = texts
                .into_iter()
                .map(|(key, text)| (key, Value::from(text)))
                .collect();
            let nested: serde_json::Map<String, Value> = numbers
                .into_iter()
                .map(|(key, number)| (key, Value::from(number)))
                .collect();
            object.insert("opts".to_owned(), Value::Object(nested));
            let value = Value::Object(object);
            match pretty {
                true => serde_json::to_string_pretty(&value).unwrap(),
                false => spaced(&value.to_string()),
            }
        })
}

/// Compact JSON text with a space after each `:` and `,` outside strings.
fn spaced(compact: &str) -> String {
    let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
    for c in compact.chars() {
        out.push(c);
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_string = false,
            (false, _, '"') => in_string = true,
            (false, _, ':' | ',') => out.push(' '),
            _ => {}
        }
    }
    out
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        records::text().prop_map(Item::Text),
        records::text().prop_map(Item::Reasoning),
        ("[a-z]{1,6}", "[a-z_]{1,10}", spaced_args()).prop_map(|(id, name, args)| Item::Call {
            id: format!("call_{id}"),
            name,
            args,
        }),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (prop::collection::vec(item(), 1..6), any::<bool>()).prop_map(|(items, max_tokens)| Spec {
        items,
        max_tokens,
        input_tokens: 120,
        output_tokens: 30,
    })
}

/// Feeds a stream in chunks at the given cut points and finishes it.
fn streamed(provider: Provider, bytes: &[u8], cuts: &[usize]) -> Reply {
    let mut reader = provider.stream();
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut start = 0;
    for cut in cuts.into_iter().chain([bytes.len()]) {
        reader.feed(&bytes[start..cut.max(start)]).unwrap();
        start = cut.max(start);
    }
    reader.end().unwrap();
    reader.finish().unwrap()
}

fn stored(reply: &Reply) -> String {
    write_record(std::slice::from_ref(&reply.message))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_reply_stores_the_same_bytes_pretty_or_compact_whole_or_streamed_on_one_line(
        spec in spec(),
        size in 1..8usize,
        cuts in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        for provider in Provider::ALL {
            let body = streams::body(provider, &spec);
            let value: Value = serde_json::from_str(&body).unwrap();
            let pretty = serde_json::to_string_pretty(&value).unwrap();
            let compact = provider.read_reply(&body).unwrap();
            let expected = stored(&compact);
            prop_assert!(!expected.contains('\n'), "{:?}: {}", provider, expected);
            prop_assert_eq!(&stored(&provider.read_reply(&pretty).unwrap()), &expected, "{:?}: pretty", provider);
            let bytes = streams::stream(provider, &spec, size);
            prop_assert_eq!(&stored(&streamed(provider, &bytes, &[])), &expected, "{:?}: streamed", provider);
            prop_assert_eq!(&stored(&streamed(provider, &bytes, &cuts)), &expected, "{:?}: in chunks", provider);
            // A JSON value is stored without the white space between its tokens.
            for block in &compact.message.blocks {
                if let Block::ToolUse { input, .. } = block {
                    if input.is_json_value() {
                        let reparsed: Value = serde_json::from_str(input.as_str()).unwrap();
                        prop_assert_eq!(reparsed.to_string().len(), input.as_str().len());
                    }
                }
            }
        }
    }
}
