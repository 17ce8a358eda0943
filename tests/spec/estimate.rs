//! What a history costs before it is sent: image tokens reproduce each provider's published
//! worked examples; a body's estimate counts exactly its bytes, its text parts and its native
//! images; a withheld image costs its marker's text.

use transcript_replay::{
    anthropic, cost::image_tokens, cost::ImageRule, cost::IMAGE_TOKENS, openai, Block, Priced,
    Role, StoredMessage, Turn,
};

#[test]
fn image_tokens_reproduce_the_providers_worked_examples() {
    // (family, width, height, tokens, where the example is published)
    let cases = [
        (
            "claude",
            200,
            200,
            64,
            "Anthropic vision guide: 200x200 is 64 tokens",
        ),
        (
            "claude",
            1000,
            1000,
            1296,
            "Anthropic vision guide: 1000x1000 is 1296 tokens",
        ),
        (
            "claude",
            1092,
            1092,
            1521,
            "Anthropic vision guide: 1092x1092 is 1521 tokens",
        ),
        (
            "claude",
            1920,
            1080,
            1560,
            "Anthropic vision guide: 1920x1080 becomes 1456x819, 1560 tokens",
        ),
        (
            "claude",
            1075,
            1520,
            1551,
            "Anthropic vision guide: A4 1075x1520 becomes 924x1307",
        ),
        (
            "gpt-4o",
            1024,
            1024,
            765,
            "OpenAI vision guide: 1024x1024 at high detail is 765",
        ),
        (
            "gpt-4o",
            2048,
            4096,
            1105,
            "OpenAI vision guide: 2048x4096 at high detail is 1105",
        ),
        (
            "gpt-5",
            1024,
            1024,
            630,
            "OpenAI vision guide: gpt-5 base 70, 140 a tile, 4 tiles",
        ),
        (
            "gpt-4.1-mini",
            1024,
            1024,
            1659,
            "OpenAI vision guide: 1024 patches times 1.62",
        ),
        (
            "gpt-4.1-mini",
            1800,
            2400,
            2353,
            "OpenAI vision guide: 1800x2400 is 1452 patches, times 1.62",
        ),
        ("gpt-4.1-nano", 1800, 2400, 3572, "1452 patches times 2.46"),
        (
            "gemini-2",
            384,
            384,
            258,
            "Gemini token guide: both sides at most 384 px is 258",
        ),
        (
            "gemini-2",
            1024,
            1024,
            1032,
            "Gemini token guide: four 768x768 tiles of 258",
        ),
        (
            "gemini-3",
            4000,
            3000,
            1120,
            "Gemini media resolution: HIGH, the default for images",
        ),
        (
            "gemini-3-low",
            4000,
            3000,
            280,
            "Gemini media resolution: LOW",
        ),
    ];
    let mut failures = Vec::new();
    for (family, width, height, tokens, example) in cases {
        let rule = image_tokens(family).unwrap();
        let got = rule.tokens(width, height);
        if got != tokens {
            failures.push(format!(
                "{family} {width}x{height}: {got}, want {tokens} ({example})"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_rule_names_its_source_and_date_and_no_family_twice() {
    for (index, rule) in IMAGE_TOKENS.iter().enumerate() {
        assert!(rule.source.starts_with("https://"), "{}", rule.family);
        assert_eq!(rule.date.len(), 10, "{}", rule.family);
        assert!(
            IMAGE_TOKENS[..index]
                .iter()
                .all(|other| other.family != rule.family),
            "{} twice",
            rule.family
        );
        assert!(rule.tokens_of_unknown_size() >= rule.tokens(1, 1));
    }
}

#[test]
fn an_image_too_large_for_a_cap_costs_the_cap() {
    let claude = ImageRule::Patches28 {
        max_long_edge: 1568,
        max_tokens: 1568,
    };
    for (width, height) in [(8000, 8000), (8000, 100), (100, 8000), (1568, 1568)] {
        assert!(claude.tokens(width, height) <= 1568, "{width}x{height}");
    }
}

/// A 1x1 PNG.
const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";

#[test]
fn a_body_estimate_counts_its_bytes_its_text_parts_and_its_native_images() {
    let history = [
        StoredMessage::system("Summary: the app was opened."),
        StoredMessage::new(
            Role::User,
            vec![Block::text("Look."), Block::image("image/png", PNG)],
        ),
        StoredMessage::assistant("A dot."),
    ];
    let live = [StoredMessage::user("And now?")];
    let turn = Turn::new(&history).live(&live);
    let body = anthropic::body(&turn).unwrap();
    let bytes = serde_json::to_vec(&body).unwrap().len();
    let mut texts = Vec::new();
    let estimate = body.estimate_with(image_tokens("claude").unwrap(), |text| {
        texts.push(text.to_owned());
        1
    });
    assert_eq!(estimate.bytes, bytes);
    assert_eq!((estimate.images, estimate.image_tokens), (1, 1));
    // The system blocks (S and H), then "Look.", "A dot." and "And now?".
    assert_eq!(texts.len(), 5);
    assert_eq!(&texts[2..], ["Look.", "A dot.", "And now?"]);
    assert_eq!(texts[1], "Summary: the app was opened.");
    assert_eq!(estimate.text_tokens, 5);
    assert_eq!(estimate.messages.len(), 4);
    assert_eq!(estimate.messages[1].images, 1);
    assert!(
        estimate
            .messages
            .iter()
            .map(|cost| cost.bytes)
            .sum::<usize>()
            < bytes
    );
}

#[test]
fn a_withheld_image_costs_its_markers_text_not_image_tokens() {
    let history = [StoredMessage::new(
        Role::Assistant,
        vec![Block::image("image/png", PNG)],
    )];
    let fragment = openai::render(&transcript_replay::replay_messages(
        &history,
        transcript_replay::Vision::Sees,
    ));
    let mut texts = Vec::new();
    let estimate = fragment.estimate_with(image_tokens("gpt-4o").unwrap(), |text| {
        texts.push(text.to_owned());
        text.len()
    });
    assert_eq!((estimate.images, estimate.image_tokens), (0, 0));
    assert_eq!(
        texts,
        ["[Image (image/png) not shown: OpenAI accepts images only in user messages]"]
    );
    assert_eq!(estimate.text_tokens, texts[0].len());
}

#[test]
fn a_history_is_anchored_on_the_newest_reported_usage_and_estimated_after_it() {
    use transcript_replay::TokenUsage;
    let usage = |input, output| TokenUsage {
        input_tokens: input,
        output_tokens: output,
        ..TokenUsage::default()
    };
    let history = [
        StoredMessage::user("Read a.rs."),
        StoredMessage::assistant("It is empty.").with_usage(usage(900, 10)),
        StoredMessage::user("And b.rs?"),
        StoredMessage::assistant("One line.").with_usage(usage(1_000, 20)),
        StoredMessage::user("And c.rs?"),
    ];
    let rule = image_tokens("claude").unwrap();
    // No live turn: the history as it would be sent.
    let estimate = anthropic::body(&Turn::new(&history))
        .unwrap()
        .estimate(rule);
    let anchored = estimate.anchored.unwrap();
    assert_eq!((anchored.message, anchored.tokens), (3, 1_020));
    let last = estimate.messages.last().unwrap();
    assert_eq!(
        estimate.anchored_tokens(),
        Some(1_020 + last.text_tokens as u64)
    );
    assert!(serde_json::to_string(&estimate)
        .unwrap()
        .ends_with(r#","anchored":{"message":3,"tokens":1020}}"#));
    // Anthropic counts cache reads and writes apart from the input: the anchor adds them.
    let cached = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello.").with_usage(TokenUsage {
            cache_read_input_tokens: 500,
            cache_creation_input_tokens: 100,
            ..usage(10, 5)
        }),
    ];
    let anchored = anthropic::body(&Turn::new(&cached).live(&[StoredMessage::user("Go on.")]))
        .unwrap()
        .estimate(rule)
        .anchored
        .unwrap();
    assert_eq!(anchored.tokens, 615);
    // No message carries usage: no anchor, and none in the JSON.
    let plain = [StoredMessage::user("Hi")];
    let estimate = openai::body(&Turn::new(&plain)).unwrap().estimate(rule);
    assert_eq!(estimate.anchored, None);
    assert!(!serde_json::to_string(&estimate)
        .unwrap()
        .contains("anchored"));
}
