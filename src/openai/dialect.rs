//! The named dialects of OpenAI-compatible servers, each rule with its source.

use crate::dialects::{
    Dialect, ReasoningParam, Roles, RoundReasoning, StreamEnd, SystemText, ThinkTag, ToolImages,
};

/// OpenAI's image types (see [`openai::MEDIA_TYPES`](crate::openai::MEDIA_TYPES)).
const OPENAI_IMAGES: &[&str] = &crate::openai::MEDIA_TYPES;
/// PNG and JPEG only.
const PNG_JPEG: &[&str] = &["image/png", "image/jpeg"];
/// `max_completion_tokens`, for servers that ignore it or refuse it.
const NOT_MAX_COMPLETION_TOKENS: &[&str] = &["max_completion_tokens"];

impl Dialect {
    /// OpenAI's own rules: what [`Provider::OpenAi`](crate::Provider::OpenAi) applies.
    /// A reply schema as `response_format` `json_schema` (the spec's
    /// `ResponseFormatJsonSchema`).
    ///
    /// ```
    /// use transcript_replay::Dialect;
    /// assert_eq!(Dialect::OPENAI.output_limit, "max_completion_tokens");
    /// ```
    pub const OPENAI: Dialect = Dialect {
        id: "openai",
        name: "OpenAI",
        // https://platform.openai.com/docs/api-reference/chat
        base_url: "https://api.openai.com",
        output_limit: "max_completion_tokens",
        refused_fields: &[],
        system: SystemText::InPlace,
        roles: Roles::Kept,
        tool_images: ToolImages::AfterResults,
        round_reasoning: RoundReasoning::Echoed,
        image_types: OPENAI_IMAGES,
        file_types: &crate::openai::FILE_TYPES,
        stream_usage: true,
        chat_path: "/v1/chat/completions",
        think_tags: false,
        think_tag: ThinkTag::Think,
        json_schema: true,
        retryable_codes: &[],
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
    };

    /// DeepSeek. `max_tokens` only: `max_completion_tokens` is silently ignored (a cap of 5
    /// gave 76 tokens, <https://github.com/earendil-works/pi/issues/8018>); no image input
    /// ("unknown variant `image_url`, expected `text`",
    /// <https://github.com/rikkahub/rikkahub/issues/1433>); `deepseek-reasoner` refuses
    /// successive messages of one role (<https://github.com/deepseek-ai/DeepSeek-R1/issues/21>,
    /// <https://github.com/Aider-AI/aider/issues/2960>); `reasoning_content` must go back in
    /// a tool loop (<https://api-docs.deepseek.com/guides/thinking_mode>).
    /// Its `response_format` takes `text` and `json_object`, not `json_schema`
    /// (<https://api-docs.deepseek.com/api/create-chat-completion>; "response_format.type
    /// `json_schema` is unavailable now", <https://github.com/BerriAI/litellm/issues/7580>,
    /// <https://github.com/UKGovernmentBEIS/inspect_ai/issues/4916>): a reply schema is an
    /// error.
    ///
    /// ```
    /// use transcript_replay::Dialect;
    /// assert!(Dialect::DEEPSEEK.image_types.is_empty());
    /// assert!(!Dialect::DEEPSEEK.json_schema);
    /// ```
    pub const DEEPSEEK: Dialect = Dialect {
        id: "deepseek",
        name: "DeepSeek",
        // https://api-docs.deepseek.com/
        base_url: "https://api.deepseek.com",
        output_limit: "max_tokens",
        refused_fields: NOT_MAX_COMPLETION_TOKENS,
        roles: Roles::Alternate,
        image_types: &[],
        file_types: &[],
        stream_usage: false,
        json_schema: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Mistral. It refuses any field it does not know with 422 `extra_forbidden`, among them
    /// `max_completion_tokens` (<https://github.com/editor-code-assistant/eca/issues/231>,
    /// <https://github.com/TheJusticeMan/pure-chat-llm/issues/13>); it refuses a `user`
    /// message after a `tool` one, code 3230 ("Unexpected role 'user' after role 'tool'",
    /// <https://github.com/avante-corp/avante.nvim/issues/2562>,
    /// <https://github.com/zed-industries/zed/issues/37021>), so a tool's images are the
    /// marker. Its replies' tool calls come without `type`
    /// (<https://github.com/graniet/llm/issues/67>), and Magistral's content is an array of
    /// `thinking` and `text` chunks: both are read, as from every server.
    /// A reply schema as `response_format` `json_schema`
    /// (<https://docs.mistral.ai/capabilities/structured-output/custom_structured_output/>).
    ///
    /// ```
    /// use transcript_replay::Dialect;
    /// assert_eq!(Dialect::MISTRAL.refused_fields, ["max_completion_tokens"]);
    /// ```
    pub const MISTRAL: Dialect = Dialect {
        id: "mistral",
        name: "Mistral",
        // https://docs.mistral.ai/api/
        base_url: "https://api.mistral.ai",
        output_limit: "max_tokens",
        refused_fields: NOT_MAX_COMPLETION_TOKENS,
        tool_images: ToolImages::Marker,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Groq. It refuses `reasoning` and `reasoning_content` on assistant messages ("property
    /// 'reasoning' is unsupported", <https://github.com/karthink/gptel/issues/774>,
    /// <https://github.com/janhq/jan/issues/8136>, <https://github.com/vercel/ai/issues/8057>),
    /// so the round leaves them out. Its streamed usage comes in `x_groq.usage`
    /// (<https://github.com/Portkey-AI/gateway/issues/1072>; `stream_options.include_usage`
    /// gives it in OpenAI's place, and is written) and `groq/compound` reports
    /// `executed_tools`: both are read. A tool call the model wrote malformed is a 400
    /// `tool_use_failed` (`"Failed to call a function. Please adjust your prompt. See
    /// 'failed_generation' for more details."`,
    /// <https://github.com/groq/groq-typescript/issues/28>), whole or as a stream's error
    /// event (<https://github.com/anomalyco/opencode/issues/1018>), which a retry usually
    /// cures (<https://github.com/pydantic/pydantic-ai/pull/2774>,
    /// <https://github.com/langchain-ai/langchain/pull/30707>): retryable.
    /// A reply schema as `response_format` `json_schema`, for the models that take it
    /// (<https://console.groq.com/docs/structured-outputs>,
    /// <https://github.com/langchain-ai/langchain/pull/32396>).
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::RoundReasoning};
    /// assert_eq!(Dialect::GROQ.round_reasoning, RoundReasoning::LeftOut);
    /// assert_eq!(Dialect::GROQ.retryable_codes, ["tool_use_failed"]);
    /// ```
    pub const GROQ: Dialect = Dialect {
        id: "groq",
        name: "Groq",
        // https://console.groq.com/docs/openai
        base_url: "https://api.groq.com/openai",
        round_reasoning: RoundReasoning::LeftOut,
        file_types: &[],
        retryable_codes: &["tool_use_failed"],
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// xAI. Images in JPEG or PNG only ("does not contain a valid JPG or PNG image",
    /// <https://github.com/cline/cline/issues/5278>).
    /// A reply schema as `response_format` `json_schema`
    /// (<https://docs.x.ai/docs/guides/structured-outputs>).
    ///
    /// ```
    /// use transcript_replay::Dialect;
    /// assert_eq!(Dialect::XAI.image_types, ["image/png", "image/jpeg"]);
    /// ```
    pub const XAI: Dialect = Dialect {
        id: "xai",
        name: "xAI",
        // https://docs.x.ai/docs/api-reference
        base_url: "https://api.x.ai",
        image_types: PNG_JPEG,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// OpenRouter. `reasoning_details` (text, signature, encrypted) must go back in a tool
    /// loop for Claude and Gemini
    /// (<https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks>,
    /// <https://github.com/RooCodeInc/Roo-Code/issues/9506>): the round echoes it, whole and
    /// streamed. Its documented output cap is `max_tokens`. A stream whose upstream provider
    /// failed mid-way ends in a chunk with `finish_reason: "error"` (and an `error` beside
    /// it, <https://openrouter.ai/docs/api-reference/streaming>): a `StreamError`, as from
    /// every server.
    /// A reply schema as `response_format` `json_schema`, for the models that
    /// take it (<https://openrouter.ai/docs/structured-outputs>).
    /// The turn's reasoning as its documented `reasoning` object, `{"effort": ...}` (or
    /// `{"max_tokens": N}` for a token budget), the one form it takes for every model it
    /// routes to (<https://openrouter.ai/docs/use-cases/reasoning-tokens#controlling-reasoning-tokens>).
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::ReasoningParam};
    /// assert_eq!(Dialect::OPENROUTER.output_limit, "max_tokens");
    /// assert_eq!(Dialect::OPENROUTER.reasoning_param, ReasoningParam::Object);
    /// ```
    pub const OPENROUTER: Dialect = Dialect {
        id: "openrouter",
        name: "OpenRouter",
        // https://openrouter.ai/docs/api-reference/overview
        base_url: "https://openrouter.ai/api",
        output_limit: "max_tokens",
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Object,
        ..Dialect::OPENAI
    };

    /// Gemini's OpenAI endpoint. Gemini 3 needs each call's
    /// `extra_content.google.thought_signature` back ("Function call is missing a
    /// thought_signature", <https://ai.google.dev/gemini-api/docs/thought-signatures>,
    /// <https://github.com/labring/aiproxy/issues/450>): the round echoes it, whole and
    /// streamed. Images in Gemini's formats
    /// (<https://ai.google.dev/gemini-api/docs/openai>, `max_tokens` in its examples).
    /// Asked for thought summaries (`extra_body.google.thinking_config.include_thoughts`,
    /// <https://ai.google.dev/gemini-api/docs/openai#thinking>), it writes them into
    /// `content`, before the answer (<https://github.com/BerriAI/litellm/issues/11188>), in
    /// `<thought>` tags: read as reasoning.
    /// A reply schema as `response_format` `json_schema`
    /// (<https://ai.google.dev/gemini-api/docs/openai#structured-output>).
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::ThinkTag};
    /// assert!(Dialect::GEMINI_OPENAI.image_types.contains(&"image/heic"));
    /// assert_eq!(Dialect::GEMINI_OPENAI.think_tag, ThinkTag::Thought);
    /// ```
    pub const GEMINI_OPENAI: Dialect = Dialect {
        id: "gemini-openai",
        name: "Gemini",
        // https://ai.google.dev/gemini-api/docs/openai
        base_url: "https://generativelanguage.googleapis.com",
        // "https://generativelanguage.googleapis.com/v1beta/openai/" is the documented base.
        chat_path: "/v1beta/openai/chat/completions",
        output_limit: "max_tokens",
        image_types: &crate::gemini::MEDIA_TYPES,
        file_types: &[],
        stream_usage: false,
        think_tags: true,
        think_tag: ThinkTag::Thought,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Together. R1-style models put `<think>…</think>` in `content`, read as reasoning;
    /// its output cap is `max_tokens` (<https://docs.together.ai/reference/chat-completions-1>).
    /// A reply schema as `response_format` `json_schema`
    /// (<https://docs.together.ai/docs/inference/chat/structured-outputs>).
    ///
    /// ```
    /// assert!(transcript_replay::Dialect::TOGETHER.think_tags);
    /// ```
    pub const TOGETHER: Dialect = Dialect {
        id: "together",
        name: "Together",
        // https://docs.together.ai/docs/openai-api-compatibility
        base_url: "https://api.together.xyz",
        output_limit: "max_tokens",
        file_types: &[],
        think_tags: true,
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Fireworks. R1-style models put `<think>…</think>` in `content`, read as reasoning;
    /// its output cap is `max_tokens` (<https://docs.fireworks.ai/api-reference/post-chatcompletions>).
    /// A reply schema as `response_format` `json_schema`
    /// (<https://docs.fireworks.ai/structured-responses/structured-response-formatting>).
    ///
    /// ```
    /// assert!(transcript_replay::Dialect::FIREWORKS.think_tags);
    /// ```
    pub const FIREWORKS: Dialect = Dialect {
        id: "fireworks",
        name: "Fireworks",
        // https://docs.fireworks.ai/tools-sdks/openai-compatibility
        base_url: "https://api.fireworks.ai/inference",
        output_limit: "max_tokens",
        file_types: &[],
        think_tags: true,
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Cerebras. It refuses `reasoning_content` on assistant messages
    /// (<https://github.com/Kilo-Org/kilocode/issues/10375>), so the round leaves it out.
    /// A reply schema as `response_format` `json_schema`
    /// (<https://inference-docs.cerebras.ai/capabilities/structured-outputs>).
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::RoundReasoning};
    /// assert_eq!(Dialect::CEREBRAS.round_reasoning, RoundReasoning::LeftOut);
    /// ```
    pub const CEREBRAS: Dialect = Dialect {
        id: "cerebras",
        name: "Cerebras",
        // https://inference-docs.cerebras.ai/resources/openai
        base_url: "https://api.cerebras.ai",
        round_reasoning: RoundReasoning::LeftOut,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Perplexity. "After the (optional) system message(s), user and assistant roles should
    /// be alternating" (<https://github.com/perplexityai/api-discussion/issues/265>,
    /// <https://github.com/edenai/edenai-apis/pull/144>: "system message need to be at the
    /// beginning"); its sources come as top-level `citations` and `search_results`, read as
    /// `source` blocks.
    /// A reply schema as `response_format`
    /// `json_schema`, its name 1 to 64 characters
    /// (<https://docs.perplexity.ai/guides/structured-outputs>).
    /// Its stream sends no `data: [DONE]` (<https://github.com/perplexityai/api-discussion/issues/209>):
    /// it ends with a chunk of its own, `"object": "chat.completion.done"`, which carries the
    /// finish reason, the usage and the search results
    /// (<https://docs.perplexity.ai/docs/sonar/pro-search/stream-mode>), and the reader
    /// finishes there; a stream cut before it is an error.
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::{Roles, StreamEnd}};
    /// assert_eq!(Dialect::PERPLEXITY.roles, Roles::Alternate);
    /// assert_eq!(Dialect::PERPLEXITY.stream_end, StreamEnd::Chunk("chat.completion.done"));
    /// ```
    pub const PERPLEXITY: Dialect = Dialect {
        id: "perplexity",
        name: "Perplexity",
        // https://docs.perplexity.ai/api-reference/chat-completions-post
        base_url: "https://api.perplexity.ai",
        // <https://docs.perplexity.ai/api-reference/chat-completions-post>
        chat_path: "/chat/completions",
        output_limit: "max_tokens",
        system: SystemText::First,
        roles: Roles::Alternate,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Chunk("chat.completion.done"),
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Azure OpenAI. OpenAI's rules: GPT-5 and the o-series require `max_completion_tokens`
    /// (older api-versions refuse it, "Unrecognized request argument",
    /// <https://github.com/openai/openai-python/issues/1724>: a deployment on one of those
    /// is a dialect with `output_limit: "max_tokens"`). Its `prompt_filter_results` chunks and
    /// `content_filter` stops are read as OpenAI's.
    /// A reply schema as `response_format` `json_schema`
    /// (<https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/structured-outputs>).
    ///
    /// ```
    /// assert_eq!(transcript_replay::Dialect::AZURE.output_limit, "max_completion_tokens");
    /// ```
    pub const AZURE: Dialect = Dialect {
        id: "azure",
        name: "Azure OpenAI",
        // https://learn.microsoft.com/en-us/azure/ai-foundry/openai/api-version-lifecycle
        base_url: "https://{resource}.openai.azure.com/openai",
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// vLLM. Chat templates (Qwen, Gemma, Mistral) refuse a system message after the first
    /// ("System message must be at the beginning") and adjacent messages of one role
    /// ("Conversation roles must alternate",
    /// <https://github.com/vllm-project/vllm/issues/41114>,
    /// <https://github.com/microsoft/autogen/issues/1037>); without a reasoning parser, R1-style
    /// models answer with `<think>` tags in `content`, and Qwen3's thinking templates open
    /// `<think>` themselves, so only `</think>` arrives
    /// (<https://github.com/vllm-project/vllm/issues/31045>,
    /// <https://github.com/vllm-project/vllm/issues/22507>).
    /// A reply schema as `response_format` `json_schema`, by guided decoding
    /// (<https://docs.vllm.ai/en/latest/features/structured_outputs.html>).
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::SystemText};
    /// assert_eq!(Dialect::VLLM.system, SystemText::First);
    /// ```
    pub const VLLM: Dialect = Dialect {
        id: "vllm",
        name: "vLLM",
        // https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html
        base_url: "http://localhost:8000",
        output_limit: "max_tokens",
        system: SystemText::First,
        roles: Roles::Alternate,
        file_types: &[],
        think_tags: true,
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// llama.cpp's server and llama-cpp-python. The templates' rules, as vLLM's
    /// (<https://github.com/ggml-org/llama.cpp/issues/27367>); llama-cpp-python ignores
    /// `max_completion_tokens` (<https://github.com/abetlen/llama-cpp-python/issues/1907>),
    /// so only `max_tokens` caps the reply.
    /// llama-server takes a reply schema as `response_format` `json_schema`
    /// (<https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md>,
    /// <https://github.com/ggml-org/llama.cpp/issues/11847>); llama-cpp-python takes only
    /// `json_object` with a `schema` (<https://github.com/abetlen/llama-cpp-python/pull/1677>),
    /// a dialect `Dialect { json_schema: false, ..Dialect::LLAMA_CPP }`.
    ///
    /// ```
    /// assert_eq!(transcript_replay::Dialect::LLAMA_CPP.refused_fields, ["max_completion_tokens"]);
    /// ```
    pub const LLAMA_CPP: Dialect = Dialect {
        id: "llama-cpp",
        name: "llama.cpp",
        // https://github.com/ggml-org/llama.cpp/tree/master/tools/server
        base_url: "http://localhost:8080",
        output_limit: "max_tokens",
        refused_fields: NOT_MAX_COMPLETION_TOKENS,
        system: SystemText::First,
        roles: Roles::Alternate,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// Ollama. The templates' rules (<https://github.com/ollama/ollama/issues/17774>); it does
    /// not read `max_completion_tokens` (<https://github.com/ollama/ollama/issues/14464>).
    /// A reply schema as `response_format` `json_schema`
    /// (<https://docs.ollama.com/api/openai-compatibility>,
    /// <https://github.com/ollama/ollama/issues/10001>).
    ///
    /// ```
    /// assert_eq!(transcript_replay::Dialect::OLLAMA.output_limit, "max_tokens");
    /// ```
    pub const OLLAMA: Dialect = Dialect {
        id: "ollama",
        name: "Ollama",
        // https://github.com/ollama/ollama/blob/main/docs/openai.md
        base_url: "http://localhost:11434",
        output_limit: "max_tokens",
        refused_fields: NOT_MAX_COMPLETION_TOKENS,
        system: SystemText::First,
        roles: Roles::Alternate,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// LM Studio. No report of a rule of its own was found; it runs models by the same chat
    /// templates as llama.cpp, so it gets the templates' rules, and `max_tokens`
    /// (<https://lmstudio.ai/docs/app/api/endpoints/openai>).
    /// A reply schema as `response_format` `json_schema`
    /// (<https://lmstudio.ai/docs/advanced/structured-output>).
    ///
    /// ```
    /// use transcript_replay::{Dialect, dialects::Roles};
    /// assert_eq!(Dialect::LM_STUDIO.roles, Roles::Alternate);
    /// ```
    pub const LM_STUDIO: Dialect = Dialect {
        id: "lm-studio",
        name: "LM Studio",
        // https://lmstudio.ai/docs/app/api/endpoints/openai
        base_url: "http://localhost:1234",
        output_limit: "max_tokens",
        system: SystemText::First,
        roles: Roles::Alternate,
        file_types: &[],
        stream_usage: false,
        stream_end: StreamEnd::Done,
        reasoning_param: ReasoningParam::Effort,
        ..Dialect::OPENAI
    };

    /// The named dialects of compatible servers, in the order of docs/design.md#dialects (OpenAI's own is
    /// [`Provider::OpenAi`](crate::Provider::OpenAi)).
    ///
    /// ```
    /// use transcript_replay::{Dialect, Provider};
    ///
    /// for dialect in Dialect::NAMED {
    ///     assert_eq!(dialect.id.parse::<Provider>(), Ok(Provider::Compatible(dialect)));
    /// }
    /// ```
    pub const NAMED: [&'static Dialect; 15] = [
        &Dialect::DEEPSEEK,
        &Dialect::MISTRAL,
        &Dialect::GROQ,
        &Dialect::XAI,
        &Dialect::OPENROUTER,
        &Dialect::GEMINI_OPENAI,
        &Dialect::TOGETHER,
        &Dialect::FIREWORKS,
        &Dialect::CEREBRAS,
        &Dialect::PERPLEXITY,
        &Dialect::AZURE,
        &Dialect::VLLM,
        &Dialect::LLAMA_CPP,
        &Dialect::OLLAMA,
        &Dialect::LM_STUDIO,
    ];
}
