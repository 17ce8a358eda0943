//! Wire messages built by hand render as the same messages built by replay would: every
//! renderer leaves out an empty text piece and joins a message's text parts into one,
//! whatever the parts it is given.

use transcript_replay::{
    anthropic, bedrock, gemini, openai, openai_responses, wire::Part, wire::Piece, wire::Text,
    wire::WireRole, WireMessage,
};

/// Every provider's rendering of `messages`, as JSON.
fn rendered(messages: &[WireMessage<'_>]) -> [String; 5] {
    let json = |value: serde_json::Result<String>| value.unwrap();
    [
        json(serde_json::to_string(&openai::render(messages))),
        json(serde_json::to_string(&openai_responses::render(messages))),
        json(serde_json::to_string(&anthropic::render(messages))),
        json(serde_json::to_string(&gemini::render(messages))),
        json(serde_json::to_string(&bedrock::render(messages))),
    ]
}

fn message(role: WireRole, parts: Vec<Part<'static>>) -> Vec<WireMessage<'static>> {
    let question = WireMessage {
        role: WireRole::User,
        content: vec![Part::Text(Text::from_pieces(vec![Piece::Text("Go on.")]))],
    };
    vec![
        WireMessage {
            role,
            content: parts,
        },
        question,
    ]
}

fn text(pieces: &[Piece<'static>]) -> Part<'static> {
    Part::Text(Text::from_pieces(pieces.to_vec()))
}

#[test]
fn a_hand_built_message_renders_as_its_plain_form_does() {
    let a = Piece::Text("a");
    let b = Piece::Text("b");
    let empty = Piece::Text("");
    // (hand built, the same message as replay builds it)
    let cases = [
        (vec![text(&[a, empty])], vec![text(&[a])]),
        (vec![text(&[empty, a, empty, b])], vec![text(&[a, b])]),
        (vec![text(&[a]), text(&[b])], vec![text(&[a, b])]),
        (vec![text(&[empty])], vec![]),
        (vec![text(&[])], vec![]),
    ];
    for role in [WireRole::System, WireRole::User, WireRole::Assistant] {
        for (hand, plain) in &cases {
            assert_eq!(
                rendered(&message(role, hand.clone())),
                rendered(&message(role, plain.clone())),
                "{role:?}: {hand:?}"
            );
        }
    }
}
