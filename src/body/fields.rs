//! The caller's own parts of a body: its top-level fields and its appended messages, kept as
//! their exact JSON text and written verbatim.

use std::fmt;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;

use crate::errors::body::{BodyError, Kind};

/// The caller's top-level fields, in order, each value as its exact JSON text.
pub(crate) type Fields = Vec<(String, Box<RawValue>)>;

/// The caller's own messages, each as its exact JSON text.
pub(crate) type Appended = Vec<Box<RawValue>>;

/// Reads a caller's fields as the entries of one JSON object, in order.
pub(crate) fn read_fields(fields: &impl Serialize, into: &mut Fields) -> Result<(), BodyError> {
    let raw = serde_json::value::to_raw_value(fields)
        .map_err(|error| BodyError::new(Kind::NotJson(error.to_string())))?;
    let entries: Entries<String, Box<RawValue>> =
        serde_json::from_str(raw.get()).map_err(|_| {
            let found = match raw.get().as_bytes().first() {
                Some(b'[') => "an array",
                Some(b'"') => "a string",
                Some(b'n') => "null",
                Some(b't' | b'f') => "a boolean",
                Some(_) | None => "a number",
            };
            BodyError::new(Kind::FieldsNotAnObject(found))
        })?;
    for (key, value) in entries.0 {
        if into.iter().any(|(existing, _)| *existing == key) {
            return Err(BodyError::new(Kind::DuplicateField(key)));
        }
        into.push((key, value));
    }
    Ok(())
}

/// The entries of a JSON object, in order, each key and value read as `K` and `V` (a value
/// as its exact text, owned or borrowed).
pub(crate) struct Entries<K, V>(pub(crate) Vec<(K, V)>);

impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::Deserialize<'de>
    for Entries<K, V>
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<K, V>(std::marker::PhantomData<(K, V)>);

        impl<'de, K: serde::Deserialize<'de>, V: serde::Deserialize<'de>> serde::de::Visitor<'de>
            for EntriesVisitor<K, V>
        {
            type Value = Entries<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Entries<K, V>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<K, V>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }

        deserializer.deserialize_map(EntriesVisitor(std::marker::PhantomData))
    }
}

/// A JSON object's text with its member `key` set to `value` (JSON text), where the member
/// was or else last, and without the members named in `without`; every other member kept where
/// and as it came. A provider's own content rebuilt from a stream keeps the order of its
/// members, so that a round sends it as the whole reply carries it. `None` for text that is no
/// JSON object.
pub(crate) fn with_member(
    object: &str,
    key: &str,
    value: &str,
    without: &[&str],
) -> Option<String> {
    let Entries(members): Entries<String, &RawValue> = serde_json::from_str(object).ok()?;
    let mut kept: Vec<(&str, &str)> = Vec::new();
    let mut placed = false;
    for (name, raw) in &members {
        if without.contains(&name.as_str()) || (name == key && placed) {
            continue;
        }
        placed |= name == key;
        kept.push((name, if name == key { value } else { raw.get() }));
    }
    if !placed {
        kept.push((key, value));
    }
    let mut out = String::from("{");
    for (n, (name, value)) in kept.into_iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(name).ok()?);
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    Some(out)
}

/// Writes the caller's fields as entries of the body's map, in their order.
pub(crate) fn write_fields<M: SerializeMap>(
    map: &mut M,
    fields: &[(String, Box<RawValue>)],
) -> Result<(), M::Error> {
    for (key, value) in fields {
        map.serialize_entry(key, value)?;
    }
    Ok(())
}

/// A body's list of turns: the ones the crate rendered, the rounds in flight, then the
/// caller's own messages, verbatim.
pub(crate) struct Turns<'b, M, R> {
    pub(crate) first: Option<&'b M>,
    pub(crate) rendered: &'b [M],
    pub(crate) rounds: &'b [R],
    pub(crate) appended: &'b [Box<RawValue>],
}

impl<M: Serialize, R: Serialize> Serialize for Turns<'_, M, R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = usize::from(self.first.is_some())
            + self.rendered.len()
            + self.rounds.len()
            + self.appended.len();
        let mut seq = serializer.serialize_seq(Some(len))?;
        if let Some(first) = self.first {
            seq.serialize_element(first)?;
        }
        for message in self.rendered {
            seq.serialize_element(message)?;
        }
        for message in self.rounds {
            seq.serialize_element(message)?;
        }
        for message in self.appended {
            seq.serialize_element(message)?;
        }
        seq.end()
    }
}
