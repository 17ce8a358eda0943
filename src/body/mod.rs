//! Whole requests: what a runtime sends, built from the stored record, the live turn and the
//! caller's own instructions, fields and in-flight messages.
//!
//! [`Turn`] says what a turn's request is made of; each provider's `body` assembles it under
//! that provider's rules (`assemble.rs`), and writes it in the provider's shape.

mod assemble;
mod build;
pub(crate) mod fields;
mod half;
mod reply_schema;
pub(crate) mod request;
mod store;
mod summary;

use std::borrow::Cow;
use std::sync::Arc;

use serde::ser::Serialize;

use crate::fit::Budget;
use crate::record::compaction::{self, Sent};
use crate::record::StoredMessage;
use crate::render::rules::{ImageLimits, Rules};
use crate::replay::Vision;
use crate::reply::Reply;
use crate::turn::cache::Cache;
use crate::turn::params::{Params, Reasoning};
use crate::turn::rounds::{Round, ToolOutput};
use crate::turn::tools::{Tool, ToolChoice};

pub(crate) use self::assemble::{assemble, Assembled, AssembledRound};
pub(crate) use self::build::{build, Report};
pub(crate) use self::fields::{with_member, write_fields, Appended, Entries, Fields, Turns};
pub(crate) use self::half::{priced_body, Half, RoundElement};
pub use self::summary::SUMMARY_REQUEST;
pub(crate) use crate::errors::body::BodyError;
pub(crate) use crate::turn::rounds::Answer;

use self::fields::read_fields;
pub(crate) use crate::errors::body::Kind;

/// Everything one turn's request is made of, for any provider: the stored history, the live
/// turn, the caller's instructions, and the caller's own fields and in-flight messages.
///
/// Each provider module builds its whole request body from a `Turn` (`openai::body`,
/// `anthropic::body`, `gemini::body`, `openai_responses::body`, `bedrock::body`), and so does
/// [`Provider::body`](crate::Provider::body) for whichever provider a runtime names. The body
/// borrows the record and serializes straight into the output: the history is never copied
/// into a `serde_json::Value`.
///
/// - **System text**: the caller's instructions, a blank line, and [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE) (just
///   the preamble when the instructions are empty or white space; just the instructions after
///   [`without_preamble`](Turn::without_preamble)). Each provider places it first, as its
///   own block or part, before the history's leading system messages.
/// - **History and live turn** are replayed with the same [`Vision`](crate::Vision), and the provider's
///   rules apply to them as one conversation: images of a tool round land in the next user
///   message, whether that is in the history or the live turn; request limits count them all.
/// - **Appended messages** are the caller's own provider-native messages, serialized
///   verbatim after the live turn (an in-flight tool round with real call ids).
/// - **Fields** are the caller's top-level fields (model, max_tokens, tools, ...), written
///   first, in their order, beside the crate's own.
///
/// # Where the system text goes
///
/// S is the caller's instructions, a blank line, and the preamble. H is the history's leading
/// system messages, joined by a blank line.
///
/// | provider | in the body |
/// |---|---|
/// | OpenAI Chat | a first `{"role":"system","content":S}` message; the history's system messages stay in place |
/// | OpenAI Responses | `"instructions":S`; the history's system messages stay in place in `input` |
/// | Anthropic | `"system":[{"type":"text","text":S},{"type":"text","text":H}]` |
/// | Gemini | `"systemInstruction":{"parts":[{"text":S},{"text":H}]}` |
/// | Bedrock Converse | `"system":[{"text":S},{"text":H}]` |
///
/// A block or part is left out when it is empty, and the field when both are. A later system
/// message (a compaction summary mid-conversation) stays in place, as a `user` turn beginning
/// `[System]: ` for the providers that hoist.
///
/// # Sequencing
///
/// Over the whole request (history, live turn, and the appended messages whose role is
/// known): a body never ends on an assistant or model turn (the model would have nothing to
/// answer), unless the turn asks Anthropic for a [prefill](Turn::prefill); Gemini and Bedrock
/// never carry two adjacent turns of one role (the crate merges its own, and refuses an
/// appended message next to a turn of its role); Bedrock starts on a user turn; and a body
/// has at least one user or model turn: system text alone asks nothing, Anthropic, Gemini
/// and Bedrock reject it, and so do servers compatible with OpenAI's API (for example
/// "The input messages do not contain elements with the role of user",
/// <https://github.com/langfuse/langfuse/issues/10513>). Where the crate cannot meet a rule
/// without inventing content, the provider's `body` returns a [`BodyError`] that says which
/// rule, never a request the provider rejects. Each provider module lists what was found
/// about its rules, with sources. Checked by `conformance/tests/conformance/body_schemas.rs` over
/// generated records, and byte for byte by `tests/spec/body_golden.rs`.
///
/// # Tool screenshots
///
/// OpenAI Chat, OpenAI Responses, Anthropic and Bedrock take images only in user messages,
/// and a tool round replays as the assistant's turn. So an assistant turn's image goes,
/// natively, to the start of the next user message of the request (history or live turn),
/// after the text `[Image (image/png) from an earlier turn]`; in its own turn it leaves
/// `[Image (image/png) not shown: it is shown in the next user message]`. Where no user
/// message follows, it stays a marker. Request limits count a carried image where it lands.
///
/// A tool's files in the history (a PDF it returned, stored after its result) go the same way
/// on the same four providers, which take files only in user messages: to the start of the
/// next user message, after `[File report.pdf (application/pdf) from an earlier turn]` (the
/// text beside it that Bedrock requires), leaving `[File report.pdf (application/pdf) not
/// shown: it is shown in the next user message]`, judged and limited as a user message's
/// files are. Gemini takes them where they are.
///
/// # Every turn reuses the last
///
/// Providers' prompt caches reuse only an exact prefix of the request. For a record R and a
/// longer record R' that begins with R, the body for R' begins with every byte of the body for
/// R up to the start of the provider turn that carries R's last stored message: the caller's
/// fields, the system text and every earlier turn, whatever the live turns were
/// (`conformance/tests/conformance/append_stability.rs`). What changes that prefix: a different vision
/// flag, instructions, preamble or fields, and the set of withheld images, which changes when a
/// request limit first binds and then once per step ([`ImageLimits::withholding_step`]).
/// OpenAI and Gemini cache a prefix by themselves (for OpenAI, pass a `prompt_cache_key` in
/// the fields to route a conversation to one cache); Anthropic and Bedrock cache at
/// breakpoints ([`Turn::cache`]).
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{anthropic, parse_record, StoredMessage, Turn};
///
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "Is a.rs empty?"}]},
///   {"role": "assistant", "blocks": [{"type": "text", "text": "Yes."}]}
/// ]"#)?;
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&record)
///     .instructions("You are a careful coding agent.")
///     .live(&live)
///     .fields(&json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}));
/// let body = anthropic::body(&turn).expect("a valid request");
/// let json: serde_json::Value = serde_json::to_value(&body).unwrap();
/// assert_eq!(json["model"], "claude-sonnet-4-5");
/// assert_eq!(json["messages"].as_array().unwrap().len(), 3);
/// assert!(json["system"][0]["text"].as_str().unwrap().starts_with("You are a careful coding agent.\n\nEarlier turns"));
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Turn<'a> {
    history: &'a [StoredMessage],
    /// Borrowed from the caller, or the turn's own (a summary request's question).
    live: Cow<'a, [StoredMessage]>,
    vision: Vision,
    instructions: &'a str,
    preamble: bool,
    prefill: bool,
    cache: Option<Cache>,
    limits: Option<ImageLimits>,
    // Shared with every body built from this turn, so that a body borrows nothing of it.
    fields: Arc<Fields>,
    appended: Arc<Appended>,
    problem: Option<BodyError>,
    tools: &'a [Tool],
    tool_choice: Option<ToolChoice>,
    rounds: Vec<Round<'a>>,
    pub(crate) budget: Option<Budget<'a>>,
    pub(crate) params: Params,
    /// Whether the request is answered by no reply: it is sized (an estimate) or compacted,
    /// and so may end on the model's turn.
    pub(crate) unanswered: bool,
}

impl<'a> Turn<'a> {
    /// A turn over the stored history, for a model that sees, with the preamble, no
    /// instructions, no live turn, no fields and nothing appended.
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble();
    /// let body = openai::body(&turn).unwrap();
    /// assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"messages":[{"role":"user","content":"Hi"}]}"#);
    /// ```
    pub fn new(history: &'a [StoredMessage]) -> Self {
        Turn {
            history,
            live: Cow::Borrowed(&[]),
            vision: Vision::Sees,
            instructions: "",
            preamble: true,
            prefill: false,
            cache: None,
            limits: None,
            fields: Arc::default(),
            appended: Arc::default(),
            problem: None,
            tools: &[],
            tool_choice: None,
            rounds: Vec::new(),
            budget: None,
            params: Params::default(),
            unanswered: false,
        }
    }

    /// The model, written where the provider takes it: the body's `model` for OpenAI Chat,
    /// Responses, Anthropic and compatible servers; the path for Gemini and Bedrock
    /// ([`Provider::request`](crate::Provider::request)).
    ///
    /// The neutral parameters ([`model`](Turn::model), [`max_output`](Turn::max_output),
    /// [`reasoning`](Turn::reasoning), [`stream`](Turn::stream),
    /// [`temperature`](Turn::temperature), [`stop`](Turn::stop),
    /// [`reply_schema`](Turn::reply_schema)) are written before the
    /// caller's own [`fields`](Turn::fields), each as the provider names it; a caller's field
    /// that says the same thing (under any provider's name for it) is an error that names
    /// both, and an object both write (Gemini's `generationConfig`, Bedrock's
    /// `inferenceConfig`) is merged.
    ///
    /// ```
    /// use transcript_replay::{Provider, Reasoning, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history)
    ///     .without_preamble()
    ///     .model("claude-sonnet-4-5")
    ///     .max_output(4096)
    ///     .reasoning(Reasoning::Budget(2048))
    ///     .stream(true)
    ///     .stop(&["END"]);
    /// let body = serde_json::to_string(&transcript_replay::anthropic::body(&turn)?).unwrap();
    /// assert!(body.starts_with(concat!(
    ///     r#"{"model":"claude-sonnet-4-5","max_tokens":4096,"#,
    ///     r#""thinking":{"budget_tokens":2048,"type":"enabled"},"stream":true,"stop_sequences":["END"],"#,
    /// )));
    /// // OpenAI's reasoning models take no stop sequences: the same turn without reasoning.
    /// let turn = Turn::new(&history)
    ///     .without_preamble()
    ///     .model("gpt-4.1")
    ///     .max_output(4096)
    ///     .stream(true)
    ///     .stop(&["END"]);
    /// let openai = serde_json::to_string(&transcript_replay::openai::body(&turn)?).unwrap();
    /// assert!(openai.starts_with(concat!(
    ///     r#"{"model":"gpt-4.1","max_completion_tokens":4096,"#,
    ///     r#""stream":true,"stream_options":{"include_usage":true},"stop":["END"],"#,
    /// )));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn model(mut self, model: &str) -> Self {
        self.params.model = Some(model.to_owned());
        self.params.max_output = crate::models::capped_output(Some(model), self.params.max_output);
        self
    }

    /// The most tokens the reply may have: OpenAI Chat's `max_completion_tokens` (a
    /// compatible server's own field, [`Dialect::output_limit`](crate::Dialect::output_limit)),
    /// Responses' `max_output_tokens`, Anthropic's `max_tokens`, Gemini's
    /// `generationConfig.maxOutputTokens`, Bedrock's `inferenceConfig.maxTokens`. For a
    /// [`model`](Turn::model) the catalog holds ([`models::find`](crate::models::find)), at
    /// most the model's own output limit, whichever builder comes first.
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble().max_output(100);
    /// let body = serde_json::to_value(transcript_replay::gemini::body(&turn)?).unwrap();
    /// assert_eq!(body["generationConfig"]["maxOutputTokens"], 100);
    /// // gpt-4o writes at most 16,384 tokens.
    /// let turn = Turn::new(&history).max_output(100_000).model("gpt-4o");
    /// let body = serde_json::to_value(transcript_replay::openai::body(&turn)?).unwrap();
    /// assert_eq!(body["max_completion_tokens"], 16_384);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn max_output(mut self, tokens: u32) -> Self {
        self.params.max_output =
            crate::models::capped_output(self.params.model.as_deref(), Some(tokens));
        self
    }

    /// How much the model thinks ([`Reasoning`]): OpenAI Chat's `reasoning_effort`;
    /// Responses' `reasoning.effort`, with `include: ["reasoning.encrypted_content"]` and
    /// `store: false` so that the round in flight can carry the reasoning back; Anthropic's
    /// `thinking` (its budget at least 1,024 tokens and under `max_tokens`, and no
    /// temperature beside it, or the error); Gemini's
    /// `generationConfig.thinkingConfig.thinkingBudget`; Bedrock's
    /// `additionalModelRequestFields.thinking` (Claude's form).
    ///
    /// ```
    /// use transcript_replay::{Provider, Reasoning, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble().reasoning(Reasoning::High);
    /// let body = serde_json::to_value(transcript_replay::openai_responses::body(&turn)?).unwrap();
    /// assert_eq!(body["reasoning"]["effort"], "high");
    /// assert_eq!(body["include"][0], "reasoning.encrypted_content");
    /// assert_eq!(body["store"], false);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn reasoning(mut self, reasoning: Reasoning) -> Self {
        self.params.reasoning = Some(reasoning);
        self
    }

    /// Whether the reply is asked for as a stream: `"stream": true` (with OpenAI's
    /// `stream_options.include_usage`, without which a stream carries no usage); Gemini and
    /// Bedrock ask in the path ([`Provider::request`](crate::Provider::request)).
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble().model("gemini-2.5-flash").stream(true);
    /// assert_eq!(serde_json::to_string(&transcript_replay::gemini::body(&turn)?).unwrap(),
    ///     r#"{"contents":[{"role":"user","parts":[{"text":"Hi"}]}]}"#);
    /// assert!("gemini".parse::<Provider>().unwrap().request(&turn).path.ends_with(":streamGenerateContent?alt=sse"));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn stream(mut self, stream: bool) -> Self {
        self.params.stream = stream;
        self
    }

    /// Asks the provider to compact the conversation on its side once the input reaches the
    /// [`Compaction`](crate::Compaction)'s threshold: Anthropic's `context_management` edit
    /// `compact_20260112` (with its instructions and whether to pause after it, and the header
    /// `anthropic-beta: compact-2026-01-12`,
    /// <https://platform.claude.com/docs/en/build-with-claude/compaction>), Responses'
    /// `context_management` entry of type `compaction` with its `compact_threshold` (at least
    /// 1,000 tokens, and neither instructions nor a pause, which Responses does not take,
    /// <https://platform.openai.com/docs/guides/conversation-state#managing-the-context-window>).
    /// Any other provider compacts on no request of its own: the body is then the error naming
    /// it (there the runtime summarizes the history itself, and stores the summary as a
    /// [`Block::compaction`](crate::Block::compaction)).
    ///
    /// ```
    /// use transcript_replay::{gemini, openai_responses, Compaction, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble().compaction(Compaction::at(50_000));
    /// let body = serde_json::to_value(openai_responses::body(&turn)?).unwrap();
    /// assert_eq!(body["context_management"][0]["compact_threshold"], 50_000);
    /// assert!(gemini::body(&turn).is_err());
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn compaction(mut self, compaction: crate::turn::params::Compaction) -> Self {
        self.params.compaction = Some(compaction);
        self
    }

    /// The sampling temperature: `temperature` (Gemini's and Bedrock's in their
    /// configuration objects).
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble().temperature(0.2);
    /// let body = serde_json::to_value(transcript_replay::bedrock::body(&turn)?).unwrap();
    /// assert_eq!(body["inferenceConfig"]["temperature"], 0.2);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.params.temperature = Some(temperature);
        self
    }

    /// Sequences that end the reply: OpenAI Chat's `stop` (at most 4), Anthropic's
    /// `stop_sequences`, Gemini's `generationConfig.stopSequences`, Bedrock's
    /// `inferenceConfig.stopSequences`; Responses takes none, and a body for it with stop
    /// sequences is an error.
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).stop(&["END"]);
    /// assert_eq!(
    ///     transcript_replay::openai_responses::body(&turn).unwrap_err().to_string(),
    ///     "OpenAI takes no stop sequences: the turn's stop cannot be written",
    /// );
    /// ```
    #[must_use]
    pub fn stop(mut self, sequences: &[&str]) -> Self {
        self.params.stop = sequences.iter().map(|&text| text.to_owned()).collect();
        self
    }

    /// The tools the turn declares.
    pub(crate) fn tools_given(&self) -> &'a [Tool] {
        self.tools
    }

    /// The turn's model, when it was given one.
    pub(crate) fn model_name(&self) -> Option<&str> {
        self.params.model.as_deref()
    }

    pub(crate) fn rounds_given(&self) -> &[Round<'a>] {
        &self.rounds
    }

    /// The output limit the turn asks for, when it asks for one.
    pub(crate) fn max_output_given(&self) -> Option<u32> {
        self.params.max_output
    }

    /// Whether the turn asks for a streamed reply.
    pub(crate) fn streams(&self) -> bool {
        self.params.stream
    }

    /// Whether the model sees images; history and live turn are replayed with it.
    ///
    /// ```
    /// use transcript_replay::{gemini, Block, Role, StoredMessage, Turn, Vision};
    ///
    /// let history = [StoredMessage::new(Role::User, vec![Block::image("image/png", "iVBORw0KGgo=")])];
    /// let turn = Turn::new(&history).vision(Vision::Blind).without_preamble();
    /// let body = gemini::body(&turn).unwrap();
    /// assert!(serde_json::to_string(&body).unwrap().contains("this model cannot view images"));
    /// ```
    #[must_use]
    pub fn vision(mut self, vision: Vision) -> Self {
        self.vision = vision;
        self
    }

    /// The caller's own system prompt, placed before [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE).
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).instructions("Be brief.").without_preamble();
    /// assert_eq!(
    ///     serde_json::to_string(&openai::body(&turn).unwrap()).unwrap(),
    ///     r#"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}"#,
    /// );
    /// ```
    #[must_use]
    pub fn instructions(mut self, instructions: &'a str) -> Self {
        self.instructions = instructions;
        self
    }

    /// Leaves [`REPLAY_PREAMBLE`](crate::REPLAY_PREAMBLE) out of the system text: for a caller that already has it
    /// in its instructions, or that sends no replayed tool rounds.
    ///
    /// ```
    /// use transcript_replay::{anthropic, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).without_preamble();
    /// let body = anthropic::body(&turn).unwrap();
    /// assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}]}"#);
    /// ```
    #[must_use]
    pub fn without_preamble(mut self) -> Self {
        self.preamble = false;
        self
    }

    /// The live turn: stored messages not stored yet (usually one user message), replayed
    /// after the history with the same vision.
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
    /// let live = [StoredMessage::user("Bye")];
    /// let turn = Turn::new(&history).live(&live).without_preamble();
    /// let body = openai::body(&turn).unwrap();
    /// assert!(serde_json::to_string(&body).unwrap().ends_with(r#"{"role":"user","content":"Bye"}]}"#));
    /// ```
    #[must_use]
    pub fn live(mut self, live: &'a [StoredMessage]) -> Self {
        self.live = Cow::Borrowed(live);
        self
    }

    /// Adds the caller's own top-level fields (model, max_tokens, tools, temperature, ...):
    /// anything that serializes as a JSON object. They are written first, in the order they
    /// serialize in (a `serde_json::json!` object sorts its keys; a struct keeps its field
    /// order); a later call adds more. A field the crate writes itself (`messages`, `system`, ...),
    /// a field given twice, or a value that is no object makes the body an error.
    ///
    /// ```
    /// use serde_json::json;
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history)
    ///     .without_preamble()
    ///     .fields(&json!({"model": "gpt-4.1"}))
    ///     .fields(&json!({"temperature": 0}));
    /// assert_eq!(
    ///     serde_json::to_string(&openai::body(&turn).unwrap()).unwrap(),
    ///     r#"{"model":"gpt-4.1","temperature":0,"messages":[{"role":"user","content":"Hi"}]}"#,
    /// );
    /// let clash = Turn::new(&history).fields(&json!({"messages": []}));
    /// assert_eq!(
    ///     openai::body(&clash).unwrap_err().to_string(),
    ///     "the caller's field `messages` is one the crate writes in a request to OpenAI",
    /// );
    /// ```
    #[must_use]
    pub fn fields(mut self, fields: &impl Serialize) -> Self {
        if self.problem.is_none() {
            if let Err(problem) = read_fields(fields, Arc::make_mut(&mut self.fields)) {
                self.problem = Some(problem);
            }
        }
        self
    }

    /// Appends one of the caller's own provider-native messages after the live turn,
    /// serialized verbatim: the messages of a tool round in flight, with real call ids. When
    /// it has a `role`, the body's sequencing rules count it.
    ///
    /// The body is an error when the message is not a JSON object, or when its `role` is not
    /// a string the provider knows (`system`, `developer`, `user`, `assistant`, `tool` or
    /// `function` for OpenAI Chat; `system`, `developer`, `user` or `assistant` for
    /// Responses, whose other items have no role; `user` or `assistant` for Anthropic and
    /// Bedrock; `user` or `model` for Gemini): the crate writes no `null` and no message a
    /// provider cannot read.
    ///
    /// ```
    /// use serde_json::json;
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("List the files.")];
    /// let turn = Turn::new(&history)
    ///     .without_preamble()
    ///     .append(&json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ///         "function": {"name": "ls", "arguments": "{}"}}]}))
    ///     .append(&json!({"role": "tool", "tool_call_id": "call_1", "content": "a.rs"}));
    /// let body = serde_json::to_string(&openai::body(&turn).unwrap()).unwrap();
    /// assert!(body.ends_with(r#"{"content":"a.rs","role":"tool","tool_call_id":"call_1"}]}"#));
    ///
    /// let null = Turn::new(&history).append(&serde_json::Value::Null);
    /// assert_eq!(openai::body(&null).unwrap_err().to_string(), "appended message 0 must be a JSON object, not null");
    /// let robot = Turn::new(&history).append(&json!({"role": "robot"}));
    /// assert_eq!(
    ///     transcript_replay::anthropic::body(&robot).unwrap_err().to_string(),
    ///     r#"appended message 0 has the role "robot", which is none of Anthropic's: expected "user" or "assistant""#,
    /// );
    /// ```
    #[must_use]
    pub fn append(mut self, message: &impl Serialize) -> Self {
        if self.problem.is_none() {
            match serde_json::value::to_raw_value(message) {
                Ok(raw) => Arc::make_mut(&mut self.appended).push(raw),
                Err(error) => {
                    self.problem = Some(BodyError::new(Kind::NotJson(error.to_string())));
                }
            }
        }
        self
    }

    /// Asks for a prefill: the body may end on an assistant turn, which the model continues
    /// (Anthropic only; its trailing white space is left out, as Anthropic requires). Other
    /// providers refuse it with an error.
    ///
    /// ```
    /// use transcript_replay::{anthropic, openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Name a colour."), StoredMessage::assistant("The colour is ")];
    /// let turn = Turn::new(&history).without_preamble().prefill();
    /// assert!(serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap().contains(r#""text":"The colour is"}"#));
    /// assert!(openai::body(&turn).is_err());
    /// ```
    #[must_use]
    pub fn prefill(mut self) -> Self {
        self.prefill = true;
        self
    }

    /// Asks for prompt-cache breakpoints, kept for the given time, where the provider takes
    /// them (Anthropic's `cache_control`): on the system text S, at the end of the history,
    /// and 21 blocks before that end, so that a turn which added up to 40 blocks still finds
    /// what the previous turn wrote within the 20 blocks each breakpoint looks back over.
    /// Without a round in flight that is at most 3 of the 4 breakpoints a request may carry,
    /// leaving one for the caller's tool definitions. With a round, the last tool result of
    /// the last round carries one more, so that each request of the turn reads the one before
    /// it from the cache: all 4 are then used when the history is longer than 21 blocks, and
    /// a breakpoint of the caller's own would be a fifth, which Anthropic refuses ("A maximum
    /// of 4 blocks with cache_control may be provided"). Bedrock gets `cachePoint` blocks at
    /// the same places. OpenAI and Gemini cache a request's prefix by themselves: for them
    /// this changes nothing.
    ///
    /// `conformance/tests/conformance/prompt_cache.rs` simulates Anthropic's documented cache on agent
    /// conversations of 60 turns, each adding up to 40 blocks (tool rounds, some with
    /// screenshots): after the first turn, 0.965 to 0.968 of the history's bytes are read from
    /// the cache (three seeds); the rest is what each turn added.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Cache, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
    /// let live = [StoredMessage::user("Bye")];
    /// let turn = Turn::new(&history).instructions("Be brief.").without_preamble().live(&live).cache(Cache::OneHour);
    /// assert_eq!(
    ///     serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap(),
    ///     concat!(
    ///         r#"{"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral","ttl":"1h"}}],"#,
    ///         r#""messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]},"#,
    ///         r#"{"role":"assistant","content":[{"type":"text","text":"Hello!","cache_control":{"type":"ephemeral","ttl":"1h"}}]},"#,
    ///         r#"{"role":"user","content":[{"type":"text","text":"Bye"}]}]}"#,
    ///     ),
    /// );
    /// ```
    #[must_use]
    pub fn cache(mut self, cache: Cache) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The image limits to apply, instead of the provider's documented defaults (its
    /// `LIMITS`): for example 600 images a request on Anthropic models with a smaller context.
    ///
    /// ```
    /// use transcript_replay::{anthropic, ImageLimits, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).limits(ImageLimits { images_per_request: 600, ..anthropic::LIMITS });
    /// assert!(anthropic::body(&turn).is_ok());
    /// ```
    #[must_use]
    pub fn limits(mut self, limits: ImageLimits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// The tools the model may call, declared once: each provider writes them in its own shape
    /// (OpenAI Chat `tools[].function`, Responses `tools[]`, Anthropic `tools[].input_schema`,
    /// Gemini `tools[].functionDeclarations[].parametersJsonSchema`, Bedrock
    /// `toolConfig.tools[].toolSpec`), after the caller's fields and before the conversation,
    /// so that they stay in every request's cached prefix. A name the provider refuses, or a
    /// name given twice, makes the body an error that names the rule.
    ///
    /// ```
    /// use transcript_replay::{anthropic, StoredMessage, Tool, ToolChoice, Turn};
    ///
    /// let tools = [Tool::new("read", "Reads a file.", r#"{"type":"object","properties":{"path":{"type":"string"}}}"#)?];
    /// let history = [StoredMessage::user("What is in a.rs?")];
    /// let turn = Turn::new(&history).without_preamble().tools(&tools).tool_choice(ToolChoice::Auto);
    /// assert_eq!(
    ///     serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap(),
    ///     concat!(
    ///         r#"{"tools":[{"name":"read","description":"Reads a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}],"#,
    ///         r#""tool_choice":{"type":"auto"},"messages":[{"role":"user","content":[{"type":"text","text":"What is in a.rs?"}]}]}"#,
    ///     ),
    /// );
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    #[must_use]
    pub fn tools(mut self, tools: &'a [Tool]) -> Self {
        self.tools = tools;
        self
    }

    /// Which tools the model may or must call ([`ToolChoice`]), in the provider's words. A
    /// choice without tools, a choice naming no declared tool, or one the provider cannot
    /// express (Bedrock has no `none`) makes the body an error.
    ///
    /// ```
    /// use transcript_replay::{bedrock, StoredMessage, Tool, ToolChoice, Turn};
    ///
    /// let tools = [Tool::new("ls", "Lists files.", "{}")?];
    /// let history = [StoredMessage::user("List them.")];
    /// let turn = Turn::new(&history).tools(&tools).tool_choice(ToolChoice::None);
    /// assert_eq!(
    ///     bedrock::body(&turn).unwrap_err().to_string(),
    ///     "Bedrock cannot express the tool choice `none`",
    /// );
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    #[must_use]
    pub fn tool_choice(mut self, choice: ToolChoice) -> Self {
        self.tool_choice = Some(choice);
        self
    }

    /// Adds a round of the turn in flight: a reply that called tools, and the outputs of those
    /// calls. Rounds are written after the live turn, in order, natively: the reply's own
    /// content byte for byte as it came (with its signatures and encrypted reasoning), less
    /// only what the provider refuses back (OpenAI Chat's `null` fields and what only a
    /// response has; Anthropic's and Bedrock's blank text blocks), then one result per
    /// call in the calls' order, linked by the call's id (see each provider module for its
    /// shape). A call without an output, an output for no call, an output given twice, or a
    /// reply of another provider makes the body an error that names the round and the id.
    ///
    /// At the end of the turn, [`store_turn`](Turn::store_turn) makes the one stored message
    /// the rounds and the final reply become; from the next turn on, it replays as prose.
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, ToolOutput, Turn};
    ///
    /// let history = [StoredMessage::user("What is in a.rs?")];
    /// let reply = openai::read_reply(concat!(
    ///     r#"{"choices":[{"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"#,
    ///     r#""tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}}]}}]}"#,
    /// )).unwrap();
    /// let outputs = [ToolOutput::ok("call_1", "fn main() {}")];
    /// let turn = Turn::new(&history).without_preamble().round(&reply, &outputs);
    /// let body = serde_json::to_string(&openai::body(&turn).unwrap()).unwrap();
    /// assert!(body.ends_with(concat!(
    ///     r#"{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a.rs\"}"}}]},"#,
    ///     r#"{"role":"tool","tool_call_id":"call_1","content":"fn main() {}"}]}"#,
    /// )));
    /// ```
    #[must_use]
    pub fn round(mut self, reply: &'a Reply, outputs: &'a [ToolOutput]) -> Self {
        self.rounds.push(Round {
            reply: Cow::Borrowed(reply),
            outputs: Cow::Borrowed(outputs),
        });
        self
    }

    /// Adds a round the turn owns: the reply that called tools and the outputs of its calls,
    /// as [`round`](Turn::round) does, so that an agent loop keeps one value, the turn, and
    /// pushes each round onto it. A body built from the turn borrows it.
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Tool, ToolOutput, Turn};
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?")];
    /// let tools = [Tool::new("read", "Reads a file.", r#"{"type":"object"}"#).unwrap()];
    /// let provider: Provider = "anthropic".parse().unwrap();
    /// let mut turn = Turn::new(&history).tools(&tools);
    /// let replies = [
    ///     r#"{"content": [{"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.rs"}}], "stop_reason": "tool_use"}"#,
    ///     r#"{"content": [{"type": "text", "text": "Yes."}], "stop_reason": "end_turn"}"#,
    /// ];
    /// for body in replies {
    ///     let _request = provider.body(&turn)?; // sent; the reply is `body`
    ///     let reply = provider.read_reply(body).unwrap();
    ///     if reply.calls().is_empty() {
    ///         let stored = turn.store_turn(&reply)?;
    ///         assert_eq!(stored.blocks.len(), 3);
    ///         break;
    ///     }
    ///     let outputs = reply.calls().iter().map(|call| ToolOutput::ok(call.id, "")).collect();
    ///     turn.push_round(reply, outputs);
    /// }
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn push_round(&mut self, reply: Reply, outputs: Vec<ToolOutput>) {
        self.rounds.push(Round {
            reply: Cow::Owned(reply),
            outputs: Cow::Owned(outputs),
        });
    }

    /// Fits the body to a [`Budget`] of input tokens: when the body would exceed it, the
    /// oldest bulk of the history is withheld until it fits, each thing withheld named where
    /// it was, never silently:
    ///
    /// 1. the outputs of the oldest tool results, then the oldest tool inputs, each longer than
    ///    256 bytes: `Result (read): [output withheld to fit the context window: 12345 bytes]`,
    ///    `Tool use: write([input withheld to fit the context window: 8123 bytes])`;
    /// 2. then the oldest reasoning: `[Reasoning]: [withheld to fit the context window: 900
    ///    bytes]`;
    /// 3. then the oldest native images, as `[Image (image/png) not shown: withheld to fit the
    ///    context window]` (an image a request limit already withheld keeps its marker);
    /// 4. then the oldest long texts of user messages (a paste of a log or a file, longer than
    ///    256 bytes), each as `[text withheld to fit the context window: 88123 bytes]` in the
    ///    message, which stays: a large paste no longer takes every smaller turn before it
    ///    with it;
    /// 5. last, the oldest whole stored messages after the leading system messages, replaced by
    ///    one user turn, `[12 earlier messages withheld to fit the context window]` (merged
    ///    with the next user turn where the provider merges them). A stored message is never
    ///    split, and no sequencing rule is broken.
    ///
    /// Each class goes over the whole history before the next begins. The live turn is never
    /// withheld, nor is a round's structure (the reply's content as it came, one result per
    /// call). When what the body carries besides the history (the system text, fields, tools,
    /// live turn and rounds) does not fit the budget on its own, the outputs of the rounds in
    /// flight that are longer than 256 bytes are withheld first, oldest first and only as many
    /// as that takes, each result then reading `Result (read): [output withheld to fit the
    /// context window: 52000 bytes]` (`Error (...)` for a failed call), still linked to its
    /// call; the history is then fitted to what is left. When the record fits, the body is
    /// byte for byte the body without a budget.
    ///
    /// It is a pure function of the record, the live turn and the budget, and it moves in
    /// steps ([`Budget::step`]): as a record grows, what is withheld only grows, and changes
    /// once per step of growth, each time leaving a step of room, so that a conversation
    /// growing past its window rewrites its body (and the prompt cache) about once per step
    /// instead of on every turn. The live turn is counted in whole steps, so that its size
    /// from turn to turn does not move it. The [`Estimate`](crate::cost::Estimate) of the body says
    /// what was withheld and the tokens it freed ([`Withheld`](crate::cost::Withheld)).
    ///
    /// # Errors
    ///
    /// The body's [`BodyError`] when nothing left to withhold makes the body fit, saying by how
    /// much and what it still carries, by part, largest first (`the body needs 5049 tokens
    /// with everything a budget may withhold withheld, 4049 over the budget of 1000: round 1
    /// in flight 5037, what is left of the history 12`).
    ///
    /// Tests: `tests/spec/fit_golden.rs` (the markers, rounds, long user texts and refusals, byte
    /// for byte) and `conformance/tests/conformance/fit_budget.rs` (fits, oldest first class by class,
    /// valid for the provider, and what is withheld only grows as the record grows, with
    /// stored system messages mid-record, on all five providers).
    ///
    /// ```
    /// use transcript_replay::{anthropic, cost::image_tokens, Block, Budget, Priced, Role, StoredMessage, Turn};
    ///
    /// let read = |n: usize| StoredMessage::new(Role::Assistant, vec![
    ///     Block::tool_use(format!("t{n}"), "read", "{}"),
    ///     Block::tool_result(format!("t{n}"), "read", "fn main() {}\n".repeat(200)),
    /// ]);
    /// let history: Vec<StoredMessage> = (0..8)
    ///     .flat_map(|n| [StoredMessage::user(format!("Read file {n}.")), read(n)])
    ///     .collect();
    /// let live = [StoredMessage::user("Which files were empty?")];
    /// let claude = image_tokens("claude").unwrap();
    /// let turn = Turn::new(&history).live(&live).budget(Budget::new(4_000, claude));
    /// let body = anthropic::body(&turn)?;
    /// let estimate = body.estimate(claude);
    /// assert!(estimate.text_tokens as u64 + estimate.image_tokens <= 4_000);
    /// let withheld = estimate.withheld.unwrap();
    /// assert!(withheld.outputs > 0 && withheld.messages == 0);
    /// assert!(serde_json::to_string(&body).unwrap().contains(
    ///     "Result (read): [output withheld to fit the context window: 2600 bytes]"
    /// ));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn budget(mut self, budget: Budget<'a>) -> Self {
        self.budget = Some(budget);
        self
    }

    /// The budget the body fits its input to: a window's less the turn's `max_output`.
    pub(crate) fn budget_given(&self) -> Option<Budget<'a>> {
        Some(self.budget?.for_output(self.params.max_output))
    }

    /// What the turn sends of its history and live turn to a target under `rules`, once the
    /// newest compaction it can read is honored.
    pub(crate) fn sent(&self, rules: &Rules) -> Sent<'_> {
        Sent::new(self.history, &self.live, rules.compaction_reads())
    }

    /// Whether the turn asks for compaction, or its history, live turn or a round in flight
    /// holds a compaction made by the provider `id` (which that provider is sent back
    /// natively): the request then carries the provider's compaction headers, if it has any.
    pub(crate) fn carries_compaction_of(&self, id: &str) -> bool {
        self.params.compaction.is_some()
            || compaction::made_by(&[self.history, &self.live], id)
            || self
                .rounds
                .iter()
                .any(|round| compaction::made_by(&[std::slice::from_ref(&round.reply.message)], id))
    }

    /// The turn as a request no reply answers (an estimate's, a compact request's): it may end
    /// on the model's turn.
    pub(crate) fn unanswered(&self) -> Turn<'a> {
        let mut turn = self.clone();
        turn.unanswered = true;
        turn
    }

    /// The stored history, all of it.
    pub(crate) fn history_given(&self) -> &'a [StoredMessage] {
        self.history
    }

    pub(crate) fn vision_given(&self) -> Vision {
        self.vision
    }
}
