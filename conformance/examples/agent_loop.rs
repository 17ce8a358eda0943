//! The agent loop a new user writes on the crate's public API, for the five providers and one
//! OpenAI-compatible dialect, run against canned replies (no network):
//!
//! ```text
//! cargo run -p transcript-replay-conformance --example agent_loop
//! ```
//!
//! Between `// loop: begin` and `// loop: end` is what a user hand-writes: the request, the
//! streamed reply, the tool rounds, the stored turn, and the errors a loop acts on (a context
//! window overflow refitted with a smaller budget, a rate limit waited out, a cut stream sent
//! again). Everything else (the canned server, its streams and errors, the fake tools, the
//! stored history) is test data, in `agent_loop/canned.rs`. The loop's hand-written lines are
//! counted by `conformance/tests/agent_loop.rs`, which runs the same code.

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
            "{}: {} requests ({}), {} errors, refits {:?}, waits {:?}, cut streams {}, rounds {}, shown {:?}, stored turn of {stored} blocks",
            provider.id(),
            log.requests.len(),
            log.requests.last().map_or("", String::as_str),
            log.errors.len(),
            log.refits,
            log.sleeps,
            log.cut_streams,
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
    errors::BodyErrorKind, errors::ErrorKind, errors::ToolError, Auth, Budget, Delta, Priced,
    Provider, ProviderError, Reasoning, Reply, Request, StoredMessage, StreamError, Tool,
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
    pub(crate) errors: Vec<ProviderError>,
    pub(crate) refits: Vec<(u64, u64)>,
    pub(crate) sleeps: Vec<Duration>,
    pub(crate) cut_streams: usize,
    pub(crate) rounds: usize,
    pub(crate) shown: String,
}

type Transport<'s> = dyn FnMut(&str, &[(String, String)], Vec<u8>) -> Response + 's;
type RunTool<'s> = dyn FnMut(&str, &str) -> Result<String, String> + 's;

pub(crate) const BASE_URL: &str = "https://llm.example";
const API_KEY: &str = "sk-from-your-secret-store";
const WINDOW: u64 = 200_000;
const MAX_OUTPUT: u32 = 4_096;
const MAX_REQUESTS: usize = 12;

fn model_for(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAi | Provider::OpenAiResponses => "gpt-5",
        Provider::Anthropic => "claude-sonnet-4-5",
        Provider::Gemini => "gemini-2.5-pro",
        Provider::Bedrock => "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        _ => "openai/gpt-oss-120b",
    }
}

fn tools() -> Result<Vec<Tool>, ToolError> {
    Ok(vec![
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
    ])
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
    let images = provider.image_tokens_for(model);
    let live = [StoredMessage::user(ask)];
    let tools = tools()?;
    let mut budget = WINDOW - u64::from(MAX_OUTPUT);
    let mut turn = Turn::new(history.as_slice())
        .instructions("You are a careful coding agent.")
        .live(&live)
        .tools(&tools)
        .model(model)
        .max_output(MAX_OUTPUT)
        .reasoning(Reasoning::Low)
        .stream(true)
        .budget(Budget::new(budget, images));
    let mut sent = 0;
    let last = loop {
        sent += 1;
        if sent > MAX_REQUESTS {
            return Err(format!("{provider}: no answer after {MAX_REQUESTS} requests").into());
        }
        let request = provider.request(&turn);
        let (body, estimate) = match provider.body(&turn) {
            Ok(body) => {
                let estimate = body.estimate(images);
                (
                    body.to_json()?,
                    estimate.text_tokens as u64 + estimate.image_tokens,
                )
            }
            Err(error) => match error.kind() {
                BodyErrorKind::OverBudget { over, parts, .. } => {
                    let largest = parts.first().map_or("", |(part, _)| part.as_str());
                    return Err(format!("{over} tokens over the budget, {largest} first").into());
                }
                _ => return Err(error.into()),
            },
        };
        log.requests
            .push(format!("{} {}", request.method, request.path));
        let response = send(
            &format!("{BASE_URL}{}", request.path),
            &headers(&request)?,
            body,
        );
        if response.status != 200 {
            let headers: Vec<(&str, &str)> = (response.headers.iter())
                .map(|(name, value)| (name.as_str(), value.as_str()))
                .collect();
            let text = String::from_utf8_lossy(&response.chunks.concat()).into_owned();
            let error = provider.read_error(response.status, &headers, &text);
            log.errors.push(error.clone());
            if error.kind == ErrorKind::ContextWindowExceeded {
                // Scale what was sent by how far over the provider counted it; else halve it.
                let smaller = match (error.used, error.limit) {
                    (Some(used), Some(limit)) => {
                        limit.saturating_sub(u64::from(MAX_OUTPUT)) * estimate / used.max(1)
                    }
                    _ => estimate / 2,
                };
                log.refits.push((budget, smaller));
                budget = smaller;
                turn = turn.budget(Budget::new(budget, images));
            } else if error.retryable {
                let backoff = Duration::from_secs(1 << log.sleeps.len().min(5));
                log.sleeps.push(error.retry_after.unwrap_or(backoff)); // sleep here
            } else {
                return Err(error.into());
            }
            continue;
        }
        let reply = match read_stream(provider, &response.chunks, &mut log.shown) {
            Ok(reply) => reply,
            Err(error) if error.is_retryable() => {
                log.cut_streams += 1; // take back what was shown, and send again
                continue;
            }
            Err(error) => return Err(error.into()),
        };
        if !reply.incomplete_calls().is_empty() {
            return Err(format!(
                "calls cut off by max_output: {:?}",
                reply.incomplete_calls()
            )
            .into());
        }
        let outputs: Vec<ToolOutput> = (reply.calls().iter())
            .map(|call| match run_tool(call.name, call.input.as_str()) {
                Ok(output) => ToolOutput::ok(call.id, output),
                Err(error) => ToolOutput::error(call.id, error),
            })
            .collect();
        if outputs.is_empty() {
            break reply;
        }
        turn.push_round(reply, outputs);
        log.rounds += 1;
    };
    let append = turn.messages_to_append(&last)?;
    history.extend(append);
    Ok(())
}

/// The headers to send: the provider's, and the key where it goes.
fn headers(request: &Request) -> Result<Vec<(String, String)>, Box<dyn Error>> {
    let mut headers: Vec<(String, String)> = (request.headers.iter())
        .map(|(name, value)| (name.to_string(), value.clone()))
        .collect();
    match request.auth {
        Auth::Bearer => headers.push(("authorization".into(), format!("Bearer {API_KEY}"))),
        Auth::XApiKey => headers.push(("x-api-key".into(), API_KEY.into())),
        Auth::XGoogApiKey => headers.push(("x-goog-api-key".into(), API_KEY.into())),
        Auth::Sigv4 => {} // signed over method, path, headers and body by an AWS SigV4 signer
        _ => return Err(format!("no signer for {:?}", request.auth).into()),
    }
    Ok(headers)
}

/// The streamed reply, its text shown as it comes.
fn read_stream(
    provider: Provider,
    chunks: &[Vec<u8>],
    shown: &mut String,
) -> Result<Reply, StreamError> {
    let mut reader = provider.stream();
    for chunk in chunks {
        for delta in reader.feed(chunk)? {
            if let Delta::Text { text, .. } = delta {
                shown.push_str(&text);
            }
        }
    }
    reader.finish()
}
// loop: end
