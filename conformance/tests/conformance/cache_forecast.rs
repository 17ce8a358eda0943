//! The prompt-cache forecast on conversations that grow, repeat and diverge, on every
//! provider by its own rule: the forecast divides the next body whole (read, written and
//! uncached add up to its tokens); a body forecast against itself writes nothing and is read
//! whole but for what its rule leaves (a step's rest, or what follows the last breakpoint); a
//! body that shares no prefix with the earlier one reads nothing; an appended turn reads the
//! old body's prefix; a changed earlier message reads no more than the untouched growth.
//!
//! 64 cases a property (each case builds ten bodies on five providers).

use proptest::prelude::*;
use transcript_replay::{
    cost::estimate_tokens, cost::forecast, Block, Cache, Priced, Provider, Role, StoredMessage,
    Turn,
};
use transcript_replay_conformance::records;

const MODELS: [(&str, &str); 5] = transcript_replay_conformance::CATALOG_MODELS;

/// What a rule may leave unread of a body forecast against itself: OpenAI's step (128), and
/// after the last breakpoint the live turn and the body's closing fields.
const LEFT_UNREAD: u64 = 256;

/// Turns long enough for every rule's minimum (4,096 tokens at most), then generated
/// messages of every kind of block but a compaction, alternating user and assistant so that
/// no two stored messages join, in whole turns (a history whose last message is the user's
/// joins the live message, and a breakpoint on it caches what the next body no longer has).
fn conversation() -> impl Strategy<Value = Vec<StoredMessage>> {
    proptest::collection::vec(records::message_of(records::block_without_image()), 2..12).prop_map(
        |mut generated| {
            // Whole turns: the history before a live message ends on the model's answer.
            generated.truncate(generated.len() / 2 * 2);
            let opening = (0..24).flat_map(|n| {
                [
                    StoredMessage::user(format!(
                        "Step {n}: {}",
                        "the build log says ok and the tests pass. ".repeat(12)
                    )),
                    StoredMessage::assistant(format!("Done {n}.")),
                ]
            });
            let mut messages: Vec<StoredMessage> = opening.collect();
            for (n, mut message) in generated.into_iter().enumerate() {
                message.role = [Role::User, Role::Assistant][n % 2];
                // A compaction replaces the history: a forecast of its own, not of growth.
                message
                    .blocks
                    .retain(|block| !matches!(block, Block::Compaction { .. }));
                message.blocks.push(Block::text(format!("Turn {n}.")));
                messages.push(message);
            }
            messages
        },
    )
}

fn body(provider: Provider, model: &str, history: &[StoredMessage]) -> String {
    let live = [StoredMessage::user("Go on.")];
    let turn = Turn::new(history)
        .live(&live)
        .model(model)
        .max_output(1_000)
        .cache(Cache::FiveMinutes);
    String::from_utf8(provider.body(&turn).unwrap().to_json().unwrap()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_forecast_divides_the_next_body_whole_and_reads_itself_whole_but_for_its_rules_rest(
        history in conversation(),
    ) {
        for (provider, model) in MODELS {
            let provider: Provider = provider.parse().unwrap();
            let next = body(provider, model, &history);
            let earlier = body(provider, model, &history[..48]);
            let total = estimate_tokens(&next) as u64;
            for previous in [&earlier, &next] {
                let cache = forecast(previous, &next, model).unwrap();
                prop_assert_eq!(
                    cache.cache_read_tokens + cache.cache_write_tokens + cache.uncached_tokens,
                    total,
                    "{}", provider
                );
            }
            let same = forecast(&next, &next, model).unwrap();
            prop_assert_eq!(same.cache_write_tokens, 0, "{}", provider);
            prop_assert!(same.uncached_tokens <= LEFT_UNREAD, "{}: {:?}", provider, same);
        }
    }

    #[test]
    fn an_appended_turn_reads_the_old_prefix_and_a_stranger_reads_nothing(
        history in conversation(),
    ) {
        for (provider, model) in MODELS {
            let provider: Provider = provider.parse().unwrap();
            let cut = history.len() - 2;
            let before = body(provider, model, &history[..cut]);
            let after = body(provider, model, &history);
            let itself = forecast(&before, &before, model).unwrap();
            let appended = forecast(&before, &after, model).unwrap();
            prop_assert!(
                appended.cache_read_tokens + LEFT_UNREAD >= itself.cache_read_tokens,
                "{}: {:?} against {:?}", provider, appended, itself
            );
            let mut other = history.clone();
            other[0] = StoredMessage::user("A different conversation from its first word.");
            let stranger = body(provider, model, &other);
            let none = forecast(&stranger, &after, model).unwrap();
            prop_assert_eq!(none.cache_read_tokens, 0, "{}: {:?}", provider, none);
        }
    }

    #[test]
    fn a_changed_earlier_message_reads_no_more_than_the_untouched_growth(
        history in conversation(),
        at in 0usize..48,
    ) {
        for (provider, model) in MODELS {
            let provider: Provider = provider.parse().unwrap();
            let cut = history.len() - 2;
            let before = body(provider, model, &history[..cut]);
            let after = body(provider, model, &history);
            let mut changed = history.clone();
            changed[at] = StoredMessage::new(
                changed[at].role,
                vec![Block::text("A different message in the middle.")],
            );
            let diverged = body(provider, model, &changed);
            let untouched = forecast(&before, &after, model).unwrap();
            let less = forecast(&before, &diverged, model).unwrap();
            prop_assert!(
                less.cache_read_tokens <= untouched.cache_read_tokens,
                "{}: {:?} against {:?}", provider, less, untouched
            );
        }
    }
}
