//! What a model holds and costs: a catalog of the models of the five providers and the named
//! dialects, generated from the pinned models.dev catalog (`catalog.rs`, `@generated` by
//! `conformance/specs/models.py`), each entry with the file it came from and the catalog's
//! commit. A model that is not in it is the caller's to describe: nothing here guesses.

mod catalog;

use serde::ser::{Serialize, SerializeMap, Serializer};

/// A model as the catalog has it: its limits in tokens, what it takes in, its features, its
/// prices and where these facts come from.
///
/// It serializes as `{"id", "provider", "context_window", "input_limit"?, "max_output",
/// "images", "pdf", "reasoning", "tool_calls", "structured_output", "usd_per_mtok": {"input",
/// "output", "cache_read"?, "cache_write"?}, "source"}`, absent members left out.
///
/// ```
/// let model = transcript_replay::models::find("claude-sonnet-4-5").unwrap();
/// assert_eq!(model.provider().id(), "anthropic");
/// assert!(model.images && model.tool_calls);
/// assert!(model.source().starts_with("models.dev providers/anthropic/models/"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Model {
    /// The model's id, as a request names it.
    pub id: &'static str,
    provider: &'static str,
    /// The context window: input and output together, in tokens.
    pub context_window: u64,
    /// The most input tokens, where it is less than the window.
    pub input_limit: Option<u64>,
    /// The most output tokens a reply may have.
    pub max_output: u64,
    /// Whether it takes images.
    pub images: bool,
    /// Whether it takes PDF documents.
    pub pdf: bool,
    /// Whether it reasons (thinks before it answers).
    pub reasoning: bool,
    /// Whether it calls tools.
    pub tool_calls: bool,
    /// Whether it takes a schema for its reply (structured output).
    pub structured_output: bool,
    /// Its prices, in US dollars per million tokens, where the catalog gives them.
    pub usd_per_mtok: Option<Prices>,
    source: &'static str,
}

/// A model's prices, in US dollars per million tokens.
///
/// ```
/// let prices = transcript_replay::models::find("gpt-4o").unwrap().usd_per_mtok.unwrap();
/// assert_eq!((prices.input, prices.output, prices.cache_read), (2.5, 10.0, Some(1.25)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Prices {
    /// Input tokens not read from the cache.
    pub input: f64,
    /// Output tokens.
    pub output: f64,
    /// Input tokens read from the prompt cache, where the provider prices them apart.
    pub cache_read: Option<f64>,
    /// Input tokens written to the prompt cache, where the provider prices them apart.
    pub cache_write: Option<f64>,
    /// The prices of a request whose prompt is longer than a size, where the provider bills
    /// long prompts at other prices (Gemini 2.5 Pro over 200,000 tokens, GPT-5.4 over
    /// 272,000): the first of the catalog's `cost.tiers`. Not written in the entry's JSON,
    /// whose shape is the catalog's base prices; [`Prices::for_prompt`] applies it.
    pub above: Option<&'static Tier>,
}

/// The prices of a request whose prompt is longer than `prompt_tokens`: the whole request is
/// billed at them (Gemini's "prompts > 200k tokens", <https://ai.google.dev/gemini-api/docs/pricing>).
///
/// ```
/// let prices = transcript_replay::models::find("gemini-2.5-pro").unwrap().usd_per_mtok.unwrap();
/// let above = prices.above.unwrap();
/// assert_eq!((above.prompt_tokens, above.prices.input), (200_000, 2.5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Tier {
    /// The longest prompt billed at the base prices, in tokens.
    pub prompt_tokens: u64,
    /// The prices of a longer one.
    pub prices: Prices,
}

impl Prices {
    /// The prices a request with a prompt of `prompt_tokens` is billed at: those
    /// [`above`](Prices::above) its size when it is longer, else these.
    ///
    /// ```
    /// let prices = transcript_replay::models::find("gemini-2.5-pro").unwrap().usd_per_mtok.unwrap();
    /// assert_eq!(prices.for_prompt(200_000).input, 1.25);
    /// assert_eq!(prices.for_prompt(200_001).input, 2.5);
    /// ```
    pub fn for_prompt(&self, prompt_tokens: u64) -> Prices {
        match self.above {
            Some(tier) if prompt_tokens > tier.prompt_tokens => tier.prices,
            Some(_) | None => *self,
        }
    }
}

/// What a model takes and does, as the catalog's entries write it, one bit each.
const IMAGES: u8 = 1;
const PDF: u8 = 2;
const REASONING: u8 = 4;
const TOOLS: u8 = 8;
const SCHEMA: u8 = 16;

/// A catalog entry, as `catalog.rs` writes one a line: id, provider, window, input limit,
/// output limit, what it takes and does, prices, source file.
#[allow(clippy::too_many_arguments)]
const fn m(
    id: &'static str,
    provider: &'static str,
    context_window: u64,
    input_limit: Option<u64>,
    max_output: u64,
    flags: u8,
    usd_per_mtok: Option<Prices>,
    source: &'static str,
) -> Model {
    Model {
        id,
        provider,
        context_window,
        input_limit,
        max_output,
        images: flags & IMAGES != 0,
        pdf: flags & PDF != 0,
        reasoning: flags & REASONING != 0,
        tool_calls: flags & TOOLS != 0,
        structured_output: flags & SCHEMA != 0,
        usd_per_mtok,
        source,
    }
}

/// A catalog entry's prices: input, output, cache read, cache write, and those of a longer
/// prompt.
const fn p(
    input: f64,
    output: f64,
    cache_read: Option<f64>,
    cache_write: Option<f64>,
    above: Option<&'static Tier>,
) -> Prices {
    Prices {
        input,
        output,
        cache_read,
        cache_write,
        above,
    }
}

/// A catalog entry's prices of a prompt longer than `prompt_tokens`.
const fn t(prompt_tokens: u64, prices: Prices) -> Tier {
    Tier {
        prompt_tokens,
        prices,
    }
}

impl Model {
    /// The provider that serves the model under this id.
    ///
    /// ```
    /// assert_eq!(transcript_replay::models::find("deepseek-chat").unwrap().provider().id(), "deepseek");
    /// ```
    pub fn provider(&self) -> crate::Provider {
        // Every id the generator writes is one the crate parses; the table's own test says so.
        self.provider.parse().unwrap_or(crate::Provider::ALL[0])
    }

    /// Where the entry comes from: the catalog's file, and the catalog's commit.
    ///
    /// ```
    /// let model = transcript_replay::models::find("gpt-4o").unwrap();
    /// assert_eq!(
    ///     model.source(),
    ///     "models.dev providers/openai/models/gpt-4o.toml at commit f3fc692299671838c7c65fd8126bf84d81a2e817 (2026-07-02)",
    /// );
    /// ```
    pub fn source(&self) -> String {
        format!("{} at commit {}", self.source, catalog::COMMIT)
    }
}

impl Serialize for Model {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("provider", self.provider)?;
        map.serialize_entry("context_window", &self.context_window)?;
        if let Some(limit) = self.input_limit {
            map.serialize_entry("input_limit", &limit)?;
        }
        map.serialize_entry("max_output", &self.max_output)?;
        map.serialize_entry("images", &self.images)?;
        map.serialize_entry("pdf", &self.pdf)?;
        map.serialize_entry("reasoning", &self.reasoning)?;
        map.serialize_entry("tool_calls", &self.tool_calls)?;
        map.serialize_entry("structured_output", &self.structured_output)?;
        if let Some(prices) = &self.usd_per_mtok {
            map.serialize_entry("usd_per_mtok", prices)?;
        }
        map.serialize_entry("source", &self.source())?;
        map.end()
    }
}

impl Serialize for Prices {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("input", &self.input)?;
        map.serialize_entry("output", &self.output)?;
        if let Some(price) = self.cache_read {
            map.serialize_entry("cache_read", &price)?;
        }
        if let Some(price) = self.cache_write {
            map.serialize_entry("cache_write", &price)?;
        }
        map.end()
    }
}

/// The catalog's entry for a model id, as a request names it (`gpt-4o`, `claude-sonnet-4-5`,
/// `gemini-2.5-pro`, Bedrock's `us.anthropic.claude-sonnet-4-5-20250929-v1:0`, OpenRouter's
/// `openai/gpt-4o`); where several providers serve one id, the model's own maker's (then
/// Bedrock, then the compatible servers). `None` for a model the catalog does not hold: the
/// caller describes it.
///
/// ```
/// use transcript_replay::models;
///
/// let model = models::find("gemini-2.5-pro").unwrap();
/// assert_eq!((model.provider().id(), model.context_window), ("gemini", 1_048_576));
/// assert!(models::find("no-such-model").is_none());
/// ```
pub fn find(id: &str) -> Option<&'static Model> {
    let at = catalog::MODELS.partition_point(|model| model.id < id);
    catalog::MODELS.get(at).filter(|model| model.id == id)
}

/// Every model in the catalog, by id.
///
/// ```
/// let all = transcript_replay::models::all();
/// assert!(all.len() > 100);
/// assert!(all.windows(2).all(|pair| pair[0].id <= pair[1].id));
/// ```
pub fn all() -> &'static [Model] {
    catalog::MODELS
}

impl crate::Vision {
    /// Whether a model in the catalog views images: [`Sees`](crate::Vision::Sees) when it takes
    /// image input, else [`Blind`](crate::Vision::Blind); `None` for a model the catalog does
    /// not hold.
    ///
    /// ```
    /// use transcript_replay::Vision;
    ///
    /// assert_eq!(Vision::for_model("gpt-4o"), Some(Vision::Sees));
    /// assert_eq!(Vision::for_model("deepseek-chat"), Some(Vision::Blind));
    /// assert_eq!(Vision::for_model("no-such-model"), None);
    /// ```
    pub fn for_model(id: &str) -> Option<Self> {
        find(id).map(|model| match model.images {
            true => crate::Vision::Sees,
            false => crate::Vision::Blind,
        })
    }
}

/// The most output tokens a turn may ask of a model: the model's own limit where the catalog
/// holds it, whatever more the turn asked for.
pub(crate) fn capped_output(model: Option<&str>, asked: Option<u32>) -> Option<u32> {
    let most = model
        .and_then(find)
        .map(|model| u32::try_from(model.max_output).unwrap_or(u32::MAX));
    match (asked, most) {
        (Some(asked), Some(most)) => Some(asked.min(most)),
        (asked, _) => asked,
    }
}
