//! The half of a body every provider's carries, written once: the caller's fields and tools,
//! where each turn begins in the history, the rounds in flight, the caller's appended
//! messages and what a budget withheld, with the units they cost. A provider's `Body` holds
//! one beside its own shapes (its system text, its list of turns) and prices only those.

use std::sync::Arc;

use crate::body::{Appended, Assembled, Fields};
use crate::cost::{Of, Told, Units};
use crate::turn::tools::{Tool, ToolChoice};
use crate::wire::Part;

/// A body's shared half; `E` is the provider's element of a round in flight.
#[derive(Debug, Clone)]
pub(crate) struct Half<'a, E> {
    /// What a budget withheld, when the turn had one.
    pub(crate) told: Told,
    pub(crate) fields: Arc<Fields>,
    pub(crate) tools: &'a [Tool],
    pub(crate) tool_choice: Option<ToolChoice>,
    /// The stored message each rendered turn begins with.
    pub(crate) starts: Vec<usize>,
    /// How many of the rendered turns are the history's (the live turn's follow).
    pub(crate) history_len: usize,
    pub(crate) rounds: Vec<E>,
    pub(crate) appended: Arc<Appended>,
}

/// An element of a round in flight, which says what it costs.
pub(crate) trait RoundElement<'a> {
    /// Its unit in the estimate.
    fn price(&'a self, units: &mut Units<'a>);
}

impl<'a, E: RoundElement<'a>> Half<'a, E> {
    /// The half of an assembled body, with its rounds as the provider writes them.
    pub(crate) fn new(assembled: &Assembled<'a>, rounds: Vec<E>) -> Self {
        Half {
            told: Told::default(),
            fields: Arc::clone(&assembled.fields),
            tools: assembled.tools,
            tool_choice: assembled.tool_choice.clone(),
            starts: assembled.rendered.starts.clone(),
            history_len: assembled.history_len,
            rounds,
            appended: Arc::clone(&assembled.appended),
        }
    }

    /// Whether the body writes its tools: some are declared, or a choice is made.
    pub(crate) fn has_tools(&self) -> bool {
        !self.tools.is_empty() || self.tool_choice.is_some()
    }

    /// The units a body begins with: the caller's fields, then its tools, under `keys`, as
    /// `tools` writes them, when there are any.
    pub(crate) fn head(&'a self, tools: Option<(&'a [&'a str], String)>) -> Units<'a> {
        let mut units = Units::new();
        units.fields(&self.fields);
        if let Some((keys, json)) = tools {
            units.tools(keys, json);
        }
        units
    }

    /// The elements of the body's list of turns, after what the provider put first: each
    /// rendered turn's parts, the rounds, then the caller's appended messages.
    pub(crate) fn turns<I>(&'a self, units: &mut Units<'a>, turns: I)
    where
        I: IntoIterator<Item = &'a [Part<'a>]>,
    {
        for (parts, &start) in turns.into_iter().zip(&self.starts) {
            units.parts(Of::turn(start, self.history_len), parts);
        }
        for element in &self.rounds {
            element.price(units);
        }
        units.appended(&self.appended);
    }
}

/// `Priced` and `Report` for a provider's `Body`, whose shared half is its field `half` and
/// whose units its inherent `units_of_body` gives.
macro_rules! priced_body {
    ($body:ident) => {
        impl $crate::cost::Priced for $body<'_> {}

        impl $crate::body::Report for $body<'_> {
            fn told_mut(&mut self) -> &mut $crate::cost::Told {
                &mut self.half.told
            }
        }

        impl $crate::cost::sealed::Sealed for $body<'_> {
            fn told(&self) -> $crate::cost::Told {
                self.half.told
            }

            fn units(&self) -> $crate::cost::Units<'_> {
                self.units_of_body()
            }
        }
    };
}

pub(crate) use priced_body;
