//! Parameters a provider rejects together are an error naming both, before any request is
//! sent: thinking with a forced tool choice (Anthropic, Claude through Bedrock), a reasoning
//! effort with a temperature other than 1 or with stop sequences (OpenAI Chat and Responses),
//! whether the turn sets each or the caller's fields say it; and no more stop sequences than
//! the provider takes (Gemini 5, OpenAI Chat 4).

use serde_json::{json, Value};
use transcript_replay::{
    errors::BodyErrorKind, errors::CallerPart, Dialect, Provider, Reasoning, StoredMessage, Tool,
    ToolChoice, Turn,
};

fn tools() -> [Tool; 1] {
    [Tool::new("ls", "Lists files.", r#"{"type": "object"}"#).unwrap()]
}

#[test]
fn thinking_with_a_forced_tool_choice_is_an_error_naming_both() {
    let history = [StoredMessage::user("List the files.")];
    let tools = tools();
    let choices = [ToolChoice::Required, ToolChoice::Tool("ls".to_owned())];
    for provider in [Provider::Anthropic, Provider::Bedrock] {
        for choice in &choices {
            let turn = Turn::new(&history)
                .max_output(4_096)
                .reasoning(Reasoning::Low)
                .tools(&tools)
                .tool_choice(choice.clone());
            let error = provider.body(&turn).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "{provider} rejects the turn's reasoning together with the turn's tool_choice \
                     (thinking takes only tool_choice auto or none: a forced tool call cannot \
                     think first): give one"
                ),
                "{provider} {choice}"
            );
            assert_eq!(
                error.kind(),
                BodyErrorKind::Caller(CallerPart::ParamsTogether {
                    first: "reasoning",
                    second: "tool_choice"
                })
            );
        }
        // Thinking beside a choice that forces nothing is written (Bedrock has no `none`).
        let free = if provider == Provider::Anthropic {
            &[ToolChoice::Auto, ToolChoice::None][..]
        } else {
            &[ToolChoice::Auto][..]
        };
        for choice in free {
            let turn = Turn::new(&history)
                .max_output(4_096)
                .reasoning(Reasoning::Low)
                .tools(&tools)
                .tool_choice(choice.clone());
            assert!(provider.body(&turn).is_ok(), "{provider} {choice}");
        }
    }
}

/// A provider, the turn's parameters as a closure, the caller's fields, and the error's text.
type Case = (Provider, fn(Turn<'_>) -> Turn<'_>, Value, &'static str);

#[test]
fn a_pair_is_seen_whether_the_turn_or_the_callers_fields_set_each() {
    let history = [StoredMessage::user("Hi.")];
    let tools = tools();
    // The turn's tool choice, beside the caller's own thinking.
    let thinking = json!({"thinking": {"type": "enabled", "budget_tokens": 2048}});
    let turn = Turn::new(&history)
        .max_output(4_096)
        .tools(&tools)
        .tool_choice(ToolChoice::Tool("ls".to_owned()))
        .fields(&thinking);
    assert_eq!(
        Provider::Anthropic.body(&turn).unwrap_err().to_string(),
        "Anthropic rejects the caller's field `thinking` together with the turn's tool_choice \
         (thinking takes only tool_choice auto or none: a forced tool call cannot think \
         first): give one"
    );
    let cases: [Case; 8] = [
        (
            Provider::Anthropic,
            |turn| turn.max_output(4_096).reasoning(Reasoning::Low),
            json!({"tools": [], "tool_choice": {"type": "any"}}),
            "Anthropic rejects the turn's reasoning together with the caller's field `tool_choice` \
             (thinking takes only tool_choice auto or none: a forced tool call cannot think \
             first): give one",
        ),
        (
            Provider::Anthropic,
            |turn| turn.max_output(4_096).reasoning(Reasoning::Low),
            json!({"temperature": 0.2}),
            "Anthropic rejects the turn's reasoning together with the caller's field \
             `temperature` (thinking takes no temperature other than 1): give one",
        ),
        (
            Provider::Bedrock,
            |turn| turn,
            json!({"additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 2048}},
                   "toolConfig": {"tools": [], "toolChoice": {"any": {}}}}),
            "Bedrock rejects the caller's field `additionalModelRequestFields.thinking` together \
             with the caller's field `toolConfig.toolChoice` (thinking takes only tool_choice \
             auto or none: a forced tool call cannot think first): give one",
        ),
        (
            Provider::OpenAi,
            |turn| turn.reasoning(Reasoning::High).temperature(0.2),
            json!({}),
            "OpenAI rejects the turn's reasoning together with the turn's temperature (a \
             reasoning model takes only the default temperature, 1): give one",
        ),
        (
            Provider::OpenAi,
            |turn| turn.reasoning(Reasoning::High).stop(&["END"]),
            json!({}),
            "OpenAI rejects the turn's reasoning together with the turn's stop (a reasoning \
             model takes no stop sequences): give one",
        ),
        (
            Provider::OpenAi,
            |turn| turn.temperature(0.0),
            json!({"reasoning_effort": "low"}),
            "OpenAI rejects the caller's field `reasoning_effort` together with the turn's \
             temperature (a reasoning model takes only the default temperature, 1): give one",
        ),
        (
            Provider::OpenAiResponses,
            |turn| turn.reasoning(Reasoning::Medium).temperature(0.7),
            json!({}),
            "OpenAI rejects the turn's reasoning together with the turn's temperature (a \
             reasoning model takes only the default temperature, 1): give one",
        ),
        (
            Provider::OpenAiResponses,
            |turn| turn.temperature(0.7),
            json!({"reasoning": {"effort": "high"}}),
            "OpenAI rejects the caller's field `reasoning.effort` together with the turn's \
             temperature (a reasoning model takes only the default temperature, 1): give one",
        ),
    ];
    for (provider, params, fields, expected) in cases {
        let turn = params(Turn::new(&history)).fields(&fields);
        let error = provider.body(&turn).unwrap_err().to_string();
        assert_eq!(error, expected, "{provider}");
    }
}

#[test]
fn what_the_provider_takes_beside_reasoning_is_written() {
    let history = [StoredMessage::user("Hi.")];
    // The default temperature, an effort of `none`, disabled thinking, and a compatible
    // server's own rules are no rejected pair.
    let written: [(Provider, Turn<'_>, Value); 5] = [
        (
            Provider::OpenAi,
            Turn::new(&history)
                .reasoning(Reasoning::Low)
                .temperature(1.0),
            json!({}),
        ),
        (
            Provider::OpenAi,
            Turn::new(&history).temperature(0.2),
            json!({"reasoning_effort": "none"}),
        ),
        (
            Provider::Anthropic,
            Turn::new(&history).max_output(4_096),
            json!({"thinking": {"type": "disabled"}, "tool_choice": {"type": "any"}, "tools": []}),
        ),
        (
            Provider::Compatible(&Dialect::GROQ),
            Turn::new(&history)
                .reasoning(Reasoning::Low)
                .temperature(0.2)
                .stop(&["END"]),
            json!({}),
        ),
        (
            Provider::Gemini,
            Turn::new(&history)
                .reasoning(Reasoning::Low)
                .temperature(0.2)
                .stop(&["END"]),
            json!({}),
        ),
    ];
    for (provider, turn, fields) in written {
        let turn = turn.fields(&fields);
        let result = provider.body(&turn);
        assert!(result.is_ok(), "{provider}: {}", result.unwrap_err());
    }
}

#[test]
fn more_stop_sequences_than_the_provider_takes_is_an_error() {
    let history = [StoredMessage::user("Hi.")];
    let six = ["a", "b", "c", "d", "e", "f"];
    // Provider, the most it takes, and the error for one more.
    let cases = [
        (
            Provider::Gemini,
            5,
            "Gemini takes at most 5 stop sequences: the turn's stop cannot be written",
        ),
        (
            Provider::OpenAi,
            4,
            "OpenAI takes at most 4 stop sequences: the turn's stop cannot be written",
        ),
    ];
    for (provider, most, expected) in cases {
        let taken = Turn::new(&history).stop(&six[..most]);
        assert!(provider.body(&taken).is_ok(), "{provider}");
        let over = Turn::new(&history).stop(&six[..=most]);
        let error = provider.body(&over).unwrap_err();
        assert_eq!(error.to_string(), expected);
        assert_eq!(
            error.kind(),
            BodyErrorKind::Caller(CallerPart::ParamNotTaken { param: "stop" })
        );
    }
}
