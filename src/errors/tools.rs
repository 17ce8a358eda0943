//! A tool declaration or choice that cannot be used, and a name that is no provider's.

/// A tool that cannot be declared: its input schema is no JSON object.
///
/// ```
/// let error = transcript_replay::Tool::new("ls", "Lists files.", "{").unwrap_err();
/// assert_eq!(error.to_string(), "the input schema of tool `ls` is not JSON: EOF while parsing an object at line 1 column 1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the input schema of tool `{name}` {what}")]
pub struct ToolError {
    pub(crate) name: String,
    pub(crate) what: String,
}

/// A tool choice that is none of `auto`, `none`, `required` or `tool:NAME`.
///
/// ```
/// let error = "any".parse::<transcript_replay::ToolChoice>().unwrap_err();
/// assert_eq!(error.to_string(), r#"unknown tool choice "any", expected auto, none, required or tool:NAME"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool choice {0:?}, expected auto, none, required or tool:NAME")]
pub struct UnknownToolChoice(pub(crate) String);

/// A name that is no provider's [`id`](crate::Provider::id) and no named dialect's.
///
/// ```
/// let error = "openia".parse::<transcript_replay::Provider>().unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     r#"unknown provider "openia", expected openai, openai-responses, anthropic, gemini or bedrock, or a compatible server's dialect (deepseek, mistral, groq, xai, openrouter, gemini-openai, together, fireworks, cerebras, perplexity, azure, vllm, llama-cpp, ollama, lm-studio)"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider {0:?}, expected openai, openai-responses, anthropic, gemini or bedrock, or a compatible server's dialect (deepseek, mistral, groq, xai, openrouter, gemini-openai, together, fireworks, cerebras, perplexity, azure, vllm, llama-cpp, ollama, lm-studio)")]
pub struct UnknownProvider(pub(crate) String);
