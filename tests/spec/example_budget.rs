//! The example program with `--budget N` (docs/design.md#fitting): the body fitted to N tokens,
//! `--estimate` adding what was withheld, a usage error without `--model`, and bad input when
//! even the live turn does not fit.

use crate::common::{run, stdout_json};

#[test]
fn budget_fits_the_body_and_the_estimate_says_what_was_withheld() {
    let whole = stdout_json(&run(
        &["--provider", "anthropic", "--model", "m", "--estimate"],
        "",
    ));
    let tokens = whole["text_tokens"].as_u64().unwrap() + whole["image_tokens"].as_u64().unwrap();
    assert!(
        whole.get("withheld").is_none(),
        "no budget, nothing to report"
    );
    let budget = (tokens / 2).to_string();
    let fitted = stdout_json(&run(
        &[
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--budget",
            &budget,
            "--estimate",
        ],
        "",
    ));
    let used = fitted["text_tokens"].as_u64().unwrap() + fitted["image_tokens"].as_u64().unwrap();
    assert!(used <= tokens / 2, "{used} over {budget}");
    let withheld = &fitted["withheld"];
    assert_eq!(withheld["tokens"].as_u64().unwrap(), tokens - used);
    let kinds = ["outputs", "inputs", "reasoning", "images", "messages"];
    assert!(
        kinds
            .iter()
            .any(|kind| withheld[kind].as_u64().unwrap() > 0),
        "{withheld}"
    );
    // The body itself carries the markers.
    let body = run(
        &[
            "--provider",
            "anthropic",
            "--model",
            "m",
            "--budget",
            &budget,
        ],
        "",
    );
    assert!(String::from_utf8(body.stdout)
        .unwrap()
        .contains("withheld to fit the context window"));
}

#[test]
fn a_budget_the_body_fits_changes_nothing() {
    for provider in [
        "openai",
        "openai-responses",
        "anthropic",
        "gemini",
        "bedrock",
    ] {
        let plain = run(&["--provider", provider, "--model", "m"], "");
        let budgeted = run(
            &[
                "--provider",
                provider,
                "--model",
                "m",
                "--budget",
                "1000000",
            ],
            "",
        );
        assert!(
            plain.status.success() && budgeted.status.success(),
            "{provider}"
        );
        assert_eq!(plain.stdout, budgeted.stdout, "{provider}");
    }
}

#[test]
fn budget_needs_a_model_and_a_live_turn_over_it_is_bad_input() {
    for args in [
        &["--budget", "100"][..],
        &["--provider", "gemini", "--budget", "100"],
        &["--provider", "gemini", "--model", "m", "--budget", "0"],
    ] {
        assert_eq!(run(args, "").status.code(), Some(2), "{args:?}");
    }
    let output = run(
        &["--provider", "anthropic", "--model", "m", "--budget", "10"],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8(output.stderr)
        .unwrap()
        .contains("over the budget of 10"));
}
