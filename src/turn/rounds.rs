//! The round in flight: a reply that called tools and the caller's outputs of those tools,
//! sent back natively, with their real call ids and the provider's opaque state; and, at the
//! end of the turn, the one stored message the turn becomes. Each provider writes rounds in
//! its own shape (its `round.rs`); what they share is here: the outputs, their linkage to the
//! calls, and the stored turn.
//!
//! This is separate from replay and never merged into it: stored history replays as prose,
//! and the round in flight is the one place the crate sends tool calls natively. Why:
//! `docs/design.md#rounds` in the repository.
//!
//! # The round, and the seam between turns
//!
//! Inside a turn, the model calls tools and the runtime sends the results back before anything
//! is stored: [`Turn::round`](crate::Turn::round) takes each reply that called tools, with the
//! caller's [`ToolOutput`]s, and the body writes it natively after the live turn, the reply's
//! own content byte for byte (Anthropic's thinking blocks with their signatures, Gemini's
//! `thoughtSignature`, Responses' reasoning items with their `encrypted_content`, Bedrock's
//! reasoning signatures: the state providers require back in the current turn), then one
//! result per call, linked by its id. [`Turn::tools`](crate::Turn::tools) declares the tools
//! once, neutrally ([`Tool`](crate::Tool), [`ToolChoice`](crate::ToolChoice)). When the model
//! answers, [`Turn::store_turn`](crate::Turn::store_turn) makes the one stored message the turn
//! becomes, and from the next turn on it replays as prose like any other: no id, no signature,
//! nothing a provider could refuse.
//!
//! The seam costs the cache one turn. The next turn's first body begins with every byte of the
//! turn's last body up to its first round, and writes the rounds again as prose: at most the
//! one turn just finished, whatever the history's length (measured by
//! `conformance/tests/conformance/turn_seam.rs`; its figures are on the repository's `BENCHMARKS.md`). The
//! trade is deliberate: a stored turn that kept native ids and signatures would be carried
//! whole, and would fail the next request whenever the turn was cut short or the model
//! changed.
//!
//! # Guarantees
//!
//! - **Rounds the providers accept**: for generated tools and rounds (thinking, redacted and
//!   encrypted reasoning, signatures, pretty-printed replies, parallel and no-argument calls,
//!   valid and invalid tool images, both vision settings), every body validates against its
//!   provider's full pinned schema, keeps each reply's own content byte for byte, links every
//!   call to exactly one result in the calls' order, sends back no made id, and sends every
//!   tool image natively, priced as an image, or as its marker
//!   (`conformance/tests/conformance/round_schemas.rs`).
//! - Golden rounds and tool declarations for all five providers, byte for byte, and an error
//!   for every output that answers no call, is missing or given twice
//!   (`tests/spec/round_golden.rs`, `tests/spec/tool_declarations.rs`, `tests/spec/round_linkage.rs`).
//! - The stored turn, and its prose in the next turn (`tests/spec/stored_turn.rs`,
//!   `conformance/tests/conformance/turn_seam.rs`).

use crate::errors::body::{BodyError, Kind};
use crate::media::file::{File, ToolFile};
use crate::provider::Provider;
use crate::record::{Block, Role, StoredMessage, TokenUsage, ToolInput};
use crate::render::rules::CacheCounting;
use crate::reply::{Reply, MADE_ID_PREFIX};
use crate::wire::{Image, Piece, Text};

/// What the caller's tool returned for one call: the call's id, its output text, whether it
/// failed, and the images it made (a screenshot).
///
/// ```
/// use transcript_replay::ToolOutput;
///
/// let shot = ToolOutput::ok("call_1", "Took a screenshot.").with_image("image/png", "iVBORw0KGgo=");
/// assert_eq!((shot.id.as_str(), shot.is_error, shot.images.len()), ("call_1", false, 1));
/// assert!(ToolOutput::error("call_2", "exit 1").is_error);
/// ```
///
/// It reads from, and writes as, `{"id", "output", "is_error", "images": [{"media_type",
/// "data"}], "files": [...], "approve", "reason", "acknowledged": [ids]}`, all but `id`
/// optional; any other key is an error. The example
/// program's `--round REPLY OUTPUTS` reads OUTPUTS as a JSON array of these.
///
/// ```
/// let outputs: Vec<transcript_replay::ToolOutput> =
///     serde_json::from_str(r#"[{"id": "call_1", "output": "exit 1", "is_error": true}]"#)?;
/// assert_eq!(outputs[0], transcript_replay::ToolOutput::error("call_1", "exit 1"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolOutput {
    /// The id of the call this answers, as the reply gave it.
    pub id: String,
    /// What the tool returned, as text (none for an approval, whose words are its own).
    #[serde(default)]
    pub output: String,
    /// Whether the tool failed.
    #[serde(default)]
    pub is_error: bool,
    /// The images the tool returned, in order.
    #[serde(default)]
    pub images: Vec<ToolImage>,
    /// The files the tool returned (not images: a PDF, text, audio), in order; not written
    /// when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<ToolFile>,
    /// For a call that asks for an approval ([`Call::asks_approval`](crate::Call)): whether
    /// the runtime approves it. Not written when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approve: Option<bool>,
    /// Why an approval was given or denied, sent with it. Not written when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The ids of the safety checks the call waited on that the runtime acknowledges
    /// ([`Call::pending_safety_checks`](crate::Call)). Not written when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acknowledged: Vec<String>,
}

/// An image a tool returned: its media type and its bytes in base64.
///
/// ```
/// let image = transcript_replay::ToolImage { media_type: "image/png".into(), data: "iVBORw0KGgo=".into() };
/// assert_eq!(image.media_type, "image/png");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolImage {
    /// The media type, such as `image/png`.
    pub media_type: String,
    /// The image bytes in base64 (standard alphabet, `=` padding).
    pub data: String,
}

impl ToolOutput {
    /// The output of a call that succeeded.
    ///
    /// ```
    /// assert!(!transcript_replay::ToolOutput::ok("call_1", "a.rs").is_error);
    /// ```
    pub fn ok(id: impl Into<String>, output: impl Into<String>) -> Self {
        ToolOutput {
            id: id.into(),
            output: output.into(),
            is_error: false,
            images: Vec::new(),
            files: Vec::new(),
            approve: None,
            reason: None,
            acknowledged: Vec::new(),
        }
    }

    /// The answer to a call that asks for an approval: approved. Stored as the result
    /// `Approved`, and sent as the provider's approval (OpenAI's `mcp_approval_response`).
    ///
    /// ```
    /// let approved = transcript_replay::ToolOutput::approve("mcpr_1");
    /// assert_eq!((approved.approve, approved.result().as_ref()), (Some(true), "Approved"));
    /// ```
    pub fn approve(id: impl Into<String>) -> Self {
        ToolOutput {
            approve: Some(true),
            ..ToolOutput::ok(id, "")
        }
    }

    /// The answer to a call that asks for an approval: denied, and why. Stored as the result
    /// `Denied: {reason}`.
    ///
    /// ```
    /// let denied = transcript_replay::ToolOutput::deny("mcpr_1", "not this repository");
    /// assert_eq!((denied.approve, denied.result().as_ref()), (Some(false), "Denied: not this repository"));
    /// ```
    pub fn deny(id: impl Into<String>, reason: impl Into<String>) -> Self {
        ToolOutput {
            approve: Some(false),
            reason: Some(reason.into()),
            ..ToolOutput::ok(id, "")
        }
    }

    /// The output, acknowledging the safety checks of these ids that its call waited on.
    ///
    /// ```
    /// let output = transcript_replay::ToolOutput::ok("call_1", "clicked").acknowledging(["cu_sc_1"]);
    /// assert_eq!(output.acknowledged, ["cu_sc_1"]);
    /// ```
    #[must_use]
    pub fn acknowledging<I: IntoIterator<Item = S>, S: Into<String>>(mut self, ids: I) -> Self {
        self.acknowledged.extend(ids.into_iter().map(Into::into));
        self
    }

    /// The result as the stored turn keeps it: the output's text, or for an approval
    /// `Approved` / `Denied: {reason}` (`Denied` without one).
    ///
    /// ```
    /// use transcript_replay::ToolOutput;
    ///
    /// assert_eq!(ToolOutput::ok("c", "a.rs").result(), "a.rs");
    /// let denied = ToolOutput { reason: None, ..ToolOutput::deny("mcpr_1", "") };
    /// assert_eq!(denied.result(), "Denied");
    /// ```
    pub fn result(&self) -> std::borrow::Cow<'_, str> {
        match (self.approve, self.reason.as_deref()) {
            (None, _) => std::borrow::Cow::Borrowed(&self.output),
            (Some(true), _) => std::borrow::Cow::Borrowed("Approved"),
            (Some(false), Some(reason)) if !reason.is_empty() => {
                std::borrow::Cow::Owned(format!("Denied: {reason}"))
            }
            (Some(false), _) => std::borrow::Cow::Borrowed("Denied"),
        }
    }

    /// The output of a call that failed.
    ///
    /// ```
    /// assert!(transcript_replay::ToolOutput::error("call_1", "no such file").is_error);
    /// ```
    pub fn error(id: impl Into<String>, output: impl Into<String>) -> Self {
        ToolOutput {
            is_error: true,
            ..ToolOutput::ok(id, output)
        }
    }

    /// The output with an image the tool returned after it.
    ///
    /// ```
    /// let output = transcript_replay::ToolOutput::ok("c", "").with_image("image/png", "iVBORw0KGgo=");
    /// assert_eq!(output.images[0].data, "iVBORw0KGgo=");
    /// ```
    #[must_use]
    pub fn with_image(mut self, media_type: impl Into<String>, data: impl Into<String>) -> Self {
        self.images.push(ToolImage {
            media_type: media_type.into(),
            data: data.into(),
        });
        self
    }

    /// The output with a file the tool returned after it.
    ///
    /// ```
    /// let output = transcript_replay::ToolOutput::ok("c", "").with_file("application/pdf", "JVBERi0=");
    /// assert_eq!((output.files[0].media_type.as_str(), output.files[0].name.as_deref()), ("application/pdf", None));
    /// ```
    #[must_use]
    pub fn with_file(mut self, media_type: impl Into<String>, data: impl Into<String>) -> Self {
        self.files.push(ToolFile {
            media_type: media_type.into(),
            data: data.into(),
            name: None,
        });
        self
    }

    /// The output with a named file the tool returned after it.
    ///
    /// ```
    /// let output = transcript_replay::ToolOutput::ok("c", "").with_named_file("a.pdf", "application/pdf", "JVBERi0=");
    /// assert_eq!(output.files[0].name.as_deref(), Some("a.pdf"));
    /// ```
    #[must_use]
    pub fn with_named_file(
        mut self,
        name: impl Into<String>,
        media_type: impl Into<String>,
        data: impl Into<String>,
    ) -> Self {
        self.files.push(ToolFile {
            media_type: media_type.into(),
            data: data.into(),
            name: Some(name.into()),
        });
        self
    }
}

/// One round of a turn: a reply that called tools, and the outputs of those calls, borrowed
/// ([`Turn::round`](crate::Turn::round)) or owned by the turn
/// ([`Turn::push_round`](crate::Turn::push_round)).
#[derive(Debug, Clone)]
pub(crate) struct Round<'a> {
    pub(crate) reply: std::borrow::Cow<'a, Reply>,
    pub(crate) outputs: std::borrow::Cow<'a, [ToolOutput]>,
}

/// A call of a round and its output, in the calls' order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Answered<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
    pub(crate) output: &'a ToolOutput,
    /// Whether the id is one the provider gave (not one the crate made).
    pub(crate) real_id: bool,
    /// The safety checks the call waited on, each acknowledged by the output.
    pub(crate) checks: &'a [crate::reply::SafetyCheck],
}

/// Whether an id is one the crate made for a call that came without one.
pub(crate) fn is_made(id: &str) -> bool {
    id.strip_prefix(MADE_ID_PREFIX)
        .and_then(|rest| rest.split_once('_'))
        .is_some_and(|(round, call)| {
            !round.is_empty()
                && !call.is_empty()
                && round.bytes().all(|byte| byte.is_ascii_digit())
                && call.bytes().all(|byte| byte.is_ascii_digit())
        })
}

/// Links each call of a round to exactly one output, in the calls' order; a call without an
/// output, an output for no call, or one given twice is an error naming the id. The reply
/// must be the body's provider's, and must call a tool, or be paused: a reply that calls none
/// otherwise ends the turn.
pub(crate) fn answered<'a>(
    index: usize,
    round: &'a Round<'_>,
    provider: Provider,
) -> Result<Vec<Answered<'a>>, BodyError> {
    link(index, round, provider, true)
}

/// Links as [`answered`] does; with `strict` unset (a turn cut short), a call without an
/// output is left out rather than an error, and an approval or a safety check is not asked
/// of the outputs that came.
fn link<'a>(
    index: usize,
    round: &'a Round<'_>,
    provider: Provider,
    strict: bool,
) -> Result<Vec<Answered<'a>>, BodyError> {
    if !round.reply.provider().same_surface(provider) {
        return Err(BodyError::new(Kind::RoundOfAnotherProvider {
            round: index,
            of: round.reply.provider(),
            provider,
        }));
    }
    // The calls owed an output: a call the provider ran itself owes none.
    let asked = round.reply.calls();
    let calls: Vec<(&str, &str)> = asked.iter().map(|call| (call.id, call.name)).collect();
    // A paused turn (Anthropic's `pause_turn`) is a round that owes no output: it goes back
    // as it came, for the model to go on.
    if strict && calls.is_empty() && round.reply.stop != crate::stop::StopReason::Paused {
        return Err(BodyError::new(Kind::RoundWithoutCalls(index)));
    }
    for (at, output) in round.outputs.iter().enumerate() {
        if !calls.iter().any(|(id, _)| *id == output.id) {
            return Err(BodyError::new(Kind::OutputOfNoCall {
                round: index,
                id: output.id.clone(),
            }));
        }
        if round
            .outputs
            .iter()
            .take(at)
            .any(|earlier| earlier.id == output.id)
        {
            return Err(BodyError::new(Kind::OutputTwice {
                round: index,
                id: output.id.clone(),
            }));
        }
    }
    calls
        .into_iter()
        .filter(|(id, _)| strict || round.outputs.iter().any(|output| output.id == *id))
        .map(|(id, name)| {
            let output = round
                .outputs
                .iter()
                .find(|output| output.id == id)
                .ok_or_else(|| {
                    BodyError::new(Kind::CallWithoutOutput {
                        round: index,
                        id: id.to_owned(),
                    })
                })?;
            let call = asked.iter().find(|call| call.id == id);
            if strict && call.is_some_and(|call| call.asks_approval) && output.approve.is_none() {
                return Err(BodyError::new(Kind::ApprovalNotGiven {
                    round: index,
                    id: id.to_owned(),
                }));
            }
            // Every check the call waited on, acknowledged; the provider refuses the round
            // otherwise.
            let pending = call.map_or(&[][..], |call| call.pending_safety_checks);
            let unacknowledged: Vec<String> = pending
                .iter()
                .filter(|check| !output.acknowledged.contains(&check.id))
                .map(|check| check.id.clone())
                .collect();
            if strict && !unacknowledged.is_empty() {
                return Err(BodyError::new(Kind::SafetyChecksNotAcknowledged {
                    round: index,
                    id: id.to_owned(),
                    checks: unacknowledged,
                }));
            }
            Ok(Answered {
                id,
                name,
                output,
                real_id: !is_made(id),
                checks: pending,
            })
        })
        .collect()
}

/// The one stored message a turn becomes: every block of every round's reply and of the last
/// reply, in order, each tool call followed by its result (its name from the call, whether it
/// failed from the output, the output's images after it), the usage summed. Ids the crate
/// made are made again with each round's number, so that they are unique in the stored turn.
pub(crate) fn stored(
    rounds: &[Round<'_>],
    last: &Reply,
    provider: Provider,
) -> Result<StoredMessage, BodyError> {
    stored_rounds(rounds, Some(last), Some(provider), None)
}

/// The stored message of a turn cut short: every round that ran, each call followed by its
/// result where one came and alone where none did, then what `partial` (the reply as far as
/// it came, if any) holds, its calls alone. Nothing is owed: a call alone replays as prose,
/// never as a call waiting for its result.
pub(crate) fn stored_interrupted(
    rounds: &[Round<'_>],
    partial: Option<&StoredMessage>,
) -> Result<StoredMessage, BodyError> {
    // The turn is the first round's provider's; with no round, no reply is linked.
    let provider = rounds.first().map(|round| round.reply.provider());
    stored_rounds(rounds, None, provider, partial)
}

/// The stored turn of `rounds`, closed by `last` (a turn that ended) or by `partial` (a turn
/// cut short); `provider` is the turn's, which every round's reply must be (there is one
/// whenever there are rounds).
fn stored_rounds(
    rounds: &[Round<'_>],
    last: Option<&Reply>,
    provider: Option<Provider>,
    partial: Option<&StoredMessage>,
) -> Result<StoredMessage, BodyError> {
    let strict = last.is_some();
    let mut blocks = Vec::new();
    let mut usage: Option<TokenUsage> = None;
    let mut add_usage = |reply: &Reply| {
        if let Some(counts) = reply.message.usage {
            let sum = usage.get_or_insert_with(TokenUsage::default);
            // Saturating: a reply's counts are input, and no input makes the crate panic.
            sum.input_tokens = sum.input_tokens.saturating_add(counts.input_tokens);
            sum.output_tokens = sum.output_tokens.saturating_add(counts.output_tokens);
            sum.cache_creation_input_tokens = sum
                .cache_creation_input_tokens
                .saturating_add(counts.cache_creation_input_tokens);
            sum.cache_read_input_tokens = sum
                .cache_read_input_tokens
                .saturating_add(counts.cache_read_input_tokens);
        }
    };
    for (index, round) in rounds.iter().enumerate() {
        let provider = provider.unwrap_or(round.reply.provider());
        let answered = link(index, round, provider, strict)?;
        add_usage(&round.reply);
        for block in &round.reply.message.blocks {
            match block {
                Block::ToolUse {
                    id,
                    name,
                    input,
                    provider_executed,
                } => {
                    let stored_id = remade(id, index);
                    blocks.push(Block::ToolUse {
                        id: stored_id.clone(),
                        name: name.clone(),
                        input: input.clone(),
                        provider_executed: *provider_executed,
                    });
                    if let Some(answer) = answered.iter().find(|answer| answer.id == id) {
                        blocks.push(Block::ToolResult {
                            tool_use_id: stored_id,
                            tool_name: name.clone(),
                            output: answer.output.result().into_owned(),
                            is_error: answer.output.is_error,
                        });
                        blocks.extend(answer.output.images.iter().map(|image| {
                            Block::image(image.media_type.clone(), image.data.clone())
                        }));
                        blocks.extend(answer.output.files.iter().map(|file| Block::File {
                            media_type: file.media_type.clone(),
                            data: file.data.clone(),
                            name: file.name.clone(),
                        }));
                    }
                }
                other @ (Block::Text { .. }
                | Block::ToolResult { .. }
                | Block::Reasoning { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. }) => blocks.push(other.clone()),
            }
        }
    }
    let closing = match (last, partial) {
        (Some(last), _) => {
            // A last reply that still calls tools does not end the turn: storing it would
            // keep calls that owe results the record never gets (and, answered later, store
            // them twice). The rounds are checked first.
            let owed: Vec<String> = last.calls().iter().map(|call| call.id.to_owned()).collect();
            if !owed.is_empty() {
                return Err(BodyError::new(Kind::LastReplyCallsTools { calls: owed }));
            }
            let provider = provider.unwrap_or(last.provider());
            if !last.provider().same_surface(provider) {
                return Err(BodyError::new(Kind::RoundOfAnotherProvider {
                    round: rounds.len(),
                    of: last.provider(),
                    provider,
                }));
            }
            add_usage(last);
            if let (Some(sum), Some(counts)) = (usage.as_mut(), last.message.usage) {
                sum.context_tokens = context_tokens(provider, &counts);
            }
            &last.message.blocks[..]
        }
        (None, Some(partial)) => {
            if let Some(counts) = partial.usage {
                let sum = usage.get_or_insert_with(TokenUsage::default);
                sum.input_tokens = sum.input_tokens.saturating_add(counts.input_tokens);
                sum.output_tokens = sum.output_tokens.saturating_add(counts.output_tokens);
            }
            &partial.blocks[..]
        }
        (None, None) => &[][..],
    };
    blocks.extend(closing.iter().map(|block| match block {
        Block::ToolUse {
            id,
            name,
            input,
            provider_executed,
        } => Block::ToolUse {
            id: remade(id, rounds.len()),
            name: name.clone(),
            input: ToolInput::clone(input),
            provider_executed: *provider_executed,
        },
        other @ (Block::Text { .. }
        | Block::ToolResult { .. }
        | Block::Reasoning { .. }
        | Block::Image { .. }
        | Block::File { .. }
        | Block::Source { .. }
        | Block::Compaction { .. }
        | Block::Unknown { .. }) => other.clone(),
    }));
    Ok(StoredMessage {
        role: Role::Assistant,
        blocks,
        usage,
        timestamp: None,
        unknown: crate::record::kept::UnknownKeys::default(),
    })
}

/// The context a request used, from the usage its reply gave: its input tokens with the cache
/// reads and writes included, whichever way the provider counts them (each provider's
/// [`CacheCounting`], with its sources, in its folder).
pub(crate) fn context_tokens(provider: Provider, usage: &TokenUsage) -> u64 {
    let cache = usage
        .cache_read_input_tokens
        .saturating_add(usage.cache_creation_input_tokens);
    match provider.surface().cache_counting {
        CacheCounting::Apart => usage.input_tokens.saturating_add(cache),
        CacheCounting::ReadsIncluded => usage
            .input_tokens
            .saturating_add(usage.cache_creation_input_tokens),
    }
}

/// An id the crate made (`made_{r}_{k}`), made again for round `round`; any other id as it is.
fn remade(id: &str, round: usize) -> String {
    match id.rsplit_once('_') {
        Some((_, call)) if is_made(id) => format!("{MADE_ID_PREFIX}{round}_{call}"),
        Some(_) | None => id.to_owned(),
    }
}

/// A call and its result, as a body writes it.
#[derive(Debug, Clone)]
pub(crate) struct Answer<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
    /// Whether the id is the provider's own (a made one is never sent back).
    pub(crate) real_id: bool,
    pub(crate) is_error: bool,
    /// The output's text, then a marker for each image not sent natively, by the join rule.
    pub(crate) text: Text<'a>,
    /// The output's images sent natively, in order.
    pub(crate) images: Vec<Image<'a>>,
    /// The output's files sent natively, in order, after its images.
    pub(crate) files: Vec<File<'a>>,
    /// For a call that asks for an approval: whether it is approved, and why.
    pub(crate) approval: Option<(bool, Option<&'a str>)>,
    /// The safety checks the call waited on, which the output acknowledges.
    pub(crate) checks: &'a [crate::reply::SafetyCheck],
}

impl Answer<'_> {
    /// Whether the output's text is blank: no output but white space, and no marker. Blank
    /// text is what Anthropic and Bedrock refuse as a text block.
    pub(crate) fn is_blank(&self) -> bool {
        self.text.pieces().iter().all(Piece::is_blank)
    }

    /// Whether the output sends images or files natively.
    pub(crate) fn has_media(&self) -> bool {
        !self.images.is_empty() || !self.files.is_empty()
    }
}
