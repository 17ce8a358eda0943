//! The rounds of a Chat Completions turn in flight: the assistant message as it came, one
//! `tool` message per call, and the calls' images in a user message after them.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::value::RawValue;

use super::content;
use super::wire::Message;
use crate::body::{AssembledRound, Entries};
use crate::cost::{Of, Units};
use crate::dialects::{Dialect, RoundReasoning, ToolImages};
use crate::media::marker::Reason;
use crate::provider::Provider;
use crate::wire::{Part, Piece, Text, WireRole};

/// One message of a round.
#[derive(Debug, Clone)]
pub(super) enum Element<'a> {
    /// The reply's own message, its fields as they came, as a request takes them
    /// ([`AssistantMessage`]).
    Assistant {
        round: usize,
        /// The message as the request takes it back ([`AssistantMessage`]).
        message: Cow<'a, RawValue>,
    },
    /// A call's result: `{"role": "tool", "tool_call_id", "content"}`. Chat Completions has no
    /// error flag: an error's output is the content too. The result of a call the reply made
    /// with the deprecated `function_call` (which has no id) is `{"role": "function", "name",
    /// "content"}` instead (spec `ChatCompletionRequestFunctionMessage`): a `tool` message
    /// must answer a `tool_calls` id of the message before it, and OpenAI refuses one that
    /// does not ("messages with role 'tool' must be a response to a preceeding message with
    /// 'tool_calls'", <https://github.com/miurla/morphic/issues/136>,
    /// <https://github.com/smarter-sh/smarter/issues/264>).
    Tool {
        round: usize,
        id: &'a str,
        /// The function's name, for the result of a deprecated `function_call`.
        function: Option<&'a str>,
        content: [Text<'a>; 1],
    },
    /// The calls' images, which a `tool` message cannot carry, each after a line that says
    /// which call made it.
    Images { round: usize, message: Message<'a> },
}

/// The messages of the rounds, in order, under the dialect's rules.
pub(super) fn elements<'a>(
    rounds: Vec<AssembledRound<'a>>,
    provider: Provider,
    dialect: &Dialect,
) -> Vec<Element<'a>> {
    let mut elements = Vec::new();
    let without_reasoning = match dialect.round_reasoning {
        RoundReasoning::Echoed => false,
        RoundReasoning::LeftOut => true,
    };
    for (round, assembled) in rounds.into_iter().enumerate() {
        let legacy = (assembled.reply.native_items().first())
            .is_some_and(|message| calls_by_function_call(message));
        if let Some(message) = assembled.reply.native_items().first() {
            let request_form = AssistantMessage {
                message,
                without_reasoning,
            };
            elements.push(Element::Assistant {
                round,
                message: serde_json::value::to_raw_value(&request_form)
                    .map_or(Cow::Borrowed(&**message), Cow::Owned),
            });
        }
        let mut images = Vec::new();
        for answer in assembled.answers {
            let function = (legacy && !answer.real_id).then_some(answer.name);
            let mut text = answer.text;
            if let ToolImages::Marker = dialect.tool_images {
                // Nothing may follow the results: what a `tool` message cannot carry is the
                // marker inside it.
                let reason = Reason::AfterToolResults(provider);
                let mut markers: Vec<Piece<'_>> = answer
                    .images
                    .iter()
                    .map(|image| Piece::ImageNotShown {
                        media_type: image.media_type(),
                        reason,
                    })
                    .collect();
                markers.extend(answer.files.iter().map(|file| Piece::FileNotShown {
                    media_type: file.media_type(),
                    name: file.name(),
                    reason,
                }));
                if !markers.is_empty() {
                    text.join(Text::from_pieces(markers));
                }
                elements.push(Element::Tool {
                    round,
                    id: answer.id,
                    function,
                    content: [text],
                });
                continue;
            }
            elements.push(Element::Tool {
                round,
                id: answer.id,
                function,
                content: [text],
            });
            for image in &answer.images {
                images.push(Part::Text(Text::from_pieces(vec![Piece::ToolImage {
                    name: answer.name,
                    id: answer.real_id.then_some(answer.id),
                }])));
                images.push(Part::Image(*image));
            }
            for file in &answer.files {
                images.push(Part::Text(Text::from_pieces(vec![Piece::ToolFile {
                    name: answer.name,
                    id: answer.real_id.then_some(answer.id),
                }])));
                images.push(Part::File(*file));
            }
        }
        if !images.is_empty() {
            elements.push(Element::Images {
                round,
                message: Message {
                    role: WireRole::User,
                    content: images,
                },
            });
        }
    }
    elements
}

impl Serialize for Element<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Element::Assistant { message, .. } => message.serialize(serializer),
            Element::Tool {
                id,
                function,
                content,
                ..
            } => {
                let mut tool = serializer.serialize_struct("ToolMessage", 3)?;
                match function {
                    Some(name) => {
                        tool.serialize_field("role", "function")?;
                        tool.serialize_field("name", name)?;
                    }
                    None => {
                        tool.serialize_field("role", "tool")?;
                        tool.serialize_field("tool_call_id", id)?;
                    }
                }
                let [text] = content;
                tool.serialize_field("content", text)?;
                tool.end()
            }
            Element::Images { message, .. } => message.serialize(serializer),
        }
    }
}

/// Whether a reply's message calls its function with the deprecated `function_call`, not
/// `tool_calls`.
fn calls_by_function_call(message: &RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct Calls<'a> {
        #[serde(borrow, default)]
        function_call: Option<&'a RawValue>,
        #[serde(borrow, default)]
        tool_calls: Option<&'a RawValue>,
    }
    serde_json::from_str::<Calls<'_>>(message.get()).is_ok_and(|calls| {
        calls
            .function_call
            .is_some_and(|call| !content::is_zero_text(call.get()))
            && calls
                .tool_calls
                .map_or(true, |calls| calls_of(calls).is_none())
    })
}

/// A message's `tool_calls` without the calls of zero values (no name and no input, which the
/// reader takes for none): `None` when none is left, the exact text when none was left out.
fn calls_of(calls: &RawValue) -> Option<Cow<'_, RawValue>> {
    let Ok(entries) = serde_json::from_str::<Vec<&RawValue>>(calls.get()) else {
        return (!content::is_zero_text(calls.get())).then_some(Cow::Borrowed(calls));
    };
    let kept: Vec<&RawValue> = (entries.iter().copied())
        .filter(|call| !is_zero_call(call))
        .collect();
    match (kept.len(), entries.len()) {
        (0, _) => None,
        (kept_len, len) if kept_len == len => Some(Cow::Borrowed(calls)),
        (_, _) => serde_json::value::to_raw_value(&kept).ok().map(Cow::Owned),
    }
}

/// Whether a tool call is of zero values: a function or custom call with no name and no input.
fn is_zero_call(call: &RawValue) -> bool {
    let Ok(call) = serde_json::from_str::<serde_json::Value>(call.get()) else {
        return false;
    };
    let kind = crate::reply::field(&call, &["type"])
        .as_str()
        .unwrap_or_default();
    let text = |path: &[&str]| {
        crate::reply::field(&call, path)
            .as_str()
            .unwrap_or_default()
    };
    match kind {
        "" | "function" => {
            text(&["function", "name"]).is_empty() && text(&["function", "arguments"]).is_empty()
        }
        "custom" => text(&["custom", "name"]).is_empty() && text(&["custom", "input"]).is_empty(),
        _ => false,
    }
}

/// A reply's message as a request's assistant message: every field as it came (a compatible
/// server's own, such as `reasoning_content`, which some require back inside a turn), except
/// what only a response carries. OpenAI refuses a message field it does not know ("Additional
/// properties are not allowed ('id' was unexpected) - 'messages.0'",
/// <https://github.com/transitive-bullshit/agentic/issues/531>,
/// <https://github.com/microsoft/semantic-kernel/issues/4261>), so:
///
/// - a field whose value is `null` is left out (the crate writes no `null`), and so is every
///   other zero value, which the reader takes for none: an empty string, array or object, or
///   one of empty members (`"refusal": ""`, `"function_call": {"name": "", "arguments": ""}`,
///   `"tool_calls": []`), and the calls of `tool_calls` with no name and no input (the member
///   itself when none is left);
/// - `annotations` is left out: only the response message has it
///   (<https://platform.openai.com/docs/api-reference/chat/create>), and so is Groq's
///   `executed_tools` (the tools it ran, which its request message has no field for);
/// - `audio` goes back as its request form, `{"id"}`: "Data about a previous audio response
///   from the model" (the pinned spec's `ChatCompletionRequestAssistantMessage.audio`),
///   or not at all without an id;
/// - `reasoning` and `reasoning_content` are left out for a server that refuses them
///   ([`RoundReasoning::LeftOut`]).
struct AssistantMessage<'a> {
    message: &'a RawValue,
    without_reasoning: bool,
}

impl Serialize for AssistantMessage<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[derive(serde::Deserialize)]
        struct Audio<'a> {
            #[serde(borrow, default)]
            id: Option<&'a RawValue>,
        }
        let entries: Entries<std::borrow::Cow<'_, str>, &RawValue> =
            serde_json::from_str(self.message.get()).map_err(serde::ser::Error::custom)?;
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in &entries.0 {
            match (key.as_ref(), value.get()) {
                ("annotations" | "executed_tools", _) => {}
                ("reasoning" | "reasoning_content", _) if self.without_reasoning => {}
                // `null` and the other zero values are none, as the reader takes them.
                (_, value) if content::is_zero_text(value) => {}
                ("tool_calls", _) => {
                    if let Some(calls) = calls_of(value) {
                        map.serialize_entry(key, &calls)?;
                    }
                }
                ("audio", audio) => {
                    let id = serde_json::from_str::<Audio<'_>>(audio)
                        .ok()
                        .and_then(|audio| audio.id);
                    if let Some(id) = id {
                        let mut entry = serde_json::Map::new();
                        entry.insert(
                            "id".to_owned(),
                            serde_json::from_str(id.get()).map_err(serde::ser::Error::custom)?,
                        );
                        map.serialize_entry(key, &entry)?;
                    }
                }
                (_, _) => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

impl<'a> crate::body::RoundElement<'a> for Element<'a> {
    fn price(&'a self, units: &mut Units<'a>) {
        match self {
            Element::Assistant { round, message } => units.raw(Of::Round(*round), message),
            Element::Tool { round, content, .. } => units.texts(Of::Round(*round), content),
            Element::Images { round, message } => units.parts(Of::Round(*round), &message.content),
        }
    }
}
