//! The example program's command line: what it is asked to do, or why the arguments make no
//! sense (exit 2).

use std::ffi::OsString;
use std::path::PathBuf;

use transcript_replay::{
    cost::image_tokens, cost::ImageTokens, cost::IMAGE_TOKENS, Cache, Compaction, Provider,
    Reasoning, ToolChoice, Vision,
};

pub const USAGE: &str = "\
usage: replay [--vision sees|blind] [--provider NAME] [--pretty]
              [--model NAME [--system TEXT] [--no-preamble] [--live FILE] [--max-tokens N]
              [--cache 5m|1h] [--budget N] [--tools FILE] [--tool-choice CHOICE]
              [--round REPLY OUTPUTS]... [--reasoning R] [--temperature X] [--stop TEXT]...
              [--schema FILE] [--streaming] [--request] [--region R]
              [--compact-at N] [--compact-instructions TEXT] [--compact-pause]
              [--summary-request | --compact-request] [--forecast PREVIOUS]]
              [--estimate [--family NAME]] [FILE|-]
       replay --rewrite FILE|-
       replay --model-info ID [--pretty]
       replay --provider NAME [--round REPLY OUTPUTS]... --store-turn FINAL [--pretty]
       replay --provider NAME [--round REPLY OUTPUTS]... --store-interrupted PARTIAL|- [--pretty]
       replay --reply PROVIDER|openai-responses-compact [--outcome] [--pretty] FILE|-
       replay --stream PROVIDER [--chunk N] [--outcome] [--pretty] FILE|-
       replay --error PROVIDER STATUS [--header NAME:VALUE]... [--pretty] FILE|-

Replays a stored record (an array of messages, or a conversation file) and prints the
wire messages, the provider's history fragment, or, with --model, the provider's whole
request body, as JSON.

  --vision sees|blind     whether the model views images (default: sees)
  --provider NAME         neutral, openai, openai-responses, anthropic, gemini or bedrock
                          (default: neutral), or a compatible server's dialect of the
                          OpenAI Chat surface: deepseek, mistral, groq, xai, openrouter,
                          gemini-openai, together, fireworks, cerebras, perplexity, azure,
                          vllm, llama-cpp, ollama, lm-studio
  --pretty                indent the JSON
  --model NAME            print the whole request body for this model (a provider is
                          needed); OpenAI and Anthropic take the model in the body, Gemini
                          and Bedrock in the URL, so their bodies leave it out
  --system TEXT           the caller's system prompt (default: none)
  --no-preamble           leave REPLAY_PREAMBLE out of the system text
  --live FILE             the live turn: a record of messages not stored yet; - reads
                          standard input
  --max-tokens N          the reply's token limit: Anthropic's max_tokens (default 4096),
                          OpenAI Chat's max_completion_tokens (a compatible server's own
                          field, max_tokens for most), Responses'
                          max_output_tokens, Gemini's generationConfig.maxOutputTokens,
                          Bedrock's inferenceConfig.maxTokens (none by default)
  --reasoning low|medium|high|N
                          how much the model thinks: an effort, or N tokens of thinking
                          budget (OpenAI's reasoning_effort, Responses' reasoning.effort
                          with its encrypted content kept, Anthropic's and Bedrock's
                          thinking, Gemini's thinkingConfig)
  --compact-at N          ask the provider to compact the conversation once the input
                          reaches N tokens (Anthropic's context_management edit, with
                          --compact-instructions TEXT and --compact-pause; Responses'
                          context_management entry); an error for a provider that
                          compacts on no request of its own
  --summary-request       print the body that asks the model for a summary of the history
                          instead of the turn's: the history, then SUMMARY_REQUEST (and
                          --compact-instructions after it), no tools
  --forecast PREVIOUS     print what the provider's prompt cache will read and write of the
                          body, after PREVIOUS (a body printed earlier), by the provider's
                          rule, and the input in USD: {\"cache_read_tokens\",
                          \"cache_write_tokens\",\"uncached_tokens\",\"usd\"} (a model the
                          catalog holds is needed)
  --compact-request       print Responses' compact request instead of the body:
                          {\"method\",\"path\",\"headers\",\"auth\",\"base_url\",\"body\"};
                          an error for any other provider
  --temperature X         the sampling temperature
  --stop TEXT             a sequence that ends the reply (repeatable)
  --schema FILE           ask for the reply as JSON in this JSON schema (an object), named
                          \"reply\": OpenAI Chat's response_format (an error for a
                          compatible server that takes none), Responses' text.format,
                          Anthropic's output_config.format, Gemini's responseJsonSchema,
                          Bedrock's outputConfig.textFormat
  --streaming             the request asks for a streamed reply: \"stream\":true in the
                          OpenAI, Responses and Anthropic bodies (OpenAI Chat also asks
                          for the usage), the streaming path for Gemini and Bedrock
  --request               print the request around the body instead of it: {\"method\",
                          \"path\",\"headers\",\"auth\",\"base_url\"}: the path to append to
                          the base URL, where your key goes (bearer, x-api-key,
                          x-goog-api-key or sigv4), and the provider's default base URL;
                          no input is read
  --region R              the region the request goes to, in Bedrock's base URL
                          (us-east-1 when none; no other provider's base URL names one)
  --cache 5m|1h           prompt-cache breakpoints for Anthropic and Bedrock, kept 5
                          minutes or 1 hour (OpenAI and Gemini cache by themselves)
  --budget N              fit the body to N input tokens (by the estimate, images by
                          --family's rule), withholding the oldest tool outputs, inputs,
                          reasoning, images and files, long user texts and then whole
                          messages, each marked (a round's outputs when nothing else fits)
  --tools FILE            the tools the model may call: a JSON array of functions
                          {\"name\",\"description\",\"input_schema\",\"strict\"?}, server
                          tools {\"server\":\"web_search\"|\"code_execution\"} (written in
                          the provider's form; an error naming it where it has none) and
                          native tools {\"native\":{...}} (the provider's own declaration,
                          written verbatim beside the others); another entry is a usage error
  --tool-choice CHOICE    auto, none, required or tool:NAME
  --round REPLY OUTPUTS   a round of the turn in flight, after the live turn: REPLY the
                          provider's reply body that called tools, OUTPUTS a JSON array of
                          {\"id\",\"output\",\"is_error\",\"images\"?:[{\"media_type\",\"data\"}],
                          \"files\"?:[{\"media_type\",\"data\",\"name\"?}],
                          \"approve\"?:true|false,\"reason\"?,\"acknowledged\"?:[ids]}:
                          \"approve\" answers an approval request (\"output\" then optional),
                          \"acknowledged\" a call's pending safety checks;
                          repeat it for each round, in order
  --store-turn FINAL      print the one stored message the rounds and FINAL (the reply
                          that ends the turn) become, instead of a body; --model is not
                          needed, and the body's other options change nothing
  --store-interrupted PARTIAL
                          print the stored message of a turn cut short after the rounds:
                          each call with its result where one came, alone where none did,
                          then PARTIAL (a stored message: the reply as far as it came), or
                          nothing more for -
  FILE                    the record to read; - reads standard input; none replays a
                          bundled sample conversation
  --estimate              print what the fragment or body costs instead of it, as JSON:
                          bytes, text tokens (estimated), native images and files and
                          their tokens,
                          in total and per message, and with --budget what was withheld;
                          \"anchored\":{\"message\",\"tokens\"} when a stored assistant
                          message carries the provider's reported usage
  --family NAME           the model family whose rule prices images, for --estimate and
                          --budget (default: claude for anthropic and bedrock, gemini-2
                          for gemini, gpt-4o for openai)
  --reply PROVIDER        read FILE as the provider's response body and print the stored
                          message it becomes; openai-responses-compact reads the reply of
                          Responses' compact request
  --rewrite FILE          print the record as this version writes it back, every key it
                          does not know kept in place
  --model-info ID         print the catalog's entry for a model: its window, limits, inputs,
                          features, prices in USD per million tokens and source
  --stream PROVIDER       read FILE as the provider's streamed response body (the raw bytes
                          as they arrived), fed to its stream reader in chunks, and print
                          what --reply prints for the equivalent body
  --chunk N               the chunk size for --stream, in bytes (default 4096)
  --outcome               with --reply or --stream, print {\"stop\":REASON,\"message\":...},
                          then \"metadata\":{...} when the reply carried any (container,
                          stop details, model hops, guardrail trace, URLs, search
                          suggestions, a blocked prompt's reason, the other choices' count)
  --error PROVIDER STATUS read FILE as the provider's error response with that HTTP status
                          and print what kind of error it is
  --header NAME:VALUE     with --error, a header of the response (repeatable): retry-after,
                          retry-after-ms, x-ratelimit-reset-*, x-should-retry, Bedrock's
                          x-amzn-ErrorType
";

/// Where a record (or a reply) comes from.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Sample,
    Stdin,
    File(PathBuf),
}

/// What `--model` asks for: a whole body.
pub struct BodyOptions {
    pub model: String,
    pub system: String,
    pub preamble: bool,
    pub live: Option<Input>,
    pub max_tokens: Option<u64>,
    pub cache: Option<Cache>,
    pub tools: Option<Input>,
    pub tool_choice: Option<ToolChoice>,
    pub rounds: Vec<(Input, Input)>,
    /// `--budget N`, with the family whose rule prices images.
    pub budget: Option<(u64, &'static ImageTokens)>,
    /// `--streaming`: the request asks for a streamed reply.
    pub streaming: bool,
    /// `--request`: print the request around the body instead of the body.
    pub request: bool,
    /// `--reasoning low|medium|high|N`.
    pub reasoning: Option<Reasoning>,
    /// `--temperature X`.
    pub temperature: Option<f64>,
    /// `--compact-at N`, `--compact-instructions TEXT`, `--compact-pause`.
    pub compaction: Option<Compaction>,
    /// `--summary-request` or `--compact-request`: print that request instead of the body.
    pub instead: Option<Instead>,
    /// `--forecast PREVIOUS`: print the cache forecast after that body instead of the body.
    pub forecast: Option<Input>,
    /// `--stop TEXT`, each.
    pub stop: Vec<String>,
    /// `--schema FILE`: the reply's JSON schema.
    pub schema: Option<Input>,
    /// `--region R`: the region the request goes to (Bedrock's host).
    pub region: Option<String>,
}

/// A request printed instead of the turn's body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instead {
    /// `--summary-request`: the body of the turn's summary request.
    Summary,
    /// `--compact-request`: Responses' compact request.
    Compact,
}

/// What the program is asked to do.
pub enum Task {
    /// Replay a record: the wire messages (no provider), a fragment, or a whole body.
    Replay {
        vision: Vision,
        provider: Option<Provider>,
        body: Option<Box<BodyOptions>>,
        /// `--estimate`: print the cost, with this family's image rule.
        family: Option<&'static ImageTokens>,
    },
    /// `--rewrite FILE`: the record written back.
    Rewrite,
    /// `--model-info ID`: the catalog's entry.
    ModelInfo(String),
    /// Read a reply, whole or streamed.
    Reply {
        provider: Provider,
        /// `--reply openai-responses-compact`: the reply of a compact request.
        compact: bool,
        /// `--stream`, with its chunk size.
        stream: Option<usize>,
        outcome: bool,
    },
    /// Read an error response.
    Error {
        provider: Provider,
        status: u16,
        /// The response's headers, `--header NAME:VALUE`, in order.
        headers: Vec<(String, String)>,
    },
    /// Print the stored message of a turn's rounds and final reply.
    StoreTurn {
        provider: Provider,
        rounds: Vec<(Input, Input)>,
        close: Close,
    },
}

/// How a stored turn closes: the reply that ended it, or the partial reply of a turn cut
/// short (none for `-`).
#[derive(Debug)]
pub enum Close {
    Last(Input),
    Interrupted(Option<Input>),
}

pub struct Options {
    pub task: Task,
    pub pretty: bool,
    pub input: Input,
}

pub enum Args {
    Run(Box<Options>),
    Help,
}

/// The options as given, before they are checked together.
#[derive(Default)]
struct Given {
    vision: Option<Vision>,
    provider: Option<Option<Provider>>,
    pretty: bool,
    model: Option<String>,
    system: Option<String>,
    no_preamble: bool,
    live: Option<Input>,
    max_tokens: Option<u64>,
    cache: Option<Cache>,
    reply: Option<Provider>,
    compact_reply: bool,
    summary_request: bool,
    compact_request: bool,
    rewrite: Option<Input>,
    model_info: Option<String>,
    forecast: Option<Input>,
    stream: Option<Provider>,
    chunk: Option<usize>,
    outcome: bool,
    error: Option<(Provider, u16)>,
    headers: Vec<(String, String)>,
    tools: Option<Input>,
    tool_choice: Option<ToolChoice>,
    rounds: Vec<(Input, Input)>,
    store_turn: Option<Input>,
    store_interrupted: Option<Option<Input>>,
    budget: Option<u64>,
    estimate: bool,
    family: Option<&'static ImageTokens>,
    streaming: bool,
    request: bool,
    reasoning: Option<Reasoning>,
    temperature: Option<f64>,
    compact_at: Option<u64>,
    compact_instructions: Option<String>,
    compact_pause: bool,
    stop: Vec<String>,
    schema: Option<Input>,
    region: Option<String>,
    input: Option<Input>,
}

fn provider(name: &str, option: &str) -> Result<Provider, String> {
    name.parse()
        .map_err(|error| format!("{error} (for {option})"))
}

/// A file argument: any bytes the system allows, `-` for standard input.
fn input(value: OsString) -> Input {
    if value == "-" {
        Input::Stdin
    } else {
        Input::File(PathBuf::from(value))
    }
}

/// A whole number of at least 1.
fn positive(flag: &str, text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{flag} takes a positive whole number, not {text:?}"))
}

pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let mut given = Given::default();
    let mut args = args.into_iter();
    let mut only_files = false;
    while let Some(os_arg) = args.next() {
        let is_option = !only_files && os_arg != "-" && os_arg.as_encoded_bytes().starts_with(b"-");
        if !is_option {
            let source = if only_files {
                Input::File(PathBuf::from(os_arg))
            } else {
                input(os_arg)
            };
            set(&mut given.input, source, "FILE")?;
            continue;
        }
        // An option is always UTF-8; its value may be a file name, which need not be.
        let arg = os_arg
            .to_str()
            .ok_or_else(|| format!("unknown option {os_arg:?}"))?
            .to_owned();
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag.to_owned(), Some(OsString::from(value))),
            None => (arg.clone(), None),
        };
        let mut os_value = || -> Result<OsString, String> {
            match inline.clone() {
                Some(value) => Ok(value),
                None => args.next().ok_or_else(|| format!("{flag} needs a value")),
            }
        };
        let mut value = || -> Result<String, String> {
            os_value()?
                .into_string()
                .map_err(|value| format!("{flag} takes UTF-8, not {value:?}"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Args::Help),
            "--" => only_files = true,
            "--pretty" | "--no-preamble" | "--estimate" | "--outcome" | "--streaming"
            | "--request" | "--summary-request" | "--compact-request"
                if inline.is_some() =>
            {
                return Err(format!("{flag} takes no value"));
            }
            "--pretty" => given.pretty = true,
            "--no-preamble" => given.no_preamble = true,
            "--estimate" => given.estimate = true,
            "--outcome" => given.outcome = true,
            "--streaming" => given.streaming = true,
            "--request" => given.request = true,
            "--summary-request" => given.summary_request = true,
            "--compact-request" => given.compact_request = true,
            "--rewrite" => set(&mut given.rewrite, input(os_value()?), "--rewrite")?,
            "--model-info" => set(&mut given.model_info, value()?, "--model-info")?,
            "--forecast" => set(&mut given.forecast, input(os_value()?), "--forecast")?,
            "--vision" => {
                let parsed = match value()?.as_str() {
                    "sees" => Vision::Sees,
                    "blind" => Vision::Blind,
                    other => {
                        return Err(format!("unknown vision {other:?}, expected sees or blind"))
                    }
                };
                set(&mut given.vision, parsed, "--vision")?;
            }
            "--provider" => {
                let parsed = match value()?.as_str() {
                    "neutral" => None,
                    other => Some(provider(other, "--provider")?),
                };
                set(&mut given.provider, parsed, "--provider")?;
            }
            "--model" => set(&mut given.model, value()?, "--model")?,
            "--system" => set(&mut given.system, value()?, "--system")?,
            "--live" => set(&mut given.live, input(os_value()?), "--live")?,
            "--max-tokens" => {
                let parsed = positive("--max-tokens", &value()?)?;
                set(&mut given.max_tokens, parsed, "--max-tokens")?;
            }
            "--reasoning" => {
                let parsed = match value()?.as_str() {
                    "low" => Reasoning::Low,
                    "medium" => Reasoning::Medium,
                    "high" => Reasoning::High,
                    tokens => Reasoning::Budget(
                        u32::try_from(positive("--reasoning", tokens)?)
                            .map_err(|_| format!("--reasoning {tokens} is too large"))?,
                    ),
                };
                set(&mut given.reasoning, parsed, "--reasoning")?;
            }
            "--compact-at" => {
                let parsed = positive("--compact-at", &value()?)?;
                set(&mut given.compact_at, parsed, "--compact-at")?;
            }
            "--compact-instructions" => set(
                &mut given.compact_instructions,
                value()?,
                "--compact-instructions",
            )?,
            "--compact-pause" => given.compact_pause = true,
            "--temperature" => {
                let text = value()?;
                let parsed: f64 = text
                    .parse()
                    .ok()
                    .filter(|value: &f64| value.is_finite() && *value >= 0.0)
                    .ok_or_else(|| format!("--temperature takes a number, not {text:?}"))?;
                set(&mut given.temperature, parsed, "--temperature")?;
            }
            "--stop" => given.stop.push(value()?),
            "--region" => set(&mut given.region, value()?, "--region")?,
            "--cache" => {
                let parsed = match value()?.as_str() {
                    "5m" => Cache::FiveMinutes,
                    "1h" => Cache::OneHour,
                    other => return Err(format!("unknown cache {other:?}, expected 5m or 1h")),
                };
                set(&mut given.cache, parsed, "--cache")?;
            }
            "--family" => {
                let name = value()?;
                let rule = image_tokens(&name).ok_or_else(|| {
                    let known: Vec<&str> = IMAGE_TOKENS.iter().map(|rule| rule.family).collect();
                    format!(
                        "unknown family {name:?}, expected one of {}",
                        known.join(", ")
                    )
                })?;
                set(&mut given.family, rule, "--family")?;
            }
            "--reply" => {
                let name = value()?;
                let parsed = if name == "openai-responses-compact" {
                    given.compact_reply = true;
                    Provider::OpenAiResponses
                } else {
                    provider(&name, "--reply")?
                };
                set(&mut given.reply, parsed, "--reply")?;
            }
            "--stream" => {
                let parsed = provider(&value()?, "--stream")?;
                set(&mut given.stream, parsed, "--stream")?;
            }
            "--chunk" => {
                let text = value()?;
                let parsed = positive("--chunk", &text)?;
                let parsed =
                    usize::try_from(parsed).map_err(|_| format!("--chunk {text} is too large"))?;
                set(&mut given.chunk, parsed, "--chunk")?;
            }
            "--error" => {
                let parsed = provider(&value()?, "--error")?;
                let status = args
                    .next()
                    .and_then(|status| status.into_string().ok())
                    .ok_or_else(|| "--error needs a PROVIDER and a STATUS".to_owned())?;
                let status = status
                    .parse::<u16>()
                    .ok()
                    .filter(|status| (100..=999).contains(status))
                    .ok_or_else(|| format!("--error takes an HTTP status, not {status:?}"))?;
                set(&mut given.error, (parsed, status), "--error")?;
            }
            "--header" => {
                let text = value()?;
                let (name, value) = text
                    .split_once(':')
                    .map(|(name, value)| (name.trim(), value.trim()))
                    .filter(|(name, _)| !name.is_empty())
                    .ok_or_else(|| format!("--header takes NAME:VALUE, not {text:?}"))?;
                given.headers.push((name.to_owned(), value.to_owned()));
            }
            "--tools" => set(&mut given.tools, input(os_value()?), "--tools")?,
            "--schema" => set(&mut given.schema, input(os_value()?), "--schema")?,
            "--budget" => {
                let parsed = positive("--budget", &value()?)?;
                set(&mut given.budget, parsed, "--budget")?;
            }
            "--tool-choice" => {
                let parsed = value()?
                    .parse::<ToolChoice>()
                    .map_err(|error| error.to_string())?;
                set(&mut given.tool_choice, parsed, "--tool-choice")?;
            }
            "--round" => {
                let reply = input(os_value()?);
                let outputs = args
                    .next()
                    .map(input)
                    .ok_or_else(|| "--round needs a REPLY and an OUTPUTS file".to_owned())?;
                given.rounds.push((reply, outputs));
            }
            "--store-turn" => set(&mut given.store_turn, input(os_value()?), "--store-turn")?,
            "--store-interrupted" => {
                let value = os_value()?;
                let partial = (value != "-").then(|| input(value));
                set(&mut given.store_interrupted, partial, "--store-interrupted")?;
            }
            unknown => return Err(format!("unknown option {unknown:?}")),
        }
    }
    given.check().map(|options| Args::Run(Box::new(options)))
}

impl Given {
    /// The options checked together: the task they ask for, or why they make no sense.
    fn check(self) -> Result<Options, String> {
        let reading = [
            ("--reply", self.reply.is_some()),
            ("--stream", self.stream.is_some()),
            ("--error", self.error.is_some()),
        ];
        let readers: Vec<&str> = reading
            .iter()
            .filter(|(_, given)| *given)
            .map(|(flag, _)| *flag)
            .collect();
        if let [first, second, ..] = readers.as_slice() {
            return Err(format!("{first} and {second} cannot be given together"));
        }
        if self.outcome && self.reply.is_none() && self.stream.is_none() {
            return Err("--outcome needs --reply or --stream".to_owned());
        }
        if !self.headers.is_empty() && self.error.is_none() {
            return Err("--header needs --error".to_owned());
        }
        if self.chunk.is_some() && self.stream.is_none() {
            return Err("--chunk needs --stream".to_owned());
        }
        if let Some(&reader) = readers.first() {
            let others = [
                ("--vision", self.vision.is_some()),
                ("--provider", self.provider.is_some()),
                ("--model", self.model.is_some()),
                ("--estimate", self.estimate),
                ("--round", !self.rounds.is_empty()),
                ("--store-turn", self.store_turn.is_some()),
                ("--store-interrupted", self.store_interrupted.is_some()),
                ("--streaming", self.streaming),
                ("--request", self.request),
                ("--region", self.region.is_some()),
                ("--summary-request", self.summary_request),
                ("--compact-request", self.compact_request),
                ("--rewrite", self.rewrite.is_some()),
                ("--model-info", self.model_info.is_some()),
            ];
            if let Some((flag, _)) = others.iter().find(|(_, given)| *given) {
                return Err(format!("{reader} reads a reply; {flag} does not apply"));
            }
            let input = self.input.ok_or_else(|| {
                format!("{reader} needs the FILE to read (- reads standard input)")
            })?;
            let task = match (self.reply, self.stream, self.error) {
                (Some(provider), _, _) => Task::Reply {
                    provider,
                    compact: self.compact_reply,
                    stream: None,
                    outcome: self.outcome,
                },
                (None, Some(provider), _) => Task::Reply {
                    provider,
                    compact: false,
                    stream: Some(self.chunk.unwrap_or(4096)),
                    outcome: self.outcome,
                },
                (None, None, Some((provider, status))) => Task::Error {
                    provider,
                    status,
                    headers: self.headers,
                },
                (None, None, None) => return Err("nothing to read".to_owned()),
            };
            return Ok(Options {
                task,
                pretty: self.pretty,
                input,
            });
        }
        if let Some(id) = self.model_info {
            let others = [
                ("--provider", self.provider.is_some()),
                ("--model", self.model.is_some()),
                ("--rewrite", self.rewrite.is_some()),
                ("--estimate", self.estimate),
                ("FILE", self.input.is_some()),
            ];
            if let Some((flag, _)) = others.iter().find(|(_, given)| *given) {
                return Err(format!(
                    "--model-info prints a model; {flag} does not apply"
                ));
            }
            return Ok(Options {
                task: Task::ModelInfo(id),
                pretty: self.pretty,
                input: Input::Sample,
            });
        }
        if let Some(record) = self.rewrite {
            let others = [
                ("--provider", self.provider.is_some()),
                ("--model", self.model.is_some()),
                ("--vision", self.vision.is_some()),
                ("--estimate", self.estimate),
                ("--pretty", self.pretty),
                ("FILE", self.input.is_some()),
            ];
            if let Some((flag, _)) = others.iter().find(|(_, given)| *given) {
                return Err(format!(
                    "--rewrite prints the record; {flag} does not apply"
                ));
            }
            return Ok(Options {
                task: Task::Rewrite,
                pretty: self.pretty,
                input: record,
            });
        }
        if self.family.is_some() && !self.estimate && self.budget.is_none() {
            return Err("--family needs --estimate or --budget".to_owned());
        }
        let provider = self.provider.flatten();
        // Only one input can be standard input.
        let stdin = [
            self.input.as_ref(),
            self.live.as_ref(),
            self.tools.as_ref(),
            self.schema.as_ref(),
            self.store_turn.as_ref(),
            self.store_interrupted.as_ref().and_then(Option::as_ref),
            self.forecast.as_ref(),
        ]
        .into_iter()
        .flatten()
        .chain(
            self.rounds
                .iter()
                .flat_map(|(reply, outputs)| [reply, outputs]),
        )
        .filter(|input| **input == Input::Stdin)
        .count();
        if stdin > 1 {
            return Err("only one of the inputs can read standard input".to_owned());
        }
        let close = match (self.store_turn, self.store_interrupted) {
            (Some(_), Some(_)) => {
                return Err("--store-turn and --store-interrupted are one each".to_owned())
            }
            (Some(last), None) => Some(("--store-turn", Close::Last(last))),
            (None, Some(partial)) => Some(("--store-interrupted", Close::Interrupted(partial))),
            (None, None) => None,
        };
        if let Some((name, close)) = close {
            let provider =
                provider.ok_or_else(|| format!("{name} needs a --provider other than neutral"))?;
            let printing = [("--estimate", self.estimate), ("--request", self.request)];
            if let Some((flag, _)) = printing.iter().find(|(_, given)| *given) {
                return Err(format!(
                    "{name} prints a stored message; {flag} does not apply"
                ));
            }
            return Ok(Options {
                task: Task::StoreTurn {
                    provider,
                    rounds: self.rounds,
                    close,
                },
                pretty: self.pretty,
                input: self.input.unwrap_or(Input::Sample),
            });
        }
        if self.request && self.estimate {
            return Err("--request prints the request; --estimate does not apply".to_owned());
        }
        if self.estimate && provider.is_none() {
            return Err("--estimate needs a --provider other than neutral".to_owned());
        }
        let input = self.input.unwrap_or(Input::Sample);
        // Each provider's usual family, when none is named.
        let rule = match (self.family, provider) {
            (Some(rule), _) => Some(rule),
            (None, Some(Provider::Anthropic | Provider::Bedrock)) => image_tokens("claude"),
            (None, Some(Provider::Gemini)) => image_tokens("gemini-2"),
            (None, _) => image_tokens("gpt-4o"),
        };
        let family = rule.filter(|_| self.estimate);
        let compaction = match (
            self.compact_at,
            &self.compact_instructions,
            self.compact_pause,
        ) {
            (Some(tokens), instructions, pause) => {
                let mut ask = Compaction::at(tokens);
                if let Some(instructions) = instructions {
                    ask = ask.instructions(instructions.clone());
                }
                Some(if pause { ask.pause() } else { ask })
            }
            // A summary request takes the instructions alone: no threshold applies to it.
            (None, Some(instructions), false) if self.summary_request => {
                Some(Compaction::at(u64::MAX).instructions(instructions.clone()))
            }
            (None, Some(_), _) => {
                return Err("--compact-instructions needs --compact-at".to_owned())
            }
            (None, None, true) => return Err("--compact-pause needs --compact-at".to_owned()),
            (None, None, false) => None,
        };
        let instead = match (self.summary_request, self.compact_request) {
            (true, true) => {
                return Err("--summary-request and --compact-request are one each".to_owned())
            }
            (true, false) => Some(Instead::Summary),
            (false, true) => Some(Instead::Compact),
            (false, false) => None,
        };
        if let Some(flag) = instead.and(self.request.then_some("--request")) {
            return Err(format!(
                "{flag} prints the turn's request; it does not apply to another"
            ));
        }
        if self.forecast.is_some() && (self.estimate || self.request || instead.is_some()) {
            return Err(
                "--forecast prints the forecast of the turn's body; nothing else".to_owned(),
            );
        }
        if instead == Some(Instead::Compact) && self.estimate {
            return Err(
                "--compact-request prints the request; --estimate does not apply".to_owned(),
            );
        }
        let body = match self.model {
            Some(model) => {
                if provider.is_none() {
                    return Err("--model needs a --provider other than neutral".to_owned());
                }
                Some(Box::new(BodyOptions {
                    model,
                    system: self.system.unwrap_or_default(),
                    preamble: !self.no_preamble,
                    live: self.live,
                    max_tokens: self.max_tokens,
                    cache: self.cache,
                    tools: self.tools,
                    tool_choice: self.tool_choice,
                    rounds: self.rounds,
                    budget: self.budget.zip(rule),
                    streaming: self.streaming,
                    request: self.request,
                    reasoning: self.reasoning,
                    temperature: self.temperature,
                    compaction,
                    instead,
                    forecast: self.forecast,
                    stop: self.stop,
                    schema: self.schema,
                    region: self.region,
                }))
            }
            None => {
                let body_only = [
                    ("--system", self.system.is_some()),
                    ("--no-preamble", self.no_preamble),
                    ("--live", self.live.is_some()),
                    ("--max-tokens", self.max_tokens.is_some()),
                    ("--cache", self.cache.is_some()),
                    ("--tools", self.tools.is_some()),
                    ("--tool-choice", self.tool_choice.is_some()),
                    ("--round", !self.rounds.is_empty()),
                    ("--budget", self.budget.is_some()),
                    ("--streaming", self.streaming),
                    ("--request", self.request),
                    ("--reasoning", self.reasoning.is_some()),
                    ("--temperature", self.temperature.is_some()),
                    ("--compact-at", self.compact_at.is_some()),
                    ("--summary-request", self.summary_request),
                    ("--compact-request", self.compact_request),
                    ("--forecast", self.forecast.is_some()),
                    ("--stop", !self.stop.is_empty()),
                    ("--schema", self.schema.is_some()),
                    ("--region", self.region.is_some()),
                ];
                if let Some((flag, _)) = body_only.iter().find(|(_, given)| *given) {
                    return Err(format!("{flag} needs --model"));
                }
                None
            }
        };
        Ok(Options {
            task: Task::Replay {
                vision: self.vision.unwrap_or(Vision::Sees),
                provider,
                body,
                family,
            },
            pretty: self.pretty,
            input,
        })
    }
}

/// Sets an option once; a second value is an error rather than a guess.
fn set<T>(slot: &mut Option<T>, value: T, name: &str) -> Result<(), String> {
    match slot.replace(value) {
        Some(_) => Err(format!("{name} given twice")),
        None => Ok(()),
    }
}
