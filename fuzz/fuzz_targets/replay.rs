//! Arbitrary bytes through `parse_record`, `replay_messages`, three renderers, all five
//! providers' and every named dialect's whole bodies and their estimates, checking the invariants that hold for every
//! record; and the fast record reader against the serde reader on every text: whatever it
//! takes, it reads as the serde reader does.

#![no_main]

use libfuzzer_sys::fuzz_target;
use transcript_replay::{
    anthropic, bedrock, cost::estimate_tokens, cost::image_tokens, gemini, openai,
    openai_responses, parse_record, parse_record_by_serde, parse_record_fast_only, replay_messages,
    wire::Part, wire::WireRole, Dialect, Priced, Provider, StoredMessage, Turn, Vision,
};

/// A body serializes, the crate's writer gives serde_json's bytes, and its estimate counts
/// exactly its bytes, and each text whole.
fn priced_exactly(body: &impl Priced) {
    let bytes = serde_json::to_vec(body).unwrap();
    assert_eq!(body.to_json().unwrap(), bytes, "the crate's writer");
    let rule = image_tokens("claude").unwrap();
    let estimate = body.estimate(rule);
    assert_eq!(estimate.bytes, bytes.len(), "estimated bytes");
    assert_eq!(
        estimate,
        body.estimate_with(rule, estimate_tokens),
        "text estimate"
    );
}

fn is_blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

fn no_text_part_is_blank(parts: &[Part<'_>]) {
    for part in parts {
        if let Part::Text(text) = part {
            assert!(!is_blank(&text.to_string()), "a blank text part");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(json) = std::str::from_utf8(data) else {
        return;
    };
    let serde = parse_record_by_serde(json);
    if let Some(fast) = parse_record_fast_only(json) {
        assert_eq!(
            Ok(&fast),
            serde.as_ref(),
            "the fast reader reads as serde does"
        );
    }
    let read = parse_record(json);
    assert_eq!(read, serde, "parse_record reads as the serde reader does");
    let Ok(record) = read else {
        return;
    };
    for vision in [Vision::Sees, Vision::Blind] {
        let wire = replay_messages(&record, vision);
        assert_eq!(
            wire.len(),
            record.len(),
            "one wire message per stored message"
        );
        for message in &wire {
            assert!(!message.content.is_empty(), "content is never empty");
            if vision == Vision::Blind {
                assert!(message
                    .content
                    .iter()
                    .all(|part| matches!(part, Part::Text(_))));
            }
        }
        serde_json::to_vec(&wire).unwrap();

        let request = openai::render(&wire);
        assert_eq!(request.messages.len(), wire.len());
        for message in &request.messages {
            assert!(!message.content.is_empty());
            let media = message
                .content
                .iter()
                .any(|part| matches!(part, Part::Image(_) | Part::File(_)));
            assert!(
                !media || message.role == WireRole::User,
                "OpenAI images and files only in user messages"
            );
            assert!(message.content.iter().all(|part| match part {
                Part::Image(image) => openai::MEDIA_TYPES.contains(&image.media_type()),
                Part::File(file) =>
                    openai::FILE_TYPES.contains(&file.media_type().to_ascii_lowercase().as_str()),
                Part::Text(text) => !text.to_string().is_empty(),
                // OpenAI Chat reads no compaction natively: its summary goes as prose.
                Part::Compaction(_) => false,
            }));
        }
        assert_eq!(
            request.to_json().unwrap(),
            serde_json::to_vec(&request).unwrap()
        );

        let hoisted = wire
            .iter()
            .take_while(|message| message.role == WireRole::System)
            .count();
        let request = anthropic::render(&wire);
        assert_eq!(request.messages.len(), wire.len() - hoisted);
        assert_eq!(request.system.is_some(), hoisted > 0);
        for message in &request.messages {
            assert!(!message.content.is_empty());
            no_text_part_is_blank(&message.content);
            for part in &message.content {
                if let Part::Image(image) = part {
                    assert_eq!(message.role, anthropic::Role::User);
                    assert!(anthropic::MEDIA_TYPES.contains(&image.media_type()));
                    assert!(image.data().len() <= anthropic::MAX_IMAGE_BASE64_LEN);
                }
            }
        }
        assert_eq!(
            request.to_json().unwrap(),
            serde_json::to_vec(&request).unwrap()
        );

        let request = gemini::render(&wire);
        assert!(request.contents.len() <= wire.len() - hoisted);
        for pair in request.contents.windows(2) {
            assert_ne!(pair[0].role, pair[1].role, "adjacent turns of one role");
        }
        for content in &request.contents {
            assert!(!content.parts.is_empty(), "no empty parts");
            no_text_part_is_blank(&content.parts);
            for part in &content.parts {
                if let Part::Image(image) = part {
                    assert!(gemini::MEDIA_TYPES.contains(&image.media_type()));
                }
            }
        }
        assert_eq!(
            request.to_json().unwrap(),
            serde_json::to_vec(&request).unwrap()
        );

        // With a live user turn, every provider's whole body can be built.
        let live = [StoredMessage::user("Go on.")];
        let turn = Turn::new(&record).vision(vision).live(&live);
        priced_exactly(&openai::body(&turn).unwrap());
        priced_exactly(&anthropic::body(&turn).unwrap());
        priced_exactly(&gemini::body(&turn).unwrap());
        priced_exactly(&openai_responses::body(&turn).unwrap());
        // Bedrock refuses a record whose first turn is the assistant's; any other is built.
        if let Ok(body) = bedrock::body(&turn) {
            priced_exactly(&body);
        }
        // Every compatible server's dialect: its system text, roles and types applied.
        for dialect in Dialect::NAMED {
            priced_exactly(&Provider::Compatible(dialect).body(&turn).unwrap());
        }
    }
});
