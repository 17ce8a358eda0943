//! Reading a streamed Responses reply: server-sent events from `response.created` to
//! `response.completed` (or `response.incomplete`).

use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply::{read_response, Items};
use crate::openai;
use crate::provider::Provider;
use crate::record::StoredMessage;
use crate::reply::{At, Reply};
use crate::stop::StopReason;
use crate::stream::{Blocks, Delta, Events, Fault, Frame, StreamReader};

/// Starts a reader of a streamed Responses reply (`"stream": true`): server-sent events, fed
/// the response body's bytes as they arrive.
///
/// Text comes in `response.output_text.delta`, refusals in `response.refusal.delta`, reasoning
/// summaries in `response.reasoning_summary_text.delta` (and reasoning itself, from
/// open-weight models, in `response.reasoning_text.delta`), and a function call's arguments in
/// `response.function_call_arguments.delta` (a custom tool's free-form input in
/// `response.custom_tool_call_input.delta`, its deltas adding up to the JSON string the record
/// stores), each keyed by its item's `output_index` (and its
/// part's index). The reply is built from the `response.output_item.done` items, each read as
/// [`read_reply`](super::read_reply) reads an output item: `response.completed` may carry
/// `output: []` after streamed items (<https://github.com/BerriAI/litellm/issues/32724>), so its
/// snapshot is read only when no item came. The stream ends at `response.completed` or
/// `response.incomplete`, which give the stop reason and usage; `error` and `response.failed`
/// are a [`StreamError`](crate::StreamError) carrying the
/// [`ProviderError`](crate::ProviderError), and so is a stream that ends before its terminal
/// event. Other events (`response.created`, `response.content_part.added`, the `.done`
/// events of deltas, and event types OpenAI adds) are ignored, and so is a `data: [DONE]`
/// after the terminal event, as OpenRouter's Responses endpoint sends it
/// (<https://openrouter.ai/docs/api-reference/streaming>): it is the end, never a malformed
/// event.
///
/// ```
/// use transcript_replay::{openai_responses, Block};
///
/// let stream = concat!(
///     "event: response.output_item.added\n",
///     r#"data: {"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}"#, "\n\n",
///     "event: response.output_text.delta\n",
///     r#"data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hi"}"#, "\n\n",
///     "event: response.output_item.done\n",
///     r#"data: {"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]}]}}"#, "\n\n",
///     "event: response.completed\n",
///     r#"data: {"type":"response.completed","response":{"status":"completed","output":[],"usage":{"input_tokens":5,"output_tokens":1}}}"#, "\n\n",
/// );
/// let mut reader = openai_responses::stream();
/// reader.feed(stream.as_bytes())?;
/// let reply = reader.finish()?;
/// assert_eq!(reply.message.blocks, [Block::text("Hi")]);
/// assert_eq!(reply.message.usage.map(|usage| usage.output_tokens), Some(1));
/// # Ok::<(), transcript_replay::StreamError>(())
/// ```
pub fn stream() -> StreamReader {
    StreamReader::sse(Provider::OpenAiResponses, Box::<Stream>::default())
}

/// Where a reasoning item's own text parts are keyed, after its summary parts.
const REASONING_TEXT: usize = 1 << 15;

/// The key of a part of an output item: the item's index, then the part's.
fn key(output_index: usize, part: usize) -> usize {
    output_index.saturating_mul(1 << 16).saturating_add(part)
}

/// The error a stream's `error` event, or a failed response, carries.
#[derive(Deserialize, Default)]
struct ErrorObject {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

impl ErrorObject {
    /// The stream's fault: the provider's error.
    fn fault(self) -> Fault {
        Fault::provider(openai::error_from_parts(
            Provider::OpenAiResponses,
            None,
            self.code,
            None,
            self.message,
        ))
    }
}

/// The error of a `response.failed` event's response (none when it names none).
fn failed(response: Option<&RawValue>) -> Result<ErrorObject, Fault> {
    #[derive(Deserialize)]
    struct Failed<'a> {
        #[serde(borrow, default)]
        error: Option<&'a RawValue>,
    }
    let Some(response) = response else {
        return Ok(ErrorObject::default());
    };
    let failed: Failed<'_> =
        serde_json::from_str(response.get()).map_err(|error| Fault::json(&error))?;
    match failed.error.filter(|error| error.get() != "null") {
        Some(error) => serde_json::from_str(error.get()).map_err(|error| Fault::json(&error)),
        None => Ok(ErrorObject::default()),
    }
}

#[derive(Debug, Default)]
struct Stream {
    blocks: Blocks,
    /// The `response.output_item.done` items, with their `output_index`.
    done: Vec<(usize, Box<RawValue>)>,
    /// The terminal event's response: its data.
    terminal: Option<String>,
    /// The custom tools' calls by `output_index`, and whether their input is closed: their
    /// free-form input is stored as its JSON string.
    custom: Vec<(usize, bool)>,
}

impl Stream {
    /// Ends the free-form input of the custom tool call at `output_index` (every one still
    /// open, for `None`), as the whole reply stores it.
    fn end_custom(&mut self, output_index: Option<usize>, deltas: &mut Vec<Delta>) {
        for (index, closed) in &mut self.custom {
            if !*closed && output_index.map_or(true, |wanted| wanted == *index) {
                *closed = true;
                self.blocks.end_free_input(key(*index, 0), deltas);
            }
        }
    }
}

impl Events for Stream {
    fn event(&mut self, frame: Frame<'_>, deltas: &mut Vec<Delta>) -> Result<(), Fault> {
        #[derive(Deserialize)]
        struct Event<'a> {
            #[serde(rename = "type")]
            kind: &'a str,
            #[serde(default)]
            output_index: Option<usize>,
            #[serde(default)]
            content_index: Option<usize>,
            #[serde(default)]
            summary_index: Option<usize>,
            // Text for the events the reader reads; any JSON for one it does not (a hosted
            // shell's output content is an object), never a refusal.
            #[serde(borrow, default)]
            delta: Option<&'a RawValue>,
            #[serde(borrow, default)]
            item: Option<&'a RawValue>,
            #[serde(borrow, default)]
            response: Option<&'a RawValue>,
        }
        #[derive(Deserialize)]
        struct Item<'a> {
            #[serde(rename = "type")]
            kind: &'a str,
            #[serde(default)]
            call_id: Option<String>,
            #[serde(default)]
            name: Option<String>,
        }
        let Frame::Event { data, .. } = frame else {
            return Ok(());
        };
        // A `[DONE]` some servers send after the terminal event (OpenRouter's) is no event.
        if crate::stream::is_done(data) {
            return Ok(());
        }
        let event: Event<'_> = serde_json::from_str(data).map_err(|error| Fault::json(&error))?;
        let output_index = event.output_index.unwrap_or_default();
        let piece = event
            .delta
            .and_then(|delta| serde_json::from_str::<String>(delta.get()).ok());
        let piece = piece.as_deref().unwrap_or_default();
        match event.kind {
            "response.output_item.added" => {
                if let Some(item) = event.item {
                    let item: Item<'_> =
                        serde_json::from_str(item.get()).map_err(|error| Fault::json(&error))?;
                    if item.kind == "custom_tool_call" {
                        self.custom.push((output_index, false));
                    }
                    if matches!(item.kind, "function_call" | "custom_tool_call") {
                        self.blocks.call(
                            key(output_index, 0),
                            item.call_id.as_deref().unwrap_or_default(),
                            item.name.as_deref().unwrap_or_default(),
                            false,
                            deltas,
                        );
                    }
                }
            }
            "response.output_text.delta" | "response.refusal.delta" => self.blocks.text(
                key(output_index, event.content_index.unwrap_or_default()),
                piece,
                deltas,
            ),
            "response.reasoning_summary_text.delta" => self.blocks.reasoning(
                key(output_index, event.summary_index.unwrap_or_default()),
                piece,
                deltas,
            ),
            "response.reasoning_text.delta" => self.blocks.reasoning(
                key(
                    output_index,
                    REASONING_TEXT + event.content_index.unwrap_or_default(),
                ),
                piece,
                deltas,
            ),
            "response.function_call_arguments.delta" => {
                self.blocks.input(key(output_index, 0), piece, deltas);
            }
            "response.custom_tool_call_input.delta" => {
                let open = self
                    .custom
                    .iter()
                    .any(|&(index, closed)| index == output_index && !closed);
                if open {
                    self.blocks.free_input(key(output_index, 0), piece, deltas);
                }
            }
            "response.output_item.done" => {
                self.end_custom(Some(output_index), deltas);
                if let Some(item) = event.item {
                    self.done.push((output_index, item.to_owned()));
                }
            }
            "response.completed" | "response.incomplete" => {
                self.end_custom(None, deltas);
                self.terminal = Some(data.to_owned());
            }
            "response.failed" => return Err(failed(event.response)?.fault()),
            "error" => {
                let error: ErrorObject =
                    serde_json::from_str(data).map_err(|error| Fault::json(&error))?;
                return Err(error.fault());
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<Reply, Fault> {
        #[derive(Deserialize)]
        struct Terminal<'a> {
            #[serde(borrow)]
            response: &'a RawValue,
        }
        let Some(data) = &self.terminal else {
            return Err(Fault::Cut("response.completed"));
        };
        let terminal: Terminal<'_> =
            serde_json::from_str(data).map_err(|error| Fault::json(&error))?;
        let at = At::body(Provider::OpenAiResponses, terminal.response.get())
            .map_err(|error| Fault::content(&error))?;
        let response = read_response(&at).map_err(|error| Fault::content(&error))?;
        let mut items = Items::default();
        if self.done.is_empty() {
            for item_at in &response.output {
                items
                    .read(item_at)
                    .map_err(|error| Fault::content(&error))?;
            }
        } else {
            self.done.sort_by_key(|(index, _)| *index);
            for (_, item) in &self.done {
                let at = At::body(Provider::OpenAiResponses, item.get())
                    .map_err(|error| Fault::content(&error))?;
                items.read(&at).map_err(|error| Fault::content(&error))?;
            }
        }
        let stop = match response.stop {
            StopReason::Other(word) if word.is_empty() => StopReason::EndTurn,
            stop => stop,
        };
        Ok(items.reply(stop, response.usage))
    }

    fn partial(&self) -> StoredMessage {
        self.blocks.partial()
    }
}
