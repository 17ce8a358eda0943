//! Image pricing by model name (docs/design.md#cost): each row of `MODEL_FAMILIES` picks its family
//! from the names that providers, Bedrock and OpenRouter really use, the longest prefix wins,
//! and a name the table does not know gets the provider's default.

use transcript_replay::{
    cost::file_tokens, cost::image_tokens, cost::MODEL_FAMILIES, Dialect, Provider,
};

/// Provider, model name as a request carries it, the family it must price by.
const GOLDEN: &[(Provider, &str, &str)] = &[
    (Provider::OpenAi, "gpt-4o-mini-2024-07-18", "gpt-4o-mini"),
    (Provider::OpenAi, "gpt-4o-2024-08-06", "gpt-4o"),
    (Provider::OpenAi, "chatgpt-4o-latest", "gpt-4o"),
    (Provider::OpenAi, "gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"),
    (Provider::OpenAi, "gpt-4.1-nano", "gpt-4.1-nano"),
    (Provider::OpenAi, "gpt-4.1-2025-04-14", "gpt-4.1"),
    (Provider::OpenAi, "gpt-4.5-preview", "gpt-4.5"),
    (Provider::OpenAiResponses, "gpt-5-mini", "gpt-5-mini"),
    (
        Provider::OpenAiResponses,
        "gpt-5-nano-2025-08-07",
        "gpt-5-nano",
    ),
    (Provider::OpenAiResponses, "gpt-5-chat-latest", "gpt-5"),
    (Provider::OpenAiResponses, "gpt-5.1", "gpt-5"),
    (Provider::OpenAi, "o1-2024-12-17", "o1"),
    (Provider::OpenAi, "o3-pro", "o3"),
    (Provider::OpenAi, "o4-mini-2025-04-16", "o4-mini"),
    (
        Provider::OpenAiResponses,
        "computer-use-preview-2025-03-11",
        "computer-use-preview",
    ),
    (Provider::Anthropic, "claude-opus-4-7", "claude-high-res"),
    (Provider::Anthropic, "claude-sonnet-4-5-20250929", "claude"),
    (Provider::Anthropic, "Claude-3-5-Sonnet-Latest", "claude"),
    (
        Provider::Bedrock,
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "claude",
    ),
    (
        Provider::Bedrock,
        "global.anthropic.claude-opus-4-7-v1:0",
        "claude-high-res",
    ),
    (
        Provider::Bedrock,
        "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0",
        "claude",
    ),
    (Provider::Gemini, "gemini-3-pro-preview", "gemini-3"),
    (Provider::Gemini, "gemini-3.1-flash-lite", "gemini-3"),
    (Provider::Gemini, "models/gemini-2.5-pro", "gemini-2"),
    (Provider::Gemini, "gemini-2.0-flash-001", "gemini-2"),
    // Through a compatible server, by the same table.
    (
        Provider::Compatible(&Dialect::OPENROUTER),
        "anthropic/claude-opus-4.7",
        "claude-high-res",
    ),
    (
        Provider::Compatible(&Dialect::OPENROUTER),
        "openai/gpt-4o-mini",
        "gpt-4o-mini",
    ),
    (
        Provider::Compatible(&Dialect::GEMINI_OPENAI),
        "gemini-2.5-flash",
        "gemini-2",
    ),
];

#[test]
fn each_model_name_prices_images_by_its_familys_rule() {
    for &(provider, model, family) in GOLDEN {
        assert_eq!(
            provider.image_tokens_for(model),
            image_tokens(family).unwrap(),
            "{provider:?} {model:?}"
        );
    }
}

#[test]
fn every_row_of_the_table_is_checked_and_names_a_known_rule_and_its_source() {
    for row in MODEL_FAMILIES {
        assert_eq!(image_tokens(row.rule.family), Some(row.rule), "{row:?}");
        assert!(row.source.starts_with("https://"), "{row:?}");
        assert_eq!(row.prefix, row.prefix.to_ascii_lowercase(), "{row:?}");
        let covered = GOLDEN.iter().any(|&(provider, model, family)| {
            family == row.rule.family
                && provider.image_tokens_for(model) == row.rule
                && model.to_ascii_lowercase().contains(row.prefix)
        });
        assert!(covered, "no golden name for {row:?}");
    }
}

#[test]
fn a_name_the_table_does_not_know_gets_the_providers_default() {
    let unknown = [
        "amazon.nova-pro-v1:0",
        "mistral-large-latest",
        "gpt-50",
        "o10",
        "",
        "🦀/.",
    ];
    for model in unknown {
        for (provider, family) in [
            (Provider::Anthropic, "claude"),
            (Provider::Bedrock, "claude"),
            (Provider::Gemini, "gemini-2"),
            (Provider::OpenAi, "gpt-4o"),
            (Provider::OpenAiResponses, "gpt-4o"),
            (Provider::Compatible(&Dialect::MISTRAL), "gpt-4o"),
        ] {
            assert_eq!(
                provider.image_tokens_for(model).family,
                family,
                "{provider:?} {model:?}"
            );
        }
    }
}

#[test]
fn the_rule_a_name_picks_prices_images_and_files() {
    // "%PDF-" and one page object.
    let pdf = "JVBERi0xLjcKPDwvVHlwZSAvUGFnZT4+";
    let gemini3 = Provider::Gemini.image_tokens_for("gemini-3-flash");
    assert_eq!(gemini3.tokens(4000, 3000), 1120);
    assert_eq!(file_tokens(gemini3, "application/pdf", pdf), 560);
    let gemini2 = Provider::Gemini.image_tokens_for("gemini-2.5-flash");
    assert_eq!(file_tokens(gemini2, "application/pdf", pdf), 258);
    let gpt = Provider::OpenAi.image_tokens_for("gpt-4o");
    assert_eq!(gpt.tokens(1024, 1024), 765);
}
