//! The canned side of the agent loop: a server that answers as each provider does (its error
//! bodies and headers, its streams: server-sent events, or AWS event-stream frames for
//! Bedrock), the fake tools, and the stored history. Test data, not loop logic.

use serde_json::json;
use transcript_replay::{Block, Provider, Role, StoredMessage};
use transcript_replay_conformance::streams::{self, Item, Spec};

use super::Response;

/// The window the canned model has, in its own tokens: a body's bytes over three.
pub const LIMIT: u64 = 32_768;

/// The seconds the canned rate limit asks to wait, in its `retry-after` header.
pub const RETRY_AFTER: u64 = 2;

/// A request as the server took it: the URL, the headers and the body.
pub type Sent = (String, Vec<(String, String)>, Vec<u8>);

/// What the server answers next, once a body fits its window.
enum Step {
    /// An error response: status, headers, body.
    Error(u16, Vec<(String, String)>, String),
    /// A streamed reply, whole or cut in the middle.
    Stream(Spec, bool),
}

/// A provider's server, canned: it refuses a body over its window with the provider's
/// overflow error, then follows its script.
pub struct Server {
    provider: Provider,
    script: std::vec::IntoIter<Step>,
    /// Each request it took: the URL, the headers and the body.
    pub requests: Vec<Sent>,
}

impl Server {
    /// The server of a provider, with its script: a rate limit, a cut stream, then two rounds
    /// of calls and the answer.
    pub fn new(provider: Provider) -> Self {
        let call = |id: &str, name: &str, args: &str| Item::Call {
            id: id.into(),
            name: name.into(),
            args: args.into(),
        };
        let round_1 = spec(vec![
            Item::Reasoning("List the files first.".into()),
            call("call_1", "list", r#"{"dir":"."}"#),
        ]);
        let round_2 = spec(vec![
            call("call_2", "read", r#"{"path":"a.rs"}"#),
            call("call_3", "read", r#"{"path":"b.rs"}"#),
        ]);
        let answer = spec(vec![Item::Text(
            "b.rs is empty; a.rs holds an empty main.".into(),
        )]);
        let script = vec![
            rate_limit(provider),
            Step::Stream(round_1.clone(), true),
            Step::Stream(round_1, false),
            Step::Stream(round_2, false),
            Step::Stream(answer, false),
        ];
        Server {
            provider,
            script: script.into_iter(),
            requests: Vec::new(),
        }
    }

    /// Answers a request.
    pub fn send(&mut self, url: &str, headers: &[(String, String)], body: Vec<u8>) -> Response {
        let used = body.len() as u64 / 3;
        self.requests
            .push((url.to_owned(), headers.to_vec(), body.clone()));
        if used > LIMIT {
            return overflow(self.provider, used);
        }
        match self
            .script
            .next()
            .expect("the loop asks no more than the script")
        {
            Step::Error(status, headers, body) => Response {
                status,
                headers,
                chunks: vec![body.into_bytes()],
            },
            Step::Stream(spec, cut) => {
                let mut bytes = streams::stream(self.provider, &spec, 5);
                if cut {
                    bytes.truncate(cut_at(self.provider, &bytes));
                }
                Response {
                    status: 200,
                    headers: vec![("content-type".into(), "text/event-stream".into())],
                    chunks: bytes.chunks(97).map(<[u8]>::to_vec).collect(),
                }
            }
        }
    }
}

/// Where a connection cut about half way through a stream ends it: after the last whole event
/// (a mid-event cut is read as bad JSON, not as a cut: see the ignored test).
pub fn cut_at(provider: Provider, bytes: &[u8]) -> usize {
    let half = bytes.len() / 2;
    match provider {
        Provider::Bedrock => {
            let mut end = 0;
            while let Some(prelude) = bytes.get(end..end + 4) {
                let length = u32::from_be_bytes(prelude.try_into().expect("four bytes")) as usize;
                if end + length > half {
                    break;
                }
                end += length;
            }
            end
        }
        _ => bytes[..half]
            .windows(2)
            .rposition(|pair| pair == b"\n\n")
            .map_or(0, |at| at + 2),
    }
}

fn spec(items: Vec<Item>) -> Spec {
    Spec {
        items,
        max_tokens: false,
        input_tokens: 9_000,
        output_tokens: 120,
    }
}

fn header(name: &str, value: &str) -> (String, String) {
    (name.into(), value.into())
}

/// The provider's rate limit or overload, as it sends it.
fn rate_limit(provider: Provider) -> Step {
    let retry_after = header("retry-after", &RETRY_AFTER.to_string());
    match provider {
        Provider::Anthropic => Step::Error(429, vec![retry_after], json!({"type": "error", "error": {
            "type": "rate_limit_error",
            "message": "This request would exceed the rate limit for your organization of 30,000 input tokens per minute."}}).to_string()),
        Provider::Gemini => Step::Error(503, vec![retry_after], json!({"error": {"code": 503,
            "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}).to_string()),
        // Bedrock sends no `retry-after`: the loop backs off on its own.
        Provider::Bedrock => Step::Error(
            429,
            vec![header("x-amzn-ErrorType", "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/")],
            json!({"message": "Too many requests, please wait before trying again."}).to_string(),
        ),
        _ => Step::Error(429, vec![retry_after], json!({"error": {
            "message": "Rate limit reached for gpt-5 in organization org-x on requests per min (RPM): Limit 500, Used 500, Requested 1.",
            "type": "requests", "param": null, "code": "rate_limit_exceeded"}}).to_string()),
    }
}

/// The provider's context window overflow, as it words it.
fn overflow(provider: Provider, used: u64) -> Response {
    let (headers, body) = match provider {
        Provider::OpenAi => (
            vec![],
            json!({"error": {
            "message": format!("This model's maximum context length is {LIMIT} tokens. However, your messages resulted in {used} tokens. Please reduce the length of the messages."),
            "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}),
        ),
        // Responses names no counts.
        Provider::OpenAiResponses => (
            vec![],
            json!({"error": {
            "message": "Your input exceeds the context window of this model. Please adjust your input and try again.",
            "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}}),
        ),
        Provider::Anthropic => (
            vec![],
            json!({"type": "error", "error": {"type": "invalid_request_error",
            "message": format!("prompt is too long: {used} tokens > {LIMIT} maximum")}}),
        ),
        Provider::Gemini => (
            vec![],
            json!({"error": {"code": 400, "status": "INVALID_ARGUMENT",
            "message": format!("The input token count ({used}) exceeds the maximum number of tokens allowed ({LIMIT}).")}}),
        ),
        Provider::Bedrock => (
            vec![header(
                "x-amzn-ErrorType",
                "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
            )],
            json!({"message": format!("The model returned the following errors: prompt is too long: {used} tokens > {LIMIT} maximum")}),
        ),
        // Groq names no counts.
        _ => (
            vec![],
            json!({"error": {"message": "Please reduce the length of the messages or completion.",
            "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}),
        ),
    };
    Response {
        status: 400,
        headers,
        chunks: vec![body.to_string().into_bytes()],
    }
}

/// The fake tools: `list` and `read` over two files.
pub fn run_tool(name: &str, input: &str) -> Result<String, String> {
    let input: serde_json::Value =
        serde_json::from_str(input).map_err(|error| error.to_string())?;
    match (name, input["path"].as_str()) {
        ("list", _) => Ok("a.rs\nb.rs".into()),
        ("read", Some("a.rs")) => Ok("fn main() {}".into()),
        ("read", Some("b.rs")) => Ok(String::new()),
        ("read", path) => Err(format!("no such file: {path:?}")),
        _ => Err(format!("no tool named {name}")),
    }
}

/// The stored history: thirty earlier turns, each reading a long file, about 45,000 of the
/// canned model's tokens in all, more than its window.
pub fn history() -> Vec<StoredMessage> {
    (0..30)
        .flat_map(|n| {
            let output: String = (0..150)
                .map(|line| format!("fn f{n}_{line}() {{ let x = {line}; }}\n"))
                .collect();
            [
                StoredMessage::user(format!("Read src/m{n}.rs.")),
                StoredMessage::new(
                    Role::Assistant,
                    vec![
                        Block::tool_use(
                            format!("t{n}"),
                            "read",
                            format!(r#"{{"path":"src/m{n}.rs"}}"#),
                        ),
                        Block::tool_result(format!("t{n}"), "read", output),
                        Block::text(format!("src/m{n}.rs defines 150 functions.")),
                    ],
                ),
            ]
        })
        .collect()
}
