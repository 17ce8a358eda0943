//! The shapes of a streamed Chat Completions reply's chunks, as the stream reader reads them:
//! a chunk, its choices, a choice's delta and a tool call's delta.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::content;

/// One chunk of the stream: its choices' deltas, its usage, or an error.
#[derive(Deserialize)]
pub(super) struct Chunk<'a> {
    /// What the chunk is: `chat.completion.chunk`, or a server's own last chunk
    /// ([`StreamEnd::Chunk`](crate::dialects::StreamEnd::Chunk)).
    #[serde(default)]
    pub(super) object: Option<String>,
    #[serde(borrow, default)]
    pub(super) choices: Option<Vec<Choice<'a>>>,
    #[serde(borrow, default)]
    pub(super) usage: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(super) error: Option<&'a RawValue>,
    /// Groq's streamed usage (<https://github.com/Portkey-AI/gateway/issues/1072>).
    #[serde(borrow, default)]
    pub(super) x_groq: Option<XGroq<'a>>,
    #[serde(default)]
    pub(super) citations: Option<Value>,
    #[serde(default)]
    pub(super) search_results: Option<Value>,
}

/// Groq's `x_groq` member of a chunk, which carries its usage.
#[derive(Deserialize)]
pub(super) struct XGroq<'a> {
    #[serde(borrow, default)]
    pub(super) usage: Option<&'a RawValue>,
}

/// A delta's `content`: a piece of text, or an array of chunks (Magistral).
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum Content {
    Text(String),
    Chunks(Vec<Value>),
}

/// A piece of generated audio: its id, a piece of its transcript and of its data.
#[derive(Deserialize)]
pub(super) struct AudioDelta {
    #[serde(default)]
    pub(super) id: Option<Value>,
    #[serde(default)]
    pub(super) transcript: Option<String>,
    #[serde(default)]
    pub(super) data: Option<String>,
}

/// One choice of a chunk: its index, its delta (as its text, whose members' order the round
/// keeps) and its finish reason.
#[derive(Deserialize)]
pub(super) struct Choice<'a> {
    #[serde(default)]
    pub(super) index: Option<usize>,
    #[serde(borrow, default)]
    pub(super) delta: Option<&'a RawValue>,
    #[serde(default)]
    pub(super) finish_reason: Option<String>,
    /// The error of a choice that ended with `finish_reason: "error"` (OpenRouter).
    #[serde(default)]
    pub(super) error: Option<Value>,
}

/// A choice's delta: the pieces of each part of the message.
#[derive(Deserialize)]
pub(super) struct ChoiceDelta<'a> {
    #[serde(default)]
    pub(super) content: Option<Content>,
    #[serde(default)]
    pub(super) refusal: Option<String>,
    #[serde(default)]
    pub(super) reasoning_content: Option<String>,
    #[serde(default)]
    pub(super) reasoning: Option<String>,
    #[serde(borrow, default)]
    pub(super) tool_calls: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    pub(super) audio: Option<AudioDelta>,
    #[serde(borrow, default)]
    pub(super) function_call: Option<&'a RawValue>,
    #[serde(default)]
    pub(super) annotations: Option<Vec<Value>>,
    #[serde(borrow, default)]
    pub(super) reasoning_details: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    pub(super) executed_tools: Option<Vec<Value>>,
    #[serde(default)]
    pub(super) images: Option<Vec<Value>>,
}

#[derive(Deserialize)]
pub(super) struct CallDelta {
    #[serde(default)]
    pub(super) index: Option<usize>,
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(rename = "type", default)]
    pub(super) kind: Option<String>,
    #[serde(default)]
    pub(super) function: Option<FunctionDelta>,
    /// A custom tool's call: its `name` and its free-form `input`, in pieces.
    #[serde(default)]
    pub(super) custom: Option<CustomDelta>,
    #[serde(default)]
    pub(super) extra_content: Option<Value>,
}

#[derive(Deserialize)]
pub(super) struct FunctionDelta {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) arguments: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct CustomDelta {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) input: Option<String>,
}

impl CallDelta {
    /// Whether the delta carries anything but zero values: an id, a name, a piece of the
    /// input or the call's `extra_content`.
    pub(super) fn carries(&self) -> bool {
        self.id.as_deref().is_some_and(|id| !id.is_empty())
            || self.name().is_some()
            || !self.piece().is_empty()
            || (self.extra_content.as_ref()).is_some_and(|extra| !content::is_zero(extra))
    }

    /// The tool's name, when this delta carries it.
    pub(super) fn name(&self) -> Option<&str> {
        self.function
            .as_ref()
            .and_then(|function| function.name.as_deref())
            .or_else(|| {
                self.custom
                    .as_ref()
                    .and_then(|custom| custom.name.as_deref())
            })
            .filter(|name| !name.is_empty())
    }

    /// The piece of the input this delta carries: a function's arguments, or a custom tool's
    /// free-form input.
    pub(super) fn piece(&self) -> &str {
        self.function
            .as_ref()
            .and_then(|function| function.arguments.as_deref())
            .or_else(|| {
                self.custom
                    .as_ref()
                    .and_then(|custom| custom.input.as_deref())
            })
            .unwrap_or_default()
    }
}
