//! The providers the crate writes requests for and reads replies from, by name.
//!
//! This module only names them. What a runtime does with a `Provider` value (build a body,
//! read a reply, a stream or an error) is in `any_provider.rs`, the one module that reaches
//! every provider's module; the shared machinery never does.

use std::fmt;

use crate::dialects::Dialect;

/// A provider API that the crate targets: the one value a runtime that talks to several
/// providers keeps, and asks for a body ([`Provider::body`]), to read a reply
/// ([`Provider::read_reply`]), a stream ([`Provider::stream`]) or an error
/// ([`Provider::read_error`]) instead of writing a `match` of its own.
///
/// It displays as the provider's name, as the markers of images it cannot take say it;
/// [`Provider::id`] is the name a configuration file or command line uses.
///
/// ```
/// use transcript_replay::Provider;
///
/// assert_eq!(Provider::OpenAi.to_string(), "OpenAI");
/// assert_eq!(Provider::OpenAiResponses.id(), "openai-responses");
/// assert_eq!("bedrock".parse::<Provider>(), Ok(Provider::Bedrock));
/// assert_eq!(Provider::ALL.len(), 5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions ([`openai`](crate::openai)).
    OpenAi,
    /// Anthropic Messages ([`anthropic`](crate::anthropic)).
    Anthropic,
    /// Gemini generateContent ([`gemini`](crate::gemini)).
    Gemini,
    /// OpenAI Responses ([`openai_responses`](crate::openai_responses)); named "OpenAI" in
    /// markers, like Chat Completions: the provider is the same.
    OpenAiResponses,
    /// Amazon Bedrock Converse ([`bedrock`](crate::bedrock)).
    Bedrock,
    /// An OpenAI-compatible server: the OpenAI Chat surface ([`openai`](crate::openai)) with
    /// the server's rules ([`Dialect`]). Named in markers and errors by the dialect's name.
    ///
    /// ```
    /// use transcript_replay::{Dialect, Provider};
    ///
    /// let mistral: Provider = "mistral".parse().unwrap();
    /// assert_eq!(mistral, Provider::Compatible(&Dialect::MISTRAL));
    /// assert_eq!((mistral.id(), mistral.to_string().as_str()), ("mistral", "Mistral"));
    /// ```
    Compatible(&'static Dialect),
}

impl Provider {
    /// Every provider, in the order of [`Provider::id`]'s list.
    ///
    /// ```
    /// use transcript_replay::Provider;
    ///
    /// let ids: Vec<&str> = Provider::ALL.iter().map(|provider| provider.id()).collect();
    /// assert_eq!(ids, ["openai", "openai-responses", "anthropic", "gemini", "bedrock"]);
    /// ```
    pub const ALL: [Provider; 5] = [
        Provider::OpenAi,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Bedrock,
    ];

    /// The provider's name in configuration and on the example program's command line:
    /// `openai`, `openai-responses`, `anthropic`, `gemini` or `bedrock`.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Provider::Gemini.id(), "gemini");
    /// ```
    pub fn id(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::Bedrock => "bedrock",
            Provider::Compatible(dialect) => dialect.id,
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::OpenAi | Provider::OpenAiResponses => "OpenAI",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Gemini",
            Provider::Bedrock => "Bedrock",
            Provider::Compatible(dialect) => dialect.name,
        })
    }
}

/// The OpenAI Chat surface under a compatible server's dialect: a named one
/// ([`Dialect::NAMED`]) or a runtime's own.
///
/// ```
/// use transcript_replay::{Dialect, Provider};
///
/// static LOCAL: Dialect = Dialect { id: "local", name: "Local", ..Dialect::VLLM };
/// assert_eq!(Provider::from(&LOCAL).id(), "local");
/// assert_eq!(Provider::from(&Dialect::MISTRAL), "mistral".parse().unwrap());
/// ```
impl From<&'static Dialect> for Provider {
    fn from(dialect: &'static Dialect) -> Self {
        Provider::Compatible(dialect)
    }
}
