//! Keys a newer writer stored that this version does not read: on a message, or on a block of
//! a type it knows. Reading a record keeps them ([`UnknownKeys`], a message's), writing it
//! back puts each where it stood, after the same known key, with its value's exact text; no
//! replay, render or body ever reads them. So a record written by a newer version and
//! rewritten by this one loses nothing, and a fleet that upgrades one runtime at a time never
//! strips what the newer ones wrote.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

/// The keys of a message, in the order the record writes them.
pub(crate) const MESSAGE_KEYS: &[&str] = &["role", "blocks", "usage", "timestamp"];

/// The keys a block of a known type is written with, `type` first, in order; `None` for a
/// type this version does not read (whose whole text is kept as [`Block::Unknown`]).
///
/// [`Block::Unknown`]: crate::Block::Unknown
pub(crate) fn block_keys(type_name: &str) -> Option<&'static [&'static str]> {
    Some(match type_name {
        "text" => &["type", "text"],
        "tool_use" => &["type", "id", "name", "input", "provider_executed"],
        "tool_result" => &["type", "tool_use_id", "tool_name", "output", "is_error"],
        "reasoning" => &["type", "reasoning"],
        "image" => &["type", "media_type", "data"],
        "file" => &["type", "media_type", "data", "name"],
        "source" => &["type", "url", "title", "cited_text"],
        "compaction" => &["type", "summary", "provider", "data"],
        _ => return None,
    })
}

/// One key this version does not read: its name, the known key it came after (none when it
/// came first), and its value's exact JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    pub(crate) after: Option<&'static str>,
    pub(crate) name: String,
    pub(crate) value: String,
}

/// The keys of a stored message, and of its blocks of known types, that this version does
/// not read: kept when a record is read, written back where they stood when it is written,
/// never replayed. Empty for a message the runtime builds.
///
/// ```
/// use transcript_replay::{parse_record, replay_messages, write_record, Vision};
///
/// let newer = r#"{"version":1,"messages":[{"role":"user","id":"m1","blocks":[{"type":"text","text":"Hi","lang":"en"}]}]}"#;
/// let record = parse_record(newer)?;
/// assert!(!record[0].unknown.is_empty());
/// assert_eq!(write_record(&record), newer);
/// // Never replayed.
/// assert_eq!(
///     serde_json::to_string(&replay_messages(&record, Vision::Sees)).unwrap(),
///     r#"[{"role":"user","content":[{"type":"text","text":"Hi"}]}]"#,
/// );
/// # Ok::<(), transcript_replay::RecordError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnknownKeys {
    /// The message's own.
    pub(crate) message: Vec<Key>,
    /// Each block's, by the block's index in the message.
    pub(crate) blocks: Vec<(usize, Vec<Key>)>,
}

impl UnknownKeys {
    /// Whether there are none: the message was built by the runtime, or read from a record
    /// that holds only keys this version reads.
    ///
    /// ```
    /// assert!(transcript_replay::StoredMessage::user("Hi").unknown.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.message.is_empty() && self.blocks.is_empty()
    }

    /// The kept keys of the block at `index`.
    pub(crate) fn of_block(&self, index: usize) -> &[Key] {
        self.blocks
            .iter()
            .find(|(at, _)| *at == index)
            .map_or(&[], |(_, keys)| keys.as_slice())
    }
}

/// Serializes `known` (a value that serializes as a JSON object with keys in the order of
/// `order`) with the kept keys put back where they stood: each after the known key it came
/// after, whether or not that key is written now.
pub(crate) fn serialize_with<S: Serializer>(
    known: &impl Serialize,
    order: &[&'static str],
    kept: &[Key],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::Error;
    let text = serde_json::to_string(known).map_err(S::Error::custom)?;
    let entries: Entries<'_> = serde_json::from_str(&text).map_err(S::Error::custom)?;
    let mut map = serializer.serialize_map(None)?;
    let put = |after: Option<&str>, map: &mut S::SerializeMap| -> Result<(), S::Error> {
        for key in kept.iter().filter(|key| key.after == after) {
            let value: &RawValue = serde_json::from_str(&key.value).map_err(S::Error::custom)?;
            map.serialize_entry(&key.name, value)?;
        }
        Ok(())
    };
    put(None, &mut map)?;
    for &name in order {
        if let Some((_, value)) = entries.0.iter().find(|(key, _)| key.as_ref() == name) {
            map.serialize_entry(name, value)?;
        }
        put(Some(name), &mut map)?;
    }
    map.end()
}

/// A value written with its kept keys: the value, its keys' order, the kept keys.
pub(crate) struct With<'v, T>(
    pub(crate) &'v T,
    pub(crate) &'static [&'static str],
    pub(crate) &'v [Key],
);

impl<T: Serialize> Serialize for With<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_with(self.0, self.1, self.2, serializer)
    }
}

/// A JSON object's entries, in their order, each value as its exact text.
pub(crate) struct Entries<'a>(pub(crate) Vec<(std::borrow::Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Entries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Entries<'a>;
            fn expecting(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                out.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    entries.push((key, map.next_value::<&'de RawValue>()?));
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// The keys of an object not in `order`, each with the known key before it.
pub(crate) fn unknown_of(entries: &Entries<'_>, order: &[&'static str]) -> Vec<Key> {
    let mut after = None;
    let mut unknown = Vec::new();
    for (name, value) in &entries.0 {
        match order.iter().find(|known| **known == name.as_ref()) {
            Some(known) => after = Some(*known),
            None => unknown.push(Key {
                after,
                name: name.clone().into_owned(),
                value: value.get().to_owned(),
            }),
        }
    }
    unknown
}
