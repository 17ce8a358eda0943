//! The one failure this crate has: a record that cannot be read.

use std::fmt;

/// A record that could not be read, saying where and what.
///
/// Where is the message index and, where it applies, the block index (both counted from 0),
/// always with the line and column of the JSON text (both counted from 1). What is the
/// unknown type or role, the missing field, the value of the wrong type, the unsupported
/// version, or the JSON syntax error. Messages are lowercase, with no trailing period.
///
/// ```
/// use transcript_replay::parse_record;
///
/// let json = r#"[{"role": "user", "blocks": [{"type": "text", "text": "hi"}, {"type": "text"}]}]"#;
/// let error = parse_record(json).unwrap_err();
/// assert_eq!(error.message_index(), Some(0));
/// assert_eq!(error.block_index(), Some(1));
/// assert_eq!(
///     error.to_string(),
///     "message 0, block 1 (line 1, column 77): missing field `text` in a text block",
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {what}")]
pub struct RecordError {
    location: Location,
    what: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Location {
    message: Option<usize>,
    block: Option<usize>,
    line: usize,
    column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Location {
            message,
            block,
            line,
            column,
        } = *self;
        match (message, block) {
            (Some(message), Some(block)) => {
                write!(
                    f,
                    "message {message}, block {block} (line {line}, column {column})"
                )
            }
            (Some(message), None) => write!(f, "message {message} (line {line}, column {column})"),
            // A block index is only ever recorded inside a message.
            (None, _) => write!(f, "line {line}, column {column}"),
        }
    }
}

/// Where a failure between two elements happened: after which message or block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Between {
    Messages(usize),
    Blocks(usize),
}

/// What serde_json says went wrong, without the position it appends to every message (the
/// crate's errors report it on their own), and lowercase, as the house style is.
pub(crate) fn json_what(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let what = text.strip_suffix(&suffix).unwrap_or(&text);
    match what.strip_prefix("EOF while parsing") {
        Some(rest) => format!("unexpected end of input while parsing{rest}"),
        None => what.to_owned(),
    }
}

impl RecordError {
    /// Builds the error of a failure between two elements of an array (at the separator
    /// after the one named), which belongs to no element: `message` is the message whose
    /// blocks were being read, if any.
    pub(crate) fn between(
        error: &serde_json::Error,
        message: Option<usize>,
        between: Between,
    ) -> Self {
        let mut built = RecordError::from_json(error, message, None);
        let after = match between {
            Between::Messages(previous) => format!(" after message {previous}"),
            Between::Blocks(previous) => format!(" after block {previous}"),
        };
        built.what.push_str(&after);
        built
    }

    /// Builds the error from serde_json's, with the position that the reader had reached.
    pub(crate) fn from_json(
        error: &serde_json::Error,
        message: Option<usize>,
        block: Option<usize>,
    ) -> Self {
        let (line, column) = (error.line(), error.column());
        let what = json_what(error);
        RecordError {
            location: Location {
                message,
                block: message.and(block),
                line,
                // serde_json says column 0 when it has read nothing on the line (empty
                // input); columns count from 1.
                column: column.max(1),
            },
            what,
        }
    }

    /// The index of the message where reading failed, counted from 0, when the failure was
    /// inside a message.
    ///
    /// ```
    /// let error = transcript_replay::parse_record(r#"[{"role": "robot", "blocks": []}]"#).unwrap_err();
    /// assert_eq!(error.message_index(), Some(0));
    /// assert_eq!(error.block_index(), None);
    /// ```
    pub fn message_index(&self) -> Option<usize> {
        self.location.message
    }

    /// The index of the block where reading failed, counted from 0 within its message, when
    /// the failure was inside a block.
    ///
    /// ```
    /// let json = r#"[{"role": "user", "blocks": [{"type": "text"}]}]"#;
    /// let error = transcript_replay::parse_record(json).unwrap_err();
    /// assert_eq!((error.message_index(), error.block_index()), (Some(0), Some(0)));
    /// ```
    pub fn block_index(&self) -> Option<usize> {
        self.location.block
    }

    /// The line of the JSON text where reading failed, counted from 1.
    ///
    /// ```
    /// let error = transcript_replay::parse_record("[\n  nope\n]").unwrap_err();
    /// assert_eq!((error.line(), error.column()), (2, 4));
    /// ```
    pub fn line(&self) -> usize {
        self.location.line
    }

    /// The column of the JSON text where reading failed, counted from 1.
    ///
    /// ```
    /// let error = transcript_replay::parse_record("[1]").unwrap_err();
    /// assert_eq!(error.column(), 2);
    /// ```
    pub fn column(&self) -> usize {
        self.location.column
    }
}
