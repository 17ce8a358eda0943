//! Replays a stored record and prints what would be sent to a model.
//!
//! ```text
//! cargo run --example replay -- [--vision sees|blind]
//!     [--provider neutral|openai|openai-responses|anthropic|gemini|bedrock]
//!     [--pretty] [--model NAME [--system TEXT] [--no-preamble] [--live FILE] [--max-tokens N]
//!     [--cache 5m|1h]]
//!     [--estimate [--family NAME]]
//!     [FILE|-]
//! cargo run --example replay -- --reply openai|anthropic|gemini [--pretty] FILE|-
//! ```
//!
//! Reads a record (a bare array of messages, or a conversation file) from FILE, from standard
//! input for `-`, or, with no FILE, the sample conversation bundled with this example. Without
//! `--model`, prints the replayed wire messages, or the provider's history fragment; with
//! `--model`, the whole request body for the provider. Bad input, and a body the provider
//! would reject, print the error on standard error and exit 1; bad arguments print the usage
//! and exit 2.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use transcript_replay::{
    anthropic, bedrock, gemini, image_tokens, openai, openai_responses, parse_record,
    replay_messages, BodyError, Cache, ImageTokens, Priced, StoredMessage, Turn, Vision,
    IMAGE_TOKENS,
};

/// A coding-agent session: a compaction summary, a screenshot, reasoning, tool rounds (one
/// failed), and a turn killed mid-round.
const SAMPLE: &str = include_str!("sample-conversation.json");

const USAGE: &str = "\
usage: replay [--vision sees|blind] [--provider NAME] [--pretty]
              [--model NAME [--system TEXT] [--no-preamble] [--live FILE] [--max-tokens N]
              [--cache 5m|1h]] [--estimate [--family NAME]] [FILE|-]
       replay --reply PROVIDER [--pretty] FILE|-

Replays a stored record (an array of messages, or a conversation file) and prints the
wire messages, the provider's history fragment, or, with --model, the provider's whole
request body, as JSON.

  --vision sees|blind     whether the model views images (default: sees)
  --provider NAME         neutral, openai, openai-responses, anthropic, gemini or bedrock
                          (default: neutral)
  --pretty                indent the JSON
  --model NAME            print the whole request body for this model (a provider is
                          needed); OpenAI and Anthropic take the model in the body, Gemini
                          and Bedrock in the URL, so their bodies leave it out
  --system TEXT           the caller's system prompt (default: none)
  --no-preamble           leave REPLAY_PREAMBLE out of the system text
  --live FILE             the live turn: a record of messages not stored yet; - reads
                          standard input
  --max-tokens N          the reply's token limit: Anthropic's max_tokens (default 4096),
                          OpenAI Chat's max_completion_tokens, Responses'
                          max_output_tokens, Gemini's generationConfig.maxOutputTokens,
                          Bedrock's inferenceConfig.maxTokens (none by default)
  --cache 5m|1h           prompt-cache breakpoints for Anthropic and Bedrock, kept 5
                          minutes or 1 hour (OpenAI and Gemini cache by themselves)
  FILE                    the record to read; - reads standard input; none replays a
                          bundled sample conversation
  --estimate              print what the fragment or body costs instead of it, as JSON:
                          bytes, text tokens (estimated), native images and their tokens,
                          in total and per message
  --family NAME           the model family whose rule prices images (default: claude for
                          anthropic and bedrock, gemini-2 for gemini, gpt-4o for openai)
  --reply PROVIDER        read FILE as the provider's response body and print the stored
                          message it becomes
";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Neutral,
    OpenAi,
    OpenAiResponses,
    Anthropic,
    Gemini,
    Bedrock,
}

/// The providers by the names the options take.
const PROVIDERS: [(&str, Output); 5] = [
    ("openai", Output::OpenAi),
    ("openai-responses", Output::OpenAiResponses),
    ("anthropic", Output::Anthropic),
    ("gemini", Output::Gemini),
    ("bedrock", Output::Bedrock),
];

fn provider(name: &str, option: &str) -> Result<Output, String> {
    PROVIDERS
        .iter()
        .find(|(known, _)| *known == name)
        .map(|&(_, output)| output)
        .ok_or_else(|| {
            format!("unknown provider {name:?} for {option}, expected openai, openai-responses, anthropic, gemini or bedrock")
        })
}

#[derive(PartialEq, Eq)]
enum Input {
    Sample,
    Stdin,
    File(PathBuf),
}

/// What `--model` asks for: a whole body.
struct BodyOptions {
    model: String,
    system: String,
    preamble: bool,
    live: Option<Input>,
    max_tokens: Option<u64>,
    cache: Option<Cache>,
}

struct Options {
    vision: Vision,
    output: Output,
    pretty: bool,
    body: Option<BodyOptions>,
    /// `--reply`: read this provider's response body instead of a record.
    reply: Option<Output>,
    /// `--estimate`: print the cost, with this family's image rule, instead of the JSON.
    family: Option<&'static ImageTokens>,
    input: Input,
}

enum Args {
    Run(Options),
    Help,
}

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let mut vision = None;
    let mut output = None;
    let mut pretty = false;
    let mut model = None;
    let mut system = None;
    let mut no_preamble = false;
    let mut live = None;
    let mut max_tokens = None;
    let mut cache = None;
    let mut reply = None;
    let mut estimate = false;
    let mut family = None;
    let mut input = None;
    let mut args = args.into_iter();
    let mut only_files = false;
    while let Some(os_arg) = args.next() {
        // A file name may be any bytes the system allows; an option is always UTF-8.
        let arg = match os_arg.to_str() {
            Some(arg) => arg.to_owned(),
            None if only_files || !os_arg.as_encoded_bytes().starts_with(b"-") => {
                set(&mut input, Input::File(PathBuf::from(os_arg)), "FILE")?;
                continue;
            }
            None => return Err(format!("unknown option {os_arg:?}")),
        };
        if only_files || arg == "-" || !arg.starts_with('-') {
            let source = if arg == "-" && !only_files {
                Input::Stdin
            } else {
                Input::File(PathBuf::from(arg))
            };
            set(&mut input, source, "FILE")?;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag.to_owned(), Some(value.to_owned())),
            None => (arg.clone(), None),
        };
        let mut value = || -> Result<String, String> {
            match inline.clone() {
                Some(value) => Ok(value),
                None => args
                    .next()
                    .ok_or_else(|| format!("{flag} needs a value"))?
                    .into_string()
                    .map_err(|value| format!("{flag} takes UTF-8, not {value:?}")),
            }
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Args::Help),
            "--" => only_files = true,
            "--vision" => {
                let parsed = match value()?.as_str() {
                    "sees" => Vision::Sees,
                    "blind" => Vision::Blind,
                    other => {
                        return Err(format!("unknown vision {other:?}, expected sees or blind"))
                    }
                };
                set(&mut vision, parsed, "--vision")?;
            }
            "--provider" => {
                let name = value()?;
                let parsed = match name.as_str() {
                    "neutral" => Output::Neutral,
                    other => provider(other, "--provider")?,
                };
                set(&mut output, parsed, "--provider")?;
            }
            "--pretty" | "--no-preamble" if inline.is_some() => {
                return Err(format!("{flag} takes no value"));
            }
            "--pretty" => pretty = true,
            "--no-preamble" => no_preamble = true,
            "--model" => set(&mut model, value()?, "--model")?,
            "--system" => set(&mut system, value()?, "--system")?,
            "--live" => {
                let path = value()?;
                let source = if path == "-" {
                    Input::Stdin
                } else {
                    Input::File(PathBuf::from(path))
                };
                set(&mut live, source, "--live")?;
            }
            "--max-tokens" => {
                let text = value()?;
                let parsed = text.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("--max-tokens takes a positive whole number, not {text:?}")
                })?;
                set(&mut max_tokens, parsed, "--max-tokens")?;
            }
            "--reply" => {
                let parsed = provider(&value()?, "--reply")?;
                set(&mut reply, parsed, "--reply")?;
            }
            "--cache" => {
                let parsed = match value()?.as_str() {
                    "5m" => Cache::FiveMinutes,
                    "1h" => Cache::OneHour,
                    other => return Err(format!("unknown cache {other:?}, expected 5m or 1h")),
                };
                set(&mut cache, parsed, "--cache")?;
            }
            "--estimate" if inline.is_some() => return Err("--estimate takes no value".to_owned()),
            "--estimate" => estimate = true,
            "--family" => {
                let name = value()?;
                let rule = image_tokens(&name).ok_or_else(|| {
                    let known: Vec<&str> = IMAGE_TOKENS.iter().map(|rule| rule.family).collect();
                    format!(
                        "unknown family {name:?}, expected one of {}",
                        known.join(", ")
                    )
                })?;
                set(&mut family, rule, "--family")?;
            }
            unknown => return Err(format!("unknown option {unknown:?}")),
        }
    }
    if reply.is_some() {
        let others = [
            ("--vision", vision.is_some()),
            ("--provider", output.is_some()),
            ("--model", model.is_some()),
        ];
        if let Some((flag, _)) = others.iter().find(|(_, given)| *given) {
            return Err(format!("--reply reads a reply; {flag} does not apply"));
        }
        if input.is_none() {
            return Err("--reply needs the FILE of the reply (- reads standard input)".to_owned());
        }
    }
    if family.is_some() && !estimate {
        return Err("--family needs --estimate".to_owned());
    }
    if estimate && matches!(output, None | Some(Output::Neutral)) {
        return Err("--estimate needs a --provider other than neutral".to_owned());
    }
    if estimate && reply.is_some() {
        return Err("--estimate does not apply to --reply".to_owned());
    }
    let output = output.unwrap_or(Output::Neutral);
    let input = input.unwrap_or(Input::Sample);
    // Each provider's usual family, when none is named.
    let family = match (estimate, family, output) {
        (false, _, _) => None,
        (true, Some(rule), _) => Some(rule),
        (true, None, Output::Anthropic | Output::Bedrock) => image_tokens("claude"),
        (true, None, Output::Gemini) => image_tokens("gemini-2"),
        (true, None, Output::OpenAi | Output::OpenAiResponses | Output::Neutral) => {
            image_tokens("gpt-4o")
        }
    };
    let body = match model {
        Some(model) => {
            if output == Output::Neutral {
                return Err("--model needs a --provider other than neutral".to_owned());
            }
            if live == Some(Input::Stdin) && input == Input::Stdin {
                return Err("the record and --live cannot both read standard input".to_owned());
            }
            Some(BodyOptions {
                model,
                system: system.unwrap_or_default(),
                preamble: !no_preamble,
                live,
                max_tokens,
                cache,
            })
        }
        None => {
            let body_only = [
                ("--system", system.is_some()),
                ("--no-preamble", no_preamble),
                ("--live", live.is_some()),
                ("--max-tokens", max_tokens.is_some()),
                ("--cache", cache.is_some()),
            ];
            if let Some((flag, _)) = body_only.iter().find(|(_, given)| *given) {
                return Err(format!("{flag} needs --model"));
            }
            None
        }
    };
    Ok(Args::Run(Options {
        vision: vision.unwrap_or(Vision::Sees),
        output,
        pretty,
        body,
        reply,
        family,
        input,
    }))
}

/// Sets an option once; a second value is an error rather than a guess.
fn set<T>(slot: &mut Option<T>, value: T, name: &str) -> Result<(), String> {
    match slot.replace(value) {
        Some(_) => Err(format!("{name} given twice")),
        None => Ok(()),
    }
}

fn read_input(input: &Input) -> Result<String, String> {
    let bytes = match input {
        Input::Sample => return Ok(SAMPLE.to_owned()),
        Input::Stdin => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|error| format!("cannot read standard input: {error}"))?;
            bytes
        }
        Input::File(path) => std::fs::read(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?,
    };
    String::from_utf8(bytes).map_err(|error| {
        format!(
            "the record is not UTF-8: invalid byte at offset {}",
            error.utf8_error().valid_up_to()
        )
    })
}

/// The caller's top-level fields, in the order they are written: the model where the body
/// takes it, and the reply's token limit under the provider's name for it.
#[derive(Serialize, Default)]
struct Fields<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_completion_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_output_tokens: Option<u64>,
    #[serde(rename = "generationConfig", skip_serializing_if = "Option::is_none")]
    generation_config: Option<GenerationConfig>,
    #[serde(rename = "inferenceConfig", skip_serializing_if = "Option::is_none")]
    inference_config: Option<InferenceConfig>,
}

#[derive(Serialize)]
struct InferenceConfig {
    #[serde(rename = "maxTokens")]
    max_tokens: u64,
}

#[derive(Serialize)]
struct GenerationConfig {
    #[serde(rename = "maxOutputTokens")]
    max_output_tokens: u64,
}

fn fields(output: Output, options: &BodyOptions) -> Fields<'_> {
    let model = Some(options.model.as_str());
    match output {
        Output::OpenAi => Fields {
            model,
            max_completion_tokens: options.max_tokens,
            ..Fields::default()
        },
        Output::Anthropic => Fields {
            model,
            max_tokens: Some(options.max_tokens.unwrap_or(4096)),
            ..Fields::default()
        },
        Output::OpenAiResponses => Fields {
            model,
            max_output_tokens: options.max_tokens,
            ..Fields::default()
        },
        Output::Gemini => Fields {
            generation_config: options
                .max_tokens
                .map(|max_output_tokens| GenerationConfig { max_output_tokens }),
            ..Fields::default()
        },
        Output::Bedrock => Fields {
            inference_config: options
                .max_tokens
                .map(|max_tokens| InferenceConfig { max_tokens }),
            ..Fields::default()
        },
        Output::Neutral => Fields::default(),
    }
}

/// Prints the body or fragment, or, with `--estimate`, what it costs.
fn write_priced(out: &mut impl Write, priced: &impl Priced, options: &Options) -> io::Result<()> {
    match options.family {
        Some(rule) => write_json(out, &priced.estimate(rule), options.pretty),
        None => write_json(out, priced, options.pretty),
    }
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

fn run(options: &Options) -> Result<(), String> {
    let json = read_input(&options.input)?;
    if let Some(provider) = options.reply {
        let message = match provider {
            Output::OpenAi => openai::read_reply(&json),
            Output::Anthropic => anthropic::read_reply(&json),
            Output::Gemini => gemini::read_reply(&json),
            Output::OpenAiResponses => openai_responses::read_reply(&json),
            Output::Bedrock => bedrock::read_reply(&json),
            Output::Neutral => return Err("--reply needs a provider".to_owned()),
        }
        .map_err(|error| error.to_string())?;
        let mut out = io::BufWriter::new(io::stdout().lock());
        return write_json(&mut out, &message, options.pretty)
            .and_then(|()| out.flush())
            .map_err(|error| format!("cannot write the output: {error}"));
    }
    let record = parse_record(&json).map_err(|error| error.to_string())?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match &options.body {
        None => {
            let wire = replay_messages(&record, options.vision);
            match options.output {
                Output::Neutral => write_json(&mut out, &wire, options.pretty),
                Output::OpenAi => write_priced(&mut out, &openai::render(&wire), options),
                Output::Anthropic => write_priced(&mut out, &anthropic::render(&wire), options),
                Output::Gemini => write_priced(&mut out, &gemini::render(&wire), options),
                Output::OpenAiResponses => {
                    write_priced(&mut out, &openai_responses::render(&wire), options)
                }
                Output::Bedrock => write_priced(&mut out, &bedrock::render(&wire), options),
            }
        }
        Some(body) => {
            let live: Vec<StoredMessage> = match &body.live {
                Some(input) => parse_record(&read_input(input)?)
                    .map_err(|error| format!("the live turn: {error}"))?,
                None => Vec::new(),
            };
            let mut turn = Turn::new(&record)
                .vision(options.vision)
                .instructions(&body.system)
                .live(&live)
                .fields(&fields(options.output, body));
            if !body.preamble {
                turn = turn.without_preamble();
            }
            if let Some(cache) = body.cache {
                turn = turn.cache(cache);
            }
            let bad = |error: BodyError| error.to_string();
            match options.output {
                Output::OpenAi => {
                    write_priced(&mut out, &openai::body(&turn).map_err(bad)?, options)
                }
                Output::Anthropic => {
                    write_priced(&mut out, &anthropic::body(&turn).map_err(bad)?, options)
                }
                Output::Gemini => {
                    write_priced(&mut out, &gemini::body(&turn).map_err(bad)?, options)
                }
                Output::OpenAiResponses => write_priced(
                    &mut out,
                    &openai_responses::body(&turn).map_err(bad)?,
                    options,
                ),
                Output::Bedrock => {
                    write_priced(&mut out, &bedrock::body(&turn).map_err(bad)?, options)
                }
                // parse_args refuses this already.
                Output::Neutral => return Err("--model needs a provider".to_owned()),
            }
        }
    };
    written
        .and_then(|()| out.flush())
        .map_err(|error| format!("cannot write the output: {error}"))
}

fn main() -> ExitCode {
    match parse_args(std::env::args_os().skip(1)) {
        Ok(Args::Help) => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(problem) => {
            eprint!("replay: {problem}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Ok(Args::Run(options)) => match run(&options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(problem) => {
                // Standard error may be closed too; there is nowhere left to report that.
                let _ = writeln!(io::stderr(), "replay: {problem}");
                ExitCode::FAILURE
            }
        },
    }
}
