//! How each model family prices an image from its pixel size: the providers' published
//! rules, as data.

/// How a model family prices an image, from its pixel size: the provider's published rule,
/// as data, with its source and the date it was read.
///
/// The crate's rules are in [`IMAGE_TOKENS`] (look one up with [`image_tokens`]); a caller may
/// make its own for a family the crate does not list.
///
/// ```
/// use transcript_replay::{cost::image_tokens, cost::ImageRule, cost::ImageTokens};
///
/// // OpenAI's worked example: a 1024x1024 image at high detail on GPT-4o is 765 tokens.
/// assert_eq!(image_tokens("gpt-4o").unwrap().tokens(1024, 1024), 765);
/// let mine = ImageTokens { family: "my-model", rule: ImageRule::Flat(500), source: "my notes", date: "2026-11-30" };
/// assert_eq!(mine.tokens(4000, 3000), 500);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageTokens {
    /// The family's name, as `image_tokens` and the example's `--family` take it.
    pub family: &'static str,
    /// How the family prices an image.
    pub rule: ImageRule,
    /// Where the rule is published.
    pub source: &'static str,
    /// When the rule was read there.
    pub date: &'static str,
}

/// The shapes the providers' published image-token rules take.
///
/// ```
/// use transcript_replay::cost::ImageRule;
///
/// let anthropic = ImageRule::Patches28 { max_long_edge: 1568, max_tokens: 1568 };
/// assert_eq!(anthropic.tokens(200, 200), 64);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ImageRule {
    /// Anthropic: `ceil(w/28) * ceil(h/28)` tokens, after the largest aspect-preserving
    /// resize that keeps the long edge within `max_long_edge` and the tokens within
    /// `max_tokens`.
    Patches28 {
        /// The longest side, in pixels.
        max_long_edge: u32,
        /// The most tokens an image may cost.
        max_tokens: u32,
    },
    /// Anthropic's older rule: `w * h / 750` tokens, after scaling the long edge to at most
    /// `max_long_edge`.
    Area {
        /// The pixels that make one token.
        divisor: u32,
        /// The longest side, in pixels.
        max_long_edge: u32,
    },
    /// OpenAI tile models at high (or auto) detail: scale to fit 2048x2048, then the
    /// shortest side to 768; `base + per_tile * tiles` of 512x512.
    Tiles {
        /// The tokens of any image.
        base: u32,
        /// The tokens of each 512x512 tile.
        per_tile: u32,
    },
    /// OpenAI patch models: `ceil(w/32) * ceil(h/32)` patches, scaled down to at most
    /// `max_patches`, times a multiplier (in thousandths).
    Patches32 {
        /// The most patches an image may have.
        max_patches: u32,
        /// Tokens per patch, in thousandths.
        multiplier_milli: u32,
    },
    /// Gemini 2.x: 258 tokens when both sides are at most 384 pixels, else 258 for each
    /// 768x768 tile.
    GeminiTiles,
    /// A flat count for any image (Gemini 3's `media_resolution` levels).
    Flat(u32),
}

impl ImageTokens {
    /// The tokens of an image of the given size.
    ///
    /// ```
    /// let claude = transcript_replay::cost::image_tokens("claude").unwrap();
    /// assert_eq!(claude.tokens(1920, 1080), 1560);
    /// ```
    pub fn tokens(&self, width: u32, height: u32) -> u64 {
        self.rule.tokens(width, height)
    }

    /// The tokens of an image whose size its header does not give: the most an image can
    /// cost under the rule, or, for a rule without a most, the cost of a 2048x2048 image.
    ///
    /// ```
    /// let claude = transcript_replay::cost::image_tokens("claude").unwrap();
    /// assert_eq!(claude.tokens_of_unknown_size(), 1568);
    /// ```
    pub fn tokens_of_unknown_size(&self) -> u64 {
        self.rule.tokens_of_unknown_size()
    }
}

impl ImageRule {
    /// The tokens of an image of the given size under this rule.
    ///
    /// ```
    /// use transcript_replay::cost::ImageRule;
    ///
    /// assert_eq!(ImageRule::Tiles { base: 85, per_tile: 170 }.tokens(2048, 4096), 1105);
    /// ```
    pub fn tokens(self, width: u32, height: u32) -> u64 {
        let (width, height) = (u64::from(width.max(1)), u64::from(height.max(1)));
        match self {
            ImageRule::Patches28 {
                max_long_edge,
                max_tokens,
            } => patches28(
                width,
                height,
                u64::from(max_long_edge),
                u64::from(max_tokens),
            ),
            ImageRule::Area {
                divisor,
                max_long_edge,
            } => {
                let (width, height) = fit(width as f64, height as f64, f64::from(max_long_edge));
                (width * height / f64::from(divisor.max(1))).ceil() as u64
            }
            ImageRule::Tiles { base, per_tile } => {
                let (width, height) = fit(width as f64, height as f64, 2048.0);
                let short = width.min(height);
                let scale = if short > 768.0 { 768.0 / short } else { 1.0 };
                let tiles = ceil_div(width * scale, 512.0) * ceil_div(height * scale, 512.0);
                u64::from(base) + u64::from(per_tile) * tiles
            }
            ImageRule::Patches32 {
                max_patches,
                multiplier_milli,
            } => {
                let patches = patches32(width as f64, height as f64, f64::from(max_patches));
                (patches * u64::from(multiplier_milli)).div_ceil(1000)
            }
            ImageRule::GeminiTiles => {
                if width <= 384 && height <= 384 {
                    258
                } else {
                    258 * width.div_ceil(768) * height.div_ceil(768)
                }
            }
            ImageRule::Flat(tokens) => u64::from(tokens),
        }
    }

    fn tokens_of_unknown_size(self) -> u64 {
        match self {
            ImageRule::Patches28 { max_tokens, .. } => u64::from(max_tokens),
            // A 768x2048 image has the most tiles once scaled: 2 by 4.
            ImageRule::Tiles { base, per_tile } => u64::from(base) + u64::from(per_tile) * 8,
            ImageRule::Patches32 {
                max_patches,
                multiplier_milli,
            } => (u64::from(max_patches) * u64::from(multiplier_milli)).div_ceil(1000),
            ImageRule::Flat(tokens) => u64::from(tokens),
            ImageRule::Area { .. } | ImageRule::GeminiTiles => self.tokens(2048, 2048),
        }
    }
}

/// Scales a size down, keeping its aspect, so that its long side is at most `edge`.
fn fit(width: f64, height: f64, edge: f64) -> (f64, f64) {
    let long = width.max(height);
    if long > edge {
        (width * edge / long, height * edge / long)
    } else {
        (width, height)
    }
}

/// `ceil(value / unit)`, tolerant of the rounding of a value that should be whole.
fn ceil_div(value: f64, unit: f64) -> u64 {
    ((value / unit) - 1e-9).ceil().max(1.0) as u64
}

/// Anthropic's rule: the largest aspect-preserving size within both caps, found by walking
/// the long side down from the largest it may be.
fn patches28(width: u64, height: u64, max_long_edge: u64, max_tokens: u64) -> u64 {
    let (long, short) = (width.max(height), width.min(height));
    let tokens = |long_side: u64| {
        let short_side = ((long_side * short) as f64 / long as f64).round().max(1.0) as u64;
        long_side.div_ceil(28) * short_side.div_ceil(28)
    };
    // The area bound gives a start at most a few patches above the answer.
    let by_area = ((max_tokens * 784 * long) as f64 / short as f64).sqrt() as u64 + 56;
    let mut long_side = long.min(max_long_edge).min(by_area).max(1);
    while long_side > 1 && tokens(long_side) > max_tokens {
        long_side -= 1;
    }
    tokens(long_side)
}

/// OpenAI's patch models: patches of 32 pixels, scaled down to at most `max` of them.
fn patches32(width: f64, height: f64, max: f64) -> u64 {
    let patches = ceil_div(width, 32.0) * ceil_div(height, 32.0);
    if patches as f64 <= max {
        return patches;
    }
    let mut scale = (32.0 * 32.0 * max / (width * height)).sqrt();
    let (columns, rows) = (width * scale / 32.0, height * scale / 32.0);
    scale *= (columns.floor() / columns).min(rows.floor() / rows);
    (ceil_div(width * scale, 32.0) * ceil_div(height * scale, 32.0)).min(max as u64)
}

/// The rules the crate knows, one per model family.
///
/// Sources: Anthropic's vision guide,
/// <https://platform.claude.com/docs/en/build-with-claude/vision> (read 2026-07-30: 28-pixel
/// patches, 1568 pixels and 1568 tokens; 2576 and 4784 for "Claude 4.7 and later"; its older
/// text gave `w*h/750`, which overestimates large images, kept as `claude-legacy`). OpenAI's
/// "Images and vision" guide, <https://platform.openai.com/docs/guides/images-vision> (tile
/// models' base and per-tile tokens; patch models' 1536-patch budget and multipliers;
/// `auto` detail priced as high, which overestimates). Gemini's token guide,
/// <https://ai.google.dev/gemini-api/docs/tokens> (258 tokens up to 384 pixels, else per
/// 768x768 tile), and its media-resolution guide,
/// <https://ai.google.dev/gemini-api/docs/media-resolution> (Gemini 3: 280, 560, 1120 and
/// 2240 tokens; 1120 is the default for images).
pub const IMAGE_TOKENS: &[ImageTokens] = &[
    CLAUDE,
    CLAUDE_HIGH_RES,
    CLAUDE_LEGACY,
    GPT_4O,
    GPT_4_1,
    GPT_4_5,
    GPT_5,
    O1,
    O3,
    GPT_4O_MINI,
    COMPUTER_USE_PREVIEW,
    GPT_4_1_MINI,
    GPT_5_MINI,
    GPT_4_1_NANO,
    GPT_5_NANO,
    O4_MINI,
    GEMINI_2,
    GEMINI_3,
    gemini3("gemini-3-low", 280),
    gemini3("gemini-3-medium", 560),
    gemini3("gemini-3-ultra-high", 2240),
];

// The families a model's name picks (`model_family.rs`), named once so that its table and
// `IMAGE_TOKENS` share the very rules.
pub(crate) const CLAUDE: ImageTokens = claude("claude", 1568, 1568);
pub(crate) const CLAUDE_HIGH_RES: ImageTokens = claude("claude-high-res", 2576, 4784);
const CLAUDE_LEGACY: ImageTokens = ImageTokens {
    family: "claude-legacy",
    rule: ImageRule::Area {
        divisor: 750,
        max_long_edge: 1568,
    },
    source: ANTHROPIC,
    date: "2025-06-01",
};
pub(crate) const GPT_4O: ImageTokens = tiles("gpt-4o", 85, 170);
pub(crate) const GPT_4_1: ImageTokens = tiles("gpt-4.1", 85, 170);
pub(crate) const GPT_4_5: ImageTokens = tiles("gpt-4.5", 85, 170);
pub(crate) const GPT_5: ImageTokens = tiles("gpt-5", 70, 140);
pub(crate) const O1: ImageTokens = tiles("o1", 75, 150);
pub(crate) const O3: ImageTokens = tiles("o3", 75, 150);
pub(crate) const GPT_4O_MINI: ImageTokens = tiles("gpt-4o-mini", 2833, 5667);
pub(crate) const COMPUTER_USE_PREVIEW: ImageTokens = tiles("computer-use-preview", 65, 129);
pub(crate) const GPT_4_1_MINI: ImageTokens = patches("gpt-4.1-mini", 1620);
pub(crate) const GPT_5_MINI: ImageTokens = patches("gpt-5-mini", 1620);
pub(crate) const GPT_4_1_NANO: ImageTokens = patches("gpt-4.1-nano", 2460);
pub(crate) const GPT_5_NANO: ImageTokens = patches("gpt-5-nano", 2460);
pub(crate) const O4_MINI: ImageTokens = patches("o4-mini", 1720);
pub(crate) const GEMINI_2: ImageTokens = ImageTokens {
    family: "gemini-2",
    rule: ImageRule::GeminiTiles,
    source: "https://ai.google.dev/gemini-api/docs/tokens",
    date: "2026-11-30",
};
pub(crate) const GEMINI_3: ImageTokens = gemini3("gemini-3", 1120);

pub(crate) const ANTHROPIC: &str = "https://platform.claude.com/docs/en/build-with-claude/vision";
pub(crate) const OPENAI: &str = "https://platform.openai.com/docs/guides/images-vision";

const fn claude(family: &'static str, max_long_edge: u32, max_tokens: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Patches28 {
            max_long_edge,
            max_tokens,
        },
        source: ANTHROPIC,
        date: "2026-07-30",
    }
}

const fn tiles(family: &'static str, base: u32, per_tile: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Tiles { base, per_tile },
        source: OPENAI,
        date: "2026-03-05",
    }
}

const fn patches(family: &'static str, multiplier_milli: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Patches32 {
            max_patches: 1536,
            multiplier_milli,
        },
        source: OPENAI,
        date: "2026-03-05",
    }
}

const fn gemini3(family: &'static str, tokens: u32) -> ImageTokens {
    ImageTokens {
        family,
        rule: ImageRule::Flat(tokens),
        source: "https://ai.google.dev/gemini-api/docs/media-resolution",
        date: "2026-11-30",
    }
}

/// The crate's rule for a model family, by name (see [`IMAGE_TOKENS`]).
///
/// ```
/// use transcript_replay::cost::image_tokens;
///
/// assert_eq!(image_tokens("gpt-4.1-mini").unwrap().tokens(1024, 1024), 1659);
/// assert!(image_tokens("no-such-family").is_none());
/// ```
pub fn image_tokens(family: &str) -> Option<&'static ImageTokens> {
    IMAGE_TOKENS.iter().find(|rule| rule.family == family)
}
