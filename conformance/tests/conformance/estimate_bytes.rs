//! An estimate's bytes are exactly the bytes the body or fragment serializes to, for every
//! provider and generated record; the caller's counter sees each text part exactly as it is
//! sent; the default text estimate counts each text part whole, though it is fed in pieces;
//! and the per-message figures add up to the totals.

use proptest::prelude::*;
use serde_json::Value;
use transcript_replay::{
    anthropic, bedrock, cost::estimate_tokens, cost::image_tokens, cost::Estimate, gemini, openai,
    openai_responses, replay_messages, Cache, Priced, StoredMessage, Turn, Vision,
};
use transcript_replay_conformance::json::strings;
use transcript_replay_conformance::records;

/// Estimates a body or fragment and checks it against its own bytes.
fn check(name: &str, priced: &impl Priced) -> Result<(), TestCaseError> {
    let json = serde_json::to_vec(priced).unwrap();
    let value: Value = serde_json::from_slice(&json).unwrap();
    let all = strings(&value);
    let mut seen = Vec::new();
    let estimate: Estimate = priced.estimate_with(image_tokens("claude").unwrap(), |text| {
        seen.push(text.to_owned());
        text.chars().count()
    });
    prop_assert_eq!(estimate.bytes, json.len(), "{}: bytes", name);
    // Each message's bytes are those of its own JSON in the body: the system text's value,
    // then each element of the list of turns.
    let object = value.as_object().unwrap();
    let system = ["system", "systemInstruction", "instructions"]
        .iter()
        .filter_map(|key| object.get(*key));
    let turns = ["messages", "contents", "input"]
        .iter()
        .filter_map(|key| object.get(*key))
        .flat_map(|list| list.as_array().unwrap());
    let lengths: Vec<usize> = system
        .chain(turns)
        .map(|unit| serde_json::to_string(unit).unwrap().len())
        .collect();
    let measured: Vec<usize> = estimate.messages.iter().map(|cost| cost.bytes).collect();
    prop_assert_eq!(measured, lengths, "{}: message bytes", name);
    for text in &seen {
        prop_assert!(
            all.contains(&text.as_str()),
            "{}: {:?} is not a string of the body",
            name,
            text
        );
    }
    let sum = |figure: fn(&transcript_replay::cost::Cost) -> u64| {
        estimate.messages.iter().map(figure).sum::<u64>()
    };
    prop_assert_eq!(
        sum(|cost| cost.text_tokens as u64),
        estimate.text_tokens as u64,
        "{}",
        name
    );
    prop_assert_eq!(
        sum(|cost| cost.images as u64),
        estimate.images as u64,
        "{}",
        name
    );
    prop_assert_eq!(
        sum(|cost| cost.image_tokens),
        estimate.image_tokens,
        "{}",
        name
    );
    prop_assert!(
        sum(|cost| cost.bytes as u64) < estimate.bytes as u64,
        "{}",
        name
    );
    // The default estimate, fed each text in the pieces the serializers write, counts what
    // `estimate_tokens` counts of each whole text.
    prop_assert_eq!(
        priced.estimate(image_tokens("claude").unwrap()),
        priced.estimate_with(image_tokens("claude").unwrap(), estimate_tokens),
        "{}: the default estimate",
        name
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn estimated_bytes_are_the_serialized_bytes(
        record in records::record(),
        vision in prop_oneof![Just(Vision::Sees), Just(Vision::Blind)],
        cache in any::<bool>(),
    ) {
        let wire = replay_messages(&record, vision);
        check("openai fragment", &openai::render(&wire))?;
        check("anthropic fragment", &anthropic::render(&wire))?;
        check("gemini fragment", &gemini::render(&wire))?;
        check("responses fragment", &openai_responses::render(&wire))?;
        check("bedrock fragment", &bedrock::render(&wire))?;
        let live = [StoredMessage::user("Go on.")];
        let mut turn = Turn::new(&record).vision(vision).live(&live);
        if cache {
            turn = turn.cache(Cache::OneHour);
        }
        check("openai body", &openai::body(&turn).unwrap())?;
        check("anthropic body", &anthropic::body(&turn).unwrap())?;
        check("gemini body", &gemini::body(&turn).unwrap())?;
        check("responses body", &openai_responses::body(&turn).unwrap())?;
        if let Ok(body) = bedrock::body(&turn) {
            check("bedrock body", &body)?;
        }
    }
}
