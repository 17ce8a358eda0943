//! Reading a streamed generateContent reply (`streamGenerateContent?alt=sse`): server-sent
//! events, each a whole `GenerateContentResponse` whose parts are increments.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::enums::{Word, FINISH_REASON};
use super::error;
use super::reply::{
    blocked_reply, read_candidate, read_part, read_usage, Added, Beyond, Feedback, Part, Parts,
    FINISH_REASONS,
};
use crate::body::with_member;
use crate::provider::Provider;
use crate::record::{Role, StoredMessage};
use crate::reply::{At, Counts, Reply};
use crate::stop::StopReason;
use crate::stream::{Delta, Events, Fault, Frame, StreamReader};

/// Starts a reader of a streamed generateContent reply (`streamGenerateContent?alt=sse`):
/// server-sent events, each a whole `GenerateContentResponse`, fed the response body's bytes
/// as they arrive.
///
/// The first candidate's parts are increments: adjacent text parts of one kind join into one
/// block, as [`read_reply`](super::read_reply) joins them; a `functionCall` arrives whole, with
/// its `args` as an object. The stream ends at the chunk whose candidate has a
/// `finishReason`; a usage-only chunk after it is read when it comes, and `usageMetadata` is
/// cumulative: the last stands, it is never summed
/// (<https://github.com/agno-agi/agno/issues/6624>). The trailing chunk
/// `{"parts":[{"text":""}],"finishReason":"STOP"}` that follows a function call adds no block
/// (<https://github.com/envoyproxy/ai-gateway/issues/2399>), and `STOP` after a function call
/// is tool use. Every part the whole reply reads is read the same way here (the parts of tools
/// Gemini ran, `toolCall` and `toolResponse` among them, each arriving whole; enums sent as
/// numbers), and goes back in the round as it came. The first candidate is the one of `index`
/// 0 (or the first of a chunk that numbers none); the indices of the others are counted in
/// [`Metadata::other_choices`](crate::Metadata::other_choices). A chunk with no candidate and
/// a `promptFeedback.blockReason` ends the stream as a blocked prompt: the reply the whole body
/// gives, with no content, stopped by the content filter, the reason in
/// [`Metadata::prompt_blocked`](crate::Metadata::prompt_blocked). An error object
/// (`{"error": {"code": 503, ..., "status": "UNAVAILABLE"}}`), which Gemini sends mid-stream
/// inside `data:` or outside it (<https://github.com/vercel/ai/issues/5217>), is a
/// [`StreamError`](crate::StreamError) carrying the [`ProviderError`](crate::ProviderError),
/// and so is a stream that ends before a finish reason (or a block reason).
///
/// ```
/// use transcript_replay::{gemini, Block, StopReason};
///
/// let stream = concat!(
///     "data: {\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"It is \"}]}}]}\r\n\r\n",
///     "data: {\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"empty.\"}]}, \"finishReason\": \"STOP\"}],",
///     " \"usageMetadata\": {\"promptTokenCount\": 8, \"candidatesTokenCount\": 3}}\r\n\r\n",
/// );
/// let mut reader = gemini::stream();
/// reader.feed(stream.as_bytes())?;
/// let reply = reader.finish()?;
/// assert_eq!(reply.message.blocks, [Block::text("It is empty.")]);
/// assert_eq!(reply.stop, StopReason::EndTurn);
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
pub fn stream() -> StreamReader {
    StreamReader::sse(Provider::Gemini, Box::<Stream>::default())
}

/// The most text kept of lines outside `data:` while they do not make an error object.
const LOOSE_LIMIT: usize = 1 << 20;

/// A part kept for the round in flight.
#[derive(Debug)]
enum Native {
    /// Text (or a thought) without a signature, whose increments join.
    Text { text: String, thought: bool },
    /// Any other part, and every part with a signature, as it came.
    Raw(Box<RawValue>),
}

#[derive(Debug, Default)]
struct Stream {
    parts: Parts,
    /// Where the first part of the call whose arguments stream is kept, in `native`.
    streamed: Option<usize>,
    /// The model's parts as Gemini takes them back in the round in flight: adjacent text
    /// increments without a signature joined, every other part as it came.
    native: Vec<Native>,
    counts: Counts,
    finish: Option<String>,
    /// Lines outside `data:`, gathered until they make an error object.
    loose: String,
    /// What the candidate carries beside its content, as the chunks gave it.
    beyond: Beyond,
    /// Why the prompt was blocked, when a chunk said so.
    blocked: Option<String>,
    /// The indices of the candidates after the first that the chunks carried.
    others: std::collections::BTreeSet<i64>,
}

/// A chunk, read in one pass: the parts of its first candidate, each with its exact text.
/// Anything this does not read (a part of a kind the record has no block for, a value of the
/// wrong type) is read again by the reply's own reader, which says what is wrong and where.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk<'a> {
    #[serde(borrow, default)]
    candidates: Option<Vec<Candidate<'a>>>,
    #[serde(borrow, default)]
    usage_metadata: Option<&'a RawValue>,
    #[serde(default)]
    prompt_feedback: Option<Feedback>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate<'a> {
    /// Read leniently: a whole reply does not read it at all.
    #[serde(default)]
    index: Option<Value>,
    #[serde(borrow, default)]
    content: Option<Content<'a>>,
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
    parts: Option<Vec<&'a RawValue>>,
}

/// A text part, the one a stream brings most: nothing but text, its thought flag and its
/// signature.
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

impl Stream {
    /// The kept first part of the call whose arguments stream, with its arguments as the
    /// parts so far make them, and no `willContinue`: every other member kept where and as it
    /// came, and the arguments' keys in the order they came, so that the round in flight sends
    /// the part the whole reply carries, byte for byte.
    fn rewrite_streamed(&mut self) {
        let Some(at) = self.streamed else {
            return;
        };
        let args = self
            .parts
            .streamed_input()
            .and_then(|input| RawValue::from_string(input.to_owned()).ok());
        let Some(Native::Raw(raw)) = self.native.get(at) else {
            return;
        };
        let Some(rewritten) = with_args(raw.get(), args.as_deref()) else {
            return;
        };
        if let Some(slot) = self.native.get_mut(at) {
            *slot = Native::Raw(rewritten);
        }
    }

    /// Keeps a part for the round in flight: a text increment without a signature joins the
    /// unsigned text part before it when both are of one kind; a part with a
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
        if part.text.is_empty() {
            return;
        }
        self.native.push(Native::Text {
            text: part.text.clone().into_owned(),
            thought,
        });
    }

    /// The part a raw part is, read fast when it is text, else by the reply's reader.
    fn part(&mut self, raw: &RawValue, at: &At<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        let text: Option<TextPart<'_>> = serde_json::from_str(raw.get()).ok();
        let part = match &text {
            Some(text) => Part::Text {
                text: text.text.clone().into_owned(),
                thought: text.thought.unwrap_or(false),
            },
            None => read_part(at).map_err(|error| Fault::content(&error))?,
        };
        // A call whose arguments stream goes back whole: its first part with the arguments
        // so far, and the parts that carry them not at all (a `functionCall` with no `name`
        // is no part Gemini takes back).
        let arguments = matches!(part, Part::CallArguments(_));
        let streamed = matches!(part, Part::Call { streamed: true, .. });
        if !arguments {
            self.keep(text.as_ref(), raw);
        }
        if streamed {
            self.streamed = self.native.len().checked_sub(1);
        }
        let added = self.parts.push(part);
        let added = match added {
            Added::Other if arguments => {
                self.rewrite_streamed();
                Added::Other
            }
            added => added,
        };
        match added {
            Added::Text(block, text) => deltas.push(Delta::Text {
                block,
                text: text.to_owned(),
            }),
            Added::Reasoning(block, text) => deltas.push(Delta::Reasoning {
                block,
                text: text.to_owned(),
            }),
            Added::Call(block, id, name, input) => {
                deltas.push(Delta::ToolCall {
                    block,
                    id: id.to_owned(),
                    name: name.to_owned(),
                });
                deltas.push(Delta::ToolInput {
                    block,
                    piece: input.to_owned(),
                });
            }
            Added::Other => {}
        }
        Ok(())
    }

    /// The response chunk of one event.
    fn chunk(&mut self, data: &str, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        let chunk: Chunk<'_> = match serde_json::from_str(data) {
            Ok(chunk) => chunk,
            // Read again in place, to say where the chunk is not what Gemini sends.
            Err(error) => {
                return Err(self
                    .detailed(data)
                    .err()
                    .unwrap_or_else(|| Fault::json(&error)))
            }
        };
        if chunk.error.is_some() {
            if let Some(error) = error::read(None, data) {
                return Err(Fault::provider(error));
            }
        }
        // Paths for errors, made only when a part needs the reply's reader.
        let body = At::body_unchecked(Provider::Gemini, data);
        if let Some(reason) = chunk.prompt_feedback.and_then(Feedback::reason) {
            // A blocked prompt gets no candidate at all: the stream ends on this chunk.
            self.blocked = Some(reason);
        }
        // The first candidate is read (its `index` 0, or the first of a chunk that numbers
        // none); the others are counted.
        let mut first = None;
        for (position, candidate) in chunk.candidates.iter().flatten().enumerate() {
            let index = match candidate.index.as_ref().and_then(Value::as_i64) {
                Some(index) => index,
                None => i64::try_from(position).unwrap_or(i64::MAX),
            };
            match index {
                0 if first.is_none() => first = Some(candidate),
                index => {
                    self.others.insert(index);
                }
            }
        }
        // A chunk without the first candidate (usage alone, a blocked prompt, the others'
        // increments) adds no part.
        if let Some(candidate) = first {
            for (index, &raw) in candidate
                .content
                .as_ref()
                .and_then(|content| content.parts.as_deref())
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let at = body.child(raw, format_args!("candidates[0].content.parts[{index}]"));
                self.part(raw, &at, deltas)?;
            }
            if let Some(word) = &candidate.finish_reason {
                self.finish = Some(word.clone().name(&FINISH_REASON));
            }
            // The last grounding stands, as a whole reply carries one; citations and URLs
            // add up.
            self.beyond.add(
                candidate.grounding_metadata.clone(),
                &candidate.citation_metadata,
                &candidate.url_context_metadata,
            );
        }
        if let Some(usage) = chunk.usage_metadata.filter(|usage| usage.get() != "null") {
            let at = body.child(usage, "usageMetadata");
            self.counts
                .update(read_usage(&at).map_err(|error| Fault::content(&error))?);
        }
        Ok(())
    }

    /// Why a chunk cannot be read, said by the reply's own reader.
    fn detailed(&self, data: &str) -> Result<(), Fault> {
        let at = At::body(Provider::Gemini, data).map_err(|error| Fault::content(&error))?;
        let candidates: Vec<&RawValue> =
            match at.read::<Option<std::collections::BTreeMap<String, &RawValue>>>() {
                Ok(Some(fields)) => match fields.get("candidates") {
                    Some(&raw) => at
                        .child(raw, "candidates")
                        .read()
                        .map_err(|error| Fault::content(&error))?,
                    None => Vec::new(),
                },
                Ok(None) => Vec::new(),
                Err(error) => return Err(Fault::content(&error)),
            };
        if let Some(&first) = candidates.first() {
            let candidate = read_candidate(&at.child(first, "candidates[0]"))
                .map_err(|error| Fault::content(&error))?;
            for part_at in candidate.parts.iter().flatten() {
                read_part(part_at).map_err(|error| Fault::content(&error))?;
            }
        }
        Ok(())
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        match frame {
            Frame::Event { data, .. } => self.chunk(data, deltas),
            Frame::Line(line) => {
                if self.loose.len() > LOOSE_LIMIT {
                    self.loose.clear();
                }
                self.loose.push_str(line);
                self.loose.push('\n');
                // An object or array can only be whole at its closing bracket.
                let closes = matches!(line.trim_end().as_bytes().last(), Some(b'}' | b']'));
                match closes.then(|| error::read(None, &self.loose)).flatten() {
                    Some(error) => Err(Fault::provider(error)),
                    None => Ok(()),
                }
            }
            Frame::Exception { .. } | Frame::Error { .. } => Ok(()),
        }
    }

    fn finish(&mut self) -> Result<Reply, Fault> {
        if self.finish.is_none() {
            return match self.blocked.clone() {
                Some(reason) => Ok(blocked_reply(reason, self.counts.usage())),
                None => Err(Fault::Cut("a chunk with a finishReason")),
            };
        }
        let stop = StopReason::from_word(self.finish.as_deref(), &FINISH_REASONS);
        let native = self
            .native
            .iter()
            .filter_map(|part| match part {
                Native::Raw(raw) => Some(raw.clone()),
                Native::Text { text, thought } => {
                    let mut fields = Map::new();
                    fields.insert("text".to_owned(), Value::from(text.as_str()));
                    if *thought {
                        fields.insert("thought".to_owned(), Value::Bool(true));
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
        Ok(
            Reply::new(Provider::Gemini, blocks, self.counts.usage(), stop, native)
                .not_keeping(self.parts.not_kept.clone())
                .with_metadata(metadata),
        )
    }

    fn partial(&self) -> StoredMessage {
        StoredMessage::new(Role::Assistant, self.parts.blocks.clone())
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
    let call = with_member(called.function_call.get(), "args", args, &["willContinue"])?;
    RawValue::from_string(with_member(part, "functionCall", &call, &[])?).ok()
}
