//! The agent loop a new user writes on the crate's public API, for the five providers and one
//! OpenAI-compatible dialect, run against canned replies (no network):
//!
//! ```text
//! cargo run -p transcript-replay-conformance --example agent_loop
//! ```
//!
//! Between `// loop: begin` and `// loop: end` is what a user hand-writes: the request, the
//! streamed reply, the tool rounds, the stored turn, compaction (asked of Anthropic and
//! Responses, the runtime's own summary elsewhere), and the failures a loop acts on, each
//! asked the same questions through `Failure` (a context window overflow refitted with
//! `Turn::refit`, a rate limit waited out, a cut stream sent again). Everything else (the canned server, its streams and errors, the fake tools, the
//! stored history) is test data, in `agent_loop/canned.rs`. The loop's hand-written lines are
//! counted by `conformance/tests/conformance/agent_loop.rs`, which runs the same code.

#[path = "agent_loop/canned.rs"]
pub(crate) mod canned;

pub(crate) fn main() -> Result<(), Box<dyn std::error::Error>> {
    for provider in Provider::ALL.into_iter().chain(["groq".parse()?]) {
        let mut server = canned::Server::new(provider);
        let mut history = canned::history();
        let mut log = Log::default();
        agent_turn(
            provider,
            &mut history,
            "Which of a.rs and b.rs is empty?",
            &mut |url, headers, body| server.send(url, headers, body),
            &mut canned::run_tool,
            &mut log,
        )?;
        let stored = history.last().map_or(0, |message| message.blocks.len());
        println!(
            "{}: {} requests ({}), {} failures, refits {}, waits {:?}, rounds {}, shown {:?}, stored turn of {stored} blocks",
            provider.id(),
            log.requests.len(),
            log.requests.last().map_or("", String::as_str),
            log.failures.len(),
            log.refits,
            log.sleeps,
            log.rounds,
            log.shown,
        );
    }
    Ok(())
}

// loop: begin
use std::error::Error;
use std::time::Duration;
use transcript_replay::{
    Budget, Compaction, Delta, Failure, Priced, Provider, Reasoning, Reply, StoredMessage, Tool,
    ToolOutput, Turn,
};

/// The HTTP response as a client gives it: status, headers, and the body's bytes as they come.
pub(crate) struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    chunks: Vec<Vec<u8>>,
}

/// What the loop did besides the turn.
#[derive(Debug, Default)]
pub(crate) struct Log {
    pub(crate) requests: Vec<String>,
    pub(crate) failures: Vec<Failure>,
    pub(crate) refits: usize,
    pub(crate) sleeps: Vec<Duration>,
    pub(crate) rounds: usize,
    pub(crate) shown: String,
}

type Transport<'s> = dyn FnMut(&str, &[(String, String)], Vec<u8>) -> Response + 's;
type RunTool<'s> = dyn FnMut(&str, &str) -> Result<String, String> + 's;

const API_KEY: &str = "sk-from-your-secret-store";
const WINDOW: u64 = 200_000;
const MAX_OUTPUT: u32 = 4_096;
const MAX_REQUESTS: usize = 12;
const COMPACT_AT: u64 = 150_000;

fn model_for(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAi | Provider::OpenAiResponses => "gpt-5",
        Provider::Anthropic => "claude-sonnet-4-5",
        Provider::Gemini => "gemini-2.5-pro",
        Provider::Bedrock => "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        _ => "openai/gpt-oss-120b",
    }
}

/// One user turn: requests until the model answers without calls, then the turn stored.
pub(crate) fn agent_turn(
    provider: Provider,
    history: &mut Vec<StoredMessage>,
    ask: &str,
    send: &mut Transport<'_>,
    run_tool: &mut RunTool<'_>,
    log: &mut Log,
) -> Result<(), Box<dyn Error>> {
    let model = model_for(provider);
    let live = [StoredMessage::user(ask)];
    let mut tools = vec![
        Tool::new(
            "read",
            "Reads a file.",
            r#"{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}"#,
        )?,
        Tool::new(
            "list",
            "Lists a directory.",
            r#"{"type":"object","properties":{"dir":{"type":"string"}},"required":["dir"]}"#,
        )?,
    ];
    if matches!(provider, Provider::Anthropic | Provider::OpenAiResponses) {
        tools.push(Tool::web_search()); // run by the provider: its results come in the reply
    }
    // Compaction: the provider's own where it has one; elsewhere a summary replaces the history.
    let provider_compacts = matches!(provider, Provider::Anthropic | Provider::OpenAiResponses);
    let sized = Turn::new(history.as_slice())
        .model(model)
        .max_output(MAX_OUTPUT);
    let size = provider.estimate(&sized, provider.image_tokens_for(model))?;
    if !provider_compacts && size.anchored_tokens().unwrap_or(size.tokens()) > COMPACT_AT {
        let summary = sized.summary_request();
        let request = provider.request(&summary);
        let body = provider.body(&summary)?.to_json()?;
        let response = send(&request.url(), &request.headers_with_key(API_KEY), body);
        let reply = read_reply(provider, &response, &mut log.shown)?;
        history.push(StoredMessage::compaction(&reply));
    }
    let mut turn = Turn::new(history.as_slice())
        .instructions("You are a careful coding agent.")
        .live(&live)
        .tools(&tools)
        .model(model)
        .max_output(MAX_OUTPUT)
        .reasoning(Reasoning::Low)
        .stream(true)
        .budget(Budget::window(WINDOW, provider.image_tokens_for(model)));
    if provider_compacts {
        turn = turn.compaction(Compaction::at(COMPACT_AT));
    }
    for _ in 0..MAX_REQUESTS {
        let request = provider.request(&turn);
        let body = provider.body(&turn)?.to_json()?;
        log.requests
            .push(format!("{} {}", request.method, request.path));
        let response = send(&request.url(), &request.headers_with_key(API_KEY), body);
        let reply = match read_reply(provider, &response, &mut log.shown) {
            Ok(reply) => reply,
            Err(failure) => {
                log.failures.push(failure.clone());
                if turn.refit(&failure) {
                    log.refits += 1;
                } else if failure.is_retryable() {
                    let backoff = Duration::from_secs(1 << log.sleeps.len().min(5));
                    log.sleeps.push(failure.retry_after().unwrap_or(backoff)); // sleep here
                } else {
                    return Err(failure.into());
                }
                continue;
            }
        };
        let cut = reply.incomplete_calls();
        if !cut.is_empty() {
            return Err(format!("calls cut off by max_output: {cut:?}").into());
        }
        let outputs: Vec<ToolOutput> = (reply.calls().iter())
            .map(|call| match run_tool(call.name, call.input.as_str()) {
                Ok(output) => ToolOutput::ok(call.id, output),
                Err(error) => ToolOutput::error(call.id, error),
            })
            .collect();
        if outputs.is_empty() {
            let append = turn.messages_to_append(&reply)?;
            history.extend(append);
            return Ok(());
        }
        turn.push_round(reply, outputs);
        log.rounds += 1;
    }
    Err(format!("{provider}: no answer after {MAX_REQUESTS} requests").into())
}

/// The reply: the provider's error, or its stream read as it comes, its text shown.
fn read_reply(
    provider: Provider,
    response: &Response,
    shown: &mut String,
) -> Result<Reply, Failure> {
    if response.status != 200 {
        let body = String::from_utf8_lossy(&response.chunks.concat()).into_owned();
        return Err(provider
            .read_error(response.status, &response.headers, &body)
            .into());
    }
    let mut reader = provider.stream();
    for chunk in &response.chunks {
        for delta in reader.feed(chunk)? {
            if let Delta::Text { text, .. } = delta {
                shown.push_str(&text);
            }
        }
    }
    Ok(reader.finish()?)
}
// loop: end
