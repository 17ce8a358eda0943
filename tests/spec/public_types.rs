//! Every public type can cross threads, and the wire types stay small.

use transcript_replay::{
    anthropic, cost::ModelFamily, gemini, openai, wire::Image, wire::Part, wire::Piece,
    wire::Reason, wire::Text, wire::WireRole, Auth, Block, Provider, RecordError as Error, Request,
    Role, StoredMessage, TokenUsage, Vision, WireMessage,
};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<StoredMessage>();
    assert_send_sync::<Role>();
    assert_send_sync::<Block>();
    assert_send_sync::<TokenUsage>();
    assert_send_sync::<Error>();
    assert_send_sync::<Vision>();
    assert_send_sync::<WireMessage<'static>>();
    assert_send_sync::<WireRole>();
    assert_send_sync::<Part<'static>>();
    assert_send_sync::<Text<'static>>();
    assert_send_sync::<Piece<'static>>();
    assert_send_sync::<Image<'static>>();
    assert_send_sync::<Reason>();
    assert_send_sync::<Provider>();
    assert_send_sync::<Request>();
    assert_send_sync::<Auth>();
    assert_send_sync::<ModelFamily>();
    assert_send_sync::<openai::Request<'static>>();
    assert_send_sync::<anthropic::Request<'static>>();
    assert_send_sync::<gemini::Request<'static>>();
    // What an agent loop holds across an `.await` in a spawned task (docs/design.md#request).
    assert_send_sync::<transcript_replay::Turn<'static>>();
    assert_send_sync::<transcript_replay::Budget<'static>>();
    assert_send_sync::<transcript_replay::AnyBody<'static>>();
    assert_send_sync::<openai::Body<'static>>();
    assert_send_sync::<anthropic::Body<'static>>();
    assert_send_sync::<gemini::Body<'static>>();
    assert_send_sync::<transcript_replay::bedrock::Body<'static>>();
    assert_send_sync::<transcript_replay::openai_responses::Body<'static>>();
    assert_send_sync::<transcript_replay::Reply>();
    assert_send_sync::<transcript_replay::Call<'static>>();
    assert_send_sync::<transcript_replay::ReplyError>();
    assert_send_sync::<transcript_replay::BodyError>();
    assert_send_sync::<transcript_replay::StreamReader>();
    assert_send_sync::<transcript_replay::StreamError>();
    assert_send_sync::<transcript_replay::ProviderError>();
    assert_send_sync::<transcript_replay::Failure>();
    assert_send_sync::<transcript_replay::ToolOutput>();
    assert_send_sync::<transcript_replay::Tool>();
    assert_send_sync::<transcript_replay::ToolChoice>();
    assert_send_sync::<transcript_replay::Dialect>();
    assert_send_sync::<transcript_replay::ConversationFile>();
    assert_send_sync::<transcript_replay::cost::Estimate>();
    assert_send_sync::<transcript_replay::cost::Withheld>();
    assert_send_sync::<transcript_replay::cost::Forecast>();
    assert_send_sync::<transcript_replay::models::Model>();
    assert_send_sync::<transcript_replay::models::Prices>();
    assert_send_sync::<transcript_replay::models::Tier>();
}

#[test]
fn a_turn_can_be_held_across_an_await_in_a_spawned_task() {
    // A spawned task's future must be Send: one that holds a turn and a body across an
    // await point is, when the turn and the body are.
    fn spawnable<F: std::future::Future + Send + 'static>(_: F) {}
    spawnable(async {
        let history = vec![StoredMessage::user("Hi.")];
        let count = |text: &str| text.len() / 4;
        let turn = transcript_replay::Turn::new(&history).budget(
            transcript_replay::Budget::new(
                1000,
                transcript_replay::cost::image_tokens("claude").unwrap(),
            )
            .counting_with(&count),
        );
        let body = Provider::Anthropic.body(&turn).unwrap();
        std::future::ready(()).await;
        serde_json::to_vec(&body).unwrap()
    });
}

#[test]
fn the_error_type_is_a_std_error() {
    fn assert_error<T: std::error::Error + 'static>() {}
    assert_error::<Error>();
    assert_error::<transcript_replay::Failure>();
}

#[test]
fn one_failure_is_two_words_so_a_result_of_it_stays_small() {
    // Clippy's `result_large_err` warns past 128 bytes; a loop's `Result<_, Failure>` is far
    // under it.
    assert!(
        std::mem::size_of::<transcript_replay::Failure>() <= 16,
        "{}",
        std::mem::size_of::<transcript_replay::Failure>()
    );
}

#[test]
fn wire_parts_stay_small() {
    // A part is a vector of borrowed pieces or two borrowed strings, and a piece borrowed
    // strings and a few numbers: replay copies no bytes. (A marker's reason names its
    // provider, which for a compatible server is a reference to its dialect: 16 bytes, so a
    // file marker's piece is 64.)
    assert!(
        std::mem::size_of::<Part<'static>>() <= 40,
        "{}",
        std::mem::size_of::<Part<'static>>()
    );
    assert!(
        std::mem::size_of::<Piece<'static>>() <= 64,
        "{}",
        std::mem::size_of::<Piece<'static>>()
    );
}
