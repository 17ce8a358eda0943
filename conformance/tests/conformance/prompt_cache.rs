//! Anthropic prompt-cache breakpoints: at most 3 per request, valid against the schema, and
//! placed so that on agent conversations where a turn adds up to 40 blocks, at least 95% of
//! the history after the first turn is read from the cache, in a simulation of Anthropic's
//! documented cache.
//!
//! The simulated cache: a breakpoint on block `b` writes an entry for the prompt up to and
//! including `b`; it reads the longest entry written by an earlier request whose prompt is
//! the same as this one's up to a block within the 20 blocks before `b` (`b - 20` to `b`).
//! Entries never expire here (the runtime calls well within the TTL). Sizes are in bytes of
//! JSON, as an approximation of tokens.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use serde_json::{json, Value};
use transcript_replay::{anthropic, Block, Cache, ImageLimits, Role, StoredMessage, Turn};
use transcript_replay_conformance::{records, schemas};

/// A small deterministic generator, so the simulation is the same every run.
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

/// One block of a request, as the cache sees it: the prompt's identity up to and including
/// it, its size, and whether a breakpoint sits on it.
struct CacheBlock {
    prefix: u64,
    size: usize,
    breakpoint: bool,
}

/// The blocks of a body in prompt order (system, then each message's content), with the
/// identity of each prefix: the blocks without their `cache_control`, and message roles.
fn blocks(body: &Value) -> Vec<CacheBlock> {
    let mut hasher = DefaultHasher::new();
    let mut out = Vec::new();
    let mut push = |role: &str, block: &Value| {
        let mut plain = block.clone();
        let breakpoint = plain
            .as_object_mut()
            .and_then(|block| block.remove("cache_control"))
            .is_some();
        let text = plain.to_string();
        (role, &text).hash(&mut hasher);
        out.push(CacheBlock {
            prefix: hasher.finish(),
            size: text.len(),
            breakpoint,
        });
    };
    if let Some(system) = body.get("system").and_then(Value::as_array) {
        for block in system {
            push("system", block);
        }
    }
    for message in body["messages"].as_array().unwrap() {
        let role = message["role"].as_str().unwrap();
        for block in message["content"].as_array().unwrap() {
            push(role, block);
        }
    }
    out
}

/// Sends one request to the simulated cache: the bytes read from it.
fn send(cache: &mut HashSet<u64>, blocks: &[CacheBlock]) -> usize {
    let sizes: Vec<usize> = blocks
        .iter()
        .scan(0, |total, block| {
            *total += block.size;
            Some(*total)
        })
        .collect();
    let mut read = 0;
    for (at, block) in blocks
        .iter()
        .enumerate()
        .filter(|(_, block)| block.breakpoint)
    {
        let found = (at.saturating_sub(20)..=at)
            .rev()
            .find(|&earlier| cache.contains(&blocks[earlier].prefix));
        if let Some(earlier) = found {
            read = read.max(sizes[earlier]);
        }
        cache.insert(block.prefix);
    }
    read
}

/// Runs an agent conversation of `turns` turns, each adding 1 to 40 blocks (a user message,
/// then tool rounds, some with screenshots, then the answer), and returns the share of the
/// history after the first turn that was read from the cache.
fn simulate(seed: u64, turns: usize, screenshot_one_in: u64, limits: ImageLimits) -> f64 {
    let mut random = Lcg(seed);
    let mut record = vec![StoredMessage::system("Summary: the repository was cloned.")];
    let mut cache = HashSet::new();
    let (mut read, mut history) = (0usize, 0usize);
    let mut carried = 0;
    let validator = schemas::anthropic().validator("CreateMessageParams");
    for turn in 0..turns {
        let live = [StoredMessage::user(format!("Step {turn}: go on."))];
        let request = Turn::new(&record)
            .instructions("You are a careful coding agent.")
            .live(&live)
            .cache(Cache::FiveMinutes)
            .limits(limits)
            .fields(&json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}));
        let body = serde_json::to_value(anthropic::body(&request).unwrap()).unwrap();
        let blocks = blocks(&body);
        let breakpoints = blocks.iter().filter(|block| block.breakpoint).count();
        assert!(breakpoints <= 3, "{breakpoints} breakpoints");
        if turn < 3 {
            assert!(
                validator.is_valid(&body),
                "{:?}",
                schemas::errors(&validator, &body)
            );
        }
        let got = send(&mut cache, &blocks);
        if std::env::var_os("PROMPT_CACHE_TRACE").is_some() {
            println!(
                "turn {turn}: {} blocks, read {got} of {}",
                blocks.len(),
                blocks.iter().map(|b| b.size).sum::<usize>()
            );
        }
        // The history: every block but the live turn's.
        let live_size = blocks.last().map_or(0, |block| block.size);
        let total: usize = blocks.iter().map(|block| block.size).sum();
        if turn > 0 {
            read += got;
            history += total - live_size;
        }
        // The turn's own work: tool rounds (a call, then its result, some with a screenshot),
        // then the answer. Each round is 2 blocks, the answer 1, and the live
        // user message 1 plus 2 for each screenshot of the turn before (its text and image,
        // carried there); so between two requests at most 40 blocks are added.
        record.extend(live);
        let rounds = random.next(20 - carried);
        let mut screenshots = 0;
        for round in 0..rounds {
            record.push(StoredMessage::new(
                Role::Assistant,
                vec![
                    Block::text(format!("Round {round}: checking.")),
                    Block::tool_use(format!("t{turn}-{round}"), "bash", r#"{"cmd":"ls"}"#),
                ],
            ));
            let mut result = vec![Block::tool_result(
                format!("t{turn}-{round}"),
                "bash",
                "x".repeat(200 + random.next(2000) as usize),
            )];
            if random.next(screenshot_one_in) == 0 {
                screenshots += 1;
                result.push(Block::image("image/png", records::IMAGES[0]));
            }
            record.push(StoredMessage::new(Role::Tool, result));
        }
        record.push(StoredMessage::assistant(format!("Turn {turn} done.")));
        carried = screenshots;
    }
    read as f64 / history as f64
}

#[test]
fn breakpoints_let_each_turn_read_at_least_95_percent_of_its_history_from_the_cache() {
    // Agent conversations of 60 turns with a screenshot in one tool round of 12: the image
    // limits do not bind.
    for seed in [1, 2, 3] {
        let share = simulate(seed, 60, 12, anthropic::LIMITS);
        println!("seed {seed}: {share:.4} of the history read from the cache");
        assert!(share >= 0.95, "seed {seed}: {share}");
    }
}

#[test]
fn withholding_in_steps_keeps_more_of_the_cache_than_withholding_one_at_a_time() {
    // A screenshot in one tool round of 3: past 100 images the count limit binds, and each
    // change of the withheld set rewrites the request from its oldest native image on.
    let stepped = simulate(4, 80, 3, anthropic::LIMITS);
    let one_at_a_time = simulate(
        4,
        80,
        3,
        ImageLimits {
            withholding_step: Some(1),
            ..anthropic::LIMITS
        },
    );
    println!("steps of 20: {stepped:.4}; one at a time: {one_at_a_time:.4}");
    assert!(
        stepped > one_at_a_time + 0.2,
        "{stepped} vs {one_at_a_time}"
    );
}

#[test]
fn without_breakpoints_nothing_is_marked() {
    let history = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello!"),
    ];
    let live = [StoredMessage::user("Bye")];
    let body =
        serde_json::to_string(&anthropic::body(&Turn::new(&history).live(&live)).unwrap()).unwrap();
    assert!(!body.contains("cache_control"));
}
