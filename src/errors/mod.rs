//! Every failure the crate reports, in one place: each says where and what, and the ones a
//! retry can help answer [`is_retryable`](ProviderError::is_retryable) and
//! [`retry_after`](ProviderError::retry_after) with the same spelling.
//!
//! | error | from | where it says |
//! |---|---|---|
//! | [`RecordError`] | [`parse_record`](crate::parse_record) | message, block, line and column |
//! | [`BodyError`] | a provider's `body` | the rule broken, as data in [`BodyErrorKind`] |
//! | [`ReplyError`] | a provider's `read_reply` | the path in the reply's body, line and column |
//! | [`StreamError`] | a [`StreamReader`](crate::StreamReader) | the event and byte; [`StreamErrorKind`] |
//! | [`ProviderError`] | a provider's `read_error` | the provider's own words; [`ProviderErrorKind`] |
//! | [`ToolError`], [`UnknownToolChoice`], [`UnknownProvider`] | declaring and naming | the name |
//! | [`Failure`] | any of the above, through `?` | the error it holds; retryable, the wait, the [`Overflow`] |
//!
//! This module sits low in the crate: it imports the record and the provider's name, never
//! the code that reports its errors.
//!
//! ```
//! use transcript_replay::errors::{ProviderErrorKind, ProviderError};
//!
//! let error: ProviderError = transcript_replay::anthropic::read_error(529,
//!     r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#);
//! assert_eq!(error.kind, ProviderErrorKind::Overloaded);
//! assert!(error.is_retryable());
//! ```

pub(crate) mod body;
pub(crate) mod body_kind;
pub(crate) mod failure;
pub(crate) mod overflow;
pub(crate) mod provider;
pub(crate) mod record;
pub(crate) mod reply;
pub(crate) mod retry_after;
pub(crate) mod stream;
pub(crate) mod tools;

pub use self::body::BodyError;
pub use self::body_kind::{BodyErrorKind, CallerPart, Sequencing, ToolDeclaration, ToolLinkage};
pub use self::failure::{Failure, Header, Overflow, RuntimeError};
pub use self::provider::{ProviderError, ProviderErrorKind};
pub use self::record::RecordError;
pub use self::reply::ReplyError;
pub use self::stream::{StreamError, StreamErrorKind};
pub use self::tools::{ToolError, UnknownProvider, UnknownToolChoice};
