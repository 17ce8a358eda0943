//! The units a body is priced by: each message-sized part of it, with what it carries and
//! where it stands. Public in name only (the sealed trait's methods return them), in a
//! module no caller can reach.

use serde_json::value::RawValue;

use super::Of;
use crate::turn::rounds::Answer;
use crate::wire::{Part, Text};

/// One message-sized unit of a body, as [`Priced`] walks it: what it is and what it carries.
/// Its bytes are measured in the one pass that measures the whole body.
pub(crate) struct Unit<'a> {
    pub(crate) of: Of,
    pub(crate) content: Content<'a>,
}

pub(crate) enum Content<'a> {
    Parts(&'a [Part<'a>]),
    Texts(&'a [Text<'a>]),
    /// JSON sent as it is (the caller's own values, a reply's own content): its text counted.
    Raw(Vec<&'a RawValue>),
    /// JSON the body writes (tool declarations): its text counted.
    Json(String),
    /// The results of a round: each output's text and native images, then parts written
    /// beside them (an image a result cannot hold, with the line that says whose it is).
    Answers(&'a [Answer<'a>], &'a [Part<'a>]),
}

/// Where each unit is in a body: the top-level keys whose value is one unit (or adds to one),
/// and the key whose list's elements are the units from an index on.
#[derive(Clone, Copy)]
pub(crate) enum Slot {
    Whole(usize),
    List(usize),
}

/// A body's units, and where they are.
/// Shown by its size only: the units borrow a body's parts.
impl std::fmt::Debug for Unit<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unit")
            .field("of", &self.of)
            .finish_non_exhaustive()
    }
}

pub struct Units<'a> {
    pub(crate) units: Vec<Unit<'a>>,
    pub(crate) slots: Vec<(&'a str, Slot)>,
}

/// Shown by its size only: the units borrow a body's parts.
impl std::fmt::Debug for Units<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Units")
            .field("units", &self.units.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Units<'a> {
    pub(crate) fn new() -> Self {
        Units {
            units: Vec::new(),
            slots: Vec::new(),
        }
    }

    fn push(&mut self, of: Of, content: Content<'a>) -> usize {
        self.units.push(Unit { of, content });
        self.units.len() - 1
    }

    /// The caller's fields, one unit for all of them.
    pub(crate) fn fields(&mut self, fields: &'a [(String, Box<RawValue>)]) {
        if fields.is_empty() {
            return;
        }
        let unit = self.push(
            Of::Fields,
            Content::Raw(fields.iter().map(|(_, value)| &**value).collect()),
        );
        for (key, _) in fields {
            self.slots.push((key, Slot::Whole(unit)));
        }
    }

    /// The tool declarations and choice, under these keys, as the JSON text the body writes.
    pub(crate) fn tools(&mut self, keys: &'a [&'a str], json: String) {
        let unit = self.push(Of::Tools, Content::Json(json));
        for key in keys {
            self.slots.push((key, Slot::Whole(unit)));
        }
    }

    /// The system text under `key`, as text blocks.
    pub(crate) fn system_texts(&mut self, key: &'a str, texts: &'a [Text<'a>]) {
        let unit = self.push(Of::System, Content::Texts(texts));
        self.slots.push((key, Slot::Whole(unit)));
    }

    /// The system text under `key`, as parts.
    pub(crate) fn system_parts(&mut self, key: &'a str, parts: &'a [Part<'a>]) {
        let unit = self.push(Of::System, Content::Parts(parts));
        self.slots.push((key, Slot::Whole(unit)));
    }

    /// The list of turns under `key`: the units pushed next are its elements, in order.
    pub(crate) fn list(&mut self, key: &'a str) {
        self.slots.push((key, Slot::List(self.units.len())));
    }

    /// An element of the list of turns made of parts.
    pub(crate) fn parts(&mut self, of: Of, parts: &'a [Part<'a>]) {
        self.push(of, Content::Parts(parts));
    }

    /// An element of text blocks.
    pub(crate) fn texts(&mut self, of: Of, texts: &'a [Text<'a>]) {
        self.push(of, Content::Texts(texts));
    }

    /// An element sent as it is.
    pub(crate) fn raw(&mut self, of: Of, raw: &'a RawValue) {
        self.push(of, Content::Raw(vec![raw]));
    }

    /// An element of a reply's own content items, sent as they came.
    pub(crate) fn raws(&mut self, of: Of, raws: Vec<&'a RawValue>) {
        self.push(of, Content::Raw(raws));
    }

    /// An element of a round's results, and the parts written beside them.
    pub(crate) fn answers(&mut self, of: Of, answers: &'a [Answer<'a>], parts: &'a [Part<'a>]) {
        self.push(of, Content::Answers(answers, parts));
    }

    /// The caller's appended messages, as elements.
    pub(crate) fn appended(&mut self, appended: &'a [Box<RawValue>]) {
        for (index, raw) in appended.iter().enumerate() {
            self.raw(Of::Appended(index), raw);
        }
    }
}
