//! Invariants of replay over generated records (docs/design.md#replay).

use transcript_replay_conformance::records as common;

use proptest::prelude::*;
use transcript_replay::{
    parse_record, replay_message, replay_messages, wire::Part, wire::Piece, wire::WireRole, Block,
    Role, Vision,
};

fn visions() -> impl Strategy<Value = Vision> {
    prop_oneof![Just(Vision::Sees), Just(Vision::Blind)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn each_stored_message_becomes_exactly_one_wire_message_in_order(
        record in common::record(), vision in visions()
    ) {
        // But for what a compaction replaced: one user turn says how many, first.
        let replaced = common::replaced(&record);
        let wire = replay_messages(&record, vision);
        let marker = usize::from(replaced > 0);
        prop_assert_eq!(wire.len(), record.len() - replaced + marker);
        if replaced > 0 {
            prop_assert_eq!(wire[0].role, WireRole::User);
            let text = serde_json::to_value(&wire[0]).unwrap()["content"][0]["text"].clone();
            let noun = if replaced == 1 { "message" } else { "messages" };
            prop_assert_eq!(text, format!("[{replaced} earlier {noun} replaced by the summary below]"));
        }
        for (stored, wire) in record[replaced..].iter().zip(&wire[marker..]) {
            let expected = match stored.role {
                Role::System => WireRole::System,
                Role::User => WireRole::User,
                Role::Assistant | Role::Tool => WireRole::Assistant,
            };
            prop_assert_eq!(wire.role, expected);
        }
    }

    #[test]
    fn replay_messages_is_replay_message_applied_to_each_message_kept(record in common::record(), vision in visions()) {
        let replaced = common::replaced(&record);
        let each: Vec<_> = record[replaced..].iter().map(|message| replay_message(message, vision)).collect();
        let wire = replay_messages(&record, vision);
        prop_assert_eq!(&wire[usize::from(replaced > 0)..], &each[..]);
    }

    #[test]
    fn content_is_never_empty(record in common::record(), vision in visions()) {
        for message in replay_messages(&record, vision) {
            prop_assert!(!message.content.is_empty());
        }
    }

    #[test]
    fn no_tool_role_appears_on_the_wire(record in common::record(), vision in visions()) {
        let json: serde_json::Value = serde_json::to_value(replay_messages(&record, vision)).unwrap();
        for message in json.as_array().unwrap() {
            let role = message["role"].as_str().unwrap();
            prop_assert!(["system", "user", "assistant"].contains(&role), "role {role}");
            prop_assert!(message.get("tool_call_id").is_none());
        }
    }

    #[test]
    fn text_parts_are_never_adjacent(record in common::record(), vision in visions()) {
        for message in replay_messages(&record, vision) {
            for pair in message.content.windows(2) {
                prop_assert!(!matches!(pair, [Part::Text(_), Part::Text(_)]));
            }
        }
    }

    #[test]
    fn every_block_but_an_empty_text_yields_one_piece_or_one_image(
        record in common::record(), vision in visions()
    ) {
        let replaced = common::replaced(&record);
        let wire = replay_messages(&record, vision);
        for (stored, wire) in record[replaced..].iter().zip(&wire[usize::from(replaced > 0)..]) {
            let expected = stored
                .blocks
                .iter()
                .filter(|block| !matches!(block, Block::Text { text } if text.is_empty()))
                .count();
            let mut pieces = 0;
            let mut images = 0;
            for part in &wire.content {
                match part {
                    Part::Text(text) => {
                        pieces += text.pieces().iter().filter(|piece| **piece != Piece::EmptyMessage).count();
                    }
                    Part::Image(_) | Part::File(_) | Part::Compaction(_) => images += 1,
                }
            }
            prop_assert_eq!(pieces + images, expected);
        }
    }

    #[test]
    fn a_blind_replay_carries_no_image_data(record in common::record()) {
        let wire = replay_messages(&record, Vision::Blind);
        prop_assert!(wire.iter().flat_map(|message| &message.content).all(|part| matches!(part, Part::Text(_))));
        let json = serde_json::to_string(&wire).unwrap();
        for block in record.iter().flat_map(|message| &message.blocks) {
            if let Block::Image { data, .. } = block {
                if common::distinctive(data) {
                    prop_assert!(!json.contains(data.as_str()));
                }
            }
        }
    }

    #[test]
    fn image_data_never_appears_in_any_text(record in common::record(), vision in visions()) {
        for message in replay_messages(&record, vision) {
            for part in &message.content {
                if let Part::Text(text) = part {
                    let text = text.to_string();
                    for block in record.iter().flat_map(|message| &message.blocks) {
                        if let Block::Image { data, .. } = block {
                            if common::distinctive(data) {
                                prop_assert!(!text.contains(data.as_str()));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_flag_changes_nothing_for_a_record_without_images(record in common::record_without_images()) {
        prop_assert_eq!(
            serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap(),
            serde_json::to_string(&replay_messages(&record, Vision::Blind)).unwrap()
        );
    }

    #[test]
    fn the_same_record_and_flag_give_the_same_bytes(record in common::record(), vision in visions()) {
        let copy = record.clone();
        let first = serde_json::to_vec(&replay_messages(&record, vision)).unwrap();
        let second = serde_json::to_vec(&replay_messages(&copy, vision)).unwrap();
        prop_assert_eq!(first, second);
    }

    #[test]
    fn a_text_displays_exactly_as_it_serializes(record in common::record(), vision in visions()) {
        for message in replay_messages(&record, vision) {
            for part in &message.content {
                if let Part::Text(text) = part {
                    prop_assert_eq!(serde_json::to_string(text).unwrap(), serde_json::to_string(&text.to_string()).unwrap());
                }
            }
        }
    }

    #[test]
    fn parse_record_never_panics_on_any_text(text in any::<String>()) {
        let _ = parse_record(&text);
    }

    #[test]
    fn parse_record_never_panics_on_a_damaged_record(record in common::record(), cut in any::<prop::sample::Index>(), byte in any::<char>()) {
        let json = serde_json::to_string(&record).unwrap();
        let at = cut.index(json.len() + 1);
        let mut damaged: String = json.chars().take(at).collect();
        let _ = parse_record(&damaged);
        damaged.push(byte);
        damaged.extend(json.chars().skip(at + 1));
        let _ = parse_record(&damaged);
    }
}
