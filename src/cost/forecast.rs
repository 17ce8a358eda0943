//! What the provider's prompt cache will read and write between two bodies of one
//! conversation, by the provider's own rule ([`CacheRule`], stated in each provider's folder),
//! and what the next body's input then costs.

use serde::Serialize;

use crate::tokens::estimate_tokens;

/// How a provider caches a prompt: by itself, on the longest prefix a request shares with an
/// earlier one, or at the breakpoints the body marks.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CacheRule {
    /// The longest prefix shared with the earlier request is read from the cache, once it is
    /// at least `minimum(model)` tokens long, in whole steps of `step` tokens from there
    /// (`step` 1 for any length); nothing is billed as a write.
    Prefix { minimum: fn(&str) -> u64, step: u64 },
    /// The body marks its breakpoints with `marker` (a member of the block it ends, or an
    /// element of its own): the longest prefix that ends at one of the earlier body's
    /// breakpoints, and that the next body begins with, is read; what the next body adds up to
    /// its last breakpoint is written. A prefix shorter than `minimum(model)` tokens is not
    /// cached.
    Breakpoints {
        marker: &'static str,
        minimum: fn(&str) -> u64,
    },
}

/// What the provider's cache will do with the next body of a conversation, after the one
/// before it, in tokens of the next body's JSON text (by [`estimate_tokens`]): those read
/// from the cache, those written to it, and the rest; and what the next body's input costs at
/// the model's prices, where the catalog gives them. The forecast assumes the earlier body was
/// sent within the cache's lifetime (Anthropic's 5 minutes or 1 hour, OpenAI's and Gemini's
/// minutes), as a conversation's next turn is.
///
/// It serializes as `{"cache_read_tokens","cache_write_tokens","uncached_tokens","usd"?}`.
///
/// ```
/// use transcript_replay::{cost::forecast, openai, Priced, StoredMessage, Turn};
///
/// let history: Vec<StoredMessage> = (0..60)
///     .map(|n| StoredMessage::user(format!("Step {n}: {}", "the build log says ok. ".repeat(20))))
///     .collect();
/// let first = openai::body(&Turn::new(&history[..59]).model("gpt-4o"))?.to_json().unwrap();
/// let next = openai::body(&Turn::new(&history).model("gpt-4o"))?.to_json().unwrap();
/// let (first, next) = (String::from_utf8(first).unwrap(), String::from_utf8(next).unwrap());
/// let cache = forecast(&first, &next, "gpt-4o").unwrap();
/// // The old prefix is read, in steps of 128 tokens; the new turn is not.
/// assert!(cache.cache_read_tokens >= 1_024 && cache.cache_read_tokens % 128 == 0);
/// assert!(cache.uncached_tokens > 0);
/// assert_eq!(cache.cache_write_tokens, 0);
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Forecast {
    /// The tokens read from the cache.
    pub cache_read_tokens: u64,
    /// The tokens written to the cache (billed apart where the provider prices writes).
    pub cache_write_tokens: u64,
    /// The tokens neither read nor written: billed at the input price.
    pub uncached_tokens: u64,
    /// The next body's input in US dollars: reads at the cache-read price, writes at the
    /// cache-write price (the input price where the model has none), the rest at the input
    /// price; `None` (and left out) when the catalog gives no prices.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usd: Option<f64>,
}

/// The forecast of the prompt cache between `previous` and `next`, two request bodies of one
/// conversation as JSON text, for a model in the catalog
/// ([`models::find`](crate::models::find)), by its provider's rule: `None` for a model the
/// catalog does not hold.
///
/// - OpenAI (Chat, Responses, and the compatible servers): the longest shared prefix, from
///   1,024 tokens, in steps of 128
///   (<https://platform.openai.com/docs/guides/prompt-caching>).
/// - Anthropic: the `cache_control` breakpoints, a prefix of at least 1,024 tokens (2,048 for
///   the Claude 3 Haiku models, 4,096 for Opus 4.5 and Haiku 4.5)
///   (<https://docs.claude.com/en/docs/build-with-claude/prompt-caching>).
/// - Gemini: its implicit cache, the longest shared prefix from 1,024 tokens (2,048 for the
///   Pro models) (<https://ai.google.dev/gemini-api/docs/caching>).
/// - Bedrock: the `cachePoint` blocks, a prefix of at least 1,024 tokens
///   (<https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html>).
///
/// A body forecast against itself is read whole (the rule's minimum and steps allowing); a
/// body sharing no prefix with the earlier one reads nothing.
///
/// ```
/// use transcript_replay::cost::forecast;
///
/// let body = format!(r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"{}"}}]}}"#, "word ".repeat(3_000));
/// let same = forecast(&body, &body, "gpt-4o").unwrap();
/// assert_eq!(same.cache_read_tokens + same.uncached_tokens, transcript_replay::cost::estimate_tokens(&body) as u64);
/// assert!(same.uncached_tokens < 128);
/// assert!(forecast(&body, &body, "no-such-model").is_none());
/// ```
pub fn forecast(previous: &str, next: &str, model: &str) -> Option<Forecast> {
    let entry = crate::models::find(model)?;
    let rule = entry.provider().surface().cache_rule;
    let total = estimate_tokens(next) as u64;
    let (read, written) = match rule {
        CacheRule::Prefix { minimum, step } => {
            let shared = shared_prefix(previous, next);
            let tokens = prefix_tokens(next, shared);
            let read = if tokens >= minimum(model) {
                tokens / step.max(1) * step.max(1)
            } else {
                0
            };
            (read, 0)
        }
        CacheRule::Breakpoints { marker, minimum } => {
            let (before, written_at) = unmarked(previous, marker);
            let (after, breakpoints) = unmarked(next, marker);
            let least = minimum(model);
            let read = written_at
                .iter()
                .filter(|&&at| at <= after.len() && before.get(..at) == after.get(..at))
                .map(|&at| prefix_tokens(&after, at))
                .filter(|&tokens| tokens >= least)
                .max()
                .unwrap_or(0);
            let last = breakpoints
                .iter()
                .map(|&at| prefix_tokens(&after, at))
                .filter(|&tokens| tokens >= least)
                .max()
                .unwrap_or(0);
            (read, last.saturating_sub(read))
        }
    };
    let read = read.min(total);
    let written = written.min(total - read);
    let uncached = total - read - written;
    let usd = entry.usd_per_mtok.map(|prices| {
        let prices = prices.for_prompt(total);
        let per_token = |price: f64| price / 1_000_000.0;
        read as f64 * per_token(prices.cache_read.unwrap_or(prices.input))
            + written as f64 * per_token(prices.cache_write.unwrap_or(prices.input))
            + uncached as f64 * per_token(prices.input)
    });
    Some(Forecast {
        cache_read_tokens: read,
        cache_write_tokens: written,
        uncached_tokens: uncached,
        usd,
    })
}

/// How many bytes two texts share at their start, at a character boundary.
fn shared_prefix(a: &str, b: &str) -> usize {
    let mut shared = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !b.is_char_boundary(shared) {
        shared -= 1;
    }
    shared
}

/// The tokens of the first `bytes` of a text (at a character boundary at or before it).
fn prefix_tokens(text: &str, bytes: usize) -> u64 {
    let mut at = bytes.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    if at == 0 {
        return 0;
    }
    text.get(..at)
        .map_or(0, |prefix| estimate_tokens(prefix) as u64)
}

/// The body with its breakpoint markers taken out (the provider's cache reads the content,
/// not where the marks stand), and where each stood in what is left: a member
/// `"marker":{...}` of the block it ends, or an element `{"marker":{...}}` of its own.
fn unmarked(body: &str, marker: &str) -> (String, Vec<usize>) {
    let key = format!("\"{marker}\":");
    let mut out = String::with_capacity(body.len());
    let mut points = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find(&key) {
        let value_end = at + key.len() + value_len(rest.get(at + key.len()..).unwrap_or(""));
        let (before, after) = (
            rest.get(..at).unwrap_or(""),
            rest.get(value_end..).unwrap_or(""),
        );
        if let Some(kept) = before.strip_suffix(',') {
            // A member after others: `,"marker":{...}`.
            out.push_str(kept);
            rest = after;
        } else if let (Some(kept), Some(after)) =
            (before.strip_suffix('{'), after.strip_prefix('}'))
        {
            // An element of its own: `{"marker":{...}}`, with the comma before it or after.
            match kept.strip_suffix(',') {
                Some(kept) => {
                    out.push_str(kept);
                    rest = after;
                }
                None => {
                    out.push_str(kept);
                    rest = after.strip_prefix(',').unwrap_or(after);
                }
            }
        } else {
            // The first member of a block with others after it: `"marker":{...},`.
            out.push_str(before);
            rest = after.strip_prefix(',').unwrap_or(after);
        }
        points.push(out.len());
    }
    out.push_str(rest);
    (out, points)
}

/// The length of the JSON value at the start of `text` (an object, an array, a string or a
/// word), by its brackets and strings.
fn value_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (index, &byte) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    if depth == 0 {
                        return index + 1;
                    }
                }
                (false, _) => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth <= 1 {
                    return index + 1;
                }
                depth -= 1;
            }
            b',' if depth == 0 => return index,
            _ => {}
        }
    }
    bytes.len()
}
