//! A body with a budget fits it, or is refused only when the system text and live turn alone
//! do not fit; it withholds the oldest first, class by class (outputs, inputs, reasoning,
//! images, whole messages), each marker saying the bytes it stands for; it never splits a
//! stored message and stays valid for its provider; it is the unbudgeted body byte for byte
//! when the record fits; and as a record grows, what it withholds only grows.

use proptest::prelude::*;
use serde_json::{json, Value};
use transcript_replay::{
    image_tokens, Block, Budget, Estimate, Priced, Provider, Role, StoredMessage, ToolInput, Turn,
};
use transcript_replay_conformance::{records, schemas};

/// One turn of a generated agent conversation: a user message, then the assistant's work.
#[derive(Debug, Clone)]
struct Step {
    ask: usize,
    reasoning: usize,
    input: usize,
    output: usize,
    image: bool,
    failed: bool,
}

fn step() -> impl Strategy<Value = Step> {
    (
        0usize..200,
        prop_oneof![Just(0usize), 100usize..1500],
        prop_oneof![Just(2usize), 200usize..1200],
        prop_oneof![Just(0usize), 100usize..6000],
        prop::bool::weighted(0.15),
        any::<bool>(),
    )
        .prop_map(|(ask, reasoning, input, output, image, failed)| Step {
            ask,
            reasoning,
            input,
            output,
            image,
            failed,
        })
}

/// Text of `len` bytes that names where it is, so a test can find it in a body.
fn tagged(tag: &str, len: usize) -> String {
    let mut text = format!("<{tag}>");
    while text.len() < len {
        text.push_str(" lorem ipsum");
    }
    text.truncate(len.max(tag.len() + 2));
    text
}

/// The record of a conversation: a leading summary, then each step's messages.
fn record(steps: &[Step]) -> Vec<StoredMessage> {
    let mut record = vec![StoredMessage::system(
        "Summary of earlier work: the repository was cloned.",
    )];
    for (n, step) in steps.iter().enumerate() {
        record.push(StoredMessage::user(tagged(
            &format!("ask{n}"),
            step.ask + 8,
        )));
        let mut blocks = Vec::new();
        if step.reasoning > 0 {
            blocks.push(Block::reasoning(tagged(
                &format!("think{n}"),
                step.reasoning,
            )));
        }
        let input = json!({ "path": tagged(&format!("in{n}"), step.input) }).to_string();
        blocks.push(Block::tool_use(
            format!("t{n}"),
            "run",
            ToolInput::json(input).unwrap(),
        ));
        let output = tagged(&format!("out{n}"), step.output);
        blocks.push(match step.failed {
            true => Block::tool_error(format!("t{n}"), "run", output),
            false => Block::tool_result(format!("t{n}"), "run", output),
        });
        if step.image {
            blocks.push(Block::image("image/png", records::IMAGES[0]));
        }
        blocks.push(Block::text(format!("Step {n} done.")));
        record.push(StoredMessage::new(Role::Assistant, blocks));
    }
    record
}

fn fields(provider: Provider) -> Value {
    match provider {
        Provider::Anthropic => json!({"model": "m", "max_tokens": 1024}),
        Provider::OpenAi | Provider::OpenAiResponses => json!({"model": "m"}),
        _ => json!({}),
    }
}

fn tokens(estimate: &Estimate) -> u64 {
    estimate.text_tokens as u64 + estimate.image_tokens
}

/// What the body withholds of the conversation, by tag: each output, input, reasoning and
/// image withheld in a message kept, and the steps whose messages are withheld whole.
#[derive(Debug, Default, PartialEq, Eq)]
struct Seen {
    outputs: Vec<usize>,
    inputs: Vec<usize>,
    reasoning: Vec<usize>,
    messages: usize,
}

fn seen(body: &str, steps: &[Step]) -> Seen {
    let mut seen = Seen::default();
    for (n, step) in steps.iter().enumerate() {
        let asked = body.contains(&format!("<ask{n}>"));
        let kept_work = body.contains(&format!("Step {n} done."));
        seen.messages += usize::from(!asked) + usize::from(!kept_work);
        if !kept_work {
            continue;
        }
        if step.output > 256 && !body.contains(&format!("<out{n}>")) {
            seen.outputs.push(n);
        }
        if !body.contains(&format!("<in{n}>")) {
            seen.inputs.push(n);
        }
        if step.reasoning > 256 && !body.contains(&format!("<think{n}>")) {
            seen.reasoning.push(n);
        }
    }
    seen
}

fn problems(steps: &[Step], budget: u64, provider: Provider) -> Vec<String> {
    let mut problems = Vec::new();
    let history = record(steps);
    let live = [StoredMessage::user("What is left to do?")];
    let fields = fields(provider);
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history).live(&live).fields(&fields);
    let whole = provider.body(&turn).unwrap();
    let whole_bytes = serde_json::to_string(&whole).unwrap();
    let whole_tokens = tokens(&whole.estimate(claude));
    let fitted = provider.body(&turn.clone().budget(Budget::new(budget, claude)));
    let body = match fitted {
        Ok(body) => body,
        Err(error) => {
            // Refused only when the system text and live turn alone exceed it.
            let lone = Turn::new(&history[..1]).live(&live).fields(&fields);
            let least = tokens(&provider.body(&lone).unwrap().estimate(claude));
            if least + 30 <= budget {
                problems.push(format!(
                    "refused ({error}) though the least body needs {least}"
                ));
            }
            return problems;
        }
    };
    let text = serde_json::to_string(&body).unwrap();
    let estimate = body.estimate(claude);
    let Some(withheld) = estimate.withheld else {
        return vec!["a budgeted body reports nothing".to_owned()];
    };
    if whole_tokens <= budget {
        if text != whole_bytes {
            problems
                .push("the record fits, and the body differs from the unbudgeted one".to_owned());
        }
        if withheld != Default::default() {
            problems.push(format!("the record fits, and {withheld:?} was withheld"));
        }
        return problems;
    }
    if tokens(&estimate) > budget {
        problems.push(format!(
            "{} tokens over a budget of {budget}",
            tokens(&estimate)
        ));
    }
    if withheld.tokens != whole_tokens - tokens(&estimate) {
        problems.push(format!(
            "{} tokens freed, reported {}",
            whole_tokens - tokens(&estimate),
            withheld.tokens
        ));
    }
    // The markers, and the bytes each names.
    let seen = seen(&text, steps);
    if seen.outputs.len() != withheld.outputs
        || seen.inputs.len() != withheld.inputs
        || seen.reasoning.len() != withheld.reasoning
        || seen.messages != withheld.messages
    {
        problems.push(format!("withheld {seen:?}, reported {withheld:?}"));
    }
    for &n in &seen.outputs {
        let label = if steps[n].failed { "Error" } else { "Result" };
        let marker = format!(
            "{label} (run): [output withheld to fit the context window: {} bytes]",
            steps[n].output
        );
        if !text.contains(&marker) {
            problems.push(format!("no marker {marker:?}"));
        }
    }
    // Oldest first within a class, and each class whole before the next.
    let prefix = |withheld: &[usize], eligible: &dyn Fn(usize) -> bool| {
        let eligible: Vec<usize> = (0..steps.len())
            .filter(|&n| eligible(n) && text.contains(&format!("Step {n} done.")))
            .collect();
        eligible.starts_with(withheld)
    };
    let big_output = |n: usize| steps[n].output > 256;
    let big_input = |n: usize| {
        json!({ "path": tagged(&format!("in{n}"), steps[n].input) })
            .to_string()
            .len()
            > 256
    };
    let big_reasoning = |n: usize| steps[n].reasoning > 256;
    if !prefix(&seen.outputs, &big_output)
        || !prefix(&seen.inputs, &big_input)
        || !prefix(&seen.reasoning, &big_reasoning)
    {
        problems.push(format!("not the oldest first: {seen:?}"));
    }
    let all = |withheld: &[usize], eligible: &dyn Fn(usize) -> bool| {
        (0..steps.len())
            .filter(|&n| eligible(n) && text.contains(&format!("Step {n} done.")))
            .count()
            == withheld.len()
    };
    let later = withheld.inputs + withheld.reasoning + withheld.images + withheld.messages;
    if later > 0 && !all(&seen.outputs, &big_output) {
        problems.push(format!(
            "a later class withheld before every output: {withheld:?}"
        ));
    }
    if withheld.reasoning + withheld.images + withheld.messages > 0
        && !all(&seen.inputs, &big_input)
    {
        problems.push(format!(
            "reasoning or more withheld before every input: {withheld:?}"
        ));
    }
    // Whole messages: the oldest after the summary, marked once, never split.
    if withheld.messages > 0 {
        let marker = match withheld.messages {
            1 => "[1 earlier message withheld to fit the context window]".to_owned(),
            count => format!("[{count} earlier messages withheld to fit the context window]"),
        };
        if text.matches(&marker).count() != 1 {
            problems.push(format!("no single {marker:?}"));
        }
        if !text.contains("Summary of earlier work") {
            problems.push("the leading system message was withheld".to_owned());
        }
    }
    for n in 0..steps.len() {
        // A stored message is whole or gone: its text and its ending go together.
        if text.contains(&format!("<think{n}>")) && !text.contains(&format!("Step {n} done.")) {
            problems.push(format!("step {n} split"));
        }
    }
    if !text.contains("What is left to do?") {
        problems.push("the live turn was withheld".to_owned());
    }
    // Valid for the provider.
    let value: Value = serde_json::from_str(&text).unwrap();
    match provider {
        Provider::Anthropic => problems.extend(schemas::errors(
            &schemas::anthropic().validator("CreateMessageParams"),
            &value,
        )),
        Provider::OpenAi => problems.extend(schemas::errors(
            &schemas::openai().validator("CreateChatCompletionRequest"),
            &value,
        )),
        Provider::Bedrock => problems.extend(schemas::bedrock_errors("ConverseRequest", &value)),
        _ => {}
    }
    problems
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_budgeted_body_fits_withholds_the_oldest_class_by_class_and_stays_valid(
        steps in prop::collection::vec(step(), 1..24),
        budget in 300u64..12_000,
    ) {
        for provider in [Provider::Anthropic, Provider::OpenAi, Provider::Gemini, Provider::Bedrock, Provider::OpenAiResponses] {
            let problems = problems(&steps, budget, provider);
            prop_assert!(problems.is_empty(), "{}: {:#?}", provider, problems);
        }
    }

    #[test]
    fn as_a_record_grows_what_is_withheld_only_grows_in_steps(
        steps in prop::collection::vec(step(), 4..40),
        budget in 1_500u64..8_000,
    ) {
        let claude = image_tokens("claude").unwrap();
        let live = [StoredMessage::user("What is left to do?")];
        let mut before: Option<Seen> = None;
        let mut changes = 0;
        let mut crossings = 0;
        let mut last_over = 0u64;
        for len in 1..=steps.len() {
            let history = record(&steps[..len]);
            let turn = Turn::new(&history).live(&live);
            let whole = tokens(&Provider::Anthropic.body(&turn).unwrap().estimate(claude));
            let Ok(body) = Provider::Anthropic.body(&turn.budget(Budget::new(budget, claude))) else { continue };
            let text = serde_json::to_string(&body).unwrap();
            let now = seen(&text, &steps[..len]);
            // The withheld outputs, inputs and reasoning of the steps before, and the messages.
            if let Some(before) = &before {
                let grew = now.messages >= before.messages
                    && before.outputs.iter().all(|n| now.outputs.contains(n) || 2 * n + 2 < now.messages + 1)
                    && before.inputs.iter().all(|n| now.inputs.contains(n) || 2 * n + 2 < now.messages + 1)
                    && before.reasoning.iter().all(|n| now.reasoning.contains(n) || 2 * n + 2 < now.messages + 1);
                prop_assert!(grew, "at {} steps: {:?} then {:?}", len, before, now);
                let old = |seen: &Seen| (seen.outputs.iter().filter(|&&n| n + 1 < len).count(), seen.inputs.iter().filter(|&&n| n + 1 < len).count(), seen.reasoning.iter().filter(|&&n| n + 1 < len).count(), seen.messages);
                if old(&now) != (before.outputs.len(), before.inputs.len(), before.reasoning.len(), before.messages) {
                    changes += 1;
                }
            }
            let step = budget / 10;
            let over = whole.saturating_sub(budget);
            if over / step.max(1) > last_over / step.max(1) || (over > 0 && last_over == 0) {
                crossings += 1;
            }
            last_over = over;
            before = Some(now);
        }
        // Once per step of growth, give or take the live turn's step and the first crossing.
        prop_assert!(changes <= crossings + 2, "{} changes for {} crossings", changes, crossings);
    }
}
