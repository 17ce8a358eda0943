//! The catalog of models: generated from the pinned models.dev files, each entry as its file
//! says (golden rows taken from those files by hand), sorted by id with the first party first,
//! every provider one the crate speaks to, and no entry without a window or an output limit; a
//! model the catalog does not hold is none, never a guess.

use transcript_replay::models;

#[test]
fn entries_are_what_their_models_dev_files_say() {
    // (id, provider, window, input limit, output, images, pdf, reasoning, input $, output $,
    // cache read $, cache write $), from providers/<provider>/models/<id>.toml at the pinned
    // commit.
    let golden = [
        (
            "gpt-4o",
            "openai",
            128_000,
            None,
            16_384,
            true,
            true,
            false,
            2.5,
            10.0,
            Some(1.25),
            None,
        ),
        (
            "claude-sonnet-4-5",
            "anthropic",
            200_000,
            None,
            64_000,
            true,
            true,
            true,
            3.0,
            15.0,
            Some(0.3),
            Some(3.75),
        ),
        (
            "deepseek-chat",
            "deepseek",
            1_000_000,
            None,
            384_000,
            false,
            false,
            false,
            0.14,
            0.28,
            Some(0.0028),
            None,
        ),
        (
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "bedrock",
            200_000,
            None,
            64_000,
            true,
            true,
            true,
            3.0,
            15.0,
            Some(0.3),
            Some(3.75),
        ),
    ];
    for (
        id,
        provider,
        window,
        input,
        output,
        images,
        pdf,
        reasoning,
        usd_in,
        usd_out,
        read,
        write,
    ) in golden
    {
        let model = models::find(id).unwrap_or_else(|| panic!("{id} is in the catalog"));
        assert_eq!(model.id, id);
        assert_eq!(model.provider().id(), provider, "{id}");
        assert_eq!(
            (model.context_window, model.input_limit, model.max_output),
            (window, input, output),
            "{id}"
        );
        assert_eq!(
            (model.images, model.pdf, model.reasoning),
            (images, pdf, reasoning),
            "{id}"
        );
        let prices = model.usd_per_mtok.unwrap();
        assert_eq!(
            (
                prices.input,
                prices.output,
                prices.cache_read,
                prices.cache_write
            ),
            (usd_in, usd_out, read, write),
            "{id}"
        );
        assert!(
            model
                .source()
                .contains("at commit f3fc692299671838c7c65fd8126bf84d81a2e817"),
            "{id}"
        );
    }
}

#[test]
fn the_catalog_is_sorted_its_providers_are_the_crates_and_it_guesses_nothing() {
    let all = models::all();
    assert!(all.len() > 500, "{} models", all.len());
    assert!(all.windows(2).all(|pair| pair[0].id <= pair[1].id));
    for model in all {
        let provider: Result<transcript_replay::Provider, _> = serde_json::to_value(model).unwrap()
            ["provider"]
            .as_str()
            .unwrap()
            .parse();
        assert_eq!(
            provider.map(|provider| provider.id()),
            Ok(model.provider().id()),
            "{}",
            model.id
        );
        assert!(
            model.context_window > 0 && model.max_output > 0,
            "{}",
            model.id
        );
        assert!(
            model
                .input_limit
                .is_none_or(|limit| limit < model.context_window),
            "{}",
            model.id
        );
    }
    // The maker first where several serve one id.
    assert_eq!(models::find("gpt-4o").unwrap().provider().id(), "openai");
    assert!(models::find("gpt-4o-but-not-quite").is_none());
    assert!(models::find("").is_none());
}

#[test]
fn a_model_serializes_with_its_absent_members_left_out() {
    let model = models::find("gpt-4o").unwrap();
    assert_eq!(
        serde_json::to_string(model).unwrap(),
        r#"{"id":"gpt-4o","provider":"openai","context_window":128000,"max_output":16384,"images":true,"pdf":true,"reasoning":false,"tool_calls":true,"structured_output":true,"usd_per_mtok":{"input":2.5,"output":10.0,"cache_read":1.25},"source":"models.dev providers/openai/models/gpt-4o.toml at commit f3fc692299671838c7c65fd8126bf84d81a2e817 (2026-07-02)"}"#
    );
    let output = crate::common::run(&["--model-info", "gpt-4o"], "");
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("{}\n", serde_json::to_string(model).unwrap())
    );
    let unknown = crate::common::run(&["--model-info", "no-such-model"], "");
    assert_eq!(unknown.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("\"no-such-model\""));
}

#[test]
fn a_model_gives_its_budget_its_vision_its_output_limit_and_its_dollars() {
    use transcript_replay::{
        cost::image_tokens, Budget, Priced, Provider, StoredMessage, Turn, Vision,
    };
    // The window, less the turn's max_output; an input limit where the model has one.
    assert_eq!(
        Budget::for_model("claude-sonnet-4-5").unwrap().tokens(),
        200_000
    );
    let gpt5 = models::find("gpt-5").unwrap();
    assert_eq!(
        Budget::for_model("gpt-5").unwrap().tokens(),
        gpt5.input_limit.unwrap_or(gpt5.context_window)
    );
    assert!(Budget::for_model("no-such-model").is_none());
    assert_eq!(Vision::for_model("claude-sonnet-4-5"), Some(Vision::Sees));
    assert_eq!(Vision::for_model("deepseek-chat"), Some(Vision::Blind));
    // The output limit, capped at the model's, whichever builder comes first.
    let history = [StoredMessage::user("Hi")];
    for turn in [
        Turn::new(&history).model("gpt-4o").max_output(1_000_000),
        Turn::new(&history).max_output(1_000_000).model("gpt-4o"),
    ] {
        let body = serde_json::to_value(Provider::OpenAi.body(&turn).unwrap()).unwrap();
        assert_eq!(body["max_completion_tokens"], 16_384);
    }
    let unknown = Turn::new(&history).model("m").max_output(1_000_000);
    let body = serde_json::to_value(Provider::OpenAi.body(&unknown).unwrap()).unwrap();
    assert_eq!(body["max_completion_tokens"], 1_000_000);
    // Dollars: the input at the model's price.
    let turn = Turn::new(&history).model("gpt-4o");
    let rule = image_tokens("gpt-4o").unwrap();
    let estimate = Provider::OpenAi.estimate(&turn, rule).unwrap();
    let tokens = Provider::OpenAi
        .body(&turn)
        .unwrap()
        .estimate(rule)
        .tokens();
    assert_eq!(estimate.usd, Some(tokens as f64 * 2.5 / 1_000_000.0));
    let none = Provider::OpenAi.estimate(&unknown, rule).unwrap();
    assert_eq!(none.usd, None);
    assert!(!serde_json::to_string(&none).unwrap().contains("usd"));
}
