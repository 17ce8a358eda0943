//! Reading a streamed generateContent reply (`streamGenerateContent?alt=sse`): server-sent
//! events, each a whole `GenerateContentResponse` whose parts are increments.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::error;
use super::reply::{
    blocked, read_candidate, read_part, read_usage, Added, Feedback, Parts, FINISH_REASONS,
};
use crate::provider::Provider;
use crate::record::{Role, StoredMessage};
use crate::reply::{At, Counts, Reply};
use crate::stop::StopReason;
use crate::stream::{Delta, Events, Failure, Frame, StreamReader};

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
/// is tool use. An error object (`{"error": {"code": 503, ..., "status": "UNAVAILABLE"}}`),
/// which Gemini sends mid-stream inside `data:` or outside it
/// (<https://github.com/vercel/ai/issues/5217>), is a [`StreamError`](crate::StreamError)
/// carrying the [`ProviderError`](crate::ProviderError), and so is a stream that ends before a
/// finish reason.
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
    parts: Parts,
    /// The model's parts as Gemini takes them back in the round in flight: adjacent text
    /// increments joined, each thought signature kept on the part it came with.
    native: Vec<Map<String, Value>>,
    counts: Counts,
    finish: Option<String>,
    /// Lines outside `data:`, gathered until they make an error object.
    loose: String,
}

impl Stream {
    /// Keeps a part for the round in flight, joining a text increment to the text part before
    /// it when neither carries a thought signature of its own yet.
    fn keep(&mut self, part: &RawValue) -> Result<(), Failure> {
        let part: Map<String, Value> =
            serde_json::from_str(part.get()).map_err(|error| Failure::json(&error))?;
        let thought = |part: &Map<String, Value>| part.get("thought") == Some(&Value::Bool(true));
        let text = part.get("text").and_then(Value::as_str);
        let only_text = part
            .keys()
            .all(|key| matches!(key.as_str(), "text" | "thought" | "thoughtSignature"));
        if let (Some(text), true) = (text, only_text) {
            if let Some(last) = self.native.last_mut() {
                let joins = last.get("text").is_some()
                    && last
                        .keys()
                        .all(|key| matches!(key.as_str(), "text" | "thought" | "thoughtSignature"))
                    && thought(last) == thought(&part)
                    && !last.contains_key("thoughtSignature");
                if joins {
                    if let Some(Value::String(joined)) = last.get_mut("text") {
                        joined.push_str(text);
                    }
                    if let Some(signature) = part.get("thoughtSignature") {
                        last.insert("thoughtSignature".to_owned(), signature.clone());
                    }
                    return Ok(());
                }
            }
            if text.is_empty() && !part.contains_key("thoughtSignature") {
                return Ok(());
            }
        }
        self.native.push(part);
        Ok(())
    }

    /// The response chunk of one event.
    fn chunk(&mut self, data: &str, deltas: &mut Vec<Delta>) -> Result<(), Failure> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Chunk<'a> {
            #[serde(borrow, default)]
            candidates: Option<Vec<&'a RawValue>>,
            #[serde(borrow, default)]
            usage_metadata: Option<&'a RawValue>,
            #[serde(default)]
            prompt_feedback: Option<Feedback>,
            #[serde(borrow, default)]
            error: Option<&'a RawValue>,
        }
        let content = |error: crate::reply::ReplyError| Failure::content(&error);
        let at = At::body(Provider::Gemini, data)
            .map_err(|error| Failure::Json(error.what().to_owned()))?;
        let chunk: Chunk<'_> = serde_json::from_str(data).map_err(|error| Failure::json(&error))?;
        if chunk.error.is_some() {
            if let Some(error) = error::read(None, data) {
                return Err(Failure::Provider(error));
            }
        }
        match chunk.candidates.as_deref().and_then(<[_]>::first) {
            Some(&candidate) => {
                let candidate_at = at.child(candidate, "candidates[0]");
                let candidate = read_candidate(&candidate_at).map_err(content)?;
                for part_at in candidate.parts.iter().flatten() {
                    let part = read_part(part_at).map_err(content)?;
                    self.keep(part_at.raw())?;
                    match self.parts.push(part) {
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
                }
                if candidate.finish_reason.is_some() {
                    self.finish = candidate.finish_reason;
                }
            }
            // A usage-only chunk; or a blocked prompt, which gets no candidate at all.
            None => {
                let why = blocked(chunk.prompt_feedback);
                if !why.is_empty() {
                    return Err(Failure::Content(format!("the reply has no candidate{why}")));
                }
            }
        }
        if let Some(usage_at) = at.present(chunk.usage_metadata, "usageMetadata") {
            self.counts.update(read_usage(&usage_at).map_err(content)?);
        }
        Ok(())
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Failure> {
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
                    Some(error) => Err(Failure::Provider(error)),
                    None => Ok(()),
                }
            }
            Frame::Exception { .. } | Frame::Error { .. } => Ok(()),
        }
    }

    fn finish(&mut self) -> Result<Reply, Failure> {
        if self.finish.is_none() {
            return Err(Failure::Cut("a chunk with a finishReason"));
        }
        let stop = StopReason::from_word(self.finish.as_deref(), &FINISH_REASONS);
        let native = self
            .native
            .iter()
            .filter_map(|part| serde_json::value::to_raw_value(part).ok())
            .collect();
        Ok(Reply::new(
            Provider::Gemini,
            self.parts.blocks.clone(),
            self.counts.usage(),
            stop,
            native,
        ))
    }

    fn partial(&self) -> StoredMessage {
        StoredMessage::new(Role::Assistant, self.parts.blocks.clone())
    }
}
