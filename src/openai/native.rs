//! The message a streamed Chat reply sends back in the round in flight, written as the whole
//! reply's message goes back: each member where it first came in the deltas, a call's members
//! and its function's likewise, each value as it came (a call's arguments as their pieces
//! joined, a custom tool's input as its raw text), so that the next body is the whole reply's
//! byte for byte. A `serde_json::Map` would write the members sorted. And the whole message
//! the deltas add up to (`Message`, with what only the reader reads: annotations, images,
//! executed tools, the audio's words and bytes), which the whole reply's reader reads.

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::body::Entries;

/// The keys of an object's members, in the order they first came.
#[derive(Debug, Default)]
pub(super) struct Keys(Vec<String>);

impl Keys {
    /// Takes a key: one not seen yet goes last.
    pub(super) fn saw(&mut self, key: &str) {
        if !self.0.iter().any(|known| known == key) {
            self.0.push(key.to_owned());
        }
    }

    /// Takes the keys of an object's text, in its order (text that is no object has none).
    pub(super) fn saw_object(&mut self, raw: &str) {
        if let Ok(Entries(members)) = serde_json::from_str::<Entries<Cow<'_, str>, IgnoredAny>>(raw)
        {
            for (key, _) in members {
                self.saw(&key);
            }
        }
    }

    fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|known| known == key)
    }

    /// The values whose keys came.
    fn came<'k>(
        &self,
        values: impl IntoIterator<Item = (&'k str, String)>,
    ) -> Vec<(&'k str, String)> {
        (values.into_iter())
            .filter(|(key, _)| self.contains(key))
            .collect()
    }
}

/// An object's text: each of `values` (a key and its JSON text) where its key first came in
/// `keys`; a value whose key never came goes first, in the order given.
pub(super) fn object(keys: &Keys, values: &[(&str, String)]) -> String {
    let mut out = String::from("{");
    let mut write = |key: &str, value: &str| {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&json(key));
        out.push(':');
        out.push_str(value);
    };
    for (key, value) in values.iter().filter(|(key, _)| !keys.contains(key)) {
        write(key, value);
    }
    for key in &keys.0 {
        if let Some((_, value)) = values.iter().find(|(known, _)| known == key) {
            write(key, value);
        }
    }
    out.push('}');
    out
}

/// A string as its JSON text.
pub(super) fn json(text: &str) -> String {
    Value::from(text).to_string()
}

/// A call's function (`{"name", "arguments"}`, a custom tool's `{"name", "input"}`, the
/// deprecated `function_call`), as its deltas came.
#[derive(Debug, Default)]
pub(super) struct Function {
    keys: Keys,
    /// The first name that came not empty.
    name: String,
    /// The pieces of its `arguments` (or `input`), joined: the text as it came.
    pub(super) input: String,
}

impl Function {
    /// Takes one delta of the function, as its text.
    pub(super) fn take(&mut self, raw: &RawValue) {
        let Ok(Entries(members)) =
            serde_json::from_str::<Entries<Cow<'_, str>, &RawValue>>(raw.get())
        else {
            return;
        };
        for (key, value) in members {
            self.keys.saw(&key);
            let text = serde_json::from_str::<Cow<'_, str>>(value.get()).ok();
            match (key.as_ref(), text) {
                ("name", Some(name)) if self.name.is_empty() => self.name = name.into_owned(),
                ("arguments" | "input", Some(piece)) => self.input.push_str(&piece),
                (_, _) => {}
            }
        }
    }

    /// Its text: its name and its input, each where it came.
    pub(super) fn write(&self) -> String {
        let values = [
            ("name", json(&self.name)),
            ("arguments", json(&self.input)),
            ("input", json(&self.input)),
        ];
        object(&self.keys, &self.keys.came(values))
    }
}

/// A streamed tool call, as the round sends it back.
#[derive(Debug, Default)]
pub(super) struct Call {
    keys: Keys,
    /// Its `type` as it came: the first that was not empty.
    kind: Option<String>,
    /// Its `function` (or `custom`) object.
    pub(super) function: Function,
    /// The members the reader does not read itself (Gemini's `extra_content`, an unknown
    /// kind's own object), each the last sent that was not `null`.
    others: Vec<(String, Box<RawValue>)>,
}

impl Call {
    /// Takes one delta of the call, as its text.
    pub(super) fn take(&mut self, raw: &RawValue) {
        let Ok(Entries(members)) =
            serde_json::from_str::<Entries<Cow<'_, str>, &RawValue>>(raw.get())
        else {
            return;
        };
        for (key, value) in members {
            match key.as_ref() {
                // Where the call stands among the calls, which a request's message has not.
                "index" => {}
                "id" => self.keys.saw("id"),
                "type" => {
                    self.keys.saw("type");
                    let kind = serde_json::from_str::<String>(value.get()).ok();
                    if self.kind.is_none() {
                        self.kind = kind.filter(|kind| !kind.is_empty());
                    }
                }
                "function" | "custom" => {
                    self.keys.saw(&key);
                    if value.get() != "null" {
                        self.function.take(value);
                    }
                }
                _ if value.get() == "null" => {}
                _ => {
                    self.keys.saw(&key);
                    match self.others.iter_mut().find(|(known, _)| *known == key) {
                        Some((_, known)) => *known = value.to_owned(),
                        None => self.others.push((key.into_owned(), value.to_owned())),
                    }
                }
            }
        }
    }

    /// Its text, with the provider's id when it gave one (a made id is never sent back), each
    /// member where it came.
    pub(super) fn write(&self, id: Option<&str>) -> String {
        let function = self.function.write();
        let mut values: Vec<(&str, String)> = Vec::new();
        values.extend(id.map(|id| ("id", json(id))));
        values.extend(self.kind.as_deref().map(|kind| ("type", json(kind))));
        values.push(("function", function.clone()));
        values.push(("custom", function));
        values.extend(
            (self.others.iter()).map(|(key, value)| (key.as_str(), value.get().to_owned())),
        );
        object(&self.keys, &self.keys.came(values))
    }
}

/// OpenRouter's `reasoning_details`, streamed in pieces, each merged into the one of its
/// `index`: its text, summary and data add up, any other member is the last sent (a `null`
/// only where none came before), each member where it first came.
#[derive(Debug, Default)]
pub(super) struct Details(Vec<Vec<(String, Value)>>);

impl Details {
    /// Takes one piece, as its text (a piece that is no object is none).
    pub(super) fn merge(&mut self, raw: &RawValue) {
        let Ok(Entries(piece)) = serde_json::from_str::<Entries<String, Value>>(raw.get()) else {
            return;
        };
        let index = piece
            .iter()
            .find(|(key, _)| key == "index")
            .map(|(_, index)| index.clone());
        let known = index.and_then(|index| {
            (self.0.iter_mut()).find(|known| {
                known
                    .iter()
                    .any(|(key, value)| key == "index" && *value == index)
            })
        });
        let Some(known) = known else {
            self.0.push(piece);
            return;
        };
        for (key, value) in piece {
            let at = known.iter().position(|(known, _)| *known == key);
            match (key.as_str(), at.and_then(|at| known.get_mut(at)), value) {
                (
                    "text" | "summary" | "data",
                    Some((_, Value::String(before))),
                    Value::String(more),
                ) => {
                    before.push_str(&more);
                }
                (_, Some(_), Value::Null) => {}
                (_, Some((_, before)), value) => *before = value,
                (_, None, value) => known.push((key, value)),
            }
        }
    }

    /// Their text, when any came.
    pub(super) fn write(&self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let details: Vec<String> = (self.0.iter())
            .map(|detail| {
                let mut keys = Keys::default();
                for (key, _) in detail {
                    keys.saw(key);
                }
                let values: Vec<(&str, String)> = (detail.iter())
                    .map(|(key, value)| (key.as_str(), value.to_string()))
                    .collect();
                object(&keys, &values)
            })
            .collect();
        Some(format!("[{}]", details.join(",")))
    }
}

/// Generated audio, as its deltas come.
#[derive(Debug, Default)]
pub(super) struct Audio {
    pub(super) id: Option<Value>,
    pub(super) transcript: String,
    pub(super) data: String,
}

/// The words of a streamed message's text blocks, as its blocks hold them, and whether its
/// deprecated `function_call` began a call (not its marker).
#[derive(Debug, Default)]
pub(super) struct Words {
    pub(super) reasoning: Option<String>,
    pub(super) content: Option<String>,
    /// Reasoning in the content: `<think>` tags, or Magistral's `thinking` chunks.
    pub(super) think: Option<String>,
    pub(super) refusal: Option<String>,
    pub(super) function_call: bool,
}

/// What a streamed message carries besides its blocks' words, each as it came: what the round
/// sends back, and what only the whole reply's reader reads.
#[derive(Debug, Default)]
pub(super) struct Message {
    /// The message's members in the order they first came.
    pub(super) keys: Keys,
    /// The field the reasoning came in (`reasoning_content`, or compatible servers'
    /// `reasoning`).
    pub(super) reasoning_field: Option<&'static str>,
    /// The content as it came, tags and all (for a dialect whose models write them).
    pub(super) raw_content: String,
    /// Whether the content came as an array of chunks (Magistral), as the round sends it back.
    pub(super) content_array: bool,
    pub(super) audio: Option<Audio>,
    /// The annotations so far, each as it came: one source block each, once.
    pub(super) annotations: Vec<Value>,
    /// The generated images so far, each as it came.
    pub(super) images: Vec<Value>,
    /// The content chunks of a kind the crate does not read, each as it came.
    pub(super) chunks: Vec<Value>,
    /// A deprecated `function_call` that came with no name first: the marker's, as it came.
    pub(super) marked_call: Option<Box<RawValue>>,
    /// OpenRouter's `reasoning_details`, merged by their `index`, for the round.
    pub(super) details: Details,
    /// The deprecated `function_call` as it came, for the round.
    pub(super) function_call: Function,
    /// Groq's `executed_tools`, merged by their `index`, each with its number among the
    /// reply's calls.
    pub(super) executed: Vec<(Value, usize)>,
}

impl Message {
    /// The message's text, each member where it first came: with `whole`, all of it, as a
    /// body would carry it, for the whole reply's reader; else as the round sends it back
    /// (without what a request's message does not take: annotations, images, executed tools,
    /// the audio's transcript and data, chunks of unknown kinds). `think_tags`: the content
    /// goes as it came, tags and all; `calls`: the tool calls' text.
    pub(super) fn write(
        &self,
        words: &Words,
        think_tags: bool,
        calls: Option<String>,
        whole: bool,
    ) -> String {
        let mut values: Vec<(&str, String)> = vec![("role", json("assistant"))];
        if let Some(text) = &words.reasoning {
            let field = self.reasoning_field.unwrap_or("reasoning_content");
            values.push((field, json(text)));
        }
        // Content that is not the text block as it is: chunks, or tags and all.
        if self.content_array {
            let mut chunks = Vec::new();
            if let Some(reasoning) = &words.think {
                let text = json(reasoning);
                chunks.push(format!(
                    r#"{{"type":"thinking","thinking":[{{"type":"text","text":{text}}}]}}"#
                ));
            }
            if let Some(text) = &words.content {
                chunks.push(format!(r#"{{"type":"text","text":{}}}"#, json(text)));
            }
            if whole {
                chunks.extend(self.chunks.iter().map(Value::to_string));
            }
            values.push(("content", format!("[{}]", chunks.join(","))));
        } else if think_tags {
            if !self.raw_content.is_empty() {
                values.push(("content", json(&self.raw_content)));
            }
        } else if let Some(text) = &words.content {
            values.push(("content", json(text)));
        }
        if let Some(text) = &words.refusal {
            values.push(("refusal", json(text)));
        }
        match &self.audio {
            Some(audio) if whole => values.push((
                "audio",
                serde_json::json!({"transcript": audio.transcript, "data": audio.data}).to_string(),
            )),
            Some(Audio { id: Some(id), .. }) => values.push(("audio", format!(r#"{{"id":{id}}}"#))),
            Some(_) | None => {}
        }
        if whole {
            // Each list written from the values in place (an image's data URL is large).
            let tools = self.executed.iter().map(|(tool, _)| tool);
            let lists = [
                ("annotations", array(self.annotations.iter())),
                ("images", array(self.images.iter())),
                ("executed_tools", array(tools)),
            ];
            values.extend(lists.into_iter().filter(|(_, list)| list != "[]"));
        }
        values.extend(
            self.details
                .write()
                .map(|details| ("reasoning_details", details)),
        );
        values.extend(calls.map(|calls| ("tool_calls", calls)));
        // The deprecated single call, as the whole message carries it: the round answers it
        // with a `function` message, which must follow a message that has it.
        match (words.function_call, &self.marked_call) {
            (true, _) => {
                values.push(("function_call", self.function_call.write()));
            }
            (_, Some(marked)) if whole => values.push(("function_call", marked.get().to_owned())),
            (_, _) => {}
        }
        object(&self.keys, &values)
    }
}

/// Values as one JSON array's text.
fn array<'v>(values: impl Iterator<Item = &'v Value>) -> String {
    let items: Vec<String> = values.map(Value::to_string).collect();
    format!("[{}]", items.join(","))
}
