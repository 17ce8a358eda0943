//! OpenAI-compatible servers as data: the rules by which a server that speaks OpenAI Chat
//! differs from OpenAI. The named dialects, each rule with its source, are in
//! `openai/dialect.rs`; this module only says what a dialect is.

/// Where a server takes system text.
///
/// ```
/// use transcript_replay::{Dialect, dialects::SystemText};
///
/// assert_eq!(Dialect::OPENAI.system, SystemText::InPlace);
/// assert_eq!(Dialect::VLLM.system, SystemText::First);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SystemText {
    /// Stored system messages stay where they stand, as `system` messages (OpenAI).
    InPlace,
    /// All system text, the caller's and every stored system message's, is joined (by the
    /// join rule) into one `system` message, the first: chat templates refuse a system
    /// message anywhere else ("System message must be at the beginning").
    First,
}

/// Whether a server takes adjacent messages of one role.
///
/// ```
/// use transcript_replay::{Dialect, dialects::Roles};
///
/// assert_eq!(Dialect::OPENAI.roles, Roles::Kept);
/// assert_eq!(Dialect::PERPLEXITY.roles, Roles::Alternate);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Roles {
    /// Adjacent messages of one role are sent as they are (OpenAI takes them).
    Kept,
    /// Adjacent messages of one role are merged into one, by the join rule, as Gemini's are:
    /// the server wants user and assistant turns to alternate ("Conversation roles must
    /// alternate"). A caller's appended message that would break the alternation is an
    /// error.
    Alternate,
}

/// Where the images and files a tool returned go in the round in flight (a `tool` message
/// takes text only).
///
/// ```
/// use transcript_replay::{Dialect, dialects::ToolImages};
///
/// assert_eq!(Dialect::OPENAI.tool_images, ToolImages::AfterResults);
/// assert_eq!(Dialect::MISTRAL.tool_images, ToolImages::Marker);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolImages {
    /// In one `user` message right after the round's `tool` messages, each after a line that
    /// names the call (OpenAI).
    AfterResults,
    /// Nowhere natively: a server that refuses a `user` message after a `tool` one (Mistral:
    /// "Unexpected role 'user' after role 'tool'") gets the marker inside the result, with
    /// the reason `{server} accepts no images or files after a tool result`.
    Marker,
}

/// Whether the reasoning of a reply goes back in the round in flight.
///
/// ```
/// use transcript_replay::{Dialect, dialects::RoundReasoning};
///
/// assert_eq!(Dialect::DEEPSEEK.round_reasoning, RoundReasoning::Echoed);
/// assert_eq!(Dialect::GROQ.round_reasoning, RoundReasoning::LeftOut);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundReasoning {
    /// The reply's message goes back with its `reasoning_content`, `reasoning` and
    /// `reasoning_details` as they came (DeepSeek requires `reasoning_content` back: "must be
    /// passed back to the API"; OpenRouter `reasoning_details`).
    Echoed,
    /// The reply's message goes back without `reasoning` and `reasoning_content`, which the
    /// server refuses on an assistant message ("property 'reasoning' is unsupported").
    LeftOut,
}

/// The tags around the reasoning a model writes in `content`, for a dialect with
/// [`think_tags`](Dialect::think_tags).
///
/// ```
/// use transcript_replay::{Dialect, dialects::ThinkTag};
///
/// assert_eq!(Dialect::VLLM.think_tag, ThinkTag::Think);
/// assert_eq!(Dialect::GEMINI_OPENAI.think_tag, ThinkTag::Thought);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThinkTag {
    /// `<think>…</think>` (R1-style models): content that begins with `<think>` is reasoning
    /// up to `</think>`, and so is content with a `</think>` and no `<think>` before it (the
    /// chat template opened the thinking, so only `</think>` arrives). Streamed, content
    /// that does not begin with `<think>` is held back until a `</think>`, a `<think>` or its
    /// end says which it is.
    Think,
    /// `<thought>…</thought>` at the start of `content`, as a server that writes its model's
    /// thought summaries into the text puts them: content that begins with `<thought>` is
    /// reasoning up to `</thought>` (or its end); nothing opens the tag before the content
    /// does, so content that does not begin with it is the answer, as it comes.
    Thought,
}

/// How a server's stream says that the reply is over. The reader finishes there; a stream
/// whose bytes end before it is a [`StreamError`](crate::StreamError), never a short answer
/// (a cut connection is no finished turn).
///
/// ```
/// use transcript_replay::{Dialect, dialects::StreamEnd};
///
/// assert_eq!(Dialect::OPENAI.stream_end, StreamEnd::Done);
/// assert_eq!(Dialect::PERPLEXITY.stream_end, StreamEnd::Chunk("chat.completion.done"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamEnd {
    /// `data: [DONE]` after the last chunk, as OpenAI ends a stream ("with the stream
    /// terminated by a `data: [DONE]` message",
    /// <https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream>).
    Done,
    /// The server's own last chunk: the one whose `object` is this, carrying the finish
    /// reason, the usage and the sources, with no `data: [DONE]` after it (Perplexity's
    /// `chat.completion.done`). A `data: [DONE]` is an end too, should the server send one.
    Chunk(&'static str),
}

/// How a server takes the turn's reasoning ([`Turn::reasoning`](crate::Turn::reasoning)).
///
/// ```
/// use transcript_replay::{Dialect, dialects::ReasoningParam};
///
/// assert_eq!(Dialect::OPENAI.reasoning_param, ReasoningParam::Effort);
/// assert_eq!(Dialect::OPENROUTER.reasoning_param, ReasoningParam::Object);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReasoningParam {
    /// `"reasoning_effort": "low" | "medium" | "high"`, OpenAI's field (a token budget as
    /// the effort it falls in, [`Reasoning::effort`](crate::Reasoning::effort)).
    Effort,
    /// `"reasoning": {"effort": "low" | "medium" | "high"}`, or `"reasoning": {"max_tokens":
    /// N}` for a token budget: OpenRouter's one form for every model it routes to ("One of
    /// the following (not both)", <https://openrouter.ai/docs/use-cases/reasoning-tokens>).
    Object,
}

/// The rules of an OpenAI-compatible server, as data: the OpenAI Chat surface
/// ([`openai`](crate::openai)) with the server's own rules. A [`Provider`] made from one
/// (`Provider::from(&dialect)`) carries it, and [`Provider::body`], [`Provider::read_reply`], [`Provider::stream`] and
/// [`Provider::read_error`] follow it; [`Dialect::OPENAI`] is OpenAI's own, byte for byte
/// what the `openai` provider does.
///
/// The named dialects are constants, each rule with its source; [`Dialect::NAMED`] lists
/// them, and `"mistral".parse::<Provider>()` reaches one by its [`id`](Dialect::id). What the
/// readers take from every server alike (tool calls without `type`, content arrays of
/// `thinking` and `text` chunks, `reasoning_content` / `reasoning` / `reasoning_details`,
/// DeepSeek's `prompt_cache_hit_tokens`, Groq's `x_groq.usage`, top-level `citations` and
/// `search_results`, the fields a round needs back) is no rule: it is read wherever it comes.
///
/// A server not listed, or a local model whose chat template is strict, is a dialect the
/// runtime builds from a named one:
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{Dialect, Provider, dialects::Roles, StoredMessage, dialects::SystemText, Turn};
///
/// // Qwen behind vLLM: the template wants the system text first and alternating turns,
/// // and the model thinks in `<think>` tags (vLLM without a reasoning parser).
/// static LOCAL_QWEN: Dialect = Dialect {
///     id: "local-qwen",
///     name: "Local Qwen",
///     system: SystemText::First,
///     roles: Roles::Alternate,
///     think_tags: true,
///     ..Dialect::VLLM
/// };
/// let provider = Provider::from(&LOCAL_QWEN);
///
/// let history = [
///     StoredMessage::user("Is a.rs empty?"),
///     StoredMessage::system("Summary: the user is reviewing a.rs."),
///     StoredMessage::user("And b.rs?"),
/// ];
/// let turn = Turn::new(&history).instructions("Be brief.").without_preamble();
/// let body = serde_json::to_value(provider.body(&turn)?).unwrap();
/// assert_eq!(body, json!({"messages": [
///     {"role": "system", "content": "Be brief.\n\nSummary: the user is reviewing a.rs."},
///     {"role": "user", "content": "Is a.rs empty?\n\nAnd b.rs?"},
/// ]}));
///
/// let reply = provider.read_reply(r#"{"choices": [{"message": {"role": "assistant",
///     "content": "<think>b.rs has one line.</think>No."}, "finish_reason": "stop"}]}"#).unwrap();
/// assert_eq!(reply.message.blocks, [
///     transcript_replay::Block::reasoning("b.rs has one line."),
///     transcript_replay::Block::text("No."),
/// ]);
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
///
/// [`Provider`]: crate::Provider
/// [`Provider::body`]: crate::Provider::body
/// [`Provider::read_reply`]: crate::Provider::read_reply
/// [`Provider::stream`]: crate::Provider::stream
/// [`Provider::read_error`]: crate::Provider::read_error
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dialect {
    /// The name in configuration and on the example's command line (`mistral`).
    pub id: &'static str,
    /// The server's name, as markers and errors say it (`Mistral`).
    pub name: &'static str,
    /// The field that caps the reply's tokens: `max_completion_tokens` (OpenAI) or
    /// `max_tokens`.
    pub output_limit: &'static str,
    /// Top-level fields the server refuses, or silently ignores where that would lose what
    /// the caller asked for (a cap that caps nothing): a caller's field named here is an
    /// error that names it (and the output-limit field, when it is the other one).
    pub refused_fields: &'static [&'static str],
    /// Where system text goes.
    pub system: SystemText,
    /// Whether adjacent messages of one role are kept or merged.
    pub roles: Roles,
    /// Where a tool's images and files go in the round in flight.
    pub tool_images: ToolImages,
    /// Whether the reply's reasoning goes back in the round in flight.
    pub round_reasoning: RoundReasoning,
    /// The image media types the server takes, lowercase; empty for a server that takes no
    /// images (every image is then the marker `{name} does not accept {type}`).
    pub image_types: &'static [&'static str],
    /// The file media types the server takes natively in user messages (as OpenAI's `file`
    /// and `input_audio` parts), lowercase.
    pub file_types: &'static [&'static str],
    /// Whether a streamed request asks for the usage with `stream_options.include_usage`
    /// ([`Turn::stream`](crate::Turn::stream)): OpenAI's documented field, written only for
    /// the servers known to take it.
    pub stream_usage: bool,
    /// The path of a Chat Completions request, after the base URL the caller keeps
    /// ([`Provider::request`](crate::Provider::request)): `/v1/chat/completions`, or the
    /// server's own.
    pub chat_path: &'static str,
    /// The server's base URL as its documentation gives it, before
    /// [`chat_path`](Self::chat_path): [`Request::base_url`](crate::Request::base_url). A
    /// server run on the caller's own machine has its default port on `localhost`; Azure's
    /// names the caller's resource, `{resource}`, for the caller to put in.
    pub base_url: &'static str,
    /// Whether the reply's `content` may carry reasoning between tags, the reasoning of an
    /// R1-style model that no reasoning parser took out (`<think>…</think>`, which the chat
    /// template may have opened, as Qwen3's thinking templates do, so only `</think>`
    /// arrives), or a server's thoughts written into the text: read as a `reasoning` block,
    /// whole and streamed alike, by the rule of [`think_tag`](Self::think_tag).
    pub think_tags: bool,
    /// Which tags hold the reasoning in `content`, when [`think_tags`](Self::think_tags) is
    /// set: `<think>` unless the server writes its own.
    pub think_tag: ThinkTag,
    /// Whether the server takes a reply schema as OpenAI's `response_format: {"type":
    /// "json_schema", ...}` ([`Turn::reply_schema`](crate::Turn::reply_schema)); a server that
    /// does not (DeepSeek takes only `json_object`) makes a turn with a reply schema an error
    /// that names it. A server that takes it may still take it for some of its models only:
    /// that is its error to give.
    pub json_schema: bool,
    /// Error codes a retry may cure though their kind says none would: the model's own slip
    /// (a malformed tool call the server refused), which the same request, sent again,
    /// usually does not repeat. An error with one of these codes keeps its kind and its code,
    /// and is [retryable](crate::ProviderError::is_retryable), read whole or in a stream.
    pub retryable_codes: &'static [&'static str],
    /// How the server's stream ends: `data: [DONE]` (OpenAI's, the default), or a last chunk
    /// of its own ([`StreamEnd`]).
    pub stream_end: StreamEnd,
    /// How the server takes the turn's reasoning: OpenAI's `reasoning_effort` (the default),
    /// or a `reasoning` object ([`ReasoningParam`]).
    pub reasoning_param: ReasoningParam,
}
