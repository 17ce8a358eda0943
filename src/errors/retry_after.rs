//! How long a provider asks the caller to wait before sending the request again, read from the
//! response's headers or from its error text, and the headers a provider's error reader needs.
//!
//! - `retry-after`: seconds (`30`, or `1.5`); its other form, an HTTP date, needs a clock and
//!   is not read (<https://www.rfc-editor.org/rfc/rfc9110#field.retry-after>). Anthropic
//!   sends it with a 429 (<https://docs.anthropic.com/en/api/rate-limits>), OpenAI and Groq
//!   too.
//! - `retry-after-ms`: milliseconds, which OpenAI's and Anthropic's SDKs read before
//!   `retry-after` (<https://github.com/productdevbook/misina/issues/61>).
//! - `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens`: OpenAI's and Groq's time
//!   until a limit resets, as Go durations (`1s`, `6m0s`, `12ms`;
//!   <https://thoughtbot.com/blog/openai-rate-limits>,
//!   <https://community.openai.com/t/how-to-get-rate-limit-reset-time-for-response-api/1268905>);
//!   sent with every response, so they are read only for a rate limit, and only when nothing
//!   else says how long (the longer of the two). Anthropic's `anthropic-ratelimit-*-reset` are
//!   RFC 3339 times and need a clock: not read.
//! - `x-should-retry: true|false`: the provider's own word on whether a retry can help, which
//!   the SDKs obey over the status.
//! - In the text: OpenAI's `Please try again in 1.574s` (<https://github.com/openai/codex/issues/88>)
//!   and `in 6ms` (<https://github.com/daveshap/Medical_Intake/issues/9>), Gemini's `Please
//!   retry in 58.934310785s.` (<https://github.com/googleapis/python-genai/pull/2114>).

use std::time::Duration;

/// A header's value by its name in any case (the first of that name), trimmed.
pub(crate) fn header<'h>(headers: &[(&'h str, &'h str)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(given, _)| given.trim().eq_ignore_ascii_case(name))
        .map(|(_, value)| value.trim())
}

/// What a response's headers say of a retry: how long to wait, and the provider's own word on
/// whether to retry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Hints {
    /// `retry-after-ms`, else `retry-after`.
    pub(crate) wait: Option<Duration>,
    /// The longer of the `x-ratelimit-reset-*` headers.
    pub(crate) reset: Option<Duration>,
    /// `x-should-retry`.
    pub(crate) should_retry: Option<bool>,
}

impl Hints {
    pub(crate) fn read(headers: &[(&str, &str)]) -> Self {
        let wait = header(headers, "retry-after-ms")
            .and_then(|value| amount(value, MILLISECOND))
            .or_else(|| header(headers, "retry-after").and_then(|value| amount(value, SECOND)));
        let reset = ["x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"]
            .iter()
            .filter_map(|name| header(headers, name).and_then(go_duration))
            .max();
        let should_retry = header(headers, "x-should-retry").and_then(|value| {
            match value.to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            }
        });
        Hints {
            wait,
            reset,
            should_retry,
        }
    }
}

/// The wait an error's text names: `try again in 1.574s`, `retry in 58.9s`.
pub(crate) fn in_text(text: &str) -> Option<Duration> {
    ["try again in ", "retry in "].iter().find_map(|marker| {
        let start = text.find(marker)? + marker.len();
        let word = text.get(start..)?.split_whitespace().next()?;
        go_duration(word.trim_end_matches(&['.', ',', ';', ')'][..]))
    })
}

const NANOSECOND: u128 = 1;
const MICROSECOND: u128 = 1_000;
const MILLISECOND: u128 = 1_000_000;
const SECOND: u128 = 1_000_000_000;
const MINUTE: u128 = 60 * SECOND;
const HOUR: u128 = 60 * MINUTE;

/// A duration as Go writes it (and protobuf's JSON, `30s`): numbers each with a unit, `h`,
/// `m`, `s`, `ms`, `us` or `µs`, `ns`: `1m30.5s`, `12ms`.
pub(crate) fn go_duration(text: &str) -> Option<Duration> {
    let mut rest = text;
    let mut total: u128 = 0;
    while !rest.is_empty() {
        let split = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (digits, tail) = (rest.get(..split)?, rest.get(split..)?);
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, next) = (tail.get(..unit_end)?, tail.get(unit_end..)?);
        let unit = match unit {
            "h" => HOUR,
            "m" => MINUTE,
            "s" => SECOND,
            "ms" => MILLISECOND,
            "us" | "µs" => MICROSECOND,
            "ns" => NANOSECOND,
            _ => return None,
        };
        total = total.checked_add(decimal(digits, unit)?)?;
        rest = next;
    }
    if text.is_empty() {
        return None;
    }
    nanos(total)
}

/// A decimal number of `unit`s (`1.5`, `30`), as a duration.
fn amount(text: &str, unit: u128) -> Option<Duration> {
    decimal(text, unit).and_then(nanos)
}

/// A decimal number of `unit`s, in nanoseconds: digits, then `.` and digits.
fn decimal(text: &str, unit: u128) -> Option<u128> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || whole.len() > 20 {
        return None;
    }
    let whole: u128 = whole.parse().ok()?;
    // Nanoseconds are the finest a duration holds: nine digits of a second are enough.
    let fraction = fraction.get(..fraction.len().min(9)).unwrap_or_default();
    let scale = 10u128.pow(u32::try_from(fraction.len()).ok()?);
    let fraction: u128 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    whole
        .checked_mul(unit)?
        .checked_add(fraction.checked_mul(unit)? / scale)
}

fn nanos(total: u128) -> Option<Duration> {
    let seconds = u64::try_from(total / SECOND).ok()?;
    let rest = u32::try_from(total % SECOND).ok()?;
    Some(Duration::new(seconds, rest))
}

/// A duration as seconds in decimal, exact: `30`, `1.574`, `0.006`.
pub(crate) fn seconds_text(duration: Duration) -> String {
    let nanos = duration.subsec_nanos();
    if nanos == 0 {
        return duration.as_secs().to_string();
    }
    let fraction = format!("{nanos:09}");
    format!("{}.{}", duration.as_secs(), fraction.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_written() {
        let ms = Duration::from_millis;
        for (text, expected) in [
            ("1s", Some(ms(1000))),
            ("6m0s", Some(ms(360_000))),
            ("12ms", Some(ms(12))),
            ("1m30.5s", Some(ms(90_500))),
            ("2h", Some(Duration::from_secs(7200))),
            ("58.934310785s", Some(Duration::new(58, 934_310_785))),
            ("1.5µs", Some(Duration::from_nanos(1500))),
            ("", None),
            ("5", None),
            ("s", None),
            ("1x", None),
            ("1.2.3s", None),
            ("later", None),
        ] {
            assert_eq!(go_duration(text), expected, "{text:?}");
        }
        assert_eq!(amount("1500", MILLISECOND), Some(ms(1500)));
        assert_eq!(amount("2.25", SECOND), Some(ms(2250)));
        assert_eq!(amount("Wed, 21 Oct 2015 07:28:00 GMT", SECOND), None);
        assert_eq!(amount("-1", SECOND), None);
        assert_eq!(amount("99999999999999999999999999", SECOND), None);
        assert_eq!(seconds_text(ms(1574)), "1.574");
        assert_eq!(seconds_text(ms(6)), "0.006");
        assert_eq!(seconds_text(Duration::from_secs(30)), "30");
    }

    #[test]
    fn the_wait_in_a_text() {
        assert_eq!(
            in_text("Limit 200000, Used 162960, Requested 42288. Please try again in 1.574s. Visit https://platform.openai.com/account/rate-limits to learn more."),
            Some(Duration::from_millis(1574))
        );
        assert_eq!(
            in_text("Limit: 10000 / min. Please try again in 6ms. Contact us"),
            Some(Duration::from_millis(6))
        );
        assert_eq!(
            in_text("You exceeded your current quota. Please retry in 58.934310785s."),
            Some(Duration::new(58, 934_310_785))
        );
        assert_eq!(in_text("Resource exhausted. Please try again later."), None);
        assert_eq!(
            in_text("decrease input length or `max_tokens` and try again"),
            None
        );
    }
}
