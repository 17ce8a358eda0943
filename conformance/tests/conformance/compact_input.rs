//! A tool input stored as a JSON value replays with the white space between its tokens
//! removed, and nothing else changed: the same value written compactly or pretty-printed
//! replays the same bytes, which read back as the same value.

use proptest::prelude::*;
use serde_json::Value;
use transcript_replay::wire::CompactJson;
use transcript_replay_conformance::records;

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        records::text().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(records::text(), inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compact_and_pretty_forms_replay_the_same_bytes_and_value(value in value()) {
        let compact = serde_json::to_string(&value).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let replayed = CompactJson(&pretty).to_string();
        prop_assert_eq!(&replayed, &CompactJson(&compact).to_string());
        // serde_json's compact form has no white space between tokens: nothing else moved.
        prop_assert_eq!(&replayed, &compact);
        prop_assert_eq!(serde_json::from_str::<Value>(&replayed).unwrap(), value);
    }
}
