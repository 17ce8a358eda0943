//! What a reply carries beyond its message: the container its code ran in, why it stopped in
//! detail, the model it was handed to, the guardrail's trace, the URLs it read, the search
//! suggestions to show. Never part of the stored message, never silently dropped: each reader
//! puts here what its provider sends, and [`Reply::metadata`](crate::Reply::metadata) gives it.

use serde::ser::{Serialize, SerializeMap, Serializer};

/// What a reply carried beyond its message, listed; [`Reply::metadata`](crate::Reply::metadata)
/// gives it. Each field is empty (`None`, or an empty list) when the reply did not carry it.
/// The example program's `--outcome` prints it as `"metadata"`, each field under its own name
/// and left out when empty, the whole object left out when every field is.
///
/// `#[non_exhaustive]`: a provider will send more, and a field will come for it.
///
/// ```
/// use transcript_replay::anthropic;
///
/// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [],
///   "stop_reason": "refusal",
///   "stop_details": {"type": "refusal", "category": "cyber", "explanation": "Not that."},
///   "container": {"id": "container_1", "expires_at": "2026-12-06T13:00:00Z"}}"#)?;
/// let metadata = reply.metadata();
/// assert_eq!(metadata.stop_details.as_ref().and_then(|details| details.category.as_deref()), Some("cyber"));
/// assert_eq!(metadata.container.as_ref().map(|container| container.id.as_str()), Some("container_1"));
/// assert!(!metadata.is_empty());
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Metadata {
    /// The container the provider's code ran in, which a later request names to reuse it
    /// (its files, its state) until it expires.
    pub container: Option<Container>,
    /// Why the model stopped, in more detail than the stop reason (a refusal's policy
    /// category and explanation).
    pub stop_details: Option<StopDetails>,
    /// The models the request was handed to after the one it named, in order (a fallback).
    pub model_hops: Vec<ModelHop>,
    /// The guardrail's trace of what it assessed and why it acted, as the provider's JSON
    /// text, compacted.
    pub guardrail_trace: Option<String>,
    /// The URLs the model was given to read, each with whether it was read: a read one is
    /// also a `source` block of the message, a failed one is only here.
    pub urls: Vec<UrlRetrieval>,
    /// The search suggestions a grounded reply carries, as the provider rendered them; the
    /// same as [`Reply::search_suggestions`](crate::Reply::search_suggestions).
    pub search_suggestions: Option<String>,
    /// Why the provider blocked the prompt, in its word (Gemini's `promptFeedback.blockReason`,
    /// such as `SAFETY`): the reply then has no content and stops for the content filter.
    pub prompt_blocked: Option<String>,
    /// How many choices (candidates) the reply carried after the first, which is the one read:
    /// a reply is one message, and the others are counted here rather than silently dropped.
    pub other_choices: usize,
}

/// The container a provider ran a reply's code in.
///
/// ```
/// use transcript_replay::anthropic;
///
/// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [{"type": "text", "text": "Ran it."}],
///   "stop_reason": "end_turn", "container": {"id": "container_1", "expires_at": "2026-12-06T13:00:00Z"}}"#)?;
/// let container = reply.container().expect("a container");
/// assert_eq!((container.id.as_str(), container.expires_at.as_deref()), ("container_1", Some("2026-12-06T13:00:00Z")));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Container {
    /// The container's id.
    pub id: String,
    /// When it expires, as the provider wrote the time (RFC 3339).
    pub expires_at: Option<String>,
}

/// Why a reply stopped, in detail: a refusal's policy category and its explanation.
///
/// ```
/// use transcript_replay::{anthropic, StopReason};
///
/// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [], "stop_reason": "refusal",
///   "stop_details": {"type": "refusal", "category": null, "explanation": "Not that."}}"#)?;
/// assert_eq!(reply.stop, StopReason::Refusal);
/// let details = reply.metadata().stop_details.as_ref().expect("details");
/// assert_eq!((details.kind.as_deref(), details.category.as_deref(), details.explanation.as_deref()),
///     (Some("refusal"), None, Some("Not that.")));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StopDetails {
    /// The kind of detail, as the provider named it (`refusal`).
    pub kind: Option<String>,
    /// The policy category, when the provider named one.
    pub category: Option<String>,
    /// The provider's explanation, for a person to read (not stable text).
    pub explanation: Option<String>,
}

/// One hop from the model a request named to the model that answered it.
///
/// ```
/// use transcript_replay::anthropic;
///
/// let reply = anthropic::read_reply(r#"{"role": "assistant", "content": [
///     {"type": "fallback", "from": {"model": "claude-opus-4-5"}, "to": {"model": "claude-sonnet-4-5"}},
///     {"type": "text", "text": "Hi"}], "stop_reason": "end_turn"}"#)?;
/// let hop = &reply.metadata().model_hops[0];
/// assert_eq!((hop.from.as_deref(), hop.to.as_deref()), (Some("claude-opus-4-5"), Some("claude-sonnet-4-5")));
/// assert_eq!(reply.message.blocks.len(), 1);
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ModelHop {
    /// The model the request was for.
    pub from: Option<String>,
    /// The model that answered instead.
    pub to: Option<String>,
}

/// A URL the model was given to read, and whether it was read.
///
/// ```
/// use transcript_replay::gemini;
///
/// let reply = gemini::read_reply(r#"{"candidates": [{"content": {"parts": [{"text": "Read one."}]},
///   "finishReason": "STOP", "urlContextMetadata": {"urlMetadata": [
///     {"retrievedUrl": "https://a.example", "urlRetrievalStatus": "URL_RETRIEVAL_STATUS_SUCCESS"},
///     {"retrievedUrl": "https://b.example", "urlRetrievalStatus": "URL_RETRIEVAL_STATUS_ERROR"}]}}]}"#)?;
/// let urls = &reply.metadata().urls;
/// assert_eq!((urls[0].url.as_str(), urls[0].read), ("https://a.example", true));
/// assert_eq!((urls[1].url.as_str(), urls[1].status.as_str(), urls[1].read), ("https://b.example", "URL_RETRIEVAL_STATUS_ERROR", false));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UrlRetrieval {
    /// The URL.
    pub url: String,
    /// The provider's word for how reading it went.
    pub status: String,
    /// Whether it was read.
    pub read: bool,
}

impl Metadata {
    /// Whether the reply carried none of it.
    ///
    /// ```
    /// use transcript_replay::gemini;
    ///
    /// let reply = gemini::read_reply(r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}"#)?;
    /// assert!(reply.metadata().is_empty());
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Metadata::default()
    }
}

impl Container {
    /// A container of this id.
    pub(crate) fn new(id: String, expires_at: Option<String>) -> Self {
        Container { id, expires_at }
    }
}

impl StopDetails {
    /// Details of this kind, category and explanation.
    pub(crate) fn new(
        kind: Option<String>,
        category: Option<String>,
        explanation: Option<String>,
    ) -> Self {
        StopDetails {
            kind,
            category,
            explanation,
        }
    }
}

impl ModelHop {
    /// A hop between these models.
    pub(crate) fn new(from: Option<String>, to: Option<String>) -> Self {
        ModelHop { from, to }
    }
}

impl UrlRetrieval {
    /// A URL, its status, and whether it was read.
    pub(crate) fn new(url: String, status: String, read: bool) -> Self {
        UrlRetrieval { url, status, read }
    }
}

impl Serialize for Metadata {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(container) = &self.container {
            map.serialize_entry(
                "container",
                &Fields(&[
                    ("id", Some(container.id.as_str())),
                    ("expires_at", container.expires_at.as_deref()),
                ]),
            )?;
        }
        if let Some(details) = &self.stop_details {
            map.serialize_entry(
                "stop_details",
                &Fields(&[
                    ("type", details.kind.as_deref()),
                    ("category", details.category.as_deref()),
                    ("explanation", details.explanation.as_deref()),
                ]),
            )?;
        }
        if !self.model_hops.is_empty() {
            let hops: Vec<Hop<'_>> = self.model_hops.iter().map(Hop).collect();
            map.serialize_entry("model_hops", &hops)?;
        }
        if let Some(trace) = &self.guardrail_trace {
            match serde_json::value::RawValue::from_string(trace.clone()) {
                Ok(raw) => map.serialize_entry("guardrail_trace", &raw)?,
                Err(_) => map.serialize_entry("guardrail_trace", trace)?,
            }
        }
        if !self.urls.is_empty() {
            let urls: Vec<Url<'_>> = self.urls.iter().map(Url).collect();
            map.serialize_entry("urls", &urls)?;
        }
        if let Some(suggestions) = &self.search_suggestions {
            map.serialize_entry("search_suggestions", suggestions)?;
        }
        if let Some(reason) = &self.prompt_blocked {
            map.serialize_entry("prompt_blocked", reason)?;
        }
        if self.other_choices > 0 {
            map.serialize_entry("other_choices", &self.other_choices)?;
        }
        map.end()
    }
}

/// An object of string fields, each left out when absent.
struct Fields<'a>(&'a [(&'a str, Option<&'a str>)]);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in self.0 {
            if let Some(value) = value {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

/// A hop as `--outcome` prints it: `{"from": ..., "to": ...}`, a model left out when unknown.
struct Hop<'a>(&'a ModelHop);

impl Serialize for Hop<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Fields(&[
            ("from", self.0.from.as_deref()),
            ("to", self.0.to.as_deref()),
        ])
        .serialize(serializer)
    }
}

/// A URL as `--outcome` prints it: `{"url": ..., "status": ..., "read": true}`.
struct Url<'a>(&'a UrlRetrieval);

impl Serialize for Url<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("url", &self.0.url)?;
        map.serialize_entry("status", &self.0.status)?;
        map.serialize_entry("read", &self.0.read)?;
        map.end()
    }
}
