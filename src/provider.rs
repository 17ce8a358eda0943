//! The providers the crate writes requests for and reads replies from, by name.
//!
//! This module only names them. What a runtime does with a `Provider` value (build a body,
//! read a reply, a stream or an error) is in `any_provider.rs`, the one module that reaches
//! every provider's module; the shared machinery never does.

use std::fmt;
use std::str::FromStr;

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
        })
    }
}

/// A name that is no provider's [`id`](Provider::id).
///
/// ```
/// let error = "openia".parse::<transcript_replay::Provider>().unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     r#"unknown provider "openia", expected openai, openai-responses, anthropic, gemini or bedrock"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider {0:?}, expected openai, openai-responses, anthropic, gemini or bedrock")]
pub struct UnknownProvider(String);

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|provider| provider.id() == name)
            .ok_or_else(|| UnknownProvider(name.to_owned()))
    }
}
