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

#[test]
fn a_long_prompt_is_priced_by_its_tier_and_an_omitted_inherited_field_is_gone() {
    use transcript_replay::{Priced, Provider, StoredMessage, Turn};
    // providers/google/models/gemini-2.5-pro.toml: `[[cost.tiers]] tier = { size = 200_000 }`
    // at $2.50 / $15.00 / $0.25.
    let prices = models::find("gemini-2.5-pro")
        .unwrap()
        .usd_per_mtok
        .unwrap();
    let above = prices.above.unwrap();
    assert_eq!(above.prompt_tokens, 200_000);
    assert_eq!(
        (
            above.prices.input,
            above.prices.output,
            above.prices.cache_read
        ),
        (2.5, 15.0, Some(0.25))
    );
    assert_eq!(prices.for_prompt(200_000), prices);
    assert_eq!(prices.for_prompt(200_001), above.prices);
    assert!(models::find("gpt-4o")
        .unwrap()
        .usd_per_mtok
        .unwrap()
        .above
        .is_none());
    // The tier is not part of the entry's JSON, whose prices are the base ones.
    let json = serde_json::to_value(models::find("gemini-2.5-pro").unwrap()).unwrap();
    assert_eq!(
        json["usd_per_mtok"],
        serde_json::json!({"input": 1.25, "output": 10.0, "cache_read": 0.125})
    );
    // A request past the tier is priced at it, a short one at the base.
    let rule = Provider::Gemini.image_tokens_for("gemini-2.5-pro");
    for (words, price) in [(10, 1.25), (300_000, 2.5)] {
        let history = [StoredMessage::user("word ".repeat(words))];
        let turn = Turn::new(&history).model("gemini-2.5-pro");
        let estimate = Provider::Gemini.estimate(&turn, rule).unwrap();
        let tokens = Provider::Gemini
            .body(&turn)
            .unwrap()
            .estimate(rule)
            .tokens();
        assert_eq!(
            estimate.usd,
            Some(tokens as f64 * price / 1_000_000.0),
            "{words}"
        );
    }
    // providers/amazon-bedrock/models/openai.gpt-5.4.toml: `base_model_omit = ["cost.tiers",
    // ..., "limit.input"]` over models/openai/gpt-5.4.toml, which has both.
    let bedrock = models::find("openai.gpt-5.4").unwrap();
    assert_eq!(bedrock.provider().id(), "bedrock");
    assert!(bedrock.input_limit.is_none());
    assert!(bedrock.usd_per_mtok.unwrap().above.is_none());
    assert!(models::find("gpt-5.4")
        .unwrap()
        .usd_per_mtok
        .unwrap()
        .above
        .is_some());
}

#[test]
fn every_first_party_model_that_sees_images_has_its_family_and_a_blind_one_none() {
    use transcript_replay::cost::MODEL_FAMILIES;
    // The image families cover the first parties' catalog: each of their models that takes
    // images is priced by the family row its id begins with (the longest), but these, which
    // no family's page names: an alias whose model moves, Gemma, GPT-4 Turbo. They take the
    // provider's default.
    let unnamed = [
        "gemini-flash-latest",
        "gemini-flash-lite-latest",
        "gemma-4-26b-a4b-it",
        "gemma-4-31b-it",
        "gpt-4-turbo",
    ];
    for model in models::all() {
        // An id several providers serve is found as its maker's.
        if !std::ptr::eq(models::find(model.id).unwrap(), model) {
            continue;
        }
        let rule = transcript_replay::cost::model_image_tokens(model.id);
        assert_eq!(rule.is_some(), model.images, "{}", model.id);
        let first_party = ["openai", "anthropic", "gemini"].contains(&model.provider().id());
        if let (Some(rule), true) = (rule, first_party) {
            let row = MODEL_FAMILIES
                .iter()
                .filter(|row| model.id.starts_with(row.prefix))
                .max_by_key(|row| row.prefix.len());
            match unnamed.contains(&model.id) {
                false => assert_eq!(row.map(|row| row.rule), Some(rule), "{}", model.id),
                true => assert_eq!(
                    rule,
                    model.provider().image_tokens_for("a-name-no-family-has"),
                    "{}",
                    model.id
                ),
            }
        }
    }
}
