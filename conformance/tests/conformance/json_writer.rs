//! The crate's own JSON writer (`Priced::to_json`, `Priced::write_json`) writes byte for
//! byte what `serde_json::to_vec` writes: for every provider's body (with tools, caching and
//! a budget, or not) and fragment, over generated records, and over records of hostile
//! strings (every control character, escaped surrogate pairs, U+2028 and U+2029, quotes and
//! backslashes at every place in a word); and `write_json` appends to what a buffer holds.

use proptest::prelude::*;
use transcript_replay::{
    anthropic, bedrock, cost::image_tokens, gemini, openai, openai_responses, parse_record,
    replay_messages, Budget, Cache, Priced, Provider, StoredMessage, Tool, Turn, Vision,
};
use transcript_replay_conformance::records;

fn same(what: &str, value: &impl Priced) -> Result<(), TestCaseError> {
    let ours = value
        .to_json()
        .map_err(|error| TestCaseError::fail(error.to_string()))?;
    let theirs =
        serde_json::to_vec(value).map_err(|error| TestCaseError::fail(error.to_string()))?;
    prop_assert!(
        ours == theirs,
        "{what}: {} != {}",
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
    let mut buffer = b"kept".to_vec();
    value
        .write_json(&mut buffer)
        .map_err(|error| TestCaseError::fail(error.to_string()))?;
    prop_assert!(
        buffer.starts_with(b"kept") && buffer[4..] == theirs[..],
        "{what}: write_json"
    );
    Ok(())
}

fn every_body_and_fragment(record: &[StoredMessage], vision: Vision) -> Result<(), TestCaseError> {
    let tools = [Tool::new(
        "read_file",
        "Reads \"a\" file.\n",
        r#"{"type": "object", "properties": {"path": {"type": "string"}}}"#,
    )
    .unwrap()];
    let live = [StoredMessage::user("Go on \u{2028} \"now\".")];
    let claude = image_tokens("claude").unwrap();
    let plain = Turn::new(record).live(&live).vision(vision);
    let turns = [
        plain.clone(),
        plain
            .clone()
            .tools(&tools)
            .cache(Cache::FiveMinutes)
            .instructions("Be\tbrief."),
        plain.clone().budget(Budget::new(400, claude)),
    ];
    for provider in Provider::ALL {
        for turn in &turns {
            if let Ok(body) = provider.body(turn) {
                same(&format!("{provider} body"), &body)?;
            }
        }
    }
    let wire = replay_messages(record, vision);
    same("openai fragment", &openai::render(&wire))?;
    same("responses fragment", &openai_responses::render(&wire))?;
    same("anthropic fragment", &anthropic::render(&wire))?;
    same("gemini fragment", &gemini::render(&wire))?;
    same("bedrock fragment", &bedrock::render(&wire))?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_body_and_fragment_is_written_as_serde_json_writes_it(record in records::record(), sees in any::<bool>()) {
        let vision = if sees { Vision::Sees } else { Vision::Blind };
        every_body_and_fragment(&record, vision)?;
    }
}

#[test]
fn hostile_strings_are_written_as_serde_json_writes_them() {
    let mut texts: Vec<String> = (0u8..0x20).map(|byte| format!("\\u{byte:04x}")).collect();
    texts.extend(
        [
            "\\ud83d\\ude00",
            "\\u2028\\u2029",
            "\\\"\\\\/\\b\\f\\n\\r\\t",
            "\\u007f\\u0080\\u00ff",
            "a\\\"bcdefg\\\\hijklmno\\\"",
        ]
        .map(str::to_owned),
    );
    // Each escape at every place in a word of eight bytes, and runs of them.
    let mut strings = Vec::new();
    for text in &texts {
        for offset in 0..9 {
            strings.push(format!(
                "{}{text}{}",
                "x".repeat(offset),
                "yz".repeat(offset)
            ));
        }
    }
    strings.push(texts.concat());
    let blocks: Vec<String> = strings
        .iter()
        .map(|text| {
            format!(
                r#"{{"type":"text","text":"{text}"}},{{"type":"tool_use","id":"t{text}","name":"bash","input":"{text}"}},{{"type":"tool_use","id":"j","name":"bash","input":{{"k{text}":["{text}"]}}}},{{"type":"tool_result","tool_use_id":"t","tool_name":"bash","output":"{text}","is_error":false}},{{"type":"reasoning","reasoning":"{text}"}}"#
            )
        })
        .collect();
    let record = format!(
        r#"[{{"role":"user","blocks":[{{"type":"text","text":"start"}}]}},{{"role":"assistant","blocks":[{}]}}]"#,
        blocks.join(",")
    );
    let record = parse_record(&record).unwrap();
    for vision in [Vision::Sees, Vision::Blind] {
        every_body_and_fragment(&record, vision).unwrap();
    }
}
