//! The conformance suite of `transcript-replay`: what its tests share.
//!
//! - [`agent`]: real agent sessions and generated tool output, half for the text estimate's
//!   fit and half for its check.
//! - [`bench`](mod@bench): the figures criterion wrote, read back for the benchmarks' ratios.
//! - [`reading`]: the property of every record text, that it reads the same whoever reads it.
//! - [`records`]: generators of stored records for property tests, and real image headers.
//! - [`schemas`]: validators built from the providers' official specs, trimmed and committed
//!   under `specs/` (see `specs/SOURCES.md`), so every clone runs the schema tests with nothing
//!   to set.
//! - [`streams`]: streams as the providers send them (server-sent events, AWS event-stream
//!   frames), and the streamed form of a reply built from the same items as its whole body.
//! - [`CATALOG_MODELS`]: a model of each of the five providers that the model catalog holds.
//! - [`corpus`] and [`training`]: the texts the default text estimate is checked on, and the
//!   other texts its prices are fitted on (`examples/fit_text_estimate.rs`).
//!
//! This package is not published; it keeps the heavy test dependencies (schema validation,
//! property testing, criterion) out of the crate's own build.

pub mod agent;
pub mod bench;
pub mod corpus;
pub mod json;
pub mod reading;
pub mod records;
pub mod schemas;
pub mod streams;
pub mod training;

/// A model of each of the five providers that the model catalog holds, by provider id: the
/// table the cache forecast's and the fitting's tests share.
pub const CATALOG_MODELS: [(&str, &str); 5] = [
    ("openai", "gpt-4o"),
    ("openai-responses", "gpt-5"),
    ("anthropic", "claude-sonnet-4-5"),
    ("gemini", "gemini-2.5-pro"),
    ("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
];
