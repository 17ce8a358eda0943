//! Replays a stored record and prints what would be sent to a model; reads a provider's reply,
//! streamed reply or error, and prints what it becomes.
//!
//! ```text
//! cargo run --example replay -- [--vision sees|blind]
//!     [--provider neutral|openai|openai-responses|anthropic|gemini|bedrock]
//!     [--pretty] [--model NAME [--system TEXT] [--no-preamble] [--live FILE] [--max-tokens N]
//!     [--cache 5m|1h] [--budget N] [--tools FILE] [--tool-choice auto|none|required|tool:NAME]
//!     [--round REPLY OUTPUTS]... [--schema FILE] [--streaming] [--request] [--region R]]
//!     [--estimate [--family NAME]]
//!     [FILE|-]
//! cargo run --example replay -- --provider PROVIDER [--round REPLY OUTPUTS]...
//!     --store-turn FINAL [--pretty]
//! cargo run --example replay -- --rewrite FILE|-
//! cargo run --example replay -- --model-info ID [--pretty]
//! cargo run --example replay -- --reply PROVIDER|openai-responses-compact [--outcome] [--pretty] FILE|-
//! cargo run --example replay -- --stream PROVIDER [--chunk N] [--outcome] [--pretty] FILE|-
//! cargo run --example replay -- --error PROVIDER STATUS [--header NAME:VALUE]... [--pretty] FILE|-
//! ```
//!
//! Reads a record (a bare array of messages, or a conversation file) from FILE, from standard
//! input for `-`, or, with no FILE, the sample conversation bundled with this example. Without
//! `--model`, prints the replayed wire messages, or the provider's history fragment; with
//! `--model`, the whole request body for the provider, with the tools declared by `--tools`
//! and the rounds of the turn in flight (`--round`, each a reply that called tools and the
//! outputs of those calls) after the live turn, asking for a streamed reply with `--streaming`;
//! with `--request`, instead of the body, the request around it (method, path, headers and
//! where the key goes, for the same provider, model and `--streaming`); with `--store-turn`,
//! the one stored message
//! those rounds and the final reply become. Bad input, a body the provider would reject, and a
//! stream that fails print the error on standard error and exit 1; bad arguments print the
//! usage and exit 2.

mod args;

use std::io::{self, Read, Write};
use std::process::ExitCode;

use serde::Serialize;
use transcript_replay::{
    cost::ImageTokens, parse_record, replay_messages, write_record, BodyError, Budget, Priced,
    Provider, Reply, StoredMessage, Tool, ToolOutput, Turn,
};

use self::args::{parse_args, Args, BodyOptions, Close, Input, Instead, Options, Task, USAGE};

/// A coding-agent session: a compaction summary, a screenshot, reasoning, tool rounds (one
/// failed), and a turn killed mid-round.
const SAMPLE: &str = include_str!("../sample-conversation.json");

fn read_bytes(input: &Input) -> Result<Vec<u8>, String> {
    match input {
        Input::Sample => Ok(SAMPLE.as_bytes().to_vec()),
        Input::Stdin => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|error| format!("cannot read standard input: {error}"))?;
            Ok(bytes)
        }
        Input::File(path) => {
            std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))
        }
    }
}

fn read_input(input: &Input, what: &str) -> Result<String, String> {
    String::from_utf8(read_bytes(input)?).map_err(|error| {
        format!(
            "{what} is not UTF-8: invalid byte at offset {}",
            error.utf8_error().valid_up_to()
        )
    })
}

/// A stored message from a file (`--store-interrupted`), read as a record's message is.
fn read_partial(input: &Input) -> Result<StoredMessage, String> {
    let text = read_input(input, "the partial reply")?;
    let mut messages = parse_record(&format!("[{text}]"))
        .map_err(|error| format!("the partial reply: {error}"))?;
    match (messages.pop(), messages.is_empty()) {
        (Some(message), true) => Ok(message),
        (Some(_), false) | (None, _) => {
            Err("the partial reply is not one stored message".to_owned())
        }
    }
}

/// The turn's neutral request parameters, which the crate writes as the provider takes them:
/// the model, the reply's token limit (Anthropic's required `max_tokens` 4096 when none is
/// given), reasoning, streaming, temperature and stop sequences.
fn with_params<'a>(
    mut turn: Turn<'a>,
    provider: Provider,
    options: &BodyOptions,
) -> Result<Turn<'a>, String> {
    turn = turn.model(&options.model).stream(options.streaming);
    let default = (provider == Provider::Anthropic).then_some(4096);
    if let Some(max) = options.max_tokens.or(default) {
        let max = u32::try_from(max).map_err(|_| format!("--max-tokens {max} is too large"))?;
        turn = turn.max_output(max);
    }
    if let Some(reasoning) = options.reasoning {
        turn = turn.reasoning(reasoning);
    }
    if let Some(temperature) = options.temperature {
        turn = turn.temperature(temperature);
    }
    if let Some(compaction) = &options.compaction {
        turn = turn.compaction(compaction.clone());
    }
    if let Some(region) = &options.region {
        turn = turn.region(region);
    }
    let stops: Vec<&str> = options.stop.iter().map(String::as_str).collect();
    if !stops.is_empty() {
        turn = turn.stop(&stops);
    }
    Ok(turn)
}

/// Prints a fragment, or, with `--estimate`, what it costs.
fn write_priced(
    out: &mut impl Write,
    priced: &impl Priced,
    family: Option<&ImageTokens>,
    pretty: bool,
) -> io::Result<()> {
    match family {
        Some(rule) => write_json(out, &priced.estimate(rule), pretty),
        None => write_json(out, priced, pretty),
    }
}

/// Prints a turn's body, or, with `--estimate`, what it costs: the history's size also before
/// there is a live turn.
fn write_body(
    out: &mut impl Write,
    provider: Provider,
    turn: &Turn<'_>,
    family: Option<&ImageTokens>,
    pretty: bool,
) -> Result<io::Result<()>, String> {
    Ok(match family {
        Some(rule) => {
            let estimate = provider
                .estimate(turn, rule)
                .map_err(|error| error.to_string())?;
            write_json(out, &estimate, pretty)
        }
        None => {
            let body = provider
                .body(turn)
                .map_err(|error: BodyError| error.to_string())?;
            write_json(out, &body, pretty)
        }
    })
}

fn write_json(out: &mut impl Write, value: &impl Serialize, pretty: bool) -> io::Result<()> {
    let written = if pretty {
        serde_json::to_writer_pretty(&mut *out, value)
    } else {
        serde_json::to_writer(&mut *out, value)
    };
    written.map_err(io::Error::from)?;
    writeln!(out)
}

/// Reads a reply, whole (`--reply`) or streamed in chunks (`--stream`).
fn read_reply(provider: Provider, stream: Option<usize>, input: &Input) -> Result<Reply, String> {
    match stream {
        None => provider
            .read_reply(&read_input(input, "the reply")?)
            .map_err(|error| error.to_string()),
        Some(chunk) => {
            let bytes = read_bytes(input)?;
            let mut reader = provider.stream();
            for piece in bytes.chunks(chunk) {
                reader.feed(piece).map_err(|error| error.to_string())?;
            }
            reader.finish().map_err(|error| error.to_string())
        }
    }
}

/// Why the tools of `--tools FILE` were not read: the file could not be (a failure of the
/// run), or it is not a list of tools (a usage error: an unknown server tool, say).
enum ToolsProblem {
    Read(String),
    Usage(String),
}

/// The tools of `--tools FILE`, when the task is a body that has them: read before the run, so
/// that an entry the example does not know is a usage error.
fn read_tools(options: &Options) -> Result<Vec<Tool>, ToolsProblem> {
    let Task::Replay {
        body: Some(body), ..
    } = &options.task
    else {
        return Ok(Vec::new());
    };
    let Some(input) = &body.tools else {
        return Ok(Vec::new());
    };
    let text = read_input(input, "the tools").map_err(ToolsProblem::Read)?;
    serde_json::from_str(&text).map_err(|error| ToolsProblem::Usage(format!("--tools: {error}")))
}

/// The reply's JSON schema of `--schema FILE`, as its exact text: a JSON object.
fn read_schema(input: &Input) -> Result<String, String> {
    let text = read_input(input, "the schema")?;
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(_)) => Ok(text),
        Ok(_) => Err("the schema: not a JSON object".to_owned()),
        Err(error) => Err(format!("the schema: {error}")),
    }
}

/// The rounds of `--round REPLY OUTPUTS`, in order: each reply read as the provider's, and its
/// outputs.
fn read_rounds(
    provider: Provider,
    rounds: &[(Input, Input)],
) -> Result<Vec<(Reply, Vec<ToolOutput>)>, String> {
    rounds
        .iter()
        .enumerate()
        .map(|(index, (reply, outputs))| {
            let reply = provider
                .read_reply(&read_input(reply, "a round's reply")?)
                .map_err(|error| format!("round {index}: {error}"))?;
            let outputs = serde_json::from_str(&read_input(outputs, "a round's outputs")?)
                .map_err(|error| format!("round {index}: the outputs: {error}"))?;
            Ok((reply, outputs))
        })
        .collect()
}

/// A turn with the rounds added, in order.
fn with_rounds<'a>(mut turn: Turn<'a>, rounds: &'a [(Reply, Vec<ToolOutput>)]) -> Turn<'a> {
    for (reply, outputs) in rounds {
        turn = turn.round(reply, outputs);
    }
    turn
}

fn run(options: &Options, tools: &[Tool]) -> Result<(), String> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let pretty = options.pretty;
    let written = match &options.task {
        Task::ModelInfo(id) => {
            let model = transcript_replay::models::find(id)
                .ok_or_else(|| format!("no model {id:?} in the catalog: describe it yourself"))?;
            write_json(&mut out, model, pretty)
        }
        Task::Rewrite => {
            let record = parse_record(&read_input(&options.input, "the record")?)
                .map_err(|error| error.to_string())?;
            writeln!(out, "{}", write_record(&record))
        }
        Task::Reply {
            provider,
            compact: true,
            outcome,
            ..
        } => {
            let reply = transcript_replay::openai_responses::read_compaction(&read_input(
                &options.input,
                "the compact reply",
            )?)
            .map_err(|error| format!("{provider}: {error}"))?;
            if *outcome {
                write_json(&mut out, &reply, pretty)
            } else {
                write_json(&mut out, &reply.message, pretty)
            }
        }
        Task::Reply {
            provider,
            stream,
            outcome,
            compact: false,
        } => {
            let reply = read_reply(*provider, *stream, &options.input)?;
            if *outcome {
                write_json(&mut out, &reply, pretty)
            } else {
                write_json(&mut out, &reply.message, pretty)
            }
        }
        Task::StoreTurn {
            provider,
            rounds,
            close,
        } => {
            let rounds = read_rounds(*provider, rounds)?;
            let turn = with_rounds(Turn::new(&[]), &rounds);
            let stored = match close {
                Close::Last(last) => {
                    let last = provider
                        .read_reply(&read_input(last, "the final reply")?)
                        .map_err(|error| format!("the final reply: {error}"))?;
                    turn.store_turn(&last)
                }
                Close::Interrupted(partial) => {
                    let partial = match partial {
                        Some(input) => Some(read_partial(input)?),
                        None => None,
                    };
                    turn.store_interrupted(partial.as_ref())
                }
            }
            .map_err(|error| error.to_string())?;
            write_json(&mut out, &stored, pretty)
        }
        Task::Error {
            provider,
            status,
            headers,
        } => {
            let body = read_bytes(&options.input)?;
            let error = provider.read_error(*status, headers, &String::from_utf8_lossy(&body));
            write_json(&mut out, &error, pretty)
        }
        Task::Replay {
            vision,
            provider,
            body,
            family,
        } => {
            if let (Some(provider), Some(options)) = (provider, body) {
                if options.request {
                    let turn = with_params(Turn::new(&[]).tools(tools), *provider, options)?;
                    let request = provider.request(&turn);
                    return write_json(&mut out, &request, pretty)
                        .and_then(|()| out.flush())
                        .map_err(cannot_write);
                }
            }
            let record = parse_record(&read_input(&options.input, "the record")?)
                .map_err(|error| error.to_string())?;
            match (provider, body) {
                (None, _) => write_json(&mut out, &replay_messages(&record, *vision), pretty),
                (Some(provider), None) => {
                    let wire = replay_messages(&record, *vision);
                    match provider {
                        Provider::OpenAi => write_priced(
                            &mut out,
                            &transcript_replay::openai::render(&wire),
                            *family,
                            pretty,
                        ),
                        Provider::OpenAiResponses => write_priced(
                            &mut out,
                            &transcript_replay::openai_responses::render(&wire),
                            *family,
                            pretty,
                        ),
                        Provider::Anthropic => write_priced(
                            &mut out,
                            &transcript_replay::anthropic::render(&wire),
                            *family,
                            pretty,
                        ),
                        Provider::Gemini => write_priced(
                            &mut out,
                            &transcript_replay::gemini::render(&wire),
                            *family,
                            pretty,
                        ),
                        Provider::Bedrock => write_priced(
                            &mut out,
                            &transcript_replay::bedrock::render(&wire),
                            *family,
                            pretty,
                        ),
                        Provider::Compatible(dialect) => write_priced(
                            &mut out,
                            &transcript_replay::openai::render_for(&wire, dialect),
                            *family,
                            pretty,
                        ),
                        other => return Err(format!("no fragment for {other}")),
                    }
                }
                (Some(provider), Some(options)) => {
                    let live: Vec<StoredMessage> = match &options.live {
                        Some(input) => parse_record(&read_input(input, "the live turn")?)
                            .map_err(|error| format!("the live turn: {error}"))?,
                        None => Vec::new(),
                    };
                    let schema = match &options.schema {
                        Some(input) => Some(read_schema(input)?),
                        None => None,
                    };
                    let rounds = read_rounds(*provider, &options.rounds)?;
                    let mut turn = Turn::new(&record)
                        .vision(*vision)
                        .instructions(&options.system)
                        .live(&live)
                        .tools(tools);
                    turn = with_params(turn, *provider, options)?;
                    if let Some(schema) = &schema {
                        turn = turn.reply_schema("reply", schema);
                    }
                    if let Some(choice) = &options.tool_choice {
                        turn = turn.tool_choice(choice.clone());
                    }
                    turn = with_rounds(turn, &rounds);
                    if let Some((tokens, rule)) = options.budget {
                        turn = turn.budget(Budget::new(tokens, rule));
                    }
                    if !options.preamble {
                        turn = turn.without_preamble();
                    }
                    if let Some(cache) = options.cache {
                        turn = turn.cache(cache);
                    }
                    match options.instead {
                        Some(Instead::Compact) => {
                            let request = provider
                                .compact_request(&turn)
                                .map_err(|error| error.to_string())?;
                            write_json(&mut out, &request, pretty)
                        }
                        Some(Instead::Summary) => write_body(
                            &mut out,
                            *provider,
                            &turn.summary_request(),
                            *family,
                            pretty,
                        )?,
                        None => match &options.forecast {
                            Some(previous) => {
                                let previous = read_input(previous, "the previous body")?;
                                let next = provider
                                    .body(&turn)
                                    .map_err(|error| error.to_string())?
                                    .to_json()
                                    .map_err(|error| error.to_string())?;
                                let next = String::from_utf8_lossy(&next);
                                let model = &options.model;
                                let forecast =
                                    transcript_replay::cost::forecast(&previous, &next, model)
                                        .ok_or_else(|| {
                                            format!("no model {model:?} in the catalog: a forecast needs its prices and its provider's rule")
                                        })?;
                                write_json(&mut out, &forecast, pretty)
                            }
                            None => write_body(&mut out, *provider, &turn, *family, pretty)?,
                        },
                    }
                }
            }
        }
    };
    written.and_then(|()| out.flush()).map_err(cannot_write)
}

/// What a failed write of the output says, the usage's included.
fn cannot_write(error: io::Error) -> String {
    format!("cannot write the output: {error}")
}

fn main() -> ExitCode {
    // Written, never printed: `print!` panics when its stream is a closed pipe.
    let ran = match parse_args(std::env::args_os().skip(1)) {
        Ok(Args::Help) => {
            let mut out = io::stdout().lock();
            out.write_all(USAGE.as_bytes())
                .and_then(|()| out.flush())
                .map_err(cannot_write)
        }
        Err(problem) => {
            // Standard error may be closed; the exit status still says what went wrong.
            let _ = write!(io::stderr(), "replay: {problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
        Ok(Args::Run(options)) => match read_tools(&options) {
            Ok(tools) => run(&options, &tools),
            Err(ToolsProblem::Usage(problem)) => {
                let _ = write!(io::stderr(), "replay: {problem}\n\n{USAGE}");
                return ExitCode::from(2);
            }
            Err(ToolsProblem::Read(problem)) => Err(problem),
        },
    };
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            // Standard error may be closed too; there is nowhere left to report that.
            let _ = writeln!(io::stderr(), "replay: {problem}");
            ExitCode::FAILURE
        }
    }
}
