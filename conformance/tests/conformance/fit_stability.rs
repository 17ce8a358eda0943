//! A conversation that grows to several times its budget keeps its prompt cache: over 300
//! turns of a generated agent conversation, every fitted body fits, and consecutive bodies
//! share most of their bytes, where a newest-first sliding window on the same conversation, in
//! the same run, rewrites its body on almost every turn.
//!
//! `cargo test --release -p transcript-replay-conformance --test fit_stability -- --nocapture`
//! prints the figures: the share of each body's bytes that the previous body begins with
//! (what a prefix cache reads), and how many turns rewrote more than half of the body.

use transcript_replay::{
    cost::forecast, cost::image_tokens, cost::Estimate, cost::Of, Block, Budget, Cache, Priced,
    Provider, Role, StoredMessage, ToolInput, Turn,
};
use transcript_replay_conformance::records;

/// A small deterministic generator, so the conversation is the same every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

const TURNS: usize = 300;

/// Each turn's user message and the assistant's work: reasoning, a tool call and its output
/// (now and then a screenshot), and a line of answer.
fn conversation() -> Vec<(StoredMessage, StoredMessage)> {
    let mut lcg = Lcg(7);
    let filler = |lcg: &mut Lcg, tag: String, words: u64| {
        let mut text = tag;
        for _ in 0..words {
            text.push_str(
                [
                    "fn", "let", "x", "=", "0;", "test", "session", "expiry", "\n",
                ][lcg.next(9) as usize],
            );
            text.push(' ');
        }
        text
    };
    (0..TURNS)
        .map(|n| {
            let ask = StoredMessage::user(format!("Step {n}: check the next file."));
            let words = 20 + lcg.next(80);
            let mut blocks = vec![Block::reasoning(filler(
                &mut lcg,
                format!("Plan {n}. "),
                words,
            ))];
            let words = lcg.next(60);
            let path = filler(&mut lcg, format!("src/{n}.rs "), words);
            blocks.push(Block::tool_use(
                format!("t{n}"),
                "read",
                ToolInput::json(serde_json::json!({ "path": path }).to_string()).unwrap(),
            ));
            let words = 50 + lcg.next(400);
            let output = filler(&mut lcg, format!("{n}: "), words);
            blocks.push(Block::tool_result(format!("t{n}"), "read", output));
            if lcg.next(10) == 0 {
                blocks.push(Block::image("image/png", records::IMAGES[0]));
            }
            blocks.push(Block::text(format!("Step {n} checked.")));
            (ask, StoredMessage::new(Role::Assistant, blocks))
        })
        .collect()
}

fn tokens(estimate: &Estimate) -> u64 {
    estimate.text_tokens as u64 + estimate.image_tokens
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The bodies of every turn, fitted by the budget or by a newest-first sliding window.
fn bodies(provider: Provider, budget: u64, sliding: bool) -> (Vec<Vec<u8>>, u64) {
    bodies_of(provider, budget, sliding, None)
}

/// The bodies of every turn as [`bodies`] makes them, with `model` (when given) named,
/// prompt caching and an output limit.
fn bodies_of(
    provider: Provider,
    budget: u64,
    sliding: bool,
    model: Option<&str>,
) -> (Vec<Vec<u8>>, u64) {
    fn shape<'t>(turn: Turn<'t>, model: Option<&str>) -> Turn<'t> {
        match model {
            Some(model) => turn
                .model(model)
                .max_output(1_000)
                .cache(Cache::FiveMinutes),
            None => turn,
        }
    }
    let claude = image_tokens("claude").unwrap();
    let turns = conversation();
    let mut record = vec![StoredMessage::system(
        "Summary: the repository is a web service.",
    )];
    let mut bodies = Vec::new();
    let mut largest_unbudgeted = 0;
    for (ask, work) in &turns {
        let live = [ask.clone()];
        let turn = shape(Turn::new(&record).live(&live), model);
        let bytes = match sliding {
            false => {
                let budgeted = turn.clone().budget(Budget::new(budget, claude));
                let body = provider.body(&budgeted).unwrap();
                let estimate = body.estimate(claude);
                assert!(
                    tokens(&estimate) <= budget,
                    "{provider}: {} over {budget}",
                    tokens(&estimate)
                );
                serde_json::to_vec(&body).unwrap()
            }
            true => {
                // Newest first: the most recent stored messages whose cost fits what the
                // budget leaves beside the system text and the live turn.
                let whole = provider.body(&turn).unwrap().estimate(claude);
                let mut left = budget.saturating_sub(
                    whole
                        .messages
                        .iter()
                        .filter(|cost| !matches!(cost.of, Of::History(_)))
                        .map(|cost| cost.text_tokens as u64 + cost.image_tokens)
                        .sum(),
                );
                let mut start = record.len();
                for cost in whole.messages.iter().rev() {
                    let Of::History(index) = cost.of else {
                        continue;
                    };
                    let cost = cost.text_tokens as u64 + cost.image_tokens;
                    if index == 0 || cost > left {
                        break;
                    }
                    left -= cost;
                    start = index;
                }
                // A window begins on the user's turn (Bedrock takes no other first message).
                while record
                    .get(start)
                    .is_some_and(|message| message.role != Role::User)
                {
                    start += 1;
                }
                let mut window = vec![record[0].clone()];
                window.extend(record[start..].iter().cloned());
                let turn = shape(Turn::new(&window).live(&live), model);
                let body = provider.body(&turn).unwrap();
                serde_json::to_vec(&body).unwrap()
            }
        };
        if bodies.len() + 1 == turns.len() {
            largest_unbudgeted = tokens(&provider.body(&turn).unwrap().estimate(claude));
        }
        bodies.push(bytes);
        record.push(ask.clone());
        record.push(work.clone());
    }
    (bodies, largest_unbudgeted)
}

/// The share of all bytes read from a prefix cache (each body's common prefix with the one
/// before), and the turns that rewrote more than half of their body.
fn reuse(bodies: &[Vec<u8>]) -> (f64, usize) {
    let (mut read, mut total, mut rewrites) = (0usize, 0usize, 0);
    for pair in bodies.windows(2) {
        let shared = common_prefix(&pair[0], &pair[1]);
        read += shared;
        total += pair[1].len();
        if shared * 2 < pair[1].len() {
            rewrites += 1;
        }
    }
    (read as f64 / total as f64, rewrites)
}

#[test]
fn a_fitted_conversation_keeps_its_prefix_where_a_sliding_window_rewrites_it() {
    const BUDGET: u64 = 20_000;
    println!("| provider | grows to | fitted: bytes read from the previous body | rewrites | sliding window: read | rewrites |");
    println!("|---|---:|---:|---:|---:|---:|");
    for provider in [Provider::Anthropic, Provider::OpenAi] {
        let (fitted, largest) = bodies(provider, BUDGET, false);
        let (sliding, _) = bodies(provider, BUDGET, true);
        assert!(
            largest > 3 * BUDGET,
            "the conversation grows to {largest}, several budgets"
        );
        let (fitted_read, fitted_rewrites) = reuse(&fitted);
        let (sliding_read, sliding_rewrites) = reuse(&sliding);
        println!(
            "| {} | {largest} | {:.3} | {fitted_rewrites} | {:.3} | {sliding_rewrites} |",
            provider.id(),
            fitted_read,
            sliding_read,
        );
        assert!(
            fitted_read > 0.75,
            "{provider}: fitted bodies read {fitted_read:.3}"
        );
        assert!(
            fitted_read > sliding_read + 0.3,
            "{provider}: {fitted_read:.3} against {sliding_read:.3}"
        );
        // About once per step of growth (a tenth of the budget), not on every turn.
        let steps = (largest - BUDGET) / (BUDGET / 10);
        assert!(
            fitted_rewrites as u64 <= steps + 2,
            "{provider}: {fitted_rewrites} rewrites for {steps} steps"
        );
        assert!(
            sliding_rewrites > 2 * fitted_rewrites,
            "{provider}: {sliding_rewrites} against {fitted_rewrites}"
        );
    }
}

/// The share of the input the provider's prompt cache reads, as the forecast has it, over the
/// fitted bodies and the sliding window's, with the model and prompt caching set: by each
/// provider's own rule, a fitted conversation reads most of its input from the cache.
#[test]
fn the_forecast_reads_most_of_a_fitted_conversation_from_the_cache_on_every_provider() {
    const BUDGET: u64 = 20_000;
    const MODELS: [(&str, &str); 5] = transcript_replay_conformance::CATALOG_MODELS;
    let read = |bodies: &[Vec<u8>], model: &str| {
        let (mut read, mut written, mut total) = (0u64, 0u64, 0u64);
        for pair in bodies.windows(2) {
            let text = |bytes: &Vec<u8>| String::from_utf8(bytes.clone()).unwrap();
            let cache = forecast(&text(&pair[0]), &text(&pair[1]), model).unwrap();
            read += cache.cache_read_tokens;
            written += cache.cache_write_tokens;
            total += cache.cache_read_tokens + cache.cache_write_tokens + cache.uncached_tokens;
        }
        (read as f64 / total as f64, written as f64 / total as f64)
    };
    println!("| provider | model | fitted: input read from the cache | written | sliding window: read | written |");
    println!("|---|---|---:|---:|---:|---:|");
    for (provider, model) in MODELS {
        let provider: Provider = provider.parse().unwrap();
        let (fitted, _) = bodies_of(provider, BUDGET, false, Some(model));
        let (sliding, _) = bodies_of(provider, BUDGET, true, Some(model));
        let (fitted_read, fitted_written) = read(&fitted, model);
        let (sliding_read, sliding_written) = read(&sliding, model);
        println!(
            "| {} | `{model}` | {fitted_read:.3} | {fitted_written:.3} | {sliding_read:.3} | {sliding_written:.3} |",
            provider.id()
        );
        assert!(fitted_read > 0.6, "{provider}: {fitted_read:.3}");
        assert!(
            fitted_read > sliding_read + 0.2,
            "{provider}: {fitted_read:.3} against {sliding_read:.3}"
        );
    }
}
