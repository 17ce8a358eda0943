//! A tool declaration or choice that cannot be used, and a name that is no provider's.

/// A tool that cannot be declared: a function's input schema, or a native declaration, that
/// is no JSON object (or a native declaration that nothing names).
///
/// ```
/// let error = transcript_replay::Tool::new("ls", "Lists files.", "{").unwrap_err();
/// assert_eq!(error.to_string(), "the input schema of tool `ls` is not JSON: EOF while parsing an object at line 1 column 1");
/// let error = transcript_replay::Tool::native(r#"["web_search"]"#).unwrap_err();
/// assert_eq!(error.to_string(), "a native tool declaration must be a JSON object");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{what}", subject(name.as_deref()))]
pub struct ToolError {
    /// The function's name; `None` for a native declaration.
    pub(crate) name: Option<String>,
    pub(crate) what: String,
}

impl ToolError {
    /// An error in the input schema of the function `name`; its `what` to be filled.
    pub(crate) fn schema(name: &str) -> ToolError {
        ToolError {
            name: Some(name.to_owned()),
            what: String::new(),
        }
    }

    /// An error in a native declaration; its `what` to be filled.
    pub(crate) fn native() -> ToolError {
        ToolError {
            name: None,
            what: String::new(),
        }
    }
}

/// What a [`ToolError`] is about, as its message begins.
fn subject(name: Option<&str>) -> String {
    match name {
        Some(name) => format!("the input schema of tool `{name}` "),
        None => "a native tool declaration ".to_owned(),
    }
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
