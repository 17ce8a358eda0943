//! Reading a streamed generateContent reply (`streamGenerateContent?alt=sse`): server-sent
//! events, each a whole `GenerateContentResponse` whose parts are increments.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::enums::{Word, FINISH_REASON};
use super::error;
use super::reply::{
    blocked_reply, read_candidate, read_part, read_usage, Added, Feedback, Reading,
};
use crate::provider::Provider;
use crate::record::{Role, StoredMessage};
use crate::reply::{At, Reply};
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

#[derive(Debug, Default)]
struct Stream {
    /// The reply so far, read as a whole reply is.
    reading: Reading,
    /// Lines outside `data:`, gathered until they make an error object.
    loose: String,
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

impl Stream {
    /// A part of the first candidate, read as a whole reply's is, and the delta it makes.
    fn part(&mut self, raw: &RawValue, at: &At<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        let added = self
            .reading
            .part(raw, at, true)
            .map_err(|error| Fault::content(&error))?;
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
            self.reading.blocked = Some(reason);
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
                    self.reading.others.insert(index);
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
                self.reading.finish = Some(word.clone().name(&FINISH_REASON));
            }
            // The last grounding stands, as a whole reply carries one; citations and URLs
            // add up.
            self.reading.beyond.add(
                candidate.grounding_metadata.clone(),
                &candidate.citation_metadata,
                &candidate.url_context_metadata,
            );
        }
        if let Some(usage) = chunk.usage_metadata.filter(|usage| usage.get() != "null") {
            let at = body.child(usage, "usageMetadata");
            self.reading
                .counts
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
        let reading = &self.reading;
        match (&reading.finish, &reading.blocked) {
            (Some(_), _) => Ok(reading.reply()),
            (None, Some(reason)) => Ok(blocked_reply(reason.clone(), reading.counts.usage())),
            (None, None) => Err(Fault::Cut("a chunk with a finishReason")),
        }
    }

    fn partial(&self) -> StoredMessage {
        StoredMessage::new(Role::Assistant, self.reading.parts.blocks.clone())
    }
}
