//! Which family's image rule a model's name picks: a table of name prefixes, each row with
//! the page that publishes its rule, and each provider's default for a name the table does
//! not know.

use super::image_tokens::{
    ImageTokens, ANTHROPIC, CLAUDE, CLAUDE_HIGH_RES, COMPUTER_USE_PREVIEW, GEMINI_2, GEMINI_3,
    GPT_4O, GPT_4O_MINI, GPT_4_1, GPT_4_1_MINI, GPT_4_1_NANO, GPT_4_5, GPT_5, GPT_5_MINI,
    GPT_5_NANO, O1, O3, O4_MINI, OPENAI,
};

/// One row of [`MODEL_FAMILIES`]: the models whose name begins with `prefix` price images by
/// `rule`, as `source` publishes.
///
/// ```
/// use transcript_replay::{cost::image_tokens, cost::MODEL_FAMILIES};
///
/// let row = MODEL_FAMILIES.iter().find(|row| row.prefix == "gpt-4o-mini").unwrap();
/// assert_eq!(row.rule, image_tokens("gpt-4o-mini").unwrap());
/// assert!(row.source.starts_with("https://"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ModelFamily {
    /// The beginning of the model names the row covers (`gpt-4.1-mini`), lowercase.
    pub prefix: &'static str,
    /// The family's rule, one of [`IMAGE_TOKENS`](crate::cost::IMAGE_TOKENS).
    pub rule: &'static ImageTokens,
    /// The page that says these models price images by that rule.
    pub source: &'static str,
}

const GEMINI_TOKENS: &str = "https://ai.google.dev/gemini-api/docs/tokens";
const GEMINI_MEDIA_RESOLUTION: &str = "https://ai.google.dev/gemini-api/docs/media-resolution";

const fn row(
    prefix: &'static str,
    rule: &'static ImageTokens,
    source: &'static str,
) -> ModelFamily {
    ModelFamily {
        prefix,
        rule,
        source,
    }
}

/// The model names [`Provider::image_tokens_for`](crate::Provider::image_tokens_for) knows, by prefix, with the page that
/// publishes each family's rule.
///
/// A row matches a model's name (compared in lowercase) when the name, or the part of it after
/// any `/` or `.`, begins with the row's prefix followed by the end of the name or by a
/// character that is neither a letter nor a digit: `gpt-5` covers `gpt-5-2025-08-07` and
/// `gpt-5.1` but not `gpt-50`; `claude` covers Bedrock's
/// `us.anthropic.claude-sonnet-4-5-20250929-v1:0` and OpenRouter's `anthropic/claude-sonnet-4.5`;
/// `gemini-2` covers `models/gemini-2.5-pro`. The longest matching prefix wins, so
/// `gpt-4.1-mini` is not priced as `gpt-4.1`.
///
/// | prefix | family | source |
/// |---|---|---|
/// | `gpt-4o-mini` | `gpt-4o-mini` | <https://platform.openai.com/docs/guides/images-vision> |
/// | `gpt-4o`, `chatgpt-4o` | `gpt-4o` | same |
/// | `gpt-4.1-mini` | `gpt-4.1-mini` | same |
/// | `gpt-4.1-nano` | `gpt-4.1-nano` | same |
/// | `gpt-4.1` | `gpt-4.1` | same |
/// | `gpt-4.5` | `gpt-4.5` | same |
/// | `gpt-5-mini` | `gpt-5-mini` | same |
/// | `gpt-5-nano` | `gpt-5-nano` | same |
/// | `gpt-5` | `gpt-5` | same |
/// | `o1` | `o1` | same |
/// | `o3` | `o3` | same |
/// | `o4-mini` | `o4-mini` | same |
/// | `computer-use-preview` | `computer-use-preview` | same |
/// | `claude-opus-4-7`, `claude-opus-4.7` | `claude-high-res` ("Claude 4.7 and later") | <https://platform.claude.com/docs/en/build-with-claude/vision> |
/// | `claude` | `claude` | same |
/// | `gemini-3` | `gemini-3` (1120 tokens, the default resolution for images) | <https://ai.google.dev/gemini-api/docs/media-resolution> |
/// | `gemini-2` | `gemini-2` | <https://ai.google.dev/gemini-api/docs/tokens> |
///
/// Not listed, so priced by the provider's default: models whose image price no page
/// publishes (Amazon Nova, Llama, Mistral, Gemma, GPT-4 Turbo, ...), aliases whose model moves
/// (`gemini-flash-latest`), and Claude models after Opus 4.7 until their names are known here.
/// Every other model of the first parties that the catalog says takes images has its row
/// ([`model_image_tokens`](crate::cost::model_image_tokens) reads it).
///
/// ```
/// use transcript_replay::{Provider, cost::MODEL_FAMILIES};
///
/// let openai: Provider = "openai".parse().unwrap();
/// for row in MODEL_FAMILIES {
///     assert_eq!(openai.image_tokens_for(row.prefix), row.rule);
/// }
/// ```
pub const MODEL_FAMILIES: &[ModelFamily] = &[
    row("gpt-4o-mini", &GPT_4O_MINI, OPENAI),
    row("gpt-4o", &GPT_4O, OPENAI),
    row("chatgpt-4o", &GPT_4O, OPENAI),
    row("gpt-4.1-mini", &GPT_4_1_MINI, OPENAI),
    row("gpt-4.1-nano", &GPT_4_1_NANO, OPENAI),
    row("gpt-4.1", &GPT_4_1, OPENAI),
    row("gpt-4.5", &GPT_4_5, OPENAI),
    row("gpt-5-mini", &GPT_5_MINI, OPENAI),
    row("gpt-5-nano", &GPT_5_NANO, OPENAI),
    row("gpt-5", &GPT_5, OPENAI),
    row("o1", &O1, OPENAI),
    row("o3", &O3, OPENAI),
    row("o4-mini", &O4_MINI, OPENAI),
    row("computer-use-preview", &COMPUTER_USE_PREVIEW, OPENAI),
    row("claude-opus-4-7", &CLAUDE_HIGH_RES, ANTHROPIC),
    row("claude-opus-4.7", &CLAUDE_HIGH_RES, ANTHROPIC),
    row("claude", &CLAUDE, ANTHROPIC),
    row("gemini-3", &GEMINI_3, GEMINI_MEDIA_RESOLUTION),
    row("gemini-2", &GEMINI_2, GEMINI_TOKENS),
];

/// The row of [`MODEL_FAMILIES`] a model's name picks, if any (the longest prefix that
/// matches at the start of the name or after a `/` or `.`).
pub(crate) fn family_of(model: &str) -> Option<&'static ModelFamily> {
    let name = model.to_ascii_lowercase();
    let starts = std::iter::once(name.as_str()).chain(
        name.match_indices(['/', '.'])
            .filter_map(|(at, separator)| name.get(at + separator.len()..)),
    );
    let mut best: Option<&'static ModelFamily> = None;
    for start in starts {
        for family in MODEL_FAMILIES {
            let ends_there = start.strip_prefix(family.prefix).is_some_and(|rest| {
                rest.chars()
                    .next()
                    .map_or(true, |next| !next.is_ascii_alphanumeric())
            });
            if ends_there && best.map_or(true, |best| family.prefix.len() > best.prefix.len()) {
                best = Some(family);
            }
        }
    }
    best
}

/// How a catalog model's provider counts an image's tokens for it, when it takes images: the
/// family its id picks in [`MODEL_FAMILIES`], else its provider's default, as
/// [`Provider::image_tokens_for`](crate::Provider::image_tokens_for) has it; `None` for a
/// model that takes no images (its images cross as markers) or that the catalog does not hold.
///
/// ```
/// use transcript_replay::cost::{image_tokens, model_image_tokens};
///
/// assert_eq!(model_image_tokens("gpt-4.1-mini"), image_tokens("gpt-4.1-mini"));
/// assert_eq!(model_image_tokens("deepseek-chat"), None);
/// assert_eq!(model_image_tokens("no-such-model"), None);
/// ```
pub fn model_image_tokens(id: &str) -> Option<&'static ImageTokens> {
    let model = crate::models::find(id)?;
    model
        .images
        .then(|| model.provider().image_tokens_for(model.id))
}
