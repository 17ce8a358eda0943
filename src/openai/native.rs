//! The message a streamed Chat reply sends back in the round in flight, written as the whole
//! reply's message goes back: each member where it first came in the deltas, a call's members
//! and its function's likewise, each value as it came (a call's arguments as their pieces
//! joined, a custom tool's input as its raw text), so that the next body is the whole reply's
//! byte for byte. A `serde_json::Map` would write the members sorted.

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
