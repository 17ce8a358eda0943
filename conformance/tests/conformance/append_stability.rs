//! Every turn reuses the last: for a record R and a longer record R' that begins with R, the
//! body built for R' begins with every byte of the body for R up to the start of the provider
//! turn that carries R's last stored message, whatever the live turns were, except when the
//! set of withheld images changes.

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::value::RawValue;
use transcript_replay::{
    anthropic, bedrock, gemini, openai, openai_responses, replay_messages, Block, Role,
    StoredMessage, Turn, Vision,
};
use transcript_replay_conformance::records;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Provider {
    OpenAi,
    Anthropic,
    Gemini,
    OpenAiResponses,
    Bedrock,
}

/// The turns of a body, each as the exact text it has in the body.
#[derive(Deserialize)]
struct Turns<'a> {
    #[serde(borrow, alias = "contents", alias = "input")]
    messages: Vec<&'a RawValue>,
}

/// The byte offset in `body` at which its turn `index` starts.
fn turn_offset(body: &str, index: usize) -> usize {
    let turns: Turns<'_> = serde_json::from_str(body).unwrap();
    let turn = turns.messages[index].get();
    turn.as_ptr() as usize - body.as_ptr() as usize
}

/// The body, when the provider takes one for this record (Bedrock refuses a record whose
/// first turn is the assistant's).
fn body(provider: Provider, turn: &Turn<'_>) -> Option<String> {
    match provider {
        Provider::OpenAi => Some(text(openai::body(turn).unwrap())),
        Provider::Anthropic => Some(text(anthropic::body(turn).unwrap())),
        Provider::Gemini => Some(text(gemini::body(turn).unwrap())),
        Provider::OpenAiResponses => Some(text(openai_responses::body(turn).unwrap())),
        Provider::Bedrock => bedrock::body(turn).ok().map(text),
    }
}

fn text(body: impl serde::Serialize) -> String {
    serde_json::to_string(&body).unwrap()
}

/// The index of the body turn that carries the record's last stored message.
fn last_turn(provider: Provider, record: &[StoredMessage], vision: Vision, system: bool) -> usize {
    let wire = replay_messages(record, vision);
    match provider {
        Provider::OpenAi => usize::from(system) + openai::render(&wire).messages.len() - 1,
        Provider::Anthropic => anthropic::render(&wire).messages.len() - 1,
        Provider::Gemini => gemini::render(&wire).contents.len() - 1,
        Provider::OpenAiResponses => openai_responses::render(&wire).input.len() - 1,
        Provider::Bedrock => bedrock::render(&wire).messages.len() - 1,
    }
}

/// A live turn: some stored messages ending on a user message, as a runtime sends it.
fn live() -> impl Strategy<Value = Vec<StoredMessage>> {
    proptest::collection::vec(records::message_of(records::block()), 0..2).prop_map(|mut live| {
        live.push(StoredMessage::user("Go on."));
        live
    })
}

/// Whether a body withholds an image for a request limit: the one case where an earlier
/// turn may be rewritten.
/// Whether any of the messages holds a compaction made by `provider` (any compaction, for
/// `None`): a compaction rewrites the prefix once, where it lands.
fn compacts(messages: &[StoredMessage], provider: Option<&str>) -> bool {
    messages
        .iter()
        .flat_map(|message| &message.blocks)
        .any(|block| {
            matches!(block, Block::Compaction { provider: made_by, .. }
            if provider.is_none() || made_by.as_deref() == provider)
        })
}

fn withholds_for_a_limit(body: &str) -> bool {
    body.contains("the newest are kept]") || body.contains("the newest images are kept]")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_longer_record_keeps_every_byte_before_the_last_turn_of_the_shorter(
        record in records::record(),
        more in records::record(),
        live in live(),
        later_live in live(),
        instructions in prop_oneof![Just(String::new()), records::text()],
        vision in prop_oneof![Just(Vision::Sees), Just(Vision::Blind)],
    ) {
        // The last stored message must be a conversation turn, not hoisted system text.
        prop_assume!(record.iter().any(|message| message.role != Role::System));
        // A compaction that lands in what is appended, or in a live turn, rewrites the
        // prefix: from there on the property holds again.
        let rewritten = compacts(&more, None) || compacts(&live, None) || compacts(&later_live, None);
        let mut longer = record.clone();
        longer.extend(more);
        let before = Turn::new(&record).vision(vision).instructions(&instructions).live(&live);
        let after = Turn::new(&longer).vision(vision).instructions(&instructions).live(&later_live);
        // The preamble is on, so OpenAI's first message is always the system text.
        let system = true;
        for provider in [
            Provider::OpenAi,
            Provider::Anthropic,
            Provider::Gemini,
            Provider::OpenAiResponses,
            Provider::Bedrock,
        ] {
            // The record's own compaction, which the provider reads natively and replay does
            // not, moves its last turn.
            let native = match provider {
                Provider::Anthropic => compacts(&record, Some("anthropic")),
                Provider::OpenAiResponses => compacts(&record, Some("openai-responses")),
                Provider::OpenAi | Provider::Gemini | Provider::Bedrock => false,
            };
            if rewritten || native {
                continue;
            }
            let (Some(earlier), Some(later)) = (body(provider, &before), body(provider, &after))
            else {
                continue;
            };
            if withholds_for_a_limit(&earlier) || withholds_for_a_limit(&later) {
                continue;
            }
            let end = turn_offset(&earlier, last_turn(provider, &record, vision, system));
            let kept = &earlier[..end];
            prop_assert!(
                later.starts_with(kept),
                "{:?}: the later body differs within the first {} bytes:\n{}\n{}",
                provider, end, kept, &later[..end.min(later.len())]
            );
        }
    }
}
