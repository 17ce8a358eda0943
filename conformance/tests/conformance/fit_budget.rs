//! A body with a budget fits it, or is refused only when the system text and live turn alone
//! do not fit; it withholds the oldest first, class by class (outputs, inputs, reasoning,
//! images, the long texts of user messages, whole messages), each marker saying the bytes it
//! stands for; it never splits a stored message and stays valid for its provider; it is the
//! unbudgeted body byte for byte when the record fits; and as a record grows, on every
//! provider, also when stored system messages join it mid-record, what it withholds only
//! grows; and one large item that frees enough alone goes alone.

use proptest::prelude::*;
use serde_json::{json, Value};
use transcript_replay::{
    cost::image_tokens, cost::Estimate, Block, Budget, Priced, Provider, Role, StoredMessage,
    ToolInput, Turn,
};
use transcript_replay_conformance::{records, schemas};

/// One turn of a generated agent conversation: a user message, then the assistant's work.
#[derive(Debug, Clone)]
struct Step {
    ask: usize,
    /// Whether a stored system message (a compaction note) follows the step.
    summary: bool,
    reasoning: usize,
    input: usize,
    output: usize,
    image: bool,
    failed: bool,
}

fn step() -> impl Strategy<Value = Step> {
    (
        (
            prop_oneof![4 => 0usize..200, 1 => 300usize..3000],
            prop::bool::weighted(0.1),
        ),
        prop_oneof![Just(0usize), 100usize..1500],
        prop_oneof![Just(2usize), 200usize..1200],
        prop_oneof![Just(0usize), 100usize..6000],
        prop::bool::weighted(0.15),
        any::<bool>(),
    )
        .prop_map(
            |((ask, summary), reasoning, input, output, image, failed)| Step {
                ask,
                summary,
                reasoning,
                input,
                output,
                image,
                failed,
            },
        )
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

/// The record of a conversation: a leading summary, then each step's messages (and, after
/// some steps, a stored system message); with where each step's two messages are.
fn record(steps: &[Step]) -> (Vec<StoredMessage>, Vec<(usize, usize)>) {
    let mut record = vec![StoredMessage::system(
        "Summary of earlier work: the repository was cloned.",
    )];
    let mut places = Vec::with_capacity(steps.len());
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
        places.push((record.len() - 2, record.len() - 1));
        if step.summary {
            record.push(StoredMessage::system(format!(
                "Note {n}: the tests of step {n} passed."
            )));
        }
    }
    (record, places)
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

fn ask_len(step: &Step) -> usize {
    step.ask + 8
}

/// What the body withholds of the conversation, by step: each output, input, reasoning and
/// user text withheld in a message kept, and how many stored messages are withheld whole (the
/// oldest after the leading summary, by the marker that stands for them).
#[derive(Debug, Default, PartialEq, Eq)]
struct Seen {
    outputs: Vec<usize>,
    inputs: Vec<usize>,
    reasoning: Vec<usize>,
    texts: Vec<usize>,
    messages: usize,
}

/// How many messages the body's marker says were withheld whole.
fn marked(body: &str) -> usize {
    if body.contains("[1 earlier message withheld to fit the context window]") {
        return 1;
    }
    body.split('[')
        .filter_map(|piece| {
            let (count, rest) = piece.split_once(' ')?;
            rest.starts_with("earlier messages withheld to fit the context window]")
                .then(|| count.parse().ok())
                .flatten()
        })
        .next()
        .unwrap_or(0)
}

fn seen(body: &str, steps: &[Step], places: &[(usize, usize)]) -> Seen {
    let mut seen = Seen {
        messages: marked(body),
        ..Seen::default()
    };
    let gone = |index: usize| index >= 1 && index <= seen.messages;
    for (n, step) in steps.iter().enumerate() {
        let (ask, work) = places[n];
        if !gone(ask) && ask_len(step) > 256 && !body.contains(&format!("<ask{n}>")) {
            seen.texts.push(n);
        }
        if gone(work) {
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
    let (history, places) = record(steps);
    let live = [StoredMessage::user("What is left to do?")];
    let fields = fields(provider);
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&history).live(&live).fields(&fields);
    let whole = provider.body(&turn).unwrap();
    let whole_bytes = serde_json::to_string(&whole).unwrap();
    let whole_tokens = tokens(&whole.estimate(claude));
    let fitted_turn = turn.clone().budget(Budget::new(budget, claude));
    let fitted = provider.body(&fitted_turn);
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
    let seen = seen(&text, steps, &places);
    if seen.outputs.len() != withheld.outputs
        || seen.inputs.len() != withheld.inputs
        || seen.reasoning.len() != withheld.reasoning
        || seen.texts.len() != withheld.texts
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
    for &n in &seen.texts {
        let marker = format!(
            "[text withheld to fit the context window: {} bytes]",
            ask_len(&steps[n])
        );
        if !text.contains(&marker) {
            problems.push(format!("no marker {marker:?}"));
        }
    }
    // Oldest first within a class, and each class whole before the next: of the steps whose
    // message is kept, those eligible, in order.
    let gone = |index: usize| index >= 1 && index <= seen.messages;
    let kept_work = |n: usize| !gone(places[n].1);
    let kept_ask = |n: usize| !gone(places[n].0);
    let eligible = |eligible: &dyn Fn(usize) -> bool, kept: &dyn Fn(usize) -> bool| {
        (0..steps.len())
            .filter(|&n| eligible(n) && kept(n))
            .collect::<Vec<usize>>()
    };
    let big_output = |n: usize| steps[n].output > 256;
    let big_input = |n: usize| {
        json!({ "path": tagged(&format!("in{n}"), steps[n].input) })
            .to_string()
            .len()
            > 256
    };
    let big_reasoning = |n: usize| steps[n].reasoning > 256;
    let big_text = |n: usize| ask_len(&steps[n]) > 256;
    let outputs = eligible(&big_output, &kept_work);
    let inputs = eligible(&big_input, &kept_work);
    let reasoning = eligible(&big_reasoning, &kept_work);
    let texts = eligible(&big_text, &kept_ask);
    // In order, class by class, but for the items let go of alone: of each class, the
    // oldest first, and a class begun only once every earlier class is whole; whatever
    // breaks that order was let go of alone, and is counted so.
    let classes = [
        (&outputs, &seen.outputs),
        (&inputs, &seen.inputs),
        (&reasoning, &seen.reasoning),
        (&texts, &seen.texts),
    ];
    let mut out_of_order = 0;
    let mut earlier_whole = true;
    for (eligible, withheld) in classes {
        let prefix = eligible.iter().take_while(|n| withheld.contains(n)).count();
        out_of_order += withheld.len() - prefix;
        if !earlier_whole {
            out_of_order += prefix;
        }
        earlier_whole &= prefix == eligible.len();
    }
    if out_of_order > withheld.alone {
        problems.push(format!(
            "{out_of_order} withheld out of order, {} let go of alone: {seen:?}",
            withheld.alone
        ));
    }
    if withheld.messages > 0 && !earlier_whole {
        problems.push(format!(
            "whole messages withheld before every output, input, reasoning and long user text: {withheld:?}"
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
    for (n, &(ask, work)) in places.iter().enumerate() {
        // A stored message is whole or gone: its text and its ending go together.
        if gone(work) == text.contains(&format!("Step {n} done.")) {
            problems.push(format!(
                "step {n}'s work is neither kept nor withheld whole"
            ));
        }
        if gone(ask) && text.contains(&format!("<ask{n}>")) {
            problems.push(format!("step {n}'s ask is withheld and still there"));
        }
        if text.contains(&format!("<think{n}>")) && gone(work) {
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

/// What a body withholds of the steps before `len - 1` (the newest step's own may come and go
/// with the live turn's step), and of whole messages.
fn old(seen: &Seen, len: usize) -> (usize, usize, usize, usize, usize) {
    let before = |withheld: &[usize]| withheld.iter().filter(|&&n| n + 1 < len).count();
    (
        before(&seen.outputs),
        before(&seen.inputs),
        before(&seen.reasoning),
        before(&seen.texts),
        seen.messages,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_budgeted_body_fits_withholds_the_oldest_class_by_class_and_stays_valid(
        steps in prop::collection::vec(step(), 1..24),
        budget in 300u64..12_000,
    ) {
        for provider in Provider::ALL {
            let problems = problems(&steps, budget, provider);
            prop_assert!(problems.is_empty(), "{}: {:#?}", provider, problems);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn as_a_record_grows_what_is_withheld_only_grows_in_steps_on_every_provider(
        steps in prop::collection::vec(step(), 4..40),
        budget in 1_500u64..8_000,
    ) {
        let claude = image_tokens("claude").unwrap();
        let live = [StoredMessage::user("What is left to do?")];
        for provider in Provider::ALL {
            let fields = fields(provider);
            let mut before: Option<(Seen, Vec<(usize, usize)>)> = None;
            let mut changes = 0;
            let mut crossings = 0;
            let mut last_over = 0u64;
            for len in 1..=steps.len() {
                let (history, places) = record(&steps[..len]);
                let turn = Turn::new(&history).live(&live).fields(&fields);
                let whole = tokens(&provider.body(&turn).unwrap().estimate(claude));
                let budgeted = turn.budget(Budget::new(budget, claude));
                let Ok(body) = provider.body(&budgeted) else { continue };
                let text = serde_json::to_string(&body).unwrap();
                let now = seen(&text, &steps[..len], &places);
                // Each thing withheld before is withheld still, or gone with its message.
                if let Some((before, _)) = &before {
                    let gone = |index: usize| index >= 1 && index <= now.messages;
                    let kept_as_withheld = |withheld: &[usize], now_withheld: &[usize], place: &dyn Fn(usize) -> usize| {
                        withheld.iter().all(|&n| now_withheld.contains(&n) || gone(place(n)))
                    };
                    let work = |n: usize| places[n].1;
                    let ask = |n: usize| places[n].0;
                    let grew = now.messages >= before.messages
                        && kept_as_withheld(&before.outputs, &now.outputs, &work)
                        && kept_as_withheld(&before.inputs, &now.inputs, &work)
                        && kept_as_withheld(&before.reasoning, &now.reasoning, &work)
                        && kept_as_withheld(&before.texts, &now.texts, &ask);
                    prop_assert!(grew, "{}: at {} steps: {:?} then {:?}", provider, len, before, now);
                    let (o, i, r, t, m) = old(&now, len);
                    if (o, i, r, t, m) != (before.outputs.len(), before.inputs.len(), before.reasoning.len(), before.texts.len(), before.messages) {
                        changes += 1;
                    }
                }
                let step = budget / 10;
                let over = whole.saturating_sub(budget);
                if over / step.max(1) > last_over / step.max(1) || (over > 0 && last_over == 0) {
                    crossings += 1;
                }
                last_over = over;
                before = Some((now, places));
            }
            // Once per step of growth, give or take the live turn's step and the first crossing.
            prop_assert!(changes <= crossings + 2, "{}: {} changes for {} crossings", provider, changes, crossings);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// One large paste among tool rounds whose outputs are each withholdable: a budget that
    /// the paste alone, withheld, makes room for withholds the paste alone, on every provider,
    /// wherever the paste stands and however large it is.
    #[test]
    fn a_history_that_fits_once_one_large_item_goes_keeps_everything_else(
        rounds in 2usize..8,
        paste_at in 0usize..8,
        paste_lines in 400usize..1_500,
        room in 0.2f64..0.9,
    ) {
        let claude = image_tokens("claude").unwrap();
        let paste = "error[E0308]: mismatched types in src/lib.rs\n".repeat(paste_lines);
        let mut history = vec![StoredMessage::system("Summary of earlier work.")];
        for n in 0..rounds {
            if n == paste_at.min(rounds - 1) {
                history.push(StoredMessage::user(paste.clone()));
                history.push(StoredMessage::assistant("Noted."));
            }
            history.push(StoredMessage::user(format!("Read file {n}.")));
            history.push(StoredMessage::new(Role::Assistant, vec![
                Block::tool_use(format!("t{n}"), "read", ToolInput::json(r#"{"path":"a.rs"}"#).unwrap()),
                Block::tool_result(format!("t{n}"), "read", format!("// line {n} of the file\n").repeat(20)),
                Block::text(format!("Read file {n}.")),
            ]));
        }
        let live = [StoredMessage::user("What is left to do?")];
        for provider in Provider::ALL {
            let turn = Turn::new(&history).live(&live);
            let whole = tokens(&provider.body(&turn).unwrap().estimate(claude));
            // What withholding the paste frees, less a share of it: room for the paste alone.
            let marked: Vec<StoredMessage> = history
                .iter()
                .map(|message| match message.blocks.as_slice() {
                    [Block::Text { text }] if text == &paste => StoredMessage::user(
                        format!("[text withheld to fit the context window: {} bytes]", paste.len()),
                    ),
                    _ => message.clone(),
                })
                .collect();
            let without = tokens(&provider.body(&Turn::new(&marked).live(&live)).unwrap().estimate(claude));
            let budget = without + ((whole - without) as f64 * room) as u64;
            let budgeted = turn.clone().budget(Budget::new(budget, claude));
            let body = provider.body(&budgeted).unwrap();
            let withheld = body.estimate(claude).withheld.unwrap();
            prop_assert_eq!(
                (withheld.texts, withheld.outputs, withheld.inputs, withheld.messages),
                (1, 0, 0, 0),
                "{}: budget {} of {} (the paste withheld: {})", provider, budget, whole, without
            );
        }
    }
}
