//! Replays a stored record and prints what would be sent to a model.
//!
//! ```text
//! cargo run --example replay -- [--vision sees|blind] [--provider neutral|openai|anthropic|gemini] [FILE|-]
//! ```
//!
//! Reads a record (a bare array of messages, or a conversation file) from FILE, from standard
//! input for `-`, or, with no FILE, the sample conversation bundled with this example. Prints
//! the replayed wire messages, or the provider's request fragment, as JSON on standard
//! output. Bad input prints the error on standard error and exits 1; bad arguments print the
//! usage and exit 2.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use transcript_replay::{anthropic, gemini, openai, parse_record, replay_messages, Vision};

/// A coding-agent session: a compaction summary, a screenshot, reasoning, tool rounds (one
/// failed), and a turn killed mid-round.
const SAMPLE: &str = include_str!("sample-conversation.json");

const USAGE: &str = "\
usage: replay [--vision sees|blind] [--provider neutral|openai|anthropic|gemini] [FILE|-]

Replays a stored record (an array of messages, or a conversation file) and prints the
wire messages, or the provider's request fragment, as JSON.

  --vision sees|blind     whether the model views images (default: sees)
  --provider NAME         neutral, openai, anthropic or gemini (default: neutral)
  FILE                    the record to read; - reads standard input; none replays a
                          bundled sample conversation
";

#[derive(Clone, Copy)]
enum Output {
    Neutral,
    OpenAi,
    Anthropic,
    Gemini,
}

enum Input {
    Sample,
    Stdin,
    File(PathBuf),
}

struct Options {
    vision: Vision,
    output: Output,
    input: Input,
}

enum Args {
    Run(Options),
    Help,
}

fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let mut vision = None;
    let mut output = None;
    let mut input = None;
    let mut args = args.into_iter();
    let mut only_files = false;
    while let Some(os_arg) = args.next() {
        // A file name may be any bytes the system allows; an option is always UTF-8.
        let arg = match os_arg.to_str() {
            Some(arg) => arg.to_owned(),
            None if only_files || !os_arg.as_encoded_bytes().starts_with(b"-") => {
                if input.replace(Input::File(PathBuf::from(os_arg))).is_some() {
                    return Err("more than one FILE given".to_owned());
                }
                continue;
            }
            None => return Err(format!("unknown option {os_arg:?}")),
        };
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if !only_files && flag.starts_with("--") => {
                (flag.to_owned(), Some(value.to_owned()))
            }
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "-h" | "--help" if !only_files => return Ok(Args::Help),
            "--" if !only_files => only_files = true,
            "--vision" | "--provider" if !only_files => {
                let value = match inline {
                    Some(value) => value,
                    None => args
                        .next()
                        .ok_or_else(|| format!("{flag} needs a value"))?
                        .into_string()
                        .map_err(|value| format!("{flag} takes UTF-8, not {value:?}"))?,
                };
                if flag == "--vision" {
                    let parsed = match value.as_str() {
                        "sees" => Vision::Sees,
                        "blind" => Vision::Blind,
                        other => {
                            return Err(format!("unknown vision {other:?}, expected sees or blind"))
                        }
                    };
                    if vision.replace(parsed).is_some() {
                        return Err("--vision given twice".to_owned());
                    }
                } else {
                    let parsed = match value.as_str() {
                        "neutral" => Output::Neutral,
                        "openai" => Output::OpenAi,
                        "anthropic" => Output::Anthropic,
                        "gemini" => Output::Gemini,
                        other => {
                            return Err(format!(
                                "unknown provider {other:?}, expected neutral, openai, anthropic or gemini"
                            ))
                        }
                    };
                    if output.replace(parsed).is_some() {
                        return Err("--provider given twice".to_owned());
                    }
                }
            }
            unknown if !only_files && unknown.starts_with('-') && unknown != "-" => {
                return Err(format!("unknown option {unknown:?}"));
            }
            _ => {
                let source = if arg == "-" && !only_files {
                    Input::Stdin
                } else {
                    Input::File(PathBuf::from(arg))
                };
                if input.replace(source).is_some() {
                    return Err("more than one FILE given".to_owned());
                }
            }
        }
    }
    Ok(Args::Run(Options {
        vision: vision.unwrap_or(Vision::Sees),
        output: output.unwrap_or(Output::Neutral),
        input: input.unwrap_or(Input::Sample),
    }))
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

fn run(options: &Options) -> Result<(), String> {
    let json = read_input(&options.input)?;
    let record = parse_record(&json).map_err(|error| error.to_string())?;
    let wire = replay_messages(&record, options.vision);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = match options.output {
        Output::Neutral => serde_json::to_writer(&mut out, &wire),
        Output::OpenAi => serde_json::to_writer(&mut out, &openai::render(&wire)),
        Output::Anthropic => serde_json::to_writer(&mut out, &anthropic::render(&wire)),
        Output::Gemini => serde_json::to_writer(&mut out, &gemini::render(&wire)),
    };
    written
        .map_err(io::Error::from)
        .and_then(|()| writeln!(out))
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
