//! What an error's text says of a context window overflow: whether it is one, and the counts
//! it names. Every wording here is one a provider or a server sends, exact, with where it was
//! documented or reported; the table test below holds each one with its source.
//!
//! - Anthropic: `prompt is too long: 219898 tokens > 200000 maximum`, and the older
//!   ``input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798``
//!   (<https://github.com/anthropics/claude-code/issues/42>); through Bedrock too, inside
//!   "The model returned the following errors: ..."
//!   (<https://github.com/strands-agents/harness-sdk/pull/1663>).
//! - OpenAI Chat: `This model's maximum context length is 4097 tokens. However, your messages
//!   resulted in 4294 tokens`; `... However, you requested 8213 tokens (6683 in the messages,
//!   730 in the functions, and 800 in the completion)` (used is what was requested less the
//!   completion); the older `... however you requested 4116 tokens (3860 in your prompt; 256
//!   for the completion)`; GPT-5's `Input tokens exceed the configured limit of 272000 tokens.
//!   Your messages resulted in 289650 tokens` (<https://github.com/cline/cline/issues/5474>).
//!   DeepSeek and vLLM send the Chat form with `code: invalid_request_error` or `400`.
//! - OpenAI Responses: `Your input exceeds the context window of this model` (no counts).
//! - OpenRouter: `This endpoint's maximum context length is 32768 tokens. However, you
//!   requested about 42832 tokens`.
//! - Gemini: `The input token count (1200293) exceeds the maximum number of tokens allowed
//!   (1048576).` (<https://github.com/google-gemini/gemini-cli/issues/6678>).
//! - Bedrock: `Input is too long for requested model.`
//!   (<https://github.com/aws-samples/bedrock-chat/issues/95>).
//! - vLLM: `The prompt (total length 25938) is too long to fit into the model (context length
//!   4096)` (<https://github.com/vllm-project/vllm/issues/12165>) and `Input prompt (35247
//!   tokens) is too long and exceeds limit of 1000`
//!   (<https://github.com/vllm-project/vllm/issues/10440>).
//! - llama.cpp's server: `request (4390 tokens) exceeds the available context size (4096
//!   tokens)`, `the request exceeds the available context size` (with `n_prompt_tokens` and
//!   `n_ctx` beside it, read by the OpenAI reader) and, as a 500, `Context size has been
//!   exceeded.` (<https://github.com/ggml-org/llama.cpp/issues/19774>); llama-cpp-python
//!   `Requested tokens (2138) exceed context window of 2048`
//!   (<https://github.com/fedora-copr/logdetective/issues/100>).
//! - Groq: `Please reduce the length of the messages or completion.` (no counts,
//!   <https://github.com/thepersonalaicompany/amurex-backend/issues/51>); Cerebras adds
//!   `Current length is 42328 while limit is 40000`
//!   (<https://github.com/cline/cline/issues/5140>).
//! - Hugging Face TGI: ``Input validation error: `inputs` tokens + `max_new_tokens` must be <=
//!   2048. Given: 3474 `inputs` tokens and 60 `max_new_tokens` ``
//!   (<https://github.com/huggingface/llm-vscode/issues/94>).
//!
//! - Mistral: `Prompt contains 300000 tokens, too large for model with 131072 maximum context
//!   length` (a 400; the wording as collected in pi-mono's table of provider overflows,
//!   <https://github.com/badlogic/pi-mono/blob/main/packages/ai/src/utils/overflow.ts>, and
//!   Mistral's limits, <https://docs.mistral.ai/resources/known-limitations>); some versions add
//!   `and 0 draft tokens` after the count.
//!
//! Ollama sends no overflow error: it truncates the prompt to `num_ctx` and answers
//! (<https://github.com/ollama/ollama/issues/4967>).

/// An overflow's reading: whether the text says one, and the counts it names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct OverflowText {
    pub(crate) found: bool,
    pub(crate) used: Option<u64>,
    pub(crate) limit: Option<u64>,
    pub(crate) max_tokens: Option<u64>,
}

/// The wordings that carry counts, each read by its own function, tried in order.
const FORMS: [fn(&str) -> Option<OverflowText>; 12] = [
    anthropic,
    mistral,
    anthropic_older,
    openai,
    openai_configured_limit,
    gemini,
    vllm_total_length,
    vllm_input_prompt,
    llama_cpp,
    llama_cpp_python,
    cerebras,
    text_generation_inference,
];

/// The wordings without counts (or whose counts are elsewhere).
const PHRASES: [&str; 9] = [
    "Input is too long for requested model",
    "exceeds the context window",
    "context_length_exceeded",
    "prompt is too long",
    "exceeds the available context size",
    "Context size has been exceeded",
    "exceed_context_size_error",
    "Please reduce the length of the messages or completion",
    "Please reduce the length of the messages",
];

impl OverflowText {
    /// What `text` says of an overflow.
    pub(crate) fn read(text: &str) -> Self {
        FORMS
            .iter()
            .find_map(|form| form(text))
            .unwrap_or_else(|| OverflowText {
                found: PHRASES.iter().any(|phrase| text.contains(phrase)),
                ..OverflowText::default()
            })
    }

    fn counts(used: Option<u64>, limit: Option<u64>, max_tokens: Option<u64>) -> Option<Self> {
        Some(OverflowText {
            found: true,
            used,
            limit,
            max_tokens,
        })
    }
}

fn anthropic(text: &str) -> Option<OverflowText> {
    let rest = after(text, "prompt is too long: ")?;
    OverflowText::counts(
        number(rest),
        after(rest, "tokens > ").and_then(number),
        None,
    )
}

fn mistral(text: &str) -> Option<OverflowText> {
    let rest = after(text, "Prompt contains ")?;
    let limit = after(rest, "too large for model with ")?;
    OverflowText::counts(number(rest), number(limit), None)
}

fn anthropic_older(text: &str) -> Option<OverflowText> {
    let rest = after(text, "exceed context limit: ")?;
    OverflowText::counts(
        number(rest),
        after(rest, "> ").and_then(number),
        after(rest, "+ ").and_then(number),
    )
}

fn openai(text: &str) -> Option<OverflowText> {
    let rest = after(text, "maximum context length is ")?;
    let limit = number(rest);
    if let Some(used) = after(rest, "resulted in ") {
        return OverflowText::counts(number(used), limit, None);
    }
    let Some(requested) = after(rest, "you requested ") else {
        return OverflowText::counts(None, limit, None);
    };
    let requested = requested.strip_prefix("about ").unwrap_or(requested);
    let total = number(requested);
    let completion = number_before(requested, " in the completion")
        .or_else(|| number_before(requested, " for the completion"));
    let used = match (total, completion) {
        (Some(total), Some(completion)) => Some(total.saturating_sub(completion)),
        (total, None) => total,
        (None, Some(_)) => None,
    };
    OverflowText::counts(used, limit, completion)
}

fn openai_configured_limit(text: &str) -> Option<OverflowText> {
    let rest = after(text, "exceed the configured limit of ")?;
    OverflowText::counts(
        after(rest, "resulted in ").and_then(number),
        number(rest),
        None,
    )
}

fn gemini(text: &str) -> Option<OverflowText> {
    let rest = after(text, "The input token count (")?;
    OverflowText::counts(
        number(rest),
        after(rest, "tokens allowed (").and_then(number),
        None,
    )
}

fn vllm_total_length(text: &str) -> Option<OverflowText> {
    let rest = after(text, "(total length ")?;
    let limit = after(rest, "too long to fit into the model (context length ")?;
    OverflowText::counts(number(rest), number(limit), None)
}

fn vllm_input_prompt(text: &str) -> Option<OverflowText> {
    let rest = after(text, "Input prompt (")?;
    let limit = after(rest, "is too long and exceeds limit of ")?;
    OverflowText::counts(number(rest), number(limit), None)
}

fn llama_cpp(text: &str) -> Option<OverflowText> {
    let rest = after(text, "request (")?;
    let limit = after(rest, "exceeds the available context size (")?;
    OverflowText::counts(number(rest), number(limit), None)
}

fn llama_cpp_python(text: &str) -> Option<OverflowText> {
    let rest = after(text, "Requested tokens (")?;
    let limit = after(rest, "exceed context window of ")?;
    OverflowText::counts(number(rest), number(limit), None)
}

fn cerebras(text: &str) -> Option<OverflowText> {
    if !text.contains("reduce the length") {
        return None;
    }
    let rest = after(text, "Current length is ")?;
    OverflowText::counts(
        number(rest),
        after(rest, "limit is ").and_then(number),
        None,
    )
}

fn text_generation_inference(text: &str) -> Option<OverflowText> {
    let rest = after(text, "`max_new_tokens` must be <= ")?;
    OverflowText::counts(
        after(rest, "Given: ").and_then(number),
        number(rest),
        after(rest, "`inputs` tokens and ").and_then(number),
    )
}

/// The text after the first `marker` in `text`.
fn after<'t>(text: &'t str, marker: &str) -> Option<&'t str> {
    text.find(marker)
        .and_then(|start| text.get(start + marker.len()..))
}

/// The whole number just before the first `marker` in `text`.
fn number_before(text: &str, marker: &str) -> Option<u64> {
    let head = text.get(..text.find(marker)?)?;
    let start = head
        .rfind(|c: char| !(c.is_ascii_digit() || c == ','))
        .map_or(0, |at| at + 1);
    number(head.get(start..)?)
}

/// The whole number at the start of `text` (digits, with `,` between thousands allowed).
fn number(text: &str) -> Option<u64> {
    let digits: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_overflow_text_gives_its_counts() {
        // (the text, used, limit, max_tokens, where it was documented or reported)
        type Case = (
            &'static str,
            Option<u64>,
            Option<u64>,
            Option<u64>,
            &'static str,
        );
        let cases: [Case; 27] = [
            ("prompt is too long: 219898 tokens > 200000 maximum", Some(219_898), Some(200_000), None, "https://github.com/earendil-works/pi/issues/102"),
            ("The model returned the following errors: prompt is too long: 903884 tokens > 200000 maximum", Some(903_884), Some(200_000), None, "https://github.com/strands-agents/harness-sdk/pull/1663"),
            ("input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798, decrease input length or `max_tokens` and try again", Some(187_254), Some(204_798), Some(20_000), "https://github.com/anthropics/claude-code/issues/42"),
            ("input length and max_tokens exceed context limit: 86888 + 119866 > 204648, decrease input length or max_tokens and try again", Some(86_888), Some(204_648), Some(119_866), "https://github.com/stackblitz/bolt.new/issues/7414"),
            ("This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.", Some(4294), Some(4097), None, "https://github.com/chathub-dev/chathub/issues/126"),
            ("This model's maximum context length is 8192 tokens. However, you requested 8554 tokens (7554 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", Some(7554), Some(8192), Some(1000), "https://github.com/mckaywrigley/chatbot-ui/issues/820"),
            ("This model's maximum context length is 8192 tokens. However, you requested 8213 tokens (6683 in the messages, 730 in the functions, and 800 in the completion). Please reduce the length of the messages, functions, or completion.", Some(7413), Some(8192), Some(800), "https://github.com/FoundationAgents/OpenManus/issues/62"),
            ("This model's maximum context length is 4097 tokens, however you requested 4116 tokens (3860 in your prompt; 256 for the completion). Please reduce your prompt; or completion length.", Some(3860), Some(4097), Some(256), "https://github.com/run-llama/llama_index/issues/948"),
            ("Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens. Please reduce the length of the messages.", Some(289_650), Some(272_000), None, "https://github.com/cline/cline/issues/5474"),
            ("Your input exceeds the context window of this model. Please adjust your input and try again.", None, None, None, "https://github.com/dyad-sh/dyad/issues/1672"),
            ("This model's maximum context length is 65536 tokens. However, you requested 66343 tokens (62247 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.", Some(62_247), Some(65_536), Some(4096), "https://github.com/FoundationAgents/OpenManus/issues/79"),
            ("This model's maximum context length is 65536 tokens. However, you requested 87731 tokens (87731 in the messages, 0 in the completion). Please reduce the length of the messages or completion.", Some(87_731), Some(65_536), Some(0), "https://github.com/bytedance/deer-flow/issues/66"),
            ("This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one.", Some(42_832), Some(32_768), None, "https://github.com/refly-ai/refly/issues/1177"),
            ("The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).", Some(1_200_293), Some(1_048_576), None, "https://github.com/google-gemini/gemini-cli/issues/6678"),
            ("Input is too long for requested model.", None, None, None, "https://github.com/aws-samples/bedrock-chat/issues/95"),
            ("This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.", Some(112_946), Some(16_384), Some(10_000), "https://github.com/vllm-project/vllm/issues/20409"),
            ("The prompt (total length 25938) is too long to fit into the model (context length 4096). Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens.", Some(25_938), Some(4096), None, "https://github.com/vllm-project/vllm/issues/12165"),
            ("Input prompt (35247 tokens) is too long and exceeds limit of 1000", Some(35_247), Some(1000), None, "https://github.com/vllm-project/vllm/issues/10440"),
            ("request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it", Some(4390), Some(4096), None, "https://github.com/ggml-org/llama.cpp/issues/19774"),
            ("the request exceeds the available context size. try increasing the context size or enable context shift", None, None, None, "https://github.com/oobabooga/textgen/issues/7257"),
            ("Context size has been exceeded.", None, None, None, "https://github.com/ggml-org/llama.cpp/issues/19774"),
            ("Requested tokens (2138) exceed context window of 2048", Some(2138), Some(2048), None, "https://github.com/fedora-copr/logdetective/issues/100"),
            ("Please reduce the length of the messages or completion.", None, None, None, "https://github.com/thepersonalaicompany/amurex-backend/issues/51"),
            ("Please reduce the length of the messages or completion. Current length is 42328 while limit is 40000", Some(42_328), Some(40_000), None, "https://github.com/cline/cline/issues/5140"),
            ("Prompt contains 300000 tokens, too large for model with 131072 maximum context length", Some(300_000), Some(131_072), None, "https://github.com/badlogic/pi-mono/blob/main/packages/ai/src/utils/overflow.ts"),
            ("Prompt contains 40016 tokens and 0 draft tokens, too large for model with 32768 maximum context length", Some(40_016), Some(32_768), None, "https://docs.mistral.ai/resources/known-limitations"),
            ("Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 3474 `inputs` tokens and 60 `max_new_tokens`", Some(3474), Some(2048), Some(60), "https://github.com/huggingface/llm-vscode/issues/94"),
        ];
        for (text, used, limit, max_tokens, source) in cases {
            let overflow = OverflowText::read(text);
            assert!(overflow.found, "{source}: {text}");
            assert_eq!(
                (overflow.used, overflow.limit, overflow.max_tokens),
                (used, limit, max_tokens),
                "{source}: {text}"
            );
        }
        for text in [
            "Overloaded",
            "The maximum tokens you requested exceeds the model limit of 32768",
            "Rate limit reached for o4-mini in organization org-x on tokens per min (TPM): Limit 200000, Used 162960, Requested 42288. Please try again in 1.574s.",
            "the request (200 tokens) was fine",
        ] {
            assert!(!OverflowText::read(text).found, "{text}");
        }
    }
}
