//! Reading a JSON value of a response body in place, so that an error says where in the body
//! it is, and the error the readers report.

use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::errors::record::json_what;
use crate::errors::reply::ReplyError;
use crate::provider::Provider;
use crate::record::ToolInput;

/// A tool call's input that a reply carries as a JSON value, which the providers document as
/// an object (the call's arguments by name): its exact text, as the record stores a value.
/// Anything else (a string, which a stream accumulator that never parsed its pieces leaves,
/// an array, a number) is an error that says so: stored, it would replay as a call with
/// arguments the tool never takes.
pub(crate) fn object_input(at: &At<'_>) -> Result<ToolInput, ReplyError> {
    let text = at.raw().get();
    if text.starts_with('{') {
        return Ok(ToolInput::json_unchecked(text.to_owned()));
    }
    let found = match text.as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'[') => "an array",
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        Some(_) | None => "a number",
    };
    Err(at.error(format_args!(
        "a tool call's input must be a JSON object, not {found}"
    )))
}

/// A value of a response body, read in place: its path, and where its text starts.
pub(crate) struct At<'a> {
    provider: Provider,
    body: &'a str,
    raw: &'a RawValue,
    path: String,
}

impl<'a> At<'a> {
    /// The whole body, which must be one JSON value.
    pub(crate) fn body(provider: Provider, body: &'a str) -> Result<Self, ReplyError> {
        let raw: &RawValue = serde_json::from_str(body).map_err(|error| ReplyError {
            provider,
            path: "the body".to_owned(),
            line: error.line(),
            column: error.column().max(1),
            what: json_what(&error),
        })?;
        Ok(At {
            provider,
            body,
            raw,
            path: "the body".to_owned(),
        })
    }

    /// A body that is already known to be one JSON value (a stream's event, read already),
    /// to make paths for errors from. Only its start is read now.
    pub(crate) fn body_unchecked(provider: Provider, body: &'a str) -> Self {
        At {
            provider,
            body,
            raw: RawValue::NULL,
            path: "the body".to_owned(),
        }
    }

    /// Reads the value as `T`; a failure says where in the whole body it is.
    pub(crate) fn read<T: Deserialize<'a>>(&self) -> Result<T, ReplyError> {
        serde_json::from_str(self.raw.get()).map_err(|error| {
            let (line, column) = self.position();
            // serde_json's position is within this value's text.
            let (line, column) = if error.line() <= 1 {
                (line, column + error.column().saturating_sub(1))
            } else {
                (line + error.line() - 1, error.column())
            };
            ReplyError {
                provider: self.provider,
                path: self.path.clone(),
                line,
                column: column.max(1),
                what: json_what(&error),
            }
        })
    }

    /// A field of this object's, or of an element of an array in it, read in place.
    pub(crate) fn child(&self, raw: &'a RawValue, path: impl fmt::Display) -> At<'a> {
        let path = match self.path.as_str() {
            "the body" => path.to_string(),
            parent => format!("{parent}{}", Joined(path)),
        };
        At {
            provider: self.provider,
            body: self.body,
            raw,
            path,
        }
    }

    /// The value's exact text.
    /// The provider whose reply this is.
    pub(crate) fn provider(&self) -> Provider {
        self.provider
    }

    pub(crate) fn raw(&self) -> &'a RawValue {
        self.raw
    }

    /// A field that may be absent or `null`, read in place when it is there.
    pub(crate) fn present(&self, raw: Option<&'a RawValue>, path: &str) -> Option<At<'a>> {
        raw.filter(|raw| raw.get() != "null")
            .map(|raw| self.child(raw, path))
    }

    /// An error about this value.
    pub(crate) fn error(&self, what: impl fmt::Display) -> ReplyError {
        let (line, column) = self.position();
        ReplyError {
            provider: self.provider,
            path: self.path.clone(),
            line,
            column,
            what: what.to_string(),
        }
    }

    /// The line and column where the value's text starts.
    fn position(&self) -> (usize, usize) {
        let offset = (self.raw.get().as_ptr() as usize).saturating_sub(self.body.as_ptr() as usize);
        let before = self.body.get(..offset).unwrap_or(self.body);
        let line = before.matches('\n').count() + 1;
        let column = before
            .rsplit('\n')
            .next()
            .map_or(0, |last| last.chars().count())
            + 1;
        (line, column)
    }
}

/// A path segment after its parent: `.field`, or `[index]` as given.
struct Joined<D>(D);

impl<D: fmt::Display> fmt::Display for Joined<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let segment = self.0.to_string();
        if segment.starts_with('[') {
            f.write_str(&segment)
        } else {
            write!(f, ".{segment}")
        }
    }
}
