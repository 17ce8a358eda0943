//! Reading a generateContent response body into the stored message of the model's turn.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::provider::Provider;
use crate::record::{Block, TokenUsage, ToolInput};
use crate::reply::metadata::UrlRetrieval;
use crate::reply::{self, At, Counts, Metadata, Reply, ReplyError};
use crate::stop::StopReason;

use super::enums::{self, Word, BLOCK_REASON, FINISH_REASON, URL_RETRIEVAL_STATUS};
use super::executed::{self, Executed, Open};
use super::partial::{Arguments, PartialArg};

/// The words of `finishReason`, normalized. Gemini says `STOP` for a tool call too, which
/// [`Reply`] reads as tool use.
pub(super) const FINISH_REASONS: [(&str, StopReason); 8] = [
    ("STOP", StopReason::EndTurn),
    ("MAX_TOKENS", StopReason::MaxTokens),
    ("SAFETY", StopReason::ContentFilter),
    ("RECITATION", StopReason::ContentFilter),
    ("PROHIBITED_CONTENT", StopReason::ContentFilter),
    ("BLOCKLIST", StopReason::ContentFilter),
    ("SPII", StopReason::ContentFilter),
    // "Token generation stopped because generated images contain safety violations" (spec
    // `Candidate.finishReason`).
    ("IMAGE_SAFETY", StopReason::ContentFilter),
];

/// Reads a generateContent response body (`GenerateContentResponse`, or what a streamed
/// reply accumulates to) into the [`Reply`]: the stored message of the model's turn and why
/// it stopped.
///
/// The first candidate's parts become blocks, in order: `text` as `text`, or as `reasoning`
/// when the part is marked `thought`, adjacent text parts of one kind joined into one block
/// (a text split across parts, as a stream delivers it, is one text); `functionCall` as
/// `tool_use`, with the call's `id` (or, on models that give none, one the crate makes:
/// `made_0_{k}` for the reply's `k`-th call, counting the calls of tools Gemini ran too, so
/// unique within the reply and the same for the same reply, marked by the prefix
/// `made_` so it is never mistaken for the provider's), its name, and `args` stored as the
/// JSON text the reply carried, compacted (`{}` when it has none; `args` that are no JSON object
/// are an error); `inlineData` (what the model made) as `image` when its media type is an
/// image type, else as `file` (audio). `usageMetadata` becomes
/// [`TokenUsage`](crate::TokenUsage): `promptTokenCount`, `candidatesTokenCount` plus
/// `thoughtsTokenCount` (both billed as output), and `cachedContentTokenCount` as cache
/// reads.
///
/// `finishReason` becomes the [`StopReason`]: `STOP` → `end_turn`, or `tool_use` when the reply
/// calls a tool; `MAX_TOKENS` → `max_tokens`; `SAFETY`, `RECITATION`, `PROHIBITED_CONTENT`,
/// `BLOCKLIST` and `SPII` → `content_filter` (a candidate they stopped may have no content:
/// its message has no block); any other word kept. An enum sent as its number (a request made
/// with `$alt=json;enum-encoding=int`: `"finishReason": 1`) reads as its name, by the
/// numbering of Google's protos (`1` is `STOP`, `7` `BLOCKLIST`); so do `blockReason`, a code
/// result's `outcome`, its code's `language` and a URL's `urlRetrievalStatus`.
///
/// Tools Gemini runs itself are kept as provider-executed `tool_use` blocks, each with its
/// `tool_result`, which owe no output and never make the stop `tool_use`: code execution
/// (`executableCode` as a call named `code_execution`, its `language` and `code` the input,
/// and `codeExecutionResult` its result: the output, an error led by the outcome unless
/// `OUTCOME_OK`); and, when the request sets `toolConfig.includeServerSideToolInvocations`, a
/// server tool's `toolCall` (`{"id", "toolType", "args"}`) as a call named by its `toolType`
/// in lower case (`google_search_web`, `url_context`, `google_maps`, `file_search`), its `args`
/// the input, and its `toolResponse` (`{"id", "toolType", "response"}`) as the result of the
/// call of the same `id`, its `response` as compact JSON text
/// (<https://ai.google.dev/gemini-api/docs/tool-combination>). Their parts go back in the
/// round in flight exactly as they came, each `thoughtSignature` beside its part, as Google
/// asks ("Return all parts exactly as received"); across turns they replay as prose, as every
/// provider's server tools do.
///
/// What does not cross prose replay, and is left out: `thoughtSignature` (Gemini 3 asks for it
/// back with function calls; replay sends no native function calls), safety ratings and
/// citation metadata. `groundingMetadata` gives one `source` block per distinct grounding
/// chunk at the end of the message, and its search suggestions to
/// [`Reply::search_suggestions`]. The candidates after the first are not read: their number is
/// [`Metadata::other_choices`]. Any other part (`fileData`, ...) is not refused: it becomes
/// the text `[Not kept: Gemini {type} content]` where it stood (no text part joins it), is
/// listed by [`Reply::not_kept`], and goes back natively in the round in flight.
///
/// A prompt Gemini blocked gets no candidate, only `promptFeedback.blockReason`: that is a
/// reply with no content, stopped for [`ContentFilter`](StopReason::ContentFilter), the reason
/// in [`Metadata::prompt_blocked`] (never a refusal, and never an error). A reply with no
/// candidate and no block reason, or a candidate with neither content nor a finish reason, is
/// an error.
///
/// # Errors
///
/// A [`ReplyError`] that says where (the path in the body, line and column) and what.
///
/// ```
/// use transcript_replay::{gemini, Block};
///
/// let reply = r#"{"candidates": [{"content": {"role": "model", "parts": [
///     {"text": "Need the file.", "thought": true},
///     {"functionCall": {"name": "read", "args": {"path": "a.rs"}}}
///   ]}, "finishReason": "STOP"}],
///   "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 9, "totalTokenCount": 29}}"#;
/// let reply = gemini::read_reply(reply)?;
/// assert_eq!(reply.message.blocks[0], Block::reasoning("Need the file."));
/// let Block::ToolUse { id, input, .. } = &reply.message.blocks[1] else { unreachable!() };
/// assert_eq!((id.as_str(), input.as_str()), ("made_0_0", r#"{"path":"a.rs"}"#));
/// assert_eq!(reply.stop, transcript_replay::StopReason::ToolUse);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
///
/// A server tool's call and response, a blocked prompt, and enums sent as numbers:
///
/// ```
/// use transcript_replay::{gemini, Block, StopReason, ToolInput};
///
/// let reply = gemini::read_reply(r#"{"candidates": [{"content": {"role": "model", "parts": [
///     {"toolCall": {"toolType": "GOOGLE_SEARCH_WEB", "args": {"queries": ["rust"]}, "id": "a7b3"}, "thoughtSignature": "c2ln"},
///     {"toolResponse": {"toolType": "GOOGLE_SEARCH_WEB", "response": {"search_suggestions": "rust"}, "id": "a7b3"}},
///     {"text": "Rust 1.80."}]}, "finishReason": 1}]}"#)?;
/// let input = ToolInput::json(r#"{"queries":["rust"]}"#).unwrap();
/// assert_eq!(reply.message.blocks[0], Block::provider_tool_use("a7b3", "google_search_web", input));
/// let Block::ToolResult { tool_use_id, output, .. } = &reply.message.blocks[1] else { unreachable!() };
/// assert_eq!((tool_use_id.as_str(), output.as_str()), ("a7b3", r#"{"search_suggestions":"rust"}"#));
/// assert_eq!(reply.stop, StopReason::EndTurn);
/// assert!(reply.calls().is_empty());
///
/// let blocked = gemini::read_reply(r#"{"promptFeedback": {"blockReason": "SAFETY"}}"#)?;
/// assert!(blocked.message.blocks.is_empty());
/// assert_eq!(blocked.stop, StopReason::ContentFilter);
/// assert_eq!(blocked.metadata().prompt_blocked.as_deref(), Some("SAFETY"));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_reply(body: &str) -> Result<Reply, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Response<'a> {
        #[serde(borrow, default)]
        candidates: Option<&'a RawValue>,
        #[serde(borrow, default)]
        usage_metadata: Option<&'a RawValue>,
        #[serde(default)]
        prompt_feedback: Option<Feedback>,
    }

    let at = At::body(Provider::Gemini, body)?;
    let response: Response<'_> = at.read()?;
    let candidates: Vec<&RawValue> = match response.candidates {
        Some(raw) => at.child(raw, "candidates").read()?,
        None => Vec::new(),
    };
    let usage = || match at.present(response.usage_metadata, "usageMetadata") {
        Some(usage_at) => Ok(read_usage(&usage_at)?.usage()),
        None => Ok(None),
    };
    let blocked = response.prompt_feedback.and_then(Feedback::reason);
    let Some(&first) = candidates.first() else {
        return match blocked {
            // A blocked prompt gets no candidate: a reply with no content, stopped by the
            // filter, never a refusal (spec `PromptFeedback.blockReason`: "If set, the prompt
            // was blocked and no candidates are returned").
            Some(reason) => Ok(blocked_reply(reason, usage()?)),
            None => Err(at.error("the reply has no candidate")),
        };
    };
    let candidate_at = at.child(first, "candidates[0]");
    let candidate = read_candidate(&candidate_at)?;
    if candidate.parts.is_none() && candidate.finish_reason.is_none() {
        return Err(candidate_at.error("the candidate has no content"));
    }
    let mut reading = Reading::default();
    for part_at in candidate.parts.iter().flatten() {
        reading.part(part_at.raw(), part_at, false)?;
    }
    if let Some(usage_at) = at.present(response.usage_metadata, "usageMetadata") {
        reading.counts.update(read_usage(&usage_at)?);
    }
    reading.finish = candidate.finish_reason;
    reading.beyond.add(
        candidate.grounding,
        &candidate.citation_metadata,
        &candidate.url_context_metadata,
    );
    reading.blocked = blocked;
    reading.others = (1..candidates.len())
        .filter_map(|n| i64::try_from(n).ok())
        .collect();
    Ok(reading.reply())
}

/// A part kept for the round in flight.
#[derive(Debug)]
enum Native {
    /// A streamed text (or thought) without a signature, whose increments join.
    Text { text: String, thought: bool },
    /// Any other part, and every part of a whole reply, as it came.
    Raw(Box<RawValue>),
}

/// A text part, the one a reply carries most: nothing but text, its thought flag and its
/// signature, read in one pass; any other part is read by [`read_part`].
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TextPart<'a> {
    #[serde(borrow)]
    text: std::borrow::Cow<'a, str>,
    #[serde(default)]
    thought: Option<bool>,
    #[serde(default)]
    thought_signature: Option<String>,
}

/// What a reply has said so far, read from a whole body's candidate or from a stream's
/// chunks alike: its blocks, the parts that go back in the round, the counts, the finish
/// reason, what the candidate carries beside its content, why the prompt was blocked and the
/// other candidates. [`Reading::reply`] makes the one reply of both.
#[derive(Debug, Default)]
pub(super) struct Reading {
    pub(super) parts: Parts,
    /// Where the first part of the call whose arguments stream is kept, in `native`.
    streamed: Option<usize>,
    /// The model's parts as Gemini takes them back in the round in flight.
    native: Vec<Native>,
    pub(super) counts: Counts,
    pub(super) finish: Option<String>,
    pub(super) beyond: Beyond,
    pub(super) blocked: Option<String>,
    /// The indices of the candidates after the first.
    pub(super) others: std::collections::BTreeSet<i64>,
}

impl Reading {
    /// Reads one part into the blocks and the round: a whole reply's part goes back as it
    /// came; a stream's `increments` join (adjacent text without a signature, of one kind), and
    /// a call whose arguments stream goes back whole, its first part with the arguments so far,
    /// the parts that carry them not at all (a `functionCall` with no `name` is no part Gemini
    /// takes back).
    pub(super) fn part(
        &mut self,
        raw: &RawValue,
        at: &At<'_>,
        increments: bool,
    ) -> Result<Added<'_>, ReplyError> {
        let text: Option<TextPart<'_>> = serde_json::from_str(raw.get()).ok();
        let part = match &text {
            Some(text) => Part::Text {
                text: text.text.clone().into_owned(),
                thought: text.thought.unwrap_or(false),
            },
            None => read_part(at)?,
        };
        let arguments = increments && matches!(part, Part::CallArguments(_));
        match increments {
            false => self.native.push(Native::Raw(raw.to_owned())),
            true if !arguments => self.keep(text.as_ref(), raw),
            true => {}
        }
        if increments && matches!(part, Part::Call { streamed: true, .. }) {
            self.streamed = self.native.len().checked_sub(1);
        }
        if arguments {
            self.parts.push(part);
            self.rewrite_streamed();
            return Ok(Added::Other);
        }
        Ok(self.parts.push(part))
    }

    /// Keeps a stream's part for the round in flight: a text increment without a signature
    /// joins the unsigned text part before it when both are of one kind; a part with a
    /// `thoughtSignature` is kept as it came, never joined with its neighbours (Gemini
    /// validates a signature against the part it was sent on: "Function call is missing a
    /// thought_signature", <https://ai.google.dev/gemini-api/docs/thought-signatures>); an
    /// empty text with no signature adds nothing.
    fn keep(&mut self, text: Option<&TextPart<'_>>, raw: &RawValue) {
        let Some(part) = text.filter(|part| part.thought_signature.is_none()) else {
            self.native.push(Native::Raw(raw.to_owned()));
            return;
        };
        let thought = part.thought.unwrap_or(false);
        if let Some(Native::Text {
            text,
            thought: last_thought,
        }) = self.native.last_mut()
        {
            if *last_thought == thought {
                text.push_str(&part.text);
                return;
            }
        }
        if !part.text.is_empty() {
            self.native.push(Native::Text {
                text: part.text.clone().into_owned(),
                thought,
            });
        }
    }

    /// The kept first part of the call whose arguments stream, with its arguments as the
    /// parts so far make them, and no `willContinue`: every other member kept where and as it
    /// came, and the arguments' keys in the order they came, so that the round in flight sends
    /// the part the whole reply carries, byte for byte.
    fn rewrite_streamed(&mut self) {
        let args = self
            .parts
            .streamed_input()
            .and_then(|input| RawValue::from_string(input.to_owned()).ok());
        let slot = self.streamed.and_then(|at| self.native.get_mut(at));
        let Some(Native::Raw(raw)) = slot else {
            return;
        };
        if let Some(rewritten) = with_args(raw.get(), args.as_deref()) {
            *raw = rewritten;
        }
    }

    /// The reply read so far: its blocks with the sources after them, the counts, the stop,
    /// the round's parts, what was not kept and the metadata.
    pub(super) fn reply(&self) -> Reply {
        let stop = StopReason::from_word(self.finish.as_deref(), &FINISH_REASONS);
        let native = self
            .native
            .iter()
            .filter_map(|part| match part {
                Native::Raw(raw) => Some(raw.clone()),
                Native::Text { text, thought } => {
                    let mut fields = serde_json::Map::new();
                    fields.insert("text".to_owned(), text.as_str().into());
                    if *thought {
                        fields.insert("thought".to_owned(), true.into());
                    }
                    serde_json::value::to_raw_value(&fields).ok()
                }
            })
            .collect();
        let (sources, mut metadata) = self.beyond.read();
        metadata.prompt_blocked.clone_from(&self.blocked);
        metadata.other_choices = self.others.len();
        let mut blocks = self.parts.blocks.clone();
        blocks.extend(sources);
        Reply::new(Provider::Gemini, blocks, self.counts.usage(), stop, native)
            .not_keeping(self.parts.not_kept.clone())
            .with_metadata(metadata)
    }
}

/// A part whose `functionCall` has these arguments (`{}` for none) and no `willContinue`,
/// every other member where and as it came; `None` for a part with no `functionCall` object.
fn with_args(part: &str, args: Option<&RawValue>) -> Option<Box<RawValue>> {
    #[derive(Deserialize)]
    struct Called<'a> {
        #[serde(borrow, rename = "functionCall")]
        function_call: &'a RawValue,
    }
    let called: Called<'_> = serde_json::from_str(part).ok()?;
    let args = args.map_or("{}", RawValue::get);
    let call =
        crate::body::with_member(called.function_call.get(), "args", args, &["willContinue"])?;
    RawValue::from_string(crate::body::with_member(part, "functionCall", &call, &[])?).ok()
}

/// The reply to a prompt Gemini blocked: no content, stopped by the content filter, the
/// block reason in its metadata.
pub(super) fn blocked_reply(reason: String, usage: Option<TokenUsage>) -> Reply {
    let metadata = Metadata {
        prompt_blocked: Some(reason),
        ..Metadata::default()
    };
    Reply::new(
        Provider::Gemini,
        Vec::new(),
        usage,
        StopReason::ContentFilter,
        Vec::new(),
    )
    .with_metadata(metadata)
}

/// What a candidate carries beside its content, gathered (a stream's chunks each carry some):
/// its grounding (the last stands), its citations' sources and the URLs it was given to read
/// (each once, in order).
#[derive(Debug, Default)]
pub(super) struct Beyond {
    grounding: Option<serde_json::Value>,
    citations: Vec<serde_json::Value>,
    urls: Vec<serde_json::Value>,
}

/// The status of a URL the model read (spec `UrlMetadata.urlRetrievalStatus`).
const URL_READ: &str = "URL_RETRIEVAL_STATUS_SUCCESS";

impl Beyond {
    /// Adds a candidate's `groundingMetadata`, `citationMetadata` and `urlContextMetadata`.
    pub(super) fn add(
        &mut self,
        grounding: Option<serde_json::Value>,
        citation: &serde_json::Value,
        url_context: &serde_json::Value,
    ) {
        if grounding.is_some() {
            self.grounding = grounding;
        }
        let list = |value: &serde_json::Value, keys: &[&str]| -> Vec<serde_json::Value> {
            keys.iter()
                .flat_map(|key| {
                    reply::field(value, &[key])
                        .as_array()
                        .cloned()
                        .unwrap_or_default()
                })
                .collect()
        };
        // `citationSources` (the Gemini API), `citations` (Vertex AI).
        for source in list(citation, &["citationSources", "citations"]) {
            if !self.citations.contains(&source) {
                self.citations.push(source);
            }
        }
        for url in list(url_context, &["urlMetadata"]) {
            if !self.urls.contains(&url) {
                self.urls.push(url);
            }
        }
    }

    /// The `source` blocks the candidate names, at the end of the message (a grounding chunk's
    /// page, a citation's `uri` and title, a URL the model read), one per distinct source;
    /// and what is not content: every URL it was given with its status, the search
    /// suggestions. The sources: <https://ai.google.dev/gemini-api/docs/google-search#grounding-metadata>,
    /// <https://ai.google.dev/gemini-api/docs/url-context> (spec `UrlContextMetadata`,
    /// `CitationMetadata`).
    pub(super) fn read(&self) -> (Vec<Block>, Metadata) {
        let (mut named, suggestions) = grounding(self.grounding.as_ref());
        named.extend(self.citations.iter().cloned());
        let mut metadata = Metadata::default();
        for url in &self.urls {
            let Some(address) = reply::field(url, &["retrievedUrl"]).as_str() else {
                continue;
            };
            let status = enums::name_of(
                reply::field(url, &["urlRetrievalStatus"]),
                &URL_RETRIEVAL_STATUS,
            )
            .unwrap_or_default();
            let read = status == URL_READ;
            if read {
                named.push(serde_json::json!({ "uri": address }));
            }
            metadata
                .urls
                .push(UrlRetrieval::new(address.to_owned(), status, read));
        }
        metadata.search_suggestions = suggestions;
        (reply::sources(&named, &["uri"], &["title"], &[]), metadata)
    }
}

/// What a candidate's `groundingMetadata` gives: a `source` block per distinct grounding
/// chunk (a web page's `uri` and `title`, a retrieved context's), at the end of the message,
/// since grounding cites no span the record keeps; and the search suggestions to show
/// (`searchEntryPoint.renderedContent`;
/// <https://ai.google.dev/gemini-api/docs/google-search#grounding-metadata>).
fn grounding(metadata: Option<&serde_json::Value>) -> (Vec<serde_json::Value>, Option<String>) {
    let Some(metadata) = metadata else {
        return (Vec::new(), None);
    };
    let chunks: Vec<serde_json::Value> = reply::field(metadata, &["groundingChunks"])
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|chunk| {
            ["web", "retrievedContext", "maps"]
                .iter()
                .find_map(|kind| chunk.get(*kind).cloned())
        })
        .collect();
    let suggestions = reply::field(metadata, &["searchEntryPoint", "renderedContent"])
        .as_str()
        .map(str::to_owned);
    (chunks, suggestions)
}

/// `promptFeedback`, which says why a prompt got no candidate.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Feedback {
    #[serde(default)]
    block_reason: Option<Word>,
}

impl Feedback {
    /// Why the prompt was blocked, by name (`SAFETY`, ...), when it was: the default value
    /// (`BLOCK_REASON_UNSPECIFIED`, `0`), which the spec calls unused, is no block reason.
    pub(super) fn reason(self) -> Option<String> {
        self.block_reason
            .map(|word| word.name(&BLOCK_REASON))
            .filter(|name| name != BLOCK_REASON[0])
    }
}

/// A candidate, read in place: each of its parts (when it has content) and its finish
/// reason.
pub(super) struct Candidate<'a> {
    pub(super) parts: Option<Vec<At<'a>>>,
    pub(super) finish_reason: Option<String>,
    pub(super) grounding: Option<serde_json::Value>,
    pub(super) citation_metadata: serde_json::Value,
    pub(super) url_context_metadata: serde_json::Value,
}

pub(super) fn read_candidate<'a>(at: &At<'a>) -> Result<Candidate<'a>, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Fields<'a> {
        #[serde(borrow, default)]
        content: Option<&'a RawValue>,
        #[serde(default)]
        finish_reason: Option<Word>,
        #[serde(default)]
        grounding_metadata: Option<serde_json::Value>,
        #[serde(default)]
        citation_metadata: serde_json::Value,
        #[serde(default)]
        url_context_metadata: serde_json::Value,
    }
    #[derive(Deserialize)]
    struct Content<'a> {
        #[serde(borrow, default)]
        parts: Option<&'a RawValue>,
    }
    let fields: Fields<'a> = at.read()?;
    let parts = match at.present(fields.content, "content") {
        Some(content_at) => {
            let content: Content<'a> = content_at.read()?;
            let parts: Vec<&RawValue> = match content.parts {
                Some(parts) => content_at.child(parts, "parts").read()?,
                None => Vec::new(),
            };
            let parts_at = content.parts.map(|parts| content_at.child(parts, "parts"));
            Some(
                parts
                    .into_iter()
                    .enumerate()
                    .filter_map(|(index, raw)| {
                        parts_at
                            .as_ref()
                            .map(|parts_at| parts_at.child(raw, format_args!("[{index}]")))
                    })
                    .collect(),
            )
        }
        None => None,
    };
    Ok(Candidate {
        parts,
        finish_reason: fields.finish_reason.map(|word| word.name(&FINISH_REASON)),
        grounding: fields.grounding_metadata,
        citation_metadata: fields.citation_metadata,
        url_context_metadata: fields.url_context_metadata,
    })
}

/// `usageMetadata`; a count sent as `null` is no count. Thoughts are billed as output.
pub(super) fn read_usage(at: &At<'_>) -> Result<Counts, ReplyError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Usage {
        #[serde(default)]
        prompt_token_count: Option<u64>,
        #[serde(default)]
        candidates_token_count: Option<u64>,
        #[serde(default)]
        thoughts_token_count: Option<u64>,
        #[serde(default)]
        cached_content_token_count: Option<u64>,
    }
    let usage: Usage = at.read()?;
    let output = match (usage.candidates_token_count, usage.thoughts_token_count) {
        (None, None) => None,
        (candidates, thoughts) => Some(candidates.unwrap_or(0) + thoughts.unwrap_or(0)),
    };
    Ok(Counts {
        input: usage.prompt_token_count,
        output,
        cache_creation: None,
        cache_read: usage.cached_content_token_count,
    })
}

/// The keys of a part that describe it rather than carry its data.
const PART_METADATA: [&str; 5] = [
    "thought",
    "thoughtSignature",
    "partMetadata",
    "videoMetadata",
    "mediaResolution",
];

/// What one part carries.
pub(super) enum Part {
    /// Text, or the model's thought.
    Text { text: String, thought: bool },
    /// A function call, with the id the provider gave it, if any; `streamed` when its
    /// arguments come in the parts after it.
    Call {
        id: Option<String>,
        name: String,
        input: ToolInput,
        streamed: bool,
    },
    /// More of the arguments of the call before it (a `functionCall` with no `name`, its
    /// `partialArgs`); none for the `functionCall: {}` that ends them.
    CallArguments(Vec<PartialArg>),
    /// An image the model made.
    Image { media_type: String, data: String },
    /// A part with no data, only metadata (a thought signature on its own).
    Empty,
    /// A part of a tool Gemini ran itself: code execution, or a server-side tool's call or
    /// response.
    Executed(Executed),
    /// A part of a kind the crate does not read (`fileData`, ...), by the name of its data
    /// field.
    Other(String),
}

/// One part, read.
pub(super) fn read_part(at: &At<'_>) -> Result<Part, ReplyError> {
    #[derive(Deserialize)]
    struct Call<'a> {
        #[serde(default)]
        id: Option<String>,
        #[serde(default)]
        name: Option<String>,
        #[serde(borrow, default)]
        args: Option<&'a RawValue>,
        #[serde(default, rename = "partialArgs")]
        partial_args: Option<Vec<serde_json::Value>>,
        #[serde(default, rename = "willContinue")]
        will_continue: Option<bool>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct InlineData {
        mime_type: String,
        data: String,
    }
    let fields: BTreeMap<String, &RawValue> = at.read()?;
    let thought = fields.get("thought").is_some_and(|raw| raw.get() == "true");
    let data: Vec<(&String, &&RawValue)> = fields
        .iter()
        .filter(|(key, _)| !PART_METADATA.contains(&key.as_str()))
        .collect();
    let [(kind, &raw)] = data.as_slice() else {
        return match data.as_slice() {
            [] => Ok(Part::Empty),
            _ => Err(at.error("a part has more than one data field")),
        };
    };
    let field_at = at.child(raw, kind.as_str());
    match kind.as_str() {
        "text" => Ok(Part::Text {
            text: field_at.read()?,
            thought,
        }),
        "functionCall" => {
            let call: Call<'_> = field_at.read()?;
            let Some(name) = call.name else {
                // The arguments of the call before it, streamed.
                let args = call.partial_args.unwrap_or_default();
                return Ok(Part::CallArguments(
                    args.iter().filter_map(PartialArg::read).collect(),
                ));
            };
            let input = match call.args {
                Some(args) if args.get() != "null" => {
                    reply::object_input(&field_at.child(args, "args"))?
                }
                Some(_) | None => ToolInput::json_unchecked("{}".to_owned()),
            };
            Ok(Part::Call {
                id: call.id,
                name,
                input,
                streamed: call.will_continue == Some(true),
            })
        }
        "inlineData" => {
            let image: InlineData = field_at.read()?;
            Ok(Part::Image {
                media_type: image.mime_type,
                data: image.data,
            })
        }
        other => Ok(match executed::read(other, &field_at)? {
            Some(executed) => Part::Executed(executed),
            None => Part::Other(other.to_owned()),
        }),
    }
}

/// The blocks of a candidate's parts, whole or streamed: adjacent text parts of one kind
/// join into one block (a stream delivers a text as many parts), an empty text adds nothing,
/// and a call without an id gets one the crate makes.
#[derive(Debug, Default)]
pub(super) struct Parts {
    pub(super) blocks: Vec<Block>,
    /// The calls so far, function calls and the tools Gemini ran alike, for the id the crate
    /// makes for a call without one: `made_0_{k}` for the `k`-th, unique within the reply.
    calls: usize,
    /// The kinds of the parts the crate does not read, in order.
    pub(super) not_kept: Vec<String>,
    /// Whether the last block is a `[Not kept: ...]` marker, which no text joins.
    sealed: bool,
    /// The calls of tools Gemini ran that no result has answered yet.
    open: Open,
    /// The call whose arguments are streamed, by its block's index, and its arguments so far.
    streamed: Option<(usize, Arguments)>,
}

/// What a part added to the blocks, for a stream's deltas: the block it went to, and what it
/// added there.
pub(super) enum Added<'b> {
    Text(usize, &'b str),
    Reasoning(usize, &'b str),
    Call(usize, &'b str, &'b str, &'b str),
    Other,
}

impl Parts {
    /// More arguments of the call whose arguments stream: its input, as the arguments so far
    /// make it.
    fn add_arguments(&mut self, args: Vec<PartialArg>) {
        if let Some((index, arguments)) = self.streamed.as_mut() {
            arguments.add(args);
            if let Some(Block::ToolUse { input, .. }) = self.blocks.get_mut(*index) {
                *input = ToolInput::json_unchecked(arguments.json());
            }
        }
    }

    /// The input of the call whose arguments stream, as the arguments so far make it.
    pub(super) fn streamed_input(&self) -> Option<&str> {
        let (index, _) = self.streamed.as_ref()?;
        let (_, input) = self.blocks.get(*index)?.tool_call()?;
        Some(input.as_str())
    }

    pub(super) fn push(&mut self, part: Part) -> Added<'_> {
        let sealed = std::mem::replace(&mut self.sealed, false);
        match part {
            Part::Text { text, .. } if text.is_empty() => {
                self.sealed = sealed;
                Added::Other
            }
            Part::Text { text, thought } => self.push_text(&text, thought, sealed),
            Part::Call {
                id,
                name,
                input,
                streamed,
            } => {
                let id = id.unwrap_or_else(|| reply::made_id(0, self.calls));
                self.calls += 1;
                self.blocks.push(Block::tool_use(id, name, input));
                let index = self.blocks.len() - 1;
                self.streamed = streamed.then(|| (index, Arguments::default()));
                match self.blocks.last() {
                    Some(Block::ToolUse {
                        id, name, input, ..
                    }) => Added::Call(index, id, name, input.as_str()),
                    Some(
                        Block::Text { .. }
                        | Block::ToolResult { .. }
                        | Block::Reasoning { .. }
                        | Block::Image { .. }
                        | Block::File { .. }
                        | Block::Source { .. }
                        | Block::Compaction { .. }
                        | Block::Unknown { .. },
                    )
                    | None => Added::Other,
                }
            }
            // What the model made: an image as an image, anything else (audio) as a file.
            Part::Image { media_type, data } => {
                self.blocks.push(
                    match crate::media::image::is_image_media_type(&media_type) {
                        true => Block::image(media_type, data),
                        false => Block::file(media_type, data),
                    },
                );
                Added::Other
            }
            Part::Empty => {
                self.sealed = sealed;
                Added::Other
            }
            Part::CallArguments(args) => {
                self.sealed = sealed;
                self.add_arguments(args);
                Added::Other
            }
            Part::Executed(executed) => {
                let block = self.open.block(executed, &mut self.calls);
                self.blocks.push(block);
                Added::Other
            }
            Part::Other(kind) => self.push_other(kind),
        }
    }

    /// A text or a thought, joined to the block before it when that is of its kind.
    fn push_text(&mut self, text: &str, thought: bool, sealed: bool) -> Added<'_> {
        let joins = match self.blocks.last() {
            Some(Block::Text { .. }) => !thought && !sealed,
            Some(Block::Reasoning { .. }) => thought,
            Some(
                Block::ToolUse { .. }
                | Block::ToolResult { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. },
            )
            | None => false,
        };
        if !joins {
            self.blocks.push(if thought {
                Block::reasoning(String::new())
            } else {
                Block::text(String::new())
            });
        }
        let index = self.blocks.len() - 1;
        match self.blocks.last_mut() {
            Some(Block::Text { text: joined }) => {
                let start = joined.len();
                joined.push_str(text);
                Added::Text(index, joined.get(start..).unwrap_or_default())
            }
            Some(Block::Reasoning { reasoning: joined }) => {
                let start = joined.len();
                joined.push_str(text);
                Added::Reasoning(index, joined.get(start..).unwrap_or_default())
            }
            Some(
                Block::ToolUse { .. }
                | Block::ToolResult { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. },
            )
            | None => Added::Other,
        }
    }

    /// A part the crate does not read: the `[Not kept: ...]` marker, which no text joins.
    fn push_other(&mut self, kind: String) -> Added<'_> {
        self.blocks.push(Block::text(crate::media::marker::not_kept(
            Provider::Gemini,
            &kind,
        )));
        self.not_kept.push(kind);
        self.sealed = true;
        let index = self.blocks.len() - 1;
        match self.blocks.last() {
            Some(Block::Text { text }) => Added::Text(index, text),
            Some(
                Block::ToolUse { .. }
                | Block::ToolResult { .. }
                | Block::Reasoning { .. }
                | Block::Image { .. }
                | Block::File { .. }
                | Block::Source { .. }
                | Block::Compaction { .. }
                | Block::Unknown { .. },
            )
            | None => Added::Other,
        }
    }
}
